//! Tokens: quoted strings with their escapes (§7.1), the number grammar
//! (§4), literals, and delimiter-separated cells (§11.2).
//!
//! Everything works on byte offsets into the source; a token becomes a
//! `String` exactly once, when its value is built.

use super::Fault;
use crate::number::NumberError;
use crate::toon::scan;
use crate::{ErrorKind, Number, Value};

pub(crate) use crate::toon::scan::scan_unquoted;

/// The source text, for token-level work. A small `Copy` value apart from
/// the parser's mutable state, so that a token can be decoded straight into
/// a slot the parser owns.
#[derive(Clone, Copy)]
pub(crate) struct Tok<'a> {
    pub(crate) text: &'a str,
    pub(crate) src: &'a [u8],
}

impl<'a> Tok<'a> {
    /// The source text between two offsets that lie on character boundaries.
    ///
    /// Every offset the decoder produces sits next to an ASCII byte or at a
    /// line's end, so the lookup cannot fail; it is checked anyway, so that a
    /// mistake costs a wrong token rather than a panic.
    #[inline]
    pub(crate) fn s(&self, a: usize, b: usize) -> &'a str {
        debug_assert!(self.text.get(a..b).is_some(), "offsets {a}..{b}");
        self.text.get(a..b).unwrap_or_default()
    }

    /// `[a, b)` without surrounding U+0020 spaces ([`scan::trim`]).
    #[inline]
    pub(super) fn trim(&self, a: usize, b: usize) -> (usize, usize) {
        scan::trim(self.src, a, b)
    }

    /// The first `needle` in `[from, to)` outside double quotes
    /// ([`scan::find_unquoted`]).
    #[inline]
    pub(super) fn find_unquoted(&self, from: usize, to: usize, needle: u8) -> Option<usize> {
        scan::find_unquoted(self.src, from, to, needle)
    }

    /// The closing quote of the string opened at `open`, if it closes
    /// before `to` ([`scan::closing_quote`]).
    #[inline]
    pub(crate) fn closing_quote(&self, open: usize, to: usize) -> Option<usize> {
        scan::closing_quote(self.src, open, to)
    }

    /// Decodes the quoted string opened at `open`; returns it and the offset
    /// just past its closing quote.
    pub(crate) fn quoted(&self, open: usize, to: usize) -> Result<(String, usize), Fault> {
        let src = self.src;
        let start = open + 1;
        let mut i = start;
        // Most strings carry no escapes: find the end and copy once.
        loop {
            if i >= to {
                return Err(unterminated(open));
            }
            match src[i] {
                b'"' => return Ok((self.s(start, i).to_owned(), i + 1)),
                b'\\' => break,
                _ => i += 1,
            }
        }
        // Escapes never lengthen a string: its text up to the closing quote
        // bounds it (an unterminated one is an error, whatever it holds).
        let end = self.closing_quote(open, to).unwrap_or(to);
        let mut out = String::with_capacity(end - start);
        out.push_str(self.s(start, i));
        loop {
            if i >= to {
                return Err(unterminated(open));
            }
            match src[i] {
                b'"' => return Ok((out, i + 1)),
                b'\\' => {
                    let Some(&c) = src.get(i + 1).filter(|_| i + 1 < to) else {
                        return Err(unterminated(open));
                    };
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            out.push(self.unicode_escape(i, to)?);
                            i += 6;
                            continue;
                        }
                        _ => {
                            let found = self.s(i + 1, to).chars().next().unwrap_or('?');
                            return Err(Fault::new(
                                ErrorKind::InvalidEscape,
                                i,
                                format!(
                                    "expected one of the escapes \\\\ \\\" \\n \\r \\t \\uXXXX, found \\{}",
                                    found.escape_debug()
                                ),
                            ));
                        }
                    }
                    i += 2;
                }
                _ => {
                    let run = i;
                    while i < to && src[i] != b'"' && src[i] != b'\\' {
                        i += 1;
                    }
                    out.push_str(self.s(run, i));
                }
            }
        }
    }

    /// The character of the `\uXXXX` escape whose backslash is at `at`.
    fn unicode_escape(&self, at: usize, to: usize) -> Result<char, Fault> {
        let hex = self
            .src
            .get(at + 2..at + 6)
            .filter(|_| at + 6 <= to)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
        let Some(hex) = hex else {
            return Err(Fault::new(
                ErrorKind::InvalidEscape,
                at,
                "expected four hex digits after \\u",
            ));
        };
        let code = hex.iter().fold(0u32, |n, &h| {
            n * 16 + (h as char).to_digit(16).unwrap_or_default()
        });
        char::from_u32(code).ok_or_else(|| {
            Fault::new(
                ErrorKind::LoneSurrogate,
                at,
                format!(
                    "expected a Unicode scalar value, found the surrogate escape \\u{}: \
                     characters beyond U+FFFF must appear as literal UTF-8",
                    self.s(at + 2, at + 6)
                ),
            )
        })
    }

    /// The primitive that the whole token `[a, b)` denotes (`a < b`, trimmed):
    /// a quoted string, a literal, a number or an unquoted string.
    pub(crate) fn value_token(&self, a: usize, b: usize) -> Result<Value, Fault> {
        let mut v = Value::Null;
        self.value_into(a, b, &mut v)?;
        Ok(v)
    }

    /// [`Tok::value_token`], written into `out`.
    ///
    /// Values are decoded straight into the slot that keeps them: moving a
    /// value that was just written field by field stalls the CPU's store
    /// forwarding, and at one value per line that is measurable.
    #[inline]
    pub(super) fn value_into(&self, a: usize, b: usize, out: &mut Value) -> Result<(), Fault> {
        if self.src[a] == b'"' {
            let (s, after) = self.quoted(a, b)?;
            if after != b {
                return Err(after_quote(after));
            }
            fill(out, Value::String(s));
            return Ok(());
        }
        self.unquoted_into(a, b, out)
    }

    /// One delimiter-separated cell starting at `i`, written into `out`;
    /// returns the offset of the delimiter that ends it (or `b`).
    #[inline]
    pub(super) fn cell_into(
        &self,
        i: usize,
        b: usize,
        delim: u8,
        out: &mut Value,
    ) -> Result<usize, Fault> {
        let src = self.src;
        let mut p = i;
        while p < b && src[p] == b' ' {
            p += 1;
        }
        if p == b {
            fill(out, Value::String(String::new()));
            return Ok(b);
        }
        if src[p] == b'"' {
            let (s, after) = self.quoted(p, b)?;
            let mut q = after;
            while q < b && src[q] == b' ' {
                q += 1;
            }
            if q < b && src[q] != delim {
                return Err(after_quote(q));
            }
            fill(out, Value::String(s));
            return Ok(q);
        }
        let mut q = p;
        while q < b && src[q] != delim && src[q] != b'"' {
            q += 1;
        }
        // A quote inside an unquoted cell hides delimiters up to its closing quote.
        let q = scan_unquoted(src, q, b, |i, c| (c == delim).then_some(i)).unwrap_or(b);
        let mut e = q;
        while e > p && src[e - 1] == b' ' {
            e -= 1;
        }
        if e == p {
            fill(out, Value::String(String::new()));
        } else {
            self.unquoted_into(p, e, out)?;
        }
        Ok(q)
    }

    /// An unquoted token `[a, b)` (`a < b`): `true`, `false`, `null`, a
    /// number, or a string.
    #[inline]
    fn unquoted_into(&self, a: usize, b: usize, out: &mut Value) -> Result<(), Fault> {
        let t = &self.src[a..b];
        match t[0] {
            b't' if t == b"true" => fill(out, Value::Bool(true)),
            b'f' if t == b"false" => fill(out, Value::Bool(false)),
            b'n' if t == b"null" => fill(out, Value::Null),
            b'-' | b'0'..=b'9' => match self.number(a, b)? {
                Some(n) => fill(out, Value::Number(n)),
                None => fill(out, Value::String(self.s(a, b).to_owned())),
            },
            _ => fill(out, Value::String(self.s(a, b).to_owned())),
        }
        Ok(())
    }

    /// The number `[a, b)` denotes, or `None` when the token is not in the
    /// number grammar (or has forbidden leading zeros) and is a string.
    fn number(&self, a: usize, b: usize) -> Result<Option<Number>, Fault> {
        match scan::number(&self.src[a..b]) {
            scan::NumberToken::Text => Ok(None),
            scan::NumberToken::Short {
                negative,
                mantissa,
                scale,
            } => {
                let m = mantissa as i64;
                Ok(Some(Number::from_scaled(
                    if negative { -m } else { m },
                    scale,
                )))
            }
            scan::NumberToken::Long => self.general_number(a, b),
        }
    }

    fn general_number(&self, a: usize, b: usize) -> Result<Option<Number>, Fault> {
        match Number::parse(self.s(a, b)) {
            Ok(n) => Ok(Some(n)),
            Err(NumberError::ExponentRange) => Err(Fault::new(
                ErrorKind::NumberRange,
                a,
                format!(
                    "expected a number with a decimal exponent within ±{}, found {}",
                    crate::number::MAX_EXPONENT,
                    self.snippet(a, b)
                ),
            )),
            Err(NumberError::Syntax) => Ok(None),
        }
    }

    /// `[a, b)` for a message: backquoted, shortened when long.
    pub(crate) fn snippet(&self, a: usize, b: usize) -> String {
        let text = self.s(a, b);
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("`{}…`", &text[..cut]),
            None => format!("`{text}`"),
        }
    }
}

/// Writes `v` into a slot that is almost always the null placeholder.
/// Plain assignment would call the value's drop glue for the old value
/// every time; a null needs none.
#[inline(always)]
pub(super) fn fill(out: &mut Value, v: Value) {
    let old = std::mem::replace(out, v);
    if old.is_null() {
        std::mem::forget(old);
    } else {
        drop(old);
    }
}

fn unterminated(open: usize) -> Fault {
    Fault::new(
        ErrorKind::InvalidEscape,
        open,
        "unterminated string: expected a closing '\"' before the end of the line",
    )
}

fn after_quote(at: usize) -> Fault {
    Fault::new(
        ErrorKind::Syntax,
        at,
        "expected a delimiter or the end of the value after the closing quote, found more characters",
    )
}

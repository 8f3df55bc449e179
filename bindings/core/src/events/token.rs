//! Tokens: quoted strings and their escapes, the number grammar, literals,
//! cells, and the key hasher (the quote-aware searches and line ends are
//! the library's, [`pith::toon::scan`]).

use super::{Bail, Event, KeyText, R, Reader};
use crate::number::nearest_f64;
use pith::Number;
use pith::number::NumberError;
use pith::toon::scan::{NumberToken, number, scan_unquoted};
use std::hash::Hasher;

impl Reader<'_> {
    /// The token `[a, b)` (trimmed, not empty) as a value.
    #[inline]
    pub(super) fn value(&mut self, a: usize, b: usize) -> R<()> {
        if self.src[a] == b'"' {
            let (event, after) = self.quoted_value(a, b)?;
            if after != b {
                return Err(Bail);
            }
            self.out.events.push(event);
            return Ok(());
        }
        self.unquoted(a, b)
    }

    /// One cell starting at `i`; returns the offset of the delimiter that
    /// ends it, or `b`.
    #[inline]
    pub(super) fn cell(&mut self, i: usize, b: usize, delim: u8) -> R<usize> {
        let src = self.src;
        let mut p = i;
        while p < b && src[p] == b' ' {
            p += 1;
        }
        if p == b {
            self.out.events.push(text(p, p));
            return Ok(b);
        }
        if src[p] == b'"' {
            let (event, after) = self.quoted_value(p, b)?;
            let mut q = after;
            while q < b && src[q] == b' ' {
                q += 1;
            }
            if q < b && src[q] != delim {
                return Err(Bail);
            }
            self.out.events.push(event);
            return Ok(q);
        }
        let mut q = p;
        while q < b && src[q] != delim && src[q] != b'"' {
            q += 1;
        }
        if q < b && src[q] == b'"' {
            // A quote inside an unquoted cell hides delimiters up to its close.
            q = scan_unquoted(src, q, b, |j, c| (c == delim).then_some(j)).unwrap_or(b);
        }
        let mut e = q;
        while e > p && src[e - 1] == b' ' {
            e -= 1;
        }
        if e == p {
            self.out.events.push(text(p, p));
        } else {
            self.unquoted(p, e)?;
        }
        Ok(q)
    }

    /// An unquoted token `[a, b)`: a literal, a number or a string.
    #[inline]
    pub(super) fn unquoted(&mut self, a: usize, b: usize) -> R<()> {
        let t = &self.src[a..b];
        let event = match t[0] {
            b't' if t == b"true" => Event::Bool(true),
            b'f' if t == b"false" => Event::Bool(false),
            b'n' if t == b"null" => Event::Null,
            b'-' | b'0'..=b'9' => return self.number(a, b),
            _ => text(a, b),
        };
        self.out.events.push(event);
        Ok(())
    }

    /// The number `[a, b)` denotes, or the string it is when it is outside
    /// the number grammar.
    fn number(&mut self, a: usize, b: usize) -> R<()> {
        let (negative, mantissa, scale) = match number(&self.src[a..b]) {
            NumberToken::Text => {
                self.out.events.push(text(a, b));
                return Ok(());
            }
            NumberToken::Long => return self.general_number(a, b),
            NumberToken::Short {
                negative,
                mantissa,
                scale,
            } => (negative, mantissa, scale as usize),
        };
        let signed = |m: u64| if negative { -(m as i64) } else { m as i64 };
        let pow = POW10_U64[scale];
        if mantissa.is_multiple_of(pow) {
            self.out.events.push(Event::Int(signed(mantissa / pow)));
            return Ok(());
        }
        if !self.exact && mantissa < EXACT_MANTISSA {
            // Both operands are exact doubles, and IEEE division rounds the
            // exact quotient to the nearest double.
            let f = mantissa as f64 / POW10_F64[scale];
            self.out
                .events
                .push(Event::Float(if negative { -f } else { f }));
            return Ok(());
        }
        self.general_number(a, b)
    }

    /// A number outside the fast grammar, read exactly.
    fn general_number(&mut self, a: usize, b: usize) -> R<()> {
        let token = std::str::from_utf8(&self.src[a..b]).map_err(|_| Bail)?;
        let n = match Number::parse(token) {
            Ok(n) => n,
            Err(NumberError::Syntax) => {
                self.out.events.push(text(a, b));
                return Ok(());
            }
            // The library refuses the exponent (or the literal for a reason
            // it names): its own reader reports it.
            Err(_) => return Err(Bail),
        };
        let event = match n.as_i64() {
            Some(v) => Event::Int(v),
            None if !self.exact && !n.is_integer() => {
                Event::Float(nearest_f64(&n, &mut self.digits))
            }
            None => {
                self.out.numbers.push(n);
                Event::Exact(self.out.numbers.len() as u32 - 1)
            }
        };
        self.out.events.push(event);
        Ok(())
    }

    /// A quoted string value opened at `open`, and the offset past its
    /// closing quote.
    fn quoted_value(&mut self, open: usize, to: usize) -> R<(Event, usize)> {
        let src = self.src;
        let (close, escaped) = quote_end(src, open, to)?;
        if !escaped {
            return Ok((text(open + 1, close), close + 1));
        }
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        let after = unescape(src, open, to, &mut buf);
        let done = after.and_then(|after| {
            let s = std::str::from_utf8(&buf).map_err(|_| Bail)?;
            let start = self.out.unescaped.len();
            self.out.unescaped.push_str(s);
            let len = self.out.unescaped.len() - start;
            if u32::try_from(self.out.unescaped.len()).is_err() {
                return Err(Bail);
            }
            Ok((
                Event::Unescaped {
                    start: start as u32,
                    len: len as u32,
                },
                after,
            ))
        });
        self.scratch = buf;
        done
    }

    /// A quoted key opened at `open`, and the offset past its closing quote.
    pub(super) fn quoted_key(&mut self, open: usize, to: usize) -> R<(KeyText, usize)> {
        let (close, escaped) = quote_end(self.src, open, to)?;
        if !escaped {
            return Ok((KeyText::Src(open + 1, close), close + 1));
        }
        let mut buf = Vec::new();
        let after = unescape(self.src, open, to, &mut buf)?;
        Ok((KeyText::Own(buf), after))
    }
}

/// The string event of text `[a, b)`.
#[inline]
pub(super) fn text(a: usize, b: usize) -> Event {
    Event::Text {
        start: a as u32,
        len: (b - a) as u32,
    }
}

/// Mantissas below this are exact doubles.
const EXACT_MANTISSA: u64 = 1 << 53;

const POW10_U64: [u64; 19] = {
    let mut t = [1u64; 19];
    let mut i = 1;
    while i < 19 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Powers of ten up to 10^18, each an exact double.
const POW10_F64: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];

/// For the string opened at `open`: the offset of its closing quote when
/// it has no escapes (`false`), or of its first backslash (`true`).
#[inline]
pub(super) fn quote_end(src: &[u8], open: usize, to: usize) -> R<(usize, bool)> {
    let mut i = open + 1;
    while i < to {
        match src[i] {
            b'"' => return Ok((i, false)),
            b'\\' => return Ok((i, true)),
            _ => i += 1,
        }
    }
    Err(Bail)
}

/// Unescapes the string opened at `open` into `out`; returns the offset
/// past its closing quote.
pub(super) fn unescape(src: &[u8], open: usize, to: usize, out: &mut Vec<u8>) -> R<usize> {
    let mut i = open + 1;
    loop {
        if i >= to {
            return Err(Bail);
        }
        match src[i] {
            b'"' => return Ok(i + 1),
            b'\\' => {
                if i + 1 >= to {
                    return Err(Bail);
                }
                let c = match src[i + 1] {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let hex = src.get(i + 2..i + 6).filter(|_| i + 6 <= to).ok_or(Bail)?;
                        let mut code = 0u32;
                        for &h in hex {
                            code = code * 16 + (h as char).to_digit(16).ok_or(Bail)?;
                        }
                        let c = char::from_u32(code).ok_or(Bail)?;
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        i += 6;
                        continue;
                    }
                    _ => return Err(Bail),
                };
                out.push(c as u8);
                i += 2;
            }
            _ => {
                let run = i;
                while i < to && src[i] != b'"' && src[i] != b'\\' {
                    i += 1;
                }
                out.extend_from_slice(&src[run..i]);
            }
        }
    }
}

/// A multiplicative hash for short keys and key numbers (the standard
/// library's SipHash costs more than the rest of a key's lookup).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The low bits pick the bucket: fold the well-mixed high bits in.
        self.0 ^ (self.0 >> 29)
    }
}

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

//! The lexer of the TypeScript subset: text to tokens (strings with every
//! JavaScript escape, template literals, numbers, names, punctuation),
//! comments skipped.

use super::{Fault, Res, fault};
use pith_core::error::ErrorKind;
use pith_core::number::Number;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    /// A string literal; `raw` when its value is exactly the source text
    /// between the quotes, so positions inside it map back to the file.
    Str {
        value: String,
        raw: bool,
    },
    Template(Vec<Part>),
    Num(String),
    Punct(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Part {
    Text(String),
    Const { name: String, at: usize },
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) at: usize,
}

pub(super) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    file: usize,
}

const PUNCT: &[&str] = &[
    "...", "{", "}", "(", ")", "[", "]", ",", ":", ";", "=", ".", "?", "<", ">", "|", "&", "+",
    "-", "*",
];

impl<'a> Lexer<'a> {
    pub(super) fn new(src: &'a str, file: usize) -> Self {
        let pos = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer { src, pos, file }
    }

    fn err(&self, at: usize, msg: impl Into<String>) -> Fault {
        fault(ErrorKind::Syntax, self.file, at, msg)
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    pub(super) fn run(mut self) -> Res<Vec<Token>> {
        let mut out = Vec::new();
        loop {
            self.skip_trivia()?;
            let at = self.pos;
            let Some(c) = self.peek() else {
                out.push(Token { tok: Tok::Eof, at });
                return Ok(out);
            };
            let tok = if c.is_ascii_alphabetic() || c == '_' || c == '$' {
                let end = self.src[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                    .map_or(self.src.len(), |n| at + n);
                self.pos = end;
                Tok::Ident(self.src[at..end].to_owned())
            } else if c.is_ascii_digit()
                || (c == '.' && self.peek2().is_some_and(|d| d.is_ascii_digit()))
            {
                self.number()?
            } else if c == '\'' || c == '"' {
                self.string(c)?
            } else if c == '`' {
                self.template()?
            } else if let Some(p) = PUNCT.iter().find(|p| self.src[at..].starts_with(**p)) {
                self.pos += p.len();
                Tok::Punct(p)
            } else {
                return Err(self.err(
                    at,
                    format!("expected TypeScript the definitions subset understands, found the character {c:?}"),
                ));
            };
            out.push(Token { tok, at });
        }
    }

    fn skip_trivia(&mut self) -> Res<()> {
        loop {
            let rest = &self.src[self.pos..];
            if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                match rest.strip_prefix("/*").and_then(|r| r.find("*/")) {
                    Some(n) => self.pos += n + 4,
                    None => {
                        return Err(self.err(
                            self.pos,
                            "expected `*/` to close this comment, found the end of the file",
                        ));
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn number(&mut self) -> Res<Tok> {
        let at = self.pos;
        let rest = &self.src[at..];
        if rest.len() > 1
            && rest.starts_with('0')
            && rest[1..].starts_with(|c: char| c.is_ascii_alphanumeric() && c != 'e' && c != 'E')
        {
            return Err(self.err(
                at,
                "expected a decimal number, found a hexadecimal, octal, binary or leading-zero literal",
            ));
        }
        let end = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_digit()
                    || c == '_'
                    || c == '.'
                    || c == 'e'
                    || c == 'E'
                    || ((c == '+' || c == '-')
                        && i > 0
                        && matches!(rest.as_bytes()[i - 1], b'e' | b'E')))
            })
            .map_or(rest.len(), |(i, _)| i);
        let text = &rest[..end];
        self.pos = at + end;
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        {
            return Err(self.err(
                self.pos,
                "expected the end of the number, found a letter (BigInt and other suffixes are not definitions)",
            ));
        }
        // TypeScript refuses a misplaced separator, so reading `1e_5` as
        // `1e5` would accept what the source language does not.
        if !separators_between_digits(text) {
            return Err(self.err(
                at,
                format!(
                    "expected `_` in a number only between two digits, and not after a leading 0, found `{text}`"
                ),
            ));
        }
        let mut digits: String = text.chars().filter(|&c| c != '_').collect();
        if digits.starts_with('.') {
            digits.insert(0, '0');
        }
        if let Some(i) = digits.find(['e', 'E']) {
            if digits[..i].ends_with('.') {
                digits.remove(i - 1);
            }
        } else if digits.ends_with('.') {
            digits.pop();
        }
        if Number::parse(&digits).is_err() {
            return Err(self.err(at, format!("expected a decimal number, found `{text}`")));
        }
        Ok(Tok::Num(digits))
    }

    fn string(&mut self, quote: char) -> Res<Tok> {
        let open = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut raw = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    open,
                    format!(
                        "expected a closing {quote} for this string, found the end of the file"
                    ),
                ));
            };
            match c {
                c if c == quote => {
                    self.pos += 1;
                    return Ok(Tok::Str { value, raw });
                }
                '\n' | '\r' => {
                    return Err(self.err(
                        open,
                        format!("expected a closing {quote} before the end of the line"),
                    ));
                }
                '\\' => {
                    raw = false;
                    self.escape(&mut value)?;
                }
                c => {
                    value.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    fn template(&mut self) -> Res<Tok> {
        let open = self.pos;
        self.pos += 1;
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    open,
                    "expected a closing ` for this template literal, found the end of the file",
                ));
            };
            match c {
                '`' => {
                    self.pos += 1;
                    if !text.is_empty() {
                        parts.push(Part::Text(text));
                    }
                    return Ok(Tok::Template(parts));
                }
                '\\' => self.escape(&mut text)?,
                '$' if self.peek2() == Some('{') => {
                    self.pos += 2;
                    self.skip_trivia()?;
                    let at = self.pos;
                    let rest = &self.src[at..];
                    let len = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                        .unwrap_or(rest.len());
                    let name = &rest[..len];
                    if len == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
                        return Err(self.err(
                            at,
                            "expected a constant name inside `${…}`, found something else",
                        ));
                    }
                    self.pos += len;
                    self.skip_trivia()?;
                    if self.peek() != Some('}') {
                        return Err(self.err(
                            self.pos,
                            format!("expected `}}` after `${{{name}`: only a constant name may appear inside `${{…}}`"),
                        ));
                    }
                    self.pos += 1;
                    if !text.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut text)));
                    }
                    parts.push(Part::Const {
                        name: name.to_owned(),
                        at,
                    });
                }
                c => {
                    // Template literals turn CRLF into LF.
                    if c == '\r' {
                        self.pos += 1;
                        if self.peek() != Some('\n') {
                            text.push('\n');
                        }
                        continue;
                    }
                    text.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// Reads one escape sequence at `\` into `out`.
    fn escape(&mut self, out: &mut String) -> Res<()> {
        let at = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(fault(
                ErrorKind::InvalidEscape,
                self.file,
                at,
                "expected an escape after `\\`, found the end of the file",
            ));
        };
        self.pos += c.len_utf8();
        match c {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            '1'..='9' | '0' => {
                return Err(fault(
                    ErrorKind::InvalidEscape,
                    self.file,
                    at,
                    "expected an escape other than an octal one, found a digit after `\\`",
                ));
            }
            '\r' => {
                if self.peek() == Some('\n') {
                    self.pos += 1;
                }
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            'x' => {
                let v = self.hex(at, 2)?;
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'u' => {
                let c = self.unicode(at)?;
                out.push(c);
            }
            other => out.push(other),
        }
        Ok(())
    }

    fn hex(&mut self, at: usize, n: usize) -> Res<u32> {
        match self.src.get(self.pos..self.pos + n) {
            Some(d) if d.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += n;
                u32::from_str_radix(d, 16).map_err(|_| self.bad_escape(at))
            }
            _ => Err(self.bad_escape(at)),
        }
    }

    fn bad_escape(&self, at: usize) -> Fault {
        fault(
            ErrorKind::InvalidEscape,
            self.file,
            at,
            "expected hex digits in this escape (\\xHH, \\uHHHH or \\u{H…})",
        )
    }

    fn code_unit(&mut self, at: usize) -> Res<u32> {
        if self.peek() == Some('{') {
            self.pos += 1;
            let rest = &self.src[self.pos..];
            let len = rest.find('}').ok_or_else(|| self.bad_escape(at))?;
            let d = &rest[..len];
            if d.is_empty() || d.len() > 6 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(self.bad_escape(at));
            }
            self.pos += len + 1;
            u32::from_str_radix(d, 16).map_err(|_| self.bad_escape(at))
        } else {
            self.hex(at, 4)
        }
    }

    fn unicode(&mut self, at: usize) -> Res<char> {
        let hi = self.code_unit(at)?;
        if !(0xD800..0xE000).contains(&hi) {
            return char::from_u32(hi).ok_or_else(|| self.bad_escape(at));
        }
        let file = self.file;
        let lone = || {
            fault(
                ErrorKind::LoneSurrogate,
                file,
                at,
                format!("expected a surrogate pair, found a lone surrogate \\u{hi:04x}"),
            )
        };
        if hi >= 0xDC00 || !self.src[self.pos..].starts_with("\\u") {
            return Err(lone());
        }
        self.pos += 2;
        let lo = self.code_unit(at)?;
        if !(0xDC00..0xE000).contains(&lo) {
            return Err(lone());
        }
        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).ok_or_else(lone)
    }
}

/// Whether every `_` in the decimal literal `text` is where ECMAScript's
/// NumericLiteralSeparator may stand: between two digits of one digit
/// sequence (so never beside `.`, `e`, a sign or another `_`, nor at either
/// end), and not after a `0` that is the whole integer part (`0_1`).
fn separators_between_digits(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'_')
        .all(|(i, _)| {
            let digit_at =
                |j: Option<usize>| j.and_then(|j| b.get(j)).is_some_and(u8::is_ascii_digit);
            digit_at(i.checked_sub(1)) && digit_at(Some(i + 1)) && !(i == 1 && b[0] == b'0')
        })
}

//! Primitive tokens and keys: when a string needs quotes, and how quoted text is escaped.
//!
//! Every decision is one pass over the bytes through a 256-entry table, so the
//! common case (a plain word, a date, an identifier) costs a single scan and a copy.

use crate::Value;
use crate::toon::Spec;

/// The quoting rules in force for one document.
pub(crate) struct Quoting {
    /// Per byte: [`QUOTE`] when it forces quotes anywhere in a value
    /// (`"`, `\`, the C0 controls), [`STRUCT`] for `[ ] { }` and the
    /// document delimiter (which force them in TOON and in the notation's
    /// cells, but not in a notation value after `key: ` unless one stands
    /// first), [`COLON`] for `:` (which forces them in TOON, and in the
    /// notation only where a space follows it or it stands first or last),
    /// and [`ESCAPE`] when it is written escaped inside quotes.
    table: &'static [u8; 256],
    v3: bool,
}

/// How [`Quoting::quote`] writes a string value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// As it is.
    Bare,
    /// In quotes, with nothing to escape.
    Quoted,
    /// In quotes, with escapes.
    Escaped,
}

/// Which quoting rules are in force where a string stands
/// ([`Quoting::quote_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// TOON's, everywhere in a TOON document (and in the notation where a
    /// string stands as TOON's would: a list item, a document's only
    /// value, a TOON table's cell, a derived constant).
    Toon,
    /// The pith notation's cells and inline arrays: also bare where TOON
    /// quotes only for colons, none first and each followed by a
    /// character other than a space (`12:30`, `https://x.org`,
    /// `sha256:ab`), since no key can start there (`docs/notation.md` §6).
    Cell,
    /// The notation's value after `key: `, which runs to the end of its
    /// line: as [`Rules::Cell`], and bare whatever brackets, braces or
    /// delimiters the string holds (`see [docs], or {id}`), but for a `[`
    /// or `{` first, which would open a flow value (§6).
    Field,
}

const QUOTE: u8 = 1;
const ESCAPE: u8 = 2;
const COLON: u8 = 4;
const STRUCT: u8 = 8;

impl Quoting {
    pub(crate) fn new(delimiter: u8, spec: Spec) -> Quoting {
        let table = match delimiter {
            b',' => &CLASS_COMMA,
            b'|' => &CLASS_PIPE,
            // A tab is a control character and so already forces quotes.
            _ => &CLASS_BASE,
        };
        Quoting {
            table,
            v3: spec == Spec::V3,
        }
    }

    /// Appends a primitive (`null`, a boolean, a number or a string) as a token.
    #[inline]
    pub(crate) fn primitive(&self, out: &mut Vec<u8>, v: &Value) {
        match v {
            Value::String(s) => self.string(out, s),
            Value::Number(n) => n.write_to(out),
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(true) => out.extend_from_slice(b"true"),
            Value::Bool(false) => out.extend_from_slice(b"false"),
            // Callers only pass primitives; a container here would be a logic
            // error, and writing nothing keeps the output well-formed.
            Value::Array(_) | Value::Object(_) => debug_assert!(false, "container as a cell"),
        }
    }

    /// Appends a string value, quoted only when the rules require it.
    #[inline]
    pub(crate) fn string(&self, out: &mut Vec<u8>, s: &str) {
        let b = s.as_bytes();
        match self.quote(s) {
            Quote::Bare => put(out, b),
            Quote::Quoted => {
                out.reserve(b.len() + 2);
                out.push(b'"');
                put(out, b);
                out.push(b'"');
            }
            Quote::Escaped => write_quoted(out, s),
        }
    }

    /// How a string value is written under TOON's rules: bare, in quotes
    /// as it is, or in quotes with escapes ([`write_quoted`]).
    #[inline]
    pub(crate) fn quote(&self, s: &str) -> Quote {
        self.quote_by(s, Rules::Toon)
    }

    /// How a string value is written where `rules` are in force: bare when
    /// no byte forces quotes there and `s` reads as itself unquoted;
    /// otherwise quoted, with escapes where a byte needs one.
    #[inline]
    pub(crate) fn quote_by(&self, s: &str, rules: Rules) -> Quote {
        let b = s.as_bytes();
        let class = self.class(b);
        let colons = || class & COLON == 0 || colons_inside(b);
        let free = class & QUOTE == 0
            && match rules {
                Rules::Toon => class & (STRUCT | COLON) == 0,
                Rules::Cell => class & STRUCT == 0 && colons(),
                Rules::Field => !matches!(b.first(), Some(b'[' | b'{')) && colons(),
            };
        if free && !self.reads_as_other(s) {
            Quote::Bare
        } else if class & ESCAPE == 0 {
            Quote::Quoted
        } else {
            Quote::Escaped
        }
    }

    /// The union of the byte classes of `b`.
    ///
    /// One pass without early exit: most strings need no quotes, and a
    /// branch-free OR is cheaper than testing each byte. Four accumulators
    /// keep the table loads independent of each other.
    #[inline]
    fn class(&self, b: &[u8]) -> u8 {
        let t = self.table;
        let mut acc = [0u8; 4];
        let mut quads = b.chunks_exact(4);
        for q in &mut quads {
            acc[0] |= t[q[0] as usize];
            acc[1] |= t[q[1] as usize];
            acc[2] |= t[q[2] as usize];
            acc[3] |= t[q[3] as usize];
        }
        for &c in quads.remainder() {
            acc[0] |= t[c as usize];
        }
        acc[0] | acc[1] | acc[2] | acc[3]
    }

    /// Whether `s`, free of the bytes that always force quotes, would still
    /// read back as something else unquoted: an empty token, trimmed spaces,
    /// a list marker, a comment (4.x), a literal or a number.
    fn reads_as_other(&self, s: &str) -> bool {
        let b = s.as_bytes();
        let (first, last) = match (b.first(), b.last()) {
            (Some(&f), Some(&l)) => (f, l),
            _ => return true,
        };
        if first == b' ' || last == b' ' || first == b'-' || (first == b'#' && !self.v3) {
            return true;
        }
        let literal = match first {
            b'0'..=b'9' => numeric_like(b),
            b'+' if !self.v3 => numeric_like(&b[1..]),
            b't' => b == b"true",
            b'f' => b == b"false",
            b'n' => b == b"null",
            _ => false,
        };
        literal || (self.v3 && (first >= 0x80 || last >= 0x80) && js_trim_differs(s))
    }
}

/// Appends a key: bare when it matches `^[A-Za-z_][A-Za-z0-9_.]*$`, quoted otherwise.
#[inline]
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str) {
    if is_bare_key(key) {
        put(out, key.as_bytes());
    } else {
        write_quoted(out, key);
    }
}

/// Whether a key may be written without quotes.
#[inline]
pub(crate) fn is_bare_key(key: &str) -> bool {
    match key.as_bytes().split_first() {
        Some((&f, rest)) => {
            (f.is_ascii_alphabetic() || f == b'_') && rest.iter().all(|&c| KEY_BYTE[c as usize])
        }
        None => false,
    }
}

/// Appends `b` to `out`, without a call to `memcpy` when it is short.
///
/// Keys and values are mostly a few bytes long, and copying them is most of
/// what the writer does; a fixed-size store of 16 bytes, overwritten with
/// two overlapping loads and then cut to length, costs a few instructions
/// where a general copy costs a call.
#[inline(always)]
pub(super) fn put(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    if n > 16 {
        out.extend_from_slice(b);
        return;
    }
    let len = out.len();
    out.extend_from_slice(&[0; 16]);
    let dst = &mut out[len..len + 16];
    if n >= 8 {
        dst[..8].copy_from_slice(&b[..8]);
        dst[n - 8..n].copy_from_slice(&b[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&b[..4]);
        dst[n - 4..n].copy_from_slice(&b[n - 4..]);
    } else if n > 0 {
        dst[0] = b[0];
        dst[n / 2] = b[n / 2];
        dst[n - 1] = b[n - 1];
    }
    out.truncate(len + n);
}

/// Appends `"s"` with `\\`, `\"`, `\n`, `\r`, `\t` and `\u00xx` escapes.
pub(crate) fn write_quoted(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let short = ESCAPES[c as usize];
        if short == 0 {
            continue;
        }
        out.extend_from_slice(&b[start..i]);
        if short == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(c >> 4)],
                HEX[usize::from(c & 0xf)],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', short]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

/// Matches `\d+(\.\d+)?([eE][+-]?\d+)?` against the whole of `b` (ASCII digits only).
pub(crate) fn numeric_like(b: &[u8]) -> bool {
    let digits = |i: usize| {
        b[i.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let mut i = digits(0);
    if i == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == b.len()
}

/// Whether ECMAScript's `String.prototype.trim` would change `s`, judged by
/// its first and last characters. Spec 3.3 encoders quote such strings;
/// ASCII whitespace other than the space is a control character and is
/// handled by the byte table.
fn js_trim_differs(s: &str) -> bool {
    let is_ws = |c: char| {
        matches!(
            c,
            '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}'
                    | '\u{2028}'
                    | '\u{2029}'
                    | '\u{202f}'
                    | '\u{205f}'
                    | '\u{3000}'
                    | '\u{feff}'
        )
    };
    s.chars().next().is_some_and(is_ws) || s.chars().next_back().is_some_and(is_ws)
}

/// Whether every colon of `b` stands inside it with a character other than
/// a space after it.
fn colons_inside(b: &[u8]) -> bool {
    b.first() != Some(&b':')
        && b.iter()
            .enumerate()
            .all(|(i, &c)| c != b':' || b.get(i + 1).is_some_and(|&n| n != b' '))
}

const fn class_table(delimiter: u8) -> [u8; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = QUOTE | ESCAPE;
        i += 1;
    }
    t[b'"' as usize] = QUOTE | ESCAPE;
    t[b'\\' as usize] = QUOTE | ESCAPE;
    t[b':' as usize] = COLON;
    t[b'[' as usize] = STRUCT;
    t[b']' as usize] = STRUCT;
    t[b'{' as usize] = STRUCT;
    t[b'}' as usize] = STRUCT;
    t[delimiter as usize] |= STRUCT;
    t
}

static CLASS_BASE: [u8; 256] = class_table(b'\t');
static CLASS_COMMA: [u8; 256] = class_table(b',');
static CLASS_PIPE: [u8; 256] = class_table(b'|');

/// Bytes allowed after the first in a bare key.
static KEY_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        c += 1;
    }
    t
};

/// For each byte, 0 when it is copied as is, the letter of its short escape,
/// or `u` for a `\u00xx` escape.
static ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn token(s: &str, delimiter: u8, spec: Spec) -> String {
        let mut out = Vec::new();
        Quoting::new(delimiter, spec).string(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn quotes_what_would_read_back_differently() {
        let v4 = |s: &str| token(s, b',', Spec::V4);
        assert_eq!(v4("hello world"), "hello world");
        assert_eq!(v4(""), "\"\"");
        assert_eq!(v4(" a"), "\" a\"");
        assert_eq!(v4("a "), "\"a \"");
        assert_eq!(v4("true"), "\"true\"");
        assert_eq!(v4("nullx"), "nullx");
        assert_eq!(v4("42"), "\"42\"");
        assert_eq!(v4("05"), "\"05\"");
        assert_eq!(v4("1.5e-3"), "\"1.5e-3\"");
        assert_eq!(v4("1.5e"), "1.5e");
        assert_eq!(v4("1."), "1.");
        assert_eq!(v4("+7"), "\"+7\"");
        assert_eq!(v4("-x"), "\"-x\"");
        assert_eq!(v4("#tag"), "\"#tag\"");
        assert_eq!(v4("a#"), "a#");
        assert_eq!(v4("a,b"), "\"a,b\"");
        assert_eq!(v4("a|b"), "a|b");
        assert_eq!(token("a|b", b'|', Spec::V4), "\"a|b\"");
        assert_eq!(token("a,b", b'\t', Spec::V4), "a,b");
        assert_eq!(v4("x:y"), "\"x:y\"");
        assert_eq!(v4("[1]"), "\"[1]\"");
        assert_eq!(v4("\u{a0}x"), "\u{a0}x");
        assert_eq!(v4("caf\u{e9} \u{1f600}"), "caf\u{e9} \u{1f600}");
    }

    #[test]
    fn a_value_after_a_key_is_quoted_only_for_what_its_line_cannot_hold() {
        let field = |s: &str, delimiter: u8| {
            let q = Quoting::new(delimiter, Spec::V4);
            (
                q.quote_by(s, Rules::Field),
                q.quote_by(s, Rules::Cell),
                q.quote(s),
            )
        };
        use Quote::{Bare, Escaped, Quoted};
        // Brackets, braces and the delimiter inside: bare after a key only.
        for s in ["a, b", "it's {0}", "x [y] z", "a]", "b}", "a, b: c"] {
            let want = if s.contains(": ") { Quoted } else { Bare };
            assert_eq!(field(s, b','), (want, Quoted, Quoted), "{s}");
        }
        assert_eq!(field("a|b", b'|'), (Bare, Quoted, Quoted));
        assert_eq!(field("a|b", b','), (Bare, Bare, Bare));
        // With a colon rule's colons as well.
        assert_eq!(
            field("see https://x.org/a, b", b','),
            (Bare, Quoted, Quoted)
        );
        // First `[` or `{`, `"`, `\`, controls, and TOON's look-alikes: quoted.
        assert_eq!(field("[WIP] x", b','), (Quoted, Quoted, Quoted));
        assert_eq!(field("{0}, x", b','), (Quoted, Quoted, Quoted));
        assert_eq!(field("say \"hi\", now", b','), (Escaped, Escaped, Escaped));
        assert_eq!(field("a\\b, c", b','), (Escaped, Escaped, Escaped));
        assert_eq!(field("a,\tb", b'\t'), (Escaped, Escaped, Escaped));
        assert_eq!(field("- a, b", b','), (Quoted, Quoted, Quoted));
        assert_eq!(field(" a, b", b','), (Quoted, Quoted, Quoted));
        assert_eq!(field("", b','), (Quoted, Quoted, Quoted));
    }

    #[test]
    fn spec_3_3_rules_differ_on_hash_plus_and_unicode_space() {
        let v3 = |s: &str| token(s, b',', Spec::V3);
        assert_eq!(v3("#tag"), "#tag");
        assert_eq!(v3("+7"), "+7");
        assert_eq!(v3("\u{a0}x"), "\"\u{a0}x\"");
        assert_eq!(v3("x\u{3000}"), "\"x\u{3000}\"");
        assert_eq!(v3("\u{feff}x"), "\"\u{feff}x\"");
        assert_eq!(v3("\u{85}x"), "\u{85}x");
    }

    #[test]
    fn escapes_the_short_forms_and_other_controls() {
        assert_eq!(
            token("a\"b\\c\nd\re\tf\u{1}g\u{1f}\u{7f}", b',', Spec::V4),
            "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001f\u{7f}\""
        );
    }

    #[test]
    fn short_copies_append_exactly() {
        let src: Vec<u8> = (b'a'..=b'z').chain(b'A'..=b'Z').collect();
        for n in 0..=src.len() {
            for prefix in [0, 3, 15] {
                let mut out = vec![b'#'; prefix];
                put(&mut out, &src[..n]);
                put(&mut out, &src[..n / 2]);
                let mut want = vec![b'#'; prefix];
                want.extend_from_slice(&src[..n]);
                want.extend_from_slice(&src[..n / 2]);
                assert_eq!(out, want, "n = {n}, prefix = {prefix}");
            }
        }
    }

    #[test]
    fn keys_are_bare_only_when_identifier_like() {
        let key = |k: &str| {
            let mut out = Vec::new();
            write_key(&mut out, k);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(key("a.b_c9"), "a.b_c9");
        assert_eq!(key("_x"), "_x");
        assert_eq!(key("9a"), "\"9a\"");
        assert_eq!(key(""), "\"\"");
        assert_eq!(key("a-b"), "\"a-b\"");
        assert_eq!(key("caf\u{e9}"), "\"caf\u{e9}\"");
    }
}

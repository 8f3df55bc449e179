//! The byte-level rules of the TOON reader, for readers built on them.
//!
//! [`decode`](super::decode) finds its way through a line with these
//! functions, and so can a reader of its own kind (the Python and Node
//! packages read simple documents straight into their languages' values
//! with them): where a line's key ends, whether it opens a header, where a
//! quoted string closes, which colon or brace is outside quotes. Each works
//! on byte offsets into the text and allocates nothing; offsets past the
//! slice are never read.
//!
//! ```
//! use pith::toon::scan::{Class, classify, find_unquoted};
//!
//! let line = br#""a: b"[2]: x,y"#;
//! assert!(matches!(classify(line, 0, line.len()), Ok(Class::Header(6))));
//! assert_eq!(find_unquoted(line, 0, line.len(), b':'), Some(9));
//!
//! let line = b"name: Ada";
//! let Ok(Class::KeyValue { a, b, quoted, rest }) = classify(line, 0, line.len()) else {
//!     unreachable!()
//! };
//! assert_eq!((&line[a..b], quoted, &line[rest..]), (&b"name"[..], false, &b" Ada"[..]));
//! ```

/// What the content of a line in field, list-item or root position is
/// (the spec's §5.2): a header, a `key: value` line, or a lone value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Header-shaped: its bracket segment opens at this offset (its first
    /// unquoted `[` comes before its first unquoted colon).
    Header(usize),
    /// `key: rest`: the key token is `[a, b)` (a quoted token when
    /// `quoted`, spaces around an unquoted one trimmed), and `rest` is the
    /// offset just past the colon.
    KeyValue {
        /// Where the key token starts.
        a: usize,
        /// Where the key token ends.
        b: usize,
        /// Whether the key token is a quoted string.
        quoted: bool,
        /// The offset just past the colon.
        rest: usize,
    },
    /// No unquoted colon: a single value.
    Bare,
}

/// The bytes that end the unquoted part of a key.
static KEY_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b':' as usize] = true;
    t[b'[' as usize] = true;
    t[b'"' as usize] = true;
    t
};

/// Classifies the content `[s, e)` of a line (`s < e`). `Err(p)`: the line
/// starts with a quoted key whose closing quote is followed, at `p`, by
/// something other than spaces and a colon, which a strict reader refuses.
/// Always inlined: returning the class through memory costs a
/// store-forwarding stall on every line.
#[inline(always)]
pub fn classify(src: &[u8], s: usize, e: usize) -> Result<Class, usize> {
    if src[s] == b'"' {
        let Some(close) = closing_quote(src, s, e) else {
            return Ok(Class::Bare);
        };
        if find_unquoted(src, close + 1, e, b':').is_none() {
            return Ok(Class::Bare);
        }
        if close + 1 < e && src[close + 1] == b'[' {
            return Ok(Class::Header(close + 1));
        }
        let mut p = close + 1;
        while p < e && src[p] == b' ' {
            p += 1;
        }
        if p >= e || src[p] != b':' {
            return Err(p);
        }
        return Ok(Class::KeyValue {
            a: s,
            b: close + 1,
            quoted: true,
            rest: p + 1,
        });
    }
    let mut i = s;
    loop {
        while i < e && !KEY_STOP[usize::from(src[i])] {
            i += 1;
        }
        if i >= e {
            return Ok(Class::Bare);
        }
        match src[i] {
            b':' => {
                let (a, b) = trim(src, s, i);
                return Ok(Class::KeyValue {
                    a,
                    b,
                    quoted: false,
                    rest: i + 1,
                });
            }
            b'[' => {
                if find_unquoted(src, i, e, b':').is_none() {
                    return Ok(Class::Bare);
                }
                return Ok(Class::Header(i));
            }
            // A quote inside an unquoted key hides colons up to its close.
            _ => match closing_quote(src, i, e) {
                Some(close) => i = close + 1,
                None => return Ok(Class::Bare),
            },
        }
    }
}

/// Calls `visit(i, byte)` for each byte of `src[from..to]` outside double
/// quotes (the quotes themselves are not visited) until it returns `Some`.
/// A quote toggles quoting, and a backslash inside quotes escapes the next
/// byte. Every quote-aware search of the reader is one of these.
#[inline]
pub fn scan_unquoted<T>(
    src: &[u8],
    from: usize,
    to: usize,
    mut visit: impl FnMut(usize, u8) -> Option<T>,
) -> Option<T> {
    let mut i = from;
    let mut quoted = false;
    while i < to {
        let b = src[i];
        if quoted {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == b'"' {
                quoted = false;
            }
        } else if b == b'"' {
            quoted = true;
        } else if let Some(found) = visit(i, b) {
            return Some(found);
        }
        i += 1;
    }
    None
}

/// The first `needle` in `[from, to)` outside double quotes.
#[inline]
pub fn find_unquoted(src: &[u8], from: usize, to: usize, needle: u8) -> Option<usize> {
    scan_unquoted(src, from, to, |i, b| (b == needle).then_some(i))
}

/// The closing quote of the string opened at `open`, if it closes before
/// `to` (a backslash escapes the byte after it).
#[inline]
pub fn closing_quote(src: &[u8], open: usize, to: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < to {
        match src[i] {
            b'\\' if i + 1 < to => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The `}` matching the `{` at `open`, before `to`, skipping quoted text.
pub fn matching_brace(src: &[u8], open: usize, to: usize) -> Option<usize> {
    let mut depth = 0usize;
    scan_unquoted(src, open, to, |i, b| {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        None
    })
}

/// `[a, b)` without the U+0020 spaces around it (the only characters that
/// token trimming removes, §12).
#[inline]
pub fn trim(src: &[u8], mut a: usize, mut b: usize) -> (usize, usize) {
    while a < b && src[a] == b' ' {
        a += 1;
    }
    while b > a && src[b - 1] == b' ' {
        b -= 1;
    }
    (a, b)
}

/// The offset of the first line feed at or after `from`, or the text's
/// length; eight bytes at a time.
#[inline]
pub fn line_end(src: &[u8], from: usize) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const FEEDS: u64 = 0x0A0A_0A0A_0A0A_0A0A;
    let mut i = from;
    while i + 8 <= src.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&src[i..i + 8]);
        let x = u64::from_le_bytes(word) ^ FEEDS;
        // The lowest set high bit marks the first zero byte: bytes above
        // it may be marked falsely, never bytes below.
        let found = x.wrapping_sub(LOW) & !x & HIGH;
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < src.len() && src[i] != b'\n' {
        i += 1;
    }
    i
}

/// What a token is under TOON's number grammar (JSON's, where a leading
/// zero may stand only alone before the point: `05` is a string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberToken {
    /// Outside the grammar: the token is a string.
    Text,
    /// `±mantissa × 10^-scale` exactly: at most 18 digits in all (so the
    /// mantissa is under 10^18) and no exponent.
    Short {
        /// Whether the token starts with `-` (`-0` is zero).
        negative: bool,
        /// The digits, the point left out.
        mantissa: u64,
        /// How many of them follow the point.
        scale: u32,
    },
    /// In the grammar with an exponent or more than 18 digits: for
    /// [`Number::parse`](crate::Number::parse), which may still refuse
    /// its range.
    Long,
}

/// Reads the token `t` (trimmed, not empty) against the number grammar,
/// in one pass and without allocating.
#[inline]
pub fn number(t: &[u8]) -> NumberToken {
    let negative = t[0] == b'-';
    let mut i = usize::from(negative);
    let int_start = i;
    // Up to 18 digits accumulate exactly; longer literals are `Long`.
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    while i < t.len() && t[i].is_ascii_digit() {
        if digits < 18 {
            mantissa = mantissa * 10 + u64::from(t[i] - b'0');
        }
        digits += 1;
        i += 1;
    }
    let int_len = i - int_start;
    if int_len == 0 || (int_len > 1 && t[int_start] == b'0') {
        return NumberToken::Text;
    }
    let mut scale = 0usize;
    if i < t.len() && t[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < t.len() && t[i].is_ascii_digit() {
            if digits < 18 {
                mantissa = mantissa * 10 + u64::from(t[i] - b'0');
            }
            digits += 1;
            i += 1;
        }
        scale = i - frac_start;
        if scale == 0 {
            return NumberToken::Text;
        }
    }
    let mut exponent = false;
    if i < t.len() && (t[i] | 0x20) == b'e' {
        exponent = true;
        i += 1;
        if i < t.len() && (t[i] == b'+' || t[i] == b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < t.len() && t[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return NumberToken::Text;
        }
    }
    if i != t.len() {
        return NumberToken::Text;
    }
    if exponent || digits > 18 {
        return NumberToken::Long;
    }
    NumberToken::Short {
        negative,
        mantissa,
        scale: scale as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_are_found_in_every_position() {
        for len in 0..40 {
            for at in 0..=len {
                let mut text = vec![b'x'; len];
                if at < len {
                    text[at] = b'\n';
                }
                for from in 0..=at.min(len) {
                    assert_eq!(line_end(&text, from), at, "{len} {at} {from}");
                }
            }
        }
        // A byte 0x8A or 0x0B is no line feed.
        assert_eq!(line_end(b"\x8a\x0b\x8a\x0b\x8a\x0b\x8a\x0b\x8a\n", 0), 9);
    }

    #[test]
    fn lines_are_classified_as_the_spec_says() {
        let class = |s: &str| classify(s.as_bytes(), 0, s.len());
        assert_eq!(class("a[2]: 1,2"), Ok(Class::Header(1)));
        assert_eq!(class("[2]: 1,2"), Ok(Class::Header(0)));
        assert_eq!(class("a[2] x"), Ok(Class::Bare));
        assert_eq!(
            class(" k  : v"),
            Ok(Class::KeyValue {
                a: 1,
                b: 2,
                quoted: false,
                rest: 5
            })
        );
        assert_eq!(
            class("\"a:b\" : c"),
            Ok(Class::KeyValue {
                a: 0,
                b: 5,
                quoted: true,
                rest: 7
            })
        );
        assert_eq!(class("\"a\" b: c"), Err(4));
        assert_eq!(class("\"a: b"), Ok(Class::Bare));
        assert_eq!(
            class("k\"x:y\"z: 1"),
            Ok(Class::KeyValue {
                a: 0,
                b: 7,
                quoted: false,
                rest: 8
            })
        );
        assert_eq!(class("hello world"), Ok(Class::Bare));
    }

    #[test]
    fn numbers_are_read_by_the_grammar() {
        use NumberToken::{Long, Short, Text};
        let short = |negative, mantissa, scale| Short {
            negative,
            mantissa,
            scale,
        };
        let cases = [
            ("0", short(false, 0, 0)),
            ("-0", short(true, 0, 0)),
            ("12.50", short(false, 1250, 2)),
            ("-0.001", short(true, 1, 3)),
            (
                "123456789012345678",
                short(false, 123_456_789_012_345_678, 0),
            ),
            ("1234567890123456789", Long),
            ("0.1234567890123456789", Long),
            ("1e5", Long),
            ("-2.5E-3", Long),
            ("05", Text),
            ("-", Text),
            ("1.", Text),
            (".5", Text),
            ("1e", Text),
            ("1e+", Text),
            ("1x", Text),
            ("--1", Text),
        ];
        for (token, want) in cases {
            assert_eq!(number(token.as_bytes()), want, "{token}");
        }
    }

    #[test]
    fn quotes_hide_what_they_hold() {
        let s = br#"{a:"}",b:{c:"{"}}x"#;
        assert_eq!(matching_brace(s, 0, s.len()), Some(s.len() - 2));
        assert_eq!(find_unquoted(br#""a,b",c"#, 0, 7, b','), Some(5));
        assert_eq!(closing_quote(br#""a\"b"c"#, 0, 7), Some(5));
        assert_eq!(closing_quote(br#""a\"#, 0, 3), None);
        assert_eq!(trim(b"  a b  ", 0, 7), (2, 5));
    }
}

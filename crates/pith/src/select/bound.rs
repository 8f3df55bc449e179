//! What compact JSON would cost, without writing it: its exact length in
//! bytes, and a floor under its token count.
//!
//! `auto` must never emit more than compact JSON. When the TOON candidate's
//! exact count is already at or below the floor, JSON cannot win and is
//! neither written nor tokenized, which is what keeps `--select tokens` a
//! small multiple of plain encoding on large documents.
//!
//! # Why the floor holds
//!
//! o200k_base and cl100k_base first cut text into pieces with a pattern and
//! encode each piece into one or more tokens, so tokens ≥ pieces. In both
//! patterns a piece that holds a letter is an optional single non-letter,
//! non-digit character followed by letters (plus, in o200k, a contraction
//! such as `'s`, and in cl100k contractions are pieces of their own); a
//! piece that holds a digit holds one to three digits and nothing else; the
//! other pieces hold neither. So a maximal run of ASCII letters lies in
//! pieces that hold no other run's letters, provided that no `'` touches it
//! (a contraction could join it to a neighbour) and no non-ASCII character
//! touches it (that could be a letter or a mark continuing it); and a run of
//! ASCII digits untouched by non-ASCII characters takes at least
//! `ceil(len / 3)` pieces of its own. JSON escapes only put `\` and more
//! letters or digits between runs, never join two, so counting the runs in
//! the raw strings, keys and numbers undercounts those of the JSON text.

use crate::{Map, Value};

/// The exact byte length of `crate::json::to_string(value)`.
pub(crate) fn json_len(value: &Value) -> usize {
    let mut scratch = Vec::new();
    let mut total = 0usize;
    let mut stack: Vec<&Value> = vec![value];
    while let Some(v) = stack.pop() {
        total += match v {
            Value::Null => 4,
            Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => {
                scratch.clear();
                n.write_to(&mut scratch);
                scratch.len()
            }
            Value::String(s) => string_len(s),
            Value::Array(a) => {
                stack.extend(a.iter());
                2 + a.len().saturating_sub(1)
            }
            Value::Object(m) => {
                stack.extend(m.values());
                2 + m.len().saturating_sub(1) + keys_len(m)
            }
        };
    }
    total
}

/// A number of tokens that compact JSON of `value` has at least, for
/// o200k_base and cl100k_base (see the module docs).
pub(crate) fn json_token_floor(value: &Value) -> usize {
    let mut scratch = Vec::new();
    let mut total = 0usize;
    let mut stack: Vec<&Value> = vec![value];
    while let Some(v) = stack.pop() {
        total += match v {
            Value::Null | Value::Bool(_) => 1,
            Value::Number(n) => {
                scratch.clear();
                n.write_to(&mut scratch);
                runs(&scratch)
            }
            Value::String(s) => runs(s.as_bytes()),
            Value::Array(a) => {
                stack.extend(a.iter());
                0
            }
            Value::Object(m) => {
                stack.extend(m.values());
                m.keys().map(|k| runs(k.as_bytes())).sum()
            }
        };
    }
    total
}

fn keys_len(m: &Map) -> usize {
    m.keys().map(|k| string_len(k) + 1).sum()
}

/// Bytes of `s` as a quoted JSON string.
fn string_len(s: &str) -> usize {
    let extra: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    s.len() + 2 + extra
}

/// Pieces that the runs of ASCII letters and digits in `b` take at least,
/// when `b` stands between characters that touch no run (JSON's quotes
/// and punctuation).
fn runs(b: &[u8]) -> usize {
    #[derive(Clone, Copy, PartialEq)]
    enum Class {
        Letter,
        Digit,
        /// `'` and non-ASCII bytes: may join what they touch.
        Joiner,
        Other,
    }
    fn class(c: u8) -> Class {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b'\'' | 0x80..=0xff => Class::Joiner,
            _ => Class::Other,
        }
    }
    let mut total = 0;
    let mut i = 0;
    while i < b.len() {
        let c = class(b[i]);
        if c != Class::Letter && c != Class::Digit {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && class(b[i]) == c {
            i += 1;
        }
        let before = start.checked_sub(1).map(|p| class(b[p]));
        let after = b.get(i).map(|&x| class(x));
        if before == Some(Class::Joiner) || after == Some(Class::Joiner) {
            continue;
        }
        total += match c {
            Class::Letter => 1,
            _ => (i - start).div_ceil(3),
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_exact() {
        for text in [
            r#"{"a":[1,-2.5e-7,"x\"\\\n\u0001é"],"b":{},"c":[],"":null,"t":true,"f":false}"#,
            r#""plain""#,
            "1e+400",
        ] {
            let v = crate::json::parse(text).unwrap();
            assert_eq!(json_len(&v), crate::json::to_string(&v).len(), "{text}");
        }
    }

    #[test]
    fn runs_skip_joined_ones() {
        assert_eq!(runs(b"hello world"), 2);
        assert_eq!(runs(b"don't"), 0);
        assert_eq!(runs("caf\u{e9} au lait".as_bytes()), 2);
        assert_eq!(runs(b"1234567"), 3);
        assert_eq!(runs(b"abc123def"), 3);
        assert_eq!(runs(b"2025-01-01T00:00:00Z"), 9);
    }
}

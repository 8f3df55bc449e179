//! JSON text in and out, exactly.
//!
//! # Reading
//!
//! [`parse`], [`parse_bytes`] and [`parse_with`] accept RFC 8259 JSON and
//! nothing else, and refuse whatever pith could not keep exactly. Every
//! refusal is an [`Error`](crate::Error) with the line and column of the
//! offending token:
//!
//! | input | [`ErrorKind`](crate::ErrorKind) |
//! |---|---|
//! | a key that an object already has (reported at the second one) | `DuplicateKey` |
//! | a `\u` escape naming half a surrogate pair (`"\uD800"`) | `LoneSurrogate` |
//! | bytes that are not UTF-8 (reported at the first bad byte) | `InvalidUtf8` |
//! | an escape JSON does not define (`\x`, `\u12G4`) or an unterminated string | `InvalidEscape` |
//! | anything after the value but whitespace | `TrailingContent` |
//! | nesting deeper than [`ParseOptions::max_depth`] | `DepthLimit` |
//! | a number whose exponent is beyond ±[`MAX_EXPONENT`](crate::number::MAX_EXPONENT) | `NumberRange` |
//! | everything else, including raw control characters inside strings, leading zeros, `+1`, `.5`, `NaN`, comments, trailing commas and a leading byte order mark | `Syntax` |
//!
//! Whitespace is what RFC 8259 allows: space, tab, line feed and carriage
//! return. A leading byte order mark (U+FEFF) is refused, as `JSON.parse`
//! refuses it, rather than dropped silently: RFC 8259 forbids writing one.
//!
//! Numbers keep their exact value at any size and precision (see
//! [`Number`](crate::Number)). Nesting is tracked on an explicit stack, so
//! 100,000 nested arrays are a `DepthLimit` error, never a stack overflow.
//!
//! # Writing
//!
//! [`stringify`](fn@stringify) writes the bytes `JSON.stringify(value)` writes, for every
//! value whose numbers an `f64` holds exactly; other numbers are written
//! exactly in the same layout (`1e+400`, `9007199254740993`), except that
//! an integer of 1e21 or more is written as its digits when that takes at
//! most [`MAX_JSON_INTEGER_ZEROS`](crate::number::MAX_JSON_INTEGER_ZEROS)
//! zeros after its significant digits (`1000000000000000000000`, where
//! `JSON.stringify` writes `1e+21`), so that readers that keep integers
//! apart from floats read an integer.
//! [`stringify_pretty`] matches `JSON.stringify(value, null, indent)`.
//! Strings escape `"`, `\`, `\b`, `\f`, `\n`, `\r`, `\t` and the other C0
//! controls (as lowercase `\u00xx`); every other character is written as is.
//! Writers keep their own stack, so any depth can be written.
//!
//! # With serde
//!
//! serde_json's entry points, with its names: [`from_str`], [`from_slice`]
//! and [`from_reader`] read JSON into any `Deserialize` type;
//! [`to_string`], [`to_string_pretty`], [`to_vec`], [`to_vec_pretty`],
//! [`to_writer`] and [`to_writer_pretty`] write any `Serialize` type. Each
//! goes through a [`Value`](crate::Value), so numbers keep their exact
//! value. For a `Value` already in hand, [`stringify`](fn@stringify) (or `Display`:
//! `v.to_string()`, `format!("{v:#}")`) writes the same text without that
//! detour and cannot fail.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Row { id: u64, name: String }
//!
//! let rows: Vec<Row> = pith::json::from_str(r#"[{"id": 1, "name": "Ada"}]"#)?;
//! assert_eq!(pith::json::to_string(&rows)?, r#"[{"id":1,"name":"Ada"}]"#);
//! let mut out = Vec::new();
//! pith::json::to_writer(&mut out, &rows)?;
//! assert_eq!(out, br#"[{"id":1,"name":"Ada"}]"#);
//!
//! let v = pith::json::parse(r#"{"id": 1, "name": "Ada"}"#)?;
//! assert_eq!(pith::json::stringify(&v), r#"{"id":1,"name":"Ada"}"#);
//! assert_eq!(v.to_string(), pith::json::stringify(&v));
//! # Ok::<(), pith::Error>(())
//! ```

mod read;
mod write;

pub(crate) use read::KeySet;
pub use read::{parse, parse_bytes, parse_with};
pub use write::{stringify, stringify_pretty, write_into, write_str_into, write_to};

pub use crate::serde::entry::json::{
    from_reader, from_slice, from_str, to_string, to_string_pretty, to_vec, to_vec_pretty,
    to_writer, to_writer_pretty,
};

/// Options for [`parse_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Arrays and objects nested deeper than this are refused with
    /// [`ErrorKind::DepthLimit`](crate::ErrorKind::DepthLimit); `[]` has depth 1
    /// (default [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH)).
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: crate::DEFAULT_MAX_DEPTH,
        }
    }
}

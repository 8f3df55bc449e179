//! The core of pith: the data model, the JSON and TOON codecs, the pith
//! notation, tables, `auto`, budgets and serde. Use it through the `pith`
//! crate, which re-exports all of it (with the wire schemas as
//! `pith::wire`); the examples here are written that way.
//!
//! The library does no I/O of its own beyond the `io::Write` or `io::Read`
//! it is handed, and never prints (`tests/tidy.rs` holds it to that).

pub mod budget;
pub mod equiv;
pub mod error;
pub mod json;
pub mod notation;
pub mod number;
mod options;
pub mod path;
mod runs;
pub mod select;
mod serde;
pub mod table;
pub mod toon;
pub mod value;

pub use pith_tokens as tokens;

pub use crate::serde::{from_value, to_value};
pub use error::{Error, ErrorKind, Position, Result};
pub use number::Number;
pub use value::{Key, Map, Value};

/// How deep arrays and objects may nest before readers and writers refuse
/// the input, unless an options struct says otherwise.
///
/// Every reader refuses input nested deeper than this before its call
/// stack grows any further, so hostile input (100,000 nested arrays, say)
/// is an error, never a stack overflow: the JSON reader keeps nesting on a
/// stack of its own, while the TOON reader and the notation's reader of
/// lines recurse once per level up to this depth (see
/// [`MAX_DEPTH_LIMIT`] for what that costs).
pub const DEFAULT_MAX_DEPTH: usize = 256;

/// The deepest nesting any `max_depth` option may allow: a larger one
/// counts as this. The TOON reader and writer, the table restorer and
/// `auto`'s planner descend one call per level; at this depth the deepest
/// of them takes about 1.4 MB of stack in an optimised build (6 MB in an
/// unoptimised one), within the 2 MB a Rust thread gets by default and the
/// 8 MB of a main thread. The JSON reader and writer, [`Value::depth`] and
/// dropping a [`Value`] keep their own stacks and go any depth.
pub const MAX_DEPTH_LIMIT: usize = 1024;

/// `max_depth` as the readers and writers that recurse honour it: at most
/// [`MAX_DEPTH_LIMIT`].
pub fn depth_limit(max_depth: usize) -> usize {
    max_depth.min(MAX_DEPTH_LIMIT)
}

/// Serializes `value` with serde and writes it as TOON (spec 4.x, default
/// options).
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Row { id: u32, name: &'static str }
///
/// let rows = vec![Row { id: 1, name: "Ada" }, Row { id: 2, name: "Bob" }];
/// assert_eq!(pith::to_string(&rows)?, "[2]{id,name}:\n  1,Ada\n  2,Bob");
/// # Ok::<(), pith::Error>(())
/// ```
pub fn to_string<T: ::serde::Serialize + ?Sized>(value: &T) -> Result<String> {
    toon::to_string(value)
}

/// Reads TOON (spec 4.x, strict) and deserializes it with serde.
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Row { id: u32, name: String }
///
/// let rows: Vec<Row> = pith::from_str("[2]{id,name}:\n  1,Ada\n  2,Bob")?;
/// assert_eq!(rows[1], Row { id: 2, name: "Bob".into() });
/// # Ok::<(), pith::Error>(())
/// ```
pub fn from_str<T: ::serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    toon::from_str(text)
}

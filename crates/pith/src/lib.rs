//! pith renders JSON for LLM agents in the cheapest text a model reads
//! reliably, without losing a single fact, and turns that text back into the
//! exact JSON.
//!
//! # Overview
//!
//! * [`Value`], [`Map`] and [`Number`]: the data model. Keys keep their
//!   order; numbers are exact decimals at any size and precision.
//! * [`json`]: JSON text in and out, exactly, refusing what cannot be kept
//!   (duplicate keys, lone surrogates, invalid UTF-8).
//! * [`toon`]: TOON, spec 4.x as the reference encoder writes it, and a 3.3
//!   mode with key folding and path expansion.
//! * [`to_string`] / [`from_str`]: serde on top of the TOON codec.
//! * [`tokens`]: exact o200k_base and cl100k_base token counts (tiktoken's
//!   ids), the `ceil(bytes / 4)` estimate, and incremental counting.
//! * [`Error`]: one error type, with a kind, a line and column or a JSON path.
//!
//! The library does no I/O of its own beyond the `io::Write` it is handed and
//! never prints.

pub mod error;
pub mod json;
pub mod number;
mod serde;
pub mod tokens;
pub mod toon;
pub mod value;

pub use crate::serde::{from_value, to_value};
pub use error::{Error, ErrorKind, Position, Result};
pub use number::Number;
pub use value::{Map, Value};

/// How deep arrays and objects may nest before readers and writers refuse
/// the input, unless an options struct says otherwise.
///
/// Every reader counts nesting without recursion on the call stack beyond
/// this depth, so hostile input (100,000 nested arrays, say) is an error,
/// never a stack overflow.
pub const DEFAULT_MAX_DEPTH: usize = 256;

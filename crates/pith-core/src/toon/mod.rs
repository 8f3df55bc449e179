//! TOON (Token-Oriented Object Notation) encoding and decoding.
//!
//! pith targets TOON spec 4.x exactly as the reference encoder
//! `@toon-format/toon` 4.4.0 writes it (keyed tables, nested field groups,
//! comment lines on decode), and spec 3.3 (key folding on encode, path
//! expansion on decode) for older consumers.
//!
//! [`encode`] and [`decode`] work on a [`Value`](crate::Value); with serde,
//! [`to_string`], [`to_vec`] and [`to_writer`] write any `Serialize` type
//! and [`from_str`], [`from_slice`] and [`from_reader`] read any
//! `Deserialize` type, all with the default options.

use crate::DEFAULT_MAX_DEPTH;

pub(crate) mod encode;
mod fold;

pub use encode::{Tokens, encode, encode_into, encode_to};
pub use fold::is_identifier;
pub(crate) mod decode;
pub mod scan;

pub(crate) use decode::opens_with_root_header;
pub use decode::{decode, decode_bytes};

pub use crate::serde::entry::toon::{
    from_reader, from_slice, from_str, to_string, to_vec, to_writer,
};

/// Which edition of the TOON specification to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Spec {
    /// Spec 4.x as `@toon-format/toon` 4.4.0 implements it.
    #[default]
    V4,
    /// Spec 3.3: no keyed tables, no nested field groups, no comment lines;
    /// key folding and path expansion are available.
    V3,
}

/// The delimiter of inline arrays and table rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Delimiter {
    /// `,` (the default; not written in headers).
    #[default]
    Comma,
    /// A horizontal tab.
    Tab,
    /// `|`
    Pipe,
}

impl Delimiter {
    /// The delimiter character.
    pub fn as_char(self) -> char {
        match self {
            Delimiter::Comma => ',',
            Delimiter::Tab => '\t',
            Delimiter::Pipe => '|',
        }
    }

    /// The delimiter byte.
    pub fn as_byte(self) -> u8 {
        self.as_char() as u8
    }
}

/// Key folding (spec 3.3 §13.4): chains of single-key objects written as one
/// dotted key, `a.b.c: 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum KeyFolding {
    /// Never fold.
    #[default]
    Off,
    /// Fold only where every segment is a plain identifier and the folded key
    /// collides with no sibling, so that path expansion restores the value.
    Safe,
}

/// Path expansion (spec 3.3 §14.3): dotted keys read back as nested objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ExpandPaths {
    /// Dotted keys stay literal keys.
    #[default]
    Off,
    /// Expand keys whose every segment is a plain identifier.
    Safe,
}

/// Options for [`encode`](crate::toon) functions.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {
    /// Spaces per indentation level (default 2, at least 1).
    pub indent: usize,
    /// Document delimiter (default comma).
    pub delimiter: Delimiter,
    /// Spec edition (default 4.x).
    pub spec: Spec,
    /// Key folding; only [`Spec::V3`] has it.
    pub key_folding: KeyFolding,
    /// How many segments a folded key may have at most (default unlimited).
    pub flatten_depth: usize,
    /// Values nested deeper than this are refused (default
    /// [`DEFAULT_MAX_DEPTH`], at most [`MAX_DEPTH_LIMIT`](crate::MAX_DEPTH_LIMIT)).
    pub max_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            indent: 2,
            delimiter: Delimiter::Comma,
            spec: Spec::V4,
            key_folding: KeyFolding::Off,
            flatten_depth: usize::MAX,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Options for [`decode`](crate::toon) functions.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Spaces per indentation level (default 2, at least 1).
    pub indent: usize,
    /// Strict decoding (default `true`): every violation of spec §14 is an error.
    pub strict: bool,
    /// Spec edition (default 4.x).
    pub spec: Spec,
    /// Path expansion; only [`Spec::V3`] has it.
    pub expand_paths: ExpandPaths,
    /// Input nested deeper than this is refused (default
    /// [`DEFAULT_MAX_DEPTH`], at most [`MAX_DEPTH_LIMIT`](crate::MAX_DEPTH_LIMIT)).
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            indent: 2,
            strict: true,
            spec: Spec::V4,
            expand_paths: ExpandPaths::Off,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

//! What to write: the forms, what `auto` minimises, and the options of
//! [`encode`](super::encode).

use crate::tokens::TokenizerKind;
use crate::toon::EncodeOptions;
use crate::{Error, ErrorKind, Result};
use std::fmt;
use std::str::FromStr;

/// A form pith writes (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Form {
    /// The cheapest of the others, never a positional one.
    #[default]
    Auto,
    /// TOON as [`crate::toon`] writes it.
    Toon,
    /// TOON with key-hoisted tables in the seed's form.
    Hoisted,
    /// TOON with key-hoisted tables in the compact form.
    HoistedCompact,
    /// JSON with columnar tables.
    Table,
    /// Compact JSON.
    Json,
    /// The pith notation ([`crate::notation`]), with what the readability
    /// floor admits.
    Pith,
}

impl Form {
    /// Every form, in the order `pith measure` lists them.
    pub const ALL: [Form; 7] = [
        Form::Json,
        Form::Toon,
        Form::Hoisted,
        Form::HoistedCompact,
        Form::Table,
        Form::Pith,
        Form::Auto,
    ];

    /// `auto`, `pith`, `toon`, `hoisted`, `hoisted-compact`, `table` or `json`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Auto => "auto",
            Form::Pith => "pith",
            Form::Toon => "toon",
            Form::Hoisted => "hoisted",
            Form::HoistedCompact => "hoisted-compact",
            Form::Table => "table",
            Form::Json => "json",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Form {
    type Err = Error;

    /// Reads a form's [`name`](Form::name).
    fn from_str(s: &str) -> Result<Form> {
        Form::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Type,
                    format!(
                        "unknown form {s:?}: expected auto, pith, toon, hoisted, hoisted-compact, table or json"
                    ),
                )
            })
    }
}

/// What `auto` minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Metric {
    /// Tokens of this tokenizer, counted exactly.
    Tokens(TokenizerKind),
    /// UTF-8 bytes.
    Bytes,
}

impl Default for Metric {
    /// Tokens of the first tokenizer compiled in (o200k_base by default).
    fn default() -> Metric {
        Metric::Tokens(TokenizerKind::ALL[0])
    }
}

/// Options for [`encode`](super::encode).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The form to write (default [`Form::Auto`]).
    pub form: Form,
    /// What `auto` minimises, and what `table` interns by (default o200k tokens).
    pub metric: Metric,
    /// TOON layout: indent, delimiter, depth limit. Spec 3.3 and key folding
    /// apply to [`Form::Toon`] only; the other TOON forms write spec 4.x.
    pub toon: EncodeOptions,
    /// The lowest readability score (1 to 5, see [`readability`](super::readability)) `auto` and
    /// `pith` may write (default [`DEFAULT_MIN_READABILITY`]).
    pub min_readability: u8,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            form: Form::Auto,
            metric: Metric::default(),
            toon: EncodeOptions::default(),
            min_readability: DEFAULT_MIN_READABILITY,
        }
    }
}

/// The readability floor `auto` obeys unless told otherwise: the seed's
/// minimum adopted score.
pub const DEFAULT_MIN_READABILITY: u8 = 4;

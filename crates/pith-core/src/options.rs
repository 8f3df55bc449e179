//! Builder-style setters for every options struct of the library.
//!
//! The options structs are `#[non_exhaustive]`, so that a new option is not
//! a breaking change: outside this crate they are made from `Default` (or a
//! constructor) and changed by field or by these setters, one per field,
//! each taking and returning the options by value:
//!
//! ```
//! use pith::toon::{DecodeOptions, Delimiter, EncodeOptions};
//!
//! let value = pith::json::parse(r#"{"ids":[1,2,3]}"#)?;
//! let opts = EncodeOptions::default().indent(4).delimiter(Delimiter::Tab);
//! let text = pith::toon::encode(&value, &opts)?;
//! assert_eq!(text, "ids[3\t]: 1\t2\t3");
//! let back = pith::toon::decode(&text, &DecodeOptions::default().indent(4).strict(true))?;
//! assert_eq!(back, value);
//! # Ok::<(), pith::Error>(())
//! ```
//!
//! They are written by one macro here, so that every struct's setters are
//! alike (and a struct gains them by being listed); pith-wire and pith-mcp
//! use the same macro for theirs.

use crate::budget::{Budget, Cursor, FitOptions};
use crate::json::ParseOptions;
use crate::select::{self, Form, Metric};
use crate::tokens::TokenizerKind;
use crate::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding, Spec};

/// `options_setters!(Type { field: FieldType, … })`: for each field, a
/// method of the field's name that sets it and returns the options. Exported
/// (hidden) so that pith-wire and pith-mcp write their options' setters the
/// same way; not a part of the API.
#[doc(hidden)]
#[macro_export]
macro_rules! options_setters {
    ($ty:ident { $($field:ident: $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!(
                    "Sets the field `", stringify!($field), "` and returns the options, ",
                    "for chains such as `", stringify!($ty), "::default().",
                    stringify!($field), "(…)`."
                )]
                #[must_use]
                pub fn $field(mut self, $field: $t) -> Self {
                    self.$field = $field;
                    self
                }
            )*
        }
    };
}

crate::options_setters!(ParseOptions { max_depth: usize });

crate::options_setters!(EncodeOptions {
    indent: usize,
    delimiter: Delimiter,
    spec: Spec,
    key_folding: KeyFolding,
    flatten_depth: usize,
    max_depth: usize,
});

crate::options_setters!(DecodeOptions {
    indent: usize,
    strict: bool,
    spec: Spec,
    expand_paths: ExpandPaths,
    max_depth: usize,
});

use select::Options as SelectOptions;
crate::options_setters!(SelectOptions {
    form: Form,
    metric: Metric,
    toon: EncodeOptions,
    min_readability: u8,
});

use crate::notation::Options as NotationOptions;
crate::options_setters!(NotationOptions {
    references: bool,
    derived: bool,
    indent: usize,
    delimiter: Delimiter,
    max_depth: usize,
    tokenizer: TokenizerKind,
});

crate::options_setters!(FitOptions {
    budget: Budget,
    tokenizer: TokenizerKind,
    cursor: Option<Cursor>,
});

//! What [`encode`](super::encode) and [`measure`](super::measure) return:
//! the text, its syntax, the tables in it, and its readability score.

use super::Form;
use crate::{Map, Value};

/// The readability score of an encoded document, by the seed's rubric
/// (`docs/notation.md`): 5 for JSON, TOON and the notation without lookups;
/// one less per kind of extra decoding step (JSON text in cells, list cells
/// declared in metadata, references, derived columns); 2 for columnar
/// tables, which are read by position and through a dictionary.
pub fn readability(encoded: &Encoded) -> u8 {
    let mut score = match encoded.syntax {
        Syntax::Pith {
            references,
            derived,
        } => 5 - u8::from(references > 0) - u8::from(derived > 0),
        Syntax::Toon | Syntax::Json => 5,
    };
    for form in [TableForm::Hoisted, TableForm::HoistedCompact] {
        if encoded.tables.iter().any(|c| c.form == form) {
            score = score.min(4);
        }
    }
    if encoded.tables.iter().any(|c| c.form == TableForm::Columnar) {
        score = score.min(2);
    }
    score
}

/// The syntax of an encoded document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// TOON.
    Toon,
    /// JSON.
    Json,
    /// The pith notation, with how many names it defines and how many
    /// derived columns it declares.
    Pith {
        /// Definitions (`&name: …`).
        references: usize,
        /// Derived columns.
        derived: usize,
    },
}

impl Syntax {
    /// `toon`, `json` or `pith`.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Toon => "toon",
            Syntax::Json => "json",
            Syntax::Pith { .. } => "pith",
        }
    }
}

/// How a collection was written, when not as plain TOON or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableForm {
    /// A key-hoisted table in the seed's form.
    Hoisted,
    /// A key-hoisted table in the compact form.
    HoistedCompact,
    /// A columnar table.
    Columnar,
}

impl TableForm {
    /// `hoisted`, `hoisted-compact` or `table`.
    pub fn name(self) -> &'static str {
        match self {
            TableForm::Hoisted => "hoisted",
            TableForm::HoistedCompact => "hoisted-compact",
            TableForm::Columnar => "table",
        }
    }
}

/// A collection written as a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Its JSON path, such as `items` or `data.rows`.
    pub path: String,
    /// How it was written.
    pub form: TableForm,
}

/// An encoded document and what went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The text (no final newline).
    pub text: String,
    /// TOON or JSON.
    pub syntax: Syntax,
    /// Whether the value went into a wrapper because it looks like a table.
    pub wrapped: bool,
    /// The collections written as tables, in document order.
    pub tables: Vec<Choice>,
}

impl Encoded {
    /// A one-line account: `toon`, `json`, `toon; hoisted-compact: items`,
    /// `json; wrapped`.
    pub fn describe(&self) -> String {
        let mut s = String::from(self.syntax.name());
        if let Syntax::Pith {
            references,
            derived,
        } = self.syntax
        {
            if references > 0 {
                s.push_str(&format!("; references: {references}"));
            }
            if derived > 0 {
                s.push_str(&format!("; derived columns: {derived}"));
            }
        }
        if self.wrapped {
            s.push_str("; wrapped");
        }
        for form in [
            TableForm::Hoisted,
            TableForm::HoistedCompact,
            TableForm::Columnar,
        ] {
            let paths: Vec<&str> = self
                .tables
                .iter()
                .filter(|c| c.form == form)
                .map(|c| c.path.as_str())
                .collect();
            if !paths.is_empty() {
                s.push_str(&format!("; {}: {}", form.name(), paths.join(", ")));
            }
        }
        s
    }
}

/// Every candidate's size, and what `auto` chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measurement {
    /// One entry per form of [`Form::ALL`], in that order.
    pub candidates: Vec<Candidate>,
    /// What `auto` wrote.
    pub auto: Encoded,
}

impl Measurement {
    /// The measurement as data, as `pith measure --json` writes it for a
    /// file (and the bindings' `measure` returns it):
    /// `{"forms": {form: {"bytes", "tokens", "readability"}}, "auto":
    /// {"chose", "syntax", "wrapped", "tables": [{"path", "form"}]}}`, the
    /// forms in [`Form::ALL`]'s order, `chose` what
    /// [`Encoded::describe`] says.
    pub fn report(&self) -> Map {
        let forms: Map = self
            .candidates
            .iter()
            .map(|c| {
                let size: Map = [
                    ("bytes", Value::from(c.bytes)),
                    ("tokens", Value::from(c.tokens)),
                    ("readability", Value::from(c.readability)),
                ]
                .into_iter()
                .collect();
                (c.form.name(), Value::Object(size))
            })
            .collect();
        let tables = self
            .auto
            .tables
            .iter()
            .map(|c| {
                let table: Map = [
                    ("path", Value::from(c.path.as_str())),
                    ("form", Value::from(c.form.name())),
                ]
                .into_iter()
                .collect();
                Value::Object(table)
            })
            .collect();
        let auto: Map = [
            ("chose", Value::from(self.auto.describe())),
            ("syntax", Value::from(self.auto.syntax.name())),
            ("wrapped", Value::from(self.auto.wrapped)),
            ("tables", Value::Array(tables)),
        ]
        .into_iter()
        .collect();
        [
            ("forms", Value::Object(forms)),
            ("auto", Value::Object(auto)),
        ]
        .into_iter()
        .collect()
    }
}

/// One form's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The form.
    pub form: Form,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// Tokens of the measuring tokenizer.
    pub tokens: usize,
    /// Its [`readability`] score.
    pub readability: u8,
}

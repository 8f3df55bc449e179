//! Every form's size and what `auto` chose, as a value shaped like one file
//! of `pith measure --json` (without the file name, with the tokenizer).

use pith::select::{self, Syntax};
use pith::tokens::TokenizerKind;
use pith::toon::EncodeOptions;
use pith::{Map, Result, Value};

/// `{"tokenizer", "forms": {form: {"bytes", "tokens", "readability"}},
/// "auto": {"chose", "syntax", "wrapped", "tables": [{"path", "form"}]}}`,
/// forms in the order `pith measure` lists them.
///
/// # Errors
///
/// Those of [`pith::select::measure`] (a value nested too deep).
pub fn measure(value: &Value, tokenizer: TokenizerKind) -> Result<Value> {
    let m = select::measure(value, tokenizer, &EncodeOptions::default())?;
    let mut forms = Map::new();
    for c in &m.candidates {
        let mut size = Map::new();
        size.insert("bytes", Value::from(c.bytes));
        size.insert("tokens", Value::from(c.tokens));
        size.insert("readability", Value::from(c.readability));
        forms.insert(c.form.name(), Value::Object(size));
    }
    let tables = m
        .auto
        .tables
        .iter()
        .map(|c| {
            let mut t = Map::new();
            t.insert("path", Value::from(c.path.as_str()));
            t.insert("form", Value::from(c.form.name()));
            Value::Object(t)
        })
        .collect();
    let mut auto = Map::new();
    auto.insert("chose", Value::from(m.auto.describe()));
    let syntax = match m.auto.syntax {
        Syntax::Toon => "toon",
        Syntax::Json => "json",
        Syntax::Pith { .. } => "pith",
    };
    auto.insert("syntax", Value::from(syntax));
    auto.insert("wrapped", Value::from(m.auto.wrapped));
    auto.insert("tables", Value::Array(tables));
    let mut out = Map::new();
    out.insert("tokenizer", Value::from(tokenizer.name()));
    out.insert("forms", Value::Object(forms));
    out.insert("auto", Value::Object(auto));
    Ok(Value::Object(out))
}

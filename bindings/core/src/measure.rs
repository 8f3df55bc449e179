//! Every form's size and what `auto` chose, as a value shaped like one file
//! of `pith measure --json` (without the file name, with the tokenizer).

use pith::select;
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
    let mut out = Map::new();
    out.insert("tokenizer", Value::from(tokenizer.name()));
    for (k, v) in m.report() {
        out.insert(k, v);
    }
    Ok(Value::Object(out))
}

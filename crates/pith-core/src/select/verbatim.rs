//! Values written verbatim: the `$pith` wrapper in TOON, and the marked
//! JSON wrapper of the `table` form, which starts with [`JSON_MARK`].

use super::{Encoded, Form, JSON_MARK, WRAPPER_TAG, WRAPPER_VALUE, toon_doc};
use crate::toon::EncodeOptions;
use crate::{Map, Result, Value};

/// Whether `m` is shaped like a wrapper: exactly the keys `$pith` and `value`.
pub(super) fn is_wrapper(m: &Map) -> bool {
    m.len() == 2 && m.contains_key(WRAPPER_TAG) && m.contains_key(WRAPPER_VALUE)
}

/// `{"$pith": form, "value": value}`.
fn wrapper(form: Form, value: Value) -> Value {
    let mut m = Map::with_capacity(2);
    m.push_unique(WRAPPER_TAG.to_owned(), Value::from(form.name()));
    m.push_unique(WRAPPER_VALUE.to_owned(), value);
    Value::Object(m)
}

/// `value` verbatim inside a TOON wrapper naming `form`, written with `toon`.
pub(super) fn toon_wrapped(value: &Value, form: Form, toon: &EncodeOptions) -> Result<Encoded> {
    let mut doc = toon_doc(&wrapper(form, value.clone()), toon, Vec::new())?;
    doc.wrapped = true;
    Ok(doc)
}

/// `{"$pith": "<form>", "value": <value as compact JSON>}`: a wrapper that
/// starts with [`JSON_MARK`], so that [`decode`] reads it as one.
pub(super) fn marked_json(form: Form, value: &Value) -> String {
    let body = crate::json::stringify(value);
    let mut out = String::with_capacity(body.len() + 40);
    out.push_str(JSON_MARK);
    out.push_str(form.name());
    out.push_str("\", \"");
    out.push_str(WRAPPER_VALUE);
    out.push_str("\": ");
    out.push_str(&body);
    out.push('}');
    out
}

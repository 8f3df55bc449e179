//! Reading any form pith writes, as [`pith::select::decode`] reads it.
//!
//! `select::decode` reads a notation document with the notation's reader;
//! any other text it parses as JSON or TOON and then passes through a
//! restorer, which rebuilds every object on the way. The restorer changes
//! only three things (a wrapper at the root, columnar tables and hoisted
//! pairs, found by the library's own predicates) and gives every other
//! value back as it was. [`decode`] looks for those three first, without
//! building anything, and when there are none returns the parsed value:
//! the same value, without a second copy of a large document. When there
//! are, it leaves the whole reading to `select::decode`.

use crate::sink::{Sink, walk};
use crate::{DROP_LATER_BYTES, drop_later};
use pith::select::{self, WRAPPER_TAG, WRAPPER_VALUE};
use pith::table::{self, hoisted};
use pith::toon::DecodeOptions;
use pith::{Result, Value};

/// Reads `bytes` exactly as [`select::decode`] does.
///
/// # Errors
///
/// Those of [`select::decode`].
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    if pith::notation::is_document(bytes) {
        return select::decode(bytes, opts);
    }
    let value = select::parse(bytes, opts)?;
    if restores_anything(&value) {
        // JSON text restores less than TOON does; `select::decode` knows
        // which syntax it read.
        drop(value);
        select::decode(bytes, opts)
    } else {
        Ok(value)
    }
}

/// Reads `bytes` as [`decode`] does into a sink that `fresh` makes: straight
/// from the text where [`crate::read`] can, else through the value the
/// library reads (freed on a background thread when it is large).
///
/// # Errors
///
/// Those of [`select::decode`].
pub fn decode_into<S: Sink>(
    bytes: &[u8],
    opts: &DecodeOptions,
    mut fresh: impl FnMut() -> S,
) -> Result<S> {
    if !pith::notation::is_document(bytes)
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        let mut sink = fresh();
        if crate::read::read(text, opts, &mut sink) {
            return Ok(sink);
        }
    }
    let value = decode(bytes, opts)?;
    let mut sink = fresh();
    walk(&value, &mut sink);
    if bytes.len() >= DROP_LATER_BYTES {
        drop_later(value);
    }
    Ok(sink)
}

/// Whether [`select::restore`] would change `value`: a wrapper at the root,
/// or a columnar table or a hoisted pair anywhere.
fn restores_anything(value: &Value) -> bool {
    if let Value::Object(m) = value
        && m.len() == 2
        && m.contains_key(WRAPPER_TAG)
        && m.contains_key(WRAPPER_VALUE)
    {
        return true;
    }
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter().filter(|v| !v.is_primitive())),
            Value::Object(m) => {
                if table::is_columnar(m) {
                    return true;
                }
                for (k, child) in m.iter() {
                    if let Some(base) = k.strip_suffix(hoisted::ENCODING_SUFFIX)
                        && table::is_hoisted_pair(m, base)
                    {
                        return true;
                    }
                    if !child.is_primitive() {
                        stack.push(child);
                    }
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use pith::select::{Form, Options, encode};

    /// Every form of values with and without tables and look-alikes reads
    /// back the same through both readers.
    #[test]
    fn reads_what_select_decode_reads() {
        let docs = [
            r#"{"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]},{"id":3,"tags":["b","c"]}]}"#,
            r#"{"rows":[{"a":1,"b":{"x":1}},{"a":2},{"a":3,"b":{"x":2}}],"n":3}"#,
            r#"{"cols":1,"dict":2,"rows":3}"#,
            r#"{"$pith":"auto","value":[1,2]}"#,
            r#"{"items":[1,2],"items_encoding":{"json_columns":[]}}"#,
            r#"[{"cols":["a"],"dict":{},"rows":[[1]]},{"x":{"y":[{"z":null}]}}]"#,
            r#"{"a":[[1,2],[3,4]],"b":"text","c":{"d":{"e":1.5e300}}}"#,
        ];
        for doc in docs {
            let value = pith::json::parse(doc).unwrap();
            for form in Form::ALL {
                let opts = Options::default().form(form);
                let text = encode(&value, &opts).unwrap().text;
                let want = select::decode(text.as_bytes(), &DecodeOptions::default());
                let got = decode(text.as_bytes(), &DecodeOptions::default());
                assert_eq!(got.ok(), want.ok(), "{form}: {text}");
            }
        }
    }

    /// Texts as a caller may hand them over: JSON that looks like a table
    /// means what it says, a notation document is read as one, a BOM and
    /// the text `%pith` alone, with a line feed or without, and a CR after it.
    #[test]
    fn reads_given_texts_as_select_decode_reads_them() {
        let texts = [
            r#"{"cols":["a"],"dict":{},"rows":[[1]]}"#,
            r#"{"items":[[1]],"items_encoding":{"json_columns":[]}}"#,
            r#"{"$pith":"table","value":{"cols":["a"],"dict":{},"rows":[[1]]}}"#,
            r#"{"$pith": "table", "value": {"cols":["a"],"dict":{},"rows":[[1]]}}"#,
            r#"{"$pith":7,"value":1}"#,
            "items[1]: 1\nitems_encoding:\n  json_columns[0]:",
            "%pith\nrows[2]{a,b?}:\n  1,\n  2,x",
            "\u{feff}%pith\na: 1",
            "%pith",
            "%pith\n",
            "%pith\r\n",
            "%pith\r\na: 1",
            "%pithy",
        ];
        for text in texts {
            let want = select::decode(text.as_bytes(), &DecodeOptions::default());
            let got = decode(text.as_bytes(), &DecodeOptions::default());
            assert_eq!(got.ok(), want.ok(), "{text}");
        }
    }

    #[test]
    fn errors_are_the_same() {
        for text in [
            "a: 1\nb c",
            r#"{"$pith": "zip", "value": 1}"#,
            "items[1]: x\nitems_encoding:\n  json_columns: 5",
            "%pith\nrows[2]{a}:\n  1",
            "%pith\r\na: 1",
        ] {
            let want = select::decode(text.as_bytes(), &DecodeOptions::default()).unwrap_err();
            let got = decode(text.as_bytes(), &DecodeOptions::default()).unwrap_err();
            assert_eq!(got.to_string(), want.to_string());
        }
    }
}

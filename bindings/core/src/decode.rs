//! Reading any form pith writes, as [`pith::select::decode`] reads it.
//!
//! `select::decode` parses the text and then passes the whole value through
//! the restorer, which rebuilds every object on the way. The restorer
//! changes only three things (a wrapper at the root, columnar tables and
//! hoisted pairs, found by the library's own predicates) and gives every
//! other value back as it was. [`decode`] looks for those three first,
//! without building anything, and skips the rebuild when there are none:
//! the same value, without a second copy of a large document.

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
    let value = select::parse(bytes, opts)?;
    if restores_anything(&value) {
        select::restore(value, opts.max_depth)
    } else {
        Ok(value)
    }
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
                let opts = Options {
                    form,
                    ..Options::default()
                };
                let text = encode(&value, &opts).unwrap().text;
                let want = select::decode(text.as_bytes(), &DecodeOptions::default());
                let got = decode(text.as_bytes(), &DecodeOptions::default());
                assert_eq!(got.ok(), want.ok(), "{form}: {text}");
            }
        }
    }

    #[test]
    fn errors_are_the_same() {
        for text in [
            "a: 1\nb c",
            r#"{"$pith":7,"value":1}"#,
            "items[1]: x\nitems_encoding:\n  json_columns: 5",
        ] {
            let want = select::decode(text.as_bytes(), &DecodeOptions::default()).unwrap_err();
            let got = decode(text.as_bytes(), &DecodeOptions::default()).unwrap_err();
            assert_eq!(got.to_string(), want.to_string());
        }
    }
}

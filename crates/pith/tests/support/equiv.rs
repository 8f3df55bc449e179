//! Equality under the fact-preservation contract, shared by the tests.
//!
//! Exact (numbers by value, strings by code points, arrays in order, key
//! order kept), except where a TOON table may legitimately list keys in its
//! header's order: objects that are elements of an array of objects (tabular
//! rows) or values of an object of objects (keyed-table entries), and,
//! inside those, their object-valued fields (nested field groups).

use pith::Value;

/// Whether `b` holds exactly the facts of `a` under the contract.
pub fn same(a: &Value, b: &Value) -> bool {
    same_at(a, b, false)
}

fn same_at(a: &Value, b: &Value, reorderable: bool) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            let rows = x.iter().all(|v| matches!(v, Value::Object(_)));
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_at(p, q, rows))
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if reorderable {
                x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_at(v, w, true)))
            } else {
                let entries = x.values().all(|v| matches!(v, Value::Object(_)));
                x.iter()
                    .zip(y.iter())
                    .all(|((k, v), (l, w))| k == l && same_at(v, w, entries))
            }
        }
        _ => a == b,
    }
}

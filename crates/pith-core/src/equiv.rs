//! Equality under the fact-preservation contract.
//!
//! `decode(encode(x))` must equal `x` exactly, with one allowance that the
//! table forms make: the rows of a table take the header's key order, and a
//! header lists the first row's keys first, in that row's order (a union of
//! the rows' keys in first-seen order). So a row after the first — an
//! element after the first of an array of objects, or a value after the
//! first of an object whose values are all objects (a keyed table) — may
//! come back with its keys in another order, and so may the objects nested
//! in it through objects alone (its field groups). Everything else is
//! compared exactly: the first row of every table, the same variants, the
//! same keys in the same order, numbers by exact value, strings by code
//! points, null distinct from absent, empty containers kept.
//!
//! ```
//! use pith::equiv::{difference, equivalent};
//! let a = pith::json::parse(r#"{"rows":[{"id":1,"x":null},{"x":[],"id":2}]}"#)?;
//! let reordered = pith::json::parse(r#"{"rows":[{"id":1,"x":null},{"id":2,"x":[]}]}"#)?;
//! assert!(equivalent(&a, &reordered));
//! let lost = pith::json::parse(r#"{"rows":[{"id":1},{"id":2,"x":[]}]}"#)?;
//! assert_eq!(difference(&a, &lost).as_deref(), Some("rows[0]: expected 2 keys, found 1"));
//! # Ok::<(), pith::Error>(())
//! ```

use crate::path::Step;
use crate::{Map, Value};

/// Whether `actual` carries exactly the facts of `expected` (see the module docs).
pub fn equivalent(expected: &Value, actual: &Value) -> bool {
    difference(expected, actual).is_none()
}

/// The first place where `actual` differs from `expected` under the
/// contract, as `path: what was expected, what was found`; `None` when they
/// are equivalent.
pub fn difference(expected: &Value, actual: &Value) -> Option<String> {
    // Explicit stack: values nested beyond the call stack's reach compare too.
    // Each entry holds the length of its parent's path and its own step; the
    // path is kept as steps and written out only for a difference.
    let mut stack: Vec<(&Value, &Value, bool, usize, Option<Step>)> =
        vec![(expected, actual, false, 0, None)];
    let mut path: Vec<Step> = Vec::new();
    while let Some((a, b, reorderable, parent, step)) = stack.pop() {
        path.truncate(parent);
        path.extend(step);
        let here = path.len();
        match (a, b) {
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return Some(at(
                        &path,
                        format!("expected {} elements, found {}", x.len(), y.len()),
                    ));
                }
                // An array starts over: inside it, only its own rows may reorder.
                let rows = x.iter().all(|v| matches!(v, Value::Object(_)));
                for (i, (p, q)) in x.iter().zip(y).enumerate().rev() {
                    stack.push((p, q, rows && i > 0, here, Some(Step::Index(i))));
                }
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return Some(at(
                        &path,
                        format!("expected {} keys, found {}", x.len(), y.len()),
                    ));
                }
                // A row's nested objects (field groups) follow the header
                // too; so do the values after the first of an object of
                // objects (a keyed table), when it is not itself in a row.
                let keyed = !reorderable && x.values().all(|v| matches!(v, Value::Object(_)));
                let first = stack.len();
                for (i, (k, v)) in x.iter().enumerate() {
                    let other = if reorderable {
                        y.get(k)
                    } else {
                        y.get_index(i).filter(|(l, _)| *l == k).map(|(_, w)| w)
                    };
                    let Some(w) = other else {
                        return Some(at(&path, missing_key(k, i, y, reorderable)));
                    };
                    let row = reorderable || (keyed && i > 0);
                    stack.push((v, w, row, here, Some(Step::Key(k))));
                }
                // The first key is compared first.
                stack[first..].reverse();
            }
            _ if a == b => {}
            _ => {
                return Some(at(
                    &path,
                    format!("expected {}, found {}", show(a), show(b)),
                ));
            }
        }
    }
    None
}

fn missing_key(k: &str, i: usize, y: &Map, reorderable: bool) -> String {
    match y.get_index(i) {
        Some((l, _)) if !reorderable && y.contains_key(k) => {
            format!("expected key {k:?} at position {i}, found {l:?}")
        }
        _ => format!("expected key {k:?}, found none"),
    }
}

fn at(path: &[Step], msg: String) -> String {
    format!("{}: {msg}", crate::path::render_steps(path))
}

/// A short rendering of a value for messages.
fn show(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("an array of {}", a.len()),
        Value::Object(m) => format!("an object of {} keys", m.len()),
        Value::String(s) if s.chars().count() > 40 => {
            let cut: String = s.chars().take(40).collect();
            format!("{cut:?}…")
        }
        _ => crate::json::stringify(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::json::parse(s).unwrap()
    }

    #[test]
    fn key_order_matters_outside_tables() {
        assert!(!equivalent(&j(r#"{"a":1,"b":2}"#), &j(r#"{"b":2,"a":1}"#)));
        assert!(equivalent(
            &j(r#"[{"a":1,"b":2},{"b":3,"a":4}]"#),
            &j(r#"[{"a":1,"b":2},{"a":4,"b":3}]"#)
        ));
        assert!(equivalent(
            &j(r#"{"k":{"x":{"a":1,"b":2},"y":{"a":1,"b":2}}}"#),
            &j(r#"{"k":{"x":{"a":1,"b":2},"y":{"b":2,"a":1}}}"#)
        ));
    }

    #[test]
    fn only_rows_after_the_first_reorder() {
        // A config-shaped document is no table: its nested objects keep their order.
        let config = j(r#"{"user":{"name":"x","address":{"street":"s","city":"c"}}}"#);
        let reordered = j(r#"{"user":{"name":"x","address":{"city":"c","street":"s"}}}"#);
        assert_eq!(
            difference(&config, &reordered).as_deref(),
            Some(r#"user.address: expected key "street" at position 0, found "city""#)
        );
        // The first row fixes the header, so it comes back as it was.
        assert!(!equivalent(
            &j(r#"[{"a":1,"b":2},{"a":3,"b":4}]"#),
            &j(r#"[{"b":2,"a":1},{"a":3,"b":4}]"#)
        ));
        // A later row's field groups follow the header; its arrays start over.
        assert!(equivalent(
            &j(r#"[{"a":1,"g":{"x":1,"y":2}},{"g":{"y":2,"x":1},"a":2}]"#),
            &j(r#"[{"a":1,"g":{"x":1,"y":2}},{"a":2,"g":{"x":1,"y":2}}]"#)
        ));
        assert!(!equivalent(
            &j(r#"[{"a":1},{"a":2,"l":[{"p":1,"q":2}]}]"#),
            &j(r#"[{"a":1},{"a":2,"l":[{"q":2,"p":1}]}]"#)
        ));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(equivalent(&j("[1.0, 1e2]"), &j("[1, 100]")));
        assert!(!equivalent(&j("9007199254740993"), &j("9007199254740992")));
    }

    #[test]
    fn messages_name_the_place() {
        assert_eq!(
            difference(
                &j(r#"{"a":[1,{"b c":null}]}"#),
                &j(r#"{"a":[1,{"b c":0}]}"#)
            )
            .as_deref(),
            Some(r#"a[1]["b c"]: expected null, found 0"#)
        );
        assert_eq!(
            difference(&j(r#"{"a":1,"b":2}"#), &j(r#"{"b":2,"a":1}"#)).as_deref(),
            Some(r#"$: expected key "a" at position 0, found "b""#)
        );
    }
}

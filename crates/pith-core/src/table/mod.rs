//! Tables of object rows beyond plain TOON: key-hoisted tables inside TOON
//! ([`hoisted`]) and columnar tables in JSON ([`columnar`]).
//!
//! Both turn a *collection* (an array of objects) into one header of column
//! names and rows of cells, so that keys are written once instead of once
//! per row, and both restore the exact rows: keys only some rows carry,
//! null distinct from absent, empty containers, nested values. The rows of
//! a restored table take the column order (the union of the rows' keys in
//! first-seen order), as rows of every table do.
//!
//! # Telling them apart
//!
//! A reader finds these tables by their shape, with one predicate per form:
//!
//! * **hoisted**: an object with a member `K` that is an array and a member
//!   `K_encoding` that is an object holding the key `json_columns`
//!   ([`is_hoisted_pair`]);
//! * **columnar**: an object whose keys are exactly `cols`, `dict` and
//!   `rows`, or those and `absent` ([`is_columnar`]).
//!
//! The restorer touches every object that matches, and refuses one that
//! matches but is malformed; it touches nothing else. The encoders in
//! [`crate::select`] use the same predicates to find values that merely look
//! like tables and keep them from being misread (see there).

pub mod columnar;
pub mod hoisted;

use crate::{Error, ErrorKind, Map, Result, Value};
use std::collections::{HashMap, HashSet};

/// Whether `map`'s member `key` is a hoisted collection that the restorer
/// reads: `map[key]` is an array and `map[key + "_encoding"]` is an object
/// with a `json_columns` key.
pub fn is_hoisted_pair(map: &Map, key: &str) -> bool {
    let Some(Value::Array(_)) = map.get(key) else {
        return false;
    };
    let meta = hoisted::encoding_key(key);
    matches!(map.get(&meta), Some(Value::Object(m)) if m.contains_key(hoisted::JSON_COLUMNS))
}

/// The collection keys of `map` that [`is_hoisted_pair`] accepts, in order
/// of their metadata keys.
pub(crate) fn hoisted_pairs(map: &Map) -> impl Iterator<Item = &str> {
    map.iter().filter_map(move |(k, v)| {
        let base = k.strip_suffix(hoisted::ENCODING_SUFFIX)?;
        let Value::Object(meta) = v else {
            return None;
        };
        if !meta.contains_key(hoisted::JSON_COLUMNS) {
            return None;
        }
        matches!(map.get(base), Some(Value::Array(_))).then_some(base)
    })
}

/// Whether `map` is shaped like a columnar table: its keys are exactly
/// `cols`, `dict` and `rows`, or those and `absent`, in any order.
pub fn is_columnar(map: &Map) -> bool {
    let n = map.len();
    (n == 3 || n == 4)
        && map.contains_key("cols")
        && map.contains_key("dict")
        && map.contains_key("rows")
        && (n == 3 || map.contains_key("absent"))
}

/// The density guard: whether `rows` are all objects and a grid of rows ×
/// distinct columns would hold at most twice the cells present. Counted in
/// one pass over the keys, without building the grid; the forms that pad
/// rows to a grid ([`hoisted`], [`columnar`]) are only used on collections
/// that pass it.
///
/// ```
/// let sparse = pith::json::parse(r#"[{"a":1},{"b":2},{"c":3}]"#)?;
/// assert!(!pith::table::dense_enough(sparse.as_array().unwrap()));
/// let dense = pith::json::parse(r#"[{"a":1,"b":2},{"a":3}]"#)?;
/// assert!(pith::table::dense_enough(dense.as_array().unwrap()));
/// # Ok::<(), pith::Error>(())
/// ```
pub fn dense_enough(rows: &[Value]) -> bool {
    Census::of(rows).is_some_and(|c| c.dense_enough(rows.len()))
}

/// Columns and present cells of a collection, counted in one pass without
/// building a grid.
pub(crate) struct Census<'a> {
    /// The union of the rows' keys, in first-seen order.
    pub columns: Vec<&'a str>,
    /// Cells present (the sum of the rows' key counts).
    pub present: usize,
}

impl<'a> Census<'a> {
    /// The census of `rows`, or `None` when one of them is not an object.
    pub fn of(rows: &'a [Value]) -> Option<Census<'a>> {
        let mut columns: Vec<&'a str> = Vec::new();
        let mut seen: HashSet<&'a str> = HashSet::new();
        let mut present = 0usize;
        for row in rows {
            let Value::Object(m) = row else {
                return None;
            };
            present += m.len();
            for (j, k) in m.keys().enumerate() {
                // Most rows repeat the first row's keys in order: the column
                // at the same position answers without hashing.
                if columns.get(j).is_some_and(|c| *c == k) {
                    continue;
                }
                if seen.insert(k.as_str()) {
                    columns.push(k);
                }
            }
        }
        Some(Census { columns, present })
    }

    /// The census of `rows`, or an error naming the first row that is not
    /// an object.
    pub fn of_objects(rows: &'a [Value]) -> Result<Census<'a>> {
        Census::of(rows).ok_or_else(|| {
            let i = rows
                .iter()
                .position(|r| !matches!(r, Value::Object(_)))
                .unwrap_or(0);
            let found = rows.get(i).map_or("nothing", Value::type_name);
            Error::at_path(
                ErrorKind::Type,
                index_path("$", i),
                format!("expected an object row, found {found}"),
            )
        })
    }

    /// Each column's index, by name.
    pub fn slots(&self) -> HashMap<&'a str, usize> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i))
            .collect()
    }

    /// The column of key `k`, the `j`th of its row, given [`Census::slots`].
    /// Most rows repeat the columns in order: the column at the same
    /// position answers without hashing.
    #[inline]
    pub fn column(&self, slots: &HashMap<&'a str, usize>, j: usize, k: &str) -> usize {
        match self.columns.get(j) {
            Some(c) if *c == k => j,
            _ => slots.get(k).copied().unwrap_or(0),
        }
    }

    /// The density guard: a grid of `rows × columns` cells may be at most
    /// twice the cells present, or padding would outweigh the facts.
    pub fn dense_enough(&self, rows: usize) -> bool {
        rows.checked_mul(self.columns.len())
            .is_some_and(|grid| grid <= self.present.saturating_mul(2))
    }
}

/// The shape a table's first row gives it, as TOON 4.x sees it: a leaf for
/// each primitive field, a nested field group for each non-empty object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shape<'a> {
    pub fields: Vec<(&'a str, Option<Shape<'a>>)>,
}

impl<'a> Shape<'a> {
    /// The shape of `row`, or `None` when it has no keys, or a value that is
    /// an array, an empty object or (without `groups`) any object, or when
    /// objects nest beyond `depth_left` levels.
    pub fn of(row: &'a Map, groups: bool, depth_left: usize) -> Option<Shape<'a>> {
        if row.is_empty() || depth_left == 0 {
            return None;
        }
        let mut fields = Vec::with_capacity(row.len());
        for (k, v) in row {
            let kid = match v {
                Value::Object(o) if groups => Some(Shape::of(o, groups, depth_left - 1)?),
                Value::Array(_) | Value::Object(_) => return None,
                _ => None,
            };
            fields.push((k.as_str(), kid));
        }
        Some(Shape { fields })
    }

    /// Whether `row` has exactly this shape (keys in any order).
    pub fn matches(&self, row: &Map) -> bool {
        if row.len() != self.fields.len() {
            return false;
        }
        self.fields.iter().enumerate().all(|(j, (name, kid))| {
            let v = match row.get_index(j) {
                Some((k, v)) if k == name => Some(v),
                _ => row.get(name),
            };
            match (v, kid) {
                (Some(v), None) => v.is_primitive(),
                (Some(Value::Object(o)), Some(kid)) => kid.matches(o),
                _ => false,
            }
        })
    }

    /// An object of this shape with every leaf null: the padding of an
    /// absent cell in a column of nested objects.
    pub fn skeleton(&self) -> Value {
        let mut m = Map::with_capacity(self.fields.len());
        for (name, kid) in &self.fields {
            let v = kid.as_ref().map_or(Value::Null, Shape::skeleton);
            m.push_unique((*name).to_owned(), v);
        }
        Value::Object(m)
    }

    /// The number of leaf cells a row of this shape takes.
    pub fn leaves(&self) -> usize {
        self.fields
            .iter()
            .map(|(_, kid)| kid.as_ref().map_or(1, Shape::leaves))
            .sum()
    }
}

/// Whether the TOON 4.x encoder writes `rows` as a table (header and rows,
/// nested field groups included): the first row fixes a shape and every row
/// has it.
pub(crate) fn toon_tabular(rows: &[Value], depth_left: usize) -> bool {
    let Some(Value::Object(first)) = rows.first() else {
        return false;
    };
    let Some(shape) = Shape::of(first, true, depth_left) else {
        return false;
    };
    rows.iter()
        .all(|r| matches!(r, Value::Object(o) if shape.matches(o)))
}

pub(crate) use crate::path::push_key;

/// `path` followed by `[i]`.
pub(crate) fn index_path(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// `path` followed by `key` (see [`push_key`]).
pub(crate) fn key_path(path: &str, key: &str) -> String {
    let mut p = path.to_owned();
    push_key(&mut p, key);
    p
}

/// A [`ErrorKind::Type`] error at `path`: `expected {expected}, found {found}`.
pub(crate) fn bad(path: &str, expected: &str, found: &Value) -> Error {
    Error::at_path(
        ErrorKind::Type,
        path,
        format!("expected {expected}, found {}", describe(found)),
    )
}

/// A value named for a message: its type, and its text when short.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Array(_) | Value::Object(_) => v.type_name().to_owned(),
        _ => {
            let text = crate::json::stringify(v);
            if text.chars().count() <= 40 {
                format!("{} {text}", v.type_name())
            } else {
                v.type_name().to_owned()
            }
        }
    }
}

/// A row index written in table metadata: a non-negative integer.
pub(crate) fn row_index(v: &Value) -> Option<usize> {
    v.as_number()
        .and_then(crate::Number::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::json::parse(s).unwrap()
    }

    #[test]
    fn census_counts_columns_in_first_seen_order() {
        let rows = j(r#"[{"a":1,"b":2},{"c":3,"a":4},{}]"#);
        let c = Census::of(rows.as_array().unwrap()).unwrap();
        assert_eq!(c.columns, ["a", "b", "c"]);
        assert_eq!(c.present, 4);
        // 3 rows x 3 columns = 9 > 2 x 4
        assert!(!c.dense_enough(3));
        assert!(Census::of(j("[{},1]").as_array().unwrap()).is_none());
    }

    #[test]
    fn tabular_follows_the_encoders_rule() {
        let yes = [
            r#"[{"a":1,"b":"x"},{"b":"y","a":2}]"#,
            r#"[{"a":{"x":1,"y":{"z":null}}},{"a":{"y":{"z":1},"x":2}}]"#,
        ];
        let no = [
            r#"[{"a":1},{"a":1,"b":2}]"#,
            r#"[{"a":[1]},{"a":[2]}]"#,
            r#"[{"a":{}},{"a":{}}]"#,
            r#"[{"a":{"x":1}},{"a":1}]"#,
            r#"[{}]"#,
            r#"[]"#,
        ];
        for text in yes {
            assert!(toon_tabular(j(text).as_array().unwrap(), 256), "{text}");
        }
        for text in no {
            assert!(!toon_tabular(j(text).as_array().unwrap(), 256), "{text}");
        }
    }

    #[test]
    fn predicates() {
        let m = j(r#"{"a":[],"a_encoding":{"json_columns":[]},"b":[],"b_encoding":{"x":1}}"#);
        let m = m.as_object().unwrap();
        assert!(is_hoisted_pair(m, "a"));
        assert!(!is_hoisted_pair(m, "b"));
        assert_eq!(hoisted_pairs(m).collect::<Vec<_>>(), ["a"]);
        assert!(is_columnar(
            j(r#"{"rows":[],"cols":[],"dict":{}}"#).as_object().unwrap()
        ));
        assert!(is_columnar(
            j(r#"{"rows":1,"cols":2,"dict":3,"absent":4}"#)
                .as_object()
                .unwrap()
        ));
        assert!(!is_columnar(
            j(r#"{"rows":24,"cols":80}"#).as_object().unwrap()
        ));
        assert!(!is_columnar(
            j(r#"{"rows":1,"cols":2,"dict":3,"x":4}"#)
                .as_object()
                .unwrap()
        ));
    }
}

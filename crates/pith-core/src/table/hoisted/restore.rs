//! A key-hoisted table back to its rows: absent cells dropped, JSON and
//! list cells read, each error naming the row and the column.
use super::super::{bad, index_path, key_path};
use super::{ABSENT, Encoding, JSON_COLUMNS, LIST_COLUMNS, read_list};
use crate::json::ParseOptions;
use crate::{Error, ErrorKind, Map, Result, Value};
use std::collections::HashSet;

/// Restores rows at `path` (for messages); JSON cells may nest `depth_left` deep.
///
/// `strict` refuses metadata the encoder never writes: a json, list or
/// absent column the rows do not have, and an absent cell that holds
/// anything but the `null` (or, for a nested group, the object of nulls)
/// written in its place. Without it such names are ignored and such cells
/// left out whatever they hold.
pub(crate) fn restore_rows(
    rows: Vec<Value>,
    enc: &Encoding,
    path: &str,
    depth_left: usize,
    strict: bool,
) -> Result<Vec<Value>> {
    let n = rows.len();
    let mut absent: Vec<(usize, &str)> = enc.absent.iter().map(|(r, c)| (*r, c.as_str())).collect();
    absent.sort_by_key(|(r, _)| *r);
    if let Some((r, _)) = absent.iter().find(|(r, _)| *r >= n) {
        return Err(Error::at_path(
            ErrorKind::Type,
            path,
            format!("expected absent cells in rows below {n}, found row {r}"),
        ));
    }
    // Looked up once per cell: sets, so that wide tables stay linear.
    let json_columns: HashSet<&str> = enc.json_columns.iter().map(String::as_str).collect();
    let list_columns: HashSet<&str> = enc.list_columns.iter().map(String::as_str).collect();
    if strict && let Some(Value::Object(first)) = rows.first() {
        // Every row of a table has every column.
        let named = [
            (JSON_COLUMNS, enc.json_columns.iter().collect::<Vec<_>>()),
            (LIST_COLUMNS, enc.list_columns.iter().collect()),
            (ABSENT, enc.absent.iter().map(|(_, c)| c).collect()),
        ];
        for (key, names) in named {
            if let Some(c) = names.into_iter().find(|c| !first.contains_key(c)) {
                return Err(Error::at_path(
                    ErrorKind::Type,
                    path,
                    format!(
                        "expected {key} to name columns of the table, found {c:?}, which it has not"
                    ),
                ));
            }
        }
    }
    let mut gone_here: HashSet<&str> = HashSet::new();
    let mut next = 0;
    let mut out = Vec::with_capacity(n);
    for (i, row) in rows.into_iter().enumerate() {
        let start = next;
        while absent.get(next).is_some_and(|(r, _)| *r == i) {
            next += 1;
        }
        let gone = &absent[start..next];
        let row_path = || index_path(path, i);
        let m = match row.into_object() {
            Ok(m) => m,
            Err(row) => return Err(bad(&row_path(), "an object row", &row)),
        };
        for (_, c) in gone {
            if !m.contains_key(c) {
                return Err(Error::at_path(
                    ErrorKind::Type,
                    row_path(),
                    format!("expected a cell for absent column {c:?}, found none"),
                ));
            }
        }
        gone_here.clear();
        gone_here.extend(gone.iter().map(|(_, c)| *c));
        let mut o = Map::with_capacity(m.len());
        for (k, cell) in m {
            if gone_here.contains(k.as_str()) {
                if strict && !is_padding(&cell) {
                    return Err(Error::at_path(
                        ErrorKind::Type,
                        key_path(&row_path(), &k),
                        format!(
                            "expected null in the place of an absent cell, found {}",
                            super::super::describe(&cell)
                        ),
                    ));
                }
                continue;
            }
            let value = if json_columns.contains(k.as_str()) {
                let Value::String(text) = &cell else {
                    return Err(bad(
                        &key_path(&row_path(), &k),
                        "JSON text in a json column",
                        &cell,
                    ));
                };
                let opts = ParseOptions {
                    max_depth: depth_left,
                };
                crate::json::parse_with(text.as_bytes(), &opts).map_err(|e| {
                    Error::at_path(
                        e.kind(),
                        key_path(&row_path(), &k),
                        format!("row {i}, column {k:?}: malformed JSON cell: {e}"),
                    )
                })?
            } else if list_columns.contains(k.as_str()) {
                let Value::String(text) = &cell else {
                    return Err(bad(
                        &key_path(&row_path(), &k),
                        "a list in a list column",
                        &cell,
                    ));
                };
                Value::Array(read_list(text).map_err(|e| {
                    Error::at_path(
                        ErrorKind::Syntax,
                        key_path(&row_path(), &k),
                        format!("row {i}, column {k:?}: malformed list cell: {e}"),
                    )
                })?)
            } else {
                cell
            };
            o.push_unique(k, value);
        }
        out.push(Value::Object(o));
    }
    Ok(out)
}

/// What the encoder writes in the place of an absent cell: `null`, or for a
/// nested group an object of such (its skeleton).
fn is_padding(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.values().all(is_padding),
        _ => false,
    }
}

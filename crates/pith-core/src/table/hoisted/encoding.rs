//! The restoration metadata of a key-hoisted table ([`Encoding`]), as a
//! value and read back from one, refusing other keys and types.
use super::super::{bad, index_path, key_path, row_index};
use super::{ABSENT, ENCODING_SUFFIX, JSON_COLUMNS, LIST_COLUMNS};
use crate::{Error, ErrorKind, Map, Result, Value};
use std::collections::{HashMap, HashSet};

/// The restoration metadata of a key-hoisted table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Encoding {
    /// Columns whose present cells are JSON text.
    pub json_columns: Vec<String>,
    /// Columns whose present cells are space-separated lists (compact form).
    pub list_columns: Vec<String>,
    /// Cells the rows do not have, as `(row, column)`: row-major in the
    /// seed's style, column by column (in column order) in the compact one.
    pub absent: Vec<(usize, String)>,
    /// How `absent` is written.
    pub style: Style,
}

/// How the metadata is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Style {
    /// The seed's: `json_columns` and `absent` as `[row, column]` pairs, both always present.
    #[default]
    Seed,
    /// `absent` as `{column: [rows]}`; empty `absent` and `list_columns` left out.
    Compact,
}

impl Encoding {
    /// The metadata as the value written under `<collection>_encoding`.
    pub fn to_value(&self) -> Value {
        let strings = |names: &[String]| {
            Value::Array(names.iter().map(|n| Value::String(n.clone())).collect())
        };
        let mut m = Map::with_capacity(3);
        m.push_unique(JSON_COLUMNS.to_owned(), strings(&self.json_columns));
        match self.style {
            Style::Seed => {
                let pairs = self
                    .absent
                    .iter()
                    .map(|(r, c)| Value::Array(vec![Value::from(*r), Value::String(c.clone())]))
                    .collect();
                m.push_unique(ABSENT.to_owned(), Value::Array(pairs));
            }
            Style::Compact => {
                if !self.list_columns.is_empty() {
                    m.push_unique(LIST_COLUMNS.to_owned(), strings(&self.list_columns));
                }
                if !self.absent.is_empty() {
                    let mut by_column: Vec<(&str, Vec<Value>)> = Vec::new();
                    let mut slot: HashMap<&str, usize> = HashMap::new();
                    for (r, c) in &self.absent {
                        let i = *slot.entry(c).or_insert_with(|| {
                            by_column.push((c, Vec::new()));
                            by_column.len() - 1
                        });
                        by_column[i].1.push(Value::from(*r));
                    }
                    let mut grouped = Map::with_capacity(by_column.len());
                    for (c, rows) in by_column {
                        grouped.push_unique(c.to_owned(), Value::Array(rows));
                    }
                    m.push_unique(ABSENT.to_owned(), Value::Object(grouped));
                }
            }
        }
        Value::Object(m)
    }

    /// Reads metadata written by [`Encoding::to_value`] (either style).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Type`] when `value` is not an object with an array
    /// `json_columns`, when it has keys other than `json_columns`,
    /// `list_columns` and `absent`, or when one of them is malformed.
    pub fn from_value(value: &Value) -> Result<Encoding> {
        Encoding::read(value, "$")
    }

    pub(crate) fn read(value: &Value, path: &str) -> Result<Encoding> {
        let Value::Object(m) = value else {
            return Err(bad(path, "an object", value));
        };
        let mut enc = Encoding::default();
        let mut has_json = false;
        for (k, v) in m {
            let here = key_path(path, k);
            match k.as_str() {
                JSON_COLUMNS => {
                    enc.json_columns = names(v, &here)?;
                    has_json = true;
                }
                LIST_COLUMNS => enc.list_columns = names(v, &here)?,
                ABSENT => match v {
                    Value::Array(pairs) => {
                        enc.style = Style::Seed;
                        for (i, pair) in pairs.iter().enumerate() {
                            let at = index_path(&here, i);
                            match pair.as_array().map(Vec::as_slice) {
                                Some([row, Value::String(c)]) => {
                                    enc.absent
                                        .push((absent_row(row, &index_path(&at, 0))?, c.clone()));
                                }
                                _ => return Err(bad(&at, "a [row, column] pair", pair)),
                            }
                        }
                    }
                    Value::Object(cols) => {
                        enc.style = Style::Compact;
                        for (c, rows) in cols {
                            let at = key_path(&here, c);
                            let Value::Array(rows) = rows else {
                                return Err(bad(&at, "an array of row indices", rows));
                            };
                            for (i, row) in rows.iter().enumerate() {
                                enc.absent
                                    .push((absent_row(row, &index_path(&at, i))?, String::from(c)));
                            }
                        }
                    }
                    other => {
                        return Err(bad(
                            &here,
                            "an array of [row, column] pairs or an object",
                            other,
                        ));
                    }
                },
                other => {
                    return Err(Error::at_path(
                        ErrorKind::Type,
                        path,
                        format!(
                            "expected only json_columns, list_columns and absent in table metadata, found {other:?}"
                        ),
                    ));
                }
            }
        }
        if !has_json {
            return Err(Error::at_path(
                ErrorKind::Type,
                path,
                "expected json_columns in table metadata, found none",
            ));
        }
        if !m.contains_key(ABSENT) {
            enc.style = Style::Compact;
        }
        let json: HashSet<&str> = enc.json_columns.iter().map(String::as_str).collect();
        if let Some(c) = enc.list_columns.iter().find(|c| json.contains(c.as_str())) {
            return Err(Error::at_path(
                ErrorKind::Type,
                path,
                format!(
                    "expected a column to be a json or a list column, found {c:?} named as both"
                ),
            ));
        }
        Ok(enc)
    }
}

/// The key of collection `key`'s metadata: `key` followed by [`ENCODING_SUFFIX`].
pub(crate) fn encoding_key(key: &str) -> String {
    let mut meta = String::with_capacity(key.len() + ENCODING_SUFFIX.len());
    meta.push_str(key);
    meta.push_str(ENCODING_SUFFIX);
    meta
}

fn names(v: &Value, path: &str) -> Result<Vec<String>> {
    let Value::Array(items) = v else {
        return Err(bad(path, "an array of column names", v));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(bad(&index_path(path, i), "a column name", other)),
        })
        .collect()
}

/// An `absent` entry's row, at `path` for the message.
fn absent_row(v: &Value, path: &str) -> Result<usize> {
    row_index(v).ok_or_else(|| bad(path, "a row index", v))
}

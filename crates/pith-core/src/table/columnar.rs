//! Columnar tables in JSON, with string interning (seed `response-format.md`).
//!
//! A collection of object rows becomes
//!
//! ```json
//! {"cols":["id","agent","model"],
//!  "dict":{"agent":["build","executor-gpt"]},
//!  "rows":[["ses_a1",0,"opus"],["ses_b2",1,"opus"]]}
//! ```
//!
//! * `cols`: the column order; each row is an array of cells in this order;
//! * `dict`: interning tables: a column named here stores its distinct values
//!   once and its cells are indices into them;
//! * `rows`: one array per record.
//!
//! # Decoding
//!
//! The seed's single rule: a cell in a column that has a `dict` entry is an
//! integer index into that entry; any other cell is its literal value. And
//! its two lenient behaviours: [`decode_table`] returns a plain array
//! unchanged, and a dict-column cell that is not an integer in range is
//! taken literally, not refused. (Its reference decoder also returns `[]`
//! for `null`; so does [`decode_table`].)
//!
//! # What pith adds, and why the seed's decoder still reads it
//!
//! The seed's encoder takes its columns from the first row and writes `null`
//! for a missing cell, so keys that only later rows carry are lost and null
//! cannot be told from absent. pith's encoder:
//!
//! * takes the **union** of the rows' keys, in first-seen order, as `cols`;
//! * ends a row after its last present cell: a **short row** leaves the
//!   remaining cells out, which the seed's reference decoder reads as
//!   `undefined`, a key `JSON.stringify` drops: absent, exactly;
//! * writes an absent cell *before* the last present one as `null` and lists
//!   it in a fourth key, **`absent`**: `{"col": [row, ...]}`. The seed's
//!   decoder ignores keys other than `cols`, `dict` and `rows`, so it reads
//!   these cells as `null` — the one place where it sees less than pith;
//! * interns a column only where that saves (tokens or bytes, by the cost
//!   given), and then writes **every** present cell of it as an index, so no
//!   literal number in a dict column can be mistaken for one.
//!
//! Rows with a key order other than `cols` come back in `cols` order.

use super::{Census, bad, index_path, key_path, row_index};
use crate::tokens::{Tokenizer, TokenizerKind};
use crate::{Error, ErrorKind, Map, Result, Value};
use std::collections::{HashMap, HashSet};

/// Which columns [`encode_table`] interns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Intern {
    /// None: every cell literal.
    Never,
    /// Those where interning saves bytes.
    Bytes,
    /// Those where interning saves tokens of this tokenizer.
    Tokens(TokenizerKind),
}

/// Encodes object rows as a columnar table (see the module docs).
///
/// # Errors
///
/// [`ErrorKind::Type`] naming the first row that is not an object.
///
/// ```
/// use pith::table::columnar::{decode_table, encode_table, Intern};
/// let rows = pith::json::parse(r#"[{"id":1,"agent":"build","x":null},{"id":2,"agent":"build"},{"agent":"build","id":3,"y":true}]"#)?;
/// let table = encode_table(rows.as_array().unwrap(), Intern::Bytes)?;
/// assert_eq!(
///     pith::json::stringify(&table),
///     r#"{"cols":["id","agent","x","y"],"dict":{},"rows":[[1,"build",null],[2,"build"],[3,"build",null,true]],"absent":{"x":[2]}}"#
/// );
/// assert!(pith::equiv::equivalent(&decode_table(&table)?, &rows));
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode_table(rows: &[Value], intern: Intern) -> Result<Value> {
    let census = Census::of_objects(rows)?;
    let ncols = census.columns.len();
    let slot = census.slots();
    let find = |j: usize, k: &str| census.column(&slot, j, k);

    // Lay the cells out by column once.
    let mut grid: Vec<Vec<Option<&Value>>> = Vec::with_capacity(rows.len());
    for row in rows {
        let Value::Object(m) = row else { continue };
        let mut cells = vec![None; ncols];
        for (j, (k, v)) in m.iter().enumerate() {
            cells[find(j, k)] = Some(v);
        }
        grid.push(cells);
    }

    let cost = Cost::new(intern);
    let mut dict = Map::new();
    // Per interned column: each row's index into its dict entry.
    let mut interned: Vec<Option<Vec<usize>>> = vec![None; ncols];
    if intern != Intern::Never {
        for (j, name) in census.columns.iter().enumerate() {
            if let Some((values, index)) = interning(&grid, j, name, &cost) {
                dict.push_unique((*name).to_owned(), Value::Array(values));
                interned[j] = Some(index);
            }
        }
    }

    let mut absent: Vec<Vec<Value>> = vec![Vec::new(); ncols];
    let mut out_rows = Vec::with_capacity(grid.len());
    for (i, cells) in grid.iter().enumerate() {
        let len = cells.iter().rposition(Option::is_some).map_or(0, |p| p + 1);
        let mut row = Vec::with_capacity(len);
        for (j, cell) in cells.iter().take(len).enumerate() {
            row.push(match (cell, &interned[j]) {
                (None, _) => {
                    absent[j].push(Value::from(i));
                    Value::Null
                }
                (Some(_), Some(index)) => Value::from(index[i]),
                (Some(v), None) => (*v).clone(),
            });
        }
        out_rows.push(Value::Array(row));
    }

    let mut table = Map::with_capacity(4);
    let cols = census
        .columns
        .iter()
        .map(|c| Value::String((*c).to_owned()))
        .collect();
    table.push_unique("cols".to_owned(), Value::Array(cols));
    table.push_unique("dict".to_owned(), Value::Object(dict));
    table.push_unique("rows".to_owned(), Value::Array(out_rows));
    if absent.iter().any(|a| !a.is_empty()) {
        let mut by_column = Map::new();
        for (name, rows) in census.columns.iter().zip(absent) {
            if !rows.is_empty() {
                by_column.push_unique((*name).to_owned(), Value::Array(rows));
            }
        }
        table.push_unique("absent".to_owned(), Value::Object(by_column));
    }
    Ok(Value::Object(table))
}

/// Decodes a columnar table; returns an array unchanged and `null` as `[]`.
///
/// # Errors
///
/// [`ErrorKind::Type`] for anything else that is not a table, and for a
/// table whose `cols` are not unique strings, whose `dict` entries are not
/// arrays, whose rows are not arrays or are longer than `cols`, or whose
/// `absent` names a column or row it does not have.
pub fn decode_table(table: &Value) -> Result<Value> {
    match table {
        Value::Array(_) => Ok(table.clone()),
        Value::Null => Ok(Value::Array(Vec::new())),
        Value::Object(m) if super::is_columnar(m) => {
            Ok(Value::Array(restore_table(m.clone(), "$", false)?))
        }
        other => Err(Error::at_path(
            ErrorKind::Type,
            "$",
            format!(
                "expected a table (cols, dict and rows), an array or null, found {}",
                super::describe(other)
            ),
        )),
    }
}

/// Restores the rows of a table object that [`super::is_columnar`] accepts.
///
/// `strict` refuses what pith's encoder never writes: a dict-column cell
/// that is not an index into its entry, and an `absent` cell that is not
/// the `null` written in its place. Without it, the first is taken
/// literally (the seed's lenient rule, kept by [`decode_table`]) and the
/// second is left out whatever it holds.
pub(crate) fn restore_table(mut m: Map, path: &str, strict: bool) -> Result<Vec<Value>> {
    let field = |m: &mut Map, k: &str| m.remove(k).unwrap_or(Value::Null);
    let cols_value = field(&mut m, "cols");
    let dict_value = field(&mut m, "dict");
    let rows_value = field(&mut m, "rows");
    let absent_value = m.remove("absent");

    let cols = match cols_value.into_array() {
        Ok(cols) => cols,
        Err(cols_value) => {
            return Err(bad(
                &key_path(path, "cols"),
                "an array of column names",
                &cols_value,
            ));
        }
    };
    let mut names: Vec<String> = Vec::with_capacity(cols.len());
    let mut seen = HashSet::with_capacity(cols.len());
    for (i, c) in cols.into_iter().enumerate() {
        let s = match c.into_string() {
            Ok(s) => s,
            Err(c) => {
                return Err(bad(
                    &index_path(&key_path(path, "cols"), i),
                    "a column name",
                    &c,
                ));
            }
        };
        if !seen.insert(s.clone()) {
            return Err(Error::at_path(
                ErrorKind::Type,
                index_path(&key_path(path, "cols"), i),
                format!("expected unique column names, found {s:?} twice"),
            ));
        }
        names.push(s);
    }
    let dict = match dict_value.into_object() {
        Ok(dict) => dict,
        Err(dict_value) => {
            return Err(bad(
                &key_path(path, "dict"),
                "an object of interned values",
                &dict_value,
            ));
        }
    };
    let column: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(j, n)| (n.as_str(), j))
        .collect();
    let mut tables: Vec<Option<Vec<Value>>> = vec![None; names.len()];
    for (k, v) in dict {
        let values = match v.into_array() {
            Ok(values) => values,
            Err(v) => {
                return Err(bad(
                    &key_path(&key_path(path, "dict"), &k),
                    "an array of values",
                    &v,
                ));
            }
        };
        // Entries for columns the rows do not have are allowed, and unused.
        if let Some(&j) = column.get(k.as_str()) {
            tables[j] = Some(values);
        }
    }
    let rows = match rows_value.into_array() {
        Ok(rows) => rows,
        Err(rows_value) => {
            return Err(bad(
                &key_path(path, "rows"),
                "an array of rows",
                &rows_value,
            ));
        }
    };
    let mut gone: HashSet<(usize, usize)> = HashSet::new();
    if let Some(absent) = absent_value {
        let here = key_path(path, "absent");
        let by_column = match absent.into_object() {
            Ok(by_column) => by_column,
            Err(absent) => return Err(bad(&here, "an object of absent rows by column", &absent)),
        };
        for (c, list) in by_column {
            let at = key_path(&here, &c);
            let Some(&j) = column.get(c.as_str()) else {
                return Err(Error::at_path(
                    ErrorKind::Type,
                    at,
                    format!("expected a column of cols, found {c:?}"),
                ));
            };
            let list = match list.into_array() {
                Ok(list) => list,
                Err(list) => return Err(bad(&at, "an array of row indices", &list)),
            };
            for (i, r) in list.iter().enumerate() {
                let row = row_index(r)
                    .filter(|n| *n < rows.len())
                    .ok_or_else(|| bad(&index_path(&at, i), "a row index", r))?;
                gone.insert((row, j));
            }
        }
    }
    if strict {
        // The encoder leaves absent cells after a row's last present one
        // out; only those before it are listed.
        let short = gone
            .iter()
            .filter(|&&(r, j)| {
                rows.get(r)
                    .and_then(Value::as_array)
                    .is_some_and(|cells| j >= cells.len())
            })
            .min();
        if let Some(&(r, j)) = short {
            return Err(Error::at_path(
                ErrorKind::Type,
                key_path(&key_path(path, "absent"), &names[j]),
                format!(
                    "expected absent cells before their row's last cell, found row {r}, which ends before column {:?}",
                    names[j]
                ),
            ));
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.into_iter().enumerate() {
        let at = || index_path(&key_path(path, "rows"), i);
        let cells = match row.into_array() {
            Ok(cells) => cells,
            Err(row) => return Err(bad(&at(), "a row array", &row)),
        };
        if cells.len() > names.len() {
            return Err(Error::at_path(
                ErrorKind::Type,
                at(),
                format!(
                    "expected at most {} cells (one per column), found {}",
                    names.len(),
                    cells.len()
                ),
            ));
        }
        let mut o = Map::with_capacity(cells.len());
        for (j, cell) in cells.into_iter().enumerate() {
            if gone.contains(&(i, j)) {
                if strict && !cell.is_null() {
                    return Err(Error::at_path(
                        ErrorKind::Type,
                        index_path(&at(), j),
                        format!(
                            "expected null in the place of an absent cell of column {:?}, found {}",
                            names[j],
                            super::describe(&cell)
                        ),
                    ));
                }
                continue;
            }
            let value = match &tables[j] {
                Some(values) => {
                    let entry = match &cell {
                        Value::Number(n) if n.is_integer() => n
                            .as_u64()
                            .and_then(|k| usize::try_from(k).ok())
                            .and_then(|k| values.get(k)),
                        _ => None,
                    };
                    match entry {
                        Some(v) => v.clone(),
                        None if strict => {
                            return Err(Error::at_path(
                                ErrorKind::Type,
                                index_path(&at(), j),
                                format!(
                                    "expected an index below {} into the dict entry of column {:?}, found {}",
                                    values.len(),
                                    names[j],
                                    super::describe(&cell)
                                ),
                            ));
                        }
                        None => cell,
                    }
                }
                None => cell,
            };
            o.push_unique(names[j].clone(), value);
        }
        out.push(Value::Object(o));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------

/// The cost of a piece of JSON text, in the unit interning is decided by.
struct Cost {
    tokenizer: Option<&'static Tokenizer>,
}

impl Cost {
    fn new(intern: Intern) -> Cost {
        Cost {
            tokenizer: match intern {
                Intern::Tokens(kind) => Some(Tokenizer::get(kind)),
                Intern::Never | Intern::Bytes => None,
            },
        }
    }

    /// The cost of `text` followed by a comma, as a cell in an array.
    fn cell(&self, text: &str) -> usize {
        match self.tokenizer {
            Some(t) => {
                let mut s = String::with_capacity(text.len() + 1);
                s.push_str(text);
                s.push(',');
                t.count(&s)
            }
            None => text.len() + 1,
        }
    }
}

/// The dict entry of column `j` and each row's index into it (meaningless
/// where the cell is absent), when interning it saves.
fn interning(
    grid: &[Vec<Option<&Value>>],
    j: usize,
    name: &str,
    cost: &Cost,
) -> Option<(Vec<Value>, Vec<usize>)> {
    // Each distinct value's JSON text, and its index in `distinct`.
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut distinct: Vec<(&Value, usize)> = Vec::new();
    let mut rows = Vec::with_capacity(grid.len());
    let mut present = 0usize;
    let mut scratch = Vec::new();
    for cells in grid {
        let Some(v) = cells.get(j).copied().flatten() else {
            rows.push(0);
            continue;
        };
        present += 1;
        scratch.clear();
        crate::json::write_into(v, &mut scratch);
        let text = String::from_utf8_lossy(&scratch);
        let d = match index.get(text.as_ref()) {
            Some(&d) => {
                distinct[d].1 += 1;
                d
            }
            None => {
                index.insert(text.into_owned(), distinct.len());
                distinct.push((v, 1));
                distinct.len() - 1
            }
        };
        rows.push(d);
    }
    if distinct.len() == present {
        return None;
    }
    let mut literal = 0usize;
    let mut interned = cost.cell(&format!("{:?}:[]", name));
    let mut buf = itoa::Buffer::new();
    for (text, &d) in &index {
        let count = distinct[d].1;
        let c = cost.cell(text);
        literal += c * count;
        interned += c + cost.cell(buf.format(d)) * count;
    }
    (interned < literal).then(|| (distinct.into_iter().map(|(v, _)| v.clone()).collect(), rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::json::parse(s).unwrap()
    }

    #[test]
    fn lenient_behaviours() {
        let plain = j(r#"[{"a":1}]"#);
        assert_eq!(decode_table(&plain).unwrap(), plain);
        assert_eq!(decode_table(&Value::Null).unwrap(), j("[]"));
        let t = j(r#"{"cols":["a"],"dict":{"a":["x"]},"rows":[[0],[1],[0.5],[-1],["s"],[null]]}"#);
        assert_eq!(
            decode_table(&t).unwrap(),
            j(r#"[{"a":"x"},{"a":1},{"a":0.5},{"a":-1},{"a":"s"},{"a":null}]"#)
        );
    }

    #[test]
    fn malformed_tables_are_refused() {
        for (text, msg) in [
            (
                r#"{"cols":"a","dict":{},"rows":[]}"#,
                "at $.cols: expected an array of column names, found string \"a\"",
            ),
            (
                r#"{"cols":["a","a"],"dict":{},"rows":[]}"#,
                "at $.cols[1]: expected unique column names, found \"a\" twice",
            ),
            (
                r#"{"cols":["a"],"dict":{"a":1},"rows":[]}"#,
                "at $.dict.a: expected an array of values, found number 1",
            ),
            (
                r#"{"cols":["a"],"dict":{},"rows":[[1,2]]}"#,
                "at $.rows[0]: expected at most 1 cells (one per column), found 2",
            ),
            (
                r#"{"cols":["a"],"dict":{},"rows":[{}]}"#,
                "at $.rows[0]: expected a row array, found object",
            ),
            (
                r#"{"cols":["a"],"dict":{},"rows":[[1]],"absent":{"b":[0]}}"#,
                "at $.absent.b: expected a column of cols, found \"b\"",
            ),
            (
                r#"{"cols":["a"],"dict":{},"rows":[[1]],"absent":{"a":[1]}}"#,
                "at $.absent.a[0]: expected a row index, found number 1",
            ),
            (
                r#"{"cols":["a"],"rows":[]}"#,
                "at $: expected a table (cols, dict and rows), an array or null, found object",
            ),
        ] {
            let err = decode_table(&j(text)).unwrap_err();
            assert_eq!(err.to_string(), msg, "{text}");
        }
    }
}

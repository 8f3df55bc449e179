//! Key-hoisted tables: a collection of object rows written as one TOON
//! table, with a sibling `<collection>_encoding` object that says how to
//! restore the rows exactly.
//!
//! # The seed's form ([`encode_rows`])
//!
//! As pm-cli's `encodePmTableRows` writes it:
//!
//! * the columns are the union of the rows' keys, in first-seen order;
//! * a column with any object or array cell is a *JSON column*: every
//!   present cell in it is the compact JSON text of the value, scalars
//!   included, so a string that looks like JSON stays a string;
//! * a cell a row does not have is `null` (padding), and its
//!   `[row, column]` pair is listed in `absent`: padding never stands for
//!   an explicit null.
//!
//! ```text
//! items[2]{id,tags,note}:
//!   1,"[\"a\",\"b\"]",null
//!   2,"[]",null
//! items_encoding:
//!   json_columns[1]: tags
//!   absent[1]:
//!     - [2]: 0,note
//! ```
//!
//! # The compact form ([`encode_rows_compact`])
//!
//! Same table, cheaper cells and metadata; a reader of the seed's form sees
//! that this is something else (its `absent` is not an array) and leaves it
//! alone rather than misreading it:
//!
//! * a column whose present cells are all arrays of primitives is a *list
//!   column* (named in `list_columns`): a cell holds the items separated by
//!   single spaces, each written bare when that reads back as the same
//!   string (no space or control character, not empty, not starting with
//!   `"`, not `true`, `false`, `null` or a number such as `1`, `-2.5e3` or
//!   `05`) and as a quoted JSON
//!   string otherwise; numbers, booleans and null are written as in JSON;
//!   the empty cell `""` is the empty array. So `["sdk","context"]` is the
//!   cell `sdk context`, and `[1,"1",""]` is `1 "1" ""`;
//! * a column whose present cells are all non-empty objects of one shape
//!   (primitive leaves, nested objects of one shape) stays a column of
//!   objects, which TOON writes as a nested field group `col{a,b}`; an
//!   absent cell is padded with an object of that shape holding nulls. It is
//!   used when that is shorter than JSON text;
//! * `absent` maps each column to the rows that lack it, and is left out
//!   when no cell is absent; `list_columns` is left out when empty.
//!
//! ```text
//! items[2]{id,tags,owner{id,login}}:
//!   1,a b,7,ada
//!   2,"",null,null
//! items_encoding:
//!   json_columns: []
//!   list_columns[1]: tags
//!   absent:
//!     owner[1]: 1
//! ```
//!
//! # Restoring ([`decode_rows`])
//!
//! One reader takes both forms: a cell listed in `absent` is dropped,
//! whatever it holds; a cell of a JSON column must be a string of JSON text
//! and a cell of a list column a string in the list syntax, or restoring
//! fails with an error naming the row and the column; every other cell is
//! taken as it is. Metadata with other keys, or of other types, is refused.

use super::{Census, Shape, bad, index_path, key_path, row_index};
use crate::json::ParseOptions;
use crate::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Map, Number, Result, Value};
use std::collections::{HashMap, HashSet};

/// What follows a collection's key to name its metadata: `items_encoding`.
pub const ENCODING_SUFFIX: &str = "_encoding";

/// The metadata key naming JSON columns; its presence marks the metadata.
pub const JSON_COLUMNS: &str = "json_columns";

/// The metadata key naming list columns (compact form).
pub const LIST_COLUMNS: &str = "list_columns";

/// The metadata key listing absent cells.
pub const ABSENT: &str = "absent";

/// A collection as a key-hoisted table: rows of cells plus what restores them.
#[derive(Debug, Clone, PartialEq)]
pub struct HoistedRows {
    /// The column names: the union of the rows' keys, in first-seen order.
    pub columns: Vec<String>,
    /// One object per input row, holding every column in column order.
    pub rows: Vec<Value>,
    /// The restoration metadata.
    pub encoding: Encoding,
}

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

/// Hoists `rows` in the seed's form: JSON text for every column holding an
/// object or array, `absent` pairs for missing cells.
///
/// Like the seed's codec, this pads every row to every column: for sparse
/// rows check [`dense_enough`](super::dense_enough) first, as
/// [`crate::select`] does.
///
/// # Errors
///
/// [`ErrorKind::Type`] naming the first row that is not an object.
///
/// ```
/// use pith::table::hoisted::{decode_rows, encode_rows};
/// let rows = pith::json::parse(r#"[{"id":1,"tags":["a"]},{"id":2,"note":null}]"#)?;
/// let rows = rows.as_array().unwrap();
/// let table = encode_rows(rows)?;
/// assert_eq!(table.columns, ["id", "tags", "note"]);
/// assert_eq!(pith::json::to_string(&table.rows[0]), r#"{"id":1,"tags":"[\"a\"]","note":null}"#);
/// assert_eq!(table.encoding.absent, [(0, "note".to_owned()), (1, "tags".to_owned())]);
/// assert_eq!(&decode_rows(table.rows, &table.encoding)?, rows);
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode_rows(rows: &[Value]) -> Result<HoistedRows> {
    hoist(rows, Style::Seed, DEFAULT_MAX_DEPTH)
}

/// Hoists `rows` in the compact form: list columns, nested object columns
/// where they are shorter than JSON text, `absent` by column.
///
/// # Errors
///
/// [`ErrorKind::Type`] naming the first row that is not an object.
///
/// ```
/// use pith::table::hoisted::{decode_rows, encode_rows_compact};
/// let rows = pith::json::parse(r#"[{"id":1,"tags":["a","b c"]},{"id":2,"tags":[]}]"#)?;
/// let table = encode_rows_compact(rows.as_array().unwrap())?;
/// assert_eq!(table.rows[0].get("tags"), Some(&pith::Value::from(r#"a "b c""#)));
/// assert_eq!(table.rows[1].get("tags"), Some(&pith::Value::from("")));
/// assert_eq!(table.encoding.list_columns, ["tags"]);
/// assert_eq!(&decode_rows(table.rows, &table.encoding)?, rows.as_array().unwrap());
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode_rows_compact(rows: &[Value]) -> Result<HoistedRows> {
    hoist(rows, Style::Compact, DEFAULT_MAX_DEPTH)
}

/// Restores the rows of a key-hoisted table (either form).
///
/// # Errors
///
/// [`ErrorKind::Type`] for a row that is not an object, a JSON or list
/// column cell that is not a string, or an `absent` entry naming a row or
/// cell the table does not have; [`ErrorKind::Syntax`] for a cell whose
/// JSON text or list is malformed. Each names the row and the column.
pub fn decode_rows(rows: Vec<Value>, encoding: &Encoding) -> Result<Vec<Value>> {
    restore_rows(rows, encoding, "$", DEFAULT_MAX_DEPTH, true)
}

/// Appends the list cell of `items` (all primitives) to `out`.
pub fn write_list(items: &[Value], out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match item {
            Value::String(s) if bare(s) => out.push_str(s),
            Value::String(s) => {
                let mut q = Vec::with_capacity(s.len() + 2);
                crate::json::write_str_into(s, &mut q);
                out.push_str(&String::from_utf8_lossy(&q));
            }
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Null => out.push_str("null"),
            // Callers pass primitives only; a container has no list syntax.
            Value::Array(_) | Value::Object(_) => debug_assert!(false, "container in a list cell"),
        }
    }
}

/// Reads a list cell written by [`write_list`].
///
/// # Errors
///
/// [`ErrorKind::Syntax`] for a cell that is not items separated by single
/// spaces, or that holds a malformed quoted item.
pub fn read_list(cell: &str) -> Result<Vec<Value>> {
    read_list_inner(cell)
        .map_err(|(at, msg)| Error::at_offset(ErrorKind::Syntax, cell.as_bytes(), at, msg))
}

// ---------------------------------------------------------------------------

/// The key of collection `key`'s metadata: `key` followed by [`ENCODING_SUFFIX`].
pub(crate) fn encoding_key(key: &str) -> String {
    let mut meta = String::with_capacity(key.len() + ENCODING_SUFFIX.len());
    meta.push_str(key);
    meta.push_str(ENCODING_SUFFIX);
    meta
}

/// How the compact form writes a column.
enum Codec<'a> {
    /// Primitives as they are.
    Plain,
    /// JSON text.
    Json,
    /// Space-separated lists.
    List,
    /// Objects of one shape, for TOON's nested field groups.
    Group(Shape<'a>),
}

/// What one pass over a column's present cells learns.
struct Column<'a> {
    primitives: bool,
    lists: bool,
    /// The shape of the first object cell, while every cell has it.
    shape: Option<Shape<'a>>,
    shaped: bool,
    present: usize,
    /// Approximate bytes of the cells as JSON text and as a group's leaves.
    json_bytes: usize,
    group_bytes: usize,
}

fn hoist(rows: &[Value], style: Style, max_depth: usize) -> Result<HoistedRows> {
    let census = Census::of_objects(rows)?;
    let ncols = census.columns.len();
    let slot = census.slots();
    let find = |j: usize, k: &str| census.column(&slot, j, k);

    // One pass over the cells decides each column's codec.
    let mut stats: Vec<Column> = (0..ncols)
        .map(|_| Column {
            primitives: true,
            lists: true,
            shape: None,
            shaped: true,
            present: 0,
            json_bytes: 0,
            group_bytes: 0,
        })
        .collect();
    let mut scratch = Vec::new();
    for row in rows {
        let Value::Object(m) = row else { continue };
        for (j, (k, v)) in m.iter().enumerate() {
            let c = &mut stats[find(j, k)];
            c.present += 1;
            c.primitives &= v.is_primitive();
            c.lists &= matches!(v, Value::Array(a) if a.iter().all(Value::is_primitive));
            if style == Style::Compact && c.shaped {
                match v {
                    Value::Object(o) => {
                        if c.shape.is_none() {
                            c.shape = Shape::of(o, true, max_depth.saturating_sub(3));
                            c.shaped = c.shape.is_some();
                        } else if let Some(shape) = &c.shape {
                            c.shaped = shape.matches(o);
                        }
                        if c.shaped {
                            scratch.clear();
                            crate::json::write_into(v, &mut scratch);
                            let quotes =
                                scratch.iter().filter(|&&b| b == b'"' || b == b'\\').count();
                            c.json_bytes += scratch.len() + quotes + 3;
                            c.group_bytes += leaf_bytes(o, &mut scratch);
                        }
                    }
                    _ => c.shaped = false,
                }
            }
        }
    }
    let codecs: Vec<Codec> = stats
        .into_iter()
        .map(|c| {
            if c.primitives {
                Codec::Plain
            } else if style == Style::Seed {
                Codec::Json
            } else if c.lists {
                Codec::List
            } else if let (true, Some(shape)) = (c.shaped, c.shape) {
                let missing = rows.len() - c.present;
                let group = c.group_bytes + missing * shape.leaves() * 5;
                let json = c.json_bytes + missing * 5;
                if group <= json {
                    Codec::Group(shape)
                } else {
                    Codec::Json
                }
            } else {
                Codec::Json
            }
        })
        .collect();

    let columns: Vec<String> = census.columns.iter().map(|c| (*c).to_owned()).collect();
    let mut encoding = Encoding {
        style,
        ..Encoding::default()
    };
    for (name, codec) in columns.iter().zip(&codecs) {
        match codec {
            Codec::Json => encoding.json_columns.push(name.clone()),
            Codec::List => encoding.list_columns.push(name.clone()),
            Codec::Plain | Codec::Group(_) => {}
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut cells: Vec<Option<&Value>> = vec![None; ncols];
    for (i, row) in rows.iter().enumerate() {
        let Value::Object(m) = row else { continue };
        cells.iter_mut().for_each(|c| *c = None);
        for (j, (k, v)) in m.iter().enumerate() {
            cells[find(j, k)] = Some(v);
        }
        let mut o = Map::with_capacity(ncols);
        for (j, (name, codec)) in columns.iter().zip(&codecs).enumerate() {
            let cell = match (cells[j], codec) {
                (None, Codec::Group(shape)) => {
                    encoding.absent.push((i, name.clone()));
                    shape.skeleton()
                }
                (None, _) => {
                    encoding.absent.push((i, name.clone()));
                    Value::Null
                }
                (Some(v), Codec::Json) => Value::String(crate::json::to_string(v)),
                (Some(Value::Array(items)), Codec::List) => {
                    let mut s = String::new();
                    write_list(items, &mut s);
                    Value::String(s)
                }
                (Some(v), _) => v.clone(),
            };
            o.push_unique(name.clone(), cell);
        }
        out.push(Value::Object(o));
    }
    if style == Style::Compact {
        // Grouped by column, in column order.
        encoding
            .absent
            .sort_by_key(|(_, c)| slot.get(c.as_str()).copied().unwrap_or(0));
    }
    Ok(HoistedRows {
        columns,
        rows: out,
        encoding,
    })
}

/// Approximate bytes the leaves of `o` take as table cells.
fn leaf_bytes(o: &Map, scratch: &mut Vec<u8>) -> usize {
    o.values()
        .map(|v| match v {
            Value::Object(inner) => leaf_bytes(inner, scratch),
            Value::String(s) => s.len() + 1,
            v => {
                scratch.clear();
                crate::json::write_into(v, scratch);
                scratch.len() + 1
            }
        })
        .sum()
}

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
                            super::describe(&cell)
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

/// Whether a string list item may be written without quotes.
fn bare(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('"')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
        && !reads_as_other(s)
}

/// Whether a bare item `s` reads as something other than the string `s`.
fn reads_as_other(s: &str) -> bool {
    matches!(s, "true" | "false" | "null") || number(s).is_some()
}

fn number(s: &str) -> Option<Number> {
    let first = *s.as_bytes().first()?;
    if first != b'-' && !first.is_ascii_digit() {
        return None;
    }
    Number::parse(s).ok()
}

fn read_list_inner(cell: &str) -> std::result::Result<Vec<Value>, (usize, String)> {
    let b = cell.as_bytes();
    let mut items = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if i > 0 {
            if b[i] != b' ' {
                return Err((
                    i,
                    format!(
                        "expected a space between list items, found {:?}",
                        char_at(cell, i)
                    ),
                ));
            }
            i += 1;
        }
        match b.get(i) {
            None | Some(b' ') => {
                return Err((
                    i,
                    "expected a list item after the space, found none".to_owned(),
                ));
            }
            Some(b'"') => {
                let end = closing_quote(b, i).ok_or((
                    i,
                    "expected a closing quote, found the end of the cell".to_owned(),
                ))?;
                let v = crate::json::parse(&cell[i..=end])
                    .map_err(|e| (i, format!("malformed quoted item: {}", e.message())))?;
                items.push(v);
                i = end + 1;
            }
            Some(_) => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b' ')
                    .map_or(b.len(), |p| i + p);
                let token = &cell[i..end];
                items.push(match token {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    _ => {
                        number(token).map_or_else(|| Value::String(token.to_owned()), Value::Number)
                    }
                });
                i = end;
            }
        }
    }
    Ok(items)
}

/// The index of the `"` closing the JSON string that opens at `open`.
fn closing_quote(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn char_at(s: &str, i: usize) -> char {
    s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ')
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

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::json::parse(s).unwrap()
    }

    #[test]
    fn lists_round_trip_awkward_items() {
        let items = j(
            r#"["a", "", " ", "1", 1, -2.5, true, "true", null, "null", "\"q", "x\"y", "a b", "tab\t", "日本", "1e999999999999", "-", "05"]"#,
        );
        let items = items.as_array().unwrap();
        let mut cell = String::new();
        write_list(items, &mut cell);
        assert_eq!(
            cell,
            r#"a "" " " "1" 1 -2.5 true "true" null "null" "\"q" x"y "a b" "tab\t" 日本 1e999999999999 - "05""#
        );
        assert_eq!(&read_list(&cell).unwrap(), items);
        assert_eq!(read_list("").unwrap(), Vec::<Value>::new());
    }

    #[test]
    fn malformed_lists_are_refused() {
        for cell in [" a", "a ", "a  b", "\"a", "\"\\x\"", "\"a\"b"] {
            assert!(read_list(cell).is_err(), "{cell:?}");
        }
    }

    #[test]
    fn seed_form_matches_pm_cli() {
        // The case from pm-cli's own test of encodePmTableRows.
        let rows = j(
            r#"[{"id":"one","cell":["x,y","\"quoted\"","\n","雪"],"empty":{},"flag":false},
                        {"id":"two","cell":"[1]","empty":[],"count":0},
                        {"id":"three","cell":null,"flag":true},{}]"#,
        );
        let t = encode_rows(rows.as_array().unwrap()).unwrap();
        assert_eq!(t.encoding.json_columns, ["cell", "empty"]);
        assert!(t.encoding.absent.contains(&(2, "empty".to_owned())));
        assert_eq!(
            crate::json::to_string(&t.rows[1]),
            r#"{"id":"two","cell":"\"[1]\"","empty":"[]","flag":null,"count":0}"#
        );
        assert_eq!(
            crate::json::to_string(&t.encoding.to_value()),
            r#"{"json_columns":["cell","empty"],"absent":[[0,"count"],[1,"flag"],[2,"empty"],[2,"count"],[3,"id"],[3,"cell"],[3,"empty"],[3,"flag"],[3,"count"]]}"#
        );
        assert_eq!(
            &decode_rows(t.rows, &t.encoding).unwrap(),
            rows.as_array().unwrap()
        );
    }

    #[test]
    fn compact_form_groups_lists_and_absent_by_column() {
        let rows = j(
            r#"[{"id":1,"tags":["a","b"],"owner":{"id":7,"login":"ada"}},
                        {"id":2,"tags":[]},
                        {"id":3,"owner":{"login":"bo","id":8},"tags":["c"]}]"#,
        );
        let t = encode_rows_compact(rows.as_array().unwrap()).unwrap();
        assert_eq!(
            crate::json::to_string(&Value::Array(t.rows.clone())),
            r#"[{"id":1,"tags":"a b","owner":{"id":7,"login":"ada"}},{"id":2,"tags":"","owner":{"id":null,"login":null}},{"id":3,"tags":"c","owner":{"login":"bo","id":8}}]"#
        );
        assert_eq!(
            crate::json::to_string(&t.encoding.to_value()),
            r#"{"json_columns":[],"list_columns":["tags"],"absent":{"owner":[1]}}"#
        );
        let back = decode_rows(t.rows, &t.encoding).unwrap();
        assert!(crate::equiv::equivalent(&rows, &Value::Array(back)));
    }

    #[test]
    fn malformed_cells_name_row_and_column() {
        let enc = Encoding {
            json_columns: vec!["cell".into()],
            ..Encoding::default()
        };
        let err =
            decode_rows(vec![j(r#"{"cell":"[1]"}"#), j(r#"{"cell":"{"}"#)], &enc).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Syntax);
        assert_eq!(err.path(), Some("$[1].cell"));
        assert!(
            err.message()
                .starts_with("row 1, column \"cell\": malformed JSON cell"),
            "{err}"
        );
        let err = decode_rows(vec![j(r#"{"cell":5}"#)], &enc).unwrap_err();
        assert_eq!(
            err.to_string(),
            "at $[0].cell: expected JSON text in a json column, found number 5"
        );
    }

    #[test]
    fn metadata_is_validated() {
        for (text, msg) in [
            (
                r#"{"absent":[]}"#,
                "expected json_columns in table metadata, found none",
            ),
            (
                r#"{"json_columns":[1]}"#,
                "expected a column name, found number 1",
            ),
            (
                r#"{"json_columns":[],"absent":[[0]]}"#,
                "expected a [row, column] pair, found array",
            ),
            (
                r#"{"json_columns":[],"absent":{"a":[-1]}}"#,
                "expected a row index, found number -1",
            ),
            (
                r#"{"json_columns":[],"extra":1}"#,
                "expected only json_columns, list_columns and absent in table metadata, found \"extra\"",
            ),
            (
                r#"{"json_columns":["a"],"list_columns":["a"]}"#,
                "expected a column to be a json or a list column, found \"a\" named as both",
            ),
        ] {
            let err = Encoding::from_value(&j(text)).unwrap_err();
            assert_eq!(err.message(), msg, "{text}");
        }
        let enc = Encoding::from_value(&j(r#"{"json_columns":[],"absent":[[5,"a"]]}"#)).unwrap();
        let err = decode_rows(vec![j(r#"{"a":1}"#)], &enc).unwrap_err();
        assert_eq!(
            err.message(),
            "expected absent cells in rows below 1, found row 5"
        );
    }
}

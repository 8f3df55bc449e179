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

//!
//! The module's files follow its seams: `encoding.rs` (the metadata and its
//! reading), `hoist.rs` (rows to a table), `restore.rs` (a table back to
//! rows) and `list.rs` (the list-cell syntax).

mod encoding;
mod hoist;
mod list;
mod restore;
#[cfg(test)]
mod tests;

pub(crate) use encoding::encoding_key;
pub use encoding::{Encoding, Style};
use hoist::hoist;
pub use list::{read_list, write_list};
pub(crate) use restore::restore_rows;

use crate::{DEFAULT_MAX_DEPTH, Result, Value};

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

/// Hoists `rows` in the seed's form: JSON text for every column holding an
/// object or array, `absent` pairs for missing cells.
///
/// Like the seed's codec, this pads every row to every column: for sparse
/// rows check [`dense_enough`](super::dense_enough) first, as
/// [`crate::select`] does.
///
/// # Errors
///
/// [`ErrorKind::Type`](crate::ErrorKind::Type) naming the first row that is not an object.
///
/// ```
/// use pith::table::hoisted::{decode_rows, encode_rows};
/// let rows = pith::json::parse(r#"[{"id":1,"tags":["a"]},{"id":2,"note":null}]"#)?;
/// let rows = rows.as_array().unwrap();
/// let table = encode_rows(rows)?;
/// assert_eq!(table.columns, ["id", "tags", "note"]);
/// assert_eq!(pith::json::stringify(&table.rows[0]), r#"{"id":1,"tags":"[\"a\"]","note":null}"#);
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
/// [`ErrorKind::Type`](crate::ErrorKind::Type) naming the first row that is not an object.
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
/// [`ErrorKind::Type`](crate::ErrorKind::Type) for a row that is not an object, a JSON or list
/// column cell that is not a string, or an `absent` entry naming a row or
/// cell the table does not have; [`ErrorKind::Syntax`](crate::ErrorKind::Syntax) for a cell whose
/// JSON text or list is malformed. Each names the row and the column.
pub fn decode_rows(rows: Vec<Value>, encoding: &Encoding) -> Result<Vec<Value>> {
    restore_rows(rows, encoding, "$", DEFAULT_MAX_DEPTH, true)
}

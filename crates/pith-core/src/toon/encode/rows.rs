//! Writing tables: a header and its rows, for arrays of objects and keyed
//! tables, with the shape [`super::table`] finds. When the whole text is
//! buffered, rows are written while they are checked and taken back at the
//! first that does not fit; when streaming, they are checked first.

use super::table::{Group, cell};
use super::{Encoder, Key, Sink};
use crate::{Map, Result, Value};

static NULL: Value = Value::Null;

/// The rows of a table.
#[derive(Clone, Copy)]
pub(super) enum Rows<'a> {
    /// The elements of an array, all objects.
    Array(&'a [Value]),
    /// The entries of an object, all objects: a keyed table.
    Keyed(&'a Map),
}

impl<'a> Rows<'a> {
    fn len(self) -> usize {
        match self {
            Rows::Array(a) => a.len(),
            Rows::Keyed(m) => m.len(),
        }
    }

    fn first(self) -> Option<&'a Map> {
        match self {
            Rows::Array(a) => a.first(),
            Rows::Keyed(m) => m.values().next(),
        }
        .and_then(Value::as_object)
    }
}

impl<'a, S: Sink> Encoder<'a, '_, S> {
    /// Whether an object may be a keyed table (§9.5, 4.x only): at least two
    /// entries, each a non-empty object. Whether they form a table is up to
    /// [`Self::table`].
    pub(super) fn keyed_candidate(&self, m: &Map) -> bool {
        self.v4
            && m.len() >= 2
            && m.values()
                .all(|v| matches!(v, Value::Object(o) if !o.is_empty()))
    }

    /// Writes `rows` as a table when they form one: the header
    /// `key[N]{fields}:` (`[N:]` for a keyed table) at indentation `depth`,
    /// after `- ` when `hyphen`, and the rows below it (one level deeper, two
    /// on a hyphen line). The row objects are at nesting `level`. Returns
    /// `false`, having written nothing, when the rows do not form a table.
    pub(super) fn table(
        &mut self,
        key: Key<'_>,
        hyphen: bool,
        rows: Rows<'a>,
        depth: usize,
        level: usize,
    ) -> Result<bool> {
        let Some(first) = rows.first() else {
            return Ok(false);
        };
        let Some(g) = self.tables.shape(first, level, self.max_depth, self.v4) else {
            return Ok(false);
        };
        let rows_depth = depth + 1 + usize::from(hyphen);
        if S::SPECULATE {
            let (mark, started) = (self.out.len(), self.started);
            self.table_header(key, hyphen, rows, g, depth)?;
            let written = self.rows_checked(rows, g, rows_depth)?;
            if !written {
                self.out.truncate(mark);
                self.started = started;
            }
            self.tables.release(g);
            return Ok(written);
        }
        let mut aligned = true;
        let fits = match rows {
            Rows::Array(a) => a
                .iter()
                .all(|v| matches!(v, Value::Object(o) if self.tables.matches(o, g, &mut aligned))),
            Rows::Keyed(m) => m
                .values()
                .all(|v| matches!(v, Value::Object(o) if self.tables.matches(o, g, &mut aligned))),
        };
        if fits {
            self.table_header(key, hyphen, rows, g, depth)?;
            match rows {
                Rows::Array(a) => {
                    for v in a {
                        self.line(rows_depth)?;
                        self.row(v.as_object(), g, aligned, &mut true);
                    }
                }
                Rows::Keyed(m) => {
                    for (k, v) in m {
                        self.line(rows_depth)?;
                        self.key(k);
                        self.out.extend_from_slice(b": ");
                        self.row(v.as_object(), g, aligned, &mut true);
                    }
                }
            }
        }
        self.tables.release(g);
        Ok(fits)
    }

    fn table_header(
        &mut self,
        key: Key<'_>,
        hyphen: bool,
        rows: Rows<'a>,
        g: Group,
        depth: usize,
    ) -> Result<()> {
        self.line(depth)?;
        if hyphen {
            self.out.extend_from_slice(b"- ");
        }
        self.name(key);
        self.header(rows.len(), matches!(rows, Rows::Keyed(_)), Some(g));
        Ok(())
    }

    /// Writes the rows while checking that each fits the shape; `false` at
    /// the first that does not.
    fn rows_checked(&mut self, rows: Rows<'a>, g: Group, depth: usize) -> Result<bool> {
        match rows {
            Rows::Array(a) => {
                for v in a {
                    self.line(depth)?;
                    let Value::Object(o) = v else {
                        return Ok(false);
                    };
                    if !self.row_checked(o, g, &mut true) {
                        return Ok(false);
                    }
                }
            }
            Rows::Keyed(m) => {
                for (k, v) in m {
                    self.line(depth)?;
                    self.key(k);
                    self.out.extend_from_slice(b": ");
                    let Value::Object(o) = v else {
                        return Ok(false);
                    };
                    if !self.row_checked(o, g, &mut true) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// The leaf cells of a row that fits the shape, nested groups depth first.
    fn row(&mut self, row: Option<&'a Map>, g: Group, aligned: bool, first: &mut bool) {
        for j in 0..g.len {
            let f = self.tables.fields[g.start + j];
            let v = row
                .and_then(|m| {
                    if aligned {
                        m.get_index(j).map(|(_, v)| v)
                    } else {
                        m.get(f.name)
                    }
                })
                .unwrap_or(&NULL);
            if let Some(kids) = f.kids {
                self.row(v.as_object(), kids, aligned, first);
            } else {
                if !*first {
                    self.out.push(self.delimiter);
                }
                *first = false;
                self.q.primitive(self.out, v);
            }
        }
    }

    /// Like [`Self::row`] for a row not yet checked: `false` as soon as it
    /// does not fit the shape (what was written is then discarded).
    fn row_checked(&mut self, row: &'a Map, g: Group, first: &mut bool) -> bool {
        if row.len() != g.len {
            return false;
        }
        for j in 0..g.len {
            let f = self.tables.fields[g.start + j];
            let Some(v) = cell(row, j, f.name, &mut true) else {
                return false;
            };
            match (f.kids, v) {
                (Some(kids), Value::Object(o)) => {
                    if !self.row_checked(o, kids, first) {
                        return false;
                    }
                }
                (None, v) if v.is_primitive() => {
                    if !*first {
                        self.out.push(self.delimiter);
                    }
                    *first = false;
                    self.q.primitive(self.out, v);
                }
                _ => return false,
            }
        }
        true
    }
}

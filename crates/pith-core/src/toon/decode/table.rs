//! Tabular arrays (§9.3) and keyed tables (§9.5): which lines are rows,
//! their cells, and the row objects built from the header's field plan.

use super::array::{CELLS, Count, ENTRIES, ROWS};
use super::header::{Field, FieldKind, Fields, Key};
use super::lines::Line;
use super::object::{EMPTY_ENTRY, KeyMeta};
use super::{Fault, Parser, R, expand, token};
use crate::{ErrorKind, Map, Value};

impl Parser<'_> {
    /// Rows of a tabular array (§9.3).
    pub(super) fn table(
        &mut self,
        fields: &Fields,
        count: Count,
        delim: u8,
        header_depth: usize,
        table_level: usize,
    ) -> R<Value> {
        let row_depth = self.content_depth(header_depth)?;
        let mut rows = Vec::new();
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= header_depth {
                break;
            }
            if line.depth != row_depth {
                return Err(self.misplaced(line, row_depth));
            }
            if !self.is_row(line, delim) {
                break;
            }
            if self.strict && rows.len() == count.length {
                return Err(count.surplus(line.start, ROWS));
            }
            self.consume(line)?;
            if !started {
                started = true;
                self.spans += 1;
                self.check_depth(table_level + 1 + fields.group_depth, line.start)?;
            }
            rows.push(Value::Object(self.row(
                line.start,
                line.end,
                fields,
                delim,
                table_level + 1,
            )?));
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && rows.len() != count.length {
            return Err(count.mismatch(count.length_at, ROWS, rows.len()));
        }
        Ok(Value::Array(rows))
    }

    /// Entry rows of a keyed tabular object (§9.5).
    pub(super) fn keyed_table(
        &mut self,
        fields: &Fields,
        count: Count,
        delim: u8,
        header_depth: usize,
        object_level: usize,
    ) -> R<Value> {
        let entry_depth = self.content_depth(header_depth)?;
        let mut obj = self.stack.open(object_level);
        let mut entries = 0usize;
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= header_depth {
                break;
            }
            if line.depth != entry_depth {
                return Err(self.misplaced(line, entry_depth));
            }
            let Some(colon) = self.tok.find_unquoted(line.start, line.end, b':') else {
                if self.strict {
                    return Err(Fault::new(
                        ErrorKind::Syntax,
                        line.start,
                        format!(
                            "expected an entry row 'key: cells', found {} without ':'",
                            self.tok.snippet(line.start, line.end)
                        ),
                    ));
                }
                self.lines.advance();
                continue;
            };
            if self.strict && entries == count.length {
                return Err(count.surplus(line.start, ENTRIES));
            }
            self.consume(line)?;
            if !started {
                started = true;
                self.spans += 1;
                self.check_depth(object_level + 1 + fields.group_depth, line.start)?;
            }
            let key = self.entry_key(line.start, colon)?;
            self.reserve(&obj, &key)?;
            let (a, b) = self.tok.trim(colon + 1, line.end);
            if a == b {
                return Err(narrow(a, 0, fields.leaf_count));
            }
            let v = Value::Object(self.row(a, b, fields, delim, object_level + 1)?);
            self.put(&mut obj, key, v);
            entries += 1;
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && entries != count.length {
            return Err(count.mismatch(count.length_at, ENTRIES, entries));
        }
        Ok(Value::Object(self.finish(obj, object_level)?))
    }

    /// The entry key before the first unquoted colon at `colon`.
    fn entry_key(&self, s: usize, colon: usize) -> R<Key> {
        if self.src[s] == b'"' {
            let (name, after) = self.tok.quoted(s, colon)?;
            let (a, _) = self.tok.trim(after, colon);
            if a != colon {
                return Err(Fault::new(
                    ErrorKind::Syntax,
                    after,
                    "expected ':' after the quoted entry key, found other characters",
                ));
            }
            return Ok(Key::new(name, true, s));
        }
        let (a, b) = self.tok.trim(s, colon);
        Ok(Key::new(self.tok.s(a, b).to_owned(), false, s))
    }

    /// Whether a line at row depth is a row rather than a key-value line
    /// (§9.3): its first unquoted delimiter comes before its first unquoted
    /// colon, or it has no unquoted colon.
    fn is_row(&self, line: Line, delim: u8) -> bool {
        token::scan_unquoted(self.src, line.start, line.end, |_, b| {
            if b == delim {
                Some(true)
            } else if b == b':' {
                Some(false)
            } else {
                None
            }
        })
        .unwrap_or(true)
    }

    /// The cells `[a, b)` of one row as an object of the header's fields.
    fn row(&mut self, a: usize, b: usize, fields: &Fields, delim: u8, row_level: usize) -> R<Map> {
        let width = fields.leaf_count;
        if fields.flat && !self.expand {
            let tok = self.tok;
            let mut entries: Vec<(crate::Key, Value)> = Vec::with_capacity(width);
            let mut i = a;
            loop {
                let k = entries.len();
                let Some(field) = fields.plan.get(k) else {
                    return Err(wide(tok.trim(i, b).0, width));
                };
                entries.push(EMPTY_ENTRY);
                let entry = &mut entries[k];
                entry.0 = crate::Key::from(field.name.as_str());
                let j = tok.cell_into(i, b, delim, &mut entry.1)?;
                if j >= b {
                    break;
                }
                i = j + 1;
            }
            if entries.len() < width {
                return Err(narrow(a, entries.len(), width));
            }
            return Ok(Map::from_unique_entries(entries));
        }
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let built = self
            .row_cells(a, b, delim, width, &mut cells)
            .and_then(|()| self.build_row(&fields.plan, &mut cells, row_level));
        self.cells = cells;
        built
    }

    fn row_cells(
        &self,
        a: usize,
        b: usize,
        delim: u8,
        width: usize,
        cells: &mut Vec<Value>,
    ) -> R<()> {
        let mut i = a;
        loop {
            let k = cells.len();
            if k == width {
                return Err(wide(self.tok.trim(i, b).0, width));
            }
            cells.push(Value::Null);
            let j = self.tok.cell_into(i, b, delim, &mut cells[k])?;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if cells.len() < width {
            return Err(narrow(a, cells.len(), width));
        }
        Ok(())
    }

    /// A row object from its cells, walking the field plan (§9.3).
    fn build_row(&self, plan: &[Field], cells: &mut [Value], row_level: usize) -> R<Map> {
        let mut entries = Vec::with_capacity(plan.len());
        let mut meta = self.expand.then(|| Vec::with_capacity(plan.len()));
        for field in plan {
            let v = match &field.kind {
                FieldKind::Leaf(i) => cells.get_mut(*i).map(std::mem::take).unwrap_or_default(),
                FieldKind::Group(sub) => Value::Object(group(sub, cells)),
            };
            entries.push((crate::Key::from(field.name.as_str()), v));
            if let Some(m) = &mut meta {
                m.push(KeyMeta {
                    quoted: field.quoted,
                    at: field.at,
                });
            }
        }
        match meta {
            Some(m) => expand::expand_object(entries, m, row_level, self.max_depth, self.strict),
            None => Ok(Map::from_unique_entries(entries)),
        }
    }
}

fn wide(at: usize, n: usize) -> Fault {
    Fault::new(
        ErrorKind::WidthMismatch,
        at,
        format!(
            "expected {n} {} per row as the header declares, found more",
            CELLS.of(n)
        ),
    )
}

fn narrow(at: usize, found: usize, n: usize) -> Fault {
    Fault::new(
        ErrorKind::WidthMismatch,
        at,
        format!(
            "expected {n} {} per row as the header declares, found {found}",
            CELLS.of(n)
        ),
    )
}

/// The object of a nested field group, taking its cells.
fn group(plan: &[Field], cells: &mut [Value]) -> Map {
    let entries = plan
        .iter()
        .map(|field| {
            let v = match &field.kind {
                FieldKind::Leaf(i) => cells.get_mut(*i).map(std::mem::take).unwrap_or_default(),
                FieldKind::Group(sub) => Value::Object(group(sub, cells)),
            };
            (crate::Key::from(field.name.as_str()), v)
        })
        .collect();
    Map::from_unique_entries(entries)
}

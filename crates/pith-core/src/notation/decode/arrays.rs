//! The cells of list columns and record lists (`docs/notation.md` §3):
//! items separated by spaces, and records `[…][…]`, a named record `*name`
//! or a named array, the whole cell, each checked against the list's fields.

use super::table::RecordField;
use super::{Cell, Parser, R, fault, show_byte};
use crate::toon::decode::Fault;
use crate::toon::decode::show;
use crate::{ErrorKind, Key, Map, Value};

impl Parser<'_> {
    /// What a cell of a list column or a record list (§3) starting at `i`
    /// is when it is one of the cells both share: empty (absent), `[]` (the
    /// empty array) or `~` (the first cell of a null group); with the offset
    /// after it. `None` for any other cell.
    fn array_cell_head(&self, i: usize, e: usize, delim: u8) -> Option<(Cell, usize)> {
        let src = self.src;
        let ends = |p: usize| p >= e || src[p] == delim;
        if ends(i) {
            Some((Cell::Empty, i))
        } else if src[i..e].starts_with(b"[]") && ends(i + 2) {
            Some((Cell::Value(Value::Array(Vec::new())), i + 2))
        } else if src[i] == b'~' && ends(i + 1) {
            Some((Cell::Null, i + 1))
        } else {
            None
        }
    }

    /// A cell of a list column (§3): empty (absent), `[]` (no items), or
    /// primitives separated by one space each, each under the cell rules.
    pub(super) fn list_cell(&mut self, i: usize, e: usize, delim: u8) -> R<(Cell, usize)> {
        if let Some(done) = self.array_cell_head(i, e, delim) {
            return Ok(done);
        }
        let src = self.src;
        let ends = |p: usize| p >= e || src[p] == delim;
        let mut items = Vec::new();
        let mut p = i;
        loop {
            let (item, after) = if src[p] == b'"' {
                let (s, after) = self.tok.quoted(p, e)?;
                (Value::String(s), after)
            } else {
                let mut q = p;
                while q < e && src[q] != delim && src[q] != b' ' {
                    if matches!(src[q], b'"' | b'[' | b']' | b'{' | b'}') {
                        return Err(fault(
                            ErrorKind::Syntax,
                            q,
                            format!(
                                "expected a list item without {} (quote it), found one",
                                show_byte(src[q])
                            ),
                        ));
                    }
                    q += 1;
                }
                if q == p {
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        "expected a list item, found a space (items are separated by one space)",
                    ));
                }
                (self.primitive(p, q)?, q)
            };
            items.push(item);
            if ends(after) {
                return Ok((Cell::Value(Value::Array(items)), after));
            }
            if src[after] != b' ' || ends(after + 1) {
                return Err(fault(
                    ErrorKind::Syntax,
                    after,
                    format!(
                        "expected one space and another item, or the end of the cell, found {}",
                        if src[after] == b' ' {
                            "a space at the end of the cell".to_owned()
                        } else {
                            show_byte(src[after])
                        }
                    ),
                ));
            }
            p = after + 1;
        }
    }

    /// A cell of a record list column (§3) starting at `i`, in a row ending
    /// at `e`, as a member of a container at level `parent`: empty (absent),
    /// `[]` (no records), `~` (the first cell of a null group), or records
    /// `[…][…]`, each with one member per field of `fields` (empty where an
    /// optional field is absent) or `*name` for an object that fits them;
    /// or `*name` alone for an array of such objects. Returns it and the
    /// offset after it.
    pub(super) fn records_cell(
        &mut self,
        i: usize,
        e: usize,
        delim: u8,
        parent: usize,
        fields: &[RecordField],
    ) -> R<(Cell, usize)> {
        if let Some(done) = self.array_cell_head(i, e, delim) {
            return Ok(done);
        }
        let src = self.src;
        let ends = |p: usize| p >= e || src[p] == delim;
        self.level(parent + 1, i)?;
        let mut records = Vec::new();
        let mut p = i;
        loop {
            let (record, after) = match src[p] {
                b'[' => {
                    let (m, after) = self.record(p, e, parent + 1, fields)?;
                    (Value::Object(m), after)
                }
                // A name for an array is the whole cell; for an object, a record.
                b'*' if p == i && self.names_an_array(p, e) => {
                    let (v, after) = self.reference(p, e, parent)?;
                    if let Value::Array(items) = &v {
                        for item in items {
                            self.fits(p, after, item, fields)?;
                        }
                    }
                    if !ends(after) {
                        return Err(fault(
                            ErrorKind::Syntax,
                            after,
                            format!(
                                "expected the end of the cell after `{}`, which stands for an \
                                 array (the whole cell), found {}",
                                self.tok.s(p, after),
                                show_byte(src[after])
                            ),
                        ));
                    }
                    return Ok((Cell::Value(v), after));
                }
                b'*' => {
                    let (v, after) = self.reference(p, e, parent + 1)?;
                    self.fits(p, after, &v, fields)?;
                    (v, after)
                }
                b => {
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        format!(
                            "expected a record '[…]' or '*name' of the record list, found {}",
                            show_byte(b)
                        ),
                    ));
                }
            };
            records.push(record);
            if ends(after) {
                return Ok((Cell::Value(Value::Array(records)), after));
            }
            p = after;
        }
    }

    /// One record `[…]` of a record list opening at `open`, as an object at
    /// level `level + 1`; returns it and the offset after its `]`.
    fn record(
        &mut self,
        open: usize,
        e: usize,
        level: usize,
        fields: &[RecordField],
    ) -> R<(Map, usize)> {
        let src = self.src;
        self.level(level + 1, open)?;
        let mut members = Vec::with_capacity(fields.len());
        let mut p = open + 1;
        for (n, f) in fields.iter().enumerate() {
            let last = n + 1 == fields.len();
            let at = p;
            // The member: a value, or empty right before a `,` or `]`.
            let value = match src.get(p).filter(|_| p < e) {
                None => {
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        format!(
                            "expected a member of a record, found the end of the row: \
                             ']' is missing for the bracket at column {}",
                            crate::Position::at(src, open).column
                        ),
                    ));
                }
                Some(b',' | b']') => None,
                Some(_) => {
                    let (v, after) = self.fvalue(p, e, level + 1)?;
                    p = after;
                    Some(v)
                }
            };
            match (src.get(p).filter(|_| p < e), last) {
                (Some(b','), false) | (Some(b']'), true) => {}
                (Some(b','), true) => return Err(self.record_width(p, fields.len(), false)),
                (Some(b']'), false) => return Err(self.record_width(p, fields.len(), true)),
                (found, _) => {
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        format!(
                            "expected {} after a member of a record, found {}",
                            if last { "']'" } else { "','" },
                            found.map_or("the end of the row".to_owned(), |&c| show_byte(c))
                        ),
                    ));
                }
            }
            match value {
                Some(v) => members.push((Key::from(f.name.as_str()), v)),
                None if f.optional => {}
                None => {
                    return Err(fault(
                        ErrorKind::Structure,
                        at,
                        format!(
                            "expected a value for the field {}, found an empty member: only \
                             a field marked '?' may be empty",
                            show(&f.name)
                        ),
                    ));
                }
            }
            p += 1;
        }
        if members.is_empty() {
            return Err(fault(
                ErrorKind::Structure,
                open,
                "expected a record with at least one value, found only empty members (a \
                 record is never empty)",
            ));
        }
        Ok((Map::from_unique_entries(members), p))
    }

    /// Whether the `*name` at `p` names an array (a record list's whole
    /// cell, not a record); false for a name not defined, which
    /// [`Parser::reference`] then refuses.
    fn names_an_array(&self, p: usize, e: usize) -> bool {
        let end = super::name_end(self.src, p + 1, e);
        self.names
            .get(self.tok.s(p + 1, end))
            .is_some_and(|&d| matches!(self.defs[d].value, Value::Array(_)))
    }

    /// Checks that `v`, which the name `src[at..after]` stands for, is a
    /// record of a list of `fields`: an object that is not empty, whose keys
    /// are among the fields in their order, holding every field not marked
    /// `?`.
    fn fits(&self, at: usize, after: usize, v: &Value, fields: &[RecordField]) -> R<()> {
        let misfit = |why: String| {
            fault(
                ErrorKind::Structure,
                at,
                format!(
                    "expected `{}` to stand for records that fit the record list's fields, \
                     found {why}",
                    self.tok.s(at, after)
                ),
            )
        };
        let Value::Object(m) = v else {
            let what = match v {
                Value::Null => "null",
                Value::Array(_) => "an array (a record is an object)",
                v => &format!("a {}", v.type_name()),
            };
            return Err(misfit(what.to_owned()));
        };
        if m.is_empty() {
            return Err(misfit(
                "an empty object (a record is never empty)".to_owned(),
            ));
        }
        // The first field of `skipped` (passed over before the key `k`)
        // that the object must hold.
        let required = |skipped: &[RecordField], k: Option<&str>| {
            let f = skipped.iter().find(|f| !f.optional)?;
            Some(match k {
                Some(k) if m.contains_key(&f.name) => format!(
                    "the key {} before {}, out of the fields' order",
                    show(k),
                    show(&f.name)
                ),
                _ => format!(
                    "no value for the field {}, which is not marked '?'",
                    show(&f.name)
                ),
            })
        };
        let mut next = 0;
        for k in m.keys() {
            let Some(j) = fields[next..].iter().position(|f| f.name == k.as_str()) else {
                let why = if fields.iter().any(|f| f.name == k.as_str()) {
                    "out of the fields' order"
                } else {
                    "not among the fields"
                };
                return Err(misfit(format!("the key {} {why}", show(k))));
            };
            if let Some(why) = required(&fields[next..next + j], Some(k)) {
                return Err(misfit(why));
            }
            next += j + 1;
        }
        match required(&fields[next..], None) {
            Some(why) => Err(misfit(why)),
            None => Ok(()),
        }
    }

    /// The error for a record with more (`fewer` false) or fewer
    /// members than its fields, found at `at`.
    fn record_width(&self, at: usize, fields: usize, fewer: bool) -> Fault {
        fault(
            ErrorKind::WidthMismatch,
            at,
            format!(
                "expected {fields} {} per record, as the record list's header declares, found {}",
                if fields == 1 { "member" } else { "members" },
                if fewer { "fewer" } else { "more" }
            ),
        )
    }
}

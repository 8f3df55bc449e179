//! Tabular detection: which arrays of objects (spec §9.3) and which objects of
//! objects (keyed tables, §9.5) can be written as a header and rows, and with
//! which field tree (nested field groups, 4.x only).
//!
//! Detection reads the rows in place: the field tree lives in a scratch arena
//! that the encoder reuses, so a table costs no allocation per row or cell.

use crate::{Map, Value};

/// One field of a header: a leaf column or a nested field group.
#[derive(Clone, Copy)]
pub(super) struct Field<'a> {
    pub(super) name: &'a str,
    /// Position of the key in the first row, where most rows also keep it.
    pub(super) hint: usize,
    /// The group's children as `start..start + len` in the arena; `len == 0` for a leaf.
    pub(super) start: usize,
    pub(super) len: usize,
}

/// A run of fields in the arena: `start..start + len`.
#[derive(Clone, Copy)]
pub(super) struct Group {
    pub(super) start: usize,
    pub(super) len: usize,
}

/// Scratch space for detection, reused from one table to the next.
#[derive(Default)]
pub(super) struct Tables<'a> {
    pub(super) fields: Vec<Field<'a>>,
    /// For nested groups: the keys that lead from a row to the group's object.
    path: Vec<(&'a str, usize)>,
    /// One state per column of the groups being classified.
    states: Vec<u8>,
}

const PRIMITIVE: u8 = 1;
const OBJECT: u8 = 2;
const OTHER: u8 = 4;

impl<'a> Tables<'a> {
    /// The field tree of `rows` (all objects, not checked here) if every row
    /// has the first row's key set and every column is either all primitives
    /// or, with `groups`, all non-empty objects that are themselves tabular.
    ///
    /// `level` is the nesting level of the row objects; detection never looks
    /// at objects deeper than `max_depth` (it answers "not tabular", and the
    /// encoder then meets the too-deep value and reports it).
    pub(super) fn detect<I>(
        &mut self,
        rows: I,
        level: usize,
        max_depth: usize,
        groups: bool,
    ) -> Option<Group>
    where
        I: Iterator<Item = &'a Value> + Clone,
    {
        debug_assert!(self.path.is_empty());
        let mark = self.fields.len();
        let found = self.group(rows, level, max_depth, groups);
        if found.is_none() {
            self.fields.truncate(mark);
        }
        self.path.clear();
        found
    }

    /// Keyed-table eligibility (§9.5): at least two entries, each a non-empty
    /// object, and the entry values tabular.
    pub(super) fn detect_keyed(
        &mut self,
        map: &'a Map,
        level: usize,
        max_depth: usize,
    ) -> Option<Group> {
        if map.len() < 2
            || !map
                .values()
                .all(|v| matches!(v, Value::Object(o) if !o.is_empty()))
        {
            return None;
        }
        // `Map::values` is not `Clone`; the slice-backed `IntoIterator` is.
        self.detect(map.into_iter().map(|(_, v)| v), level + 1, max_depth, true)
    }

    /// Drops the fields of a table once its rows are written.
    pub(super) fn release(&mut self, group: Group) {
        self.fields.truncate(group.start);
    }

    fn group<I>(&mut self, rows: I, level: usize, max_depth: usize, groups: bool) -> Option<Group>
    where
        I: Iterator<Item = &'a Value> + Clone,
    {
        if level > max_depth {
            return None;
        }
        let first = self.object_at(rows.clone().next()?)?;
        if first.is_empty() {
            return None;
        }
        let n = first.len();
        let start = self.fields.len();
        self.fields
            .extend(first.keys().enumerate().map(|(hint, name)| Field {
                name,
                hint,
                start: 0,
                len: 0,
            }));
        let st = self.states.len();
        self.states.resize(st + n, 0);
        let ok = self.scan(rows.clone(), start, st, n);
        let mut result = ok.then_some(Group { start, len: n });
        if result.is_some() {
            for j in 0..n {
                match self.states[st + j] {
                    PRIMITIVE => {}
                    OBJECT if groups => {
                        let f = self.fields[start + j];
                        self.path.push((f.name, f.hint));
                        let kids = self.group(rows.clone(), level + 1, max_depth, groups);
                        self.path.pop();
                        match kids {
                            Some(g) => {
                                self.fields[start + j].start = g.start;
                                self.fields[start + j].len = g.len;
                            }
                            None => {
                                result = None;
                                break;
                            }
                        }
                    }
                    _ => {
                        result = None;
                        break;
                    }
                }
            }
        }
        self.states.truncate(st);
        if result.is_none() {
            self.fields.truncate(start);
        }
        result
    }

    /// Checks every row's key set against the group's fields and records what
    /// kinds of value each column holds.
    fn scan<I>(&mut self, rows: I, start: usize, st: usize, n: usize) -> bool
    where
        I: Iterator<Item = &'a Value>,
    {
        for row in rows {
            let Some(m) = self.object_at(row) else {
                return false;
            };
            if m.len() != n {
                return false;
            }
            for j in 0..n {
                let f = self.fields[start + j];
                // Equal lengths and unique keys: every field present means equal key sets.
                let Some(v) = lookup(m, f.hint, f.name) else {
                    return false;
                };
                self.states[st + j] |= match v {
                    Value::Object(o) if !o.is_empty() => OBJECT,
                    Value::Array(_) | Value::Object(_) => OTHER,
                    _ => PRIMITIVE,
                };
            }
        }
        true
    }

    /// The object that `self.path` leads to from `row`.
    fn object_at(&self, row: &'a Value) -> Option<&'a Map> {
        let mut v = row;
        for &(name, hint) in &self.path {
            v = lookup(v.as_object()?, hint, name)?;
        }
        v.as_object()
    }
}

/// The value of `name` in `m`, looked up at `hint` first.
#[inline]
pub(super) fn lookup<'m>(m: &'m Map, hint: usize, name: &str) -> Option<&'m Value> {
    match m.get_index(hint) {
        Some((k, v)) if k == name => Some(v),
        _ => m.get(name),
    }
}

//! Tables: which arrays of objects (spec §9.3) and which objects of objects
//! (keyed tables, §9.5) are written as a header and rows, and with which
//! field tree (nested field groups, 4.x only).
//!
//! The reference's rule, that every row has the first row's key set and each
//! column holds only primitives or only non-empty objects that themselves
//! form a table, comes down to this: the first row fixes a shape (a leaf for
//! each primitive, a group for each non-empty object, nothing else allowed)
//! and every row must match it. The shape lives in a scratch arena that the
//! encoder reuses, so a table costs no allocation per row or cell.

use crate::{Map, Value};

/// One field of a header: a leaf column or a nested field group.
#[derive(Clone, Copy)]
pub(super) struct Field<'a> {
    pub(super) name: &'a str,
    /// The group's fields, for a nested field group.
    pub(super) kids: Option<Group>,
}

/// A run of sibling fields in the arena: `start..start + len`.
#[derive(Clone, Copy)]
pub(super) struct Group {
    pub(super) start: usize,
    pub(super) len: usize,
}

/// Scratch space for table shapes, reused from one table to the next.
#[derive(Default)]
pub(super) struct Tables<'a> {
    pub(super) fields: Vec<Field<'a>>,
}

impl<'a> Tables<'a> {
    /// The shape that `first`, a row at nesting `level`, gives a table, or
    /// `None` when it cannot head one (no keys, an array or empty object
    /// value, or with `groups` off any object value).
    ///
    /// Never looks at objects deeper than `max_depth`: it answers `None`,
    /// and the encoder then meets the too-deep value and reports it.
    pub(super) fn shape(
        &mut self,
        first: &'a Map,
        level: usize,
        max_depth: usize,
        groups: bool,
    ) -> Option<Group> {
        let mark = self.fields.len();
        let shape = self.group(first, level, max_depth, groups);
        if shape.is_none() {
            self.fields.truncate(mark);
        }
        shape
    }

    /// Drops a table's shape once its rows are written.
    pub(super) fn release(&mut self, group: Group) {
        self.fields.truncate(group.start);
    }

    /// Whether `row` fits the shape `g`; clears `aligned` when its keys (or
    /// those of its nested objects) come in another order than the first row's.
    pub(super) fn matches(&self, row: &Map, g: Group, aligned: &mut bool) -> bool {
        if row.len() != g.len {
            return false;
        }
        for (j, f) in self.fields[g.start..g.start + g.len].iter().enumerate() {
            let Some(v) = cell(row, j, f.name, aligned) else {
                return false;
            };
            let fits = match (f.kids, v) {
                (None, v) => v.is_primitive(),
                (Some(kids), Value::Object(o)) => self.matches(o, kids, aligned),
                (Some(_), _) => false,
            };
            if !fits {
                return false;
            }
        }
        true
    }

    fn group(
        &mut self,
        row: &'a Map,
        level: usize,
        max_depth: usize,
        groups: bool,
    ) -> Option<Group> {
        if level > max_depth || row.is_empty() {
            return None;
        }
        let start = self.fields.len();
        self.fields
            .extend(row.keys().map(|name| Field { name, kids: None }));
        for (j, v) in row.values().enumerate() {
            match v {
                Value::Object(o) if groups => {
                    let kids = self.group(o, level + 1, max_depth, groups)?;
                    self.fields[start + j].kids = Some(kids);
                }
                Value::Array(_) | Value::Object(_) => return None,
                _ => {}
            }
        }
        Some(Group {
            start,
            len: row.len(),
        })
    }
}

/// The value of field `j`, named `name`, in `row`: at position `j` when the
/// row keeps the first row's order, else found by name (clearing `aligned`).
#[inline(always)]
pub(super) fn cell<'m>(
    row: &'m Map,
    j: usize,
    name: &str,
    aligned: &mut bool,
) -> Option<&'m Value> {
    match row.get_index(j) {
        Some((k, v)) if same_key(k, name) => Some(v),
        _ => {
            *aligned = false;
            row.get(name)
        }
    }
}

/// String equality for the short keys of table rows, without a `memcmp`
/// call: a table compares one key per cell. Keys of 4 to 16 bytes compare
/// as two overlapping words.
#[inline(always)]
fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

#[inline(always)]
fn word4(s: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&s[at..at + 4]);
    u32::from_ne_bytes(w)
}

#[inline(always)]
fn word8(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_key_comparison_agrees_with_equality() {
        let keys = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abce",
            "abcdefg",
            "abcdefh",
            "abcdefgh",
            "bbcdefgh",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "xbcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
        ];
        for a in keys {
            for b in keys {
                assert_eq!(same_key(a, b), a == b, "{a:?} vs {b:?}");
            }
        }
    }
}

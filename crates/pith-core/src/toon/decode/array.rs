//! The values a header opens (§9): the dispatch to inline arrays, lists,
//! tables and keyed tables, the inline values on the header line, and the
//! declared length every one of them is checked against.

use super::header::Header;
use super::{Fault, Parser, R};
use crate::{ErrorKind, Value};

impl Parser<'_> {
    /// The value a header opens: inline array, list, table or keyed table.
    /// `header_depth` is the depth of the line the header stands on (as a
    /// field), `value_level` the nesting level of the array or keyed object.
    pub(super) fn array(
        &mut self,
        header: Header,
        header_depth: usize,
        value_level: usize,
        at: usize,
    ) -> R<Value> {
        self.check_depth(value_level, at)?;
        let Header {
            fields,
            inline,
            keyed,
            length,
            length_at,
            delim,
            ..
        } = header;
        let digits = self.src[length_at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let count = Count {
            length,
            length_at,
            written: self.tok.s(length_at, length_at + digits),
        };
        match (fields, inline) {
            (Some(fields), _) if keyed => {
                self.keyed_table(&fields, count, delim, header_depth, value_level)
            }
            (Some(fields), _) => self.table(&fields, count, delim, header_depth, value_level),
            (None, Some((a, b))) => self.inline(a, b, count, delim),
            (None, None) => self.list(count, header_depth, value_level),
        }
    }

    /// Values on the header line (§9.1).
    fn inline(&mut self, a: usize, b: usize, count: Count, delim: u8) -> R<Value> {
        // Bounded by what the line can hold, whatever the header declares.
        let mut items = Vec::with_capacity(count.length.min(b - a + 1));
        let mut surplus = None;
        let tok = self.tok;
        let mut i = a;
        loop {
            if items.len() == count.length && surplus.is_none() {
                surplus = Some(i);
            }
            let n = items.len();
            items.push(Value::Null);
            let j = tok.cell_into(i, b, delim, &mut items[n])?;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if self.strict {
            if let Some(at) = surplus {
                let (at, _) = self.tok.trim(at, b);
                return Err(count.mismatch(at, VALUES, items.len()));
            }
            if items.len() != count.length {
                return Err(count.mismatch(count.length_at, VALUES, items.len()));
            }
        }
        Ok(Value::Array(items))
    }
}

/// A declared length, where it was written, and its digits as written
/// (a length beyond `usize` is held as `usize::MAX`, which no input
/// reaches, and named in messages as written).
#[derive(Clone, Copy)]
pub(super) struct Count<'a> {
    pub(super) length: usize,
    pub(super) length_at: usize,
    pub(super) written: &'a str,
}

impl Count<'_> {
    pub(super) fn mismatch(self, at: usize, what: Noun, found: usize) -> Fault {
        Fault::new(
            ErrorKind::CountMismatch,
            at,
            format!(
                "expected {} {} as the header declares, found {found}",
                self.written,
                what.of(self.length)
            ),
        )
    }

    pub(super) fn surplus(self, at: usize, what: Noun) -> Fault {
        Fault::new(
            ErrorKind::CountMismatch,
            at,
            format!(
                "expected {} {} as the header declares, found more",
                self.written,
                what.of(self.length)
            ),
        )
    }
}

/// A noun in its singular and plural forms, for messages.
#[derive(Clone, Copy)]
pub(super) struct Noun(&'static str, &'static str);

impl Noun {
    pub(super) fn of(self, n: usize) -> &'static str {
        if n == 1 { self.0 } else { self.1 }
    }
}

pub(super) const VALUES: Noun = Noun("value", "values");
pub(super) const ITEMS: Noun = Noun("list item", "list items");
pub(super) const ROWS: Noun = Noun("row", "rows");
pub(super) const ENTRIES: Noun = Noun("entry", "entries");
pub(super) const CELLS: Noun = Noun("cell", "cells");

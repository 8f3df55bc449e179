//! Objects: `key: value` lines, nested objects indented under `key:`, and
//! in spec 3.3 with key folding, chains of single-key objects written as
//! one dotted key.

use super::quote::write_key;
use super::rows::Rows;
use super::{Encoder, Key, Scope, Sink};
use crate::toon::fold::{Collisions, try_fold};
use crate::{Map, Result, Value};

impl<'a, S: Sink> Encoder<'a, '_, S> {
    /// The fields of object `m` (at nesting `level`), one `key: value` each,
    /// at indentation `depth`; `skip_first` leaves out the first field, which
    /// a list item writes on its hyphen line.
    pub(super) fn fields(
        &mut self,
        m: &'a Map,
        depth: usize,
        level: usize,
        skip_first: bool,
        scope: Scope<'a>,
    ) -> Result<()> {
        for (k, v) in m.iter().skip(usize::from(skip_first)) {
            self.field(k, v, depth, level + 1, m, scope)?;
        }
        Ok(())
    }

    /// One field `key: value`; `level` is the nesting level of `v`.
    fn field(
        &mut self,
        k: &'a str,
        v: &'a Value,
        depth: usize,
        level: usize,
        siblings: &'a Map,
        scope: Scope<'a>,
    ) -> Result<()> {
        match v {
            Value::Array(a) => {
                self.enter(level)?;
                self.array(Key::Literal(k), a, depth, level)
            }
            Value::Object(o) => {
                if self.fold && self.folded(k, v, depth, level, siblings, scope)? {
                    return Ok(());
                }
                self.enter(level)?;
                if self.keyed_candidate(o)
                    && self.table(Key::Literal(k), false, Rows::Keyed(o), depth, level + 1)?
                {
                    return Ok(());
                }
                self.line(depth)?;
                self.key(k);
                self.out.push(b':');
                if o.is_empty() {
                    return Ok(());
                }
                if scope.root.is_some() {
                    let mark = self.prefix.len();
                    if mark > 0 {
                        self.prefix.push('.');
                    }
                    self.prefix.push_str(k);
                    let r = self.fields(o, depth + 1, level, false, scope);
                    self.prefix.truncate(mark);
                    r
                } else {
                    self.fields(o, depth + 1, level, false, scope)
                }
            }
            primitive => {
                self.line(depth)?;
                self.key(k);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// Writes `k: v` with a folded key if folding is safe; says whether it did.
    fn folded(
        &mut self,
        k: &'a str,
        v: &'a Value,
        depth: usize,
        level: usize,
        siblings: &'a Map,
        scope: Scope<'a>,
    ) -> Result<bool> {
        let avoid = Collisions {
            siblings,
            root: scope.root.map(|r| (r, self.prefix.as_str())),
        };
        let Some(fold) = try_fold(k, v, level, scope.flatten, self.max_depth, &avoid) else {
            return Ok(false);
        };
        match fold.leaf {
            Value::Array(a) => {
                self.enter(fold.leaf_level)?;
                self.array(Key::Folded(&fold.key), a, depth, fold.leaf_level)?;
            }
            Value::Object(o) => {
                self.enter(fold.leaf_level)?;
                self.line(depth)?;
                write_key(self.out, &fold.key);
                self.out.push(b':');
                if fold.has_remainder() {
                    let inner = Scope {
                        root: scope.root,
                        flatten: scope.flatten - fold.segments,
                    };
                    let mark = self.prefix.len();
                    if scope.root.is_some() {
                        if mark > 0 {
                            self.prefix.push('.');
                        }
                        self.prefix.push_str(&fold.key);
                    }
                    let r = self.fields(o, depth + 1, fold.leaf_level, false, inner);
                    self.prefix.truncate(mark);
                    r?;
                }
            }
            primitive => {
                self.line(depth)?;
                write_key(self.out, &fold.key);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
            }
        }
        Ok(true)
    }
}

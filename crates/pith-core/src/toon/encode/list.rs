//! Arrays: empty, inline (`[N]: a,b,c`), or a list of `- ` items, an
//! object item with its first field on the hyphen line.

use super::rows::Rows;
use super::{Encoder, Key, Scope, Sink};
use crate::{Map, Result, Value};

impl<'a, S: Sink> Encoder<'a, '_, S> {
    /// An array under `key` (or at the root), itself at nesting `level`.
    pub(super) fn array(
        &mut self,
        key: Key<'_>,
        a: &'a [Value],
        depth: usize,
        level: usize,
    ) -> Result<()> {
        if a.is_empty() {
            self.line(depth)?;
            if key.is_root() {
                self.out.extend_from_slice(b"[]");
            } else {
                self.name(key);
                self.out.extend_from_slice(b": []");
            }
            return Ok(());
        }
        let (primitives, objects) = kinds(a);
        if primitives {
            self.line(depth)?;
            self.name(key);
            return self.inline(a);
        }
        if objects && self.table(key, false, Rows::Array(a), depth, level + 1)? {
            return Ok(());
        }
        self.line(depth)?;
        self.name(key);
        self.header(a.len(), false, None);
        self.items(a, depth + 1, level + 1)
    }

    /// `[N]: a,b,c` (or `[0]:`) for an array of primitives.
    fn inline(&mut self, a: &'a [Value]) -> Result<()> {
        self.header(a.len(), false, None);
        let mut sep = b' ';
        for v in a {
            self.sink.drain(self.out)?;
            self.out.push(sep);
            sep = self.delimiter;
            self.q.primitive(self.out, v);
        }
        Ok(())
    }

    /// The elements of a list, as `- ` items at `depth`, each at nesting `level`.
    fn items(&mut self, a: &'a [Value], depth: usize, level: usize) -> Result<()> {
        for (i, v) in a.iter().enumerate() {
            if i % AHEAD == 0 {
                read_ahead(a.get(i + AHEAD..).unwrap_or_default());
            }
            self.item(v, depth, level)?;
        }
        Ok(())
    }

    /// One list item.
    fn item(&mut self, v: &'a Value, depth: usize, level: usize) -> Result<()> {
        match v {
            Value::Array(inner) => {
                self.enter(level)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                if kinds(inner).0 {
                    self.inline(inner)
                } else {
                    self.header(inner.len(), false, None);
                    self.items(inner, depth + 1, level + 1)
                }
            }
            Value::Object(o) => {
                self.enter(level)?;
                self.object_item(o, depth, level)
            }
            primitive => {
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.q.primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// An object as a list item: its first field on the hyphen line, the
    /// others one level deeper.
    fn object_item(&mut self, o: &'a Map, depth: usize, level: usize) -> Result<()> {
        let Some((k, v)) = o.get_index(0) else {
            self.line(depth)?;
            self.out.push(b'-');
            return Ok(());
        };
        let scope = Scope {
            root: None,
            flatten: self.flatten,
        };
        match v {
            Value::Array(a) if !a.is_empty() && kinds(a).1 => {
                self.enter(level + 1)?;
                if self.table(Key::Literal(k), true, Rows::Array(a), depth, level + 2)? {
                    return self.fields(o, depth + 1, level, true, scope);
                }
            }
            Value::Object(inner) if self.keyed_candidate(inner) => {
                self.enter(level + 1)?;
                if self.table(Key::Literal(k), true, Rows::Keyed(inner), depth, level + 2)? {
                    return self.fields(o, depth + 1, level, true, scope);
                }
            }
            _ => {}
        }
        match v {
            Value::Array(a) => {
                self.enter(level + 1)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                if a.is_empty() {
                    self.out.extend_from_slice(b": []");
                } else if kinds(a).0 {
                    self.inline(a)?;
                } else {
                    self.header(a.len(), false, None);
                    self.items(a, depth + 2, level + 2)?;
                }
            }
            Value::Object(inner) => {
                self.enter(level + 1)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                self.out.push(b':');
                self.fields(inner, depth + 2, level + 1, false, scope)?;
            }
            primitive => {
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
            }
        }
        self.fields(o, depth + 1, level, true, scope)
    }
}

/// List items read ahead at a time (see [`read_ahead`]).
const AHEAD: usize = 8;

/// Reads the first entry of each of the next [`AHEAD`] object items, and
/// throws the result away.
///
/// In a document larger than the cache, each list item's entries sit in a
/// heap block of their own, at an address no hardware prefetcher predicts:
/// written one after the other, every item starts with a stall on that
/// miss. Reading a batch of them ahead lets
/// their misses overlap, and the writer finds them in cache. (A prefetch
/// instruction would do it without the read, but none is safe to call.)
/// Table rows do without: read in order, theirs are already prefetched,
/// and reading ahead only slowed them down.
#[inline(never)]
fn read_ahead(rows: &[Value]) {
    let mut acc = 0;
    for v in rows.iter().take(AHEAD) {
        if let Value::Object(m) = v {
            acc ^= m.keys().next().map_or(0, |k| k.len());
        }
    }
    std::hint::black_box(acc);
}

/// Whether all elements are primitives, and whether all are objects.
#[inline]
fn kinds(a: &[Value]) -> (bool, bool) {
    let (mut primitives, mut objects) = (true, true);
    for v in a {
        match v {
            Value::Array(_) => return (false, false),
            Value::Object(_) => primitives = false,
            _ => objects = false,
        }
        if !primitives && !objects {
            break;
        }
    }
    (primitives, objects)
}

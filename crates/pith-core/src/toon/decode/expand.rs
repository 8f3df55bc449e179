//! Path expansion (spec 3.3 §13.4, conflicts §14.3): an unquoted dotted key
//! such as `a.b.c` whose segments are all identifiers (`[A-Za-z_][A-Za-z0-9_]*`)
//! reads back as nested objects, undoing the encoder's key folding.
//!
//! The decoder expands each object when it is complete, so its children are
//! already expanded. Keys are processed in document order:
//!
//! * an expanded key walks its segments, creating objects as needed and
//!   descending into existing ones;
//! * where two values meet at one key, two objects merge recursively (later
//!   keys appended after earlier ones) and anything else is a conflict: an
//!   [`ErrorKind::PathConflict`] error at the later key in strict mode, the
//!   later value replacing the earlier one in lenient mode.
//!
//! Literal duplicate keys are not conflicts: the decoder resolves them first
//! (§14.4). Large objects are indexed as the decoder's are, so expansion
//! stays linear.

use crate::toon::decode::Fault;
use crate::toon::decode::object::{KeyIndex, KeyMeta, SMALL};
use crate::toon::fold::is_path;
use crate::value::Unpacked;
use crate::{ErrorKind, Key, Map, Value};

/// Expands the entries of one object at nesting level `level` (the root is 1).
pub(in crate::toon) fn expand_object(
    entries: Vec<(Key, Value)>,
    meta: Vec<KeyMeta>,
    level: usize,
    max_depth: usize,
    strict: bool,
) -> Result<Map, Fault> {
    if !entries
        .iter()
        .zip(&meta)
        .any(|((k, _), m)| !m.quoted && k.contains('.'))
    {
        return Ok(Map::from_unique_entries(entries));
    }
    let cx = Cx { strict };
    let mut root = Obj::with_capacity(entries.len());
    for ((key, value), m) in entries.into_iter().zip(meta) {
        if !m.quoted && is_path(&key) {
            let segments: Vec<&str> = key.split('.').collect();
            let below = if value.is_primitive() {
                0
            } else {
                value.depth()
            };
            // The value moves from level + 1 to level + segments.
            if level + segments.len() - 1 + below > max_depth {
                return Err(Fault::new(
                    ErrorKind::DepthLimit,
                    m.at,
                    format!(
                        "expected nesting at most {max_depth} levels deep, found a dotted key \
                         that expands deeper"
                    ),
                ));
            }
            let (last, parents) = segments.split_last().unwrap_or((&"", &[]));
            let mut node = &mut root;
            for seg in parents {
                node = cx.descend(node, seg, m.at)?;
            }
            cx.insert(node, Key::from(*last), value, m.at)?;
        } else {
            cx.insert(&mut root, key, value, m.at)?;
        }
    }
    Ok(root.into_map())
}

/// An object being expanded into.
struct Obj {
    entries: Vec<(Key, Slot)>,
    index: Option<KeyIndex>,
}

enum Slot {
    Value(Value),
    Obj(Obj),
}

impl Obj {
    fn with_capacity(n: usize) -> Obj {
        Obj {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    fn from_map(m: Map) -> Obj {
        let entries: Vec<(Key, Slot)> = m
            .into_entries()
            .into_iter()
            .map(|(k, v)| (k, Slot::Value(v)))
            .collect();
        let index =
            (entries.len() > SMALL).then(|| KeyIndex::build(entries.as_slice(), entries.len()));
        Obj { entries, index }
    }

    fn find(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.find(self.entries.as_slice(), key),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    fn push(&mut self, key: Key, slot: Slot) -> usize {
        self.entries.push((key, slot));
        let n = self.entries.len();
        match &mut self.index {
            Some(ix) => ix.insert(self.entries.as_slice(), n - 1),
            None if n > SMALL => self.index = Some(KeyIndex::build(self.entries.as_slice(), n)),
            None => {}
        }
        n - 1
    }

    fn into_map(self) -> Map {
        let entries = self
            .entries
            .into_iter()
            .map(|(k, slot)| {
                let v = match slot {
                    Slot::Value(v) => v,
                    Slot::Obj(o) => Value::Object(o.into_map()),
                };
                (k, v)
            })
            .collect();
        Map::from_unique_entries(entries)
    }
}

struct Cx {
    strict: bool,
}

impl Cx {
    /// The object at `seg` in `node`, created when absent.
    fn descend<'n>(&self, node: &'n mut Obj, seg: &str, at: usize) -> Result<&'n mut Obj, Fault> {
        let i = match node.find(seg) {
            None => node.push(Key::from(seg), Slot::Obj(Obj::with_capacity(0))),
            Some(i) => {
                let slot = &mut node.entries[i].1;
                match slot {
                    Slot::Obj(_) => {}
                    Slot::Value(Value::Object(m)) => {
                        *slot = Slot::Obj(Obj::from_map(std::mem::take(m)));
                    }
                    Slot::Value(other) => {
                        if self.strict {
                            return Err(conflict(seg, other.type_name(), "object", at));
                        }
                        *slot = Slot::Obj(Obj::with_capacity(0));
                    }
                }
                i
            }
        };
        match &mut node.entries[i].1 {
            Slot::Obj(o) => Ok(o),
            Slot::Value(_) => Err(Fault::new(
                ErrorKind::PathConflict,
                at,
                "expected an object while expanding a dotted key",
            )),
        }
    }

    /// Sets `key` in `node`: new keys are appended, objects merge, anything
    /// else conflicts.
    fn insert(&self, node: &mut Obj, key: Key, value: Value, at: usize) -> Result<(), Fault> {
        let Some(i) = node.find(&key) else {
            node.push(key, Slot::Value(value));
            return Ok(());
        };
        let slot = &mut node.entries[i].1;
        match (slot, value.unpack()) {
            (slot @ (Slot::Obj(_) | Slot::Value(Value::Object(_))), Unpacked::Object(source)) => {
                if let Slot::Value(Value::Object(m)) = slot {
                    *slot = Slot::Obj(Obj::from_map(std::mem::take(m)));
                }
                if let Slot::Obj(target) = slot {
                    for (k, v) in source.into_entries() {
                        self.insert(target, k, v, at)?;
                    }
                }
                Ok(())
            }
            (slot, value) => {
                let value = Value::from(value);
                if self.strict {
                    let existing = match slot {
                        Slot::Obj(_) => "object",
                        Slot::Value(v) => v.type_name(),
                    };
                    return Err(conflict(&key, existing, value.type_name(), at));
                }
                *slot = Slot::Value(value);
                Ok(())
            }
        }
    }
}

fn conflict(key: &str, existing: &str, new: &str, at: usize) -> Fault {
    Fault::new(
        ErrorKind::PathConflict,
        at,
        format!(
            "expected values that merge at key {}, found {} {existing} and {} {new}",
            crate::toon::decode::show(key),
            article(existing),
            article(new)
        ),
    )
}

fn article(type_name: &str) -> &'static str {
    if type_name.starts_with(['a', 'o']) {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(n: usize) -> Vec<KeyMeta> {
        (0..n)
            .map(|i| KeyMeta {
                quoted: false,
                at: i,
            })
            .collect()
    }

    #[test]
    fn many_dotted_keys_into_one_parent_stay_linear() {
        let n = 50_000;
        let entries: Vec<(Key, Value)> = (0..n)
            .map(|i| (format!("a.k{i}").into(), Value::from(i)))
            .collect();
        let m = expand_object(entries, meta(n), 1, 256, true).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m.get("a").unwrap().as_object().unwrap().len(), n);
    }
}

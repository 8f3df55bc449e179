//! Key folding (spec 3.3 §13.4): a chain of single-key objects written as one
//! dotted key, `a.b.c: 1` for `{"a": {"b": {"c": 1}}}`.
//!
//! Folding is "safe": it happens only where path expansion on decode gives
//! the same value back, that is when every segment is an identifier
//! (`^[A-Za-z_][A-Za-z0-9_]*$`, no dots) and the folded key collides with no
//! sibling key and no dotted key of the root object.
//!
//! A literal key that expansion would split (`{"a.b": 1}`) is written
//! quoted while folding (`"a.b": 1`): quoted keys are never expanded, so the
//! value reads back as it was. 2.3.1 writes such a key bare, which path
//! expansion then splits or reports as a conflict.
//!
//! Siblings include the first field of a list-item object, which
//! `@toon-format/toon` 2.3.1 leaves out of its check (it can write `- a.b: 1`
//! and then a folded `a.b: 2` in the same object, which no reader takes back).
//! pith follows spec 3.3 §13.4 there; everywhere else it folds exactly as
//! 2.3.1 does.

use crate::{Map, Value};

/// A chain that may be written under one dotted key.
pub(crate) struct Fold<'a> {
    /// The dotted key, `K1.K2…Kd`.
    pub(crate) key: String,
    /// How many segments it joins (at least 2).
    pub(crate) segments: usize,
    /// The value under the last segment.
    pub(crate) leaf: &'a Value,
    /// Nesting level of `leaf` when it is a container.
    pub(crate) leaf_level: usize,
}

impl Fold<'_> {
    /// Whether the leaf is an object that still has to be written below the
    /// folded key (several keys, or a chain cut short by the flatten depth).
    pub(crate) fn has_remainder(&self) -> bool {
        matches!(self.leaf, Value::Object(m) if !m.is_empty())
    }
}

/// Where a folded key must not collide: the siblings of the key, and (below
/// the root object, outside any array) the root's dotted keys, reached from
/// the root by `prefix`.
pub(crate) struct Collisions<'s> {
    pub(crate) siblings: &'s Map,
    pub(crate) root: Option<(&'s Map, &'s str)>,
}

/// The fold of `key: value`, if safe.
///
/// `level` is the nesting level of `value`; the walk never looks inside an
/// object deeper than `max_depth`, so a too-deep chain stops early and the
/// encoder reports it. `flatten` caps the number of segments.
pub(crate) fn try_fold<'a>(
    key: &'a str,
    value: &'a Value,
    level: usize,
    flatten: usize,
    max_depth: usize,
    avoid: &Collisions<'_>,
) -> Option<Fold<'a>> {
    if !matches!(value, Value::Object(_)) || !is_identifier(key) {
        return None;
    }
    let mut segments = 1;
    let mut leaf = value;
    let mut leaf_level = level;
    let mut folded_len = key.len();
    while segments < flatten && leaf_level <= max_depth {
        let Value::Object(m) = leaf else { break };
        if m.len() != 1 {
            break;
        }
        let Some((k, v)) = m.get_index(0) else { break };
        if !is_identifier(k) {
            return None;
        }
        segments += 1;
        folded_len += 1 + k.len();
        leaf = v;
        leaf_level += 1;
    }
    if segments < 2 {
        return None;
    }
    let mut folded = String::with_capacity(folded_len);
    folded.push_str(key);
    let mut v = value;
    for _ in 1..segments {
        let (k, next) = v.as_object().and_then(|m| m.get_index(0))?;
        folded.push('.');
        folded.push_str(k);
        v = next;
    }
    if avoid.siblings.contains_key(&folded) {
        return None;
    }
    if let Some((root, prefix)) = avoid.root {
        let clash = if prefix.is_empty() {
            root.contains_key(&folded)
        } else {
            root.keys().any(|r| {
                r.len() == prefix.len() + 1 + folded.len()
                    && r.starts_with(prefix)
                    && r.as_bytes()[prefix.len()] == b'.'
                    && r.ends_with(folded.as_str())
            })
        };
        if clash {
            return None;
        }
    }
    Some(Fold {
        key: folded,
        segments,
        leaf,
        leaf_level,
    })
}

/// Whether path expansion splits `key` when it is written bare: a dotted
/// key whose every segment is an [identifier](is_identifier), `a.b.c`.
pub(crate) fn is_path(key: &str) -> bool {
    key.contains('.') && key.split('.').all(is_identifier)
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`: a segment that folding and expansion accept.
pub fn is_identifier(s: &str) -> bool {
    match s.as_bytes().split_first() {
        Some((&f, rest)) => {
            (f.is_ascii_alphabetic() || f == b'_')
                && rest.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(entries: &[(&str, Value)]) -> Value {
        Value::Object(entries.iter().cloned().collect())
    }

    #[test]
    fn identifiers_are_ascii_words_and_paths_join_them() {
        assert!(is_identifier("a_1"));
        assert!(is_identifier("_"));
        assert!(!is_identifier("1a"));
        assert!(!is_identifier(""));
        assert!(!is_identifier("a-b"));
        assert!(!is_identifier("é"));
        assert!(is_path("a.b"));
        assert!(is_path("_x.y_1.z"));
        assert!(!is_path("ab"));
        assert!(!is_path("a..b"));
        assert!(!is_path("a.1b"));
        assert!(!is_path(".a"));
        assert!(!is_path("a."));
        assert!(!is_path("a.b-c"));
    }

    #[test]
    fn folds_whole_chains_up_to_the_flatten_depth() {
        let v = obj(&[("b", obj(&[("c", obj(&[("d", Value::from(1))]))]))]);
        let siblings = Map::new();
        let avoid = Collisions {
            siblings: &siblings,
            root: None,
        };
        let f = try_fold("a", &v, 1, usize::MAX, 256, &avoid).unwrap();
        assert_eq!((f.key.as_str(), f.segments), ("a.b.c.d", 4));
        assert!(!f.has_remainder());
        let f = try_fold("a", &v, 1, 2, 256, &avoid).unwrap();
        assert_eq!(f.key, "a.b");
        assert!(f.has_remainder());
        assert!(try_fold("a", &v, 1, 1, 256, &avoid).is_none());
        assert!(try_fold("a-x", &v, 1, usize::MAX, 256, &avoid).is_none());
    }

    #[test]
    fn refuses_collisions_with_siblings_and_root_dotted_keys() {
        let v = obj(&[("b", Value::from(1))]);
        let siblings: Map = [("a.b", Value::Null)].into_iter().collect();
        let avoid = Collisions {
            siblings: &siblings,
            root: None,
        };
        assert!(try_fold("a", &v, 1, usize::MAX, 256, &avoid).is_none());
        let none = Map::new();
        let root: Map = [("x.a.b", Value::Null)].into_iter().collect();
        let avoid = Collisions {
            siblings: &none,
            root: Some((&root, "x")),
        };
        assert!(try_fold("a", &v, 2, usize::MAX, 256, &avoid).is_none());
        let avoid = Collisions {
            siblings: &none,
            root: Some((&root, "y")),
        };
        assert!(try_fold("a", &v, 2, usize::MAX, 256, &avoid).is_some());
    }
}

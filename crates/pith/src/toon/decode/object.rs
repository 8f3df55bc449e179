//! Building objects with cheap duplicate checks.
//!
//! Nearly every object has a handful of keys, where a linear scan beats any
//! hash; once an object grows past [`SMALL`] keys, a [`KeyIndex`] takes
//! over, so a keyed table or a root object with 50,000 keys stays linear.

use crate::Value;
use std::hash::{BuildHasher, RandomState};

/// Objects up to this many keys check duplicates by scanning.
pub(in crate::toon) const SMALL: usize = 16;

/// Where a key came from, kept only when path expansion needs it.
#[derive(Debug, Clone, Copy)]
pub(in crate::toon) struct KeyMeta {
    /// The key was a quoted token (quoted keys are never expanded).
    pub(in crate::toon) quoted: bool,
    /// Byte offset of the key, for conflict errors.
    pub(in crate::toon) at: usize,
}

/// A sequence of keys a [`KeyIndex`] can point into.
pub(in crate::toon) trait Keys {
    /// The key at position `i`.
    fn key(&self, i: usize) -> &str;
}

impl<T> Keys for [(String, T)] {
    fn key(&self, i: usize) -> &str {
        &self[i].0
    }
}

/// An open-addressing hash index from keys to positions in a separate key
/// sequence: the keys themselves are not copied.
///
/// The hasher is randomly keyed, so crafted keys cannot force collisions.
pub(in crate::toon) struct KeyIndex {
    slots: Vec<u32>,
    len: usize,
    hasher: RandomState,
}

const EMPTY: u32 = u32::MAX;

impl KeyIndex {
    /// An index over the first `n` keys of `keys`, which must be distinct.
    pub(in crate::toon) fn build<K: Keys + ?Sized>(keys: &K, n: usize) -> KeyIndex {
        let mut ix = KeyIndex {
            slots: vec![EMPTY; (n * 2).next_power_of_two().max(64)],
            len: 0,
            hasher: RandomState::new(),
        };
        for i in 0..n {
            ix.insert(keys, i);
        }
        ix
    }

    /// The position of `key`, if indexed.
    pub(in crate::toon) fn find<K: Keys + ?Sized>(&self, keys: &K, key: &str) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut h = self.hasher.hash_one(key) as usize & mask;
        loop {
            let s = self.slots[h];
            if s == EMPTY {
                return None;
            }
            if keys.key(s as usize) == key {
                return Some(s as usize);
            }
            h = (h + 1) & mask;
        }
    }

    /// Indexes the key at position `i`, which is not indexed yet.
    pub(in crate::toon) fn insert<K: Keys + ?Sized>(&mut self, keys: &K, i: usize) {
        if (self.len + 1) * 2 > self.slots.len() {
            let grown = vec![EMPTY; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, grown);
            self.len = 0;
            for s in old.into_iter().filter(|&s| s != EMPTY) {
                self.place(keys, s);
            }
        }
        self.place(keys, i as u32);
    }

    fn place<K: Keys + ?Sized>(&mut self, keys: &K, i: u32) {
        let mask = self.slots.len() - 1;
        let mut h = self.hasher.hash_one(keys.key(i as usize)) as usize & mask;
        while self.slots[h] != EMPTY {
            h = (h + 1) & mask;
        }
        self.slots[h] = i;
        self.len += 1;
    }
}

/// An object under construction. Its entries live on the parser's shared
/// entry stack from `start` on (a nested object's entries sit above its
/// parent's until it is finished), so each finished object is moved out in
/// one allocation of its exact size.
pub(super) struct Obj {
    pub(super) start: usize,
    index: Option<KeyIndex>,
}

/// A cheap summary of a key (its length, first and last bytes): keys with
/// different fingerprints differ, so most duplicate checks in small objects
/// compare one integer instead of two strings. Reads whole words, never a
/// buffer filled byte by byte.
#[inline]
pub(super) fn fingerprint(b: &[u8]) -> u64 {
    let n = b.len();
    let (x, y) = match n {
        8.. => (word8(&b[..8]), word8(&b[n - 8..])),
        4..8 => (u64::from(word4(&b[..4])), u64::from(word4(&b[n - 4..]))),
        1..4 => (
            u64::from(b[0]) << 16 | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]),
            0,
        ),
        0 => (0, 0),
    };
    x ^ y.rotate_left(29) ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn word8(s: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(s);
    u64::from_le_bytes(w)
}

fn word4(s: &[u8]) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(s);
    u32::from_le_bytes(w)
}

/// The entry stack shared by all objects under construction.
///
/// Slots are reused: `[0, top)` hold live entries, the slots above are empty
/// (a `String` without allocation and a null). Writing a key into an empty
/// slot in place, rather than pushing a freshly built `(key, value)` pair,
/// keeps the CPU from stalling on copies of data it has just written.
pub(super) struct Stack {
    entries: Vec<(String, Value)>,
    top: usize,
    /// The fingerprint of every live entry's key.
    prints: Vec<u64>,
    /// Per live entry, kept only when path expansion is on.
    meta: Option<Vec<KeyMeta>>,
}

impl Stack {
    pub(super) fn new(expand: bool) -> Stack {
        Stack {
            entries: Vec::new(),
            top: 0,
            prints: Vec::new(),
            meta: expand.then(Vec::new),
        }
    }

    /// Starts an object above the current entries.
    #[inline]
    pub(super) fn open(&self) -> Obj {
        Obj {
            start: self.top,
            index: None,
        }
    }

    /// The live entries of `obj`.
    #[inline]
    fn live(&self, obj: &Obj) -> &[(String, Value)] {
        self.entries.get(obj.start..self.top).unwrap_or_default()
    }

    /// The position of `key`, whose fingerprint is `print`, in `obj`.
    #[inline]
    pub(super) fn find(&self, obj: &Obj, key: &str, print: u64) -> Option<usize> {
        let entries = self.live(obj);
        if let Some(ix) = &obj.index {
            return ix.find(entries, key);
        }
        let prints = self.prints.get(obj.start..).unwrap_or_default();
        prints
            .iter()
            .enumerate()
            .find(|&(i, &p)| p == print && entries.get(i).is_some_and(|(k, _)| k == key))
            .map(|(i, _)| i)
    }

    /// Appends a key the caller knows is absent from `obj`.
    pub(super) fn push(
        &mut self,
        obj: &mut Obj,
        key: String,
        print: u64,
        value: Value,
        meta: KeyMeta,
    ) {
        if self.top == self.entries.len() {
            self.entries.push((key, value));
        } else {
            self.entries[self.top] = (key, value);
        }
        self.top += 1;
        self.note(obj, print, meta);
    }

    /// Appends a key the caller knows is absent from `obj`, with a null
    /// value, and returns the value's slot for the caller to fill.
    #[inline]
    pub(super) fn push_slot(
        &mut self,
        obj: &mut Obj,
        key: &str,
        print: u64,
        meta: KeyMeta,
    ) -> &mut Value {
        if self.top == self.entries.len() {
            self.entries.push((String::new(), Value::Null));
        }
        let slot = self.top;
        let name = &mut self.entries[slot].0;
        name.reserve_exact(key.len());
        name.push_str(key);
        self.top += 1;
        self.note(obj, print, meta);
        &mut self.entries[slot].1
    }

    /// Records the fingerprint and metadata of the entry just pushed, and
    /// indexes it when the object is large.
    #[inline]
    fn note(&mut self, obj: &mut Obj, print: u64, meta: KeyMeta) {
        self.prints.push(print);
        if let Some(m) = &mut self.meta {
            m.push(meta);
        }
        let entries = self.entries.get(obj.start..self.top).unwrap_or_default();
        let n = entries.len();
        match &mut obj.index {
            Some(ix) => ix.insert(entries, n - 1),
            None if n > SMALL => obj.index = Some(KeyIndex::build(entries, n)),
            None => {}
        }
    }

    /// The slot of the value at position `i` of `obj`, for last-write-wins.
    pub(super) fn slot_at(&mut self, obj: &Obj, i: usize, meta: KeyMeta) -> &mut Value {
        if let Some(m) = self.meta.as_mut().and_then(|m| m.get_mut(obj.start + i)) {
            *m = meta;
        }
        &mut self.entries[obj.start + i].1
    }

    /// Replaces the value at position `i` of `obj` (last write wins, first position kept).
    pub(super) fn set(&mut self, obj: &Obj, i: usize, value: Value, meta: KeyMeta) {
        *self.slot_at(obj, i, meta) = value;
    }

    /// Moves `obj`'s entries (and their key metadata) off the stack, leaving
    /// its slots empty for reuse.
    pub(super) fn close(&mut self, obj: Obj) -> (Vec<(String, Value)>, Option<Vec<KeyMeta>>) {
        let start = obj.start.min(self.top);
        let entries: Vec<(String, Value)> = self
            .entries
            .get_mut(start..self.top)
            .unwrap_or_default()
            .iter_mut()
            .map(std::mem::take)
            .collect();
        self.top = start;
        self.prints.truncate(start);
        let meta = self.meta.as_mut().map(|m| {
            let start = start.min(m.len());
            m.drain(start..).collect()
        });
        (entries, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_separate_typical_keys_and_agree_on_equal_ones() {
        let long = "x".repeat(100);
        let keys = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "id",
            "name",
            "created_at",
            "created_on",
            &long,
        ];
        for (i, a) in keys.iter().enumerate() {
            assert_eq!(
                fingerprint(a.as_bytes()),
                fingerprint(a.to_string().as_bytes())
            );
            for b in &keys[i + 1..] {
                assert_ne!(
                    fingerprint(a.as_bytes()),
                    fingerprint(b.as_bytes()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn stacked_objects_find_keys_before_and_after_indexing() {
        let mut stack = Stack::new(true);
        let meta = KeyMeta {
            quoted: false,
            at: 0,
        };
        let find =
            |stack: &Stack, obj: &Obj, k: &str| stack.find(obj, k, fingerprint(k.as_bytes()));
        let mut outer = stack.open();
        stack.push(
            &mut outer,
            "k0".to_owned(),
            fingerprint(b"k0"),
            Value::Null,
            meta,
        );
        let mut inner = stack.open();
        for i in 0..1000 {
            let k = format!("k{i}");
            assert_eq!(find(&stack, &inner, &k), None);
            let print = fingerprint(k.as_bytes());
            stack.push(&mut inner, k, print, Value::from(i), meta);
        }
        for i in (0..1000).rev() {
            assert_eq!(find(&stack, &inner, &format!("k{i}")), Some(i));
        }
        assert_eq!(find(&stack, &inner, "missing"), None);
        stack.set(&inner, 500, Value::Null, meta);
        let (entries, meta) = stack.close(inner);
        assert_eq!((entries.len(), entries.capacity()), (1000, 1000));
        assert_eq!(meta.map(|m| m.len()), Some(1000));
        assert_eq!(entries[500].1, Value::Null);
        assert_eq!(find(&stack, &outer, "k0"), Some(0));
        let (entries, _) = stack.close(outer);
        assert_eq!(entries.len(), 1);
    }
}

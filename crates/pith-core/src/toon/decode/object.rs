//! Building objects with cheap duplicate checks.
//!
//! Nearly every object has a handful of keys, where a linear scan beats any
//! hash; once an object grows past [`SMALL`] keys, a [`KeyIndex`] takes
//! over, so a keyed table or a root object with 50,000 keys stays linear.

use crate::Value;
use std::hash::{BuildHasher, RandomState};

/// Objects up to this many keys check duplicates by scanning.
pub(crate) const SMALL: usize = 16;

/// Where a key came from, kept only when path expansion needs it.
#[derive(Debug, Clone, Copy)]
pub(in crate::toon) struct KeyMeta {
    /// The key was a quoted token (quoted keys are never expanded).
    pub(in crate::toon) quoted: bool,
    /// Byte offset of the key, for conflict errors.
    pub(in crate::toon) at: usize,
}

/// A sequence of keys a [`KeyIndex`] can point into.
pub(crate) trait Keys {
    /// The key at position `i`.
    fn key(&self, i: usize) -> &str;
}

impl<T> Keys for [(crate::Key, T)] {
    fn key(&self, i: usize) -> &str {
        &self[i].0
    }
}

/// An open-addressing hash index from keys to positions in a separate key
/// sequence: the keys themselves are not copied.
///
/// The hasher is randomly keyed, so crafted keys cannot force collisions.
pub(crate) struct KeyIndex {
    slots: Vec<u32>,
    len: usize,
    hasher: RandomState,
}

const EMPTY: u32 = u32::MAX;

impl KeyIndex {
    /// An index over the first `n` keys of `keys`, which must be distinct.
    pub(crate) fn build<K: Keys + ?Sized>(keys: &K, n: usize) -> KeyIndex {
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
    pub(crate) fn find<K: Keys + ?Sized>(&self, keys: &K, key: &str) -> Option<usize> {
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
    pub(crate) fn insert<K: Keys + ?Sized>(&mut self, keys: &K, i: usize) {
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

/// An object under construction: its entries, in their final vector.
///
/// The vector is sized from the object last closed at the same depth, which
/// is exact for the uniform records of a list; finishing the object then
/// moves nothing. Fingerprints (and key metadata) live on the [`Stack`]
/// from `start` on.
pub(super) struct Obj {
    entries: Vec<(crate::Key, Value)>,
    start: usize,
    depth: usize,
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

/// An entry to fill in place. A constant, so that it is copied from
/// read-only data rather than assembled on the stack and copied again.
pub(super) const EMPTY_ENTRY: (crate::Key, Value) = (crate::Key::EMPTY, Value::Null);

/// What all objects under construction share: the fingerprints of their
/// keys, key metadata for path expansion, and size hints per depth.
pub(super) struct Stack {
    /// The fingerprint of every open entry's key.
    prints: Vec<u64>,
    /// Per open entry, kept only when path expansion is on.
    meta: Option<Vec<KeyMeta>>,
    /// The size of the object last finished at each depth.
    hints: Vec<usize>,
}

impl Stack {
    pub(super) fn new(expand: bool) -> Stack {
        Stack {
            prints: Vec::new(),
            meta: expand.then(Vec::new),
            hints: Vec::new(),
        }
    }

    /// Starts an object at value depth `depth`.
    #[inline]
    pub(super) fn open(&self, depth: usize) -> Obj {
        Obj {
            entries: Vec::new(),
            start: self.prints.len(),
            depth,
            index: None,
        }
    }

    /// The position of `key`, whose fingerprint is `print`, in `obj`.
    #[inline]
    pub(super) fn find(&self, obj: &Obj, key: &str, print: u64) -> Option<usize> {
        let entries = obj.entries.as_slice();
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
        self.size(obj);
        obj.entries.push((key.into(), value));
        self.note(obj, print, meta);
    }

    /// Appends a key the caller knows is absent from `obj`, with a null
    /// value, and returns the value's slot for the caller to fill. The key
    /// is written into its final place: copying a string or value that was
    /// just written field by field stalls the CPU's store forwarding.
    #[inline]
    pub(super) fn push_slot<'o>(
        &mut self,
        obj: &'o mut Obj,
        key: &str,
        print: u64,
        meta: KeyMeta,
    ) -> &'o mut Value {
        self.size(obj);
        obj.entries.push(EMPTY_ENTRY);
        let last = obj.entries.len() - 1;
        obj.entries[last].0 = crate::Key::from(key);
        // Indexing reads the key, so it comes after the key is written.
        self.note(obj, print, meta);
        &mut obj.entries[last].1
    }

    /// Gives an empty object the capacity of its predecessor at the same depth.
    #[inline]
    fn size(&self, obj: &mut Obj) {
        if obj.entries.capacity() == 0 {
            let hint = self.hints.get(obj.depth).copied().unwrap_or(0);
            obj.entries.reserve_exact(hint.max(1));
        }
    }

    /// Records the fingerprint and metadata of the entry just pushed, and
    /// indexes the object once it is large.
    #[inline]
    fn note(&mut self, obj: &mut Obj, print: u64, meta: KeyMeta) {
        self.prints.push(print);
        if let Some(m) = &mut self.meta {
            m.push(meta);
        }
        let n = obj.entries.len();
        match &mut obj.index {
            Some(ix) => ix.insert(obj.entries.as_slice(), n - 1),
            None if n > SMALL => obj.index = Some(KeyIndex::build(obj.entries.as_slice(), n)),
            None => {}
        }
    }

    /// The slot of the value at position `i` of `obj`, for last-write-wins.
    pub(super) fn slot_at<'o>(
        &mut self,
        obj: &'o mut Obj,
        i: usize,
        meta: KeyMeta,
    ) -> &'o mut Value {
        if let Some(m) = self.meta.as_mut().and_then(|m| m.get_mut(obj.start + i)) {
            *m = meta;
        }
        &mut obj.entries[i].1
    }

    /// Replaces the value at position `i` of `obj` (last write wins, first position kept).
    pub(super) fn set(&mut self, obj: &mut Obj, i: usize, value: Value, meta: KeyMeta) {
        *self.slot_at(obj, i, meta) = value;
    }

    /// Finishes `obj`: its entries, and their key metadata when kept.
    pub(super) fn close(&mut self, obj: Obj) -> (Vec<(crate::Key, Value)>, Option<Vec<KeyMeta>>) {
        let Obj {
            mut entries,
            start,
            depth,
            ..
        } = obj;
        if depth >= self.hints.len() {
            self.hints.resize(depth + 1, 0);
        }
        self.hints[depth] = entries.len();
        // A hint far off the mark (records of varied sizes) must not waste memory.
        if entries.capacity() > 2 * entries.len() + 4 {
            entries.shrink_to_fit();
        }
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
    fn nested_objects_find_keys_before_and_after_indexing() {
        let mut stack = Stack::new(true);
        let meta = KeyMeta {
            quoted: false,
            at: 0,
        };
        let find =
            |stack: &Stack, obj: &Obj, k: &str| stack.find(obj, k, fingerprint(k.as_bytes()));
        let mut outer = stack.open(1);
        stack.push(
            &mut outer,
            "k0".to_owned(),
            fingerprint(b"k0"),
            Value::Null,
            meta,
        );
        let mut inner = stack.open(2);
        for i in 0..1000 {
            let k = format!("k{i}");
            assert_eq!(find(&stack, &inner, &k), None);
            let print = fingerprint(k.as_bytes());
            *stack.push_slot(&mut inner, &k, print, meta) = Value::from(i);
        }
        for i in (0..1000).rev() {
            assert_eq!(find(&stack, &inner, &format!("k{i}")), Some(i));
        }
        assert_eq!(find(&stack, &inner, "missing"), None);
        stack.set(&mut inner, 500, Value::Null, meta);
        let (entries, meta_kept) = stack.close(inner);
        assert_eq!(entries.len(), 1000);
        assert_eq!(meta_kept.map(|m| m.len()), Some(1000));
        assert_eq!(entries[500].1, Value::Null);
        assert_eq!(entries[501], ("k501".into(), Value::from(501)));
        assert_eq!(find(&stack, &outer, "k0"), Some(0));
        // The next object at depth 2 is sized like the last one.
        let mut next = stack.open(2);
        *stack.push_slot(&mut next, "a", fingerprint(b"a"), meta) = Value::Null;
        assert_eq!(next.entries.capacity(), 1000);
        let (entries, _) = stack.close(next);
        assert!(entries.capacity() < 10);
        let (entries, _) = stack.close(outer);
        assert_eq!(entries.len(), 1);
    }
}

//! The data model: JSON values with ordered keys and exact numbers.
//!
//! [`Value`] is what every reader produces and every writer consumes. Objects
//! are [`Map`]s that keep keys in insertion order and never hold the same key
//! twice; numbers are exact [`Number`]s. Equality (`==`) is exact: same
//! variants, same key order, numbers by mathematical value.
//!
//! # Working with values
//!
//! The API is serde_json's, so code written against `serde_json::Value`
//! reads the same: the [`value!`](crate::value!) macro builds a value from
//! JSON-like syntax, `v["key"]` and `v[0]` index it (a missing key or
//! position reads as `null`), [`Value::pointer`] follows an RFC 6901 JSON
//! Pointer, `as_*` and `is_*` ask what a value holds, and `Display` writes
//! compact JSON (`{}`) or JSON indented by two spaces (`{:#}`).
//!
//! ```
//! use pith::{value, Value};
//!
//! let mut v = value!({
//!     "id": 7,
//!     "price": 0.1,
//!     "tags": ["a", "b"],
//!     "owner": { "name": "Ada" },
//! });
//! assert_eq!(v["tags"][1], value!("b"));
//! assert_eq!(v["owner"]["name"].as_str(), Some("Ada"));
//! assert!(v["missing"]["deeper"].is_null());
//! assert_eq!(v.pointer("/tags/0"), Some(&Value::from("a")));
//!
//! v["owner"]["email"] = value!("ada@example.com");
//! *v.pointer_mut("/id").unwrap() = value!(8);
//! assert_eq!(
//!     v.to_string(),
//!     r#"{"id":8,"price":0.1,"tags":["a","b"],"owner":{"name":"Ada","email":"ada@example.com"}}"#
//! );
//! assert_eq!(format!("{:#}", v["tags"]), "[\n  \"a\",\n  \"b\"\n]");
//! ```
//!
//! Where serde_json rounds, pith keeps the exact number: `value!(0.1)` is
//! the decimal 0.1, and `9007199254740993` stays odd.

mod convert;
mod index;
mod key;
mod macros;
mod pointer;

pub use index::Index;
pub use key::Key;
#[doc(hidden)]
pub use macros::{__literal, Literal};

use crate::number::Number;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

/// A JSON value.
#[derive(Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`
    #[default]
    Null,
    /// `true` or `false`
    Bool(bool),
    /// An exact number.
    Number(Number),
    /// A string of Unicode scalar values.
    String(String),
    /// An ordered sequence.
    Array(Vec<Value>),
    /// An object with ordered, unique keys.
    Object(Map),
}

impl Value {
    /// `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"` or `"object"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Whether the value is null, a boolean, a number or a string.
    pub fn is_primitive(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Object(_))
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The array, mutably, if this is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The object, mutably, if this is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// `Some(())` if this is `null`.
    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// Whether this is `true` or `false`.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The number as an `i64`, if it is an integer in `i64`'s range.
    ///
    /// ```
    /// use pith::value;
    /// assert_eq!(value!(-3).as_i64(), Some(-3));
    /// assert_eq!(value!(3.5).as_i64(), None);
    /// assert_eq!(value!(18446744073709551615u64).as_i64(), None);
    /// assert_eq!(value!("3").as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, if it is an integer in `u64`'s range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as the nearest `f64`, for any number (as serde_json's
    /// `as_f64`): `1e400` gives infinity and `9007199254740993` gives
    /// `9007199254740992.0`. [`Value::is_f64`] tells whether nothing is lost.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Number::to_f64)
    }

    /// Whether this is an integer that [`Value::as_i64`] returns.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is an integer that [`Value::as_u64`] returns.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is a number that an `f64` holds exactly, so that
    /// [`Value::as_f64`] loses nothing. Unlike serde_json's `is_f64`, which
    /// tells how a number is stored, this is also true of `1`: pith stores
    /// every number as an exact decimal.
    ///
    /// ```
    /// use pith::value;
    /// assert!(value!(0.5).is_f64() && value!(1).is_f64());
    /// assert!(!value!(9007199254740993u64).is_f64());
    /// ```
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_exact_f64)
    }

    /// The value, leaving `null` in its place (as serde_json's `take`).
    ///
    /// ```
    /// use pith::{value, Value};
    /// let mut v = value!({"a": [1, 2]});
    /// assert_eq!(v["a"].take(), value!([1, 2]));
    /// assert_eq!(v, value!({"a": null}));
    /// ```
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// The member `key` of an object or the element at a position of an
    /// array, or `None` for a missing key, a position past the end or a
    /// value of another type. `index` is a `&str`, a `String` or a `usize`
    /// (see [`Index`]).
    ///
    /// ```
    /// use pith::value;
    /// let v = value!({"rows": [10, 20]});
    /// assert_eq!(v.get("rows").and_then(|r| r.get(1)), Some(&value!(20)));
    /// assert_eq!(v.get("cols"), None);
    /// assert_eq!(v.get(0), None);
    /// ```
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The member or element `index`, mutably (see [`Value::get`]).
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The depth of the deepest container: 0 for a primitive, 1 for `[]` or `[1]`.
    pub fn depth(&self) -> usize {
        // Iterative, so that a value nested beyond the stack's reach is still
        // measured: the stack holds the children still to read of each
        // container on the path to the current one, so it never grows
        // beyond the depth (primitives are never pushed).
        enum Frame<'v> {
            Items(std::slice::Iter<'v, Value>),
            Members(std::slice::Iter<'v, (Key, Value)>),
        }
        fn frame(v: &Value) -> Option<Frame<'_>> {
            match v {
                Value::Array(a) => Some(Frame::Items(a.iter())),
                Value::Object(m) => Some(Frame::Members(m.entries().iter())),
                _ => None,
            }
        }
        let Some(root) = frame(self) else {
            return 0;
        };
        let mut max = 1;
        let mut stack = vec![root];
        while let Some(top) = stack.last_mut() {
            let next = match top {
                Frame::Items(items) => items.find_map(frame),
                Frame::Members(members) => members.find_map(|(_, v)| frame(v)),
            };
            match next {
                Some(child) => {
                    stack.push(child);
                    max = max.max(stack.len());
                }
                None => {
                    stack.pop();
                }
            }
        }
        max
    }
}

/// A [`Value`] taken apart by value. `Value` implements [`Drop`] (so that
/// dropping a value nested any depth never overflows the stack), and Rust
/// does not let a pattern move a field out of such a type: match on
/// [`Value::unpack`] instead, and turn the rest back with [`Value::from`].
///
/// ```
/// use pith::value::Unpacked;
/// use pith::Value;
/// let words = match Value::from(vec![Value::from("a"), Value::from("b")]).unpack() {
///     Unpacked::Array(items) => items.len(),
///     other => panic!("{:?}", Value::from(other)),
/// };
/// assert_eq!(words, 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unpacked {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// An exact number.
    Number(Number),
    /// A string.
    String(String),
    /// An array's elements.
    Array(Vec<Value>),
    /// An object's members.
    Object(Map),
}

impl Value {
    /// The value taken apart, to match on by value (see [`Unpacked`]).
    pub fn unpack(mut self) -> Unpacked {
        match &mut self {
            Value::Null => Unpacked::Null,
            Value::Bool(b) => Unpacked::Bool(*b),
            Value::Number(n) => Unpacked::Number(std::mem::replace(n, Number::from(0))),
            Value::String(s) => Unpacked::String(std::mem::take(s)),
            Value::Array(a) => Unpacked::Array(std::mem::take(a)),
            Value::Object(m) => Unpacked::Object(std::mem::take(m)),
        }
    }

    /// The elements, if this is an array; the value itself otherwise.
    pub fn into_array(self) -> Result<Vec<Value>, Value> {
        match self.unpack() {
            Unpacked::Array(a) => Ok(a),
            other => Err(other.into()),
        }
    }

    /// The string, if this is one; the value itself otherwise.
    pub fn into_string(self) -> Result<String, Value> {
        match self.unpack() {
            Unpacked::String(s) => Ok(s),
            other => Err(other.into()),
        }
    }

    /// The members, if this is an object; the value itself otherwise.
    pub fn into_object(self) -> Result<Map, Value> {
        match self.unpack() {
            Unpacked::Object(m) => Ok(m),
            other => Err(other.into()),
        }
    }
}

impl From<Unpacked> for Value {
    fn from(u: Unpacked) -> Value {
        match u {
            Unpacked::Null => Value::Null,
            Unpacked::Bool(b) => Value::Bool(b),
            Unpacked::Number(n) => Value::Number(n),
            Unpacked::String(s) => Value::String(s),
            Unpacked::Array(a) => Value::Array(a),
            Unpacked::Object(m) => Value::Object(m),
        }
    }
}

/// Dropping walks the value with a stack of its own: a value nested any
/// depth (200,000 arrays, say) is freed without deep recursion.
impl Drop for Value {
    fn drop(&mut self) {
        let deep = match self {
            Value::Array(a) => a.iter().any(has_children),
            Value::Object(m) => m.values().any(has_children),
            _ => false,
        };
        if !deep {
            // The children hold no containers with children: freeing them
            // recurses one level only.
            return;
        }
        let mut pending = Vec::new();
        take_children(self, &mut pending);
        while let Some(mut v) = pending.pop() {
            take_children(&mut v, &mut pending);
            // `v` goes here, its containers empty.
        }
    }
}

fn has_children(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    }
}

/// Moves those of `v`'s children that have children of their own onto
/// `pending`; the rest are freed with `v`.
fn take_children(v: &mut Value, pending: &mut Vec<Value>) {
    let children: &mut dyn Iterator<Item = &mut Value> = match v {
        Value::Array(a) => &mut a.iter_mut(),
        Value::Object(m) => &mut m.values_mut(),
        _ => return,
    };
    for c in children {
        if has_children(c) {
            pending.push(std::mem::take(c));
        }
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(a) => f.debug_list().entries(a).finish(),
            Value::Object(m) => f.debug_map().entries(m.iter()).finish(),
        }
    }
}

/// An object: keys in insertion order, each key at most once.
///
/// Small maps (fewer than 16 keys, nearly every object of a real document)
/// are a plain vector of entries, looked up by scanning, which beats
/// hashing at that size. From 16 keys on, a map also keeps an index from
/// key hashes (SipHash, randomly keyed, so crafted keys cannot make it
/// slow) to positions, so lookups and inserts take constant time at any
/// width; iteration is always in insertion order. A map is three words
/// either way: the large form is boxed.
#[derive(Clone, Default)]
pub struct Map {
    repr: Repr,
}

/// Maps with at least this many keys keep an index.
const INDEXED: usize = 16;

#[derive(Clone)]
enum Repr {
    Small(Vec<(Key, Value)>),
    Large(Box<Large>),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Small(Vec::new())
    }
}

#[derive(Clone)]
struct Large {
    entries: Vec<(Key, Value)>,
    index: KeyIndex,
}

/// Key hash → position, for the entries of a large map.
#[derive(Clone)]
struct KeyIndex {
    state: RandomState,
    slots: HashMap<u64, usize, BuildHasherDefault<Prehashed>>,
    /// Positions of keys whose hash another key already has (none, in
    /// practice: 64-bit hashes of a randomly keyed SipHash).
    clashes: Vec<usize>,
}

impl KeyIndex {
    fn build(entries: &[(Key, Value)]) -> KeyIndex {
        let mut index = KeyIndex {
            state: RandomState::new(),
            slots: HashMap::with_capacity_and_hasher(entries.len(), Default::default()),
            clashes: Vec::new(),
        };
        for (i, (k, _)) in entries.iter().enumerate() {
            // Each key is new: recorded as entry `i`.
            let _ = index.find_or_insert(&entries[..i], k);
        }
        index
    }

    /// The position of `key` in `entries`, or — when it is not there — the
    /// entry `key` would be appended as, which it records, hashing `key`
    /// once for both.
    fn find_or_insert(&mut self, entries: &[(Key, Value)], key: &str) -> Result<usize, ()> {
        let hash = self.state.hash_one(key);
        match self.slots.entry(hash) {
            Entry::Vacant(slot) => {
                slot.insert(entries.len());
                Err(())
            }
            Entry::Occupied(slot) => {
                let i = *slot.get();
                if entries[i].0 == *key {
                    return Ok(i);
                }
                match self.clashes.iter().copied().find(|&i| entries[i].0 == *key) {
                    Some(i) => Ok(i),
                    None => {
                        self.clashes.push(entries.len());
                        Err(())
                    }
                }
            }
        }
    }

    fn find(&self, entries: &[(Key, Value)], key: &str) -> Option<usize> {
        let hash = self.state.hash_one(key);
        match self.slots.get(&hash) {
            Some(&i) if entries[i].0 == key => Some(i),
            _ => self.clashes.iter().copied().find(|&i| entries[i].0 == key),
        }
    }
}

/// Whether two strings are equal, compared inline: keys and short values are
/// compared once per row or cell, and most are a few bytes long, where a
/// call to `memcmp` costs more than the comparison.
#[inline(always)]
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// A hasher for values that are already hashes.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64`s are ever hashed; fold anything else in for completeness.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.entries() == other.entries()
    }
}

impl Eq for Map {}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries. (Its index, from 16 keys on,
    /// grows with it: made up front for `n` keys it cost more than it saved
    /// in the scaling benchmark's wide shapes.)
    pub fn with_capacity(n: usize) -> Map {
        Map {
            repr: Repr::Small(Vec::with_capacity(n)),
        }
    }

    fn entries(&self) -> &[(Key, Value)] {
        match &self.repr {
            Repr::Small(e) => e,
            Repr::Large(l) => &l.entries,
        }
    }

    /// The entries, to change values (never keys: the index holds them).
    fn entries_mut(&mut self) -> &mut [(Key, Value)] {
        match &mut self.repr {
            Repr::Small(e) => e,
            Repr::Large(l) => &mut l.entries,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The value for `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.index_of(key).map(|i| &self.entries()[i].1)
    }

    /// The value for `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.index_of(key)?;
        Some(&mut self.entries_mut()[i].1)
    }

    /// The position of `key` in the key order.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        match &self.repr {
            Repr::Small(e) => e.iter().position(|(k, _)| k == key),
            Repr::Large(l) => l.index.find(&l.entries, key),
        }
    }

    /// The position of `key`, looking at position `hint` first: a reader
    /// that visits a map's keys in the order they were written (rows under
    /// their header, an object under its declared fields) passes the
    /// position after the last key it found, and finds each key with one
    /// comparison instead of a hashed lookup.
    ///
    /// ```
    /// let v = pith::value!({"id": 1, "name": "Ada", "admin": true});
    /// let m = v.as_object().unwrap();
    /// let mut next = 0;
    /// for key in ["id", "name", "admin"] {
    ///     let i = m.index_of_from(key, next).unwrap();
    ///     next = i + 1;
    /// }
    /// assert_eq!(m.index_of_from("id", 2), Some(0));
    /// assert_eq!(m.index_of_from("email", 0), None);
    /// ```
    #[inline]
    pub fn index_of_from(&self, key: &str, hint: usize) -> Option<usize> {
        match self.entries().get(hint) {
            Some((k, _)) if same(k, key) => Some(hint),
            _ => self.index_of(key),
        }
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.index_of(key).is_some()
    }

    /// Sets `key` to `value`: an existing key keeps its place and its old
    /// value is returned; a new key goes last.
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        if let Repr::Large(l) = &mut self.repr {
            return match l.index.find_or_insert(&l.entries, &key) {
                Ok(i) => Some(std::mem::replace(&mut l.entries[i].1, value)),
                Err(()) => {
                    l.entries.push((key, value));
                    None
                }
            };
        }
        match self.index_of(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries_mut()[i].1, value)),
            None => {
                self.push_unique(key, value);
                None
            }
        }
    }

    /// Appends an entry whose key the caller knows is not present yet.
    ///
    /// Readers use this after their own duplicate check; it is not public
    /// because a wrong call would break the one-key-once invariant.
    pub(crate) fn push_unique(&mut self, key: impl Into<Key>, value: Value) {
        let key = key.into();
        debug_assert!(!self.contains_key(&key), "duplicate key {key:?}");
        match &mut self.repr {
            Repr::Small(e) => {
                e.push((key, value));
                if e.len() >= INDEXED {
                    let entries = std::mem::take(e);
                    self.repr = Repr::Large(Box::new(Large {
                        index: KeyIndex::build(&entries),
                        entries,
                    }));
                }
            }
            Repr::Large(l) => {
                let _ = l.index.find_or_insert(&l.entries, &key);
                l.entries.push((key, value));
            }
        }
    }

    /// A map over entries whose keys the caller has already checked to be
    /// unique: readers that deduplicate with their own index build large
    /// objects without repeated checks.
    pub(crate) fn from_unique_entries(entries: Vec<(Key, Value)>) -> Map {
        let repr = if entries.len() >= INDEXED {
            Repr::Large(Box::new(Large {
                index: KeyIndex::build(&entries),
                entries,
            }))
        } else {
            Repr::Small(entries)
        };
        Map { repr }
    }

    /// Removes `key`, keeping the order of the others. Takes time in
    /// proportion to the entries after it (the index of a large map is
    /// rebuilt); to drop many keys, build a new map instead.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.index_of(key)?;
        match &mut self.repr {
            Repr::Small(e) => Some(e.remove(i).1),
            Repr::Large(l) => {
                let (_, v) = l.entries.remove(i);
                l.index = KeyIndex::build(&l.entries);
                Some(v)
            }
        }
    }

    /// Entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Key, &Value)> + DoubleEndedIterator {
        self.entries().iter().map(|(k, v)| (k, v))
    }

    /// Entries in order, values mutable.
    pub fn iter_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = (&Key, &mut Value)> + DoubleEndedIterator {
        self.entries_mut().iter_mut().map(|(k, v)| (&*k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Key> + DoubleEndedIterator {
        self.entries().iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + DoubleEndedIterator {
        self.entries().iter().map(|(_, v)| v)
    }

    /// Values in key order, mutable.
    pub fn values_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = &mut Value> + DoubleEndedIterator {
        self.entries_mut().iter_mut().map(|(_, v)| v)
    }

    /// The entry at position `i` of the key order.
    pub fn get_index(&self, i: usize) -> Option<(&Key, &Value)> {
        self.entries().get(i).map(|(k, v)| (k, v))
    }

    pub(crate) fn into_entries(self) -> Vec<(Key, Value)> {
        match self.repr {
            Repr::Small(e) => e,
            Repr::Large(l) => l.entries,
        }
    }
}

/// Entries in order, each key as a `String` (as serde_json's map gives
/// them).
impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter =
        std::iter::Map<std::vec::IntoIter<(Key, Value)>, fn((Key, Value)) -> (String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_entries().into_iter().map(|(k, v)| (k.into(), v))
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Key, Value)>,
        fn(&'a (Key, Value)) -> (&'a Key, &'a Value),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.entries().iter().map(|(k, v)| (k, v))
    }
}

/// Later duplicates replace earlier values in place (as [`Map::insert`] does).
impl<K: Into<Key>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        let iter = iter.into_iter();
        let mut m = Map::with_capacity(iter.size_hint().0);
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_insertion_order_and_unique_keys() {
        let mut m = Map::new();
        assert_eq!(m.insert("b", Value::from(1)), None);
        assert_eq!(m.insert("a", Value::from(2)), None);
        assert_eq!(m.insert("b", Value::from(3)), Some(Value::from(1)));
        let keys: Vec<_> = m.keys().cloned().collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(m.get("b"), Some(&Value::from(3)));
        assert_eq!(m.remove("b"), Some(Value::from(3)));
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn maps_made_with_room_behave_as_grown_ones_at_every_width() {
        for n in [0, 1, 15, 16, 17, 300] {
            let mut roomy = Map::with_capacity(n);
            let mut grown = Map::new();
            for i in 0..n {
                assert_eq!(roomy.insert(format!("k{i}"), Value::from(i)), None);
                grown.insert(format!("k{i}"), Value::from(i));
            }
            // A key set again keeps its place and hands back its old value.
            for i in (0..n).step_by(7) {
                assert_eq!(
                    roomy.insert(format!("k{i}"), Value::Null),
                    Some(Value::from(i))
                );
                grown.insert(format!("k{i}"), Value::Null);
            }
            assert_eq!(roomy, grown, "width {n}");
            assert_eq!(roomy.len(), n);
            for i in 0..n {
                let key = format!("k{i}");
                assert_eq!(roomy.index_of(&key), Some(i), "width {n}");
                // Found from any hint, the right one or not.
                assert_eq!(roomy.index_of_from(&key, i), Some(i));
                assert_eq!(roomy.index_of_from(&key, i + 1), Some(i));
                assert_eq!(roomy.index_of_from(&key, 0), Some(i));
            }
            assert_eq!(roomy.index_of_from("absent", 0), None);
            assert_eq!(roomy.index_of_from("absent", n + 5), None);
            roomy.insert("last", Value::Bool(true));
            assert_eq!(roomy.index_of("last"), Some(n));
        }
    }

    #[test]
    fn wide_maps_keep_order_and_find_every_key() {
        assert_eq!(std::mem::size_of::<Map>(), 3 * std::mem::size_of::<usize>());
        let mut m = Map::new();
        for i in 0..1000 {
            assert_eq!(m.insert(format!("k{i}"), Value::from(i)), None);
        }
        assert_eq!(m.insert("k500", Value::Null), Some(Value::from(500)));
        for i in 0..1000 {
            assert_eq!(m.index_of(&format!("k{i}")), Some(i));
        }
        assert_eq!(m.get("k1000"), None);
        assert_eq!(m.remove("k0"), Some(Value::from(0)));
        assert_eq!(m.remove("k0"), None);
        assert_eq!(m.get("k999"), Some(&Value::from(999)));
        assert_eq!(m.index_of("k999"), Some(998));
        m.insert("k0", Value::from(0));
        let keys: Vec<&str> = m.keys().map(Key::as_str).collect();
        assert_eq!(keys[0], "k1");
        assert_eq!(keys[999], "k0");
        // Small and large maps with the same entries are equal.
        let entries: Vec<(Key, Value)> = (0..20)
            .map(|i| (format!("{i}").into(), Value::Null))
            .collect();
        let mut grown = Map::new();
        for (k, v) in entries.iter().cloned() {
            grown.insert(k, v);
        }
        assert_eq!(grown, Map::from_unique_entries(entries.clone()));
        for _ in 0..10 {
            let k = grown.keys().next().unwrap().clone();
            grown.remove(&k);
        }
        let tail = Map::from_unique_entries(entries[10..].to_vec());
        assert_eq!(grown, tail);
        assert_eq!(grown.get("15"), Some(&Value::Null));
    }

    #[test]
    fn equality_is_exact_about_key_order() {
        let ab: Map = [("a", Value::Null), ("b", Value::Null)]
            .into_iter()
            .collect();
        let ba: Map = [("b", Value::Null), ("a", Value::Null)]
            .into_iter()
            .collect();
        assert_ne!(Value::Object(ab), Value::Object(ba));
    }

    #[test]
    fn depth_counts_containers_without_recursion() {
        let mut v = Value::Null;
        for _ in 0..1_000 {
            v = Value::Array(vec![v]);
        }
        assert_eq!(v.depth(), 1_000);
    }

    #[test]
    fn depth_is_that_of_the_deepest_branch_wherever_it_is() {
        fn reference(v: &Value) -> usize {
            match v {
                Value::Array(a) => 1 + a.iter().map(reference).max().unwrap_or(0),
                Value::Object(m) => 1 + m.values().map(reference).max().unwrap_or(0),
                _ => 0,
            }
        }
        for text in [
            "1",
            "[]",
            "{}",
            "[1,2,3]",
            r#"{"a":[],"b":{}}"#,
            r#"[[[]],[],[[[1]]],{"x":[[]]}]"#,
            r#"{"a":1,"b":{"c":{"d":[{"e":{}}]}},"f":[2]}"#,
            r#"[{"a":1},{"b":[[[[{}]]]]},3,"s",[{"c":null}]]"#,
        ] {
            let v = crate::json::parse(text).unwrap();
            assert_eq!(v.depth(), reference(&v), "{text}");
        }
    }
}

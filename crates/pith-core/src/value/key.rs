//! [`Key`]: an object key, held in place when short.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Keys of at most this many bytes are held in the key itself.
const INLINE: usize = 22;

/// An object key: an immutable string that reads as a `&str` (it
/// dereferences to one, and compares, hashes and orders as one).
///
/// A key of at most 22 bytes (nearly every key of a real document) is held
/// inside the key itself, without an allocation of its own; a longer one
/// on the heap. A key takes 24 bytes either way, as a `String` does: an
/// object's members cost what they did, less the allocator's minimum block
/// (32 bytes with glibc's malloc) that each short `String` key took.
///
/// ```
/// use pith::{value, Key};
/// let v = value!({"id": 1, "a key longer than twenty-two bytes": 2});
/// let keys: Vec<&Key> = v.as_object().unwrap().keys().collect();
/// assert_eq!(keys, ["id", "a key longer than twenty-two bytes"]);
/// assert_eq!(keys[0].len(), 2);
/// let owned: String = keys[0].clone().into();
/// assert_eq!(owned, "id");
/// ```
#[derive(Clone)]
pub struct Key(Repr);

#[derive(Clone)]
enum Repr {
    /// The first `len` bytes of `bytes` are the key's UTF-8.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl Key {
    /// The empty key.
    pub const EMPTY: Key = Key(Repr::Inline {
        len: 0,
        bytes: [0; INLINE],
    });

    /// The key as a string slice.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => inline_str(&bytes[..usize::from(*len)]),
            Repr::Heap(s) => s,
        }
    }

    /// The key's bytes (UTF-8).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// Whether the key is held inline (at most 22 bytes), without a heap
    /// allocation of its own.
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }
}

/// The `str` of bytes copied from one. Only [`Key`]'s constructors write
/// inline bytes, always the whole of a `&str`, so they are UTF-8.
#[allow(unsafe_code)]
#[inline]
fn inline_str(bytes: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(bytes).is_ok());
    // SAFETY: the bytes are a copy of a `&str` (see `From<&str> for Key`),
    // never changed after: keys are immutable.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

impl From<&str> for Key {
    #[inline]
    fn from(s: &str) -> Key {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Key(Repr::Inline {
                len: s.len() as u8,
                bytes,
            })
        } else {
            Key(Repr::Heap(s.into()))
        }
    }
}

impl From<String> for Key {
    #[inline]
    fn from(s: String) -> Key {
        if s.len() <= INLINE {
            Key::from(s.as_str())
        } else {
            Key(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key::from(s.as_str())
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Key {
        k.clone()
    }
}

impl From<Box<str>> for Key {
    fn from(s: Box<str>) -> Key {
        if s.len() <= INLINE {
            Key::from(&*s)
        } else {
            Key(Repr::Heap(s))
        }
    }
}

impl From<Cow<'_, str>> for Key {
    fn from(s: Cow<'_, str>) -> Key {
        match s {
            Cow::Borrowed(s) => Key::from(s),
            Cow::Owned(s) => Key::from(s),
        }
    }
}

impl From<char> for Key {
    fn from(c: char) -> Key {
        Key::from(c.encode_utf8(&mut [0; 4]) as &str)
    }
}

impl From<Key> for String {
    fn from(k: Key) -> String {
        match k.0 {
            Repr::Inline { .. } => k.as_str().to_owned(),
            Repr::Heap(s) => s.into_string(),
        }
    }
}

impl From<&Key> for String {
    fn from(k: &Key) -> String {
        k.as_str().to_owned()
    }
}

impl Default for Key {
    fn default() -> Key {
        Key::from("")
    }
}

impl Deref for Key {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Key {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Key {}

impl PartialEq<str> for Key {
    #[inline]
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as the `str` does, so that maps of keys are looked up by `&str`.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_key_is_as_large_as_a_string_and_short_ones_are_inline() {
        assert_eq!(std::mem::size_of::<Key>(), std::mem::size_of::<String>());
        for text in [
            "",
            "a",
            "id",
            "é☃",
            "exactly twenty-two by",
            "exactly twenty-two byt",
        ] {
            let k = Key::from(text);
            assert_eq!(k.is_inline(), text.len() <= INLINE, "{text:?}");
            assert_eq!(k.as_str(), text);
            assert_eq!(Key::from(text.to_owned()), k);
            assert_eq!(String::from(k.clone()), text);
        }
        let long = "a key of more than twenty-two bytes";
        let k = Key::from(long.to_owned());
        assert!(!k.is_inline());
        assert_eq!(k, long);
        assert_eq!(String::from(k), long);
    }

    #[test]
    fn keys_compare_hash_and_order_as_their_strings() {
        let a = Key::from("alpha");
        let b = Key::from("a key of more than twenty-two bytes");
        let owned = String::from("alpha");
        assert_eq!(a, "alpha");
        assert_eq!("alpha", a);
        assert_eq!(a, owned);
        assert_eq!(owned, a);
        assert_eq!(*"alpha", a);
        assert_ne!(a, b);
        assert_eq!(a.cmp(&b), "alpha".cmp(b.as_str()));
        let mut m: HashMap<Key, u8> = HashMap::new();
        m.insert(a.clone(), 1);
        assert_eq!(m.get("alpha"), Some(&1));
        assert_eq!(format!("{a} {a:?}"), "alpha \"alpha\"");
    }
}

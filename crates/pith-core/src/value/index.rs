//! `v["key"]` and `v[0]`: indexing a [`Value`] by key or position, with
//! serde_json's rules (see [`Index`]).

use super::{Map, Value};

/// A key (`str`, `String`, [`Key`](super::Key)) or position (`usize`) that indexes into a
/// [`Value`], with [`Value::get`], [`Value::get_mut`], `v[..]` and
/// `v[..] = ..`. Sealed: pith implements it for those types and references
/// to them only.
///
/// Reading (`Index`) never panics: a missing key, a position past the end
/// or a value of another type gives `null` (one shared static value).
/// Writing (`IndexMut`) panics only where serde_json's does:
///
/// * `v["key"] = x` on an object inserts a missing key (last, as
///   [`Map::insert`] does); on `null` it first makes `v` an empty object;
///   on any other type it panics.
/// * `v[i] = x` on an array needs `i` below the length; past the end, or on
///   any other type (`null` included), it panics.
///
/// [`Value::get`] and [`Value::get_mut`] ask the same without panicking.
///
/// ```
/// use pith::{value, Value};
///
/// let mut v = value!({"rows": [{"id": 1}]});
/// assert_eq!(v["rows"][0]["id"], value!(1));
/// assert_eq!(v["rows"][5], Value::Null);
/// assert_eq!(v["rows"]["id"], Value::Null);
///
/// v["rows"][0]["name"] = value!("Ada");
/// v["meta"]["pages"] = value!(1); // `meta` was missing: null, then an object
/// assert_eq!(v.to_string(), r#"{"rows":[{"id":1,"name":"Ada"}],"meta":{"pages":1}}"#);
/// ```
pub trait Index: private::Sealed {
    /// The member or element, if `v` has it.
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;

    /// The member or element, mutably, if `v` has it.
    #[doc(hidden)]
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;

    /// The member or element for `v[..] = ..`: a missing key is inserted as
    /// `null` (into `null` made an empty object first); anything else
    /// missing panics, naming the index and what `v` is.
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for super::super::Key {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|items| items.get(*self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut().and_then(|items| items.get_mut(*self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        let kind = v.type_name();
        match v {
            Value::Array(items) => {
                let len = items.len();
                items.get_mut(*self).unwrap_or_else(|| {
                    panic!("cannot write index {self} of a JSON array of length {len}")
                })
            }
            _ => panic!("cannot write index {self} of a JSON {kind}"),
        }
    }
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|m| m.get(self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut().and_then(|m| m.get_mut(self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_null() {
            *v = Value::Object(Map::new());
        }
        let kind = v.type_name();
        match v {
            Value::Object(m) => {
                let i = match m.index_of(self) {
                    Some(i) => i,
                    None => {
                        m.push_unique(self.to_owned(), Value::Null);
                        m.len() - 1
                    }
                };
                &mut m.entries_mut()[i].1
            }
            _ => panic!("cannot write key {self:?} of a JSON {kind}"),
        }
    }
}

/// Owned keys index as the `str` they hold.
macro_rules! index_as_str {
    ($($t:ty),*) => {$(
        impl Index for $t {
            fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
                self.as_str().index_into(v)
            }

            fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
                self.as_str().index_into_mut(v)
            }

            fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
                self.as_str().index_or_insert(v)
            }
        }
    )*};
}

index_as_str!(String, super::Key);

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_or_insert(v)
    }
}

/// What a missing key or position reads as.
static NULL: Value = Value::Null;

/// `v["key"]` or `v[i]`: the member or element, or `null` when `v` has none
/// (a missing key, a position past the end, a value of another type).
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;

    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

/// `v["key"] = x` or `v[i] = x` (see [`Index`] for what panics: writing a
/// position past an array's end, or into a value that is neither the
/// container the index needs nor, for a key, `null`).
impl<I: Index> std::ops::IndexMut<I> for Value {
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_or_insert(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        crate::json::parse(r#"{"a":[1,{"b":null}],"c":"x"}"#).unwrap()
    }

    #[test]
    fn reading_a_missing_member_gives_null_and_never_panics() {
        let v = sample();
        assert_eq!(v["a"][1], crate::json::parse(r#"{"b":null}"#).unwrap());
        assert_eq!(v["a"][0], Value::from(1));
        for missing in [
            &v["z"],
            &v["a"][2],
            &v["a"]["b"],
            &v["c"][0],
            &v[0],
            &v["c"]["x"],
        ] {
            assert!(std::ptr::eq(missing, &NULL));
        }
        assert_eq!(v[&String::from("c")], Value::from("x"));
        assert_eq!(v.get("a").and_then(|a| a.get(usize::MAX)), None);
    }

    #[test]
    fn writing_a_key_inserts_it_last_and_turns_null_into_an_object() {
        let mut v = sample();
        v["a"][1]["b"]["d"] = Value::from(2);
        v["e"] = Value::from(true);
        v["a"][0] = Value::from("one");
        assert_eq!(
            v.to_string(),
            r#"{"a":["one",{"b":{"d":2}}],"c":"x","e":true}"#
        );
        let mut n = Value::Null;
        n[String::from("k")] = Value::Null;
        assert_eq!(n.to_string(), r#"{"k":null}"#);
        *v.get_mut("c").unwrap() = Value::Null;
        assert_eq!(v.get_mut("nothing"), None);
        assert!(v["c"].is_null());
    }

    #[test]
    fn wide_objects_insert_through_the_index_too() {
        let mut v = Value::Null;
        for i in 0..40 {
            v[format!("k{i}").as_str()] = Value::from(i);
        }
        v["k3"] = Value::from(-3);
        let m = v.as_object().unwrap();
        assert_eq!(m.len(), 40);
        assert_eq!(m.index_of("k39"), Some(39));
        assert_eq!(v["k3"], Value::from(-3));
    }

    #[test]
    #[should_panic(expected = "cannot write index 2 of a JSON array of length 2")]
    fn writing_past_the_end_panics_as_serde_json_does() {
        let mut v = sample();
        v["a"][2] = Value::Null;
    }

    #[test]
    #[should_panic(expected = "cannot write key \"k\" of a JSON string")]
    fn writing_a_key_into_a_string_panics() {
        let mut v = sample();
        v["c"]["k"] = Value::Null;
    }

    #[test]
    #[should_panic(expected = "cannot write index 0 of a JSON null")]
    fn writing_a_position_into_null_panics() {
        let mut v = Value::Null;
        v[0] = Value::Null;
    }
}

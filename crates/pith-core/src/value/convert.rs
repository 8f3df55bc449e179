//! Conversions into a [`Value`]: `From` for Rust's primitive types,
//! strings, options, slices, vectors and maps, and `FromIterator` for arrays
//! and objects, as serde_json has them.
//!
//! ```
//! use pith::{value, Value};
//!
//! assert_eq!(Value::from(7u8), value!(7));
//! assert_eq!(Value::from(0.1), value!(0.1));
//! assert_eq!(Value::from(f64::NAN), Value::Null);
//! assert_eq!(Value::from(None::<i32>), Value::Null);
//! assert_eq!(Value::from(vec![Some("a"), None]), value!(["a", null]));
//! let squares: Value = (1..4).map(|i| i * i).collect();
//! assert_eq!(squares, value!([1, 4, 9]));
//! let object: Value = [("b", 1), ("a", 2)].into_iter().collect();
//! assert_eq!(object.to_string(), r#"{"b":1,"a":2}"#);
//! ```

use super::{Map, Value};
use crate::number::Number;
use std::borrow::Cow;

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::String(s.into_owned())
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

/// `()` is `null`, as serde writes it.
impl From<()> for Value {
    fn from((): ()) -> Value {
        Value::Null
    }
}

macro_rules! value_from_int {
    ($($t:ty)*) => {$(
        /// The exact integer.
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                Value::Number(Number::from(v))
            }
        }
    )*};
}
value_from_int!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

/// The shortest decimal that reads back as the same `f64` (`0.1` is the
/// number 0.1, as `JSON.stringify` writes it); NaN and the infinities, which
/// JSON has no text for, are `null`, as serde_json's `From<f64>` makes them.
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// The shortest decimal that reads back as the same `f32` (`1.1f32` is
/// 1.1); NaN and the infinities are `null`.
impl From<f32> for Value {
    fn from(f: f32) -> Value {
        Number::from_f32(f).map_or(Value::Null, Value::Number)
    }
}

/// `None` is `null`; `Some(x)` is `x`'s value.
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(o: Option<T>) -> Value {
        o.map_or(Value::Null, Into::into)
    }
}

/// An array of the elements' values.
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

/// An array of the elements' values.
impl<T: Clone + Into<Value>> From<&[T]> for Value {
    fn from(items: &[T]) -> Value {
        Value::Array(items.iter().cloned().map(Into::into).collect())
    }
}

/// An array of the elements' values.
impl<T: Into<Value>, const N: usize> From<[T; N]> for Value {
    fn from(items: [T; N]) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

/// An array of the items' values.
impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}

/// An object, keys in the order the iterator yields them; a key that comes
/// again replaces the earlier value in its place (as [`Map::insert`] does).
impl<K: Into<crate::Key>, V: Into<Value>> FromIterator<(K, V)> for Value {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        let mut map = Map::new();
        for (k, v) in iter {
            map.insert(k, v.into());
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Value {
        Value::Number(Number::parse(text).unwrap())
    }

    #[test]
    fn integers_are_exact_at_every_width() {
        assert_eq!(Value::from(u64::MAX), n("18446744073709551615"));
        assert_eq!(Value::from(i128::MIN), n(&i128::MIN.to_string()));
        assert_eq!(Value::from(u128::MAX), n(&u128::MAX.to_string()));
        assert_eq!(Value::from(-1isize), n("-1"));
        assert_eq!(Value::from(0u8), n("0"));
    }

    #[test]
    fn floats_are_their_shortest_decimal_and_non_finite_ones_null() {
        assert_eq!(Value::from(0.1f64), n("0.1"));
        assert_eq!(Value::from(1.1f32), n("1.1"));
        assert_eq!(Value::from(-0.0f64), n("0"));
        assert_eq!(Value::from(5e-324f64), n("5e-324"));
        assert_eq!(Value::from(f32::MIN_POSITIVE), n("1.1754944e-38"));
        for f in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(Value::from(f), Value::Null);
            assert_eq!(Value::from(f as f32), Value::Null);
        }
    }

    #[test]
    fn containers_convert_their_elements() {
        let words: &[&str] = &["a", "b"];
        let expected = Value::Array(vec![Value::from("a"), Value::from("b")]);
        assert_eq!(Value::from(words), expected);
        assert_eq!(Value::from(vec!["a", "b"]), expected);
        assert_eq!(Value::from(["a", "b"]), expected);
        assert_eq!(words.iter().copied().collect::<Value>(), expected);
        assert_eq!(Value::from(Some(2.5)), n("2.5"));
        assert_eq!(Value::from(Some(None::<bool>)), Value::Null);
        assert_eq!(Value::from(Cow::Borrowed("x")), Value::from("x"));
        assert_eq!(Value::from(()), Value::Null);
    }

    #[test]
    fn collected_pairs_keep_their_order_and_one_value_per_key() {
        let v: Value = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        let m = v.as_object().unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(m.get("b"), Some(&Value::from(3)));
        let empty: Value = std::iter::empty::<(String, Value)>().collect();
        assert_eq!(empty, Value::Object(Map::new()));
    }
}

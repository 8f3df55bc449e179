//! The serde bridge: [`to_value`] turns any `Serialize` type into a
//! [`Value`], [`from_value`] turns a [`Value`] into any `Deserialize` type,
//! and [`Value`], [`Map`] and [`Number`] implement both traits. On top of
//! them, `entry.rs` has serde's usual entry points for both texts:
//! `pith::json::{to_string, to_writer, to_vec, from_str, from_slice,
//! from_reader, …}` and
//! `pith::toon::{to_string, to_writer, to_vec, from_str, from_slice,
//! from_reader}`.
//!
//! # Numbers
//!
//! A [`Number`] is handed to other serializers as an `i64`, `u64`, `i128` or
//! `u128` when it is such an integer, as an `f64` when an `f64` holds it exactly,
//! and otherwise the serializer gets an error naming the number: it is never
//! rounded silently. Between pith's own values (a `Value` field inside a type
//! passed to [`to_value`], or a `Value` read by [`from_value`]) every number
//! passes exactly.
//!
//! Deserializing a [`Value`] accepts every serde number: integers exactly,
//! floats as the shortest decimal that reads back as the same `f64`; NaN and
//! the infinities are refused. Duplicate keys are refused.
//!
//! # How Rust data becomes a value ([`to_value`])
//!
//! As serde_json does it: structs become objects with fields in declaration
//! order, `None`, `()` and unit structs become `null`, enums are externally
//! tagged (`"Unit"`, `{"Newtype": …}`, `{"Tuple": […]}`, `{"Struct": {…}}`),
//! byte strings become arrays of numbers, and map keys that are strings,
//! chars, integers or booleans become their text; other keys are
//! [`ErrorKind::Unrepresentable`](crate::ErrorKind::Unrepresentable). A map
//! that yields the same key twice is an
//! [`ErrorKind::DuplicateKey`](crate::ErrorKind::DuplicateKey) error.
//!
//! `f64` NaN and infinities become `null`, as TOON spec §3 (encoding
//! normalization) requires of every encoder. An `f32` becomes the shortest
//! decimal that reads back as the same `f32` (`1.1f32` is `1.1`).
//!
//! # How a value becomes Rust data ([`from_value`])
//!
//! Numbers reach the visitor as `i64` or `u64` when they fit, else as `i128`
//! or `u128`, else as `f64`; a type that asks for a float gets the nearest
//! `f64`. `null` is `None`; an enum is read from a string (unit variant) or
//! an object with a single key. A mismatch is an
//! [`ErrorKind::Type`](crate::ErrorKind::Type) error whose path names where
//! it happened (`rows[2].price`) and whose message says what was expected.
//!
//! Both directions refuse nesting deeper than
//! [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH) with
//! [`ErrorKind::DepthLimit`](crate::ErrorKind::DepthLimit).

mod de;
pub(crate) mod entry;
mod ser;

use crate::{Error, ErrorKind, Map, Number, Result, Value};
use ::serde::de::{DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use ::serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Converts any `Serialize` value into a [`Value`].
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Row { id: u32, name: &'static str, tags: Vec<&'static str> }
///
/// let v = pith::to_value(&Row { id: 1, name: "a", tags: vec![] })?;
/// assert_eq!(pith::json::stringify(&v), r#"{"id":1,"name":"a","tags":[]}"#);
/// # Ok::<(), pith::Error>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    value.serialize(ser::ValueSerializer::root())
}

/// Converts a [`Value`] into any type that implements `Deserialize`.
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Row { id: u32, price: f64 }
///
/// let v = pith::json::parse(r#"[{"id":1,"price":2.5},{"id":2,"price":"x"}]"#)?;
/// let err = pith::from_value::<Vec<Row>>(v).unwrap_err();
/// assert_eq!(err.kind(), pith::ErrorKind::Type);
/// assert_eq!(err.path(), Some("[1].price"));
/// # Ok::<(), pith::Error>(())
/// ```
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(de::ValueDeserializer::root(value))
}

/// The newtype-struct name under which a [`Number`] that no serde primitive
/// holds exactly travels to pith's own serializer.
const NUMBER_TOKEN: &str = "$pith::private::Number";

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => serializer.collect_seq(items),
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

impl Serialize for crate::Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_map(self)
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        if let Some(v) = self.as_i64() {
            serializer.serialize_i64(v)
        } else if let Some(v) = self.as_u64() {
            serializer.serialize_u64(v)
        } else if let Some(v) = self.as_i128() {
            serializer.serialize_i128(v)
        } else if let Some(v) = as_u128(self) {
            serializer.serialize_u128(v)
        } else if self.is_exact_f64() {
            serializer.serialize_f64(self.to_f64())
        } else {
            // pith's serializer recognises the name and keeps the number;
            // any other serializer reaches `Inexact` and gets its error.
            serializer.serialize_newtype_struct(NUMBER_TOKEN, &Inexact(self))
        }
    }
}

/// A number that no serde primitive holds exactly.
struct Inexact<'a>(&'a Number);

impl Serialize for Inexact<'_> {
    fn serialize<S: Serializer>(&self, _: S) -> std::result::Result<S::Ok, S::Error> {
        Err(::serde::ser::Error::custom(inexact_message(self.0)))
    }
}

/// A non-negative integer beyond `i128` that still fits `u128`.
pub(super) fn as_u128(n: &Number) -> Option<u128> {
    if n.is_negative() || !n.is_integer() {
        return None;
    }
    // Canonical text is `d[.ddd]e+x` at this size: expand it to digits.
    let text = n.to_string();
    let Some((mantissa, exp)) = text.split_once("e+") else {
        return text.parse().ok();
    };
    let exp: usize = exp.parse().ok()?;
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let zeros = (exp + 1).checked_sub(digits.len())?;
    if digits.len() + zeros > 39 {
        return None;
    }
    format!("{digits}{}", "0".repeat(zeros)).parse().ok()
}

/// Ends with the number's text, which pith's serializer reads back.
fn inexact_message(n: &Number) -> String {
    format!(
        "expected a number that an i64, u64, i128, u128 or f64 holds exactly (this format would round it), found {n}"
    )
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Number, D::Error> {
        match deserializer.deserialize_any(ValueVisitor)? {
            Value::Number(ref n) => Ok(n.clone()),
            other => Err(::serde::de::Error::custom(format!(
                "expected a number, found {}",
                other.type_name()
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Map, D::Error> {
        deserializer
            .deserialize_map(ValueVisitor)?
            .into_object()
            .map_err(|other| {
                ::serde::de::Error::custom(format!(
                    "expected an object, found {}",
                    other.type_name()
                ))
            })
    }
}

/// What [`ValueVisitor`] expects; pith's deserializer tells its own visitor
/// by this text and hands it numbers that no serde primitive holds exactly.
const VALUE_EXPECTING: &str = "any JSON value";

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(VALUE_EXPECTING)
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i128<E>(self, v: i128) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u128<E>(self, v: u128) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: ::serde::de::Error>(self, v: f64) -> std::result::Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("expected a finite number, found {v}")))
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_bytes<E>(self, v: &[u8]) -> std::result::Result<Value, E> {
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }

    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> std::result::Result<Value, A::Error> {
        let mut map = Map::with_capacity(access.size_hint().unwrap_or(0).min(4096));
        let mut keys = crate::json::KeySet::default();
        let first = match access.next_key_seed(KeySeed)? {
            None => return Ok(Value::Object(map)),
            Some(Key::Token) => {
                // pith's deserializer hands over a number that no serde
                // primitive holds as a map of this token to the number's text.
                let text: String = access.next_value()?;
                return Number::parse(&text)
                    .map(Value::Number)
                    .map_err(|e| ::serde::de::Error::custom(format!("{e}: {text}")));
            }
            Some(Key::Name(k)) => k,
        };
        let value: Value = access.next_value()?;
        let mut next = access.next_key::<String>()?;
        map.push_unique(first, value);
        while let Some(key) = next {
            if !keys.is_new(&map, &key) {
                let mut quoted = Vec::new();
                crate::json::write_str_into(&key, &mut quoted);
                return Err(::serde::de::Error::custom(format!(
                    "expected each key once per object, found {} a second time",
                    String::from_utf8_lossy(&quoted)
                )));
            }
            let value = access.next_value()?;
            map.push_unique(key, value);
            next = access.next_key()?;
        }
        Ok(Value::Object(map))
    }
}

/// An object key, or the token that marks a number in transit (which comes
/// as bytes, so that no string key can be mistaken for it).
enum Key {
    Token,
    Name(String),
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Key, D::Error> {
        d.deserialize_string(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Key, E> {
        Ok(Key::Name(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Key, E> {
        Ok(Key::Name(v))
    }

    fn visit_bytes<E: ::serde::de::Error>(self, v: &[u8]) -> std::result::Result<Key, E> {
        if v == NUMBER_TOKEN.as_bytes() {
            return Ok(Key::Token);
        }
        match std::str::from_utf8(v) {
            Ok(s) => Ok(Key::Name(s.to_owned())),
            Err(_) => Err(E::invalid_value(::serde::de::Unexpected::Bytes(v), &self)),
        }
    }
}

impl ::serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Unrepresentable, msg.to_string())
    }
}

impl ::serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Type, msg.to_string())
    }
}

//! A serde `Deserializer` over an owned [`Value`], tracking the JSON path of
//! the value being read so that errors can name it.

use super::{NUMBER_TOKEN, VALUE_EXPECTING, as_u128, inexact_message};
use crate::value::Unpacked;
use crate::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Key, Map, Number, Result, Value};
use ::serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use ::serde::forward_to_deserialize_any;
use std::fmt;

use crate::path::Trail as Path;

/// Gives an error raised at `path` that path, unless an inner value already
/// gave it a more precise one.
fn at_path<T>(result: Result<T>, path: &Path<'_>) -> Result<T> {
    result.map_err(|e| {
        if e.path().is_none() && e.position().is_none() {
            e.with_path(path.render())
        } else {
            e
        }
    })
}

fn depth_error() -> Error {
    Error::new(
        ErrorKind::DepthLimit,
        format!("expected at most {DEFAULT_MAX_DEPTH} levels of nesting, found more"),
    )
}

/// Deserializes from an owned value; `depth` counts the containers around it.
pub(super) struct ValueDeserializer<'a> {
    value: Value,
    path: Path<'a>,
    depth: usize,
}

impl ValueDeserializer<'static> {
    pub(super) fn root(value: Value) -> ValueDeserializer<'static> {
        ValueDeserializer {
            value,
            path: Path::Root,
            depth: 0,
        }
    }
}

impl<'de> de::Deserializer<'de> for ValueDeserializer<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let path = self.path;
        let result = match self.value.unpack() {
            Unpacked::Null => visitor.visit_unit(),
            Unpacked::Bool(b) => visitor.visit_bool(b),
            Unpacked::Number(n) => visit_number(n, visitor),
            Unpacked::String(s) => visitor.visit_string(s),
            Unpacked::Array(items) => visit_array(items, &path, self.depth, visitor),
            Unpacked::Object(map) => visit_object(map, &path, self.depth, visitor),
        };
        at_path(result, &path)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match &self.value {
            // The target asked for a float: the nearest one is the answer,
            // unless the number lies beyond f64's range altogether.
            Value::Number(n) => {
                let f = n.to_f64();
                if f.is_finite() {
                    at_path(visitor.visit_f64(f), &self.path)
                } else {
                    Err(Error::at_path(
                        ErrorKind::Type,
                        self.path.render(),
                        format!("expected a number within the range of f64, found {n}"),
                    ))
                }
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.value.is_null() {
            let path = self.path;
            at_path(visitor.visit_none(), &path)
        } else {
            let path = self.path;
            at_path(visitor.visit_some(self), &path)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let path = self.path;
        at_path(visitor.visit_newtype_struct(self), &path)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let path = self.path;
        let (variant, value) = match self.value.unpack() {
            Unpacked::String(s) => (s, None),
            Unpacked::Object(map) if map.len() == 1 => match map.into_iter().next() {
                Some((k, v)) => (k, Some(v)),
                None => return Err(enum_shape_error(name, "an empty object", &path)),
            },
            other => {
                let found = match Value::from(other) {
                    Value::Object(_) => "an object with more or fewer than one key",
                    v => v.type_name(),
                };
                return Err(enum_shape_error(name, found, &path));
            }
        };
        let access = EnumDeserializer {
            variant,
            value,
            parent: path,
            depth: self.depth,
        };
        at_path(visitor.visit_enum(access), &path)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit_struct seq tuple tuple_struct map struct identifier
    }
}

fn enum_shape_error(name: &str, found: &str, path: &Path<'_>) -> Error {
    Error::at_path(
        ErrorKind::Type,
        path.render(),
        format!("expected enum {name} as a string or an object with a single key, found {found}"),
    )
}

/// Integers as `u64`/`i64` when they fit, else `u128`/`i128`; other
/// numbers as `f64` when it holds them exactly. A number beyond all of these
/// goes to pith's own value visitor intact and is an error for any other.
fn visit_number<'de, V: Visitor<'de>>(n: Number, visitor: V) -> Result<V::Value> {
    if let Some(v) = n.as_u64() {
        return visitor.visit_u64(v);
    }
    if let Some(v) = n.as_i64() {
        return visitor.visit_i64(v);
    }
    if n.is_integer() {
        if let Some(v) = n.as_i128() {
            return visitor.visit_i128(v);
        }
        if let Some(v) = as_u128(&n) {
            return visitor.visit_u128(v);
        }
    }
    if n.is_exact_f64() {
        return visitor.visit_f64(n.to_f64());
    }
    if Expecting(&visitor).to_string() == VALUE_EXPECTING {
        return visitor.visit_map(NumberAccess { text: Some(n) });
    }
    Err(Error::new(ErrorKind::Type, inexact_message(&n)))
}

/// Shows what a visitor expects.
struct Expecting<'a, V>(&'a V);

impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
}

/// `{NUMBER_TOKEN: "<the number>"}` with the token as bytes, as pith's value
/// visitor reads it.
struct NumberAccess {
    text: Option<Number>,
}

impl<'de> MapAccess<'de> for NumberAccess {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.text.is_none() {
            return Ok(None);
        }
        let token = ::serde::de::value::BytesDeserializer::new(NUMBER_TOKEN.as_bytes());
        seed.deserialize(token).map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.text.take() {
            Some(n) => seed.deserialize(n.to_string().into_deserializer()),
            None => Err(Error::new(
                ErrorKind::Type,
                "expected a key before its value, found none",
            )),
        }
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    items: Vec<Value>,
    path: &Path<'_>,
    depth: usize,
    visitor: V,
) -> Result<V::Value> {
    if depth >= DEFAULT_MAX_DEPTH {
        return Err(depth_error());
    }
    let len = items.len();
    let mut access = SeqDeserializer {
        iter: items.into_iter(),
        index: 0,
        parent: path,
        depth: depth + 1,
    };
    let out = visitor.visit_seq(&mut access)?;
    if access.iter.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(
            len,
            &"fewer elements in the array",
        ))
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    map: Map,
    path: &Path<'_>,
    depth: usize,
    visitor: V,
) -> Result<V::Value> {
    if depth >= DEFAULT_MAX_DEPTH {
        return Err(depth_error());
    }
    let len = map.len();
    let mut access = MapDeserializer {
        iter: map.into_entries().into_iter(),
        key: Key::EMPTY,
        value: None,
        parent: path,
        depth: depth + 1,
    };
    let out = visitor.visit_map(&mut access)?;
    if access.iter.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(
            len,
            &"fewer entries in the object",
        ))
    }
}

struct SeqDeserializer<'p, 'a> {
    iter: std::vec::IntoIter<Value>,
    index: usize,
    parent: &'p Path<'a>,
    depth: usize,
}

impl<'de> SeqAccess<'de> for SeqDeserializer<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        let path = Path::Index(self.parent, index);
        let item = ValueDeserializer {
            value,
            path,
            depth: self.depth,
        };
        at_path(seed.deserialize(item), &path).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct MapDeserializer<'p, 'a> {
    iter: std::vec::IntoIter<(Key, Value)>,
    /// The key of the entry whose value comes next.
    key: Key,
    value: Option<Value>,
    parent: &'p Path<'a>,
    depth: usize,
}

impl<'de> MapAccess<'de> for MapDeserializer<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.key = key;
        self.value = Some(value);
        let path = Path::Key(self.parent, &self.key);
        let key = KeyDeserializer {
            key: String::from(&self.key),
        };
        at_path(seed.deserialize(key), &path).map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let path = Path::Key(self.parent, &self.key);
        let Some(value) = self.value.take() else {
            return Err(Error::at_path(
                ErrorKind::Type,
                path.render(),
                "expected a key before its value, found none",
            ));
        };
        let item = ValueDeserializer {
            value,
            path,
            depth: self.depth,
        };
        at_path(seed.deserialize(item), &path)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An object key: a string, or the integer or boolean its text spells when
/// the target asks for one (as map keys of `HashMap<u32, _>` do).
struct KeyDeserializer {
    key: String,
}

macro_rules! parse_key {
    ($($method:ident => $visit:ident: $t:ty,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.key.parse::<$t>() {
                Ok(v) => visitor.$visit(v),
                Err(_) => Err(Error::new(
                    ErrorKind::Type,
                    format!("expected a key that is {}, found {:?}", stringify!($t), self.key),
                )),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_string(self.key)
    }

    parse_key! {
        deserialize_bool => visit_bool: bool,
        deserialize_i8 => visit_i8: i8,
        deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32,
        deserialize_i64 => visit_i64: i64,
        deserialize_i128 => visit_i128: i128,
        deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64,
        deserialize_u128 => visit_u128: u128,
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self.key.into_deserializer())
    }

    forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An enum read from `"Variant"` or `{"Variant": value}`.
struct EnumDeserializer<'a> {
    variant: String,
    value: Option<Value>,
    parent: Path<'a>,
    depth: usize,
}

impl<'de, 'a> EnumAccess<'de> for EnumDeserializer<'a> {
    type Error = Error;
    type Variant = VariantDeserializer<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let key = KeyDeserializer {
            key: self.variant.clone(),
        };
        let tag = seed.deserialize(key)?;
        Ok((
            tag,
            VariantDeserializer {
                variant: self.variant,
                value: self.value,
                parent: self.parent,
                depth: self.depth,
            },
        ))
    }
}

struct VariantDeserializer<'a> {
    variant: String,
    value: Option<Value>,
    parent: Path<'a>,
    depth: usize,
}

impl VariantDeserializer<'_> {
    fn missing(&self, expected: &str) -> Error {
        Error::at_path(
            ErrorKind::Type,
            self.parent.render(),
            format!(
                "expected {expected} for variant {}, found a string",
                self.variant
            ),
        )
    }
}

impl<'de> VariantAccess<'de> for VariantDeserializer<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match &self.value {
            None | Some(Value::Null) => Ok(()),
            Some(other) => Err(Error::at_path(
                ErrorKind::Type,
                Path::Key(&self.parent, &self.variant).render(),
                format!(
                    "expected no data for the unit variant {}, found {}",
                    self.variant,
                    other.type_name()
                ),
            )),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let Some(value) = self.value else {
            return Err(self.missing("an object holding the variant's value"));
        };
        let path = Path::Key(&self.parent, &self.variant);
        let inner = ValueDeserializer {
            value,
            path,
            depth: self.depth + 1,
        };
        at_path(seed.deserialize(inner), &path)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let Some(value) = self.value else {
            return Err(self.missing("an object holding the variant's array"));
        };
        let path = Path::Key(&self.parent, &self.variant);
        let inner = ValueDeserializer {
            value,
            path,
            depth: self.depth + 1,
        };
        de::Deserializer::deserialize_seq(inner, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let Some(value) = self.value else {
            return Err(self.missing("an object holding the variant's fields"));
        };
        let path = Path::Key(&self.parent, &self.variant);
        let inner = ValueDeserializer {
            value,
            path,
            depth: self.depth + 1,
        };
        de::Deserializer::deserialize_map(inner, visitor)
    }
}

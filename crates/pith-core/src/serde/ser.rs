//! A serde `Serializer` whose output is a [`Value`].

use super::NUMBER_TOKEN;
use crate::json::KeySet;
use crate::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Map, Number, Result, Value};
use ::serde::ser::{self, Impossible, Serialize};
use std::fmt;

/// Serializes into a [`Value`]; `depth` counts the containers around it.
pub(super) struct ValueSerializer {
    depth: usize,
}

impl ValueSerializer {
    pub(super) fn root() -> ValueSerializer {
        ValueSerializer { depth: 0 }
    }

    /// The depth of the members of a container opened here.
    fn open(&self) -> Result<usize> {
        if self.depth >= DEFAULT_MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::DepthLimit,
                format!("expected at most {DEFAULT_MAX_DEPTH} levels of nesting, found more"),
            ));
        }
        Ok(self.depth + 1)
    }

    /// `{variant: inner}` around a container: two levels.
    fn open_variant(&self) -> Result<usize> {
        ValueSerializer {
            depth: self.open()?,
        }
        .open()
    }
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = TupleVariantSerializer;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = StructVariantSerializer;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::String(v.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::String(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        self.open()?;
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }

    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(Value::String(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Value> {
        if name == NUMBER_TOKEN {
            return capture_number(value);
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        let depth = self.open()?;
        let inner = value.serialize(ValueSerializer { depth })?;
        let mut map = Map::with_capacity(1);
        map.push_unique(variant.to_owned(), inner);
        Ok(Value::Object(map))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer> {
        Ok(SeqSerializer {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            depth: self.open()?,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSerializer> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<TupleVariantSerializer> {
        Ok(TupleVariantSerializer {
            variant,
            items: SeqSerializer {
                items: Vec::with_capacity(len.min(4096)),
                depth: self.open_variant()?,
            },
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapSerializer> {
        Ok(MapSerializer::new(len.unwrap_or(0), self.open()?))
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapSerializer> {
        Ok(MapSerializer::new(len, self.open()?))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructVariantSerializer> {
        Ok(StructVariantSerializer {
            variant,
            fields: MapSerializer::new(len, self.open_variant()?),
        })
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<Value> {
        Ok(Value::String(value.to_string()))
    }
}

/// Builds an array.
pub(super) struct SeqSerializer {
    items: Vec<Value>,
    depth: usize,
}

impl SeqSerializer {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let depth = self.depth;
        self.items.push(value.serialize(ValueSerializer { depth })?);
        Ok(())
    }
}

impl ser::SerializeSeq for SeqSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for SeqSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTupleStruct for SeqSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(Value::Array(self.items))
    }
}

/// Builds `{variant: [...]}`.
pub(super) struct TupleVariantSerializer {
    variant: &'static str,
    items: SeqSerializer,
}

impl ser::SerializeTupleVariant for TupleVariantSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.items.push(value)
    }

    fn end(self) -> Result<Value> {
        let mut map = Map::with_capacity(1);
        map.push_unique(self.variant.to_owned(), Value::Array(self.items.items));
        Ok(Value::Object(map))
    }
}

/// Builds an object, refusing a key given twice.
pub(super) struct MapSerializer {
    map: Map,
    keys: KeySet,
    pending: Option<String>,
    depth: usize,
}

impl MapSerializer {
    fn new(len: usize, depth: usize) -> MapSerializer {
        MapSerializer {
            map: Map::with_capacity(len.min(4096)),
            keys: KeySet::default(),
            pending: None,
            depth,
        }
    }

    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<()> {
        if !self.keys.is_new(&self.map, &key) {
            let mut quoted = Vec::new();
            crate::json::write_str_into(&key, &mut quoted);
            return Err(Error::new(
                ErrorKind::DuplicateKey,
                format!(
                    "expected each key once per object, found {} a second time",
                    String::from_utf8_lossy(&quoted)
                ),
            ));
        }
        let depth = self.depth;
        let value = value.serialize(ValueSerializer { depth })?;
        self.map.push_unique(key, value);
        Ok(())
    }
}

impl ser::SerializeMap for MapSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.pending = Some(key.serialize(KeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self.pending.take() {
            Some(key) => self.insert(key, value),
            None => Err(Error::new(
                ErrorKind::Unrepresentable,
                "expected a map key before its value, found a value alone",
            )),
        }
    }

    fn end(self) -> Result<Value> {
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStruct for MapSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.insert(key.to_owned(), value)
    }

    fn end(self) -> Result<Value> {
        Ok(Value::Object(self.map))
    }
}

/// Builds `{variant: {...}}`.
pub(super) struct StructVariantSerializer {
    variant: &'static str,
    fields: MapSerializer,
}

impl ser::SerializeStructVariant for StructVariantSerializer {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.fields.insert(key.to_owned(), value)
    }

    fn end(self) -> Result<Value> {
        let mut map = Map::with_capacity(1);
        map.push_unique(self.variant.to_owned(), Value::Object(self.fields.map));
        Ok(Value::Object(map))
    }
}

/// Recovers the number behind [`NUMBER_TOKEN`]: its `Serialize` refuses
/// every serializer with a message that ends in the number's text.
fn capture_number<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    let refusal = match value.serialize(KeySerializer) {
        Err(e) => e,
        Ok(text) => {
            return Err(Error::new(
                ErrorKind::Unrepresentable,
                format!("expected a number, found {text:?}"),
            ));
        }
    };
    refusal
        .message()
        .rsplit_once("found ")
        .and_then(|(_, text)| Number::parse(text).ok())
        .map(Value::Number)
        .ok_or(refusal)
}

/// Serializes a map key to its text.
struct KeySerializer;

fn key_error(found: &str) -> Error {
    Error::new(
        ErrorKind::Unrepresentable,
        format!("expected a map key that is a string, char, integer or boolean, found {found}"),
    )
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    fn serialize_bool(self, v: bool) -> Result<String> {
        Ok(if v { "true" } else { "false" }.to_owned())
    }

    fn serialize_i8(self, v: i8) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i16(self, v: i16) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i32(self, v: i32) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i64(self, v: i64) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i128(self, v: i128) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u8(self, v: u8) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u16(self, v: u16) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u32(self, v: u32) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u64(self, v: u64) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u128(self, v: u128) -> Result<String> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_f32(self, _: f32) -> Result<String> {
        Err(key_error("a float"))
    }

    fn serialize_f64(self, _: f64) -> Result<String> {
        Err(key_error("a float"))
    }

    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_owned())
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<String> {
        Err(key_error("bytes"))
    }

    fn serialize_none(self) -> Result<String> {
        Err(key_error("none"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String> {
        Err(key_error("an option"))
    }

    fn serialize_unit(self) -> Result<String> {
        Err(key_error("unit"))
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<String> {
        Err(key_error(&format!("the unit struct {name}")))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String> {
        Ok(variant.to_owned())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _value: &T,
    ) -> Result<String> {
        Err(key_error(&format!("the enum variant {variant} with data")))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error("a sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(key_error("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_error(&format!("the tuple struct {name}")))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error(&format!("the enum variant {variant} with data")))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error("a map"))
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(key_error(&format!("the struct {name}")))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error(&format!("the enum variant {variant} with data")))
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<String> {
        Ok(value.to_string())
    }
}

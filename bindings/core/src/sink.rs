//! A decoded value as a stream of events, for the packages that build
//! their language's values without a [`pith::Value`] in between.
//!
//! [`crate::read`] reads TOON straight into a [`Sink`], and [`walk`] sends
//! any [`Value`] through the same calls, so a package writes one
//! conversion for both (the Node package's output tape is one).
//!
//! The events of one value, in order:
//!
//! * a primitive: [`Sink::null`], [`Sink::bool`], [`Sink::number`] or
//!   [`Sink::string`];
//! * an array: [`Sink::array`] with its length, then that many values;
//! * an object: [`Sink::object`], then for each member [`Sink::key`] and
//!   its value, then [`Sink::end_object`];
//! * an object whose keys were announced with [`Sink::shape`] (the rows of
//!   a table): [`Sink::row`], then one value per key, in the shape's order,
//!   and no end.

use pith::{Number, Value};

/// A number as a reader found it: the two short forms that most numbers
/// take, which a sink can turn into a double without making a [`Number`],
/// and the rest.
#[derive(Debug, Clone, Copy)]
pub enum Num<'a> {
    /// An integer of at most 18 digits.
    Int(i64),
    /// A decimal of at most 18 digits with a fraction and no exponent, in
    /// JSON's grammar (`-0.50`, `12.5`): its text, whose exact value is
    /// the number.
    Decimal(&'a str),
    /// Any other number.
    Exact(&'a Number),
}

impl Num<'_> {
    /// The number, made.
    pub fn to_number(self) -> Number {
        match self {
            Num::Int(v) => Number::from(v),
            // The reader checked the grammar, so the parse cannot fail;
            // zero stands in should it ever.
            Num::Decimal(text) => Number::parse(text).unwrap_or_else(|_| Number::from(0)),
            Num::Exact(n) => n.clone(),
        }
    }
}

/// What receives a value's events (see the module docs).
pub trait Sink {
    /// A shape announced by [`Sink::shape`].
    type Shape: Copy;

    /// `null`.
    fn null(&mut self);
    /// `true` or `false`.
    fn bool(&mut self, v: bool);
    /// A number.
    fn number(&mut self, n: Num<'_>);
    /// A string.
    fn string(&mut self, s: &str);
    /// An array of `len` items, which follow.
    fn array(&mut self, len: usize);
    /// An object, whose members follow as key and value, then
    /// [`Sink::end_object`].
    fn object(&mut self);
    /// The key of the next member of the open object.
    fn key(&mut self, k: &str);
    /// The end of the object opened last.
    fn end_object(&mut self);
    /// Announces the keys of objects that [`Sink::row`] opens (distinct keys).
    fn shape(&mut self, keys: &[&str]) -> Self::Shape;
    /// An object of `shape`'s keys, whose values follow in their order.
    fn row(&mut self, shape: Self::Shape);
}

/// Sends `value` to `sink`. Recursive: values as deep as the library's
/// readers make (at most [`pith::MAX_DEPTH_LIMIT`] levels) fit the stack.
pub fn walk<S: Sink>(value: &Value, sink: &mut S) {
    match value {
        Value::Null => sink.null(),
        Value::Bool(b) => sink.bool(*b),
        Value::Number(n) => sink.number(Num::Exact(n)),
        Value::String(s) => sink.string(s),
        Value::Array(items) => {
            sink.array(items.len());
            for item in items {
                walk(item, sink);
            }
        }
        Value::Object(m) => {
            sink.object();
            for (k, v) in m.iter() {
                sink.key(k);
                walk(v, sink);
            }
            sink.end_object();
        }
    }
}

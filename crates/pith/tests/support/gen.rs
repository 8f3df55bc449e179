//! Value generators and builders shared by the property tests.

// Each test crate includes this file and uses only part of it.
#![allow(dead_code)]

use pith::{Map, Number, Value};
use proptest::prelude::*;

/// Numbers of every kind: any `i64`, any finite `f64`, and literals no
/// primitive holds (beyond 2^53, beyond `f64`'s range, more digits than
/// `f64` keeps).
pub fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        prop::sample::select(vec![
            "9007199254740993",
            "1e400",
            "-1e-400",
            "0.1000000000000000055511151231257827",
            "123456789012345678901234567890.5",
        ])
        .prop_map(|s| Number::parse(s).expect("literal")),
    ]
}

/// An object of `entries`; a repeated key keeps one entry.
pub fn object(entries: Vec<(String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect::<Map>())
}

/// Null, booleans, [`number`]s, and strings drawn from `string`.
pub fn primitive<S: Strategy<Value = String>>(string: S) -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        string.prop_map(Value::String),
    ]
}

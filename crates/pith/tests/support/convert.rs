//! JSON read by serde_json as a pith value.

// Each test crate includes this file and uses only part of it.
#![allow(dead_code)]

use pith::{Number, Value};

/// The members of a serde_json object, in some order.
pub type Members<'a> = Vec<(&'a String, &'a serde_json::Value)>;

/// `v` as a pith value, keys in the order serde_json kept them.
pub fn to_pith(v: &serde_json::Value) -> Value {
    to_pith_ordered(v, &|m| m.iter().collect())
}

/// `v` as a pith value, each object's members in the order `order` lists them.
pub fn to_pith_ordered(
    v: &serde_json::Value,
    order: &dyn Fn(&serde_json::Map<String, serde_json::Value>) -> Members<'_>,
) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => {
            Value::Number(Number::parse(&n.to_string()).expect("JSON number"))
        }
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => {
            Value::Array(a.iter().map(|v| to_pith_ordered(v, order)).collect())
        }
        serde_json::Value::Object(m) => Value::Object(
            order(m)
                .into_iter()
                .map(|(k, v)| (k.clone(), to_pith_ordered(v, order)))
                .collect(),
        ),
    }
}

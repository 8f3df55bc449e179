//! JSON read by serde_json as a pith value.

use pith::{Number, Value};

/// `v` as a pith value, keys in the order serde_json kept them.
pub fn to_pith(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => {
            Value::Number(Number::parse(&n.to_string()).expect("JSON number"))
        }
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::Array(a.iter().map(to_pith).collect()),
        serde_json::Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), to_pith(v))).collect())
        }
    }
}

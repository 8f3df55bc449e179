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
            "0.5",
            "-0.25",
            "0.000001",
        ])
        .prop_map(|s| Number::parse(s).expect("literal")),
    ]
}

/// The number written `[-]int[.frac][eexp]`.
pub fn literal(neg: bool, int: &str, frac: Option<&str>, exp: Option<i64>) -> Number {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    s.push_str(int);
    if let Some(f) = frac {
        s.push('.');
        s.push_str(f);
    }
    if let Some(e) = exp {
        s.push_str(&format!("e{e}"));
    }
    Number::parse(&s).expect("generated literal")
}

/// An object of `entries`; a repeated key keeps one entry.
pub fn object(entries: Vec<(String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect::<Map>())
}

/// Null, booleans, [`number`]s, and strings drawn from `string`.
pub fn primitive<S: Strategy<Value = String>>(string: S) -> impl Strategy<Value = Value> {
    leaf(number(), string)
}

/// Null, booleans, numbers drawn from `number` and strings drawn from `string`.
pub fn leaf<N, S>(number: N, string: S) -> impl Strategy<Value = Value>
where
    N: Strategy<Value = Number>,
    S: Strategy<Value = String>,
{
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number.prop_map(Value::Number),
        string.prop_map(Value::String),
    ]
}

/// Arrays and objects of `leaf` values, nested up to `depth` levels, about
/// `size` nodes in all, each with fewer than `branch` members
/// (`prop_recursive`'s knobs); object keys come from `key`.
pub fn nested<L, K>(
    leaf: L,
    key: fn() -> K,
    depth: u32,
    size: u32,
    branch: u32,
) -> impl Strategy<Value = Value>
where
    L: Strategy<Value = Value> + 'static,
    K: Strategy<Value = String> + 'static,
{
    let members = 0..branch as usize;
    leaf.prop_recursive(depth, size, branch, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), members.clone()).prop_map(Value::Array),
            prop::collection::vec((key(), inner), members.clone()).prop_map(object),
        ]
    })
}

/// Strings drawn from `samples`, any string at all, or a match of the regex
/// `word`, each a third of the time.
pub fn string_from(
    samples: Vec<&'static str>,
    word: &'static str,
) -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(samples).prop_map(String::from),
        any::<String>(),
        word,
    ]
}

/// Strings that look like something else (JSON text, numbers, quotes,
/// TOON's list syntax) or need quotes: the look-alikes every table test
/// draws from, then `extra`, as in [`string_from`].
pub fn look_alike(extra: &[&'static str], word: &'static str) -> impl Strategy<Value = String> {
    const COMMON: [&str; 9] = ["", " ", "a b", "true", "null", "1", "-2.5", "05", "\""];
    string_from(COMMON.iter().chain(extra).copied().collect(), word)
}

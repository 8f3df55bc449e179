//! A decoded [`Value`] as flat arrays that JavaScript turns into objects.
//!
//! Creating a JavaScript value through Node-API costs a call per value and
//! per property; V8 builds objects far faster from JavaScript itself. So
//! the value crosses as a *tape* of `u32` operations, a `Float64Array` of
//! numbers and the text of its strings, and `index.js` rebuilds it in one
//! pass. Objects name a *shape* (their keys, in order, stored once), so the
//! rows of a table share one key list and JavaScript can build each row
//! with a literal of fixed keys.
//!
//! Each operation is `tag | payload << 3`:
//!
//! | tag | meaning | payload |
//! |---|---|---|
//! | 0, 1, 2 | `null`, `false`, `true` | 0 |
//! | 3 | a number | 0: the next double; 1: a `BigInt`, 2: an exact decimal, each spelled by the string operation that follows |
//! | 4 | a string of `short` | its length in UTF-16 units (under [`SHORT`]) |
//! | 5 | a string of `long` | its length in UTF-8 bytes |
//! | 6 | an array | its length; its items follow |
//! | 7 | an object | its shape; its values follow in the shape's key order |
//!
//! A payload of [`ESCAPE`] or more is written as [`ESCAPE`], followed by
//! an operation holding the whole number. `shapes` holds, for each shape,
//! its key count, how many objects use it, and its keys (indices into
//! `keys`, whose lengths in UTF-16 units are `key_lens`).
//!
//! Strings shorter than [`SHORT`] UTF-16 units are slices of one JavaScript
//! string (V8 copies slices that short); longer ones are decoded from
//! `long`, each into a string of its own, so no string keeps a large
//! shared text alive.

use pith::{Map, Number, Value};
use pith_bindings::number::{Decoded, decoded, nearest_f64};
use pith_bindings::op::{ARRAY, ESCAPE, FALSE, NULL, NUMBER, OBJECT, TRUE};
use std::collections::HashMap;

/// Strings of fewer UTF-16 units than this are slices of `short`.
pub const SHORT: usize = 13;

/// Whole numbers are spelled out for `BigInt` up to this many digits.
const MAX_BIGINT_DIGITS: usize = 1_000_000;

/// The largest integer a double holds exactly, with all below it.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

const SHORT_STRING: u32 = 4;
const LONG_STRING: u32 = 5;

const AS_DOUBLE: u32 = 0;
const AS_BIGINT: u32 = 1;
const AS_EXACT: u32 = 2;

/// How numbers cross.
#[derive(Debug, Clone, Copy, Default)]
pub struct Numbers {
    /// Integers beyond ±(2^53 − 1) as `BigInt`.
    pub bigint: bool,
    /// Numbers a double does not hold exactly as exact decimals.
    pub exact: bool,
}

/// The flat form of one value (see the module docs).
#[derive(Debug, Default)]
pub struct Tape {
    /// The operations.
    pub ops: Vec<u32>,
    /// The doubles, in order.
    pub nums: Vec<f64>,
    /// Short strings, one after the other.
    pub short: String,
    /// Long strings, one after the other, as UTF-8.
    pub long: Vec<u8>,
    /// Every key, once, one after the other.
    pub keys: String,
    /// The length of each key in UTF-16 units.
    pub key_lens: Vec<u32>,
    /// For each shape: key count, objects using it, key indices.
    pub shapes: Vec<u32>,
}

/// The tape of `value`.
pub fn tape(value: &Value, numbers: Numbers) -> Tape {
    let mut b = Builder {
        numbers,
        tape: Tape::default(),
        key_ids: HashMap::new(),
        shape_ids: HashMap::new(),
        shape_list: Vec::new(),
        recent: Vec::new(),
        scratch: Vec::new(),
        digits: Vec::new(),
    };
    b.value(value, 0);
    let mut tape = b.tape;
    for (ids, uses) in &b.shape_list {
        tape.shapes.push(ids.len() as u32);
        tape.shapes.push(*uses);
        tape.shapes.extend_from_slice(ids);
    }
    tape
}

struct Builder<'v> {
    numbers: Numbers,
    tape: Tape,
    key_ids: HashMap<&'v str, u32>,
    shape_ids: HashMap<Vec<u32>, u32>,
    /// Each shape's keys and how many objects use it.
    shape_list: Vec<(Vec<u32>, u32)>,
    /// The last object seen at each depth and its shape: the rows of a
    /// table share their keys, so most objects match the one before.
    recent: Vec<Option<(&'v Map, u32)>>,
    scratch: Vec<u32>,
    digits: Vec<u8>,
}

impl<'v> Builder<'v> {
    fn op(&mut self, tag: u32, payload: usize) {
        let ops = &mut self.tape.ops;
        match u32::try_from(payload) {
            Ok(p) if p < ESCAPE => ops.push(tag | p << 3),
            _ => {
                ops.push(tag | ESCAPE << 3);
                // Lengths of JavaScript strings and arrays fit in 32 bits.
                ops.push(u32::try_from(payload).unwrap_or(u32::MAX));
            }
        }
    }

    fn value(&mut self, v: &'v Value, depth: usize) {
        match v {
            Value::Null => self.op(NULL, 0),
            Value::Bool(false) => self.op(FALSE, 0),
            Value::Bool(true) => self.op(TRUE, 0),
            Value::Number(n) => self.number(n),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.op(ARRAY, items.len());
                for item in items {
                    self.value(item, depth + 1);
                }
            }
            Value::Object(m) => {
                let shape = self.shape(m, depth);
                self.op(OBJECT, shape as usize);
                for v in m.values() {
                    self.value(v, depth + 1);
                }
            }
        }
    }

    fn string(&mut self, s: &str) {
        let units = utf16_len(s);
        if units < SHORT {
            self.tape.short.push_str(s);
            self.op(SHORT_STRING, units);
        } else {
            self.tape.long.extend_from_slice(s.as_bytes());
            self.op(LONG_STRING, s.len());
        }
    }

    fn number(&mut self, n: &Number) {
        if let Some(v) = n.as_i64()
            && (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&v)
        {
            return self.double(v as f64);
        }
        if n.is_integer() && self.numbers.bigint {
            match decoded(n, MAX_BIGINT_DIGITS) {
                Decoded::Small(v) => return self.spelled(AS_BIGINT, &v.to_string()),
                Decoded::Digits(d) => return self.spelled(AS_BIGINT, &d),
                Decoded::Text(_) => {}
            }
        }
        let f = self.nearest(n);
        if self.numbers.exact && Number::from_f64(f).as_ref() != Some(n) {
            return self.spelled(AS_EXACT, &n.to_string());
        }
        self.double(f);
    }

    fn double(&mut self, f: f64) {
        self.op(NUMBER, AS_DOUBLE as usize);
        self.tape.nums.push(f);
    }

    fn spelled(&mut self, how: u32, text: &str) {
        self.op(NUMBER, how as usize);
        self.string(text);
    }

    fn nearest(&mut self, n: &Number) -> f64 {
        nearest_f64(n, &mut self.digits)
    }

    fn shape(&mut self, m: &'v Map, depth: usize) -> u32 {
        if let Some(Some((seen, id))) = self.recent.get(depth)
            && seen.len() == m.len()
            && seen.keys().zip(m.keys()).all(|(a, b)| a == b)
        {
            let id = *id;
            self.shape_list[id as usize].1 += 1;
            self.recent[depth] = Some((m, id));
            return id;
        }
        self.scratch.clear();
        for k in m.keys() {
            let next = self.key_ids.len() as u32;
            let id = *self.key_ids.entry(k.as_str()).or_insert_with(|| {
                self.tape.keys.push_str(k);
                self.tape.key_lens.push(utf16_len(k) as u32);
                next
            });
            self.scratch.push(id);
        }
        let id = match self.shape_ids.get(&self.scratch) {
            Some(&id) => id,
            None => {
                let id = self.shape_list.len() as u32;
                self.shape_ids.insert(self.scratch.clone(), id);
                self.shape_list.push((self.scratch.clone(), 0));
                id
            }
        };
        self.shape_list[id as usize].1 += 1;
        if self.recent.len() <= depth {
            self.recent.resize(depth + 1, None);
        }
        self.recent[depth] = Some((m, id));
        id
    }
}

/// Length in UTF-16 units, as JavaScript counts a string.
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_share_one_shape_and_strings_split_by_length() {
        let v = pith::json::parse(
            r#"{"rows":[{"id":1,"name":"a"},{"id":2,"name":"a longer name here"}],"é":null}"#,
        )
        .unwrap();
        let t = tape(&v, Numbers::default());
        assert_eq!(t.keys, "rowséidname");
        assert_eq!(t.key_lens, vec![4, 1, 2, 4]);
        // Root {rows, é} used once; row shape {id, name} used twice.
        assert_eq!(t.shapes, vec![2, 1, 0, 1, 2, 2, 2, 3]);
        assert_eq!(t.short, "a");
        assert_eq!(t.long, b"a longer name here");
        assert_eq!(t.nums, vec![1.0, 2.0]);
        assert_eq!(
            t.ops,
            vec![
                OBJECT,
                ARRAY | 2 << 3,
                OBJECT | 1 << 3,
                NUMBER,
                SHORT_STRING | 1 << 3,
                OBJECT | 1 << 3,
                NUMBER,
                LONG_STRING | 18 << 3,
                NULL,
            ]
        );
    }

    #[test]
    fn big_and_inexact_numbers_are_spelled_when_asked() {
        let v = pith::json::parse("[9007199254740993, 0.1, 1e400, 0.1000000000000000055511, 5]")
            .unwrap();
        let plain = tape(&v, Numbers::default());
        assert!(plain.short.is_empty() && plain.long.is_empty());
        assert_eq!(plain.nums[0], 9007199254740992.0);
        let exact = tape(
            &v,
            Numbers {
                bigint: true,
                exact: true,
            },
        );
        assert_eq!(exact.nums, vec![0.1, 5.0]);
        assert_eq!(
            String::from_utf8(exact.long).unwrap(),
            format!(
                "90071992547409931{}0.1000000000000000055511",
                "0".repeat(400)
            )
        );
        assert_eq!(exact.short, "");
        let exact_only = tape(
            &v,
            Numbers {
                bigint: false,
                exact: true,
            },
        );
        assert_eq!(
            String::from_utf8(exact_only.long).unwrap(),
            "90071992547409930.1000000000000000055511"
        );
        assert_eq!(exact_only.short, "1e+400");
    }
}

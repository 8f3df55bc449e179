//! A decoded value as flat arrays that JavaScript turns into objects.
//!
//! Creating a JavaScript value through Node-API costs a call per value and
//! per property; V8 builds objects far faster from JavaScript itself. So
//! the value crosses as a *tape* of `u32` operations, a `Float64Array` of
//! numbers and the text of its strings, and `index.js` rebuilds it in one
//! pass. Objects name a *shape* (their keys, in order, stored once), so the
//! rows of a table share one key list and JavaScript can build each row
//! with a literal of fixed keys. [`Builder`] is a [`Sink`]: the core's
//! TOON reader writes the tape as it reads, and any other value is walked
//! into it.
//!
//! Each operation is `tag | payload << 3`:
//!
//! | tag | meaning | payload |
//! |---|---|---|
//! | 0, 1, 2 | `null`, `false`, `true` | 0 |
//! | 3 | a number, or a wide string | 0: the next double; 1: a `BigInt`, 2: an exact decimal, each spelled by the string operation that follows; 3: a string of `wide`, whose length in UTF-16 units the next operation holds whole |
//! | 4 | a string of `text` | its length in UTF-16 units |
//! | 5 | a short string again | its number among the short strings kept |
//! | 6 | an array | its length; its items follow |
//! | 7 | an object | its shape; its values follow in the shape's key order |
//!
//! A payload of [`ESCAPE`] or more is written as [`ESCAPE`], followed by
//! an operation holding the whole number. `shapes` holds, for each shape,
//! its key count, how many objects use it, and its keys (indices into
//! `keys`, whose lengths in UTF-16 units are `key_lens`).
//!
//! Strings are slices of two texts, one after the other: `text` holds
//! those whose characters are all below U+0100 (V8 keeps it one byte a
//! character), `wide` the others. Slicing costs far less than decoding
//! each string from bytes; a string of 13 characters or more (V8 copies
//! shorter slices) keeps its text alive while it lives. The short strings
//! of `text` (at most [`SHORT`] units) are numbered as they first appear,
//! the first `repeats` of them kept by JavaScript, and a repeat crosses as
//! its number: the values of a column of a few names, made once each, as
//! `JSON.parse` makes them. In a column of distinct short strings that
//! saves nothing, so numbering stops after [`REPEATS_TRIAL`] of them
//! unless as many repeats came.

use pith::Number;
#[cfg(test)]
use pith::Value;
use pith_bindings::number::{Decoded, MAX_WHOLE_DIGITS, decoded, digit_allowance, nearest_f64};
use pith_bindings::op::{ARRAY, ESCAPE, FALSE, NULL, NUMBER, OBJECT, TRUE};
use pith_bindings::sink::{Num, Sink};
use std::collections::HashMap;

/// The largest integer a double holds exactly, with all below it.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

const NARROW_STRING: u32 = 4;
const REPEATED_STRING: u32 = 5;

const AS_DOUBLE: u32 = 0;
const AS_BIGINT: u32 = 1;
const AS_EXACT: u32 = 2;
/// Not a number: a string of `wide`, whose length the next operation holds.
const WIDE_STRING: u32 = 3;

/// Strings of `text` this short (in UTF-16 units, as V8 copies them when
/// it slices) are made once each in JavaScript and repeated from there.
pub const SHORT: usize = 12;

/// After this many short strings, repeating stops unless as many repeats
/// came: in a column of distinct names, looking costs and saves nothing.
const REPEATS_TRIAL: usize = 4096;

/// Short strings are never kept beyond this many.
const MAX_REPEATS: usize = 1 << 20;

/// How numbers cross.
#[derive(Debug, Clone, Copy, Default)]
pub struct Numbers {
    /// Integers beyond ±(2^53 − 1) as `BigInt`, those of too many digits
    /// (see [`digit_allowance`]) as exact decimals.
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
    /// Strings of characters below U+0100, one after the other.
    pub text: String,
    /// The other strings, one after the other.
    pub wide: String,
    /// Every key, once, one after the other.
    pub keys: String,
    /// The length of each key in UTF-16 units.
    pub key_lens: Vec<u32>,
    /// For each shape: key count, objects using it, key indices.
    pub shapes: Vec<u32>,
    /// How many short strings JavaScript keeps for repeats: the first
    /// this many of `text` of at most [`SHORT`] units.
    pub repeats: u32,
}

/// The tape of `value`.
#[cfg(test)]
pub fn tape(value: &Value, numbers: Numbers) -> Tape {
    let mut b = Builder::new(numbers);
    pith_bindings::sink::walk(value, &mut b);
    b.finish()
}

/// The short strings of `text` seen so far, each numbered by its first
/// appearance, so that a repeat crosses as that number.
struct Repeats {
    on: bool,
    /// Open addressing: 0 is empty, else a string's number plus one.
    slots: Vec<u32>,
    /// Each string's bytes in `text`.
    spans: Vec<(u32, u32)>,
    hits: usize,
}

impl Repeats {
    fn new() -> Repeats {
        Repeats {
            on: true,
            slots: vec![0; 1024],
            spans: Vec::new(),
            hits: 0,
        }
    }

    /// The number of `s` if it was seen; else `s` is numbered as the next
    /// string, to be written at `at` in `text` (unless repeating stops).
    fn find(&mut self, s: &[u8], text: &[u8], at: usize) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = hash(s) as usize & mask;
        loop {
            match self.slots[i] {
                0 => break,
                id => {
                    let (start, len) = self.spans[id as usize - 1];
                    if text.get(start as usize..(start + len) as usize) == Some(s) {
                        self.hits += 1;
                        return Some(id - 1);
                    }
                }
            }
            i = (i + 1) & mask;
        }
        let n = self.spans.len();
        if n >= MAX_REPEATS || (n == REPEATS_TRIAL && self.hits < n) {
            self.on = false;
            return None;
        }
        self.spans.push((at as u32, s.len() as u32));
        self.slots[i] = n as u32 + 1;
        if self.spans.len() * 2 > self.slots.len() {
            self.grow(text, s, at);
        }
        None
    }

    fn grow(&mut self, text: &[u8], last: &[u8], at: usize) {
        let mut slots = vec![0u32; self.slots.len() * 2];
        let mask = slots.len() - 1;
        for (n, &(start, len)) in self.spans.iter().enumerate() {
            // The last string is not in `text` yet.
            let bytes = text
                .get(start as usize..(start + len) as usize)
                .unwrap_or(if start as usize == at { last } else { &[] });
            let mut i = hash(bytes) as usize & mask;
            while slots[i] != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = n as u32 + 1;
        }
        self.slots = slots;
    }
}

/// A short string's hash (eight bytes at a time, multiplied through).
fn hash(s: &[u8]) -> u64 {
    let mut h = s.len() as u64;
    for chunk in s.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^ (h >> 32)
}

/// An object not yet closed.
struct Open {
    /// Its operation, written when it closes.
    op: usize,
    /// Where its key ids start in `pending`.
    first: usize,
    /// The shape of the object before it at its depth, while its keys
    /// match that shape's so far.
    guess: Option<u32>,
}

/// Writes a tape from a value's events.
pub struct Builder {
    numbers: Numbers,
    tape: Tape,
    key_ids: HashMap<String, u32>,
    /// Each key by id.
    key_list: Vec<String>,
    shape_ids: HashMap<Vec<u32>, u32>,
    /// Each shape's keys and how many objects use it.
    shape_list: Vec<(Vec<u32>, u32)>,
    open: Vec<Open>,
    /// The key ids of the open objects.
    pending: Vec<u32>,
    /// The shape of the last object closed at each depth: the rows of a
    /// table share their keys, so most objects match the one before.
    recent: Vec<Option<u32>>,
    repeats: Repeats,
    digits: Vec<u8>,
    /// The digits `BigInt`s may still hold: the text's allowance
    /// ([`digit_allowance`]; V8 takes about a tenth of a second to make a
    /// `BigInt` of a million digits, which `1e999999` spells in 8 bytes).
    bigint_digits_left: u64,
}

impl Builder {
    /// An empty tape.
    #[cfg(test)]
    pub fn new(numbers: Numbers) -> Builder {
        Builder::for_text(numbers, 0)
    }

    /// An empty tape with room for what a text of `len` bytes usually
    /// makes, so that its arrays are not copied as they grow (room never
    /// written costs no memory).
    pub fn for_text(numbers: Numbers, len: usize) -> Builder {
        Builder {
            numbers,
            tape: Tape {
                ops: Vec::with_capacity(len / 4),
                nums: Vec::with_capacity(len / 16),
                text: String::with_capacity(len / 2),
                ..Tape::default()
            },
            key_ids: HashMap::new(),
            key_list: Vec::new(),
            shape_ids: HashMap::new(),
            shape_list: Vec::new(),
            open: Vec::new(),
            pending: Vec::new(),
            recent: Vec::new(),
            repeats: Repeats::new(),
            digits: Vec::new(),
            bigint_digits_left: digit_allowance(len),
        }
    }

    /// The tape, its shapes written out.
    pub fn finish(self) -> Tape {
        let mut tape = self.tape;
        tape.repeats = self.repeats.spans.len() as u32;
        for (ids, uses) in &self.shape_list {
            tape.shapes.push(ids.len() as u32);
            tape.shapes.push(*uses);
            tape.shapes.extend_from_slice(ids);
        }
        tape
    }

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

    fn key_id(&mut self, k: &str) -> u32 {
        if let Some(&id) = self.key_ids.get(k) {
            return id;
        }
        let id = self.key_list.len() as u32;
        self.tape.keys.push_str(k);
        self.tape.key_lens.push(utf16_len(k) as u32);
        self.key_ids.insert(k.to_owned(), id);
        self.key_list.push(k.to_owned());
        id
    }

    fn shape_id(&mut self, ids: &[u32]) -> u32 {
        if let Some(&id) = self.shape_ids.get(ids) {
            return id;
        }
        let id = self.shape_list.len() as u32;
        self.shape_ids.insert(ids.to_vec(), id);
        self.shape_list.push((ids.to_vec(), 0));
        id
    }

    fn exact_number(&mut self, n: &Number) {
        if let Some(v) = n.as_i64()
            && (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&v)
        {
            return self.double(v as f64);
        }
        if n.is_integer() && self.numbers.bigint {
            let most = MAX_WHOLE_DIGITS.min(self.bigint_digits_left);
            let digits = match decoded(n, usize::try_from(most).unwrap_or(usize::MAX)) {
                Decoded::Small(v) => v.to_string(),
                Decoded::Digits(d) => d,
                // Too many digits for a `BigInt` (see the limits above):
                // its exact text, as `exact` gives numbers a double does
                // not hold, where the nearest double would be an infinity.
                Decoded::Text(text) => return self.spelled(AS_EXACT, &text),
            };
            self.bigint_digits_left = self.bigint_digits_left.saturating_sub(digits.len() as u64);
            return self.spelled(AS_BIGINT, &digits);
        }
        let f = nearest_f64(n, &mut self.digits);
        if self.numbers.exact && Number::from_f64(f).as_ref() != Some(n) {
            return self.spelled(AS_EXACT, &n.to_string());
        }
        self.double(f);
    }

    fn double(&mut self, f: f64) {
        self.tape.ops.push(NUMBER | AS_DOUBLE << 3);
        self.tape.nums.push(f);
    }

    fn spelled(&mut self, how: u32, text: &str) {
        self.op(NUMBER, how as usize);
        self.string(text);
    }
}

impl Sink for Builder {
    type Shape = u32;

    fn null(&mut self) {
        self.tape.ops.push(NULL);
    }

    fn bool(&mut self, v: bool) {
        self.tape.ops.push(if v { TRUE } else { FALSE });
    }

    fn number(&mut self, n: Num<'_>) {
        match n {
            Num::Int(v) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&v) => {
                self.double(v as f64);
            }
            // The nearest double of the decimal, as its canonical text
            // reads (a zero has no sign).
            Num::Decimal(text) if !self.numbers.bigint && !self.numbers.exact => {
                let f: f64 = text.parse().unwrap_or(0.0);
                self.double(if f == 0.0 { 0.0 } else { f });
            }
            Num::Exact(n) => self.exact_number(n),
            other => self.exact_number(&other.to_number()),
        }
    }

    fn string(&mut self, s: &str) {
        let units = if s.is_ascii() {
            s.len()
        } else if s.chars().all(|c| u32::from(c) < 0x100) {
            s.chars().count()
        } else {
            self.tape.wide.push_str(s);
            self.tape.ops.push(NUMBER | WIDE_STRING << 3);
            // Lengths of JavaScript strings fit in 32 bits.
            self.tape
                .ops
                .push(u32::try_from(utf16_len(s)).unwrap_or(u32::MAX));
            return;
        };
        if units <= SHORT && self.repeats.on {
            let text = self.tape.text.as_bytes();
            if let Some(id) = self.repeats.find(s.as_bytes(), text, text.len()) {
                return self.op(REPEATED_STRING, id as usize);
            }
        }
        self.tape.text.push_str(s);
        self.op(NARROW_STRING, units);
    }

    fn array(&mut self, len: usize) {
        self.op(ARRAY, len);
    }

    fn object(&mut self) {
        let depth = self.open.len();
        self.open.push(Open {
            op: self.tape.ops.len(),
            first: self.pending.len(),
            guess: self.recent.get(depth).copied().flatten(),
        });
        self.tape.ops.push(OBJECT);
    }

    fn key(&mut self, k: &str) {
        let Some(open) = self.open.last_mut() else {
            return;
        };
        let at = self.pending.len() - open.first;
        if let Some(shape) = open.guess {
            let keys = &self.shape_list[shape as usize].0;
            if let Some(&id) = keys.get(at)
                && self.key_list[id as usize] == k
            {
                self.pending.push(id);
                return;
            }
            open.guess = None;
        }
        let id = self.key_id(k);
        self.pending.push(id);
    }

    fn end_object(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        let ids = &self.pending[open.first..];
        let id = match open.guess {
            Some(shape) if self.shape_list[shape as usize].0.len() == ids.len() => shape,
            _ => {
                let ids = ids.to_vec();
                self.shape_id(&ids)
            }
        };
        self.pending.truncate(open.first);
        self.shape_list[id as usize].1 += 1;
        let depth = self.open.len();
        if self.recent.len() <= depth {
            self.recent.resize(depth + 1, None);
        }
        self.recent[depth] = Some(id);
        if id < ESCAPE {
            self.tape.ops[open.op] = OBJECT | id << 3;
        } else {
            // Never in practice: half a billion shapes.
            self.tape.ops[open.op] = OBJECT | ESCAPE << 3;
            self.tape.ops.insert(open.op + 1, id);
        }
    }

    fn shape(&mut self, keys: &[&str]) -> u32 {
        let ids: Vec<u32> = keys.iter().map(|k| self.key_id(k)).collect();
        self.shape_id(&ids)
    }

    fn row(&mut self, shape: u32) {
        self.shape_list[shape as usize].1 += 1;
        self.op(OBJECT, shape as usize);
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
    fn rows_share_one_shape_and_strings_split_by_width() {
        let v =
            pith::json::parse(r#"{"rows":[{"id":1,"name":"a"},{"id":2,"name":"dé 😀"}],"é":null}"#)
                .unwrap();
        let t = tape(&v, Numbers::default());
        assert_eq!(t.keys, "rowsidnameé");
        assert_eq!(t.key_lens, vec![4, 2, 4, 1]);
        // Row shape {id, name} used twice; root {rows, é} once.
        assert_eq!(t.shapes, vec![2, 2, 1, 2, 2, 1, 0, 3]);
        assert_eq!(t.text, "a");
        assert_eq!(t.wide, "dé 😀");
        assert_eq!(t.repeats, 1);
        assert_eq!(t.nums, vec![1.0, 2.0]);
        assert_eq!(
            t.ops,
            vec![
                OBJECT | 1 << 3,
                ARRAY | 2 << 3,
                OBJECT,
                NUMBER,
                NARROW_STRING | 1 << 3,
                OBJECT,
                NUMBER,
                NUMBER | WIDE_STRING << 3,
                5,
                NULL,
            ]
        );
    }

    #[test]
    fn short_strings_repeat_by_number() {
        let v =
            pith::json::parse(r#"["ab","a longer string","ab","","","a longer string","é","é"]"#)
                .unwrap();
        let t = tape(&v, Numbers::default());
        assert_eq!(t.text, "aba longer stringa longer stringé");
        assert_eq!(t.repeats, 3);
        assert_eq!(
            t.ops,
            vec![
                ARRAY | 8 << 3,
                NARROW_STRING | 2 << 3,
                NARROW_STRING | 15 << 3,
                REPEATED_STRING,
                NARROW_STRING,
                REPEATED_STRING | 1 << 3,
                NARROW_STRING | 15 << 3,
                NARROW_STRING | 1 << 3,
                REPEATED_STRING | 2 << 3,
            ]
        );
    }

    /// Many distinct short strings stop the numbering after the trial;
    /// many repeated ones, and growing the table, keep every one.
    #[test]
    fn numbering_stops_where_it_saves_nothing() {
        let distinct: Vec<Value> = (0..10_000).map(|i| Value::from(format!("s{i}"))).collect();
        let t = tape(&Value::Array(distinct), Numbers::default());
        assert_eq!(t.repeats as usize, REPEATS_TRIAL);
        assert!(t.ops[1..].iter().all(|op| op & 7 == NARROW_STRING));
        let repeated: Vec<Value> = (0..20_000)
            .map(|i| Value::from(format!("s{}", i % 3000)))
            .collect();
        let t = tape(&Value::Array(repeated), Numbers::default());
        assert_eq!(t.repeats, 3000);
        for (i, op) in t.ops[1..].iter().enumerate() {
            if i < 3000 {
                assert_eq!(op & 7, NARROW_STRING);
            } else {
                assert_eq!(*op, REPEATED_STRING | ((i % 3000) as u32) << 3);
            }
        }
    }

    #[test]
    fn latin1_strings_are_narrow() {
        let v = pith::json::parse(r#"["café","ÿ","Ā"]"#).unwrap();
        let t = tape(&v, Numbers::default());
        assert_eq!(t.text, "caféÿ");
        assert_eq!(t.wide, "Ā");
        assert_eq!(
            t.ops,
            vec![
                ARRAY | 3 << 3,
                NARROW_STRING | 4 << 3,
                NARROW_STRING | 1 << 3,
                NUMBER | WIDE_STRING << 3,
                1
            ]
        );
    }

    #[test]
    fn big_and_inexact_numbers_are_spelled_when_asked() {
        let v = pith::json::parse("[9007199254740993, 0.1, 1e400, 0.1000000000000000055511, 5]")
            .unwrap();
        let plain = tape(&v, Numbers::default());
        assert!(plain.text.is_empty() && plain.wide.is_empty());
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
            exact.text,
            format!(
                "90071992547409931{}0.1000000000000000055511",
                "0".repeat(400)
            )
        );
        let exact_only = tape(
            &v,
            Numbers {
                bigint: false,
                exact: true,
            },
        );
        assert_eq!(
            exact_only.text,
            "90071992547409931e+4000.1000000000000000055511"
        );
    }

    /// An integer a `BigInt` would cost too much for crosses as its exact
    /// text, never as the nearest double (an infinity): one of more than
    /// a million digits, and any beyond what one text's `BigInt`s may hold.
    #[test]
    fn integers_too_long_for_a_bigint_are_exact_decimals() {
        let v =
            pith::json::parse("[1e1000000, -1e999999999, 1e99999, 1e99999, 12345678901234567890]")
                .unwrap();
        for numbers in [
            Numbers {
                bigint: true,
                exact: false,
            },
            Numbers {
                bigint: true,
                exact: true,
            },
        ] {
            // A tape made for no text: WHOLE_DIGITS_FLOOR digits in all,
            // which the first 1e99999 uses up.
            let t = tape(&v, numbers);
            assert!(t.nums.is_empty());
            assert_eq!(
                t.text,
                format!(
                    "1e+1000000-1e+9999999991{}1e+9999912345678901234567890",
                    "0".repeat(99_999)
                )
            );
            let spelled = |how: u32, len: u32| [NUMBER | how << 3, NARROW_STRING | len << 3];
            let mut want = vec![ARRAY | 5 << 3];
            for (how, len) in [
                (AS_EXACT, 10),
                (AS_EXACT, 13),
                (AS_BIGINT, 100_000),
                (AS_EXACT, 8),
                (AS_EXACT, 20),
            ] {
                want.extend(spelled(how, len));
            }
            assert_eq!(t.ops, want);
        }
        // A longer text has room for more.
        let two = pith::json::parse("[1e99999, 1e99999]").unwrap();
        let bigint = Numbers {
            bigint: true,
            exact: false,
        };
        let mut b = Builder::for_text(bigint, 12_500);
        pith_bindings::sink::walk(&two, &mut b);
        let t = b.finish();
        assert_eq!(t.text.len(), 200_000);
        assert_eq!(t.ops[1], NUMBER | AS_BIGINT << 3);
        assert_eq!(t.ops[3], NUMBER | AS_BIGINT << 3);
    }

    /// The short forms the reader sends give the doubles a value's
    /// numbers give.
    #[test]
    fn short_numbers_give_the_doubles_of_their_values() {
        for text in [
            "-0",
            "-0.0",
            "0.50",
            "-12.25",
            "956.02",
            "123456789012345678",
            "9007199254740993",
            "1.000000000000000001",
        ] {
            let n = Number::parse(text).unwrap();
            for numbers in [
                Numbers::default(),
                Numbers {
                    bigint: true,
                    exact: false,
                },
                Numbers {
                    bigint: true,
                    exact: true,
                },
                Numbers {
                    bigint: false,
                    exact: true,
                },
            ] {
                let mut want = Builder::new(numbers);
                want.number(Num::Exact(&n));
                let mut got = Builder::new(numbers);
                if text.contains('.') {
                    got.number(Num::Decimal(text));
                } else {
                    got.number(Num::Int(text.parse().unwrap()));
                }
                let (want, got) = (want.finish(), got.finish());
                assert_eq!(want.ops, got.ops, "{text}");
                assert_eq!(want.text, got.text, "{text}");
                let bits = |t: &Tape| t.nums.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&want), bits(&got), "{text}");
            }
        }
    }
}

//! A value as a package hands it over: a tape of flat arrays.
//!
//! Node's `index.js` walks a JavaScript value once, with `JSON.stringify`'s
//! rules, and the Python package walks its objects the same way (for the
//! plain ones, see [`crate::direct`]); each writes what it finds as `u32`
//! operations, the `f64`s of its numbers and one text holding its strings
//! and keys, one after the other (Node's as UTF-8 bytes, which the module
//! checks). Numbers cross as the doubles they are (no decimal text is
//! written or read), strings as one text, and the keys of
//! objects that share their keys (the rows of a table) once. [`read`]
//! builds the [`Value`]; [`crate::direct`] writes TOON from the tape.
//!
//! Each operation is `tag | payload << 3`:
//!
//! | tag | meaning | payload |
//! |---|---|---|
//! | 0, 1, 2 | `null`, `false`, `true` | 0 |
//! | 3 | a number | 0: the next double; 1: exact, spelled by the string operation that follows (a `BigInt`'s digits, an `ExactNumber`'s text) |
//! | 4 | a string | its length in UTF-16 units |
//! | 5 | a new shape: the next shape's keys | its key count; a string operation per key follows |
//! | 6 | an array | its length; its items follow |
//! | 7 | an object | its shape (numbered from 0 in the order defined); its values follow in the shape's key order |
//!
//! A payload of [`ESCAPE`] or more is written as [`ESCAPE`] followed by an
//! operation holding the whole number. The tape comes from the package,
//! but it is checked all the same: a malformed one is an error, never a
//! panic.

use crate::number::from_f64;
use crate::op::{ARRAY, ESCAPE, FALSE, NULL, NUMBER, OBJECT, TRUE};
use pith::{Map, Number, Value};

/// Deeper nesting than this is refused (the packages stop at 256 levels).
const MAX_DEPTH: usize = pith::MAX_DEPTH_LIMIT;

/// A string; the payload is its length in UTF-16 units.
pub const STRING: u32 = 4;
/// A new shape; the payload is its key count.
pub const SHAPE: u32 = 5;

/// Why a tape could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TapeError {
    /// A string's length ends inside a character (the strings around it
    /// hold a lone surrogate each, which the text joined into a pair).
    Split,
    /// An exact number whose text is no number pith keeps.
    Number(String),
    /// The tape does not follow the layout (not written by a package).
    Malformed(&'static str),
}

/// The value the tape `ops`, `nums`, `strs` stands for.
///
/// # Errors
///
/// A [`TapeError`]; the caller names the path by walking the value again.
pub fn read(ops: &[u32], nums: &[f64], strs: &str) -> Result<Value, TapeError> {
    let mut r = Reader {
        c: Cursor::new(ops, nums, strs),
        shapes: Vec::new(),
    };
    let v = r.value(0)?;
    if !r.c.done() {
        return Err(TapeError::Malformed("the tape holds more than one value"));
    }
    Ok(v)
}

/// A place in a tape, and its operations, doubles and strings read in turn.
#[derive(Clone)]
pub struct Cursor<'a> {
    ops: &'a [u32],
    nums: &'a [f64],
    strs: &'a str,
    /// Whether every string is ASCII, so that UTF-16 lengths are byte lengths.
    ascii: bool,
    op: usize,
    num: usize,
    /// Byte offset of the next string in `strs`.
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of the tape `ops`, `nums`, `strs`.
    pub fn new(ops: &'a [u32], nums: &'a [f64], strs: &'a str) -> Cursor<'a> {
        Cursor {
            ops,
            nums,
            strs,
            ascii: strs.is_ascii(),
            op: 0,
            num: 0,
            at: 0,
        }
    }

    /// Whether all of the tape has been read.
    pub fn done(&self) -> bool {
        self.op == self.ops.len() && self.num == self.nums.len() && self.at == self.strs.len()
    }

    /// Operations not read yet.
    pub fn ops_left(&self) -> usize {
        self.ops.len() - self.op
    }

    fn next_op(&mut self) -> Result<u32, TapeError> {
        let op = *self
            .ops
            .get(self.op)
            .ok_or(TapeError::Malformed("the tape ends early"))?;
        self.op += 1;
        Ok(op)
    }

    /// The next operation's tag and its whole payload.
    pub fn operation(&mut self) -> Result<(u32, usize), TapeError> {
        let op = self.next_op()?;
        let payload = op >> 3;
        let payload = if payload == ESCAPE {
            self.next_op()?
        } else {
            payload
        };
        Ok((op & 7, payload as usize))
    }

    /// The next double.
    pub fn double(&mut self) -> Result<f64, TapeError> {
        let f = *self
            .nums
            .get(self.num)
            .ok_or(TapeError::Malformed("the numbers end early"))?;
        self.num += 1;
        Ok(f)
    }

    /// The next string, of `units` UTF-16 units.
    pub fn string(&mut self, units: usize) -> Result<&'a str, TapeError> {
        let rest = &self.strs[self.at..];
        let bytes = if self.ascii {
            if units > rest.len() {
                return Err(TapeError::Malformed("the strings end early"));
            }
            units
        } else {
            let mut counted = 0;
            let mut end = 0;
            for c in rest.chars() {
                if counted >= units {
                    break;
                }
                counted += c.len_utf16();
                end += c.len_utf8();
            }
            if counted < units {
                return Err(TapeError::Malformed("the strings end early"));
            }
            if counted > units {
                return Err(TapeError::Split);
            }
            end
        };
        self.at += bytes;
        Ok(&rest[..bytes])
    }
}

struct Reader<'a> {
    c: Cursor<'a>,
    shapes: Vec<Vec<String>>,
}

impl Reader<'_> {
    fn value(&mut self, depth: usize) -> Result<Value, TapeError> {
        if depth > MAX_DEPTH {
            return Err(TapeError::Malformed("the tape nests too deep"));
        }
        let (tag, payload) = self.c.operation()?;
        Ok(match tag {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            NUMBER => Value::Number(self.number(payload)?),
            STRING => Value::String(self.c.string(payload)?.to_owned()),
            SHAPE => {
                let mut keys = Vec::with_capacity(payload.min(self.c.ops_left()));
                for _ in 0..payload {
                    let (tag, len) = self.c.operation()?;
                    if tag != STRING {
                        return Err(TapeError::Malformed("a shape's key is no string"));
                    }
                    keys.push(self.c.string(len)?.to_owned());
                }
                self.shapes.push(keys);
                return self.value(depth);
            }
            ARRAY => {
                // Every item takes at least one operation.
                if payload > self.c.ops_left() {
                    return Err(TapeError::Malformed("an array is longer than the tape"));
                }
                let mut items = Vec::with_capacity(payload);
                for _ in 0..payload {
                    items.push(self.value(depth + 1)?);
                }
                Value::Array(items)
            }
            OBJECT => {
                let n = self
                    .shapes
                    .get(payload)
                    .ok_or(TapeError::Malformed("an object of a shape not defined"))?
                    .len();
                let mut m = Map::with_capacity(n);
                for i in 0..n {
                    let v = self.value(depth + 1)?;
                    let key = self.shapes[payload][i].clone();
                    if m.insert(key, v).is_some() {
                        return Err(TapeError::Malformed("a shape holds a key twice"));
                    }
                }
                Value::Object(m)
            }
            _ => return Err(TapeError::Malformed("an operation of no known kind")),
        })
    }

    fn number(&mut self, how: usize) -> Result<Number, TapeError> {
        if how == 0 {
            return double(self.c.double()?);
        }
        let (tag, len) = self.c.operation()?;
        if tag != STRING {
            return Err(TapeError::Malformed("an exact number has no text"));
        }
        let text = self.c.string(len)?;
        Number::parse(text).map_err(|_| TapeError::Number(text.to_owned()))
    }
}

/// `f` as the number `JSON.stringify` writes for it (see
/// [`pith_bindings::number::from_f64`]).
fn double(f: f64) -> Result<Number, TapeError> {
    from_f64(f).ok_or(TapeError::Malformed("a number that is not finite"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(tag: u32, payload: u32) -> u32 {
        tag | payload << 3
    }

    #[test]
    fn rows_of_one_shape_and_every_kind_of_value() {
        // [{"a":1,"é":"xy"},{"a":-0,"é":"😀"}, null, true, false, 1.5e-300, 12345678901234567890]
        let ops = [
            op(ARRAY, 7),
            op(SHAPE, 2),
            op(STRING, 1),
            op(STRING, 1),
            op(OBJECT, 0),
            op(NUMBER, 0),
            op(STRING, 2),
            op(OBJECT, 0),
            op(NUMBER, 0),
            op(STRING, 2),
            op(NULL, 0),
            op(TRUE, 0),
            op(FALSE, 0),
            op(NUMBER, 0),
            op(NUMBER, 1),
            op(STRING, 20),
        ];
        let nums = [1.0, -0.0, 1.5e-300];
        let strs = "aéxy😀12345678901234567890";
        let v = read(&ops, &nums, strs).unwrap();
        assert_eq!(
            pith::json::stringify(&v),
            r#"[{"a":1,"é":"xy"},{"a":0,"é":"😀"},null,true,false,1.5e-300,12345678901234567890]"#
        );
    }

    #[test]
    fn a_pair_joined_across_two_strings_is_refused() {
        // "\uD83D" then "\uDE00": the text holds one 😀, each length is 1.
        let ops = [op(ARRAY, 2), op(STRING, 1), op(STRING, 1)];
        assert_eq!(read(&ops, &[], "😀"), Err(TapeError::Split));
    }

    #[test]
    fn malformed_tapes_are_errors() {
        let cases: [(&[u32], &[f64], &str); 9] = [
            (&[], &[], ""),
            (&[op(ARRAY, 3), op(NULL, 0)], &[], ""),
            (&[op(ARRAY, ESCAPE)], &[], ""),
            (&[op(OBJECT, 0)], &[], ""),
            (&[op(NUMBER, 0)], &[], ""),
            (&[op(STRING, 4)], &[], "abc"),
            (&[op(NULL, 0), op(NULL, 0)], &[], ""),
            (
                &[
                    op(SHAPE, 2),
                    op(STRING, 1),
                    op(STRING, 1),
                    op(OBJECT, 0),
                    op(NULL, 0),
                    op(NULL, 0),
                ],
                &[],
                "aa",
            ),
            (&[op(NUMBER, 1), op(STRING, 3)], &[], "1x2"),
        ];
        for (ops, nums, strs) in cases {
            assert!(read(ops, nums, strs).is_err(), "{ops:?}");
        }
        let deep: Vec<u32> = std::iter::repeat_n(op(ARRAY, 1), 100_000).collect();
        assert!(read(&deep, &[], "").is_err());
    }
}

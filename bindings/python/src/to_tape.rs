//! Plain Python objects → an input tape ([`pith_bindings::input`]), for
//! `format="toon"` written straight from it ([`pith_bindings::direct`])
//! without building a [`pith::Value`].
//!
//! Only exact `dict` (with exact `str` keys), `list`, `tuple`, `str`, `int`,
//! `float`, `bool` and `None` are taken, nested at most [`MAX_DEPTH`]
//! deep. Anything else (a subclass, a `Decimal`, a value for the `default`
//! hook, NaN, a lone surrogate, a cycle) gives `None`, and the caller takes
//! [`crate::to_value`]'s path, which converts or refuses it with its path.
//!
//! No Python code runs while a plain value is read: nothing here calls
//! Python, and the only objects made are the exceptions of a refused
//! conversion (a big `int`, a lone surrogate), after which the walk gives
//! up at once. Containers are read with [`crate::members`] all the same,
//! so that a change made anyway (by a finalizer, say) ends the walk with
//! `None` rather than a panic or a tape whose counts are wrong.

use crate::members;
use crate::text::utf8;
use pith_bindings::input::{SHAPE, STRING};
use pith_bindings::op::{ARRAY, ESCAPE, FALSE, NULL, NUMBER, OBJECT, TRUE};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::collections::HashMap;

/// Deeper values are left to [`crate::to_value`] (which refuses cycles).
const MAX_DEPTH: usize = 64;

/// Integers of at most this magnitude cross as doubles, which hold them.
const EXACT_INTEGERS: i64 = 1 << 53;

/// A tape, as [`pith_bindings::input`] lays it out.
#[derive(Default)]
pub struct Tape {
    /// The operations.
    pub ops: Vec<u32>,
    /// The doubles.
    pub nums: Vec<f64>,
    /// The strings and keys, one after the other.
    pub strs: String,
}

/// The tape of `obj`, or `None` when it is not plain (see the module docs).
pub fn to_tape(obj: &Bound<'_, PyAny>) -> Option<Tape> {
    let mut w = Walk::default();
    w.value(obj, 0)?;
    Some(w.tape)
}

#[derive(Default)]
struct Walk {
    tape: Tape,
    /// Each shape's number, by its keys.
    shapes: HashMap<Vec<String>, u32>,
    /// The last dict's keys (as objects) and shape at each depth: the rows
    /// of a table share their keys, and `json.loads` gives equal keys of
    /// one document as one object.
    last: Vec<(Vec<usize>, u32)>,
    /// The keys of the dict being read.
    scratch: Vec<usize>,
}

impl Walk {
    fn op(&mut self, tag: u32, payload: usize) -> Option<()> {
        let payload = u32::try_from(payload).ok()?;
        if payload < ESCAPE {
            self.tape.ops.push(tag | payload << 3);
        } else {
            self.tape.ops.push(tag | ESCAPE << 3);
            self.tape.ops.push(payload);
        }
        Some(())
    }

    fn string(&mut self, s: &Bound<'_, PyString>) -> Option<()> {
        let text = utf8(s).ok()?;
        self.text(&text)
    }

    fn text(&mut self, text: &str) -> Option<()> {
        let units = if text.is_ascii() {
            text.len()
        } else {
            text.chars().map(char::len_utf16).sum()
        };
        self.tape.strs.push_str(text);
        self.op(STRING, units)
    }

    fn value(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> Option<()> {
        if let Ok(s) = obj.cast_exact::<PyString>() {
            return self.string(s);
        }
        if obj.is_exact_instance_of::<PyInt>() {
            return match obj.extract::<i64>() {
                Ok(i) if i.abs() <= EXACT_INTEGERS => {
                    self.tape.nums.push(i as f64);
                    self.op(NUMBER, 0)
                }
                Ok(i) => {
                    let text = i.to_string();
                    self.tape.strs.push_str(&text);
                    self.op(NUMBER, 1)?;
                    self.op(STRING, text.len())
                }
                Err(_) => None,
            };
        }
        if let Ok(f) = obj.cast_exact::<PyFloat>() {
            let f = f.value();
            if !f.is_finite() {
                return None;
            }
            self.tape.nums.push(f);
            return self.op(NUMBER, 0);
        }
        if let Ok(b) = obj.cast_exact::<PyBool>() {
            return self.op(if b.is_true() { TRUE } else { FALSE }, 0);
        }
        if obj.is_none() {
            return self.op(NULL, 0);
        }
        if depth >= MAX_DEPTH {
            return None;
        }
        if let Ok(d) = obj.cast_exact::<PyDict>() {
            return self.dict(d, depth);
        }
        if let Ok(l) = obj.cast_exact::<PyList>() {
            self.op(ARRAY, l.len())?;
            return members::list_items(l).try_for_each(|x| self.value(&x.ok()?, depth + 1));
        }
        if let Ok(t) = obj.cast_exact::<PyTuple>() {
            self.op(ARRAY, t.len())?;
            return t.iter().try_for_each(|x| self.value(&x, depth + 1));
        }
        None
    }

    fn dict(&mut self, d: &Bound<'_, PyDict>, depth: usize) -> Option<()> {
        // The dict is read more than once (its keys, the keys' text for a
        // new shape, its values): each reading must see as many members as
        // the first.
        let len = d.len();
        self.scratch.clear();
        for k in members::dict_items(d).keys() {
            let k = k.ok()?;
            if !k.is_exact_instance_of::<PyString>() {
                return None;
            }
            self.scratch.push(k.as_ptr() as usize);
        }
        let id = match self.last.get(depth) {
            Some((keys, id)) if *keys == self.scratch => *id,
            _ => self.shape(d, len, depth)?,
        };
        self.op(OBJECT, id as usize)?;
        if d.len() != len {
            return None;
        }
        members::dict_items(d)
            .values()
            .try_for_each(|v| self.value(&v.ok()?, depth + 1))
    }

    /// The number of the shape of `d`'s keys (`len` of them), defined on
    /// the tape when new.
    fn shape(&mut self, d: &Bound<'_, PyDict>, len: usize, depth: usize) -> Option<u32> {
        if d.len() != len {
            return None;
        }
        let keys: Vec<String> = members::dict_items(d)
            .keys()
            .map(|k| Some(utf8(k.ok()?.cast::<PyString>().ok()?).ok()?.into_owned()))
            .collect::<Option<_>>()?;
        let next = self.shapes.len() as u32;
        let id = match self.shapes.get(&keys) {
            Some(&id) => id,
            None => {
                self.op(SHAPE, keys.len())?;
                for k in &keys {
                    self.text(k)?;
                }
                self.shapes.insert(keys, next);
                next
            }
        };
        if self.last.len() <= depth {
            self.last.resize(depth + 1, (Vec::new(), 0));
        }
        self.last[depth] = (self.scratch.clone(), id);
        Some(id)
    }
}

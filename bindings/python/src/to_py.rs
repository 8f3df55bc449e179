//! [`pith::Value`] → Python objects, as `json.loads` builds them.
//!
//! Objects become `dict`s in key order (equal keys share one `str`, as
//! `json.loads` shares them), arrays `list`s. Whole numbers become `int`
//! (through `parse_int` when given); other numbers become `float` (through
//! `parse_float` when given, which receives the number's exact text, so
//! `parse_float=decimal.Decimal` keeps every digit).
//!
//! A whole number is made into an `int` only within two bounds on its
//! digits, the zeros its exponent stands for included (`1e+5000` has
//! 5001): `sys.get_int_max_str_digits()` for each number, as `int()` and
//! `json.loads` apply it (a million when the interpreter sets none), and
//! [`digit_allowance`] for all the numbers of one text together, since a
//! few bytes (`1e999999`) can stand for digits that take seconds to make.
//! Beyond either, the number goes to `parse_float` when one is given, and
//! is refused otherwise ([`BuildError::TooLong`], a `DecodeError` naming
//! its JSON path): a float would be `inf`, which is not the number the
//! text holds.

use pith::Value;
use pith_bindings::number::{
    MAX_WHOLE_DIGITS, WHOLE_DIGITS_FLOOR, WHOLE_DIGITS_PER_BYTE, Whole, digit_allowance,
    nearest_f64, whole,
};
use pith_bindings::path::{Step, render_inner_first};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString};
use std::collections::HashMap;

/// Why the objects of a decoded value could not be made.
pub enum BuildError {
    /// Raised by Python: by `parse_int` or `parse_float`, or for want of
    /// memory.
    Raised(PyErr),
    /// A whole number too long to become an `int`.
    TooLong(Box<TooLong>),
}

/// A whole number too long to become an `int`, and where it is.
pub struct TooLong {
    /// What was found and expected.
    pub message: String,
    /// The way to the number, innermost first, collected on the way out.
    pub steps: Vec<Step>,
}

impl BuildError {
    /// Notes that the error passed through `step` on its way out.
    pub fn at(self, step: Step) -> BuildError {
        match self {
            BuildError::TooLong(mut t) => {
                t.steps.push(step);
                BuildError::TooLong(t)
            }
            raised => raised,
        }
    }

    /// The exception: a refused number's message after its JSON path,
    /// as `ValueError` (`decode` raises `DecodeError` instead, with the
    /// text).
    pub fn into_value_error(self) -> PyErr {
        match self {
            BuildError::Raised(e) => e,
            BuildError::TooLong(t) => {
                PyValueError::new_err(format!("at {}: {}", t.path(), t.message))
            }
        }
    }
}

impl TooLong {
    /// The JSON path of the number.
    pub fn path(&self) -> String {
        render_inner_first(&self.steps)
    }
}

impl From<PyErr> for BuildError {
    fn from(e: PyErr) -> BuildError {
        BuildError::Raised(e)
    }
}

/// How numbers are handed over.
pub struct Numbers<'py> {
    /// Called with the digits of every whole number.
    pub parse_int: Option<Bound<'py, PyAny>>,
    /// Called with the text of every other number.
    pub parse_float: Option<Bound<'py, PyAny>>,
}

/// Builds the Python object for `value`, read from a text of `text_len`
/// bytes (which sets the digits its whole numbers may have in all).
///
/// # Errors
///
/// Whatever `parse_int` or `parse_float` raises, and a whole number too
/// long to become an `int`.
pub fn to_py<'py>(
    py: Python<'py>,
    value: &Value,
    numbers: &Numbers<'py>,
    text_len: usize,
) -> Result<Bound<'py, PyAny>, BuildError> {
    let mut b = Builder {
        py,
        numbers: NumberMaker::new(py, numbers, text_len),
        keys: HashMap::new(),
        recent: Vec::new(),
    };
    b.build(value)
}

/// `sys.get_int_max_str_digits()`, or `None` where the interpreter has
/// no limit (0, or a Python before the limit).
fn int_digit_limit(py: Python<'_>) -> Option<usize> {
    let limit = py
        .import("sys")
        .and_then(|sys| sys.getattr("get_int_max_str_digits"))
        .and_then(|f| f.call0())
        .and_then(|n| n.extract::<usize>());
    match limit {
        Ok(0) | Err(_) => None,
        Ok(n) => Some(n),
    }
}

/// Makes the Python number of a decoded number, with the caller's hooks.
pub struct NumberMaker<'n, 'py> {
    py: Python<'py>,
    numbers: &'n Numbers<'py>,
    /// `sys.get_int_max_str_digits()`, unless the interpreter sets none.
    limit: Option<usize>,
    /// The bytes of the text, and the digits its whole numbers may still
    /// hold ([`digit_allowance`]).
    text_len: usize,
    digits_left: u64,
    int_type: Bound<'py, PyAny>,
    /// Scratch for a number's text on its way to a float.
    digits: Vec<u8>,
}

impl<'n, 'py> NumberMaker<'n, 'py> {
    /// The maker for one decode of a text of `text_len` bytes: reads the
    /// interpreter's digit limit.
    pub fn new(
        py: Python<'py>,
        numbers: &'n Numbers<'py>,
        text_len: usize,
    ) -> NumberMaker<'n, 'py> {
        NumberMaker {
            py,
            numbers,
            limit: int_digit_limit(py),
            text_len,
            digits_left: digit_allowance(text_len),
            int_type: py.get_type::<PyInt>().into_any(),
            digits: Vec::new(),
        }
    }

    /// A whole number within `i64`: an `int`, or `parse_int` of its digits.
    ///
    /// # Errors
    ///
    /// Whatever `parse_int` raises.
    pub fn int(&self, v: i64) -> PyResult<Bound<'py, PyAny>> {
        match &self.numbers.parse_int {
            Some(hook) => hook.call1((v.to_string(),)),
            None => Ok(v.into_pyobject(self.py)?.into_any()),
        }
    }

    /// Whether `parse_int` is given.
    pub fn has_int_hook(&self) -> bool {
        self.numbers.parse_int.is_some()
    }

    /// Any number, as `json.loads` with the same hooks makes it.
    ///
    /// # Errors
    ///
    /// Whatever `parse_int` or `parse_float` raises, and a whole number
    /// beyond the bounds (see the module docs) when `parse_float` is not
    /// given.
    pub fn number(&mut self, n: &pith::Number) -> Result<Bound<'py, PyAny>, BuildError> {
        let py = self.py;
        if let Some(v) = n.as_i64() {
            return Ok(self.int(v)?);
        }
        let Some(whole) = n.is_integer().then(|| whole(n)).flatten() else {
            return Ok(match &self.numbers.parse_float {
                Some(hook) => hook.call1((n.to_string(),))?,
                None => PyFloat::new(py, self.float(n)).into_any(),
            });
        };
        let digits = whole.digits();
        let most = self.limit.map_or(MAX_WHOLE_DIGITS, |l| l as u64);
        if digits > most || digits > self.digits_left {
            return match &self.numbers.parse_float {
                Some(hook) => Ok(hook.call1((n.to_string(),))?),
                None => Err(self.too_long(n, digits, most)),
            };
        }
        self.digits_left -= digits;
        Ok(match &self.numbers.parse_int {
            Some(hook) => hook.call1((whole.spelled(),))?,
            None => self.big_int(&whole)?,
        })
    }

    /// The `int` of `whole` (within the bounds): the written digits read
    /// by `int()`, times a power of ten for the zeros. `10**n` costs a small
    /// part of what reading `n` digits does.
    fn big_int(&self, whole: &Whole) -> PyResult<Bound<'py, PyAny>> {
        let written = self.int_type.call1((whole.mantissa.as_str(),))?;
        if whole.zeros == 0 {
            return Ok(written);
        }
        let scale = PyInt::new(self.py, 10).pow(whole.zeros, self.py.None())?;
        written.mul(scale)
    }

    /// The refusal of `n`, a whole number of `digits` digits, beyond `most`
    /// or beyond the digits left to the text.
    fn too_long(&self, n: &pith::Number, digits: u64, most: u64) -> BuildError {
        let text = n.to_string();
        // The number itself, when it is short enough to read in a message.
        let shown = if text.len() <= 40 {
            format!(" ({text})")
        } else {
            String::new()
        };
        let decimal = "pass parse_float=decimal.Decimal to read it exactly";
        let message = match self.limit {
            Some(limit) if digits > most => format!(
                "a whole number of {digits} digits{shown}, more than int() takes under \
                 sys.get_int_max_str_digits() ({limit}): expected at most {limit} digits \
                 (raise the limit with sys.set_int_max_str_digits(), or {decimal})"
            ),
            None if digits > most => format!(
                "a whole number of {digits} digits{shown}, more than the {most} pith makes \
                 into one int when the interpreter sets no limit \
                 (sys.get_int_max_str_digits() is 0): expected at most {most} digits (set a \
                 limit with sys.set_int_max_str_digits(), or {decimal})"
            ),
            _ => format!(
                "a whole number of {digits} digits{shown}, past the {} digits pith makes \
                 into ints from a text of {} bytes ({WHOLE_DIGITS_FLOOR}, and \
                 {WHOLE_DIGITS_PER_BYTE} for each byte: a short text can stand for digits \
                 that take seconds to make): expected at most {} digits more ({decimal})",
                digit_allowance(self.text_len),
                self.text_len,
                self.digits_left
            ),
        };
        BuildError::TooLong(Box::new(TooLong {
            message,
            steps: Vec::new(),
        }))
    }

    fn float(&mut self, n: &pith::Number) -> f64 {
        nearest_f64(n, &mut self.digits)
    }
}

struct Builder<'v, 'n, 'py> {
    py: Python<'py>,
    numbers: NumberMaker<'n, 'py>,
    /// Every key met so far, one `str` each.
    keys: HashMap<&'v str, Bound<'py, PyString>>,
    /// The key last met at each position of an object: the rows of a table
    /// repeat their keys in order, so most lookups end here.
    recent: Vec<(&'v str, Bound<'py, PyString>)>,
}

impl<'v, 'py> Builder<'v, '_, 'py> {
    fn build(&mut self, value: &'v Value) -> Result<Bound<'py, PyAny>, BuildError> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
            Value::String(s) => PyString::new(py, s).into_any(),
            Value::Number(n) => self.numbers.number(n)?,
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(self.build(item).map_err(|e| e.at(Step::Index(i)))?);
                }
                PyList::new(py, out)?.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (i, (k, v)) in map.iter().enumerate() {
                    let key = self.key(i, k);
                    let v = self.build(v).map_err(|e| e.at(Step::Key(k.to_string())))?;
                    dict.set_item(key, v)?;
                }
                dict.into_any()
            }
        })
    }

    fn key(&mut self, i: usize, k: &'v str) -> Bound<'py, PyString> {
        if let Some((seen, key)) = self.recent.get(i)
            && *seen == k
        {
            return key.clone();
        }
        let py = self.py;
        let key = self
            .keys
            .entry(k)
            .or_insert_with(|| PyString::new(py, k))
            .clone();
        if i < self.recent.len() {
            self.recent[i] = (k, key.clone());
        } else if i == self.recent.len() {
            self.recent.push((k, key.clone()));
        }
        key
    }
}

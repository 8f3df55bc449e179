//! [`pith::Value`] → Python objects, as `json.loads` builds them.
//!
//! Objects become `dict`s in key order (equal keys share one `str`, as
//! `json.loads` shares them), arrays `list`s. Whole numbers become `int`
//! (through `parse_int` when given) as long as their digits stay within
//! `sys.get_int_max_str_digits()`; other numbers become `float` (through
//! `parse_float` when given, which receives the number's exact text, so
//! `parse_float=decimal.Decimal` keeps every digit).

use pith::Value;
use pith_bindings::number::{Decoded, decoded, nearest_f64};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString};
use std::collections::HashMap;

/// The integer-digit limit when the interpreter sets none (0 means none):
/// the work of converting digits grows with their square.
const UNLIMITED_DIGITS: usize = 1_000_000;

/// How numbers are handed over.
pub struct Numbers<'py> {
    /// Called with the digits of every whole number.
    pub parse_int: Option<Bound<'py, PyAny>>,
    /// Called with the text of every other number.
    pub parse_float: Option<Bound<'py, PyAny>>,
}

/// Builds the Python object for `value`.
///
/// # Errors
///
/// Whatever `parse_int` or `parse_float` raises.
pub fn to_py<'py>(
    py: Python<'py>,
    value: &Value,
    numbers: &Numbers<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut b = Builder {
        py,
        numbers: NumberMaker::new(py, numbers),
        keys: HashMap::new(),
        recent: Vec::new(),
    };
    b.build(value)
}

/// `sys.get_int_max_str_digits()`, where the interpreter has it.
fn max_int_digits(py: Python<'_>) -> usize {
    let limit = py
        .import("sys")
        .and_then(|sys| sys.getattr("get_int_max_str_digits"))
        .and_then(|f| f.call0())
        .and_then(|n| n.extract::<usize>());
    match limit {
        Ok(0) | Err(_) => UNLIMITED_DIGITS,
        Ok(n) => n,
    }
}

/// Makes the Python number of a decoded number, with the caller's hooks.
pub struct NumberMaker<'n, 'py> {
    py: Python<'py>,
    numbers: &'n Numbers<'py>,
    max_digits: usize,
    int_type: Bound<'py, PyAny>,
    /// Scratch for a number's text on its way to a float.
    digits: Vec<u8>,
}

impl<'n, 'py> NumberMaker<'n, 'py> {
    /// The maker for one decode: reads the interpreter's digit limit.
    pub fn new(py: Python<'py>, numbers: &'n Numbers<'py>) -> NumberMaker<'n, 'py> {
        NumberMaker {
            py,
            numbers,
            max_digits: max_int_digits(py),
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
    /// Whatever `parse_int` or `parse_float` raises.
    pub fn number(&mut self, n: &pith::Number) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        if !n.is_integer() && self.numbers.parse_float.is_none() {
            return Ok(PyFloat::new(py, self.float(n)).into_any());
        }
        match decoded(n, self.max_digits) {
            Decoded::Small(v) => self.int(v),
            Decoded::Digits(digits) => match &self.numbers.parse_int {
                Some(hook) => hook.call1((digits,)),
                None => self.int_type.call1((digits,)),
            },
            Decoded::Text(text) => match &self.numbers.parse_float {
                Some(hook) => hook.call1((text,)),
                None => Ok(PyFloat::new(py, self.float(n)).into_any()),
            },
        }
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
    fn build(&mut self, value: &'v Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
            Value::String(s) => PyString::new(py, s).into_any(),
            Value::Number(n) => self.numbers.number(n)?,
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.build(item)?);
                }
                PyList::new(py, out)?.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (i, (k, v)) in map.iter().enumerate() {
                    let key = self.key(i, k);
                    dict.set_item(key, self.build(v)?)?;
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

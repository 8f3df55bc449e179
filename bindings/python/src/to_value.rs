//! Python objects → [`pith::Value`], exactly or not at all.
//!
//! The walk runs under the GIL and builds the value directly; objects with
//! many keys go through the library's own serde serializer
//! ([`pith::to_value`]), which checks their keys in linear time. What is
//! taken:
//!
//! | Python | JSON |
//! |---|---|
//! | `dict` (and subclasses, in their own iteration order) with `str` keys | object, keys in order |
//! | `list`, `tuple` (and subclasses) | array |
//! | `str` | string (a lone surrogate is refused) |
//! | `int` of any size (not `bool`) | number, exactly |
//! | `float` | number, its shortest repr (NaN and the infinities are refused) |
//! | `decimal.Decimal` | number, every digit (NaN and the infinities are refused) |
//! | `bool`, `None` | `true`/`false`, `null` |
//!
//! Anything else goes to the `default` hook when one is given (as with
//! `json.dumps`), and is refused otherwise: bytes, sets, other mappings and
//! objects raise `TypeError`; values JSON cannot hold (NaN, circular
//! references, nesting beyond 256 levels) raise `ValueError`. Each message
//! names the JSON path of the value.
//!
//! Each container's members are read as the walk reaches them, and Python
//! code the walk runs (`default`, a subclass's `__str__`, a finalizer,
//! another thread) may change a container meanwhile. A dict or list
//! (subclasses too) whose size changes before the walk has read it to the
//! end raises `RuntimeError` naming its path, in the words of CPython's
//! own dict iterator ("dictionary changed size during iteration"): the
//! text would otherwise show a state the container never had, or miss
//! what was added. See [`crate::members`].

use crate::members::{self, Changed, Storage};
use crate::text::utf8;
use pith::{DEFAULT_MAX_DEPTH, Map, Number, Value};
use pith_bindings::path::{Step, render_inner_first};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PyMemoryView, PySet,
    PyString, PyTuple, PyType,
};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Converts `obj`, calling `default` for objects of other types.
///
/// # Errors
///
/// `TypeError` or `ValueError` naming the path (see the module docs), or
/// whatever `default` raises.
pub fn to_value(obj: &Bound<'_, PyAny>, default: Option<&Bound<'_, PyAny>>) -> PyResult<Value> {
    let mut walk = Walk {
        decimal: decimal_type(obj.py())?,
        default,
        open: Vec::new(),
    };
    walk.value(obj, 0).map_err(Failure::into_err)
}

/// The `decimal.Decimal` type, imported once.
fn decimal_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    DECIMAL.import(py, "decimal", "Decimal")
}

/// Objects with more keys than this are built through the library's
/// serializer, which checks keys against a hash set; smaller ones are
/// checked by scanning, as the library's readers do.
const SCAN_LIMIT: usize = 16;

/// The state of one conversion.
struct Walk<'a, 'py> {
    decimal: &'a Bound<'py, PyType>,
    default: Option<&'a Bound<'py, PyAny>>,
    /// Containers being converted, innermost last: a container met again
    /// inside itself is a cycle.
    open: Vec<usize>,
}

/// A refusal, or an exception raised by Python code, and where.
struct Failure {
    error: Refusal,
    /// Innermost first, collected on the way out.
    steps: Vec<Step>,
}

enum Refusal {
    Type(String),
    Value(String),
    /// A container changed while it was read.
    Runtime(String),
    Raised(PyErr),
}

impl Failure {
    fn new(error: Refusal) -> Failure {
        Failure {
            error,
            steps: Vec::new(),
        }
    }

    fn type_error(message: String) -> Failure {
        Failure::new(Refusal::Type(message))
    }

    fn value_error(message: String) -> Failure {
        Failure::new(Refusal::Value(message))
    }

    fn changed(changed: Changed) -> Failure {
        Failure::new(Refusal::Runtime(format!(
            "{changed}: expected it to stay unchanged while it is being encoded"
        )))
    }

    /// Notes that the failure passed through `step` on its way out.
    fn at(mut self, step: Step) -> Failure {
        self.steps.push(step);
        self
    }

    fn into_err(self) -> PyErr {
        let at = render_inner_first(&self.steps);
        match self.error {
            Refusal::Type(m) => PyTypeError::new_err(format!("at {at}: {m}")),
            Refusal::Value(m) => PyValueError::new_err(format!("at {at}: {m}")),
            Refusal::Runtime(m) => PyRuntimeError::new_err(format!("at {at}: {m}")),
            Refusal::Raised(e) => e,
        }
    }
}

impl From<PyErr> for Failure {
    fn from(e: PyErr) -> Failure {
        Failure::new(Refusal::Raised(e))
    }
}

/// What the walk accepts, for messages.
const EXPECTED: &str = "expected dict, list, tuple, str, int, float, Decimal, bool or None";

impl<'py> Walk<'_, 'py> {
    /// `obj`, inside `depth` containers.
    fn value(&mut self, obj: &Bound<'py, PyAny>, depth: usize) -> Result<Value, Failure> {
        // Exact types first: they are nearly every value.
        if let Ok(text) = obj.cast_exact::<PyString>() {
            return Ok(Value::String(string(text)?.into_owned()));
        }
        if obj.is_exact_instance_of::<PyInt>() {
            return int(obj);
        }
        if let Ok(f) = obj.cast_exact::<PyFloat>() {
            return float(f.value());
        }
        if let Ok(b) = obj.cast_exact::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if obj.is_none() {
            return Ok(Value::Null);
        }
        if let Ok(d) = obj.cast_exact::<PyDict>() {
            return self.container(obj, depth, |w| {
                w.dict(d.len(), members::dict_items(d), depth)
            });
        }
        if let Ok(l) = obj.cast_exact::<PyList>() {
            return self.container(obj, depth, |w| {
                w.seq(l.len(), members::list_items(l), depth)
            });
        }
        if let Ok(t) = obj.cast_exact::<PyTuple>() {
            // A tuple cannot change.
            return self.container(obj, depth, |w| w.seq(t.len(), t.iter().map(Ok), depth));
        }
        // Subclasses, then the other types JSON has a place for.
        if let Ok(text) = obj.cast::<PyString>() {
            return Ok(Value::String(string(text)?.into_owned()));
        }
        if obj.is_instance_of::<PyInt>() {
            return int(obj);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return float(f.value());
        }
        if obj.is_instance(self.decimal)? {
            return decimal(obj);
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            // A subclass (OrderedDict, say) in its own order, as `json` does.
            let items: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = obj
                .call_method0("items")?
                .try_iter()?
                .map(|item| item.and_then(|pair| pair.extract()))
                .collect::<PyResult<_>>()?;
            let len = items.len();
            let items = members::snapshot(Storage::Dict(d), items);
            return self.container(obj, depth, |w| w.dict(len, items, depth));
        }
        if let Ok(l) = obj.cast::<PyList>() {
            let items: Vec<Bound<'py, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
            let len = items.len();
            let items = members::snapshot(Storage::List(l), items);
            return self.container(obj, depth, |w| w.seq(len, items, depth));
        }
        if obj.is_instance_of::<PyTuple>() {
            let items: Vec<Bound<'py, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
            return self.container(obj, depth, |w| {
                w.seq(items.len(), items.into_iter().map(Ok), depth)
            });
        }
        if let Some(default) = self.default {
            let replaced = default.call1((obj,))?;
            if depth >= DEFAULT_MAX_DEPTH {
                return Err(Failure::value_error(format!(
                    "default() gave values needing more than {DEFAULT_MAX_DEPTH} calls in a row"
                )));
            }
            return self.value(&replaced, depth + 1);
        }
        Err(Failure::type_error(refusal(obj)))
    }

    /// Opens a container: refuses a cycle and excess depth, then runs `body`.
    fn container(
        &mut self,
        obj: &Bound<'py, PyAny>,
        depth: usize,
        body: impl FnOnce(&mut Self) -> Result<Value, Failure>,
    ) -> Result<Value, Failure> {
        let id = obj.as_ptr() as usize;
        if self.open.contains(&id) {
            return Err(Failure::value_error(
                "circular reference: the value contains itself".into(),
            ));
        }
        if depth >= DEFAULT_MAX_DEPTH {
            return Err(Failure::value_error(format!(
                "nesting deeper than {DEFAULT_MAX_DEPTH} levels: expected at most {DEFAULT_MAX_DEPTH}"
            )));
        }
        self.open.push(id);
        let out = body(self);
        self.open.pop();
        out
    }

    fn seq(
        &mut self,
        len: usize,
        items: impl Iterator<Item = Result<Bound<'py, PyAny>, Changed>>,
        depth: usize,
    ) -> Result<Value, Failure> {
        let mut out = Vec::with_capacity(len);
        for (i, item) in items.enumerate() {
            let item = item.map_err(Failure::changed)?;
            out.push(
                self.value(&item, depth + 1)
                    .map_err(|f| f.at(Step::Index(i)))?,
            );
        }
        Ok(Value::Array(out))
    }

    fn dict(
        &mut self,
        len: usize,
        pairs: impl Iterator<Item = Result<(Bound<'py, PyAny>, Bound<'py, PyAny>), Changed>>,
        depth: usize,
    ) -> Result<Value, Failure> {
        let mut small = (len <= SCAN_LIMIT).then(|| Map::with_capacity(len));
        let mut large = Vec::new();
        for pair in pairs {
            let (key, value) = pair.map_err(Failure::changed)?;
            let Ok(key_str) = key.cast::<PyString>() else {
                return Err(Failure::type_error(format!(
                    "expected str keys, found {} key {}",
                    type_name(&key),
                    repr(&key)
                )));
            };
            let name = string(key_str)?.into_owned();
            let value = match self.value(&value, depth + 1) {
                Ok(v) => v,
                Err(f) => return Err(f.at(Step::Key(name))),
            };
            match &mut small {
                Some(map) => {
                    if map.insert(name, value).is_some() {
                        return Err(Failure::value_error(twice(&string(key_str)?)));
                    }
                }
                None => large.push((name, value)),
            }
        }
        match small {
            Some(map) => Ok(Value::Object(map)),
            // The library's serializer builds the object in linear time and
            // refuses a key given twice (a `str` subclass can make two
            // distinct dict keys with the same text).
            None => pith::to_value(&Entries(&large))
                .map_err(|e| Failure::value_error(e.message().to_owned())),
        }
    }
}

/// Members of a large object, in order, for the library's serializer.
struct Entries<'a>(&'a [(String, Value)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

fn twice(key: &str) -> String {
    format!(
        "expected each key once per object, found {} a second time",
        pith::json::stringify(&Value::from(key))
    )
}

fn string<'a>(text: &'a Bound<'_, PyString>) -> Result<std::borrow::Cow<'a, str>, Failure> {
    utf8(text).map_err(|_| {
        Failure::value_error(format!(
            "the string {} holds a lone surrogate, which UTF-8 (and so JSON text) cannot hold",
            repr(text)
        ))
    })
}

fn int(obj: &Bound<'_, PyAny>) -> Result<Value, Failure> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(Value::from(v));
    }
    let digits = big_int_digits(obj)?;
    let n = Number::parse(&digits).expect("an int's digits are a number literal");
    Ok(Value::Number(n))
}

/// The decimal digits of an `int` beyond `i64`, whatever its size:
/// `int.__repr__` where CPython allows (`sys.get_int_max_str_digits()`),
/// else from its bytes.
fn big_int_digits(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = obj.py();
    let int_type = py.get_type::<PyInt>();
    match int_type.getattr("__repr__")?.call1((obj,)) {
        Ok(text) => Ok(text.extract::<String>()?),
        Err(e) if e.is_instance_of::<PyValueError>(py) => {
            let negative = obj.lt(0)?;
            let magnitude = if negative { obj.neg()? } else { obj.clone() };
            let bits: usize = magnitude.call_method0("bit_length")?.extract()?;
            let bytes = magnitude.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
            let digits =
                pith_bindings::number::digits_of_le_bytes(bytes.cast::<PyBytes>()?.as_bytes());
            Ok(if negative {
                format!("-{digits}")
            } else {
                digits
            })
        }
        Err(e) => Err(e),
    }
}

/// A finite float as the shortest decimal that reads back as the same
/// float (its repr); see [`pith_bindings::number::from_f64`].
fn float(f: f64) -> Result<Value, Failure> {
    if let Some(n) = pith_bindings::number::from_f64(f) {
        return Ok(Value::Number(n));
    }
    let name = if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    };
    Err(Failure::value_error(format!(
        "{name} is not a JSON number: expected a finite float"
    )))
}

fn decimal(obj: &Bound<'_, PyAny>) -> Result<Value, Failure> {
    let text = obj.str()?.extract::<String>()?;
    match Number::parse(&text) {
        Ok(n) => Ok(Value::Number(n)),
        Err(pith::number::NumberError::ExponentRange) => Err(Failure::value_error(format!(
            "Decimal('{text}') has an exponent beyond ±{}: expected a number pith can write",
            pith::number::MAX_EXPONENT
        ))),
        Err(_) => Err(Failure::value_error(format!(
            "Decimal('{text}') is not a JSON number: expected a finite Decimal"
        ))),
    }
}

/// Why `obj` has no JSON form, with the usual way out where there is one.
fn refusal(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    let hint = if obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
    {
        " (JSON has no bytes: decode them to str, or encode them as base64, first)"
    } else if obj.is_instance_of::<PySet>() || obj.is_instance_of::<PyFrozenSet>() {
        " (JSON has no sets: pass a list, sorted if the order should not vary)"
    } else {
        " (pass default= to convert it)"
    };
    format!("cannot encode a value of type {name}: {EXPECTED}{hint}")
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string_lossy().into_owned());
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

//! [`Events`] into Python objects, through the C API, as `json.loads`
//! builds them (and as [`crate::to_py`] builds them from a value).
//!
//! The events carry what makes `json.loads` slow out of the way: numbers
//! are machine integers and doubles already, keys are numbered, so each
//! distinct key becomes one `str` shared by every object that has it, and
//! the rows of a table name their header. A row of a flat table is a copy
//! of a dict holding the header's keys (the keys' table copied whole, no
//! key hashed or inserted again), its values then set in place. Strings
//! are made from the text's UTF-8 directly.
//!
//! All of this holds the GIL: it makes Python objects. Reading the text
//! into events (the caller's part) does not.

// The C API directly, in this one place: PyO3's safe calls check and
// convert every argument and count references twice over, which on half
// a million objects costs more than making them.
#![allow(unsafe_code)]

use crate::to_py::{BuildError, NumberMaker};
use pith_bindings::events::{Event, Events, Field};
use pith_bindings::path::Step;
use pyo3::exceptions::PySystemError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// The object the events stand for.
///
/// # Errors
///
/// Whatever `parse_int` or `parse_float` raises, `MemoryError`, and a
/// whole number too long to become an `int` (with its path).
pub fn build<'py>(
    py: Python<'py>,
    events: &Events<'_>,
    numbers: NumberMaker<'_, 'py>,
) -> Result<Bound<'py, PyAny>, BuildError> {
    let mut b = Builder {
        py,
        ev: events,
        events: events.events(),
        at: 0,
        keys: vec![None; events.key_count()],
        rows: (0..events.header_count()).map(|_| None).collect(),
        numbers,
    };
    let value = b.value()?;
    if b.at != b.events.len() {
        return Err(malformed().into());
    }
    Ok(value)
}

/// What a table header's rows are made from.
struct RowShape<'py> {
    /// For a header without groups: a dict of its keys, each holding
    /// `None`, which every row copies.
    template: Option<Bound<'py, PyAny>>,
}

struct Builder<'e, 'a, 'n, 'py> {
    py: Python<'py>,
    ev: &'e Events<'a>,
    events: &'e [Event],
    at: usize,
    /// Each key's `str`, made when first met.
    keys: Vec<Option<Bound<'py, PyAny>>>,
    rows: Vec<Option<RowShape<'py>>>,
    numbers: NumberMaker<'n, 'py>,
}

/// An owned reference from a C API call, or the exception it set.
#[inline]
fn owned<'py>(py: Python<'py>, ptr: *mut ffi::PyObject) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `ptr` is a new reference or null with an exception set, as
    // every call passed here returns, and the GIL is held (`py`).
    unsafe { Bound::from_owned_ptr_or_err(py, ptr) }
}

/// Events that do not nest as [`Events`] promises: never from `read`.
#[cold]
fn malformed() -> PyErr {
    PySystemError::new_err("pith: malformed decode events")
}

/// `dict[key] = value`.
#[inline]
fn set_item(
    dict: &Bound<'_, PyAny>,
    key: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    // SAFETY: three live objects (the borrows keep them), `dict` a dict
    // this module made, the GIL held; the call takes its own references.
    if unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key.as_ptr(), value.as_ptr()) } < 0 {
        return Err(PyErr::fetch(dict.py()));
    }
    Ok(())
}

impl<'py> Builder<'_, '_, '_, 'py> {
    #[inline]
    fn next(&mut self) -> PyResult<Event> {
        let event = *self.events.get(self.at).ok_or_else(malformed)?;
        self.at += 1;
        Ok(event)
    }

    fn value(&mut self) -> Result<Bound<'py, PyAny>, BuildError> {
        let py = self.py;
        Ok(match self.next()? {
            Event::Null => py.None().into_bound(py),
            Event::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            Event::Int(v) => {
                if self.numbers.has_int_hook() {
                    return Ok(self.numbers.int(v)?);
                }
                // SAFETY: a plain constructor; the GIL is held.
                owned(py, unsafe { ffi::PyLong_FromLongLong(v) })?
            }
            // SAFETY: a plain constructor; the GIL is held.
            Event::Float(f) => owned(py, unsafe { ffi::PyFloat_FromDouble(f) })?,
            Event::Exact(i) => self.numbers.number(self.ev.number(i))?,
            event @ (Event::Text { .. } | Event::Unescaped { .. }) => {
                let s = self.ev.str(event).ok_or_else(malformed)?;
                self.string(s)?
            }
            Event::Array(n) => self.list(n)?,
            Event::Object(n) => {
                // SAFETY: a plain constructor; the GIL is held.
                let dict = owned(py, unsafe { ffi::PyDict_New() })?;
                for _ in 0..n {
                    let Event::Key(id) = self.next()? else {
                        return Err(malformed().into());
                    };
                    let key = self.key(id)?;
                    let value = self.value().map_err(|e| self.at_key(e, id))?;
                    set_item(&dict, &key, &value)?;
                }
                dict
            }
            Event::Row(h) => self.row(h)?,
            Event::Key(_) => return Err(malformed().into()),
        })
    }

    /// `e`, noted as having passed through the member whose key is `id`.
    #[cold]
    fn at_key(&self, e: BuildError, id: u32) -> BuildError {
        e.at(Step::Key(self.ev.key(id).to_owned()))
    }

    #[inline]
    fn string(&self, s: &str) -> PyResult<Bound<'py, PyAny>> {
        let len = ffi::Py_ssize_t::try_from(s.len()).map_err(|_| malformed())?;
        // SAFETY: `s` is `len` bytes of UTF-8 that outlive the call, which
        // copies them; the GIL is held.
        owned(self.py, unsafe {
            ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), len)
        })
    }

    fn list(&mut self, n: u32) -> Result<Bound<'py, PyAny>, BuildError> {
        let len = ffi::Py_ssize_t::try_from(n).map_err(|_| malformed())?;
        // SAFETY: a plain constructor; the GIL is held. Its slots start
        // empty (null), which freeing the list on an error below allows.
        let list = owned(self.py, unsafe { ffi::PyList_New(len) })?;
        for i in 0..len {
            let item = self.value().map_err(|e| e.at(Step::Index(i as usize)))?;
            // SAFETY: `list` is a new list of `len` slots and `i < len`;
            // the call takes over the reference `into_ptr` gives up.
            if unsafe { ffi::PyList_SetItem(list.as_ptr(), i, item.into_ptr()) } < 0 {
                return Err(PyErr::fetch(self.py).into());
            }
        }
        Ok(list)
    }

    /// The `str` of key `id`, made once.
    #[inline]
    fn key(&mut self, id: u32) -> PyResult<Bound<'py, PyAny>> {
        let slot = self.keys.get(id as usize).ok_or_else(malformed)?;
        if let Some(key) = slot {
            return Ok(key.clone());
        }
        let key = self.string(self.ev.key(id))?;
        self.keys[id as usize] = Some(key.clone());
        Ok(key)
    }

    /// One row of header `h`: its cells follow.
    fn row(&mut self, h: u32) -> Result<Bound<'py, PyAny>, BuildError> {
        let ev = self.ev;
        let fields = ev.fields(h);
        if self.rows.get(h as usize).ok_or_else(malformed)?.is_none() {
            let shape = self.shape(fields)?;
            self.rows[h as usize] = Some(shape);
        }
        let template = self.rows[h as usize]
            .as_ref()
            .and_then(|s| s.template.as_ref())
            .map(|t| t.as_ptr());
        let Some(template) = template else {
            let mut next = 0;
            return self.group(fields, &mut next, fields.len());
        };
        // SAFETY: `template` is a live dict this module made and keeps in
        // `self.rows`; the GIL is held.
        let dict = owned(self.py, unsafe { ffi::PyDict_Copy(template) })?;
        for field in fields {
            let &Field::Leaf(id) = field else {
                return Err(malformed().into());
            };
            let key = self.key(id)?;
            let value = self.value().map_err(|e| self.at_key(e, id))?;
            set_item(&dict, &key, &value)?;
        }
        Ok(dict)
    }

    /// The template of a header without groups (none for one with groups).
    fn shape(&mut self, fields: &[Field]) -> PyResult<RowShape<'py>> {
        if fields.iter().any(|f| matches!(f, Field::Group { .. })) {
            return Ok(RowShape { template: None });
        }
        let py = self.py;
        // SAFETY: a plain constructor; the GIL is held.
        let dict = owned(py, unsafe { ffi::PyDict_New() })?;
        let none = py.None().into_bound(py);
        for field in fields {
            if let Field::Leaf(id) = *field {
                let key = self.key(id)?;
                set_item(&dict, &key, &none)?;
            }
        }
        Ok(RowShape {
            template: Some(dict),
        })
    }

    /// The dict of the `n` fields from `fields[*next]`, cells from the events.
    fn group(
        &mut self,
        fields: &[Field],
        next: &mut usize,
        n: usize,
    ) -> Result<Bound<'py, PyAny>, BuildError> {
        // SAFETY: a plain constructor; the GIL is held.
        let dict = owned(self.py, unsafe { ffi::PyDict_New() })?;
        // At the top, `n` counts the fields at every depth: the end of the
        // list ends it.
        for _ in 0..n {
            let Some(&field) = fields.get(*next) else {
                break;
            };
            *next += 1;
            let (key, value) = match field {
                Field::Leaf(id) => {
                    let key = self.key(id)?;
                    (key, self.value().map_err(|e| self.at_key(e, id))?)
                }
                Field::Group { key, fields: count } => {
                    let value = self
                        .group(fields, next, count as usize)
                        .map_err(|e| self.at_key(e, key))?;
                    (self.key(key)?, value)
                }
            };
            set_item(&dict, &key, &value)?;
        }
        Ok(dict)
    }
}

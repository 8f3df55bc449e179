//! The UTF-8 of a Python `str`, without a copy where the interpreter
//! allows it.
//!
//! The stable ABI of CPython 3.9 offers only `PyUnicode_AsUTF8String`,
//! which makes a new `bytes` object for every string; from 3.10 on,
//! `PyUnicode_AsUTF8AndSize` is part of the stable ABI and hands out the
//! string's own UTF-8 (for ASCII strings, the characters themselves). One
//! abi3 wheel serves both: the interpreter's version, read once, picks the
//! call.

// The C API directly, for a function of the stable ABI from 3.10 on that
// PyO3 declares only for builds that target 3.10 or later.
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyString;
use std::borrow::Cow;
use std::sync::OnceLock;

unsafe extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::ffi::c_char;
}

/// Whether the running interpreter has `PyUnicode_AsUTF8AndSize` in its
/// stable ABI.
fn borrowed_utf8(py: Python<'_>) -> bool {
    static AT_LEAST_3_10: OnceLock<bool> = OnceLock::new();
    *AT_LEAST_3_10.get_or_init(|| py.version_info() >= (3, 10))
}

/// The UTF-8 of `s`, borrowed from the string where the interpreter allows.
///
/// # Errors
///
/// `UnicodeEncodeError` for a string holding a lone surrogate.
pub fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    if !borrowed_utf8(s.py()) {
        return s.to_cow();
    }
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` (the borrow keeps it alive), the call is
    // in the stable ABI of the running interpreter (checked above), and the
    // GIL is held (a `Bound` proves it).
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    let len = usize::try_from(size).expect("a string's size is not negative");
    // SAFETY: CPython keeps the UTF-8 buffer, `len` bytes of valid UTF-8,
    // for as long as the string lives; strings are immutable, and `'a`
    // ties the slice to the borrow of `s`.
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) };
    // SAFETY: CPython encoded these bytes as UTF-8 itself.
    Ok(Cow::Borrowed(unsafe {
        std::str::from_utf8_unchecked(bytes)
    }))
}

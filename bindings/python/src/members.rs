//! The members of a `dict` or `list` read one at a time, while Python code
//! may change the container: a [`Changed`] instead of a panic.
//!
//! Converting one member can run Python code: a `default` hook, the
//! `__str__` of a `Decimal` subclass, the `__lt__` of an `int` subclass, a
//! finalizer the garbage collector calls, and through any of them another
//! thread. That code can add or remove members of a container the walk is
//! still reading. PyO3's dict iterator panics when it sees that (a
//! `PanicException`, which `except Exception` does not catch), and its list
//! iterator quietly stops early or leaves out what was added. The readers
//! here check the container's size before every step, as CPython's own
//! dict iterator does, and report a change as an item, so that the caller
//! can refuse the value ([`crate::to_value`] raises `RuntimeError`) or read
//! it another way ([`crate::to_tape`] leaves it to `to_value`).

// `PyDict_Next` directly: PyO3 offers no dict iterator that reports a
// change instead of panicking.
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::fmt;

/// A container whose members changed while it was being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// Members were added or removed: how many it had, and has now.
    Size {
        /// A dict (else a list).
        dict: bool,
        /// Its size when reading began.
        was: usize,
        /// Its size when the change was seen.
        now: usize,
    },
    /// A dict kept its size but not its keys: more members turned up than
    /// it had.
    Keys,
}

impl fmt::Display for Changed {
    /// CPython's words for the same event, and the sizes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Changed::Size {
                dict: true,
                was,
                now,
            } => write!(
                f,
                "dictionary changed size during iteration (from {was} keys to {now})"
            ),
            Changed::Size {
                dict: false,
                was,
                now,
            } => write!(
                f,
                "list changed size during iteration (from {was} items to {now})"
            ),
            Changed::Keys => f.write_str("dictionary keys changed during iteration"),
        }
    }
}

/// The container a reader watches, whose size it reads from the object's
/// own storage (never through a `__len__` a subclass defines, which would
/// be Python code of its own). Borrowed: a reader costs no reference
/// counting of its own, which on a table's rows adds up.
#[derive(Clone, Copy)]
pub enum Storage<'a, 'py> {
    /// A `dict` or a subclass.
    Dict(&'a Bound<'py, PyDict>),
    /// A `list` or a subclass.
    List(&'a Bound<'py, PyList>),
}

impl Storage<'_, '_> {
    #[inline]
    fn len(&self) -> usize {
        match self {
            Storage::Dict(d) => d.len(),
            Storage::List(l) => l.len(),
        }
    }

    fn changed(&self, was: usize, now: usize) -> Changed {
        Changed::Size {
            dict: matches!(self, Storage::Dict(_)),
            was,
            now,
        }
    }
}

/// The items of a dict with `PyDict_Next`, each `Ok`, or one `Err` when
/// the dict has changed since reading began, after which there are none.
pub struct DictItems<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    /// The size it had when reading began.
    len: usize,
    pos: ffi::Py_ssize_t,
    /// Items still to come, as many as the dict had.
    left: usize,
    done: bool,
}

/// The items of `dict`, read as the walk reaches them.
pub fn dict_items<'a, 'py>(dict: &'a Bound<'py, PyDict>) -> DictItems<'a, 'py> {
    let len = dict.len();
    DictItems {
        dict,
        len,
        pos: 0,
        left: len,
        done: false,
    }
}

impl<'a, 'py> DictItems<'a, 'py> {
    /// The keys alone: the values need no reference counted.
    pub fn keys(self) -> DictKeys<'a, 'py> {
        DictKeys(self)
    }

    /// The values alone: the keys need no reference counted.
    pub fn values(self) -> DictValues<'a, 'py> {
        DictValues(self)
    }

    /// The next key and value, borrowed from the dict.
    #[inline(always)]
    fn step(&mut self) -> Option<Result<(*mut ffi::PyObject, *mut ffi::PyObject), Changed>> {
        if self.done {
            return None;
        }
        // Before every step, the last too: a change made while the last
        // member was converted is a change all the same.
        let now = self.dict.len();
        if now != self.len {
            self.done = true;
            return Some(Err(Storage::Dict(self.dict).changed(self.len, now)));
        }
        let mut key = std::ptr::null_mut();
        let mut value = std::ptr::null_mut();
        // SAFETY: `dict` is a live dict (the borrowed `Bound` holds a
        // reference) and the GIL is held (a `Bound` proves it).
        // `PyDict_Next` checks `pos` against the dict's current table, so it
        // stays sound even on a dict changed since the last call; what it
        // then gives is in no particular order, which the size check above
        // and the count below catch.
        let found =
            unsafe { ffi::PyDict_Next(self.dict.as_ptr(), &mut self.pos, &mut key, &mut value) };
        if found == 0 {
            self.done = true;
            return None;
        }
        if self.left == 0 {
            self.done = true;
            return Some(Err(Changed::Keys));
        }
        self.left -= 1;
        Some(Ok((key, value)))
    }

    /// `ptr`, from [`DictItems::step`], as an owned reference.
    #[inline(always)]
    fn owned(&self, ptr: *mut ffi::PyObject) -> Bound<'py, PyAny> {
        // SAFETY: `PyDict_Next` found an item, so `ptr` is a borrowed
        // reference to a live object the dict holds; it becomes an owned
        // reference before any code runs that could take it out of the
        // dict.
        unsafe { Bound::from_borrowed_ptr(self.dict.py(), ptr) }
    }
}

impl<'py> Iterator for DictItems<'_, 'py> {
    type Item = Result<(Bound<'py, PyAny>, Bound<'py, PyAny>), Changed>;

    // Inlined into the loops that read rows: as a call, returning the item
    // through memory, it made `format="toon"` some 8% slower on a table.
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.step()?.map(|(k, v)| (self.owned(k), self.owned(v))))
    }
}

/// The keys of a dict, as [`DictItems`] reads them.
pub struct DictKeys<'a, 'py>(DictItems<'a, 'py>);

impl<'py> Iterator for DictKeys<'_, 'py> {
    type Item = Result<Bound<'py, PyAny>, Changed>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.0.step()?.map(|(k, _)| self.0.owned(k)))
    }
}

/// The values of a dict, as [`DictItems`] reads them.
pub struct DictValues<'a, 'py>(DictItems<'a, 'py>);

impl<'py> Iterator for DictValues<'_, 'py> {
    type Item = Result<Bound<'py, PyAny>, Changed>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.0.step()?.map(|(_, v)| self.0.owned(v)))
    }
}

/// The items of a list by index, each `Ok`, or one `Err` when the list's
/// size has changed since reading began, after which there are none.
pub struct ListItems<'a, 'py> {
    list: &'a Bound<'py, PyList>,
    /// The size it had when reading began.
    len: usize,
    at: usize,
    done: bool,
}

/// The items of `list`, read as the walk reaches them.
pub fn list_items<'a, 'py>(list: &'a Bound<'py, PyList>) -> ListItems<'a, 'py> {
    ListItems {
        list,
        len: list.len(),
        at: 0,
        done: false,
    }
}

impl<'py> Iterator for ListItems<'_, 'py> {
    type Item = Result<Bound<'py, PyAny>, Changed>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // Before every step, the last too (see `DictItems`).
        let now = self.list.len();
        if now != self.len {
            self.done = true;
            return Some(Err(Storage::List(self.list).changed(self.len, now)));
        }
        if self.at == self.len {
            self.done = true;
            return None;
        }
        // Within the length the list has, so `get_item` finds an item.
        let item = self.list.get_item(self.at);
        self.at += 1;
        Some(item.map_err(|_| Storage::List(self.list).changed(self.len, now)))
    }
}

/// `items`, read from a container beforehand (a subclass's own `items()`
/// or iteration), with the container's size watched all the same, so that
/// the walk refuses a change whatever the container's type.
pub struct Snapshot<'a, 'py, T> {
    storage: Storage<'a, 'py>,
    len: usize,
    items: std::vec::IntoIter<T>,
    done: bool,
}

/// The items of `storage`'s container, read beforehand.
pub fn snapshot<'a, 'py, T>(storage: Storage<'a, 'py>, items: Vec<T>) -> Snapshot<'a, 'py, T> {
    Snapshot {
        len: storage.len(),
        storage,
        items: items.into_iter(),
        done: false,
    }
}

impl<T> Iterator for Snapshot<'_, '_, T> {
    type Item = Result<T, Changed>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let now = self.storage.len();
        if now != self.len {
            self.done = true;
            return Some(Err(self.storage.changed(self.len, now)));
        }
        let item = self.items.next();
        self.done = item.is_none();
        item.map(Ok)
    }
}

//! `pith._native`: the functions of the `pith` Python package.
//!
//! Each function converts its Python arguments under the GIL, releases the
//! GIL for the library's work (encoding, fitting, decoding, counting), and
//! takes it back to build the result. The package's `__init__.py` re-exports
//! these functions and defines the exception types they raise.

/// The value trees the conversions build are many small allocations;
/// mimalloc makes and frees them about twice as fast as the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod build;
mod members;
mod text;
mod to_py;
mod to_tape;
mod to_value;

use pith::Value;
use pith::toon::DecodeOptions;
use pith_bindings::options::{self, ArgError, Budget, EncodeArgs, Failure, MAX_INDENT, Plan};
use pith_bindings::{DROP_LATER_BYTES, drop_later};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyString, PyType};
use std::borrow::Cow;
use to_py::BuildError;

/// Texts at least this long are counted with the GIL released.
const DETACH_COUNT_BYTES: usize = 1 << 14;

/// Encode a JSON value (dict, list, tuple, str, int, float, Decimal, bool
/// or None) as text.
///
/// ``format`` is one of "auto" (the cheapest form that keeps every fact,
/// never more tokens than compact JSON), "toon", "toon3", "hoisted",
/// "hoisted-compact", "table" or "json"; ``tokenizer`` ("o200k", "cl100k",
/// "bytes4") is what auto minimises and what a budget counts.
/// ``min_readability`` (1 to 5) is the readability floor of auto's choice;
/// it is checked today and applies once auto chooses between forms of
/// different readability (it never picks a positional form, which the
/// default floor of 4 rules out). ``budget`` (tokens, or "unbounded")
/// bounds the whole output, cutting collections at row boundaries with
/// omission receipts; ``cursor`` continues a cut collection. ``default``
/// is called for objects of other types, as with ``json.dumps``.
///
/// Ints of any size and Decimals are written exactly, floats by their
/// shortest repr, dict keys in order. Raises TypeError (bytes, sets,
/// non-str keys, other objects) or ValueError (NaN, infinities, circular
/// references, nesting beyond 256 levels) naming the JSON path,
/// RuntimeError naming the path of a dict or list whose size changes while
/// it is read (by ``default``, say), and BudgetExceededError when nothing
/// fits the budget. The int options refuse a bool. The GIL is released
/// while encoding.
#[pyfunction]
#[pyo3(signature = (
    obj, *, format = "auto", tokenizer = "o200k", min_readability = 4, budget = None,
    cursor = None, indent = 2, delimiter = ",", default = None
))]
#[allow(clippy::too_many_arguments)]
fn encode(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    format: &str,
    tokenizer: &str,
    #[pyo3(from_py_with = min_readability_arg)] min_readability: i64,
    budget: Option<&Bound<'_, PyAny>>,
    cursor: Option<&str>,
    #[pyo3(from_py_with = indent_arg)] indent: i64,
    delimiter: &str,
    default: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let budget = budget.map(BudgetIn::read).transpose()?;
    let args = Kwargs {
        format,
        tokenizer,
        min_readability,
        cursor,
        indent,
        delimiter,
    };
    run(py, obj, &args, budget.as_ref(), default, Action::Encode).map(|o| o.text)
}

/// Encode within a token budget and report what was cut.
///
/// Takes the arguments of ``encode`` (``budget`` is required here) and
/// returns a ``Fitted``: the text (receipts included), its exact token
/// count, and how many collections and rows were cut. Following every
/// ``cursor`` in the omission receipts (``encode(obj, budget=...,
/// cursor=...)``) shows every row exactly once.
#[pyfunction]
#[pyo3(signature = (
    obj, budget, *, format = "auto", tokenizer = "o200k", min_readability = 4, cursor = None,
    indent = 2, delimiter = ",", default = None
))]
#[allow(clippy::too_many_arguments)]
fn fit<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    budget: &Bound<'py, PyAny>,
    format: &str,
    tokenizer: &str,
    #[pyo3(from_py_with = min_readability_arg)] min_readability: i64,
    cursor: Option<&str>,
    #[pyo3(from_py_with = indent_arg)] indent: i64,
    delimiter: &str,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = BudgetIn::read(budget)?;
    let args = Kwargs {
        format,
        tokenizer,
        min_readability,
        cursor,
        indent,
        delimiter,
    };
    let out = run(py, obj, &args, Some(&budget), default, Action::Fit)?;
    let report = out.fit.expect("fit reports what it did");
    static FITTED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    FITTED.import(py, "pith._errors", "Fitted")?.call1((
        out.text,
        report.tokens,
        report.collections_cut,
        report.rows_omitted,
    ))
}

/// The keyword arguments `encode` and `fit` share, but for the budget.
struct Kwargs<'a> {
    format: &'a str,
    tokenizer: &'a str,
    min_readability: i64,
    cursor: Option<&'a str>,
    indent: i64,
    delimiter: &'a str,
}

/// Checks the arguments, converts `obj` under the GIL, and runs `action`
/// (an encode or a fit) with the GIL released.
/// What [`run`] does with the value.
#[derive(Clone, Copy)]
enum Action {
    /// [`options::encode`].
    Encode,
    /// [`options::fit`].
    Fit,
}

fn run(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    args: &Kwargs<'_>,
    budget: Option<&BudgetIn>,
    default: Option<&Bound<'_, PyAny>>,
    action: Action,
) -> PyResult<options::Output> {
    let plan = Plan::new(&EncodeArgs {
        format: args.format,
        tokenizer: args.tokenizer,
        min_readability: args.min_readability,
        budget: budget.map(BudgetIn::arg),
        cursor: args.cursor,
        indent: args.indent,
        delimiter: args.delimiter,
    })
    .map_err(arg_error)?;
    if let Some(text) = direct_toon(py, obj, &plan, action) {
        return Ok(options::Output { text, fit: None });
    }
    let value = to_value::to_value(obj, default)?;
    let out = py.detach(|| {
        let out = match action {
            Action::Encode => options::encode(&value, &plan),
            Action::Fit => options::fit(&value, &plan),
        };
        release(value, out.as_ref().map_or(0, |o| o.text.len()));
        out
    });
    out.map_err(|f| failure(py, f))
}

/// `format="toon"` without a budget, written straight from a tape of
/// `obj` when it is plain and its layout simple (see
/// [`pith_bindings::direct`]), without building the value.
fn direct_toon(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    plan: &Plan,
    action: Action,
) -> Option<String> {
    if !matches!(action, Action::Encode) {
        return None;
    }
    let layout = pith_bindings::direct::layout(plan)?;
    let tape = to_tape::to_tape(obj)?;
    py.detach(|| pith_bindings::direct::write(&tape.ops, &tape.nums, &tape.strs, layout))
}

/// Decode any text ``encode`` writes (JSON, TOON, hoisted tables, columnar
/// tables, told apart by themselves) back to Python objects.
///
/// ``text`` is a str, bytes or bytearray (UTF-8). ``lenient=True`` reads
/// TOON leniently (counts and widths are not checked). As with
/// ``json.loads``, ``parse_int`` is called with the digits of every whole
/// number an int is made of and ``parse_float`` with the exact text of
/// every other number: ``parse_float=decimal.Decimal`` keeps every digit.
///
/// Whole numbers become int (TOON writes 1.0 as 1, 10**30 as 1e+30)
/// within two bounds on their digits, the zeros an exponent stands for
/// included: ``sys.get_int_max_str_digits()`` for each (1,000,000 when
/// that limit is 0), and 100,000 plus 8 for each byte of the text for all
/// of one text's ints beyond 64 bits together (a short text such as
/// 1e999999 stands for digits that take seconds to make; digits written
/// out never reach it). A number beyond either goes to ``parse_float``
/// when it is given, and otherwise raises DecodeError naming its JSON
/// path, as ``json.loads`` refuses an int that long (a float would be
/// inf, not the number).
///
/// Raises DecodeError (a ValueError, and a json.JSONDecodeError) with
/// ``msg``, ``lineno``, ``colno`` and ``pos`` (or ``path``, for a number).
/// The GIL is released while the text is read, and held while the objects
/// are made.
#[pyfunction]
#[pyo3(signature = (text, *, lenient = false, parse_float = None, parse_int = None))]
fn decode<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    lenient: bool,
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = input_bytes(text)?;
    let opts = DecodeOptions::default().strict(!lenient);
    let source: &[u8] = &bytes;
    let numbers = to_py::Numbers {
        parse_int,
        parse_float,
    };
    // `parse_float` takes a number's exact text: keep fractions exact.
    let exact = numbers.parse_float.is_some();
    if let Some(events) = py.detach(|| pith_bindings::events::read(source, &opts, exact)) {
        let maker = to_py::NumberMaker::new(py, &numbers, source.len());
        return build::build(py, &events, maker).map_err(|e| build_error(py, text, source, e));
    }
    let decoded = py.detach(|| pith_bindings::decode::decode(source, &opts));
    let value = decoded.map_err(|e| decode_error(py, text, source, &e))?;
    let out = to_py::to_py(py, &value, &numbers, source.len())
        .map_err(|e| build_error(py, text, source, e));
    release(value, source.len());
    out
}

/// Count the tokens of ``text`` exactly as tiktoken does ("o200k",
/// "cl100k"), or estimate them as ceil(bytes / 4) ("bytes4").
#[pyfunction]
#[pyo3(signature = (text, tokenizer = "o200k"))]
fn count_tokens(py: Python<'_>, text: &Bound<'_, PyString>, tokenizer: &str) -> PyResult<usize> {
    let kind = options::tokenizer(tokenizer).map_err(arg_error)?;
    let text = text::utf8(text).map_err(|_| {
        PyValueError::new_err("text holds a lone surrogate, which has no UTF-8 and no tokens")
    })?;
    let counter = pith::tokens::Tokenizer::get(kind);
    if text.len() < DETACH_COUNT_BYTES {
        return Ok(counter.count(&text));
    }
    let text: &str = &text;
    Ok(py.detach(|| counter.count(text)))
}

/// Every form's bytes and tokens for ``obj``, and what auto chose: the
/// entry ``pith measure --json`` writes for a file, with the tokenizer.
#[pyfunction]
#[pyo3(signature = (obj, *, tokenizer = "o200k", default = None))]
fn measure<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    tokenizer: &str,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = options::tokenizer(tokenizer).map_err(arg_error)?;
    let value = to_value::to_value(obj, default)?;
    let m = py
        .detach(|| pith_bindings::measure::measure(&value, kind))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let numbers = to_py::Numbers {
        parse_int: None,
        parse_float: None,
    };
    // Counts and sizes: no big integers, whatever the allowance.
    to_py::to_py(py, &m, &numbers, 0).map_err(BuildError::into_value_error)
}

/// The text of a tool result as ``pith mcp`` would send it, and the
/// ``_meta`` entries of its content item (see ``pith.mcp``).
#[pyfunction]
#[pyo3(signature = (obj, *, min_saving = 10, budget = None, tokenizer = "o200k", default = None))]
fn tool_text<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = min_saving_arg)] min_saving: i128,
    #[pyo3(from_py_with = tool_budget_arg)] budget: Option<i128>,
    tokenizer: &str,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let opts = pith_bindings::mcp::options(min_saving, budget, tokenizer).map_err(arg_error)?;
    let text = match obj.cast::<PyString>() {
        Ok(s) => text::utf8(s)?.into_owned(),
        Err(_) => pith::json::stringify(&to_value::to_value(obj, default)?),
    };
    let out = py.detach(|| pith_bindings::mcp::rewrite(text, &opts));
    let meta = PyDict::new(py);
    for (k, v) in out.meta() {
        meta.set_item(k, v)?;
    }
    Ok((out.text, meta))
}

/// The bytes of a `str`, `bytes` or `bytearray` argument.
fn input_bytes<'a>(text: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(s) = text.cast::<PyString>() {
        return match text::utf8(s) {
            Ok(Cow::Borrowed(s)) => Ok(Cow::Borrowed(s.as_bytes())),
            Ok(Cow::Owned(s)) => Ok(Cow::Owned(s.into_bytes())),
            Err(_) => Err(surrogate_error(text.py(), s)),
        };
    }
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(b) = text.cast::<PyByteArray>() {
        return Ok(Cow::Owned(b.to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "expected str, bytes or bytearray, found {}",
        text.get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string())
    )))
}

/// A budget argument as given: an int (not a bool) or a word.
enum BudgetIn {
    Tokens(i128),
    Name(String),
}

impl BudgetIn {
    fn read(b: &Bound<'_, PyAny>) -> PyResult<BudgetIn> {
        if b.is_instance_of::<PyInt>() && !b.is_instance_of::<pyo3::types::PyBool>() {
            return b.extract::<i128>().map(BudgetIn::Tokens).map_err(|_| {
                PyValueError::new_err("budget: expected a number of tokens that fits in memory")
            });
        }
        if let Ok(s) = b.cast::<PyString>() {
            return Ok(BudgetIn::Name(s.to_string_lossy().into_owned()));
        }
        Err(PyTypeError::new_err(
            "budget: expected an int (tokens) or \"unbounded\"",
        ))
    }

    fn arg(&self) -> Budget<'_> {
        match self {
            BudgetIn::Tokens(n) => Budget::Tokens(*n),
            BudgetIn::Name(s) => Budget::Name(s),
        }
    }
}

/// An int argument: an `int`, or an object with `__index__` (as
/// `operator.index` takes it), but not a `bool` (an int to Python, but
/// never meant as a count or a score here). Other types raise `TypeError`,
/// and an int beyond `i128` `ValueError`, each naming the argument (PyO3's
/// own conversion names none on overflow) and what it takes. The caller
/// checks the range.
fn int_arg(obj: &Bound<'_, PyAny>, name: &str, takes: &str) -> PyResult<i128> {
    let py = obj.py();
    let type_error = || {
        PyTypeError::new_err(format!(
            "{name}: expected an int ({takes}), found {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string())
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    let int = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        match py
            .import("operator")
            .and_then(|m| m.getattr("index"))
            .and_then(|index| index.call1((obj,)))
        {
            Ok(int) => int,
            Err(e) if e.is_instance_of::<PyTypeError>(py) => return Err(type_error()),
            Err(e) => return Err(e),
        }
    };
    match int.extract::<i128>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => Err(out_of_range(&int, name, takes)),
        Err(e) => Err(e),
    }
}

/// [`int_arg`] for an argument the library takes as an `i64`.
fn i64_arg(obj: &Bound<'_, PyAny>, name: &str, takes: &str) -> PyResult<i64> {
    let v = int_arg(obj, name, takes)?;
    i64::try_from(v)
        .map_err(|_| PyValueError::new_err(format!("{name}: expected {takes}, found {v}")))
}

/// `ValueError` for an int beyond `i128`, which no argument takes: how many
/// bits it has (`str()` of a big enough int raises, and a message should
/// not run to thousands of digits).
fn out_of_range(int: &Bound<'_, PyAny>, name: &str, takes: &str) -> PyErr {
    let bits = int
        .call_method0("bit_length")
        .and_then(|b| b.extract::<u64>())
        .map_or_else(|_| "more than 128".to_owned(), |b| b.to_string());
    PyValueError::new_err(format!(
        "{name}: expected {takes}, found an int of {bits} bits"
    ))
}

fn min_readability_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let takes = format!(
        "a readability score from {} to {}",
        options::READABILITY.start(),
        options::READABILITY.end()
    );
    i64_arg(obj, "min_readability", &takes)
}

fn indent_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let takes = format!("1 to {MAX_INDENT} spaces per level");
    i64_arg(obj, "indent", &takes)
}

fn min_saving_arg(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    int_arg(obj, "min_saving", "a number of tokens from 0 up")
}

fn tool_budget_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<i128>> {
    if obj.is_none() {
        return Ok(None);
    }
    int_arg(obj, "budget", "a number of tokens from 0 up").map(Some)
}

fn arg_error(e: ArgError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Frees a large value off the caller's path.
fn release(value: Value, size: usize) {
    if size >= DROP_LATER_BYTES {
        drop_later(value);
    }
}

fn failure(py: Python<'_>, f: Failure) -> PyErr {
    match f {
        Failure::Encode(e) => PyValueError::new_err(e.to_string()),
        Failure::Cursor(e) => PyValueError::new_err(format!("cursor: {e}")),
        Failure::Exceeded(e) => {
            static EXCEEDED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
            let made = EXCEEDED
                .import(py, "pith._errors", "BudgetExceededError")
                .and_then(|cls| {
                    cls.call1((
                        options::exceeded_message(&e),
                        e.text.as_str(),
                        e.budget,
                        e.minimum,
                        e.unbounded,
                        e.tokenizer.name(),
                        e.collections,
                        e.rows,
                    ))
                });
            match made {
                Ok(err) => PyErr::from_value(err),
                Err(err) => err,
            }
        }
    }
}

/// The `doc` of a `DecodeError` about `source` (the bytes of `text`).
fn error_doc<'py>(py: Python<'py>, text: &Bound<'py, PyAny>, source: &[u8]) -> Bound<'py, PyAny> {
    match text.cast::<PyString>() {
        Ok(s) => s.clone().into_any(),
        Err(_) => PyString::new(py, &String::from_utf8_lossy(source)).into_any(),
    }
}

/// A `DecodeError` for `e`, an error in `source` (the bytes of `text`).
fn decode_error(py: Python<'_>, text: &Bound<'_, PyAny>, source: &[u8], e: &pith::Error) -> PyErr {
    let (pos, lineno, colno) = match e.position() {
        Some(p) => (
            Some(char_offset(source, p.line, p.column)),
            Some(p.line),
            Some(p.column),
        ),
        None => (None, None, None),
    };
    let doc = error_doc(py, text, source);
    new_decode_error(py, (e.message(), doc, pos, lineno, colno, e.path()))
}

/// The exception of `e`, an error making the objects of `source`: a whole
/// number too long to become an `int` is a `DecodeError` at its JSON path
/// (the text itself was read without fault); what Python raised passes on.
fn build_error(py: Python<'_>, text: &Bound<'_, PyAny>, source: &[u8], e: BuildError) -> PyErr {
    match e {
        BuildError::Raised(e) => e,
        BuildError::TooLong(t) => {
            let doc = error_doc(py, text, source);
            let none = None::<usize>;
            new_decode_error(
                py,
                (t.message.as_str(), doc, none, none, none, Some(t.path())),
            )
        }
    }
}

/// `pith.DecodeError(*args)`.
fn new_decode_error<'py>(py: Python<'py>, args: impl pyo3::call::PyCallArgs<'py>) -> PyErr {
    static DECODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let made = DECODE_ERROR
        .import(py, "pith._errors", "DecodeError")
        .and_then(|cls| cls.call1(args));
    match made {
        Ok(err) => PyErr::from_value(err),
        Err(err) => err,
    }
}

/// A `DecodeError` for a `str` argument holding a lone surrogate, at the
/// first one.
fn surrogate_error(py: Python<'_>, s: &Bound<'_, PyString>) -> PyErr {
    // Not `to_string_lossy`, which turns each lone surrogate into U+FFFD,
    // a character the text may hold already: `surrogatepass` encodes every
    // code point, a surrogate too, and `str.encode` itself, since a
    // subclass may define `encode`.
    let encoded = py
        .get_type::<PyString>()
        .call_method1("encode", (s, "utf-8", "surrogatepass"));
    let bytes = match encoded.and_then(|b| Ok(b.cast_into::<PyBytes>()?)) {
        Ok(b) => b,
        Err(e) => return e,
    };
    let (pos, lineno, colno) = first_surrogate(bytes.as_bytes());
    new_decode_error(
        py,
        (
            "expected text, found a lone surrogate, which UTF-8 cannot hold",
            s,
            Some(pos),
            Some(lineno),
            Some(colno),
            None::<&str>,
        ),
    )
}

/// Where the first surrogate is in `bytes`, a string's code points encoded
/// as UTF-8 with `surrogatepass`: its offset in characters, its line and
/// its column (1-based, columns counting characters). A surrogate is
/// encoded as `ED A0..BF ..`, bytes no character's UTF-8 begins with.
fn first_surrogate(bytes: &[u8]) -> (usize, usize, usize) {
    let (mut pos, mut line, mut column) = (0, 1, 1);
    for (i, &b) in bytes.iter().enumerate() {
        // Continuation bytes are inside a character already counted.
        if b & 0xC0 == 0x80 {
            continue;
        }
        if b == 0xED && bytes.get(i + 1).is_some_and(|&next| next >= 0xA0) {
            break;
        }
        pos += 1;
        if b == b'\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (pos, line, column)
}

/// The offset in characters of a 1-based line and column (columns count
/// characters) in UTF-8 `source`.
fn char_offset(source: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match source[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    let chars_before = source[..start]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    chars_before + column.saturating_sub(1)
}

/// The native part of the `pith` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(measure, m)?)?;
    m.add_function(wrap_pyfunction!(tool_text, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

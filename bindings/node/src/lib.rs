//! The native module of the `@pith-format/pith` package.
//!
//! `index.js` is the package's interface; these functions are its engine.
//! Values cross both ways as flat arrays, which cost one Node-API call
//! each, where walking a value through Node-API would cost calls per
//! member:
//!
//! * **into Rust** as an [`input`] tape: `index.js` walks the value with
//!   `JSON.stringify`'s rules and writes its numbers as doubles and its
//!   strings as the UTF-8 bytes of one text, so nothing is formatted to be
//!   parsed again, and no JavaScript string is built to be converted here;
//!   [`input::read`] makes the [`pith::Value`]. The few values the walk
//!   leaves to `index.js`'s JSON writer cross as JSON text.
//! * **out of Rust** as a [`tape`]: flat arrays that `index.js` turns into
//!   objects faster than Node-API calls could make them.
//!
//! Failures come back as a [`Problem`] rather than a thrown error, so that
//! `index.js` throws the error class that fits, with its fields.

/// The value trees are many small allocations; mimalloc makes and frees
/// them about twice as fast as the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod tape;

use napi::Either;
use napi::bindgen_prelude::{Buffer, Float64Array, Uint8Array, Uint32Array};
use napi_derive::napi;
use pith::Value;
use pith::toon::DecodeOptions;
use pith_bindings::options::{self, ArgError, Budget, EncodeArgs, Failure, Plan};
use pith_bindings::{DROP_LATER_BYTES, drop_later};
use pith_bindings::{direct, input};

/// Why a call produced nothing, in terms `index.js` turns into an error.
#[napi(object)]
#[derive(Default)]
pub struct Problem {
    /// `argument`, `json` (the text to encode), `decode` (the text to
    /// decode), `value` (a value pith cannot write), `cursor` or `budget`.
    pub kind: String,
    /// The library's name for the error (`Syntax`, `LoneSurrogate`, …).
    pub code: Option<String>,
    /// What was expected and what was found.
    pub message: String,
    /// The argument at fault (for `argument`).
    pub argument: Option<String>,
    /// 1-based line of the error in the text.
    pub line: Option<u32>,
    /// 1-based column, in characters.
    pub column: Option<u32>,
    /// The JSON path of the value at fault.
    pub path: Option<String>,
    /// For `budget`: the `output_budget_exceeded` notice.
    pub notice: Option<String>,
    /// For `budget`: the budget asked for.
    pub budget: Option<f64>,
    /// For `budget`: the smallest budget that works.
    pub minimum: Option<f64>,
    /// For `budget`: tokens of the output without a budget.
    pub unbounded: Option<f64>,
    /// For `budget`: the tokenizer the budget counts in.
    pub tokenizer: Option<String>,
    /// For `budget`: collections in the input.
    pub collections: Option<f64>,
    /// For `budget`: rows in those collections.
    pub rows: Option<f64>,
}

/// An encoded text, and with a budget what fitting did.
#[napi(object)]
pub struct Encoded {
    /// The text.
    pub text: String,
    /// Exact tokens of the text (with a budget).
    pub tokens: Option<f64>,
    /// Collections cut (with a budget).
    pub collections_cut: Option<f64>,
    /// Rows left out (with a budget).
    pub rows_omitted: Option<f64>,
}

/// A decoded value, as a tape (see [`tape`]).
#[napi(object)]
pub struct Tape {
    /// The operations.
    pub ops: Uint32Array,
    /// The doubles.
    pub nums: Float64Array,
    /// The strings of characters below U+0100, one after the other.
    pub text: String,
    /// The other strings, one after the other.
    pub wide: String,
    /// Every key once.
    pub keys: String,
    /// Each key's length in UTF-16 units.
    pub key_lens: Uint32Array,
    /// Each shape: key count, uses, key indices.
    pub shapes: Uint32Array,
    /// How many short strings repeat by number.
    pub repeats: u32,
}

/// A tool result's text as `pith mcp` would send it.
#[napi(object)]
pub struct ToolText {
    /// The text.
    pub text: String,
    /// `_meta["pith/encoding"]`, when the text was rewritten.
    pub encoding: Option<String>,
    /// `_meta["pith/budget"]`, when a budget cut the value.
    pub budget: Option<String>,
}

/// A value as `index.js` hands it over: a tape (see [`input`]), or JSON
/// text.
#[napi(object)]
pub struct Input {
    /// The operations.
    pub ops: Option<Uint32Array>,
    /// The doubles.
    pub nums: Option<Float64Array>,
    /// The strings and keys, one after the other, in UTF-8.
    pub strs: Option<Uint8Array>,
    /// The value's JSON text, instead of a tape.
    pub json: Option<String>,
}

impl Input {
    /// The strings of the tape, or `None` when they are not UTF-8 (not
    /// written by `index.js`).
    fn strs(&self) -> Option<&str> {
        std::str::from_utf8(self.strs.as_deref().unwrap_or(&[])).ok()
    }

    /// The value, and the size of what crossed (to decide how to free it).
    fn value(&self) -> Result<(Value, usize), Box<Problem>> {
        if let Some(json) = &self.json {
            return parse(json).map(|v| (v, json.len()));
        }
        let ops: &[u32] = self.ops.as_deref().unwrap_or(&[]);
        let nums: &[f64] = self.nums.as_deref().unwrap_or(&[]);
        let strs = self
            .strs()
            .ok_or(input::TapeError::Malformed("the strings are not UTF-8"));
        strs.and_then(|strs| input::read(ops, nums, strs))
            .map(|v| (v, ops.len() * 4))
            .map_err(|e| {
                Box::new(Problem {
                    kind: "json".into(),
                    message: match e {
                        input::TapeError::Split => {
                            "a string holds a lone surrogate, which UTF-8 (and so pith) cannot hold"
                                .to_owned()
                        }
                        input::TapeError::Number(text) => {
                            format!("{text:?} is not a number pith can write")
                        }
                        input::TapeError::Malformed(why) => format!("malformed value tape: {why}"),
                    },
                    ..Problem::default()
                })
            })
    }
}

/// The keyword options of `encode` and `fit`, checked by `index.js` for type.
#[napi(object)]
pub struct EncodeOptions {
    /// A form's name, or `toon3`.
    pub format: String,
    /// The tokenizer auto minimises and budgets count.
    pub tokenizer: String,
    /// 1 to 5.
    pub min_readability: i64,
    /// A budget in tokens.
    pub budget: Option<f64>,
    /// A budget by name (`unbounded`).
    pub budget_name: Option<String>,
    /// A cursor from an omission receipt.
    pub cursor: Option<String>,
    /// Spaces per level.
    pub indent: i64,
    /// `,`, `\t` or `|`.
    pub delimiter: String,
}

/// Encodes `value`; with `fit`, within the budget, reporting what was cut.
#[napi]
pub fn encode(value: Input, options: EncodeOptions, fit: bool) -> Either<Encoded, Problem> {
    let budget = match (options.budget, options.budget_name.as_deref()) {
        (Some(n), _) => Some(Budget::Tokens(n as i128)),
        (None, Some(name)) => Some(Budget::Name(name)),
        (None, None) => None,
    };
    let args = EncodeArgs {
        format: &options.format,
        tokenizer: &options.tokenizer,
        min_readability: options.min_readability,
        budget,
        cursor: options.cursor.as_deref(),
        indent: options.indent,
        delimiter: &options.delimiter,
    };
    let plan = match Plan::new(&args) {
        Ok(plan) => plan,
        Err(e) => return Either::B(arg_problem(e)),
    };
    if let Some(text) = direct_toon(&value, &plan, fit) {
        return Either::A(Encoded {
            text,
            tokens: None,
            collections_cut: None,
            rows_omitted: None,
        });
    }
    let (value, size) = match value.value() {
        Ok(v) => v,
        Err(p) => return Either::B(*p),
    };
    let out = if fit {
        options::fit(&value, &plan)
    } else {
        options::encode(&value, &plan)
    };
    release(value, size);
    match out {
        Ok(out) => Either::A(Encoded {
            text: out.text,
            tokens: out.fit.map(|f| f.tokens as f64),
            collections_cut: out.fit.map(|f| f.collections_cut as f64),
            rows_omitted: out.fit.map(|f| f.rows_omitted as f64),
        }),
        Err(f) => Either::B(failure(f)),
    }
}

/// `format: "toon"` without a budget, written straight from the tape
/// when [`direct`] can (see there), without building the value.
fn direct_toon(value: &Input, plan: &Plan, fit: bool) -> Option<String> {
    let layout = direct::layout(plan).filter(|_| !fit)?;
    direct::write(
        value.ops.as_deref()?,
        value.nums.as_deref().unwrap_or(&[]),
        value.strs()?,
        layout,
    )
}

/// Decodes any form pith writes into a tape; `bigint` and `exact` say how
/// numbers a double cannot hold cross.
#[napi(js_name = "decodeTape")]
pub fn decode_tape(
    text: Either<String, Buffer>,
    lenient: bool,
    bigint: bool,
    exact: bool,
) -> Either<Tape, Problem> {
    let bytes: &[u8] = match &text {
        Either::A(s) => s.as_bytes(),
        Either::B(b) => b,
    };
    let opts = DecodeOptions::default().strict(!lenient);
    let numbers = tape::Numbers { bigint, exact };
    let t = match pith_bindings::decode::decode_into(bytes, &opts, || {
        tape::Builder::for_text(numbers, bytes.len())
    }) {
        Ok(b) => b.finish(),
        Err(e) => return Either::B(pith_problem("decode", &e)),
    };
    Either::A(Tape {
        ops: t.ops.into(),
        nums: t.nums.into(),
        text: t.text,
        wide: t.wide,
        keys: t.keys,
        key_lens: t.key_lens.into(),
        shapes: t.shapes.into(),
        repeats: t.repeats,
    })
}

/// Counts the tokens of `text` with `tokenizer`.
#[napi(js_name = "countTokens")]
pub fn count_tokens(text: String, tokenizer: String) -> Either<f64, Problem> {
    match options::tokenizer(&tokenizer) {
        Ok(kind) => Either::A(pith::tokens::Tokenizer::get(kind).count(&text) as f64),
        Err(e) => Either::B(arg_problem(e)),
    }
}

/// Every form's size for `value`, as JSON text.
#[napi]
pub fn measure(value: Input, tokenizer: String) -> Either<String, Problem> {
    let kind = match options::tokenizer(&tokenizer) {
        Ok(kind) => kind,
        Err(e) => return Either::B(arg_problem(e)),
    };
    let (value, _) = match value.value() {
        Ok(v) => v,
        Err(p) => return Either::B(*p),
    };
    match pith_bindings::measure::measure(&value, kind) {
        Ok(m) => Either::A(pith::json::stringify(&m)),
        Err(e) => Either::B(pith_problem("value", &e)),
    }
}

/// A tool result's text as `pith mcp` would send it: `text` as the tool's
/// own text, or the compact JSON of `value`, rewritten when that pays.
#[napi(js_name = "toolText")]
pub fn tool_text(
    text: Option<String>,
    value: Option<Input>,
    min_saving: f64,
    budget: Option<f64>,
    tokenizer: String,
) -> Either<ToolText, Problem> {
    let opts = match pith_bindings::mcp::options(
        min_saving as i128,
        budget.map(|b| b as i128),
        &tokenizer,
    ) {
        Ok(opts) => opts,
        Err(e) => return Either::B(arg_problem(e)),
    };
    let text = match (text, value) {
        (Some(text), _) => text,
        (None, Some(input)) => match input.value() {
            Ok((v, _)) => pith::json::stringify(&v),
            Err(p) => return Either::B(*p),
        },
        (None, None) => String::new(),
    };
    let out = pith_bindings::mcp::rewrite(text, &opts);
    Either::A(ToolText {
        encoding: out.encoding.map(str::to_owned),
        budget: out.budget.map(str::to_owned),
        text: out.text,
    })
}

/// Why `text` is not a number pith keeps exactly, or `None` when it is one.
#[napi(js_name = "checkNumber")]
pub fn check_number(text: String) -> Option<String> {
    let grammar_ok = {
        let b = text.as_bytes();
        let body = b.strip_prefix(b"-").unwrap_or(b);
        // JSON's grammar: no leading zeros, digits after a point.
        !body.is_empty()
            && body[0].is_ascii_digit()
            && !(body.len() > 1 && body[0] == b'0' && body[1].is_ascii_digit())
    };
    match (grammar_ok, pith::Number::parse(&text)) {
        (true, Ok(_)) => None,
        (_, Err(pith::number::NumberError::ExponentRange)) => Some(format!(
            "{text:?} has an exponent beyond ±{}: expected a number pith can write",
            pith::number::MAX_EXPONENT
        )),
        _ => Some(format!("{text:?} is not a JSON number")),
    }
}

fn parse(json: &str) -> Result<Value, Box<Problem>> {
    pith::json::parse(json).map_err(|e| Box::new(pith_problem("json", &e)))
}

/// Frees a large value off the caller's path.
fn release(value: Value, size: usize) {
    if size >= DROP_LATER_BYTES {
        drop_later(value);
    }
}

fn arg_problem(e: ArgError) -> Problem {
    Problem {
        kind: "argument".into(),
        argument: Some(e.argument.into()),
        message: e.message,
        ..Problem::default()
    }
}

fn pith_problem(kind: &str, e: &pith::Error) -> Problem {
    Problem {
        kind: kind.into(),
        code: Some(format!("{:?}", e.kind())),
        message: e.message().to_owned(),
        line: e.position().map(|p| p.line as u32),
        column: e.position().map(|p| p.column as u32),
        path: e.path().map(str::to_owned),
        ..Problem::default()
    }
}

fn failure(f: Failure) -> Problem {
    match f {
        Failure::Encode(e) => pith_problem("value", &e),
        Failure::Cursor(e) => Problem {
            kind: "cursor".into(),
            message: e.to_string(),
            ..Problem::default()
        },
        Failure::Exceeded(e) => Problem {
            kind: "budget".into(),
            message: options::exceeded_message(&e),
            notice: Some(e.text.clone()),
            budget: Some(e.budget as f64),
            minimum: Some(e.minimum as f64),
            unbounded: Some(e.unbounded as f64),
            tokenizer: Some(e.tokenizer.name().into()),
            collections: Some(e.collections as f64),
            rows: Some(e.rows as f64),
            ..Problem::default()
        },
    }
}

//! Every form pith writes, the choice between them, and the one reader that
//! reads them all.
//!
//! # Forms
//!
//! | [`Form`] | text | collections of object rows |
//! |---|---|---|
//! | `json` | compact JSON | as they are |
//! | `toon` | TOON | TOON's own tables and lists |
//! | `hoisted` | TOON | key-hoisted tables in the seed's form ([`crate::table::hoisted`]) |
//! | `hoisted-compact` | TOON | key-hoisted tables in the compact form (list cells, nested groups) |
//! | `table` | JSON | columnar tables `{cols, dict, rows}` ([`crate::table::columnar`]) |
//! | `auto` | TOON or JSON | the cheapest, per collection and per document |
//!
//! `hoisted` and `hoisted-compact` turn every collection that TOON does not
//! already write as a table into a key-hoisted table (subject to the density
//! guard and to a producer's own `<collection>_encoding` member); `table`
//! turns every array of objects into a columnar table.
//!
//! # `auto`
//!
//! 1. The value is written as plain TOON (spec 4.x, the layout asked for).
//! 2. When that text has no list items, it tells whether a key belongs to
//!    a look-alike (none can), and floors under compact JSON's bytes and
//!    tokens can be read off it (`text.rs`). Otherwise one pass over the
//!    value finds look-alikes and the same floors (`bound.rs`).
//! 3. The notation documents the readability floor admits are written
//!    (their variants share the value's references) and the cheapest is
//!    counted exactly; one whose text is plain TOON's under the marker is
//!    not counted (it cannot be cheaper).
//! 4. Plain TOON and compact JSON are then counted only until they cost
//!    more than that document, or not at all when a floor read off their
//!    text already says so (the notation usually wins by far where it wins,
//!    on nested records). The cheapest document wins; ties go to TOON or
//!    JSON over the notation, to JSON over TOON when it has no more bytes.
//!    So `auto` never costs more than compact JSON, nor than plain TOON.
//!    Key-hoisted and columnar tables are not among its candidates.
//!
//! Every token count stops as soon as the comparison it serves is decided:
//! a text that already costs more than its rival has lost, and one whose
//! tokens so far plus its bytes left (no piece has more tokens than bytes)
//! are under its rival's cost has won. The choices are those of exact
//! counts.
//!
//! # Reading: one reader, no guessing
//!
//! [`decode`] tells JSON from TOON by syntax, then [`restore`]s the tables
//! in the value, found by the predicates of [`crate::table`]: every
//! hoisted pair and every columnar object is restored (a malformed one is
//! an error), and nothing else is touched.
//!
//! A value can *look* like those tables without being one: a member
//! `items_encoding: {json_columns: …}` beside an array `items`, or an object
//! with exactly the keys `cols`, `dict` and `rows`. Such a value would be
//! misread, so when the input holds any — or when its root is itself
//! shaped like the wrapper below — every form writes it inside a wrapper,
//! in that form's syntax and with no tables at all:
//!
//! ```json
//! {"$pith": "auto", "value": <the input, verbatim>}
//! ```
//!
//! The wrapper is a root object with exactly the two keys `$pith` (the name
//! of the form asked for) and `value`. The reader unwraps one level and
//! returns `value` untouched, restoring nothing inside it. A wrapper-shaped
//! input is wrapped again, so the scheme is closed: `decode(encode(x)) == x`
//! for every value and every form, up to the key order of table rows (see
//! [`crate::equiv`]).
//!
//! JSON text means what it says: it is read back as it is, look-alikes,
//! wrapper-shaped roots and all, so the JSON form never needs a wrapper and
//! `auto`'s compact JSON is always a candidate that reads back exactly. The
//! one JSON text that is read otherwise is the `table` form's, which starts
//! with the bytes of [`JSON_MARK`] — `{"$pith": "table", "value": …}`, with
//! the spaces — and no compact JSON text does, since compact JSON has no
//! space outside its strings. A producer-owned `<collection>_encoding` member that
//! is *not* shaped like metadata (say a string) needs no wrapper: it only
//! keeps its collection from being hoisted, as the seed says.

mod bound;
mod meter;
mod plan;
mod text;

use self::bound::Size;
use self::meter::Meter;
use self::plan::{Mode, Planner};
use crate::table::columnar::{self, Intern};
use crate::table::{self as tables, Census, hoisted, index_path, key_path};
use crate::tokens::{Tokenizer, TokenizerKind};
use crate::toon::{DecodeOptions, EncodeOptions, KeyFolding, Spec};
use crate::value::Unpacked;
use crate::{Error, ErrorKind, Map, Result, Value};
use std::fmt;
use std::str::FromStr;

/// The key naming the form in a wrapper.
pub const WRAPPER_TAG: &str = "$pith";
/// The key holding the verbatim value in a wrapper.
pub const WRAPPER_VALUE: &str = "value";
/// The first bytes of a JSON text that is a wrapper to be read as one: the
/// `table` form's `{"$pith": "table", "value": …}`. Compact JSON never
/// starts with them (it has no space outside strings), so every other JSON
/// text is read as it is.
pub const JSON_MARK: &str = "{\"$pith\": \"";

/// A form pith writes (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Form {
    /// The cheapest of the others, never a positional one.
    #[default]
    Auto,
    /// TOON as [`crate::toon`] writes it.
    Toon,
    /// TOON with key-hoisted tables in the seed's form.
    Hoisted,
    /// TOON with key-hoisted tables in the compact form.
    HoistedCompact,
    /// JSON with columnar tables.
    Table,
    /// Compact JSON.
    Json,
    /// The pith notation ([`crate::notation`]), with what the readability
    /// floor admits.
    Pith,
}

impl Form {
    /// Every form, in the order `pith measure` lists them.
    pub const ALL: [Form; 7] = [
        Form::Json,
        Form::Toon,
        Form::Hoisted,
        Form::HoistedCompact,
        Form::Table,
        Form::Pith,
        Form::Auto,
    ];

    /// `auto`, `pith`, `toon`, `hoisted`, `hoisted-compact`, `table` or `json`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Auto => "auto",
            Form::Pith => "pith",
            Form::Toon => "toon",
            Form::Hoisted => "hoisted",
            Form::HoistedCompact => "hoisted-compact",
            Form::Table => "table",
            Form::Json => "json",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Form {
    type Err = Error;

    /// Reads a form's [`name`](Form::name).
    fn from_str(s: &str) -> Result<Form> {
        Form::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Type,
                    format!(
                        "unknown form {s:?}: expected auto, pith, toon, hoisted, hoisted-compact, table or json"
                    ),
                )
            })
    }
}

/// What `auto` minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Metric {
    /// Tokens of this tokenizer, counted exactly.
    Tokens(TokenizerKind),
    /// UTF-8 bytes.
    Bytes,
}

impl Default for Metric {
    /// Tokens of the first tokenizer compiled in (o200k_base by default).
    fn default() -> Metric {
        Metric::Tokens(TokenizerKind::ALL[0])
    }
}

/// Options for [`encode`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The form to write (default [`Form::Auto`]).
    pub form: Form,
    /// What `auto` minimises, and what `table` interns by (default o200k tokens).
    pub metric: Metric,
    /// TOON layout: indent, delimiter, depth limit. Spec 3.3 and key folding
    /// apply to [`Form::Toon`] only; the other TOON forms write spec 4.x.
    pub toon: EncodeOptions,
    /// The lowest readability score (1 to 5, see [`readability`]) `auto` and
    /// `pith` may write (default [`DEFAULT_MIN_READABILITY`]).
    pub min_readability: u8,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            form: Form::Auto,
            metric: Metric::default(),
            toon: EncodeOptions::default(),
            min_readability: DEFAULT_MIN_READABILITY,
        }
    }
}

/// The readability floor `auto` obeys unless told otherwise: the seed's
/// minimum adopted score.
pub const DEFAULT_MIN_READABILITY: u8 = 4;

/// The readability score of an encoded document, by the seed's rubric
/// (`docs/notation.md`): 5 for JSON, TOON and the notation without lookups;
/// one less per kind of extra decoding step (JSON text in cells, list cells
/// declared in metadata, references, derived columns); 2 for columnar
/// tables, which are read by position and through a dictionary.
pub fn readability(encoded: &Encoded) -> u8 {
    let mut score = match encoded.syntax {
        Syntax::Pith {
            references,
            derived,
        } => 5 - u8::from(references > 0) - u8::from(derived > 0),
        Syntax::Toon | Syntax::Json => 5,
    };
    for form in [TableForm::Hoisted, TableForm::HoistedCompact] {
        if encoded.tables.iter().any(|c| c.form == form) {
            score = score.min(4);
        }
    }
    if encoded.tables.iter().any(|c| c.form == TableForm::Columnar) {
        score = score.min(2);
    }
    score
}

/// The syntax of an encoded document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// TOON.
    Toon,
    /// JSON.
    Json,
    /// The pith notation, with how many names it defines and how many
    /// derived columns it declares.
    Pith {
        /// Definitions (`&name: …`).
        references: usize,
        /// Derived columns.
        derived: usize,
    },
}

/// How a collection was written, when not as plain TOON or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableForm {
    /// A key-hoisted table in the seed's form.
    Hoisted,
    /// A key-hoisted table in the compact form.
    HoistedCompact,
    /// A columnar table.
    Columnar,
}

impl TableForm {
    /// `hoisted`, `hoisted-compact` or `table`.
    pub fn name(self) -> &'static str {
        match self {
            TableForm::Hoisted => "hoisted",
            TableForm::HoistedCompact => "hoisted-compact",
            TableForm::Columnar => "table",
        }
    }
}

/// A collection written as a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Its JSON path, such as `items` or `data.rows`.
    pub path: String,
    /// How it was written.
    pub form: TableForm,
}

/// An encoded document and what went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The text (no final newline).
    pub text: String,
    /// TOON or JSON.
    pub syntax: Syntax,
    /// Whether the value went into a wrapper because it looks like a table.
    pub wrapped: bool,
    /// The collections written as tables, in document order.
    pub tables: Vec<Choice>,
}

impl Encoded {
    /// A one-line account: `toon`, `json`, `toon; hoisted-compact: items`,
    /// `json; wrapped`.
    pub fn describe(&self) -> String {
        let mut s = String::from(match self.syntax {
            Syntax::Toon => "toon",
            Syntax::Json => "json",
            Syntax::Pith { .. } => "pith",
        });
        if let Syntax::Pith {
            references,
            derived,
        } = self.syntax
        {
            if references > 0 {
                s.push_str(&format!("; references: {references}"));
            }
            if derived > 0 {
                s.push_str(&format!("; derived columns: {derived}"));
            }
        }
        if self.wrapped {
            s.push_str("; wrapped");
        }
        for form in [
            TableForm::Hoisted,
            TableForm::HoistedCompact,
            TableForm::Columnar,
        ] {
            let paths: Vec<&str> = self
                .tables
                .iter()
                .filter(|c| c.form == form)
                .map(|c| c.path.as_str())
                .collect();
            if !paths.is_empty() {
                s.push_str(&format!("; {}: {}", form.name(), paths.join(", ")));
            }
        }
        s
    }
}

/// Encodes `value` in `opts.form`.
///
/// # Errors
///
/// Those of [`crate::toon::encode`] (a value nested deeper than
/// `opts.toon.max_depth`, an indent of 0, key folding with spec 4.x).
///
/// ```
/// use pith::select::{decode, encode, Options};
/// let v = pith::json::parse(
///     r#"{"items":[{"id":1,"title":"first","tags":["a","b"]},{"id":2,"title":"second","tags":["c"]},
///                  {"id":3,"title":"third","tags":[]},{"id":4,"title":"fourth","tags":["d"]}]}"#,
/// )?;
/// let out = encode(&v, &Options::default())?;
/// assert_eq!(out.describe(), "pith");
/// assert_eq!(
///     out.text,
///     "%pith\nitems[4]{id,title,tags[]}:\n1,first,a b\n2,second,c\n3,third,[]\n4,fourth,d"
/// );
/// assert_eq!(decode(out.text.as_bytes(), &Default::default())?, v);
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode(value: &Value, opts: &Options) -> Result<Encoded> {
    let capped;
    let opts = if opts.toon.max_depth > crate::MAX_DEPTH_LIMIT {
        capped = Options {
            toon: EncodeOptions {
                max_depth: crate::MAX_DEPTH_LIMIT,
                ..opts.toon.clone()
            },
            ..opts.clone()
        };
        &capped
    } else {
        opts
    };
    let toon4 = toon4(&opts.toon);
    if opts.form == Form::Auto {
        return auto(value, opts, &toon4);
    }
    if opts.form == Form::Pith {
        // With no rival, the cheapest variant is always there.
        return notation_best(value, opts, None, None, false, &mut Meter::new(opts.metric))?
            .map_or_else(|| toon_doc(value, &toon4, Vec::new()), |(doc, _)| Ok(doc));
    }
    if opts.form == Form::Json {
        // Compact JSON text is read back as it is, whatever it holds.
        return Ok(json_doc(value, Vec::new()));
    }
    let survey = bound::survey(value, Size::Skip, opts.toon.max_depth);
    if survey.look_alike || matches!(value, Value::Object(m) if is_wrapper(m)) {
        // Written so that it reads back as it is: the TOON forms inside a
        // wrapper; the `table` form as compact JSON, which is read as it is
        // (inside its marked wrapper a look-alike would be restored).
        return match opts.form {
            Form::Toon => toon_wrapped(value, opts.form, &opts.toon),
            Form::Hoisted | Form::HoistedCompact => toon_wrapped(value, opts.form, &toon4),
            Form::Table | Form::Json => Ok(json_doc(value, Vec::new())),
            Form::Auto | Form::Pith => auto(value, opts, &toon4),
        };
    }
    match opts.form {
        Form::Json => Ok(json_doc(value, Vec::new())),
        Form::Toon => toon_doc(value, &opts.toon, Vec::new()),
        Form::Hoisted | Form::HoistedCompact => {
            let mode = if opts.form == Form::Hoisted {
                Mode::Seed
            } else {
                Mode::Compact
            };
            let mut planner = Planner::new(mode, &toon4);
            let planned = planner.run(value)?;
            let choices = std::mem::take(&mut planner.choices);
            toon_doc(planned.as_ref().unwrap_or(value), &toon4, choices)
        }
        Form::Table => {
            let intern = match opts.metric {
                Metric::Tokens(kind) => Intern::Tokens(kind),
                Metric::Bytes => Intern::Bytes,
            };
            let mut choices = Vec::new();
            let planned = columnar_plan(value, intern, "", 0, opts.toon.max_depth, &mut choices)?;
            Ok(match planned {
                // Columnar tables in JSON are marked: `{"$pith": "table", "value": …}`.
                Some(planned) => Encoded {
                    text: marked_json(Form::Table, &planned),
                    syntax: Syntax::Json,
                    wrapped: true,
                    tables: choices,
                },
                None => json_doc(value, choices),
            })
        }
        Form::Auto | Form::Pith => auto(value, opts, &toon4),
    }
}

/// Reads any document [`encode`] writes: [`parse`]s it, then [`restore`]s
/// its tables.
///
/// # Errors
///
/// Those of [`parse`] and of [`restore`].
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if is_notation(body) {
        // The notation writes look-alikes as they are: nothing to restore.
        return crate::notation::decode(body, opts);
    }
    let (value, syntax) = parse_with_syntax(bytes, opts)?;
    match syntax {
        Syntax::Json if body.starts_with(JSON_MARK.as_bytes()) => {
            restore_marked(value, opts.max_depth, opts.strict)
        }
        Syntax::Json => Ok(value),
        _ => restore_with(value, opts.max_depth, opts.strict),
    }
}

/// Reads JSON text as [`decode`] reads it: as it is, unless it starts with
/// [`JSON_MARK`], when it must be a wrapper and is read as one (the `table`
/// form's tables restored, strict or lenient about their metadata as
/// `opts.strict` says). As [`crate::json::parse_bytes`], it refuses a
/// byte-order mark, which JSON text does not have.
///
/// # Errors
///
/// Those of the JSON reader, with line and column; those of [`restore_with`]
/// for a marked text that is no wrapper or whose tables are malformed.
pub fn decode_json(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let value = crate::json::parse_with(bytes, &json_options(opts))?;
    if bytes.starts_with(JSON_MARK.as_bytes()) {
        restore_marked(value, opts.max_depth, opts.strict)
    } else {
        Ok(value)
    }
}

/// The JSON reader's options under `opts`: its depth limit.
fn json_options(opts: &DecodeOptions) -> crate::json::ParseOptions {
    crate::json::ParseOptions {
        max_depth: crate::depth_limit(opts.max_depth),
    }
}

/// Restores the value of a JSON text that starts with [`JSON_MARK`]: it must
/// be a wrapper; the `table` form's has its columnar tables restored, any
/// other form's value is returned as it is.
fn restore_marked(value: Value, max_depth: usize, strict: bool) -> Result<Value> {
    let table = match &value {
        Value::Object(m) if is_wrapper(m) => {
            m.get(WRAPPER_TAG).and_then(Value::as_str) == Some(Form::Table.name())
        }
        other => {
            // The mark opens the text: line 1, column 1.
            return Err(Error::at(
                ErrorKind::Type,
                crate::error::Position::at(b"", 0),
                format!(
                    "expected a wrapper after `{JSON_MARK}`: an object with exactly the keys `{WRAPPER_TAG}` and `{WRAPPER_VALUE}`, found {}",
                    tables::describe(other)
                ),
            ));
        }
    };
    if !table {
        return restore_with(value, max_depth, strict);
    }
    match value.into_object() {
        Ok(mut m) => {
            let inner = m.remove(WRAPPER_VALUE).unwrap_or(Value::Null);
            restore_tree(inner, "", 0, crate::depth_limit(max_depth), strict)
        }
        Err(v) => Ok(v),
    }
}

/// Whether `bytes` is a notation document: its first line is the marker,
/// and more follows (the one-line text `%pith` is TOON's string).
fn is_notation(bytes: &[u8]) -> bool {
    let m = crate::notation::MARKER.as_bytes();
    bytes.starts_with(m) && bytes.get(m.len()) == Some(&b'\n')
}

/// Reads JSON or TOON, told apart by syntax, restoring nothing.
///
/// One leading byte-order mark is removed (a second one is content). The
/// text is taken as JSON when it starts like JSON and parses as JSON; the
/// only TOON documents that are also JSON texts (a root `[]`, a number,
/// `true`, `false`, `null` or a quoted string) mean the same value in both.
/// Text that starts with `{` or `[` and is no JSON is refused with the JSON
/// error, unless it starts with a TOON root header (`[3]: …`, `[2]{a,b}:`):
/// pith quotes every string that starts with a bracket, so no text it
/// writes is a bare string such as `[1,2,3`.
///
/// # Errors
///
/// Those of the JSON or the TOON reader, with line and column: the JSON
/// error for text that starts with `{`, or with `[` and no TOON root
/// header; the TOON error otherwise.
pub fn parse(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    parse_with_syntax(bytes, opts).map(|(v, _)| v)
}

/// [`parse`], telling which syntax the text was read as.
fn parse_with_syntax(bytes: &[u8], opts: &DecodeOptions) -> Result<(Value, Syntax)> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body
        .iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    let json_like = matches!(
        first,
        Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
    );
    let toon = || crate::toon::decode_bytes(bytes, opts).map(|v| (v, Syntax::Toon));
    if !json_like {
        return toon();
    }
    match crate::json::parse_with(body, &json_options(opts)) {
        Ok(v) => Ok((v, Syntax::Json)),
        // `{` opens no TOON document, so the JSON error is the one to show.
        Err(e) if first == Some(b'{') => Err(e),
        Err(e) if first == Some(b'[') => {
            let header = std::str::from_utf8(body)
                .is_ok_and(|text| crate::toon::opens_with_root_header(text, opts));
            if header { toon() } else { Err(e) }
        }
        Err(_) => toon(),
    }
}

/// Restores the tables of a decoded value: unwraps a wrapper, or restores
/// every hoisted pair and columnar object (see the module docs). Strict:
/// see [`restore_with`].
///
/// # Errors
///
/// [`ErrorKind::Type`] or [`ErrorKind::Syntax`] for a malformed table or
/// wrapper, naming its JSON path; [`ErrorKind::DepthLimit`] when restored
/// JSON cells nest beyond `max_depth` (at most [`crate::MAX_DEPTH_LIMIT`]).
pub fn restore(value: Value, max_depth: usize) -> Result<Value> {
    restore_with(value, max_depth, true)
}

/// [`restore`], strict or lenient about table metadata pith never writes.
/// Strict (as [`decode`] is with `strict` options) refuses a dict-column
/// cell that is no index into its entry, an absent cell that holds a value,
/// and json, list or absent columns a table does not have. Lenient keeps
/// the seed's rules: such a dict cell is taken literally, such absent cells
/// are left out, unknown column names are ignored.
///
/// # Errors
///
/// Those of [`restore`].
pub fn restore_with(value: Value, max_depth: usize, strict: bool) -> Result<Value> {
    let max_depth = crate::depth_limit(max_depth);
    match value.unpack() {
        Unpacked::Object(mut m) if is_wrapper(&m) => {
            let inner = m.remove(WRAPPER_VALUE).unwrap_or(Value::Null);
            match m.remove(WRAPPER_TAG) {
                Some(Value::String(ref s)) if s.parse::<Form>().is_ok() => Ok(inner),
                other => Err(Error::at_path(
                    ErrorKind::Type,
                    WRAPPER_TAG,
                    format!(
                        "expected the name of a form in the wrapper, found {}",
                        other.map_or_else(|| "nothing".to_owned(), |v| tables::describe(&v))
                    ),
                )),
            }
        }
        value => restore_tree(value.into(), "", 0, max_depth, strict),
    }
}

/// Every candidate's size, and what `auto` chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measurement {
    /// One entry per form of [`Form::ALL`], in that order.
    pub candidates: Vec<Candidate>,
    /// What `auto` wrote.
    pub auto: Encoded,
}

/// One form's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The form.
    pub form: Form,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// Tokens of the measuring tokenizer.
    pub tokens: usize,
    /// Its [`readability`] score.
    pub readability: u8,
}

/// Writes `value` in every form and measures each with `tokenizer`; `auto`
/// minimises those tokens.
///
/// # Errors
///
/// Those of [`encode`].
pub fn measure(
    value: &Value,
    tokenizer: TokenizerKind,
    toon: &EncodeOptions,
) -> Result<Measurement> {
    let counter = Tokenizer::get(tokenizer);
    let encode_as = |form| -> Result<(Candidate, Encoded)> {
        let opts = Options {
            form,
            metric: Metric::Tokens(tokenizer),
            toon: toon.clone(),
            min_readability: DEFAULT_MIN_READABILITY,
        };
        let out = encode(value, &opts)?;
        let candidate = Candidate {
            form,
            bytes: out.text.len(),
            tokens: counter.count(&out.text),
            readability: readability(&out),
        };
        Ok((candidate, out))
    };
    // `auto` comes last in `Form::ALL`: its text is kept as well.
    const _: () = assert!(matches!(Form::ALL[Form::ALL.len() - 1], Form::Auto));
    let mut candidates = Vec::with_capacity(Form::ALL.len());
    for &form in &Form::ALL[..Form::ALL.len() - 1] {
        candidates.push(encode_as(form)?.0);
    }
    let (candidate, auto) = encode_as(Form::Auto)?;
    candidates.push(candidate);
    Ok(Measurement { candidates, auto })
}

// ---------------------------------------------------------------------------

/// Whether `m` is shaped like a wrapper: exactly the keys `$pith` and `value`.
fn is_wrapper(m: &Map) -> bool {
    m.len() == 2 && m.contains_key(WRAPPER_TAG) && m.contains_key(WRAPPER_VALUE)
}

/// `{"$pith": form, "value": value}`.
fn wrapper(form: Form, value: Value) -> Value {
    let mut m = Map::with_capacity(2);
    m.push_unique(WRAPPER_TAG.to_owned(), Value::from(form.name()));
    m.push_unique(WRAPPER_VALUE.to_owned(), value);
    Value::Object(m)
}

/// `value` verbatim inside a TOON wrapper naming `form`, written with `toon`.
fn toon_wrapped(value: &Value, form: Form, toon: &EncodeOptions) -> Result<Encoded> {
    let mut doc = toon_doc(&wrapper(form, value.clone()), toon, Vec::new())?;
    doc.wrapped = true;
    Ok(doc)
}

/// `{"$pith": "<form>", "value": <value as compact JSON>}`: a wrapper that
/// starts with [`JSON_MARK`], so that [`decode`] reads it as one.
fn marked_json(form: Form, value: &Value) -> String {
    let body = crate::json::to_string(value);
    let mut out = String::with_capacity(body.len() + 40);
    out.push_str(JSON_MARK);
    out.push_str(form.name());
    out.push_str("\", \"");
    out.push_str(WRAPPER_VALUE);
    out.push_str("\": ");
    out.push_str(&body);
    out.push('}');
    out
}

/// The TOON options of the hoisted forms and `auto`: spec 4.x, no folding.
fn toon4(opts: &EncodeOptions) -> EncodeOptions {
    EncodeOptions {
        spec: Spec::V4,
        key_folding: KeyFolding::Off,
        ..opts.clone()
    }
}

fn toon_doc(value: &Value, opts: &EncodeOptions, tables: Vec<Choice>) -> Result<Encoded> {
    Ok(Encoded {
        text: crate::toon::encode(value, opts)?,
        syntax: Syntax::Toon,
        wrapped: false,
        tables,
    })
}

fn json_doc(value: &Value, tables: Vec<Choice>) -> Encoded {
    Encoded {
        text: crate::json::to_string(value),
        syntax: Syntax::Json,
        wrapped: false,
        tables,
    }
}

/// `auto`: the cheapest of plain TOON, compact JSON and the notation
/// documents the readability floor admits, all measured with one [`Meter`].
///
/// The notation is counted first: where it wins, it is usually by far
/// (nested records), and then TOON and JSON are counted only until they
/// cost more than it, or not at all when a floor read off their text
/// already does. A wrapper-shaped root or a look-alike is written verbatim
/// and measured against the notation as before.
fn auto(value: &Value, opts: &Options, toon4: &EncodeOptions) -> Result<Encoded> {
    let mut meter = Meter::new(opts.metric);
    let (toon, json_floor) = match toon_first(value, opts, toon4)? {
        First::Plain { toon, json_floor } => (toon, json_floor),
        First::Verbatim => {
            let (base, known) = verbatim(value, opts, toon4, &mut meter)?;
            let base_cost = match known {
                Some(c) => c,
                None => meter.cost(&base.text),
            };
            let rival = Some((base_cost, base.text.len()));
            return Ok(
                match notation_best(value, opts, rival, Some(&base.text), true, &mut meter)? {
                    Some((doc, _)) => doc,
                    None => base,
                },
            );
        }
    };
    let Some((doc, cn)) = notation_best(value, opts, None, Some(&toon.text), true, &mut meter)?
    else {
        return Ok(toon_or_json(value, toon, json_floor, &mut meter).0);
    };
    // The notation wins only on fewer tokens than both; TOON and JSON are
    // counted only as far as that question needs.
    let tc = meter.cost_unless_over(&toon.text, cn);
    // What JSON must cost at most to be chosen (it wins ties).
    let bar = tc.unwrap_or(cn);
    if json_floor > bar {
        return Ok(if tc.is_some() { toon } else { doc });
    }
    let json = json_doc(value, Vec::new());
    Ok(match (tc, meter.cost_unless_over(&json.text, bar)) {
        (Some(tc), Some(jc)) if (jc, json.text.len()) <= (tc, toon.text.len()) => json,
        (Some(_), _) => toon,
        (None, Some(_)) => json,
        (None, None) => doc,
    })
}

/// The notation documents the floor admits, the cheapest of them; with
/// `rival` (its cost and bytes), only one that is cheaper. A document that
/// is the rival's text (`rival_text`) under the marker is not counted: it
/// cannot be cheaper.
///
/// The variants share the value's references, found once. A variant that is
/// known to write the text of one already written is not written again (it
/// cannot be cheaper either): one with references, when the value has
/// none, is the one without; one with derived columns, when writing it
/// (or writing the one without, which asks) turned no column into a
/// derived one, is the one without.
fn notation_best(
    value: &Value,
    opts: &Options,
    rival: Option<(usize, usize)>,
    rival_text: Option<&str>,
    depth_checked: bool,
    meter: &mut Meter,
) -> Result<Option<(Encoded, usize)>> {
    let tokenizer = notation_options(opts, false, false).tokenizer;
    // From `auto`, the value has been written as TOON with this depth limit.
    let mut shared = crate::notation::Shared::new(value, depth_checked);
    // The rival's length, and a little more for the marker and the names.
    shared.size_hint = rival_text.map_or(0, |t| t.len() + t.len() / 16 + 64);
    // A variant without derived columns tells whether the one with them
    // would write its text again, when the floor admits derived columns.
    let probe = variants(opts.min_readability).iter().any(|&(_, d)| d);
    shared.probe_derived = probe;
    // Per value of `references` (as written): whether derived columns can
    // change the text, once a variant with them has been written.
    let mut derives: [Option<bool>; 2] = [None, None];
    // The variants written, as (references, derived columns) that mattered.
    let mut written: Vec<(bool, bool)> = Vec::new();
    let mut best = rival;
    let mut out = None;
    for &(references, derived) in variants(opts.min_readability) {
        let references = references && shared.has_refs(tokenizer);
        let derived = derived && derives[usize::from(references)] != Some(false);
        if written.contains(&(references, derived)) {
            continue;
        }
        let n = notation_options(opts, references, derived);
        let (doc, effects) = crate::notation::encode_shared(&n, &mut shared)?;
        let derived = derived && effects.derived_columns;
        if n.derived {
            derives[usize::from(references)] = Some(derived);
        } else if probe && !effects.derived_columns {
            // Probed: with derived columns, this variant's text again.
            derives[usize::from(references)] = Some(false);
        }
        if written.contains(&(references, derived)) {
            continue;
        }
        written.push((references, derived));
        let body = &doc.text[crate::notation::MARKER.len() + 1..];
        if rival_text == Some(body) {
            continue;
        }
        let c = match best {
            Some((hi, _)) => match meter.cost_unless_over(&doc.text, hi) {
                Some(c) => c,
                None => continue,
            },
            None => meter.cost(&doc.text),
        };
        // Against TOON or JSON (`out` still empty) only fewer tokens win: on
        // a tie the standard syntax is kept; between notation documents,
        // fewer bytes break the tie.
        let wins = match best {
            None => true,
            Some((bc, _)) if out.is_none() => c < bc,
            Some((bc, bl)) => (c, doc.text.len()) < (bc, bl),
        };
        if wins {
            best = Some((c, doc.text.len()));
            out = Some((
                Encoded {
                    syntax: Syntax::Pith {
                        references: doc.references,
                        derived: doc.derived,
                    },
                    text: doc.text,
                    wrapped: false,
                    tables: Vec::new(),
                },
                c,
            ));
        }
    }
    Ok(out)
}

/// The variants of the notation a readability floor admits, as (references,
/// derived columns), in the order `auto` writes them.
fn variants(min_readability: u8) -> &'static [(bool, bool)] {
    match min_readability {
        5.. => &[(false, false)],
        4 => &[(true, false), (false, true)],
        _ => &[(true, true), (true, false), (false, true)],
    }
}

/// The notation's options for one variant under `opts`: its layout, and the
/// tokenizer of the metric (the estimate for bytes).
fn notation_options(opts: &Options, references: bool, derived: bool) -> crate::notation::Options {
    crate::notation::Options {
        references,
        derived,
        indent: opts.toon.indent,
        delimiter: opts.toon.delimiter,
        max_depth: opts.toon.max_depth,
        tokenizer: match opts.metric {
            Metric::Tokens(kind) => kind,
            Metric::Bytes => TokenizerKind::Bytes4,
        },
    }
}

/// What `auto` starts from: plain TOON and a floor under compact JSON's
/// cost, or — for a wrapper-shaped root or a look-alike — the verbatim
/// documents of [`verbatim`].
enum First {
    Plain { toon: Encoded, json_floor: usize },
    Verbatim,
}

/// Writes plain TOON and reads the floor under compact JSON's cost off
/// its text (or, when the text cannot tell, off the value).
fn toon_first(value: &Value, opts: &Options, toon4: &EncodeOptions) -> Result<First> {
    if matches!(value, Value::Object(m) if is_wrapper(m)) {
        return Ok(First::Verbatim);
    }
    let toon = toon_doc(value, toon4, Vec::new())?;
    // A plain document's text answers for itself; otherwise the value is surveyed.
    let delimiter = toon4.delimiter.as_byte();
    let exact = matches!(opts.metric, Metric::Tokens(kind) if kind.is_exact());
    // JSON writes an integer of 1e21 or more as its digits, up to five
    // bytes fewer than TOON's `1.2345678901234567890123e+22`: a text that
    // may hold one gives no byte floor (its token floor stands).
    let text_floors = if exact || !toon.text.contains("e+") {
        text::survey_text(&toon.text, toon4.indent, delimiter, exact)
    } else {
        None
    };
    let survey = match text_floors {
        Some(floors) => bound::Survey {
            look_alike: false,
            json: if exact { floors.tokens } else { floors.bytes },
        },
        None => {
            let size = match opts.metric {
                Metric::Tokens(kind) if kind.is_exact() => Size::TokenFloor,
                _ => Size::Bytes,
            };
            bound::survey(value, size, opts.toon.max_depth)
        }
    };
    if survey.look_alike {
        return Ok(First::Verbatim);
    }
    let json_floor = match opts.metric {
        Metric::Tokens(kind) if !kind.is_exact() => survey.json.div_ceil(4),
        _ => survey.json,
    };
    Ok(First::Plain { toon, json_floor })
}

/// TOON must wrap a wrapper-shaped root or a look-alike; compact JSON is
/// read as it is. The cheaper of the two, JSON on a tie, and its cost.
fn verbatim(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    meter: &mut Meter,
) -> Result<(Encoded, Option<usize>)> {
    let toon = toon_wrapped(value, opts.form, toon4)?;
    let json = json_doc(value, Vec::new());
    let (tc, jc) = (meter.cost(&toon.text), meter.cost(&json.text));
    Ok(if (jc, json.text.len()) <= (tc, toon.text.len()) {
        (json, Some(jc))
    } else {
        (toon, Some(tc))
    })
}

/// The cheaper of plain TOON and compact JSON (JSON on a tie), with its
/// cost when that was counted: JSON is neither written nor counted when
/// its floor rules it out, and TOON is counted only until it is sure to
/// cost less than that floor.
fn toon_or_json(
    value: &Value,
    toon: Encoded,
    json_floor: usize,
    meter: &mut Meter,
) -> (Encoded, Option<usize>) {
    let toon_cost = match meter.cost_unless_under(&toon.text, json_floor) {
        Some(c) => c,
        // JSON costs more for certain: neither written nor counted.
        None => return (toon, None),
    };
    if json_floor > toon_cost {
        return (toon, Some(toon_cost));
    }
    let json = json_doc(value, Vec::new());
    // JSON wins ties on cost when it is no longer; counted only as far as needed.
    match meter.cost_unless_over(&json.text, toon_cost) {
        Some(j) if (j, json.text.len()) <= (toon_cost, toon.text.len()) => (json, Some(j)),
        _ => (toon, Some(toon_cost)),
    }
}

/// `auto` over TOON and JSON alone: [`verbatim`] for a wrapper-shaped root
/// or a look-alike, otherwise [`toon_or_json`]. Returns the document and
/// its cost when that was counted.
#[cfg(test)]
fn toon_auto(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    meter: &mut Meter,
) -> Result<(Encoded, Option<usize>)> {
    match toon_first(value, opts, toon4)? {
        First::Plain { toon, json_floor } => Ok(toon_or_json(value, toon, json_floor, meter)),
        First::Verbatim => verbatim(value, opts, toon4, meter),
    }
}

/// Columnar tables for every array of objects, innermost first.
fn columnar_plan(
    v: &Value,
    intern: Intern,
    path: &str,
    level: usize,
    max_depth: usize,
    choices: &mut Vec<Choice>,
) -> Result<Option<Value>> {
    if level >= max_depth {
        return Ok(None);
    }
    match v {
        Value::Object(m) => {
            let mut out: Option<Map> = None;
            for (i, (k, child)) in m.iter().enumerate() {
                let planned = columnar_plan(
                    child,
                    intern,
                    &key_path(path, k),
                    level + 1,
                    max_depth,
                    choices,
                )?;
                match planned {
                    Some(new) => {
                        let o = out.get_or_insert_with(|| {
                            let mut o = Map::with_capacity(m.len());
                            for (k, v) in m.iter().take(i) {
                                o.push_unique(k.clone(), v.clone());
                            }
                            o
                        });
                        o.push_unique(k.clone(), new);
                    }
                    None => {
                        if let Some(o) = &mut out {
                            o.push_unique(k.clone(), child.clone());
                        }
                    }
                }
            }
            Ok(out.map(Value::Object))
        }
        Value::Array(a) => {
            let items = replace_items(a, |i, item| {
                columnar_plan(
                    item,
                    intern,
                    &index_path(path, i),
                    level + 1,
                    max_depth,
                    choices,
                )
            })?;
            let rows = items.as_deref().unwrap_or(a);
            let eligible =
                !rows.is_empty() && Census::of(rows).is_some_and(|c| c.dense_enough(rows.len()));
            if eligible {
                choices.push(Choice {
                    path: if path.is_empty() {
                        "$".to_owned()
                    } else {
                        path.to_owned()
                    },
                    form: TableForm::Columnar,
                });
                Ok(Some(columnar::encode_table(rows, intern)?))
            } else {
                Ok(items.map(Value::Array))
            }
        }
        _ => Ok(None),
    }
}

/// `items` with those that `replace` gives a new value for replaced, or
/// `None` when it replaces none: nothing is copied until the first one.
fn replace_items(
    items: &[Value],
    mut replace: impl FnMut(usize, &Value) -> Result<Option<Value>>,
) -> Result<Option<Vec<Value>>> {
    let mut out: Option<Vec<Value>> = None;
    for (i, item) in items.iter().enumerate() {
        match replace(i, item)? {
            Some(new) => out.get_or_insert_with(|| items[..i].to_vec()).push(new),
            None => {
                if let Some(out) = &mut out {
                    out.push(item.clone());
                }
            }
        }
    }
    Ok(out)
}

/// What a member of an object is to the restorer.
#[derive(Default)]
enum Role {
    #[default]
    Member,
    /// A hoisted collection, with its metadata read.
    Collection(hoisted::Encoding),
    /// A hoisted collection's metadata, left out of the restored object.
    Metadata,
}

fn restore_tree(
    value: Value,
    path: &str,
    level: usize,
    max_depth: usize,
    strict: bool,
) -> Result<Value> {
    if level > max_depth {
        return Err(Error::at_path(
            ErrorKind::DepthLimit,
            if path.is_empty() { "$" } else { path },
            format!("expected at most {max_depth} levels of nesting, found more"),
        ));
    }
    match value.unpack() {
        Unpacked::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| restore_tree(v, &index_path(path, i), level + 1, max_depth, strict))
            .collect::<Result<Vec<_>>>()
            .map(Value::Array),
        Unpacked::Object(m) if tables::is_columnar(&m) => {
            let rows = columnar::restore_table(m, path, strict)?;
            rows.into_iter()
                .enumerate()
                .map(|(i, v)| restore_tree(v, &index_path(path, i), level + 1, max_depth, strict))
                .collect::<Result<Vec<_>>>()
                .map(Value::Array)
        }
        Unpacked::Object(m) => {
            // Each hoisted pair's metadata is read first, in the order of the
            // metadata keys; then one pass moves every member into place,
            // restoring collections and leaving their metadata out.
            let mut roles: Vec<Role> = Vec::new();
            for k in tables::hoisted_pairs(&m) {
                let meta_key = hoisted::encoding_key(k);
                let (Some(at), Some(meta_at)) = (m.index_of(k), m.index_of(&meta_key)) else {
                    continue;
                };
                let Some((_, meta)) = m.get_index(meta_at) else {
                    continue;
                };
                let enc = hoisted::Encoding::read(meta, &key_path(path, &meta_key))?;
                if roles.is_empty() {
                    roles.resize_with(m.len(), || Role::Member);
                }
                roles[at] = Role::Collection(enc);
                roles[meta_at] = Role::Metadata;
            }
            let mut out = Map::with_capacity(m.len());
            for (i, (k, v)) in m.into_iter().enumerate() {
                let here = key_path(path, &k);
                let v = match roles.get_mut(i).map(std::mem::take) {
                    Some(Role::Metadata) => continue,
                    Some(Role::Collection(enc)) => match v.into_array() {
                        Ok(rows) => Value::Array(hoisted::restore_rows(
                            rows,
                            &enc,
                            &here,
                            max_depth.saturating_sub(level + 2),
                            strict,
                        )?),
                        Err(v) => v,
                    },
                    _ => v,
                };
                let child = restore_tree(v, &here, level + 1, max_depth, strict)?;
                out.push_unique(k, child);
            }
            Ok(Value::Object(out))
        }
        other => Ok(other.into()),
    }
}

#[cfg(test)]
mod tests;

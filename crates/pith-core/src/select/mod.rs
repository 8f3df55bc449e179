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

mod auto;
mod bound;
mod encoded;
mod meter;
mod options;
mod plan;
mod read;
mod text;
mod verbatim;

pub use self::encoded::{Candidate, Choice, Encoded, Measurement, Syntax, TableForm, readability};
pub use self::options::{DEFAULT_MIN_READABILITY, Form, Metric, Options};
pub use self::read::{decode, decode_json, parse, restore, restore_with};

use self::auto::{auto, notation_best};
use self::bound::Size;
use self::meter::Meter;
use self::plan::{Mode, Planner, columnar_plan};
use self::verbatim::{is_wrapper, marked_json, toon_wrapped};
use crate::table::columnar::Intern;
use crate::tokens::{Tokenizer, TokenizerKind};
use crate::toon::{EncodeOptions, KeyFolding, Spec};
use crate::{Result, Value};

/// The key naming the form in a wrapper.
pub const WRAPPER_TAG: &str = "$pith";
/// The key holding the verbatim value in a wrapper.
pub const WRAPPER_VALUE: &str = "value";
/// The first bytes of a JSON text that is a wrapper to be read as one: the
/// `table` form's `{"$pith": "table", "value": …}`. Compact JSON never
/// starts with them (it has no space outside strings), so every other JSON
/// text is read as it is.
pub const JSON_MARK: &str = "{\"$pith\": \"";

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
                // A table holds its rows two levels down and the mark adds
                // one: where that nests deeper than a reader goes, the value
                // is written as compact JSON, which reads back as it is.
                Some(planned) if planned.depth() < crate::depth_limit(opts.toon.max_depth) => {
                    Encoded {
                        text: marked_json(Form::Table, &planned),
                        syntax: Syntax::Json,
                        wrapped: true,
                        tables: choices,
                    }
                }
                Some(_) => json_doc(value, Vec::new()),
                None => json_doc(value, choices),
            })
        }
        Form::Auto | Form::Pith => auto(value, opts, &toon4),
    }
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

/// The TOON options of the hoisted forms and `auto`: spec 4.x, no folding.
fn toon4(opts: &EncodeOptions) -> EncodeOptions {
    EncodeOptions {
        spec: Spec::V4,
        key_folding: KeyFolding::Off,
        ..opts.clone()
    }
}

fn toon_doc(value: &Value, opts: &EncodeOptions, tables: Vec<Choice>) -> Result<Encoded> {
    // TOON writes the string `%pith` bare, which is the notation's marker
    // line: quoted, it is the same string to TOON and to `decode`.
    let text = match value {
        Value::String(s) if s == crate::notation::MARKER => format!("\"{s}\""),
        _ => crate::toon::encode(value, opts)?,
    };
    Ok(Encoded {
        text,
        syntax: Syntax::Toon,
        wrapped: false,
        tables,
    })
}

fn json_doc(value: &Value, tables: Vec<Choice>) -> Encoded {
    Encoded {
        text: crate::json::stringify(value),
        syntax: Syntax::Json,
        wrapped: false,
        tables,
    }
}

#[cfg(test)]
mod tests;

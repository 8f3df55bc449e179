//! Re-encoding a text: the one function that rewrites a JSON text
//! ([`rewrite_text`]), the renderer every rewrite uses, and cutting to a
//! budget. The edits of whole messages built on it are in `call` and
//! `tools`.

use pith::budget::{Budget, BudgetError, FitOptions, READ_OUTPUT, fit};
use pith::select::{self, Form, Metric, Syntax};
use pith::tokens::Tokenizer;
use pith::toon::DecodeOptions;
use pith::{Map, Value};
use std::cell::{Cell, RefCell};

use crate::options::RewriteOptions;

/// The key under which a rewritten content item names its encoding in its
/// `_meta` object.
pub const ENCODING_META_KEY: &str = "pith/encoding";

/// The `_meta` key that marks a text `--budget` shortened: `cut` (receipts
/// name the rows left out) or `exceeded` (the `output_budget_exceeded`
/// notice stands in for the value).
pub const BUDGET_META_KEY: &str = "pith/budget";

/// The key under which a result's `_meta` records that its
/// `structuredContent` was dropped: `dropped` (a text item holds exactly
/// its value, or, with [`STRUCTURED_KEY_META_KEY`], the value of its one
/// member) or `items` (its one member is a list whose elements the text
/// items hold, in order).
pub const STRUCTURED_META_KEY: &str = "pith/structuredContent";

/// The key under which a result's `_meta` names the one member of a
/// dropped `structuredContent` whose value its text holds: the dropped
/// value was `{"<name>": <the text's value>}`.
pub const STRUCTURED_KEY_META_KEY: &str = "pith/structuredKey";

/// The notation of a rewritten text, as named in `_meta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// TOON, spec 4.x; `pith decode` reads it back.
    Toon,
    /// TOON with key-hoisted tables (pith's compact form or the seed's).
    Hoisted,
    /// Compact JSON.
    Json,
    /// The pith notation (`docs/notation.md`); `pith decode` reads it back.
    Pith,
}

impl Encoding {
    /// The name written under [`ENCODING_META_KEY`]: `toon`, `hoisted`, `json` or `pith`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Toon => "toon",
            Encoding::Hoisted => "hoisted",
            Encoding::Json => "json",
            Encoding::Pith => "pith",
        }
    }
}

/// A text that was worth rewriting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The new text; it decodes to exactly the value of the old one.
    pub text: String,
    /// Its notation.
    pub encoding: Encoding,
    /// Tokens of the old text.
    pub tokens_before: usize,
    /// Tokens of the new text.
    pub tokens_after: usize,
    /// Whether `--budget` cut the value: the text then holds omission
    /// receipts (or the `output_budget_exceeded` notice) and stands for part
    /// of the value, not all of it.
    pub cut: Option<Cut>,
    /// The cursors the receipts of a cut text hand out.
    pub cursors: Vec<String>,
}

/// How a budget shortened a rewritten text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Collections were cut at row boundaries; the receipts say which rows.
    Rows {
        /// Rows left out, over all collections.
        omitted: usize,
    },
    /// Nothing fit: the text is the `output_budget_exceeded` notice.
    Exceeded {
        /// The smallest budget that fits this value.
        minimum: usize,
        /// Tokens of the value rendered whole.
        unbounded: usize,
    },
}

impl Cut {
    /// The name written under [`BUDGET_META_KEY`]: `cut` or `exceeded`.
    pub fn name(self) -> &'static str {
        match self {
            Cut::Rows { .. } => "cut",
            Cut::Exceeded { .. } => "exceeded",
        }
    }
}

/// Re-encodes `text` when it is a JSON object or array (read exactly, by
/// [`pith::json::parse`]) and a cheaper text decodes back to the very same
/// value; `None` leaves the text as it is.
///
/// Every rewrite the proxy makes goes through here. The checks, in order:
/// the text is at most `max_bytes` long and is JSON whose root is an object
/// or an array (a lone string, number or literal carries no structure to
/// save on); the renderer's text saves at least `min_saving` tokens (and at
/// least one); and it decodes, the way `pith decode` reads it, to a value
/// equal to the original (numbers by exact value, keys in order). A
/// rendered text that fails the last check is replaced by compact JSON if
/// that still saves enough.
pub fn rewrite_text(text: &str, opts: &RewriteOptions) -> Option<Rewritten> {
    let value = parse_structured(text, opts.max_bytes)?;
    let tokens_before = Tokenizer::get(opts.tokenizer).count(text);
    let r = rewrite_value(&value, tokens_before, opts)?;
    Some(match r.cut {
        Some(Cut::Exceeded { minimum, unbounded }) => Rewritten {
            text: exceeded_notice(opts, minimum, unbounded, None),
            ..r
        },
        _ => r,
    })
}

/// The value of `text` when it is JSON whose root is an object or an
/// array, at most `max_bytes` long: the texts a rewrite is for.
pub(crate) fn parse_structured(text: &str, max_bytes: usize) -> Option<Value> {
    if text.len() > max_bytes {
        return None;
    }
    let first = text
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))?;
    if first != b'{' && first != b'[' {
        return None;
    }
    pith::json::parse(text).ok()
}

/// [`rewrite_text`] on a value already read, whose text took
/// `tokens_before` tokens. A value no budget fits comes back as
/// [`Cut::Exceeded`] with an empty text: the caller writes the notice,
/// which names where the rest can be had.
pub(crate) fn rewrite_value(
    value: &Value,
    tokens_before: usize,
    opts: &RewriteOptions,
) -> Option<Rewritten> {
    let tokenizer = Tokenizer::get(opts.tokenizer);
    let worth = |after: usize| {
        let saving = tokens_before.saturating_sub(after);
        saving > 0 && saving >= opts.min_saving
    };
    let (mut rendered, mut encoding, mut tokens_after) = render(value, opts)?;
    if let Some(budget) = opts.budget
        && tokens_after > budget
    {
        return cut_to_budget(value, budget, opts, tokens_before, None);
    }
    if !worth(tokens_after) {
        return None;
    }
    if !reads_back(&rendered, value) {
        // Should a renderer ever lose a fact, compact JSON (which pith
        // writes exactly) still may be worth it.
        rendered = pith::json::stringify(value);
        encoding = Encoding::Json;
        tokens_after = tokenizer.count(&rendered);
        if !worth(tokens_after) || !reads_back(&rendered, value) {
            return None;
        }
    }
    Some(Rewritten {
        text: rendered,
        encoding,
        tokens_before,
        tokens_after,
        cut: None,
        cursors: Vec::new(),
    })
}

/// What [`pith_more`](crate::MORE_TOOL) tells a model in every cut output, in
/// its `read_output` receipt.
pub const MORE_HINT: &str = "call pith_more with a receipt's cursor for the rows left out";

/// Fits `value` (or, with `cursor`, the page it continues) into `budget`
/// tokens with [`pith::budget::fit`], rendering with the same renderer as
/// every other rewrite. `read_output` names the `pith_more` tool, and the
/// cursors of the output are handed back so the proxy can serve them.
pub(crate) fn cut_to_budget(
    value: &Value,
    budget: usize,
    rewrite: &RewriteOptions,
    tokens_before: usize,
    cursor: Option<pith::budget::Cursor>,
) -> Option<Rewritten> {
    let tokenizer = rewrite.tokenizer;
    let fit_opts = FitOptions::default()
        .budget(Budget::Tokens(budget))
        .tokenizer(tokenizer)
        .cursor(cursor);
    let opts = auto_options(rewrite);
    // `fit` hands back the text `render` returned last, so the notation
    // and cursors recorded last are that text's.
    let last = Cell::new(Encoding::Json);
    let cursors = RefCell::new(Vec::new());
    let renderer = |v: &Value| {
        let shown = with_hint(v);
        let v = shown.as_ref().unwrap_or(v);
        select::encode(v, &opts).map(|e| {
            last.set(notation(&e));
            let mut found = cursors.borrow_mut();
            found.clear();
            collect_cursors(v, &mut found, 0);
            e.text
        })
    };
    let (text, tokens_after, cut) = match fit(value, &fit_opts, &renderer) {
        Ok(fitted) => (
            fitted.text,
            fitted.tokens,
            Cut::Rows {
                omitted: fitted.rows_omitted,
            },
        ),
        Err(BudgetError::Exceeded(e)) => (
            String::new(),
            0,
            Cut::Exceeded {
                minimum: e.minimum,
                unbounded: e.unbounded,
            },
        ),
        Err(_) => return None,
    };
    let cursors = match cut {
        Cut::Rows { .. } => cursors.into_inner(),
        Cut::Exceeded { .. } => Vec::new(),
    };
    Some(Rewritten {
        text,
        encoding: last.get(),
        tokens_before,
        tokens_after,
        cut: Some(cut),
        cursors,
    })
}

/// The output with [`MORE_HINT`] in its `read_output` receipt, when it is
/// a cut output (the budget's receipt is its root's last member) that
/// left rows out; `None` to render it as it is.
fn with_hint(v: &Value) -> Option<Value> {
    let root = v.as_object()?;
    let (key, ro) = root.get_index(root.len().checked_sub(1)?)?;
    let ro = ro.as_object()?;
    let cut = ro.get("collections_cut").and_then(Value::as_number)?;
    if key != READ_OUTPUT
        || !ro.contains_key("fits")
        || pith::json::stringify(&Value::Number(cut.clone())) == "0"
    {
        return None;
    }
    let mut out = v.clone();
    if let Some(Value::Object(ro)) = out.as_object_mut().and_then(|m| m.get_mut(READ_OUTPUT)) {
        ro.insert("more", Value::from(MORE_HINT));
    }
    Some(out)
}

/// Every string under a `cursor` key in the receipts of a cut output
/// (members named `…_omitted…`, and `read_output`), bounded in depth like
/// every walk of a value.
fn collect_cursors(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > pith::DEFAULT_MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter() {
                if k == "cursor"
                    && let Value::String(s) = x
                {
                    out.push(s.clone());
                } else {
                    collect_cursors(x, out, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_cursors(x, out, depth + 1)),
        _ => {}
    }
}

/// The text that stands for a value no output within the budget can hold:
/// a short notice, far below any budget the proxy accepts
/// ([`MIN_BUDGET`]), naming what it would take and, with `cursor`, the
/// `pith_more` call that returns it cut to that size.
pub(crate) fn exceeded_notice(
    opts: &RewriteOptions,
    minimum: usize,
    unbounded: usize,
    cursor: Option<&str>,
) -> String {
    let mut n = Map::with_capacity(6);
    n.insert("budget", Value::from(opts.budget.unwrap_or(0)));
    n.insert("tokenizer", Value::from(opts.tokenizer.name()));
    n.insert("minimum_budget", Value::from(minimum));
    n.insert("unbounded_tokens", Value::from(unbounded));
    match cursor {
        Some(c) => {
            n.insert(
                "recovery",
                Value::from(format!(
                    "call pith_more with this cursor to see it cut to {minimum} tokens"
                )),
            );
            n.insert("cursor", Value::from(c));
        }
        None => {
            n.insert(
                "recovery",
                Value::from(format!("raise the budget to {minimum} or more")),
            );
        }
    }
    let mut root = Map::with_capacity(1);
    root.insert(pith::budget::EXCEEDED, Value::Object(n));
    pith::json::stringify(&Value::Object(root))
}

/// The smallest budget the proxy takes: every `output_budget_exceeded`
/// notice it writes is well below it, so even that stays within budget.
pub const MIN_BUDGET: usize = 200;

fn auto_options(opts: &RewriteOptions) -> select::Options {
    select::Options::default()
        .form(Form::Auto)
        .metric(Metric::Tokens(opts.tokenizer))
        .min_readability(opts.min_readability)
}

/// THE RENDERER: the one call site that decides which text stands for a
/// value: pith's `auto` selection (the fewest tokens among TOON, key-hoisted
/// tables and compact JSON, never a positional form, never more than compact
/// JSON). An empty text (TOON's `{}`) is never chosen: a reader cannot tell
/// it from no answer.
fn render(value: &Value, opts: &RewriteOptions) -> Option<(String, Encoding, usize)> {
    let tokenizer = opts.tokenizer;
    let encoded = select::encode(value, &auto_options(opts)).ok()?;
    if encoded.text.is_empty() {
        let json = pith::json::stringify(value);
        let tokens = Tokenizer::get(tokenizer).count(&json);
        return Some((json, Encoding::Json, tokens));
    }
    let encoding = notation(&encoded);
    let tokens = Tokenizer::get(tokenizer).count(&encoded.text);
    Some((encoded.text, encoding, tokens))
}

/// The name a client reads for an encoded text: JSON, plain TOON, or TOON
/// whose tables a TOON reader alone would not restore.
fn notation(encoded: &select::Encoded) -> Encoding {
    match encoded.syntax {
        Syntax::Json => Encoding::Json,
        Syntax::Toon if encoded.tables.is_empty() => Encoding::Toon,
        Syntax::Toon => Encoding::Hoisted,
        Syntax::Pith { .. } => Encoding::Pith,
    }
}

/// Whether `text` reads back, as `pith decode` reads it, to `value` under
/// the contract's equality (table rows may take their header's key order).
pub(crate) fn reads_back(text: &str, value: &Value) -> bool {
    select::decode(text.as_bytes(), &DecodeOptions::default())
        .is_ok_and(|back| pith::equiv::equivalent(value, &back))
}

#[cfg(test)]
pub(crate) mod tests;

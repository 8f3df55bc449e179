//! Re-encoding tool results: the one function that rewrites a text
//! ([`rewrite_text`]), and the edits of whole `tools/call` results and
//! `tools/list` answers built on it.

use crate::policy::{Options, Structured, ToolFilter};
use pith::budget::{Budget, BudgetError, FitOptions, fit};
use pith::select::{self, Form, Metric, Syntax};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::DecodeOptions;
use pith::{Map, Value};
use std::cell::Cell;

/// The least saving, in tokens, for which a text is rewritten, unless told
/// otherwise.
///
/// Ten tokens is about one short line. Below that a reader gains nothing
/// worth meeting a second notation for, and a proxy that leaves small
/// answers alone is easier to trust.
pub const DEFAULT_MIN_SAVING: usize = 10;

/// Texts longer than this many bytes are forwarded untouched, unless told
/// otherwise: parsing, rendering, checking and counting tokens of a text
/// takes time in proportion to its size, and this bounds the delay one
/// result can add (about 0.3 s for 8 MiB on one core; see the `overhead`
/// bench).
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

/// The key under which a rewritten content item names its encoding in its
/// `_meta` object.
pub const ENCODING_META_KEY: &str = "pith/encoding";

/// The `_meta` key that marks a text `--budget` shortened: `cut` (receipts
/// name the rows left out) or `exceeded` (the `output_budget_exceeded`
/// notice stands in for the value).
pub const BUDGET_META_KEY: &str = "pith/budget";

/// The key under which a result's `_meta` records that its
/// `structuredContent` was dropped as equivalent to a text item.
pub const STRUCTURED_META_KEY: &str = "pith/structuredContent";

/// How texts are rewritten (a part of [`Options`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteOptions {
    /// The least saving, in tokens, worth a rewrite (default
    /// [`DEFAULT_MIN_SAVING`]); a rewrite always saves at least one token.
    pub min_saving: usize,
    /// The tokenizer that counts the saving (default o200k).
    pub tokenizer: TokenizerKind,
    /// Longer texts are left untouched (default [`DEFAULT_MAX_BYTES`]).
    pub max_bytes: usize,
    /// Bound on each rewritten text, in tokens of `tokenizer` (default none).
    /// A text whose cheapest rendering exceeds it is cut at row boundaries
    /// with the omission receipts of [`pith::budget`] (or, when nothing fits,
    /// replaced by its explicit `output_budget_exceeded` notice).
    pub budget: Option<usize>,
}

impl Default for RewriteOptions {
    fn default() -> Self {
        RewriteOptions {
            min_saving: DEFAULT_MIN_SAVING,
            tokenizer: TokenizerKind::O200k,
            max_bytes: DEFAULT_MAX_BYTES,
            budget: None,
        }
    }
}

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
    Exceeded,
}

impl Cut {
    /// The name written under [`BUDGET_META_KEY`]: `cut` or `exceeded`.
    pub fn name(self) -> &'static str {
        match self {
            Cut::Rows { .. } => "cut",
            Cut::Exceeded => "exceeded",
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
    if text.len() > opts.max_bytes {
        return None;
    }
    let first = text
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))?;
    if first != b'{' && first != b'[' {
        return None;
    }
    let value = pith::json::parse(text).ok()?;
    let tokenizer = Tokenizer::get(opts.tokenizer);
    let tokens_before = tokenizer.count(text);
    let worth = |after: usize| {
        let saving = tokens_before.saturating_sub(after);
        saving > 0 && saving >= opts.min_saving
    };
    let (mut rendered, mut encoding, mut tokens_after) = render(&value, opts.tokenizer)?;
    if let Some(budget) = opts.budget
        && tokens_after > budget
    {
        return cut_to_budget(&value, budget, opts.tokenizer, tokens_before);
    }
    if !worth(tokens_after) {
        return None;
    }
    if !reads_back(&rendered, &value) {
        // Should a renderer ever lose a fact, compact JSON (which pith
        // writes exactly) still may be worth it.
        rendered = pith::json::to_string(&value);
        encoding = Encoding::Json;
        tokens_after = tokenizer.count(&rendered);
        if !worth(tokens_after) || !reads_back(&rendered, &value) {
            return None;
        }
    }
    Some(Rewritten {
        text: rendered,
        encoding,
        tokens_before,
        tokens_after,
        cut: None,
    })
}

/// Fits `value` into `budget` tokens with [`pith::budget::fit`], rendering
/// with the same renderer as every other rewrite.
fn cut_to_budget(
    value: &Value,
    budget: usize,
    tokenizer: TokenizerKind,
    tokens_before: usize,
) -> Option<Rewritten> {
    let fit_opts = FitOptions::new(Budget::Tokens(budget), tokenizer);
    let opts = auto_options(tokenizer);
    // `fit` hands back the text `render` returned last, so the notation
    // recorded last is that text's: tables and all, as `render` names it.
    let last = Cell::new(Encoding::Json);
    let renderer = |v: &Value| {
        select::encode(v, &opts).map(|e| {
            last.set(notation(&e));
            e.text
        })
    };
    // A fitted text comes with its exact count; only the notice needs one.
    let (text, tokens_after, cut) = match fit(value, &fit_opts, &renderer) {
        Ok(fitted) => (
            fitted.text,
            fitted.tokens,
            Cut::Rows {
                omitted: fitted.rows_omitted,
            },
        ),
        Err(BudgetError::Exceeded(e)) => {
            let tokens = Tokenizer::get(tokenizer).count(&e.text);
            (e.text, tokens, Cut::Exceeded)
        }
        Err(_) => return None,
    };
    Some(Rewritten {
        text,
        encoding: last.get(),
        tokens_before,
        tokens_after,
        cut: Some(cut),
    })
}

fn auto_options(tokenizer: TokenizerKind) -> select::Options {
    select::Options {
        form: Form::Auto,
        metric: Metric::Tokens(tokenizer),
        ..select::Options::default()
    }
}

/// THE RENDERER: the one call site that decides which text stands for a
/// value: pith's `auto` selection (the fewest tokens among TOON, key-hoisted
/// tables and compact JSON, never a positional form, never more than compact
/// JSON). An empty text (TOON's `{}`) is never chosen: a reader cannot tell
/// it from no answer.
fn render(value: &Value, tokenizer: TokenizerKind) -> Option<(String, Encoding, usize)> {
    let encoded = select::encode(value, &auto_options(tokenizer)).ok()?;
    if encoded.text.is_empty() {
        let json = pith::json::to_string(value);
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
fn reads_back(text: &str, value: &Value) -> bool {
    select::decode(text.as_bytes(), &DecodeOptions::default())
        .is_ok_and(|back| pith::equiv::equivalent(value, &back))
}

/// Rewrites the text items of a `tools/call` result (a `CallToolResult`)
/// and applies the `structuredContent` policy; whether anything changed.
pub(crate) fn rewrite_call_result(result: &mut Map, opts: &Options) -> bool {
    if !opts.rewrite_errors && result.get("isError") == Some(&Value::Bool(true)) {
        return false;
    }
    let mut changed = false;
    if opts.structured == Structured::DropIfEquivalent {
        changed |= drop_equivalent_structured(result);
    }
    let Some(Value::Array(items)) = result.get_mut("content") else {
        return changed;
    };
    for item in items {
        let Value::Object(item) = item else { continue };
        if item.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        let Some(Value::String(text)) = item.get("text") else {
            continue;
        };
        if !matches!(item.get("_meta"), None | Some(Value::Object(_))) {
            continue;
        }
        let Some(rewritten) = rewrite_text(text, &opts.rewrite) else {
            continue;
        };
        let Some(m) = meta(item) else { continue };
        m.insert(ENCODING_META_KEY, Value::from(rewritten.encoding.name()));
        if let Some(cut) = rewritten.cut {
            m.insert(BUDGET_META_KEY, Value::from(cut.name()));
        }
        item.insert("text", Value::String(rewritten.text));
        changed = true;
    }
    changed
}

/// Removes `outputSchema` from every tool of a `tools/list` result that the
/// filter lets through; whether any was removed. See
/// [`Structured::DropIfEquivalent`] for why.
pub(crate) fn strip_output_schemas(result: &mut Map, filter: &ToolFilter) -> bool {
    let Some(Value::Array(tools)) = result.get_mut("tools") else {
        return false;
    };
    let mut changed = false;
    for tool in tools {
        let Value::Object(tool) = tool else { continue };
        let allowed = tool
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|name| filter.allows(name));
        if allowed && tool.remove("outputSchema").is_some() {
            changed = true;
        }
    }
    changed
}

/// Re-serializes the message on `line` after `edit` changed its `result`
/// object, keeping the line's terminator; `None` when `edit` changed
/// nothing or the line is not a message with an object `result`.
///
/// Only the messages pith rewrites pass through here. pith's reader keeps
/// key order and exact numbers, and its writer writes what
/// `JSON.stringify` writes, so every other member keeps its value.
pub(crate) fn rewrite_result(line: &[u8], edit: impl FnOnce(&mut Map) -> bool) -> Option<Vec<u8>> {
    let body_len = line
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .map_or(0, |i| i + 1);
    let (body, terminator) = line.split_at(body_len);
    let mut message = pith::json::parse_bytes(body).ok()?;
    let result = message
        .as_object_mut()?
        .get_mut("result")?
        .as_object_mut()?;
    if !edit(result) {
        return None;
    }
    let mut out = Vec::with_capacity(line.len());
    pith::json::write_into(&message, &mut out);
    out.extend_from_slice(terminator);
    Some(out)
}

/// Drops `structuredContent` when a text item holds exactly its value.
fn drop_equivalent_structured(result: &mut Map) -> bool {
    let Some(structured) = result.get("structuredContent") else {
        return false;
    };
    if !matches!(result.get("_meta"), None | Some(Value::Object(_))) {
        return false;
    }
    let equivalent = match result.get("content") {
        Some(Value::Array(items)) => items.iter().any(|item| {
            item.get("type").and_then(Value::as_str) == Some("text")
                && item
                    .get("text")
                    .and_then(Value::as_str)
                    .and_then(|t| pith::json::parse(t).ok())
                    .is_some_and(|v| &v == structured)
        }),
        _ => false,
    };
    if !equivalent {
        return false;
    }
    let Some(m) = meta(result) else { return false };
    m.insert(STRUCTURED_META_KEY, Value::from("dropped"));
    result.remove("structuredContent");
    true
}

/// The `_meta` object of `map`, created at the end if absent; `None` when
/// `_meta` is something other than an object.
fn meta(map: &mut Map) -> Option<&mut Map> {
    if map.get("_meta").is_none() {
        map.insert("_meta", Value::Object(Map::new()));
    }
    map.get_mut("_meta")?.as_object_mut()
}

#[cfg(test)]
mod tests;

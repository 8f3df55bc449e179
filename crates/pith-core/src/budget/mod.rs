//! Output budgets: the whole rendered output bounded in exact tokens, with
//! omission receipts and cursors for what was left out.
//!
//! [`fit`] takes a value, a [`Budget`] in tokens of a chosen tokenizer, and
//! a renderer (TOON, compact JSON, or anything else that turns a [`Value`]
//! into text), and returns text whose exact token count, receipts
//! included, is at most the budget. It works on the value, never on text:
//! collections are cut at row boundaries, receipts are plain values put
//! beside them, and the renderer writes the result like any other value.
//!
//! ```
//! # #[cfg(feature = "o200k")] {
//! use pith::budget::{Budget, FitOptions, fit};
//! use pith::tokens::{Tokenizer, TokenizerKind};
//! use pith::toon::{self, EncodeOptions};
//!
//! let rows: Vec<String> = (1..=200).map(|i| format!(r#"{{"id":{i},"name":"user{i}"}}"#)).collect();
//! let doc = pith::json::parse(&format!(r#"{{"users":[{}],"page":1}}"#, rows.join(",")))?;
//! let opts = FitOptions::new(Budget::Tokens(120), TokenizerKind::O200k);
//! let render = |v: &pith::Value| toon::encode(v, &EncodeOptions::default());
//! let fitted = fit(&doc, &opts, &render).expect("120 tokens is enough for a few rows");
//! assert!(fitted.tokens <= 120);
//! assert_eq!(fitted.tokens, Tokenizer::get(TokenizerKind::O200k).count(&fitted.text));
//! assert!(fitted.text.contains("users_omitted:\n  total: 200\n"));
//! assert!(fitted.text.ends_with("fits: true\n  collections_cut: 1"));
//! # }
//! # Ok::<(), pith::Error>(())
//! ```
//!
//! # What is cut
//!
//! Every array, at any depth, is a *collection* whose elements are its
//! *rows*. A collection shows a prefix of its rows, in order (a page, see
//! below, shows a contiguous run from the cursor's row); rows are never
//! reordered, altered or cut inside, except that the collections nested in
//! a shown row are collections in their own right. Everything outside
//! collections is always shown.
//!
//! **The cut rule.** A row's *weight* is the byte length of its compact
//! JSON with the arrays nested in it counted as `[]`; a receipt is reckoned
//! at 64 bytes plus three per digit of the collection's length. For a
//! threshold `t`, each collection in view shows its longest prefix whose
//! weight plus its receipt's is at most `t`, or all of its rows when their
//! weight is at most `t` or its whole compact JSON (nested collections
//! included) is no more than a receipt's; the collections in
//! the rows shown come into view in turn. [`fit`] uses the largest `t`
//! whose rendered output fits. So every collection gets the same allowance
//! for its own rows: small collections stay whole, large ones are cut to
//! about the same size, and among several the one whose shown rows weigh
//! the most gives up its last row first. A row's nested collections do not
//! count against its parent's allowance, so a parent is not emptied to make
//! room for its children, nor children to make room for the parent.
//!
//! **Cost.** One pass over the document records every row's weight; each
//! threshold is then evaluated from prefix sums without touching the
//! document, and only candidates of about the budget's size are rendered
//! and counted exactly (a secant search on the threshold, alternating with
//! bisection: six to eight renders on the 50,000-row benchmark table, then
//! two or three to settle `read_output.tokens`).
//!
//! # The output
//!
//! With a budget, the output is the document with its collections cut,
//! a receipt beside each cut collection, and a `read_output` receipt as the
//! last key of the root object. A document whose root is not an object, or
//! is an object with its own `read_output` key, goes under `result` in a
//! new root object, and `read_output` says `wrapped: true`. In TOON:
//!
//! ```text
//! users[2]{id,name}:
//!   1,user1
//!   2,user2
//! users_omitted:
//!   total: 200
//!   shown: 2
//!   omitted: 198
//!   cursor: c0-2-67e4fe24
//! page: 1
//! read_output:
//!   tokens: 95
//!   budget: 100
//!   tokenizer: o200k
//!   fits: true
//!   collections_cut: 1
//! ```
//!
//! **Omission receipts.** The receipt of a cut array under key `k` is the
//! key `k` + [`RECEIPT_SUFFIX`] (`users_omitted`), placed right after it,
//! holding `total` (rows in the collection), `shown` (rows shown here),
//! `omitted` (`total - shown`) and `cursor` (where the rest continues). A
//! page's receipt also has `from`, the index of its first shown row, and
//! is written even when the page reaches the end (then without `cursor`).
//! Arrays whose parent is an array have no key to sit beside: their
//! receipts go, in document order, in a `nested` list in the receipt of the
//! nearest array that has a key, each with `at`, the row indices leading
//! from that array to it (`at: [4, 0]` is row 0 of row 4); that array gets
//! a receipt for the purpose even when it is itself whole.
//!
//! **Names never clash.** If any object of the document has a key
//! `k_omitted` beside an array `k`, the suffix becomes `_omitted_2` (then
//! `_omitted_3`, …) for the whole output, and `read_output` names it as
//! `receipt_suffix`. So in every object of the output, a key `k` + suffix
//! beside an array `k` is a receipt, and no other key is: decoding the
//! output and removing those keys gives the shown rows, and the receipts
//! say exactly which rows were left out.
//!
//! **`read_output`.** `tokens`: the exact token count of the whole output,
//! this receipt included; `budget`; `tokenizer` (`o200k`, `cl100k` or
//! `bytes4`); `fits` (always `true`: an output that does not fit is an
//! error, below); `collections_cut`; then, when they apply, `wrapped: true`,
//! `collection` (a page's collection, as a list of keys and row indices)
//! and `receipt_suffix`.
//!
//! # Cursors and pages
//!
//! A receipt's `cursor` (see [`Cursor`]) names its collection and the first
//! row not shown. [`FitOptions::cursor`] turns [`fit`] into a *page*: the
//! output holds only that collection, under `result`, from that row, cut to
//! the budget by the same rule (at least one row is always shown, so
//! following cursors always ends), with a receipt that says `from` and, if
//! rows remain, the next cursor. Collections nested in a page's rows get
//! receipts and cursors as usual. Following every cursor from the first
//! output, and from each page, shows every row of every collection exactly
//! once. Cursors address the original document by position and carry a
//! check of it, so a cursor used with another document is refused.
//!
//! # When nothing fits
//!
//! If neither the output with every collection cut to nothing (collections
//! whose whole JSON is no larger than a receipt excepted) nor the complete output
//! fits, [`fit`] returns [`BudgetError::Exceeded`]: the smallest budget
//! that works for this input (every budget at or above it works), the
//! tokens of the unbounded output, and an `output_budget_exceeded` notice
//! rendered with the same renderer, saying what was omitted and how to
//! recover. Never an empty answer that looks complete.
//!
//! With [`Budget::Unbounded`] and no cursor the output is the renderer's,
//! unchanged: no receipts.

mod build;
mod cursor;
mod plan;

pub use cursor::{Cursor, CursorError};

use crate::tokens::{Tokenizer, TokenizerKind};
use crate::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Map, Result, Value, json};
use build::Builder;
use plan::{Config, Eval, Tree};
use std::fmt;
use std::str::FromStr;

/// The suffix that makes a receipt's key from its collection's key
/// (unless a producer key takes it; see the module docs).
pub const RECEIPT_SUFFIX: &str = "_omitted";
/// The key of the receipt about the whole output.
pub const READ_OUTPUT: &str = "read_output";
/// The key a document or a page goes under when it cannot be the root.
pub const RESULT: &str = "result";
/// The key of the notice written when no output fits the budget.
pub const EXCEEDED: &str = "output_budget_exceeded";

/// How many tokens the whole output may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Budget {
    /// At most this many tokens.
    Tokens(usize),
    /// No bound: the output is the renderer's, unchanged.
    Unbounded,
}

/// The error of parsing a [`Budget`] that is neither a number nor `unbounded`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidBudget(pub String);

/// What [`fit`] needs besides the value and the renderer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FitOptions {
    /// The bound on the whole output.
    pub budget: Budget,
    /// The tokenizer the budget counts in.
    pub tokenizer: TokenizerKind,
    /// Show the page of the collection this cursor continues, instead of
    /// the whole document.
    pub cursor: Option<Cursor>,
}

/// Renders a candidate output: TOON, compact JSON, or any other text form.
pub type Render<'r> = dyn Fn(&Value) -> Result<String> + 'r;

/// An output that fits its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// The rendered output, receipts included.
    pub text: String,
    /// Its exact token count (what `read_output.tokens` says).
    pub tokens: usize,
    /// Collections that show fewer rows than they have.
    pub collections_cut: usize,
    /// Rows left out of those collections (rows inside left-out rows not counted).
    pub rows_omitted: usize,
}

/// Why [`fit`] produced no output.
#[derive(Debug)]
#[non_exhaustive]
pub enum BudgetError {
    /// No output fits the budget.
    Exceeded(Box<Exceeded>),
    /// The cursor is malformed or belongs to another document.
    Cursor(CursorError),
    /// The renderer failed, or the value is nested too deep.
    Render(Error),
}

/// The budget cannot be met: what it would take, and the notice to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exceeded {
    /// The budget asked for.
    pub budget: usize,
    /// The tokenizer it counts in.
    pub tokenizer: TokenizerKind,
    /// The smallest budget that works for this input; every larger one works too.
    pub minimum: usize,
    /// Tokens of the output without a budget.
    pub unbounded: usize,
    /// Collections in the input (in a page: in the continued collection's rows, and itself).
    pub collections: usize,
    /// Rows in those collections (in a page: the rows from the cursor on, and nested ones).
    pub rows: usize,
    /// The `output_budget_exceeded` notice, rendered by the same renderer.
    pub text: String,
}

impl Default for FitOptions {
    /// No bound (the renderer's output unchanged), counted in the first
    /// tokenizer compiled in (o200k by default), no cursor.
    fn default() -> FitOptions {
        FitOptions::new(Budget::Unbounded, TokenizerKind::ALL[0])
    }
}

impl FitOptions {
    /// Options for `budget` in `tokenizer`'s tokens, without a cursor.
    pub fn new(budget: Budget, tokenizer: TokenizerKind) -> FitOptions {
        FitOptions {
            budget,
            tokenizer,
            cursor: None,
        }
    }
}

/// Renders `value` within `opts.budget` tokens (see the module docs).
///
/// The text handed back, fitted or the notice of [`BudgetError::Exceeded`],
/// is always the one `render` returned last, so a renderer may note what it
/// knows of each text (its notation, say) and keep the last note.
///
/// # Errors
///
/// [`BudgetError::Exceeded`] when no output fits, [`BudgetError::Cursor`]
/// for a cursor that does not belong to `value`, [`BudgetError::Render`]
/// when `render` fails or `value` is nested deeper than
/// [`DEFAULT_MAX_DEPTH`].
pub fn fit(value: &Value, opts: &FitOptions, render: &Render<'_>) -> Result<Fitted, BudgetError> {
    let tokenizer = Tokenizer::get(opts.tokenizer);
    if opts.cursor.is_none() && opts.budget == Budget::Unbounded {
        let text = render(value)?;
        let tokens = tokenizer.count(&text);
        return Ok(Fitted {
            text,
            tokens,
            collections_cut: 0,
            rows_omitted: 0,
        });
    }
    let depth = value.depth();
    if depth > DEFAULT_MAX_DEPTH {
        return Err(BudgetError::Render(Error::new(
            ErrorKind::DepthLimit,
            format!(
                "nesting deeper than {DEFAULT_MAX_DEPTH} levels: expected a value a budget can cut"
            ),
        )));
    }
    // A whole document whose root is not an object of its own goes under
    // `result`, one level down: at the limit, its output would nest past
    // what every reader takes.
    let under_result = !matches!(value, Value::Object(m) if !m.contains_key(READ_OUTPUT));
    if opts.cursor.is_none() && under_result && depth == DEFAULT_MAX_DEPTH {
        return Err(BudgetError::Render(Error::new(
            ErrorKind::DepthLimit,
            format!(
                "expected at most {} levels of nesting in a value cut to a budget whose root is \
                 not an object (its output holds it under `{RESULT}`, a level deeper, and \
                 readers take {DEFAULT_MAX_DEPTH}), found {DEFAULT_MAX_DEPTH}",
                DEFAULT_MAX_DEPTH - 1
            ),
        )));
    }
    let mut fitter = match &opts.cursor {
        None => {
            let tree = Tree::document(value);
            let hash = cursor::fnv1a(&tree.json);
            Fitter::new(value, tree, hash, None, tokenizer, render)
        }
        Some(c) => {
            let hash = cursor::fnv1a(json::stringify(value).as_bytes());
            let (rows, place) = resolve(value, c, hash)?;
            let tree = Tree::page(rows, c.offset());
            let page = Page {
                path: c.path().to_vec(),
                place,
            };
            Fitter::new(value, tree, hash, Some(page), tokenizer, render)
        }
    };
    match opts.budget {
        Budget::Tokens(b) => fitter.search(b),
        Budget::Unbounded => {
            let probe = fitter.probe(fitter.tree.max_t, Budget::Unbounded)?;
            Ok(fitter.settle(probe)?)
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Tokens(n) => write!(f, "{n}"),
            Budget::Unbounded => f.write_str("unbounded"),
        }
    }
}

impl FromStr for Budget {
    type Err = InvalidBudget;

    /// Reads a number of tokens or `unbounded`.
    fn from_str(s: &str) -> Result<Budget, InvalidBudget> {
        if s == "unbounded" {
            return Ok(Budget::Unbounded);
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return s
                .parse()
                .map(Budget::Tokens)
                .map_err(|_| InvalidBudget(s.to_owned()));
        }
        Err(InvalidBudget(s.to_owned()))
    }
}

impl fmt::Display for InvalidBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid budget `{}`: expected a number of tokens or `unbounded`",
            self.0
        )
    }
}

impl std::error::Error for InvalidBudget {}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BudgetError::Exceeded(e) => e.fmt(f),
            BudgetError::Cursor(e) => e.fmt(f),
            BudgetError::Render(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BudgetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BudgetError::Exceeded(_) => None,
            BudgetError::Cursor(e) => Some(e),
            BudgetError::Render(e) => Some(e),
        }
    }
}

impl From<Error> for BudgetError {
    fn from(e: Error) -> BudgetError {
        BudgetError::Render(e)
    }
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output budget exceeded: the smallest output for this input takes {} {} tokens and the \
             budget is {}; nothing of it was shown: rerun with --budget {} or more, or --budget \
             unbounded ({} tokens)",
            self.minimum, self.tokenizer, self.budget, self.minimum, self.unbounded
        )
    }
}

/// The budget stays exact if the estimate starts far off; this only sets
/// how many renders the search needs (tokens per byte of row weight; TOON
/// tables run near 0.2, JSON near 0.3).
const INITIAL_TOKENS_PER_BYTE: f64 = 0.25;
/// Renders allowed to the search after the first; it stops earlier as soon
/// as no threshold lies between one that fits and one that does not.
const MAX_PROBES: usize = 48;
/// How far over the budget a candidate with the budget written as its
/// token count may be and still fit with its own count written instead:
/// the two numbers differ by at most the tokens of a 20-digit number.
const SETTLE_SLACK: usize = 8;
/// Renders allowed to settle `read_output.tokens`; two or three suffice.
const SETTLE_ROUNDS: usize = 32;

/// The collection a page continues.
struct Page {
    path: Vec<usize>,
    /// The same place as keys and indices, for `read_output.collection`.
    place: Value,
}

struct Fitter<'a, 'r> {
    doc: &'a Value,
    tree: Tree<'a>,
    cfg: Config,
    suffix: String,
    hash: u64,
    page: Option<Page>,
    tokenizer: &'static Tokenizer,
    render: &'r Render<'r>,
}

/// One rendered candidate.
struct Probe {
    t: u64,
    eval: Eval,
    value: Value,
    tokens: usize,
    cut: usize,
    omitted: usize,
}

impl<'a, 'r> Fitter<'a, 'r> {
    fn new(
        doc: &'a Value,
        tree: Tree<'a>,
        hash: u64,
        page: Option<Page>,
        tokenizer: &'static Tokenizer,
        render: &'r Render<'r>,
    ) -> Self {
        Fitter {
            doc,
            cfg: tree.new_config(),
            suffix: tree.suffix(),
            tree,
            hash,
            page,
            tokenizer,
            render,
        }
    }

    /// The largest threshold whose output fits `budget`.
    fn search(&mut self, budget: usize) -> Result<Fitted, BudgetError> {
        let mut first = self.probe(0, Budget::Tokens(budget))?;
        if !self.fits(&mut first, budget)? {
            if first.eval.next == u64::MAX {
                return Err(self.exceeded(budget, first, None)?);
            }
            let mut whole = self.probe(self.tree.max_t, Budget::Tokens(budget))?;
            if self.fits(&mut whole, budget)? {
                return Ok(self.settle(whole)?);
            }
            return Err(self.exceeded(budget, first, Some(whole))?);
        }
        let mut lo = first;
        // The smallest threshold known not to fit, with its tokens and weight.
        let mut hi: Option<(u64, usize, u64)> = None;
        let mut rate = INITIAL_TOKENS_PER_BYTE;
        let mut bisect = false;
        for _ in 0..MAX_PROBES {
            let from = lo.eval.next;
            let upper = match hi {
                _ if from == u64::MAX => break,
                Some((t, ..)) if from >= t => break,
                Some((t, ..)) => t - 1,
                None => self.tree.max_t,
            };
            let t = match hi {
                Some((hi_t, ..)) if bisect => (lo.t + (hi_t - lo.t) / 2).clamp(from, upper),
                _ => {
                    let room = budget.saturating_sub(lo.tokens) as f64 / rate;
                    self.largest_within(lo.eval.weight as f64 + room, from, upper)
                }
            };
            let p = self.probe(t, Budget::Tokens(budget))?;
            let before = (lo.eval.weight, lo.tokens);
            if p.tokens <= budget {
                lo = p;
            } else {
                hi = Some((p.t, p.tokens, p.eval.weight));
            }
            // Tokens per byte of weight, from the two nearest points known.
            let ((w1, n1), (w2, n2)) = match hi {
                Some((_, n, w)) => ((lo.eval.weight, lo.tokens), (w, n)),
                None => (before, (lo.eval.weight, lo.tokens)),
            };
            if w2 > w1 && n2 > n1 {
                rate = (n2 - n1) as f64 / (w2 - w1) as f64;
            }
            bisect = hi.is_some() && !bisect;
        }
        Ok(self.settle(lo)?)
    }

    /// Whether a probe fits once `read_output.tokens` holds its own count
    /// rather than the budget (which can take a token or two more).
    fn fits(&self, p: &mut Probe, budget: usize) -> Result<bool> {
        if p.tokens <= budget {
            return Ok(true);
        }
        if p.tokens > budget.saturating_add(SETTLE_SLACK) {
            return Ok(false);
        }
        let (_, n) = self.settle_value(&mut p.value)?;
        p.tokens = n;
        Ok(n <= budget)
    }

    /// The largest threshold in `from..=upper` whose weight is at most
    /// `target`, or `from` if none is.
    fn largest_within(&mut self, target: f64, from: u64, upper: u64) -> u64 {
        let fits = |s: &mut Self, t: u64| s.tree.config(t, &mut s.cfg).weight as f64 <= target;
        if upper <= from || !fits(self, from) {
            return from;
        }
        let (mut lo, mut hi) = (from, upper);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if fits(self, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Renders the output of threshold `t`, with `read_output.tokens` set to
    /// the budget (no fewer digits than the final count) or 0 when unbounded.
    fn probe(&mut self, t: u64, budget: Budget) -> Result<Probe> {
        let eval = self.tree.config(t, &mut self.cfg);
        let mut b = Builder::new(&self.tree, &self.cfg, &self.suffix, self.hash);
        let (mut root, wrapped) = match &self.page {
            Some(p) => (b.page(&p.path), true),
            None => b.document(self.doc),
        };
        let (cut, omitted) = (b.cut, b.omitted);
        let placeholder = match budget {
            Budget::Tokens(n) => n,
            Budget::Unbounded => 0,
        };
        let ro = self.read_output(placeholder, budget, cut, wrapped);
        root.push_unique(READ_OUTPUT.to_owned(), ro);
        let value = Value::Object(root);
        let text = (self.render)(&value)?;
        let tokens = self.tokenizer.count(&text);
        Ok(Probe {
            t,
            eval,
            value,
            tokens,
            cut,
            omitted,
        })
    }

    fn read_output(&self, tokens: usize, budget: Budget, cut: usize, wrapped: bool) -> Value {
        let mut m = Map::with_capacity(8);
        m.push_unique("tokens", Value::from(tokens));
        let budget = match budget {
            Budget::Tokens(n) => Value::from(n),
            Budget::Unbounded => Value::from("unbounded"),
        };
        m.push_unique("budget", budget);
        m.push_unique("tokenizer", Value::from(self.tokenizer.kind().name()));
        m.push_unique("fits", Value::Bool(true));
        m.push_unique("collections_cut", Value::from(cut));
        if wrapped {
            m.push_unique("wrapped", Value::Bool(true));
        }
        if let Some(p) = &self.page {
            m.push_unique("collection", p.place.clone());
        }
        if self.suffix != RECEIPT_SUFFIX {
            m.push_unique("receipt_suffix", Value::from(self.suffix.as_str()));
        }
        Value::Object(m)
    }

    /// Writes the exact count into `read_output.tokens` and renders again
    /// until the count and the text agree.
    fn settle(&self, mut probe: Probe) -> Result<Fitted> {
        let (text, tokens) = self.settle_value(&mut probe.value)?;
        Ok(Fitted {
            text,
            tokens,
            collections_cut: probe.cut,
            rows_omitted: probe.omitted,
        })
    }

    /// The least fixed point of writing a count into `read_output.tokens`
    /// and counting the output.
    ///
    /// Counting is `rest + cost(n)`, where `cost(n)`, the tokens of the
    /// number `n`, never falls as `n` grows and grows by at most one from
    /// `n` to `n + 1`; so fixed points exist, and iterating from 0 climbs to
    /// the least one. It is no larger than the count with any larger number
    /// in its place, so a probe that fits with the budget written there
    /// fits settled.
    fn settle_value(&self, value: &mut Value) -> Result<(String, usize)> {
        let mut n = 0;
        for _ in 0..SETTLE_ROUNDS {
            set_read_output(value, "tokens", Value::from(n));
            let text = (self.render)(value)?;
            let count = self.tokenizer.count(&text);
            if count == n {
                return Ok((text, n));
            }
            n = count;
        }
        // Only a renderer whose output length jumps around with the number
        // it writes gets here; no honest count can be written then.
        Err(Error::new(
            ErrorKind::Unrepresentable,
            "the token count of the output does not settle: expected a renderer whose \
             output grows with the numbers in it",
        ))
    }

    /// The smallest budget from which every budget fits `value` (an output
    /// made with some budget): counts only change with the number of digits
    /// of the budget, so one render per digit count decides it.
    fn minimum(&self, value: &mut Value) -> Result<usize> {
        // counts[i]: the output's tokens with a budget of i + 1 digits.
        let mut counts: Vec<u64> = Vec::new();
        for digits in 0..19u32 {
            let low = 10u64.pow(digits);
            set_read_output(value, "budget", Value::from(low));
            let (_, n) = self.settle_value(value)?;
            counts.push(n as u64);
            // Beyond this, budgets outgrow their own digits' cost by far.
            if low >= n as u64 + 64 {
                break;
            }
        }
        // Walk down from the longest budgets, which all fit, while every
        // budget of a digit count fits; the first count where only some do
        // (or none) bounds the answer.
        let mut best = 10u64.pow(counts.len().saturating_sub(1) as u32);
        for (i, &n) in counts.iter().enumerate().rev() {
            let low = if i == 0 { 0 } else { 10u64.pow(i as u32) };
            let high = 10u64.pow(i as u32 + 1) - 1;
            if n <= high {
                best = n.max(low);
            }
            if n > low {
                break;
            }
        }
        Ok(usize::try_from(best).unwrap_or(usize::MAX))
    }

    fn exceeded(
        &mut self,
        budget: usize,
        first: Probe,
        whole: Option<Probe>,
    ) -> Result<BudgetError> {
        let mut first_value = first.value;
        let mut minimum = self.minimum(&mut first_value)?;
        let unbounded = match &self.page {
            None => self.tokenizer.count(&(self.render)(self.doc)?),
            Some(_) => {
                let p = self.probe(self.tree.max_t, Budget::Unbounded)?;
                self.settle(p)?.tokens
            }
        };
        if let Some(w) = whole
            && unbounded < minimum
        {
            let mut v = w.value;
            minimum = minimum.min(self.minimum(&mut v)?);
        }
        let (collections, rows) = (self.tree.colls.len(), self.tree.total_rows());
        let mut notice = Map::with_capacity(9);
        notice.push_unique("budget", Value::from(budget));
        notice.push_unique("tokenizer", Value::from(self.tokenizer.kind().name()));
        notice.push_unique("minimum_budget", Value::from(minimum));
        notice.push_unique("unbounded_tokens", Value::from(unbounded));
        let (what, keep) = match &self.page {
            None => ("the whole document", ""),
            Some(_) => ("the whole page", " (keeping --cursor)"),
        };
        notice.push_unique("omitted", Value::from(what));
        notice.push_unique("collections", Value::from(collections));
        notice.push_unique("rows", Value::from(rows));
        if let Some(p) = &self.page {
            notice.push_unique("collection", p.place.clone());
        }
        notice.push_unique(
            "recovery",
            Value::from(format!(
                "rerun with --budget {minimum} or more{keep} to see it cut to fit, with cursors \
                 to the rest, or with --budget unbounded to see all of it ({unbounded} tokens)"
            )),
        );
        let mut root = Map::with_capacity(1);
        root.push_unique(EXCEEDED.to_owned(), Value::Object(notice));
        let text = (self.render)(&Value::Object(root))?;
        Ok(BudgetError::Exceeded(Box::new(Exceeded {
            budget,
            tokenizer: self.tokenizer.kind(),
            minimum,
            unbounded,
            collections,
            rows,
            text,
        })))
    }
}

/// Sets a field of the output's `read_output` receipt (its root's last key).
fn set_read_output(value: &mut Value, field: &str, v: Value) {
    if let Some(slot) = value
        .as_object_mut()
        .and_then(|root| root.get_mut(READ_OUTPUT))
        .and_then(Value::as_object_mut)
        .and_then(|ro| ro.get_mut(field))
    {
        *slot = v;
    }
}

/// The rows a cursor continues, and their collection's place as keys and
/// indices.
fn resolve<'a>(doc: &'a Value, c: &Cursor, hash: u64) -> Result<(&'a [Value], Value), BudgetError> {
    let refuse = |reason: &str| {
        BudgetError::Cursor(CursorError {
            cursor: c.to_string(),
            reason: reason.to_owned(),
        })
    };
    if !c.belongs_to(hash) {
        return Err(refuse(
            "does not belong to this input: expected a cursor from a receipt of the same document",
        ));
    }
    let mut v = doc;
    let mut place = Vec::with_capacity(c.path().len());
    for &p in c.path() {
        let next = match v {
            Value::Object(m) => m.get_index(p).map(|(k, x)| {
                place.push(Value::from(k.as_str()));
                x
            }),
            Value::Array(a) => a.get(p).inspect(|_| place.push(Value::from(p))),
            _ => None,
        };
        v = next.ok_or_else(|| refuse("does not lead to a collection of this input"))?;
    }
    match v {
        Value::Array(rows) if c.offset() < rows.len() => Ok((rows, Value::Array(place))),
        Value::Array(_) => Err(refuse("starts past the end of its collection")),
        _ => Err(refuse("does not lead to a collection of this input")),
    }
}

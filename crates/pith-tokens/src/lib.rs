//! Exact token counts: o200k_base and cl100k_base as tiktoken counts them,
//! and the `ceil(bytes / 4)` estimate.
//!
//! ```
//! # #[cfg(feature = "o200k")] {
//! use pith_tokens::{Tokenizer, TokenizerKind};
//!
//! let o200k = Tokenizer::get(TokenizerKind::O200k);
//! assert_eq!(o200k.count("Hello, world!"), 4);
//! assert_eq!(o200k.encode("Hello, world!"), Some(vec![13225, 11, 2375, 0]));
//!
//! let bytes4 = Tokenizer::get("bytes4".parse().unwrap());
//! assert_eq!(bytes4.count("Hello, world!"), 4); // 13 bytes
//! # }
//! ```
//!
//! # Exactness
//!
//! [`Tokenizer::encode`] returns the ids tiktoken 0.14's `encode_ordinary`
//! returns: special-token text such as `<|endoftext|>` is ordinary text.
//! The vocabularies are OpenAI's published rank files, compiled in (see
//! `data/README.md`); the split patterns are reproduced by a hand-written
//! scanner whose Unicode classes come from the same Unicode version (16.0)
//! as tiktoken's regex engine. The tests compare ids with tiktoken's own
//! core on every dataset file and on a stress set of scripts, emoji,
//! white space and 100 KB words.
//!
//! # Counting pieces of a text
//!
//! Text is cut into pieces by a split pattern and each piece is encoded on
//! its own, so a count is the sum of the counts of the pieces. The count of
//! a concatenation is *not* in general the sum of the counts of its parts:
//! `"a"` + `"b"` is one word, `" "` + `" "` one run of white space, `"it"` +
//! `"'s"` one piece. Two rules hold:
//!
//! * cutting right after a line break keeps counts additive:
//!   `count(a + b) == count(a) + count(b)` when `a` ends with `\n`, `b`
//!   has a character other than white space before its first `\r` or `\n`,
//!   and `b` does not start with `/` (o200k joins it to a preceding
//!   symbol-and-line-break piece). So the lines of a TOON or indented JSON
//!   document, indentation included, can be counted one at a time;
//! * a [`Counter`] counts any sequence of appended strings exactly, holding
//!   back only the last piece or two (whatever appended text could still
//!   change) and never re-tokenizing what is settled.
//!
//! # Speed
//!
//! Most pieces of JSON and TOON repeat: a per-thread cache answers a piece
//! of up to 15 bytes from one of its two slots in a table, and one of up
//! to 64 bytes from a map. Other pieces are looked up in the vocabulary
//! (a single token) or go through byte-pair merging, where text whose
//! pieces are all new (base64, hashes, long words) spends its time: see
//! the `bpe` module for how its lookups are kept cheap. Vocabularies are
//! built on first use of each encoding (a few milliseconds).

// Without any vocabulary compiled in, only the estimate is reachable; the
// BPE machinery still compiles so that the features stay additive.
#![cfg_attr(
    not(any(feature = "o200k", feature = "cl100k")),
    allow(dead_code, unused_imports)
)]

mod bpe;
mod floor;
mod lines;
mod pretoken;
#[doc(hidden)]
pub mod unicode;
mod unicode_table;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

pub use bpe::short_word;
use bpe::{Scratch, Vocab};
pub use floor::{GrowingFloor, text_floor, text_floor_exceeds};
pub use lines::LineCounts;
use pretoken::{Pattern, Scan};

/// Which tokenizer to count with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenizerKind {
    /// `o200k_base`: GPT-4o, GPT-4.1, GPT-5, o-series. Written `o200k`.
    #[cfg(feature = "o200k")]
    O200k,
    /// `cl100k_base`: GPT-4, GPT-3.5-turbo, text-embedding-3. Written `cl100k`.
    #[cfg(feature = "cl100k")]
    Cl100k,
    /// The estimate `ceil(utf8_bytes / 4)`. Written `bytes4`.
    Bytes4,
}

impl TokenizerKind {
    /// Every kind compiled in, exact ones first.
    pub const ALL: &'static [TokenizerKind] = &[
        #[cfg(feature = "o200k")]
        TokenizerKind::O200k,
        #[cfg(feature = "cl100k")]
        TokenizerKind::Cl100k,
        TokenizerKind::Bytes4,
    ];

    /// The short name: `o200k`, `cl100k` or `bytes4`.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "o200k")]
            TokenizerKind::O200k => "o200k",
            #[cfg(feature = "cl100k")]
            TokenizerKind::Cl100k => "cl100k",
            TokenizerKind::Bytes4 => "bytes4",
        }
    }

    /// Whether counts are exact token counts (not an estimate).
    pub fn is_exact(self) -> bool {
        self != TokenizerKind::Bytes4
    }
}

impl fmt::Display for TokenizerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TokenizerKind {
    type Err = UnknownTokenizer;

    /// Reads `o200k`, `cl100k`, `bytes4`, or the encoding names
    /// `o200k_base` and `cl100k_base`.
    fn from_str(s: &str) -> Result<TokenizerKind, UnknownTokenizer> {
        match s {
            #[cfg(feature = "o200k")]
            "o200k" | "o200k_base" => Ok(TokenizerKind::O200k),
            #[cfg(feature = "cl100k")]
            "cl100k" | "cl100k_base" => Ok(TokenizerKind::Cl100k),
            "bytes4" => Ok(TokenizerKind::Bytes4),
            _ => Err(UnknownTokenizer(s.to_owned())),
        }
    }
}

/// The error of parsing a [`TokenizerKind`] from a name it does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTokenizer(pub String);

impl fmt::Display for UnknownTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = TokenizerKind::ALL.iter().map(|k| k.name()).collect();
        write!(
            f,
            "unknown tokenizer `{}`: expected one of {}",
            self.0,
            names.join(", ")
        )?;
        let compiled_out = [("o200k", "o200k"), ("cl100k", "cl100k")];
        for (name, feature) in compiled_out {
            let known = names.contains(&name);
            if !known && self.0.starts_with(name) {
                write!(f, " (`{name}` needs the `{feature}` feature of pith)")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for UnknownTokenizer {}

/// A tokenizer: counts and encodes text. Get one with [`Tokenizer::get`].
pub struct Tokenizer {
    kind: TokenizerKind,
    bpe: Option<Bpe>,
}

impl fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokenizer")
            .field("kind", &self.kind)
            .finish()
    }
}

impl Tokenizer {
    /// The tokenizer of `kind`, built on first use (thread-safe) and shared
    /// for the rest of the process.
    pub fn get(kind: TokenizerKind) -> &'static Tokenizer {
        match kind {
            #[cfg(feature = "o200k")]
            TokenizerKind::O200k => {
                static O200K: OnceLock<Tokenizer> = OnceLock::new();
                O200K.get_or_init(|| {
                    let data =
                        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/o200k_base.bpe"));
                    Tokenizer::from_vocab(kind, data, Pattern::O200k)
                })
            }
            #[cfg(feature = "cl100k")]
            TokenizerKind::Cl100k => {
                static CL100K: OnceLock<Tokenizer> = OnceLock::new();
                CL100K.get_or_init(|| {
                    let data = include_bytes!(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/data/cl100k_base.bpe"
                    ));
                    Tokenizer::from_vocab(kind, data, Pattern::Cl100k)
                })
            }
            TokenizerKind::Bytes4 => {
                static BYTES4: Tokenizer = Tokenizer {
                    kind: TokenizerKind::Bytes4,
                    bpe: None,
                };
                &BYTES4
            }
        }
    }

    /// Which tokenizer this is.
    pub fn kind(&self) -> TokenizerKind {
        self.kind
    }

    /// The number of tokens in `text`.
    ///
    /// For exact kinds this equals `self.encode(text).unwrap().len()`.
    pub fn count(&self, text: &str) -> usize {
        match &self.bpe {
            Some(bpe) => bpe.count(text.as_bytes()),
            None => text.len().div_ceil(4),
        }
    }

    /// The number of tokens in `text`, or `None` as soon as it is certain
    /// to be under `lo` (so without counting the rest).
    ///
    /// A piece's tokens are never more than its bytes, and the pieces from
    /// any piece boundary on are those of the rest of the text on its own;
    /// so once the tokens counted plus the bytes left fall under `lo`, the
    /// count is under `lo`.
    pub fn count_unless_under(&self, text: &str, lo: usize) -> Option<usize> {
        match self.count_bounded(text, lo, usize::MAX) {
            Bounded::Exact(n) => Some(n),
            Bounded::Below | Bounded::Above => None,
        }
    }

    /// The number of tokens in `text`, or `None` as soon as it is certain
    /// to be over `hi` (so without counting the rest).
    pub fn count_unless_over(&self, text: &str, hi: usize) -> Option<usize> {
        match self.count_bounded(text, 0, hi) {
            Bounded::Exact(n) => Some(n),
            Bounded::Below | Bounded::Above => None,
        }
    }

    /// Whether `text` has more than `n` tokens, answered as soon as it is
    /// certain either way: once the tokens counted pass `n`, or once they
    /// and the bytes left cannot reach `n + 1` (so without counting the
    /// rest).
    pub fn count_exceeds(&self, text: &str, n: usize) -> bool {
        match self.count_bounded(text, n.saturating_add(1), n) {
            Bounded::Above => true,
            Bounded::Below => false,
            Bounded::Exact(m) => m > n,
        }
    }

    fn count_bounded(&self, text: &str, lo: usize, hi: usize) -> Bounded {
        let n = match &self.bpe {
            Some(bpe) => return bpe.count_bounded(text.as_bytes(), lo, hi),
            None => text.len().div_ceil(4),
        };
        if n < lo {
            Bounded::Below
        } else if n > hi {
            Bounded::Above
        } else {
            Bounded::Exact(n)
        }
    }

    /// The token ids of `text`, as tiktoken's `encode_ordinary` gives them;
    /// `None` for [`TokenizerKind::Bytes4`], which has no tokens.
    pub fn encode(&self, text: &str) -> Option<Vec<u32>> {
        self.bpe.as_ref().map(|bpe| bpe.encode(text.as_bytes()))
    }

    /// The bytes the ids stand for, concatenated; `None` for
    /// [`TokenizerKind::Bytes4`] or if an id is not in the vocabulary.
    ///
    /// The bytes of a single token need not be valid UTF-8 (a character can
    /// span tokens); those of a whole encoded text are.
    pub fn decode(&self, ids: &[u32]) -> Option<Vec<u8>> {
        let bpe = self.bpe.as_ref()?;
        let mut out = Vec::with_capacity(ids.len() * 4);
        for &id in ids {
            let token = bpe.vocab.token(id);
            if token.is_empty() {
                return None;
            }
            out.extend_from_slice(token);
        }
        Some(out)
    }

    /// A counter of appended text, starting empty.
    pub fn counter(&self) -> Counter<'_> {
        Counter {
            tokenizer: self,
            settled: 0,
            tail: String::new(),
            bytes: 0,
        }
    }
}

/// Where a token count lies against two bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bounded {
    /// Certainly under the lower bound.
    Below,
    /// The exact count, when neither bound ruled it out on the way.
    Exact(usize),
    /// Certainly over the upper bound.
    Above,
}

/// Counts text appended piece by piece, exactly, without counting settled
/// text twice.
///
/// `total()` after any sequence of [`Counter::push`] calls equals
/// [`Tokenizer::count`] of everything pushed, concatenated. Pieces are
/// settled as soon as no appended text could change them (in practice at
/// the first character after a word, number or run of white space), so the
/// text held back stays short; a single word or white-space run that keeps
/// growing is held back until it ends, and re-scanned at each push.
///
/// ```
/// # #[cfg(feature = "o200k")] {
/// use pith_tokens::{Tokenizer, TokenizerKind};
///
/// let tok = Tokenizer::get(TokenizerKind::O200k);
/// let mut counter = tok.counter();
/// for part in ["items[2]{id,name}:\n", "  1,Al", "ice\n", "  2,Bob\n"] {
///     counter.push(part);
/// }
/// let whole = "items[2]{id,name}:\n  1,Alice\n  2,Bob\n";
/// assert_eq!(counter.total(), tok.count(whole));
/// // What would appending a line cost, without appending it?
/// assert_eq!(counter.total_with("  3,Carol\n"), tok.count(&(whole.to_owned() + "  3,Carol\n")));
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Counter<'t> {
    tokenizer: &'t Tokenizer,
    /// Tokens of the text before `tail`, which no appended text can change.
    settled: usize,
    /// Text whose pieces may still change.
    tail: String,
    /// Bytes pushed so far (used by the estimate).
    bytes: usize,
}

impl Counter<'_> {
    /// Appends `text`.
    pub fn push(&mut self, text: &str) {
        self.bytes += text.len();
        let Some(bpe) = &self.tokenizer.bpe else {
            return;
        };
        self.tail.push_str(text);
        let (tokens, cut) = bpe.count_settled(self.tail.as_bytes());
        if cut > 0 && self.tail.is_char_boundary(cut) {
            self.settled += tokens;
            self.tail.drain(..cut);
        }
    }

    /// The token count of everything pushed so far.
    pub fn total(&self) -> usize {
        match &self.tokenizer.bpe {
            Some(bpe) => self.settled + bpe.count(self.tail.as_bytes()),
            None => self.bytes.div_ceil(4),
        }
    }

    /// The token count everything pushed so far would have with `more`
    /// appended, leaving the counter as it is.
    pub fn total_with(&self, more: &str) -> usize {
        match &self.tokenizer.bpe {
            Some(bpe) => {
                let mut tail = String::with_capacity(self.tail.len() + more.len());
                tail.push_str(&self.tail);
                tail.push_str(more);
                self.settled + bpe.count(tail.as_bytes())
            }
            None => (self.bytes + more.len()).div_ceil(4),
        }
    }

    /// The number of bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// A byte-pair encoding with its split pattern.
struct Bpe {
    vocab: Vocab,
    pattern: Pattern,
}

impl Tokenizer {
    fn from_vocab(kind: TokenizerKind, data: &'static [u8], pattern: Pattern) -> Tokenizer {
        Tokenizer {
            kind,
            bpe: Some(Bpe {
                vocab: Vocab::parse(data),
                pattern,
            }),
        }
    }
}

/// Pieces longer than this are not cached: they rarely repeat and would
/// make the cache hold large keys.
const CACHE_PIECE_MAX: usize = 64;
/// The cache is emptied when it reaches this many entries, bounding its memory.
const CACHE_ENTRIES_MAX: usize = 1 << 15;
/// Slots of the cache in front of everything, for pieces of up to 15
/// bytes (most pieces of JSON and TOON): it answers a repeated piece from
/// 1 MB per thread and encoding instead of the vocabulary's megabytes.
/// A piece has two slots: it is looked for in its first, and where another
/// piece is there, in its second, and it goes into its first unless that is
/// taken and the second is free. A large document has tens of thousands of
/// distinct pieces, and with one place each those that met in a slot
/// evicted each other on every pass (4,834 merges a pass over
/// gen-nested-10k's candidates).
const HOT_SLOTS: usize = 1 << 16;
/// The shift that takes a 64-bit hash to a slot of [`HOT_SLOTS`].
const HOT_SHIFT: u32 = 64 - HOT_SLOTS.trailing_zeros();

/// Per-thread state of counting: caches per pattern and merge buffers.
#[derive(Default)]
struct Work {
    hot: [Vec<HotEntry>; 2],
    cache: [HashMap<Box<[u8]>, u32, BuildHasherDefault<PieceHasher>>; 2],
    bounds: Vec<usize>,
    scratch: [Scratch; 2],
}

/// A piece of 2 to 15 bytes, zero-padded, with its length and token count
/// in the top byte (`len << 4 | count`), where the piece has none: 16
/// bytes, four to a cache line. All zero for an empty slot.
#[derive(Clone, Copy, Default)]
struct HotEntry {
    key: [u64; 2],
}

impl HotEntry {
    /// Whether it holds the piece `key` stands for (as `piece_count` makes
    /// it: the piece's bytes and its length).
    #[inline(always)]
    fn matches(&self, key: [u64; 2]) -> bool {
        self.key[0] == key[0] && self.key[1] & !HOT_COUNT == key[1]
    }

    /// The token count it holds.
    #[inline(always)]
    fn count(&self) -> usize {
        ((self.key[1] & HOT_COUNT) >> 56) as usize
    }
}

/// The bits of a [`HotEntry`]'s second word that hold the token count.
const HOT_COUNT: u64 = 0xf << 56;

/// Texts from this many bytes on are counted under an upper bound with
/// [`floor::RestFloors`] beside them (for shorter ones the floor's pass
/// would cost about what it may save).
const REST_FLOORS_FROM: usize = 4096;

thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

impl Bpe {
    fn count(&self, text: &[u8]) -> usize {
        match self.count_bounded(text, 0, usize::MAX) {
            Bounded::Exact(n) => n,
            // Unreachable without bounds; the length is a safe answer.
            Bounded::Below | Bounded::Above => text.len(),
        }
    }

    fn count_bounded(&self, text: &[u8], lo: usize, hi: usize) -> Bounded {
        // `p - total`, bytes read less tokens counted, never shrinks; the
        // count is under `lo` once it exceeds `text.len() - lo`.
        let Some(slack) = text.len().checked_sub(lo) else {
            return Bounded::Below;
        };
        // Under a bound, a long text is over it as soon as the tokens
        // counted and a floor under the rest's are: a text far over `hi`
        // is told after a little of it is tokenized, or none. The floors
        // are read where they may tell, as `LineCounts` reads them: a
        // text of more than four bytes per token of `hi`.
        let rest = (text.len() >= REST_FLOORS_FROM && text.len() / 4 > hi)
            .then(|| floor::RestFloors::new(text));
        if rest.as_ref().is_some_and(|r| r.at(0) > hi) {
            return Bounded::Above;
        }
        self.with_work(|work| {
            let mut scan = Scan::<false>::new(text);
            let mut total = 0;
            let mut p = 0;
            while p < text.len() {
                let end = scan.piece(self.pattern, p);
                total += self.piece_count(text, p, end, work);
                p = end;
                if total > hi {
                    return Bounded::Above;
                }
                if p - total > slack {
                    return Bounded::Below;
                }
                if let Some(r) = &rest
                    && total + r.at(p) > hi
                {
                    return Bounded::Above;
                }
            }
            Bounded::Exact(total)
        })
    }

    /// Counts the pieces at the start of `text` that appended text cannot
    /// change; returns their token count and where they end.
    fn count_settled(&self, text: &[u8]) -> (usize, usize) {
        self.with_work(|work| {
            let mut scan = Scan::<true>::new(text);
            let mut total = 0;
            let mut p = 0;
            while p < text.len() {
                scan.reset_far();
                let end = scan.piece(self.pattern, p);
                if !scan.settled() {
                    break;
                }
                total += self.piece_count(text, p, end, work);
                p = end;
            }
            (total, p)
        })
    }

    fn encode(&self, text: &[u8]) -> Vec<u32> {
        self.with_work(|work| {
            let mut ids = Vec::with_capacity(text.len() / 3);
            let mut scan = Scan::<false>::new(text);
            let mut p = 0;
            while p < text.len() {
                let end = scan.piece(self.pattern, p);
                let piece = text.get(p..end).unwrap_or_default();
                p = end;
                if let Some(rank) = self.vocab.rank(piece) {
                    ids.push(rank);
                    continue;
                }
                self.vocab.merge(
                    piece,
                    &mut work.bounds,
                    &mut work.scratch[self.pattern as usize],
                );
                for pair in work.bounds.windows(2) {
                    let part = piece.get(pair[0]..pair[1]).unwrap_or_default();
                    // Every part is a token by construction: single bytes
                    // all are, and parts only join into tokens.
                    if let Some(rank) = self.vocab.rank(part) {
                        ids.push(rank);
                    }
                }
            }
            ids
        })
    }

    /// The tokens of the piece `text[p..end]`.
    #[inline(always)]
    fn piece_count(&self, text: &[u8], p: usize, end: usize, work: &mut Work) -> usize {
        let piece = text.get(p..end).unwrap_or_default();
        let len = piece.len();
        if len <= 1 {
            return len;
        }
        if len > 15 {
            return self.piece_count_slow(piece, work);
        }
        let mut key = piece_key(text, p, len);
        let h = (key[0] ^ (len as u64))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(23)
            ^ key[1].wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        let slot = (h.wrapping_mul(0xff51_afd7_ed55_8ccd) >> HOT_SHIFT) as usize;
        key[1] |= (len as u64) << 60;
        let hot = &mut work.hot[self.pattern as usize];
        if hot.is_empty() {
            hot.resize(HOT_SLOTS, HotEntry::default());
        }
        if let Some(entry) = hot.get(slot)
            && entry.matches(key)
        {
            return entry.count();
        }
        let second = (h.wrapping_mul(0xc2b2_ae3d_27d4_eb4f) >> HOT_SHIFT) as usize;
        self.piece_count_miss(piece, key, [slot, second], work)
    }

    /// [`Self::piece_count`] for a piece of 2 to 15 bytes not in its first
    /// slot of the hot cache: from its second slot, or counted and put in
    /// one of the two, under `key` (the piece and its length as the entry
    /// holds them).
    #[inline(never)]
    fn piece_count_miss(
        &self,
        piece: &[u8],
        key: [u64; 2],
        [first, second]: [usize; 2],
        work: &mut Work,
    ) -> usize {
        let hot = &mut work.hot[self.pattern as usize];
        if let Some(entry) = hot.get(second)
            && entry.matches(key)
        {
            return entry.count();
        }
        let n = self.piece_merged(piece, work);
        // A piece has no more tokens than bytes, so at most 15.
        if n < 16 {
            let hot = &mut work.hot[self.pattern as usize];
            // The first slot if it is free, else the second if that is,
            // else the first.
            let free = |at: usize| hot.get(at).is_some_and(|e| e.key == [0, 0]);
            let at = if !free(first) && free(second) {
                second
            } else {
                first
            };
            if let Some(slot) = hot.get_mut(at) {
                *slot = HotEntry {
                    key: [key[0], key[1] | ((n as u64) << 56)],
                };
            }
        }
        n
    }

    /// The tokens of a piece, merged (no cache asked). A piece of up to 15
    /// bytes is not also kept in the piece cache: the hot cache holds it,
    /// and text whose short pieces are all new (base64, hashes) would only
    /// fill the map.
    fn piece_merged(&self, piece: &[u8], work: &mut Work) -> usize {
        if self.vocab.rank(piece).is_some() {
            return 1;
        }
        self.vocab.merge(
            piece,
            &mut work.bounds,
            &mut work.scratch[self.pattern as usize],
        );
        work.bounds.len().saturating_sub(1)
    }

    /// The tokens of a piece of more than 15 bytes: from the piece cache up
    /// to [`CACHE_PIECE_MAX`] bytes, merged otherwise.
    fn piece_count_slow(&self, piece: &[u8], work: &mut Work) -> usize {
        let cached = piece.len() <= CACHE_PIECE_MAX;
        if cached && let Some(&n) = work.cache[self.pattern as usize].get(piece) {
            return n as usize;
        }
        let n = self.piece_merged(piece, work);
        if cached {
            let cache = &mut work.cache[self.pattern as usize];
            if cache.len() >= CACHE_ENTRIES_MAX {
                cache.clear();
            }
            cache.insert(piece.into(), n as u32);
        }
        n
    }

    /// Runs `f` with this thread's work state, or with a fresh one if it is
    /// busy or gone (a thread being torn down).
    fn with_work<R>(&self, mut f: impl FnMut(&mut Work) -> R) -> R {
        match WORK.try_with(|cell| cell.try_borrow_mut().ok().map(|mut work| f(&mut work))) {
            Ok(Some(result)) => result,
            _ => f(&mut Work::default()),
        }
    }
}

/// The piece of `len` bytes (2 to 15) at `p` in `text` as two
/// little-endian words, zero-padded: its first eight bytes and the rest.
/// Away from the end of the text, two whole-word loads and masks.
#[inline(always)]
fn piece_key(text: &[u8], p: usize, len: usize) -> [u64; 2] {
    let mask = |n: usize| {
        if n >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * n)) - 1
        }
    };
    if let Some(window) = text.get(p..p + 16) {
        let (lo, hi) = window.split_at(8);
        let word = |b: &[u8]| {
            let mut w = [0; 8];
            w.copy_from_slice(b);
            u64::from_le_bytes(w)
        };
        return [word(lo) & mask(len), word(hi) & mask(len.saturating_sub(8))];
    }
    let piece = text.get(p..p + len).unwrap_or_default();
    let (lo, hi) = piece.split_at(len.min(8));
    [load_le(lo), load_le(hi)]
}

/// Up to 8 bytes as a little-endian word, zero-padded.
#[inline]
fn load_le(bytes: &[u8]) -> u64 {
    if let Ok(word) = <[u8; 8]>::try_from(bytes) {
        return u64::from_le_bytes(word);
    }
    bytes
        .iter()
        .rev()
        .fold(0u64, |word, &b| (word << 8) | u64::from(b))
}

/// Hashes piece bytes with the vocabulary's hash function.
#[derive(Default)]
struct PieceHasher(u64);

impl Hasher for PieceHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = self.0.rotate_left(5) ^ bpe::hash(bytes);
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = self.0.rotate_left(5) ^ (n as u64);
    }
}

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &kind in TokenizerKind::ALL {
            assert_eq!(kind.to_string().parse::<TokenizerKind>(), Ok(kind));
        }
        assert_eq!("o200k_base".parse(), Ok(TokenizerKind::O200k));
        assert_eq!("cl100k_base".parse(), Ok(TokenizerKind::Cl100k));
        let err = "gpt2".parse::<TokenizerKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown tokenizer `gpt2`: expected one of o200k, cl100k, bytes4"
        );
    }

    #[test]
    fn vocabularies_are_complete() {
        let o = Tokenizer::get(TokenizerKind::O200k).bpe.as_ref().unwrap();
        assert_eq!(o.vocab.len(), 199_998);
        let c = Tokenizer::get(TokenizerKind::Cl100k).bpe.as_ref().unwrap();
        assert_eq!(c.vocab.len(), 100_256);
        for bpe in [o, c] {
            for rank in 0..bpe.vocab.len() as u32 {
                assert_eq!(bpe.vocab.rank(bpe.vocab.token(rank)), Some(rank));
            }
        }
    }

    #[test]
    fn known_ids() {
        let o = Tokenizer::get(TokenizerKind::O200k);
        let c = Tokenizer::get(TokenizerKind::Cl100k);
        assert_eq!(o.encode("hello world"), Some(vec![24912, 2375]));
        assert_eq!(c.encode("hello world"), Some(vec![15339, 1917]));
        assert_eq!(c.encode("x\n  "), Some(vec![87, 198, 256]));
        assert_eq!(o.encode("don'ſ"), Some(vec![22130, 6, 70067]));
        assert_eq!(o.encode(""), Some(vec![]));
        assert_eq!(Tokenizer::get(TokenizerKind::Bytes4).encode("abc"), None);
        assert_eq!(o.decode(&[24912, 2375]), Some(b"hello world".to_vec()));
        assert_eq!(o.decode(&[199_998]), None);
    }

    #[test]
    fn bounded_counts_agree_with_counts() {
        let texts = [
            "",
            "a",
            "items[2]{id,name}:\n  1,Alice\n  2,Bob",
            "日本語のテキスト and some English, 12345 numbers!!",
            "                 \n\n   x",
        ];
        for &kind in TokenizerKind::ALL {
            let t = Tokenizer::get(kind);
            for text in texts {
                let n = t.count(text);
                for lo in 0..=text.len() + 2 {
                    for hi in [0, n.saturating_sub(1), n, n + 1, usize::MAX] {
                        let got = t.count_bounded(text, lo, hi);
                        match got {
                            Bounded::Below => assert!(n < lo, "{kind} {text:?} {lo} {hi}"),
                            Bounded::Above => assert!(n > hi, "{kind} {text:?} {lo} {hi}"),
                            Bounded::Exact(m) => assert_eq!(m, n, "{kind} {text:?}"),
                        }
                        if (lo..=hi).contains(&n) {
                            assert_eq!(got, Bounded::Exact(n), "{kind} {text:?} {lo} {hi}");
                        }
                    }
                    let under = t.count_unless_under(text, lo);
                    assert!(under == Some(n) || (under.is_none() && n < lo));
                    let over = t.count_unless_over(text, lo);
                    assert!(over == Some(n) || (over.is_none() && n > lo));
                    assert_eq!(t.count_exceeds(text, lo), n > lo, "{kind} {text:?} {lo}");
                }
            }
        }
        // Long texts, counted beside the floors of their rests: over a
        // bound only when the count is.
        let mut long_texts = vec![
            "word ".repeat(2_000),
            "rows[3]{id,name}:\n".to_string() + &"  1,Alice it's 42\n/x\n".repeat(400),
            "{\"a\":[1,2,\"x\"],\"b\":\"\u{e9}t\u{e9} \u{1}\"}".repeat(300),
        ];
        long_texts.push(long_texts.concat());
        for &kind in TokenizerKind::ALL {
            let t = Tokenizer::get(kind);
            for text in &long_texts {
                assert!(text.len() >= REST_FLOORS_FROM);
                let n = t.count(text);
                for hi in (0..=n + 2)
                    .step_by(n / 97 + 1)
                    .chain(n.saturating_sub(3)..n + 3)
                {
                    match t.count_bounded(text, 0, hi) {
                        Bounded::Above => assert!(n > hi, "{kind}: {n} <= {hi}"),
                        Bounded::Exact(m) => assert!(m == n && n <= hi, "{kind}: {m} {n} {hi}"),
                        Bounded::Below => panic!("{kind}: below 0"),
                    }
                }
            }
        }
        // Early answers: a long text far under the lower bound, or over the upper.
        let o = Tokenizer::get(TokenizerKind::O200k);
        let long = "word ".repeat(10_000);
        assert_eq!(o.count_unless_under(&long, 40_000), None);
        assert_eq!(o.count_unless_over(&long, 100), None);
        let n = o.count(&long);
        assert_eq!(o.count_unless_over(&long, n), Some(n));
        assert_eq!(o.count_unless_over(&long, n - 1), None);
        for bound in [0, 100, n - 1, n, n + 1, 40_000, usize::MAX] {
            assert_eq!(o.count_exceeds(&long, bound), n > bound, "{bound}");
        }
    }

    #[test]
    fn bytes4_rounds_up() {
        let b = Tokenizer::get(TokenizerKind::Bytes4);
        assert_eq!(b.count(""), 0);
        assert_eq!(b.count("abcd"), 1);
        assert_eq!(b.count("abcde"), 2);
        assert_eq!(b.count("日本"), 2); // 6 bytes
        let mut counter = b.counter();
        counter.push("ab");
        counter.push("cde");
        assert_eq!(counter.total(), 2);
        assert_eq!(counter.total_with("fgh"), 2);
        assert_eq!(counter.total_with("fghi"), 3);
    }

    #[test]
    fn count_equals_encode_len_on_long_pieces() {
        let o = Tokenizer::get(TokenizerKind::O200k);
        let word: String = (0..5000).map(|i| ['a', 'b', 'q', 'z'][i * 7 % 4]).collect();
        assert_eq!(o.count(&word), o.encode(&word).unwrap().len());
        // Twice, so the second answer comes from the cache.
        let short = "supercalifragilistic";
        assert_eq!(o.count(short), o.encode(short).unwrap().len());
        assert_eq!(o.count(short), o.encode(short).unwrap().len());
    }

    #[test]
    fn pieces_that_share_hot_slots_count_as_merged() {
        // More distinct short pieces than the hot cache has slots: many
        // meet in a slot, and are then found in their second slot, put in
        // it, or evicted. Each pass's count is the merged count (`encode`
        // asks no cache).
        let syllables = [
            "ka", "ze", "lo", "mi", "ru", "an", "is", "vo", "ti", "ba", "ne", "or",
        ];
        let mut text = String::new();
        for i in 0..(3 * HOT_SLOTS / 2) {
            let (mut n, mut word) = (i, String::new());
            while n > 0 || word.is_empty() {
                word.push_str(syllables[n % syllables.len()]);
                n /= syllables.len();
            }
            text.push(' ');
            text.push_str(&word);
        }
        for &kind in &[TokenizerKind::O200k, TokenizerKind::Cl100k] {
            let t = Tokenizer::get(kind);
            let merged = t.encode(&text).unwrap().len();
            for pass in 0..3 {
                assert_eq!(t.count(&text), merged, "{kind:?}, pass {pass}");
            }
        }
    }
}

//! Token counts of many similar texts, each distinct line tokenized once.
//!
//! `auto` counts several candidate documents of one value, and they share
//! most of their lines, mostly in the same order: the notation with and
//! without references differs in the rows that use a name, a hoisted table
//! and a sparse table in a few cells. [`LineCounts`] cuts each text into
//! *segments* where counts add up (right after a line break followed by a
//! line that starts with a character other than white space and is not
//! `/`, see the module docs of [`crate`]) and remembers every
//! segment it has tokenized, in order, with its count. The count of a text
//! is the sum of its segments' counts, exactly [`Tokenizer::count`] of the
//! whole.
//!
//! Every text counted leaves its *path*, the sequence of its segments'
//! records. Counting a text follows the paths with a cursor: where the text
//! goes on as a text counted before went on, its next segment is the one
//! that came next there (or the one after that, where a segment was left
//! out or changed), told by comparing bytes, with no hashing and no scan
//! for line breaks. Elsewhere the segment is found by its hash, which also
//! puts the cursor back in step, after the segment's latest use. A
//! remembered segment stands for the text's bytes only if the cut after it
//! is one where counts add up in this text too.
//!
//! A *fine* memo also cuts inside lines, before a `,`, `}` or `]` that
//! follows an ASCII letter or digit: the piece before ends at the letter or
//! digit (a contraction needs an apostrophe), and the one after starts at
//! the punctuation whatever came before. The notation's writer counts with
//! one: a flow value `{id:1,user:{login:octo,id:2}}` and the flow value of
//! the object around it share all but the pieces where they join, so each
//! nested object's layouts are counted at the cost of their joins.
//!
//! An indented segment whose first character after the spaces is an ASCII
//! digit (a table row under its header) is counted as its indentation plus
//! the segment unindented, and the unindented one is what is remembered:
//! TOON's and the hoisted forms' rows then share their counts with the
//! notation's, which are the same rows at the margin (see
//! [`indent_digits`]).
//!
//! Segments are kept in an arena, and found by a hash keyed per memo in a
//! table probed at most [`MAX_PROBE`] slots: input crafted to collide costs
//! a direct count per segment, never a quadratic search. Each text starts
//! the cursor where the one before began. A first text whose lines seldom
//! repeat is remembered without the table, which is filled when a later
//! text first looks a segment up (see `LineCounts::lazy`). Segments longer
//! than [`MAX_SEGMENT`] bytes (a one-line JSON text, say) are counted
//! directly and not kept.

use super::{Bounded, Tokenizer};
use std::hash::{BuildHasher, RandomState};

/// Segments longer than this are counted and not remembered.
const MAX_SEGMENT: usize = 4096;
/// Bytes tokenized in one bounded count before the floors of the rest of
/// its text are read, and the least rest they are read of (see
/// `count_bounded`).
const FRESH_FLOORS: usize = 1 << 15;
/// Slots looked at before a segment is counted without the memo.
const MAX_PROBE: usize = 32;
/// The arena and the records stop growing here (offsets are 32 bits).
const MAX_ARENA: usize = u32::MAX as usize;
/// Segments of a memo's first text looked up before it may stop placing
/// them in its table (see [`LineCounts::lazy`]).
const SAMPLE: usize = 512;

/// A remembered segment: where its bytes are in the arena, and its count.
#[derive(Clone, Copy)]
struct Record {
    at: u32,
    len: u32,
    count: u32,
}

/// Exact token counts, each distinct segment tokenized once (see the module
/// docs).
pub struct LineCounts {
    tokenizer: &'static Tokenizer,
    /// Every remembered segment, in the order they were first counted.
    records: Vec<Record>,
    /// The records of the segments of every text counted, in order.
    path: Vec<u32>,
    /// Per record: its latest position in `path`.
    latest: Vec<u32>,
    /// Per record placed in the table: the hash of its bytes, so that
    /// growing the table places the records again without reading and
    /// hashing their bytes. The records placed are the first ones, as many
    /// as there are hashes; the rest are found only by the cursor until
    /// they are (see [`LineCounts::lazy`]).
    hashes: Vec<u64>,
    /// Where on the path the text counted last began.
    start: Option<u32>,
    /// Whether a text after the first is being counted (or has been).
    past_first: bool,
    /// Segments of the first text looked up in the table, and how many of
    /// them were found there.
    sampled: usize,
    found: usize,
    arena: Vec<u8>,
    /// Open addressing: the hash's upper half `<< 32 | record + 1`, 0 empty.
    /// Probed by triangular steps (1, 2, 3… slots on), which in a table of
    /// a power of two slots visit every slot and, unlike a step of one,
    /// build no long runs of filled slots: in a table at most half full,
    /// [`MAX_PROBE`] (32) probes that all find other records are about as
    /// likely as 32 coin tosses all coming up heads, where with a step
    /// of one a record went unfound in about one table of 2,000 records in
    /// a hundred (it was counted again, not found).
    slots: Vec<u64>,
    key: u64,
    /// Whether lines are cut inside too (see the module docs).
    fine: bool,
    /// Whether every text is counted whole, nothing remembered (the
    /// reference the memo is tested against).
    direct: bool,
    /// Per number of spaces: their tokens before a digit (0 not known).
    pads: Vec<u32>,
    /// Whether segments not seen before are remembered (see
    /// [`LineCounts::remember`]).
    remember: bool,
}

impl LineCounts {
    /// An empty memo for `tokenizer`.
    pub fn new(tokenizer: &'static Tokenizer) -> LineCounts {
        LineCounts {
            tokenizer,
            records: Vec::new(),
            path: Vec::new(),
            latest: Vec::new(),
            hashes: Vec::new(),
            start: None,
            past_first: false,
            sampled: 0,
            found: 0,
            arena: Vec::new(),
            slots: Vec::new(),
            key: RandomState::new().hash_one(0x6c69_6e65_u64) | 1,
            fine: false,
            direct: false,
            pads: Vec::new(),
            remember: true,
        }
    }

    /// Whether segments not seen before are remembered from now on (they
    /// are unless told otherwise). Texts counted while not remembering
    /// still find the segments remembered before: a caller whose last texts
    /// share nothing with each other (a compact JSON text is one line) counts
    /// them without the memo growing by what they alone hold.
    pub fn remember(&mut self, on: bool) {
        self.remember = on;
    }

    /// A "memo" that remembers nothing: every count is the tokenizer's own
    /// (what the memo's users compare themselves with in their tests).
    pub fn direct(tokenizer: &'static Tokenizer) -> LineCounts {
        LineCounts {
            direct: true,
            ..LineCounts::new(tokenizer)
        }
    }

    /// An empty memo for `tokenizer` that also cuts inside lines (see the
    /// module docs).
    pub fn fine(tokenizer: &'static Tokenizer) -> LineCounts {
        LineCounts {
            fine: true,
            ..LineCounts::new(tokenizer)
        }
    }

    /// The tokenizer it counts with.
    pub fn tokenizer(&self) -> &'static Tokenizer {
        self.tokenizer
    }

    /// The token count of `text`.
    pub fn count(&mut self, text: &str) -> usize {
        match self.count_bounded(text, 0, usize::MAX) {
            Bounded::Exact(n) => n,
            // Unreachable without bounds; the length is a safe answer.
            Bounded::Below | Bounded::Above => text.len(),
        }
    }

    /// The token count of `text`, or `None` once it is sure to be over `hi`.
    pub fn count_unless_over(&mut self, text: &str, hi: usize) -> Option<usize> {
        match self.count_bounded(text, 0, hi) {
            Bounded::Exact(n) => Some(n),
            Bounded::Below | Bounded::Above => None,
        }
    }

    /// The token count of `text`, or `None` once it is sure to be under `lo`.
    pub fn count_unless_under(&mut self, text: &str, lo: usize) -> Option<usize> {
        match self.count_bounded(text, lo, usize::MAX) {
            Bounded::Exact(n) => Some(n),
            Bounded::Below | Bounded::Above => None,
        }
    }

    /// [`Tokenizer::count_bounded`], segment by segment: a segment's tokens
    /// are never more than its bytes, so once the tokens counted plus the
    /// bytes left fall under `lo` the count is under `lo`; and once they
    /// and a floor under the count of the rest exceed `hi`, it is over
    /// `hi`.
    fn count_bounded(&mut self, text: &str, lo: usize, hi: usize) -> Bounded {
        // Counted by the tokenizer, which reads its own floors: a reference
        // memo's every text, and a text that is one segment too long to be
        // remembered (a line of compact JSON), whose floors read here too
        // would be read twice.
        if self.tokenizer.bpe.is_none()
            || self.direct
            || (text.len() > MAX_SEGMENT && segment_end(text, 0, self.fine) == text.len())
        {
            return self.tokenizer.count_bounded(text, lo, hi);
        }
        // Its pieces alone are more than `hi` (`text_floor`, a few
        // milliseconds a megabyte): over for certain, and not tokenized at
        // all. The floor is read only where it may tell, a text of more
        // than four bytes per token of `hi` (the floor of prose and data
        // runs at about one piece per four to five bytes); a text of at
        // most `hi` bytes cannot be over at all.
        // Read so, the floors also give one under the count of the text
        // from the start of each piece on: where the count of the segments
        // so far and that floor exceed `hi`, the text is over it. Where
        // they are not read first, they are read of the rest of the text
        // once segments not remembered have been tokenized for a while
        // (`FRESH_FLOORS`): a floor costs a small part of tokenizing, and
        // much more than counting remembered segments.
        // `None` while the floors are not read.
        let mut rests = if text.len() / 4 > hi {
            match crate::floor::floors_from_cuts(text, hi) {
                Some(rests) => Some(rests),
                None => return Bounded::Above,
            }
        } else {
            None
        };
        // The next piece start at or after the text's position.
        let mut next_rest = 0;
        // Bytes of segments tokenized, not found in the memo.
        let mut fresh = 0;
        let bytes = text.as_bytes();
        let mut total = 0usize;
        let mut p = 0;
        // The position in `path` the text is expected to go on with: at
        // first, where the text counted last began (a text is most often a
        // variant of the one before; the cursor is only ever a guess, told
        // right by comparing bytes).
        let mut cursor: Option<usize> = self.start.map(|s| s as usize);
        // The first text is the one that finds no start (it always leaves
        // one: its path starts empty).
        self.past_first = self.start.is_some();
        if self.path.len() < MAX_ARENA {
            self.start = Some(self.path.len() as u32);
        }
        while p < bytes.len() {
            // Where the cursor is, a row of digits is looked for unindented,
            // as it was remembered.
            let pad = match cursor {
                Some(_) if bytes[p] == b' ' => indent_digits(&bytes[p..]),
                _ => 0,
            };
            let follows = cursor.and_then(|j| {
                (j..j + 2).find_map(|k| self.follows(k, bytes, p + pad).map(|hit| (k, hit)))
            });
            let end = match follows {
                Some((k, (r, len, count))) => {
                    cursor = Some(k + 1);
                    self.walk(r);
                    total += count + self.pad_count(pad);
                    p + pad + len
                }
                None => {
                    let end = segment_end(text, p, self.fine);
                    let segment = &text[p..end];
                    if segment.len() > MAX_SEGMENT {
                        fresh += segment.len();
                        // Counted directly, with the bounds left for it.
                        let left = bytes.len() - end;
                        let lo = lo.saturating_sub(total).saturating_sub(left);
                        match self
                            .tokenizer
                            .count_bounded(segment, lo, hi.saturating_sub(total))
                        {
                            Bounded::Exact(n) => total += n,
                            other => return other,
                        }
                    } else {
                        // An indented line of digits first counts as its
                        // indentation and the line unindented, remembered
                        // (see `indent_digits`).
                        let pad = indent_digits(segment.as_bytes());
                        let (count, seen) = self.segment(&segment[pad..]);
                        total += count + self.pad_count(pad);
                        // Seen before: the text goes on as it went on after
                        // its latest use. New: the cursor stays (this may be
                        // a changed copy of the segment expected, or one put
                        // in before it).
                        if !matches!(seen, Seen::Before(_)) {
                            fresh += segment.len();
                        }
                        match seen {
                            Seen::Before(r) => {
                                cursor = Some(self.latest[r] as usize + 1);
                                self.walk(r);
                            }
                            Seen::New(r) => self.walk(r),
                            Seen::Never => {}
                        }
                    }
                    end
                }
            };
            p = end;
            if total > hi {
                return Bounded::Above;
            }
            if total + (bytes.len() - p) < lo {
                return Bounded::Below;
            }
            // `p` is where counts add up: the rest counts as a text of its own.
            if rests.is_none()
                && hi < usize::MAX
                && fresh >= FRESH_FLOORS
                && bytes.len() - p >= FRESH_FLOORS
            {
                match crate::floor::floors_from_cuts(&text[p..], hi - total) {
                    Some(from_p) => {
                        rests = Some(from_p.into_iter().map(|(at, f)| (p + at, f)).collect());
                    }
                    None => return Bounded::Above,
                }
            }
            // A piece's start is where counts add up, here as anywhere:
            // the count from `p` on is at least the count from the next
            // piece start on.
            if let Some(rests) = &rests {
                while rests.get(next_rest).is_some_and(|&(at, _)| at < p) {
                    next_rest += 1;
                }
                if rests
                    .get(next_rest)
                    .is_some_and(|&(_, rest)| total + rest > hi)
                {
                    return Bounded::Above;
                }
            }
        }
        Bounded::Exact(total)
    }

    /// The tokens of `n` spaces before an ASCII digit (see
    /// [`indent_digits`]): `n - 1` spaces as one piece, then one space.
    fn pad_count(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        if let Some(&c) = self.pads.get(n).filter(|&&c| c > 0) {
            return c as usize;
        }
        let c = 1 + self.tokenizer.count(&" ".repeat(n - 1));
        if n < 256 {
            if self.pads.len() <= n {
                self.pads.resize(n + 1, 0);
            }
            // 0 marks a pad not counted yet; every pad has a token.
            self.pads[n] = c as u32;
        }
        c
    }

    /// Puts record `r` next on the path.
    #[inline]
    fn walk(&mut self, r: usize) {
        if self.path.len() < MAX_ARENA {
            self.latest[r] = self.path.len() as u32;
            self.path.push(r as u32);
        }
    }

    /// Whether the record at position `k` of the path stands for the
    /// segment of `text` at `p`: the same bytes, and counts add up across
    /// the cut after them here too. The record, its length and its count.
    #[inline]
    fn follows(&self, k: usize, text: &[u8], p: usize) -> Option<(usize, usize, usize)> {
        let r = *self.path.get(k)? as usize;
        let rec = self.records.get(r)?;
        let (at, len) = (rec.at as usize, rec.len as usize);
        let here = text.get(p..p + len)?;
        if here != self.arena.get(at..at + len)? {
            return None;
        }
        let end = p + len;
        let cut = end == text.len()
            || (here.last() == Some(&b'\n') && cuts(&text[end..]))
            || (self.fine && fine_cut(text, end));
        cut.then_some((r, len, rec.count as usize))
    }

    /// Whether segments not found by the cursor are counted afresh and
    /// remembered without being looked up or placed in the table.
    ///
    /// Placing every segment of a large text in the table costs about a
    /// third of tokenizing it (hashing, and a cache miss a segment). In a
    /// text whose lines repeat it pays for itself many times over; in one
    /// of distinct lines (a table's rows) it is wasted while that text is
    /// counted, and later texts, mostly variants of it, find most of what
    /// they share with it by the cursor. So in a memo's first text, once
    /// [`SAMPLE`] segments have been looked up and fewer than one in eight
    /// was found, the rest of the text is remembered without the table;
    /// the records so kept are placed in it when a later text first looks
    /// a segment up. A fine memo always looks its segments up.
    fn lazy(&self) -> bool {
        !self.fine && !self.past_first && self.sampled >= SAMPLE && self.found * 8 < self.sampled
    }

    /// Makes the table and places every record in it (see
    /// [`LineCounts::lazy`]); from then on each new record is placed as it
    /// is made.
    fn index_rest(&mut self) {
        for r in self.hashes.len()..self.records.len() {
            let rec = self.records[r];
            let (at, len) = (rec.at as usize, rec.len as usize);
            self.hashes.push(hash(&self.arena[at..at + len], self.key));
        }
        // At most half full, as `segment` keeps it: `grow` places every
        // record in a table of twice these slots.
        let want = (self.hashes.len() * 2).next_power_of_two().max(1 << 10);
        self.slots = vec![0; want / 2];
        self.grow();
    }

    /// The count of a segment, found by its hash or tokenized and
    /// remembered.
    fn segment(&mut self, segment: &str) -> (usize, Seen) {
        let b = segment.as_bytes();
        if self.lazy() {
            let count = self.tokenizer.count(segment);
            return match self.keep(b, count) {
                Some(r) => (count, Seen::New(r)),
                None => (count, Seen::Never),
            };
        }
        if self.hashes.len() < self.records.len() || self.slots.is_empty() {
            self.index_rest();
        }
        if !self.past_first {
            self.sampled += 1;
        }
        let hash = hash(b, self.key);
        let tag = hash & !0xffff_ffff;
        let mask = self.slots.len() - 1;
        let mut i = (hash as usize) & mask;
        for step in 1..=MAX_PROBE {
            let slot = self.slots[i];
            if slot == 0 {
                let count = self.tokenizer.count(segment);
                let Some(r) = self.keep(b, count) else {
                    return (count, Seen::Never);
                };
                self.hashes.push(hash);
                self.slots[i] = tag | (r as u64 + 1);
                if self.records.len() * 2 > self.slots.len() {
                    self.grow();
                }
                return (count, Seen::New(r));
            }
            let r = (slot & 0xffff_ffff) as usize - 1;
            if slot & !0xffff_ffff == tag {
                let rec = self.records[r];
                let (at, len) = (rec.at as usize, rec.len as usize);
                if self.arena.get(at..at + len) == Some(b) {
                    if !self.past_first {
                        self.found += 1;
                    }
                    return (rec.count as usize, Seen::Before(r));
                }
            }
            i = (i + step) & mask;
        }
        (self.tokenizer.count(segment), Seen::Never)
    }

    /// Remembers segment `b` of `count` tokens as a new record (not placed
    /// in the table), unless the memo does not remember or is full.
    fn keep(&mut self, b: &[u8], count: usize) -> Option<usize> {
        let (at, r) = (self.arena.len(), self.records.len());
        if !self.remember || at + b.len() > MAX_ARENA || r + 1 > MAX_ARENA {
            return None;
        }
        self.arena.extend_from_slice(b);
        self.records.push(Record {
            at: at as u32,
            len: b.len() as u32,
            count: count as u32,
        });
        self.latest.push(0);
        Some(r)
    }

    /// Doubles the table, placing every indexed record again.
    fn grow(&mut self) {
        self.slots = vec![0; self.slots.len() * 2];
        let mask = self.slots.len() - 1;
        for (r, &hash) in self.hashes.iter().enumerate() {
            let mut i = (hash as usize) & mask;
            // A record that finds no room within the probe limit is only
            // reached by the cursor.
            for step in 1..=MAX_PROBE {
                if self.slots[i] == 0 {
                    self.slots[i] = (hash & !0xffff_ffff) | (r as u64 + 1);
                    break;
                }
                i = (i + step) & mask;
            }
        }
    }
}

/// What the memo knew of a segment.
enum Seen {
    /// Remembered before, as this record.
    Before(usize),
    /// Remembered now, as this record.
    New(usize),
    /// Not remembered (the memo is full, or told not to remember, or its
    /// probes found no room).
    Never,
}

/// The first place at or after `p` where a segment may end: just after a
/// line break where counts add up (see the module docs), or the text's
/// end. `p` need not be on a character boundary; the place returned is.
pub(crate) fn cut_after(text: &str, p: usize) -> usize {
    // A line break is a character of its own: none is passed over by
    // starting at the next character boundary.
    let mut from = p.min(text.len());
    while !text.is_char_boundary(from) {
        from += 1;
    }
    while let Some(k) = text[from..].find('\n') {
        let cut = from + k + 1;
        if cut == text.len() || cuts(&text.as_bytes()[cut..]) {
            return cut;
        }
        from = cut;
    }
    text.len()
}

/// The end of the segment of `text` that starts at `p`: just after the first
/// line break where counts add up (see the module docs), or, in a fine memo,
/// before a `,`, `}` or `]` after an ASCII letter or digit; or the text's
/// end.
fn segment_end(text: &str, p: usize, fine: bool) -> usize {
    if fine {
        let b = text.as_bytes();
        let mut i = p + 1;
        while i < b.len() {
            // Only a line break or a closing or separating mark can end a
            // segment: most bytes are passed over at one comparison each.
            match b[i] {
                b',' | b'}' | b']' if b[i - 1].is_ascii_alphanumeric() => return i,
                _ if b[i - 1] == b'\n' && cuts(&b[i..]) => return i,
                _ => i += 1,
            }
        }
        return b.len();
    }
    cut_after(text, p)
}

/// How many spaces `segment` starts with, when an ASCII digit follows them
/// (0 otherwise). Both split patterns cut `n` spaces before a digit into
/// `n - 1` spaces (white space not followed by a non-space) and one space
/// (white space): no pattern lets a space lead a run of digits, nor a
/// space and a digit start a word or a piece of punctuation. From the digit
/// on, the pieces are those of the unindented line on its own, so the
/// count of an indented row of digits (`  12,Alice`, a table row) is its
/// indentation's and the unindented row's, and the unindented row (the
/// notation's) is remembered once for both.
#[inline]
fn indent_digits(segment: &[u8]) -> usize {
    let n = segment.iter().take_while(|&&b| b == b' ').count();
    if n > 0 && segment.get(n).is_some_and(u8::is_ascii_digit) {
        n
    } else {
        0
    }
}

/// Whether counts add up across a cut inside a line at `i` (see the module
/// docs): `,`, `}` or `]` after an ASCII letter or digit.
#[inline]
fn fine_cut(b: &[u8], i: usize) -> bool {
    i > 0
        && matches!(b.get(i), Some(b',' | b'}' | b']'))
        && b.get(i - 1).is_some_and(u8::is_ascii_alphanumeric)
}

/// Whether counts add up across a cut before `rest` (which follows a line
/// break): its first character is not `/`, and before its first line break
/// it holds a character other than white space. Only spaces and tabs are
/// skipped, and only a printable ASCII character counts, to be safe.
fn cuts(rest: &[u8]) -> bool {
    if rest.first() == Some(&b'/') {
        return false;
    }
    rest.iter()
        .find(|&&b| b != b' ' && b != b'\t')
        .is_some_and(|&b| (0x21..=0x7e).contains(&b))
}

/// A hash of a segment's bytes under `key`: a multiply-rotate over words,
/// then a full mix of the result and the length, so that every bit of it
/// reaches the table's index.
#[inline]
fn hash(b: &[u8], key: u64) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = key;
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let tail = crate::bpe::short_word(words.remainder());
    h = (h.rotate_left(23) ^ tail).wrapping_mul(K);
    h ^= b.len() as u64;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;
    use crate::TokenizerKind;

    fn kinds() -> [&'static Tokenizer; 2] {
        [
            Tokenizer::get(TokenizerKind::O200k),
            Tokenizer::get(TokenizerKind::Cl100k),
        ]
    }

    /// Rows of digits at every indentation, alone and after their
    /// unindented copies: the memo's counts are the tokenizer's.
    #[test]
    fn indented_rows_of_digits_count_exactly() {
        for t in kinds() {
            for fine in [false, true] {
                let mut memo = if fine {
                    LineCounts::fine(t)
                } else {
                    LineCounts::new(t)
                };
                for n in 0..40 {
                    let pad = " ".repeat(n);
                    for row in [
                        "1,Elru,956.02",
                        "12 ab",
                        "3",
                        "4's",
                        "5\u{3000}x",
                        "6,\"q\"",
                    ] {
                        let unindented = format!("{row}\n");
                        let indented = format!("k:\n{pad}{row}\n{pad}{row}x\n");
                        assert_eq!(memo.count(&unindented), t.count(&unindented));
                        assert_eq!(memo.count(&indented), t.count(&indented), "{n} {row:?}");
                    }
                }
            }
        }
        assert_eq!(indent_digits(b"  12,a"), 2);
        assert_eq!(indent_digits(b"12,a"), 0);
        assert_eq!(indent_digits(b"  a"), 0);
        assert_eq!(indent_digits(b"   "), 0);
    }

    #[test]
    fn cuts_only_where_counts_add_up() {
        assert!(cuts(b"  1,Alice\n"));
        assert!(cuts(b"x"));
        assert!(!cuts(b"/x"));
        assert!(!cuts(b"   \n"));
        assert!(!cuts(b""));
        assert!(!cuts(b" \r\nx"));
        assert!(!cuts("\u{a0}x".as_bytes()));
        let text = "a:\n  b\n\n  c\n/d\ne";
        let mut ends = Vec::new();
        let mut p = 0;
        while p < text.len() {
            p = segment_end(text, p, false);
            ends.push(p);
        }
        // No cut before the blank line (it joins `  b`), nor before `/d`
        // (it joins `  c`).
        assert_eq!(ends, [3, 8, 15, text.len()]);
        // From anywhere, even inside a character, the next such cut.
        let text = "\u{e9}\u{e9}\n/x\ny\n";
        assert_eq!(cut_after(text, 1), 8);
        assert_eq!(cut_after(text, 3), 8);
        assert_eq!(cut_after(text, 8), text.len());
        assert_eq!(cut_after(text, 99), text.len());
    }

    /// A memo told not to remember counts exactly, finds what it
    /// remembered before, and grows by nothing.
    #[test]
    fn a_memo_that_does_not_remember_still_finds_what_it_did() {
        for t in kinds() {
            let mut memo = LineCounts::new(t);
            let rows: String = (0..2000).map(|i| format!("r{i},{}\n", i * 3)).collect();
            assert_eq!(memo.count(&rows), t.count(&rows));
            let held = (memo.records.len(), memo.arena.len());
            memo.remember(false);
            let more = format!("{rows}{}", "new,line\n".repeat(50));
            for text in [&more, &rows, &more] {
                assert_eq!(memo.count(text), t.count(text));
            }
            assert_eq!((memo.records.len(), memo.arena.len()), held);
            // Every row is found (a segment found goes on the path; one
            // counted afresh does not).
            let seen = memo.path.len();
            memo.count(&rows);
            assert_eq!(memo.path.len(), seen + 2000);
            memo.remember(true);
            memo.count(&more);
            assert!(memo.records.len() > held.0);
        }
    }

    /// A first text of distinct lines keeps all but its first [`SAMPLE`]
    /// segments out of the table; the variants after it are followed by
    /// the cursor, counted exactly; the first segment a later text looks up
    /// puts every record in the table, and lines in another order are then
    /// found by their hash. A first text whose lines repeat keeps its table
    /// whole, and so does a fine memo.
    #[test]
    fn a_first_text_of_distinct_lines_is_remembered_without_the_table() {
        for t in kinds() {
            let mut memo = LineCounts::new(t);
            let rows: Vec<String> = (0..3000).map(|i| format!("{i},n{},x\n", i * 7)).collect();
            let first = format!("%pith\nt[3000]{{a,b,c}}:\n{}", rows.concat());
            assert_eq!(memo.count(&first), t.count(&first));
            assert_eq!(memo.records.len(), 3002);
            assert_eq!(memo.hashes.len(), SAMPLE);
            // The first text again, then TOON's (no marker, the rows
            // indented): every segment followed, none looked up.
            let toon = format!("t[3000]{{a,b,c}}:\n  {}", rows.join("  "));
            for text in [&first, &toon] {
                let walked = memo.path.len();
                assert_eq!(memo.count(text), t.count(text));
                assert_eq!(memo.path.len(), walked + 3001 + usize::from(text == &first));
                assert_eq!(memo.hashes.len(), SAMPLE);
            }
            // A variant with a few rows changed: the first of them looked up
            // places every record.
            let mut edited = rows.clone();
            for i in (0..3000).step_by(500) {
                edited[i] = format!("{i},*ref{i},x\n");
            }
            let variant = format!("%pith\nt[3000]{{a,b,c}}:\n{}", edited.concat());
            assert_eq!(memo.count(&variant), t.count(&variant));
            assert_eq!(memo.records.len(), 3002 + 6);
            assert_eq!(memo.hashes.len(), 3008);
            let reversed: String = rows.iter().rev().map(String::as_str).collect();
            assert_eq!(memo.count(&reversed), t.count(&reversed));
            assert_eq!(memo.records.len(), 3008, "every row found by its hash");

            // Lines that repeat, in no order the cursor could follow: each
            // is looked up, most are found, and the table stays whole.
            let mut memo = LineCounts::new(t);
            // Ten rounds of the 300 lines, each in another order.
            let steps = [7, 11, 13, 17, 19, 23, 29, 31, 37, 41];
            let repeats: String = (0..3000)
                .map(|i| format!("{},n,x\n", (i % 300) * steps[i / 300] % 300))
                .collect();
            assert_eq!(memo.count(&repeats), t.count(&repeats));
            assert!(memo.sampled > 2 * SAMPLE);
            assert_eq!((memo.records.len(), memo.hashes.len()), (300, 300));
            let mut fine = LineCounts::fine(t);
            assert_eq!(fine.count(&first), t.count(&first));
            assert_eq!(fine.hashes.len(), fine.records.len());
        }
    }

    #[test]
    fn long_segments_and_crowded_tables_still_count_exactly() {
        for t in kinds() {
            let mut memo = LineCounts::new(t);
            let long = format!("{}\n{}", "word ".repeat(2000), "x");
            assert_eq!(memo.count(&long), t.count(&long));
            assert_eq!(memo.count_unless_over(&long, 10), None);
            assert_eq!(memo.count_unless_under(&long, 100_000), None);
            // Thousands of distinct lines: the table grows.
            let many: String = (0..5000).map(|i| format!("  {i},v{}\n", i * 7)).collect();
            assert_eq!(memo.count(&many), t.count(&many));
            assert_eq!(memo.count(&many), t.count(&many));
        }
    }

    /// Texts of many floor pieces (16 KiB each), counted under bounds all
    /// around their counts, fresh and as edited copies of texts counted
    /// before: over a bound only when the count is, and exact otherwise.
    #[test]
    fn long_texts_under_bounds_answer_exactly() {
        let line = |i: usize| match i % 8 {
            0 => format!("  {i},Elru it's,956.{i},true\n"),
            1 => format!("- id: {i}\n  name: \"x{i}\"\n"),
            2 => format!("{{\"a\":[{i},\"b\"],\"c\":\"\u{e9}\u{1}\"}}\n"),
            3 => format!("/path/{i}\n"),
            4 => format!("k{i}:\n    - {i}\n\n"),
            5 => format!("   \t{i} words, and more words\r\n"),
            6 => format!("\u{65e5}\u{672c} {i}!!\n"),
            // Many bytes a token: the bounds that read floors (under a
            // quarter of the bytes) then reach the count.
            _ => format!("{:>60}\n{:>40}international\n", "the", "\u{1f600}").repeat(3),
        };
        let text: String = (0..8000).map(line).collect();
        let edited: String = (0..8000)
            .map(|i| line(i * (1 + usize::from(i % 97 == 0))))
            .collect();
        // Fewer bytes a token: a bound over a quarter of the bytes reads
        // the floors of the rest once enough of the text has been
        // tokenized (a memo that has not met its lines).
        let dense: String = (0..8000).filter(|i| i % 8 != 7).map(line).collect();
        assert!(text.len() > 8 * (1 << 14));
        for t in kinds() {
            assert!(t.count(&text) < text.len() / 4);
            assert!(t.count(&dense) > dense.len() / 4);
            for fine in [false, true] {
                let mut memo = if fine {
                    LineCounts::fine(t)
                } else {
                    LineCounts::new(t)
                };
                for doc in [&text, &edited, &text, &dense, &edited, &dense] {
                    let n = t.count(doc);
                    let bounds = (0..=n + 2).step_by(n / 61 + 1).chain(n - 3..n + 3);
                    for hi in bounds {
                        let got = memo.count_unless_over(doc, hi);
                        assert_eq!(got, (n <= hi).then_some(n), "fine {fine}, {n} under {hi}");
                    }
                    assert_eq!(memo.count(doc), n);
                }
                let n = t.count(&dense);
                let quarter = dense.len() / 4;
                for hi in (quarter..n + 2)
                    .step_by((n - quarter) / 9 + 1)
                    .chain([n - 1, n])
                {
                    let mut fresh = if fine {
                        LineCounts::fine(t)
                    } else {
                        LineCounts::new(t)
                    };
                    let got = fresh.count_unless_over(&dense, hi);
                    assert_eq!(
                        got,
                        (n <= hi).then_some(n),
                        "fresh, fine {fine}, {n} under {hi}"
                    );
                }
            }
        }
    }
}

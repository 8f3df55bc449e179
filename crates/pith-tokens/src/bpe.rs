//! The vocabulary (token bytes ↔ rank) and byte-level BPE by rank.
//!
//! A piece is merged the way tiktoken merges it: start from single bytes,
//! and as long as some adjacent pair of parts joins into a token, join the
//! pair whose token has the lowest rank, the leftmost one on a tie. Short
//! pieces use a flat array (a few dozen bytes fit in cache and a linear scan
//! beats any bookkeeping); long ones a queue of candidate pairs by rank,
//! checked against the piece when they come up, which picks the same pair
//! at every step in O(n log n) (a binary heap, up to 64 KB) or near-linear
//! time (buckets per rank, beyond) instead of O(n²), so a 100 KB word costs
//! milliseconds and a 16 MB run of punctuation about a second.
//!
//! Text whose pieces are all new (base64, hashes, random identifiers) is
//! merged piece by piece, and there looking tokens up is most of the time:
//! two-byte pairs are read from a table of every two-byte token, the
//! vocabulary's hash table holds four bytes a slot, and which token two
//! tokens join into is remembered by their ranks ([`Joins`]).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// Pieces up to this many bytes merge with the flat array.
const FLAT_MAX: usize = 128;

/// "No token": the rank of a pair that does not join.
const NONE: u32 = u32::MAX;

/// An encoding's tokens, looked up by bytes or by rank.
pub(crate) struct Vocab {
    data: &'static [u8],
    /// Per rank: the token's offset in `data` (upper 24 bits) and length (lower 8).
    spans: Vec<u32>,
    /// Open addressing, at most half full: `hash tag << rank_bits | rank +
    /// 1`, 0 for an empty slot. Four bytes a slot keep the table of o200k
    /// at 2 MB, as much of it in cache as may be.
    slots: Vec<u32>,
    shift: u32,
    /// Bits of a slot that hold `rank + 1`; the rest hold the tag.
    rank_bits: u32,
    byte_rank: [u32; 256],
    /// The rank of every two-byte token, by its bytes (`b0 << 8 | b1`),
    /// [`NONE`] where there is none: a merge's first pass looks up each
    /// adjacent byte pair, and 256 KB answer it from cache.
    pair_rank: Box<[u32]>,
}

impl Vocab {
    /// Reads the compact format of `data/README.md`: `BPE1`, a little-endian
    /// u32 count, then per rank a length byte and the token's bytes.
    ///
    /// The data is compiled in, so it is not input: a malformed file stops
    /// the reading early and the unit tests, which pin the counts, fail.
    pub(crate) fn parse(data: &'static [u8]) -> Vocab {
        let declared = match data.get(..8) {
            Some([b'B', b'P', b'E', b'1', a, b, c, d]) => u32::from_le_bytes([*a, *b, *c, *d]),
            _ => 0,
        };
        let mut spans = Vec::with_capacity(declared as usize);
        let mut at = 8usize;
        while spans.len() < declared as usize {
            let Some(&len) = data.get(at) else { break };
            let start = at + 1;
            if len == 0 || start + usize::from(len) > data.len() || start >= 1 << 24 {
                break;
            }
            spans.push(((start as u32) << 8) | u32::from(len));
            at = start + usize::from(len);
        }
        let bits = (spans.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let rank_bits = 32 - (spans.len() as u32 + 1).leading_zeros();
        let mut vocab = Vocab {
            data,
            spans,
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
            rank_bits,
            byte_rank: [NONE; 256],
            pair_rank: vec![NONE; 1 << 16].into_boxed_slice(),
        };
        for rank in 0..vocab.spans.len() as u32 {
            let token = vocab.token(rank);
            match token {
                [b] => vocab.byte_rank[usize::from(*b)] = rank,
                [a, b] => vocab.pair_rank[usize::from(*a) << 8 | usize::from(*b)] = rank,
                _ => {}
            }
            vocab.insert(token, rank);
        }
        vocab
    }

    /// How many tokens the vocabulary has.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The bytes of the token with this rank (empty if there is none).
    pub(crate) fn token(&self, rank: u32) -> &'static [u8] {
        let data = self.data;
        match self.spans.get(rank as usize) {
            Some(&span) => {
                let start = (span >> 8) as usize;
                data.get(start..start + (span & 0xff) as usize)
                    .unwrap_or(&[])
            }
            None => &[],
        }
    }

    /// The length of the token with this rank (0 if there is none).
    #[inline]
    fn token_len(&self, rank: u32) -> usize {
        self.spans
            .get(rank as usize)
            .map_or(0, |&span| (span & 0xff) as usize)
    }

    /// The rank of the token spelled by exactly these bytes.
    #[inline]
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<u32> {
        let rank = match bytes {
            [b] => self.byte_rank[usize::from(*b)],
            [a, b] => self.pair_rank[usize::from(*a) << 8 | usize::from(*b)],
            _ => return self.rank_long(bytes),
        };
        (rank != NONE).then_some(rank)
    }

    /// [`Self::rank`] of three bytes or more (or none): by hash.
    fn rank_long(&self, bytes: &[u8]) -> Option<u32> {
        let h = hash(bytes);
        let tag = self.tag(h);
        let ranks = (1u32 << self.rank_bits).wrapping_sub(1);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        // The table is at most half full, so an empty slot ends every probe
        // long before the bound.
        for _ in 0..self.slots.len() {
            let slot = *self.slots.get(i)?;
            if slot == 0 {
                return None;
            }
            if slot & !ranks == tag {
                let rank = (slot & ranks).wrapping_sub(1);
                if self.token(rank) == bytes {
                    return Some(rank);
                }
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The tag bits of a slot for hash `h` (its low bits; the slot is
    /// told by its high ones).
    #[inline]
    fn tag(&self, h: u64) -> u32 {
        (h as u32).checked_shl(self.rank_bits).unwrap_or(0)
    }

    fn insert(&mut self, bytes: &[u8], rank: u32) {
        let h = hash(bytes);
        let entry = self.tag(h) | (rank + 1);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        for _ in 0..self.slots.len() {
            match self.slots.get_mut(i) {
                Some(slot) if *slot == 0 => {
                    *slot = entry;
                    return;
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The rank of `bytes[a..b]`, or [`NONE`].
    #[inline]
    fn pair_rank(&self, bytes: &[u8], a: usize, b: usize) -> u32 {
        match bytes.get(a..b) {
            Some(slice) => self.rank(slice).unwrap_or(NONE),
            None => NONE,
        }
    }

    /// Splits a piece (which is not itself a token) into its tokens: on
    /// return `bounds` holds the start of each token and then the piece's
    /// length. `scratch` is reused between calls to avoid allocation.
    pub(crate) fn merge(&self, piece: &[u8], bounds: &mut Vec<usize>, scratch: &mut Scratch) {
        bounds.clear();
        if piece.len() <= FLAT_MAX {
            self.merge_flat(piece, bounds, scratch);
        } else if piece.len() <= HEAP_MAX {
            let Scratch {
                parts,
                len,
                heap,
                joins,
                ..
            } = scratch;
            self.merge_long(piece, bounds, (len, parts, joins), heap);
        } else {
            let Scratch {
                parts, len, joins, ..
            } = scratch;
            // A long piece's buffers are not kept for the next one (the
            // joins are).
            self.merge_long(
                piece,
                bounds,
                (len, parts, joins),
                &mut RankQueue::default(),
            );
            *len = Vec::new();
            *parts = Vec::new();
        }
    }

    /// The rank of the token that parts `left` (the bytes `piece[a..mid]`)
    /// and `right` (`piece[mid..b]`) join into, or [`NONE`]: from `joins`
    /// when these two tokens were looked up before, else by the bytes.
    #[inline]
    fn join(
        &self,
        piece: &[u8],
        a: usize,
        b: usize,
        left: u32,
        right: u32,
        joins: &mut Joins,
    ) -> u32 {
        // Two bytes are read from a table anyway; and a rank too wide for
        // an entry (no compiled-in vocabulary has one) is not remembered.
        if b - a == 2 || self.spans.len() as u64 >= JOIN_NONE {
            return self.pair_rank(piece, a, b);
        }
        joins.get(left, right, || self.pair_rank(piece, a, b))
    }

    fn merge_flat(&self, piece: &[u8], bounds: &mut Vec<usize>, scratch: &mut Scratch) {
        let n = piece.len();
        let Scratch {
            ranks,
            parts,
            joins,
            ..
        } = scratch;
        bounds.extend(0..=n);
        // parts[k]: the rank of part k, piece[bounds[k]..bounds[k + 1]];
        // ranks[k]: the rank of parts k and k+1 joined, or NONE.
        parts.clear();
        parts.extend(piece.iter().map(|&b| self.byte_rank[usize::from(b)]));
        ranks.clear();
        ranks.extend((0..n.saturating_sub(1)).map(|k| self.pair_rank(piece, k, k + 2)));
        loop {
            // The lowest rank, then its first place: two passes that
            // vectorise, where one keeping both is a chain of dependent
            // selects.
            let best = ranks.iter().copied().min().unwrap_or(NONE);
            if best == NONE {
                break;
            }
            let at = ranks.iter().position(|&r| r == best).unwrap_or(0);
            bounds.remove(at + 1);
            ranks.remove(at);
            parts.remove(at + 1);
            parts[at] = best;
            if at < ranks.len() {
                ranks[at] = match (bounds.get(at), bounds.get(at + 2)) {
                    (Some(&a), Some(&b)) => self.join(piece, a, b, best, parts[at + 1], joins),
                    _ => NONE,
                };
            }
            if at > 0 {
                ranks[at - 1] = match (bounds.get(at - 1), bounds.get(at + 1)) {
                    (Some(&a), Some(&b)) => self.join(piece, a, b, parts[at - 1], best, joins),
                    _ => NONE,
                };
            }
        }
    }

    /// Long pieces: parts are kept as one length byte per byte of the
    /// piece (a part's length at its start, 0 inside it: no token is longer
    /// than 255 bytes) and the part's rank at its start, and candidate
    /// pairs wait in `queue` by rank and start. A popped pair is
    /// checked against the piece as it stands now (its part still starts
    /// there and the pair still spans the token's length: parts only grow,
    /// so it then still spells the token), so stale entries need no
    /// bookkeeping. The part before a merged one is found by stepping back
    /// over the bytes of one token. Memory is about 9 bytes per byte of the
    /// piece (13 in a [`PairHeap`]).
    fn merge_long(
        &self,
        piece: &[u8],
        bounds: &mut Vec<usize>,
        (len, parts, joins): (&mut Vec<u8>, &mut Vec<u32>, &mut Joins),
        queue: &mut impl PairQueue,
    ) {
        let n = piece.len();
        len.clear();
        len.resize(n, 1);
        parts.clear();
        parts.extend(piece.iter().map(|&b| self.byte_rank[usize::from(b)]));
        queue.clear();
        for k in 0..n.saturating_sub(1) {
            let rank = self.pair_rank(piece, k, k + 2);
            if rank != NONE {
                queue.push(rank, k);
            }
        }
        while let Some((rank, at)) = queue.pop() {
            let a = usize::from(len[at]);
            if a == 0 || at + a >= n {
                continue;
            }
            let absorbed = at + a;
            let end = absorbed + usize::from(len[absorbed]);
            if end - at != self.token_len(rank) {
                continue;
            }
            // A token: at most 255 bytes.
            len[at] = u8::try_from(end - at).unwrap_or(u8::MAX);
            len[absorbed] = 0;
            parts[at] = rank;
            if end < n {
                let after = end + usize::from(len[end]);
                let joined = self.join(piece, at, after, rank, parts[end], joins);
                if joined != NONE {
                    queue.push(joined, at);
                }
            }
            if at > 0 {
                let mut before = at - 1;
                while before > 0 && len[before] == 0 {
                    before -= 1;
                }
                let joined = self.join(piece, before, end, parts[before], rank, joins);
                if joined != NONE {
                    queue.push(joined, before);
                }
            }
        }
        let mut at = 0;
        while at < n {
            bounds.push(at);
            at += usize::from(len[at]).max(1);
        }
        bounds.push(n);
    }
}

/// Pieces longer than [`FLAT_MAX`] and up to this many bytes wait in a
/// [`PairHeap`]; longer ones in a [`RankQueue`], and their buffers are
/// freed after use.
const HEAP_MAX: usize = 1 << 16;

/// Buffers [`Vocab::merge`] reuses between pieces, and the joins it has
/// looked up: one per vocabulary.
#[derive(Default)]
pub(crate) struct Scratch {
    ranks: Vec<u32>,
    parts: Vec<u32>,
    len: Vec<u8>,
    heap: PairHeap,
    joins: Joins,
}

/// Slots of [`Joins`].
const JOIN_SLOTS: usize = 1 << 15;
/// The bits of a rank in a [`Joins`] entry: every rank and [`JOIN_NONE`]
/// are below `1 << JOIN_BITS`.
const JOIN_BITS: u32 = 20;
/// "No token" in a [`Joins`] entry.
const JOIN_NONE: u64 = (1 << JOIN_BITS) - 1;

/// Which token two tokens join into, by their ranks, for the pairs looked
/// up lately: a direct-mapped table of 256 KB. The same two tokens meet
/// again and again in text whose pieces are all new (random words, base64,
/// hashes), and a hit costs one load where looking the bytes up costs a
/// hash and a probe of the vocabulary's megabytes.
///
/// An entry holds the two ranks and the answer (`left << 40 | right << 20
/// | joined`, [`JOIN_NONE`] for none) with the top bit set; 0 is empty.
#[derive(Default)]
pub(crate) struct Joins {
    slots: Vec<u64>,
}

impl Joins {
    /// The answer for `left` then `right`, from the table or from `look_up`
    /// (which is then remembered).
    #[inline]
    fn get(&mut self, left: u32, right: u32, look_up: impl FnOnce() -> u32) -> u32 {
        if self.slots.is_empty() {
            self.slots = vec![0; JOIN_SLOTS];
        }
        let key = 1 << 63 | u64::from(left) << (2 * JOIN_BITS) | u64::from(right) << JOIN_BITS;
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - JOIN_SLOTS.trailing_zeros()))
            as usize;
        if let Some(&entry) = self.slots.get(slot)
            && entry & !JOIN_NONE == key
        {
            let joined = entry & JOIN_NONE;
            return if joined == JOIN_NONE {
                NONE
            } else {
                joined as u32
            };
        }
        let joined = look_up();
        let value = if joined == NONE {
            JOIN_NONE
        } else {
            u64::from(joined)
        };
        if let Some(entry) = self.slots.get_mut(slot) {
            *entry = key | value;
        }
        joined
    }
}

/// Candidate pairs of a long piece, given back the lowest rank first and
/// the leftmost start on a tie.
trait PairQueue {
    fn clear(&mut self);
    fn push(&mut self, rank: u32, at: usize);
    fn pop(&mut self) -> Option<(u32, usize)>;
}

/// [`PairQueue`] for pieces of up to [`HEAP_MAX`] bytes: one binary heap
/// of `rank << 32 | start`, which stays in cache.
#[derive(Default)]
struct PairHeap {
    heap: BinaryHeap<Reverse<u64>>,
}

impl PairQueue for PairHeap {
    fn clear(&mut self) {
        self.heap.clear();
    }

    fn push(&mut self, rank: u32, at: usize) {
        // Pieces in a heap are short.
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        self.heap
            .push(Reverse(u64::from(rank) << 32 | u64::from(at)));
    }

    fn pop(&mut self) -> Option<(u32, usize)> {
        let Reverse(key) = self.heap.pop()?;
        Some(((key >> 32) as u32, (key & 0xffff_ffff) as usize))
    }
}

/// [`PairQueue`] for longer pieces, whose heap would be megabytes read out
/// of order. Positions wait in one bucket per rank, a queue while they
/// arrive in order (the first pass pushes them so), a heap from the first
/// one out of order; the ranks with a bucket wait in a heap of their own,
/// which holds few of them.
#[derive(Default)]
struct RankQueue {
    buckets: HashMap<u32, Bucket, BuildHasherDefault<RankHasher>>,
    ranks: BinaryHeap<Reverse<u32>>,
}

enum Bucket {
    InOrder(VecDeque<u32>),
    Heap(BinaryHeap<Reverse<u32>>),
}

impl PairQueue for RankQueue {
    fn clear(&mut self) {
        self.buckets.clear();
        self.ranks.clear();
    }

    fn push(&mut self, rank: u32, at: usize) {
        // Pieces are bounded by the input, which the reader holds in memory.
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        let ranks = &mut self.ranks;
        let bucket = self.buckets.entry(rank).or_insert_with(|| {
            ranks.push(Reverse(rank));
            Bucket::InOrder(VecDeque::new())
        });
        match bucket {
            Bucket::InOrder(q) if q.back().is_none_or(|&last| last <= at) => q.push_back(at),
            Bucket::InOrder(q) => {
                let mut heap: BinaryHeap<Reverse<u32>> = q.drain(..).map(Reverse).collect();
                heap.push(Reverse(at));
                *bucket = Bucket::Heap(heap);
            }
            Bucket::Heap(h) => h.push(Reverse(at)),
        }
    }

    fn pop(&mut self) -> Option<(u32, usize)> {
        loop {
            let &Reverse(rank) = self.ranks.peek()?;
            let at = match self.buckets.get_mut(&rank) {
                Some(Bucket::InOrder(q)) => q.pop_front(),
                Some(Bucket::Heap(h)) => h.pop().map(|Reverse(at)| at),
                None => None,
            };
            match at {
                Some(at) => return Some((rank, at as usize)),
                None => {
                    self.ranks.pop();
                    self.buckets.remove(&rank);
                }
            }
        }
    }
}

/// Hashes a rank by one multiplication, which spreads consecutive ranks
/// over the table's top and bottom bits alike.
#[derive(Default)]
struct RankHasher(u64);

impl Hasher for RankHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The 1 to 7 bytes of a short string as one word that tells them apart
/// from any other bytes of their length (a hash mixes the length in): two
/// overlapping 4-byte loads, or the first, middle and last byte; 0 for no
/// bytes. For hashers that fold a string in by words: copying its last
/// bytes into a zeroed word instead stalls the word's load behind the
/// copy's byte stores, once per string hashed.
#[inline]
pub fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        (Some(lo), Some(hi)) => {
            u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << 32
        }
        _ => match (bytes.first(), bytes.get(n / 2), bytes.last()) {
            (Some(&a), Some(&b), Some(&c)) => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16,
            _ => 0,
        },
    }
}

/// A 64-bit hash of a short byte string: words folded in by multiply and
/// rotate, then a full avalanche, so both the top bits (the slot) and the
/// upper half (the tag) are well mixed.
#[inline]
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        h = (h ^ short_word(rest)).wrapping_mul(K).rotate_left(29);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of 1 to 7 bytes (over a small alphabet) of one length
    /// has its own tail word: no byte is left out.
    #[test]
    fn short_words_tell_short_strings_apart() {
        let alphabet = [b'a', b'b', 0, 0xff];
        for len in 1..=7u32 {
            let mut seen = std::collections::HashSet::new();
            for i in 0..alphabet.len().pow(len) {
                let bytes: Vec<u8> = (0..len)
                    .map(|d| alphabet[i / alphabet.len().pow(d) % alphabet.len()])
                    .collect();
                assert!(seen.insert(short_word(&bytes)), "{bytes:?}");
            }
        }
    }

    /// A toy vocabulary: all bytes, then merges that make ties and chains.
    fn toy() -> Vocab {
        let mut data = b"BPE1".to_vec();
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        for t in ["aa", "aaa", "aaaa", "ab", "bc", "abc", "bcd", "cd"] {
            tokens.push(t.as_bytes().to_vec());
        }
        data.extend((tokens.len() as u32).to_le_bytes());
        for t in &tokens {
            data.push(t.len() as u8);
            data.extend(t);
        }
        Vocab::parse(Box::leak(data.into_boxed_slice()))
    }

    /// Which of the merge's ways to split a piece by.
    #[derive(Clone, Copy, Debug)]
    enum Way {
        Flat,
        Heap,
        Buckets,
    }
    const WAYS: [Way; 3] = [Way::Flat, Way::Heap, Way::Buckets];

    fn split(v: &Vocab, piece: &[u8], way: Way) -> Vec<Vec<u8>> {
        split_with(v, piece, way, &mut Scratch::default())
    }

    fn split_with(v: &Vocab, piece: &[u8], way: Way, scratch: &mut Scratch) -> Vec<Vec<u8>> {
        let mut bounds = Vec::new();
        match way {
            Way::Flat => v.merge_flat(piece, &mut bounds, scratch),
            Way::Heap | Way::Buckets => {
                let Scratch {
                    parts, len, joins, ..
                } = scratch;
                let buffers = (len, parts, joins);
                match way {
                    Way::Heap => {
                        v.merge_long(piece, &mut bounds, buffers, &mut PairHeap::default())
                    }
                    _ => v.merge_long(piece, &mut bounds, buffers, &mut RankQueue::default()),
                }
            }
        }
        bounds
            .windows(2)
            .map(|w| piece[w[0]..w[1]].to_vec())
            .collect()
    }

    #[test]
    fn lowest_rank_first_leftmost_on_ties() {
        let v = toy();
        for way in WAYS {
            // aa (256) leftmost, then the next aa, then aaa (257) = a+aa,
            // which leaves aa+aaa with no token.
            let parts = split(&v, b"aaaaa", way);
            assert_eq!(parts, vec![b"aa".to_vec(), b"aaa".to_vec()], "{way:?}");
            // ab (259) before bc (260); then abc (261) joins ab+c.
            let parts = split(&v, b"abcd", way);
            assert_eq!(parts, vec![b"abc".to_vec(), b"d".to_vec()], "{way:?}");
            let parts = split(&v, b"xbcd", way);
            assert_eq!(parts, vec![b"x".to_vec(), b"bcd".to_vec()], "{way:?}");
        }
    }

    #[test]
    fn every_way_agrees() {
        let v = toy();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 2..300 {
            let piece = noise(&mut x, len, b"abcdx");
            let flat = split(&v, &piece, Way::Flat);
            assert_eq!(split(&v, &piece, Way::Heap), flat, "{len}");
            assert_eq!(split(&v, &piece, Way::Buckets), flat, "{len}");
        }
    }

    /// `len` bytes of `alphabet` picked by a xorshift stream at `x`.
    fn noise(x: &mut u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *x ^= *x << 13;
                *x ^= *x >> 7;
                *x ^= *x << 17;
                alphabet[(*x % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    /// tiktoken's merge loop as plainly as it can be written: every step
    /// looks every adjacent pair up by its bytes.
    fn split_plainly(v: &Vocab, piece: &[u8]) -> Vec<Vec<u8>> {
        let mut parts: Vec<Vec<u8>> = piece.iter().map(|&b| vec![b]).collect();
        loop {
            let best = (0..parts.len().saturating_sub(1))
                .filter_map(|k| {
                    v.rank(&[&parts[k][..], &parts[k + 1][..]].concat())
                        .map(|r| (r, k))
                })
                .min();
            let Some((_, k)) = best else {
                return parts;
            };
            let right = parts.remove(k + 1);
            parts[k].extend(right);
        }
    }

    /// One scratch for many pieces, as a thread counts them: the joins
    /// remembered from earlier pieces answer for later ones, and every way
    /// still splits every piece as the plain loop does.
    #[test]
    fn remembered_joins_split_as_the_plain_loop() {
        let v = toy();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut scratches = [Scratch::default(), Scratch::default(), Scratch::default()];
        for len in (2..700).step_by(3) {
            let piece = noise(&mut x, len, b"aabcdx");
            let plain = split_plainly(&v, &piece);
            for (way, scratch) in WAYS.into_iter().zip(&mut scratches) {
                assert_eq!(split_with(&v, &piece, way, scratch), plain, "{way:?} {len}");
            }
        }
    }

    #[test]
    fn lookups() {
        let v = toy();
        assert_eq!(v.len(), 264);
        assert_eq!(v.rank(b"a"), Some(97));
        assert_eq!(v.rank(b"bcd"), Some(262));
        assert_eq!(v.rank(b"dcb"), None);
        assert_eq!(v.rank(b"ab"), Some(259));
        assert_eq!(v.rank(b"ba"), None);
        assert_eq!(v.rank(b""), None);
        assert_eq!(v.token(262), b"bcd");
        assert_eq!(v.token(9999), b"");
    }
}

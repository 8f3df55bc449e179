//! The vocabulary (token bytes ↔ rank) and byte-level BPE by rank.
//!
//! A piece is merged the way tiktoken merges it: start from single bytes,
//! and as long as some adjacent pair of parts joins into a token, join the
//! pair whose token has the lowest rank, the leftmost one on a tie. Short
//! pieces use a flat array (a few dozen bytes fit in cache and a linear scan
//! beats any bookkeeping); long ones a queue of candidate pairs by rank,
//! checked against the piece when they come up, which picks the same pair
//! at every step in near-linear time and about 5 bytes per byte instead of
//! O(n²), so a 100 KB word costs milliseconds and a 16 MB run of
//! punctuation seconds.

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
    /// Open addressing: `hash tag << 32 | rank + 1`, 0 for an empty slot.
    slots: Vec<u64>,
    shift: u32,
    byte_rank: [u32; 256],
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
        let mut vocab = Vocab {
            data,
            spans,
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
            byte_rank: [NONE; 256],
        };
        for rank in 0..vocab.spans.len() as u32 {
            let token = vocab.token(rank);
            if let [b] = token {
                vocab.byte_rank[usize::from(*b)] = rank;
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

    /// The rank of the token spelled by exactly these bytes.
    #[inline]
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if let [b] = bytes {
            let rank = self.byte_rank[usize::from(*b)];
            return (rank != NONE).then_some(rank);
        }
        let h = hash(bytes);
        let tag = h & 0xffff_ffff_0000_0000;
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        // The table is at most half full, so an empty slot ends every probe
        // long before the bound.
        for _ in 0..self.slots.len() {
            let slot = *self.slots.get(i)?;
            if slot == 0 {
                return None;
            }
            if slot & 0xffff_ffff_0000_0000 == tag {
                let rank = (slot as u32).wrapping_sub(1);
                if self.token(rank) == bytes {
                    return Some(rank);
                }
            }
            i = (i + 1) & mask;
        }
        None
    }

    fn insert(&mut self, bytes: &[u8], rank: u32) {
        let h = hash(bytes);
        let entry = (h & 0xffff_ffff_0000_0000) | u64::from(rank + 1);
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
            self.merge_flat(piece, bounds, &mut scratch.ranks);
        } else {
            self.merge_long(piece, bounds, scratch);
        }
    }

    fn merge_flat(&self, piece: &[u8], bounds: &mut Vec<usize>, ranks: &mut Vec<u32>) {
        let n = piece.len();
        bounds.extend(0..=n);
        // ranks[k]: the rank of parts k and k+1 joined, i.e. of
        // piece[bounds[k]..bounds[k + 2]].
        ranks.clear();
        ranks.extend((0..n.saturating_sub(1)).map(|k| self.pair_rank(piece, k, k + 2)));
        loop {
            let mut best = NONE;
            let mut at = 0;
            for (k, &rank) in ranks.iter().enumerate() {
                if rank < best {
                    best = rank;
                    at = k;
                }
            }
            if best == NONE {
                break;
            }
            bounds.remove(at + 1);
            ranks.remove(at);
            if at < ranks.len() {
                ranks[at] = match (bounds.get(at), bounds.get(at + 2)) {
                    (Some(&a), Some(&b)) => self.pair_rank(piece, a, b),
                    _ => NONE,
                };
            }
            if at > 0 {
                ranks[at - 1] = match (bounds.get(at - 1), bounds.get(at + 1)) {
                    (Some(&a), Some(&b)) => self.pair_rank(piece, a, b),
                    _ => NONE,
                };
            }
        }
    }

    /// Long pieces: parts are kept as one length byte per byte of the
    /// piece (a part's length at its start, 0 inside it: no token is longer
    /// than 255 bytes), and candidate pairs wait in [`RankQueue`] by rank
    /// and start. A popped pair is checked against the piece as it stands
    /// now (its part still starts there and the pair still spells the
    /// token), so stale entries need no bookkeeping. The part before a
    /// merged one is found by stepping back over the bytes of one token.
    /// Memory is about 5 bytes per byte of the piece; time is linear but for
    /// the ordering of positions within a rank, which arrive in order
    /// nearly always.
    fn merge_long(&self, piece: &[u8], bounds: &mut Vec<usize>, scratch: &mut Scratch) {
        let n = piece.len();
        let len = &mut scratch.len;
        len.clear();
        len.resize(n, 1);
        let queue = &mut scratch.queue;
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
            if self.pair_rank(piece, at, end) != rank {
                continue;
            }
            // A token: at most 255 bytes.
            len[at] = u8::try_from(end - at).unwrap_or(u8::MAX);
            len[absorbed] = 0;
            if end < n {
                let after = end + usize::from(len[end]);
                let joined = self.pair_rank(piece, at, after);
                if joined != NONE {
                    queue.push(joined, at);
                }
            }
            if at > 0 {
                let mut before = at - 1;
                while before > 0 && len[before] == 0 {
                    before -= 1;
                }
                let joined = self.pair_rank(piece, before, end);
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
        // A long piece's buffers are not kept for the next one.
        if n > RETAIN_MAX {
            *scratch = Scratch::default();
        }
    }
}

/// Scratch buffers for pieces longer than this are freed after use.
const RETAIN_MAX: usize = 1 << 16;

/// Buffers [`Vocab::merge`] reuses between pieces.
#[derive(Default)]
pub(crate) struct Scratch {
    ranks: Vec<u32>,
    len: Vec<u8>,
    queue: RankQueue,
}

/// Candidate pairs of a long piece: the lowest rank first, the leftmost
/// start on a tie. Positions wait in one bucket per rank, a queue while
/// they arrive in order (the first pass pushes them so), a heap from the
/// first one out of order; the ranks with a bucket wait in a heap of their
/// own, which holds few of them.
#[derive(Default)]
struct RankQueue {
    buckets: HashMap<u32, Bucket, BuildHasherDefault<RankHasher>>,
    ranks: BinaryHeap<Reverse<u32>>,
}

enum Bucket {
    InOrder(VecDeque<u32>),
    Heap(BinaryHeap<Reverse<u32>>),
}

impl RankQueue {
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
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
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

    fn split(v: &Vocab, piece: &[u8], heap: bool) -> Vec<Vec<u8>> {
        let mut bounds = Vec::new();
        let mut scratch = Scratch::default();
        if heap {
            v.merge_long(piece, &mut bounds, &mut scratch);
        } else {
            v.merge_flat(piece, &mut bounds, &mut scratch.ranks);
        }
        bounds
            .windows(2)
            .map(|w| piece[w[0]..w[1]].to_vec())
            .collect()
    }

    #[test]
    fn lowest_rank_first_leftmost_on_ties() {
        let v = toy();
        for heap in [false, true] {
            // aa (256) leftmost, then the next aa, then aaa (257) = a+aa,
            // which leaves aa+aaa with no token.
            let parts = split(&v, b"aaaaa", heap);
            assert_eq!(parts, vec![b"aa".to_vec(), b"aaa".to_vec()], "heap={heap}");
            // ab (259) before bc (260); then abc (261) joins ab+c.
            let parts = split(&v, b"abcd", heap);
            assert_eq!(parts, vec![b"abc".to_vec(), b"d".to_vec()], "heap={heap}");
            let parts = split(&v, b"xbcd", heap);
            assert_eq!(parts, vec![b"x".to_vec(), b"bcd".to_vec()], "heap={heap}");
        }
    }

    #[test]
    fn flat_and_heap_agree() {
        let v = toy();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 2..300 {
            let piece: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b"abcdx"[(x % 5) as usize]
                })
                .collect();
            assert_eq!(split(&v, &piece, false), split(&v, &piece, true), "{len}");
        }
    }

    #[test]
    fn lookups() {
        let v = toy();
        assert_eq!(v.len(), 264);
        assert_eq!(v.rank(b"a"), Some(97));
        assert_eq!(v.rank(b"bcd"), Some(262));
        assert_eq!(v.rank(b"dcb"), None);
        assert_eq!(v.rank(b""), None);
        assert_eq!(v.token(262), b"bcd");
        assert_eq!(v.token(9999), b"");
    }
}

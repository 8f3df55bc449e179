//! A floor under a text's token count, read off its bytes.
//!
//! o200k_base and cl100k_base both cut text into pieces by a pattern and
//! encode each piece into one token or more, so tokens ≥ pieces. In both, a
//! piece holding a letter is an optional single character that is neither
//! letter nor digit followed by letters (o200k may add a contraction such
//! as `'s`); a piece holding a digit holds one to three digits and nothing
//! else; a piece of punctuation holds an optional space and characters that
//! are neither letters, digits nor white space (and may take line breaks,
//! in o200k also `/`, after them). *Joiners* — `'`, non-ASCII bytes and
//! control characters other than tab and line break — may continue a word
//! or join pieces, so runs that touch one are not counted. No piece holds
//! parts of two runs counted apart, so their count is a floor. `auto` asks
//! it of a text before counting it, when one comparison may be settled
//! without the tokenizer.

/// A floor under the o200k_base and cl100k_base token count of any text,
/// by the piece rules above read off its bytes, without a
/// tokenizer and without a branch per byte (it scans a megabyte in about a
/// millisecond). Slightly below the rules' count, to stay that cheap:
///
/// * every run of letters, of digits, or of punctuation of two or more
///   characters (or of one not before a letter) counts one piece, at its
///   last character, unless a joiner follows it; a run of digits counts
///   one, however long;
/// * every joiner before such a run takes one off (the run after it may
///   be part of its piece).
///
/// A line break is white space here (it prefixes no word, and a piece of
/// punctuation that takes it in stays one piece), except before `/`, which
/// o200k's punctuation piece may take in too: there it is a joiner. A tab
/// is white space; every other control character a joiner.
///
/// The text is read 64 bytes at a time: each block becomes one bit mask
/// per kind of character (letter, digit, punctuation, joiner; white space
/// is none of them), and a character's share, which depends only on the
/// kinds before it, at it and after it, is worked out for the whole block
/// at once from the masks and their neighbours' bits.
pub fn text_floor(text: &str) -> usize {
    let mut total = 0;
    each_block_share(text.as_bytes(), |share| total += share);
    usize::try_from(total).unwrap_or(0)
}

/// Calls `f` with the sum of the shares of each 64-byte block of `bytes`
/// in turn (a last, shorter block padded with white space), as
/// [`text_floor`] reads them.
#[inline]
fn each_block_share(bytes: &[u8], mut f: impl FnMut(isize)) {
    let blocks = bytes.chunks_exact(BLOCK);
    let tail = blocks.remainder();
    let mut padded = [b' '; BLOCK];
    padded[..tail.len()].copy_from_slice(tail);
    let full = blocks.map(|b| <&[u8; BLOCK]>::try_from(b).expect("a whole block"));
    // The text is followed by white space: a block of it when the text
    // ends on a block's end (it adds nothing of its own), else the padding.
    let mut kinds = full
        .chain((!tail.is_empty()).then_some(&padded))
        .map(Kinds::of)
        .chain(std::iter::once(Kinds::default()));
    let Some(mut here) = kinds.next() else {
        return;
    };
    // Whether the last character of the block before is punctuation
    // (white space before the text).
    let mut punct_before = 0;
    for next in kinds {
        here.settle_line_breaks(&next);
        f(here.shares(&next, punct_before));
        punct_before = here.punct >> (BLOCK - 1);
        here = next;
    }
}

/// Floors under the token count of what is left of a text from any of its
/// piece boundaries on, read off its bytes once.
///
/// From a piece boundary `p` on, the pieces are those of `text[p..]` on its
/// own, so their count is at least `text_floor(&text[p..])`. Every
/// character's share in [`text_floor`] depends only on the kinds of the
/// characters before it, at it and after it, and is -1, 0 or 1; in
/// `text[p..]` alone only the first character has another one before it
/// (none), which can only take its share from 1 to 0 (a lone punctuation
/// mark before a letter). So the floor of the rest is at least the shares
/// of the characters from `p` on as the whole text reads them, less one;
/// and those are the whole text's shares less the blocks' before `p`'s, less
/// at most one for each character of `p`'s block before it.
pub(crate) struct RestFloors {
    /// Per block: the sum of the shares of the blocks before it.
    before: Vec<isize>,
    /// The sum of every block's shares.
    total: isize,
}

impl RestFloors {
    /// The shares of `bytes`' blocks, summed (one pass of [`text_floor`],
    /// read whole: a share may be -1, so a sum read part way tells
    /// nothing of the whole's).
    pub(crate) fn new(bytes: &[u8]) -> RestFloors {
        let mut before = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut total = 0;
        each_block_share(bytes, |share| {
            before.push(total);
            total += share;
        });
        RestFloors { before, total }
    }

    /// A floor under the token count of the text from piece boundary `p`
    /// on (see the type's docs).
    #[inline]
    pub(crate) fn at(&self, p: usize) -> usize {
        let Some(&before) = self.before.get(p / BLOCK) else {
            return 0;
        };
        // At most one a character: the block's characters before `p`.
        let ahead = (p % BLOCK) as isize;
        usize::try_from(self.total - before - ahead - 1).unwrap_or(0)
    }
}

/// Bytes per block of [`text_floor`]: one bit each in a `u64`.
const BLOCK: usize = 64;

/// The kinds of a block's characters, one bit per byte (bit `i` for byte
/// `i`); a byte in none of the masks is white space.
#[derive(Default, Clone, Copy)]
struct Kinds {
    letter: u64,
    digit: u64,
    punct: u64,
    joiner: u64,
    /// Line breaks (white space, or joiners before `/`) and slashes: what
    /// [`Kinds::settle_line_breaks`] needs.
    line_break: u64,
    slash: u64,
}

impl Kinds {
    /// Every byte's kind, a line break counted as white space.
    #[inline]
    fn of(block: &[u8; BLOCK]) -> Kinds {
        // One flag byte per character and kind (a loop that compiles to
        // whole-vector compares), then packed to bits, one multiply per
        // eight flags.
        let mut flags = [[0u8; BLOCK]; 6];
        for (i, &c) in block.iter().enumerate() {
            let letter = (c | 0x20).wrapping_sub(b'a') < 26;
            let digit = c.wrapping_sub(b'0') < 10;
            // `!` to DEL: printable ASCII and DEL.
            let visible = c.wrapping_sub(0x21) < 0x5f;
            flags[0][i] = u8::from(letter);
            flags[1][i] = u8::from(digit);
            flags[2][i] = u8::from(visible & !letter & !digit & (c != b'\''));
            flags[3][i] = u8::from((c == b' ') | (c == b'\t') | (c == b'\n'));
            flags[4][i] = u8::from(c == b'\n');
            flags[5][i] = u8::from(c == b'/');
        }
        let [letter, digit, punct, space, line_break, slash] = flags.map(|f| pack(&f));
        Kinds {
            letter,
            digit,
            punct,
            joiner: !(letter | digit | punct | space),
            line_break,
            slash,
        }
    }

    /// Makes a joiner of every line break before a `/` (the next block
    /// holds the character after the last one).
    #[inline]
    fn settle_line_breaks(&mut self, next: &Kinds) {
        let slash_after = (self.slash >> 1) | (next.slash << (BLOCK - 1));
        self.joiner |= self.line_break & slash_after;
    }

    /// The sum of the block's characters' shares: a piece where a run ends,
    /// less one for a joiner before a run (see [`text_floor`]). `next`'s
    /// line breaks are not settled yet: its first character's is settled
    /// here.
    #[inline]
    fn shares(&self, next: &Kinds, punct_before: u64) -> isize {
        let first_joins = (next.line_break & (next.slash >> 1)) & 1;
        let after = |mine: u64, theirs: u64| (mine >> 1) | (theirs << (BLOCK - 1));
        let letter_after = after(self.letter, next.letter);
        let digit_after = after(self.digit, next.digit);
        let punct_after = after(self.punct, next.punct);
        let joiner_after = after(self.joiner, next.joiner | first_joins);
        let punct_before = (self.punct << 1) | punct_before;
        let pieces = (self.letter & !letter_after & !joiner_after)
            | (self.digit & !digit_after & !joiner_after)
            | (self.punct & !punct_after & !joiner_after & (punct_before | !letter_after));
        let joined = self.joiner & (letter_after | digit_after | punct_after);
        pieces.count_ones() as isize - joined.count_ones() as isize
    }
}

/// The flags (each 0 or 1) of a block as the bits of a `u64`.
#[inline]
fn pack(flags: &[u8; BLOCK]) -> u64 {
    let mut bits = 0;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // Each flag's bit lands in the top byte, the first flag lowest.
        bits |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// Whether a floor under `text`'s token count exceeds `hi`: the text is
/// read in pieces of about 16 KiB, each ending right after
/// a line break where counts add up (see the crate docs), and the floors of
/// the pieces read so far are summed; the answer is yes as soon as the sum
/// exceeds `hi`. Each piece's count is at least its floor and the text's
/// count is the sum of its pieces' counts, so the sum of the floors read so
/// far is a floor of the whole: a text far over `hi` is told after a part
/// of it has been read.
pub fn text_floor_exceeds(text: &str, hi: usize) -> bool {
    floors_from_cuts(text, hi).is_none()
}

/// [`text_floor_exceeds`]'s pieces, when their floors sum to at most
/// `hi`: where each starts, with the sum of the floors of it and every
/// piece after it, a floor under the count of the text from its start on
/// (counts add up where a piece starts). `None` once the sum exceeds `hi`.
pub(crate) fn floors_from_cuts(text: &str, hi: usize) -> Option<Vec<(usize, usize)>> {
    let mut pieces = Vec::new();
    let mut sum = 0usize;
    let mut from = 0;
    while from < text.len() {
        let end = crate::lines::cut_after(text, from + FLOOR_PIECE);
        let floor = text_floor(&text[from..end]);
        sum += floor;
        if sum > hi {
            return None;
        }
        pieces.push((from, floor));
        from = end;
    }
    let mut rest = 0;
    for (_, floor) in pieces.iter_mut().rev() {
        rest += *floor;
        *floor = rest;
    }
    Some(pieces)
}

/// A floor under the token count of a text being written, read as it
/// grows: the text is read in pieces of about 16 KiB, as by
/// [`text_floor_exceeds`], each ending right after a line break where counts
/// add up, and a piece is read only once the text goes on past its end (a
/// break is a place where counts add up or not by the line after it). The
/// sum of the pieces' floors is a floor under the count of the whole text,
/// whatever is appended to it.
///
/// ```
/// # #[cfg(feature = "o200k")] {
/// use pith_tokens::{GrowingFloor, Tokenizer, TokenizerKind};
///
/// let mut text = String::new();
/// let mut floor = GrowingFloor::default();
/// for i in 0..5000 {
///     text.push_str(&format!("row {i},some words\n"));
///     floor.read(&text);
/// }
/// let count = Tokenizer::get(TokenizerKind::O200k).count(&text);
/// assert!(floor.sum() > 0 && floor.sum() <= count);
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct GrowingFloor {
    /// Where the first piece not read yet starts.
    from: usize,
    sum: usize,
}

impl GrowingFloor {
    /// Reads the pieces of `text` (the text so far: it only ever grows at
    /// its end) that it now goes on past, and returns the floor so far.
    pub fn read(&mut self, text: &str) -> usize {
        while text.len().saturating_sub(self.from) > FLOOR_PIECE {
            let end = crate::lines::cut_after(text, self.from + FLOOR_PIECE);
            if end >= text.len() {
                break;
            }
            self.sum += text_floor(&text[self.from..end]);
            self.from = end;
        }
        self.sum
    }

    /// The floor of the pieces read so far.
    pub fn sum(&self) -> usize {
        self.sum
    }
}

/// The bytes [`text_floor_exceeds`] reads before it looks at its sum.
const FLOOR_PIECE: usize = 1 << 14;

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;

    /// A text written a few bytes at a time, its lines starting where counts
    /// add up and where they do not (white space, `/`, a line break, a
    /// letter beyond ASCII): the floor read as it grows never passes the
    /// count of the text it has grown into, and it is read as it grows.
    #[test]
    fn a_growing_floor_stays_under_the_count() {
        let starts = ["", "  ", "/", "\n", "\u{e9}", "//", " /"];
        let mut text = String::new();
        let mut floor = GrowingFloor::default();
        let mut read_early = false;
        // Where each piece read ended.
        let mut ends = Vec::new();
        for i in 0..6000 {
            let line = format!(
                "{}{{id:{i},login:user{},url:/a/b/{i}}}:\n",
                starts[i % starts.len()],
                i % 13
            );
            for chunk in line.as_bytes().chunks(5) {
                text.push_str(std::str::from_utf8(chunk).unwrap_or(""));
                let from = floor.from;
                floor.read(&text);
                if floor.from != from {
                    ends.push(floor.from);
                }
            }
            // Chunks that split a character are skipped: the text stays UTF-8.
            read_early |= i < 5000 && floor.sum() > 0;
        }
        assert!(read_early, "the floor is read before the text ends");
        // Each piece ended where counts add up in the text as it grew on.
        for &end in &ends {
            assert_eq!(crate::lines::cut_after(&text, end - 1), end, "{end}");
        }
        for kind in [crate::TokenizerKind::O200k, crate::TokenizerKind::Cl100k] {
            let count = crate::Tokenizer::get(kind).count(&text);
            assert!(floor.sum() <= count, "{kind:?}: {} > {count}", floor.sum());
            assert!(
                floor.sum() > count / 4,
                "{kind:?}: {} of {count}",
                floor.sum()
            );
        }
    }

    #[test]
    fn text_floors_stay_under_the_truth() {
        let o200k = crate::Tokenizer::get(crate::TokenizerKind::O200k);
        let cl100k = crate::Tokenizer::get(crate::TokenizerKind::Cl100k);
        for text in [
            "items[2]{id,name}:\n  1,Alice\n  2,Bob",
            "a:\n/b\nc:\n\n//d",
            // One o200k token `:\n//` after the letter: 2 in all.
            "a:\n//",
            "a.\n/",
            "x: \"it's\"\n\ty\n  - z: 1e5",
            "%pith\n&octo: {login:octo,id:1}\nrows[2]{a,u}:\n  1,*octo\n  2,*octo",
            "k: \u{e9}t\u{e9}\r\n\u{1}\u{7f}::;;",
            "",
        ] {
            let f = text_floor(text);
            assert!(
                f <= o200k.count(text),
                "{text:?}: {f} > {}",
                o200k.count(text)
            );
            assert!(
                f <= cl100k.count(text),
                "{text:?}: {f} > {}",
                cl100k.count(text)
            );
        }
        // Tight where it matters: rows of a table.
        let rows = "rows[2]{id,name,price}:\n  1,Elru,956.02\n  2,Zevo,441.48";
        assert!(text_floor(rows) * 10 >= o200k.count(rows) * 6);
    }

    /// Texts of every kind of character the floor tells apart, in runs:
    /// letters, digits, punctuation runs, white space and line breaks,
    /// `\n/`, joiners (`'`, control characters, 2- to 4-byte UTF-8).
    fn mixed_texts() -> Vec<String> {
        const PARTS: &[&str] = &[
            "word",
            "Ab",
            "x",
            "12",
            "7",
            "2025",
            ",",
            ":",
            "\"",
            "{",
            "}]",
            "...",
            "-",
            " ",
            "  ",
            "\t",
            "\n",
            "\n  ",
            "\n/",
            "//",
            "'",
            "'s",
            "\u{1}",
            "\u{7f}",
            "é",
            "日本",
            "\u{1f600}",
            "\r\n",
            "a,b",
            ",\"",
            "\":",
            "-1.5e3",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (0..24)
            .map(|i| {
                let len = [0, 1, 63, 64, 65, 700, 3000, 5000][i % 8];
                let mut t = String::new();
                while t.len() < len {
                    t.push_str(PARTS[(next() % PARTS.len() as u64) as usize]);
                }
                t
            })
            .collect()
    }

    #[test]
    fn the_rest_floors_stay_under_the_rests_own_floor() {
        // The locality argument of `RestFloors`, checked exactly: from any
        // character on, not only a piece boundary.
        for text in mixed_texts() {
            let rest = RestFloors::new(text.as_bytes());
            assert_eq!(rest.at(0), text_floor(&text).saturating_sub(1), "{text:?}");
            for p in (0..=text.len()).filter(|&p| text.is_char_boundary(p)) {
                let own = text_floor(&text[p..]);
                assert!(rest.at(p) <= own, "{text:?} at {p}: {} > {own}", rest.at(p));
            }
        }
    }

    #[test]
    fn the_rest_floors_stay_under_the_rests_count() {
        let o200k = crate::Tokenizer::get(crate::TokenizerKind::O200k);
        let cl100k = crate::Tokenizer::get(crate::TokenizerKind::Cl100k);
        for text in mixed_texts().iter().filter(|t| t.len() <= 700) {
            let rest = RestFloors::new(text.as_bytes());
            for p in (0..=text.len()).filter(|&p| text.is_char_boundary(p)) {
                // Any count of a text is at least its floor; from a piece
                // boundary on, the rest's count is that of `text[p..]`.
                let (o, c) = (o200k.count(&text[p..]), cl100k.count(&text[p..]));
                assert!(rest.at(p) <= o.min(c), "{text:?} at {p}");
            }
        }
    }

    #[test]
    fn a_floor_read_in_pieces_stays_under_the_truth() {
        let o200k = crate::Tokenizer::get(crate::TokenizerKind::O200k);
        // Many pieces: table rows, indented lines, and lines that do not
        // start a piece (`/` and white space after a line break).
        let mut text = String::from("rows[30000]{id,name,score,ok}:\n");
        for i in 0..30_000 {
            text.push_str(&format!("  {i},name{i},{i}.5,true\n"));
            if i % 100 == 0 {
                text.push_str(&format!("/x{i} it's n\u{e9}e\n   \n"));
            }
        }
        let truth = o200k.count(&text);
        // Never over the truth, and not far under it: the pieces' floors
        // sum to more than 40% of it.
        assert!(text.len() > 8 * FLOOR_PIECE);
        assert!(text_floor_exceeds(&text, truth * 4 / 10));
        assert!(!text_floor_exceeds(&text, truth));
        assert!(!text_floor_exceeds("", 0));
        assert!(text_floor_exceeds("a b", 1));
    }
}

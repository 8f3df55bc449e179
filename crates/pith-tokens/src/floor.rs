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
    let bytes = text.as_bytes();
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
        return 0;
    };
    let mut total: isize = 0;
    // Whether the last character of the block before is punctuation
    // (white space before the text).
    let mut punct_before = 0;
    for next in kinds {
        here.settle_line_breaks(&next);
        total += here.shares(&next, punct_before);
        punct_before = here.punct >> (BLOCK - 1);
        here = next;
    }
    usize::try_from(total).unwrap_or(0)
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
/// read in pieces of about 64 KiB, each ending right after
/// a line break where counts add up (see the crate docs), and the floors of
/// the pieces read so far are summed; the answer is yes as soon as the sum
/// exceeds `hi`. Each piece's count is at least its floor and the text's
/// count is the sum of its pieces' counts, so the sum of the floors read so
/// far is a floor of the whole: a text far over `hi` is told after a part
/// of it has been read.
pub fn text_floor_exceeds(text: &str, hi: usize) -> bool {
    let mut sum = 0usize;
    let mut from = 0;
    while from < text.len() {
        let end = crate::lines::cut_after(text, from + FLOOR_PIECE);
        sum += text_floor(&text[from..end]);
        if sum > hi {
            return true;
        }
        from = end;
    }
    false
}

/// The bytes [`text_floor_exceeds`] reads before it looks at its sum.
const FLOOR_PIECE: usize = 1 << 16;

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;

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

    /// The floor's rules worked out a character at a time: what the block
    /// version must agree with.
    fn scalar_floor(text: &str) -> usize {
        const SPACE: u8 = 0;
        const LETTER: u8 = 1;
        const DIGIT: u8 = 2;
        const PUNCT: u8 = 3;
        const JOINER: u8 = 4;
        /// Each byte's kind; a line break is white space (see [`kind`]).
        static KIND: [u8; 256] = {
            let mut t = [JOINER; 256];
            let mut b = 0x21;
            while b < 0x80 {
                t[b] = match b as u8 {
                    b'a'..=b'z' | b'A'..=b'Z' => LETTER,
                    b'0'..=b'9' => DIGIT,
                    b'\'' => JOINER,
                    _ => PUNCT,
                };
                b += 1;
            }
            t[b' ' as usize] = SPACE;
            t[b'\n' as usize] = SPACE;
            t[b'\t' as usize] = SPACE;
            t
        };
        /// What a character adds, by the kinds of the one before it, its own and
        /// the next one's (`(before * 5 + here) * 5 + next`): a piece where a
        /// run ends (see above), less one for a joiner before a run. 128
        /// entries, so that a masked index needs no bounds check.
        static DELTA: [i8; 128] = {
            let mut t = [0i8; 128];
            let mut before = 0;
            while before < 5 {
                let mut here = 0;
                while here < 5 {
                    let mut next = 0;
                    while next < 5 {
                        let (b, h, n) = (before as u8, here as u8, next as u8);
                        let ends = h != n && n != JOINER;
                        let piece = match h {
                            LETTER | DIGIT => ends,
                            PUNCT => ends && (b == PUNCT || n != LETTER),
                            _ => false,
                        };
                        let joined = h == JOINER && matches!(n, LETTER | DIGIT | PUNCT);
                        t[(before * 5 + here) * 5 + next] = piece as i8 - joined as i8;
                        next += 1;
                    }
                    here += 1;
                }
                before += 1;
            }
            t
        };
        /// The kind of `c` followed by `after`: a line break before `/` joins.
        #[inline(always)]
        fn kind(c: u8, after: u8) -> u8 {
            KIND[usize::from(c)] | (u8::from(c == b'\n' && after == b'/') * JOINER)
        }
        #[inline(always)]
        fn delta(before: u8, here: u8, next: u8) -> isize {
            let at = (usize::from(before) * 5 + usize::from(here)) * 5 + usize::from(next);
            isize::from(DELTA[at & 127])
        }
        let b = text.as_bytes();
        // The kind at `i`, white space outside the text.
        let at = |i: usize| -> u8 {
            match b.get(i) {
                Some(&c) => kind(c, b.get(i + 1).copied().unwrap_or(0)),
                None => SPACE,
            }
        };
        if b.is_empty() {
            return 0;
        }
        // Each character's share depends on the kinds around it only, read
        // off the bytes: no step waits on a table load of the step before.
        let (mut before, mut here) = (SPACE, at(0));
        let mut total = 0;
        for w in b.windows(3) {
            let next = kind(w[1], w[2]);
            total += delta(before, here, next);
            (before, here) = (here, next);
        }
        // The characters the windows did not reach: the last two (all of a
        // text of two bytes or one).
        for i in b.len().saturating_sub(2) + 1..=b.len() {
            let next = at(i);
            total += delta(before, here, next);
            (before, here) = (here, next);
        }
        usize::try_from(total).unwrap_or(0)
    }

    /// Whether a floor under `text`'s token count exceeds `hi`: the text is

    #[test]
    fn the_block_floor_is_the_floor_a_character_at_a_time() {
        // Every kind of character, and the line break before `/`, placed
        // at random, around block ends included.
        let alphabet: [&str; 21] = [
            "a",
            "Z",
            "q",
            "0",
            "9",
            " ",
            "\t",
            "\n",
            "/",
            "'",
            "\r",
            "\u{1}",
            "\u{7f}",
            ",",
            ":",
            "\"",
            "{",
            "]",
            "-",
            "\u{e9}",
            "\u{1f600}",
        ];
        let mut seed = 0x5eed_u64;
        let mut next = |below: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below
        };
        for n in 0..20_000 {
            let len = n % 300;
            let mut text = String::new();
            while text.len() < len {
                text.push_str(alphabet[next(alphabet.len())]);
            }
            assert_eq!(text_floor(&text), scalar_floor(&text), "{text:?}");
        }
        // A line break at a block's last byte, with `/` first in the next.
        for at in [62, 63, 64, 65, 127, 128] {
            let mut text = "a".repeat(at);
            text.push_str("\n/b c\n/");
            for cut in at..=text.len() {
                let t = &text[..cut];
                assert_eq!(text_floor(t), scalar_floor(t), "{t:?}");
            }
        }
        assert_eq!(text_floor(""), 0);
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

//! Pre-tokenization: the split patterns of o200k_base and cl100k_base,
//! hand-written.
//!
//! tiktoken cuts text into pieces with a backtracking regular expression
//! (leftmost-first alternation, greedy quantifiers) and runs BPE on each
//! piece. The patterns, as tiktoken 0.14 declares them:
//!
//! ```text
//! o200k_base:
//!   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//!  |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//!  |\p{N}{1,3}
//!  | ?[^\s\p{L}\p{N}]+[\r\n/]*
//!  |\s*[\r\n]+
//!  |\s+(?!\S)
//!  |\s+
//!
//! cl100k_base:
//!   '(?i:[sdmt]|ll|ve|re)
//!  |[^\r\n\p{L}\p{N}]?+\p{L}++
//!  |\p{N}{1,3}+
//!  | ?[^\s\p{L}\p{N}]++[\r\n]*+
//!  |\s++$
//!  |\s*[\r\n]
//!  |\s+(?!\S)
//!  |\s
//! ```
//!
//! Each function below follows one pattern alternative by alternative, in
//! order, and resolves the backtracking the regex engine would do by
//! reasoning about runs of characters instead of retrying. The places where
//! backtracking changes the answer:
//!
//! * o200k's first alternative: when the "upper" run is not followed by a
//!   "lower" character, the engine gives characters back until one that is
//!   both (`Lm`, `Lo`, a mark) can serve as the one required "lower"
//!   character, so `日A` splits as `日` + `A`.
//! * the optional leading character of the letter alternatives is tried
//!   first taken, then not taken; only a combining mark can start a word
//!   either way.
//! * `\s*[\r\n]+` ends after the last line break of a white-space run.
//! * `\s+(?!\S)` leaves the last white-space character before a
//!   non-space for the next piece (where it usually prefixes a word), and
//!   takes the whole run at the end of the text.
//! * `(?i:...)` folds case the Unicode way: `'ſ` (U+017F) is `'s`.
//!
//! Every read goes through [`Scan::at`], which remembers the furthest
//! position looked at. A piece whose decision never looked at the end of the
//! text cannot change when more text is appended: that is what lets
//! [`super::Counter`] settle pieces as it goes.

use super::unicode::{Class, ascii_class, class_of};

/// Which split pattern to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// o200k_base.
    O200k,
    /// cl100k_base.
    Cl100k,
}

/// One character as the patterns see it.
#[derive(Clone, Copy)]
struct Ch {
    class: Class,
    /// Its UTF-8 length; 0 past the end.
    len: usize,
    /// The scalar value; 0 past the end.
    cp: u32,
}

impl Ch {
    const END: Ch = Ch {
        class: Class::End,
        len: 0,
        cp: 0,
    };

    #[inline]
    fn is_line_break(self) -> bool {
        self.cp == u32::from(b'\n') || self.cp == u32::from(b'\r')
    }

    /// `[^\r\n\p{L}\p{N}]`: what may stand before a word.
    #[inline]
    fn is_prefix(self) -> bool {
        matches!(self.class, Class::Other | Class::Mark)
            || (self.class == Class::Space && !self.is_line_break())
    }

    #[inline]
    fn is(self, ascii: u8) -> bool {
        self.cp == u32::from(ascii)
    }

    /// Case-insensitive match against an ASCII lowercase letter, with the
    /// one Unicode simple case fold that maps a non-ASCII character onto a
    /// letter of the contractions (U+017F LATIN SMALL LETTER LONG S).
    #[inline]
    fn is_fold(self, lower: u8) -> bool {
        self.cp == u32::from(lower)
            || self.cp == u32::from(lower.to_ascii_uppercase())
            || (lower == b's' && self.cp == 0x17f)
    }
}

/// A cursor over valid UTF-8. With `TRACK` it records how far it has
/// looked (for [`Scan::settled`]); counting alone does without.
pub(crate) struct Scan<'a, const TRACK: bool> {
    text: &'a [u8],
    far: usize,
}

impl<'a, const TRACK: bool> Scan<'a, TRACK> {
    pub(crate) fn new(text: &'a [u8]) -> Scan<'a, TRACK> {
        Scan { text, far: 0 }
    }

    /// The end of the piece starting at `p` (`p` below the text length).
    /// The end is always past `p` and on a character boundary.
    #[inline]
    pub(crate) fn piece(&mut self, pattern: Pattern, p: usize) -> usize {
        // The byte-level path knows nothing of `far`, so only plain counting
        // and encoding take it.
        if !TRACK {
            let fast = match pattern {
                Pattern::O200k => self.o200k_ascii(p),
                Pattern::Cl100k => self.cl100k_ascii(p),
            };
            if let Some(end) = fast {
                return end;
            }
        }
        let end = match pattern {
            Pattern::O200k => self.o200k(p),
            Pattern::Cl100k => self.cl100k(p),
        };
        if end > p {
            end
        } else {
            // Unreachable for valid UTF-8: every character matches some
            // alternative. Step one character to guarantee progress.
            p + self.at(p).len.max(1)
        }
    }

    /// True if nothing decided so far looked past the end of the text, so
    /// that appending text cannot change the pieces found so far. Always
    /// false without `TRACK`.
    #[inline]
    pub(crate) fn settled(&self) -> bool {
        TRACK && self.far <= self.text.len()
    }

    /// Forgets what was looked at (before scanning the next piece).
    #[inline]
    pub(crate) fn reset_far(&mut self) {
        self.far = 0;
    }

    #[inline]
    fn at(&mut self, i: usize) -> Ch {
        let text = self.text;
        let Some(&b0) = text.get(i) else {
            if TRACK {
                self.far = text.len() + 1;
            }
            return Ch::END;
        };
        if TRACK && self.far <= i {
            self.far = i + 1;
        }
        if b0 < 0x80 {
            return Ch {
                class: ascii_class(b0),
                len: 1,
                cp: u32::from(b0),
            };
        }
        let byte = |k: usize| u32::from(text.get(i + k).copied().unwrap_or(0x80) & 0x3f);
        let (cp, len) = if b0 < 0xe0 {
            ((u32::from(b0 & 0x1f) << 6) | byte(1), 2)
        } else if b0 < 0xf0 {
            ((u32::from(b0 & 0x0f) << 12) | (byte(1) << 6) | byte(2), 3)
        } else {
            (
                (u32::from(b0 & 0x07) << 18) | (byte(1) << 12) | (byte(2) << 6) | byte(3),
                4,
            )
        };
        Ch {
            class: class_of(cp),
            len,
            cp,
        }
    }

    /// The end of the run of characters from `i` whose class passes `keep`.
    #[inline]
    fn run(&mut self, mut i: usize, keep: impl Fn(Class) -> bool) -> usize {
        loop {
            let c = self.at(i);
            if c.len == 0 || !keep(c.class) {
                return i;
            }
            i += c.len;
        }
    }

    /// Up to three characters of `\p{N}`.
    fn digits(&mut self, p: usize) -> usize {
        let mut i = p;
        for _ in 0..3 {
            let c = self.at(i);
            if c.class != Class::Number {
                break;
            }
            i += c.len;
        }
        i
    }

    fn o200k(&mut self, p: usize) -> usize {
        let c0 = self.at(p);
        let after = p + c0.len;
        if c0.class.is_letter() {
            if let Some(end) = self.o200k_cased(p) {
                return end;
            }
            if let Some(end) = self.o200k_upper(p) {
                return end;
            }
        }
        if c0.class == Class::Number {
            return self.digits(p);
        }
        if c0.is_prefix() {
            // Alternative 1 with the leading character taken, then without;
            // then alternative 2 the same way. Without it, only a mark can
            // begin the word (the leading class holds no letters).
            if let Some(end) = self.o200k_cased(after) {
                return end;
            }
            if c0.class == Class::Mark
                && let Some(end) = self.o200k_cased(p)
            {
                return end;
            }
            if let Some(end) = self.o200k_upper(after) {
                return end;
            }
            if c0.class == Class::Mark
                && let Some(end) = self.o200k_upper(p)
            {
                return end;
            }
        }
        // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
        let start = if c0.is(b' ') { after } else { p };
        let symbols = self.run(start, Class::is_symbol);
        if symbols > start {
            return self.run_while(symbols, |c| c.is_line_break() || c.is(b'/'));
        }
        if c0.class == Class::Space {
            return self.o200k_space(p);
        }
        after
    }

    /// `[UPPER]*[LOWER]+(contraction)?` from `s`, where UPPER is
    /// `\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}` and LOWER `\p{Ll}\p{Lm}\p{Lo}\p{M}`.
    #[inline]
    fn o200k_cased(&mut self, s: usize) -> Option<usize> {
        // Run the upper class, remembering where the last character that is
        // also in the lower class ended: that is where backtracking lands
        // if no lower character follows the run.
        let mut i = s;
        let mut last_lower_end = None;
        loop {
            let c = self.at(i);
            if c.len == 0 || !c.class.is_upperish() {
                if c.class.is_lowerish() {
                    let end = self.run(i, Class::is_lowerish);
                    return Some(self.contraction(end));
                }
                return last_lower_end.map(|end| self.contraction(end));
            }
            i += c.len;
            if c.class.is_lowerish() {
                last_lower_end = Some(i);
            }
        }
    }

    /// `[UPPER]+[LOWER]*(contraction)?` from `s`.
    #[inline]
    fn o200k_upper(&mut self, s: usize) -> Option<usize> {
        let upper = self.run(s, Class::is_upperish);
        if upper == s {
            return None;
        }
        let lower = self.run(upper, Class::is_lowerish);
        Some(self.contraction(lower))
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` at `e`: the end after it.
    #[inline]
    fn contraction(&mut self, e: usize) -> usize {
        if !self.at(e).is(b'\'') {
            return e;
        }
        let a = self.at(e + 1);
        if a.is_fold(b's') || a.is_fold(b't') || a.is_fold(b'm') || a.is_fold(b'd') {
            return e + 1 + a.len;
        }
        let second = if a.is_fold(b'r') || a.is_fold(b'v') {
            b'e'
        } else if a.is_fold(b'l') {
            b'l'
        } else {
            return e;
        };
        if self.at(e + 2).is_fold(second) {
            e + 3
        } else {
            e
        }
    }

    /// The white-space alternatives of o200k from `p` (a space character
    /// that starts no word and no symbol run).
    fn o200k_space(&mut self, p: usize) -> usize {
        let run = self.space_run(p);
        // \s*[\r\n]+
        if let Some(end) = run.after_last_break {
            return end;
        }
        // \s+(?!\S), then \s+
        if run.end_of_text || run.chars == 1 {
            run.end
        } else {
            run.last_start
        }
    }

    fn cl100k(&mut self, p: usize) -> usize {
        let c0 = self.at(p);
        let after = p + c0.len;
        // '(?i:[sdmt]|ll|ve|re)
        if c0.is(b'\'') {
            let a = self.at(after);
            if a.is_fold(b's') || a.is_fold(b'd') || a.is_fold(b'm') || a.is_fold(b't') {
                return after + a.len;
            }
            let second = if a.is_fold(b'l') {
                Some(b'l')
            } else if a.is_fold(b'v') || a.is_fold(b'r') {
                Some(b'e')
            } else {
                None
            };
            if let Some(second) = second
                && self.at(after + 1).is_fold(second)
            {
                return after + 2;
            }
        }
        // [^\r\n\p{L}\p{N}]?+\p{L}++
        if c0.class.is_letter() {
            return self.run(p, Class::is_letter);
        }
        if c0.is_prefix() && self.at(after).class.is_letter() {
            return self.run(after, Class::is_letter);
        }
        if c0.class == Class::Number {
            return self.digits(p);
        }
        // ` ?[^\s\p{L}\p{N}]++[\r\n]*+`
        let start = if c0.is(b' ') { after } else { p };
        let symbols = self.run(start, Class::is_symbol);
        if symbols > start {
            return self.run_while(symbols, Ch::is_line_break);
        }
        if c0.class == Class::Space {
            let run = self.space_run(p);
            // \s++$, then \s*[\r\n], then \s+(?!\S), then \s
            if run.end_of_text {
                return run.end;
            }
            if let Some(end) = run.after_last_break {
                return end;
            }
            return if run.chars == 1 {
                run.end
            } else {
                run.last_start
            };
        }
        after
    }

    /// Like [`Scan::run`] but testing the whole character.
    #[inline]
    fn run_while(&mut self, mut i: usize, keep: impl Fn(Ch) -> bool) -> usize {
        loop {
            let c = self.at(i);
            if c.len == 0 || !keep(c) {
                return i;
            }
            i += c.len;
        }
    }

    fn space_run(&mut self, p: usize) -> SpaceRun {
        let mut run = SpaceRun {
            end: p,
            last_start: p,
            chars: 0,
            after_last_break: None,
            end_of_text: false,
        };
        loop {
            let c = self.at(run.end);
            if c.class != Class::Space {
                run.end_of_text = c.len == 0;
                return run;
            }
            run.last_start = run.end;
            run.end += c.len;
            run.chars += 1;
            if c.is_line_break() {
                run.after_last_break = Some(run.end);
            }
        }
    }
}

/// What an ASCII byte is to the split patterns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Byte {
    Lower,
    Upper,
    Digit,
    /// White space other than a line break: tab, vertical tab, form feed, space.
    Space,
    /// `\r` or `\n`.
    Break,
    /// Anything else below 0x80: punctuation, symbols, other controls.
    Symbol,
    /// A byte of a non-ASCII character.
    Wide,
}

const BYTES: [Byte; 256] = {
    let mut table = [Byte::Wide; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b'a'..=b'z' => Byte::Lower,
            b'A'..=b'Z' => Byte::Upper,
            b'0'..=b'9' => Byte::Digit,
            b'\t' | 0x0b | 0x0c | b' ' => Byte::Space,
            b'\r' | b'\n' => Byte::Break,
            _ => Byte::Symbol,
        };
        b += 1;
    }
    table
};

/// The byte-level path: the same patterns for text made of ASCII, giving
/// up (`None`) wherever a non-ASCII character could change the answer, so
/// that the character-level path decides. Each step is the ASCII special
/// case of the alternative it is named after.
impl<const TRACK: bool> Scan<'_, TRACK> {
    #[inline]
    fn byte(&self, i: usize) -> Option<Byte> {
        self.text.get(i).map(|&b| BYTES[usize::from(b)])
    }

    /// The end of the run from `i` of bytes of kind `kind`, or `None` if it
    /// stops at a non-ASCII character.
    #[inline]
    fn ascii_run(&self, mut i: usize, kind: Byte) -> Option<usize> {
        loop {
            match self.byte(i) {
                Some(k) if k == kind => i += 1,
                Some(Byte::Wide) => return None,
                _ => return Some(i),
            }
        }
    }

    #[inline]
    fn ascii_digits(&self, p: usize) -> Option<usize> {
        let mut i = p;
        while i < p + 3 {
            match self.byte(i) {
                Some(Byte::Digit) => i += 1,
                Some(Byte::Wide) => return None,
                _ => break,
            }
        }
        Some(i)
    }

    /// `` ?[^\s\p{L}\p{N}]+`` then a run of `also`, or `Some(p)` if there
    /// is no symbol run.
    #[inline]
    fn ascii_symbols(&self, p: usize, also: impl Fn(u8) -> bool) -> Option<usize> {
        let start = if self.text.get(p) == Some(&b' ') {
            p + 1
        } else {
            p
        };
        let mut i = self.ascii_run(start, Byte::Symbol)?;
        if i == start {
            return Some(p);
        }
        while self.text.get(i).is_some_and(|&b| also(b)) {
            i += 1;
        }
        Some(i)
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` at `e`.
    #[inline]
    fn ascii_contraction(&self, e: usize) -> Option<usize> {
        if self.text.get(e) != Some(&b'\'') {
            return Some(e);
        }
        let Some(&a) = self.text.get(e + 1) else {
            return Some(e);
        };
        let second = match a.to_ascii_lowercase() {
            b's' | b't' | b'm' | b'd' => return Some(e + 2),
            b'r' | b'v' => b'e',
            b'l' => b'l',
            // U+017F folds to `s`.
            _ if a >= 0x80 => return None,
            _ => return Some(e),
        };
        match self.text.get(e + 2) {
            Some(b) if b.to_ascii_lowercase() == second => Some(e + 3),
            _ => Some(e),
        }
    }

    /// o200k's two letter alternatives from `s` (an ASCII letter).
    #[inline]
    fn ascii_o200k_word(&self, s: usize) -> Option<usize> {
        let upper = self.ascii_run(s, Byte::Upper)?;
        let end = match self.byte(upper) {
            Some(Byte::Lower) => self.ascii_run(upper, Byte::Lower)?,
            Some(Byte::Wide) => return None,
            // No lowercase letter follows: the first alternative fails (no
            // ASCII capital is also "lower"), the second takes the capitals.
            _ => upper,
        };
        self.ascii_contraction(end)
    }

    fn o200k_ascii(&self, p: usize) -> Option<usize> {
        match self.byte(p)? {
            Byte::Lower | Byte::Upper => self.ascii_o200k_word(p),
            Byte::Digit => self.ascii_digits(p),
            Byte::Wide => None,
            Byte::Break => self.ascii_space(p, Pattern::O200k),
            kind @ (Byte::Space | Byte::Symbol) => {
                match self.byte(p + 1) {
                    Some(Byte::Lower | Byte::Upper) => return self.ascii_o200k_word(p + 1),
                    Some(Byte::Wide) => return None,
                    _ => {}
                }
                let end = self.ascii_symbols(p, |b| b == b'\r' || b == b'\n' || b == b'/')?;
                if end > p {
                    Some(end)
                } else if kind == Byte::Space {
                    self.ascii_space(p, Pattern::O200k)
                } else {
                    None
                }
            }
        }
    }

    fn cl100k_ascii(&self, p: usize) -> Option<usize> {
        let b0 = *self.text.get(p)?;
        if b0 == b'\'' {
            let a = *self.text.get(p + 1)?;
            match a.to_ascii_lowercase() {
                b's' | b'd' | b'm' | b't' => return Some(p + 2),
                b'l' | b'v' | b'r' => {
                    let second = if a.eq_ignore_ascii_case(&b'l') {
                        b'l'
                    } else {
                        b'e'
                    };
                    if self
                        .text
                        .get(p + 2)
                        .is_some_and(|b| b.to_ascii_lowercase() == second)
                    {
                        return Some(p + 3);
                    }
                }
                _ if a >= 0x80 => return None,
                _ => {}
            }
        }
        let letters = |s: usize| {
            let mut i = s;
            loop {
                match self.byte(i) {
                    Some(Byte::Lower | Byte::Upper) => i += 1,
                    Some(Byte::Wide) => return None,
                    _ => return Some(i),
                }
            }
        };
        match BYTES[usize::from(b0)] {
            Byte::Lower | Byte::Upper => letters(p),
            Byte::Digit => self.ascii_digits(p),
            Byte::Wide => None,
            Byte::Break => self.ascii_space(p, Pattern::Cl100k),
            kind @ (Byte::Space | Byte::Symbol) => {
                match self.byte(p + 1) {
                    Some(Byte::Lower | Byte::Upper) => return letters(p + 1),
                    Some(Byte::Wide) => return None,
                    _ => {}
                }
                let end = self.ascii_symbols(p, |b| b == b'\r' || b == b'\n')?;
                if end > p {
                    Some(end)
                } else if kind == Byte::Space {
                    self.ascii_space(p, Pattern::Cl100k)
                } else {
                    None
                }
            }
        }
    }

    /// The white-space alternatives over a run of ASCII white space.
    fn ascii_space(&self, p: usize, pattern: Pattern) -> Option<usize> {
        let mut i = p;
        let mut after_last_break = None;
        loop {
            match self.byte(i) {
                Some(Byte::Space) => i += 1,
                Some(Byte::Break) => {
                    i += 1;
                    after_last_break = Some(i);
                }
                Some(Byte::Wide) => return None,
                _ => break,
            }
        }
        let end_of_text = i == self.text.len();
        let chars = i - p;
        let end = match (pattern, after_last_break) {
            (Pattern::Cl100k, _) if end_of_text => i,
            (_, Some(end)) => end,
            _ if end_of_text || chars == 1 => i,
            _ => i - 1,
        };
        Some(end)
    }
}

/// A maximal run of white space.
struct SpaceRun {
    end: usize,
    /// Where its last character starts.
    last_start: usize,
    chars: usize,
    /// The end of its last `\r` or `\n`, if it has one.
    after_last_break: Option<usize>,
    /// Whether the text ends with it.
    end_of_text: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of `text`, checking that the byte-level path (taken
    /// without `TRACK`) and the character-level path agree.
    fn pieces(pattern: Pattern, text: &str) -> Vec<&str> {
        fn split<const TRACK: bool>(pattern: Pattern, text: &str) -> Vec<&str> {
            let mut scan = Scan::<TRACK>::new(text.as_bytes());
            let mut out = Vec::new();
            let mut p = 0;
            while p < text.len() {
                let end = scan.piece(pattern, p);
                out.push(&text[p..end]);
                p = end;
            }
            out
        }
        let fast = split::<false>(pattern, text);
        assert_eq!(fast, split::<true>(pattern, text), "{text:?}");
        fast
    }

    #[test]
    fn o200k_splits() {
        let o = |t| pieces(Pattern::O200k, t);
        assert_eq!(o("Hello world"), ["Hello", " world"]);
        assert_eq!(o("HTTPServer"), ["HTTPServer"]);
        assert_eq!(o("helloWorld"), ["hello", "World"]);
        assert_eq!(o("HELLO there"), ["HELLO", " there"]);
        assert_eq!(o("日A"), ["日", "A"]);
        assert_eq!(o("日Ab"), ["日Ab"]);
        assert_eq!(o("\u{301}A"), ["\u{301}", "A"]);
        assert_eq!(o("don't WE'LL"), ["don't", " WE'LL"]);
        assert_eq!(o("it'ſ"), ["it'ſ"]);
        assert_eq!(o("12345"), ["123", "45"]);
        assert_eq!(o("a  b"), ["a", " ", " b"]);
        assert_eq!(o("a  "), ["a", "  "]);
        assert_eq!(o("x\n  y"), ["x", "\n", " ", " y"]);
        assert_eq!(o("x \n\n y"), ["x", " \n\n", " y"]);
        assert_eq!(o("a, b"), ["a", ",", " b"]);
        assert_eq!(o("a/b//\n/c"), ["a", "/b", "//\n/", "c"]);
        assert_eq!(o(" !!\r\n"), [" !!\r\n"]);
        assert_eq!(o("\tword"), ["\tword"]);
        assert_eq!(o("{\"k\":1}"), ["{\"", "k", "\":", "1", "}"]);
    }

    #[test]
    fn cl100k_splits() {
        let c = |t| pieces(Pattern::Cl100k, t);
        assert_eq!(c("Hello world"), ["Hello", " world"]);
        assert_eq!(c("helloWorld"), ["helloWorld"]);
        assert_eq!(c("'Steve's"), ["'S", "teve", "'s"]);
        assert_eq!(c("you'LL"), ["you", "'LL"]);
        assert_eq!(c("12345"), ["123", "45"]);
        assert_eq!(c("a  b"), ["a", " ", " b"]);
        assert_eq!(c("x\n  "), ["x", "\n  "]);
        assert_eq!(c("x\n  y"), ["x", "\n", " ", " y"]);
        assert_eq!(c("a/b//\n/c"), ["a", "/b", "//\n", "/c"]);
        assert_eq!(c("\u{301}A"), ["\u{301}A"]);
    }

    #[test]
    fn settled_pieces_do_not_look_past_the_end() {
        for (text, settled) in [
            ("日", false),
            ("日 ", true),
            ("a", false),
            ("a ", true),
            ("don'", false),
            ("don't", true),
            ("don't ", true),
            ("  ", false),
        ] {
            let mut scan = Scan::<true>::new(text.as_bytes());
            scan.piece(Pattern::O200k, 0);
            assert_eq!(scan.settled(), settled, "{text:?}");
        }
    }
}

//! Runs of characters, and the pieces o200k_base and cl100k_base cut them
//! into at least (the rules and why they hold: `select::bound`'s module
//! docs). Both tokenizers give each piece a token or more, so the pieces
//! counted are a floor under tokens: the value survey's floors under
//! compact JSON's and plain TOON's counts are read so, and so is the floor
//! under a column of flow cells that the notation's writer weighs against
//! a field group.
//!
//! In short: a run of letters is a piece of its own, a run of `n` digits
//! `ceil(n / 3)`, a run of punctuation one when it has two characters or
//! more or is not followed by a letter; a run that touches a *joiner*
//! (`'`, a control character, a byte of a character outside ASCII: each
//! may continue a word, join pieces or turn into an escape) is not counted.

/// What a character is to the piece rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Letter,
    Digit,
    Punct,
    Space,
    Joiner,
}

/// The class of each byte as it stands in a JSON string's content.
static CLASS: [Class; 256] = {
    let mut t = [Class::Joiner; 256];
    let mut b = 0x20;
    while b < 0x80 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b' ' => Class::Space,
            b'\'' => Class::Joiner,
            _ => Class::Punct,
        };
        b += 1;
    }
    t
};

/// Counts the pieces that runs take at least (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Runs {
    /// The class of the current run, and its length.
    class: Class,
    len: usize,
    /// Whether the character before the current run is a joiner.
    after_joiner: bool,
    /// The pieces counted.
    pub(crate) total: usize,
    /// The part of `total` that runs of letters and digits make.
    pub(crate) alnum: usize,
}

impl Default for Runs {
    fn default() -> Runs {
        Runs {
            class: Class::Space,
            len: 0,
            after_joiner: false,
            total: 0,
            alnum: 0,
        }
    }
}

impl Runs {
    /// A character of class `c`.
    #[inline]
    pub(crate) fn push(&mut self, c: Class) {
        if c == self.class {
            self.len += 1;
            return;
        }
        self.end(c);
        self.after_joiner = self.class == Class::Joiner;
        self.class = c;
        self.len = 1;
    }

    /// A string between quotes: the quotes are punctuation, and the content
    /// is read as [`CLASS`] classes its bytes.
    #[inline]
    pub(crate) fn push_string(&mut self, b: &[u8]) {
        self.push(Class::Punct);
        if !b.is_empty() && b.iter().all(u8::is_ascii_alphabetic) {
            // One run of letters, which counts once whatever its length
            // (most keys, and many words): told without a pass per byte.
            self.push(Class::Letter);
        } else {
            self.push_bytes(b);
        }
        self.push(Class::Punct);
    }

    /// [`Self::push`] of the class of each byte of a string's content, on
    /// a copy held in locals through the loop (strings are most of what a
    /// value survey reads).
    #[inline]
    fn push_bytes(&mut self, bytes: &[u8]) {
        let mut run = *self;
        for &b in bytes {
            run.push(CLASS[usize::from(b)]);
        }
        *self = run;
    }

    /// Ends the current run before a character of class `next`.
    #[inline]
    fn end(&mut self, next: Class) {
        if self.after_joiner || next == Class::Joiner {
            return;
        }
        let n = match self.class {
            Class::Letter => 1,
            Class::Digit => self.len.div_ceil(3),
            Class::Punct => {
                self.total += usize::from(self.len >= 2 || next != Class::Letter);
                return;
            }
            Class::Space | Class::Joiner => return,
        };
        self.total += n;
        self.alnum += n;
    }

    /// Ends the last run (the text ends).
    pub(crate) fn finish(&mut self) {
        self.end(Class::Space);
        self.class = Class::Space;
        self.len = 0;
    }
}

/// The pieces the runs of letters and digits in `s` take at least, where
/// `s` is written between characters that are neither letters, digits nor
/// joiners (a quote, a bracket, a colon, a comma, a line break), bare or
/// quoted with escapes: the runs of its content, as a string's content is
/// read between JSON's quotes.
#[inline]
pub(crate) fn string_pieces(s: &[u8]) -> usize {
    let mut runs = Runs::default();
    runs.push_string(s);
    runs.alnum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strings_runs_take_the_pieces_they_take_at_least() {
        for (text, pieces) in [
            ("", 0),
            ("login", 1),
            ("a-b", 2),
            ("two words", 2),
            ("ab12cd", 3),
            ("1234567", 3),
            ("123", 1),
            ("2025-06-14T09:12:44Z", 9),
            ("-._~ !", 0),
            // Quotes and backslashes are punctuation, escaped or not.
            ("say \"hi\"", 2),
            ("back\\slash", 2),
            // A run that touches a joiner is not counted.
            ("it's", 0),
            ("caf\u{e9}", 0),
            ("caf\u{e9} au lait", 2),
            ("tab\there", 0),
        ] {
            assert_eq!(string_pieces(text.as_bytes()), pieces, "{text:?}");
        }
    }
}

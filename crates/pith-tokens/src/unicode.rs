//! The character classes the split patterns ask about, for every Unicode
//! scalar value.
//!
//! The tiktoken patterns use `\p{L}`, `\p{Lu}`, `\p{Ll}`, `\p{Lt}`, `\p{Lm}`,
//! `\p{Lo}`, `\p{M}`, `\p{N}` and `\s`. Their answers for one character
//! collapse into the seven [`Class`] values below, because the general
//! categories are disjoint and no white-space character is a letter, mark
//! or number. The table in `unicode_table.rs` is generated from the same
//! Unicode data the `regex` crate compiles tiktoken's patterns with (pith's
//! `tests/tokens_lines.rs` checks it against `regex-syntax` and rewrites it
//! when `PITH_REGENERATE=1`, so this crate needs no dependency even for its
//! tests), so the classes agree with tiktoken character by character. Public
//! only for that check.

use super::unicode_table::BOUNDS;

/// What a split pattern can tell about one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Class {
    /// None of the others: punctuation, symbols, controls, unassigned.
    Other = 0,
    /// `Ll`.
    Lower = 1,
    /// `Lu` or `Lt`.
    Upper = 2,
    /// `Lm` or `Lo`: letters that are both "upper" and "lower" to o200k.
    Caseless = 3,
    /// `M` (`Mn`, `Mc`, `Me`).
    Mark = 4,
    /// `N` (`Nd`, `Nl`, `No`).
    Number = 5,
    /// The `White_Space` property, which is what `\s` means.
    Space = 6,
    /// Past the end of the text: no character's class.
    End = 7,
}

impl Class {
    /// `\p{L}`.
    #[inline]
    pub(crate) fn is_letter(self) -> bool {
        matches!(self, Class::Lower | Class::Upper | Class::Caseless)
    }

    /// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
    #[inline]
    pub(crate) fn is_upperish(self) -> bool {
        matches!(self, Class::Upper | Class::Caseless | Class::Mark)
    }

    /// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
    #[inline]
    pub(crate) fn is_lowerish(self) -> bool {
        matches!(self, Class::Lower | Class::Caseless | Class::Mark)
    }

    /// `[^\s\p{L}\p{N}]`.
    #[inline]
    pub(crate) fn is_symbol(self) -> bool {
        matches!(self, Class::Other | Class::Mark)
    }

    const fn from_bits(bits: u32) -> Class {
        match bits {
            1 => Class::Lower,
            2 => Class::Upper,
            3 => Class::Caseless,
            4 => Class::Mark,
            5 => Class::Number,
            6 => Class::Space,
            _ => Class::Other,
        }
    }
}

/// The class of an ASCII byte; bytes `0x80..` answer [`Class::Other`] (use
/// [`class_of`] for them).
#[inline]
pub fn ascii_class(b: u8) -> Class {
    ASCII[usize::from(b & 0x7f)]
}

/// The class of any scalar value.
#[inline]
pub fn class_of(cp: u32) -> Class {
    if cp < 0x80 {
        return ASCII[cp as usize];
    }
    // BOUNDS holds (start << 3 | class) for every run of equal class, sorted
    // by start, beginning at 0: the run holding `cp` is the last one whose
    // start is not above it.
    let i = BOUNDS.partition_point(|&b| (b >> 3) <= cp);
    match i.checked_sub(1).and_then(|i| BOUNDS.get(i)) {
        Some(&b) => Class::from_bits(b & 7),
        None => Class::Other,
    }
}

const ASCII: [Class; 128] = {
    let mut table = [Class::Other; 128];
    let mut i = 0;
    while i < BOUNDS.len() {
        let start = BOUNDS[i] >> 3;
        if start >= 128 {
            break;
        }
        let end = if i + 1 < BOUNDS.len() {
            BOUNDS[i + 1] >> 3
        } else {
            128
        };
        let class = Class::from_bits(BOUNDS[i] & 7);
        let mut c = start;
        while c < end && c < 128 {
            table[c as usize] = class;
            c += 1;
        }
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spot_checks() {
        assert_eq!(class_of('a' as u32), Class::Lower);
        assert_eq!(class_of('Ǆ' as u32), Class::Upper); // Lu
        assert_eq!(class_of('ǅ' as u32), Class::Upper); // Lt
        assert_eq!(class_of('日' as u32), Class::Caseless);
        assert_eq!(class_of('ʰ' as u32), Class::Caseless); // Lm
        assert_eq!(class_of(0x301), Class::Mark);
        assert_eq!(class_of('½' as u32), Class::Number);
        assert_eq!(class_of('Ⅻ' as u32), Class::Number);
        assert_eq!(class_of(0x85), Class::Space);
        assert_eq!(class_of(0x3000), Class::Space);
        assert_eq!(class_of(0xFEFF), Class::Other); // not White_Space
        assert_eq!(class_of(0x1C), Class::Other);
        assert_eq!(class_of(0x10FFFF), Class::Other);
        assert_eq!(class_of(0x1C89), Class::Upper); // new in Unicode 16.0
    }
}

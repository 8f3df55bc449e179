//! The character classes the split patterns ask about, for every Unicode
//! scalar value.
//!
//! The tiktoken patterns use `\p{L}`, `\p{Lu}`, `\p{Ll}`, `\p{Lt}`, `\p{Lm}`,
//! `\p{Lo}`, `\p{M}`, `\p{N}` and `\s`. Their answers for one character
//! collapse into the seven [`Class`] values below, because the general
//! categories are disjoint and no white-space character is a letter, mark
//! or number. The table in `unicode_table.rs` is generated from the same
//! Unicode data the `regex` crate compiles tiktoken's patterns with (a test
//! below checks it against `regex-syntax` and rewrites it when
//! `PITH_REGENERATE=1`), so the classes agree with tiktoken character by
//! character.

use super::unicode_table::BOUNDS;

/// What a split pattern can tell about one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Class {
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
pub(crate) fn ascii_class(b: u8) -> Class {
    ASCII[usize::from(b & 0x7f)]
}

/// The class of any scalar value.
#[inline]
pub(crate) fn class_of(cp: u32) -> Class {
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
    use regex_syntax::hir::{Class as HirClass, HirKind};

    /// The classes as `regex-syntax` (the parser behind tiktoken's regex
    /// engine) defines them, one entry per scalar value.
    fn reference_classes() -> Vec<u8> {
        let mut classes = vec![Class::Other as u8; 0x11_0000];
        let sets = [
            (r"\p{Ll}", Class::Lower),
            (r"[\p{Lu}\p{Lt}]", Class::Upper),
            (r"[\p{Lm}\p{Lo}]", Class::Caseless),
            (r"\p{M}", Class::Mark),
            (r"\p{N}", Class::Number),
            (r"\s", Class::Space),
        ];
        for (pattern, class) in sets {
            let hir = regex_syntax::parse(pattern).expect("valid class pattern");
            let HirKind::Class(HirClass::Unicode(set)) = hir.kind() else {
                panic!("{pattern} is not a Unicode class");
            };
            for range in set.ranges() {
                for cp in u32::from(range.start())..=u32::from(range.end()) {
                    let slot = &mut classes[cp as usize];
                    assert_eq!(*slot, Class::Other as u8, "U+{cp:04X} in two classes");
                    *slot = class as u8;
                }
            }
        }
        classes
    }

    fn render_table(classes: &[u8]) -> String {
        let mut bounds = Vec::new();
        let mut previous = None;
        for (cp, &class) in classes.iter().enumerate() {
            if previous != Some(class) {
                bounds.push(((cp as u32) << 3) | u32::from(class));
                previous = Some(class);
            }
        }
        let mut out = String::from(
            "//! Generated by `PITH_REGENERATE=1 cargo test -p pith --lib tokens::unicode`\n\
             //! from the Unicode tables of `regex-syntax`; do not edit.\n//!\n",
        );
        out.push_str(&format!(
            "//! Unicode version: {}.\n\n",
            regex_syntax_unicode_version()
        ));
        out.push_str(
            "/// `start << 3 | class` for each run of scalar values of one class, by start.\n",
        );
        out.push_str(&format!(
            "pub(super) static BOUNDS: [u32; {}] = [\n",
            bounds.len()
        ));
        for chunk in bounds.chunks(8) {
            let line: Vec<String> = chunk.iter().map(|b| format!("0x{b:07x}")).collect();
            out.push_str(&format!("    {},\n", line.join(", ")));
        }
        out.push_str("];\n");
        out
    }

    /// The Unicode version regex-syntax was generated from, read off a
    /// character that version assigned (so no version string is needed
    /// from the crate).
    fn regex_syntax_unicode_version() -> &'static str {
        // U+1C89 CYRILLIC CAPITAL LETTER TJE is new in 16.0; U+2FFC (an
        // ideographic description character) is new in 15.1.
        let lu = regex_syntax::parse(r"\p{Lu}").expect("valid");
        let HirKind::Class(HirClass::Unicode(set)) = lu.kind() else {
            panic!("not a class");
        };
        let has = |c: char| set.ranges().iter().any(|r| r.start() <= c && c <= r.end());
        if has('\u{1C89}') {
            "16.0"
        } else {
            "15.1 or older"
        }
    }

    #[test]
    fn table_matches_regex_syntax() {
        let classes = reference_classes();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tokens/unicode_table.rs");
        let rendered = render_table(&classes);
        if std::env::var_os("PITH_REGENERATE").is_some() {
            std::fs::write(path, &rendered).expect("write unicode_table.rs");
        }
        let committed = std::fs::read_to_string(path).expect("read unicode_table.rs");
        assert!(
            committed == rendered,
            "unicode_table.rs is out of date: rerun with PITH_REGENERATE=1"
        );
        for (cp, &class) in classes.iter().enumerate() {
            if (0xD800..0xE000).contains(&cp) {
                continue;
            }
            assert_eq!(class_of(cp as u32) as u8, class, "U+{cp:04X}");
        }
        for b in 0..128u8 {
            assert_eq!(ascii_class(b) as u8, classes[usize::from(b)], "byte {b:#x}");
        }
    }

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

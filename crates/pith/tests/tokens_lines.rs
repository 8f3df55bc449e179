//! The tokenizer's invariants checked against references from outside it:
//! line-cut counts ([`LineCounts`]) and [`text_floor`] over generated text
//! and every dataset file, and the generated Unicode class table against
//! `regex-syntax`, the parser behind tiktoken's regex engine. They live
//! here, not in `pith-tokens`, so that crate has no dependencies at all,
//! not even for its own tests.

use pith::tokens::unicode::{self, Class};
use pith::tokens::{LineCounts, Tokenizer, TokenizerKind, text_floor};
use proptest::prelude::*;
use regex_syntax::hir::{Class as HirClass, HirKind};

#[path = "support/datasets.rs"]
mod datasets;

fn kinds() -> [&'static Tokenizer; 2] {
    [
        Tokenizer::get(TokenizerKind::O200k),
        Tokenizer::get(TokenizerKind::Cl100k),
    ]
}

/// Lines of the kinds TOON, the notation and JSON write, and the ones
/// that keep a cut from being made: blank, white space only, a leading
/// `/`, a carriage return, non-ASCII and Unicode white space.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "  ",
            "\t",
            "\r",
            "  \r",
            "/",
            "/x",
            " /x",
            "://a",
            "items[2]{id,name}:",
            "  1,Alice",
            "  - id: 1",
            "    title: \"a b\"",
            "&octo: {login:octo,id:1}",
            "  2,*octo,'s",
            "x:",
            "  \u{a0}y",
            "\u{3000}",
            "日本",
            "  日本",
            "'s",
            "   ",
            "{\"a\":[1,2]}",
            "k: {id:1,user:{login:octo,id:2},tags:[a,b]}",
            "{it's,x},a]y}z,",
            "  - [1,2,{a:b}]",
            "a1,b2}c3]",
            "1,Alice",
            " 1,Alice",
            "    1,Alice",
            "        42",
            "  7 'll",
            "  9\u{a0}x",
            "  0",
            "   \t1",
        ])
        .prop_map(String::from),
        "[ a-z0-9:,/'\"{}\\[\\]-]{0,12}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    (prop::collection::vec(line(), 0..12), any::<bool>()).prop_map(|(lines, end)| {
        let mut t = lines.join("\n");
        if end {
            t.push('\n');
        }
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Sums of remembered segments are the counts of the whole texts,
    /// for texts met one after another (later ones hit the memo), and
    /// the bounded counts answer as the tokenizer's do.
    #[test]
    fn segment_sums_are_exact(texts in prop::collection::vec(text(), 1..4), bound in 0usize..64) {
        for (t, fine) in kinds().into_iter().flat_map(|t| [(t, false), (t, true)]) {
            let mut memo = if fine { LineCounts::fine(t) } else { LineCounts::new(t) };
            for text in &texts {
                let n = t.count(text);
                prop_assert_eq!(memo.count(text), n, "{:?}", text);
                prop_assert_eq!(memo.count(text), n, "again: {:?}", text);
                let over = memo.count_unless_over(text, bound);
                prop_assert!(over == Some(n) || (over.is_none() && n > bound));
                if n <= bound { prop_assert_eq!(over, Some(n)); }
                let under = memo.count_unless_under(text, bound);
                prop_assert!(under == Some(n) || (under.is_none() && n < bound));
                if n >= bound { prop_assert_eq!(under, Some(n)); }
            }
        }
    }

    /// Texts that go on as one already counted, with lines changed, put
    /// in, left out or prefixed (as the candidates of one value do):
    /// the cursor's counts are the tokenizer's.
    #[test]
    fn edited_copies_count_exactly(
        lines in prop::collection::vec(line(), 1..16),
        edits in prop::collection::vec((0usize..16, 0u8..4, line()), 1..6),
        end in any::<bool>(),
    ) {
        let join = |lines: &[String]| {
            let mut t = lines.join("\n");
            if end {
                t.push('\n');
            }
            t
        };
        let mut copies = vec![join(&lines)];
        let mut edited = lines.clone();
        for (at, op, new) in edits {
            edit(&mut edited, at, op, new);
            copies.push(join(&edited));
        }
        count_in_turn(&copies)?;
    }
}

/// Edits `lines` as one candidate's text differs from another's: by `op`,
/// line `at` (wrapped) changed to `new` (0), `new` put in before it (1), it
/// left out (2), `%pith` put first (3), or the halves swapped (4 and up).
fn edit(lines: &mut Vec<String>, at: usize, op: u8, new: String) {
    let at = at % (lines.len() + 1);
    match op {
        0 if at < lines.len() => lines[at] = new,
        1 => lines.insert(at, new),
        2 if at < lines.len() && lines.len() > 1 => {
            lines.remove(at);
        }
        0..=3 => lines.insert(0, "%pith".to_owned()),
        _ => {
            let half = lines.len() / 2;
            lines.rotate_left(half);
        }
    }
}

/// Counts `texts` one after another through one memo of each kind, plain
/// and fine: each count is the tokenizer's of the whole text.
fn count_in_turn(texts: &[String]) -> Result<(), TestCaseError> {
    for (t, fine) in kinds().into_iter().flat_map(|t| [(t, false), (t, true)]) {
        let mut memo = if fine {
            LineCounts::fine(t)
        } else {
            LineCounts::new(t)
        };
        for text in texts {
            prop_assert_eq!(memo.count(text), t.count(text), "{:?}", text);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A first text long enough for the memo to judge whether its lines
    /// repeat (of distinct lines, it is remembered without the hash table;
    /// of repeated ones, with it), then copies of it with lines changed,
    /// put in, left out, prefixed, or the halves swapped, each counted
    /// after the one before: the counts are the tokenizer's.
    #[test]
    fn long_first_texts_and_their_copies_count_exactly(
        lines in prop::collection::vec(line(), 1..8),
        repeat in 0usize..3,
        edits in prop::collection::vec((0usize..1000, 0u8..5, line()), 1..10),
    ) {
        // `repeat` 0: every line distinct; otherwise one in `repeat + 1`
        // lines is a line met before.
        let mut edited: Vec<String> = (0..900)
            .map(|i| {
                let line = &lines[i % lines.len()];
                if repeat > 0 && i % (repeat + 1) == 0 {
                    line.clone()
                } else {
                    format!("{line}{i}")
                }
            })
            .collect();
        let mut copies = vec![edited.join("\n")];
        for (at, op, new) in edits {
            edit(&mut edited, at, op, new);
            copies.push(edited.join("\n"));
        }
        count_in_turn(&copies)?;
    }
}

/// Every dataset file as TOON and as the notation, one memo per
/// tokenizer across all of them: the memo's counts are the tokenizer's.
#[test]
fn dataset_documents_count_exactly() {
    let files = datasets::json_files(&datasets::datasets());
    assert!(!files.is_empty());
    for (t, fine) in kinds().into_iter().flat_map(|t| [(t, false), (t, true)]) {
        let mut memo = if fine {
            LineCounts::fine(t)
        } else {
            LineCounts::new(t)
        };
        for path in &files {
            let value = pith::json::parse_bytes(&std::fs::read(path).unwrap()).unwrap();
            let toon = pith::toon::encode(&value, &Default::default()).unwrap();
            let mut o = pith::notation::Options::for_readability(4, true);
            o.tokenizer = t.kind();
            let pith = pith::notation::encode(&value, &o).unwrap().text;
            for text in [&toon, &pith] {
                assert_eq!(memo.count(text), t.count(text), "{}", path.display());
            }
        }
    }
}

/// The rules of [`text_floor`], one character at a time.
fn by_the_rules(text: &str) -> usize {
    #[derive(Clone, Copy, PartialEq)]
    enum K {
        Space,
        Letter,
        Digit,
        Punct,
        Joiner,
    }
    let b = text.as_bytes();
    let kind = |i: usize| match b.get(i) {
        None | Some(b' ' | b'\t') => K::Space,
        Some(b'\n') if b.get(i + 1) == Some(&b'/') => K::Joiner,
        Some(b'\n') => K::Space,
        Some(c) if c.is_ascii_alphabetic() => K::Letter,
        Some(c) if c.is_ascii_digit() => K::Digit,
        Some(b'\'') => K::Joiner,
        Some(&c) if (0x21..0x80).contains(&c) => K::Punct,
        Some(_) => K::Joiner,
    };
    let (mut pieces, mut joined) = (0usize, 0usize);
    for i in 0..b.len() {
        let before = if i == 0 { K::Space } else { kind(i - 1) };
        let (here, next) = (kind(i), kind(i + 1));
        let ends = here != next && next != K::Joiner;
        pieces += usize::from(match here {
            K::Letter | K::Digit => ends,
            K::Punct => ends && (before == K::Punct || next != K::Letter),
            _ => false,
        });
        joined += usize::from(here == K::Joiner && matches!(next, K::Letter | K::Digit | K::Punct));
    }
    pieces.saturating_sub(joined)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..Default::default() })]

    /// The table-driven scan counts what its rules say.
    #[test]
    fn text_floor_keeps_its_rules(t in "([a-zA-Z0-9 \t\n\r/:,'\"{}\\[\\]-]|\\PC){0,40}") {
        prop_assert_eq!(text_floor(&t), by_the_rules(&t), "{:?}", t);
    }

    /// The floor of arbitrary text: line breaks, slashes, tabs, quotes,
    /// apostrophes and any character at all.
    #[test]
    fn text_floors_of_any_text(t in "([a-zA-Z0-9 \t\n\r/:,'\"{}\\[\\]-]|\\PC){0,40}") {
        let o200k = pith::tokens::Tokenizer::get(pith::tokens::TokenizerKind::O200k);
        let cl100k = pith::tokens::Tokenizer::get(pith::tokens::TokenizerKind::Cl100k);
        let f = text_floor(&t);
        prop_assert!(f <= o200k.count(&t) && f <= cl100k.count(&t), "{:?}: {}", t, f);
    }
}

/// The floor is read 64 bytes at a time: texts of several blocks, and
/// every cut around block ends, count what the rules say.
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
        assert_eq!(text_floor(&text), by_the_rules(&text), "{text:?}");
    }
    // A line break at a block's last byte, with `/` first in the next.
    for at in [62, 63, 64, 65, 127, 128] {
        let mut text = "a".repeat(at);
        text.push_str("\n/b c\n/");
        for cut in at..=text.len() {
            let t = &text[..cut];
            assert_eq!(text_floor(t), by_the_rules(t), "{t:?}");
        }
    }
    assert_eq!(text_floor(""), 0);
}

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
        "//! Generated by `PITH_REGENERATE=1 cargo test -p pith --test tokens_lines`\n\
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
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../pith-tokens/src/unicode_table.rs"
    );
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
        assert_eq!(unicode::class_of(cp as u32) as u8, class, "U+{cp:04X}");
    }
    for b in 0..128u8 {
        assert_eq!(
            unicode::ascii_class(b) as u8,
            classes[usize::from(b)],
            "byte {b:#x}"
        );
    }
}

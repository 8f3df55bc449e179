#![no_main]
//! `pith::tokens::LineCounts`, the memo `auto` counts its candidates with:
//! texts counted one after another through one memo, plain and fine, in
//! both vocabularies, count exactly what the tokenizer counts of each whole,
//! and the counts under a bound answer as the bound says.
//!
//! The input's first byte picks the bound and whether two long texts are
//! counted first: 600 numbered copies of the first text's lines (distinct
//! lines, as a large table's rows, which a memo remembers without its hash
//! table), then the same with one line replaced by the last text. The rest
//! is split into texts at `0xFF` bytes, which UTF-8 never holds.

use libfuzzer_sys::fuzz_target;
use pith::tokens::{LineCounts, Tokenizer, TokenizerKind};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut texts: Vec<String> = rest
        .split(|&b| b == 0xFF)
        .filter_map(|t| std::str::from_utf8(t).ok())
        .map(str::to_owned)
        .collect();
    if pick & 1 == 1
        && let (Some(first), Some(last)) = (texts.first(), texts.last())
    {
        let lines: Vec<&str> = first.split('\n').collect();
        let long: Vec<String> = (0..600)
            .map(|i| format!("{i}{}", lines[i % lines.len()]))
            .collect();
        let mut changed = long.clone();
        changed[usize::from(pick >> 1) % long.len()] = last.clone();
        texts.splice(0..0, [long.join("\n"), changed.join("\n")]);
    }
    // From none to about twice the count, in sixteenths.
    let bound = |n: usize| n * usize::from(pick >> 3) / 16;
    for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
        let t = Tokenizer::get(kind);
        for fine in [false, true] {
            let mut memo = if fine {
                LineCounts::fine(t)
            } else {
                LineCounts::new(t)
            };
            for (i, text) in texts.iter().enumerate() {
                let n = t.count(text);
                let head: String = text.chars().take(160).collect();
                let at = format!("{kind:?}, fine {fine}, text {i} of {} bytes", text.len());
                assert_eq!(memo.count(text), n, "{at}: {head:?}");
                let b = bound(n);
                let over = memo.count_unless_over(text, b);
                assert_eq!(over, (n <= b).then_some(n), "{at}, over {b}: {head:?}");
                let under = memo.count_unless_under(text, b);
                assert_eq!(under, (n >= b).then_some(n), "{at}, under {b}: {head:?}");
            }
        }
    }
});

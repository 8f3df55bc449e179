#![no_main]
//! pith's tokenizer against tiktoken-rs, a port of tiktoken's split
//! patterns and merge loop: the same ids for the same text, and `count`
//! equal to their number, in both vocabularies.
//!
//! The input's first byte picks an alphabet and each later byte one of its
//! entries, so that every input is text and the texts hold what the
//! tokenizer's paths differ on: runs of lowercase letters (one piece, as
//! long as the input: the flat merge, the heap beyond 128 bytes, and the
//! joins remembered from piece to piece), base64 (short pieces, nearly all
//! new), and a mixed alphabet of words, digits, punctuation, white space,
//! contractions and a few letters beyond ASCII of settled Unicode classes
//! (the two implementations' character tables may differ on the newest).

use libfuzzer_sys::fuzz_target;
use pith::tokens::{Tokenizer, TokenizerKind};
use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

const LOWER: &[&str] = &[
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
    "s", "t", "u", "v", "w", "x", "y", "z",
];

const BASE64: &[&str] = &[
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
    "S", "T", "U", "V", "W", "X", "Y", "Z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
    "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "0", "1",
    "2", "3", "4", "5", "6", "7", "8", "9", "+", "/", "=", "\n",
];

const MIXED: &[&str] = &[
    "a", "e", "i", "o", "t", "n", "s", "r", "l", "x", "q", "A", "E", "T", "Q", "th", "ing",
    "tion", " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "0", "1", "7", "42", "2025", ".", ",",
    ":", ";", "!", "?", "'", "\"", "-", "_", "/", "\\", "{", "}", "[", "]", "(", ")", "<", ">",
    "=", "+", "*", "&", "%", "$", "#", "@", "~", "|", "'s", "'t", "'re", "'ll", "'S", "é",
    "ü", "ß", "Σ", "ж", "日", "本", "ا", "😀", "👍", "\u{a0}", "\u{3000}", "`", "^",
];

fn peers() -> &'static [(TokenizerKind, CoreBPE); 2] {
    static PEERS: OnceLock<[(TokenizerKind, CoreBPE); 2]> = OnceLock::new();
    PEERS.get_or_init(|| {
        [
            (
                TokenizerKind::O200k,
                tiktoken_rs::o200k_base().expect("tiktoken-rs o200k"),
            ),
            (
                TokenizerKind::Cl100k,
                tiktoken_rs::cl100k_base().expect("tiktoken-rs cl100k"),
            ),
        ]
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let alphabet = match pick % 3 {
        0 => LOWER,
        1 => BASE64,
        _ => MIXED,
    };
    let text: String = rest
        .iter()
        .map(|&b| alphabet[usize::from(b) % alphabet.len()])
        .collect();
    for (kind, peer) in peers() {
        let t = Tokenizer::get(*kind);
        let theirs = peer.encode_ordinary(&text);
        let head: String = text.chars().take(160).collect();
        assert_eq!(t.encode(&text), Some(theirs.clone()), "{kind:?}: {head:?}");
        assert_eq!(t.count(&text), theirs.len(), "{kind:?}: {head:?}");
    }
});

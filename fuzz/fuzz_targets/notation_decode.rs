//! `pith::notation::decode` never panics, strict or lenient, with indents
//! 1-4 and a small or the default depth limit; every error carries a line
//! and column inside the input; lenient mode accepts whatever strict mode
//! accepts, with the same value; no decoded value is deeper than the limit.
//!
//! The first byte: bits 0-1 pick the indent (1-4), bit 2 a depth limit of 6
//! instead of the default. The rest is the document (the marker line is
//! added when the input lacks it, so that most inputs reach the body).

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::toon::DecodeOptions;

fuzz_target!(|data: &[u8]| {
    let Some((&layout, rest)) = data.split_first() else {
        return;
    };
    let mut text = rest.to_vec();
    if !text.starts_with(b"%pith\n") && layout & 0x80 == 0 {
        text.splice(0..0, b"%pith\n".iter().copied());
    }
    let strict = DecodeOptions::default().indent(1 + usize::from(layout & 3)).max_depth(if layout & 4 != 0 { 6 } else { pith::DEFAULT_MAX_DEPTH });
    let lenient = strict.clone().strict(false);
    let lines = 1 + text.iter().filter(|&&b| b == b'\n').count();
    let read = |opts: &DecodeOptions| {
        let got = pith::notation::decode(&text, opts);
        match &got {
            Ok(v) => assert!(v.depth() <= opts.max_depth, "deeper than the limit"),
            Err(e) => assert!(
                (1..=lines).contains(&e.line()) && e.column() >= 1,
                "error outside the input: {e}"
            ),
        }
        got
    };
    let strict_value = read(&strict);
    let lenient_value = read(&lenient);
    if let Ok(v) = strict_value {
        match lenient_value {
            Ok(w) => assert!(v == w, "lenient mode read another value"),
            Err(e) => panic!("lenient mode refused what strict mode read: {e}"),
        }
    }
});

//! `pith::toon::decode_bytes` never panics, strict or lenient, spec 4 or
//! 3.3; whatever strict spec-4 decoding accepts encodes to TOON that decodes
//! back to the same value under the contract's equality (table rows may
//! take their header's key order).

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::toon::{self, DecodeOptions, ExpandPaths, Spec};

fuzz_target!(|data: &[u8]| {
    let lenient = DecodeOptions::default().strict(false);
    let _ = toon::decode_bytes(data, &lenient);
    let v3 = DecodeOptions::default().spec(Spec::V3).expand_paths(ExpandPaths::Safe);
    let _ = toon::decode_bytes(data, &v3);

    let opts = DecodeOptions::default();
    let Ok(value) = toon::decode_bytes(data, &opts) else {
        return;
    };
    let text = toon::encode(&value, &Default::default()).expect("a decoded value encodes");
    let again = toon::decode(&text, &opts).expect("encoded output decodes");
    assert!(pith::equiv::equivalent(&value, &again), "round trip through\n{text}");
});

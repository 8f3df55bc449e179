//! `pith::toon::decode_bytes` never panics, and whatever it accepts encodes
//! to TOON that decodes back to the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::toon;

fuzz_target!(|data: &[u8]| {
    let opts = toon::DecodeOptions::default();
    let Ok(value) = toon::decode_bytes(data, &opts) else {
        return;
    };
    let text = toon::encode(&value, &Default::default()).expect("a decoded value encodes");
    let again = toon::decode(&text, &opts).expect("encoded output decodes");
    // Spec §2 equality; exact equality until a looser comparison is needed.
    assert_eq!(again, value, "round trip through\n{text}");
});

//! Wire-schema type expressions: parsing any text never panics, and every
//! expression that parses prints to text that parses back to the same type.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith_wire::parse_type;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    match parse_type(src) {
        Ok(t) => {
            let printed = t.to_string();
            let again = parse_type(&printed)
                .unwrap_or_else(|e| panic!("printed {printed:?} does not parse: {e}"));
            assert_eq!(again, t, "printed {printed:?}");
        }
        Err(e) => {
            // Every error points into the expression.
            assert!(e.line() >= 1 && e.column() >= 1, "{e:?}");
        }
    }
});

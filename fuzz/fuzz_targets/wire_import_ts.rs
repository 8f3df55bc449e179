//! Wire-schema TypeScript import: any input is read or refused with a file,
//! line and column, never a panic; what reads and loads writes a canonical
//! document that loads to the same schema.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith_wire::{Schema, import_ts};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    // A NUL splits the input into two files, so imports across files get exercised.
    let files: Vec<(&str, &str)> = match src.split_once('\0') {
        Some((a, b)) => vec![("a.ts", a), ("b.ts", b)],
        None => vec![("a.ts", src)],
    };
    match import_ts(&files) {
        Ok(doc) => {
            if let Ok(schema) = Schema::from_value(&doc) {
                let again = Schema::from_value(&schema.to_value())
                    .unwrap_or_else(|e| panic!("canonical document does not load: {e}"));
                assert_eq!(again, schema);
            }
        }
        Err(e) => {
            assert!(
                matches!(e.path(), Some("a.ts" | "b.ts")) && e.line() >= 1 && e.column() >= 1,
                "{e:?}"
            );
        }
    }
});

//! Notation documents against what they decode to, or the error they
//! are refused with: shared by the reader's tests.

// Each test crate includes this file and uses only part of it.
#![allow(dead_code)]

use pith::toon::DecodeOptions;
use pith::{ErrorKind, Value};

pub fn decode(text: &str) -> pith::Result<Value> {
    pith::notation::decode(text.as_bytes(), &DecodeOptions::default())
}

pub fn json(text: &str) -> Value {
    pith::json::parse(text).unwrap_or_else(|e| panic!("test JSON {text}: {e}"))
}

/// Each document decodes to the JSON beside it (keys in order).
pub fn same(cases: &[(&str, &str)], opts: &DecodeOptions) {
    for (text, want) in cases {
        match pith::notation::decode(text.as_bytes(), opts) {
            Ok(v) => assert_eq!(
                pith::json::stringify(&v),
                pith::json::stringify(&json(want)),
                "{text:?}"
            ),
            Err(e) => panic!("{text:?}: {}", e.render(text)),
        }
    }
}

/// `(document, kind, line, column, message fragment)`.
pub type Case = (&'static str, ErrorKind, usize, usize, &'static str);

pub fn refused(cases: &[Case], opts: &DecodeOptions) {
    for &(text, kind, line, column, fragment) in cases {
        let err = match pith::notation::decode(text.as_bytes(), opts) {
            Ok(v) => panic!(
                "{text:?}: expected {kind:?}, decoded {}",
                pith::json::stringify(&v)
            ),
            Err(e) => e,
        };
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (kind, line, column),
            "{text:?}: {err}"
        );
        assert!(
            err.message().contains(fragment),
            "{text:?}: message {:?} lacks {fragment:?}",
            err.message()
        );
    }
}

pub fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

pub fn lenient() -> DecodeOptions {
    DecodeOptions::default().strict(false)
}

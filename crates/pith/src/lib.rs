//! pith renders JSON for LLM agents in the cheapest text a model reads
//! reliably, without losing a single fact, and turns that text back into the
//! exact JSON.
//!
//! # Overview
//!
//! * [`Value`], [`Map`] and [`Number`]: the data model. Keys keep their
//!   order; numbers are exact decimals at any size and precision. `Value`
//!   has serde_json's API: the [`value!`] macro, `v["key"]` and `v[0]`,
//!   [`Value::pointer`], `as_*` / `is_*`, `From`, and `Display` as JSON.
//! * [`json`]: JSON text in and out, exactly, refusing what cannot be kept
//!   (duplicate keys, lone surrogates, invalid UTF-8).
//! * [`toon`]: TOON, spec 4.x as the reference encoder writes it, and a 3.3
//!   mode with key folding and path expansion.
//! * [`to_string`] / [`from_str`]: serde on top of the TOON codec; serde's
//!   entry points for each text, with serde_json's names, are in [`json`]
//!   (`json::to_string`, `json::from_str`, `to_writer`, `to_vec`,
//!   `from_slice`, `from_reader`, …) and [`toon`].
//! * [`tokens`]: exact o200k_base and cl100k_base token counts (tiktoken's
//!   ids), the `ceil(bytes / 4)` estimate, and incremental counting; the
//!   crate `pith-tokens`, re-exported (it has no dependencies, for users who
//!   want only the tokenizer).
//! * [`table`]: key-hoisted tables inside TOON and columnar tables in JSON,
//!   collections of object rows written once per column, restored exactly.
//! * [`notation`]: the pith notation, TOON grown for nested records
//!   (sparse tables, flow values, references, derived columns).
//! * [`select`]: every form pith writes, `auto` (the cheapest per collection
//!   and per document, never more than compact JSON), and the one reader of
//!   them all.
//! * [`equiv`]: equality under the fact-preservation contract.
//! * [`budget`]: the whole output within a token budget, collections cut
//!   at row boundaries with omission receipts and continuation cursors.
//! * [`Error`]: one error type, with a kind, a line and column or a JSON path.
//! * [`wire`] (feature `wire`, on by default): typed wire definitions
//!   (validation, absent-field defaults, lossless elision, JSON Schema, a
//!   TypeScript DSL); the crate `pith-wire`, re-exported.
//!
//! # Crates
//!
//! This crate is a facade: everything above but [`wire`] is the crate
//! `pith-core`, re-exported whole, and [`tokens`] is `pith-tokens`. With
//! `default-features = false` (and the vocabularies it needs, `o200k` and
//! `cl100k`) a user gets the codec without the wire schemas; `pith-tokens`
//! alone is the tokenizer with no dependencies at all.
//!
//! The library does no I/O of its own beyond the `io::Write` or `io::Read`
//! it is handed, and never prints (`tests/tidy.rs` holds it to that).

pub use pith_core::*;

#[cfg(feature = "wire")]
#[doc(inline)]
pub use pith_wire as wire;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

//! The pith notation: TOON grown for nested records, written down in
//! `docs/notation.md` (sparse tables, nested field groups, flow values, text
//! blocks, named references and derived columns).
//!
//! A notation document starts with the line [`MARKER`]; text without it is
//! TOON and means what TOON says.

/// The first line of every notation document.
pub const MARKER: &str = "%pith";

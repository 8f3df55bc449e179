//! pith's benchmarks against peer implementations (serde_json, serde_toon,
//! tiktoken-rs, indexmap), each comparison run in one process: see
//! `benches/`. Kept in a crate of their own, never published, so that the
//! peers are compiled by `cargo bench -p pith-bench` alone and never by
//! `cargo test`. The library is empty.

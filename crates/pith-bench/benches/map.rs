//! The choice of `pith::Map`'s representation, measured: ordered entries
//! with a hash index from 16 keys on (pith's), against `indexmap::IndexMap`
//! (a hash table beside ordered entries in every map), in one process.
//!
//! * small: 100,000 objects of 6 keys, each built by inserts and every key
//!   looked up once (the rows that make up most documents);
//! * wide: one object of 160,000 keys, built by inserts, every key looked
//!   up once (what used to be quadratic);
//! * the size of an empty map, which every object value carries.
//!
//! Medians of round-robin runs, and pith's time as a ratio of IndexMap's.
//! Target: pith within 1.5x of IndexMap on both (it is faster on small
//! maps, where most objects are).
//!
//! Run: `cargo bench -p pith-bench --bench map` (`-- --runs N`, `-- --check`).

use indexmap::IndexMap;
use pith::{Map, Value};
use support::Contestant;

#[path = "../../pith/benches/support/mod.rs"]
mod support;

fn main() {
    let support::Args { runs, check } = support::Args::parse();
    let small_keys: Vec<String> = ["id", "name", "price", "active", "createdAt", "status"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let wide_keys: Vec<String> = (0..160_000)
        .map(|i| format!("key{i:06}_encoding"))
        .collect();
    let mut missed = Vec::new();
    for (scenario, keys, count) in [("small", &small_keys, 100_000), ("wide", &wide_keys, 1)] {
        let mut cs = vec![
            Contestant::new("pith::Map", || {
                for _ in 0..count {
                    let mut m = Map::new();
                    for (i, k) in keys.iter().enumerate() {
                        m.insert(k.as_str(), Value::from(i));
                    }
                    for k in keys {
                        std::hint::black_box(m.get(k));
                    }
                    std::hint::black_box(&m);
                }
            }),
            Contestant::new("IndexMap<String, Value>", || {
                for _ in 0..count {
                    let mut m: IndexMap<String, Value> = IndexMap::new();
                    for (i, k) in keys.iter().enumerate() {
                        m.insert(k.clone(), Value::from(i));
                    }
                    for k in keys {
                        std::hint::black_box(m.get(k.as_str()));
                    }
                    std::hint::black_box(&m);
                }
            }),
        ];
        let medians = support::round_robin(&mut cs, runs);
        println!("\n{scenario} ({count} x {} keys), {runs} runs:", keys.len());
        for (c, m) in cs.iter().zip(&medians) {
            println!("  {:<26} {:>9.2} ms", c.name, m.as_secs_f64() * 1e3);
        }
        let ratio = medians[0].as_secs_f64() / medians[1].as_secs_f64();
        let mark = if ratio <= 1.5 { "ok" } else { "MISSED" };
        println!("  pith / IndexMap: {ratio:.2}x (target <= 1.5x) {mark}");
        if ratio > 1.5 {
            missed.push(format!("{scenario}: {ratio:.2}x"));
        }
    }
    println!(
        "\nsize of an empty map: pith::Map {} bytes, IndexMap<String, Value> {} bytes",
        std::mem::size_of::<Map>(),
        std::mem::size_of::<IndexMap<String, Value>>()
    );
    if !missed.is_empty() {
        println!("targets missed: {}", missed.join(", "));
        if check {
            std::process::exit(1);
        }
    }
}

//! TOON codec throughput against its peers, measured in one process.
//!
//! For each generated dataset the benchmark times, round-robin so that drift
//! on a shared machine hits every contestant alike:
//!
//! * value → text: pith's TOON encoder, `serde_json::to_string`, and
//!   `serde_toon::to_string`, each on its own library's value type;
//! * text → value: pith's TOON decoder on pith's TOON, `serde_json::from_str`
//!   on compact JSON, `serde_toon::from_str` on serde_toon's TOON;
//! * JSON text → value: `pith::json::parse` against `serde_json::from_str`,
//!   both on the same compact JSON, each into its own library's value type.
//!
//! Throughput is in compact-JSON bytes of the same data per second for all
//! of them, so the figures compare work done, not text length. Medians are
//! reported, with ratios. It also measures the peak heap growth while
//! encoding, against the heap size of the value being encoded.
//!
//! Run: `cargo bench -p pith-bench --bench codec` (add `-- --runs N` to change the
//! number of timed runs; `-- --check` exits non-zero when a target is missed).

use std::sync::atomic::Ordering;
use support::Contestant;

#[path = "../../pith/benches/support/mod.rs"]
mod support;

#[path = "../../pith/tests/support/alloc.rs"]
mod alloc;
use alloc::{LIVE, PEAK};

fn main() {
    support::run_targets(bench_file);
}

fn bench_file(file: &str, runs: usize) -> Vec<String> {
    let text = support::generated(file);

    let before = LIVE.load(Ordering::Relaxed);
    let value = pith::json::parse(&text).expect("dataset parses");
    let value_heap = LIVE.load(Ordering::Relaxed) - before;

    let sj: serde_json::Value = serde_json::from_str(&text).expect("serde_json parses");
    let compact = serde_json::to_string(&sj).expect("compact JSON");
    let st: serde_toon::Value = serde_toon::to_value(&sj).expect("serde_toon value");
    let opts = pith::toon::EncodeOptions::default();
    let toon = pith::toon::encode(&value, &opts).expect("pith encodes");
    let peer_toon = serde_toon::to_string(&st).expect("serde_toon encodes");
    let dopts = pith::toon::DecodeOptions::default();
    assert_eq!(
        pith::toon::decode(&toon, &dopts).expect("pith decodes its output"),
        value,
        "round trip"
    );

    // Peak heap growth of one encode, with the value already in memory.
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let base = LIVE.load(Ordering::Relaxed);
    let out = pith::toon::encode(&value, &opts).expect("pith encodes");
    let encode_peak = PEAK.load(Ordering::Relaxed) - base;
    drop(out);

    let bytes = compact.len() as f64;
    println!(
        "\n{file}: {} compact-JSON bytes, TOON {} bytes, value heap {} bytes, {runs} runs",
        compact.len(),
        toon.len(),
        value_heap
    );

    let mut encode = vec![
        Contestant::new("pith toon encode", || {
            std::hint::black_box(pith::toon::encode(&value, &opts).unwrap());
        }),
        Contestant::new("serde_json::to_string", || {
            std::hint::black_box(serde_json::to_string(&sj).unwrap());
        }),
        Contestant::new("serde_toon::to_string", || {
            std::hint::black_box(serde_toon::to_string(&st).unwrap());
        }),
    ];
    let mut decode = vec![
        Contestant::new("pith toon decode", || {
            std::hint::black_box(pith::toon::decode(&toon, &dopts).unwrap());
        }),
        Contestant::new("serde_json::from_str", || {
            std::hint::black_box(serde_json::from_str::<serde_json::Value>(&compact).unwrap());
        }),
        Contestant::new("serde_toon::from_str", || {
            std::hint::black_box(serde_toon::from_str::<serde_toon::Value>(&peer_toon).unwrap());
        }),
    ];
    let mut parse = vec![
        Contestant::new("pith::json::parse", || {
            std::hint::black_box(pith::json::parse(&compact).unwrap());
        }),
        Contestant::new("serde_json::from_str", || {
            std::hint::black_box(serde_json::from_str::<serde_json::Value>(&compact).unwrap());
        }),
    ];
    let enc = measure(&mut encode, runs, bytes);
    let dec = measure(&mut decode, runs, bytes);
    let json = measure(&mut parse, runs, bytes);

    let mut missed = Vec::new();
    let mut target = |what: String, got: f64, want: f64| {
        let mark = if got >= want { "ok" } else { "MISSED" };
        println!("  {what}: {got:.2}x (target {want}x) {mark}");
        if got < want {
            missed.push(format!("{file}: {what} {got:.2}x < {want}x"));
        }
    };
    target("encode vs serde_json".into(), enc[0] / enc[1], 1.0);
    target("encode vs serde_toon".into(), enc[0] / enc[2], 2.0);
    target("decode vs serde_json".into(), dec[0] / dec[1], 1.5);
    target("decode vs serde_toon".into(), dec[0] / dec[2], 2.0);
    target("json parse vs serde_json".into(), json[0] / json[1], 1.0);
    let mem = encode_peak as f64 / value_heap as f64;
    println!("  encode peak heap: {encode_peak} bytes = {mem:.2}x the value (target <= 2x)");
    if file == "gen-flat-50k.json" && mem > 2.0 {
        missed.push(format!("{file}: encode peak heap {mem:.2}x > 2x"));
    }
    missed
}

/// Runs the contestants round-robin; prints and returns median MB/s each.
fn measure(cs: &mut [Contestant<'_>], runs: usize, bytes: f64) -> Vec<f64> {
    let medians = support::round_robin(cs, runs);
    cs.iter()
        .zip(medians)
        .map(|(c, median)| {
            let mbps = bytes / median.as_secs_f64() / 1e6;
            println!(
                "  {:<24} median {:>9.3} ms  {:>8.1} MB/s",
                c.name,
                median.as_secs_f64() * 1e3,
                mbps
            );
            mbps
        })
        .collect()
}

//! What choosing costs: `auto` against plain TOON encoding, in one process.
//!
//! For each generated dataset the benchmark times, round-robin so that drift
//! on a shared machine hits every contestant alike, value → text:
//!
//! * `pith::toon::encode` (plain TOON, the yardstick);
//! * `pith::select::encode` with `auto` and `--select bytes`;
//! * `pith::select::encode` with `auto` and `--select tokens` (o200k);
//! * `hoisted-compact`, for scale;
//! * the parts of `--select tokens` that no choice of candidates skips:
//!   `pith::notation::encode` with references (the walk that finds them
//!   and the writer; `auto` asks whether references pay on every value),
//!   and one exact o200k count of the text `auto` chooses (whatever else
//!   is counted, the winner is, whole). The sum of their medians is a
//!   floor under `auto`'s time as `auto` is built.
//!
//! Medians are reported, with the fastest and slowest run beside each
//! (the spread), and ratios of medians to plain TOON. Targets: `--select
//! tokens` at most 5x plain TOON on gen-flat-50k and on gen-nested-10k
//! (every notation candidate included); `--select bytes` at most 2x on
//! gen-flat-50k.
//!
//! Run: `cargo bench -p pith --bench select` (add `-- --runs N` to change the
//! number of timed runs; `-- --check` exits non-zero when a target is missed).

use pith::select::{Form, Metric, Options};
use pith::tokens::TokenizerKind;
use support::Contestant;

#[path = "support/mod.rs"]
mod support;

fn main() {
    support::run_targets(bench_file);
}

fn bench_file(file: &str, runs: usize) -> Vec<String> {
    let text = support::generated(file);
    let value = pith::json::parse(&text).expect("dataset parses");
    let toon = pith::toon::EncodeOptions::default();
    let opts = |form, metric| {
        Options::default()
            .form(form)
            .metric(metric)
            .toon(toon.clone())
    };
    let bytes = opts(Form::Auto, Metric::Bytes);
    let tokens = opts(Form::Auto, Metric::Tokens(TokenizerKind::O200k));
    let compact = opts(Form::HoistedCompact, Metric::Bytes);
    let with_refs = pith::notation::Options::default()
        .references(true)
        .tokenizer(TokenizerKind::O200k);
    let o200k = pith::tokens::Tokenizer::get(TokenizerKind::O200k);
    // Warm the vocabulary up outside the timings.
    o200k.count("warm up");
    // Each auto's text, round-tripped; the last is `--select tokens`'s, the
    // text whose count is timed.
    let mut chosen = String::new();
    for o in [&bytes, &tokens] {
        let out = pith::select::encode(&value, o).expect("encodes");
        let back = pith::select::decode(out.text.as_bytes(), &Default::default()).expect("decodes");
        assert!(pith::equiv::equivalent(&value, &back), "round trip");
        println!("{file} {:?}: {}", o.metric, out.describe());
        chosen = out.text;
    }
    println!("\n{file}: {} bytes of JSON, {runs} runs", text.len());

    let mut cs = vec![
        Contestant::new("toon::encode", || {
            std::hint::black_box(pith::toon::encode(&value, &toon).unwrap());
        }),
        Contestant::new("auto --select bytes", || {
            std::hint::black_box(pith::select::encode(&value, &bytes).unwrap());
        }),
        Contestant::new("auto --select tokens", || {
            std::hint::black_box(pith::select::encode(&value, &tokens).unwrap());
        }),
        Contestant::new("hoisted-compact", || {
            std::hint::black_box(pith::select::encode(&value, &compact).unwrap());
        }),
        Contestant::new("notation with refs", || {
            std::hint::black_box(pith::notation::encode(&value, &with_refs).unwrap());
        }),
        Contestant::new("count auto's text", || {
            std::hint::black_box(o200k.count(&chosen));
        }),
    ];
    let medians = measure(&mut cs, runs);
    let mut missed = Vec::new();
    let mut ratio = |what: &str, got: f64, limit: Option<f64>| match limit {
        Some(want) => {
            let mark = if got <= want { "ok" } else { "MISSED" };
            println!("  {what}: {got:.2}x plain TOON (target <= {want}x) {mark}");
            if got > want {
                missed.push(format!("{file}: {what} {got:.2}x > {want}x"));
            }
        }
        None => println!("  {what}: {got:.2}x plain TOON"),
    };
    let flat = file == "gen-flat-50k.json";
    ratio(
        "auto --select bytes",
        medians[1] / medians[0],
        flat.then_some(2.0),
    );
    ratio("auto --select tokens", medians[2] / medians[0], Some(5.0));
    ratio("hoisted-compact", medians[3] / medians[0], None);
    ratio("notation with refs", medians[4] / medians[0], None);
    ratio("count auto's text", medians[5] / medians[0], None);
    ratio(
        "the two together (a floor under tokens)",
        (medians[4] + medians[5]) / medians[0],
        None,
    );
    missed
}

/// Runs the contestants round-robin; prints the median seconds of each with
/// the spread of its runs (fastest and slowest), and returns the medians.
fn measure(cs: &mut [Contestant<'_>], runs: usize) -> Vec<f64> {
    let medians = support::round_robin(cs, runs);
    cs.iter()
        .zip(medians)
        .map(|(c, median)| {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            // `round_robin` leaves each contestant's timings sorted.
            let (fast, slow) = (c.times[0], c.times[c.times.len() - 1]);
            println!(
                "  {:<24} median {:>9.3} ms  (runs {:.3} to {:.3} ms)",
                c.name,
                ms(median),
                ms(fast),
                ms(slow)
            );
            median.as_secs_f64()
        })
        .collect()
}

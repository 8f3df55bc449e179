//! Fitting large documents to a budget: gen-flat-50k (50,000 table rows)
//! and gen-nested-10k (10,000 records, each with a nested list) to 10,000
//! o200k tokens, rendered as TOON and as compact JSON.
//!
//! ```text
//! cargo bench -p pith --bench budget
//! ```
//!
//! Each timing is the median of several runs after a warm-up, from a
//! parsed value to the fitted text (scan, search, renders and exact
//! counts). "cold" runs fit in a fresh thread, so the tokenizer's piece
//! caches start empty as in a one-shot command; "warm" runs reuse one
//! thread as a long-lived process would. Datasets are read from
//! `$PITH_DATASETS`, or `shared/datasets` beside the checkout.

use pith::Value;
use pith::budget::{Budget, FitOptions, fit};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::{self, EncodeOptions};
use std::time::{Duration, Instant};
use support::{generated, median};

#[path = "support/mod.rs"]
mod support;

const RUNS: usize = 9;
const BUDGET: usize = 10_000;

fn main() {
    // The vocabulary is built once per process; time it apart from fitting.
    let start = Instant::now();
    Tokenizer::get(TokenizerKind::O200k).count("warm up");
    println!("o200k vocabulary built in {:?}", start.elapsed());
    println!("median of {RUNS} runs after a warm-up; budget {BUDGET} o200k tokens\n");
    println!(
        "{:<16} {:<5} {:>10} {:>10} {:>8} {:>7}",
        "dataset", "form", "cold", "warm", "tokens", "cut"
    );
    for file in ["gen-flat-50k.json", "gen-nested-10k.json"] {
        let text = generated(file);
        let value: &'static Value =
            Box::leak(Box::new(pith::json::parse(&text).expect("dataset parses")));
        for form in ["toon", "json"] {
            let once = move || {
                let opts = FitOptions::new(Budget::Tokens(BUDGET), TokenizerKind::O200k);
                let render = |v: &Value| match form {
                    "toon" => toon::encode(v, &EncodeOptions::default()),
                    _ => Ok(pith::json::stringify(v)),
                };
                let start = Instant::now();
                let fitted = fit(value, &opts, &render).expect("fits");
                (start.elapsed(), fitted.tokens, fitted.rows_omitted)
            };
            let (_, tokens, omitted) = once();
            assert!(tokens <= BUDGET);
            let cold = median(RUNS, || {
                std::thread::spawn(once).join().expect("fit thread").0
            });
            let warm = median(RUNS, || once().0);
            let name = file.trim_end_matches(".json");
            println!(
                "{name:<16} {form:<5} {:>8.1}ms {:>8.1}ms {tokens:>8} {omitted:>7}",
                ms(cold),
                ms(warm)
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

//! The timing harness the benchmarks share: where the datasets are, the
//! command line, round-robin runs and medians.

// Each bench includes this file and uses only part of it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// The tests' lookup of the datasets folder, so both find the same one.
#[path = "../../tests/support/datasets.rs"]
mod folder;
pub use folder::datasets;

/// The text of the dataset `file` in the datasets' `generated` folder.
pub fn generated(file: &str) -> String {
    let path = datasets().join("generated").join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set PITH_DATASETS)", path.display()))
}

/// The command line of a bench with targets: `--runs N` and `--check`.
pub struct Args {
    /// How many timed runs each contestant gets.
    pub runs: usize,
    /// Whether a missed target makes the process exit non-zero.
    pub check: bool,
}

impl Args {
    /// Reads the process arguments; 15 runs unless told otherwise.
    pub fn parse() -> Args {
        let mut runs = 15;
        let mut check = false;
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            match a.as_str() {
                "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
                "--check" => check = true,
                _ => {} // cargo passes --bench
            }
        }
        Args { runs, check }
    }
}

/// Benches every generated dataset with `bench_file`, then prints the
/// targets it missed; with `--check`, exits non-zero if there were any.
pub fn run_targets(bench_file: impl Fn(&str, usize) -> Vec<String>) {
    let Args { runs, check } = Args::parse();
    let mut missed = Vec::new();
    for file in ["gen-flat-50k.json", "gen-nested-10k.json"] {
        missed.extend(bench_file(file, runs));
    }
    if missed.is_empty() {
        println!("\nall targets met");
    } else {
        println!("\ntargets missed:");
        for m in &missed {
            println!("  {m}");
        }
        if check {
            std::process::exit(1);
        }
    }
}

/// One timed piece of work among those compared.
pub struct Contestant<'a> {
    /// The label printed beside its median.
    pub name: &'static str,
    /// The work, run once per timing.
    pub run: Box<dyn FnMut() + 'a>,
    /// The timings taken so far.
    pub times: Vec<Duration>,
}

impl<'a> Contestant<'a> {
    /// A contestant with no timings yet.
    pub fn new(name: &'static str, run: impl FnMut() + 'a) -> Contestant<'a> {
        Contestant {
            name,
            run: Box::new(run),
            times: Vec::new(),
        }
    }
}

/// Runs the contestants once each to warm up, then `runs` times
/// round-robin, so that drift on a shared machine hits all alike; returns
/// the median duration of each, in order.
pub fn round_robin(cs: &mut [Contestant<'_>], runs: usize) -> Vec<Duration> {
    for c in cs.iter_mut() {
        (c.run)(); // warm-up
    }
    for _ in 0..runs {
        for c in cs.iter_mut() {
            let t = Instant::now();
            (c.run)();
            c.times.push(t.elapsed());
        }
    }
    cs.iter_mut()
        .map(|c| {
            c.times.sort();
            c.times[c.times.len() / 2]
        })
        .collect()
}

/// Runs `f` once to warm up, then `runs` times; the median of the durations it returns.
pub fn median(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[runs / 2]
}

//! Token counting speed and tokenizer start-up, with tiktoken-rs (the Rust
//! port of tiktoken) timed in the same process for a ratio.
//!
//! ```text
//! cargo bench -p pith-bench --bench tokens
//! ```
//!
//! Inputs: the compact JSON of `gen-flat-50k.json` and its TOON (made by
//! `@toon-format/toon` 4.4.0 through `tests/support/ref-tokens.mjs`, so
//! `node` and `npm` are needed; set `PITH_BENCH_TOON` to a TOON file to skip
//! them); the terse-github replies; and two texts whose pieces are nearly
//! all new, where no cache helps: 2 MB of base64 and 2 MB of lowercase
//! words of 100 to 700 letters. Each timing is the median of several runs
//! after a warm-up, pith's and tiktoken-rs's taken in turn (the benches'
//! round robin). "cold" runs count in a fresh thread, so the piece cache
//! starts empty as in a one-shot command; "warm" runs reuse one thread's cache as a long-lived
//! process would. Start-up is measured in fresh processes (this binary
//! re-run with `--init`), since a tokenizer is built once per process.

use pith::tokens::{Tokenizer, TokenizerKind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::{Contestant, datasets};

#[path = "../../pith/benches/support/mod.rs"]
mod support;

const RUNS: usize = 7;
const INIT_RUNS: usize = 9;
const TOON_PACKAGE: &str = "@toon-format/toon@4.4.0";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--init") {
        init_once(args.get(i + 1).map(String::as_str).unwrap_or_default());
        return;
    }
    let json = compact_json();
    let toon = toon_text();
    let github = github_replies();
    let (base64, words) = (base64_text(), long_words());
    println!(
        "gen-flat-50k: compact JSON {} bytes, TOON {} bytes; GitHub replies {} bytes; base64 {} bytes; words {} bytes",
        json.len(),
        toon.len(),
        github.len(),
        base64.len(),
        words.len()
    );
    println!("median of {RUNS} runs after a warm-up; MB = 10^6 bytes\n");

    for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
        let pith = Tokenizer::get(kind);
        let peer = match kind {
            TokenizerKind::Cl100k => tiktoken_rs::cl100k_base(),
            _ => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs vocabulary");
        for (label, text) in [
            ("TOON", toon.as_str()),
            ("compact JSON", json.as_str()),
            ("GitHub", github.as_str()),
            ("base64", base64.as_str()),
            ("words", words.as_str()),
        ] {
            let expected = peer.encode_ordinary(text).len();
            assert_eq!(pith.count(text), expected, "{kind} {label}: counts differ");
            // A fresh thread starts with an empty cache; it borrows the
            // text, so its timing is the count and a thread's start.
            let mut cs = [
                Contestant::new("cold", || {
                    std::thread::scope(|s| {
                        s.spawn(|| std::hint::black_box(pith.count(text)));
                    });
                }),
                Contestant::new("warm", || {
                    std::hint::black_box(pith.count(text));
                }),
                Contestant::new("tiktoken-rs", || {
                    std::hint::black_box(peer.encode_ordinary(text).len());
                }),
            ];
            let medians = support::round_robin(&mut cs, RUNS);
            let (cold, warm, theirs) = (medians[0], medians[1], medians[2]);
            let mbs = |d: Duration| text.len() as f64 / d.as_secs_f64() / 1e6;
            println!(
                "{kind:<6} count {label:<12} {expected:>9} tokens | pith cold {:>6.1} MB/s, warm {:>6.1} MB/s | tiktoken-rs {:>5.1} MB/s | pith/tiktoken-rs (cold) {:>4.1}x",
                mbs(cold),
                mbs(warm),
                mbs(theirs),
                theirs.as_secs_f64() / cold.as_secs_f64()
            );
        }
    }

    println!();
    for name in ["o200k", "cl100k"] {
        let ours = init_median(name);
        let theirs = init_median(&format!("tiktoken-rs-{name}"));
        println!(
            "{name:<6} init (fresh process, median of {INIT_RUNS}): pith {:>6.1} ms | tiktoken-rs {:>6.1} ms",
            ours.as_secs_f64() * 1e3,
            theirs.as_secs_f64() * 1e3
        );
    }
}

/// The median start-up time of `what`, each in a fresh process.
fn init_median(what: &str) -> Duration {
    let exe = std::env::current_exe().expect("own path");
    let mut times: Vec<Duration> = (0..INIT_RUNS)
        .map(|_| {
            let out = Command::new(&exe)
                .args(["--init", what])
                .output()
                .expect("re-run the bench binary");
            assert!(out.status.success(), "--init {what} failed");
            let nanos: u64 = String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("nanoseconds");
            Duration::from_nanos(nanos)
        })
        .collect();
    times.sort();
    times[INIT_RUNS / 2]
}

/// Child mode: build one tokenizer, print the nanoseconds it took.
fn init_once(what: &str) {
    let start = Instant::now();
    let tokens = match what {
        "o200k" => Tokenizer::get(TokenizerKind::O200k).count("warm"),
        "cl100k" => Tokenizer::get(TokenizerKind::Cl100k).count("warm"),
        "tiktoken-rs-o200k" => tiktoken_rs::o200k_base()
            .expect("vocabulary")
            .encode_ordinary("warm")
            .len(),
        "tiktoken-rs-cl100k" => tiktoken_rs::cl100k_base()
            .expect("vocabulary")
            .encode_ordinary("warm")
            .len(),
        other => panic!("unknown init target {other}"),
    };
    let elapsed = start.elapsed();
    std::hint::black_box(tokens);
    println!("{}", elapsed.as_nanos());
}

/// The terse-github replies (real GitHub REST JSON: hashes, node ids and
/// URLs among the repeats), one after another.
fn github_replies() -> String {
    let dir = datasets().join("terse-github");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e} (set PITH_DATASETS)", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no JSON in {}", dir.display());
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("read a reply"))
        .collect()
}

/// A pseudo-random stream (xorshift), the same every run.
fn noise(len: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize]
        })
        .collect()
}

/// 2 MB of base64, in 76-character lines: almost every piece is new, so
/// no cache answers and every piece is merged.
fn base64_text() -> String {
    let text = noise(
        2_000_000,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    );
    let lines: Vec<&[u8]> = text.chunks(76).collect();
    String::from_utf8(lines.join(&b'\n')).expect("ASCII")
}

/// 2 MB of lowercase words of 100 to 700 letters (long pieces, merged by
/// both of the merge's paths).
fn long_words() -> String {
    let letters = noise(2_000_000, b"abcdefghijklmnopqrstuvwxyz");
    let lengths = noise(10_000, b"0123456789abcdef");
    let mut text = String::with_capacity(letters.len() + 10_000);
    let mut at = 0;
    for &l in lengths.iter().cycle() {
        let n = 100 + usize::from(l % 16) * 40;
        let Some(word) = letters.get(at..at + n) else {
            break;
        };
        text.push_str(std::str::from_utf8(word).expect("ASCII"));
        text.push(' ');
        at += n;
    }
    text
}

fn flat_path() -> PathBuf {
    datasets().join("generated/gen-flat-50k.json")
}

fn compact_json() -> String {
    let path = flat_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("read {}: {e} (set PITH_DATASETS)", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    serde_json::to_string(&value).expect("serialize")
}

/// The TOON of gen-flat-50k: `$PITH_BENCH_TOON`, or made once with the
/// reference encoder and kept under the target folder.
fn toon_text() -> String {
    if let Some(path) = std::env::var_os("PITH_BENCH_TOON") {
        return std::fs::read_to_string(&path).expect("read PITH_BENCH_TOON");
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tokens-bench");
    let out = root.join("gen-flat-50k.toon");
    if let Ok(text) = std::fs::read_to_string(&out) {
        return text;
    }
    let prefix = root.join("npm");
    std::fs::create_dir_all(&prefix).expect("create the npm prefix");
    run(Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--prefix",
        ])
        .arg(&prefix)
        .arg(TOON_PACKAGE));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pith/tests/support/ref-tokens.mjs");
    run(Command::new("node")
        .arg(script)
        .arg("toon")
        .arg(prefix.join("node_modules"))
        .arg(flat_path())
        .arg(&out));
    std::fs::read_to_string(&out).expect("read the TOON")
}

fn run(command: &mut Command) {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shown} (are node and npm installed?): {e}"));
    assert!(
        output.status.success(),
        "{shown} failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

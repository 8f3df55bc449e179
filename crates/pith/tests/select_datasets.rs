//! Ratchets on the shared datasets (o200k_base tokens, default options).
//!
//! Each number pinned below is `auto`'s token count today: it may only go
//! down. On top of the pins, the targets: on each pm-cli fixture `auto` is at
//! most pm-cli's selected output, plain TOON and compact JSON, and at most
//! 5,400 in total; on each TOON benchmark file at most TOON and compact
//! JSON, and at most 300,000 in total; on gen-nested-10k at most 0.75x
//! compact JSON. Every output decodes to its input.
//!
//! Datasets: `$PITH_DATASETS`, or `shared/datasets` beside the checkout.
//! Run with `-- --nocapture` to see the table.

use pith::Value;
use pith::equiv::{difference, equivalent};
use pith::select::{Options, decode, encode};
use pith::tokens::{Tokenizer, TokenizerKind};
use std::path::Path;

#[path = "support/datasets.rs"]
mod datasets;
use datasets::datasets;

struct Sizes {
    json: usize,
    toon: usize,
    auto: usize,
    chose: String,
}

/// Compact JSON, plain TOON and `auto` tokens of one file; checks the round trip.
fn measure(path: &Path) -> Sizes {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value = pith::json::parse_bytes(&text).expect("dataset parses");
    let o200k = Tokenizer::get(TokenizerKind::O200k);
    let auto = encode(&value, &Options::default()).expect("encodes");
    let back: Value = decode(auto.text.as_bytes(), &Default::default()).expect("decodes");
    assert!(
        equivalent(&value, &back),
        "{}: {:?}",
        path.display(),
        difference(&value, &back)
    );
    let toon = pith::toon::encode(&value, &Default::default()).expect("toon");
    Sizes {
        json: o200k.count(&pith::json::to_string(&value)),
        toon: o200k.count(&toon),
        auto: o200k.count(&auto.text),
        chose: auto.describe(),
    }
}

fn row(name: &str, s: &Sizes, extra: &str) {
    eprintln!(
        "{name:<34} {:>8} {:>8} {:>8} {extra:>9}  {}",
        s.json, s.toon, s.auto, s.chose
    );
}

#[test]
fn pm_cli_fixtures() {
    let dir = datasets().join("pm-cli");
    let baseline = pith::json::parse_bytes(
        &std::fs::read(dir.join("agent-encoding-baseline.json")).expect("baseline"),
    )
    .expect("baseline parses");
    let selected = |surface: &str, size: u64| -> usize {
        baseline
            .get("measurements")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|m| {
                m.get("surface").and_then(Value::as_str) == Some(surface)
                    && m.get("size")
                        .and_then(Value::as_number)
                        .and_then(|n| n.as_u64())
                        == Some(size)
            })
            .and_then(|m| m.get("selected_tokens"))
            .and_then(Value::as_number)
            .and_then(|n| n.as_u64())
            .expect("a measurement") as usize
    };
    // auto's tokens today, per fixture: a ratchet.
    let pinned = [
        ("search", 1, 61),
        ("search", 8, 229),
        ("search", 32, 757),
        ("next", 1, 68),
        ("next", 8, 333),
        ("next", 32, 1173),
        ("context", 1, 66),
        ("context", 8, 255),
        ("context", 32, 855),
        ("get", 1, 66),
        ("get", 8, 229),
        ("get", 32, 709),
    ];
    eprintln!(
        "{:<34} {:>8} {:>8} {:>8} {:>9}",
        "pm-cli", "json", "toon", "auto", "pm-cli"
    );
    let (mut total, mut total_selected) = (0, 0);
    for (surface, size, pin) in pinned {
        let s = measure(&dir.join(format!("{surface}-{size}.json")));
        let pm = selected(surface, size);
        row(&format!("{surface}-{size}"), &s, &pm.to_string());
        let best = pm.min(s.toon).min(s.json);
        assert!(s.auto <= best, "{surface}-{size}: auto {} > {best}", s.auto);
        assert!(
            s.auto <= pin,
            "{surface}-{size}: auto {} > pinned {pin}",
            s.auto
        );
        total += s.auto;
        total_selected += pm;
    }
    eprintln!("{:<34} {:>26} {total_selected:>9}", "total", total);
    assert_eq!(total_selected, 5_869);
    assert!(total <= 5_400, "total {total} > 5,400");
    assert!(total <= 4_801, "total {total} > pinned 4,801");
}

#[test]
fn toon_benchmark_files() {
    let dir = datasets().join("toon-benchmark");
    let pinned = [
        ("bench-token-tabular.json", 49_978),
        ("bench-token-analytics.json", 9_115),
        ("bench-token-github.json", 8_937),
        ("bench-token-nested.json", 56_763),
        ("bench-token-event-logs.json", 97_778),
        ("bench-token-nested-config.json", 552),
        ("bench-token-keyed.json", 10_503),
        ("bench-token-nested-group.json", 26_726),
    ];
    eprintln!(
        "{:<34} {:>8} {:>8} {:>8}",
        "toon-benchmark", "json", "toon", "auto"
    );
    let (mut total, mut total_json, mut total_toon) = (0, 0, 0);
    for (file, pin) in pinned {
        let s = measure(&dir.join(file));
        row(file, &s, "");
        assert!(
            s.auto <= s.toon.min(s.json),
            "{file}: auto {} > {}",
            s.auto,
            s.toon.min(s.json)
        );
        assert!(s.auto <= pin, "{file}: auto {} > pinned {pin}", s.auto);
        total += s.auto;
        total_json += s.json;
        total_toon += s.toon;
    }
    eprintln!("{:<34} {total_json:>8} {total_toon:>8} {total:>8}", "total");
    assert_eq!((total_json, total_toon), (365_359, 332_764));
    assert!(total <= 300_000, "total {total} > 300,000");
    assert!(total <= 260_352, "total {total} > pinned 260,352");
}

#[test]
fn gen_nested_10k() {
    let s = measure(&datasets().join("generated/gen-nested-10k.json"));
    row("gen-nested-10k.json", &s, "");
    assert_eq!((s.json, s.toon), (413_794, 540_080));
    assert!(
        s.auto * 4 <= s.json * 3,
        "auto {} > 0.75 x {}",
        s.auto,
        s.json
    );
    assert!(s.auto <= 236_484, "auto {} > pinned 236,484", s.auto);
}

//! Ratchets on the shared datasets (o200k_base tokens, default options).
//!
//! Each number pinned below is `auto`'s token count today: it may only go
//! down. On top of the pins, the targets: on each pm-cli fixture `auto` is at
//! most pm-cli's selected output, plain TOON and compact JSON, and at most
//! 4,801 in total; on each TOON benchmark file at most TOON and compact
//! JSON, and at most 250,000 in total; on gen-nested-10k at most 0.5x
//! compact JSON; on the GitHub replies of `terse-github/` (cl100k, the peer's
//! unit) at most terse 0.45.1 on every file and in total. Every output
//! decodes to its input, scores at least the default floor, and keeps the
//! seed's readability criteria (column names, row order, identities).
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
        json: o200k.count(&pith::json::stringify(&value)),
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
        ("search", 1, 59),
        ("search", 8, 191),
        ("search", 32, 647),
        ("next", 1, 68),
        ("next", 8, 207),
        ("next", 32, 687),
        ("context", 1, 64),
        ("context", 8, 217),
        ("context", 32, 745),
        ("get", 1, 66),
        ("get", 8, 213),
        ("get", 32, 693),
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
    assert!(total <= 4_801, "total {total} > 4,801");
    assert!(total <= 3_857, "total {total} > pinned 3,857");
}

#[test]
fn toon_benchmark_files() {
    let dir = datasets().join("toon-benchmark");
    let pinned = [
        ("bench-token-tabular.json", 45_982),
        ("bench-token-analytics.json", 7_659),
        ("bench-token-github.json", 8_709),
        ("bench-token-nested.json", 43_588),
        ("bench-token-event-logs.json", 86_945),
        ("bench-token-nested-config.json", 494),
        ("bench-token-keyed.json", 9_699),
        ("bench-token-nested-group.json", 23_832),
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
    assert!(total <= 250_000, "total {total} > 250,000");
    assert!(total <= 226_908, "total {total} > pinned 226,908");
}

#[test]
fn gen_nested_10k() {
    let s = measure(&datasets().join("generated/gen-nested-10k.json"));
    row("gen-nested-10k.json", &s, "");
    assert_eq!((s.json, s.toon), (413_794, 540_080));
    assert!(s.auto * 2 <= s.json, "auto {} > 0.5 x {}", s.auto, s.json);
    assert!(s.auto <= 196_492, "auto {} > pinned 196,492", s.auto);
}

/// terse 0.45.1's cl100k tokens on each file of `terse-github/`, as
/// `../shared/tools/peer-terse/compare.sh` measures them (its README).
const TERSE: [(&str, usize); 9] = [
    ("gh_commits.json", 51_208),
    ("gh_commits_flat.json", 10_628),
    ("gh_dir_listing.json", 4_622),
    ("gh_issues.json", 29_403),
    ("gh_labels.json", 536),
    ("gh_pulls.json", 36_156),
    ("gh_rate_limit.json", 309),
    ("gh_repo_single.json", 1_652),
    ("gh_workflow_runs.json", 14_926),
];

#[test]
fn github_replies_beat_terse() {
    let dir = datasets().join("terse-github");
    let cl100k = Tokenizer::get(TokenizerKind::Cl100k);
    let opts = Options::default().metric(pith::select::Metric::Tokens(TokenizerKind::Cl100k));
    // pith auto's tokens today, pinned.
    let pinned = [
        50_399, 10_510, 4_109, 28_361, 487, 31_385, 287, 1_627, 14_685,
    ];
    let (mut total, mut total_terse) = (0, 0);
    eprintln!(
        "{:<34} {:>8} {:>8}",
        "terse-github (cl100k)", "terse", "auto"
    );
    for ((file, terse), pin) in TERSE.into_iter().zip(pinned) {
        let text = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let value = pith::json::parse_bytes(&text).expect("parses");
        let out = encode(&value, &opts).expect("encodes");
        let back = decode(out.text.as_bytes(), &Default::default()).expect("decodes");
        assert!(
            equivalent(&value, &back),
            "{file}: {:?}",
            difference(&value, &back)
        );
        let n = cl100k.count(&out.text);
        eprintln!("{file:<34} {terse:>8} {n:>8}  {}", out.describe());
        assert!(n <= terse, "{file}: {n} > terse {terse}");
        assert!(n <= pin, "{file}: {n} > pinned {pin}");
        total += n;
        total_terse += terse;
    }
    eprintln!("{:<34} {total_terse:>8} {total:>8}", "total");
    assert_eq!(total_terse, 149_440);
    assert!(total <= 141_850, "total {total} > pinned 141,850");
}

/// The seed's readability criteria, on every dataset file: the chosen form
/// scores at least the default floor; every key of the input (column names
/// included) is in the text; every identity (`id`, `sha`, `number`,
/// `login`, `node_id`, `*_id` values that are strings or numbers) is in the
/// text, whole; and the ids of a root collection appear in row order.
#[test]
fn every_dataset_keeps_the_seeds_readability_criteria() {
    let root = datasets();
    let mut checked = 0;
    for path in datasets::json_files(&root) {
        if path.ends_with("agent-encoding-baseline.json") {
            continue;
        }
        let text = std::fs::read(&path).unwrap();
        let value = pith::json::parse_bytes(&text).unwrap();
        if text.len() > 2_000_000 {
            continue; // the throughput inputs: checked by the other tests
        }
        let out = encode(&value, &Options::default()).unwrap();
        let name = path.display();
        assert!(
            pith::select::readability(&out) >= 4,
            "{name}: {}",
            out.describe()
        );
        let mut keys = std::collections::BTreeSet::new();
        let mut ids = Vec::new();
        walk(&value, &mut keys, &mut ids);
        for k in &keys {
            assert!(
                out.text.contains(k.as_str()),
                "{name}: key {k:?} not in the text"
            );
        }
        for id in &ids {
            assert!(
                out.text.contains(id.as_str()),
                "{name}: identity {id} not in the text"
            );
        }
        // Row order: the first identity of each row of a root array, in order.
        if let Value::Array(rows) = &value {
            let mut at = 0;
            for row in rows {
                let Some(id) = row
                    .get("id")
                    .or_else(|| row.get("sha"))
                    .and_then(scalar_text)
                else {
                    continue;
                };
                let found = out.text[at..]
                    .find(id.as_str())
                    .unwrap_or_else(|| panic!("{name}: row {id} out of order"));
                at += found + id.len();
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked} files");
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) => Some(pith::json::stringify(v)),
        _ => None,
    }
}

fn walk(v: &Value, keys: &mut std::collections::BTreeSet<String>, ids: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| walk(i, keys, ids)),
        Value::Object(m) => {
            for (k, child) in m.iter() {
                // Keys the text must show: the bare ones (a quoted key is
                // written with TOON's escapes).
                if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !k.is_empty() {
                    keys.insert(k.to_string());
                }
                let id_like = matches!(k.as_str(), "id" | "sha" | "number" | "login" | "node_id")
                    || k.ends_with("_id");
                if id_like && let Some(t) = scalar_text(child) {
                    ids.push(t);
                }
                walk(child, keys, ids);
            }
        }
        _ => {}
    }
}

//! `pith encode --budget`, run as the built binary: outputs within the
//! budget, cursors that continue, and exit status 3 with an explicit
//! notice when no output fits.

use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::DecodeOptions;
use pith::{Value, json};
use std::path::PathBuf;
use std::process::Output;

mod support;
use support::{stderr, stdout};

/// Runs `pith` with nothing on its standard input.
fn pith(args: &[&str]) -> Output {
    support::pith(args, "")
}

/// Writes `text` to a file of its own under the test scratch directory.
fn input(name: &str, text: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-{name}.json"));
    std::fs::write(&path, text).expect("scratch file");
    path.display().to_string()
}

fn users(n: usize) -> String {
    let rows: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{"id":{i},"name":"user{i}"}}"#))
        .collect();
    format!(r#"{{"users":[{}],"page":1}}"#, rows.join(","))
}

/// Reads what `encode` wrote (its default form picks TOON or JSON).
fn toon(text: &str) -> Value {
    pith::select::decode(text.as_bytes(), &DecodeOptions::default()).expect("output decodes")
}

#[test]
fn infeasible_budget_exits_3_with_a_notice() {
    let file = input("infeasible", &users(50));
    let o = pith(&["encode", &file, "--budget", "20"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let notice = toon(stdout(&o));
    let n = notice
        .get("output_budget_exceeded")
        .expect("an explicit result, never an empty answer");
    assert_eq!(n.get("budget"), Some(&Value::from(20)));
    assert_eq!(n.get("tokenizer"), Some(&Value::from("o200k")));
    assert_eq!(n.get("omitted"), Some(&Value::from("the whole document")));
    assert_eq!(n.get("rows"), Some(&Value::from(50)));
    let minimum = n
        .get("minimum_budget")
        .and_then(Value::as_number)
        .and_then(|m| m.as_u64())
        .expect("minimum");
    assert!(minimum > 20);
    let recovery = n.get("recovery").and_then(Value::as_str).expect("recovery");
    assert!(recovery.contains("--budget unbounded"), "{recovery}");
    let err = stderr(&o);
    assert!(err.starts_with("pith: output budget exceeded: "), "{err}");
    assert!(err.contains("--budget unbounded"), "{err}");

    // The minimum it names works.
    let o = pith(&["encode", &file, "--budget", &minimum.to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(Tokenizer::get(TokenizerKind::O200k).count(stdout(&o)) <= minimum as usize);

    // In the chosen format, and where -o sends the output.
    let o = pith(&[
        "encode",
        &file,
        "--budget",
        "20",
        "--format",
        "json",
        "--tokenizer",
        "cl100k",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let notice = json::parse(stdout(&o)).expect("a JSON notice");
    assert_eq!(
        notice
            .get("output_budget_exceeded")
            .and_then(|n| n.get("tokenizer")),
        Some(&Value::from("cl100k"))
    );
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("budget-notice.toon");
    let out_s = out.display().to_string();
    let o = pith(&["encode", &file, "--budget", "20", "-o", &out_s]);
    assert_eq!(o.status.code(), Some(3));
    assert!(o.stdout.is_empty());
    let written = std::fs::read_to_string(&out).expect("notice written to -o");
    assert!(
        toon(&written).get("output_budget_exceeded").is_some(),
        "{written}"
    );
}

#[test]
fn budget_bounds_the_output_and_cursors_continue() {
    let file = input("cursors", &users(120));
    let mut shown = Vec::new();
    let mut cursor: Option<String> = None;
    for round in 0.. {
        assert!(round < 100, "cursors do not end");
        let mut args = vec!["encode", &file, "--budget", "150"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c]);
        }
        let o = pith(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let count = Tokenizer::get(TokenizerKind::O200k).count(text);
        assert!(count <= 150, "{count} tokens");
        let out = toon(text);
        let ro = out.get("read_output").expect("read_output");
        assert_eq!(ro.get("tokens"), Some(&Value::from(count)));
        let (rows, receipt) = match cursor {
            None => (out.get("users"), out.get("users_omitted")),
            Some(_) => (out.get("result"), out.get("result_omitted")),
        };
        let rows = rows.and_then(Value::as_array).expect("rows");
        assert!(!rows.is_empty());
        shown.extend(rows.iter().map(|r| r.get("id").cloned().expect("id")));
        cursor = receipt
            .and_then(|r| r.get("cursor"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    let expected: Vec<Value> = (1..=120).map(Value::from).collect();
    assert_eq!(shown, expected, "every row once, in order");
}

#[test]
fn unbounded_is_plain_encode() {
    let file = input("unbounded", &users(30));
    let plain = pith(&["encode", &file]);
    let unbounded = pith(&["encode", &file, "--budget", "unbounded"]);
    assert_eq!(unbounded.status.code(), Some(0));
    assert_eq!(stdout(&plain), stdout(&unbounded));
    assert!(!stdout(&unbounded).contains("read_output"));
}

#[test]
fn usage_errors_exit_2() {
    let file = input("usage", &users(30));
    let other = input("usage-other", &users(31));
    let first = pith(&["encode", &file, "--budget", "100"]);
    let first = stdout(&first);
    let cursor = toon(first)
        .get("users_omitted")
        .and_then(|r| r.get("cursor"))
        .and_then(Value::as_str)
        .expect("a cursor")
        .to_owned();
    let cases: [(&[&str], &str); 5] = [
        (
            &["encode", &file, "--cursor", &cursor],
            "--cursor needs --budget",
        ),
        (
            &["encode", &file, "--budget", "many"],
            "invalid budget `many`",
        ),
        (
            &["encode", &file, "--budget", "100", "--tokenizer", "gpt2"],
            "unknown tokenizer `gpt2`",
        ),
        (
            &["encode", &file, "--budget", "100", "--cursor", "x1"],
            "cursor `x1` does not start with `c`",
        ),
        (
            &["encode", &other, "--budget", "100", "--cursor", &cursor],
            "does not belong to this input",
        ),
    ];
    for (args, message) in cases {
        let o = pith(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

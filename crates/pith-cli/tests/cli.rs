//! The command-line surface, run as a real process: the flags scripts rely
//! on, stdin and files, exit statuses and positioned errors.

mod support;
use support::{pith, repo, stderr, stdout};
#[path = "../../pith/tests/support/datasets.rs"]
mod datasets;
use datasets::{datasets, json_files};

#[test]
fn encode_writes_toon_from_stdin_and_files_alike() {
    let o = pith(
        &["encode", "--format", "toon"],
        r#"{"a":[1,2],"b":{"c":null}}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "a[2]: 1,2\nb:\n  c: null");
    let example = repo().join("examples/orders.json");
    let o = pith(
        &["encode", "--format", "toon", example.to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("store: north\norders[3]{id,customer{name,country},total,paid}:")
    );
}

/// The README's quick start shows what `pith encode examples/orders.json`
/// prints: the block after "The first prints" is that output, exactly.
#[test]
fn the_readme_shows_the_example_as_it_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let at = readme
        .find("The first prints")
        .expect("the quick start's example");
    let open = at + readme[at..].find("```text\n").expect("a text block") + "```text\n".len();
    let close = open + readme[open..].find("```").expect("the block's end");
    let example = repo().join("examples/orders.json");
    let o = pith(&["encode", example.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(format!("{}\n", stdout(&o)), &readme[open..close]);
}

#[test]
fn encode_options_change_the_text() {
    let input = r#"{"t":[{"x":1,"y":"a b"},{"x":2,"y":"c"}]}"#;
    let o = pith(
        &[
            "encode",
            "--format",
            "toon",
            "--delimiter",
            "pipe",
            "--indent",
            "4",
        ],
        input,
    );
    assert_eq!(stdout(&o), "t[2|]{x|y}:\n    1|a b\n    2|c");
    let o = pith(
        &["encode", "--format", "json"],
        " { \"k\" : [ 1.50 , 2 ] } ",
    );
    assert_eq!(stdout(&o), r#"{"k":[1.5,2]}"#);
    let o = pith(
        &["encode", "--format", "toon3", "--key-folding", "safe"],
        r#"{"a":{"b":{"c":1}}}"#,
    );
    assert_eq!(stdout(&o), "a.b.c: 1");
    let o = pith(
        &["decode", "--format", "toon3", "--expand-paths", "safe"],
        "a.b.c: 1",
    );
    assert_eq!(stdout(&o), r#"{"a":{"b":{"c":1}}}"#);
    // A literal dotted key is quoted while folding, so expansion keeps it.
    let input = r#"{"build":{"env":"ci"},"cache.dir":".cache"}"#;
    let o = pith(
        &["encode", "--format", "toon3", "--key-folding", "safe"],
        input,
    );
    assert_eq!(stdout(&o), "build.env: ci\n\"cache.dir\": .cache");
    let o = pith(
        &["decode", "--format", "toon3", "--expand-paths", "safe"],
        stdout(&o),
    );
    assert_eq!(stdout(&o), input);
}

#[test]
fn decode_tells_json_from_toon() {
    for (input, want) in [
        ("a: 1\nb[2]: x,y", r#"{"a":1,"b":["x","y"]}"#),
        (r#"{"a":1}"#, r#"{"a":1}"#),
        ("[2]: 1,2", "[1,2]"),
        ("[1,2]", "[1,2]"),
        ("42", "42"),
        ("\"s\"", "\"s\""),
        (
            "big: 123456789012345678901234567890.5",
            r#"{"big":1.234567890123456789012345678905e+29}"#,
        ),
    ] {
        let o = pith(&["decode"], input);
        assert_eq!(o.status.code(), Some(0), "{input}: {}", stderr(&o));
        assert_eq!(stdout(&o), want, "{input}");
    }
    let o = pith(&["decode", "--pretty"], "a: 1");
    assert_eq!(stdout(&o), "{\n  \"a\": 1\n}");
}

#[test]
fn bad_input_exits_1_with_line_column_and_caret() {
    let o = pith(&["decode"], "a: 1\nb c\n");
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("line 2, column 1"), "{e}");
    assert!(e.contains(" 2 | b c\n   | ^"), "{e}");

    let o = pith(&["encode"], "{\"a\":1,\"a\":2}");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 1, column 8"), "{}", stderr(&o));

    let o = pith(&["decode", "--format", "toon"], "t[3]: 1,2");
    assert_eq!(o.status.code(), Some(1));

    let o = pith(&["encode", "/nonexistent/file.json"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/file.json"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["encode", "--format", "yaml"][..],
        &["encode", "--indent", "0"],
        &["encode", "--key-folding", "safe"],
        &["decode", "--expand-paths", "safe"],
        &["frobnicate"],
        &["tokens", "--tokenizer", "p50k"],
        // A header is for --url: with a command it would go nowhere.
        &["mcp", "--header", "A: b", "--", "true"],
        &["mcp", "--header", "A: b", "true"],
    ] {
        let o = pith(args, "{}");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

/// Every status comes from fail.rs, clap's included: help and version on
/// stdout with 0, a mistake on stderr with 2, and a bad `--tokenizer` as
/// pith's own usage message.
#[test]
fn help_version_and_usage_mistakes_keep_their_streams_and_statuses() {
    let o = pith(&["--help"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Usage: pith"), "{}", stdout(&o));
    assert_eq!(stderr(&o), "");
    let o = pith(&["--version"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("pith "), "{}", stdout(&o));
    let o = pith(&["frobnicate"], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    let o = pith(&["measure", "--tokenizer", "p50k", "-"], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("pith: unknown tokenizer `p50k`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tokens_prints_counts_per_input_and_a_total() {
    let o = pith(&["tokens"], "Hello, world!");
    assert_eq!(stdout(&o), "4\t-\n");
    let example = repo().join("examples/orders.json");
    let e = example.to_str().unwrap();
    let o = pith(&["tokens", "--tokenizer", "bytes4", e, "-"], "12345");
    let bytes = std::fs::read(&example).unwrap().len();
    let n = bytes.div_ceil(4);
    assert_eq!(stdout(&o), format!("{n}\t{e}\n2\t-\n{}\ttotal\n", n + 2));
}

#[test]
fn schema_commands_fill_elide_and_check() {
    let data = repo().join("crates/pith-wire/tests/data/wire");
    let ts: Vec<String> = ["wire-state-defs.ts", "stand-ins.ts"]
        .iter()
        .map(|f| data.join(f).to_str().unwrap().to_owned())
        .collect();
    let mut args = vec!["schema", "import-ts"];
    args.extend(ts.iter().map(String::as_str));
    let o = pith(&args, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dir = std::env::temp_dir().join(format!("pith-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let defs = dir.join("defs.json");
    std::fs::write(&defs, &o.stdout).unwrap();
    let d = defs.to_str().unwrap();

    let o = pith(
        &["decode", "--schema", d, "--type", "SessionState"],
        r#"{"sessionId":"s"}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let full = stdout(&o).to_owned();
    assert!(full.contains(r#""queuedMessages":{"steering":[],"followUp":[],"liveSteered":0}"#));

    let o = pith(
        &[
            "encode",
            "--format",
            "json",
            "--schema",
            d,
            "--type",
            "SessionState",
        ],
        &full,
    );
    assert_eq!(stdout(&o), r#"{"sessionId":"s"}"#);

    let bad = r#"{"sessionId":"s","todoPhases":[{"name":"p","tasks":[{"content":"x","status":"done"}]}]}"#;
    let o = pith(&["schema", "check", d, "--type", "SessionState"], bad);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("todoPhases[0].tasks[0].status"),
        "{}",
        stderr(&o)
    );
    let o = pith(&["schema", "check", d, "--type", "SessionState"], &full);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let o = pith(&["schema", "export", d, "--type", "SessionState"], "");
    assert!(stdout(&o).contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""));
    let js = dir.join("schema.json");
    std::fs::write(&js, &o.stdout).unwrap();
    let o = pith(&["schema", "import-jsonschema", js.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let o = pith(&["schema", "diff", d, d, "--check"], "");
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "no changes\n"));

    // measure --schema: the compact JSON as given, then every form of the
    // elided value, and what elision plus auto saves.
    let opened = data.join("snapshots/timeline/SessionState.1-opened.json");
    let opened = opened.to_str().unwrap();
    let o = pith(
        &["measure", "--schema", d, "--type", "SessionState", opened],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        table.contains("\n  json (as given)         875        278\n"),
        "{table}"
    );
    assert!(
        table.contains("\n  auto                    393        160           5  pith\n"),
        "{table}"
    );
    assert!(
        table.contains("elided + auto: 42.4% fewer o200k tokens than the compact JSON as given"),
        "{table}"
    );
    let o = pith(
        &[
            "measure",
            "--json",
            "--schema",
            d,
            "--type",
            "SessionState",
            opened,
            opened,
        ],
        "",
    );
    let report = pith::json::parse(stdout(&o)).expect("JSON report");
    let first = &report
        .get("files")
        .and_then(|f| f.as_array())
        .expect("files")[0];
    let tokens = |v: &pith::Value, path: &[&str]| {
        path.iter()
            .try_fold(v, |v, k| v.get(k))
            .map(|t| t.to_string())
    };
    assert_eq!(
        tokens(first, &["as_given", "tokens"]).as_deref(),
        Some("278")
    );
    assert_eq!(
        tokens(first, &["forms", "auto", "tokens"]).as_deref(),
        Some("160")
    );
    assert_eq!(
        tokens(&report, &["total", "as_given", "tokens"]).as_deref(),
        Some("556")
    );
    // Without --schema there is nothing "as given" to compare with.
    let o = pith(&["measure", "--json", opened], "");
    let report = pith::json::parse(stdout(&o)).expect("JSON report");
    let first = &report
        .get("files")
        .and_then(|f| f.as_array())
        .expect("files")[0];
    assert!(first.get("as_given").is_none());
    assert_eq!(
        tokens(first, &["forms", "json", "tokens"]).as_deref(),
        Some("278")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `pith encode --format toon` writes exactly the library's bytes (which the
/// differential test holds to the reference encoder's), for every dataset.
#[test]
fn encode_writes_the_library_bytes_for_every_dataset() {
    let root = datasets();
    let files = json_files(&root);
    assert!(
        files.len() >= 20,
        "datasets missing under {}",
        root.display()
    );
    for f in files {
        let o = pith(&["encode", "--format", "toon", f.to_str().unwrap()], "");
        assert_eq!(o.status.code(), Some(0), "{}: {}", f.display(), stderr(&o));
        let value = pith::json::parse_bytes(&std::fs::read(&f).unwrap()).unwrap();
        let want = pith::toon::encode(&value, &Default::default()).unwrap();
        assert!(o.stdout == want.as_bytes(), "{}", f.display());
    }
}

/// MCP Inspector splits its own arguments at the first `--`, so pith gets
/// the server command without one: `pith mcp SERVER ARGS...` must run it,
/// with the server's own flags left to the server.
#[test]
fn mcp_runs_a_server_named_without_a_double_dash() {
    let server = repo().join("crates/pith-mcp/tests/support/fake-server.mjs");
    let server = server.to_str().unwrap();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cli","version":"1"}}}"#;
    for args in [
        vec!["mcp", "--no-stats", "node", server, "--exit-code", "0"],
        vec![
            "mcp",
            "--no-stats",
            "--",
            "node",
            server,
            "--exit-code",
            "0",
        ],
    ] {
        let o = pith(&args, &format!("{init}\n"));
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(r#""serverInfo":{"name":"fake""#),
            "{}",
            stdout(&o)
        );
    }
    // The server's exit status is pith's, here through a server flag that
    // pith must not take for its own.
    let o = pith(
        &["mcp", "--no-stats", "node", server, "--exit-code", "7"],
        &format!("{init}\n"),
    );
    assert_eq!(o.status.code(), Some(7), "{}", stderr(&o));
}

#[test]
fn mcp_refuses_a_budget_below_its_notice() {
    let o = pith(&["mcp", "--budget", "50", "node", "x"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--budget 50 is below 200"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn json_output_writes_integers_as_digits_and_toon_as_the_reference_does() {
    let o = pith(&["decode"], "12345678901234567890123");
    assert_eq!(stdout(&o), "12345678901234567890123", "{}", stderr(&o));
    let o = pith(&["decode"], "a: 1e21\nb: 0.1e1000000000");
    assert_eq!(
        stdout(&o),
        r#"{"a":1000000000000000000000,"b":1e+999999999}"#
    );
    let o = pith(&["encode", "--format", "toon"], "[12345678901234567890123]");
    assert_eq!(stdout(&o), "[1]: 1.2345678901234567890123e+22");
}

#[test]
fn inexact_numbers_are_kept_quoted_or_refused() {
    let input = r#"{"id":9007199254740993,"n":[1.5,1e400],"big":12345678901234567890123}"#;
    let o = pith(&["encode", "--format", "toon"], input);
    assert_eq!(
        stdout(&o),
        "id: 9007199254740993\nn[2]: 1.5,1e+400\nbig: 1.2345678901234567890123e+22"
    );
    let o = pith(
        &["encode", "--format", "toon", "--inexact-numbers", "quote"],
        input,
    );
    assert_eq!(
        stdout(&o),
        "id: \"9007199254740993\"\nn[2]: 1.5,\"1e+400\"\nbig: \"12345678901234567890123\""
    );
    let o = pith(&["encode", "--inexact-numbers", "refuse"], input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "pith: -: at id: expected a number that an f64 holds exactly, found 9007199254740993, \
         which readers that use f64 read as 9007199254740992\n"
    );
    let o = pith(
        &["encode", "--inexact-numbers", "refuse"],
        r#"{"a":[1,{"b":1e400}]}"#,
    );
    assert!(
        stderr(&o).starts_with("pith: -: at a[1].b: "),
        "{}",
        stderr(&o)
    );
    let o = pith(
        &["encode", "--inexact-numbers", "refuse"],
        r#"{"a":[1,0.5,9007199254740992,1e300]}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn an_unwritable_stderr_costs_the_message_not_the_exit_status() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // stderr on a full device.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
            .arg("decode")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full)
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"[1,2,3").unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(1));
    }
    // stderr a pipe nobody reads any more.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .arg("decode")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    child.stdin.take().unwrap().write_all(b"{\"a\":").unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
    // A usage error keeps its status too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["decode", "--expand-paths", "safe"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

#[test]
fn a_closed_stdout_is_an_error() {
    let example = repo().join("examples/orders.json");
    for args in ["encode", "decode", "tokens"] {
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" $1 \"$2\" >&-")
            .arg(env!("CARGO_BIN_EXE_pith"))
            .arg(args)
            .arg(&example)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("pith: stdout: "),
            "{args}: {}",
            stderr(&o)
        );
    }
    // The proxy's answers would go nowhere: it does not start the server.
    let marker = std::env::temp_dir().join(format!("pith-mcp-closed-{}", std::process::id()));
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" mcp --no-stats -- touch \"$1\" >&-")
        .arg(env!("CARGO_BIN_EXE_pith"))
        .arg(&marker)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "mcp: {}", stderr(&o));
    assert!(
        stderr(&o).starts_with("pith: stdout: "),
        "mcp: {}",
        stderr(&o)
    );
    assert!(!marker.exists(), "the server was started");
}

/// A parent that discards the output opens `/dev/null` for it, often
/// read-write (Python's `subprocess.DEVNULL`, Node's `stdio: "ignore"`):
/// that is a place to write, not a closed stdout.
#[cfg(unix)]
#[test]
fn a_dev_null_opened_read_write_is_a_place_to_write() {
    let example = repo().join("examples/orders.json");
    for args in ["encode", "decode", "tokens"] {
        let null = std::fs::File::options()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pith"))
            .args([args, example.to_str().unwrap()])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::from(null))
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args}");
    }
}

#[test]
fn error_messages_escape_the_control_characters_they_echo() {
    let o = pith(&["decode"], "a: 1\n\u{1b}[2J\u{7}b c\n");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}[2J\\u{7}b c"), "{err}");
    assert!(err.contains(" 2 | ␛[2J␇b c\n"), "{err}");
    // File names are echoed too.
    let o = pith(&["decode", "no\u{1b}]0;such"], "");
    assert!(
        stderr(&o).starts_with("pith: no\\u{1b}]0;such: "),
        "{}",
        stderr(&o)
    );
}

/// Compact JSON is read as it is, even when it is shaped like pith's
/// wrapper; only the `table` form's marked text is read as one.
#[test]
fn decode_reads_compact_json_as_it_is_and_the_table_form_as_marked() {
    for text in [
        r#"{"value":9007199254740993,"$pith":null}"#,
        r#"{"$pith":"table","value":{"cols":["a"],"dict":{},"rows":[[1]]}}"#,
    ] {
        for args in [&["decode"][..], &["decode", "--format", "json"][..]] {
            let o = pith(args, text);
            assert_eq!(o.status.code(), Some(0), "{args:?} {text}: {}", stderr(&o));
            assert_eq!(stdout(&o), text, "{args:?}");
        }
        let o = pith(&["encode"], text);
        assert_eq!(stdout(&o), text, "auto writes it as its compact JSON");
    }
    let rows = r#"{"t":[{"a":1,"b":"x"},{"a":2,"b":"x"},{"a":3,"b":"x"},{"a":4,"b":"x"}]}"#;
    let encoded = pith(&["encode", "--format", "table"], rows);
    let table = stdout(&encoded);
    assert!(
        table.starts_with(r#"{"$pith": "table", "value": {"t":{"cols":"#),
        "{table}"
    );
    for args in [&["decode"][..], &["decode", "--format", "json"][..]] {
        assert_eq!(stdout(&pith(args, table)), rows, "{args:?}");
    }
    let o = pith(
        &["decode", "--format", "json"],
        r#"{"$pith": "zip", "value": 1}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("expected the name of a form in the wrapper"),
        "{}",
        stderr(&o)
    );
}

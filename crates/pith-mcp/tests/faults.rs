//! Fault tests: the proxy as a real process between a client (this test)
//! and a fault-injecting fake server (`tests/support/fake-server.mjs`).
//!
//! The test binary plays the proxy itself: run with `PITH_MCP_TEST_ROLE=proxy`
//! it calls [`pith_mcp::run`] (what `pith mcp` calls) on the command after
//! `--`, so pith's stdin, stdout, stderr and exit status are real. Every
//! wait is bounded; node is required and its absence fails the run.

use libtest_mimic::{Arguments, Trial};
use pith::Value;
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ROLE: &str = "PITH_MCP_TEST_ROLE";
const GRACE_MS: &str = "PITH_MCP_TEST_GRACE_MS";
const MAX_BYTES: &str = "PITH_MCP_TEST_MAX_BYTES";
/// A budget for the proxy (none unless set, so that the other tests see
/// every result whole).
const BUDGET: &str = "PITH_MCP_TEST_BUDGET";
/// Speak to this URL instead of running the command after `--`.
const URL: &str = "PITH_MCP_TEST_URL";
/// A `--header` for the URL.
const HEADER: &str = "PITH_MCP_TEST_HEADER";
/// Longest wait for any one answer or exit.
const BOUND: Duration = Duration::from_secs(60);

fn main() {
    if std::env::var_os(ROLE).is_some_and(|r| r == "proxy") {
        std::process::exit(proxy_role());
    }
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test("server_killed_mid_call", server_killed_mid_call),
        Trial::test(
            "server_exiting_mid_call_is_a_failure",
            server_exiting_mid_call,
        ),
        Trial::test("non_json_line_is_forwarded", non_json_line_is_forwarded),
        Trial::test("fifty_megabyte_result_untouched", fifty_mb_untouched),
        Trial::test("fifty_megabyte_result_rewritten", fifty_mb_rewritten),
        Trial::test("six_megabyte_result_peak_memory", six_mb_peak_memory),
        Trial::test("ten_thousand_in_flight", ten_thousand_in_flight),
        Trial::test("client_closing_stdin_shuts_down", client_closing_stdin),
        Trial::test("stubborn_server_gets_sigterm", stubborn_server_gets_sigterm),
        Trial::test("sigterm_ignoring_server_gets_sigkill", term_ignoring_server),
        Trial::test("exit_status_passes_through", exit_status_passes_through),
        Trial::test("stderr_passes_through", stderr_passes_through),
        Trial::test("cancelled_requests_are_not_failed", cancelled_requests),
        Trial::test("unrewritten_lines_are_byte_identical", byte_identical),
        Trial::test("missing_server_command_is_an_error", missing_command),
        Trial::test("orphaned_stdout_does_not_hang", orphaned_stdout),
        Trial::test("sigterm_to_pith_stops_the_server", sigterm_to_pith),
        Trial::test("task_results_are_rewritten", task_results),
        Trial::test("every_protocol_revision_passes", every_revision),
        Trial::test("rewrites_keep_the_servers_bytes", rewrites_keep_bytes),
        Trial::test(
            "structured_content_is_dropped_by_default",
            structured_dropped,
        ),
        Trial::test("pith_more_returns_every_row_once", pith_more_pages),
        Trial::test("nothing_fits_is_a_tool_error", nothing_fits),
        Trial::test(
            "closing_stdin_with_a_call_pending_fails",
            closed_with_pending,
        ),
        Trial::test(
            "an_unterminated_last_answer_is_not_glued_to_the_errors",
            unterminated_last_answer,
        ),
        Trial::test(
            "a_fragment_written_before_dying_is_not_glued_to_the_errors",
            fragment_before_dying,
        ),
        Trial::test(
            "closing_stdin_after_an_unterminated_answer_keeps_lines_apart",
            closed_after_unterminated,
        ),
        Trial::test("sigint_and_sighup_reach_the_server_as_such", same_signal),
        Trial::test("batch_answers_are_rewritten", batches),
        Trial::test("remote_session_headers_and_delete", remote_session),
        Trial::test("remote_json_answers", remote_json),
        Trial::test("remote_http_errors_answer_the_call", remote_status),
        Trial::test("remote_stream_dropped_mid_answer", remote_drop),
        Trial::test("remote_stream_resumed", remote_resumed),
        Trial::test("remote_session_expiry_reopens", remote_expiry),
        Trial::test("remote_legacy_http_sse", remote_legacy),
        Trial::test("remote_unreachable", remote_unreachable),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// The proxy: options from the environment, the server after `--`.
fn proxy_role() -> i32 {
    let args: Vec<OsString> = std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect();
    let mut options = pith_mcp::Options::default();
    if let Some(ms) = env_number(GRACE_MS) {
        options.shutdown_grace = Duration::from_millis(ms as u64);
    }
    if let Some(n) = env_number(MAX_BYTES) {
        options.rewrite.max_bytes = n;
    }
    options.rewrite.budget = env_number(BUDGET);
    if let Ok(url) = std::env::var(URL) {
        let headers: Vec<String> = std::env::var(HEADER).into_iter().collect();
        let remote = match pith_mcp::Remote::new(&url, &headers) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("pith: {e}");
                return 2;
            }
        };
        return match pith_mcp::run_remote(&remote, &options) {
            Ok(code) => i32::from(code),
            Err(e) => {
                eprintln!("pith: {e}");
                1
            }
        };
    }
    let Some((command, rest)) = args.split_first() else {
        eprintln!("proxy role: no server command");
        return 2;
    };
    match pith_mcp::run(command, rest, &options) {
        Ok(code) => i32::from(code),
        Err(e) => {
            eprintln!("pith: {e}");
            1
        }
    }
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.parse().ok()
}

// ---------------------------------------------------------------- tests

fn server_killed_mid_call() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--die-after", "3"], &[]);
    s.initialize();
    s.send(&call(10, "rows", r#"{"n":3}"#));
    s.send(&call("\"b\"", "rows", r#"{"n":3}"#));
    s.send(&call(12, "rows", r#"{"n":3}"#));
    let mut ids = Vec::new();
    for _ in 0..3 {
        let line = s.recv().expect("an error response per pending call");
        let v = parse_line(&line);
        let error = v.get("error").expect("an error, not a result");
        assert_eq!(json(error.get("code").unwrap()), "-32000");
        let msg = error.get("message").and_then(Value::as_str).unwrap();
        assert!(msg.contains("killed by signal 9"), "{msg}");
        ids.push(json(v.get("id").unwrap()));
    }
    assert_eq!(
        ids,
        ["10", "\"b\"", "12"],
        "errors in request order, ids as sent"
    );
    assert_eq!(s.recv(), None, "nothing after the errors");
    assert_eq!(s.wait().code(), Some(128 + 9));
    Ok(())
}

fn server_exiting_mid_call() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--exit-after", "1"], &[]);
    s.initialize();
    s.send(&call(5, "rows", r#"{"n":3}"#));
    let v = parse_line(&s.recv().expect("an error response"));
    assert_eq!(json(v.get("id").unwrap()), "5");
    let msg = v
        .get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str);
    assert!(msg.unwrap().contains("exit status 0"));
    assert_eq!(
        s.wait().code(),
        Some(1),
        "unanswered requests make a 0 exit a failure"
    );
    Ok(())
}

fn non_json_line_is_forwarded() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--garbage"], &[]);
    assert_eq!(
        s.recv_after_send(&initialize(1)),
        b"this line is not JSON {\n"
    );
    let init = s.recv().unwrap();
    assert_eq!(json(parse_line(&init).get("id").unwrap()), "1");
    s.send(&call(2, "rows", r#"{"n":30,"tag":"g"}"#));
    assert_eq!(s.recv().unwrap(), b"this line is not JSON {\n");
    let v = parse_line(&s.recv().unwrap());
    assert_eq!(text_items(&v), vec![rows_value(30, "g")]);
    assert!(encodings(&v).iter().all(|e| e == "pith"), "still rewritten");
    s.finish();
    Ok(())
}

fn fifty_mb_untouched() -> Result<(), libtest_mimic::Failed> {
    let (dir, log) = scratch("fifty-untouched");
    let mut s = Session::start(&["--log", log.to_str().unwrap()], &[]);
    s.send(&call(1, "big", r#"{"bytes":52428800}"#));
    let line = s.recv().expect("the 50 MB answer");
    assert!(line.len() > 50 << 20);
    s.finish();
    let sent = std::fs::read(&log).unwrap();
    assert!(
        sent == line,
        "a text over --max-bytes is forwarded byte for byte"
    );
    drop(dir);
    Ok(())
}

fn fifty_mb_rewritten() -> Result<(), libtest_mimic::Failed> {
    let (dir, log) = scratch("fifty-rewritten");
    let mut s = Session::start(
        &["--log", log.to_str().unwrap()],
        &[(MAX_BYTES, "104857600")],
    );
    s.send(&call(1, "big", r#"{"bytes":52428800}"#));
    let line = s.recv().expect("the 50 MB answer");
    s.finish();
    let sent = std::fs::read(&log).unwrap();
    let original = parse_line(&sent);
    let received = parse_line(&line);
    assert_eq!(encodings(&received), ["pith"]);
    assert_eq!(text_items(&received), text_items(&original));
    assert!(
        line.len() < sent.len() / 4 * 3,
        "{} vs {}",
        line.len(),
        sent.len()
    );
    drop(dir);
    Ok(())
}

/// The proxy's peak memory while it rewrites one 6 MB result of nested
/// records with the default budget (the result is cut, and kept whole for
/// `pith_more`): at most 100 MB. (Without a budget the whole result is
/// rewritten and read back, which holds a second copy of the value; that
/// peak is reported, not bounded here.)
fn six_mb_peak_memory() -> Result<(), libtest_mimic::Failed> {
    const LIMIT_KB: u64 = 100 * 1024;
    for budget in [Some("10000"), None] {
        let env: Vec<(&str, &str)> = budget.map(|b| (BUDGET, b)).into_iter().collect();
        let mut s = Session::start(&[], &env);
        s.send(&call(1, "big", r#"{"bytes":6291456,"shape":"issues"}"#));
        let line = s.recv().expect("the 6 MB answer");
        assert_eq!(encodings(&parse_line(&line)), ["pith"], "budget {budget:?}");
        let status = std::fs::read_to_string(format!("/proc/{}/status", s.proxy.id()))
            .expect("the proxy's /proc status");
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status");
        s.finish();
        eprintln!("budget {budget:?}: proxy peak {} MB", peak_kb / 1024);
        if budget.is_some() {
            assert!(
                peak_kb <= LIMIT_KB,
                "budget {budget:?}: peak {peak_kb} kB > {LIMIT_KB} kB"
            );
        }
    }
    Ok(())
}

fn ten_thousand_in_flight() -> Result<(), libtest_mimic::Failed> {
    const N: usize = 10_000;
    let mut s = Session::start(&["--hold", "10000"], &[]);
    let started = Instant::now();
    // Ids alternate numbers and strings; each asks for rows tagged with
    // its own id, so a misrouted answer carries the wrong tag.
    let id_of = |i: usize| {
        if i.is_multiple_of(2) {
            i.to_string()
        } else {
            format!("\"req-{i}\"")
        }
    };
    let mut batch = String::new();
    for i in 0..N {
        let n = 1 + i % 6;
        batch.push_str(&call(
            id_of(i),
            "rows",
            &format!(r#"{{"n":{n},"tag":"t{i}"}}"#),
        ));
        batch.push('\n');
        if batch.len() > 256 << 10 {
            s.send_raw(batch.as_bytes());
            batch.clear();
        }
    }
    s.send_raw(batch.as_bytes());
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut rewritten = 0;
    for _ in 0..N {
        let line = s.recv().expect("every request is answered");
        let v = parse_line(&line);
        let id = json(v.get("id").unwrap());
        let i: usize = id
            .trim_matches('"')
            .trim_start_matches("req-")
            .parse()
            .unwrap();
        assert_eq!(id, id_of(i));
        *seen.entry(id).or_default() += 1;
        assert_eq!(
            text_items(&v),
            vec![rows_value(1 + i % 6, &format!("t{i}"))]
        );
        rewritten += usize::from(!encodings(&v).is_empty());
    }
    assert_eq!(seen.len(), N, "no answer lost");
    assert!(seen.values().all(|&c| c == 1), "no answer duplicated");
    assert!(
        rewritten > N / 3,
        "larger answers were rewritten ({rewritten})"
    );
    s.finish();
    assert!(started.elapsed() < BOUND);
    Ok(())
}

fn client_closing_stdin() -> Result<(), libtest_mimic::Failed> {
    let (dir, pidfile) = scratch("close");
    let mut s = Session::start(&["--pidfile", pidfile.to_str().unwrap()], &[]);
    s.initialize();
    let started = Instant::now();
    s.finish();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "no grace period needed"
    );
    assert!(!alive(&pidfile), "the server is gone");
    drop(dir);
    Ok(())
}

fn stubborn_server_gets_sigterm() -> Result<(), libtest_mimic::Failed> {
    let (dir, pidfile) = scratch("stubborn");
    let mut s = Session::start(
        &["--ignore-eof", "--pidfile", pidfile.to_str().unwrap()],
        &[(GRACE_MS, "300")],
    );
    s.initialize();
    s.close();
    assert_eq!(s.wait().code(), Some(128 + 15));
    assert!(!alive(&pidfile));
    drop(dir);
    Ok(())
}

fn term_ignoring_server() -> Result<(), libtest_mimic::Failed> {
    let (dir, pidfile) = scratch("ignore-term");
    let mut s = Session::start(
        &[
            "--ignore-eof",
            "--ignore-term",
            "--pidfile",
            pidfile.to_str().unwrap(),
        ],
        &[(GRACE_MS, "300")],
    );
    s.initialize();
    let started = Instant::now();
    s.close();
    assert_eq!(s.wait().code(), Some(128 + 9));
    assert!(
        started.elapsed() >= Duration::from_millis(600),
        "two grace periods"
    );
    assert!(!alive(&pidfile));
    drop(dir);
    Ok(())
}

fn exit_status_passes_through() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--exit-code", "7"], &[]);
    s.initialize();
    s.close();
    assert_eq!(s.wait().code(), Some(7));
    Ok(())
}

fn stderr_passes_through() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--stderr", "fake server says hello on stderr"], &[]);
    s.initialize();
    s.finish();
    let err = s.stderr();
    assert!(
        err.contains("fake server says hello on stderr\n"),
        "{err:?}"
    );
    Ok(())
}

fn cancelled_requests() -> Result<(), libtest_mimic::Failed> {
    // The server holds calls until two arrive; the client cancels the first
    // and the server dies on the third: only the second is failed by pith.
    let mut s = Session::start(&["--die-after", "3"], &[]);
    s.initialize();
    s.send(&call(1, "rows", "{}"));
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    s.send(&call(2, "rows", "{}"));
    s.send(&call(3, "rows", "{}"));
    let mut ids = Vec::new();
    while let Some(line) = s.recv() {
        ids.push(json(parse_line(&line).get("id").unwrap()));
    }
    assert_eq!(ids, ["2", "3"]);
    assert_eq!(s.wait().code(), Some(137));
    Ok(())
}

fn byte_identical() -> Result<(), libtest_mimic::Failed> {
    let (dir, log) = scratch("bytes");
    let mut s = Session::start(&["--log", log.to_str().unwrap()], &[]);
    let mut received = Vec::new();
    received.push(s.recv_after_send(&initialize(1)));
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    received.push(s.recv().unwrap());
    s.send(&call(
        3,
        "echo",
        r#"{"text":"{\"a\": [1, 2.50, 1e3, \"\\u00e9\"]}"}"#,
    ));
    received.push(s.recv().unwrap());
    s.send(&call(4, "echo", r#"{"text":"[1, 2, 3]"}"#));
    received.push(s.recv().unwrap());
    s.send(&call(5, "rows", r#"{"n":40}"#));
    received.push(s.recv().unwrap());
    s.send(r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#);
    received.push(s.recv().unwrap());
    s.finish();
    only_rewritten(&log, &received, 4, "", |o, r| {
        assert_eq!(encodings(r), ["pith"]);
        assert_eq!(text_items(o), text_items(r));
    });
    drop(dir);
    Ok(())
}

/// pith takes no part in version negotiation: whatever revision the client
/// asks for (or, in the stateless revision, names on each request instead of
/// an `initialize`) reaches the server and comes back untouched, and tool
/// results are rewritten the same way under each.
fn every_revision() -> Result<(), libtest_mimic::Failed> {
    for (revision, stateless) in [
        ("2025-06-18", false),
        ("2025-11-25", false),
        ("2026-07-28", true),
    ] {
        let (dir, log) = scratch(&format!("rev-{revision}"));
        let mut s = Session::start(&["--log", log.to_str().unwrap()], &[]);
        let mut received = Vec::new();
        if !stateless {
            received.push(s.recv_after_send(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{revision}","capabilities":{{}},"clientInfo":{{"name":"faults","version":"1"}}}}}}"#
            )));
            let answer = parse_line(received.last().unwrap());
            assert_eq!(
                answer
                    .get("result")
                    .and_then(|r| r.get("protocolVersion"))
                    .and_then(Value::as_str),
                Some(revision),
                "the server's answer to {revision}"
            );
        }
        s.send(&format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"rows","arguments":{{"n":30}},"_meta":{{"protocolVersion":"{revision}"}}}}}}"#
        ));
        received.push(s.recv().unwrap());
        s.send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
        received.push(s.recv().unwrap());
        s.close();
        assert!(s.wait().success(), "{revision}");
        let call_at = received.len() - 2;
        only_rewritten(
            &log,
            &received,
            call_at,
            &format!("{revision}: "),
            |o, r| {
                assert_eq!(encodings(r).len(), 1, "{revision}: rewritten");
                assert_eq!(text_items(o), text_items(r), "{revision}");
            },
        );
        drop(dir);
    }
    Ok(())
}

fn missing_command() -> Result<(), libtest_mimic::Failed> {
    let out = Command::new(std::env::current_exe().unwrap())
        .env(ROLE, "proxy")
        .args(["--", "/nonexistent/mcp-server"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start the MCP server `/nonexistent/mcp-server`"),
        "{err}"
    );
    Ok(())
}

fn orphaned_stdout() -> Result<(), libtest_mimic::Failed> {
    let (dir, orphan) = scratch("orphan");
    let mut s = Session::start(
        &["--orphan", orphan.to_str().unwrap()],
        &[(GRACE_MS, "300")],
    );
    s.initialize();
    let started = Instant::now();
    s.close();
    let status = s.wait();
    let elapsed = started.elapsed();
    let pid = std::fs::read_to_string(&orphan).unwrap();
    let _ = Command::new("kill").arg(pid.trim()).status();
    assert!(status.success());
    assert!(
        elapsed < Duration::from_secs(5),
        "a left-behind process holding stdout is not waited for ({elapsed:?})"
    );
    drop(dir);
    Ok(())
}

fn sigterm_to_pith() -> Result<(), libtest_mimic::Failed> {
    let (dir, pidfile) = scratch("sigterm");
    let mut s = Session::start(
        &["--ignore-eof", "--pidfile", pidfile.to_str().unwrap()],
        &[(GRACE_MS, "10000")],
    );
    s.initialize();
    let started = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &s.proxy.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(
        s.wait().code(),
        Some(128 + 15),
        "the server got the SIGTERM"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "at once, not after the grace"
    );
    assert!(!alive(&pidfile));
    drop(dir);
    Ok(())
}

fn task_results() -> Result<(), libtest_mimic::Failed> {
    let (dir, log) = scratch("tasks");
    let mut s = Session::start(&["--log", log.to_str().unwrap()], &[]);
    s.initialize();
    s.send(
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"rows","arguments":{"n":25,"tag":"t"},"task":{"ttl":60000}}}"#,
    );
    let created = s.recv().unwrap();
    s.send(r#"{"jsonrpc":"2.0","id":8,"method":"tasks/result","params":{"taskId":"task-7"}}"#);
    let result = parse_line(&s.recv().unwrap());
    assert_eq!(encodings(&result), ["pith"]);
    assert_eq!(text_items(&result), vec![rows_value(25, "t")]);
    // A task the proxy never saw created passes untouched.
    s.send(r#"{"jsonrpc":"2.0","id":9,"method":"tasks/result","params":{"taskId":"nope"}}"#);
    let unknown = s.recv().unwrap();
    s.finish();
    let sent = std::fs::read(&log).unwrap();
    let sent: Vec<&[u8]> = sent.split_inclusive(|&b| b == b'\n').collect();
    assert!(sent[1] == created, "the task itself passes untouched");
    assert!(sent[3] == unknown);
    drop(dir);
    Ok(())
}

/// A rewritten line equals the server's outside the edited item: `1.0`,
/// `1E2`, `\u00e9`, key order, spacing and unknown fields stay as written.
fn rewrites_keep_bytes() -> Result<(), libtest_mimic::Failed> {
    let (dir, log) = scratch("splice");
    let mut s = Session::start(&["--log", log.to_str().unwrap()], &[]);
    s.initialize();
    let rows = pith::json::stringify(&Value::String(pith::json::stringify_pretty(
        &rows_value(30, "s"),
        2,
    )));
    let result = format!(
        r#"{{"zeta" : 1.0, "content":[{{"text":{rows}, "type":"text", "x-unknown":[1E2,-0.0]}}],"structuredContent":{{"score":1.0,"big":1E2,"name":"café"}}, "_meta":{{"k":1.50}}}}"#
    );
    let args = format!(
        r#"{{"result":{}}}"#,
        pith::json::stringify(&Value::from(result.as_str()))
    );
    s.send(&call(2, "verbatim", &args));
    let got = s.recv().unwrap();
    s.finish();
    let sent = std::fs::read(&log).unwrap();
    let sent = sent
        .split_inclusive(|&b| b == b'\n')
        .nth(1)
        .unwrap()
        .to_vec();
    let received = parse_line(&got);
    let item = &received
        .get("result")
        .unwrap()
        .get("content")
        .unwrap()
        .as_array()
        .unwrap()[0];
    let new_text = pith::json::stringify(item.get("text").unwrap());
    let expected = String::from_utf8(sent)
        .unwrap()
        .replace(&rows, &new_text)
        .replace(
            r#""x-unknown":[1E2,-0.0]}"#,
            r#""x-unknown":[1E2,-0.0],"_meta":{"pith/encoding":"pith"}}"#,
        );
    assert_eq!(String::from_utf8(got).unwrap(), expected);
    drop(dir);
    Ok(())
}

/// With default options, a structuredContent the text holds exactly goes
/// (a client that shows structuredContent sees the shorter text), and the
/// tool's outputSchema is held back from tools/list.
fn structured_dropped() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    let text = pith::json::stringify_pretty(&rows_value(30, "d"), 2);
    let result = format!(
        r#"{{"content":[{{"type":"text","text":{}}}],"structuredContent":{}}}"#,
        pith::json::stringify(&Value::from(text.as_str())),
        pith::json::stringify(&rows_value(30, "d"))
    );
    let args = format!(
        r#"{{"result":{}}}"#,
        pith::json::stringify(&Value::from(result.as_str()))
    );
    s.send(&call(2, "verbatim", &args));
    let v = parse_line(&s.recv().unwrap());
    let r = v.get("result").unwrap();
    assert!(r.get("structuredContent").is_none(), "{v:?}");
    assert_eq!(text_items(&v), vec![rows_value(30, "d")]);
    s.finish();
    Ok(())
}

/// `--budget 2000` on a 200-row result: following pith_more from the first
/// receipt gives back all 200 rows once, in order, each page within 2,000
/// tokens; tools/list names pith_more.
fn pith_more_pages() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&[], &[(BUDGET, "2000")]);
    s.initialize();
    s.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let tools = parse_line(&s.recv().unwrap());
    let names: Vec<String> = tools
        .get("result")
        .unwrap()
        .get("tools")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.get("name").and_then(Value::as_str).unwrap().to_owned())
        .collect();
    assert_eq!(names, ["rows", "echo", "big", "verbatim", "pith_more"]);
    let o200k = pith::tokens::Tokenizer::get(pith::tokens::TokenizerKind::O200k);
    // These rows are cheap in the notation (a constant, a template, two
    // cells): 600 of them take several 2,000-token pages.
    s.send(&call(2, "rows", r#"{"n":600,"tag":"p"}"#));
    let mut message = parse_line(&s.recv().unwrap());
    let mut ids = Vec::new();
    for page in 0.. {
        assert!(page < 100, "pages end");
        let item = &message
            .get("result")
            .unwrap()
            .get("content")
            .unwrap()
            .as_array()
            .unwrap()[0];
        let text = item.get("text").and_then(Value::as_str).unwrap();
        assert!(
            o200k.count(text) <= 2000,
            "page {page}: {} tokens",
            o200k.count(text)
        );
        let back = pith::select::decode(text.as_bytes(), &Default::default()).unwrap();
        for row in back.get("result").and_then(Value::as_array).unwrap() {
            ids.push(json(row.get("id").unwrap()));
        }
        let Some(cursor) = back
            .get("result_omitted")
            .and_then(|r| r.get("cursor"))
            .and_then(Value::as_str)
        else {
            break;
        };
        assert!(
            text.contains("pith_more"),
            "the receipt names the tool: {text}"
        );
        s.send(&call(
            100 + page,
            "pith_more",
            &format!(r#"{{"cursor":"{cursor}"}}"#),
        ));
        message = parse_line(&s.recv().unwrap());
        assert_eq!(json(message.get("id").unwrap()), (100 + page).to_string());
    }
    let want: Vec<String> = (0..600).map(|i| i.to_string()).collect();
    assert_eq!(ids, want, "every row once, in order");
    // An unknown cursor is a tool error, not a protocol error.
    s.send(&call(3, "pith_more", r#"{"cursor":"c-7-00000000"}"#));
    let v = parse_line(&s.recv().unwrap());
    assert_eq!(
        v.get("result").and_then(|r| r.get("isError")),
        Some(&Value::Bool(true))
    );
    s.finish();
    Ok(())
}

/// A result no output within the budget holds: a short notice that sets
/// isError and fits the budget.
fn nothing_fits() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&[], &[(BUDGET, "200")]);
    s.initialize();
    let mut m = pith::Map::new();
    for i in 0..300 {
        m.insert(
            format!("field{i}"),
            Value::from(format!("the value of field {i}")),
        );
    }
    let text = pith::json::stringify_pretty(&Value::Object(m), 2);
    let args = format!(
        r#"{{"text":{}}}"#,
        pith::json::stringify(&Value::from(text.as_str()))
    );
    s.send(&call(2, "echo", &args));
    let v = parse_line(&s.recv().unwrap());
    let r = v.get("result").unwrap();
    assert_eq!(r.get("isError"), Some(&Value::Bool(true)), "{v:?}");
    let notice = r.get("content").unwrap().as_array().unwrap()[0]
        .get("text")
        .and_then(Value::as_str)
        .unwrap();
    let o200k = pith::tokens::Tokenizer::get(pith::tokens::TokenizerKind::O200k);
    assert!(o200k.count(notice) <= 200, "{notice}");
    assert!(
        notice.contains("pith_more") && !notice.contains("--budget"),
        "{notice}"
    );
    s.finish();
    Ok(())
}

/// The client closes stdin while a call is pending: the call gets an error
/// and pith exits non-zero.
fn closed_with_pending() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--hold", "2"], &[]);
    s.initialize();
    s.send(&call(5, "rows", r#"{"n":3}"#));
    s.close();
    let v = parse_line(&s.recv().expect("an error for the pending call"));
    assert_eq!(json(v.get("id").unwrap()), "5");
    assert!(v.get("error").is_some());
    assert_eq!(s.wait().code(), Some(1));
    Ok(())
}

/// A complete answer the server writes without its newline, as its last bytes.
const UNTERMINATED: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;

/// The server answers the first of two calls without a newline and exits:
/// the answer reaches the client whole, on a line of its own, and the
/// error for the second call follows on the next line.
fn unterminated_last_answer() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--raw-after", "2", UNTERMINATED], &[]);
    s.initialize();
    s.send(&call(1, "rows", "{}"));
    s.send(&call(2, "rows", "{}"));
    let lines = s.recv_all();
    count_lines(&lines, 2);
    every_line_is_json(&lines);
    assert!(
        lines[0] == format!("{UNTERMINATED}\n").as_bytes(),
        "the server's bytes, then a newline: {}",
        show(&lines[0])
    );
    assert_gone(&lines[1], "2", "exit status 0");
    assert_eq!(s.wait().code(), Some(1));
    Ok(())
}

/// The server dies halfway through writing an answer: what it wrote
/// reaches the client as it was, and the errors for both calls each start
/// a line of their own after it.
fn fragment_before_dying() -> Result<(), libtest_mimic::Failed> {
    let fragment = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"te"#;
    let mut s = Session::start(&["--raw-after", "2", fragment, "--exit-code", "3"], &[]);
    s.initialize();
    s.send(&call(1, "rows", "{}"));
    s.send(&call(2, "rows", "{}"));
    let lines = s.recv_all();
    count_lines(&lines, 3);
    assert!(
        lines[0] == format!("{fragment}\n").as_bytes(),
        "the fragment as written, then a newline: {}",
        show(&lines[0])
    );
    every_line_is_json(&lines[1..]);
    assert_gone(&lines[1], "1", "exit status 3");
    assert_gone(&lines[2], "2", "exit status 3");
    assert_eq!(s.wait().code(), Some(3));
    Ok(())
}

/// The client closes stdin after the server wrote an answer without its
/// newline; the server outlives the grace period and gets SIGTERM. The
/// answer and the error for the other call arrive as two lines.
fn closed_after_unterminated() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(
        &["--raw-after", "2", UNTERMINATED, "--ignore-eof"],
        &[(GRACE_MS, "500")],
    );
    s.initialize();
    s.send(&call(1, "rows", "{}"));
    s.send(&call(2, "rows", "{}"));
    s.close();
    let lines = s.recv_all();
    count_lines(&lines, 2);
    every_line_is_json(&lines);
    assert!(
        lines[0] == format!("{UNTERMINATED}\n").as_bytes(),
        "{}",
        show(&lines[0])
    );
    assert_gone(&lines[1], "2", "killed by signal 15");
    assert_eq!(s.wait().code(), Some(128 + 15));
    Ok(())
}

/// There are `n` lines (all shown when there are not).
fn count_lines(lines: &[Vec<u8>], n: usize) {
    let shown: Vec<String> = lines.iter().map(|l| show(l)).collect();
    assert_eq!(lines.len(), n, "{shown:?}");
}

/// Each line ends with a newline and holds one JSON text.
fn every_line_is_json(lines: &[Vec<u8>]) {
    for line in lines {
        let text = line.strip_suffix(b"\n").expect("a whole line");
        assert!(
            pith::json::parse_bytes(text).is_ok(),
            "not one JSON message: {}",
            show(line)
        );
    }
}

/// `line` is the error for the call `id`, naming how the server ended.
fn assert_gone(line: &[u8], id: &str, how: &str) {
    let v = parse_line(line);
    assert_eq!(json(v.get("id").unwrap()), id);
    let error = v.get("error").expect("an error, not a result");
    assert_eq!(json(error.get("code").unwrap()), "-32000");
    let msg = error.get("message").and_then(Value::as_str).unwrap();
    assert!(msg.contains(how), "{msg}");
}

/// SIGINT and SIGHUP sent to pith reach the server as the same signal.
fn same_signal() -> Result<(), libtest_mimic::Failed> {
    for sig in ["INT", "HUP"] {
        let (dir, file) = scratch(&format!("signal-{sig}"));
        let mut s = Session::start(
            &["--ignore-eof", "--signal-log", file.to_str().unwrap()],
            &[(GRACE_MS, "10000")],
        );
        s.initialize();
        let sent = Command::new("kill")
            .args([format!("-{sig}"), s.proxy.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        assert_eq!(s.wait().code(), Some(0));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("SIG{sig}"));
        drop(dir);
    }
    Ok(())
}

/// A batch of answers: each tool result in it is rewritten.
fn batches() -> Result<(), libtest_mimic::Failed> {
    let mut s = Session::start(&["--batch"], &[]);
    s.initialize();
    s.send(&format!(
        "[{},{},{}]",
        call(1, "rows", r#"{"n":20,"tag":"a"}"#),
        call(2, "echo", r#"{"text":"hello"}"#),
        call(3, "rows", r#"{"n":25,"tag":"b"}"#)
    ));
    let v = parse_line(&s.recv().unwrap());
    let answers = v.as_array().expect("one batch of answers");
    assert_eq!(answers.len(), 3);
    assert_eq!(encodings(&answers[0]), ["pith"]);
    assert_eq!(text_items(&answers[0]), vec![rows_value(20, "a")]);
    assert!(encodings(&answers[1]).is_empty());
    assert_eq!(text_items(&answers[2]), vec![rows_value(25, "b")]);
    s.finish();
    Ok(())
}

/// A fake HTTP MCP server (`tests/support/http-server.mjs`) and its port.
struct HttpServer {
    child: Child,
    port: u16,
    log: PathBuf,
    _dir: ScratchDir,
}

impl HttpServer {
    fn start(name: &str, flags: &[&str]) -> HttpServer {
        let (dir, log) = scratch(&format!("http-{name}"));
        let mut child = Command::new(node())
            .arg(support().join("http-server.mjs"))
            .args(flags)
            .arg("--log")
            .arg(&log)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("starting the HTTP server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the server's port");
        HttpServer {
            child,
            port,
            log,
            _dir: dir,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The requests it got: `METHOD path session version x-token`.
    fn requests(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn remote(server: &HttpServer, path: &str, env: &[(&str, &str)]) -> Session {
    let url = server.url(path);
    let mut all = vec![(URL, url.as_str())];
    all.extend_from_slice(env);
    Session::start_with(&[], &all, false)
}

/// Session ids and the protocol version go with every request after
/// initialize, headers read the environment, and the session ends with DELETE.
fn remote_session() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("session", &[]);
    let mut s = remote(
        &server,
        "/mcp",
        &[
            (HEADER, "X-Token: t-${PITH_FAULTS_SECRET}"),
            ("PITH_FAULTS_SECRET", "42"),
        ],
    );
    s.initialize();
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    s.send(&call(2, "rows", r#"{"n":30,"tag":"h"}"#));
    let v = parse_line(&s.recv().unwrap());
    assert_eq!(encodings(&v), ["pith"], "rewritten as over stdio");
    assert_eq!(text_items(&v), vec![rows_value(30, "h")]);
    s.finish();
    let reqs = server.requests();
    assert!(reqs[0].starts_with("POST /mcp - - t-42"), "{reqs:?}");
    assert!(
        reqs.iter().any(|r| r == "POST /mcp s-1 2025-06-18 t-42"),
        "{reqs:?}"
    );
    assert!(
        reqs.iter().any(|r| r.starts_with("GET /mcp s-1")),
        "the GET stream: {reqs:?}"
    );
    assert_eq!(
        reqs.last().unwrap(),
        "DELETE /mcp s-1 2025-06-18 t-42",
        "{reqs:?}"
    );
    Ok(())
}

fn remote_json() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("json", &["--json"]);
    let mut s = remote(&server, "/mcp", &[]);
    s.initialize();
    rows_call(&mut s, 2, 25, "j");
    s.finish();
    Ok(())
}

/// An HTTP error for a call answers that call with a JSON-RPC error; the
/// session goes on.
fn remote_status() -> Result<(), libtest_mimic::Failed> {
    for status in ["500", "403"] {
        let server = HttpServer::start(&format!("status-{status}"), &["--status", status]);
        let mut s = remote(&server, "/mcp", &[]);
        s.initialize();
        s.send(&call(2, "rows", "{}"));
        let v = parse_line(&s.recv().unwrap());
        let msg = v
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .unwrap();
        assert!(
            msg.contains(&format!("HTTP {status}")) && msg.contains("injected failure"),
            "{msg}"
        );
        s.send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
        let v = parse_line(&s.recv().unwrap());
        assert!(v.get("result").is_some());
        s.finish();
    }
    Ok(())
}

/// The stream of an answer breaks before the answer: the call gets an
/// error, what came before it is delivered.
fn remote_drop() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("drop", &["--drop"]);
    let mut s = remote(&server, "/mcp", &[]);
    s.initialize();
    s.send(&call(2, "rows", "{}"));
    let note = parse_line(&s.recv().unwrap());
    assert_eq!(
        note.get("method").and_then(Value::as_str),
        Some("notifications/message")
    );
    let v = parse_line(&s.recv().unwrap());
    let msg = v
        .get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap();
    assert!(msg.contains("closed the stream before answering"), "{msg}");
    s.finish();
    Ok(())
}

/// A broken stream whose events are numbered is resumed with Last-Event-ID.
fn remote_resumed() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("resume", &["--drop", "--resumable"]);
    let mut s = remote(&server, "/mcp", &[]);
    s.initialize();
    s.send(&call(2, "rows", r#"{"n":20,"tag":"r"}"#));
    let _note = s.recv().unwrap();
    let v = parse_line(&s.recv().unwrap());
    assert_eq!(text_items(&v), vec![rows_value(20, "r")]);
    s.finish();
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.starts_with("GET /mcp s-1"))
    );
    Ok(())
}

/// The server forgets the session: pith opens it again with the client's
/// initialize and sends the call again; the client sees one answer.
fn remote_expiry() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("expire", &["--expire", "1"]);
    let mut s = remote(&server, "/mcp", &[]);
    s.initialize();
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    s.send(&call(2, "rows", r#"{"n":3,"tag":"e"}"#));
    s.send(&call(3, "rows", r#"{"n":4,"tag":"e"}"#));
    let mut ids: Vec<String> = (0..2)
        .map(|_| json(parse_line(&s.recv().unwrap()).get("id").unwrap()))
        .collect();
    ids.sort();
    assert_eq!(ids, ["2", "3"]);
    s.finish();
    let reqs = server.requests();
    assert!(
        reqs.iter().any(|r| r.starts_with("POST /mcp s-2")),
        "a second session: {reqs:?}"
    );
    Ok(())
}

fn remote_legacy() -> Result<(), libtest_mimic::Failed> {
    let server = HttpServer::start("legacy", &["--legacy"]);
    let mut s = remote(&server, "/sse", &[]);
    s.initialize();
    let v = rows_call(&mut s, 2, 30, "l");
    assert_eq!(encodings(&v), ["pith"]);
    s.finish();
    let reqs = server.requests();
    assert!(
        reqs.iter()
            .any(|r| r.starts_with("POST /messages?sessionId=legacy-1")),
        "{reqs:?}"
    );
    Ok(())
}

fn remote_unreachable() -> Result<(), libtest_mimic::Failed> {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut s = Session::start_with(&[], &[(URL, &url)], false);
    s.send(&initialize(1));
    let v = parse_line(&s.recv().unwrap());
    let msg = v
        .get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap();
    assert!(msg.starts_with(&format!("cannot reach {url}")), "{msg}");
    s.finish();
    Ok(())
}

// ---------------------------------------------------------------- helpers

/// A client talking to the proxy process.
struct Session {
    proxy: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Session {
    fn start(server_flags: &[&str], env: &[(&str, &str)]) -> Session {
        Session::start_with(server_flags, env, true)
    }

    /// With `stdio`, the proxy runs the fake stdio server; else the
    /// environment names its URL.
    fn start_with(server_flags: &[&str], env: &[(&str, &str)], stdio: bool) -> Session {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.env(ROLE, "proxy").arg("--");
        if stdio {
            command.arg(node()).arg(support().join("fake-server.mjs"));
        }
        command
            .args(server_flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut proxy = command.spawn().expect("starting the proxy");
        let stdout = proxy.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = proxy.stderr.take().unwrap();
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Session {
            stdin: proxy.stdin.take(),
            proxy,
            lines,
            stderr,
        }
    }

    fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("writing to the proxy");
        stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Option<Vec<u8>> {
        match self.lines.recv_timeout(BOUND) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.proxy.kill();
                panic!("no line from the proxy within {BOUND:?}");
            }
        }
    }

    /// Every line until the proxy's stdout closes.
    fn recv_all(&mut self) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| self.recv()).collect()
    }

    fn recv_after_send(&mut self, line: &str) -> Vec<u8> {
        self.send(line);
        self.recv().expect("an answer")
    }

    fn initialize(&mut self) {
        let line = self.recv_after_send(&initialize(0));
        assert_eq!(json(parse_line(&line).get("id").unwrap()), "0");
    }

    fn close(&mut self) {
        self.stdin = None;
    }

    /// Closes stdin and expects a clean exit.
    fn finish(&mut self) {
        self.close();
        let status = self.wait();
        assert!(status.success(), "{status}");
    }

    fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + BOUND;
        loop {
            if let Some(status) = self.proxy.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.proxy.kill();
                panic!("the proxy did not exit within {BOUND:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn stderr(&self) -> String {
        // The pipe closes when the proxy and the server are gone; give the
        // reader thread a moment to take the last bytes.
        std::thread::sleep(Duration::from_millis(100));
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.proxy.kill();
        let _ = self.proxy.wait();
    }
}

fn node() -> &'static str {
    static CHECKED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    CHECKED.get_or_init(|| {
        let ok = Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "node is required for the MCP proxy fault tests");
    });
    "node"
}

fn support() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support")
}

/// A fresh folder and a file path in it.
fn scratch(name: &str) -> (ScratchDir, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("faults-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    (ScratchDir(dir), file)
}

struct ScratchDir(PathBuf);

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn alive(pidfile: &Path) -> bool {
    let pid = std::fs::read_to_string(pidfile).expect("the server wrote its pid");
    // A zombie has been reaped by the time the proxy exits.
    Path::new("/proc").join(pid.trim()).exists()
}

fn initialize(id: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"faults","version":"1"}}}}}}"#
    )
}

fn call(id: impl std::fmt::Display, tool: &str, args: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
    )
}

/// Compares the lines the client received with those the server sent
/// (its `log`): line `at`, a rewritten tool result, goes to `rewritten`
/// (as sent, as received); every other line must pass byte for byte.
/// `label` starts every message.
fn only_rewritten(
    log: &Path,
    received: &[Vec<u8>],
    at: usize,
    label: &str,
    rewritten: impl Fn(&Value, &Value),
) {
    let sent = std::fs::read(log).unwrap();
    let sent: Vec<&[u8]> = sent.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(sent.len(), received.len(), "{label}");
    for (i, (a, b)) in sent.iter().zip(received).enumerate() {
        if i == at {
            rewritten(&parse_line(a), &parse_line(b));
        } else {
            let a = declared(a);
            assert!(
                a == *b,
                "{label}line {i} differs:\n{}\n{}",
                show(&a),
                show(b)
            );
        }
    }
}

/// A line of the server's as the client gets it when it is not rewritten:
/// the same bytes, but that the fake server's `initialize` answer has its
/// tools capability declare `listChanged` (the proxy may send the client
/// `notifications/tools/list_changed`).
fn declared(line: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    const TOOLS: &str = r#""capabilities":{"tools":{}}"#;
    if !text.contains(r#""serverInfo""#) || !text.contains(TOOLS) {
        return line.to_vec();
    }
    text.replacen(TOOLS, r#""capabilities":{"tools":{"listChanged":true}}"#, 1)
        .into_bytes()
}

fn parse_line(line: &[u8]) -> Value {
    pith::json::parse_bytes(line.trim_ascii_end()).expect("a JSON message")
}

fn json(v: &Value) -> String {
    pith::json::stringify(v)
}

fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(&b[..b.len().min(300)]).into_owned()
}

/// Calls the `rows` tool and checks the answer holds exactly its rows.
fn rows_call(s: &mut Session, id: u32, n: usize, tag: &str) -> Value {
    s.send(&call(id, "rows", &format!(r#"{{"n":{n},"tag":"{tag}"}}"#)));
    let v = parse_line(&s.recv().unwrap());
    assert_eq!(text_items(&v), vec![rows_value(n, tag)]);
    v
}

/// The values of a result's text items, decoded by their `_meta` encoding.
fn text_items(message: &Value) -> Vec<Value> {
    let items = message
        .get("result")
        .and_then(|r| r.get("content"))
        .and_then(Value::as_array)
        .expect("a tools/call result");
    items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("text"))
        .map(|i| {
            let text = i.get("text").and_then(Value::as_str).unwrap();
            let encoding = i
                .get("_meta")
                .and_then(|m| m.get(pith_mcp::ENCODING_META_KEY))
                .and_then(Value::as_str);
            match encoding {
                Some(_) => pith::select::decode(text.as_bytes(), &Default::default()).unwrap(),
                None => pith::json::parse(text).unwrap(),
            }
        })
        .collect()
}

fn encodings(message: &Value) -> Vec<String> {
    let items = message
        .get("result")
        .and_then(|r| r.get("content"))
        .and_then(Value::as_array)
        .unwrap();
    items
        .iter()
        .filter_map(|i| i.get("_meta")?.get(pith_mcp::ENCODING_META_KEY)?.as_str())
        .map(str::to_owned)
        .collect()
}

/// What the fake server's `rows` tool returns, as a value.
fn rows_value(n: usize, tag: &str) -> Value {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id":{i},"tag":"{tag}","name":"row-{i}","active":{},"score":{i}.25}}"#,
                i % 2 == 0
            )
        })
        .collect();
    pith::json::parse(&format!("[{}]", rows.join(","))).unwrap()
}

//! What the proxy costs: added latency per small `tools/call`, messages per
//! second through it, and the time to rewrite one large result.
//!
//! Run with `cargo bench -p pith-mcp`. The bench binary plays three parts:
//! the client (measuring), a minimal MCP server written in Rust (so the
//! server adds as little noise as possible), and the proxy (calling
//! [`pith_mcp::run`], what `pith mcp` runs). Both arms of each comparison
//! talk to the same server over real pipes in the same run, so the figures
//! are differences and ratios measured side by side. It exits non-zero when
//! a target is missed: median added latency at most 1 ms, at least 10,000
//! small messages per second through the proxy.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// First argument of the server part.
const SERVER: &str = "--role=server";
/// First argument of the proxy part.
const PROXY: &str = "--role=proxy";
/// Round trips per latency sample set.
const ROUND_TRIPS: usize = 3_000;
/// Requests per throughput run.
const PIPELINED: usize = 50_000;
/// Throughput runs per arm; the median is reported.
const RUNS: usize = 5;

/// A small result: JSON too small to be worth rewriting, so every call
/// takes the whole decision path (parse, render, count tokens) and is
/// forwarded as it came.
const SMALL_RESULT: &str = r#"{"content":[{"type":"text","text":"{\"temperature\":33,\"conditions\":\"Cloudy\",\"humidity\":82}"}],"structuredContent":{"temperature":33,"conditions":"Cloudy","humidity":82}}"#;

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some(SERVER) => return server(),
        Some(PROXY) => std::process::exit(proxy()),
        _ => {}
    }
    let mut ok = true;

    let direct = latency(false);
    let proxied = latency(true);
    let added = proxied.saturating_sub(direct);
    println!(
        "latency per small tools/call (median of {ROUND_TRIPS}): direct {} µs, through pith {} µs, added {} µs",
        direct.as_micros(),
        proxied.as_micros(),
        added.as_micros()
    );
    ok &= verdict("added latency ≤ 1 ms", added <= Duration::from_millis(1));

    let direct = median((0..RUNS).map(|_| throughput(false)).collect());
    let proxied = median((0..RUNS).map(|_| throughput(true)).collect());
    println!(
        "pipelined small tools/calls (median of {RUNS} runs of {PIPELINED}): direct {direct:.0}/s, through pith {proxied:.0}/s \
         = {:.0} messages/s (request + response)",
        proxied * 2.0
    );
    ok &= verdict(
        "≥ 10,000 messages/s through pith",
        proxied * 2.0 >= 10_000.0,
    );

    let (bytes, time, saved) = large_rewrite();
    println!(
        "rewrite_text on one {:.1} MiB result: {} ms, {saved:.0}% fewer tokens",
        bytes as f64 / (1 << 20) as f64,
        time.as_millis()
    );
    if !ok {
        std::process::exit(1);
    }
}

fn verdict(what: &str, pass: bool) -> bool {
    println!("  {} {what}", if pass { "PASS" } else { "FAIL" });
    pass
}

/// Median round-trip time of one small call, sent only after the previous
/// answer arrived.
fn latency(through_pith: bool) -> Duration {
    let mut peer = Peer::start(through_pith);
    let mut samples = Vec::with_capacity(ROUND_TRIPS);
    let mut line = Vec::new();
    for i in 0..ROUND_TRIPS + 200 {
        let request = request(i);
        let started = Instant::now();
        peer.stdin.write_all(request.as_bytes()).unwrap();
        peer.stdin.flush().unwrap();
        line.clear();
        peer.stdout.read_until(b'\n', &mut line).unwrap();
        let elapsed = started.elapsed();
        // The first calls warm caches and the tokenizer; they do not count.
        if i >= 200 {
            samples.push(elapsed);
        }
        assert!(line.starts_with(b"{\"jsonrpc\""), "an answer");
    }
    peer.finish();
    samples.sort();
    samples[samples.len() / 2]
}

/// Answered calls per second with every request written at once.
fn throughput(through_pith: bool) -> f64 {
    let mut peer = Peer::start(through_pith);
    let started = Instant::now();
    let mut stdin = peer.stdin;
    let writer = std::thread::spawn(move || {
        let mut w = BufWriter::with_capacity(64 << 10, &mut stdin);
        for i in 0..PIPELINED {
            w.write_all(request(i).as_bytes()).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        stdin
    });
    let mut line = Vec::new();
    for _ in 0..PIPELINED {
        line.clear();
        let n = peer.stdout.read_until(b'\n', &mut line).unwrap();
        assert!(n > 0, "every request is answered");
    }
    let rate = PIPELINED as f64 / started.elapsed().as_secs_f64();
    peer.stdin = writer.join().unwrap();
    peer.finish();
    rate
}

/// Time and token saving of rewriting one large pretty-printed result.
fn large_rewrite() -> (usize, Duration, f64) {
    let rows: Vec<String> = (0..75_000)
        .map(|i| {
            format!(
                "  {{\n    \"id\": {i},\n    \"name\": \"item-{i}\",\n    \"price\": {}.{:02},\n    \"tags\": [\"a\", \"b\"],\n    \"stock\": {}\n  }}",
                i % 997,
                i % 100,
                i % 13
            )
        })
        .collect();
    let text = format!("[\n{}\n]", rows.join(",\n"));
    let options = pith_mcp::RewriteOptions {
        max_bytes: usize::MAX,
        ..pith_mcp::RewriteOptions::default()
    };
    // Once to load the vocabulary, then timed.
    let _ = pith_mcp::rewrite_text("[1]", &options);
    let started = Instant::now();
    let rewritten = pith_mcp::rewrite_text(&text, &options).expect("worth rewriting");
    let time = started.elapsed();
    let saved = 100.0 * (1.0 - rewritten.tokens_after as f64 / rewritten.tokens_before as f64);
    (text.len(), time, saved)
}

fn request(i: usize) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/call\",\"params\":{{\"name\":\"get_weather\",\"arguments\":{{\"city\":\"Chicago\"}}}}}}\n"
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The server, directly or behind the proxy.
struct Peer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Peer {
    fn start(through_pith: bool) -> Peer {
        let exe = std::env::current_exe().unwrap();
        let mut command = Command::new(&exe);
        if through_pith {
            command.args([PROXY, "--"]).arg(&exe);
        }
        command.arg(SERVER);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Peer {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
        }
    }

    fn finish(self) {
        drop(self.stdin);
        let mut child = self.child;
        assert!(child.wait().unwrap().success());
    }
}

/// The proxy part: `pith mcp -- <this binary as the server>`.
fn proxy() -> i32 {
    let args: Vec<OsString> = std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect();
    let Some((command, rest)) = args.split_first() else {
        return 2;
    };
    let options = pith_mcp::Options::default();
    match pith_mcp::run(command, rest, &options) {
        Ok(code) => i32::from(code),
        Err(e) => {
            eprintln!("pith: {e}");
            1
        }
    }
}

/// The server part: answers every `tools/call` at once with [`SMALL_RESULT`].
fn server() {
    let stdin = std::io::stdin();
    let mut reader = BufReader::with_capacity(64 << 10, stdin.lock());
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(64 << 10, stdout.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(message) = pith::json::parse_bytes(line.trim_ascii_end()) else {
            continue;
        };
        let Some(id) = message.get("id") else {
            continue;
        };
        writeln!(
            out,
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{SMALL_RESULT}}}",
            pith::json::to_string(id)
        )
        .unwrap();
        if reader.buffer().is_empty() {
            out.flush().unwrap();
        }
    }
    out.flush().unwrap();
}

//! What the proxy costs: added latency per small `tools/call`, messages per
//! second through it, and the time to rewrite one large result.
//!
//! Run with `cargo bench -p pith-mcp`. The bench binary plays three parts:
//! the client (measuring), a minimal MCP server written in Rust (so the
//! server adds as little noise as possible), over stdio or over HTTP on
//! 127.0.0.1, and the proxy (calling [`pith_mcp::run`] or
//! [`pith_mcp::run_remote`], what `pith mcp` and `pith mcp --url` run).
//! Both arms of each comparison talk to the same server in the same run,
//! so the figures are differences and ratios measured side by side. It
//! exits non-zero when a target is missed: median added latency at most
//! 1 ms over stdio and over loopback HTTP, at least 10,000 small messages
//! per second through the proxy, and a `ping` answered right after a 2 MB
//! result of 80,000 keys delayed by at most 100 ms.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// First argument of the server part.
const SERVER: &str = "--role=server";
/// First argument of the proxy part.
const PROXY: &str = "--role=proxy";
/// First argument of the proxy part in front of a URL (the second).
const PROXY_URL: &str = "--role=proxy-url";
/// First argument of the server that answers `big` with a 2 MB result.
const BIG_SERVER: &str = "--role=big-server";
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
        Some(PROXY_URL) => std::process::exit(proxy_url()),
        Some(BIG_SERVER) => return big_server(),
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

    let http = HttpServer::start();
    let direct = http_latency(&http);
    let proxied = latency_of(Peer::start_url(&http.url()));
    let added = proxied.saturating_sub(direct);
    println!(
        "latency per small tools/call over loopback HTTP (median of {ROUND_TRIPS}): direct {} µs, through pith --url {} µs, added {} µs",
        direct.as_micros(),
        proxied.as_micros(),
        added.as_micros()
    );
    ok &= verdict(
        "added latency over HTTP ≤ 1 ms",
        added <= Duration::from_millis(1),
    );

    let direct = ping_delay(false);
    let proxied = ping_delay(true);
    println!(
        "ping answered after a {:.1} MiB result of 80,000 keys (median of {PING_RUNS}): direct {} ms, through pith {} ms (spread {}–{} ms)",
        BIG_BYTES as f64 / (1 << 20) as f64,
        direct[direct.len() / 2].as_millis(),
        proxied[proxied.len() / 2].as_millis(),
        proxied[0].as_millis(),
        proxied[proxied.len() - 1].as_millis(),
    );
    ok &= verdict(
        "the ping is delayed ≤ 100 ms beyond the direct one",
        proxied[proxied.len() / 2].saturating_sub(direct[direct.len() / 2])
            <= Duration::from_millis(100),
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
    latency_of(Peer::start(through_pith))
}

fn latency_of(mut peer: Peer) -> Duration {
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

/// Runs of the ping-delay measurement per arm.
const PING_RUNS: usize = 5;
/// The approximate size of the big result.
const BIG_BYTES: usize = 2 << 20;

/// How long a `ping` sent right after a call for a 2 MB result takes to be
/// answered (the server answers the call first, then the ping), sorted.
fn ping_delay(through_pith: bool) -> Vec<Duration> {
    let mut out = Vec::new();
    for _ in 0..PING_RUNS {
        let exe = std::env::current_exe().unwrap();
        let mut command = Command::new(&exe);
        if through_pith {
            command.args([PROXY, "--"]).arg(&exe);
        }
        let mut child = command
            .arg(BIG_SERVER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
        let started = Instant::now();
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"big\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
            .unwrap();
        stdin.flush().unwrap();
        let mut ping = None;
        let mut line = Vec::new();
        for _ in 0..2 {
            line.clear();
            stdout.read_until(b'\n', &mut line).unwrap();
            if line.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":2,") {
                ping = Some(started.elapsed());
            }
        }
        out.push(ping.expect("the ping is answered"));
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }
    out.sort();
    out
}

/// The server part that answers `big` with one JSON object of 80,000 keys
/// (about 2 MB of text) and `ping` with `{}`, in the order asked.
fn big_server() {
    let mut text = String::from("{");
    for i in 0..80_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("\"key-{i:06}\":\"value number {i}\""));
    }
    text.push('}');
    let big = format!(
        "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}]}}",
        pith::json::stringify(&pith::Value::from(text.as_str()))
    );
    serve(
        |message| match message.get("method").and_then(pith::Value::as_str) {
            Some("tools/call") => big.clone(),
            _ => "{}".to_owned(),
        },
    );
}

/// A minimal MCP server over HTTP/1.1 on 127.0.0.1 (keep-alive, JSON
/// answers, a session id), on threads of this process.
struct HttpServer {
    port: u16,
}

impl HttpServer {
    fn start() -> HttpServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                std::thread::spawn(move || serve_http(conn));
            }
        });
        HttpServer { port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

fn serve_http(conn: std::net::TcpStream) {
    let _ = conn.set_nodelay(true);
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut writer = conn;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == "\r\n" {
                break;
            }
            if let Some((k, v)) = h.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if std::io::Read::read_exact(&mut reader, &mut body).is_err() {
            return;
        }
        let reply = if request_line.starts_with("POST") {
            match pith::json::parse_bytes(&body)
                .ok()
                .and_then(|m| m.get("id").map(pith::json::stringify))
            {
                Some(id) => {
                    let b =
                        format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{SMALL_RESULT}}}");
                    format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: {}\r\n\r\n{b}",
                        b.len()
                    )
                }
                None => "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n".to_owned(),
            }
        } else if request_line.starts_with("DELETE") {
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".to_owned()
        } else {
            "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n".to_owned()
        };
        if writer.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

/// Median round trip of one small call POSTed straight to the server on a
/// kept-alive connection, as an HTTP client without pith would.
fn http_latency(server: &HttpServer) -> Duration {
    let conn = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    conn.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut writer = conn;
    let mut samples = Vec::with_capacity(ROUND_TRIPS);
    for i in 0..ROUND_TRIPS + 200 {
        let body = request(i);
        let body = body.trim_end();
        let started = Instant::now();
        write!(
            writer,
            "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        writer.flush().unwrap();
        let mut length = 0;
        loop {
            let mut h = String::new();
            reader.read_line(&mut h).unwrap();
            if h == "\r\n" {
                break;
            }
            if let Some((k, v)) = h.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap();
            }
        }
        let mut answer = vec![0; length];
        std::io::Read::read_exact(&mut reader, &mut answer).unwrap();
        let elapsed = started.elapsed();
        if i >= 200 {
            samples.push(elapsed);
        }
    }
    samples.sort();
    samples[samples.len() / 2]
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
    // Whole, not cut to a budget: the cost of the rewrite itself.
    let options = pith_mcp::RewriteOptions::default()
        .max_bytes(usize::MAX)
        .budget(None);
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
        Peer::spawn(command)
    }

    /// `pith mcp --url URL` as the peer.
    fn start_url(url: &str) -> Peer {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.args([PROXY_URL, url]);
        Peer::spawn(command)
    }

    fn spawn(mut command: Command) -> Peer {
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

/// The proxy part in front of a URL: `pith mcp --url URL`.
fn proxy_url() -> i32 {
    let Some(url) = std::env::args().nth(2) else {
        return 2;
    };
    let remote = pith_mcp::Remote::new(&url, &[]).expect("a URL");
    match pith_mcp::run_remote(&remote, &pith_mcp::Options::default()) {
        Ok(code) => i32::from(code),
        Err(e) => {
            eprintln!("pith: {e}");
            1
        }
    }
}

/// The server part: answers every `tools/call` at once with [`SMALL_RESULT`].
fn server() {
    serve(|_| SMALL_RESULT.to_owned());
}

/// Answers every request on stdin with `result(request)`, in order,
/// flushing when no more requests are waiting.
fn serve(result: impl Fn(&pith::Value) -> String) {
    let stdin = std::io::stdin();
    let mut reader = BufReader::with_capacity(64 << 10, stdin.lock());
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(4 << 20, stdout.lock());
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
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{}}}",
            pith::json::stringify(id),
            result(&message)
        )
        .unwrap();
        if reader.buffer().is_empty() {
            out.flush().unwrap();
        }
    }
    out.flush().unwrap();
}

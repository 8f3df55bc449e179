//! Peak memory of the `pith` binary against the size of its document.
//!
//! Builds the shapes of issue 12 as files, runs `pith encode` and `pith
//! decode` on them, one process each, and reads each process's peak
//! resident set (`ru_maxrss` from `wait4`). The ratio is the peak over the
//! size of the document as compact JSON: the bytes `encode` reads and
//! `decode` writes back. Every decode's output is checked against that JSON,
//! byte for byte.
//!
//! Beside each shape it prints what the value tree `pith::json::parse`
//! builds of the shape's JSON takes by itself, measured in the builder's
//! process with a counting allocator: the bytes asked of the allocator (a
//! floor under the tree's cost with any allocator), and the same
//! allocations in glibc's chunks (what the `pith` binary's allocator takes
//! for them: 16-byte multiples with an 8-byte header, 32 at least). Every
//! encode and decode below holds that tree, or its equal, at its peak.
//!
//! Targets: at most 6x for the 200 MB array of objects, at most 8x for every
//! other shape. Exits 1 when one is missed (or a run fails, or takes longer
//! than `PITH_RSS_TIMEOUT` seconds, 600 unless told).
//!
//! Run: `cargo bench -p pith-cli --bench rss` (about 2 GB of disk in the
//! target folder; `PITH_RSS_ARRAY_MB=N` sizes the array of objects, 200
//! unless told; `-- SHAPE...` runs only the shapes whose names start so).

// Reading a child's resource usage takes `wait4`, a C call.
#![allow(unsafe_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[path = "../../pith/tests/support/alloc.rs"]
mod alloc;
use alloc::{CHUNKED, LIVE};

/// The heap `pith::json::parse` leaves live for `json`, as (bytes asked
/// for, bytes in glibc's chunks).
fn tree_size(json: &str) -> (usize, usize) {
    let before = (
        LIVE.load(Ordering::Relaxed),
        CHUNKED.load(Ordering::Relaxed),
    );
    let tree = pith::json::parse(json).expect("the shape's JSON parses");
    let after = (
        LIVE.load(Ordering::Relaxed),
        CHUNKED.load(Ordering::Relaxed),
    );
    drop(tree);
    (after.0 - before.0, after.1 - before.1)
}

/// One shape: its name, the most peak memory allowed per byte of its JSON,
/// how to write its JSON (or, for a shape given as TOON, its TOON and
/// JSON), and the runs to measure.
struct Shape {
    name: &'static str,
    limit: f64,
    build: fn() -> Built,
    runs: Vec<Run>,
}

/// What a shape's builder makes: the document as compact JSON, and the
/// text the shape's decode runs read when it is not made by an encode run.
struct Built {
    json: String,
    given: Option<String>,
}

/// One measured process: its label, its arguments (the input file is
/// appended), which file it reads and which it writes.
struct Run {
    label: &'static str,
    args: &'static [&'static str],
    input: Source,
    /// Name of the file the output goes to, for later runs to read.
    output: &'static str,
}

#[derive(Clone, Copy)]
enum Source {
    /// The shape's JSON.
    Json,
    /// The shape's given text.
    Given,
    /// The output of an earlier run.
    Output(&'static str),
}

impl Run {
    fn decodes(&self) -> bool {
        self.args[0] == "decode"
    }
}

fn run(
    label: &'static str,
    args: &'static [&'static str],
    input: Source,
    output: &'static str,
) -> Run {
    Run {
        label,
        args,
        input,
        output,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, name, dir] = args.as_slice()
        && flag == "--build"
    {
        // A child's peak RSS starts at its parent's when it is started, so
        // the shapes are built in a process of their own and the measuring
        // one stays small.
        let shape = shapes().into_iter().find(|s| s.name == name);
        let built = (shape.expect("a shape's name").build)();
        let dir = Path::new(dir);
        std::fs::write(dir.join("doc.json"), &built.json).expect("write the shape");
        if let Some(given) = &built.given {
            std::fs::write(dir.join("given.txt"), given).expect("write the shape");
        }
        let (asked, chunked) = tree_size(&built.json);
        println!("{asked} {chunked}");
        return;
    }
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let timeout = Duration::from_secs(
        std::env::var("PITH_RSS_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(600),
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rss");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let shapes = shapes();
    println!(
        "peak RSS of `pith` over the document's compact JSON size ({})",
        env!("CARGO_BIN_EXE_pith")
    );
    let mut missed = Vec::new();
    for shape in shapes
        .iter()
        .filter(|s| only.is_empty() || only.iter().any(|o| s.name.starts_with(o.as_str())))
    {
        let built = Command::new(std::env::current_exe().expect("the bench's path"))
            .args(["--build", shape.name])
            .arg(&dir)
            .stderr(Stdio::inherit())
            .output()
            .expect("start the shape's builder");
        assert!(built.status.success(), "building {} failed", shape.name);
        let tree: Vec<f64> = String::from_utf8_lossy(&built.stdout)
            .split_whitespace()
            .map(|n| n.parse().expect("the builder prints two sizes"))
            .collect();
        let [asked, chunked] = tree[..] else {
            panic!("the builder of {} printed {tree:?}", shape.name);
        };
        let json_path = dir.join("doc.json");
        let given_path = dir.join("given.txt");
        let size = std::fs::metadata(&json_path).expect("the shape").len() as f64;
        println!(
            "\n{} ({:.1} MB of JSON; at most {}x)",
            shape.name,
            size / 1e6,
            shape.limit
        );
        println!(
            "  {:<34} {:>8.1} MB asked ({:.2}x), {:.1} MB in glibc chunks ({:.2}x)",
            "the parsed value tree alone",
            asked / 1e6,
            asked / size,
            chunked / 1e6,
            chunked / size
        );
        for r in &shape.runs {
            let input = match r.input {
                Source::Json => json_path.clone(),
                Source::Given => given_path.clone(),
                Source::Output(name) => dir.join(name),
            };
            let output = dir.join(r.output);
            let outcome = measure(r.args, &input, &output, timeout);
            let in_mb = std::fs::metadata(&input).map_or(0.0, |m| m.len() as f64 / 1e6);
            let mut line = format!("  {:<34} in {in_mb:>7.1} MB  ", r.label);
            let ok = match outcome {
                Ok((peak, took)) => {
                    let ratio = peak as f64 / size;
                    let mut ok = ratio <= shape.limit;
                    let _ = write!(
                        line,
                        "peak {:>8.1} MB  {ratio:>5.2}x  {:>6.1} s",
                        peak as f64 / 1e6,
                        took.as_secs_f64()
                    );
                    if r.decodes() && !same_files(&output, &json_path) {
                        line.push_str("  OUTPUT DIFFERS FROM THE JSON");
                        ok = false;
                    }
                    ok
                }
                Err(why) => {
                    line.push_str(&why);
                    false
                }
            };
            line.push_str(if ok { "  ok" } else { "  MISSED" });
            println!("{line}");
            if !ok {
                missed.push(format!("{}: {}", shape.name, r.label));
            }
        }
    }
    if missed.is_empty() {
        println!("\nevery run within its limit");
    } else {
        println!("\nmissed: {}", missed.join("; "));
        std::process::exit(1);
    }
}

/// Runs `pith ARGS INPUT > OUTPUT` and returns its peak resident set in
/// bytes and its wall time.
fn measure(
    args: &[&str],
    input: &Path,
    output: &Path,
    timeout: Duration,
) -> Result<(u64, Duration), String> {
    let out = std::fs::File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start pith: {e}"))?;
    let pid = child.id() as libc::pid_t;
    let mut stderr = child.stderr;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: `pid` is our child, not yet reaped (std's `Child` is never
        // waited on); `status` and `usage` are valid for writes.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break;
        }
        if got < 0 {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        if !timed_out && start.elapsed() > timeout {
            // SAFETY: signalling our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            timed_out = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = start.elapsed();
    // ru_maxrss is in kilobytes on Linux.
    let peak = usage.ru_maxrss as u64 * 1024;
    if timed_out {
        return Err(format!(
            "timed out after {} s (peak so far {:.1} MB)",
            timeout.as_secs(),
            peak as f64 / 1e6
        ));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        let mut text = String::new();
        if let Some(e) = stderr.as_mut() {
            use std::io::Read;
            let _ = e.read_to_string(&mut text);
        }
        return Err(format!("failed ({status:#x}): {}", text.trim()));
    }
    Ok((peak, took))
}

/// Whether two files hold the same bytes, read a block at a time (so that
/// this process stays small).
fn same_files(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (Ok(mut a), Ok(mut b)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    let (mut x, mut y) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let n = read_full(&mut a, &mut x);
        if n != read_full(&mut b, &mut y) || x[..n] != y[..n] {
            return false;
        }
        if n == 0 {
            return true;
        }
    }
    fn read_full(f: &mut std::fs::File, buf: &mut [u8]) -> usize {
        let mut n = 0;
        while n < buf.len() {
            match f.read(&mut buf[n..]) {
                Ok(0) | Err(_) => break,
                Ok(k) => n += k,
            }
        }
        n
    }
}

fn shapes() -> Vec<Shape> {
    use Source::{Given, Json, Output};
    vec![
        Shape {
            name: "array of objects",
            limit: 6.0,
            build: array_of_objects,
            runs: vec![
                run(
                    "encode --format toon",
                    &["encode", "--format", "toon"],
                    Json,
                    "a.toon",
                ),
                run(
                    "decode (its TOON)",
                    &["decode"],
                    Output("a.toon"),
                    "a.toon.json",
                ),
                run("encode (auto)", &["encode"], Json, "a.auto"),
                run(
                    "decode (auto's output)",
                    &["decode"],
                    Output("a.auto"),
                    "a.auto.json",
                ),
            ],
        },
        Shape {
            name: "rows with array cells",
            limit: 8.0,
            build: rows_with_array_cells,
            runs: vec![
                run(
                    "encode --format toon",
                    &["encode", "--format", "toon"],
                    Json,
                    "r.toon",
                ),
                run(
                    "decode (its TOON)",
                    &["decode"],
                    Output("r.toon"),
                    "r.toon.json",
                ),
                run("encode (auto)", &["encode"], Json, "r.auto"),
                run(
                    "decode (auto's output)",
                    &["decode"],
                    Output("r.auto"),
                    "r.auto.json",
                ),
            ],
        },
        Shape {
            name: "escaped strings",
            limit: 8.0,
            build: escaped_strings,
            runs: vec![
                run("decode a[600000]: \"\\\"\",…", &["decode"], Given, "e.json"),
                run("encode (auto)", &["encode"], Json, "e.auto"),
            ],
        },
        Shape {
            name: "object width",
            limit: 8.0,
            build: object_width,
            runs: vec![
                run("encode (auto)", &["encode"], Json, "w.auto"),
                run(
                    "decode (auto's output)",
                    &["decode"],
                    Output("w.auto"),
                    "w.json",
                ),
            ],
        },
        Shape {
            name: "collection count",
            limit: 8.0,
            build: collections,
            runs: vec![
                run(
                    "encode --format hoisted-compact",
                    &["encode", "--format", "hoisted-compact"],
                    Json,
                    "c.hc",
                ),
                run(
                    "decode (hoisted-compact)",
                    &["decode"],
                    Output("c.hc"),
                    "c.hc.json",
                ),
                run("encode (auto)", &["encode"], Json, "c.auto"),
            ],
        },
        Shape {
            name: "JSON columns",
            limit: 8.0,
            build: json_columns,
            runs: vec![
                run(
                    "encode --format hoisted",
                    &["encode", "--format", "hoisted"],
                    Json,
                    "j.h",
                ),
                run("decode (hoisted)", &["decode"], Output("j.h"), "j.h.json"),
            ],
        },
    ]
}

/// A small deterministic generator, so that every run builds the same bytes.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// Objects of six fields (an id, a name, a price, a flag, a timestamp, a
/// status), until the JSON reaches `PITH_RSS_ARRAY_MB` megabytes.
fn array_of_objects() -> Built {
    let mb: usize = std::env::var("PITH_RSS_ARRAY_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let target = mb * 1_000_000;
    let syllables = ["el", "ru", "ze", "vo", "ti", "ka", "ne", "or", "ba", "an"];
    let statuses = ["active", "pending", "archived", "suspended"];
    let mut rng = Lcg(12);
    let mut json = String::with_capacity(target + 200);
    json.push('[');
    let mut id = 0;
    while json.len() < target {
        if id > 0 {
            json.push(',');
        }
        let mut name = String::new();
        for _ in 0..2 + rng.next(2) {
            name.push_str(syllables[rng.next(10) as usize]);
        }
        let mut name = name.into_bytes();
        name[0] = name[0].to_ascii_uppercase();
        let name = String::from_utf8(name).expect("ASCII");
        let cents = rng.next(100_000);
        let price = format!("{}.{:02}", cents / 100, cents % 100);
        let price = price.trim_end_matches('0').trim_end_matches('.');
        let _ = write!(
            json,
            r#"{{"id":{id},"name":"{name}","price":{price},"active":{},"createdAt":"202{}-{:02}-{:02}T{:02}:{:02}:{:02}Z","status":"{}"}}"#,
            rng.next(2) == 0,
            4 + rng.next(2),
            1 + rng.next(12),
            1 + rng.next(28),
            rng.next(24),
            rng.next(60),
            rng.next(60),
            statuses[rng.next(4) as usize],
        );
        id += 1;
    }
    json.push(']');
    Built { json, given: None }
}

/// 100,000 rows whose cells are arrays: of strings, of numbers, of arrays.
fn rows_with_array_cells() -> Built {
    let mut json = String::from(r#"{"rows":["#);
    for i in 0..100_000 {
        if i > 0 {
            json.push(',');
        }
        let _ = write!(
            json,
            r#"{{"id":{i},"tags":["a{i}","b","c"],"pts":[{i},{},{}],"m":[[1,2],[3]]}}"#,
            i + 1,
            i + 2
        );
    }
    json.push_str("]}");
    Built { json, given: None }
}

/// `a[600000]: "\"","\"",…`: 600,000 strings of one escaped quote.
fn escaped_strings() -> Built {
    let n = 600_000;
    let toon = format!("a[{n}]: {}", vec![r#""\"""#; n].join(","));
    let json = format!(r#"{{"a":[{}]}}"#, vec![r#""\"""#; n].join(","));
    Built {
        json,
        given: Some(toon),
    }
}

/// One object of 160,000 keys shaped like hoisted metadata.
fn object_width() -> Built {
    members(160_000, |json, i| {
        let _ = write!(json, r#""k{i}_encoding":{{"json_columns":[]}}"#);
    })
}

/// One object of `n` members, each written by `member`.
fn members(n: usize, member: impl Fn(&mut String, usize)) -> Built {
    let mut json = String::from("{");
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        member(&mut json, i);
    }
    json.push('}');
    Built { json, given: None }
}

/// 80,000 collections of two rows each in one object.
fn collections() -> Built {
    members(80_000, |json, i| {
        let _ = write!(json, r#""c{i}":[{{"a":1,"b":[1,2]}},{{"a":2,"b":[3]}}]"#);
    })
}

/// 20 rows of 40,000 cells, each cell an array holding an object.
fn json_columns() -> Built {
    let mut json = String::from(r#"{"rows":["#);
    for r in 0..20 {
        if r > 0 {
            json.push(',');
        }
        json.push('{');
        for j in 0..40_000 {
            if j > 0 {
                json.push(',');
            }
            let _ = write!(json, r#""col{j}":[{{"x":{}}},1]"#, j + r);
        }
        json.push('}');
    }
    json.push_str("]}");
    Built { json, given: None }
}

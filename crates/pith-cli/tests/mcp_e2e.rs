//! End-to-end tests of `pith mcp` against real MCP servers from npm
//! (`@modelcontextprotocol/server-memory`, `-filesystem`, `-everything`),
//! driven by the official TypeScript client (`@modelcontextprotocol/sdk`).
//!
//! Each scenario runs twice: the client talking to the server directly, and
//! through `pith mcp`. Between pith and the server sits
//! `record.mjs`, which records every byte the server receives and writes;
//! the client records every byte it sends and receives. The checks:
//!
//! * every call and request has the same outcome as without pith, with the
//!   client's own `outputSchema` validation on, in both `--structured` modes;
//! * what the server received is byte-identical to what the client sent;
//! * every line the server wrote reached the client byte-identical, or is a
//!   rewrite in which each marked text decodes to exactly the original JSON
//!   value and nothing else changed but what the `--structured` policy allows.
//!
//! The packages are installed with `npm ci` from the pinned lock file in
//! `crates/pith-mcp/tests/support` into a scratch folder under `target/`.
//! node and npm are required: without them these tests fail.

use pith::tokens::{Tokenizer, TokenizerKind};
use pith::{Map, Value};
use pith_mcp::{ENCODING_META_KEY, STRUCTURED_META_KEY, ToolFilter};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Longest a scenario may take.
const BOUND: Duration = Duration::from_secs(180);

#[test]
fn memory_keep() {
    let stats = scenario("memory", "keep");
    assert!(
        stats.rewritten >= 6,
        "graph answers are rewritten: {stats:?}"
    );
    // The memory server's graph calls: at least 30% fewer text tokens.
    for tool in ["read_graph", "search_nodes", "create_entities"] {
        let (before, after) = stats.tokens[tool];
        let saved = 1.0 - after as f64 / before as f64;
        println!(
            "{tool}: {before} → {after} tokens (o200k), {:.1}% fewer",
            saved * 100.0
        );
        assert!(saved >= 0.30, "{tool}: {before} → {after}");
    }
}

#[test]
fn memory_drop_if_equivalent() {
    let stats = scenario("memory", "drop-if-equivalent");
    assert!(stats.rewritten >= 6, "{stats:?}");
    assert!(stats.schemas_removed > 0, "{stats:?}");
    assert!(
        stats.structured_dropped >= 2,
        "read_graph's equals its text: {stats:?}"
    );
}

#[test]
fn filesystem_keep() {
    let stats = scenario("filesystem", "keep");
    assert!(stats.tokens.contains_key("directory_tree"), "{stats:?}");
    for excluded in ["read_text_file", "read_file", "read_multiple_files"] {
        assert!(
            !stats.tokens.contains_key(excluded),
            "{excluded} is excluded by default"
        );
    }
}

#[test]
fn filesystem_drop_if_equivalent() {
    let stats = scenario("filesystem", "drop-if-equivalent");
    assert!(stats.tokens.contains_key("directory_tree"), "{stats:?}");
    assert!(stats.schemas_removed > 0, "{stats:?}");
}

#[test]
fn everything_keep() {
    let stats = scenario("everything", "keep");
    assert!(stats.tokens.contains_key("get-env"), "{stats:?}");
}

#[test]
fn everything_drop_if_equivalent() {
    let stats = scenario("everything", "drop-if-equivalent");
    assert!(stats.tokens.contains_key("get-env"), "{stats:?}");
    assert!(
        stats.structured_dropped >= 1,
        "get-structured-content: {stats:?}"
    );
}

/// What the comparison of one proxied run found.
#[derive(Debug, Default)]
struct Stats {
    identical: usize,
    rewritten: usize,
    structured_dropped: usize,
    schemas_removed: usize,
    /// Per rewritten tool: text tokens before and after.
    tokens: BTreeMap<String, (usize, usize)>,
}

fn scenario(name: &str, structured: &str) -> Stats {
    let dir = install();
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-e2e-{name}-{structured}"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    let direct = run(dir, &work.join("direct"), name, None);
    let proxied = run(dir, &work.join("proxied"), name, Some(structured));
    same_outcomes(&direct.outcome, &proxied.outcome);

    let server_in = read(&proxied.prefix.join("server"), "in");
    assert!(
        read(&proxied.prefix.join("client"), "in") == server_in,
        "the server receives exactly what the client sent"
    );
    let stats = compare(
        &read(&proxied.prefix.join("server"), "out"),
        &read(&proxied.prefix.join("client"), "out"),
        &tool_names(&server_in),
        structured,
    );
    println!("{name} --structured {structured}: {stats:?}");
    let _ = std::fs::remove_dir_all(&work);
    stats
}

struct Run {
    prefix: PathBuf,
    outcome: Value,
}

/// One run of a scenario, directly or through `pith mcp`.
fn run(dir: &Path, work: &Path, name: &str, structured: Option<&str>) -> Run {
    std::fs::create_dir_all(work).unwrap();
    let root = work.join("root");
    let modules = dir.join("node_modules/@modelcontextprotocol");
    let mut server: Vec<String> = vec![
        "node".into(),
        path(&dir.join("record.mjs")),
        path(&work.join("server")),
        "--".into(),
        "node".into(),
    ];
    let mut env = Map::new();
    match name {
        "memory" => {
            server.push(path(&modules.join("server-memory/dist/index.js")));
            env.insert(
                "MEMORY_FILE_PATH",
                Value::from(path(&work.join("memory.jsonl"))),
            );
        }
        "filesystem" => {
            fixture(&root);
            server.push(path(&modules.join("server-filesystem/dist/index.js")));
            server.push(path(&root));
        }
        "everything" => {
            server.push(path(&modules.join("server-everything/dist/index.js")));
            server.push("stdio".into());
        }
        other => panic!("no scenario {other}"),
    }
    let command: Vec<String> = match structured {
        None => server,
        Some(mode) => {
            let mut c = vec![
                env!("CARGO_BIN_EXE_pith").to_owned(),
                "mcp".into(),
                "--structured".into(),
                mode.into(),
                "--".into(),
            ];
            c.extend(server);
            c
        }
    };
    let mut config = Map::new();
    config.insert("scenario", Value::from(name));
    config.insert(
        "command",
        Value::Array(command.into_iter().map(Value::from).collect()),
    );
    config.insert("env", Value::Object(env));
    config.insert("log", Value::from(path(&work.join("client"))));
    config.insert("root", Value::from(path(&root)));

    let mut child = Command::new(node())
        .arg(dir.join("e2e-client.mjs"))
        .arg(pith::json::to_string(&Value::Object(config)))
        .current_dir(dir)
        .spawn()
        .expect("starting the e2e client");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BOUND {
            let _ = child.kill();
            panic!("the {name} scenario did not finish within {BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "the e2e client failed: {status}");
    let outcome = pith::json::parse_bytes(&read(&work.join("client"), "json")).unwrap();
    Run {
        prefix: work.to_owned(),
        outcome,
    }
}

/// Every call and request went as it did without pith, and all succeeded.
fn same_outcomes(direct: &Value, proxied: &Value) {
    assert_eq!(
        direct.get("tools"),
        proxied.get("tools"),
        "the same tools are listed"
    );
    for list in ["calls", "requests"] {
        let a = direct.get(list).and_then(Value::as_array).unwrap();
        let b = proxied.get(list).and_then(Value::as_array).unwrap();
        assert!(!a.is_empty());
        assert_eq!(a.len(), b.len(), "{list}");
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                x.get("ok"),
                Some(&Value::Bool(true)),
                "succeeds without pith: {x:?}"
            );
            assert_eq!(x, y, "the same outcome through pith");
        }
    }
    // pith exits with the server's status; a server killed by SIGTERM at
    // shutdown makes it exit 143.
    let (d, p) = (direct.get("exit").unwrap(), proxied.get("exit").unwrap());
    let code = p.get("code").map(pith::json::to_string);
    match d.get("signal").and_then(Value::as_str) {
        Some("SIGTERM") => assert_eq!(code.as_deref(), Some("143"), "{d:?} {p:?}"),
        _ => assert_eq!(d.get("code"), p.get("code"), "{d:?} {p:?}"),
    }
}

/// Checks every line the server wrote against what the client received.
fn compare(
    server_out: &[u8],
    client_out: &[u8],
    tools: &HashMap<String, String>,
    structured: &str,
) -> Stats {
    let sent: Vec<&[u8]> = server_out.split_inclusive(|&b| b == b'\n').collect();
    let got: Vec<&[u8]> = client_out.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(sent.len(), got.len(), "one line out for every line in");
    let drop_mode = structured == "drop-if-equivalent";
    let mut stats = Stats::default();
    for (o, r) in sent.iter().zip(&got) {
        if o == r {
            stats.identical += 1;
            continue;
        }
        let mut original = parse(o);
        let mut rewritten = parse(r);
        let id = original.get("id").map(pith::json::to_string);
        let tool = id.as_ref().and_then(|id| tools.get(id)).cloned();
        let o_result = result_mut(&mut original);
        let r_result = result_mut(&mut rewritten);
        if o_result.contains_key("tools") {
            assert!(
                drop_mode,
                "tools/list is only changed by drop-if-equivalent"
            );
            stats.schemas_removed += restore_schemas(o_result, r_result);
        } else {
            let tool = tool.expect("only tools/call results are rewritten");
            let (before, after, n) = restore_texts(o_result, r_result);
            if n > 0 {
                let entry = stats.tokens.entry(tool).or_default();
                entry.0 += before;
                entry.1 += after;
                stats.rewritten += n;
            }
            if o_result.contains_key("structuredContent")
                && !r_result.contains_key("structuredContent")
            {
                assert!(drop_mode, "structuredContent is kept by default");
                restore_structured(o_result, r_result);
                stats.structured_dropped += 1;
            }
        }
        assert_eq!(
            original,
            rewritten,
            "nothing else changed in {}",
            String::from_utf8_lossy(o)
        );
    }
    stats
}

/// Puts each rewritten text back after checking it decodes to exactly the
/// original's value; returns tokens before, after, and how many.
fn restore_texts(original: &Map, rewritten: &mut Map) -> (usize, usize, usize) {
    let o200k = Tokenizer::get(TokenizerKind::O200k);
    let o_items = original.get("content").and_then(Value::as_array).unwrap();
    let Some(Value::Array(r_items)) = rewritten.get_mut("content") else {
        panic!("content is still an array");
    };
    assert_eq!(o_items.len(), r_items.len());
    let (mut before, mut after, mut n) = (0, 0, 0);
    for (o, r) in o_items.iter().zip(r_items.iter_mut()) {
        let Value::Object(r) = r else { continue };
        let Some(encoding) = r
            .get("_meta")
            .and_then(|m| m.get(ENCODING_META_KEY))
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            continue;
        };
        let o_text = o.get("text").and_then(Value::as_str).unwrap();
        let r_text = r.get("text").and_then(Value::as_str).unwrap();
        assert!(
            matches!(encoding.as_str(), "toon" | "hoisted" | "json" | "pith"),
            "unknown encoding {encoding}"
        );
        // `pith decode` reads every form pith writes.
        let decoded = pith::select::decode(r_text.as_bytes(), &Default::default()).unwrap();
        let original = pith::json::parse(o_text).unwrap();
        assert!(
            pith::equiv::equivalent(&original, &decoded),
            "a rewritten text decodes to the original JSON: {:?}",
            pith::equiv::difference(&original, &decoded)
        );
        before += o200k.count(o_text);
        after += o200k.count(r_text);
        n += 1;
        r.insert("text", Value::from(o_text));
        strip_meta(r, ENCODING_META_KEY, o.get("_meta").is_some());
    }
    (before, after, n)
}

/// Checks a dropped `structuredContent` was held exactly by a text item,
/// then removes it from the original and the marker from the rewrite.
fn restore_structured(original: &mut Map, rewritten: &mut Map) {
    let structured = original.remove("structuredContent").unwrap();
    let items = original.get("content").and_then(Value::as_array).unwrap();
    assert!(
        items.iter().any(|i| {
            i.get("text")
                .and_then(Value::as_str)
                .and_then(|t| pith::json::parse(t).ok())
                .as_ref()
                == Some(&structured)
        }),
        "dropped structuredContent equals a text item's value"
    );
    assert_eq!(
        rewritten
            .get("_meta")
            .and_then(|m| m.get(STRUCTURED_META_KEY)),
        Some(&Value::from("dropped"))
    );
    let had_meta = original.get("_meta").is_some();
    strip_meta(rewritten, STRUCTURED_META_KEY, had_meta);
}

/// Checks each removed `outputSchema` belongs to a tool pith rewrites and
/// puts the original in the rewrite's shape; returns how many.
fn restore_schemas(original: &mut Map, rewritten: &Map) -> usize {
    let filter = ToolFilter::default();
    let Some(Value::Array(o_tools)) = original.get_mut("tools") else {
        panic!("tools")
    };
    let r_tools = rewritten.get("tools").and_then(Value::as_array).unwrap();
    assert_eq!(o_tools.len(), r_tools.len());
    let mut n = 0;
    for (o, r) in o_tools.iter_mut().zip(r_tools) {
        let Value::Object(o) = o else { continue };
        if o.contains_key("outputSchema") && r.get("outputSchema").is_none() {
            let name = o.get("name").and_then(Value::as_str).unwrap();
            assert!(
                filter.allows(name),
                "{name} is not rewritten, its schema stays"
            );
            o.remove("outputSchema");
            n += 1;
        }
    }
    n
}

fn strip_meta(item: &mut Map, key: &str, had_meta: bool) {
    if let Some(Value::Object(m)) = item.get_mut("_meta") {
        m.remove(key);
        if m.is_empty() && !had_meta {
            item.remove("_meta");
        }
    }
}

fn result_mut(message: &mut Value) -> &mut Map {
    message
        .as_object_mut()
        .and_then(|m| m.get_mut("result"))
        .and_then(Value::as_object_mut)
        .expect("only results are rewritten")
}

/// `tools/call` request ids (canonical JSON) → tool name.
fn tool_names(client_in: &[u8]) -> HashMap<String, String> {
    client_in
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let m = parse(l);
            if m.get("method").and_then(Value::as_str) != Some("tools/call") {
                return None;
            }
            let name = m.get("params")?.get("name")?.as_str()?.to_owned();
            Some((pith::json::to_string(m.get("id")?), name))
        })
        .collect()
}

/// A small folder for the filesystem server, fresh for each run.
fn fixture(root: &Path) {
    std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
    for i in 0..12 {
        std::fs::create_dir_all(root.join(format!("sub/dir-{i}"))).unwrap();
        std::fs::write(root.join(format!("sub/dir-{i}/file-{i}.txt")), "x\n").unwrap();
    }
    let rows: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "  {{\n    \"id\": {i},\n    \"name\": \"item-{i}\",\n    \"ok\": {}\n  }}",
                i % 2 == 0
            )
        })
        .collect();
    std::fs::write(
        root.join("data.json"),
        format!("[\n{}\n]\n", rows.join(",\n")),
    )
    .unwrap();
    std::fs::write(root.join("notes.txt"), "alpha\nsecond line\nthird\n").unwrap();
    std::fs::write(root.join("sub/a.json"), "{\"a\": 1}\n").unwrap();
    std::fs::write(root.join("sub/deeper/b.txt"), "hi\n").unwrap();
    std::fs::write(root.join("pixel.png"), b"\x89PNG\r\n\x1a\n").unwrap();
}

/// The scratch folder with the pinned packages and the support scripts.
fn install() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let support = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pith-mcp/tests/support");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-e2e");
        std::fs::create_dir_all(&dir).unwrap();
        let lock = std::fs::read(support.join("package-lock.json")).unwrap();
        let stamp = dir.join("node_modules/.pith-lock.json");
        if std::fs::read(&stamp).ok().as_ref() != Some(&lock) {
            for f in ["package.json", "package-lock.json"] {
                std::fs::copy(support.join(f), dir.join(f)).unwrap();
            }
            let status = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&dir)
                .status()
                .unwrap_or_else(|e| panic!("npm is required for the MCP e2e tests: {e}"));
            assert!(
                status.success(),
                "npm ci failed in {}: {status}",
                dir.display()
            );
            std::fs::write(&stamp, &lock).unwrap();
        }
        // Node resolves packages from the script's folder, so the scripts
        // run from beside node_modules.
        for f in ["e2e-client.mjs", "record.mjs"] {
            std::fs::copy(support.join(f), dir.join(f)).unwrap();
        }
        dir
    })
}

fn node() -> &'static str {
    static CHECKED: OnceLock<()> = OnceLock::new();
    CHECKED.get_or_init(|| {
        let ok = Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "node is required for the MCP e2e tests");
    });
    "node"
}

fn read(prefix: &Path, ext: &str) -> Vec<u8> {
    let file = PathBuf::from(format!("{}.{ext}", prefix.display()));
    std::fs::read(&file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()))
}

fn parse(line: &[u8]) -> Value {
    pith::json::parse_bytes(line.trim_ascii_end()).expect("every line is a JSON message")
}

fn path(p: &Path) -> String {
    p.to_str().expect("scratch paths are UTF-8").to_owned()
}

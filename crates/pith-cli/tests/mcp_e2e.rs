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

/// The notification pith sends when a tool's outputSchema is forwarded again.
const LIST_CHANGED: &[u8] =
    b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n";

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

#[test]
fn everything_default() {
    let stats = scenario("everything", "default");
    assert!(stats.tokens.contains_key("get-env"), "{stats:?}");
    assert!(stats.structured_dropped >= 1, "{stats:?}");
}

/// The official Python SDK's server (every tool has an outputSchema and
/// returns structuredContent) driven by the official TypeScript client,
/// which validates structuredContent: default flags, no validation error,
/// every value decodes back.
#[test]
fn python_server_typescript_client_default() {
    let stats = scenario("python", "default");
    assert!(stats.structured_dropped >= 4, "{stats:?}");
    assert!(stats.joined >= 2, "list returns become one text: {stats:?}");
    assert!(stats.schemas_removed >= 4, "{stats:?}");
}

/// The same server driven by the official Python client (which validates
/// structuredContent against outputSchema too), directly and through
/// `pith mcp` with default flags: a client that shows structuredContent
/// when present, and one that shows the text, each see at least 30% fewer
/// o200k tokens on the list-shaped results, and every value decodes back
/// exactly.
#[test]
fn python_sdk_client_default_flags_save_in_both_kinds_of_client() {
    python_client_savings("stdio", None);
}

/// The same calls through `pith mcp --url` to the Python SDK's
/// streamable-HTTP server on 127.0.0.1: the same values, the same savings.
#[test]
fn python_sdk_client_through_url_saves_the_same() {
    let server = PythonHttp::start();
    python_client_savings("url", Some(&server.url()));
}

/// The official TypeScript client through `pith mcp --url` to the Python
/// SDK's streamable-HTTP server: every call validates and goes as it does
/// over stdio without pith.
#[test]
fn typescript_client_through_url() {
    let dir = install();
    let server = PythonHttp::start();
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-e2e-ts-url");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let direct = run(dir, &work.join("direct"), "python", None);
    let command = vec![
        env!("CARGO_BIN_EXE_pith").to_owned(),
        "mcp".into(),
        "--no-stats".into(),
        "--url".into(),
        server.url(),
    ];
    let proxied = run_client(dir, &work.join("proxied"), "python", command, Map::new());
    same_outcomes(&direct.outcome, &proxied);
    let _ = std::fs::remove_dir_all(&work);
}

/// py_server.py serving streamable HTTP on a free loopback port.
struct PythonHttp {
    child: std::process::Child,
    port: u16,
}

impl PythonHttp {
    fn start() -> PythonHttp {
        let py = python_venv().join("bin/python");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(py)
            .arg(support_dir().join("py_server.py"))
            .args(["http", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("starting the Python HTTP server");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < BOUND,
                "the Python HTTP server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        PythonHttp { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for PythonHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python_client_savings(tag: &str, url: Option<&str>) {
    let venv = python_venv();
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-e2e-python-client-{tag}"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let support = support_dir();
    let py = path(&venv.join("bin/python"));
    let server = vec![
        py.clone(),
        path(&support.join("py_server.py")),
        "stdio".into(),
    ];
    let ledger = work.join("ledger.jsonl");
    let run = |out: &Path, via_pith: bool| -> Value {
        let mut command = Command::new(&py);
        command.arg(support.join("py_client.py")).arg(out);
        if via_pith {
            command
                .arg(env!("CARGO_BIN_EXE_pith"))
                .args(["mcp", "--stats-file"])
                .arg(&ledger);
        }
        match url {
            Some(url) if via_pith => {
                command.args(["--url", url]);
            }
            _ => {
                command.args(&server);
            }
        }
        let status = wait_bounded(
            command.spawn().expect("starting the Python client"),
            "python client",
        );
        assert!(status.success(), "the Python client failed: {status}");
        pith::json::parse_bytes(&std::fs::read(out).unwrap()).unwrap()
    };
    let direct = run(&work.join("direct.json"), false);
    let proxied = run(&work.join("proxied.json"), true);
    let calls = |v: &Value| v.get("calls").and_then(Value::as_array).unwrap().clone();
    let (d_calls, p_calls) = (calls(&direct), calls(&proxied));
    assert_eq!(d_calls.len(), p_calls.len());
    let o200k = Tokenizer::get(TokenizerKind::O200k);
    let mut totals: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for (d, p) in d_calls.iter().zip(&p_calls) {
        let name = d.get("name").and_then(Value::as_str).unwrap().to_owned();
        assert_eq!(d.get("ok"), Some(&Value::Bool(true)), "{d:?}");
        assert_eq!(
            p.get("ok"),
            Some(&Value::Bool(true)),
            "validates through pith: {p:?}"
        );
        let (d, p) = (d.get("result").unwrap(), p.get("result").unwrap());
        // What each kind of client shows the model.
        let structured_view = |r: &Value| match r.get("structuredContent") {
            Some(s) => o200k.count(&pith::json::stringify(s)),
            None => text_view(r),
        };
        let text_view = |r: &Value| text_view(r);
        let t = totals.entry(name.clone()).or_default();
        t[0] += structured_view(d);
        t[1] += structured_view(p);
        t[2] += text_view(d);
        t[3] += text_view(p);
        // Every value decodes back: the value the text-reading client now
        // reads is the server's structuredContent.
        let original = d
            .get("structuredContent")
            .expect("typed returns carry structuredContent");
        match p.get("structuredContent") {
            Some(kept) => assert_eq!(kept, original),
            None => {
                let texts = decoded_texts(p);
                let want = dropped_value(p.get("_meta"), original);
                assert!(
                    texts.iter().any(|v| pith::equiv::equivalent(&want, v)),
                    "{name}: a text holds the dropped structuredContent"
                );
            }
        }
    }
    for (name, [sd, sp, td, tp]) in &totals {
        let saved = |a: usize, b: usize| 1.0 - b as f64 / a as f64;
        println!(
            "{tag}: {name}: structuredContent client {sd} → {sp} ({:.1}% fewer), text client {td} → {tp} ({:.1}% fewer)",
            saved(*sd, *sp) * 100.0,
            saved(*td, *tp) * 100.0
        );
        if name == "list_issues" || name == "search_issues" {
            assert!(
                saved(*sd, *sp) >= 0.30,
                "{name}: structuredContent client {sd} → {sp}"
            );
            assert!(saved(*td, *tp) >= 0.30, "{name}: text client {td} → {tp}");
        }
    }
    let lines = std::fs::read_to_string(&ledger).unwrap();
    assert_eq!(
        lines.lines().count(),
        d_calls.len(),
        "one ledger line per result"
    );
    assert!(!lines.contains("parser"), "no content in the ledger");
    let _ = std::fs::remove_dir_all(&work);
}

/// What a text item of a result marked by pith holds of its dropped
/// `structuredContent`: the value, or the value of its one named member.
fn dropped_value(meta: Option<&Value>, structured: &Value) -> Value {
    let meta = meta.expect("a dropped structuredContent is marked");
    assert_eq!(meta.get(STRUCTURED_META_KEY), Some(&Value::from("dropped")));
    match meta
        .get(pith_mcp::STRUCTURED_KEY_META_KEY)
        .and_then(Value::as_str)
    {
        Some(key) => {
            assert_eq!(structured.as_object().map(|m| m.len()), Some(1));
            structured.get(key).expect("the named member").clone()
        }
        None => structured.clone(),
    }
}

/// Tokens of a result's text items.
fn text_view(r: &Value) -> usize {
    let o200k = Tokenizer::get(TokenizerKind::O200k);
    r.get("content")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .filter_map(|i| i.get("text").and_then(Value::as_str))
        .map(|t| o200k.count(t))
        .sum()
}

/// The values of a result's text items (decoded when pith marked them).
fn decoded_texts(r: &Value) -> Vec<Value> {
    r.get("content")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .filter_map(|i| {
            let text = i.get("text").and_then(Value::as_str)?;
            match i.get("_meta").and_then(|m| m.get(ENCODING_META_KEY)) {
                Some(_) => pith::select::decode(text.as_bytes(), &Default::default()).ok(),
                None => pith::json::parse(text).ok(),
            }
        })
        .collect()
}

/// What the comparison of one proxied run found.
#[derive(Debug, Default)]
struct Stats {
    identical: usize,
    rewritten: usize,
    structured_dropped: usize,
    schemas_removed: usize,
    /// Results whose text items became one text.
    joined: usize,
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
        "python" => {
            // record.mjs runs the Python server in place of node.
            server.pop();
            server.push(path(&python_venv().join("bin/python")));
            server.push(path(&support_dir().join("py_server.py")));
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
                "--stats-file".into(),
                path(&work.join("ledger.jsonl")),
            ];
            if mode != "default" {
                c.extend(["--structured".into(), mode.into()]);
            }
            c.push("--".into());
            c.extend(server);
            c
        }
    };
    Run {
        prefix: work.to_owned(),
        outcome: run_client(dir, work, name, command, env),
    }
}

/// Runs the official TypeScript client's scenario `name` against `command`.
fn run_client(dir: &Path, work: &Path, name: &str, command: Vec<String>, env: Map) -> Value {
    std::fs::create_dir_all(work).unwrap();
    let root = work.join("root");
    let mut config = Map::new();
    config.insert("scenario", Value::from(name));
    config.insert(
        "command",
        Value::Array(command.into_iter().map(Value::from).collect()),
    );
    config.insert("env", Value::Object(env));
    config.insert("log", Value::from(path(&work.join("client"))));
    config.insert("root", Value::from(path(&root)));

    let child = Command::new(node())
        .arg(dir.join("e2e-client.mjs"))
        .arg(pith::json::stringify(&Value::Object(config)))
        .current_dir(dir)
        .spawn()
        .expect("starting the e2e client");
    let status = wait_bounded(child, name);
    assert!(status.success(), "the e2e client failed: {status}");
    pith::json::parse_bytes(&read(&work.join("client"), "json")).unwrap()
}

/// Waits for `child`, at most [`BOUND`].
fn wait_bounded(mut child: std::process::Child, what: &str) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > BOUND {
            let _ = child.kill();
            panic!("{what} did not finish within {BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every call and request went as it did without pith, and all succeeded.
fn same_outcomes(direct: &Value, proxied: &Value) {
    // With the default budget, pith lists `pith_more` last.
    let mut tools = direct
        .get("tools")
        .and_then(Value::as_array)
        .unwrap()
        .clone();
    tools.push(Value::from(pith_mcp::MORE_TOOL));
    assert_eq!(
        Some(&Value::Array(tools)),
        proxied.get("tools"),
        "the same tools are listed, and pith_more"
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
    let code = p.get("code").map(pith::json::stringify);
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
    let mut got: Vec<&[u8]> = client_out.split_inclusive(|&b| b == b'\n').collect();
    // pith's own notifications (a tool keeps its outputSchema from now on)
    // come right after the result that decided it.
    let mut i = 0;
    let mut notified = 0;
    while i < got.len() {
        let own = got[i] == LIST_CHANGED && sent.get(i - notified) != Some(&LIST_CHANGED);
        if own {
            got.remove(i);
            notified += 1;
        } else {
            i += 1;
        }
    }
    assert_eq!(sent.len(), got.len(), "one line out for every line in");
    let drop_mode = structured != "keep";
    let mut stats = Stats::default();
    for (o, r) in sent.iter().zip(&got) {
        if o == r {
            stats.identical += 1;
            continue;
        }
        let mut original = parse(o);
        let mut rewritten = parse(r);
        let id = original.get("id").map(pith::json::stringify);
        let tool = id.as_ref().and_then(|id| tools.get(id)).cloned();
        let o_result = result_mut(&mut original);
        let r_result = result_mut(&mut rewritten);
        if o_result.contains_key("tools") {
            let Some(Value::Array(r_tools)) = r_result.get_mut("tools") else {
                panic!("tools")
            };
            let more = r_tools.pop().unwrap();
            assert_eq!(
                more.get("name").and_then(Value::as_str),
                Some(pith_mcp::MORE_TOOL)
            );
            stats.schemas_removed += restore_schemas(o_result, r_result);
            assert!(
                drop_mode || stats.schemas_removed == 0,
                "keep keeps outputSchema"
            );
        } else if o_result.contains_key("capabilities") {
            // The initialize answer: the tools capability declares that
            // pith may send `notifications/tools/list_changed`.
            assert!(drop_mode, "keep leaves the initialize answer as it is");
            let tools = |m: &mut Map| {
                m.get_mut("capabilities")
                    .and_then(|c| c.get_mut("tools"))
                    .and_then(Value::as_object_mut)
                    .map(|t| t.remove("listChanged"))
            };
            assert_eq!(tools(r_result), Some(Some(Value::Bool(true))));
            if let Some(Some(declared)) = tools(o_result) {
                assert_ne!(
                    declared,
                    Value::Bool(true),
                    "changed only when not declared"
                );
            }
        } else {
            let tool = tool.expect("only tools/call and initialize results are rewritten");
            let joined = restore_joined(o_result, r_result);
            stats.joined += joined;
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
                assert!(
                    drop_mode,
                    "structuredContent is kept with --structured keep"
                );
                restore_structured(o_result, r_result, joined > 0);
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

/// Where pith made the server's text items of a list (one per element)
/// into one text of the structured value, checks that text decodes to the
/// original structuredContent and each original item is its element; then
/// puts the original items back. Returns 1 if it did.
fn restore_joined(original: &Map, rewritten: &mut Map) -> usize {
    let Some(Value::Array(r_items)) = rewritten.get_mut("content") else {
        return 0;
    };
    let joined = r_items
        .first()
        .and_then(|i| i.get("_meta"))
        .and_then(|m| m.get(pith_mcp::JOINED_META_KEY));
    let Some(n) = joined.map(pith::json::stringify) else {
        return 0;
    };
    let o_items = original.get("content").and_then(Value::as_array).unwrap();
    assert_eq!(r_items.len(), 1);
    assert_eq!(n, o_items.len().to_string());
    let text = r_items[0].get("text").and_then(Value::as_str).unwrap();
    let decoded = pith::select::decode(text.as_bytes(), &Default::default()).unwrap();
    let structured = original
        .get("structuredContent")
        .expect("joined from structuredContent");
    assert!(
        pith::equiv::equivalent(structured, &decoded),
        "the joined text is the structured value"
    );
    let list = structured.get("result").and_then(Value::as_array).unwrap();
    for (item, want) in o_items.iter().zip(list) {
        let t = item.get("text").and_then(Value::as_str).unwrap();
        assert_eq!(&pith::json::parse(t).unwrap(), want, "item i is element i");
    }
    *r_items = o_items.clone();
    1
}

/// Checks a dropped `structuredContent` was held exactly by a text item
/// (or, marked `result`, that its `result` member was), then removes it
/// from the original and the marker from the rewrite.
fn restore_structured(original: &mut Map, rewritten: &mut Map, joined: bool) {
    let structured = original.remove("structuredContent").unwrap();
    let want = dropped_value(rewritten.get("_meta"), &structured);
    let items = original.get("content").and_then(Value::as_array).unwrap();
    assert!(
        joined
            || items.iter().any(|i| {
                i.get("text").and_then(Value::as_str).is_some_and(|t| {
                    pith::json::parse(t).ok().as_ref() == Some(&want) || want.as_str() == Some(t)
                })
            }),
        "dropped structuredContent equals a text item's value"
    );
    let had_meta = original.get("_meta").is_some();
    if let Some(Value::Object(m)) = rewritten.get_mut("_meta") {
        m.remove(pith_mcp::STRUCTURED_KEY_META_KEY);
    }
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
            Some((pith::json::stringify(m.get("id")?), name))
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

fn support_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../pith-mcp/tests/support")
}

/// A scratch virtual environment under `target/` with the pinned official
/// Python SDK (`tests/support/requirements.txt`), made with the Python on
/// the PATH; python3 with venv and pip is required.
fn python_venv() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-e2e-venv");
        let wanted = std::fs::read(support_dir().join("requirements.txt")).unwrap();
        let stamp = dir.join(".pith-requirements.txt");
        if std::fs::read(&stamp).ok().as_ref() != Some(&wanted) {
            let _ = std::fs::remove_dir_all(&dir);
            let status = Command::new("python3")
                .args(["-m", "venv"])
                .arg(&dir)
                .status()
                .unwrap_or_else(|e| panic!("python3 is required for the MCP e2e tests: {e}"));
            assert!(status.success(), "python3 -m venv failed: {status}");
            let status = Command::new(dir.join("bin/pip"))
                .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(support_dir().join("requirements.txt"))
                .status()
                .unwrap();
            assert!(
                status.success(),
                "pip install failed in {}: {status}",
                dir.display()
            );
            std::fs::write(&stamp, &wanted).unwrap();
        }
        dir
    })
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

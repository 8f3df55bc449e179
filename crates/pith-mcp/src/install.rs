//! `pith mcp install | uninstall | status`: wrapping the servers a client
//! is configured with in `pith mcp`, in the client's own file and format.
//!
//! | client | file (unless `--config`) | format |
//! |---|---|---|
//! | `claude-code` | `~/.claude.json` (`mcpServers`, and each `projects.<dir>.mcpServers`) | JSON |
//! | `claude-desktop` | `~/Library/Application Support/Claude/claude_desktop_config.json` (macOS), `%APPDATA%\Claude\…` (Windows), `~/.config/Claude/…` (Linux) | JSON, `mcpServers` |
//! | `cursor` | `~/.cursor/mcp.json` | JSON, `mcpServers` |
//! | `codex` | `$CODEX_HOME/config.toml`, else `~/.codex/config.toml` | TOML, `[mcp_servers.<name>]` |
//! | `vscode` | `~/.config/Code/User/mcp.json` (Linux), `~/Library/Application Support/Code/User/mcp.json` (macOS), `%APPDATA%\Code\User\mcp.json` (Windows) | JSON with comments, `servers` |
//!
//! A stdio server `{"command": C, "args": A, …}` becomes `{…, "command":
//! PITH, "args": ["mcp", "--name", NAME, "--", C, …A]}`; a remote one
//! (`url`, `headers`) becomes `pith mcp --url URL --header 'K: V'…`. Only
//! the server's entry changes; every other byte of the file stays. The
//! entry as it was is kept in `pith/installs.json` under the state
//! directory, and `uninstall` puts those very bytes back when the entry is
//! still the one pith wrote (by value: a client that reformats its file
//! does not stop it), so install then uninstall gives the file back byte
//! for byte. Installing twice changes nothing; before each write the file
//! is copied to `<file>.pith-backup-<time>`, and the new file is written
//! beside it and renamed over it, so it is never half written.

use crate::envelope::{Span, Splice, members, string_value};
use crate::ledger::timestamp;
use pith::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The clients `pith mcp install` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Client {
    /// Claude Code.
    ClaudeCode,
    /// Claude Desktop.
    ClaudeDesktop,
    /// Cursor.
    Cursor,
    /// OpenAI Codex CLI.
    Codex,
    /// Visual Studio Code.
    Vscode,
}

impl Client {
    /// Every client, in the order of the command line's list.
    pub const ALL: [Client; 5] = [
        Client::ClaudeCode,
        Client::ClaudeDesktop,
        Client::Cursor,
        Client::Codex,
        Client::Vscode,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            Client::ClaudeDesktop => "claude-desktop",
            Client::Cursor => "cursor",
            Client::Codex => "codex",
            Client::Vscode => "vscode",
        }
    }

    /// The client's configuration file, from the environment (`HOME`,
    /// `APPDATA`, `CODEX_HOME`).
    pub fn default_config(self) -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home = env("HOME").or_else(|| env("USERPROFILE"));
        let app_data = || {
            if cfg!(windows) {
                env("APPDATA")
            } else if cfg!(target_os = "macos") {
                home.as_ref().map(|h| h.join("Library/Application Support"))
            } else {
                env("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")))
            }
        };
        Some(match self {
            Client::ClaudeCode => home?.join(".claude.json"),
            Client::ClaudeDesktop => app_data()?.join("Claude/claude_desktop_config.json"),
            Client::Cursor => home?.join(".cursor/mcp.json"),
            Client::Codex => env("CODEX_HOME")
                .or_else(|| home.map(|h| h.join(".codex")))?
                .join("config.toml"),
            Client::Vscode => app_data()?.join("Code/User/mcp.json"),
        })
    }

    /// Whether the file is TOML (else JSON, with comments for VS Code).
    fn toml(self) -> bool {
        self == Client::Codex
    }

    /// The member that holds the servers.
    fn servers_key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            _ => "mcpServers",
        }
    }
}

impl std::str::FromStr for Client {
    type Err = String;

    fn from_str(s: &str) -> Result<Client, String> {
        Client::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Client::ALL.iter().map(|c| c.name()).collect();
                format!("unknown client `{s}`: expected one of {}", names.join(", "))
            })
    }
}

/// What to install into, or take out of, which file.
#[derive(Debug, Clone)]
pub struct Request {
    /// The client whose file it is.
    pub client: Client,
    /// The file (default [`Client::default_config`]).
    pub config: Option<PathBuf>,
    /// Only these servers (default every one).
    pub servers: Vec<String>,
    /// The `pith` the wrapped entries run (an absolute path: clients
    /// started from a desktop do not see a shell's `PATH`).
    pub pith: PathBuf,
    /// Where the entries as they were are kept (default
    /// `installs.json` beside the ledger).
    pub state: Option<PathBuf>,
}

/// What happened to one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Where it is configured: `mcpServers`, `projects./dir.mcpServers`, …
    pub scope: String,
    /// Its name.
    pub server: String,
    /// What was done or found, in a few words.
    pub outcome: String,
}

/// Why a file could not be read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum InstallError {
    /// No file was named and none could be found from the environment.
    NoConfig(Client),
    /// The file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The file is not what the client writes.
    Format(PathBuf, String),
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallError::NoConfig(c) => write!(
                f,
                "cannot tell where {}'s configuration is (no HOME): name it with --config",
                c.name()
            ),
            InstallError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            InstallError::Format(p, why) => write!(f, "{}: {why}", p.display()),
        }
    }
}

impl std::error::Error for InstallError {}

/// One server entry found in a file.
struct Entry {
    scope: Vec<String>,
    name: String,
    /// Its span in the file.
    span: std::ops::Range<usize>,
    /// Its value.
    value: EntryValue,
}

/// A server's settings, as JSON or TOML.
enum EntryValue {
    Json(Map),
    Toml(toml::Table),
}

/// The record of one wrapped entry.
#[derive(Debug, Clone, PartialEq)]
struct Installed {
    config: String,
    scope: Vec<String>,
    server: String,
    original: String,
    wrapped: String,
}

/// Wraps the servers of the request's file; one line per server.
pub fn install(req: &Request) -> Result<Vec<Line>, InstallError> {
    let (path, text, entries, mut records) = open(req)?;
    let mut splice = Splice::default();
    let mut lines = Vec::new();
    for e in &entries {
        if !req.servers.is_empty() && !req.servers.contains(&e.name) {
            continue;
        }
        let mut line = Line {
            scope: e.scope.join("."),
            server: e.name.clone(),
            outcome: String::new(),
        };
        if is_wrapped(&e.value) {
            line.outcome = "already wrapped".into();
        } else {
            match wrap(req, e, &text) {
                Ok(wrapped) => {
                    records.retain(|r| {
                        !(r.config == path_key(&path) && r.scope == e.scope && r.server == e.name)
                    });
                    records.push(Installed {
                        config: path_key(&path),
                        scope: e.scope.clone(),
                        server: e.name.clone(),
                        original: text[e.span.clone()].to_owned(),
                        wrapped: wrapped.clone(),
                    });
                    splice.replace(e.span.clone(), wrapped.into_bytes());
                    line.outcome = "wrapped".into();
                }
                Err(why) => line.outcome = format!("left alone: {why}"),
            }
        }
        lines.push(line);
    }
    if !splice.is_empty() {
        let new = splice.apply(text.as_bytes());
        write_with_backup(&path, &new)?;
        save_state(req, &records)?;
    }
    Ok(lines)
}

/// Puts back every entry pith wrapped in the request's file, as it was.
pub fn uninstall(req: &Request) -> Result<Vec<Line>, InstallError> {
    let (path, text, entries, mut records) = open(req)?;
    let mut splice = Splice::default();
    let mut lines = Vec::new();
    let mut done = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if r.config != path_key(&path)
            || (!req.servers.is_empty() && !req.servers.contains(&r.server))
        {
            continue;
        }
        let mut line = Line {
            scope: r.scope.join("."),
            server: r.server.clone(),
            outcome: String::new(),
        };
        match entries
            .iter()
            .find(|e| e.scope == r.scope && e.name == r.server)
        {
            None => {
                line.outcome = "gone from the file; forgotten".into();
                done.push(i);
            }
            Some(e) if same_value(req.client, &text[e.span.clone()], &r.wrapped) => {
                splice.replace(e.span.clone(), r.original.clone().into_bytes());
                line.outcome = "restored".into();
                done.push(i);
            }
            Some(_) => line.outcome = "changed since it was wrapped; left as it is".into(),
        }
        lines.push(line);
    }
    if !splice.is_empty() {
        let new = splice.apply(text.as_bytes());
        write_with_backup(&path, &new)?;
    }
    if !done.is_empty() {
        let mut i = 0;
        records.retain(|_| {
            i += 1;
            !done.contains(&(i - 1))
        });
        save_state(req, &records)?;
    }
    Ok(lines)
}

/// Lists the servers of the request's file and whether each is wrapped.
pub fn status(req: &Request) -> Result<Vec<Line>, InstallError> {
    let path = config_path(req)?;
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(InstallError::Io(path, e)),
    };
    let entries = entries(req.client, &path, &text)?;
    Ok(entries
        .iter()
        .filter(|e| req.servers.is_empty() || req.servers.contains(&e.name))
        .map(|e| Line {
            scope: e.scope.join("."),
            server: e.name.clone(),
            outcome: if is_wrapped(&e.value) {
                "wrapped"
            } else {
                "not wrapped"
            }
            .into(),
        })
        .collect())
}

/// The request's file: its path, text, server entries, and pith's record
/// of what it wrapped.
fn open(req: &Request) -> Result<(PathBuf, String, Vec<Entry>, Vec<Installed>), InstallError> {
    let path = config_path(req)?;
    let text = read(&path)?;
    let entries = entries(req.client, &path, &text)?;
    Ok((path, text, entries, load_state(req)?))
}

fn config_path(req: &Request) -> Result<PathBuf, InstallError> {
    req.config
        .clone()
        .or_else(|| req.client.default_config())
        .ok_or(InstallError::NoConfig(req.client))
}

fn read(path: &Path) -> Result<String, InstallError> {
    std::fs::read_to_string(path).map_err(|e| InstallError::Io(path.to_owned(), e))
}

fn path_key(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_owned())
        .to_string_lossy()
        .into_owned()
}

/// An entry's settings as one kind of value, whatever the file's format.
fn settings(v: &EntryValue) -> Map {
    match v {
        EntryValue::Json(m) => m.clone(),
        EntryValue::Toml(t) => from_toml(&toml::Value::Table(t.clone()))
            .into_object()
            .unwrap_or_default(),
    }
}

fn from_toml(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::from(s.as_str()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => pith::json::parse(&f.to_string()).unwrap_or(Value::Null),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::from(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(from_toml).collect()),
        toml::Value::Table(t) => {
            let mut m = Map::new();
            for (k, x) in t {
                m.insert(k.as_str(), from_toml(x));
            }
            Value::Object(m)
        }
    }
}

/// Whether an entry already runs `pith mcp`.
fn is_wrapped(v: &EntryValue) -> bool {
    let m = settings(v);
    let pith = m
        .get("command")
        .and_then(Value::as_str)
        .and_then(|c| {
            Path::new(c)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .is_some_and(|name| name == "pith");
    let first = m
        .get("args")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    pith && first == Some("mcp")
}

/// What the server runs or where it is, read from its entry.
enum Target {
    Stdio {
        command: String,
        args: Vec<String>,
    },
    Remote {
        url: String,
        headers: Vec<(String, String)>,
    },
}

/// What an entry runs or where it points. Remote entries name headers as
/// `headers` (JSON clients) or, in Codex, `http_headers`,
/// `env_http_headers` (values naming environment variables) and
/// `bearer_token_env_var`.
fn target(v: &EntryValue) -> Result<Target, String> {
    let m = settings(v);
    if let Some(command) = m.get("command").and_then(Value::as_str) {
        let args = match m.get("args") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| "an argument is not a string".to_owned())
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err("`args` is not a list".into()),
        };
        return Ok(Target::Stdio {
            command: command.to_owned(),
            args,
        });
    }
    let Some(url) = m.get("url").and_then(Value::as_str) else {
        return Err("neither `command` nor `url`".into());
    };
    let mut headers = Vec::new();
    if let Some(var) = m.get("bearer_token_env_var").and_then(Value::as_str) {
        headers.push(("Authorization".to_owned(), format!("Bearer ${{{var}}}")));
    }
    for (key, from_env) in [
        ("headers", false),
        ("http_headers", false),
        ("env_http_headers", true),
    ] {
        if let Some(Value::Object(h)) = m.get(key) {
            for (k, v) in h.iter() {
                let v = v.as_str().ok_or("a header value is not a string")?;
                let v = if from_env {
                    format!("${{{v}}}")
                } else {
                    v.to_owned()
                };
                headers.push((k.to_string(), v));
            }
        }
    }
    Ok(Target::Remote {
        url: url.to_owned(),
        headers,
    })
}

/// The arguments of `pith` for an entry.
fn pith_args(name: &str, t: &Target) -> Vec<String> {
    let mut args = vec!["mcp".to_owned(), "--name".to_owned(), name.to_owned()];
    match t {
        Target::Stdio {
            command,
            args: rest,
        } => {
            args.push("--".into());
            args.push(command.clone());
            args.extend(rest.iter().cloned());
        }
        Target::Remote { url, headers } => {
            args.push("--url".into());
            args.push(url.clone());
            for (k, v) in headers {
                args.push("--header".into());
                args.push(format!("{k}: {v}"));
            }
        }
    }
    args
}

/// The members a wrapped entry no longer has: they are in pith's arguments.
const MOVED: &[&str] = &[
    "command",
    "args",
    "url",
    "headers",
    "type",
    "http_headers",
    "env_http_headers",
    "bearer_token_env_var",
];

/// The text of the wrapped entry.
fn wrap(req: &Request, e: &Entry, text: &str) -> Result<String, String> {
    let t = target(&e.value)?;
    let args = pith_args(&e.name, &t);
    let pith = req.pith.to_string_lossy().into_owned();
    match &e.value {
        EntryValue::Json(m) => {
            // The members kept, as written (comments and all).
            let stripped = strip_comments(&text[e.span.clone()]);
            let (spans, _) = members(stripped.as_bytes(), 0).ok_or("not an object")?;
            let mut out = String::from("{");
            if m.contains_key("type") {
                out.push_str("\"type\":\"stdio\",");
            }
            out.push_str("\"command\":");
            out.push_str(&pith::json::stringify(&Value::from(pith.as_str())));
            out.push_str(",\"args\":");
            out.push_str(&pith::json::stringify(&Value::Array(
                args.into_iter().map(Value::from).collect(),
            )));
            let original = &text[e.span.clone()];
            for s in &spans {
                let key = string_value(&stripped.as_bytes()[s.key.clone()]).unwrap_or_default();
                if !MOVED.contains(&key.as_str()) {
                    out.push(',');
                    out.push_str(&original[s.key.start..s.value.end]);
                }
            }
            out.push('}');
            Ok(out)
        }
        EntryValue::Toml(table) => {
            let mut out = text[e.span.clone()]
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned();
            out.push('\n');
            out.push_str(&format!("command = {}\n", toml::Value::String(pith)));
            let args = toml::Value::Array(args.into_iter().map(toml::Value::String).collect());
            out.push_str(&format!("args = {args}\n"));
            for (k, v) in table {
                if !MOVED.contains(&k.as_str()) {
                    out.push_str(&format!("{} = {v}\n", toml_key(k)));
                }
            }
            if !text[e.span.clone()].ends_with('\n') {
                out.pop();
            }
            // A blank line before the next table, if there was one.
            if text[e.span.clone()].ends_with("\n\n") {
                out.push('\n');
            }
            Ok(out)
        }
    }
}

fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        k.to_owned()
    } else {
        toml::Value::String(k.to_owned()).to_string()
    }
}

/// Whether the entry text `current` has the value of `wrapped`.
fn same_value(client: Client, current: &str, wrapped: &str) -> bool {
    if client.toml() {
        let parse = |s: &str| s.parse::<toml::Table>().ok();
        parse(current).is_some_and(|a| Some(a) == parse(wrapped))
    } else {
        let parse = |s: &str| pith::json::parse(&strip_comments(s)).ok();
        parse(current).is_some_and(|a| Some(a) == parse(wrapped))
    }
}

/// Every server entry of the file.
fn entries(client: Client, path: &Path, text: &str) -> Result<Vec<Entry>, InstallError> {
    let bad = |why: &str| InstallError::Format(path.to_owned(), why.to_owned());
    if client.toml() {
        return toml_entries(text).map_err(|e| bad(&e));
    }
    let stripped = strip_comments(text);
    let b = stripped.as_bytes();
    let root = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .ok_or_else(|| bad("empty: expected a JSON object"))?;
    let (spans, _) = members(b, root).ok_or_else(|| bad("expected a JSON object"))?;
    let mut out = Vec::new();
    let key = client.servers_key();
    collect_servers(b, &spans, &[key.to_owned()], key, &mut out).map_err(|e| bad(&e))?;
    if client == Client::ClaudeCode
        && let Some(p) = find_member(b, &spans, "projects")
        && b.get(p.value.start) == Some(&b'{')
    {
        let (projects, _) =
            members(b, p.value.start).ok_or_else(|| bad("`projects` is not an object"))?;
        for project in &projects {
            let dir = string_value(&b[project.key.clone()]).unwrap_or_default();
            if b.get(project.value.start) != Some(&b'{') {
                continue;
            }
            let Some((inner, _)) = members(b, project.value.start) else {
                continue;
            };
            let scope = ["projects".to_owned(), dir, key.to_owned()];
            collect_servers(b, &inner, &scope, key, &mut out).map_err(|e| bad(&e))?;
        }
    }
    Ok(out)
}

fn find_member<'s>(b: &[u8], spans: &'s [Span], name: &str) -> Option<&'s Span> {
    spans
        .iter()
        .find(|s| string_value(&b[s.key.clone()]).as_deref() == Some(name))
}

fn collect_servers(
    b: &[u8],
    spans: &[Span],
    scope: &[String],
    key: &str,
    out: &mut Vec<Entry>,
) -> Result<(), String> {
    let Some(servers) = find_member(b, spans, key) else {
        return Ok(());
    };
    if b.get(servers.value.start) != Some(&b'{') {
        return Err(format!("`{key}` is not an object"));
    }
    let (list, _) =
        members(b, servers.value.start).ok_or_else(|| format!("`{key}` is not an object"))?;
    for s in list {
        let name = string_value(&b[s.key.clone()]).ok_or("a server name is not a string")?;
        let value = match pith::json::parse_bytes(&b[s.value.clone()]).map(Value::into_object) {
            Ok(Ok(m)) => m,
            _ => return Err(format!("server `{name}` is not an object")),
        };
        out.push(Entry {
            scope: scope.to_vec(),
            name,
            span: s.value.clone(),
            value: EntryValue::Json(value),
        });
    }
    Ok(())
}

/// JSON with comments and trailing commas made plain JSON of the same
/// length: comments and trailing commas become spaces, so every span of
/// the result is the same span of the original.
pub(crate) fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                for c in &mut out[i..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                // A comma followed only by blanks (the comments are blank
                // by now, behind; ahead they are checked as they come).
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        Some(c) if c.is_ascii_whitespace() => j += 1,
                        Some(b'/') if b.get(j + 1) == Some(&b'/') => {
                            while j < b.len() && b[j] != b'\n' {
                                j += 1;
                            }
                        }
                        Some(b'/') if b.get(j + 1) == Some(&b'*') => {
                            j = text[j + 2..].find("*/").map_or(b.len(), |e| j + 2 + e + 2);
                        }
                        _ => break,
                    }
                }
                if matches!(b.get(j), Some(b'}' | b']')) {
                    out[i] = b' ';
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced, by ASCII spaces.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The `[mcp_servers.NAME]` tables of a Codex `config.toml`, each with
/// the span from its header to the next table that is not one of its own.
fn toml_entries(text: &str) -> Result<Vec<Entry>, String> {
    let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let Some(toml::Value::Table(servers)) = doc.get("mcp_servers") else {
        return Ok(Vec::new());
    };
    // Header lines: (offset, the dotted key inside the brackets).
    let mut headers = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') && !t.starts_with("[[") {
            let inner = t.trim_start_matches('[');
            if let Some(end) = inner.find(']') {
                headers.push((at, inner[..end].trim().to_owned()));
            }
        }
        at += line.len();
    }
    let mut out = Vec::new();
    for (name, table) in servers {
        let toml::Value::Table(table) = table else {
            continue;
        };
        let own = |h: &str| {
            let unquoted = format!("mcp_servers.{name}");
            let quoted = format!("mcp_servers.{}", toml::Value::String(name.clone()));
            [unquoted, quoted]
                .into_iter()
                .find(|k| h == k || h.starts_with(&format!("{k}.")))
        };
        let Some(first) = headers
            .iter()
            .position(|(_, h)| own(h).is_some_and(|k| *h == k))
        else {
            // An inline table under [mcp_servers]: not wrapped.
            continue;
        };
        let mut last = first + 1;
        while last < headers.len() && own(&headers[last].1).is_some() {
            last += 1;
        }
        let start = headers[first].0;
        let end = headers.get(last).map_or(text.len(), |(o, _)| *o);
        out.push(Entry {
            scope: vec!["mcp_servers".into()],
            name: name.clone(),
            span: start..end,
            value: EntryValue::Toml(table.clone()),
        });
    }
    out.sort_by_key(|e| e.span.start);
    Ok(out)
}

/// Writes `bytes` over `path`: a backup of the old file first, then the
/// new one written beside it, flushed, and renamed over it (keeping its
/// permissions).
fn write_with_backup(path: &Path, bytes: &[u8]) -> Result<(), InstallError> {
    let io = |e| InstallError::Io(path.to_owned(), e);
    let stamp: String = timestamp(SystemTime::now())
        .chars()
        .filter(|c| *c != ':' && *c != '-')
        .collect();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let backup = path.with_file_name(format!("{name}.pith-backup-{stamp}"));
    std::fs::copy(path, &backup).map_err(io)?;
    atomic_write(path, bytes).map_err(io)
}

fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.pith-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn state_path(req: &Request) -> Option<PathBuf> {
    req.state
        .clone()
        .or_else(|| crate::ledger::default_path().map(|p| p.with_file_name("installs.json")))
}

fn load_state(req: &Request) -> Result<Vec<Installed>, InstallError> {
    let Some(path) = state_path(req) else {
        return Ok(Vec::new());
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(InstallError::Io(path, e)),
    };
    let bad = || {
        InstallError::Format(
            path.clone(),
            "expected pith's record of wrapped servers".into(),
        )
    };
    let v = pith::json::parse(&text).map_err(|_| bad())?;
    let list = v
        .get("installs")
        .and_then(Value::as_array)
        .ok_or_else(bad)?;
    list.iter()
        .map(|r| {
            let s = |k: &str| {
                r.get(k)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(bad)
            };
            let scope = r
                .get("scope")
                .and_then(Value::as_array)
                .ok_or_else(bad)?
                .iter()
                .map(|x| x.as_str().map(str::to_owned).ok_or_else(bad))
                .collect::<Result<_, _>>()?;
            Ok(Installed {
                config: s("config")?,
                scope,
                server: s("server")?,
                original: s("original")?,
                wrapped: s("wrapped")?,
            })
        })
        .collect()
}

fn save_state(req: &Request, records: &[Installed]) -> Result<(), InstallError> {
    let Some(path) = state_path(req) else {
        return Ok(());
    };
    let list = records
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("config", Value::from(r.config.as_str()));
            m.insert(
                "scope",
                Value::Array(r.scope.iter().map(|s| Value::from(s.as_str())).collect()),
            );
            m.insert("server", Value::from(r.server.as_str()));
            m.insert("original", Value::from(r.original.as_str()));
            m.insert("wrapped", Value::from(r.wrapped.as_str()));
            Value::Object(m)
        })
        .collect();
    let mut root = Map::new();
    root.insert("installs", Value::Array(list));
    let io = |e| InstallError::Io(path.clone(), e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    atomic_write(
        &path,
        pith::json::stringify_pretty(&Value::Object(root), 2).as_bytes(),
    )
    .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_become_blanks() {
        let t =
            "{\n  // a comment, with \"quotes\"\n  \"a\": [1, 2,], /* x */ \"b\": \"//not\",\n}";
        let s = strip_comments(t);
        assert_eq!(s.len(), t.len());
        let v = pith::json::parse(&s).unwrap();
        assert_eq!(pith::json::stringify(&v), r#"{"a":[1,2],"b":"//not"}"#);
    }
}

//! `pith mcp install | uninstall | status` on a temporary HOME holding each
//! client's configuration file in its documented place and shape.

mod support;

use pith::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::repo;

/// A fresh HOME for one test.
fn home(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-install-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `pith mcp ARGS` with `home` as HOME and nothing else pointing
/// elsewhere.
fn pith_in(home: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_pith"))
        .arg("mcp")
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("APPDATA")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pith mcp {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn backups(file: &Path) -> usize {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .filter(|e| {
            let n = e
                .as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .into_owned();
            n.starts_with(&format!("{name}.pith-backup-"))
        })
        .count()
}

/// Install, install again, status, uninstall: the file comes back byte for
/// byte; returns the installed file's text.
fn round_trip(client: &str, home: &Path, file: &Path, original: &str, servers: usize) -> String {
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, original).unwrap();
    let out = text(&pith_in(home, &["install", "--client", client]));
    assert_eq!(
        out.matches("\twrapped\n").count(),
        servers,
        "{client}: {out}"
    );
    let installed = std::fs::read_to_string(file).unwrap();
    assert_ne!(installed, original);
    assert_eq!(backups(file), 1, "a backup before writing");
    // Idempotent: nothing more to wrap, nothing written.
    let again = text(&pith_in(home, &["install", "--client", client]));
    assert_eq!(again.matches("already wrapped").count(), servers, "{again}");
    assert_eq!(std::fs::read_to_string(file).unwrap(), installed);
    assert_eq!(backups(file), 1);
    let status = text(&pith_in(home, &["status", "--client", client]));
    assert_eq!(status.matches("\twrapped\n").count(), servers, "{status}");
    let out = text(&pith_in(home, &["uninstall", "--client", client]));
    assert_eq!(out.matches("restored").count(), servers, "{out}");
    assert_eq!(
        std::fs::read_to_string(file).unwrap(),
        original,
        "{client}: uninstall restores the file byte for byte"
    );
    let status = text(&pith_in(home, &["status", "--client", client]));
    assert_eq!(status.matches("not wrapped").count(), servers, "{status}");
    installed
}

fn pith_path() -> String {
    env!("CARGO_BIN_EXE_pith").to_owned()
}

#[test]
fn claude_code() {
    let h = home("claude-code");
    let original = r#"{
  "numStartups": 12,
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-memory"
      ],
      "env": {"MEMORY_FILE_PATH": "/tmp/m.jsonl"}
    },
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}
    }
  },
  "projects": {
    "/home/me/app": {
      "allowedTools": [],
      "mcpServers": {
        "sqlite": {"type": "stdio", "command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "app.db"], "env": {}}
      }
    }
  },
  "tipsHistory": {"x": 1}
}
"#;
    let file = h.join(".claude.json");
    let installed = round_trip("claude-code", &h, &file, original, 3);
    let v = pith::json::parse(&installed).unwrap();
    let memory = v.get("mcpServers").unwrap().get("memory").unwrap();
    assert_eq!(memory.get("type"), Some(&Value::from("stdio")));
    assert_eq!(
        memory.get("command"),
        Some(&Value::from(pith_path().as_str()))
    );
    assert_eq!(
        pith::json::stringify(memory.get("args").unwrap()),
        r#"["mcp","--name","memory","--","npx","-y","@modelcontextprotocol/server-memory"]"#
    );
    assert_eq!(
        pith::json::stringify(memory.get("env").unwrap()),
        r#"{"MEMORY_FILE_PATH":"/tmp/m.jsonl"}"#
    );
    let github = v.get("mcpServers").unwrap().get("github").unwrap();
    assert_eq!(
        pith::json::stringify(github.get("args").unwrap()),
        r#"["mcp","--name","github","--url","https://api.githubcopilot.com/mcp/","--header","Authorization: Bearer ${GITHUB_TOKEN}"]"#
    );
    assert!(github.get("url").is_none() && github.get("headers").is_none());
    let sqlite = v
        .get("projects")
        .unwrap()
        .get("/home/me/app")
        .unwrap()
        .get("mcpServers")
        .unwrap()
        .get("sqlite")
        .unwrap();
    assert_eq!(
        sqlite.get("args").unwrap().as_array().unwrap()[4],
        Value::from("uvx")
    );
    // Everything outside the entries is as it was.
    assert!(
        installed.starts_with(
            "{\n  \"numStartups\": 12,\n  \"mcpServers\": {\n    \"memory\": {\"type\""
        )
    );
    assert!(installed.ends_with("\n  },\n  \"tipsHistory\": {\"x\": 1}\n}\n"));
}

#[test]
fn claude_code_rewriting_its_file_does_not_stop_uninstall() {
    let h = home("claude-code-reformat");
    let original = "{\"mcpServers\":{\"memory\":{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-memory\"]}},\"numStartups\":1}";
    let file = h.join(".claude.json");
    std::fs::write(&file, original).unwrap();
    pith_in(&h, &["install", "--client", "claude-code"]);
    // Claude Code writes the file back in its own layout, with a change.
    let mut v = pith::json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v.as_object_mut()
        .unwrap()
        .insert("numStartups", Value::from(2));
    std::fs::write(&file, pith::json::stringify_pretty(&v, 2)).unwrap();
    let out = text(&pith_in(&h, &["uninstall", "--client", "claude-code"]));
    assert!(out.contains("restored"), "{out}");
    let back = pith::json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let want = pith::json::parse(original).unwrap();
    assert_eq!(back.get("mcpServers"), want.get("mcpServers"));
    assert_eq!(
        back.get("numStartups"),
        Some(&Value::from(2)),
        "the client's own change stays"
    );
}

#[test]
fn claude_desktop() {
    let h = home("claude-desktop");
    let original = r#"{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
    }
  },
  "globalShortcut": ""
}"#;
    let file = h.join(".config/Claude/claude_desktop_config.json");
    round_trip("claude-desktop", &h, &file, original, 1);
}

#[test]
fn cursor_and_the_wrapped_server_runs() {
    let h = home("cursor");
    let server = repo().join("crates/pith-mcp/tests/support/fake-server.mjs");
    let original = format!(
        "{{\n  \"mcpServers\": {{\n    \"fake\": {{ \"command\": \"node\", \"args\": [{}], \"env\": {{}} }},\n    \"remote\": {{ \"url\": \"https://mcp.example.com/mcp\", \"headers\": {{ \"X-Key\": \"${{env:KEY}}\" }} }}\n  }}\n}}\n",
        pith::json::stringify(&Value::from(server.to_str().unwrap()))
    );
    let file = h.join(".cursor/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &original).unwrap();
    pith_in(&h, &["install", "--client", "cursor", "--server", "fake"]);
    let v = pith::json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let servers = v.get("mcpServers").unwrap();
    assert!(
        servers.get("remote").unwrap().get("url").is_some(),
        "--server fake only"
    );
    // The wrapped entry, run as Cursor would run it, answers.
    let fake = servers.get("fake").unwrap();
    let command = fake.get("command").and_then(Value::as_str).unwrap();
    let args: Vec<String> = fake
        .get("args")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    let mut args = args;
    args.insert(1, "--no-stats".into());
    let mut child = Command::new(command)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"serverInfo\""));
    pith_in(&h, &["uninstall", "--client", "cursor"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn codex() {
    let h = home("codex");
    let original = r#"# Codex configuration
model = "gpt-5"

[mcp_servers.memory]
command = "npx"
args = [
  "-y",
  "@modelcontextprotocol/server-memory",
]
startup_timeout_sec = 20

[mcp_servers.memory.env]
MEMORY_FILE_PATH = "/tmp/m.jsonl"

[mcp_servers."time server"]
command = "uvx"
args = ["mcp-server-time"]

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_TOKEN"

[profiles.fast]
model = "gpt-5-mini"
"#;
    let file = h.join(".codex/config.toml");
    let installed = round_trip("codex", &h, &file, original, 3);
    let doc: toml::Table = installed.parse().unwrap();
    let memory = &doc["mcp_servers"]["memory"];
    assert_eq!(memory["command"].as_str(), Some(pith_path().as_str()));
    let args: Vec<&str> = memory["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        args,
        [
            "mcp",
            "--name",
            "memory",
            "--",
            "npx",
            "-y",
            "@modelcontextprotocol/server-memory"
        ]
    );
    assert_eq!(
        memory["env"]["MEMORY_FILE_PATH"].as_str(),
        Some("/tmp/m.jsonl")
    );
    assert_eq!(memory["startup_timeout_sec"].as_integer(), Some(20));
    let figma: Vec<&str> = doc["mcp_servers"]["figma"]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        figma[3..],
        [
            "--url",
            "https://mcp.figma.com/mcp",
            "--header",
            "Authorization: Bearer ${FIGMA_TOKEN}"
        ]
    );
    assert_eq!(
        doc["profiles"]["fast"]["model"].as_str(),
        Some("gpt-5-mini")
    );
    assert!(
        installed.starts_with("# Codex configuration\nmodel = \"gpt-5\"\n\n[mcp_servers.memory]\n")
    );
    assert!(installed.ends_with("\n[profiles.fast]\nmodel = \"gpt-5-mini\"\n"));
}

#[test]
fn vscode() {
    let h = home("vscode");
    let original = r#"{
  // Servers for this profile.
  "servers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"], // the graph
    },
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
    },
  },
  /* prompts for secrets */
  "inputs": [],
}
"#;
    let file = h.join(".config/Code/User/mcp.json");
    let installed = round_trip("vscode", &h, &file, original, 2);
    assert!(installed.contains("// Servers for this profile."));
    assert!(installed.contains("/* prompts for secrets */"));
}

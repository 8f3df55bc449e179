//! Every option type of the proxy, in one place: [`Options`] (what `pith
//! mcp` can be told), [`RewriteOptions`] (how a text is re-encoded) with
//! their defaults, the `structuredContent` policy and the tool-name filter.

use crate::ledger::Ledger;
use pith::select;
use pith::tokens::TokenizerKind;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Tools left alone unless `default_excludes` is turned off: names that look
/// like they return a file's or a resource's text verbatim.
///
/// An agent edits files by exact match on the text it read; if `read_file`
/// of a `.json` file came back as TOON, the agent's next `edit_file` would
/// search for text that is not in the file. Matching is ASCII
/// case-insensitive, so `readFile` and `READ_FILE` are covered too.
pub const DEFAULT_EXCLUDES: &[&str] = &[
    "*read*file*",
    "*file*content*",
    "*get*file*",
    "*open*file*",
    "*view*file*",
    "*read*resource*",
    "read",
    "cat",
    "view",
];

/// The least saving, in tokens, for which a text is rewritten, unless told
/// otherwise.
///
/// Ten tokens is about one short line. Below that a reader gains nothing
/// worth meeting a second notation for, and a proxy that leaves small
/// answers alone is easier to trust.
pub const DEFAULT_MIN_SAVING: usize = 10;

/// Texts longer than this many bytes are forwarded untouched, unless told
/// otherwise: parsing, rendering, checking and counting tokens of a text
/// takes time in proportion to its size, and this bounds the delay one
/// result can add (about 0.3 s for 8 MiB on one core; see the `overhead`
/// bench).
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

/// The budget of each rewritten text unless told otherwise, in tokens of
/// the rewrite's tokenizer (o200k by default).
///
/// Claude Code refuses an MCP result over 25,000 tokens of its own
/// tokenizer (which counts JSON and TOON at up to about 1.3 times o200k)
/// and moves one over 50,000 characters to a file; 10,000 o200k tokens is
/// about 35,000 characters of TOON, under both. A cut result loses
/// nothing: `pith_more` returns the rest.
pub const DEFAULT_BUDGET: usize = 10_000;

/// How texts are rewritten (a part of [`Options`](crate::Options)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RewriteOptions {
    /// The least saving, in tokens, worth a rewrite (default
    /// [`DEFAULT_MIN_SAVING`]); a rewrite always saves at least one token.
    pub min_saving: usize,
    /// The tokenizer that counts the saving (default o200k).
    pub tokenizer: TokenizerKind,
    /// Longer texts are left untouched (default [`DEFAULT_MAX_BYTES`]).
    pub max_bytes: usize,
    /// Bound on each rewritten text, in tokens of `tokenizer` (default
    /// [`DEFAULT_BUDGET`]; `None` never cuts). A text whose cheapest
    /// rendering exceeds it is cut at row boundaries with the omission
    /// receipts of [`pith::budget`] (or, when nothing fits, replaced by a
    /// short `output_budget_exceeded` notice).
    pub budget: Option<usize>,
    /// The lowest readability score a rewritten text may have (default
    /// [`select::DEFAULT_MIN_READABILITY`]; see `docs/notation.md`).
    pub min_readability: u8,
}

impl Default for RewriteOptions {
    fn default() -> Self {
        RewriteOptions {
            min_saving: DEFAULT_MIN_SAVING,
            tokenizer: TokenizerKind::O200k,
            max_bytes: DEFAULT_MAX_BYTES,
            budget: Some(DEFAULT_BUDGET),
            min_readability: select::DEFAULT_MIN_READABILITY,
        }
    }
}

/// Everything `pith mcp` can be told.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// How a text content item is re-encoded, and when it is worth it.
    pub rewrite: RewriteOptions,
    /// What happens to `structuredContent` (and so to `outputSchema`).
    pub structured: Structured,
    /// Which tools' results may be rewritten.
    pub tools: ToolFilter,
    /// Rewrite results that carry `isError: true` as well (default off:
    /// an error text is read by a person or a model as prose, and
    /// its exact wording is what bug reports quote).
    pub rewrite_errors: bool,
    /// After the client closes stdin, how long the server gets to exit
    /// before SIGTERM, and again before SIGKILL (default 2 s each, the
    /// official SDK's figures).
    pub shutdown_grace: Duration,
    /// The savings ledger to append to (see [`crate::ledger`]); `None`
    /// (the default of the library; `pith mcp` names
    /// [`crate::ledger::default_path`] unless `--no-stats`) keeps none.
    pub stats: Option<PathBuf>,
    /// The server's name in the ledger (default: from its command or URL).
    pub name: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rewrite: RewriteOptions::default(),
            structured: Structured::DropIfEquivalent,
            tools: ToolFilter::default(),
            rewrite_errors: false,
            shutdown_grace: Duration::from_secs(2),
            stats: None,
            name: None,
        }
    }
}

impl Options {
    /// The ledger, if one is asked for and can be opened (if not, a
    /// warning on stderr, and the proxy runs without one).
    pub(crate) fn open_ledger(&self, command: &OsStr, args: &[OsString]) -> Option<Ledger> {
        let path = self.stats.as_ref()?;
        let name = self
            .name
            .clone()
            .unwrap_or_else(|| server_name(command, args));
        match Ledger::open(path, &name) {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!("pith: cannot open the ledger {}: {e}", path.display());
                None
            }
        }
    }
}

/// A short name for a server started as `command args…`: the program's
/// file name, or for a launcher (`npx`, `node`, `uvx`, `python`, …) that of
/// the package or script it runs, without a scope or version.
pub fn server_name(command: &OsStr, args: &[OsString]) -> String {
    const LAUNCHERS: &[&str] = &[
        "node", "npx", "bunx", "bun", "deno", "uvx", "uv", "pipx", "python", "python3", "pnpm",
        "yarn", "docker", "podman",
    ];
    let stem = |s: &OsStr| {
        let name = Path::new(s)
            .file_name()
            .unwrap_or(s)
            .to_string_lossy()
            .into_owned();
        let name = name.rsplit('/').next().unwrap_or(&name).to_owned();
        let name = match name.rfind('@') {
            Some(i) if i > 0 => name[..i].to_owned(),
            _ => name,
        };
        match name.rsplit_once('.') {
            Some((base, "js" | "mjs" | "cjs" | "py" | "ts" | "exe")) => base.to_owned(),
            _ => name,
        }
    };
    let program = stem(command);
    if !LAUNCHERS.contains(&program.as_str()) {
        return program;
    }
    args.iter()
        .find(|a| {
            let a = a.to_string_lossy();
            !a.starts_with('-') && !matches!(a.as_ref(), "run" | "exec" | "x" | "dlx" | "tool")
        })
        .map_or(program, |a| stem(a))
}

/// The `structuredContent` policy (`--structured`).
///
/// Clients differ in what they show the model: some send only the text
/// content, others send `structuredContent` and drop the text when both are
/// present. `Keep` is right for the first kind and never changes what the
/// second kind sees; `DropIfEquivalent` makes the second kind see the
/// re-encoded text too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Structured {
    /// Forward `structuredContent` and `outputSchema` untouched.
    Keep,
    /// Remove `structuredContent` from a result when its text items hold
    /// exactly the same JSON value, so nothing is lost (the default). The
    /// official TypeScript and Python clients refuse a result without
    /// `structuredContent` from a tool that lists an `outputSchema`, and
    /// `tools/list` is answered before any result is seen, so in this mode
    /// `outputSchema` is held back from `tools/list` for every tool the
    /// filter lets through, until a result of the tool shows a
    /// `structuredContent` that its text does not hold: from then on that
    /// tool's results keep it, its schema is forwarded, and the client is
    /// sent `notifications/tools/list_changed` to list the tools again.
    #[default]
    DropIfEquivalent,
}

/// Which tools' results may be rewritten, by name.
///
/// A tool is rewritten when it matches an `include` glob (or `include` is
/// empty) and matches no `exclude` glob, nor one of [`DEFAULT_EXCLUDES`]
/// while `default_excludes` is on. Globs know `*` (any run of characters)
/// and `?` (one character) and match ASCII case-insensitively.
#[derive(Debug, Clone)]
pub struct ToolFilter {
    /// `--include` globs; empty means every tool.
    pub include: Vec<String>,
    /// `--exclude` globs.
    pub exclude: Vec<String>,
    /// Whether [`DEFAULT_EXCLUDES`] apply (default on).
    pub default_excludes: bool,
}

impl Default for ToolFilter {
    fn default() -> Self {
        ToolFilter {
            include: Vec::new(),
            exclude: Vec::new(),
            default_excludes: true,
        }
    }
}

impl ToolFilter {
    /// Whether results of the tool called `name` may be rewritten.
    pub fn allows(&self, name: &str) -> bool {
        let included = self.include.is_empty() || self.include.iter().any(|g| glob(g, name));
        included
            && !self.exclude.iter().any(|g| glob(g, name))
            && !(self.default_excludes && DEFAULT_EXCLUDES.iter().any(|g| glob(g, name)))
    }
}

/// `*` and `?` matching, ASCII case-insensitive, by the classic two-pointer
/// walk that backtracks only to the last `*` (linear space, no recursion).
pub(crate) fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c.eq_ignore_ascii_case(&n[ni]) => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("*", ""));
        assert!(glob("*", "anything"));
        assert!(glob("read_*", "read_graph"));
        assert!(glob("READ_*", "read_graph"));
        assert!(!glob("read_*", "search_nodes"));
        assert!(glob("?ead", "read"));
        assert!(!glob("?ead", "rread"));
        assert!(glob("*a*b*c*", "xxaxxbxxcxx"));
        assert!(!glob("*a*b*c*", "xxaxxcxxbxx"));
        assert!(glob("a**b", "ab"));
        assert!(!glob("", "a"));
        assert!(glob("", ""));
        assert!(glob("é*", "émoi"));
    }

    #[test]
    fn default_excludes_cover_file_readers_only() {
        let f = ToolFilter::default();
        for name in [
            "read_file",
            "read_text_file",
            "read_multiple_files",
            "read_media_file",
            "readFile",
            "get_file_contents",
            "view_file",
            "open_file",
            "read_resource",
            "cat",
        ] {
            assert!(!f.allows(name), "{name} should be excluded by default");
        }
        for name in [
            "read_graph",
            "search_nodes",
            "create_entities",
            "directory_tree",
            "list_directory",
            "get-env",
            "echo",
            "search_files",
        ] {
            assert!(f.allows(name), "{name} should be rewritten by default");
        }
    }

    #[test]
    fn server_names() {
        let name = |c: &str, a: &[&str]| {
            let args: Vec<OsString> = a.iter().map(OsString::from).collect();
            server_name(OsStr::new(c), &args)
        };
        assert_eq!(name("/usr/bin/mcp-server-git", &[]), "mcp-server-git");
        assert_eq!(
            name(
                "npx",
                &["-y", "@modelcontextprotocol/server-memory@2026.8.31"]
            ),
            "server-memory"
        );
        assert_eq!(name("node", &["/x/dist/index.js"]), "index");
        assert_eq!(
            name("uvx", &["mcp-server-time", "--local-timezone", "UTC"]),
            "mcp-server-time"
        );
        assert_eq!(name("python3", &["-m", "server.py"]), "server");
        assert_eq!(name("npx", &[]), "npx");
    }

    #[test]
    fn include_and_exclude() {
        let f = ToolFilter {
            include: vec!["read_*".into(), "search_*".into()],
            exclude: vec!["search_nodes".into()],
            default_excludes: true,
        };
        assert!(f.allows("read_graph"));
        assert!(!f.allows("search_nodes"));
        assert!(!f.allows("create_entities"));
        assert!(!f.allows("read_file"), "default excludes still apply");
        let f = ToolFilter {
            default_excludes: false,
            ..f
        };
        assert!(f.allows("read_file"));
    }
}

pith::options_setters!(RewriteOptions {
    min_saving: usize,
    tokenizer: TokenizerKind,
    max_bytes: usize,
    budget: Option<usize>,
    min_readability: u8,
});

pith::options_setters!(Options {
    rewrite: RewriteOptions,
    structured: Structured,
    tools: ToolFilter,
    rewrite_errors: bool,
    shutdown_grace: Duration,
    stats: Option<PathBuf>,
    name: Option<String>,
});

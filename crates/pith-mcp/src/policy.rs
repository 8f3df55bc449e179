//! What the proxy may rewrite: options, the `structuredContent` policy and
//! the tool-name filter.

use crate::rewrite::RewriteOptions;
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

/// Everything `pith mcp` can be told.
#[derive(Debug, Clone)]
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rewrite: RewriteOptions::default(),
            structured: Structured::Keep,
            tools: ToolFilter::default(),
            rewrite_errors: false,
            shutdown_grace: Duration::from_secs(2),
        }
    }
}

/// The `structuredContent` policy (`--structured`).
///
/// Clients differ in what they show the model: some send only the text
/// content, others send `structuredContent` and drop the text when both are
/// present. `Keep` is right for the first kind and never changes what the
/// second kind sees; `DropIfEquivalent` makes the second kind see the
/// re-encoded text too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Structured {
    /// Forward `structuredContent` and `outputSchema` untouched (default).
    #[default]
    Keep,
    /// Remove `structuredContent` from a result when one of its text items
    /// holds exactly the same JSON value, so nothing is lost. The official
    /// TypeScript client refuses a result without `structuredContent` from
    /// a tool that lists an `outputSchema`, and `tools/list` is answered
    /// before any result is seen, so in this mode `outputSchema` is removed
    /// from `tools/list` for every tool the filter lets through.
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

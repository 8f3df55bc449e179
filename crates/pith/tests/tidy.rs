//! Tidy checks: rules of the source tree that the docs state, held by a
//! test (in the spirit of rust-analyzer's tidy tests), so that they stay
//! true as the code changes.
//!
//! * **What each crate's code may touch** ([`RULES`]). The library
//!   (`crates/pith/src`, `crates/pith-core/src`, `crates/pith-tokens/src`,
//!   `crates/pith-wire/src`) never uses `std::fs`, `std::process`, `std::net` or
//!   `std::env`, never prints (`print!`, `println!`, `eprint!`,
//!   `eprintln!`, `dbg!`) and never calls `stdout()`, `stderr()` or
//!   `stdin()`: its only I/O is the `io::Write` or `io::Read` a caller hands
//!   it. The proxy (`crates/pith-mcp/src`) never prints to stdout, which is
//!   the client's JSON-RPC stream (diagnostics go to stderr); only
//!   `proxy.rs` takes stdin and stdout (the pumps) and spawns the server
//!   (`Command`); only `install.rs` (the clients' configuration files) and
//!   `ledger.rs` (the savings ledger) touch files; nothing calls
//!   `process::exit`. The CLI (`crates/pith-cli/src`) writes stdout only in
//!   `io.rs` and stderr only in `fail.rs`, never with the print macros, and
//!   never calls `process::exit` (statuses go back through `main`'s
//!   `ExitCode`, so output is flushed). Comments, strings and code under
//!   `#[cfg(test)]` are not code the rules are about.
//! * **Every module says what it is**: each `.rs` file under `crates/*/src`
//!   starts with a `//!` line.
//! * **No file over [`MAX_LINES`]**: every `.rs` file of the workspace's
//!   crates (`src`, `tests`, `benches`). [`KNOWN_LONG`] lists the files over
//!   the limit today, waiting for a split along their seams, with their
//!   line counts as a ratchet that only goes down: a listed file that grows
//!   fails, one that shrinks asks for its lower count to be written here,
//!   and one back under the limit leaves the list.
//! * **ARCHITECTURE.md's code map is the tree**: it has an entry for every
//!   crate (each Cargo package under `crates/`, `fuzz/` and `bindings/`),
//!   names every top-level module of `pith`, `pith-core`, `pith-tokens`, `pith-wire`,
//!   `pith-mcp` and `pith-cli` in that crate's entry, and every path it names exists.

#[path = "support/datasets.rs"]
mod datasets;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const MAX_LINES: usize = 1500;

/// Files over [`MAX_LINES`] today, with their line counts.
const KNOWN_LONG: &[(&str, usize)] = &[("crates/pith-wire/tests/wire.rs", 1655)];

/// What a piece of code does that a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pattern {
    /// `name!(…)`
    Macro(&'static str),
    /// `name(…)`, as a function or a method.
    Call(&'static str),
    /// `std::name`, in a path or a `use std::{…}` group.
    Std(&'static str),
    /// `first::second`, anywhere in a path.
    Path(&'static str, &'static str),
    /// The name itself.
    Name(&'static str),
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pattern::Macro(m) => write!(f, "{m}!"),
            Pattern::Call(c) => write!(f, "{c}()"),
            Pattern::Std(s) => write!(f, "std::{s}"),
            Pattern::Path(a, b) => write!(f, "{a}::{b}"),
            Pattern::Name(n) => write!(f, "{n}"),
        }
    }
}

/// Code that one crate's source may have only in some files (or none).
struct Rule {
    patterns: &'static [Pattern],
    /// Files (relative to the crate's `src/`) where the patterns are allowed.
    only_in: &'static [&'static str],
    why: &'static str,
}

/// The rules of one crate.
struct CrateRules {
    /// The crate's folder, relative to the workspace root.
    dir: &'static str,
    rules: &'static [Rule],
}

const PRINTS: &[Pattern] = &[
    Pattern::Macro("print"),
    Pattern::Macro("println"),
    Pattern::Macro("eprint"),
    Pattern::Macro("eprintln"),
    Pattern::Macro("dbg"),
];

/// What the library's crates (`pith`, `pith-core`, `pith-tokens`, `pith-wire`) may touch.
const LIBRARY_RULES: &[Rule] = &[
    Rule {
        patterns: PRINTS,
        only_in: &[],
        why: "the library never prints",
    },
    Rule {
        patterns: &[
            Pattern::Call("stdout"),
            Pattern::Call("stderr"),
            Pattern::Call("stdin"),
        ],
        only_in: &[],
        why: "the library's only I/O is the io::Write or io::Read it is handed",
    },
    Rule {
        patterns: &[
            Pattern::Std("fs"),
            Pattern::Std("process"),
            Pattern::Std("net"),
            Pattern::Std("env"),
        ],
        only_in: &[],
        why: "the library touches no files, processes, sockets or environment",
    },
];

const LIBRARY: CrateRules = CrateRules {
    dir: "crates/pith-core",
    rules: LIBRARY_RULES,
};

const FACADE: CrateRules = CrateRules {
    dir: "crates/pith",
    rules: LIBRARY_RULES,
};

const TOKENS: CrateRules = CrateRules {
    dir: "crates/pith-tokens",
    rules: LIBRARY_RULES,
};

const WIRE: CrateRules = CrateRules {
    dir: "crates/pith-wire",
    rules: LIBRARY_RULES,
};

const PROXY: CrateRules = CrateRules {
    dir: "crates/pith-mcp",
    rules: &[
        Rule {
            patterns: &[
                Pattern::Macro("print"),
                Pattern::Macro("println"),
                Pattern::Macro("dbg"),
            ],
            only_in: &[],
            why: "stdout is the client's JSON-RPC stream; diagnostics go to stderr",
        },
        Rule {
            patterns: &[Pattern::Call("stdout"), Pattern::Call("stdin")],
            only_in: &["proxy.rs"],
            why: "only the proxy's pumps read the client and write to it",
        },
        Rule {
            patterns: &[Pattern::Name("Command")],
            only_in: &["proxy.rs"],
            why: "only the proxy spawns the server",
        },
        Rule {
            patterns: &[Pattern::Std("fs"), Pattern::Path("tokio", "fs")],
            only_in: &["install.rs", "ledger.rs"],
            why: "files are the clients' configurations (install) and the ledger",
        },
        Rule {
            patterns: &[Pattern::Path("process", "exit")],
            only_in: &[],
            why: "the exit status goes back to the CLI, after the child is reaped",
        },
    ],
};

const CLI: CrateRules = CrateRules {
    dir: "crates/pith-cli",
    rules: &[
        Rule {
            patterns: PRINTS,
            only_in: &[],
            why: "output goes through io.rs and messages through fail.rs",
        },
        Rule {
            patterns: &[Pattern::Call("stdout")],
            only_in: &["io.rs"],
            why: "io.rs owns stdout",
        },
        Rule {
            patterns: &[Pattern::Call("stderr")],
            only_in: &["fail.rs"],
            why: "fail.rs writes every message",
        },
        Rule {
            patterns: &[Pattern::Path("process", "exit")],
            only_in: &[],
            why: "main returns the ExitCode, so that output is flushed",
        },
    ],
};

const RULES: &[CrateRules] = &[LIBRARY, FACADE, TOKENS, WIRE, PROXY, CLI];

// ---- The checks.

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.rs` files below `dir` (none if it does not exist), sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_dir() {
        datasets::files_ending(dir, "rs")
    } else {
        Vec::new()
    }
}

/// `path` relative to `base`, with `/` separators.
fn relative(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// `src` with comments and the contents of string and character literals
/// blanked (newlines kept, so offsets and line numbers stay).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if (i == 0
                || !ident(b[i - 1])
                || (i == 1 || !ident(b[i - 2])) && matches!(b[i - 1], b'b' | b'c'))
                && {
                    let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                    b.get(i + 1 + hashes) == Some(&b'"')
                } =>
            {
                // A raw string: r"…", r#"…"#, br"…".
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let body = i + 2 + hashes;
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                let end = b[body..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |n| body + n + close.len());
                blank(&mut out, body, end.saturating_sub(close.len()).max(body));
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j.min(b.len()));
                i = j + 1;
            }
            b'\'' => {
                // A character literal ('x', '\n', '"') or a lifetime ('a).
                let rest = &src[i + 1..];
                let mut chars = rest.char_indices();
                match chars.next() {
                    Some((_, '\\')) => {
                        // The escaped character is never the closing quote.
                        let end = rest
                            .get(2..)
                            .and_then(|r| r.find('\''))
                            .map_or(b.len(), |n| i + 4 + n);
                        blank(&mut out, i + 1, end - 1);
                        i = end;
                    }
                    Some((_, c)) if rest[c.len_utf8()..].starts_with('\'') => {
                        blank(&mut out, i + 1, i + 1 + c.len_utf8());
                        i += c.len_utf8() + 2;
                    }
                    _ => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8")
}

/// `code` (already [`code_only`]) with every item under `#[cfg(test)]` (or
/// `#[cfg(all(test, …))]`) blanked, and the names of the `mod name;` files
/// such an attribute declares.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mut test_mods = Vec::new();
    let mut from = 0;
    while let Some(n) = code[from..].find("#[cfg(") {
        let start = from + n;
        let Some(close) = matching(b, start + 1) else {
            break;
        };
        let predicate: String = code[start + 2..close].split_whitespace().collect();
        from = close + 1;
        if predicate != "cfg(test)" && !predicate.starts_with("cfg(all(test,") {
            continue;
        }
        // The item runs to its first `;` or through its first `{…}`.
        let Some(k) = code[from..].find([';', '{']).map(|k| from + k) else {
            break;
        };
        let end = if b[k] == b';' {
            let item: Vec<&str> = code[from..k].split_whitespace().collect();
            if let [.., "mod", name] = item.as_slice() {
                test_mods.push((*name).to_owned());
            }
            k + 1
        } else {
            matching(b, k).map_or(b.len(), |c| c + 1)
        };
        for c in &mut out[start..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    (String::from_utf8(out).expect("ASCII blanks"), test_mods)
}

/// The position of the bracket that closes the one at `open`.
fn matching(b: &[u8], open: usize) -> Option<usize> {
    let (o, c) = match b[open] {
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, &x) in b.iter().enumerate().skip(open) {
        if x == o {
            depth += 1;
        } else if x == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// A token of code: a name or one punctuation character, with its offset.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'a> {
    Name(&'a str),
    Punct(u8),
}

fn tokens(code: &str) -> Vec<(usize, Tok<'_>)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((s, Tok::Name(&code[s..i])));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            if !c.is_ascii_whitespace() {
                out.push((i, Tok::Punct(c)));
            }
            i += 1;
        }
    }
    out
}

/// The offsets at which `code` does what `pattern` describes.
fn find(code: &str, pattern: Pattern) -> Vec<usize> {
    let toks = tokens(code);
    let name = |i: usize| match toks.get(i) {
        Some((_, Tok::Name(n))) => Some(*n),
        _ => None,
    };
    let punct = |i: usize, c: u8| matches!(toks.get(i), Some((_, Tok::Punct(p))) if *p == c);
    let path_sep = |i: usize| punct(i, b':') && punct(i + 1, b':');
    let mut hits = Vec::new();
    for (i, &(at, _)) in toks.iter().enumerate() {
        let hit = match pattern {
            Pattern::Macro(m) => name(i) == Some(m) && punct(i + 1, b'!') && !punct(i + 2, b'='),
            Pattern::Call(c) => name(i) == Some(c) && punct(i + 1, b'('),
            Pattern::Name(n) => name(i) == Some(n),
            Pattern::Path(a, z) => name(i) == Some(a) && path_sep(i + 1) && name(i + 3) == Some(z),
            Pattern::Std(s) => {
                name(i) == Some("std")
                    && path_sep(i + 1)
                    && (name(i + 3) == Some(s) || punct(i + 3, b'{') && in_group(&toks, i + 3, s))
            }
        };
        if hit {
            hits.push(at);
        }
    }
    hits
}

/// Whether the `use` group opening at token `open` names `s` at its top level.
fn in_group(toks: &[(usize, Tok<'_>)], open: usize, s: &str) -> bool {
    let mut depth = 0;
    let mut item_start = true;
    for (_, t) in &toks[open..] {
        match t {
            Tok::Punct(b'{') => {
                depth += 1;
                item_start = depth == 1;
            }
            Tok::Punct(b'}') => {
                depth -= 1;
                if depth == 0 {
                    return false;
                }
            }
            Tok::Punct(b',') if depth == 1 => item_start = true,
            Tok::Name(n) if item_start && depth == 1 => {
                if *n == s {
                    return true;
                }
                item_start = false;
            }
            _ => item_start = false,
        }
    }
    false
}

/// The rule violations in the file at `rel` (relative to the crate's `src/`).
fn violations(rules: &CrateRules, rel: &str, src: &str) -> Vec<String> {
    let (code, _) = without_tests(&code_only(src));
    let mut out = Vec::new();
    for rule in rules.rules {
        if rule.only_in.contains(&rel) {
            continue;
        }
        for &pattern in rule.patterns {
            for at in find(&code, pattern) {
                let line = code[..at].matches('\n').count() + 1;
                out.push(format!(
                    "{}/src/{rel}:{line}: {pattern} ({})",
                    rules.dir, rule.why
                ));
            }
        }
    }
    out
}

/// The source files of a crate that are not test modules, relative to its
/// `src/`, with their text.
fn crate_sources(dir: &str) -> Vec<(String, String)> {
    let src = root().join(dir).join("src");
    let files = rust_files(&src);
    let mut test_files = BTreeSet::new();
    let mut out = Vec::new();
    for path in &files {
        let text = read(path);
        let (_, test_mods) = without_tests(&code_only(&text));
        let stem = path.file_stem().unwrap().to_string_lossy();
        let parent = path.parent().unwrap();
        let base = if matches!(&*stem, "mod" | "lib" | "main") {
            parent.to_path_buf()
        } else {
            parent.join(&*stem)
        };
        for m in test_mods {
            test_files.insert(base.join(format!("{m}.rs")));
            test_files.insert(base.join(&m).join("mod.rs"));
        }
        out.push((path.clone(), text));
    }
    out.into_iter()
        .filter(|(p, _)| !test_files.contains(p))
        .map(|(p, t)| (relative(&p, &src), t))
        .collect()
}

#[test]
fn each_crate_touches_only_what_it_may() {
    let mut found = Vec::new();
    for rules in RULES {
        let sources = crate_sources(rules.dir);
        assert!(!sources.is_empty(), "{}: no sources found", rules.dir);
        for rule in rules.rules {
            for allowed in rule.only_in {
                assert!(
                    sources.iter().any(|(rel, _)| rel == allowed),
                    "{}: the rule names {allowed}, which is gone",
                    rules.dir
                );
            }
        }
        for (rel, text) in &sources {
            found.extend(violations(rules, rel, text));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_module_starts_with_its_doc_line() {
    let mut missing = Vec::new();
    let crates = root().join("crates");
    for dir in fs::read_dir(&crates).unwrap() {
        for path in rust_files(&dir.unwrap().path().join("src")) {
            if !starts_with_module_doc(&read(&path)) {
                missing.push(relative(&path, &root()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "these files do not start with a `//!` line saying what the module is:\n{}",
        missing.join("\n")
    );
}

fn starts_with_module_doc(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.starts_with("//!"))
}

/// The files over [`MAX_LINES`], with their counts.
fn long_files() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let crates = root().join("crates");
    for dir in fs::read_dir(&crates).unwrap() {
        let dir = dir.unwrap().path();
        for part in ["src", "tests", "benches"] {
            for path in rust_files(&dir.join(part)) {
                let lines = read(&path).lines().count();
                if lines > MAX_LINES {
                    out.push((relative(&path, &root()), lines));
                }
            }
        }
    }
    out.sort();
    out
}

/// What is wrong with the tree's long files against [`KNOWN_LONG`].
fn size_problems(long: &[(String, usize)], known: &[(&str, usize)]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, lines) in long {
        match known.iter().find(|(k, _)| k == path) {
            None => out.push(format!(
                "{path}: {lines} lines, over the limit of {MAX_LINES}: split it along its seams"
            )),
            Some((_, was)) if lines > was => out.push(format!(
                "{path}: {lines} lines, grown from {was}: a known long file may only shrink"
            )),
            Some((_, was)) if lines < was => out.push(format!(
                "{path}: {lines} lines, down from {was}: write {lines} in KNOWN_LONG"
            )),
            Some(_) => {}
        }
    }
    for (path, was) in known {
        if !long.iter().any(|(p, _)| p == path) {
            out.push(format!(
                "{path}: no longer over {MAX_LINES} lines (was {was}): take it out of KNOWN_LONG"
            ));
        }
    }
    out
}

#[test]
fn no_file_is_over_the_limit_but_the_known_ones_which_only_shrink() {
    let problems = size_problems(&long_files(), KNOWN_LONG);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---- ARCHITECTURE.md.

/// One entry of the code map: a line at column 0, with the lines indented
/// under it.
#[derive(Debug)]
struct Entry {
    /// The path the entry starts with (`crates/pith/`, `.ci/run`).
    path: String,
    /// The paths of its sub-entries (lines indented by two spaces).
    subs: Vec<String>,
    /// All of its text.
    text: String,
}

/// The entries of the code blocks in ARCHITECTURE.md's `## Code map`.
fn code_map(architecture: &str) -> Vec<Entry> {
    let section = architecture
        .split("\n## ")
        .find(|s| s.starts_with("Code map"))
        .expect("ARCHITECTURE.md has a `## Code map` section");
    let mut entries: Vec<Entry> = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block || line.trim().is_empty() {
            continue;
        }
        let first = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        if !line.starts_with(' ') {
            entries.push(Entry {
                path: first,
                subs: Vec::new(),
                text: line.to_owned(),
            });
        } else if let Some(e) = entries.last_mut() {
            if line.starts_with("  ") && !line.starts_with("   ") {
                e.subs.push(first);
            }
            e.text.push('\n');
            e.text.push_str(line);
        }
    }
    entries
}

/// Whether `path` (which may hold one `*`) names something under `base`.
fn exists(base: &Path, path: &str) -> bool {
    let Some((head, tail)) = path.split_once('*') else {
        return base.join(path).exists();
    };
    let (dir, prefix) = match head.rsplit_once('/') {
        Some((d, p)) => (base.join(d), p),
        None => (base.to_path_buf(), head),
    };
    fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(prefix) && name.ends_with(tail)
        })
    })
}

/// The folders (relative to the root) of every Cargo package of the repository.
fn packages() -> Vec<String> {
    let mut out = Vec::new();
    for parent in ["crates", "bindings"] {
        for dir in fs::read_dir(root().join(parent)).unwrap() {
            let dir = dir.unwrap().path();
            let manifest = dir.join("Cargo.toml");
            if manifest.exists() && read(&manifest).contains("[package]") {
                out.push(format!("{}/", relative(&dir, &root())));
            }
        }
    }
    if read(&root().join("fuzz/Cargo.toml")).contains("[package]") {
        out.push("fuzz/".to_owned());
    }
    out.sort();
    out
}

/// The top-level modules a crate root declares (`mod x;`, `pub mod x;`),
/// test modules aside.
fn top_level_modules(crate_root: &str) -> Vec<String> {
    let (code, _) = without_tests(&code_only(crate_root));
    let toks = tokens(&code);
    let mut out = Vec::new();
    for (i, (_, t)) in toks.iter().enumerate() {
        if let (Tok::Name("mod"), Some((_, Tok::Name(name))), Some((_, Tok::Punct(b';')))) =
            (t, toks.get(i + 1), toks.get(i + 2))
        {
            out.push((*name).to_owned());
        }
    }
    out
}

/// What is wrong with `architecture`'s code map against the tree.
fn architecture_problems(architecture: &str) -> Vec<String> {
    let map = code_map(architecture);
    let mut out = Vec::new();
    for package in packages() {
        if !map.iter().any(|e| e.path == package) {
            out.push(format!("no code-map entry for the crate in {package}"));
        }
    }
    for entry in &map {
        if !exists(&root(), &entry.path) {
            out.push(format!(
                "the code map names {}, which does not exist",
                entry.path
            ));
        }
        for sub in &entry.subs {
            if !exists(&root().join(&entry.path), sub) {
                out.push(format!(
                    "the code map names {}{sub}, which does not exist",
                    entry.path
                ));
            }
        }
    }
    for (dir, root_file) in [
        ("crates/pith/", "lib.rs"),
        ("crates/pith-core/", "lib.rs"),
        ("crates/pith-tokens/", "lib.rs"),
        ("crates/pith-wire/", "lib.rs"),
        ("crates/pith-mcp/", "lib.rs"),
        ("crates/pith-cli/", "main.rs"),
    ] {
        let Some(entry) = map.iter().find(|e| e.path == dir) else {
            continue;
        };
        let src = read(&root().join(dir).join("src").join(root_file));
        for m in top_level_modules(&src) {
            let as_file = format!("src/{m}.rs");
            let as_dir = format!("src/{m}/");
            let bare = format!("{m}.rs");
            let named = entry
                .subs
                .iter()
                .any(|s| *s == as_file || s.starts_with(&as_dir))
                || entry
                    .text
                    .split(|c: char| c.is_whitespace() || "(),;".contains(c))
                    .any(|w| w == bare)
                || map.iter().any(|e| e.path == format!("{dir}{as_file}"));
            if !named {
                out.push(format!(
                    "the code map's entry {dir} does not name the module {m}"
                ));
            }
        }
    }
    out
}

#[test]
fn architecture_names_every_crate_and_module_and_nothing_that_is_gone() {
    let problems = architecture_problems(&read(&root().join("ARCHITECTURE.md")));
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md:\n{}",
        problems.join("\n")
    );
}

// ---- The checks' own tests: each must catch what it is there to catch.

#[test]
fn a_println_added_to_the_library_is_caught_with_its_line() {
    let lib = read(&root().join("crates/pith-core/src/lib.rs"));
    assert_eq!(violations(&LIBRARY, "lib.rs", &lib), Vec::<String>::new());
    let lines = lib.lines().count();
    let dirty = format!("{lib}\npub fn shout() {{\n    println!(\"hello\");\n}}\n");
    assert_eq!(
        violations(&LIBRARY, "lib.rs", &dirty),
        [format!(
            "crates/pith-core/src/lib.rs:{}: println! (the library never prints)",
            lines + 3
        )]
    );
}

#[test]
fn every_kind_of_forbidden_use_is_caught() {
    let src = "//! x\n\
        use std::{fs, io::Write};\n\
        fn a() { std::process::Command::new(\"x\"); }\n\
        fn b() { let _ = std::io::stdout(); eprint!(\"x\"); dbg!(1); }\n\
        fn c(dbg: &str) -> bool { use std::env::var; dbg != \"\" }\n";
    let found = violations(&LIBRARY, "json/read.rs", src);
    let lines: Vec<&str> = found
        .iter()
        .map(|v| v.split(": ").nth(1).unwrap().split(" (").next().unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            "eprint!",
            "dbg!",
            "stdout()",
            "std::fs",
            "std::process",
            "std::env"
        ],
        "{found:?}"
    );
    assert!(found[0].starts_with("crates/pith-core/src/json/read.rs:4: "));
}

#[test]
fn comments_strings_and_test_code_are_not_code() {
    let src = r####"//! Never println!("x") here: std::fs is not used.
/* println!("a") /* nested */ std::fs */
const A: &str = "println!(\"x\") std::process";
const B: &str = r#"stdout() "quoted" std::fs"#;
const C: char = '"';
fn d<'a>(x: &'a str) -> &'a str { x }
#[cfg(test)]
mod tests {
    fn t() { println!("fine in tests"); let _ = std::fs::read("x"); }
}
#[cfg(all(test, feature = "o200k"))]
fn helper() { eprintln!("also fine"); }
fn after() -> char { 'x' }
"####;
    assert_eq!(violations(&LIBRARY, "lib.rs", src), Vec::<String>::new());
    // What follows each of them is still read.
    let tail = "fn z() { println!(\"caught\"); }\n";
    let found = violations(&LIBRARY, "lib.rs", &format!("{src}{tail}"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(":14: println!"), "{found:?}");
}

#[test]
fn a_file_a_rule_allows_is_not_flagged_but_others_are() {
    let src = "//! x\nfn f() { let _ = tokio::io::stdout(); }\n";
    assert!(violations(&PROXY, "proxy.rs", src).is_empty());
    assert_eq!(violations(&PROXY, "rewrite.rs", src).len(), 1);
    assert_eq!(violations(&PROXY, "call/proxy.rs", src).len(), 1);
    let exit = "//! x\nfn f() { std::process::exit(1) }\n";
    assert_eq!(violations(&CLI, "main.rs", exit).len(), 1);
}

#[test]
fn test_modules_in_files_of_their_own_are_found() {
    let (_, mods) = without_tests(&code_only(
        "//! x\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\npub(crate) mod more;\nmod kept;\n",
    ));
    assert_eq!(mods, ["tests", "more"]);
    assert_eq!(
        top_level_modules("//! x\npub mod a;\nmod b;\n#[cfg(test)]\nmod c;\nmod d {}\n"),
        ["a", "b"]
    );
}

#[test]
fn the_module_doc_check_wants_the_first_line() {
    assert!(starts_with_module_doc("\n//! What this is.\nuse x;\n"));
    assert!(!starts_with_module_doc("use super::*;\n//! Too late.\n"));
    assert!(!starts_with_module_doc("/// An item's doc.\nfn f() {}\n"));
}

#[test]
fn the_size_ratchet_only_goes_down() {
    let long = vec![
        ("a.rs".to_owned(), 1600),
        ("b.rs".to_owned(), 1700),
        ("c.rs".to_owned(), 1501),
    ];
    let known = [
        ("a.rs", 1600),
        ("b.rs", 1650),
        ("d.rs", 1800),
        ("e.rs", 1550),
    ];
    let problems = size_problems(&long, &known);
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(problems[0].starts_with("b.rs: 1700 lines, grown from 1650"));
    assert!(problems[1].starts_with("c.rs: 1501 lines, over the limit"));
    assert!(problems[2].starts_with("d.rs: no longer over"));
    assert!(problems[3].starts_with("e.rs: no longer over"));
    let shrunk = size_problems(&[("a.rs".to_owned(), 1590)], &[("a.rs", 1600)]);
    assert_eq!(
        shrunk,
        ["a.rs: 1590 lines, down from 1600: write 1590 in KNOWN_LONG"]
    );
}

#[test]
fn the_architecture_check_sees_a_missing_module_and_a_stale_path() {
    let real = read(&root().join("ARCHITECTURE.md"));
    // The entry of the JSON module gone, and a file that does not exist.
    let edited = real
        .replace("  src/json/ ", "  src/jason/ ")
        .replace("  src/path.rs ", "  src/paths.rs ");
    assert_ne!(edited, real, "the test's edits apply");
    let problems = architecture_problems(&edited);
    assert!(
        problems
            .iter()
            .any(|p| p == "the code map names crates/pith-core/src/jason/, which does not exist"),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p == "the code map's entry crates/pith-core/ does not name the module json"),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p == "the code map's entry crates/pith-core/ does not name the module path"),
        "{problems:#?}"
    );
    let no_fuzz = real.replace("\nfuzz/ ", "\nfuzzing/ ");
    let problems = architecture_problems(&no_fuzz);
    assert!(
        problems
            .iter()
            .any(|p| p == "no code-map entry for the crate in fuzz/"),
        "{problems:#?}"
    );
}

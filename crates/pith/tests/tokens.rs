//! Token ids and counts against tiktoken itself.
//!
//! The reference is the npm package `tiktoken` (the WebAssembly build of
//! tiktoken's Rust core, so its regex engine and merge loop are tiktoken's),
//! installed with `npm install --prefix` under `target/tmp/tokens-ref` and
//! driven by `tests/support/ref-tokens.mjs`. It encodes every file of the
//! shared datasets (`$PITH_DATASETS`, or `shared/datasets` beside the
//! checkout), as it is and as compact JSON, and a generated stress set;
//! pith must give the same ids, and `count` must equal their number. A
//! missing `npm`/`node` or dataset folder fails the run: nothing is skipped.

use pith::tokens::{Tokenizer, TokenizerKind};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

#[path = "support/datasets.rs"]
mod datasets;
use datasets::{datasets, json_files};

/// The reference package, pinned.
const REFERENCE_PACKAGE: &str = "tiktoken@1.0.22";

/// At least this many dataset files must be found.
const MIN_DATASET_FILES: usize = 20;

#[test]
fn o200k_matches_tiktoken_on_datasets() {
    compare(TokenizerKind::O200k, Group::Dataset);
}

#[test]
fn cl100k_matches_tiktoken_on_datasets() {
    compare(TokenizerKind::Cl100k, Group::Dataset);
}

#[test]
fn o200k_matches_tiktoken_on_stress_set() {
    compare(TokenizerKind::O200k, Group::Stress);
}

#[test]
fn cl100k_matches_tiktoken_on_stress_set() {
    compare(TokenizerKind::Cl100k, Group::Stress);
}

/// The o200k counts `shared/datasets/README.md` lists: compact JSON for
/// the generated and TOON-benchmark files, 2-space indented JSON (its "JSON"
/// column) for the pm-cli fixtures.
#[test]
fn dataset_readme_counts() {
    let o200k = Tokenizer::get(TokenizerKind::O200k);
    let compact = [
        ("generated/gen-flat-50k.json", 2_086_808),
        ("generated/gen-nested-10k.json", 413_794),
        ("toon-benchmark/bench-token-tabular.json", 79_057),
        ("toon-benchmark/bench-token-analytics.json", 14_211),
        ("toon-benchmark/bench-token-github.json", 11_640),
        ("toon-benchmark/bench-token-nested.json", 68_944),
        ("toon-benchmark/bench-token-event-logs.json", 128_529),
        ("toon-benchmark/bench-token-nested-config.json", 552),
        ("toon-benchmark/bench-token-keyed.json", 15_635),
        ("toon-benchmark/bench-token-nested-group.json", 46_791),
    ];
    let indented = [
        ("pm-cli/search-1.json", 110),
        ("pm-cli/search-32.json", 2311),
        ("pm-cli/next-8.json", 703),
        ("pm-cli/get-1.json", 124),
        ("pm-cli/context-32.json", 2536),
    ];
    let value = |file: &str| -> serde_json::Value {
        serde_json::from_str(&read(&datasets().join(file))).expect(file)
    };
    for (file, count) in compact {
        let text = serde_json::to_string(&value(file)).expect(file);
        assert_eq!(o200k.count(&text), count, "{file}");
    }
    for (file, count) in indented {
        let text = serde_json::to_string_pretty(&value(file)).expect(file);
        assert_eq!(o200k.count(&text), count, "{file}");
    }
}

/// A [`pith::tokens::Counter`] fed any chunking of a text counts the text.
#[test]
fn counter_matches_count_for_any_chunking() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut texts: Vec<String> = stress_cases().into_iter().map(|(_, t)| t).collect();
    texts.retain(|t| t.len() < 60_000);
    texts.push(read(&datasets().join("pm-cli/next-32.json")));
    texts.push(
        "a\u{30}\u{300} \n\n x'S 'll 日A 日Ab \r\n\t  ?! 123456 end  "
            .repeat(20)
            .to_string(),
    );
    for &kind in TokenizerKind::ALL {
        let tok = Tokenizer::get(kind);
        for text in &texts {
            let mut counter = tok.counter();
            let mut at = 0;
            let mut checks = 0;
            while at < text.len() {
                let mut end = (at + 1 + rng.below(40)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                let chunk = &text[at..end];
                if checks < 50 && rng.below(8) == 0 {
                    assert_eq!(
                        counter.total_with(chunk),
                        tok.count(&text[..end]),
                        "{kind} total_with at {end}"
                    );
                    checks += 1;
                }
                counter.push(chunk);
                at = end;
                if checks < 50 && rng.below(8) == 0 {
                    assert_eq!(counter.total(), tok.count(&text[..at]), "{kind} at {at}");
                    checks += 1;
                }
            }
            assert_eq!(counter.total(), tok.count(text), "{kind}");
            assert_eq!(counter.bytes(), text.len());
        }
    }
}

/// Whether `b` may follow a text ending in `\n` with counts adding up,
/// by the rule of the module documentation.
fn may_follow_a_line(b: &str) -> bool {
    let first_break = b.find(['\r', '\n']).unwrap_or(b.len());
    !b.starts_with('/') && b[..first_break].chars().any(|c| !c.is_whitespace())
}

/// The additivity rule of the module documentation, on line pairs of the
/// stress texts.
#[test]
fn counts_add_up_over_lines() {
    let mut rng = Rng(42);
    let stress = stress_cases();
    for &kind in TokenizerKind::ALL.iter().filter(|k| k.is_exact()) {
        let tok = Tokenizer::get(kind);
        let mut checked = 0;
        for (name, text) in &stress {
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            lines.truncate(2000);
            for pair in lines.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                if !a.ends_with('\n') || !may_follow_a_line(b) || rng.below(4) != 0 {
                    continue;
                }
                let joined = format!("{a}{b}");
                assert_eq!(
                    tok.count(&joined),
                    tok.count(a) + tok.count(b),
                    "{kind} {name}: {joined:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "{kind}: only {checked} line pairs");
    }
}

/// Indented documents: the sum of the counts of their lines is their count.
#[test]
fn indented_documents_count_line_by_line() {
    let docs = [
        "pm-cli/next-32.json",
        "toon-benchmark/bench-token-nested-config.json",
    ];
    for &kind in TokenizerKind::ALL.iter().filter(|k| k.is_exact()) {
        let tok = Tokenizer::get(kind);
        for file in docs {
            let value: serde_json::Value =
                serde_json::from_str(&read(&datasets().join(file))).expect(file);
            let pretty = serde_json::to_string_pretty(&value).expect(file);
            let lines: Vec<&str> = pretty.split_inclusive('\n').collect();
            assert!(lines.iter().skip(1).all(|l| may_follow_a_line(l)));
            let sum: usize = lines.iter().map(|l| tok.count(l)).sum();
            assert_eq!(sum, tok.count(&pretty), "{kind} {file}");
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Group {
    Dataset,
    Stress,
}

/// A text and the reference's ids of it, o200k's then cl100k's.
struct Case {
    name: String,
    group: Group,
    text: String,
    ids: [Vec<u32>; 2],
}

impl Case {
    fn ids(&self, kind: TokenizerKind) -> &[u32] {
        match kind {
            TokenizerKind::Cl100k => &self.ids[1],
            _ => &self.ids[0],
        }
    }
}

fn compare(kind: TokenizerKind, group: Group) {
    let cases = reference();
    let tok = Tokenizer::get(kind);
    let mut compared = 0;
    let mut failures = String::new();
    for case in cases.iter().filter(|c| c.group == group) {
        let (text, expected) = (&case.text, case.ids(kind));
        let ours = tok.encode(text).expect("exact tokenizer");
        if ours != expected {
            describe_mismatch(&mut failures, tok, &case.name, text, &ours, expected);
        }
        let count = tok.count(text);
        if count != expected.len() {
            let _ = writeln!(
                failures,
                "{}: count {count}, reference {}",
                case.name,
                expected.len()
            );
        }
        if tok.decode(&ours).as_deref() != Some(text.as_bytes()) {
            let _ = writeln!(failures, "{}: decode(encode(text)) != text", case.name);
        }
        compared += 1;
    }
    let floor = match group {
        Group::Dataset => 2 * MIN_DATASET_FILES,
        Group::Stress => 20,
    };
    assert!(compared >= floor, "only {compared} texts to compare");
    assert!(
        failures.is_empty(),
        "{kind} differs from tiktoken:\n{failures}"
    );
    eprintln!("{kind}: {compared} texts identical to tiktoken");
}

fn describe_mismatch(
    out: &mut String,
    tok: &Tokenizer,
    name: &str,
    text: &str,
    ours: &[u32],
    expected: &[u32],
) {
    let same = ours
        .iter()
        .zip(expected)
        .take_while(|(a, b)| a == b)
        .count();
    let offset = tok.decode(&ours[..same]).map_or(0, |b| b.len());
    let mut start = offset.saturating_sub(20);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (offset + 40).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let window = |ids: &[u32]| ids.iter().skip(same).take(8).copied().collect::<Vec<_>>();
    let _ = writeln!(
        out,
        "{name}: first difference at token {same} (byte {offset}) in {:?}\n  pith      {:?}\n  tiktoken  {:?}",
        &text[start..end],
        window(ours),
        window(expected)
    );
}

/// Writes every case, installs the reference and runs it, once per test
/// process.
fn reference() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tokens-ref");
        std::fs::create_dir_all(&root).expect("create the reference folder");
        // Test runners that start one process per test (nextest) run these
        // tests side by side: the npm install is shared under a file lock,
        // and each process writes its cases in its own folder.
        let lock = std::fs::File::create(root.join("install.lock")).expect("create the lock file");
        lock.lock().expect("lock the reference folder");
        let modules = install_reference(&root.join("npm"));
        drop(lock);
        let dir = root.join(format!("cases-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("clear the cases folder");
        }
        std::fs::create_dir_all(&dir).expect("create the cases folder");
        let mut cases = Vec::new();
        for file in dataset_files() {
            let stem = file
                .strip_prefix(datasets())
                .expect("under the datasets folder")
                .with_extension("")
                .to_string_lossy()
                .replace(['/', '\\'], "-");
            let raw = dir.join(format!("ds-{stem}.raw.txt"));
            std::fs::copy(&file, &raw).expect("copy a dataset");
            for (suffix, path) in [
                ("raw", raw.clone()),
                ("compact", dir.join(format!("ds-{stem}.compact.txt"))),
            ] {
                cases.push((format!("{stem} ({suffix})"), Group::Dataset, path));
            }
        }
        for (name, text) in stress_cases() {
            let path = dir.join(format!("stress-{name}.txt"));
            std::fs::write(&path, text).expect("write a stress case");
            cases.push((name, Group::Stress, path));
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/ref-tokens.mjs");
        run(Command::new("node").arg(&script).arg("compact").arg(&dir));
        // One process per encoding, in parallel.
        let children: Vec<_> = ["o200k", "cl100k"]
            .into_iter()
            .map(|encoding| {
                Command::new("node")
                    .arg(&script)
                    .arg("ids")
                    .arg(&modules)
                    .arg(&dir)
                    .arg(encoding)
                    .spawn()
                    .expect("node must be installed to run the token reference")
            })
            .collect();
        for child in children {
            let status = child
                .wait_with_output()
                .expect("wait for the token reference")
                .status;
            assert!(status.success(), "the token reference failed: {status}");
        }
        // Everything is read in, and the folder (a copy of every dataset,
        // with ids) removed: one is written per test process.
        let cases = cases
            .into_iter()
            .map(|(name, group, path)| {
                let ids =
                    |kind: &str| read_ids(&PathBuf::from(format!("{}.{kind}.ids", path.display())));
                Case {
                    name,
                    group,
                    text: read(&path),
                    ids: [ids("o200k"), ids("cl100k")],
                }
            })
            .collect();
        std::fs::remove_dir_all(&dir).expect("remove the cases folder");
        cases
    })
}

/// `npm install --prefix` the reference once; returns its node_modules.
fn install_reference(prefix: &Path) -> PathBuf {
    let modules = prefix.join("node_modules");
    let manifest = modules.join("tiktoken/package.json");
    let version = REFERENCE_PACKAGE.rsplit('@').next().unwrap_or_default();
    let installed = std::fs::read_to_string(&manifest)
        .is_ok_and(|m| m.contains(&format!("\"version\": \"{version}\"")));
    if !installed {
        std::fs::create_dir_all(prefix).expect("create the npm prefix");
        run(Command::new("npm")
            .arg("install")
            .arg("--prefix")
            .arg(prefix)
            .args(["--no-audit", "--no-fund", "--loglevel=error"])
            .arg(REFERENCE_PACKAGE));
    }
    modules
}

fn run(command: &mut Command) {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shown} (are node and npm installed?): {e}"));
    assert!(
        output.status.success(),
        "{shown} failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

fn dataset_files() -> Vec<PathBuf> {
    let files = json_files(&datasets());
    assert!(
        files.len() >= MIN_DATASET_FILES,
        "only {} dataset files found",
        files.len()
    );
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn read_ids(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A scalar value from the inclusive range, skipping surrogates.
    fn char_in(&mut self, lo: u32, hi: u32) -> char {
        loop {
            let cp = lo + (self.next() % u64::from(hi - lo + 1)) as u32;
            if let Some(c) = char::from_u32(cp) {
                return c;
            }
        }
    }
}

/// Blocks of many scripts and kinds of character: cased and caseless
/// letters, combining marks, digits of other scripts, symbols, emoji,
/// private use and unassigned code points.
const BLOCKS: &[(&str, u32, u32)] = &[
    ("latin", 0x0041, 0x024F),
    ("ipa-modifiers", 0x0250, 0x02FF),
    ("combining", 0x0300, 0x036F),
    ("greek", 0x0370, 0x03FF),
    ("cyrillic", 0x0400, 0x052F),
    ("armenian", 0x0531, 0x058F),
    ("hebrew", 0x0591, 0x05F4),
    ("arabic", 0x0600, 0x06FF),
    ("devanagari", 0x0900, 0x097F),
    ("bengali", 0x0980, 0x09FF),
    ("tamil", 0x0B80, 0x0BFF),
    ("thai", 0x0E00, 0x0E7F),
    ("tibetan", 0x0F00, 0x0FDA),
    ("georgian", 0x10A0, 0x10FF),
    ("hangul-jamo", 0x1100, 0x11FF),
    ("ethiopic", 0x1200, 0x137F),
    ("cherokee", 0x13A0, 0x13FD),
    ("khmer", 0x1780, 0x17F9),
    ("mongolian", 0x1800, 0x18AA),
    ("latin-extended-additional", 0x1E00, 0x1EFF),
    ("greek-extended", 0x1F00, 0x1FFE),
    ("punctuation", 0x2000, 0x206F),
    ("super-subscripts", 0x2070, 0x209F),
    ("letterlike-number-forms", 0x2100, 0x218B),
    ("arrows-math", 0x2190, 0x22FF),
    ("cjk-symbols-kana", 0x3000, 0x30FF),
    ("cjk", 0x4E00, 0x9FFF),
    ("hangul", 0xAC00, 0xD7A3),
    ("private-use", 0xE000, 0xF8FF),
    ("presentation-forms", 0xFB00, 0xFEFF),
    ("fullwidth", 0xFF00, 0xFFEF),
    ("specials", 0xFFF0, 0xFFFF),
    ("linear-b", 0x10000, 0x100FA),
    ("gothic-deseret", 0x10330, 0x1044F),
    ("math-alphanumeric", 0x1D400, 0x1D7FF),
    ("emoji", 0x1F300, 0x1FAFF),
    ("cjk-extension-b", 0x20000, 0x2A6DF),
    ("tags-variation", 0xE0000, 0xE01EF),
    ("plane-15", 0xF0000, 0xF00FF),
    ("unassigned", 0x2FFF0, 0x30010),
];

/// Every `White_Space` character, plus look-alikes that are not.
const SPACES: &[&str] = &[
    " ", "  ", "\t", "\n", "\r\n", "\r", "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{1680}",
    "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}", "\u{2004}", "\u{2005}", "\u{2006}", "\u{2007}",
    "\u{2008}", "\u{2009}", "\u{200a}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}", "\u{3000}",
    "\u{200b}", "\u{feff}", "\u{1c}", "\u{1f}", "\u{180e}", " \n", "\n ", "\t\n", " \r\n  ",
];

const PUNCT: &[&str] = &[
    "!", "?", ".", ",", ";", ":", "'", "\"", "/", "//", "\\", "-", "--", "_", "(", ")", "[", "]",
    "{", "}", "<", ">", "@", "#", "$", "%", "^", "&", "*", "+", "=", "|", "~", "`", "...", "…",
    "—", "–", "«", "»", "¿", "¡", "€", "¥", "©", "°", "’", "‘", "“", "”", "•", "→", "∑",
];

const CONTRACTIONS: &[&str] = &[
    "'s", "'S", "'t", "'T", "'re", "'RE", "'rE", "'Re", "'ve", "'VE", "'vE", "'m", "'M", "'ll",
    "'LL", "'lL", "'Ll", "'d", "'D", "'ſ", "'x", "'", "''s", "’s", "'r", "'l", "'v",
];

const EMOJI: &[&str] = &[
    "😀",
    "👍🏽",
    "👨‍👩‍👧‍👦",
    "👩🏽‍💻",
    "🏳️‍🌈",
    "🏴‍☠️",
    "❤️‍🔥",
    "🇺🇸",
    "🇯🇵🇫🇷",
    "1️⃣",
    "#️⃣",
    "🧑‍🤝‍🧑",
    "👁️‍🗨️",
    "🫱🏼‍🫲🏿",
    "☺︎",
    "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
];

const WORDS: &[&str] = &[
    "hello",
    "World",
    "HTTPServer",
    "camelCaseWord",
    "ALLCAPS",
    "ǅungla",
    "ǈubljana",
    "ΣΊΣΥΦΟΣ",
    "İstanbul",
    "straße",
    "STRASSE",
    "ẞig",
    "naïve",
    "nai\u{308}ve",
    "日本語",
    "中文Text",
    "русскийЯзык",
    "العربية",
    "हिन्दी",
    "ไทย",
    "한국어",
    "ʰello",
    "x²",
    "Ⅻ",
    "½",
    "١٢٣",
    "𝐇𝐞𝐥𝐥𝐨",
    "ｆｕｌｌ",
    "id",
    "null",
    "true",
    "2024-01-15T10:30:00Z",
];

/// The generated stress texts, as (name, text).
fn stress_cases() -> Vec<(String, String)> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut cases: Vec<(String, String)> = Vec::new();

    // Random characters of each block, as words between spaces and
    // punctuation.
    for &(name, lo, hi) in BLOCKS {
        let mut text = String::new();
        while text.len() < 6000 {
            for _ in 0..1 + rng.below(8) {
                text.push(rng.char_in(lo, hi));
            }
            text.push_str(match rng.below(6) {
                0 => rng.pick(PUNCT),
                1 => rng.pick(SPACES),
                2 => rng.pick(WORDS),
                _ => " ",
            });
        }
        cases.push((format!("block-{name}"), text));
    }

    // Soup: every pool mixed, at random.
    for n in 0..8 {
        let mut text = String::new();
        while text.len() < 20_000 {
            match rng.below(9) {
                0 => text.push_str(rng.pick(PUNCT)),
                1 => text.push_str(rng.pick(SPACES)),
                2 => text.push_str(rng.pick(CONTRACTIONS)),
                3 => text.push_str(rng.pick(EMOJI)),
                4 => {
                    let (_, lo, hi) = rng.pick(BLOCKS);
                    text.push(rng.char_in(lo, hi));
                }
                5 => {
                    for _ in 0..1 + rng.below(12) {
                        text.push(char::from(b'0' + rng.below(10) as u8));
                    }
                }
                _ => text.push_str(rng.pick(WORDS)),
            }
        }
        cases.push((format!("soup-{n}"), text));
    }

    // Contractions in odd cases and places.
    let mut text = String::new();
    for _ in 0..3000 {
        let before = rng.pick(&[
            "it", "IT", "日", "x\u{301}", "1", ".", " ", "", "ǅ", "A", "\n",
        ]);
        text.push_str(before);
        text.push_str(rng.pick(CONTRACTIONS));
        text.push_str(rng.pick(&["", " ", "s", "t", "\n", "'", "ll", "E"]));
    }
    cases.push(("contractions".into(), text));

    // Mixed-case letters: every switch between cases and caseless letters.
    let letters = [
        "a", "B", "ǅ", "ʰ", "日", "\u{301}", "ß", "Σ", "ς", "ﬁ", "ᾈ", "ⅰ", "Ⓐ",
    ];
    let mut text = String::new();
    for _ in 0..8000 {
        text.push_str(rng.pick(&letters));
        if rng.below(10) == 0 {
            text.push_str(rng.pick(&[" ", "'s", "1", "!", "\t", "\n"]));
        }
    }
    cases.push(("mixed-case".into(), text));

    // White space of every kind, in runs, between words and at the end.
    for n in 0..4 {
        let mut text = String::new();
        for _ in 0..2000 {
            for _ in 0..rng.below(4) {
                text.push_str(rng.pick(SPACES));
            }
            text.push_str(rng.pick(&["x", "Word", "1", "!", "日", "'s", "{", "\u{301}", ""]));
        }
        text.push_str(["   ", "\n  ", "\r\n\r\n   ", " \t"][n]);
        cases.push((format!("whitespace-{n}"), text));
    }
    for tail in [
        "\n",
        "\n\n",
        " ",
        "  ",
        "\n ",
        "\r\n  ",
        "\t",
        "\u{a0}",
        "\n\u{3000}",
    ] {
        cases.push((
            format!("trailing-{}", tail.escape_unicode()),
            format!("line\n  key: value{tail}"),
        ));
    }

    // Punctuation runs.
    let mut text = String::new();
    for _ in 0..3000 {
        for _ in 0..1 + rng.below(6) {
            text.push_str(rng.pick(PUNCT));
        }
        text.push_str(rng.pick(&["", " ", "\n", "\r\n", "/", "a", "1"]));
    }
    cases.push(("punctuation".into(), text));
    cases.push(("punctuation-run".into(), "!?".repeat(10_000)));
    cases.push(("slash-run".into(), "/\n".repeat(5_000)));

    // Digits: long runs, other scripts, separators.
    let mut text: String = (0..20_000)
        .map(|i| char::from(b'0' + (i * 7 % 10) as u8))
        .collect();
    text.push_str(" 1,234,567.89 -0.5e-10 ١٢٣٤٥٦٧ १२३४ ²³¹ ⅠⅡⅢ 12⁄34 ");
    cases.push(("digits".into(), text));

    // Emoji, with and without joiners and modifiers.
    let mut text = String::new();
    for _ in 0..3000 {
        text.push_str(rng.pick(EMOJI));
        text.push_str(rng.pick(&["", " ", "a", "\u{200d}", "\u{fe0f}", "\n", "!"]));
    }
    cases.push(("emoji".into(), text));

    // Text whose pieces are all new: base64 of random bytes (one run, and
    // in 76-character lines), hex digests, and lowercase words of 100 to
    // 700 letters (both sides of the flat merge's limit).
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b64: String = (0..60_000)
        .map(|_| char::from(B64[rng.below(64)]))
        .collect();
    let lines: Vec<&str> = b64
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    cases.push(("base64-lines".into(), lines.join("\n") + "=="));
    cases.push(("base64".into(), b64 + "="));
    let mut text = String::new();
    for _ in 0..1500 {
        for _ in 0..40 {
            text.push(char::from(b"0123456789abcdef"[rng.below(16)]));
        }
        text.push_str(rng.pick(&["\n", " ", "\",\"", ":"]));
    }
    cases.push(("hex-digests".into(), text));
    let mut text = String::new();
    for _ in 0..150 {
        for _ in 0..100 + rng.below(600) {
            text.push(char::from(b'a' + rng.below(26) as u8));
        }
        text.push(' ');
    }
    cases.push(("words-100-700".into(), text));

    // 100 KB single words: plain lowercase, and mixed-case Cyrillic.
    let lower: String = (0..100_000)
        .map(|_| char::from(b'a' + rng.below(26) as u8))
        .collect();
    cases.push(("word-100k-latin".into(), lower));
    let cyrillic: String = (0..50_000).map(|_| rng.char_in(0x410, 0x44F)).collect();
    cases.push(("word-100k-cyrillic".into(), cyrillic));
    cases.push(("spaces-20k".into(), " ".repeat(20_000) + "x"));

    // Every scalar value above ASCII once, in a rotating context that makes
    // its class matter.
    let contexts = [
        ("a", "b"),
        (" ", ""),
        ("", "A"),
        ("\t", "x"),
        ("1", ""),
        ("'", "s"),
        ("", "'S"),
        ("A", ""),
        ("", "!"),
        ("!", ""),
    ];
    let mut text = String::new();
    for cp in 0x80..=0x10_ffffu32 {
        if let Some(c) = char::from_u32(cp) {
            let (before, after) = contexts[cp as usize % contexts.len()];
            text.push_str(before);
            text.push(c);
            text.push_str(after);
            text.push('\n');
        }
    }
    cases.push(("every-scalar-value".into(), text));
    cases
}

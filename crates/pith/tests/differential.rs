//! Differential tests: pith's TOON encoder against the reference encoders,
//! byte for byte: `@toon-format/toon` 4.4.0 for spec 4.x, and 2.3.1 for
//! spec 3.3 (with key folding on some of the documents).
//!
//! The reference packages are installed with npm into a scratch folder under
//! `target/` (reused while the version matches) and driven by
//! `tests/support/ref-encode.mjs`. npm and node are required: without them
//! the tests fail, they never pass by skipping.
//!
//! Inputs: every JSON file under the shared datasets folder
//! (`$PITH_DATASETS`, or `shared/datasets` beside the checkout), each with
//! every delimiter and indents 2 and 4, and a few thousand documents from a
//! seeded generator aimed at the encoder's decisions: quoting, key quoting,
//! numbers, tables, nested field groups, keyed tables, list items, empty
//! containers, nesting and foldable chains.
//!
//! Every document must also decode from the reference's text back to itself
//! (spec 3.3 documents with folded keys only when path expansion can undo
//! the folding exactly, that is when the document has no dotted keys).
//!
//! Three differences between the sides are not the encoder's to match:
//!
//! * JavaScript objects put integer-like keys (`"0"`, `"42"`) first, in
//!   numeric order, whatever the input order. The value given to pith is put
//!   in that order first, so that both encoders see the same object.
//! * 2.3.1 leaves the first key of a list-item object out of the collision
//!   check of key folding, so `- a.b: 1` can be followed by a folded
//!   `a.b: 2` in the same object; pith follows spec 3.3 §13.4, which forbids
//!   that. The generated documents do not contain that case.
//! * While folding, 2.3.1 writes a literal key such as `a.b` bare, and the
//!   path expansion that undoes folding then splits it; pith quotes it. For
//!   such documents the texts must read the same without expansion (so they
//!   differ only in those quotes), and pith's must read back with expansion.

#[path = "support/convert.rs"]
mod convert;
#[path = "support/datasets.rs"]
mod datasets;
use convert::{Members, to_pith_ordered};
use datasets::{datasets, json_files};
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding, Spec};
use pith::{Number, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Generated documents per run (spread over the option sets below).
const GENERATED: usize = 2_400;
const SEED: u64 = 0x7007_2024_5eed_0001;
/// How many failing documents to print in full.
const SHOW: usize = 3;

/// One reference encoder and the option sets its documents are spread over.
struct Reference {
    version: &'static str,
    spec: Spec,
    options: &'static [Options],
}

/// Delimiter, indent, and the flatten depth of key folding (`None`: off).
type Options = (Delimiter, usize, Option<usize>);

const V4: Reference = Reference {
    version: "4.4.0",
    spec: Spec::V4,
    options: &[
        (Delimiter::Comma, 2, None),
        (Delimiter::Tab, 4, None),
        (Delimiter::Pipe, 2, None),
        (Delimiter::Comma, 4, None),
        (Delimiter::Tab, 2, None),
        (Delimiter::Pipe, 4, None),
    ],
};

const V3: Reference = Reference {
    version: "2.3.1",
    spec: Spec::V3,
    options: &[
        (Delimiter::Comma, 2, Some(usize::MAX)),
        (Delimiter::Tab, 4, None),
        (Delimiter::Pipe, 2, Some(2)),
        (Delimiter::Comma, 4, None),
        (Delimiter::Tab, 2, Some(3)),
        (Delimiter::Pipe, 4, Some(usize::MAX)),
    ],
};

#[test]
fn datasets_encode_like_the_reference() {
    check(&V4, &dataset_docs(&V4, V4.options.len()));
}

#[test]
fn generated_documents_encode_like_the_reference() {
    let reference = check(&V4, &generated_docs(&V4));
    assert_covers_every_form(&reference);
}

#[test]
fn spec_3_3_encodes_like_the_reference() {
    // Two option sets per file (of six, in turn) keep the run short.
    let mut docs = dataset_docs(&V3, 2);
    docs.extend(generated_docs(&V3));
    let reference = check(&V3, &docs);
    // Folding must have happened, or this test would not test it.
    let folded = docs
        .iter()
        .zip(&reference)
        .filter(|(doc, text)| {
            let (delimiter, indent, flatten) = doc.options;
            let unfolded = EncodeOptions::default()
                .delimiter(delimiter)
                .indent(indent)
                .spec(Spec::V3);
            flatten.is_some()
                && pith::toon::encode(&doc.value, &unfolded).ok().as_ref() != Some(*text)
        })
        .count();
    eprintln!("documents with folded keys: {folded}");
    assert!(folded >= 25, "only {folded} documents have folded keys");
}

struct Doc {
    name: String,
    /// The document as one line of JSON, for the reference.
    json: String,
    /// The same document for pith, keys in JavaScript's order.
    value: Value,
    options: Options,
}

/// Every dataset file, each with `per_file` of the reference's option sets.
fn dataset_docs(reference: &Reference, per_file: usize) -> Vec<Doc> {
    let root = datasets();
    let files = json_files(&root);
    assert!(
        files.len() >= 20,
        "expected the shared datasets (at least 20 JSON files) in {}, found {}",
        root.display(),
        files.len()
    );
    let mut docs = Vec::new();
    for (n, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let json: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("parsing {}: {e}", file.display()));
        let line = serde_json::to_string(&json).expect("serialize dataset");
        let value = to_pith_js_order(&json);
        let name = file.strip_prefix(&root).unwrap_or(file).display();
        for k in 0..per_file {
            let options = reference.options[(n + k) % reference.options.len()];
            docs.push(Doc {
                name: format!("{name} {options:?}"),
                json: line.clone(),
                value: value.clone(),
                options,
            });
        }
    }
    docs
}

fn generated_docs(reference: &Reference) -> Vec<Doc> {
    let mut g = Gen::new(SEED);
    (0..GENERATED)
        .map(|i| {
            let json = g.document(i);
            let options = reference.options[i % reference.options.len()];
            Doc {
                name: format!("generated #{i} {options:?}"),
                json: serde_json::to_string(&json).expect("serialize generated"),
                value: to_pith_js_order(&json),
                options,
            }
        })
        .collect()
}

/// Encodes every document with both encoders and fails with the first few
/// differences shown in full; returns the reference's texts.
fn check(reference: &Reference, docs: &[Doc]) -> Vec<String> {
    let outputs = reference_outputs(reference, docs);
    let mut encode_failures = Vec::new();
    let mut decode_failures = Vec::new();
    let mut quoted = 0;
    for (doc, want) in docs.iter().zip(&outputs) {
        let (delimiter, indent, flatten) = doc.options;
        let opts = EncodeOptions::default()
            .delimiter(delimiter)
            .indent(indent)
            .spec(reference.spec)
            .key_folding(if flatten.is_some() {
                KeyFolding::Safe
            } else {
                KeyFolding::Off
            })
            .flatten_depth(flatten.unwrap_or(usize::MAX));
        let got = pith::toon::encode(&doc.value, &opts);
        let want = match want {
            Ok(text) => text,
            Err(e) => {
                encode_failures.push(format!(
                    "{}: the reference refused the document: {e}\ninput: {}",
                    doc.name,
                    shown(&doc.json)
                ));
                continue;
            }
        };
        // The streaming writer checks tables before writing them, the
        // buffered one writes them and takes them back when they do not fit:
        // both must give the same text.
        let mut streamed = Vec::new();
        let streamed = pith::toon::encode_to(&doc.value, &opts, &mut streamed)
            .map(|()| String::from_utf8(streamed).expect("UTF-8"));
        if streamed.as_ref().ok() != got.as_ref().ok() {
            encode_failures.push(format!(
                "{}: encode_to and encode differ\ninput: {}",
                doc.name,
                shown(&doc.json)
            ));
            continue;
        }
        if flatten.is_some() && has_key(&doc.value, is_path) {
            quoted += 1;
            if let Err(e) = same_but_quoted(&doc.value, got.as_deref(), want, indent) {
                encode_failures.push(format!(
                    "{}: {e}\ninput: {}\n--- pith\n{}\n--- reference\n{}",
                    doc.name,
                    shown(&doc.json),
                    got.as_deref().map_or_else(|e| e.to_string(), shown),
                    shown(want)
                ));
            }
            continue;
        }
        match got {
            Ok(got) if got == *want => {}
            Ok(got) => encode_failures.push(format!(
                "{}\n{}\ninput: {}\n--- pith\n{}\n--- reference\n{}",
                doc.name,
                first_difference(&got, want),
                shown(&doc.json),
                shown(&got),
                shown(want)
            )),
            Err(e) => encode_failures.push(format!(
                "{}: pith refused the document: {e}\ninput: {}",
                doc.name,
                shown(&doc.json)
            )),
        }
        if flatten.is_some() && has_key(&doc.value, is_dotted) {
            continue;
        }
        let decode_opts = DecodeOptions::default()
            .indent(indent)
            .spec(reference.spec)
            .expand_paths(if flatten.is_some() {
                ExpandPaths::Safe
            } else {
                ExpandPaths::Off
            });
        let back = pith::toon::decode(want, &decode_opts);
        match back {
            Ok(v) if pith::equiv::equivalent(&doc.value, &v) => {}
            Ok(v) => decode_failures.push(format!(
                "{}: decoding the reference text gives another value\ntext:\n{}\ndecoded: {}\nexpected: {}",
                doc.name,
                shown(want),
                shown(&format!("{v:?}")),
                shown(&doc.json)
            )),
            Err(e) => decode_failures.push(format!(
                "{}: decoding the reference text failed: {}\ntext:\n{}",
                doc.name,
                e.render(want),
                shown(want)
            )),
        }
    }
    if reference.spec == Spec::V3 {
        eprintln!("documents with literal keys quoted while folding: {quoted}");
        assert!(
            quoted >= 25,
            "only {quoted} documents have literal dotted keys while folding"
        );
    }
    for f in encode_failures.iter().chain(&decode_failures).take(SHOW) {
        eprintln!("==== {f}\n");
    }
    assert!(
        encode_failures.is_empty() && decode_failures.is_empty(),
        "{} of {} documents encode differently from @toon-format/toon {}, \
         {} do not decode back (first {SHOW} shown above)",
        encode_failures.len(),
        docs.len(),
        reference.version,
        decode_failures.len()
    );
    eprintln!(
        "{} documents encoded identically to @toon-format/toon {} and decoded back",
        docs.len() - quoted,
        reference.version
    );
    if quoted > 0 {
        eprintln!("{quoted} more identically up to literal keys quoted while folding");
    }
    outputs.into_iter().flatten().collect()
}

/// For a folded document with literal dotted keys: pith's text and the
/// reference's read as the same value without path expansion (the same
/// lines, up to the quotes pith puts around those keys), and pith's reads
/// back as the document with it.
fn same_but_quoted(
    value: &Value,
    got: Result<&str, &pith::Error>,
    want: &str,
    indent: usize,
) -> Result<(), String> {
    let got = got.map_err(|e| format!("pith refused the document: {e}"))?;
    let literal = DecodeOptions::default().indent(indent).spec(Spec::V3);
    let read = |text: &str, opts: &DecodeOptions| {
        pith::toon::decode(text, opts).map_err(|e| e.render(text).to_string())
    };
    if read(got, &literal)? != read(want, &literal)? {
        return Err("the texts read differently without path expansion".into());
    }
    let expand = literal.expand_paths(ExpandPaths::Safe);
    let back = read(got, &expand)?;
    if !pith::equiv::equivalent(value, &back) {
        return Err(format!(
            "pith's text does not read back with path expansion: {:?}",
            pith::equiv::difference(value, &back)
        ));
    }
    Ok(())
}

/// Whether any object in `v` has a key for which `test` holds.
fn has_key(v: &Value, test: fn(&str) -> bool) -> bool {
    match v {
        Value::Array(a) => a.iter().any(|v| has_key(v, test)),
        Value::Object(m) => m.iter().any(|(k, v)| test(k) || has_key(v, test)),
        _ => false,
    }
}

/// Whether path expansion splits `key`: a dotted key whose segments all
/// match `^[A-Za-z_][A-Za-z0-9_]*$`. Written from the spec, not taken from
/// the encoder under test.
fn is_path(key: &str) -> bool {
    let identifier = |s: &str| {
        let mut c = s.bytes();
        c.next()
            .is_some_and(|f| f == b'_' || f.is_ascii_alphabetic())
            && c.all(|b| b == b'_' || b.is_ascii_alphanumeric())
    };
    key.contains('.') && key.split('.').all(identifier)
}

/// Whether `key` has a dot, which path expansion may split.
fn is_dotted(key: &str) -> bool {
    key.contains('.')
}

/// A named test of one line (without its indentation) for a form.
type FormTest = (&'static str, fn(&str) -> bool);

/// Fails when the generated documents miss one of the encoder's forms, so
/// that a change to the generator cannot quietly stop testing one.
fn assert_covers_every_form(outputs: &[String]) {
    let forms: [FormTest; 10] = [
        ("table", |l| l.contains("]{") && !l.contains(":]{")),
        ("keyed table", |l| {
            l.contains(":]{") || l.contains(":\t]{") || l.contains(":|]{")
        }),
        ("nested field group", |l| {
            l.ends_with("}:") && l.split_once("]{").is_some_and(|(_, f)| f.contains('{'))
        }),
        ("table on a hyphen line", |l| {
            l.starts_with("- ") && l.contains("]{")
        }),
        ("list item", |l| l.starts_with("- ")),
        ("empty object item", |l| l == "-"),
        ("inline array", |l| l.contains("]: ")),
        ("empty array", |l| {
            l.ends_with(": []") || l == "[]" || l.ends_with("[0]:")
        }),
        ("quoted string", |l| l.contains('"')),
        ("empty object", |l| {
            l.ends_with(':') && !l.ends_with("]:") && !l.ends_with("}:")
        }),
    ];
    let mut counts = [0usize; 10];
    for text in outputs {
        for (count, (_, test)) in counts.iter_mut().zip(&forms) {
            if text.lines().any(|l| test(l.trim_start_matches(' '))) {
                *count += 1;
            }
        }
    }
    let report: Vec<String> = forms
        .iter()
        .zip(counts)
        .map(|((name, _), n)| format!("{name}: {n}"))
        .collect();
    eprintln!("documents per form: {}", report.join(", "));
    for ((name, _), n) in forms.iter().zip(counts) {
        assert!(
            n >= 25,
            "only {n} generated documents use the form {name:?}"
        );
    }
}

/// The text in full, unless it is very large: then its start and the size.
fn shown(text: &str) -> String {
    const LIMIT: usize = 20_000;
    if text.len() <= LIMIT {
        return text.to_owned();
    }
    let mut cut = LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..cut], text.len())
}

/// The first line where two texts differ, both versions.
fn first_difference(got: &str, want: &str) -> String {
    let (mut g, mut w) = (got.split('\n'), want.split('\n'));
    for line in 1.. {
        match (g.next(), w.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => {
                return format!(
                    "first difference at line {line}:\n  pith:      {a:?}\n  reference: {b:?}"
                );
            }
        }
    }
    unreachable!("the loop returns")
}

/// The reference's output for each document, in order.
fn reference_outputs(reference: &Reference, docs: &[Doc]) -> Vec<Result<String, String>> {
    let package = reference_package(reference.version);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/ref-encode.mjs");
    let mut outputs: Vec<Option<Result<String, String>>> = docs.iter().map(|_| None).collect();
    for &options in reference.options {
        let picked: Vec<usize> = (0..docs.len())
            .filter(|&i| docs[i].options == options)
            .collect();
        if picked.is_empty() {
            continue;
        }
        let (delimiter, indent, flatten) = options;
        let delimiter = match delimiter {
            Delimiter::Comma => "comma",
            Delimiter::Tab => "tab",
            Delimiter::Pipe => "pipe",
        };
        let mut command = Command::new("node");
        command
            .arg(&script)
            .arg(package)
            .arg(delimiter)
            .arg(indent.to_string());
        match flatten {
            Some(usize::MAX) => command.arg("fold"),
            Some(depth) => command.arg(format!("fold={depth}")),
            None => &mut command,
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("node is required for the differential tests: {e}"));
        let mut stdin = child.stdin.take().expect("piped stdin");
        let input: Vec<u8> = picked
            .iter()
            .flat_map(|&i| docs[i].json.bytes().chain(std::iter::once(b'\n')))
            .collect();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().expect("running node");
        writer
            .join()
            .expect("stdin writer thread")
            .expect("writing documents to node");
        assert!(
            out.status.success(),
            "the reference driver failed: {}",
            out.status
        );
        let text = String::from_utf8(out.stdout).expect("node prints UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.len(),
            picked.len(),
            "the reference driver answered {} of {} documents",
            lines.len(),
            picked.len()
        );
        for (&i, line) in picked.iter().zip(lines) {
            let answer: serde_json::Value =
                serde_json::from_str(line).expect("driver prints JSON lines");
            outputs[i] = Some(match answer {
                serde_json::Value::String(s) => Ok(s),
                other => Err(other["error"]
                    .as_str()
                    .unwrap_or("unknown error")
                    .to_owned()),
            });
        }
    }
    outputs
        .into_iter()
        .map(|o| o.expect("every document has an answer"))
        .collect()
}

/// The folder of `@toon-format/toon@version`, installed on first use.
fn reference_package(version: &'static str) -> &'static Path {
    static PACKAGES: OnceLock<std::sync::Mutex<Vec<(&'static str, &'static Path)>>> =
        OnceLock::new();
    let packages = PACKAGES.get_or_init(Default::default);
    // Held during the install, so that two tests never run npm in one folder.
    let mut packages = packages.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, path)) = packages.iter().find(|(v, _)| *v == version) {
        return path;
    }
    let prefix = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("toon-reference-{version}"));
    let package = prefix.join("node_modules/@toon-format/toon");
    if installed_version(&package).as_deref() != Some(version) {
        std::fs::create_dir_all(&prefix).expect("creating the scratch folder");
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(format!("@toon-format/toon@{version}"))
            .status()
            .unwrap_or_else(|e| panic!("npm is required to install the reference encoder: {e}"));
        assert!(
            status.success(),
            "npm install of @toon-format/toon@{version} failed: {status}"
        );
        let found = installed_version(&package);
        assert_eq!(
            found.as_deref(),
            Some(version),
            "npm installed another version of @toon-format/toon in {}",
            prefix.display()
        );
    }
    let path: &'static Path = Box::leak(package.into_boxed_path());
    packages.push((version, path));
    path
}

fn installed_version(package: &Path) -> Option<String> {
    let text = std::fs::read_to_string(package.join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["version"].as_str().map(str::to_owned)
}

/// JSON (read with key order kept) as a pith value, each object's keys in
/// the order a JavaScript object enumerates them: array-index keys first,
/// ascending, then the others in insertion order.
fn to_pith_js_order(v: &serde_json::Value) -> Value {
    to_pith_ordered(v, &js_order)
}

/// The members of `m` as a JavaScript object enumerates them.
fn js_order(m: &JMap) -> Members<'_> {
    let mut indexed: Vec<(u32, &String, &serde_json::Value)> = Vec::new();
    let mut named = Vec::new();
    for (k, v) in m {
        match array_index(k) {
            Some(i) => indexed.push((i, k, v)),
            None => named.push((k, v)),
        }
    }
    indexed.sort_by_key(|&(i, _, _)| i);
    indexed
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(named)
        .collect()
}

/// The index when `k` is a canonical array index (`0` to `2^32 - 2`).
fn array_index(k: &str) -> Option<u32> {
    let b = k.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    k.parse::<u32>().ok().filter(|&i| i != u32::MAX)
}

/// A seeded generator of documents that exercise the encoder's choices.
struct Gen {
    state: u64,
}

type J = serde_json::Value;
type JMap = serde_json::Map<String, J>;

const STRINGS: &[&str] = &[
    "",
    " ",
    "a",
    "hello",
    "hello world",
    " lead",
    "trail ",
    "true",
    "false",
    "null",
    "True",
    "NULL",
    "0",
    "42",
    "-7",
    "3.14",
    "-0.5",
    "1e6",
    "1E-7",
    "2.5e+3",
    "05",
    "007",
    "+1",
    "+",
    "+1.5e3",
    "-",
    "--",
    "-x",
    "- item",
    "#",
    "#x",
    "a#b",
    "x:y",
    ":",
    "a,b",
    ",",
    "a|b",
    "|",
    "a\tb",
    "\t",
    "line\nbreak",
    "\r\n",
    "[",
    "]",
    "{}",
    "[1,2]",
    "quote\"d",
    "back\\slash",
    "\u{0}",
    "\u{1}\u{1f}",
    "\u{7f}",
    "caf\u{e9}",
    "\u{65e5}\u{672c}\u{8a9e}",
    "emoji \u{1f600}",
    "\u{a0}nbsp",
    "nbsp\u{a0}",
    "\u{feff}bom",
    "\u{2028}",
    "\u{3000}x",
    "Infinity",
    "NaN",
    "0x1F",
    ".5",
    "1.",
    "1e",
    "e5",
    "null ",
    " true",
    "a b c",
    "{a}",
    "key: value",
    "2024-01-01T00:00:00Z",
    "https://example.com/a?b=c&d=e",
    "C:\\path",
    "100%",
    "$5",
    "a.b.c",
    "__proto__",
    "\u{85}next",
    "x\u{b}y",
    "\u{c}",
    "\u{1b}[31m",
];

const KEYS: &[&str] = &[
    "id",
    "name",
    "a",
    "b",
    "c",
    "x",
    "y",
    "value",
    "_private",
    "camelCase",
    "snake_case",
    "with.dot",
    "a.b",
    "key9",
    "",
    " ",
    "a b",
    "1a",
    "a-b",
    "kebab-case",
    "\u{e9}",
    "\u{65e5}\u{672c}",
    "__proto__",
    "constructor",
    "toString",
    "0",
    "1",
    "42",
    "007",
    "-1",
    "true",
    "null",
    "quote\"",
    "back\\slash",
    "colon:",
    "[x]",
    "{y}",
    "tab\t",
    "new\nline",
    "#hash",
    "a,b",
    "a|b",
    "\u{1f600}",
    "status",
    "price",
    "tags",
    "owner",
    "meta",
];

const CHARS: &[char] = &[
    'a',
    'b',
    'Z',
    '0',
    '9',
    ' ',
    '-',
    '#',
    ':',
    ',',
    '|',
    '\t',
    '\n',
    '"',
    '\\',
    '[',
    '{',
    '.',
    'e',
    '+',
    '\u{e9}',
    '\u{1f600}',
    '\u{0}',
    '\u{1b}',
    '\u{a0}',
    '\u{feff}',
    '\u{65e5}',
    '_',
];

const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    0.1,
    0.5,
    1.5,
    -2.25,
    1e-7,
    1.5e-7,
    1e-6,
    0.000001234,
    123456.789,
    1e21,
    1e20,
    123e19,
    9007199254740992.0,
    9007199254740994.0,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    1e300,
    -1e-300,
    4.35,
    0.1 + 0.2,
    1234567890123456789.0,
    -1e23,
];

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen { state: seed | 1 }
    }

    /// xorshift64*
    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn document(&mut self, i: usize) -> J {
        match i % 20 {
            0 => self.primitive(),
            1 => self.deep(),
            2 | 3 => self.uniform_rows(3),
            4 => self.keyed(3),
            5 => self.list_item_object(3),
            6 | 7 => self.mixed_array(4),
            _ => {
                if self.chance(20) {
                    self.value(5)
                } else {
                    J::Object(self.object(4))
                }
            }
        }
    }

    fn value(&mut self, depth: usize) -> J {
        if depth == 0 {
            return self.primitive();
        }
        match self.below(14) {
            0..=3 => self.primitive(),
            4 | 5 => J::Object(self.object(depth - 1)),
            6 => self.primitive_array(),
            7 => self.uniform_rows(depth - 1),
            8 => self.keyed(depth - 1),
            9 => self.mixed_array(depth - 1),
            10 => self.array_of_arrays(depth - 1),
            11 => self.list_item_object(depth - 1),
            12 => {
                if self.chance(50) {
                    J::Array(Vec::new())
                } else {
                    J::Object(JMap::new())
                }
            }
            _ => self.string(),
        }
    }

    fn primitive(&mut self) -> J {
        match self.below(8) {
            0 => J::Null,
            1 => J::Bool(self.chance(50)),
            2..=4 => self.number(),
            _ => self.string(),
        }
    }

    fn number(&mut self) -> J {
        let f = match self.below(8) {
            0 => return J::from(self.below(201) as i64 - 100),
            1 => {
                let n = (self.next() >> 11) as i64; // below 2^53
                return J::from(if self.chance(50) { -n } else { n });
            }
            2 => loop {
                let f = f64::from_bits(self.next());
                if f.is_finite() {
                    break f;
                }
            },
            3 | 4 => self.pick(FLOATS),
            5 => (self.below(1_000_000) as f64) / 100.0,
            6 => {
                let text = format!("{}e{}", self.below(100_000), self.below(50) as i64 - 25);
                text.parse().expect("float literal")
            }
            _ => (self.next() >> 11) as f64 * 2f64.powi(self.below(80) as i32 - 40),
        };
        // The shortest decimal of the f64, as JSON.parse and pith both read it.
        let n = Number::from_f64(f).expect("finite");
        J::Number(serde_json::Number::from_f64(n.to_f64()).expect("finite"))
    }

    fn string(&mut self) -> J {
        J::String(if self.chance(60) {
            self.pick(STRINGS).to_owned()
        } else {
            let n = self.below(12);
            (0..n).map(|_| self.pick(CHARS)).collect()
        })
    }

    fn key(&mut self) -> String {
        if self.chance(80) {
            self.pick(KEYS).to_owned()
        } else {
            let n = 1 + self.below(6);
            (0..n).map(|_| self.pick(CHARS)).collect()
        }
    }

    /// `n` distinct keys.
    fn keys(&mut self, n: usize) -> Vec<String> {
        let mut keys: Vec<String> = Vec::with_capacity(n);
        while keys.len() < n {
            let k = self.key();
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        keys
    }

    fn object(&mut self, depth: usize) -> JMap {
        let n = self.below(6);
        let mut m = JMap::new();
        for k in self.keys(n) {
            let v = self.value(depth);
            m.insert(k, v);
        }
        m
    }

    fn primitive_array(&mut self) -> J {
        let n = self.below(7);
        J::Array((0..n).map(|_| self.primitive()).collect())
    }

    fn array_of_arrays(&mut self, depth: usize) -> J {
        let n = 1 + self.below(4);
        J::Array(
            (0..n)
                .map(|_| {
                    if self.chance(85) {
                        self.primitive_array()
                    } else {
                        self.value(depth)
                    }
                })
                .collect(),
        )
    }

    /// A row shape: keys, and for each a nested shape or a leaf.
    fn shape(&mut self, depth: usize) -> Vec<(String, Option<Shape>)> {
        let n = 1 + self.below(4);
        self.keys(n)
            .into_iter()
            .map(|k| {
                let nested = depth > 0 && self.chance(25);
                let sub = nested.then(|| Shape(self.shape(depth - 1)));
                (k, sub)
            })
            .collect()
    }

    fn row(&mut self, shape: &[(String, Option<Shape>)]) -> JMap {
        let mut m = JMap::new();
        let mut order: Vec<usize> = (0..shape.len()).collect();
        if self.chance(15) {
            // The same keys in another order: still one table.
            for i in (1..order.len()).rev() {
                order.swap(i, self.below(i + 1));
            }
        }
        for i in order {
            let (k, sub) = &shape[i];
            let v = match sub {
                Some(Shape(s)) => J::Object(self.row(s)),
                None => self.primitive(),
            };
            m.insert(k.clone(), v);
        }
        m
    }

    /// Rows that mostly form a table; now and then one breaks it.
    fn rows(&mut self, depth: usize, n: usize) -> Vec<JMap> {
        let shape = self.shape(2);
        let mut rows: Vec<JMap> = (0..n).map(|_| self.row(&shape)).collect();
        if self.chance(20) {
            let i = self.below(rows.len());
            let row = &mut rows[i];
            let k = row
                .keys()
                .nth(self.below(row.len()))
                .cloned()
                .expect("non-empty row");
            match self.below(5) {
                0 => {
                    row.shift_remove(&k);
                }
                1 => {
                    let extra = self.key();
                    let v = self.primitive();
                    row.insert(extra, v);
                }
                2 => {
                    row.insert(k, J::Object(JMap::new()));
                }
                3 => {
                    let v = self.value(depth);
                    row.insert(k, v);
                }
                _ => {
                    row.insert(k, J::Array(vec![J::from(1)]));
                }
            }
        }
        rows
    }

    fn uniform_rows(&mut self, depth: usize) -> J {
        let n = 1 + self.below(5);
        J::Array(self.rows(depth, n).into_iter().map(J::Object).collect())
    }

    fn keyed(&mut self, depth: usize) -> J {
        let n = 1 + self.below(4);
        let rows = self.rows(depth, n);
        let names = self.keys(n);
        J::Object(
            names
                .into_iter()
                .zip(rows)
                .map(|(k, r)| (k, J::Object(r)))
                .collect(),
        )
    }

    fn mixed_array(&mut self, depth: usize) -> J {
        let n = 1 + self.below(5);
        J::Array(
            (0..n)
                .map(|_| match self.below(4) {
                    0 => self.list_item_object(depth),
                    _ => self.value(depth),
                })
                .collect(),
        )
    }

    /// An object whose first field is what list items treat specially.
    fn list_item_object(&mut self, depth: usize) -> J {
        let mut m = JMap::new();
        let k = self.key();
        let first = match self.below(8) {
            0 | 1 => self.uniform_rows(depth),
            2 => self.keyed(depth),
            3 => self.primitive_array(),
            4 => J::Array(Vec::new()),
            5 => J::Object(JMap::new()),
            6 => self.array_of_arrays(depth),
            _ => self.value(depth),
        };
        m.insert(k, first);
        for (k, v) in self.object(depth) {
            m.entry(k).or_insert(v);
        }
        if self.chance(10) {
            m = JMap::new();
        }
        let wrap = self.below(3);
        if wrap == 0 {
            J::Array(vec![J::Object(m)])
        } else {
            J::Object(m)
        }
    }

    /// A chain of 8 to 40 containers.
    fn deep(&mut self) -> J {
        let n = 8 + self.below(33);
        let mut v = self.primitive();
        for _ in 0..n {
            v = match self.below(3) {
                0 => J::Array(vec![v]),
                1 => {
                    let mut m = JMap::new();
                    m.insert(self.key(), v);
                    J::Object(m)
                }
                _ => {
                    let mut m = JMap::new();
                    let other = self.primitive();
                    m.insert(self.key(), v);
                    m.entry(self.key()).or_insert(other);
                    J::Object(m)
                }
            };
        }
        v
    }
}

struct Shape(Vec<(String, Option<Shape>)>);

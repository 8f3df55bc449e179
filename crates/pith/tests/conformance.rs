//! The TOON conformance suite: one trial per fixture case of
//! `shared/toon-spec/{v4.1.1,v4.0,v3.3}/tests/fixtures`.
//!
//! The fixtures are MIT-licensed copies of the TOON specification's test
//! suite (see `shared/toon-spec/README.md` for their source commits). They are
//! read from `../shared/toon-spec` beside the checkout, or from the folder
//! named by `PITH_TOON_SPEC`. A missing folder, or one with fewer cases than
//! pinned below, fails the run: the suite never passes by finding nothing.
//!
//! Spec 3.3 fixtures run in pith's 3.3 mode ([`Spec::V3`]); the others in 4.x mode.
//!
//! Where the reference implementation and a fixture disagree, the fixture
//! wins: see [`REFERENCE_DISAGREES`]. Where a fixture's expected text would
//! lose a fact, pith writes one that keeps it: see [`LOSSLESS_OVER_FIXTURE`].

use libtest_mimic::{Arguments, Failed, Trial};
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding, Spec};
use std::path::{Path, PathBuf};

#[path = "support/convert.rs"]
mod convert;
use convert::to_pith;

/// Case counts per suite, pinned so that a lost file cannot go unnoticed.
const SUITES: [(&str, Spec, usize); 3] = [
    ("v4.1.1", Spec::V4, 538),
    ("v4.0", Spec::V4, 516),
    ("v3.3", Spec::V3, 400),
];

/// Fixtures the reference implementation fails and pith passes, because the
/// fixture is right. `@toon-format/toon` 4.4.0 passes 531 of v4.1.1's 538
/// cases and 512 of v4.0's 516; its 2.3.1 release passes 398 of v3.3's 400.
///
/// * The v4 cases are lenient decodes (`strict: false`). Spec 4 §6 and
///   §14.2 let a non-strict decoder read a malformed header as a key-value
///   line whose key is the literal text, and skip an entry-depth line that
///   has no colon; the reference throws on these even when not strict.
/// * The v3.3 cases are values that merely look like array headers
///   (`key: foo [2]: bar`): the first unquoted colon ends the key, so the
///   rest is string text; 2.3.1 reads a header there.
///
/// These trials carry the kind `fixture-over-reference` in the test listing.
const REFERENCE_DISAGREES: &[&str] = &[
    "v4.1.1/decode/delimiters.json#28",
    "v4.1.1/decode/objects-keyed.json#18",
    "v4.1.1/decode/objects.json#23",
    "v4.1.1/decode/objects.json#24",
    "v4.1.1/decode/objects.json#25",
    "v4.1.1/decode/objects.json#26",
    "v4.1.1/decode/objects.json#53",
    "v4.0/decode/objects.json#23",
    "v4.0/decode/objects.json#24",
    "v4.0/decode/objects.json#25",
    "v4.0/decode/objects.json#26",
    "v3.3/decode/objects.json#16",
    "v3.3/decode/objects.json#17",
];

/// Encode fixtures whose expected text does not decode back to the input,
/// with the text pith writes instead.
///
/// With key folding on, spec 3.3 readers use path expansion, which splits
/// every bare dotted key of identifiers. The fixture writes the literal key
/// `data.meta.items` bare beside the chain `data.meta.items`, so its text
/// reads back only as an expansion conflict. pith quotes such a literal key
/// while folding (quoted keys are never expanded), and the value reads back
/// whole. Each trial checks both halves: pith's text decodes to the input,
/// the fixture's does not.
///
/// These trials carry the kind `lossless-over-fixture` in the test listing.
const LOSSLESS_OVER_FIXTURE: &[(&str, &str)] = &[(
    "v3.3/encode/key-folding.json#4",
    "data:\n  meta:\n    items[2]: 1,2\n\"data.meta.items\": literal",
)];

fn main() {
    let args = Arguments::from_args();
    let root = spec_root();
    let mut trials = Vec::new();
    for (version, spec, pinned) in SUITES {
        let dir = root.join(version).join("tests/fixtures");
        let mut cases = 0;
        for category in ["encode", "decode"] {
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(category))
                .unwrap_or_else(|e| panic!("fixture folder {}: {e}", dir.join(category).display()))
                .map(|e| e.expect("directory entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).expect("fixture file");
                let doc: serde_json::Value = serde_json::from_str(&text).expect("fixture JSON");
                let fname = file.file_name().unwrap().to_string_lossy().into_owned();
                for (i, case) in doc["tests"]
                    .as_array()
                    .expect("tests array")
                    .iter()
                    .enumerate()
                {
                    cases += 1;
                    let id = format!("{version}/{category}/{fname}#{i}");
                    let lossless = LOSSLESS_OVER_FIXTURE
                        .iter()
                        .find(|(k, _)| *k == id)
                        .map(|&(_, text)| text);
                    let kind = if REFERENCE_DISAGREES.contains(&id.as_str()) {
                        "fixture-over-reference"
                    } else if lossless.is_some() {
                        "lossless-over-fixture"
                    } else {
                        ""
                    };
                    let name = format!("{id} {}", case["name"].as_str().unwrap_or(""));
                    let case = case.clone();
                    let is_encode = category == "encode";
                    let trial = Trial::test(name, move || {
                        if is_encode {
                            run_encode(&case, spec, lossless)
                        } else {
                            run_decode(&case, spec)
                        }
                    });
                    trials.push(trial.with_kind(kind));
                }
            }
        }
        assert_eq!(
            REFERENCE_DISAGREES
                .iter()
                .filter(|id| id.starts_with(&format!("{version}/")))
                .count(),
            match version {
                "v4.1.1" => 7,
                "v4.0" => 4,
                _ => 2,
            },
            "{version}: the list of fixtures the reference fails is out of date"
        );
        assert_eq!(
            cases,
            pinned,
            "{version}: expected {pinned} fixture cases in {}, found {cases}",
            dir.display()
        );
    }
    libtest_mimic::run(&args, trials).exit();
}

fn spec_root() -> PathBuf {
    let root = match std::env::var_os("PITH_TOON_SPEC") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/toon-spec"),
    };
    assert!(
        root.join("v4.1.1/tests/fixtures").is_dir(),
        "TOON conformance fixtures not found at {}: put the shared folder beside the checkout \
         or set PITH_TOON_SPEC",
        root.display()
    );
    root
}

fn run_encode(case: &serde_json::Value, spec: Spec, lossless: Option<&str>) -> Result<(), Failed> {
    let opts = &case["options"];
    let mut o = EncodeOptions::default().spec(spec);
    if let Some(n) = opts.get("indentSize").or(opts.get("indent")) {
        o.indent = n.as_u64().expect("indent") as usize;
    }
    if let Some(d) = opts.get("delimiter") {
        o.delimiter = match d.as_str().expect("delimiter") {
            "," => Delimiter::Comma,
            "\t" => Delimiter::Tab,
            "|" => Delimiter::Pipe,
            other => return Err(format!("unknown delimiter {other:?}").into()),
        };
    }
    if let Some(k) = opts.get("keyFolding") {
        o.key_folding = match k.as_str() {
            Some("safe") => KeyFolding::Safe,
            _ => KeyFolding::Off,
        };
    }
    if let Some(n) = opts.get("flattenDepth") {
        o.flatten_depth = n.as_u64().expect("flattenDepth") as usize;
    }
    let input = to_pith(&case["input"]);
    let got = pith::toon::encode(&input, &o);
    if case["shouldError"].as_bool() == Some(true) {
        return match got {
            Err(_) => Ok(()),
            Ok(text) => Err(format!("expected an error, got {text:?}").into()),
        };
    }
    let mut want = case["expected"].as_str().expect("expected TOON text");
    if let Some(text) = lossless {
        let expand = DecodeOptions::default()
            .spec(spec)
            .expand_paths(ExpandPaths::Safe);
        let reads = |t: &str| pith::toon::decode(t, &expand).ok() == Some(input.clone());
        if reads(want) {
            return Err("the fixture's text decodes to its input: drop it from the list".into());
        }
        if !reads(text) {
            return Err(format!("the text in place of the fixture's loses a fact:\n{text}").into());
        }
        want = text;
    }
    match got {
        Ok(text) if text == want => Ok(()),
        Ok(text) => Err(format!("encoded\n{text}\n--- expected\n{want}").into()),
        Err(e) => Err(format!("unexpected error: {e}").into()),
    }
}

fn run_decode(case: &serde_json::Value, spec: Spec) -> Result<(), Failed> {
    let opts = &case["options"];
    let mut o = DecodeOptions::default().spec(spec);
    if let Some(n) = opts.get("indentSize").or(opts.get("indent")) {
        o.indent = n.as_u64().expect("indent") as usize;
    }
    if let Some(s) = opts.get("strict") {
        o.strict = s.as_bool().expect("strict");
    }
    if let Some(e) = opts.get("expandPaths") {
        o.expand_paths = match e.as_str() {
            Some("safe") => ExpandPaths::Safe,
            _ => ExpandPaths::Off,
        };
    }
    let input = case["input"].as_str().expect("TOON input");
    let got = pith::toon::decode(input, &o);
    if case["shouldError"].as_bool() == Some(true) {
        return match got {
            Err(e) if e.line() > 0 => Ok(()),
            Err(e) => Err(format!("error without a line and column: {e}").into()),
            Ok(v) => Err(format!("expected an error, got {v:?}").into()),
        };
    }
    let want = to_pith(&case["expected"]);
    match got {
        Ok(v) if v == want => Ok(()),
        Ok(v) => Err(format!("decoded {v:?}\nexpected {want:?}").into()),
        Err(e) => Err(format!("unexpected error: {}", e.render(input)).into()),
    }
}

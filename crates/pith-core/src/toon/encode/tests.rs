//! Tests of the TOON writer: depth limits, options, streaming output,
//! tables, root forms and key folding.

use super::*;

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().collect())
}

fn arr(items: Vec<Value>) -> Value {
    Value::Array(items)
}

fn v3() -> EncodeOptions {
    EncodeOptions {
        spec: Spec::V3,
        ..EncodeOptions::default()
    }
}

#[test]
fn depth_limit_names_the_first_container_too_deep() {
    // Levels: root 1, "a" 2, "b" 3, b[1] 4.
    let doc = obj(vec![(
        "a",
        obj(vec![(
            "b",
            arr(vec![Value::from(1), arr(vec![Value::from(2)])]),
        )]),
    )]);
    let opts = |max_depth| EncodeOptions {
        max_depth,
        ..EncodeOptions::default()
    };
    assert_eq!(
        encode(&doc, &opts(4)).unwrap(),
        "a:\n  b[2]:\n    - 1\n    - [1]: 2"
    );
    let err = encode(&doc, &opts(3)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimit);
    assert_eq!(err.path(), Some("a.b[1]"));
    let err = encode(&doc, &opts(0)).unwrap_err();
    assert_eq!(err.path(), Some("$"));
    assert_eq!(encode(&Value::from(1), &opts(0)).unwrap(), "1");

    let odd = obj(vec![("x y", arr(vec![arr(vec![])]))]);
    assert_eq!(
        encode(&odd, &opts(2)).unwrap_err().path(),
        Some("[\"x y\"][0]")
    );
}

#[test]
fn depth_limit_applies_inside_tables_and_folded_chains() {
    // A table whose nested group lies beyond the limit falls back to the
    // list form, which then reports the group object.
    let row = || {
        obj(vec![
            ("id", Value::from(1)),
            ("g", obj(vec![("x", Value::from(2))])),
        ])
    };
    let doc = obj(vec![("rows", arr(vec![row(), row()]))]);
    let opts = EncodeOptions {
        max_depth: 3,
        ..EncodeOptions::default()
    };
    let err = encode(&doc, &opts).unwrap_err();
    assert_eq!(
        (err.kind(), err.path()),
        (ErrorKind::DepthLimit, Some("rows[0].g"))
    );

    let chain = obj(vec![("a", obj(vec![("b", obj(vec![("c", obj(vec![]))]))]))]);
    let opts = EncodeOptions {
        max_depth: 3,
        key_folding: KeyFolding::Safe,
        ..v3()
    };
    let err = encode(&chain, &opts).unwrap_err();
    assert_eq!(
        (err.kind(), err.path()),
        (ErrorKind::DepthLimit, Some("a.b.c"))
    );
}

#[test]
fn very_deep_values_are_refused_without_exhausting_the_stack() {
    let mut v = Value::Null;
    for _ in 0..100_000 {
        v = arr(vec![v]);
    }
    let err = encode(&v, &EncodeOptions::default()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimit);
    assert!(err.path().unwrap().starts_with("[0][0]"));
}

#[test]
fn options_that_cannot_work_are_refused() {
    let doc = obj(vec![("a", Value::from(1))]);
    let zero = EncodeOptions {
        indent: 0,
        ..EncodeOptions::default()
    };
    assert_eq!(
        encode(&doc, &zero).unwrap_err().kind(),
        ErrorKind::Indentation
    );
    let fold_v4 = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..EncodeOptions::default()
    };
    assert_eq!(
        encode(&doc, &fold_v4).unwrap_err().kind(),
        ErrorKind::Unrepresentable
    );
}

#[test]
fn encode_into_appends_and_leaves_the_buffer_alone_on_error() {
    let mut out = b"head\n".to_vec();
    encode_into(
        &obj(vec![("a", Value::from(1))]),
        &EncodeOptions::default(),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, b"head\na: 1");
    let deep = arr(vec![arr(vec![])]);
    let opts = EncodeOptions {
        max_depth: 1,
        ..EncodeOptions::default()
    };
    assert!(encode_into(&deep, &opts, &mut out).is_err());
    assert_eq!(out, b"head\na: 1");
}

/// Records the size of every write.
struct Recorder {
    bytes: Vec<u8>,
    writes: Vec<usize>,
    flushed: bool,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        self.writes.push(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.flushed = true;
        Ok(())
    }
}

#[test]
fn encode_to_streams_in_chunks_and_matches_encode() {
    let rows: Vec<Value> = (0..20_000)
        .map(|i| {
            obj(vec![
                ("id", Value::from(i)),
                ("name", Value::from("row name")),
            ])
        })
        .collect();
    let mixed: Vec<Value> = (0..5_000)
        .map(|i| {
            obj(vec![
                ("k", Value::from(i)),
                ("tags", arr(vec![Value::from("x")])),
            ])
        })
        .collect();
    let inline: Vec<Value> = (0..50_000).map(Value::from).collect();
    let doc = obj(vec![
        ("rows", arr(rows)),
        ("mixed", arr(mixed)),
        ("inline", arr(inline)),
    ]);
    let opts = EncodeOptions::default();
    let mut rec = Recorder {
        bytes: Vec::new(),
        writes: Vec::new(),
        flushed: false,
    };
    encode_to(&doc, &opts, &mut rec).unwrap();
    assert_eq!(rec.bytes, encode(&doc, &opts).unwrap().as_bytes());
    assert!(rec.flushed);
    assert!(rec.writes.len() > 10, "{} writes", rec.writes.len());
    // A chunk is written as soon as it is full, at a line or cell boundary.
    assert!(
        rec.writes.iter().all(|&n| n < CHUNK + 1_000),
        "{:?}",
        rec.writes
    );
}

#[test]
fn encode_to_reports_write_errors() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let err = encode_to(&Value::from("x"), &EncodeOptions::default(), Broken).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.message().contains("disk full"));
}

#[test]
fn tables_take_the_first_rows_field_order_and_fall_back_at_a_late_misfit() {
    let doc = arr(vec![
        obj(vec![("a", Value::from(1)), ("b", Value::from(2))]),
        obj(vec![("b", Value::from(4)), ("a", Value::from(3))]),
    ]);
    assert_eq!(
        encode(&doc, &EncodeOptions::default()).unwrap(),
        "[2]{a,b}:\n  1,2\n  3,4"
    );
    let mut rows: Vec<Value> = (0..50).map(|i| obj(vec![("a", Value::from(i))])).collect();
    rows.push(obj(vec![("a", arr(vec![]))]));
    let text = encode(&arr(rows), &EncodeOptions::default()).unwrap();
    assert!(text.starts_with("[51]:\n  - a: 0\n"), "{text}");
    assert!(text.ends_with("\n  - a: []"), "{text}");
}

#[test]
fn root_forms() {
    let d = EncodeOptions::default();
    assert_eq!(encode(&obj(vec![]), &d).unwrap(), "");
    assert_eq!(encode(&arr(vec![]), &d).unwrap(), "[]");
    assert_eq!(encode(&Value::from(""), &d).unwrap(), "\"\"");
    assert_eq!(
        encode(&Value::from("\u{feff}x"), &d).unwrap(),
        "\"\u{feff}x\""
    );
    assert_eq!(encode(&Value::Null, &d).unwrap(), "null");
    let keyed = obj(vec![
        ("a", obj(vec![("x", Value::from(1))])),
        ("b", obj(vec![("x", Value::from(2))])),
    ]);
    assert_eq!(encode(&keyed, &d).unwrap(), "[2:]{x}:\n  a: 1\n  b: 2");
    assert_eq!(encode(&keyed, &v3()).unwrap(), "a:\n  x: 1\nb:\n  x: 2");
}

#[test]
fn folding_in_list_items_avoids_the_first_key_too() {
    // Spec 3.3 §13.4: a folded key must not equal any sibling key. The first
    // field of a list item is a sibling of the others.
    let item = obj(vec![
        ("a.b", Value::from(1)),
        ("a", obj(vec![("b", Value::from(2))])),
        ("c", obj(vec![("d", Value::from(3))])),
    ]);
    let opts = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..v3()
    };
    assert_eq!(
        encode(&arr(vec![item]), &opts).unwrap(),
        "[1]:\n  - \"a.b\": 1\n    a:\n      b: 2\n    c.d: 3"
    );
}

#[test]
fn folding_avoids_dotted_root_keys_along_the_path() {
    let doc = obj(vec![
        (
            "x",
            obj(vec![
                ("y", Value::from(1)),
                ("a", obj(vec![("b", Value::from(2))])),
                ("c", obj(vec![("d", Value::from(3))])),
            ]),
        ),
        ("x.a.b", Value::from(4)),
    ]);
    let opts = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..v3()
    };
    assert_eq!(
        encode(&doc, &opts).unwrap(),
        "x:\n  y: 1\n  a:\n    b: 2\n  c.d: 3\n\"x.a.b\": 4"
    );
}

/// Spec 3.3 path expansion splits every bare dotted key of identifiers, so
/// while folding a literal one is written quoted wherever a key is written:
/// member, list item, table field, empty and inline arrays. Without folding
/// nothing is expanded and such keys stay bare, as 2.3.1 writes them.
#[test]
fn folding_quotes_literal_keys_that_expansion_would_split() {
    let row = |n: i64| obj(vec![("p.q", Value::from(n)), ("r", Value::from(n))]);
    let doc = obj(vec![
        ("a", obj(vec![("b", Value::from(1))])),
        ("c.d", Value::from(2)),
        ("rows", arr(vec![row(1), row(2)])),
        (
            "items",
            arr(vec![
                obj(vec![("m.n", arr(vec![Value::from(1)])), ("k", Value::Null)]),
                obj(vec![("s.t", obj(vec![("u", Value::from(3))]))]),
                obj(vec![("e.f", arr(vec![]))]),
            ]),
        ),
        ("a.1", Value::from(4)),
        ("a..b", Value::from(5)),
    ]);
    let folding = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..v3()
    };
    let text = encode(&doc, &folding).unwrap();
    assert_eq!(
        text,
        "a.b: 1\n\"c.d\": 2\nrows[2]{\"p.q\",r}:\n  1,1\n  2,2\nitems[3]:\n  \
         - \"m.n\"[1]: 1\n    k: null\n  - \"s.t\":\n      u: 3\n  - \"e.f\": []\na.1: 4\na..b: 5"
    );
    let expand = crate::toon::DecodeOptions {
        spec: Spec::V3,
        expand_paths: crate::toon::ExpandPaths::Safe,
        ..Default::default()
    };
    assert_eq!(crate::toon::decode(&text, &expand).unwrap(), doc);

    let plain = encode(&doc, &v3()).unwrap();
    assert!(
        plain.contains("\nc.d: 2\n") && plain.contains("{p.q,r}"),
        "{plain}"
    );
}

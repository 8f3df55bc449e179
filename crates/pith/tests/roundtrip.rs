//! The fact-preservation contract, property-tested: for arbitrary values,
//! every delimiter and indents 1–4, `decode(encode(x)) == x`, where numbers
//! compare by exact value and only the objects that a table may reorder
//! (elements of arrays of objects, values of objects of objects) may come
//! back with their keys in another order. Same for JSON text.

use pith::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding, Spec};
use pith::{Number, Value};
use proptest::prelude::*;

#[path = "support/gen.rs"]
mod generate;
use generate::object;

use pith::equiv::equivalent as same;

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        // Exact decimals no f64 holds: long digit runs and wide exponents.
        (
            any::<bool>(),
            "[1-9][0-9]{0,40}",
            proptest::option::of("[0-9]{1,30}"),
            -400i64..400
        )
            .prop_map(|(neg, int, frac, exp)| {
                generate::literal(neg, &int, frac.as_deref(), Some(exp))
            }),
    ]
}

/// Strings that look like other things, or need quotes.
fn string() -> impl Strategy<Value = String> {
    generate::string_from(
        vec![
            "",
            " ",
            "true",
            "false",
            "null",
            "42",
            "-1",
            "1e5",
            "05",
            "+1",
            "-",
            "- x",
            "#",
            "#tag",
            "a:b",
            "a,b",
            "a|b",
            "a\tb",
            "[1]",
            "{x}",
            "\"q\"",
            "back\\slash",
            "line\nbreak",
            "\r",
            "\u{0}",
            "\u{1f}",
            "[]",
            "{}",
            "[2]: a,b",
            "key: value",
            " lead",
            "trail ",
            "__proto__",
            "constructor",
            "a.b.c",
            "日本語",
            "🎉👩‍👩‍👧",
            "\u{feff}",
            "\u{2028}",
        ],
        "[a-z_][a-z0-9_.]{0,8}",
    )
}

fn value() -> impl Strategy<Value = Value> {
    generate::leaf(number(), string()).prop_recursive(6, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((string(), inner.clone()), 0..8).prop_map(object),
            // Uniform rows, so that tables and keyed tables are exercised.
            (
                prop::collection::vec(string(), 1..4),
                prop::collection::vec(prop::collection::vec(inner.clone(), 4), 1..6)
            )
                .prop_map(|(keys, rows)| {
                    Value::Array(
                        rows.into_iter()
                            .map(|cells| object(keys.iter().cloned().zip(cells).collect()))
                            .collect(),
                    )
                }),
            (
                prop::collection::vec(string(), 2..5),
                prop::collection::vec(string(), 1..3),
                prop::collection::vec(inner, 12)
            )
                .prop_map(|(entries, fields, cells)| {
                    let mut cells = cells.into_iter().cycle();
                    object(
                        entries
                            .into_iter()
                            .map(|e| {
                                let row = fields
                                    .iter()
                                    .map(|f| (f.clone(), cells.next().unwrap_or(Value::Null)))
                                    .collect();
                                (e, object(row))
                            })
                            .collect(),
                    )
                }),
        ]
    })
}

const DELIMITERS: [Delimiter; 3] = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe];

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn toon_round_trips(v in value(), d in 0usize..3, indent in 1usize..=4) {
        let enc = EncodeOptions::default().indent(indent).delimiter(DELIMITERS[d]);
        let text = pith::toon::encode(&v, &enc).expect("encodes");
        let dec = DecodeOptions::default().indent(indent);
        let back = pith::toon::decode(&text, &dec)
            .unwrap_or_else(|e| panic!("{}\n--- text:\n{text}", e.render(&text)));
        prop_assert!(same(&v, &back), "value {v:?}\ntext:\n{text}\nback {back:?}");
    }

    #[test]
    fn toon3_round_trips_with_key_folding(v in value(), d in 0usize..3, indent in 1usize..=4) {
        // Literal keys such as `a.b` included: folding writes them quoted.
        let enc = EncodeOptions::default().indent(indent).delimiter(DELIMITERS[d]).spec(Spec::V3).key_folding(KeyFolding::Safe);
        let text = pith::toon::encode(&v, &enc).expect("encodes");
        let dec = DecodeOptions::default().indent(indent).spec(Spec::V3).expand_paths(ExpandPaths::Safe);
        let back = pith::toon::decode(&text, &dec)
            .unwrap_or_else(|e| panic!("{}\n--- text:\n{text}", e.render(&text)));
        prop_assert!(same(&v, &back), "value {v:?}\ntext:\n{text}\nback {back:?}");
    }

    #[test]
    fn json_round_trips(v in value()) {
        let text = pith::json::stringify(&v);
        prop_assert_eq!(&pith::json::parse(&text).expect("parses"), &v);
        let pretty = pith::json::stringify_pretty(&v, 2);
        prop_assert_eq!(&pith::json::parse(&pretty).expect("parses"), &v);
    }
}

#[test]
fn the_equivalence_check_catches_lost_facts() {
    let v =
        pith::json::parse(r#"{"rows":[{"a":1,"b":null},{"a":2,"b":[]}],"k":{"x":{}}}"#).unwrap();
    let lost = [
        r#"{"rows":[{"a":1},{"a":2,"b":[]}],"k":{"x":{}}}"#,
        r#"{"rows":[{"a":1,"b":null},{"a":2,"b":[]}],"k":{"x":null}}"#,
        r#"{"rows":[{"a":1,"b":null}],"k":{"x":{}}}"#,
        r#"{"rows":[{"a":1,"b":null},{"a":2,"b":{}}],"k":{"x":{}}}"#,
        r#"{"k":{"x":{}},"rows":[{"a":1,"b":null},{"a":2,"b":[]}]}"#,
        r#"{"rows":[{"a":1,"b":null},{"a":2.5,"b":[]}],"k":{"x":{}}}"#,
    ];
    for text in lost {
        let w = pith::json::parse(text).unwrap();
        assert!(!same(&v, &w), "missed a lost fact: {text}");
    }
    let reordered =
        pith::json::parse(r#"{"rows":[{"a":1,"b":null},{"b":[],"a":2}],"k":{"x":{}}}"#).unwrap();
    assert!(same(&v, &reordered), "table rows may reorder keys");
}

/// Inputs the `encode_forms` fuzz target found losing a fact: spec 3.3 with
/// key folding, read back with path expansion, split literal dotted keys.
#[test]
fn key_folding_keeps_literal_dotted_keys() {
    let enc = EncodeOptions::default()
        .spec(Spec::V3)
        .key_folding(KeyFolding::Safe);
    let dec = DecodeOptions::default()
        .spec(Spec::V3)
        .expand_paths(ExpandPaths::Safe);
    for json in [
        r#"{"user.name":"Ada"}"#,
        r#"{"a":{"b":1},"c.d":2}"#,
        r#"{"data":{"meta":{"items":[1,2]}},"data.meta.items":"literal"}"#,
        r#"[{"x.y":1,"z":2},{"x.y":3,"z":4}]"#,
    ] {
        let v = pith::json::parse(json).unwrap();
        let text = pith::toon::encode(&v, &enc).unwrap();
        let back = pith::toon::decode(&text, &dec)
            .unwrap_or_else(|e| panic!("{json}: {}", e.render(&text)));
        assert!(same(&v, &back), "{json}\n--- text:\n{text}\nback {back:?}");
    }
}

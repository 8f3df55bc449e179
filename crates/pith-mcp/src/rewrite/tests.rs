//! Tests of the one rewrite path: which texts become tables or compact
//! JSON, thresholds, exact numbers, budgets, and that every rewrite reads back.

use super::*;
use crate::options::DEFAULT_MIN_SAVING;
use pith::tokens::TokenizerKind;

fn opts() -> RewriteOptions {
    RewriteOptions::default()
}

/// A pretty-printed list of uniform records, like the memory server's.
pub(crate) fn records(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "  {{\n    \"name\": \"entity-{i}\",\n    \"entityType\": \"person\",\n    \"score\": {i}.5\n  }}"
            )
        })
        .collect();
    format!("[\n{}\n]", rows.join(",\n"))
}

fn parse(text: &str) -> Value {
    pith::json::parse(text).unwrap()
}

#[test]
fn uniform_records_become_a_table() {
    // A root table: in the notation its rows stand at indentation 0, and
    // the column every row shares is declared once.
    let text = records(20);
    let r = rewrite_text(&text, &opts()).expect("worth rewriting");
    assert_eq!(r.encoding, Encoding::Pith);
    assert!(
        r.text
            .starts_with("%pith\n[20]{name,entityType=person,score}:\nentity-0,.5\n"),
        "{}",
        r.text
    );
    assert!(r.tokens_after + DEFAULT_MIN_SAVING <= r.tokens_before);
    let back = pith::select::decode(r.text.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(back, parse(&text));
}

#[test]
fn pretty_json_that_toon_does_not_shrink_becomes_compact_json() {
    // Deep, irregular nesting: TOON's indentation costs more than braces.
    let mut v = String::from("0");
    for i in 0..12 {
        v = format!("{{\n  \"k{i}\": [\n    {v},\n    {{\"x{i}\": [1, {{}}, []]}}\n  ]\n}}");
    }
    let r = rewrite_text(&v, &opts()).expect("compact JSON saves the whitespace");
    assert_eq!(r.encoding, Encoding::Json);
    assert_eq!(r.text, pith::json::stringify(&parse(&v)));
}

#[test]
fn exact_numbers_and_lookalike_strings_survive() {
    let text = r#"[
  {"id": 9007199254740993, "v": 1e400, "s": "true", "n": null, "e": [], "o": {}},
  {"id": 2, "v": 0.1000000000000000055511, "s": "42", "n": null, "e": [], "o": {}},
  {"id": 3, "v": -1.5e-300, "s": "null", "n": null, "e": [], "o": {}}
]"#;
    let r = rewrite_text(text, &opts().min_saving(1)).expect("saves");
    assert!(reads_back(&r.text, &parse(text)));
}

#[test]
fn what_is_left_alone() {
    let o = opts();
    // Not JSON, JSON pith refuses, scalars, and small documents.
    for text in [
        "hello",
        "Created 3 entities",
        r#"{"a":1,"a":2}"#,
        r#"["\ud800"]"#,
        "42",
        r#""a string""#,
        "true",
        "{\"a\":1}",
        "[1,2,3]",
        "",
        "   ",
    ] {
        assert_eq!(rewrite_text(text, &o), None, "{text:?}");
    }
    // Already minimal compact JSON with nothing TOON can fold.
    let compact = r#"{"a":{"b":{"c":[1,{"d":[2,{"e":3}]}]}}}"#;
    assert_eq!(rewrite_text(compact, &o), None);
}

#[test]
fn min_saving_and_max_bytes_are_thresholds() {
    let text = records(20);
    let r = rewrite_text(&text, &opts()).unwrap();
    let saving = r.tokens_before - r.tokens_after;
    let exact = opts().min_saving(saving);
    assert!(rewrite_text(&text, &exact).is_some());
    let above = opts().min_saving(saving + 1);
    assert_eq!(rewrite_text(&text, &above), None);
    let small = opts().max_bytes(text.len() - 1);
    assert_eq!(rewrite_text(&text, &small), None);
    let zero = opts().min_saving(0);
    // Zero still means "saves at least one token".
    assert_eq!(rewrite_text("[]", &zero), None);
    assert_eq!(rewrite_text("{}", &zero), None);
    assert_eq!(rewrite_text("{ }", &zero).unwrap().text, "{}");
    let r = rewrite_text("{\"a\":1}", &zero).unwrap();
    assert_eq!(
        (r.text.as_str(), r.tokens_before, r.tokens_after),
        ("a: 1", 5, 4)
    );
}

#[test]
fn bytes4_counts_too() {
    let o = opts().tokenizer(TokenizerKind::Bytes4);
    let r = rewrite_text(&records(20), &o).unwrap();
    assert_eq!(r.tokens_before, records(20).len().div_ceil(4));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "-?(0|[1-9][0-9]{0,19})(\\.[0-9]{1,20})?(e[+-]?[0-9]{1,3})?"
                .prop_map(|s| pith::json::parse(&s).unwrap()),
            any::<String>().prop_map(Value::String),
            prop::sample::select(vec![
                "", "true", "null", "42", "a: b", "- x", "[1]", "\"q\"", "a,b"
            ])
            .prop_map(Value::from),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("[a-z ]{0,6}", inner.clone()), 0..6).prop_map(|kv| {
                    let mut m = Map::new();
                    for (k, v) in kv {
                        m.insert(k, v);
                    }
                    Value::Object(m)
                }),
                // Uniform records, the shape rewrites are for.
                (
                    prop::collection::vec("[a-z]{1,5}", 1..4),
                    prop::collection::vec(prop::collection::vec(inner, 3), 1..8),
                )
                    .prop_map(|(keys, rows)| {
                        Value::Array(
                            rows.into_iter()
                                .map(|cells| {
                                    let mut m = Map::new();
                                    for (k, v) in keys.iter().zip(cells) {
                                        m.insert(k.clone(), v);
                                    }
                                    Value::Object(m)
                                })
                                .collect(),
                        )
                    }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever is rewritten decodes to exactly what was there.
        #[test]
        fn rewrites_are_lossless(v in value(), pretty in any::<bool>()) {
            let text = if pretty {
                pith::json::stringify_pretty(&v, 2)
            } else {
                pith::json::stringify(&v)
            };
            let o = RewriteOptions::default().min_saving(0);
            if let Some(r) = rewrite_text(&text, &o) {
                prop_assert!(reads_back(&r.text, &v), "{}", r.text);
                prop_assert!(r.tokens_after < r.tokens_before);
            }
        }
    }
}

#[test]
fn a_budget_cuts_rows_with_receipts_and_leaves_small_texts_alone() {
    let text = records(200);
    let o = opts().budget(Some(150));
    let r = rewrite_text(&text, &o).expect("cut to fit");
    assert!(r.tokens_after <= 150, "{} tokens", r.tokens_after);
    let Some(Cut::Rows { omitted }) = r.cut else {
        panic!("expected a row cut, got {:?}", r.cut);
    };
    // The receipts say exactly which rows are shown: a prefix of the 200.
    let back = pith::select::decode(r.text.as_bytes(), &DecodeOptions::default()).unwrap();
    let original = parse(&text);
    let shown = back
        .get("result")
        .and_then(Value::as_array)
        .expect("a root array is shown under `result`");
    assert_eq!(shown.len() + omitted, 200);
    for (i, row) in shown.iter().enumerate() {
        assert!(pith::equiv::equivalent(
            &original.as_array().unwrap()[i],
            row
        ));
    }
    let receipt = back.get("result_omitted").expect("omission receipt");
    assert_eq!(receipt.get("omitted"), Some(&Value::from(omitted)));
    assert_eq!(
        back.get("read_output").and_then(|r| r.get("fits")),
        Some(&Value::Bool(true))
    );

    // Under the budget: the same rewrite as without one.
    let small = records(5);
    assert_eq!(
        rewrite_text(&small, &o),
        rewrite_text(&small, &opts()),
        "no cut below the budget"
    );

    // Nothing fits: the explicit notice, never an empty answer.
    let tiny = opts().budget(Some(3));
    let r = rewrite_text(&text, &tiny).expect("a notice");
    assert!(matches!(r.cut, Some(Cut::Exceeded { .. })));
    assert!(r.text.contains("output_budget_exceeded"), "{}", r.text);
}

#[test]
fn a_cut_text_is_named_by_the_notation_it_is_written_in() {
    // Rows carrying arrays and objects: auto writes them in the notation
    // (a table with flow cells and a named owner), cut or not.
    let rows: Vec<String> = (0..200)
        .map(|i| {
            format!(
                r#"{{"id":{i},"title":"issue {i}","labels":["bug","p{}"],"owner":{{"login":"ada","id":7}}}}"#,
                i % 3
            )
        })
        .collect();
    let text = format!(r#"{{"issues":[{}]}}"#, rows.join(","));
    let whole = rewrite_text(&text, &opts()).expect("worth rewriting");
    assert_eq!(whole.encoding, Encoding::Pith, "{}", whole.text);
    let o = opts().budget(Some(whole.tokens_after / 2));
    let cut = rewrite_text(&text, &o).expect("cut to fit");
    assert!(matches!(cut.cut, Some(Cut::Rows { .. })), "{:?}", cut.cut);
    assert!(cut.text.starts_with("%pith\n"), "{}", cut.text);
    assert_eq!(cut.encoding, Encoding::Pith);

    let tiny = opts().budget(Some(3));
    let notice = rewrite_text(&text, &tiny).expect("a notice");
    assert!(matches!(notice.cut, Some(Cut::Exceeded { .. })));
    // The notice is one small object, cheapest as compact JSON.
    assert!(notice.text.starts_with('{'), "{}", notice.text);
    assert_eq!(notice.encoding, Encoding::Json);
}

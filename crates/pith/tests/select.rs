//! The fact-preservation contract for every form pith writes, including
//! `auto`: for arbitrary values, adversarial ones included (objects shaped
//! like tables or their metadata, wrapper-shaped roots, strings holding JSON
//! or TOON text, sparse rows), `decode(encode(x))` is equivalent to `x`;
//! `auto` never costs more than compact JSON or plain TOON; and the
//! equivalence check itself catches a lost fact.

use pith::equiv::{difference, equivalent};
use pith::select::{Choice, Form, Metric, Options, Syntax, TableForm, decode, encode};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions};
use pith::{ErrorKind, Map, Value};
use proptest::prelude::*;

#[path = "support/gen.rs"]
mod generate;
use generate::object;

fn string() -> impl Strategy<Value = String> {
    generate::look_alike(
        &[
            "[1]",
            "{}",
            "[]",
            "{\"cols\":[],\"dict\":{},\"rows\":[]}",
            "{\"a\":[],\"a_encoding\":{\"json_columns\":[]}}",
            "items[2]{id}:\n  1\n  2",
            "json_columns[0]:",
            "- x",
            "a,b",
            "a|b",
            "x\ty",
            "line\nbreak",
            "\u{8}",
            "\u{c}",
            "don't",
            "café",
            "🎉",
            "\\",
            "\\u0008",
            "#",
            "$pith",
            ".5",
            "-.5",
            "value",
            "cols",
            "dict",
            "rows",
            "absent",
            "items",
            "items_encoding",
        ],
        "[a-z]{1,5}",
    )
}

fn primitive() -> impl Strategy<Value = Value> {
    generate::primitive(string())
}

fn obj(entries: &[(&str, Value)]) -> Value {
    object(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

/// A row: most keys common to all rows, some sparse, some in another
/// order; cells are mostly primitives and lists of them.
fn row(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    let cell = prop_oneof![
        4 => inner.clone(),
        3 => prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
        2 => (inner.clone(), inner.clone()).prop_map(|(id, s)| obj(&[("id", id), ("s", s)])),
        1 => prop::collection::vec(prop::collection::vec(inner, 0..2).prop_map(Value::Array), 0..2).prop_map(Value::Array),
    ];
    let extra = prop::sample::select(vec![
        "note",
        "a b",
        "",
        "rows",
        "cols",
        "dict",
        "x_encoding",
    ]);
    (
        prop::collection::vec(cell.clone(), 3),
        prop::collection::vec((extra, cell), 0..2),
        any::<bool>(),
    )
        .prop_map(|(common, extras, swap)| {
            let mut keys = vec!["id", "tags", "owner"];
            if swap {
                keys.swap(0, 2);
            }
            let mut m: Map = keys.into_iter().zip(common).collect();
            for (k, v) in extras {
                m.insert(k, v);
            }
            Value::Object(m)
        })
}

/// A member `items` holding rows, sometimes beside a producer's own
/// `items_encoding`.
fn collection(
    inner: BoxedStrategy<Value>,
    rows: std::ops::Range<usize>,
) -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(row(inner.clone()), rows),
        prop::option::weighted(0.1, inner),
        prop::collection::vec((string(), primitive()), 0..3),
    )
        .prop_map(|(rows, own, others)| {
            let mut m: Map = others.into_iter().collect();
            m.insert("items", Value::Array(rows));
            if let Some(own) = own {
                m.insert("items_encoding", own);
            }
            Value::Object(m)
        })
}

/// The `$pith` member of a wrapper-shaped object: the name of a form, some
/// other string, or any value.
fn wrapper_tag(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(Form::ALL.map(Form::name).to_vec()).prop_map(Value::from),
        string().prop_map(Value::String),
        inner,
    ]
}

/// Values with collections worth hoisting, and now and then a look-alike.
fn value() -> impl Strategy<Value = Value> {
    primitive().prop_recursive(5, 96, 6, move |inner| {
        let inner = inner.boxed();
        prop_oneof![
            8 => prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            8 => prop::collection::vec((string(), inner.clone()), 0..6).prop_map(object),
            8 => collection(inner.clone(), 2..8),
            // Look-alikes: a columnar table, hoisted metadata, a wrapper.
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, d, r)| obj(&[("cols", c), ("dict", d), ("rows", r)])),
            1 => (prop::collection::vec(inner.clone(), 0..3), inner.clone()).prop_map(|(rows, j)| {
                obj(&[("t", Value::Array(rows)), ("t_encoding", obj(&[("json_columns", j)]))])
            }),
            // A wrapper's shape: a form's name or any other tag, either key first.
            1 => (wrapper_tag(inner.clone()), inner, any::<bool>()).prop_map(|(tag, v, flip)| {
                if flip {
                    obj(&[("value", v), ("$pith", tag)])
                } else {
                    obj(&[("$pith", tag), ("value", v)])
                }
            }),
        ]
    })
}

/// Documents that are mostly one larger collection, its columns each of
/// one kind (words, numbers, lists of words, small objects), some cells
/// absent or null: where hoisting pays.
fn document() -> impl Strategy<Value = Value> {
    (prop::collection::vec(0usize..5, 2..6), 6usize..24)
        .prop_flat_map(|(kinds, n)| {
            let word = || "[a-z]{1,8}( [a-z]{1,6})?".prop_map(Value::from).boxed();
            let cells: Vec<BoxedStrategy<Option<Value>>> = kinds
                .iter()
                .map(|&k| {
                    let cell = match k {
                        0 => word(),
                        1 => (0u32..100_000).prop_map(Value::from).boxed(),
                        2 => prop::collection::vec(word(), 0..4)
                            .prop_map(Value::Array)
                            .boxed(),
                        3 => (0u32..9999, word())
                            .prop_map(|(id, login)| {
                                obj(&[("id", Value::from(id)), ("login", login)])
                            })
                            .boxed(),
                        _ => primitive().boxed(),
                    };
                    prop_oneof![
                        16 => cell.prop_map(Some),
                        1 => Just(Some(Value::Null)),
                        2 => Just(None),
                    ]
                    .boxed()
                })
                .collect();
            let row = cells.prop_map(|cells| {
                let mut m = Map::new();
                for (j, c) in cells.into_iter().enumerate() {
                    if let Some(c) = c {
                        m.insert(format!("c{j}"), c);
                    }
                }
                Value::Object(m)
            });
            (
                prop::collection::vec(row, n),
                prop::collection::vec((string(), primitive()), 0..3),
            )
        })
        .prop_map(|(rows, others)| {
            let mut m: Map = others.into_iter().collect();
            m.insert("items", Value::Array(rows));
            Value::Object(m)
        })
}

fn opts(form: Form, metric: Metric) -> Options {
    Options::default()
        .form(form)
        .metric(metric)
        .toon(EncodeOptions::default())
}

fn round_trip(v: &Value, o: &Options) -> Result<(), TestCaseError> {
    let out = encode(v, o).map_err(|e| TestCaseError::fail(format!("encode: {e}")))?;
    let back = decode(out.text.as_bytes(), &DecodeOptions::default())
        .map_err(|e| TestCaseError::fail(format!("decode {:?}: {e}\n{}", o.form, out.text)))?;
    prop_assert!(
        equivalent(v, &back),
        "{:?} {:?}: {:?}\n--- text:\n{}",
        o.form,
        o.metric,
        difference(v, &back),
        out.text
    );
    Ok(())
}

/// Panics unless `v`, encoded in `form` by `metric`, decodes to an
/// equivalent value.
fn assert_round_trips(v: &Value, form: Form, metric: Metric) {
    if let Err(e) = round_trip(v, &opts(form, metric)) {
        panic!("{e}");
    }
}

fn o200k() -> &'static Tokenizer {
    Tokenizer::get(TokenizerKind::O200k)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 768, ..ProptestConfig::default() })]

    #[test]
    fn every_form_round_trips(v in value()) {
        for form in Form::ALL {
            round_trip(&v, &opts(form, Metric::Tokens(TokenizerKind::O200k)))?;
        }
        round_trip(&v, &opts(Form::Auto, Metric::Bytes))?;
        round_trip(&v, &opts(Form::Auto, Metric::Tokens(TokenizerKind::Cl100k)))?;
        round_trip(&v, &opts(Form::Auto, Metric::Tokens(TokenizerKind::Bytes4)))?;
    }

    #[test]
    fn auto_is_never_larger_than_json_or_toon(v in value()) {
        let json = encode(&v, &opts(Form::Json, Metric::Bytes)).expect("json").text;
        let toon = encode(&v, &opts(Form::Toon, Metric::Bytes)).expect("toon").text;
        for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
            let t = Tokenizer::get(kind);
            let auto = encode(&v, &opts(Form::Auto, Metric::Tokens(kind))).expect("auto").text;
            prop_assert!(t.count(&auto) <= t.count(&json), "{kind}: {auto}\nvs\n{json}");
            prop_assert!(t.count(&auto) <= t.count(&toon), "{kind}: {auto}\nvs\n{toon}");
        }
        let auto = encode(&v, &opts(Form::Auto, Metric::Bytes)).expect("auto").text;
        prop_assert!(auto.len() <= json.len() && auto.len() <= toon.len());
    }

    #[test]
    fn collections_round_trip_and_auto_stays_smallest(v in document()) {
        for form in Form::ALL {
            round_trip(&v, &opts(form, Metric::Tokens(TokenizerKind::O200k)))?;
        }
        round_trip(&v, &opts(Form::Auto, Metric::Bytes))?;
        let json = encode(&v, &opts(Form::Json, Metric::Bytes)).expect("json").text;
        let toon = encode(&v, &opts(Form::Toon, Metric::Bytes)).expect("toon").text;
        let auto = encode(&v, &opts(Form::Auto, Metric::default())).expect("auto").text;
        prop_assert!(o200k().count(&auto) <= o200k().count(&json).min(o200k().count(&toon)));
    }

    #[test]
    fn other_layouts_round_trip(v in value(), d in 0usize..3, indent in 1usize..=4) {
        let toon = EncodeOptions::default().indent(indent).delimiter([Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe][d]);
        for form in [Form::Auto, Form::HoistedCompact, Form::Hoisted] {
            let o = Options::default().form(form).metric(Metric::Tokens(TokenizerKind::O200k)).toon(toon.clone());
            let out = encode(&v, &o).expect("encodes");
            let dec = DecodeOptions::default().indent(indent);
            let back = decode(out.text.as_bytes(), &dec)
                .map_err(|e| TestCaseError::fail(format!("{e}\n{}", out.text)))?;
            prop_assert!(equivalent(&v, &back), "{:?}\n{}", difference(&v, &back), out.text);
        }
    }
}

#[test]
fn look_alikes_are_wrapped_and_read_back_verbatim() {
    let cases = [
        r#"{"cols":[],"dict":{},"rows":[]}"#,
        r#"{"x":{"rows":[[1]],"cols":["a"],"dict":{"a":["z"]},"absent":{}}}"#,
        r#"{"items":[{"a":1}],"items_encoding":{"json_columns":[],"absent":[]}}"#,
        r#"{"items":[],"items_encoding":{"json_columns":"not even an array"}}"#,
        r#"{"$pith":"auto","value":1}"#,
        r#"{"value":[],"$pith":"nonsense"}"#,
    ];
    for text in cases {
        let v = pith::json::parse(text).unwrap();
        for form in Form::ALL {
            let out = encode(&v, &opts(form, Metric::default())).unwrap();
            // The notation and compact JSON text restore nothing, so they
            // write look-alikes as they are (the `table` form too: it plans
            // no tables then); TOON wraps them.
            let verbatim = match out.syntax {
                Syntax::Pith { .. } | Syntax::Json => true,
                Syntax::Toon => false,
            };
            if out.syntax == Syntax::Json {
                assert_eq!(out.text, text, "{form}");
            }
            assert!(out.wrapped != verbatim, "{form}: {text}\n{}", out.text);
            assert!(form != Form::Pith || matches!(out.syntax, Syntax::Pith { .. }));
            assert!(out.tables.is_empty());
            let back = decode(out.text.as_bytes(), &DecodeOptions::default()).unwrap();
            assert_eq!(back, v, "{form}: {}", out.text);
        }
    }
}

#[test]
fn the_marker_alone_is_the_notation_with_or_without_its_line_feed() {
    // The text `%pith`, with a final line feed or without, is the notation's
    // empty document; TOON would write the string `%pith` so, and every form
    // quotes it instead, so that saving a text with or without a final line
    // feed never changes what it reads as.
    let dec = DecodeOptions::default();
    for text in ["%pith", "%pith\n"] {
        assert_eq!(
            decode(text.as_bytes(), &dec).unwrap(),
            Value::Object(Map::new())
        );
    }
    let e = decode(b"%pith\r\na: 1\r\n", &dec).unwrap_err();
    assert!(e.to_string().contains("carriage return"), "{e}");
    let v = Value::from("%pith");
    for form in Form::ALL {
        for metric in [Metric::Bytes, Metric::default()] {
            let out = encode(&v, &opts(form, metric)).unwrap();
            for text in [out.text.clone(), format!("{}\n", out.text)] {
                let back = decode(text.as_bytes(), &dec).unwrap();
                assert_eq!(back, v, "{form}: {text:?}");
            }
        }
    }
}

#[test]
fn wrapper_shaped_roots_cost_no_more_than_their_json() {
    // Each was written inside a wrapper by `auto` and cost more than its
    // own compact JSON (the first: 19 o200k tokens against 16).
    let cases = [
        r#"{"value":9007199254740993,"$pith":null}"#,
        r#"{"$pith":"table","value":1}"#,
        r#"{"$pith":"json","value":{"cols":["a"],"dict":{},"rows":[[1]]}}"#,
        r#"{"$pith":"auto","value":{"$pith":"auto","value":[]}}"#,
        r#"{"$pith":"zip","value":"x"}"#,
    ];
    for text in cases {
        let v = pith::json::parse(text).unwrap();
        for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
            let t = Tokenizer::get(kind);
            let out = encode(&v, &opts(Form::Auto, Metric::Tokens(kind))).unwrap();
            assert!(
                t.count(&out.text) <= t.count(text),
                "{kind}: {text}\n{}",
                out.text
            );
            let back = decode(out.text.as_bytes(), &DecodeOptions::default()).unwrap();
            assert_eq!(back, v, "{kind}: {}", out.text);
        }
        // Compact JSON, whatever it holds, is read back as it is.
        let json = encode(&v, &opts(Form::Json, Metric::Bytes)).unwrap();
        assert_eq!((json.text.as_str(), json.wrapped), (text, false));
        let back = decode(text.as_bytes(), &DecodeOptions::default()).unwrap();
        assert_eq!(back, v, "{text}");
        assert_eq!(
            pith::select::decode_json(text.as_bytes(), &DecodeOptions::default()).unwrap(),
            v
        );
    }
}

/// Whether an array becomes a columnar table is judged on its own items,
/// not on what the tables inside them were rewritten to: an array whose
/// first item is an array (written as a table object) is no array of
/// objects, so its objects are no rows and keep their key order.
#[test]
fn table_eligibility_is_judged_on_the_items_as_given() {
    for doc in [
        r#"[[{"a":1}],{"z":1,"cols":2}]"#,
        r#"{"k":[[{"a":1},{"a":2}],{"z":1,"rows":2,"cols":3}]}"#,
        r#"[[{"b":1}],[{"b":2}],{"y":[],"dict":0,"cols":1}]"#,
    ] {
        let v = pith::json::parse(doc).unwrap();
        let out = encode(&v, &opts(Form::Table, Metric::Bytes)).unwrap();
        let back = decode(out.text.as_bytes(), &DecodeOptions::default()).unwrap();
        assert_eq!(
            pith::json::stringify(&back),
            pith::json::stringify(&v),
            "{doc} -> {}",
            out.text
        );
    }
}

/// The tables a hoisted document reports are the tables it holds: a
/// collection inside the rows of a hoisted collection is written in its
/// cells as it is, so it is not reported as a table of its own.
#[test]
fn hoisted_forms_report_only_the_tables_they_write() {
    let doc = r#"{"a":[{"b":[{"x":[1]},{"x":[2]}],"y":[1]},{"b":[{"x":[3]},{"x":[4]}],"y":[2]}],"c":{"d":[{"x":[5]},{"x":[6]}]}}"#;
    let v = pith::json::parse(doc).unwrap();
    for form in [Form::Hoisted, Form::HoistedCompact] {
        let out = encode(&v, &opts(form, Metric::Bytes)).unwrap();
        let paths: Vec<&str> = out.tables.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["a", "c.d"], "{form:?}: {}", out.text);
        for path in paths {
            let meta = format!("{}_encoding", path.rsplit('.').next().unwrap());
            assert!(
                out.text.contains(&meta),
                "{form:?}: no {meta} in {}",
                out.text
            );
        }
        assert!(!out.text.contains("b_encoding"), "{form:?}: {}", out.text);
        let back = decode(out.text.as_bytes(), &DecodeOptions::default()).unwrap();
        assert!(equivalent(&v, &back), "{form:?}");
    }
}

#[test]
fn only_the_marked_json_text_is_read_as_a_wrapper() {
    let doc = r#"{"t":[{"a":1,"b":"x"},{"a":2,"b":"x"},{"a":3,"b":"x"},{"a":4,"b":"x"}]}"#;
    let v = pith::json::parse(doc).unwrap();
    let out = encode(&v, &opts(Form::Table, Metric::Bytes)).unwrap();
    assert!(
        out.text.starts_with(pith::select::JSON_MARK),
        "{}",
        out.text
    );
    assert!(
        out.text
            .starts_with(r#"{"$pith": "table", "value": {"t":{"cols":"#),
        "{}",
        out.text
    );
    assert!(out.wrapped);
    let read = DecodeOptions::default();
    assert_eq!(decode(out.text.as_bytes(), &read).unwrap(), v);
    assert_eq!(
        pith::select::decode_json(out.text.as_bytes(), &read).unwrap(),
        v
    );
    // The same value spelled compactly is read as it is: a wrapper holding
    // a columnar table.
    let compact = pith::json::stringify(&pith::json::parse(&out.text).unwrap());
    assert!(compact.starts_with(r#"{"$pith":"table","value":"#));
    let as_is = decode(compact.as_bytes(), &read).unwrap();
    assert_eq!(as_is, pith::json::parse(&compact).unwrap());
    // A marked wrapper of any form is unwrapped; anything else after the
    // mark is refused with its place.
    let marked = r#"{"$pith": "json", "value": {"cols":[],"dict":{},"rows":[]}}"#;
    let inner = pith::json::parse(r#"{"cols":[],"dict":{},"rows":[]}"#).unwrap();
    assert_eq!(decode(marked.as_bytes(), &read).unwrap(), inner);
    for (text, want) in [
        (
            r#"{"$pith": "zip", "value": 1}"#,
            "at $pith: expected the name of a form in the wrapper, found string \"zip\"",
        ),
        (
            r#"{"$pith": "table", "value": 1, "x": 2}"#,
            "line 1, column 1: expected a wrapper after `{\"$pith\": \"`: an object with exactly the keys `$pith` and `value`, found object",
        ),
    ] {
        let err = decode(text.as_bytes(), &read).unwrap_err();
        assert!(err.to_string().starts_with(want), "{text}\n{err}");
        let err = pith::select::decode_json(text.as_bytes(), &read).unwrap_err();
        assert!(err.to_string().starts_with(want), "{text}\n{err}");
    }
}

#[test]
fn a_producers_encoding_member_keeps_its_collection_as_it_is() {
    // The seed's case: the member is not metadata, so nothing is wrapped,
    // and `items` is not hoisted, since its metadata key is taken.
    let v = pith::json::parse(
        r#"{"items":[{"id":"one","tags":["a"]},{"id":"two","tags":["b"]}],"items_encoding":"producer fact"}"#,
    )
    .unwrap();
    for form in Form::ALL {
        let out = encode(&v, &opts(form, Metric::default())).unwrap();
        // Columnar tables in JSON stand in the `table` form's wrapper.
        let columnar = out.tables.iter().any(|c| c.form == TableForm::Columnar);
        assert_eq!(out.wrapped, columnar, "{form}");
        assert!(
            out.tables.iter().all(|c| c.form == TableForm::Columnar),
            "{form}: {:?}",
            out.tables
        );
        assert_eq!(decode(out.text.as_bytes(), &Default::default()).unwrap(), v);
    }
    let plain =
        pith::json::parse(r#"{"items":[{"id":"one","tags":["a"]},{"id":"two","tags":["b"]}]}"#)
            .unwrap();
    let out = encode(&plain, &opts(Form::Hoisted, Metric::default())).unwrap();
    assert!(out.text.contains("items_encoding"), "{}", out.text);
}

#[test]
fn ten_thousand_sparse_rows() {
    // Each row has a key of its own: the density guard keeps them out of
    // a table, so nothing allocates a 10,000 x 10,001 grid.
    let rows: Vec<Value> = (0..10_000)
        .map(|i| {
            obj(&[
                ("id", Value::from(format!("row-{i}"))),
                (&format!("field_{i}"), Value::from(format!("fact-{i}"))),
            ])
        })
        .collect();
    let v = obj(&[("items", Value::Array(rows))]);
    let started = std::time::Instant::now();
    for form in Form::ALL {
        let out = encode(&v, &opts(form, Metric::default())).unwrap();
        assert!(out.tables.is_empty(), "{form}");
        let back = decode(out.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v, "{form}");
    }
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn sparse_rows_within_the_guard_keep_null_apart_from_absent() {
    let v = pith::json::parse(
        r#"{"items":[{"id":1,"note":null,"tags":["a","b c"]},{"id":2,"tags":[]},{"id":3,"note":"x","extra":{"deep":[1,{"k":null}]}}]}"#,
    )
    .unwrap();
    for form in Form::ALL {
        for metric in [Metric::Bytes, Metric::default()] {
            assert_round_trips(&v, form, metric);
        }
    }
}

#[test]
fn deep_values_round_trip_up_to_the_limit_and_are_refused_beyond() {
    let mut v = pith::json::parse(r#"{"rows":[{"a":[1]},{"b":{"c":null}}]}"#).unwrap();
    for i in 0..120 {
        v = obj(&[("k", Value::Array(vec![v, Value::from(i)]))]);
    }
    assert!(v.depth() > 240 && v.depth() <= 256, "{}", v.depth());
    for form in Form::ALL {
        let out = encode(&v, &opts(form, Metric::default())).unwrap();
        let back = decode(out.text.as_bytes(), &Default::default()).unwrap();
        assert!(equivalent(&v, &back), "{form}");
    }
    while v.depth() <= 256 {
        v = Value::Array(vec![v]);
    }
    for form in [Form::Auto, Form::Toon, Form::Hoisted, Form::HoistedCompact] {
        let err = encode(&v, &opts(form, Metric::default())).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimit, "{form}");
    }
}

#[test]
fn exact_numbers_survive_every_cell_kind() {
    let v = pith::json::parse(
        r#"{"items":[
            {"n":9007199254740993,"list":[1e400,-0.1000000000000000055511151231257827],"o":{"x":123456789012345678901234567890.5}},
            {"n":1e-400,"list":[],"o":{"x":2}},
            {"list":[0],"o":{"x":-1}}]}"#,
    )
    .unwrap();
    for form in Form::ALL {
        assert_round_trips(&v, form, Metric::default());
    }
}

#[test]
fn auto_picks_per_collection_and_per_document() {
    // A collection TOON would write as a list: a notation table with a list
    // column (the compact hoisted table with its metadata costs more).
    let v = pith::json::parse(
        r#"{"items":[{"id":1,"title":"first","tags":["a","b"]},{"id":2,"title":"second","tags":["c"]},
                     {"id":3,"title":"third","tags":[]},{"id":4,"title":"fourth","tags":["d"]}],"count":4}"#,
    )
    .unwrap();
    let out = encode(&v, &opts(Form::Auto, Metric::default())).unwrap();
    assert_eq!(
        out.syntax,
        Syntax::Pith {
            references: 0,
            derived: 0
        }
    );
    assert_eq!(out.describe(), "pith");
    assert_eq!(
        out.text,
        "%pith\nitems[4]{id,title,tags[]}:\n1,first,a b\n2,second,c\n3,third,[]\n4,fourth,d\ncount: 4"
    );
    // At readability 5 hoisted tables (metadata to apply) are out, as they are.
    let five = (opts(Form::Auto, Metric::default())).min_readability(5);
    let out = encode(&v, &five).unwrap();
    assert!(out.tables.is_empty(), "{}", out.text);
    assert_eq!(pith::select::readability(&out), 5);
    // One record with nested facts (pm-cli's search-1): a one-row table with
    // list columns (59 o200k tokens) beats compact JSON (61).
    let v = pith::json::parse(
        r#"{"items":[{"id":"pm-example-0","title":"Preserve project context 0","status":"open","tags":["sdk","context"],"rank":1,"matched_fields":["title","notes"]}],"count":1,"provenance":{"source":"authoritative","complete":true}}"#,
    )
    .unwrap();
    let out = encode(&v, &opts(Form::Auto, Metric::default())).unwrap();
    assert!(
        out.text
            .starts_with("%pith\nitems[1]{id,title,status,tags[],rank,matched_fields[]}:\n"),
        "{}",
        out.text
    );
    // A uniform table in the root object: the notation, whose rows stand at
    // indentation 0 (TOON indents them, at a token or two per row).
    let v =
        pith::json::parse(r#"{"rows":[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":3,"b":"z"}]}"#).unwrap();
    let out = encode(&v, &opts(Form::Auto, Metric::default())).unwrap();
    assert_eq!(out.text, "%pith\nrows[3]{a,b}:\n1,x\n2,y\n3,z");
    // One level down the notation writes what TOON writes, and plain TOON
    // is kept.
    let v =
        pith::json::parse(r#"{"page":{"rows":[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":3,"b":"z"}]}}"#)
            .unwrap();
    let out = encode(&v, &opts(Form::Auto, Metric::default())).unwrap();
    assert_eq!(
        out.text,
        "page:\n  rows[3]{a,b}:\n    1,x\n    2,y\n    3,z"
    );
}

#[test]
fn malformed_tables_are_refused_with_the_place() {
    let cases = [
        (
            "items[1]{tags}:\n  \"[1\"\nitems_encoding:\n  json_columns[1]: tags",
            "at items[0].tags: row 0, column \"tags\": malformed JSON cell: line 1, column 3: ",
        ),
        (
            "items[1]{tags}:\n  a  b\nitems_encoding:\n  json_columns: []\n  list_columns[1]: tags",
            "at items[0].tags: row 0, column \"tags\": malformed list cell: ",
        ),
        (
            "items[1]{a}:\n  1\nitems_encoding:\n  json_columns: []\n  absent:\n    a[1]: 7",
            "at items: expected absent cells in rows below 1, found row 7",
        ),
        (
            "items[0]:\nitems_encoding:\n  json_columns: []\n  other: 1",
            "at items_encoding: expected only json_columns, list_columns and absent in table metadata, found \"other\"",
        ),
        (
            r#"{"$pith": "table", "value": {"t":{"cols":["a"],"dict":{},"rows":[[1,2]]}}}"#,
            "at t.rows[0]: expected at most 1 cells (one per column), found 2",
        ),
        (
            "\"$pith\": zip\nvalue: 1",
            "at $pith: expected the name of a form in the wrapper, found string \"zip\"",
        ),
    ];
    for (text, want) in cases {
        let err = decode(text.as_bytes(), &Default::default()).unwrap_err();
        assert!(err.to_string().starts_with(want), "{text}\n{err}");
    }
}

#[test]
fn the_equivalence_check_catches_one_lost_fact() {
    let v = pith::json::parse(
        r#"{"items":[{"id":1,"note":null,"tags":["a"]},{"id":2,"tags":[]},{"id":3,"tags":["b"]}]}"#,
    )
    .unwrap();
    let out = encode(&v, &opts(Form::HoistedCompact, Metric::default())).unwrap();
    assert_eq!(
        out.text,
        "items[3]{id,note,tags}:\n  1,null,a\n  2,null,\"\"\n  3,null,b\nitems_encoding:\n  json_columns: []\n  list_columns[1]: tags\n  absent:\n    note[2]: 1,2"
    );
    let back = |text: &str| decode(text.as_bytes(), &Default::default()).unwrap();
    assert!(equivalent(&v, &back(&out.text)));
    // An absent key filled: the metadata forgets row 2.
    let filled = out.text.replace("note[2]: 1,2", "note[1]: 1");
    assert_eq!(
        difference(&v, &back(&filled)).as_deref(),
        Some("items[2]: expected 2 keys, found 3")
    );
    // A null dropped: row 0's note declared absent.
    let dropped = out.text.replace("note[2]: 1,2", "note[3]: 0,1,2");
    assert_eq!(
        difference(&v, &back(&dropped)).as_deref(),
        Some("items[0]: expected 3 keys, found 2")
    );
    // A row cut.
    let cut = out
        .text
        .replace("items[3]", "items[2]")
        .replace("\n  3,null,b", "")
        .replace("note[2]: 1,2", "note[1]: 1");
    assert_eq!(
        difference(&v, &back(&cut)).as_deref(),
        Some("items: expected 3 elements, found 2")
    );
    // The same three losses in plain values.
    for lost in [
        r#"{"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]},{"id":3,"tags":["b"]}]}"#,
        r#"{"items":[{"id":1,"note":null,"tags":["a"]},{"id":2,"note":null,"tags":[]},{"id":3,"tags":["b"]}]}"#,
        r#"{"items":[{"id":1,"note":null,"tags":["a"]},{"id":2,"tags":[]}]}"#,
    ] {
        assert!(!equivalent(&v, &pith::json::parse(lost).unwrap()), "{lost}");
    }
}

#[test]
fn measure_lists_every_form() {
    let v = pith::json::parse(r#"{"items":[{"id":1,"tags":["a","b"]},{"id":2,"tags":["c"]}]}"#)
        .unwrap();
    let m = pith::select::measure(&v, TokenizerKind::O200k, &EncodeOptions::default()).unwrap();
    let forms: Vec<Form> = m.candidates.iter().map(|c| c.form).collect();
    assert_eq!(forms, Form::ALL);
    for c in &m.candidates {
        let text = encode(&v, &opts(c.form, Metric::default())).unwrap().text;
        assert_eq!(
            (c.bytes, c.tokens),
            (text.len(), o200k().count(&text)),
            "{}",
            c.form
        );
    }
    let auto = m.candidates.iter().find(|c| c.form == Form::Auto).unwrap();
    assert!(
        m.candidates
            .iter()
            .filter(|c| c.form != Form::Table)
            .all(|c| auto.tokens <= c.tokens)
    );
}

#[test]
fn the_measure_report_holds_every_form_and_what_auto_chose() {
    let v = pith::json::parse(r#"{"items":[{"id":1,"tags":["a","b"]},{"id":2,"tags":["c"]}]}"#)
        .unwrap();
    let m = pith::select::measure(&v, TokenizerKind::O200k, &EncodeOptions::default()).unwrap();
    let report = Value::Object(m.report());
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .unwrap()
            .keys()
            .map(|k| k.to_string())
            .collect()
    };
    assert_eq!(keys(&report), ["forms", "auto"]);
    let forms = &report["forms"];
    let names: Vec<&str> = Form::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(keys(forms), names);
    for c in &m.candidates {
        let size = &forms[c.form.name()];
        assert_eq!(keys(size), ["bytes", "tokens", "readability"]);
        assert_eq!(size["bytes"].as_u64(), Some(c.bytes as u64), "{}", c.form);
        assert_eq!(size["tokens"].as_u64(), Some(c.tokens as u64), "{}", c.form);
        assert_eq!(
            size["readability"].as_u64(),
            Some(u64::from(c.readability)),
            "{}",
            c.form
        );
    }
    let auto = &report["auto"];
    assert_eq!(keys(auto), ["chose", "syntax", "wrapped", "tables"]);
    assert_eq!(auto["chose"].as_str(), Some("pith"));
    assert_eq!(auto["syntax"].as_str(), Some("pith"));
    assert_eq!(auto["wrapped"].as_bool(), Some(false));
    assert_eq!(auto["tables"].as_array().map(Vec::len), Some(0));
    // What auto wrote, wrapped and with tables, as the report tells it.
    let m = pith::select::Measurement {
        candidates: Vec::new(),
        auto: pith::select::Encoded {
            text: String::new(),
            syntax: Syntax::Toon,
            wrapped: true,
            tables: vec![
                Choice {
                    path: "items".into(),
                    form: TableForm::HoistedCompact,
                },
                Choice {
                    path: "data.rows".into(),
                    form: TableForm::Columnar,
                },
            ],
        },
    };
    let report = Value::Object(m.report());
    assert_eq!(
        pith::json::stringify(&report),
        concat!(
            r#"{"forms":{},"auto":{"chose":"toon; wrapped; hoisted-compact: items; table: data.rows","#,
            r#""syntax":"toon","wrapped":true,"tables":[{"path":"items","form":"hoisted-compact"},"#,
            r#"{"path":"data.rows","form":"table"}]}}"#
        )
    );
}

#[test]
fn text_that_opens_like_json_and_is_no_json_gets_the_json_error() {
    let d = DecodeOptions::default();
    for bad in [
        "[1,2,3",
        "[1,2,]",
        "['a']",
        "[NaN]",
        "[1 2]",
        "[\"a\",\"b\"",
        "[1e1000000000]",
        "[1]x",
        "[\"x\"]]",
        "{\"a\":1",
        "\u{feff}[1,",
    ] {
        let e = decode(bad.as_bytes(), &d).expect_err(bad);
        let json = pith::json::parse(bad.trim_start_matches('\u{feff}')).expect_err(bad);
        assert_eq!(e.message(), json.message(), "{bad}");
        assert_eq!(e.kind(), json.kind(), "{bad}");
    }
    // A TOON root header still opens a TOON document, and its faults are TOON's.
    let v = decode(b"[3]: 1,2,3", &d).unwrap();
    assert_eq!(pith::json::stringify(&v), "[1,2,3]");
    let v = decode(b"[2]{a,b}:\n  1,2\n  3,4", &d).unwrap();
    assert_eq!(
        pith::json::stringify(&v),
        r#"[{"a":1,"b":2},{"a":3,"b":4}]"#
    );
    let e = decode(b"[2]: 1", &d).unwrap_err();
    assert!(e.message().contains("as the header declares"), "{e}");
    // A string that starts with a bracket is quoted by every writer.
    for s in ["[1,2,3", "{x", "[2]: 1"] {
        let v = Value::from(s);
        for form in Form::ALL {
            let out = encode(&v, &opts(form, Metric::Bytes)).unwrap();
            assert_eq!(
                decode(out.text.as_bytes(), &d).unwrap(),
                v,
                "{form}: {}",
                out.text
            );
        }
    }
}

#[test]
fn one_byte_order_mark_is_removed_and_a_second_is_content() {
    let d = DecodeOptions::default();
    let v = decode(b"\xef\xbb\xbf{\"a\":1,\"b\":[1,2]}", &d).unwrap();
    assert_eq!(pith::json::stringify(&v), r#"{"a":1,"b":[1,2]}"#);
    let v = decode(b"\xef\xbb\xbfa: 1", &d).unwrap();
    assert_eq!(pith::json::stringify(&v), r#"{"a":1}"#);
    let v = decode(b"\xef\xbb\xbf\xef\xbb\xbfa: 1", &d).unwrap();
    assert_eq!(pith::json::stringify(&v), "{\"\u{feff}a\":1}");
    let v = pith::toon::decode_bytes(b"\xef\xbb\xbf\xef\xbb\xbfa: 1", &d).unwrap();
    assert_eq!(pith::json::stringify(&v), "{\"\u{feff}a\":1}");
    // Two marks before JSON: the second is content, a bare TOON string.
    let v = decode(b"\xef\xbb\xbf\xef\xbb\xbf[1]", &d).unwrap();
    assert_eq!(v, Value::from("\u{feff}[1]"));
}

#[test]
fn auto_by_bytes_is_never_longer_than_json_when_integers_are_written_as_digits() {
    // JSON writes 12345678901234567890123 as its 23 digits, TOON as
    // 1.2345678901234567890123e+22: five bytes more.
    for text in [
        r#"{"n":12345678901234567890123}"#,
        r#"{"ids":[12345678901234567890123,98765432109876543210987]}"#,
        r#"[-123456789012345678901234567]"#,
    ] {
        let v = pith::json::parse(text).unwrap();
        let json = pith::json::stringify(&v);
        assert_eq!(json, text);
        let out = encode(&v, &opts(Form::Auto, Metric::Bytes)).unwrap();
        assert!(
            out.text.len() <= json.len(),
            "{text}: auto wrote {}",
            out.text
        );
        assert_eq!(
            decode(out.text.as_bytes(), &DecodeOptions::default()).unwrap(),
            v
        );
    }
}

#[test]
fn trailing_content_after_a_json_array_gets_the_json_error() {
    let e = decode(br#"[{"a":1}]garbage"#, &DecodeOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TrailingContent);
    assert_eq!((e.line(), e.column()), (1, 10));
}

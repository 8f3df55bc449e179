//! Unit tests of the choice among forms and of the restoring walk.

use super::auto::{auto_with, notation_options, toon_auto, variants};
use super::*;
use crate::{Map, Number};
use proptest::prelude::*;

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "a",
            "ab cd",
            "don't",
            "it's",
            "'s",
            "café",
            "日本",
            "🎉",
            "a\u{8}b",
            "\u{c}x",
            "x\ny",
            "tab\t",
            "q\"q",
            "back\\slash",
            "\\u0008",
            "1,2",
            "a|b",
            "--",
            "-",
            "x-1",
            "2025-04-16T00:09:46Z",
            "/api/users",
            "a_b.c",
            "true",
            "null",
            "12",
            "1e5",
            "#",
            ":",
            "[1]",
            "{}",
            "  lead",
            "trail  ",
        ])
        .prop_map(String::from),
        any::<String>(),
        "[a-zA-Z0-9 '.,:/_-]{0,12}",
    ]
}

fn primitive() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(Number::from(n))),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        string().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    primitive().prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((string(), inner.clone()), 0..6)
                .prop_map(|e| Value::Object(e.into_iter().collect())),
            // Uniform rows: TOON tables, flat or with a field group.
            (
                prop::collection::vec(string(), 1..5),
                prop::collection::vec(prop::collection::vec(primitive(), 5), 1..6),
                any::<bool>(),
                string(),
            )
                .prop_map(|(keys, rows, group, key)| {
                    let rows = rows
                        .into_iter()
                        .map(|cells| {
                            let mut m: Map =
                                keys.iter().cloned().zip(cells.iter().cloned()).collect();
                            if group {
                                let g: Map = [("x", cells[4].clone())].into_iter().collect();
                                m.insert("g", Value::Object(g));
                            }
                            Value::Object(m)
                        })
                        .collect();
                    Value::Object([(key, Value::Array(rows))].into_iter().collect())
                }),
            // Keyed tables.
            (
                prop::collection::vec(string(), 2..4),
                prop::collection::vec(primitive(), 4)
            )
                .prop_map(|(names, cells)| {
                    let row: Map = [("a", cells[0].clone()), ("b", cells[1].clone())]
                        .into_iter()
                        .collect();
                    Value::Object(
                        names
                            .into_iter()
                            .map(|n| (n, Value::Object(row.clone())))
                            .collect(),
                    )
                }),
        ]
    })
}

/// [`toon_auto`] as its rules say, with nothing ruled out early: every
/// candidate written and counted whole by the tokenizer (no memo, no
/// floors), the choices made on exact costs.
fn reference_base(value: &Value, opts: &Options) -> Encoded {
    let toon4 = toon4(&opts.toon);
    let cost = |text: &str| Meter::plain(opts.metric).cost(text);
    let survey = bound::survey(value, Size::Skip, opts.toon.max_depth);
    if survey.look_alike || matches!(value, Value::Object(m) if is_wrapper(m)) {
        let toon = toon_wrapped(value, opts.form, &toon4).unwrap();
        let json = json_doc(value, Vec::new());
        return if (cost(&json.text), json.text.len()) <= (cost(&toon.text), toon.text.len()) {
            json
        } else {
            toon
        };
    }
    // Key-hoisted tables are not among `auto`'s candidates.
    let best = toon_doc(value, &toon4, Vec::new()).unwrap();
    let json = json_doc(value, Vec::new());
    if (cost(&json.text), json.text.len()) <= (cost(&best.text), best.text.len()) {
        json
    } else {
        best
    }
}

/// `auto` as its rules say: [`reference_base`], then every variant of
/// the notation the floor admits, written and counted whole (none
/// skipped as a copy of another).
fn reference_auto(value: &Value, opts: &Options) -> Encoded {
    let cost = |text: &str| Meter::plain(opts.metric).cost(text);
    let base = reference_base(value, opts);
    let mut best = (cost(&base.text), base.text.len());
    let mut out = None;
    for &(references, derived) in variants(opts.min_readability) {
        let n = notation_options(opts, references, derived);
        let doc = crate::notation::encode(value, &n).unwrap();
        if doc.text[crate::notation::MARKER.len() + 1..] == base.text {
            continue;
        }
        let c = (cost(&doc.text), doc.text.len());
        let wins = if out.is_none() {
            c.0 < best.0
        } else {
            c < best
        };
        if wins {
            best = c;
            out = Some(doc.text);
        }
    }
    out.map_or(base, |text| Encoded {
        text,
        syntax: Syntax::Json,
        wrapped: false,
        tables: Vec::new(),
    })
}

/// Rows for the notation's lookups: enough of them for derived columns
/// (a constant, a template over the id, sometimes broken in one row), a
/// repeated nested object and repeated long strings, some keys missing.
fn lookups() -> impl Strategy<Value = Value> {
    (
        8usize..24,
        prop::collection::vec(primitive(), 1..4),
        any::<bool>(),
        any::<bool>(),
        0usize..24,
    )
        .prop_map(|(n, cells, root, nested, broken)| {
            let owner: Map = [
                ("login", Value::from("octocat")),
                ("id", Value::from(583231)),
                ("url", Value::from("https://api.github.com/users/octocat")),
            ]
            .into_iter()
            .collect();
            let rows: Vec<Value> = (0..n)
                .map(|i| {
                    let mut m = Map::new();
                    m.insert("id", Value::from(i as i64 + 100));
                    m.insert("state", Value::from("open"));
                    let url = if i == broken {
                        "https://x.org/other".to_owned()
                    } else {
                        format!("https://x.org/issues/{}", i + 100)
                    };
                    m.insert("url", Value::from(url));
                    if nested || i % 3 == 0 {
                        m.insert("user", Value::Object(owner.clone()));
                    }
                    if i % 4 != 1 {
                        m.insert("label", Value::from("a long repeated label text"));
                    }
                    m.insert("x", cells[i % cells.len()].clone());
                    Value::Object(m)
                })
                .collect();
            if root {
                Value::Array(rows)
            } else {
                Value::Object([("items", Value::Array(rows))].into_iter().collect())
            }
        })
}

/// A few rows over a few keys, each key in some rows only, holding
/// primitives, short lists or small objects: collections whose TOON,
/// seed and compact tables cost about the same.
fn sparse() -> impl Strategy<Value = Value> {
    let cell = prop_oneof![
        primitive(),
        prop::collection::vec(primitive(), 0..3).prop_map(Value::Array),
        (primitive(), primitive())
            .prop_map(|(a, b)| { Value::Object([("a", a), ("b", b)].into_iter().collect()) }),
    ];
    let row = prop::collection::vec(
        (
            prop::sample::select(vec!["id", "name", "tags", "meta", "n"]),
            cell,
        ),
        1..5,
    )
    .prop_map(object_of);
    (prop::collection::vec(row, 2..6), any::<bool>()).prop_map(|(rows, nest)| {
        let rows = Value::Array(rows);
        let inner: Map = [("rows", rows)].into_iter().collect();
        if nest {
            Value::Object(
                [("data", Value::Object(inner)), ("n", Value::from(1))]
                    .into_iter()
                    .collect(),
            )
        } else {
            Value::Object(inner)
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// `auto` writes, to the byte, what its rules choose on exact costs
    /// of every candidate: what the memo, the floors and the variants
    /// left unwritten rule out never changes the choice.
    #[test]
    fn auto_chooses_what_exact_costs_choose(
        v in prop_oneof![value(), lookups(), sparse(), nested(), owners(), stamps()],
        floor in 2u8..=5,
        m in 0usize..4,
        indent in 1usize..=2,
    ) {
        let metric = [
            Metric::Tokens(TokenizerKind::O200k),
            Metric::Tokens(TokenizerKind::Cl100k),
            Metric::Tokens(TokenizerKind::Bytes4),
            Metric::Bytes,
        ][m];
        let opts = Options {
            metric,
            min_readability: floor,
            toon: EncodeOptions { indent, ..EncodeOptions::default() },
            ..Options::default()
        };
        let got = encode(&v, &opts).unwrap();
        let want = reference_auto(&v, &opts);
        prop_assert_eq!(&got.text, &want.text);
        // Written as a large document is (TOON counted and let go, no
        // variant held while the next is written): the same choice.
        let toon4 = toon4(&opts.toon);
        let large = auto_with(&v, &opts, &toon4, 0).unwrap();
        prop_assert_eq!(&large.text, &want.text);
        prop_assert_eq!(large.describe(), got.describe());
        // And the TOON and JSON candidates alone (the planner's choices
        // show there even where the notation wins).
        let (base, _) = toon_auto(&v, &opts, &toon4, &mut Meter::new(metric)).unwrap();
        prop_assert_eq!(&base.text, &reference_base(&v, &opts).text);
    }
}

/// Objects inside objects, a few levels deep, that hold one subtree
/// again and again: each object is written as lines and as a flow value
/// and the cheaper kept, and the subtree gets a name.
fn nested() -> impl Strategy<Value = Value> {
    let shared = (primitive(), any::<bool>()).prop_map(|(p, long)| {
        let mut m = Map::new();
        m.insert("login", Value::from("octocat"));
        m.insert("url", Value::from("https://api.github.com/users/octocat"));
        if long {
            m.insert("p", p);
        }
        Value::Object(m)
    });
    (shared, prop::collection::vec(primitive(), 1..4)).prop_flat_map(|(shared, leaves)| {
        let leaf = prop_oneof![Just(shared.clone()), prop::sample::select(leaves).boxed(),];
        leaf.prop_recursive(4, 40, 4, |inner| {
            prop::collection::vec(
                (prop::sample::select(vec!["a", "b", "user", "x"]), inner),
                1..4,
            )
            .prop_map(object_of)
        })
    })
}

/// An object of `entries`, a later one for a key replacing an earlier.
fn object_of(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k, v);
    }
    Value::Object(m)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The notation's writer writes, to the byte, what it writes when it
    /// counts every layout whole and keeps no flow value: its memo and
    /// its kept flow values never change a choice.
    #[test]
    fn the_writers_memo_changes_no_choice(
        v in prop_oneof![value(), lookups(), sparse(), nested()],
        r in any::<bool>(),
        d in any::<bool>(),
        cl in any::<bool>(),
    ) {
        let mut n = crate::notation::Options::for_readability(3, true);
        n.references = r;
        n.derived = d;
        if cl {
            n.tokenizer = TokenizerKind::Cl100k;
        }
        let fast = crate::notation::encode(&v, &n).unwrap();
        crate::notation::encode::DIRECT.with(|c| c.set(true));
        let plain = crate::notation::encode(&v, &n);
        crate::notation::encode::DIRECT.with(|c| c.set(false));
        prop_assert_eq!(fast.text, plain.unwrap().text);
    }

    /// Marks replaced in pieces from the end of the text (as in a large
    /// document) give the text replaced whole, to the byte: a name is
    /// anchored at its first use whichever piece holds it.
    #[test]
    fn marks_replaced_in_pieces_are_the_text_replaced_whole(
        v in prop_oneof![lookups(), owners(), sparse(), nested(), value()],
        piece in 1usize..300,
        d in any::<bool>(),
    ) {
        let n = variant(true, d);
        let whole = crate::notation::encode(&v, &n).unwrap();
        crate::notation::encode::PIECE.with(|c| c.set(piece));
        let in_pieces = crate::notation::encode(&v, &n);
        crate::notation::encode::PIECE.with(|c| c.set(0));
        let in_pieces = in_pieces.unwrap();
        prop_assert_eq!(in_pieces.references, whole.references);
        prop_assert_eq!(in_pieces.text, whole.text);
    }

    /// A variant with references that says it is the variant without them
    /// is right: that variant writes its text, to the byte, with derived
    /// columns or without. (The values repeat subtrees and strings, so most
    /// have names to use or pass over.)
    #[test]
    fn a_variant_that_used_no_name_is_the_one_without(
        v in prop_oneof![value(), lookups(), sparse(), nested(), owners(), owners(), owners()],
        d in any::<bool>(),
        cl in any::<bool>(),
    ) {
        let mut n = variant(true, d);
        if cl {
            n.tokenizer = TokenizerKind::Cl100k;
        }
        let mut shared = crate::notation::Shared::new(&v, false);
        let (with, effects) = crate::notation::encode_shared(&n, &mut shared).unwrap();
        if effects.as_without_references {
            prop_assert_eq!(with.references, 0);
            let mut without = n.clone();
            without.references = false;
            prop_assert_eq!(with.text, crate::notation::encode(&v, &without).unwrap().text);
        }
    }

    /// A variant without derived columns that says derived columns would
    /// turn none is right: the variant with them writes its text, to the
    /// byte, and says the same of itself.
    #[test]
    fn the_derived_probe_tells_the_truth(
        v in prop_oneof![value(), lookups(), sparse(), nested()],
        r in any::<bool>(),
    ) {
        let without = crate::notation::encode(&v, &variant(r, false)).unwrap().text;
        let n = variant(r, true);
        let mut shared = crate::notation::Shared::new(&v, false);
        let (with, effects) = crate::notation::encode_shared(&n, &mut shared).unwrap();
        let same = probe_says_same(&v, r);
        prop_assert_eq!(same, !effects.derived_columns);
        if same {
            prop_assert_eq!(with.text, without);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// The floors under compact JSON hold for both exact tokenizers.
    #[test]
    fn floors_are_floors(v in value(), d in 0usize..3, indent in 1usize..=3) {
        let json = crate::json::stringify(&v);
        let o = Tokenizer::get(TokenizerKind::O200k).count(&json);
        let c = Tokenizer::get(TokenizerKind::Cl100k).count(&json);
        let s = bound::survey(&v, Size::TokenFloor, 256);
        if !s.look_alike {
            prop_assert!(s.json <= o && s.json <= c, "value floor {} > {o}/{c}: {json}", s.json);
            let b = bound::survey(&v, Size::Bytes, 256);
            prop_assert!(b.json <= json.len(), "value bytes {} > {}", b.json, json.len());
        }
        let delimiter = [crate::toon::Delimiter::Comma, crate::toon::Delimiter::Tab, crate::toon::Delimiter::Pipe][d];
        let opts = EncodeOptions { indent, delimiter, ..EncodeOptions::default() };
        let toon = crate::toon::encode(&v, &opts).expect("encodes");
        // Both floors at once, under JSON's and plain TOON's counts.
        let both = bound::survey(&v, Size::TokenFloors, 256);
        prop_assert_eq!(both.look_alike, s.look_alike);
        if !both.look_alike {
            prop_assert_eq!(both.json, s.json);
            let b = bound::survey(&v, Size::Bytes, 256);
            prop_assert_eq!(both.bytes, b.json);
            let (to, tc) = (Tokenizer::get(TokenizerKind::O200k).count(&toon), Tokenizer::get(TokenizerKind::Cl100k).count(&toon));
            prop_assert!(both.toon <= to && both.toon <= tc, "TOON floor {} > {to}/{tc}: {json}\n{toon}", both.toon);
        }
        if let Some(f) = text::survey_text(&toon, indent, delimiter.as_byte(), true) {
            prop_assert!(!s.look_alike, "{toon}");
            prop_assert!(f.tokens <= o && f.tokens <= c, "text floor {} > {o}/{c}: {json}\n{toon}", f.tokens);
        }
        if let Some(f) = text::survey_text(&toon, indent, delimiter.as_byte(), false) {
            prop_assert!(f.bytes <= json.len(), "text bytes {} > {}: {json}\n{toon}", f.bytes, json.len());
        }
        // The floor of any text, on every form's text.
        let mut texts = vec![json.clone(), toon];
        for min in [3, 5] {
            let mut n = crate::notation::Options::for_readability(min, true);
            n.indent = indent;
            n.delimiter = delimiter;
            texts.push(crate::notation::encode(&v, &n).expect("notation").text);
        }
        for form in [Form::Hoisted, Form::HoistedCompact] {
            let o = Options { form, metric: Metric::Bytes, ..Options::default() };
            texts.push(encode(&v, &o).expect("encodes").text);
        }
        for t in &texts {
            let f = crate::tokens::text_floor(t);
            let (o, c) = (Tokenizer::get(TokenizerKind::O200k).count(t), Tokenizer::get(TokenizerKind::Cl100k).count(t));
            prop_assert!(f <= o && f <= c, "text floor {f} > {o}/{c}: {t:?}");
        }
    }
}

/// The notation's options of one variant.
/// Rows that share a few owner objects, which are named and then either
/// used (a column of `*name` cells) or passed over for a field group, and
/// a member or two that repeat a string.
fn owners() -> impl Strategy<Value = Value> {
    let owner = (0u32..1000, string(), any::<bool>()).prop_map(|(id, login, flag)| {
        let mut m = Map::new();
        m.insert("id", Value::from(id));
        m.insert("login", Value::from(login));
        m.insert("verified", Value::from(flag));
        Value::Object(m)
    });
    (
        prop::collection::vec(owner, 4..24),
        prop::collection::vec((0usize..24, primitive()), 6..40),
        any::<bool>(),
    )
        .prop_map(|(owners, picks, wrap)| {
            let rows: Vec<Value> = picks
                .into_iter()
                .enumerate()
                .map(|(i, (k, p))| {
                    let mut m = Map::new();
                    m.insert("id", Value::from(i));
                    m.insert("owner", owners[k % owners.len()].clone());
                    m.insert("note", p);
                    Value::Object(m)
                })
                .collect();
            if wrap {
                let mut m = Map::new();
                m.insert("items", Value::Array(rows));
                m.insert(
                    "source",
                    Value::from("https://example.com/a/long/enough/address"),
                );
                Value::Object(m)
            } else {
                Value::Array(rows)
            }
        })
}

fn variant(references: bool, derived: bool) -> crate::notation::Options {
    let mut n = crate::notation::Options::for_readability(3, true);
    n.references = references;
    n.derived = derived;
    n
}

/// What a variant without derived columns says of the one with them, when
/// asked: true when it says that one writes the same text.
fn probe_says_same(v: &Value, references: bool) -> bool {
    let n = variant(references, false);
    let mut shared = crate::notation::Shared::new(v, false);
    shared.probe_derived = true;
    let (_, effects) = crate::notation::encode_shared(&n, &mut shared).unwrap();
    !effects.derived_columns
}

/// The probe says no where a column is a constant: rows enough to derive
/// it, every one with the same `kind`.
#[test]
fn the_derived_probe_sees_a_constant_column() {
    let rows: Vec<String> = (0..12)
        .map(|i| format!(r#"{{"id":{i},"kind":"issue","t":"x{i}"}}"#))
        .collect();
    let v = crate::json::parse(&format!("[{}]", rows.join(","))).unwrap();
    assert!(!probe_says_same(&v, false));
    let plain = crate::json::parse(r#"[{"id":1,"t":"a"},{"id":2,"t":"b"}]"#).unwrap();
    assert!(probe_says_same(&plain, false));
}

/// A group column whose objects are named, where the group wins, is the
/// choice the writer without references makes without weighing: the
/// variant with references that uses no name says it is that variant (and
/// `auto` does not write it again); where the group loses, it cannot say so.
#[test]
fn a_group_that_wins_over_named_objects_is_the_choice_without_references() {
    // One owner of six rows, named; every other row's owner its own.
    let owner = |i: usize| if i < 6 { 0 } else { i };
    let rows: Vec<String> = (0..40)
        .map(|i| {
            format!(
                r#"{{"id":{i},"title":"item {i}","owner":{{"id":{},"login":"user{}","verified":true}}}}"#,
                4000 + owner(i),
                owner(i)
            )
        })
        .collect();
    let v = crate::json::parse(&format!(r#"{{"items":[{}]}}"#, rows.join(","))).unwrap();
    let n = variant(true, false);
    let mut shared = crate::notation::Shared::new(&v, false);
    assert!(shared.has_refs(n.tokenizer), "the owners are named");
    let (with, effects) = crate::notation::encode_shared(&n, &mut shared).unwrap();
    assert_eq!(with.references, 0, "{}", with.text);
    assert!(
        with.text.contains("owner{id,login,verified}"),
        "{}",
        with.text
    );
    assert!(effects.as_without_references, "{}", with.text);
    let without = crate::notation::encode(&v, &variant(false, false)).unwrap();
    assert_eq!(with.text, without.text);
}

/// A field group weighed against a long column of one cell each (over the
/// 16 KiB a floor is read in): the column is written only until its floor
/// passes the group's count, and the choice is the one made on the whole
/// column counted (the writer with `DIRECT` set). Where the group wins and
/// the writer without references takes it unweighed, the variant with
/// references that uses no name is that variant; where the objects' key
/// orders had to be merged (that writer weighs too), it says so only when
/// it is.
#[test]
fn a_long_column_weighed_against_a_group_chooses_as_counted_whole() {
    let rows = |n: usize, shared: usize, merged: bool| -> Value {
        let items: Vec<String> = (0..n)
            .map(|i| {
                let o = if i % 50 < shared { i % 7 } else { 100 + i };
                // The first owner without an `id`, later ones with it
                // first: the group's fields are merged from their orders.
                let owner = if merged && i % 2 == 0 {
                    format!(r#"{{"login":"user{o}","verified":true}}"#)
                } else {
                    format!(r#"{{"id":{},"login":"user{o}","verified":true}}"#, 4000 + o)
                };
                format!(r#"{{"id":{i},"title":"item {i}","owner":{owner}}}"#)
            })
            .collect();
        crate::json::parse(&format!(r#"{{"items":[{}]}}"#, items.join(","))).unwrap()
    };
    // Few owners named (the group wins), and most (the names win).
    for (shared, merged) in [(6, false), (6, true), (50, false), (50, true)] {
        let v = rows(6000, shared, merged);
        for tokenizer in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
            let mut n = variant(true, false);
            n.tokenizer = tokenizer;
            let fast = crate::notation::encode(&v, &n).unwrap();
            crate::notation::encode::DIRECT.with(|c| c.set(true));
            let whole = crate::notation::encode(&v, &n);
            crate::notation::encode::DIRECT.with(|c| c.set(false));
            assert_eq!(
                fast.text,
                whole.unwrap().text,
                "{shared} {merged} {tokenizer:?}"
            );
            let mut shared_state = crate::notation::Shared::new(&v, false);
            let (with, effects) = crate::notation::encode_shared(&n, &mut shared_state).unwrap();
            let mut without = n.clone();
            without.references = false;
            let plain = crate::notation::encode(&v, &without).unwrap();
            if shared == 6 && !merged {
                assert!(
                    with.text.contains("owner{"),
                    "the group wins: {}",
                    &with.text[..300]
                );
                assert!(effects.as_without_references);
            }
            if effects.as_without_references {
                assert_eq!(with.text, plain.text, "{shared} {merged} {tokenizer:?}");
            }
        }
    }
}

/// Large documents are written holding less (see `auto_with`) and choose
/// what any other document does: rows where the notation wins with
/// references, where it wins without, where TOON wins, a look-alike and a
/// wrapper-shaped root, at each readability floor's variants.
#[test]
fn a_large_document_is_written_as_any_other() {
    let rows = |n: usize, nested: bool| -> Value {
        Value::Array(
            (0..n)
                .map(|i| {
                    let mut m = Map::new();
                    m.insert("id", Value::from(i));
                    m.insert("name", Value::from(format!("user {}", i % 97)));
                    m.insert("state", Value::from(["open", "closed"][i % 2]));
                    if nested {
                        let mut owner = Map::new();
                        owner.insert("login", Value::from(format!("octo{}", i % 7)));
                        owner.insert(
                            "url",
                            Value::from(format!("https://api.github.com/users/octo{}", i % 7)),
                        );
                        m.insert("owner", Value::Object(owner));
                        m.insert("tags", Value::Array((0..i % 3).map(Value::from).collect()));
                        let body =
                            format!("release notes {}: ", i % 3) + &"fixed a bug. ".repeat(20);
                        m.insert("body", Value::from(body));
                    }
                    Value::Object(m)
                })
                .collect(),
        )
    };
    let numbers = Value::Array((0..5000).map(|i| Value::from(i * 7)).collect());
    let mut look_alike = Map::new();
    look_alike.insert("rows", rows(2000, true));
    look_alike.insert(
        "size",
        crate::json::parse(r#"{"cols":1,"dict":2,"rows":3}"#).unwrap(),
    );
    let mut wrapper = Map::new();
    wrapper.insert(WRAPPER_TAG, Value::from("auto"));
    wrapper.insert(WRAPPER_VALUE, rows(300, true));
    let cases = [
        rows(3000, true),
        rows(3000, false),
        numbers,
        Value::Object(look_alike),
        Value::Object(wrapper),
    ];
    let mut forms = std::collections::BTreeSet::new();
    for v in &cases {
        for floor in [3, 4, 5] {
            for metric in [Metric::Tokens(TokenizerKind::O200k), Metric::Bytes] {
                let opts = Options {
                    metric,
                    min_readability: floor,
                    ..Options::default()
                };
                let toon4 = toon4(&opts.toon);
                let large = auto_with(v, &opts, &toon4, 0).unwrap();
                let other = auto_with(v, &opts, &toon4, usize::MAX).unwrap();
                assert_eq!(
                    large.text, other.text,
                    "min readability {floor}, {metric:?}"
                );
                assert_eq!(large.describe(), other.describe());
                forms.insert(large.describe());
                let back = decode(large.text.as_bytes(), &Default::default()).unwrap();
                assert!(crate::equiv::equivalent(v, &back), "round trip");
            }
        }
    }
    // The cases reach the notation with references, with derived columns,
    // with neither, and JSON.
    assert!(forms.iter().any(|f| f.contains("references")), "{forms:?}");
    assert!(forms.iter().any(|f| f.contains("derived")), "{forms:?}");
    assert!(
        forms.contains("pith") && forms.contains("json"),
        "{forms:?}"
    );
}

/// Values whose repeats are long strings only (timestamps, addresses), in
/// cells, after keys, in flow values and inline arrays, beside constant
/// and templated columns: names that are all primitives.
fn stamps() -> impl Strategy<Value = Value> {
    let stamp = prop::sample::select(vec![
        "2025-04-16T00:09:46Z",
        "2025-06-03T16:58:31Z",
        "https://api.example.org/v1/items",
        "see https://x.org/a",
        "1,2 and 3",
        "*starred*",
        "long string with \"quotes\"",
    ]);
    let row = (
        stamp.clone(),
        prop::option::of(stamp.clone()),
        prop::option::of(primitive()),
        any::<bool>(),
    );
    (
        prop::collection::vec(row, 1..24),
        prop::collection::vec(stamp, 0..4),
        any::<bool>(),
    )
        .prop_map(|(rows, extra, root)| {
            let rows: Vec<Value> = rows
                .into_iter()
                .enumerate()
                .map(|(i, (at, note, p, meta))| {
                    let mut m = Map::new();
                    m.insert("id", Value::from(i as i64 + 7));
                    m.insert("at", Value::from(at));
                    m.insert("state", Value::from("open"));
                    m.insert("url", Value::from(format!("https://x.org/r/{}", i + 7)));
                    if let Some(n) = note {
                        m.insert("note", Value::from(n));
                    }
                    if let Some(p) = p {
                        m.insert("p", p);
                    }
                    if meta {
                        let inner: Map = [("at", Value::from(at)), ("n", Value::from(i))]
                            .into_iter()
                            .collect();
                        m.insert("meta", Value::Object(inner));
                    }
                    Value::Object(m)
                })
                .collect();
            if root {
                return Value::Array(rows);
            }
            let mut m = Map::new();
            m.insert(
                "first",
                extra.first().map_or(Value::Null, |s| Value::from(*s)),
            );
            m.insert(
                "seen",
                Value::Array(extra.iter().map(|s| Value::from(*s)).collect()),
            );
            m.insert("rows", Value::Array(rows));
            Value::Object(m)
        })
}

/// A variant without references taken from the text of the variant with
/// them (its marks replaced, every name a primitive) is the text that
/// variant writes, to the byte, and says the same of derived columns;
/// asked with derived columns or without, after one written with them or
/// without, under both exact tokenizers, every delimiter and indents of 1
/// to 3. A fifth of the cases or more take the text (most of the others
/// ask for derived columns that were turned, or have no names to use).
#[test]
fn a_variant_taken_from_marks_replaced_is_the_one_written() {
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let config = Config {
        cases: 768,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let (cases, taken) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
    let strategy = (
        prop_oneof![3 => stamps(), 1 => lookups(), 1 => owners(), 1 => value(), 1 => sparse()],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        (0usize..3, 1usize..=3),
    );
    runner
        .run(&strategy, |(v, written, asked, cl, (d, indent))| {
            let mut n = variant(true, written);
            if cl {
                n.tokenizer = TokenizerKind::Cl100k;
            }
            n.delimiter = [
                crate::toon::Delimiter::Comma,
                crate::toon::Delimiter::Tab,
                crate::toon::Delimiter::Pipe,
            ][d];
            n.indent = indent;
            let mut shared = crate::notation::Shared::new(&v, false);
            shared.keep_plain = true;
            shared.probe_derived = true;
            crate::notation::encode_shared(&n, &mut shared).unwrap();
            let mut without = n.clone();
            without.references = false;
            without.derived = asked;
            let kept = shared.kept_plain(&without);
            let (got, effects) = crate::notation::encode_shared(&without, &mut shared).unwrap();
            let mut fresh = crate::notation::Shared::new(&v, false);
            fresh.probe_derived = true;
            let (want, want_effects) =
                crate::notation::encode_shared(&without, &mut fresh).unwrap();
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(effects.derived_columns, want_effects.derived_columns);
            cases.set(cases.get() + 1);
            taken.set(taken.get() + usize::from(kept));
            Ok(())
        })
        .unwrap();
    let (cases, taken) = (cases.get(), taken.get());
    assert!(
        taken * 5 >= cases,
        "only {taken} of {cases} cases took the text"
    );
}

/// A document whose TOON writes its records as list items (each has a
/// nested object and an array): its survey's floor under TOON's tokens is
/// over the notation's count, so `auto` never writes TOON, and chooses
/// what exact costs of every candidate choose.
#[test]
fn a_listed_document_is_chosen_without_its_toon_as_with_it() {
    let items: Vec<Value> = (0..40u32)
        .map(|i| {
            let mut owner = Map::new();
            owner.insert("id", Value::from(4000 + i * 7));
            owner.insert("login", Value::from(format!("user{}", i % 9)));
            owner.insert("verified", Value::from(i % 3 == 0));
            let mut m = Map::new();
            m.insert("id", Value::from(i));
            m.insert("title", Value::from(format!("Item number {i}")));
            m.insert("owner", Value::Object(owner));
            let tags = ["alpha", "io", "net", "ml"][..(i as usize % 4) + 1]
                .iter()
                .map(|t| Value::from(*t))
                .collect();
            m.insert("tags", Value::Array(tags));
            Value::Object(m)
        })
        .collect();
    let v = Value::Object([("items", Value::Array(items))].into_iter().collect());
    for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
        let opts = Options {
            metric: Metric::Tokens(kind),
            ..Options::default()
        };
        let survey = bound::survey(&v, Size::TokenFloors, opts.toon.max_depth);
        let toon = crate::toon::encode(&v, &toon4(&opts.toon)).unwrap();
        let (notation, _) =
            notation_best(&v, &opts, None, None, false, &mut Meter::new(opts.metric))
                .unwrap()
                .expect("a notation document");
        let cost = |t: &str| Meter::plain(opts.metric).cost(t);
        let (cn, ct) = (cost(&notation.text), cost(&toon));
        // TOON is ruled out by its floor, and the floor is under its count.
        assert!(survey.toon > cn, "{kind:?}: floor {} <= {cn}", survey.toon);
        assert!(survey.toon <= ct, "{kind:?}: floor {} > {ct}", survey.toon);
        let got = encode(&v, &opts).unwrap();
        assert_eq!(got.text, reference_auto(&v, &opts).text);
        assert_eq!(got.text, notation.text);
    }
}

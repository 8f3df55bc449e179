//! The pith notation end to end: the spec's own examples decode to what
//! they say; every value survives `encode` then `decode` at every
//! readability floor (repeated subtrees, sparse rows, lists, look-alikes,
//! exact numbers, deep nesting, wide and long tables); and `auto`, which
//! may choose the notation, never costs more than the input's compact JSON.

use pith::equiv::{difference, equivalent};
use pith::notation::{self, Options};
use pith::select::{self, Form, Metric};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::Delimiter;
use pith::{Map, Value};
use proptest::prelude::*;

#[path = "support/gen.rs"]
mod generate;
use generate::object;

/// Strings that look like the notation's own syntax, TOON's, or JSON.
fn string() -> impl Strategy<Value = String> {
    generate::look_alike(
        &[
            "%pith",
            "&a",
            "&a b",
            "*a",
            "*",
            "~",
            "~2",
            "${x}",
            "`t`",
            "\"\"\"",
            "a\nb",
            "[a,b]",
            "{k:v}",
            "[]",
            "a?",
            "x=1",
            "a b c",
            "https://x.org/a?b=c",
            "urn:x:y",
            ":a",
            "a:",
            "a:b: c",
            "a::b",
            "a, b",
            "x [y] {z}",
            "[x] y",
            "{0} x",
            "a]",
            "b}",
            "x, [y: z]",
            "2026-07-14T22:57:06Z",
            "{\"cols\":[],\"dict\":{},\"rows\":[]}",
            "json_columns[0]:",
            ".5",
            "-.25",
            ".5e1",
        ],
        "[a-z ~*&?=:/.,|{}\\[\\]-]{0,10}",
    )
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "id",
            "name",
            "login",
            "sha",
            "url",
            "a",
            "b",
            "cols",
            "dict",
            "rows",
            "$pith",
            "value",
            "items",
            "items_encoding",
            "a?",
            "x=y",
            "k{",
            "*r",
            "&d",
            "",
            "tags",
            "dist-tags",
            "@types/node",
            "0.14.0",
            "200",
            "-x",
            "$ref",
        ])
        .prop_map(String::from),
        "[a-z_]{1,6}",
        // Around the edges of the unquoted-key alphabet.
        "[-a-z0-9_$@/.+~%#: ]{1,4}",
    ]
}

/// Values with what the notation's forms are made for: records with
/// optional keys, nested objects, arrays of primitives, and the same
/// subtree again and again.
fn value() -> impl Strategy<Value = Value> {
    let leaf = generate::primitive(string());
    let tree = generate::nested(leaf, key, 4, 48, 6).boxed();
    prop_oneof![
        tree.clone(),
        // Rows over a few keys, some missing, some nested, one shared subtree.
        (
            prop::collection::vec(prop::collection::vec((key(), tree.clone()), 0..5), 1..12),
            tree.clone(),
            any::<bool>(),
        )
            .prop_map(|(rows, shared, root)| {
                let rows: Vec<Value> = rows
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut entries)| {
                        entries.push(("id".into(), Value::from(i)));
                        if i % 3 != 2 {
                            entries.push(("owner".into(), shared.clone()));
                        }
                        if i % 2 == 0 {
                            entries.push((
                                "tags".into(),
                                Value::Array(vec![Value::from("a b"), Value::from(i)]),
                            ));
                        }
                        object(entries)
                    })
                    .collect();
                if root {
                    Value::Array(rows)
                } else {
                    object(vec![("items".into(), Value::Array(rows))])
                }
            }),
        // Rows whose `lines` are arrays of objects over a few keys (some
        // missing, some out of order, some empty, nested values, an object
        // and a whole array repeated, which may be named): record lists, or
        // flow cells where they cannot be one.
        prop::collection::vec(
            (
                prop::collection::vec(
                    (
                        prop::sample::subsequence(vec!["sku", "qty", "note", "a, b?"], 0..=4),
                        any::<bool>(),
                        any::<bool>(),
                        tree.clone(),
                    ),
                    0..4,
                ),
                any::<bool>(),
            ),
            1..10,
        )
        .prop_map(|rows| {
            let mut last: Option<Value> = None;
            let rows: Vec<Value> = rows
                .into_iter()
                .enumerate()
                .map(|(i, (lines, again))| {
                    let lines: Vec<Value> = lines
                        .into_iter()
                        .enumerate()
                        .map(|(j, (mut keys, flip, shared, inner))| {
                            if shared {
                                return object(vec![
                                    ("sku".into(), Value::from("SHARED-LONG-SKU-0001")),
                                    ("qty".into(), Value::from(7)),
                                ]);
                            }
                            if flip {
                                keys.reverse();
                            }
                            let entries = keys.into_iter().map(|k| {
                                let v = match k {
                                    "sku" => Value::from(format!("S{}", (i + j) % 3)),
                                    "qty" => Value::from(j),
                                    _ => inner.clone(),
                                };
                                (k.into(), v)
                            });
                            object(entries.collect())
                        })
                        .collect();
                    let lines = match &last {
                        Some(before) if again => before.clone(),
                        _ => Value::Array(lines),
                    };
                    last = Some(lines.clone());
                    object(vec![("id".into(), Value::from(i)), ("lines".into(), lines)])
                })
                .collect();
            Value::Array(rows)
        }),
    ]
}

fn options(references: bool, derived: bool) -> Options {
    let mut o = Options::for_readability(3, true);
    o.references = references;
    o.derived = derived;
    o
}

fn round_trip(v: &Value, o: &Options) -> Result<(), TestCaseError> {
    let doc = notation::encode(v, o).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = notation::decode(doc.text.as_bytes(), &Default::default())
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", doc.text)))?;
    prop_assert!(
        equivalent(v, &back),
        "{:?}\n{}",
        difference(v, &back),
        doc.text
    );
    // Through the one reader of every form, too.
    let again = select::decode(doc.text.as_bytes(), &Default::default())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(back, again);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn every_value_round_trips_at_every_floor(v in value()) {
        for (references, derived) in [(false, false), (true, false), (false, true), (true, true)] {
            round_trip(&v, &options(references, derived))?;
        }
    }

    /// `auto` never costs more than the input's compact JSON, and reads back.
    #[test]
    fn auto_never_costs_more_than_compact_json(v in value(), floor in 2u8..=5) {
        let opts = select::Options::default().min_readability(floor);
        let out = select::encode(&v, &opts).unwrap();
        let tok = Tokenizer::get(TokenizerKind::O200k);
        let json = pith::json::stringify(&v);
        prop_assert!(tok.count(&out.text) <= tok.count(&json), "{}\n{json}", out.text);
        prop_assert!(select::readability(&out) >= floor, "{}", out.text);
        let back = select::decode(out.text.as_bytes(), &Default::default()).unwrap();
        prop_assert!(equivalent(&v, &back), "{:?}\n{}", difference(&v, &back), out.text);
    }
}

#[test]
fn the_specs_examples_decode_to_their_json() {
    let spec = include_str!("../../../docs/notation.md");
    let mut json: Option<Value> = None;
    let mut checked = 0;
    let mut rest = spec;
    while let Some(at) = rest.find("```") {
        let after = &rest[at + 3..];
        let lang_end = after.find('\n').unwrap();
        let lang = &after[..lang_end];
        let body_end = after[lang_end + 1..].find("```").unwrap();
        let body = &after[lang_end + 1..lang_end + 1 + body_end];
        match lang {
            "json" => json = Some(pith::json::parse(body).expect("the spec's JSON parses")),
            "pith" => {
                let text = body.strip_suffix('\n').unwrap_or(body);
                let got = notation::decode(text.as_bytes(), &Default::default())
                    .unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(Some(&got), json.as_ref(), "{text}");
                checked += 1;
            }
            _ => {}
        }
        rest = &after[lang_end + 1 + body_end + 3..];
    }
    assert!(checked >= 3, "only {checked} examples found");
}

#[test]
fn repeated_subtrees_are_named_and_read_back() {
    let user = r#"{"login":"octocat","id":1,"url":"https://api.github.com/users/octocat","html_url":"https://github.com/octocat"}"#;
    let rows: Vec<String> = (0..20)
        .map(|i| format!(r#"{{"number":{i},"user":{user},"labels":[],"closed_by":null}}"#))
        .collect();
    let v = pith::json::parse(&format!("[{}]", rows.join(","))).unwrap();
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert!(
        doc.text
            .starts_with("%pith\n&octocat: {login:octocat,id:1,"),
        "{}",
        doc.text
    );
    assert!(doc.text.contains("\n0,*octocat,"), "{}", doc.text);
    assert_eq!(doc.references, 1);
    assert_eq!(doc.readability(), 4);
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, v);
}

/// Arrays of primitives in a table's cells are list cells, cheaper than
/// any `*name`: they are not named, so their column stays a list column
/// rather than turning into a column of flow values. Arrays of primitives
/// elsewhere (here: the members of a root object) are still named.
#[test]
fn primitive_arrays_in_cells_stay_list_cells() {
    let tags = ["alpha", "beta", "gamma", "delta"];
    let rows: Vec<String> = (0..40)
        .map(|i| {
            let t: Vec<String> = (0..4)
                .map(|j| format!("\"{}\"", tags[(i / 10 + j) % 4]))
                .collect();
            format!(r#"{{"id":{i},"tags":[{}]}}"#, t.join(","))
        })
        .collect();
    let v = pith::json::parse(&format!("[{}]", rows.join(","))).unwrap();
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert_eq!(doc.references, 0, "{}", doc.text);
    assert!(
        doc.text
            .contains("]{id,tags[]}:\n0,alpha beta gamma delta\n"),
        "{}",
        doc.text
    );
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, v);

    let list = r#"["a long name one","a long name two","a long name three"]"#;
    let members: Vec<String> = (0..6).map(|i| format!(r#""k{i}":{list}"#)).collect();
    let v = pith::json::parse(&format!("{{{}}}", members.join(","))).unwrap();
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert_eq!(doc.references, 1, "{}", doc.text);
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, v);
}

#[test]
fn arrays_of_objects_in_rows_become_record_lists() {
    let items = ["Wireless Mouse", "USB Cable", "Laptop Stand"];
    let rows: Vec<String> = (0..12)
        .map(|i| {
            let lines: Vec<String> = (0..=i % 3)
                .map(|j| {
                    format!(
                        r#"{{"sku":"SKU-{i}{j}","name":"{}","qty":{}}}"#,
                        items[j],
                        j + 1
                    )
                })
                .collect();
            format!(
                r#"{{"id":"ORD-{i}","items":[{}],"total":{i}.5}}"#,
                lines.join(",")
            )
        })
        .collect();
    let v = pith::json::parse(&format!(r#"{{"orders":[{}]}}"#, rows.join(","))).unwrap();
    for floor in [5, 4, 3] {
        let doc = notation::encode(&v, &Options::for_readability(floor, true)).unwrap();
        assert!(
            doc.text.starts_with(
                "%pith\norders[12]{id,items[]{sku,name,qty},total}:\n\
                 ORD-0,[SKU-00,Wireless Mouse,1],.5\n\
                 ORD-1,[SKU-10,Wireless Mouse,1][SKU-11,USB Cable,2],1.5\n"
            ),
            "{}",
            doc.text
        );
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
        // Fewer tokens than the same rows with the objects as flow cells,
        // which read back to the same value.
        let mut lines = doc.text.lines();
        let mut flow = vec![
            lines.next().unwrap().to_owned(),
            lines
                .next()
                .unwrap()
                .replace("items[]{sku,name,qty}", "items"),
        ];
        for line in lines {
            let (id, rest) = line.split_once(',').unwrap();
            let (cell, total) = rest.rsplit_once(',').unwrap();
            let objects: Vec<String> = cell[1..cell.len() - 1]
                .split("][")
                .map(|record| {
                    let m: Vec<&str> = record.split(',').collect();
                    format!("{{sku:{},name:{},qty:{}}}", m[0], m[1], m[2])
                })
                .collect();
            flow.push(format!("{id},[{}],{total}", objects.join(",")));
        }
        let flow = flow.join("\n");
        let same = notation::decode(flow.as_bytes(), &Default::default()).unwrap();
        assert_eq!(pith::json::stringify(&same), pith::json::stringify(&v));
        let tok = Tokenizer::get(TokenizerKind::O200k);
        assert!(tok.count(&doc.text) < tok.count(&flow), "{flow}");
    }
    // `auto` keeps it.
    let out = select::encode(&v, &select::Options::default()).unwrap();
    assert!(out.text.contains("items[]{sku,name,qty}"), "{}", out.text);

    // Objects whose keys come in another order keep it: a flow cell.
    let v = pith::json::parse(
        r#"[{"id":1,"xs":[{"a":1,"b":2},{"a":3,"b":4}]},{"id":2,"xs":[{"b":5,"a":6},{"a":7,"b":8}]}]"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
    assert!(!doc.text.contains("[]{"), "{}", doc.text);
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));

    // Objects named for repeating (labels shared by issues) stay `*name`
    // in flow cells where references are allowed, and make a record list
    // where they are not.
    let label = |n: &str, c: &str| format!(r#"{{"name":"{n}","color":"{c}","default":false}}"#);
    let (bug, docs) = (label("bug", "d73a4a"), label("documentation", "0075ca"));
    let rows: Vec<String> = (0..8)
        .map(|i| {
            let labels = match i % 3 {
                0 => format!("[{bug}]"),
                1 => format!("[{bug},{docs}]"),
                _ => "[]".to_owned(),
            };
            format!(r#"{{"number":{i},"labels":{labels}}}"#)
        })
        .collect();
    let v = pith::json::parse(&format!("[{}]", rows.join(","))).unwrap();
    let named = notation::encode(&v, &options(true, false)).unwrap();
    assert!(named.text.contains("*bug"), "{}", named.text);
    assert!(!named.text.contains("[]{"), "{}", named.text);
    let plain = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
    assert!(
        plain
            .text
            .contains("[8]{number,labels[]{name,color,default}}:\n0,[bug,d73a4a,false]\n"),
        "{}",
        plain.text
    );
    for doc in [named, plain] {
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v);
    }
}

#[test]
fn objects_that_place_a_key_differently_still_make_groups_and_record_lists() {
    // The first owner and target lack a key that later ones hold in the
    // middle: first-seen order would put it last, where those objects do
    // not have it. The fields take an order every object keeps.
    let v = pith::json::parse(
        r#"[{"id":0,"owner":{"id":100,"login":"user0"},"targets":[{"kind":"lib","name":"core0","doc":true}]},
            {"id":1,"owner":{"id":101,"name":"User 1","login":"user1"},"targets":[{"kind":"lib","name":"core1","doc":true},{"kind":"bin","name":"tool1","features":["cli"],"doc":false}]},
            {"id":2,"owner":{"id":102,"login":"user2"},"targets":[{"kind":"lib","name":"core2","doc":true}]},
            {"id":3,"owner":{"id":103,"name":"User 3","login":"user3"},"targets":[{"kind":"lib","name":"core3","doc":true}]},
            {"id":4,"owner":{"id":104,"login":"user4"},"targets":[{"kind":"lib","name":"core4","doc":true},{"kind":"bin","name":"tool4","features":["cli"],"doc":false}]},
            {"id":5,"owner":{"id":105,"name":"User 5","login":"user5"},"targets":[{"kind":"lib","name":"core5","doc":true}]}]"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
    assert_eq!(
        doc.text,
        "%pith\n[6]{id,owner{id,name?,login},targets[]{kind,name,features?,doc}}:\n\
         0,100,,user0,[lib,core0,,true]\n\
         1,101,User 1,user1,[lib,core1,,true][bin,tool1,[cli],false]\n\
         2,102,,user2,[lib,core2,,true]\n\
         3,103,User 3,user3,[lib,core3,,true]\n\
         4,104,,user4,[lib,core4,,true][bin,tool4,[cli],false]\n\
         5,105,User 5,user5,[lib,core5,,true]"
    );
    // Every object keeps its key order.
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    // Fewer tokens than the flow cells the objects were written as before.
    let flow = "%pith\n[6]{id,owner,targets}:\n\
        0,{id:100,login:user0},[{kind:lib,name:core0,doc:true}]\n\
        1,{id:101,name:User 1,login:user1},[{kind:lib,name:core1,doc:true},{kind:bin,name:tool1,features:[cli],doc:false}]\n\
        2,{id:102,login:user2},[{kind:lib,name:core2,doc:true}]\n\
        3,{id:103,name:User 3,login:user3},[{kind:lib,name:core3,doc:true}]\n\
        4,{id:104,login:user4},[{kind:lib,name:core4,doc:true},{kind:bin,name:tool4,features:[cli],doc:false}]\n\
        5,{id:105,name:User 5,login:user5},[{kind:lib,name:core5,doc:true}]";
    let same = notation::decode(flow.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&same), pith::json::stringify(&v));
    let tok = Tokenizer::get(TokenizerKind::O200k);
    assert!(tok.count(&doc.text) < tok.count(flow));

    // Objects that hold two keys in opposite orders have no such order:
    // flow cells, each object as it is.
    let v = pith::json::parse(
        r#"[{"id":1,"o":{"a":1,"b":2,"c":3},"xs":[{"a":1,"b":2,"c":3},{"a":1,"c":3}]},
            {"id":2,"o":{"a":1,"c":3,"b":2},"xs":[{"a":4,"c":5,"b":6},{"a":7,"b":8}]}]"#,
    )
    .unwrap();
    for floor in [5, 4, 3] {
        let doc = notation::encode(&v, &Options::for_readability(floor, true)).unwrap();
        assert!(doc.text.contains("\n[2]{id,o,xs}:\n"), "{}", doc.text);
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    }
}

#[test]
fn named_objects_and_arrays_stand_in_record_lists() {
    // Dependencies that recur across packages are named; a record list
    // writes a named one as `*name` among its records, and a named array
    // as `*name`, the whole cell.
    let dep = |n: &str, kind: &str| {
        format!(
            r#"{{"name":"{n}","source":"registry+https://github.com/rust-lang/crates.io-index","req":"^1.0","kind":{kind},"optional":false}}"#
        )
    };
    let (serde, libc, memchr) = (
        dep("serde", "null"),
        dep("libc", "null"),
        dep("memchr", "null"),
    );
    let v = pith::json::parse(&format!(
        r#"{{"packages":[{{"name":"alpha","dependencies":[{serde},{libc},{}]}},
            {{"name":"beta","dependencies":[{serde},{memchr}]}},
            {{"name":"gamma","dependencies":[]}},
            {{"name":"delta","dependencies":[{serde},{memchr}]}},
            {{"name":"eps","dependencies":[{libc},{}]}}]}}"#,
        dep("proptest", "\"dev\""),
        dep("rand", "\"dev\"")
    ))
    .unwrap();
    let prelude = "%pith\n\
        &serde: {name:serde,source:&source registry+https://github.com/rust-lang/crates.io-index,req:^1.0,kind:null,optional:false}\n\
        &libc: {name:libc,source:*source,req:^1.0,kind:null,optional:false}\n\
        &dependencies: [*serde,{name:memchr,source:*source,req:^1.0,kind:null,optional:false}]\n";
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert_eq!(
        doc.text,
        format!(
            "{prelude}packages[5]{{name,dependencies[]{{name,source,req,kind,optional}}}}:\n\
             alpha,*serde*libc[proptest,*source,^1.0,dev,false]\n\
             beta,*dependencies\n\
             gamma,[]\n\
             delta,*dependencies\n\
             eps,*libc[rand,*source,^1.0,dev,false]"
        )
    );
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    // The flow cells the column was written as before: the same value, more
    // tokens.
    let flow = format!(
        "{prelude}packages[5]{{name,dependencies}}:\n\
         alpha,[*serde,*libc,{{name:proptest,source:*source,req:^1.0,kind:dev,optional:false}}]\n\
         beta,*dependencies\n\
         gamma,[]\n\
         delta,*dependencies\n\
         eps,[*libc,{{name:rand,source:*source,req:^1.0,kind:dev,optional:false}}]"
    );
    let same = notation::decode(flow.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&same), pith::json::stringify(&v));
    let tok = Tokenizer::get(TokenizerKind::O200k);
    assert!(tok.count(&doc.text) < tok.count(&flow));
}

#[test]
fn keys_are_quoted_only_where_the_notation_needs_it() {
    let v = pith::json::parse(
        r#"{"dist-tags":{"latest":"1.0.0"},"$ref":"x","/users":1,"0.14.0":{"@babel/core":"^7","200":"ok"},
            "-x":1,"a b":2,"~t":3,"%p":4,"a?":5,"a=b":6,"a#b":7,"":8,
            "rows":[{"x-a":1,"@b":{"c-d":2}},{"x-a":3,"@b":{"c-d":4}}]}"#,
    )
    .unwrap();
    let text = notation::encode(&v, &Options::default()).unwrap().text;
    assert_eq!(
        text,
        "%pith\ndist-tags:\n  latest: 1.0.0\n$ref: x\n/users: 1\n0.14.0: {@babel/core:^7,200:ok}\n\
         \"-x\": 1\n\"a b\": 2\n\"~t\": 3\n\"%p\": 4\n\"a?\": 5\n\"a=b\": 6\n\"a#b\": 7\n\"\": 8\n\
         rows[2]{x-a,@b{c-d}}:\n1,2\n3,4"
    );
    assert_eq!(
        notation::decode(text.as_bytes(), &Default::default()).unwrap(),
        v
    );
}

#[test]
fn strings_quoted_only_for_colons_are_bare_where_no_key_can_start() {
    // A colon with a character other than a space after it (timestamps,
    // URLs, `scheme:id`) leaves a string bare after `key: `, in an inline
    // array, in a list cell and in the cells of a table that uses the
    // notation's own columns; `: `, a colon at either end, a list item
    // (`- `), a document's only value and the cells of a TOON table (every
    // column a plain field) keep TOON's quotes.
    for (json, text) in [
        (
            r#"{"at":"2025-05-31T04:39:31.392Z","said":"note: quoted","ends":"trailing:","both":"a:b: c","starts":":x"}"#,
            "%pith\nat: 2025-05-31T04:39:31.392Z\nsaid: \"note: quoted\"\nends: \"trailing:\"\nboth: \"a:b: c\"\nstarts: \":x\"",
        ),
        (
            r#"{"logs":[{"t":"12:30","u":"https://x.org/a"},{"t":"13:45"},{"t":"14:00","u":"a"},{"t":"15:15","u":"b"}]}"#,
            "%pith\nlogs[4]{t,u?}:\n12:30,https://x.org/a\n13:45,\n14:00,a\n15:15,b",
        ),
        (
            r#"{"logs":[{"t":"12:30","u":"https://x.org/a"},{"t":"13:45","u":"urn:x:y"},{"t":"14:00","u":"a"},{"t":"15:15","u":"b"}]}"#,
            "%pith\nlogs[4]{t,u}:\n\"12:30\",\"https://x.org/a\"\n\"13:45\",\"urn:x:y\"\n\"14:00\",a\n\"15:15\",b",
        ),
        (
            r#"{"times":["12:30","13:45"]}"#,
            "%pith\ntimes[2]: 12:30,13:45",
        ),
        (
            r#"[{"t":"12:30","tags":["a:b","c"]},{"t":"13:45","tags":["d:e"]},{"t":"14:00","tags":[]}]"#,
            "%pith\n[3]{t,tags[]}:\n12:30,a:b c\n13:45,d:e\n14:00,[]",
        ),
        (
            r#"["a:b",{"x":1},[1]]"#,
            "%pith\n[3]:\n  - \"a:b\"\n  - {x:1}\n  - [1]",
        ),
        (r#""a:b""#, "%pith\n\"a:b\""),
    ] {
        let v = pith::json::parse(json).unwrap();
        let doc = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
        assert_eq!(doc.text, text, "{json}");
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v, "{json}");
    }
    // A named one, anchored where it is first used: bare after `key: `,
    // quoted as a list item.
    for (json, text) in [
        (
            r#"{"a":"2025-05-31T04:39:31.392Z","rows":[{"t":"2025-05-31T04:39:31.392Z","n":1},{"t":"2025-05-31T04:39:31.392Z","n":2}]}"#,
            "%pith\na: &a 2025-05-31T04:39:31.392Z\nrows[2]{t,n}:\n*a,1\n*a,2",
        ),
        (
            r#"["2025-05-31T04:39:31.392Z","2025-05-31T04:39:31.392Z","2025-05-31T04:39:31.392Z",{"x":1}]"#,
            "%pith\n[4]:\n  - &item \"2025-05-31T04:39:31.392Z\"\n  - *item\n  - *item\n  - {x:1}",
        ),
    ] {
        let v = pith::json::parse(json).unwrap();
        let doc = notation::encode(&v, &options(true, false)).unwrap();
        assert_eq!(doc.text, text, "{json}");
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v, "{json}");
    }
}

#[test]
fn strings_quoted_only_for_brackets_braces_or_delimiters_are_bare_after_a_key() {
    // After `key: ` a value runs to the end of its line: a string that
    // TOON quotes for a comma, a bracket or a brace, none of `[` and `{`
    // first, is bare there. In a cell, an inline array, a list item, a
    // flow value and a document's only value it keeps its quotes, and so
    // does one that starts with `[` or `{`, or holds `"`, `\` or `: `.
    for (json, delimiter, text) in [
        (
            r#"{"msg":"Fix the loop, then rerun","tpl":"'{0}' is not [allowed]","open":"[WIP] fix","brace":"{id} first","q":"say \"hi\", twice","pipe":"a|b"}"#,
            Delimiter::Comma,
            "%pith\nmsg: Fix the loop, then rerun\ntpl: '{0}' is not [allowed]\nopen: \"[WIP] fix\"\nbrace: \"{id} first\"\nq: \"say \\\"hi\\\", twice\"\npipe: a|b",
        ),
        (
            r#"{"msg":"a, b","pipe":"a|b","both":"x: y, z"}"#,
            Delimiter::Pipe,
            "%pith\nmsg: a, b\npipe: a|b\nboth: \"x: y, z\"",
        ),
        (
            r#"{"rows":[{"t":"a, b","u":"x]"},{"t":"c","u":"y"}],"tags":["a, b","{c}"],"f":{"g":[1,"a, b"]}}"#,
            Delimiter::Comma,
            "%pith\nrows[2]{t,u}:\n\"a, b\",\"x]\"\nc,y\ntags[2]: \"a, b\",\"{c}\"\nf: {g:[1,\"a, b\"]}",
        ),
        (
            r#"["a, b",{"x":1},[1]]"#,
            Delimiter::Comma,
            "%pith\n[3]:\n  - \"a, b\"\n  - {x:1}\n  - [1]",
        ),
        (r#""a, b""#, Delimiter::Comma, "%pith\n\"a, b\""),
    ] {
        let v = pith::json::parse(json).unwrap();
        let mut opts = Options::for_readability(5, true);
        opts.delimiter = delimiter;
        let doc = notation::encode(&v, &opts).unwrap();
        assert_eq!(doc.text, text, "{json}");
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v, "{json}");
    }
    // Named, anchored at its first use after `key: `: bare there too.
    let json = r#"{"a":"Fix the loop, then {rerun} the [flaky] suite twice over","b":"Fix the loop, then {rerun} the [flaky] suite twice over","c":"Fix the loop, then {rerun} the [flaky] suite twice over"}"#;
    let v = pith::json::parse(json).unwrap();
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert_eq!(
        doc.text,
        "%pith\na: &a Fix the loop, then {rerun} the [flaky] suite twice over\nb: *a\nc: *a"
    );
    assert_eq!(
        notation::decode(doc.text.as_bytes(), &Default::default()).unwrap(),
        v
    );
}

#[test]
fn arrays_of_named_strings_are_flow_cells_where_that_costs_less() {
    // A list cell writes its items out; a flow cell writes a named string
    // as `*name`. Long strings repeated across rows make the flow cells
    // cheaper: the column is written that way where names are allowed.
    let v = pith::json::parse(
        r#"{"nodes":[
            {"id":"pkg:alpha@1.0.0","deps":["registry+https://example.org/index#beta@2.0.0","registry+https://example.org/index#gamma@3.0.0"]},
            {"id":"pkg:beta@2.0.0","deps":["registry+https://example.org/index#gamma@3.0.0"]},
            {"id":"pkg:gamma@3.0.0","deps":[]},
            {"id":"pkg:delta@4.0.0","deps":["registry+https://example.org/index#beta@2.0.0","registry+https://example.org/index#gamma@3.0.0"]},
            {"id":"pkg:eps@5.0.0","deps":["registry+https://example.org/index#beta@2.0.0"]}]}"#,
    )
    .unwrap();
    let named = notation::encode(&v, &options(true, false)).unwrap();
    assert_eq!(
        named.text,
        "%pith\nnodes[5]{id,deps}:\n\
         \"pkg:alpha@1.0.0\",[&deps2 registry+https://example.org/index#beta@2.0.0,&deps registry+https://example.org/index#gamma@3.0.0]\n\
         \"pkg:beta@2.0.0\",[*deps]\n\
         \"pkg:gamma@3.0.0\",[]\n\
         \"pkg:delta@4.0.0\",[*deps2,*deps]\n\
         \"pkg:eps@5.0.0\",[*deps2]"
    );
    // The list column, the strings written out, reads back the same and
    // costs more; it is what a writer without names writes.
    let list = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
    assert!(
        list.text.starts_with("%pith\nnodes[5]{id,deps[]}:\n"),
        "{}",
        list.text
    );
    let tok = Tokenizer::get(TokenizerKind::O200k);
    assert!(tok.count(&named.text) < tok.count(&list.text));
    for doc in [named, list] {
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(back, v);
    }
    // Short items, named or not, stay a list column.
    let v = pith::json::parse(
        r#"[{"id":1,"tags":["alpha","beta"]},{"id":2,"tags":["beta"]},{"id":3,"tags":[]}]"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &options(true, false)).unwrap();
    assert!(
        doc.text.contains("{id,tags[]}:\n1,alpha beta\n"),
        "{}",
        doc.text
    );
}

#[test]
fn maps_of_objects_become_keyed_tables() {
    // Rate limits by resource, feature flags by name: a map whose values
    // are records is a keyed table, its rows named by their keys (a name
    // that is not a bare key is quoted), sparse columns as in any table.
    let v = pith::json::parse(
        r#"{"resources":{"core":{"limit":5000,"used":1,"reset":1784340136},
            "search":{"limit":30,"used":0,"reset":1784336597},
            "code scanning":{"limit":10,"used":0,"reset":1784336597,"note":"beta"}},
            "rate":{"limit":5000,"used":1}}"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &options(false, false)).unwrap();
    assert_eq!(
        doc.text,
        "%pith\nresources[3:]{limit,used,reset,note?}:\n  core: 5000,1,1784340136,\n  \
         search: 30,0,1784336597,\n  \"code scanning\": 10,0,1784336597,beta\nrate: \
         {limit:5000,used:1}"
    );
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, v);
}

#[test]
fn a_long_layout_is_weighed_at_one_level_only() {
    // `inner`, 3,000 members, is weighed as lines and as one flow value
    // (about 30 KB), and the flow value is kept. Everything around it that
    // is weighed again would write and count those 30 KB once more per
    // level: `outer` is written as lines without being weighed.
    let members: Vec<String> = (0..3000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let json = format!(
        r#"{{"outer":{{"inner":{{{}}},"n":1}},"b":1}}"#,
        members.join(",")
    );
    let v = pith::json::parse(&json).unwrap();
    let doc = notation::encode(&v, &options(false, false)).unwrap();
    assert!(
        doc.text.starts_with("%pith\nouter:\n  inner: {k0:0,k1:1,"),
        "{}",
        &doc.text[..80]
    );
    assert!(
        doc.text.ends_with(",k2999:2999}\n  n: 1\nb: 1"),
        "{}",
        &doc.text[doc.text.len() - 80..]
    );
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, v);
    // Short layouts around short ones are still weighed: a small `outer`
    // is one flow value.
    let v = pith::json::parse(r#"{"outer":{"inner":{"k0":0,"k1":1},"n":1},"b":1}"#).unwrap();
    let doc = notation::encode(&v, &options(false, false)).unwrap();
    assert_eq!(doc.text, "%pith\nouter: {inner:{k0:0,k1:1},n:1}\nb: 1");
}

#[test]
fn ten_thousand_sparse_rows_and_a_wide_row_round_trip() {
    // Rows that share one key: no table of 10,001 mostly empty columns.
    let rows: Vec<Value> = (0..10_000)
        .map(|i| {
            object(vec![
                ("id".into(), Value::from(i)),
                (format!("field_{i}"), Value::from(format!("fact-{i}"))),
            ])
        })
        .collect();
    let v = Value::Array(rows);
    for (r, d) in [(false, false), (true, true)] {
        let o = options(r, d);
        let doc = notation::encode(&v, &o).unwrap();
        assert!(!doc.text.contains("{id,field_0"), "{}", &doc.text[..200]);
        assert_eq!(
            notation::decode(doc.text.as_bytes(), &Default::default()).unwrap(),
            v
        );
    }
    // Sparse rows that do share most keys: a table, absent apart from null.
    let rows: Vec<Value> = (0..10_000)
        .map(|i| {
            let mut m = Map::new();
            m.insert("id", Value::from(i));
            if i % 3 == 0 {
                m.insert("note", Value::Null);
            } else if i % 3 == 1 {
                m.insert("note", Value::from(""));
            }
            m.insert("n", Value::from(i * 7));
            Value::Object(m)
        })
        .collect();
    let v = object(vec![("items".into(), Value::Array(rows))]);
    let doc = notation::encode(&v, &options(false, false)).unwrap();
    assert!(
        doc.text
            .starts_with("%pith\nitems[10000]{id,note?,n}:\n0,null,0\n1,\"\",7\n2,,14\n")
    );
    assert_eq!(
        notation::decode(doc.text.as_bytes(), &Default::default()).unwrap(),
        v
    );
}

#[test]
fn numbers_below_one_drop_their_leading_zero_and_look_alikes_are_quoted() {
    let v = pith::json::parse(
        r#"{"rows":[{"p":0.722,"s":".5","l":[-0.25,".5",0.1000000000000000055511151231257827]},
                    {"p":-0.5,"s":"-.5","l":[0.000001]}],"x":0.75,"y":".25"}"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &options(false, false)).unwrap();
    assert_eq!(
        doc.text,
        "%pith\nrows[2]{p,s,l[]}:\n.722,\".5\",-.25 \".5\" .1000000000000000055511151231257827\n\
         -.5,\"-.5\",.000001\nx: .75\ny: \".25\""
    );
    assert_eq!(
        notation::decode(doc.text.as_bytes(), &Default::default()).unwrap(),
        v
    );
}

#[test]
fn exact_numbers_and_deep_nesting_survive() {
    let v = pith::json::parse(
        r#"{"rows":[{"n":9007199254740993,"x":[1e400,-0.1000000000000000055511151231257827]},
                    {"n":123456789012345678901234567890.5,"x":[]}],"big":1e-400}"#,
    )
    .unwrap();
    for (r, d) in [(false, false), (true, true)] {
        let doc = notation::encode(&v, &options(r, d)).unwrap();
        assert_eq!(
            notation::decode(doc.text.as_bytes(), &Default::default()).unwrap(),
            v
        );
    }
    let mut deep = pith::json::parse(r#"{"leaf":[1,{"k":null}]}"#).unwrap();
    for i in 0..120 {
        deep = object(vec![("k".into(), Value::Array(vec![deep, Value::from(i)]))]);
    }
    assert!(deep.depth() > 240 && deep.depth() <= 256);
    let doc = notation::encode(&deep, &options(true, true)).unwrap();
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(back, deep);
    let mut deeper = deep;
    while deeper.depth() <= 256 {
        deeper = Value::Array(vec![deeper]);
    }
    let err = notation::encode(&deeper, &Options::default()).unwrap_err();
    assert_eq!(err.kind(), pith::ErrorKind::DepthLimit);
}

#[test]
fn references_never_expand_past_what_a_reader_reads() {
    // A reader bounds what names expand to (64 times the document, at
    // least 64 MiB, weighing each use as a clone of its value). 105 copies
    // of 20,000 zeros are 4.2 MB of JSON, and a name for them 41 KB of
    // notation whose uses would expand to about 67 MB: past the bound,
    // so they are not named. Ten copies are.
    let zeros = Value::Array(vec![Value::from(0); 20_000]);
    for (copies, named) in [(105, false), (10, true)] {
        let v = Value::Array(vec![zeros.clone(); copies]);
        let doc = notation::encode(&v, &options(true, false)).unwrap();
        assert_eq!(doc.text.contains("*item"), named, "{copies} copies");
        let back = notation::decode(doc.text.as_bytes(), &Default::default())
            .unwrap_or_else(|e| panic!("{copies} copies: {e}"));
        assert!(back == v, "{copies} copies");
        let out = select::encode(&v, &select::Options::default()).unwrap();
        let back = select::decode(out.text.as_bytes(), &Default::default())
            .unwrap_or_else(|e| panic!("{copies} copies, auto: {e}"));
        assert!(back == v, "{copies} copies, auto");
    }
}

#[test]
fn the_pith_form_obeys_the_floor() {
    let rows: Vec<String> = (0..12)
        .map(|i| format!(r#"{{"id":{i},"state":"open","url":"https://x.org/i/{i}","owner":{{"login":"octocat","id":1,"site":"https://github.com/octocat"}}}}"#))
        .collect();
    let v = pith::json::parse(&format!("[{}]", rows.join(","))).unwrap();
    for floor in [5, 4, 3] {
        let opts = select::Options::default()
            .form(Form::Pith)
            .metric(Metric::Tokens(TokenizerKind::O200k))
            .min_readability(floor);
        let out = select::encode(&v, &opts).unwrap();
        assert!(select::readability(&out) >= floor, "{floor}: {}", out.text);
        assert_eq!(
            select::decode(out.text.as_bytes(), &Default::default()).unwrap(),
            v
        );
        if floor == 3 {
            assert!(out.text.contains("state=open"), "{}", out.text);
            assert!(
                out.text.contains("url=`https://x.org/i/${id}`"),
                "{}",
                out.text
            );
        }
    }
}

#[test]
fn the_primer_is_short_and_names_every_feature() {
    let tokens = Tokenizer::get(TokenizerKind::O200k).count(notation::PRIMER);
    println!("primer: {tokens} o200k tokens");
    assert!(tokens <= 120, "{tokens}");
    for feature in [
        "%pith",
        "[N]{",
        "b?",
        "c{x,y}",
        "~",
        "d[]",
        "d[]{x,y}",
        "[x,y][x,y]",
        "{k:v}",
        "&n",
        "*n",
        "k=v",
        "${f}",
    ] {
        assert!(notation::PRIMER.contains(feature), "{feature}");
    }
}

#[test]
fn empty_objects_are_rows_of_empty_cells() {
    // A list of objects, one of them empty: a table, the empty one a row
    // of empty cells, where it was a list of flow items.
    let v = pith::json::parse(
        r#"[{},{"id":1,"name":"core","tags":["a"]},{"id":2,"name":"cli","tags":[]},
            {"id":3,"name":"wire","tags":["b","c"]}]"#,
    )
    .unwrap();
    let doc = notation::encode(&v, &Options::for_readability(5, true)).unwrap();
    assert_eq!(
        doc.text,
        "%pith\n[4]{id?,name?,tags?[]}:\n,,\n1,core,a\n2,cli,[]\n3,wire,b c"
    );
    let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    let items = "%pith\n[4]:\n  - {}\n  - {id:1,name:core,tags:[a]}\n  - {id:2,name:cli,tags:[]}\n  - {id:3,name:wire,tags:[b,c]}";
    let same = notation::decode(items.as_bytes(), &Default::default()).unwrap();
    assert_eq!(pith::json::stringify(&same), pith::json::stringify(&v));
    let tok = Tokenizer::get(TokenizerKind::O200k);
    assert!(tok.count(&doc.text) < tok.count(items));

    // A map whose values are objects, some empty (regions without an
    // endpoint of their own): a keyed table, in every delimiter.
    let regions: Vec<String> = (0..12)
        .map(|i| match i % 4 {
            0 => format!(r#""r{i}":{{}}"#),
            _ => format!(r#""r{i}":{{"hostname":"h{i}.example.com","region":"us-{i}"}}"#),
        })
        .collect();
    let v = pith::json::parse(&format!(r#"{{"endpoints":{{{}}}}}"#, regions.join(","))).unwrap();
    for (delimiter, row) in [
        (pith::toon::Delimiter::Comma, "  r0: ,\n"),
        (pith::toon::Delimiter::Tab, "  r0: \t\n"),
        (pith::toon::Delimiter::Pipe, "  r0: |\n"),
    ] {
        let mut opts = Options::for_readability(5, true);
        opts.delimiter = delimiter;
        let doc = notation::encode(&v, &opts).unwrap();
        assert!(doc.text.contains(row), "{}", doc.text);
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    }

    // One column: an empty object would be an empty row, which the
    // notation has not; those objects stay flow items, at every floor.
    let v = pith::json::parse(r#"[{},{"id":1},{"id":2},{"id":3}]"#).unwrap();
    for floor in [5, 4, 3] {
        let doc = notation::encode(&v, &Options::for_readability(floor, true)).unwrap();
        assert_eq!(
            doc.text,
            "%pith\n[4]:\n  - {}\n  - {id:1}\n  - {id:2}\n  - {id:3}"
        );
        let back = notation::decode(doc.text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(pith::json::stringify(&back), pith::json::stringify(&v));
    }
}

//! Budgets, checked from the outside: outputs are decoded like any reader
//! would decode them, a reader written here from the documented format
//! says which rows of which collection each output shows, and that is
//! compared with the original value.

use pith::budget::{Budget, BudgetError, Cursor, Exceeded, FitOptions, Fitted, fit};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::{self, DecodeOptions, EncodeOptions};
use pith::{Map, Value, json};
use proptest::prelude::*;
use std::collections::{BTreeMap, VecDeque};

#[path = "support/datasets.rs"]
mod datasets;
use datasets::datasets;

// ---------------------------------------------------------------------------
// A reader of budgeted output, written from the module docs.

/// One step of a place in the original document.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Seg {
    Key(String),
    Index(usize),
}

type Path = Vec<Seg>;

/// What an output shows of one collection.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shown {
    from: usize,
    shown: usize,
    total: usize,
    cursor: Option<String>,
}

/// A decoded output, taken apart.
#[derive(Debug)]
struct Reading {
    /// The shown document (or page rows), receipts removed.
    body: Value,
    /// Where `body` sits in the original.
    base: Path,
    /// Every array in the output, by its place in the original.
    shown: BTreeMap<Path, Shown>,
    read_output: Map,
}

fn read(output: &Value) -> Reading {
    let root = output.as_object().expect("budgeted output is an object");
    let (last_key, ro) = root.get_index(root.len() - 1).expect("root has keys");
    assert_eq!(
        last_key, "read_output",
        "read_output is the root's last key"
    );
    let ro = ro.as_object().expect("read_output is an object").clone();
    let suffix = match ro.get("receipt_suffix") {
        Some(s) => s.as_str().expect("receipt_suffix is a string").to_owned(),
        None => "_omitted".to_owned(),
    };
    assert_ne!(suffix, "", "receipt suffix");
    let mut r = Reader {
        suffix,
        shown: BTreeMap::new(),
    };
    let wrapped = ro.get("wrapped") == Some(&Value::Bool(true));
    let (body, base) = if wrapped {
        let base: Path = match ro.get("collection") {
            Some(Value::Array(place)) => place
                .iter()
                .map(|s| match s {
                    Value::String(k) => Seg::Key(k.clone()),
                    Value::Number(n) => Seg::Index(n.as_u64().expect("index") as usize),
                    other => panic!("collection step {other:?}"),
                })
                .collect(),
            Some(other) => panic!("collection {other:?}"),
            None => Vec::new(),
        };
        let keys: Vec<&pith::Key> = root.keys().collect();
        let mut wrapper = root.clone();
        wrapper.remove("read_output");
        assert!(
            keys.len() <= 3 && wrapper.contains_key("result"),
            "a wrapped output holds result, its receipt and read_output: {keys:?}"
        );
        let mut stripped = r.object(&wrapper, &base, true);
        let body = stripped
            .as_object_mut()
            .and_then(|m| m.remove("result"))
            .expect("result");
        (body, base)
    } else {
        assert!(!ro.contains_key("collection"), "a page is always wrapped");
        let mut doc = root.clone();
        doc.remove("read_output");
        (r.object(&doc, &[], false), Vec::new())
    };
    Reading {
        body,
        base,
        shown: r.shown,
        read_output: ro,
    }
}

struct Reader {
    suffix: String,
    shown: BTreeMap<Path, Shown>,
}

impl Reader {
    /// The object without receipts. `wrapper`: the members are `result`
    /// (at `path` itself) and its receipt.
    fn object(&mut self, m: &Map, path: &[Seg], wrapper: bool) -> Value {
        let mut out = Map::new();
        for (k, v) in m.iter() {
            if let Some(stem) = k.strip_suffix(self.suffix.as_str())
                && matches!(m.get(stem), Some(Value::Array(_)))
            {
                continue; // a receipt, read with its array
            }
            let mut p = path.to_vec();
            if !wrapper {
                p.push(Seg::Key(k.to_string()));
            }
            let v = match v {
                Value::Array(rows) => {
                    let receipt = m
                        .get(&format!("{k}{}", self.suffix))
                        .map(|r| r.as_object().expect("a receipt is an object").clone());
                    let mut nested = BTreeMap::new();
                    if let Some(list) = receipt.as_ref().and_then(|r| r.get("nested")) {
                        for n in list.as_array().expect("nested is a list") {
                            let n = n.as_object().expect("nested receipt is an object");
                            let at: Vec<usize> = n
                                .get("at")
                                .and_then(Value::as_array)
                                .expect("nested receipt has at")
                                .iter()
                                .map(|i| {
                                    i.as_number().and_then(|n| n.as_u64()).expect("at index")
                                        as usize
                                })
                                .collect();
                            assert!(
                                nested.insert(at, n.clone()).is_none(),
                                "one receipt per place"
                            );
                        }
                    }
                    let v = self.array(rows, receipt.as_ref(), p, &[], &mut nested);
                    assert!(
                        nested.is_empty(),
                        "every nested receipt names a shown array: {nested:?}"
                    );
                    v
                }
                Value::Object(inner) => self.object(inner, &p, false),
                other => other.clone(),
            };
            out.insert(k.clone(), v);
        }
        Value::Object(out)
    }

    fn array(
        &mut self,
        rows: &[Value],
        receipt: Option<&Map>,
        path: Path,
        at: &[usize],
        nested: &mut BTreeMap<Vec<usize>, Map>,
    ) -> Value {
        let num = |r: &Map, k: &str| -> Option<usize> {
            r.get(k)
                .map(|v| v.as_number().and_then(|n| n.as_u64()).expect("count") as usize)
        };
        let shown = match receipt {
            Some(r) => {
                let total = num(r, "total").expect("receipt has total");
                let from = num(r, "from").unwrap_or(0);
                let shown = num(r, "shown").expect("receipt has shown");
                assert_eq!(shown, rows.len(), "receipt's shown count at {path:?}");
                assert_eq!(
                    num(r, "omitted"),
                    Some(total - shown),
                    "omitted = total - shown"
                );
                let cursor = r
                    .get("cursor")
                    .map(|c| c.as_str().expect("cursor is a string").to_owned());
                assert_eq!(
                    cursor.is_some(),
                    from + shown < total,
                    "cursor iff rows follow"
                );
                Shown {
                    from,
                    shown,
                    total,
                    cursor,
                }
            }
            None => Shown {
                from: 0,
                shown: rows.len(),
                total: rows.len(),
                cursor: None,
            },
        };
        let from = shown.from;
        assert!(self.shown.insert(path.clone(), shown).is_none());
        let mut out = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let mut p = path.clone();
            p.push(Seg::Index(from + i));
            out.push(match row {
                Value::Array(inner) => {
                    let mut here = at.to_vec();
                    here.push(from + i);
                    let r = nested.remove(&here);
                    self.array(inner, r.as_ref(), p, &here, nested)
                }
                Value::Object(m) => self.object(m, &p, false),
                other => other.clone(),
            });
        }
        Value::Array(out)
    }
}

/// The value at `path` in `doc`.
fn at_path<'a>(doc: &'a Value, path: &[Seg]) -> &'a Value {
    let mut v = doc;
    for s in path {
        v = match (s, v) {
            (Seg::Key(k), Value::Object(m)) => m.get(k).expect("key on the path"),
            (Seg::Index(i), Value::Array(a)) => a.get(*i).expect("index on the path"),
            other => panic!("path step {other:?}"),
        };
    }
    v
}

/// Checks that `shown` is `orig` with collections cut as `reading` says:
/// same members, and each array's rows the original's from `from`, in order.
fn check_against(reading: &Reading, shown: &Value, orig: &Value, path: &mut Path) {
    match (shown, orig) {
        (Value::Object(s), Value::Object(o)) => {
            // Keys compare as sets: a TOON table gives rows its header's order.
            assert_eq!(s.len(), o.len(), "members at {path:?}");
            for (k, sv) in s.iter() {
                let ov = o
                    .get(k)
                    .unwrap_or_else(|| panic!("key {k:?} not in the original at {path:?}"));
                path.push(Seg::Key(k.to_string()));
                check_against(reading, sv, ov, path);
                path.pop();
            }
        }
        (Value::Array(s), Value::Array(o)) => {
            let info = reading
                .shown
                .get(path)
                .unwrap_or_else(|| panic!("no reading at {path:?}"));
            assert_eq!(info.total, o.len(), "total at {path:?}");
            assert_eq!(info.shown, s.len());
            assert!(info.from + info.shown <= o.len());
            for (i, sv) in s.iter().enumerate() {
                path.push(Seg::Index(info.from + i));
                check_against(reading, sv, &o[info.from + i], path);
                path.pop();
            }
        }
        (s, o) => assert_eq!(s, o, "value at {path:?}"),
    }
}

/// Every array of `v` with its place.
fn arrays(v: &Value, path: &mut Path, out: &mut Vec<(Path, usize)>) {
    match v {
        Value::Array(a) => {
            out.push((path.clone(), a.len()));
            for (i, x) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                arrays(x, path, out);
                path.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m.iter() {
                path.push(Seg::Key(k.to_string()));
                arrays(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Rendering and checking one output.

#[derive(Debug, Clone, Copy)]
enum Format {
    Toon,
    Json,
}

fn render(format: Format) -> impl Fn(&Value) -> pith::Result<String> {
    move |v: &Value| match format {
        Format::Toon => toon::encode(v, &EncodeOptions::default()),
        Format::Json => Ok(json::stringify(v)),
    }
}

fn decode(format: Format, text: &str) -> Value {
    match format {
        Format::Toon => toon::decode(text, &DecodeOptions::default()),
        Format::Json => json::parse(text),
    }
    .unwrap_or_else(|e| panic!("output decodes: {e}\n{text}"))
}

fn run(
    doc: &Value,
    budget: Budget,
    kind: TokenizerKind,
    cursor: Option<&str>,
    format: Format,
) -> Result<Fitted, BudgetError> {
    let opts = FitOptions::default()
        .budget(budget)
        .tokenizer(kind)
        .cursor(cursor.map(|c| c.parse::<Cursor>().expect("cursor parses")));
    fit(doc, &opts, &render(format))
}

/// The smallest budget that works for `doc`, as the notice for a budget of 0 names it.
fn minimum(doc: &Value, kind: TokenizerKind, format: Format) -> usize {
    exceeded(run(doc, Budget::Tokens(0), kind, None, format)).minimum
}

fn exceeded(r: Result<Fitted, BudgetError>) -> Box<Exceeded> {
    match r {
        Err(BudgetError::Exceeded(e)) => e,
        Ok(f) => panic!("expected the budget to be exceeded, got\n{}", f.text),
        Err(e) => panic!("expected the budget to be exceeded, got {e}"),
    }
}

/// Checks a fitted output fully and returns what it shows.
fn check_output(
    doc: &Value,
    f: &Fitted,
    budget: usize,
    kind: TokenizerKind,
    format: Format,
) -> Reading {
    let count = Tokenizer::get(kind).count(&f.text);
    assert_eq!(count, f.tokens, "reported tokens are the exact count");
    assert!(
        count <= budget,
        "{count} tokens over a budget of {budget}:\n{}",
        f.text
    );
    let out = decode(format, &f.text);
    let reading = read(&out);
    let ro = &reading.read_output;
    assert_eq!(ro.get("tokens"), Some(&Value::from(count)));
    assert_eq!(ro.get("budget"), Some(&Value::from(budget)));
    assert_eq!(ro.get("tokenizer"), Some(&Value::from(kind.name())));
    assert_eq!(ro.get("fits"), Some(&Value::Bool(true)));
    let cut = reading
        .shown
        .values()
        .filter(|s| s.cursor.is_some())
        .count();
    assert_eq!(ro.get("collections_cut"), Some(&Value::from(cut)));
    assert_eq!(f.collections_cut, cut);
    let mut path = reading.base.clone();
    check_against(
        &reading,
        &reading.body,
        at_path(doc, &reading.base),
        &mut path,
    );
    if reading.base.is_empty() && !ro.contains_key("collection") {
        // A whole document: every array outside cut rows is shown from its start.
        for (p, s) in &reading.shown {
            assert_eq!(s.from, 0, "prefix at {p:?}");
        }
    }
    reading
}

/// Follows every cursor from the first output and checks every row of
/// every collection is shown exactly once; returns the number of outputs.
fn follow_all(doc: &Value, budget: usize, kind: TokenizerKind, format: Format) -> usize {
    let mut seen: BTreeMap<Path, Vec<u32>> = BTreeMap::new();
    let mut queue: VecDeque<Option<String>> = VecDeque::from([None]);
    let mut outputs = 0;
    while let Some(cursor) = queue.pop_front() {
        outputs += 1;
        assert!(outputs < 100_000, "cursors do not end");
        let (f, used) = match run(doc, Budget::Tokens(budget), kind, cursor.as_deref(), format) {
            Ok(f) => (f, budget),
            Err(BudgetError::Exceeded(e)) => {
                assert!(e.minimum > budget);
                let f = run(
                    doc,
                    Budget::Tokens(e.minimum),
                    kind,
                    cursor.as_deref(),
                    format,
                )
                .expect("the minimum works");
                (f, e.minimum)
            }
            Err(e) => panic!("{e}"),
        };
        let reading = check_output(doc, &f, used, kind, format);
        if cursor.is_some() {
            let main = reading.shown.get(&reading.base).expect("page's collection");
            assert!(main.shown >= 1, "a page shows at least one row");
        }
        for (p, s) in &reading.shown {
            let rows = seen.entry(p.clone()).or_insert_with(|| vec![0; s.total]);
            for r in &mut rows[s.from..s.from + s.shown] {
                *r += 1;
            }
            if let Some(c) = &s.cursor {
                queue.push_back(Some(c.clone()));
            }
        }
    }
    let mut all = Vec::new();
    arrays(doc, &mut Vec::new(), &mut all);
    for (p, len) in all {
        let counts = seen
            .get(&p)
            .unwrap_or_else(|| panic!("collection {p:?} never shown"));
        assert_eq!(counts.len(), len);
        assert!(
            counts.iter().all(|&c| c == 1),
            "rows of {p:?} shown {counts:?} times"
        );
    }
    outputs
}

// ---------------------------------------------------------------------------
// Properties.

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z]{1,5}",
        1 => prop::sample::select(vec![
            "read_output", "result", "items", "items_omitted", "items_omitted_2",
            "a_omitted", "", "x y", "_omitted",
        ])
        .prop_map(str::to_owned),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5000i64..100_000).prop_map(Value::from),
        "[a-z]{0,8}( [a-z]{1,6}){0,2}".prop_map(Value::from),
        prop::sample::select(vec!["", "true", "42", "a,b", "c0-1-00000000", "ü日本🎉"])
            .prop_map(Value::from),
    ]
}

fn record() -> impl Strategy<Value = Value> {
    (0i64..10_000, "[a-z]{1,8}", any::<bool>()).prop_map(|(id, name, ok)| {
        let mut m = Map::new();
        m.insert("id", Value::from(id));
        m.insert("name", Value::from(name));
        m.insert("ok", Value::Bool(ok));
        Value::Object(m)
    })
}

fn value() -> impl Strategy<Value = Value> {
    let tables = prop::collection::vec(record(), 0..40).prop_map(Value::Array);
    let inner = prop_oneof![leaf(), tables].prop_recursive(4, 96, 12, move |inner| {
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 0..16).prop_map(Value::Array),
            4 => prop::collection::vec((key(), inner.clone()), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            2 => prop::collection::vec(record(), 0..60).prop_map(Value::Array),
            // A producer key named like a receipt beside its array.
            1 => (prop::collection::vec(inner.clone(), 0..20), inner.clone(), "items|a|_")
                .prop_map(|(rows, other, stem)| {
                    let mut m = Map::new();
                    m.insert(stem.clone(), Value::Array(rows));
                    m.insert(format!("{stem}_omitted"), other);
                    Value::Object(m)
                }),
        ]
    });
    // Mostly objects at the root, as tool results are.
    prop_oneof![
        1 => inner.clone(),
        3 => prop::collection::vec((key(), inner), 1..6)
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
    ]
}

fn kinds() -> impl Strategy<Value = TokenizerKind> {
    prop::sample::select(vec![
        TokenizerKind::O200k,
        TokenizerKind::Cl100k,
        TokenizerKind::Bytes4,
    ])
}

fn formats() -> impl Strategy<Value = Format> {
    prop::sample::select(vec![Format::Toon, Format::Json])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any budget at or above the smallest feasible one gives an output
    /// within it whose receipts say exactly which rows were left out; the
    /// budget just below the smallest feasible one is refused.
    #[test]
    fn outputs_fit_and_receipts_tell_what_was_left_out(
        doc in value(),
        kind in kinds(),
        format in formats(),
        frac in prop_oneof![1 => Just(0u32), 1 => Just(100u32), 4 => 0u32..100],
    ) {
        let e = exceeded(run(&doc, Budget::Tokens(0), kind, None, format));
        let min = e.minimum;
        let out = decode(format, &e.text);
        let notice = out.get("output_budget_exceeded").expect("notice");
        prop_assert_eq!(notice.get("minimum_budget"), Some(&Value::from(min)));
        prop_assert_eq!(notice.get("budget"), Some(&Value::from(0)));
        if min > 1 {
            exceeded(run(&doc, Budget::Tokens(min - 1), kind, None, format));
        }
        let top = (e.unbounded + 60).max(min);
        let budget = min + (top - min) * frac as usize / 100;
        let f = run(&doc, Budget::Tokens(budget), kind, None, format).expect("fits");
        check_output(&doc, &f, budget, kind, format);
        // Deterministic.
        let again = run(&doc, Budget::Tokens(budget), kind, None, format).expect("fits");
        prop_assert_eq!(&again, &f);
    }

    /// Following cursors from the first output shows every row of every
    /// collection exactly once.
    #[test]
    fn cursors_show_every_row_once(
        doc in value(),
        kind in kinds(),
        format in formats(),
        extra in prop_oneof![Just(0usize), 0usize..150],
    ) {
        let min = minimum(&doc, kind, format);
        follow_all(&doc, min + extra, kind, format);
    }
}

// ---------------------------------------------------------------------------
// Cases.

fn parse(text: &str) -> Value {
    json::parse(text).expect("test JSON")
}

fn users(n: usize) -> Value {
    let rows: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{"id":{i},"name":"user{i}"}}"#))
        .collect();
    parse(&format!(r#"{{"users":[{}],"page":1}}"#, rows.join(",")))
}

fn toon_fit(doc: &Value, budget: usize) -> Fitted {
    run(
        doc,
        Budget::Tokens(budget),
        TokenizerKind::O200k,
        None,
        Format::Toon,
    )
    .expect("fits")
}

/// What `fit` hands back is the text `render` returned last, cut, whole,
/// continued from a cursor, or the notice that nothing fits.
#[test]
fn the_text_handed_back_is_the_last_rendered() {
    let last = std::cell::RefCell::new(String::new());
    let toon = render(Format::Toon);
    let noting = |v: &Value| {
        let text = toon(v)?;
        last.replace(text.clone());
        Ok(text)
    };
    let doc = users(200);
    let fitted = |budget, cursor: Option<&str>| {
        let opts = FitOptions::default()
            .budget(budget)
            .tokenizer(TokenizerKind::O200k)
            .cursor(cursor.map(|c| c.parse::<Cursor>().expect("cursor parses")));
        fit(&doc, &opts, &noting)
    };
    let cut = fitted(Budget::Tokens(100), None).expect("fits");
    assert!(cut.rows_omitted > 0);
    assert_eq!(cut.text, *last.borrow());
    let whole = fitted(Budget::Unbounded, None).expect("fits");
    assert_eq!(whole.text, *last.borrow());
    let reading = read(&decode(Format::Toon, &cut.text));
    let cursor = reading
        .shown
        .values()
        .find_map(|s| s.cursor.clone())
        .expect("a cut collection has a cursor");
    let page = fitted(Budget::Tokens(200), Some(&cursor)).expect("fits");
    assert_eq!(page.text, *last.borrow());
    let notice = exceeded(fitted(Budget::Tokens(3), None));
    assert_eq!(notice.text, *last.borrow());
}

#[test]
fn receipt_format() {
    let f = toon_fit(&users(200), 100);
    // Pinned in full: cursors are deterministic, and stable across versions.
    let expected = "\
users[2]{id,name}:
  1,user1
  2,user2
users_omitted:
  total: 200
  shown: 2
  omitted: 198
  cursor: c0-2-67e4fe24
page: 1
read_output:
  tokens: 95
  budget: 100
  tokenizer: o200k
  fits: true
  collections_cut: 1";
    assert_eq!(f.text, expected);
    assert_eq!(f.tokens, 95);
    assert_eq!(f.collections_cut, 1);
    assert_eq!(f.rows_omitted, 198);
}

#[test]
fn unbounded_output_is_unchanged() {
    let doc = users(50);
    let plain = toon::encode(&doc, &EncodeOptions::default()).unwrap();
    let f = run(
        &doc,
        Budget::Unbounded,
        TokenizerKind::O200k,
        None,
        Format::Toon,
    )
    .unwrap();
    assert_eq!(f.text, plain);
    assert_eq!(f.tokens, Tokenizer::get(TokenizerKind::O200k).count(&plain));
    // A budget the whole document fits in adds read_output and nothing else.
    let f = toon_fit(&doc, 100_000);
    assert!(f.text.starts_with(&plain));
    assert_eq!(f.collections_cut, 0);
    assert!(!f.text.contains("_omitted"));
}

#[test]
fn roots_that_are_not_objects_are_wrapped() {
    let cases = [
        (
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40]",
            true,
        ),
        ("\"just a string\"", false),
        (r#"{"read_output":"mine","items":[1]}"#, false),
    ];
    for (text, cut) in cases {
        let doc = parse(text);
        let min = minimum(&doc, TokenizerKind::O200k, Format::Toon);
        let f = toon_fit(&doc, min);
        let reading = check_output(&doc, &f, min, TokenizerKind::O200k, Format::Toon);
        assert_eq!(
            reading.read_output.get("wrapped"),
            Some(&Value::Bool(true)),
            "{text}"
        );
        assert!(f.text.starts_with("result"), "{}", f.text);
        assert_eq!(f.text.contains("result_omitted:"), cut, "{}", f.text);
    }
}

#[test]
fn producer_keys_named_like_receipts_change_the_suffix() {
    let long: Vec<String> = (0..60).map(|i| i.to_string()).collect();
    let doc = parse(&format!(
        r#"{{"items":[{}],"items_omitted":"the producer's own"}}"#,
        long.join(",")
    ));
    let f = toon_fit(&doc, 120);
    assert!(
        f.text.contains("items_omitted: the producer's own\n"),
        "{}",
        f.text
    );
    assert!(
        f.text.contains("items_omitted_2:\n  total: 60\n"),
        "{}",
        f.text
    );
    assert!(f.text.contains("receipt_suffix: _omitted_2"), "{}", f.text);
    check_output(&doc, &f, 120, TokenizerKind::O200k, Format::Toon);
}

#[test]
fn arrays_in_arrays_report_through_the_keyed_array() {
    let inner: Vec<String> = (0..50).map(|i| format!("\"value {i}\"")).collect();
    let doc = parse(&format!(
        r#"{{"grid":[[{0}],[1,2],[{0}]]}}"#,
        inner.join(",")
    ));
    let min = minimum(&doc, TokenizerKind::O200k, Format::Json);
    let f = run(
        &doc,
        Budget::Tokens(min + 150),
        TokenizerKind::O200k,
        None,
        Format::Json,
    )
    .unwrap();
    let reading = check_output(&doc, &f, min + 150, TokenizerKind::O200k, Format::Json);
    let out = decode(Format::Json, &f.text);
    let receipt = out
        .get("grid_omitted")
        .expect("the keyed array carries nested receipts");
    let nested = receipt
        .get("nested")
        .and_then(Value::as_array)
        .expect("nested");
    assert!(!nested.is_empty());
    assert_eq!(nested[0].get("at"), Some(&parse("[0]")));
    assert!(reading.shown.len() >= 2);
    follow_all(&doc, min + 150, TokenizerKind::O200k, Format::Json);
}

#[test]
fn collections_give_up_rows_by_weight() {
    // Three collections: one small, two large of different row sizes.
    let small = "[1,2]";
    let a: Vec<String> = (0..300).map(|i| format!("\"a{i:03}\"")).collect();
    let b: Vec<String> = (0..300)
        .map(|i| format!("\"a much longer row number {i:03}\""))
        .collect();
    let doc = parse(&format!(
        r#"{{"small":{small},"short":[{}],"long":[{}]}}"#,
        a.join(","),
        b.join(",")
    ));
    let f = toon_fit(&doc, 400);
    let reading = check_output(&doc, &f, 400, TokenizerKind::O200k, Format::Toon);
    let get = |k: &str| reading.shown[&vec![Seg::Key(k.into())]].clone();
    assert_eq!(
        get("small").shown,
        2,
        "a collection smaller than a receipt is never cut"
    );
    let (short, long) = (get("short"), get("long"));
    assert!(short.cursor.is_some() && long.cursor.is_some());
    // About equal weight each: short rows are 7 bytes, long ones 29.
    let ratio = short.shown as f64 / long.shown as f64;
    assert!(
        (3.0..5.5).contains(&ratio),
        "short {} long {}",
        short.shown,
        long.shown
    );
}

#[test]
fn cursors_resume_and_are_refused_elsewhere() {
    let doc = users(200);
    let f = toon_fit(&doc, 150);
    let reading = read(&decode(Format::Toon, &f.text));
    let first = reading.shown[&vec![Seg::Key("users".into())]].clone();
    let cursor = first.cursor.clone().unwrap();
    let page = run(
        &doc,
        Budget::Tokens(150),
        TokenizerKind::O200k,
        Some(&cursor),
        Format::Toon,
    )
    .unwrap();
    let r = check_output(&doc, &page, 150, TokenizerKind::O200k, Format::Toon);
    let main = &r.shown[&vec![Seg::Key("users".into())]];
    assert_eq!(main.from, first.shown);
    assert_eq!(
        r.read_output.get("collection"),
        Some(&parse(r#"["users"]"#))
    );
    let next = first.shown + 1;
    let head = format!("result[{}]{{id,name}}:\n  {next},user{next}\n", main.shown);
    assert!(page.text.starts_with(&head), "{}", page.text);
    // Unbounded from a cursor: the whole rest, no further cursor.
    let rest = run(
        &doc,
        Budget::Unbounded,
        TokenizerKind::O200k,
        Some(&cursor),
        Format::Toon,
    )
    .unwrap();
    let r = read(&decode(Format::Toon, &rest.text));
    let main = &r.shown[&vec![Seg::Key("users".into())]];
    assert_eq!(
        (main.from, main.shown, main.cursor.as_deref()),
        (first.shown, 200 - first.shown, None)
    );
    assert_eq!(r.read_output.get("budget"), Some(&Value::from("unbounded")));
    // Another document, or an edited cursor.
    let other = users(201);
    match run(
        &other,
        Budget::Tokens(150),
        TokenizerKind::O200k,
        Some(&cursor),
        Format::Toon,
    ) {
        Err(BudgetError::Cursor(e)) => assert!(
            e.to_string().contains("does not belong to this input"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    let edited = cursor.replacen(&format!("-{}-", first.shown), "-7-", 1);
    assert!(matches!(
        run(
            &doc,
            Budget::Tokens(150),
            TokenizerKind::O200k,
            Some(&edited),
            Format::Toon
        ),
        Err(BudgetError::Cursor(_))
    ));
    // Pages carry a little more than the first output (`from`, `wrapped`,
    // `collection`), so show a few rows fewer; never fewer than half.
    let outputs = follow_all(&doc, 150, TokenizerKind::O200k, Format::Toon);
    assert!(
        (200 / first.shown..=2 * 200 / first.shown).contains(&outputs),
        "{outputs} outputs"
    );
}

#[test]
fn infeasible_budget_is_an_explicit_notice() {
    let doc =
        parse(r#"{"title":"a long title that no collection cut can shorten","rows":[1,2,3]}"#);
    let e = exceeded(run(
        &doc,
        Budget::Tokens(10),
        TokenizerKind::O200k,
        None,
        Format::Toon,
    ));
    assert_eq!(e.budget, 10);
    assert!(e.minimum > 10);
    let notice = decode(Format::Toon, &e.text);
    let n = notice.get("output_budget_exceeded").expect("notice key");
    assert_eq!(n.get("omitted"), Some(&Value::from("the whole document")));
    let recovery = n.get("recovery").and_then(Value::as_str).unwrap();
    assert!(recovery.contains("--budget unbounded"), "{recovery}");
    assert!(
        recovery.contains(&format!("--budget {}", e.minimum)),
        "{recovery}"
    );
    assert!(e.to_string().starts_with("output budget exceeded: "), "{e}");
    // The minimum it names works.
    toon_fit(&doc, e.minimum);
}

#[test]
fn depth_beyond_the_limit_is_refused() {
    let mut v = Value::from(1);
    for _ in 0..300 {
        v = Value::Array(vec![v]);
    }
    match run(
        &v,
        Budget::Tokens(100),
        TokenizerKind::O200k,
        None,
        Format::Json,
    ) {
        Err(BudgetError::Render(e)) => assert_eq!(e.kind(), pith::ErrorKind::DepthLimit),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_output_at_the_limit_still_reads_back() {
    // A root that is not an object goes under `result`, a level down: a
    // value 256 levels deep would come out 257 deep, which no reader
    // takes. It is refused for its depth, not written undecodable.
    let nest = |depth: usize, root_object: bool| {
        let mut v = Value::from(1);
        for _ in 0..depth - usize::from(root_object) {
            v = Value::Array(vec![v]);
        }
        if root_object {
            v = pith::json::parse(&format!(r#"{{"k":{}}}"#, json::stringify(&v))).unwrap();
        }
        v
    };
    for format in [Format::Json, Format::Toon] {
        match run(
            &nest(256, false),
            Budget::Tokens(1000),
            TokenizerKind::O200k,
            None,
            format,
        ) {
            Err(BudgetError::Render(e)) => {
                assert_eq!(e.kind(), pith::ErrorKind::DepthLimit);
                assert!(e.to_string().contains("under `result`"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // One level less, and an object root at the limit, are written
        // and read back.
        for v in [nest(255, false), nest(256, true)] {
            let out = run(&v, Budget::Tokens(5000), TokenizerKind::O200k, None, format).unwrap();
            let back = decode(format, &out.text);
            assert!(back.depth() <= 256);
        }
    }
}

#[test]
fn arrays_of_small_arrays_are_cut_too() {
    // Every level weighs next to nothing by its own rows (a nested array
    // counts as `[]`) and every leaf no more than a receipt: judged by
    // those weights alone, no collection was worth cutting, and no budget
    // under the whole (about 164,000 tokens) fitted.
    fn level(depth: usize) -> Value {
        if depth == 0 {
            return Value::Array((0..20).map(Value::from).collect());
        }
        Value::Array((0..8).map(|_| level(depth - 1)).collect())
    }
    let mut m = pith::Map::new();
    m.insert("a", level(4));
    let doc = Value::Object(m);
    let fitted = run(
        &doc,
        Budget::Tokens(10_000),
        TokenizerKind::O200k,
        None,
        Format::Json,
    )
    .expect("a cut that fits");
    assert!(fitted.tokens <= 10_000, "{}", fitted.tokens);
    assert!(fitted.collections_cut >= 1);
    let out = decode(Format::Json, &fitted.text);
    assert!(out.get("a_omitted").is_some(), "{}", fitted.text);
}

#[test]
fn budget_parses() {
    assert_eq!("1200".parse(), Ok(Budget::Tokens(1200)));
    assert_eq!("unbounded".parse(), Ok(Budget::Unbounded));
    for bad in ["", "-1", "1e3", "12k", "Unbounded", " 5"] {
        let e = bad.parse::<Budget>().unwrap_err();
        assert!(
            e.to_string()
                .contains("expected a number of tokens or `unbounded`")
        );
    }
}

/// The benchmark's case, as a test: fitting the 50,000-row table keeps
/// within budget and shows its first rows.
#[test]
fn large_table_fits() {
    let doc = parse(&dataset("generated/gen-flat-50k.json"));
    let f = toon_fit(&doc, 10_000);
    let reading = check_output(&doc, &f, 10_000, TokenizerKind::O200k, Format::Toon);
    let rows = &reading.shown[&vec![Seg::Key("rows".into())]];
    assert_eq!(rows.total, 50_000);
    assert!(rows.shown > 200, "{rows:?}");
    assert!(f.tokens > 9_900, "the budget is used: {}", f.tokens);
}

/// A file of the shared datasets.
fn dataset(name: &str) -> String {
    let path = datasets().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

//! Nesting: a `max_depth` raised beyond what the call stack holds is capped
//! at `MAX_DEPTH_LIMIT` (an error, never a stack overflow), and values of
//! any depth are dropped without recursion.

use pith::select::{self, Form, Options};
use pith::toon::{DecodeOptions, EncodeOptions};
use pith::{ErrorKind, MAX_DEPTH_LIMIT, Map, Value};

fn nested_objects(depth: usize) -> Value {
    let mut v = Value::from(1);
    for i in 0..depth {
        let mut m = Map::new();
        m.insert(if i % 2 == 0 { "a" } else { "b" }, v);
        v = Value::Object(m);
    }
    v
}

fn nested_arrays(depth: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// Runs `f` on a thread with room for the unoptimised build's frames at
/// the cap (about 6 KB a level), as a test harness thread has not.
fn with_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// `v` in the form of `opts`: refused for its depth, unless the form is
/// JSON, which is written without recursion at any depth (columnar tables
/// only down to the cap).
fn refused_but_as_json(v: &Value, opts: Options) {
    let form = opts.form;
    match select::encode(v, &opts) {
        Ok(out) => assert!(
            matches!(form, Form::Json | Form::Table),
            "{form}: {}",
            out.describe()
        ),
        Err(e) => assert_eq!(e.kind(), ErrorKind::DepthLimit, "{form}: {e}"),
    }
}

#[test]
fn a_raised_limit_stops_at_what_the_stack_holds() {
    with_stack(|| {
        let raised = 10_000;
        let decode = DecodeOptions::default().max_depth(raised);
        let encode = EncodeOptions::default().max_depth(raised);
        for v in [nested_objects(raised), nested_arrays(raised)] {
            let e = pith::toon::encode(&v, &encode).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
            for form in Form::ALL {
                refused_but_as_json(&v, Options::default().form(form).toon(encode.clone()));
            }
            // Text nested 10,000 deep, TOON and JSON.
            let json = pith::json::stringify(&v);
            let e = select::decode(json.as_bytes(), &decode).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
            let e = select::restore(v.clone(), raised).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
        }
        let mut toon = String::new();
        for i in 0..raised {
            toon.push_str(&" ".repeat(2 * i));
            toon.push_str("k:\n");
        }
        toon.push_str(&" ".repeat(2 * raised));
        toon.push_str("k: 1");
        let e = pith::toon::decode(&toon, &decode).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
        assert!(e.to_string().contains(&format!("{MAX_DEPTH_LIMIT}")), "{e}");

        // Up to the cap, everything round-trips.
        let at = MAX_DEPTH_LIMIT;
        for v in [nested_objects(at), nested_arrays(at)] {
            let text = pith::toon::encode(&v, &encode).unwrap();
            assert_eq!(pith::toon::decode(&text, &decode).unwrap(), v);
            for form in Form::ALL {
                let opts = Options::default().form(form).toon(encode.clone());
                let out = select::encode(&v, &opts).unwrap();
                assert_eq!(
                    select::decode(out.text.as_bytes(), &decode).unwrap(),
                    v,
                    "{form}"
                );
            }
        }
    });
}

#[test]
fn values_of_any_depth_drop_without_recursion() {
    // On the test harness's own thread, whose stack is small.
    drop(nested_arrays(200_000));
    drop(nested_objects(200_000));
    let mut mixed = Value::Null;
    for i in 0..200_000 {
        mixed = if i % 3 == 0 {
            Value::Array(vec![Value::from(i), mixed, Value::Array(vec![Value::Null])])
        } else {
            let mut m = Map::new();
            m.insert("x", Value::Array(vec![]));
            m.insert("next", mixed);
            Value::Object(m)
        };
    }
    assert_eq!(mixed.depth(), 200_001);
    drop(mixed);
    // A JSON text nested that deep reads (the JSON reader keeps its own
    // stack) and is freed.
    let deep = "[".repeat(200_000) + &"]".repeat(200_000);
    let opts = pith::json::ParseOptions::default().max_depth(200_000);
    let v = pith::json::parse_with(deep.as_bytes(), &opts).unwrap();
    assert_eq!(v.depth(), 200_000);
    assert_eq!(pith::json::stringify(&v), deep);
}

#[test]
fn values_far_deeper_than_the_cap_are_refused_by_every_form_without_a_walk() {
    // On the test harness's own thread: a value built in code may nest
    // deeper than any text the readers accept, and no form may walk it by
    // recursion before refusing it (the notation's search for references
    // did, and overflowed the stack).
    for v in [nested_objects(300_000), nested_arrays(300_000)] {
        for form in Form::ALL {
            for floor in 2..=5 {
                refused_but_as_json(&v, Options::default().form(form).min_readability(floor));
            }
        }
        let n = pith::notation::Options::for_readability(3, true);
        let e = pith::notation::encode(&v, &n).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
        let e = select::measure(
            &v,
            pith::tokens::TokenizerKind::O200k,
            &EncodeOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimit, "{e}");
    }
}

#[test]
fn tables_near_the_limit_read_back_in_every_form() {
    // A columnar table holds its rows two levels below the array, and the
    // `table` form's mark adds one more: written as tables, these values
    // nest past what a reader takes, so that form writes them as compact
    // JSON, and every form reads back.
    let rows = pith::json::parse(r#"[{"x":1},{"x":2}]"#).unwrap();
    let mut values = Vec::new();
    for depth in [250, 253, 254, 255] {
        let mut v = rows.clone();
        for _ in 0..depth - 2 {
            let mut m = Map::new();
            m.insert("a", v);
            v = Value::Object(m);
        }
        values.push(v);
    }
    // Tables inside tables: 120 levels of one-row arrays of objects.
    let mut v = Value::from(1);
    for _ in 0..120 {
        let mut m = Map::new();
        m.insert("k", v);
        v = Value::Array(vec![Value::Object(m)]);
    }
    values.push(v);
    for v in values {
        assert!(v.depth() <= 256);
        for form in Form::ALL {
            let out = select::encode(&v, &Options::default().form(form)).unwrap();
            let back = select::decode(out.text.as_bytes(), &DecodeOptions::default())
                .unwrap_or_else(|e| panic!("{form} at depth {}: {e}", v.depth()));
            assert!(back == v, "{form} at depth {}", v.depth());
        }
    }
}

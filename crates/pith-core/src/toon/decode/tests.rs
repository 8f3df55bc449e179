//! Tests of the TOON reader: the forms of spec 4 and 3.3, numbers, lenient
//! mode, path expansion, large and deep documents.

use super::*;
use crate::Number;

/// Expected values, written as JSON (read exactly, keys in order).
fn json(text: &str) -> Value {
    crate::json::parse(text).expect("test JSON")
}

fn with(strict: bool, spec: Spec, expand: bool) -> DecodeOptions {
    DecodeOptions {
        strict,
        spec,
        expand_paths: if expand {
            ExpandPaths::Safe
        } else {
            ExpandPaths::Off
        },
        ..DecodeOptions::default()
    }
}

fn same(cases: &[(&str, &str)], opts: &DecodeOptions) {
    for (toon, want) in cases {
        match decode(toon, opts) {
            Ok(v) => assert_eq!(v, json(want), "{toon:?}"),
            Err(e) => panic!("{toon:?}: {}", e.render(toon)),
        }
    }
}

#[test]
fn forms_of_spec_4() {
    same(
        &[
            ("", "{}"),
            ("# only a comment\n\n", "{}"),
            ("[]", "[]"),
            ("[0]:", "[]"),
            ("a: []\nb[0]:\nc:", r#"{"a":[],"b":[],"c":{}}"#),
            ("x", r#""x""#),
            ("\"a:b\"", r#""a:b""#),
            ("- a", r#""- a""#),
            ("- a: 1", r#"{"- a":1}"#),
            ("k: a: b", r#"{"k":"a: b"}"#),
            ("k:  x  ", r#"{"k":"x"}"#),
            ("k: \u{a0}x", "{\"k\":\"\u{a0}x\"}"),
            ("\u{feff}a: 1", r#"{"a":1}"#),
            ("a:\r\n  b: 1\r\n", r#"{"a":{"b":1}}"#),
            ("a: \"x\\ry\"\r", r#"{"a":"x\ry"}"#),
            (
                "i[4]:\n  -\n  - []\n  - [2|]: a|b\n  - [1]:\n    - x",
                r#"{"i":[{},[],["a","b"],["x"]]}"#,
            ),
            (
                "o[2]{id,c{n,geo{x,y}},t}:\n  1,Ada,1.5,2,x\n  2,Bob,3,4,y",
                r#"{"o":[{"id":1,"c":{"n":"Ada","geo":{"x":1.5,"y":2}},"t":"x"},
                        {"id":2,"c":{"n":"Bob","geo":{"x":3,"y":4}},"t":"y"}]}"#,
            ),
            (
                "l[2]:\n  - t[1]{a}:\n      1\n    s: x\n  - k[1:]{v}:\n      z: 2",
                r#"{"l":[{"t":[{"a":1}],"s":"x"},{"k":{"z":{"v":2}}}]}"#,
            ),
            ("[1:]{v}:\n  \"a b\": \"c,d\"", r#"{"a b":{"v":"c,d"}}"#),
            (
                "t[2]{a}:\n  \"x:y\"\n  'q",
                r#"{"t":[{"a":"x:y"},{"a":"'q"}]}"#,
            ),
            ("c[2]: a\"b,c\"d,e", r#"{"c":["a\"b,c\"d","e"]}"#),
        ],
        &DecodeOptions::default(),
    );
}

#[test]
fn numbers_follow_the_grammar_exactly() {
    let cases: &[(&str, &[&str])] = &[
        (
            "0,-0,1.50,-0.0,1e2,-1E-2,0e9,2.5e+3",
            &["0", "0", "1.5", "0", "100", "-0.01", "0", "2500"],
        ),
        (
            "123456789012345678,1234567890123456789,-9223372036854775809",
            &[
                "123456789012345678",
                "1234567890123456789",
                "-9223372036854775809",
            ],
        ),
        (
            "0.123456789012345678,1.0000000000000000001,1e-400,-1.5e400",
            &[
                "0.123456789012345678",
                "1.0000000000000000001",
                "1e-400",
                "-1.5e400",
            ],
        ),
    ];
    let strings: &[(&str, &[&str])] = &[
        (
            "05,-05,.5,1.,+1,0x1",
            &["05", "-05", ".5", "1.", "+1", "0x1"],
        ),
        (
            "Infinity,NaN,1_0,-,1e,1e+",
            &["Infinity", "NaN", "1_0", "-", "1e", "1e+"],
        ),
    ];
    let opts = DecodeOptions::default();
    // The cells of the inline array `n[len]: cells`.
    let decoded = |cells: &str, len: usize| -> Vec<Value> {
        let v = decode(&format!("n[{len}]: {cells}"), &opts).unwrap();
        v.get("n").unwrap().as_array().unwrap().clone()
    };
    for (cells, want) in cases {
        let got = decoded(cells, want.len());
        let got: Vec<&Number> = got.iter().map(|x| x.as_number().unwrap()).collect();
        let want: Vec<Number> = want.iter().map(|w| Number::parse(w).unwrap()).collect();
        assert!(
            got.iter().zip(&want).all(|(g, w)| *g == w),
            "{cells}: {got:?}"
        );
    }
    for (cells, want) in strings {
        let got = decoded(cells, want.len());
        let got: Vec<&str> = got.iter().map(|x| x.as_str().unwrap()).collect();
        assert_eq!(&got, want);
    }
    let v = decode("a: true\nb: null\nc: False", &opts).unwrap();
    assert_eq!(v, json(r#"{"a":true,"b":null,"c":"False"}"#));
}

#[test]
fn lenient_mode_keeps_what_it_finds_and_lets_the_last_write_win() {
    same(
        &[
            // Lengths are not checked and never truncate.
            (
                "a[1]: x,y\nb[3]:\n  - 1\nc[1]{v}:\n  1\n  2",
                r#"{"a":["x","y"],"b":[1],"c":[{"v":1},{"v":2}]}"#,
            ),
            ("m[5:]{v}:\n  a: 1", r#"{"m":{"a":{"v":1}}}"#),
            // Duplicates: last value, first position.
            ("a: 1\nb: 2\na: 3", r#"{"a":3,"b":2}"#),
            ("t[1]{a,b,a}:\n  1,2,3", r#"{"t":[{"a":3,"b":2}]}"#),
            ("t[1]{a,a{x}}:\n  1,2", r#"{"t":[{"a":{"x":2}}]}"#),
            ("m[2:]{v}:\n  a: 1\n  a: 2", r#"{"m":{"a":{"v":2}}}"#),
            // Blank lines inside arrays are skipped.
            ("l[2]:\n  - a\n\n  - b", r#"{"l":["a","b"]}"#),
            // Depth is floor(spaces / indent); tabs are one level each; jumps open the scope.
            (
                "a:\n   b: 1\n   c:\n     d: 2",
                r#"{"a":{"b":1,"c":{"d":2}}}"#,
            ),
            ("a:\n\tb: 1\n \tc: 2", r#"{"a":{"b":1,"c":2}}"#),
            ("a:\n      b: 1\n      c: 2", r#"{"a":{"b":1,"c":2}}"#),
            // Malformed headers read as key-value lines with a literal key.
            ("foo[1][bar]: 10", r#"{"foo[1][bar]":10}"#),
            ("key[]: 1,2", r#"{"key[]":"1,2"}"#),
            ("foo [2]: a", r#"{"foo [2]":"a"}"#),
            ("a[2|]{x,y}: 1|2", r#"{"a[2|]{x,y}":"1|2"}"#),
            ("t[1]{a}: x", r#"{"t[1]{a}":"x"}"#),
            ("t[1]{}:", r#"{"t[1]{}":{}}"#),
            ("x:\n  [2]: a,b", r#"{"x":{"[2]":"a,b"}}"#),
            ("l[1]:\n  - [1]{a}: z", r#"{"l":[{"[1]{a}":"z"}]}"#),
            // A line without a colon among entry rows is skipped.
            ("u[2:]{x}:\n  a: 1\n  boom", r#"{"u":{"a":{"x":1}}}"#),
        ],
        &with(false, Spec::V4, false),
    );
}

#[test]
fn spec_3_3_mode() {
    let v3 = with(true, Spec::V3, false);
    same(
        &[
            ("# x", r##""# x""##),
            ("a: 1\n\"# b\": 2", r##"{"a":1,"# b":2}"##),
            ("a:\n      b: 1\n      c: 2", r#"{"a":{"b":1,"c":2}}"#),
            ("t[1]:\n    - 1", r#"{"t":[1]}"#),
            ("a.b: 1", r#"{"a.b":1}"#),
        ],
        &v3,
    );
    same(
        &[
            (
                "a.b.c: 1\na.b.d: 2\na.e: 3",
                r#"{"a":{"b":{"c":1,"d":2},"e":3}}"#,
            ),
            ("\"a.b\": 1\nc.d: 2", r#"{"a.b":1,"c":{"d":2}}"#),
            (
                "a-b.c: 1\na..b: 2\n_x.y1: 3",
                r#"{"a-b.c":1,"a..b":2,"_x":{"y1":3}}"#,
            ),
            ("a.b: 1\na:\n  c: 2", r#"{"a":{"b":1,"c":2}}"#),
            (
                "l[1]:\n  - a.b: 1\n    a.c[1]: 2",
                r#"{"l":[{"a":{"b":1,"c":[2]}}]}"#,
            ),
            (
                "t[1]{a.b,\"c.d\"}:\n  1,2",
                r#"{"t":[{"a":{"b":1},"c.d":2}]}"#,
            ),
            ("a.b.c:", r#"{"a":{"b":{"c":{}}}}"#),
        ],
        &with(true, Spec::V3, true),
    );
    same(
        &[
            ("a.b: 1\na: 2", r#"{"a":2}"#),
            ("a: 1\na.b: 2", r#"{"a":{"b":2}}"#),
            ("a.b: 1\na.b.c: 2\nz: 0", r#"{"a":{"b":{"c":2}},"z":0}"#),
        ],
        &with(false, Spec::V3, true),
    );
    // Expansion belongs to 3.3: under 4.x a dotted key stays literal.
    same(&[("a.b: 1", r#"{"a.b":1}"#)], &with(true, Spec::V4, true));
}

#[test]
fn lenient_3_3_says_why_a_keyed_header_opened_no_scope() {
    let text = "x: 1\nm[2:]{v}:\n\n  a: 1\n  b: 2";
    let e = decode(text, &with(false, Spec::V3, false)).unwrap_err();
    assert_eq!((e.line(), e.column()), (4, 3));
    assert_eq!(
        e.message(),
        "expected depth 0, found an over-indented line at depth 1: the previous line \
         opens no scope this deep (lenient mode read it as a `key: value` line because \
         its header is malformed: expected a length in '[…]', found a keyed marker \
         '[N:]', which is spec 4 syntax, not 3.3)"
    );
    // Strict mode stops at the header itself.
    let e = decode(text, &with(true, Spec::V3, false)).unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 4));
    // A demoted header further up does not colour an unrelated error.
    let text = "m[2:]{v}: 1\nz:\n  y: 2\n      w: 3";
    let e = decode(text, &with(false, Spec::V3, false)).unwrap_err();
    assert_eq!((e.line(), e.column()), (4, 7));
    assert!(
        e.message()
            .ends_with("the previous line opens no scope this deep"),
        "{}",
        e.message()
    );
}

#[test]
fn large_objects_stay_linear() {
    let n = 50_000;
    let mut keyed = format!("m[{n}:]{{v}}:\n");
    let mut plain = String::new();
    for i in 0..n {
        keyed.push_str(&format!("  k{i}: {i}\n"));
        plain.push_str(&format!("k{i}: {i}\n"));
    }
    for opts in [with(true, Spec::V4, false), with(false, Spec::V4, false)] {
        let v = decode(&keyed, &opts).unwrap();
        assert_eq!(v.get("m").unwrap().as_object().unwrap().len(), n);
        assert_eq!(decode(&plain, &opts).unwrap().as_object().unwrap().len(), n);
    }
    // Half duplicates, resolved last-write-wins through the index.
    let mut dup = String::new();
    for i in 0..n {
        dup.push_str(&format!("k{}: {i}\n", i % (n / 2)));
    }
    let v = decode(&dup, &with(false, Spec::V4, false)).unwrap();
    let m = v.as_object().unwrap();
    assert_eq!(m.len(), n / 2);
    assert_eq!(m.get("k7"), Some(&Value::from(n / 2 + 7)));
    assert_eq!(m.get_index(7).unwrap().0, "k7");
    let e = decode(&dup, &DecodeOptions::default()).unwrap_err();
    assert_eq!((e.kind(), e.line()), (ErrorKind::DuplicateKey, n / 2 + 1));
}

#[test]
fn declared_lengths_never_size_allocations() {
    for text in [
        "a[4294967295]{x}:\n  1",
        "a[18446744073709551615]:\n  - 1",
        "a[99999999999999999999999]: 1",
        "a[4294967295:]{x}:\n  k: 1",
    ] {
        let e = decode(text, &DecodeOptions::default()).unwrap_err();
        assert_eq!(
            (e.kind(), e.line(), e.column()),
            (ErrorKind::CountMismatch, 1, 3),
            "{text}"
        );
        let v = decode(text, &with(false, Spec::V4, false)).unwrap();
        assert!(v.get("a").is_some());
    }
}

#[test]
fn long_lines_and_long_tokens() {
    let s = "x".repeat(10_000_000);
    let v = decode(&format!("a: {s}"), &DecodeOptions::default()).unwrap();
    assert_eq!(v.get("a").unwrap().as_str().unwrap().len(), s.len());
    let digits = "7".repeat(100_000);
    let v = decode(&format!("n: {digits}"), &DecodeOptions::default()).unwrap();
    let n = v.get("n").unwrap().as_number().unwrap();
    assert!(*n == Number::parse(&digits).unwrap());
}

#[test]
fn default_depth_fits_a_test_thread_stack() {
    // 255 nested list items and 255 nested objects, decoded on a 2 MiB test thread.
    let mut list = String::from("a[1]:\n");
    let mut objects = String::new();
    for i in 1..254 {
        list.push_str(&" ".repeat(2 * i));
        list.push_str("- [1]:\n");
    }
    list.push_str(&" ".repeat(2 * 254));
    list.push_str("- x");
    for i in 0..255 {
        objects.push_str(&"  ".repeat(i));
        objects.push_str("k:\n");
    }
    assert_eq!(
        decode(&list, &DecodeOptions::default()).unwrap().depth(),
        255
    );
    assert_eq!(
        decode(&objects, &DecodeOptions::default()).unwrap().depth(),
        256
    );
}

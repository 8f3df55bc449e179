//! JSON in and out, and the serde bridge: table-driven cases run through
//! every entry point, plus property tests for the round trips.

use pith::json::{self, ParseOptions};
use pith::{ErrorKind, Map, Number, Value};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[path = "support/gen.rs"]
mod generate;

/// Parses through every entry point, which must agree.
fn parse_all(input: &[u8]) -> pith::Result<Value> {
    let bytes = json::parse_bytes(input);
    let with = json::parse_with(input, &ParseOptions::default());
    assert_eq!(
        format!("{bytes:?}"),
        format!("{with:?}"),
        "parse_bytes and parse_with disagree on {input:?}"
    );
    if let Ok(text) = std::str::from_utf8(input) {
        let from_str = json::parse(text);
        assert_eq!(
            format!("{bytes:?}"),
            format!("{from_str:?}"),
            "parse and parse_bytes disagree on {input:?}"
        );
    }
    bytes
}

fn num(text: &str) -> Value {
    Value::Number(Number::parse(text).unwrap())
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        assert!(m.insert(k, v).is_none(), "test object repeats {k}");
    }
    Value::Object(m)
}

fn nested_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

// ---------------------------------------------------------------- accepted

#[test]
fn accepts_rfc_8259_and_writes_it_back_as_json_stringify_does() {
    // (input, compact output)
    let cases: &[(&str, &str)] = &[
        ("[]", "[]"),
        ("{}", "{}"),
        ("null", "null"),
        ("true", "true"),
        ("false", "false"),
        ("0", "0"),
        ("-0", "0"),
        ("-0.0e-5", "0"),
        ("\"\"", "\"\""),
        (" \t\r\n[ 1 , 2 ]\n\t ", "[1,2]"),
        ("[ ]", "[]"),
        ("{ }", "{}"),
        ("[[],{},[{}]]", "[[],{},[{}]]"),
        (
            "[1,-1,0.5,1e2,1E+2,1e-2,-1.5e-7,1.0,10.50]",
            "[1,-1,0.5,100,100,0.01,-1.5e-7,1,10.5]",
        ),
        (
            "[1e21,1e-7,123e-9,0.000001]",
            "[1000000000000000000000,1e-7,1.23e-7,0.000001]",
        ),
        ("9007199254740993", "9007199254740993"),
        ("-9223372036854775809", "-9223372036854775809"),
        ("18446744073709551616", "18446744073709551616"),
        ("1e400", "1e+400"),
        ("1E999999999", "1e+999999999"),
        ("-1e-999999999", "-1e-999999999"),
        ("0.1e-999999998", "1e-999999999"),
        ("99.5e999999998", "9.95e+999999999"),
        ("0e9999999999999", "0"),
        ("0.1000000000000000055511", "0.1000000000000000055511"),
        // JavaScript's layout, an exponent from 1e21 on, except for an
        // integer: its digits, so that readers that keep integers read one.
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
        ("12345678901234567890123", "12345678901234567890123"),
        ("-1.5e22", "-15000000000000000000000"),
        ("1.5e21", "1500000000000000000000"),
        ("1.5e20", "150000000000000000000"),
        ("1.23456789012345678901e21", "1234567890123456789010"),
        (
            "1.2345678901234567890123e21",
            "1.2345678901234567890123e+21",
        ),
        ("1e309", "1e+309"),
        // The value's exponent is bounded, not the literal's.
        ("0.1e1000000000", "1e+999999999"),
        ("100e-1000000001", "1e-999999999"),
        ("-100000000000000000000", "-100000000000000000000"),
        (
            r#""\"\\\/\b\f\n\r\t\u0041\u00e9\u00E9\uD83D\uDE00\ud83d\ude00""#,
            "\"\\\"\\\\/\\b\\f\\n\\r\\tAéé😀😀\"",
        ),
        (r#""\u0000\u001F\u007f""#, "\"\\u0000\\u001f\u{7f}\""),
        (
            "\"\u{7f}\u{2028}\u{2029}\u{feff}é😀\"",
            "\"\u{7f}\u{2028}\u{2029}\u{feff}é😀\"",
        ),
        (
            r#"{"":1,"a":{"b":[{"c":null}]}}"#,
            r#"{"":1,"a":{"b":[{"c":null}]}}"#,
        ),
        (r#"{"b":1,"a":2}"#, r#"{"b":1,"a":2}"#),
        (r#"{"a":1,"A":2,"a ":3}"#, r#"{"a":1,"A":2,"a ":3}"#),
        (r#"{"😀":"\ud83d\ude00"}"#, r#"{"😀":"😀"}"#),
        (
            r#"{"a" : [ "x" , { "b" : true } ] }"#,
            r#"{"a":["x",{"b":true}]}"#,
        ),
    ];
    for (input, want) in cases {
        let v = parse_all(input.as_bytes()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(json::stringify(&v), *want, "input {input}");
        assert_eq!(v.to_string(), *want, "Display of {input}");
    }
}

#[test]
fn builds_the_exact_value() {
    let v = json::parse(r#"{"a":[1,"x",null,true],"b":{"c":2.50}}"#).unwrap();
    let want = obj(vec![
        (
            "a",
            Value::Array(vec![
                num("1"),
                Value::from("x"),
                Value::Null,
                Value::Bool(true),
            ]),
        ),
        ("b", obj(vec![("c", num("2.5"))])),
    ]);
    assert_eq!(v, want);
}

#[test]
fn nesting_up_to_the_limit_is_accepted() {
    let v = parse_all(nested_arrays(256).as_bytes()).unwrap();
    assert_eq!(v.depth(), 256);
    let opts = ParseOptions::default().max_depth(3);
    assert!(json::parse_with(b"[{\"a\":[]}]", &opts).is_ok());
    let zero = ParseOptions::default().max_depth(0);
    assert_eq!(json::parse_with(b"1", &zero).unwrap(), num("1"));
}

#[test]
fn large_objects_are_read_and_checked_in_linear_time() {
    let n = 200_000;
    let mut text = String::from("{");
    for i in 0..n {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("\"k{i}\":{i}"));
    }
    text.push('}');
    let start = std::time::Instant::now();
    let v = json::parse(&text).unwrap();
    assert_eq!(v.as_object().unwrap().len(), n);
    // A quadratic check would take minutes here.
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    // A duplicate at the very end is still found.
    let dup = format!("{},\"k7\":0}}", &text[..text.len() - 1]);
    let e = json::parse(&dup).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.column(), dup.len() - 6);
}

// ---------------------------------------------------------------- refused

struct Refusal {
    input: &'static [u8],
    kind: ErrorKind,
    line: usize,
    column: usize,
    message: &'static str,
}

const fn no(
    input: &'static [u8],
    kind: ErrorKind,
    line: usize,
    column: usize,
    message: &'static str,
) -> Refusal {
    Refusal {
        input,
        kind,
        line,
        column,
        message,
    }
}

use ErrorKind::{
    DuplicateKey, InvalidEscape, InvalidUtf8, LoneSurrogate, NumberRange, Syntax, TrailingContent,
};

const REFUSALS: &[Refusal] = &[
    // duplicate keys, at the second occurrence
    no(
        br#"{"a":1,"a":2}"#,
        DuplicateKey,
        1,
        8,
        r#"found "a" a second time"#,
    ),
    no(
        b"{\n  \"x\": 1,\n  \"x\": 2\n}",
        DuplicateKey,
        3,
        3,
        r#""x""#,
    ),
    no(br#"{"a":1,"\u0061":2}"#, DuplicateKey, 1, 8, r#""a""#),
    no(
        br#"[{"a":{"a":1,"b":2,"a":3}}]"#,
        DuplicateKey,
        1,
        20,
        r#""a""#,
    ),
    no(br#"{"\n":1,"\n":2}"#, DuplicateKey, 1, 9, r#""\n""#),
    // lone surrogates
    no(br#""\uD800""#, LoneSurrogate, 1, 2, r"\ud800"),
    no(
        br#""\uDC00""#,
        LoneSurrogate,
        1,
        2,
        "lone low surrogate \\udc00",
    ),
    no(br#""ab\ud83dx""#, LoneSurrogate, 1, 4, "found none"),
    no(br#""\uD83D\u0041""#, LoneSurrogate, 1, 2, "found \\u0041"),
    no(br#""\uD83D\uD83D""#, LoneSurrogate, 1, 2, "found \\ud83d"),
    no(br#"{"\uDE00":1}"#, LoneSurrogate, 1, 3, "low surrogate"),
    // invalid UTF-8, at the bad byte
    no(b"[\"a\xff\"]", InvalidUtf8, 1, 4, "invalid byte 0xff"),
    no(b"\"\xe2\x82", InvalidUtf8, 1, 2, "cut off"),
    no(b"\"\xc0\x80\"", InvalidUtf8, 1, 2, "0xc0"),
    no(b"\"\xed\xa0\x80\"", InvalidUtf8, 1, 2, "0xed"),
    no(b"[1,\n\"\xc3\xa9\x80\"]", InvalidUtf8, 2, 3, "0x80"),
    no(b"{\xff}", InvalidUtf8, 1, 2, "0xff"),
    // raw control characters in strings
    no(b"\"a\nb\"", Syntax, 1, 3, "raw control character U+000A"),
    no(b"\"\t\"", Syntax, 1, 2, "U+0009"),
    no(b"[\"\x00\"]", Syntax, 1, 3, "U+0000"),
    no(b"{\"a\x1fb\":1}", Syntax, 1, 4, "U+001F"),
    // bad escapes and unterminated strings
    no(
        br#""\x""#,
        InvalidEscape,
        1,
        2,
        "found '\\' followed by 'x'",
    ),
    no(br#""\'""#, InvalidEscape, 1, 2, "'''"),
    no(br#""\U0041""#, InvalidEscape, 1, 2, "'U0041'"),
    no(br#""\u12G4""#, InvalidEscape, 1, 2, "four hex digits"),
    no(br#""\u12""#, InvalidEscape, 1, 2, "four hex digits"),
    no(br#""\uD83D\u12""#, InvalidEscape, 1, 8, "four hex digits"),
    no(b"\"\\\t\"", InvalidEscape, 1, 2, "U+0009"),
    no(b"\"abc", InvalidEscape, 1, 1, "close the string"),
    no(b"[\"abc\\", InvalidEscape, 1, 6, "end of input"),
    no(b"{\"a", InvalidEscape, 1, 2, "close the string"),
    // trailing content
    no(b"[1] 2", TrailingContent, 1, 5, "found '2'"),
    no(b"1 2", TrailingContent, 1, 3, "expected end of input"),
    no(b"{}x", TrailingContent, 1, 3, "found 'x'"),
    no(b"nullx", TrailingContent, 1, 5, "'x'"),
    no(b"[1]]", TrailingContent, 1, 4, "']'"),
    no(b"\"a\" : 1", TrailingContent, 1, 5, "':'"),
    no(b"0x10", TrailingContent, 1, 2, "'x10'"),
    no(b"1\n\n  ,", TrailingContent, 3, 3, "','"),
    // numbers outside Number's domain
    no(b"1e1000000000", NumberRange, 1, 1, "lies within ±999999999"),
    no(
        b"10.21e999999999",
        NumberRange,
        1,
        1,
        "found '10.21e999999999'",
    ),
    no(
        b"[0.01e-999999998]",
        NumberRange,
        1,
        2,
        "scientific notation",
    ),
    no(
        b"[0, -1.5E-1000000000]",
        NumberRange,
        1,
        5,
        "'-1.5E-1000000000'",
    ),
    // number grammar
    no(b"01", Syntax, 1, 1, "without leading zeros, found '01'"),
    no(b"-01", Syntax, 1, 1, "leading zeros"),
    no(b"[00]", Syntax, 1, 2, "leading zeros"),
    no(b"+1", Syntax, 1, 1, "expected a JSON value, found '+'"),
    no(b".5", Syntax, 1, 1, "found '.'"),
    no(
        b"1.",
        Syntax,
        1,
        3,
        "digit after the decimal point, found end of input",
    ),
    no(b"1.e1", Syntax, 1, 3, "found 'e1'"),
    no(b"1e", Syntax, 1, 3, "digit in the exponent"),
    no(b"1e+", Syntax, 1, 4, "digit in the exponent"),
    no(b"[1E-x]", Syntax, 1, 5, "found 'x'"),
    no(b"-", Syntax, 1, 2, "digit after '-', found end of input"),
    no(b"- 1", Syntax, 1, 2, "digit after '-', found a space"),
    no(b"-Infinity", Syntax, 1, 2, "found 'Infinity'"),
    no(b"NaN", Syntax, 1, 1, "found 'NaN'"),
    no(b"Infinity", Syntax, 1, 1, "'Infinity'"),
    no(b"[1,2.3.4]", Syntax, 1, 7, "',' or ']'"),
    no("[\"é\", 01]".as_bytes(), Syntax, 1, 7, "leading zeros"),
    // structure
    no(
        b"",
        Syntax,
        1,
        1,
        "expected a JSON value, found end of input",
    ),
    no(b"   ", Syntax, 1, 4, "end of input"),
    no(
        b"[",
        Syntax,
        1,
        2,
        "expected a JSON value, found end of input",
    ),
    no(
        b"[1",
        Syntax,
        1,
        3,
        "',' or ']' after an array element, found end of input",
    ),
    no(b"{", Syntax, 1, 2, "'\"' to start a key or '}'"),
    no(br#"{"a""#, Syntax, 1, 5, "':' after the key"),
    no(br#"{"a":"#, Syntax, 1, 6, "a JSON value"),
    no(br#"{"a":1"#, Syntax, 1, 7, "',' or '}'"),
    no(b"[1,]", Syntax, 1, 4, "expected a JSON value, found ']'"),
    no(b"[,1]", Syntax, 1, 2, "found ','"),
    no(
        br#"{"a":1,}"#,
        Syntax,
        1,
        8,
        "'\"' to start a key, found '}'",
    ),
    no(br#"{"a" 1}"#, Syntax, 1, 6, "':' after the key, found '1'"),
    no(br#"{"a"::1}"#, Syntax, 1, 6, "a JSON value, found ':'"),
    no(b"{a:1}", Syntax, 1, 2, "found 'a'"),
    no(b"{'a':1}", Syntax, 1, 2, "found '''"),
    no(b"['a']", Syntax, 1, 2, "found '''"),
    no(b"{1:2}", Syntax, 1, 2, "found '1'"),
    no(b"[1 2]", Syntax, 1, 4, "',' or ']'"),
    no(br#"{"a":1 "b":2}"#, Syntax, 1, 8, "',' or '}'"),
    no(br#"{"a":1;"b":2}"#, Syntax, 1, 7, "found ';'"),
    no(b"[1}", Syntax, 1, 3, "found '}'"),
    no(b"{\"a\":1]", Syntax, 1, 7, "found ']'"),
    no(b"tru", Syntax, 1, 1, "found 'tru'"),
    no(b"True", Syntax, 1, 1, "found 'True'"),
    no(b"nul", Syntax, 1, 1, "'nul'"),
    no(b"[fals]", Syntax, 1, 2, "'fals'"),
    no(b"undefined", Syntax, 1, 1, "'undefined'"),
    no(b"/* c */ 1", Syntax, 1, 1, "found '/'"),
    no(b"// c\n1", Syntax, 1, 1, "found '/'"),
    no(b"[1,\n2,\n,3]", Syntax, 3, 1, "found ','"),
    // whitespace is only what RFC 8259 allows
    no(b"\x0c[]", Syntax, 1, 1, "U+000C"),
    no(b"[1,\x0b2]", Syntax, 1, 4, "U+000B"),
    no("\u{a0}1".as_bytes(), Syntax, 1, 1, "found U+00A0"),
    no("[1,\u{2028}2]".as_bytes(), Syntax, 1, 4, "U+2028"),
    // a leading byte order mark is refused, not dropped
    no(b"\xef\xbb\xbf[]", Syntax, 1, 1, "byte order mark"),
    no(b" \xef\xbb\xbf[]", Syntax, 1, 2, "U+FEFF"),
];

#[test]
fn refusals_name_the_kind_line_and_column() {
    let mut failures = Vec::new();
    for r in REFUSALS {
        match parse_all(r.input) {
            Ok(v) => failures.push(format!(
                "{:?}: accepted as {v:?}",
                String::from_utf8_lossy(r.input)
            )),
            Err(e) => {
                let got = (e.kind(), e.line(), e.column());
                if got != (r.kind, r.line, r.column) || !e.message().contains(r.message) {
                    failures.push(format!(
                        "{:?}: want {:?} {}:{} containing {:?}, got {:?} {}:{} {:?}",
                        String::from_utf8_lossy(r.input),
                        r.kind,
                        r.line,
                        r.column,
                        r.message,
                        e.kind(),
                        e.line(),
                        e.column(),
                        e.message()
                    ));
                }
                if e.message().chars().next().is_some_and(char::is_uppercase) {
                    failures.push(format!("message not lowercase: {}", e.message()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    for open in ["[", "{\"a\":", "[{\"a\":"] {
        let text = open.repeat(100_000);
        let e = json::parse(&text).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimit, "{open}");
        assert_eq!(e.line(), 1);
    }
    let e = parse_all(nested_arrays(257).as_bytes()).unwrap_err();
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::DepthLimit, 1, 257)
    );
    assert!(e.message().contains("at most 256 levels"), "{e}");
    let e = json::parse(&nested_arrays(100_000)).unwrap_err();
    assert_eq!((e.kind(), e.column()), (ErrorKind::DepthLimit, 257));
    let opts = ParseOptions::default().max_depth(2);
    let e = json::parse_with(b"[[[]]]", &opts).unwrap_err();
    assert_eq!((e.kind(), e.column()), (ErrorKind::DepthLimit, 3));
    let e = json::parse_with(b"{\"a\":{\"b\":{}}}", &opts).unwrap_err();
    assert_eq!((e.kind(), e.column()), (ErrorKind::DepthLimit, 11));
    let zero = ParseOptions::default().max_depth(0);
    assert_eq!(
        json::parse_with(b"[]", &zero).unwrap_err().kind(),
        ErrorKind::DepthLimit
    );
    // A generous limit is honoured too, still without recursion.
    let deep = ParseOptions::default().max_depth(20_000);
    let v = json::parse_with(nested_arrays(20_000).as_bytes(), &deep).unwrap();
    assert_eq!(v.depth(), 20_000);
    assert_eq!(json::stringify(&v), nested_arrays(20_000));
}

#[test]
fn errors_render_with_a_caret() {
    let src = "{\n  \"a\": 1,\n  \"a\": 2\n}";
    let e = json::parse(src).unwrap_err();
    assert_eq!(
        e.render(src),
        "line 3, column 3: expected each key once per object, found \"a\" a second time\n 3 |   \"a\": 2\n   |   ^"
    );
}

// ---------------------------------------------------------------- writing

#[test]
fn strings_are_escaped_as_json_stringify_escapes_them() {
    let cases: &[(&str, &str)] = &[
        ("", r#""""#),
        ("plain", r#""plain""#),
        ("\"\\/", r#""\"\\/""#),
        ("\u{8}\u{c}\n\r\t", r#""\b\f\n\r\t""#),
        (
            "\u{0}\u{1}\u{7}\u{b}\u{e}\u{1a}\u{1f}",
            r#""\u0000\u0001\u0007\u000b\u000e\u001a\u001f""#,
        ),
        (
            "\u{7f}\u{80}\u{2028}\u{2029}\u{feff}",
            "\"\u{7f}\u{80}\u{2028}\u{2029}\u{feff}\"",
        ),
        ("é😀中", "\"é😀中\""),
        (
            "a long run of plain text, then\na newline",
            r#""a long run of plain text, then\na newline""#,
        ),
    ];
    for (s, want) in cases {
        let mut out = b"prefix".to_vec();
        json::write_str_into(s, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), format!("prefix{want}"));
        assert_eq!(json::stringify(&Value::from(*s)), *want);
    }
}

#[test]
fn pretty_output_matches_json_stringify_with_indent() {
    let v = json::parse(r#"{"a":[1,{},[]],"b":{"c":"x\u0001"},"d":[[]],"e":{"f":{"g":null}}}"#)
        .unwrap();
    // JSON.stringify(v, null, 3)
    let three = "{\n   \"a\": [\n      1,\n      {},\n      []\n   ],\n   \"b\": {\n      \"c\": \"x\\u0001\"\n   },\n   \"d\": [\n      []\n   ],\n   \"e\": {\n      \"f\": {\n         \"g\": null\n      }\n   }\n}";
    assert_eq!(json::stringify_pretty(&v, 3), three);
    assert_eq!(format!("{:#}", Value::Array(vec![num("1")])), "[\n  1\n]");
    // JavaScript counts an indent above 10 as 10, and 0 as compact.
    let small = json::parse(r#"{"a":[1]}"#).unwrap();
    assert_eq!(
        json::stringify_pretty(&small, 12),
        format!("{{\n{0}\"a\": [\n{0}{0}1\n{0}]\n}}", " ".repeat(10))
    );
    assert_eq!(json::stringify_pretty(&small, 0), r#"{"a":[1]}"#);
    for scalar in ["1", "\"x\"", "null", "[]", "{}"] {
        assert_eq!(
            json::stringify_pretty(&json::parse(scalar).unwrap(), 2),
            scalar
        );
    }
}

#[test]
fn write_to_streams_the_same_bytes_and_reports_io_errors() {
    let mut rows = Vec::new();
    for i in 0..5_000 {
        rows.push(obj(vec![
            ("id", Value::from(i)),
            ("name", Value::from(format!("row\n{i}"))),
        ]));
    }
    let v = Value::Array(rows);
    let mut out = Vec::new();
    json::write_to(&v, &mut out, None).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), json::stringify(&v));
    let mut out = Vec::new();
    json::write_to(&v, &mut out, Some(2)).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        json::stringify_pretty(&v, 2)
    );
    let mut appended = b"x".to_vec();
    json::write_into(&v, &mut appended);
    assert_eq!(&appended[1..], json::stringify(&v).as_bytes());

    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = json::write_to(&v, Broken, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.message().contains("disk full"));
    let e = json::write_to(&Value::Null, Broken, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
}

#[test]
fn output_matches_serde_json_on_the_shared_dataset_shape() {
    // serde_json writes the same bytes as JSON.stringify for integers,
    // strings and these decimals.
    let text = r#"{"rows":[{"id":1,"name":"Elru","price":956.02,"active":false,"tags":[],"meta":{}},{"id":2,"name":"Zé\u0007\"","price":0.5,"active":true,"tags":["a","b"],"meta":{"x":null}}]}"#;
    let ours = json::parse(text).unwrap();
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        json::stringify(&ours),
        serde_json::to_string(&theirs).unwrap()
    );
    assert_eq!(
        json::stringify_pretty(&ours, 2),
        serde_json::to_string_pretty(&theirs).unwrap()
    );
}

// ---------------------------------------------------------------- properties

fn arb_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        any::<i128>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        (
            any::<bool>(),
            "[0-9]{1,40}",
            proptest::option::of("[0-9]{1,30}"),
            proptest::option::of(-1_000_000_000i64..=1_000_000_000)
        )
            .prop_map(|(neg, int, frac, exp)| {
                let exp = exp.map(|e| e.clamp(-999_999_000, 999_999_000));
                generate::literal(neg, &int, frac.as_deref(), exp)
            }),
    ]
}

fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[\\x00-\\x1f\"\\\\/a-z\u{7f}\u{2028}é😀]{0,12}",
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    generate::nested(
        generate::leaf(arb_number(), arb_string()),
        arb_string,
        6,
        96,
        8,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_reads_back_what_to_string_writes(v in arb_value()) {
        let text = json::stringify(&v);
        prop_assert_eq!(json::parse(&text).unwrap(), v.clone());
        for indent in [1, 2, 4] {
            prop_assert_eq!(json::parse(&json::stringify_pretty(&v, indent)).unwrap(), v.clone());
        }
        let mut streamed = Vec::new();
        json::write_to(&v, &mut streamed, None).unwrap();
        prop_assert_eq!(streamed, text.into_bytes());
    }

    #[test]
    fn serde_round_trips_every_value(v in arb_value()) {
        prop_assert_eq!(pith::to_value(&v).unwrap(), v.clone());
        prop_assert_eq!(pith::from_value::<Value>(v.clone()).unwrap(), v);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(v) = json::parse_bytes(&bytes) {
            prop_assert_eq!(json::parse(&json::stringify(&v)).unwrap(), v);
        }
    }

    /// Against serde_json on JSON-like text (no exponents, so every number is
    /// in serde_json's range; short, so nesting stays under its limit): pith
    /// accepts nothing serde_json refuses, and refuses only duplicate keys
    /// among what serde_json accepts.
    #[test]
    fn agrees_with_serde_json_on_what_is_json(
        text in "[\\[\\]{}\",: 0-9.\\-atrufalsn\\\\u\\n]{0,40}"
    ) {
        let ours = json::parse(&text);
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        match (&ours, &theirs) {
            (Ok(_), Err(e)) => prop_assert!(false, "pith accepts {:?}, serde_json: {}", text, e),
            (Err(e), Ok(_)) => prop_assert_eq!(e.kind(), ErrorKind::DuplicateKey, "{:?}: {}", text, e),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------- serde

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Row {
    id: u32,
    name: String,
    price: f64,
    note: Option<String>,
    tags: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(u32),
    Pair(i8, i8),
    Rect { w: u16, h: u16 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Meters(u64);

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Doc {
    rows: Vec<Row>,
    shapes: Vec<Shape>,
    by_id: BTreeMap<u32, String>,
    flags: BTreeMap<bool, u8>,
    letters: BTreeMap<char, Meters>,
    unit: Unit,
    nothing: (),
    pair: (i128, u128),
    small: f32,
    ch: char,
}

fn sample_doc() -> Doc {
    Doc {
        rows: vec![
            Row {
                id: 1,
                name: "a".into(),
                price: 2.5,
                note: None,
                tags: vec![],
            },
            Row {
                id: 2,
                name: "b\n\"".into(),
                price: 0.1,
                note: Some("x".into()),
                tags: vec!["t".into()],
            },
        ],
        shapes: vec![
            Shape::Empty,
            Shape::Circle(3),
            Shape::Pair(-1, 2),
            Shape::Rect { w: 4, h: 5 },
        ],
        by_id: [(10, "ten".to_owned()), (2, "two".to_owned())].into(),
        flags: [(true, 1), (false, 0)].into(),
        letters: [('z', Meters(26))].into(),
        unit: Unit,
        nothing: (),
        pair: (i128::MIN, u128::MAX),
        small: 1.1,
        ch: 'é',
    }
}

#[test]
fn to_value_lays_out_rust_data_as_serde_json_does() {
    let doc = sample_doc();
    let v = pith::to_value(&doc).unwrap();
    assert_eq!(
        json::stringify(&v),
        concat!(
            r#"{"rows":[{"id":1,"name":"a","price":2.5,"note":null,"tags":[]},"#,
            r#"{"id":2,"name":"b\n\"","price":0.1,"note":"x","tags":["t"]}],"#,
            r#""shapes":["Empty",{"Circle":3},{"Pair":[-1,2]},{"Rect":{"w":4,"h":5}}],"#,
            r#""by_id":{"2":"two","10":"ten"},"flags":{"false":0,"true":1},"letters":{"z":26},"#,
            r#""unit":null,"nothing":null,"#,
            r#""pair":[-170141183460469231731687303715884105728,340282366920938463463374607431768211455],"#,
            r#""small":1.1,"ch":"é"}"#
        )
    );
    let back: Doc = pith::from_value(v).unwrap();
    assert_eq!(back, doc);
}

#[test]
fn values_cross_to_and_from_serde_json() {
    let text = r#"{"a":[1,-2,2.5,"x",null,true,{}],"big":18446744073709551615}"#;
    let ours = json::parse(text).unwrap();
    assert_eq!(serde_json::to_string(&ours).unwrap(), text);
    let read: Value = serde_json::from_str(text).unwrap();
    assert_eq!(read, ours);
    let via: serde_json::Value = pith::from_value(ours.clone()).unwrap();
    assert_eq!(via.to_string(), text);
    assert_eq!(pith::to_value(&via).unwrap(), ours);
    let map: Map = serde_json::from_str(r#"{"k":1}"#).unwrap();
    assert_eq!(map.get("k"), Some(&num("1")));
    let n: Number = serde_json::from_str("1.5").unwrap();
    assert_eq!(n, Number::parse("1.5").unwrap());
    let e = serde_json::from_str::<Value>(r#"{"a":1,"b":2,"a":3}"#).unwrap_err();
    assert!(e.to_string().contains(r#"found "a" a second time"#), "{e}");
    assert!(serde_json::from_str::<Map>("[1]").is_err());
}

#[test]
fn numbers_no_serde_primitive_holds_pass_exactly_between_pith_values() {
    let text = r#"[1e400,0.1000000000000000055511,9007199254740993,1180591620717411303424,-1e-400,340282366920938463463374607431768211456]"#;
    let v = json::parse(text).unwrap();
    assert_eq!(pith::to_value(&v).unwrap(), v);
    assert_eq!(pith::from_value::<Value>(v.clone()).unwrap(), v);
    let wrapped = obj(vec![("v", v.clone())]);
    assert_eq!(pith::to_value(&wrapped).unwrap(), wrapped);
    let numbers: Vec<Number> = pith::from_value(v.clone()).unwrap();
    assert_eq!(
        Value::Array(numbers.into_iter().map(Value::Number).collect()),
        v
    );

    // An object that happens to use the key pith's bridge uses internally
    // stays an object.
    for text in [
        r#"{"$pith::private::Number":"5"}"#,
        r#"{"$pith::private::Number":"1e400"}"#,
        r#"{"$pith::private::Number":5}"#,
    ] {
        let v = json::parse(text).unwrap();
        assert_eq!(pith::from_value::<Value>(v.clone()).unwrap(), v, "{text}");
        assert_eq!(pith::to_value(&v).unwrap(), v, "{text}");
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), v, "{text}");
    }

    // Other formats get an error naming the number, never a rounded one.
    let e = serde_json::to_string(&num("1e400")).unwrap_err();
    assert!(e.to_string().contains("found 1e+400"), "{e}");
    let e = serde_json::to_string(&num("0.1000000000000000055511")).unwrap_err();
    assert!(e.to_string().contains("0.1000000000000000055511"), "{e}");
    assert_eq!(
        serde_json::to_string(&num("9007199254740993")).unwrap(),
        "9007199254740993"
    );
    let e = pith::from_value::<serde_json::Value>(num("1e400")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("1e+400"), "{e}");

    // A target that asks for a float gets the nearest one, within range.
    assert_eq!(
        pith::from_value::<f64>(num("0.1000000000000000055511")).unwrap(),
        0.1
    );
    let e = pith::from_value::<f64>(num("1e400")).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Type, Some("$")));
    assert_eq!(
        pith::from_value::<u128>(num("340282366920938463463374607431768211455")).unwrap(),
        u128::MAX
    );
    assert_eq!(
        pith::from_value::<i128>(num("-1e20")).unwrap(),
        -100_000_000_000_000_000_000
    );
}

#[test]
fn floats_without_a_json_form_become_null() {
    let v = pith::to_value(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e-7]).unwrap();
    assert_eq!(json::stringify(&v), "[null,null,null,0,1e-7]");
    let v = pith::to_value(&(f32::NAN, 0.1f32, 16_777_217f32)).unwrap();
    assert_eq!(json::stringify(&v), "[null,0.1,16777216]");
    assert_eq!(pith::from_value::<f32>(num("0.1")).unwrap(), 0.1f32);
}

#[test]
fn serializer_refuses_what_json_cannot_hold() {
    let e = pith::to_value(&BTreeMap::from([((1, 2), 3)])).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unrepresentable);
    assert!(e.message().contains("found a tuple"), "{e}");
    let e = pith::to_value(&BTreeMap::from([(vec![1u8], 3)])).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unrepresentable);
    let e = pith::to_value(&std::collections::HashMap::from([(1.5f64.to_bits(), 1)])).map(|_| ());
    assert!(e.is_ok(), "integer keys are fine");

    /// A map that yields one key twice.
    struct Twice;
    impl Serialize for Twice {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("k", &1)?;
            m.serialize_entry("k", &2)?;
            m.end()
        }
    }
    let e = pith::to_value(&Twice).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert!(e.message().contains(r#""k""#), "{e}");
    // Integer keys that spell the same text are the same key.
    let e = pith::to_value(
        &vec![(1u8, 0)]
            .into_iter()
            .chain([(1u8, 1)])
            .collect::<Vec<_>>(),
    );
    assert!(e.is_ok(), "a list of pairs is an array, not a map");

    /// Bytes become an array of numbers.
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&[0, 255])
        }
    }
    assert_eq!(json::stringify(&pith::to_value(&Bytes).unwrap()), "[0,255]");

    let mut deep = Value::Null;
    for _ in 0..300 {
        deep = Value::Array(vec![deep]);
    }
    assert_eq!(
        pith::to_value(&deep).unwrap_err().kind(),
        ErrorKind::DepthLimit
    );
    assert_eq!(
        pith::from_value::<Value>(deep.clone()).unwrap_err().kind(),
        ErrorKind::DepthLimit
    );
    let mut fine = Value::Null;
    for _ in 0..256 {
        fine = Value::Array(vec![fine]);
    }
    assert_eq!(pith::to_value(&fine).unwrap(), fine);
    assert_eq!(pith::from_value::<Value>(fine.clone()).unwrap(), fine);
}

/// (document, what to read it as, expected path, part of the message)
#[test]
fn type_errors_name_the_path_and_what_was_expected() {
    fn check<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        text: &str,
        path: &str,
        message: &str,
    ) {
        let v = json::parse(text).unwrap();
        let e = pith::from_value::<T>(v).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type, "{text}: {e}");
        assert_eq!(e.path(), Some(path), "{text}: {e}");
        assert!(e.message().contains(message), "{text}: {e}");
        assert!(e.to_string().starts_with(&format!("at {path}: ")), "{e}");
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Table {
        rows: Vec<Row>,
    }
    let row = r#"{"id":1,"name":"a","price":1,"note":null,"tags":[]}"#;
    check::<Table>(
        &format!(
            r#"{{"rows":[{row},{row},{{"id":3,"name":"c","price":"x","note":null,"tags":[]}}]}}"#
        ),
        "rows[2].price",
        "invalid type: string \"x\", expected f64",
    );
    check::<Table>(
        &format!(r#"{{"rows":[{row},{{"id":3,"name":"c","note":null,"tags":[]}}]}}"#),
        "rows[1]",
        "missing field `price`",
    );
    check::<Table>(
        r#"{"rows":[{"id":3,"name":"c","price":1,"note":null,"tags":[1]}]}"#,
        "rows[0].tags[0]",
        "expected a string",
    );
    check::<Table>(r#"{"rows":{}}"#, "rows", "expected a sequence");
    check::<Table>("[]", "$", "invalid length 0");
    check::<Vec<u8>>("[1,300]", "[1]", "expected u8");
    check::<Vec<u8>>("[1,-1]", "[1]", "integer `-1`");
    check::<Vec<u32>>("[1.5]", "[0]", "floating point `1.5`");
    check::<BTreeMap<String, Vec<bool>>>(
        r#"{"a b":[true,1]}"#,
        r#"["a b"][1]"#,
        "expected a boolean",
    );
    check::<BTreeMap<u32, bool>>(r#"{"x":true}"#, "x", "expected a key that is u32");
    check::<Vec<Shape>>(r#"["Empty","Oval"]"#, "[1]", "unknown variant `Oval`");
    check::<Vec<Shape>>(r#"[{"Circle":3,"Pair":[1,2]}]"#, "[0]", "a single key");
    check::<Vec<Shape>>(r#"[7]"#, "[0]", "found number");
    check::<Vec<Shape>>(
        r#"[{"Rect":{"w":1,"h":"2"}}]"#,
        "[0].Rect.h",
        "expected u16",
    );
    check::<Vec<Shape>>(r#"[{"Pair":[1]}]"#, "[0].Pair", "invalid length 1");
    check::<Vec<Shape>>(r#"["Circle"]"#, "[0]", "variant Circle");
    check::<Vec<Shape>>(r#"[{"Empty":1}]"#, "[0].Empty", "no data");
    check::<(u8, u8)>("[1,2,3]", "$", "fewer elements");
    check::<Unit>("1", "$", "expected unit struct Unit");
    check::<Option<u8>>("\"1\"", "$", "expected u8");
}

#[test]
fn from_value_reads_options_enums_and_keys() {
    assert_eq!(pith::from_value::<Option<u8>>(Value::Null).unwrap(), None);
    assert_eq!(pith::from_value::<Option<u8>>(num("7")).unwrap(), Some(7));
    let shapes: Vec<Shape> = pith::from_value(
        json::parse(
            r#"["Empty",{"Empty":null},{"Circle":3},{"Pair":[-1,2]},{"Rect":{"h":5,"w":4}}]"#,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        shapes,
        [
            Shape::Empty,
            Shape::Empty,
            Shape::Circle(3),
            Shape::Pair(-1, 2),
            Shape::Rect { w: 4, h: 5 }
        ]
    );
    let keyed: BTreeMap<i64, bool> =
        pith::from_value(json::parse(r#"{"-5":true,"10":false}"#).unwrap()).unwrap();
    assert_eq!(keyed, BTreeMap::from([(-5, true), (10, false)]));
    let unit: () = pith::from_value(Value::Null).unwrap();
    assert_eq!(unit, ());
    let ignored: Row = pith::from_value(
        json::parse(r#"{"id":1,"extra":[{"deep":1}],"name":"a","price":1e2,"note":"n","tags":[]}"#)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(ignored.price, 100.0);
    let tuple: (String, Meters) = pith::from_value(json::parse(r#"["x",5]"#).unwrap()).unwrap();
    assert_eq!(tuple, ("x".to_owned(), Meters(5)));
}

//! The TypeScript wire DSL importer (`pith schema import-ts`): every listed
//! form reads, errors name the file, line and column, literals read as
//! JavaScript reads them, and nesting and constants are bounded.

use pith::{ErrorKind, Value};
use pith_wire::{Schema, import_ts};

fn json(text: &str) -> Value {
    pith::json::parse(text).unwrap()
}

fn ts_error(src: &str) -> String {
    match import_ts(&[("defs.ts", src)]) {
        Ok(v) => panic!("expected an error for {src:?}, got {v:?}"),
        Err(e) => {
            assert_eq!(e.path(), Some("defs.ts"));
            e.to_string()
        }
    }
}

#[test]
fn typescript_subset_reads_every_listed_form() {
    let common = r#"
        // helpers shared by files
        export const JSON_OBJECT = 'Record';
        export const BASE = { id: "string", } as const;
    "#;
    let defs = r#"
        import { absentAs as dflt, doc, type WireDefs } from "./dsl";
        import type { Other } from './other';
        import * as ns from "./ns";
        import "./side-effect";
        import { JSON_OBJECT, BASE } from "./common";
        /* a block
           comment */
        const LIMIT = 10;
        export type StateDefs = typeof defs;
        export const defs: WireDefs = {
          A: `${JSON_OBJECT}[]`,
          'B': { ...BASE, "n?": "number", limit: dflt("number.integer", LIMIT), },
          C: doc("'x' | \"y\"", 'say "hi"\u0021'),
          D: { nested: { deep: dflt(doc('boolean', `multi
line`), true) } },
          E: { $weird: "string", list: dflt("string[]", ["a", -1.5e3, null, { k: [] }].slice ? [] : []) },
        };
    "#;
    // `.slice` is outside the subset: the error names it.
    let e = import_ts(&[("common.ts", common), ("defs.ts", defs)]).unwrap_err();
    assert_eq!(e.path(), Some("defs.ts"));
    assert_eq!(e.line(), 17);
    let defs = defs.replace(
        r#"["a", -1.5e3, null, { k: [] }].slice ? [] : []"#,
        r#"["a", -1.5e3, null, { k: [] }]"#,
    );
    // E's default does not match string[]: the import says where, as loading would.
    let e = import_ts(&[("common.ts", common), ("defs.ts", &defs)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at defs.ts, line 17, column 11: expected definitions that load, found that `E` does not: \
         at E.list: expected a default that matches string[], found one that does not: at [1] expected string, found -1500"
    );
    let defs = defs.replace(r#"dflt("string[]""#, r#"dflt("unknown[]""#);
    let doc =
        import_ts(&[("common.ts", common), ("defs.ts", &defs)]).unwrap_or_else(|e| panic!("{e}"));
    let want = json(
        r#"{
          "A": "Record[]",
          "B": {"id": "string", "n?": "number", "limit": {"$type": "number.integer", "$absentAs": 10}},
          "C": {"$type": "'x' | \"y\"", "$doc": "say \"hi\"!"},
          "D": {"nested": {"deep": {"$type": "boolean", "$absentAs": true, "$doc": "multi\nline"}}},
          "E": {"$$weird": "string", "list": {"$type": "unknown[]", "$absentAs": ["a", -1500, null, {"k": []}]}}
        }"#,
    );
    assert_eq!(doc, want);
    Schema::from_value(&doc).unwrap();
}

#[test]
fn typescript_without_a_marker_takes_exported_objects() {
    let doc = import_ts(&[("a.ts", "const helper = {x: 'string'}; export const one = { A: 'string' }; export const two = { B: 'A[]' };")]).unwrap();
    assert_eq!(doc, json(r#"{"A": "string", "B": "A[]"}"#));
}

#[test]
fn typescript_errors_give_file_line_and_column() {
    let cases: &[(&str, &str)] = &[
        (
            "export const d = { A: 'strin g' } satisfies WireDefs;",
            "at defs.ts, line 1, column 30: in the type expression \"strin g\": expected `|`, `[]` or the end of the expression, found `g`",
        ),
        (
            "export const d = {\n  A: foo('string', 'x'),\n} satisfies WireDefs;",
            "at defs.ts, line 2, column 6: expected a call of doc(…) or absentAs(…), found a call of `foo`",
        ),
        (
            "export const d = { A: MISSING } satisfies WireDefs;",
            "at defs.ts, line 1, column 23: expected a constant declared or imported in this file, found unknown `MISSING`",
        ),
        (
            "export const d = { A: `${X}[]` } satisfies WireDefs;",
            "at defs.ts, line 1, column 26: expected a constant declared or imported in this file, found unknown `X`",
        ),
        (
            "export const d = { A: 'string' + '[]' } satisfies WireDefs;",
            "at defs.ts, line 1, column 32: expected `,` or the end of the value (`+` is not part of the definitions subset; use a template literal), found `+`",
        ),
        (
            "function f() {}",
            "at defs.ts, line 1, column 1: expected `import`, `const` or `export const`, found `function`",
        ),
        (
            "export const d = { A: 'string', A: 'number' } satisfies WireDefs;",
            "at defs.ts, line 1, column 33: expected each key once in an object literal, found \"A\" again",
        ),
        (
            "export const d = { A: doc('string') } satisfies WireDefs;",
            "at defs.ts, line 1, column 23: expected 2 arguments to doc(definition, text), found 1",
        ),
        (
            "export const d = { A: doc('string', 5) } satisfies WireDefs;",
            "at defs.ts, line 1, column 37: expected the doc text as a string, found a number",
        ),
        (
            "export const d = { A: absentAs('string', '') } satisfies WireDefs;",
            "at defs.ts, line 1, column 23: expected absentAs(…) only on a field, found it on a type",
        ),
        (
            "export const d = { A: { b: 42 } } satisfies WireDefs;",
            "at defs.ts, line 1, column 28: expected a definition (a type expression string, an object of fields, doc(…) or absentAs(…)), found a number",
        ),
        (
            "export const d = { A: { b: absentAs('string', doc('x', 'y')) } } satisfies WireDefs;",
            "at defs.ts, line 1, column 47: expected plain data as a default, found doc(…)",
        ),
        (
            "export const d = { 'not a name': 'string' } satisfies WireDefs;",
            "at defs.ts, line 1, column 20: expected a type name (letters, digits and `_`, not a built-in), found \"not a name\"",
        ),
        (
            "export const d = { A: 'string' } satisfies WireDefs\n/* unterminated",
            "at defs.ts, line 2, column 1: expected `*/` to close this comment, found the end of the file",
        ),
        (
            "export const d = { A: 'str\ning' };",
            "at defs.ts, line 1, column 23: expected a closing ' before the end of the line",
        ),
        (
            "export const d = { A: '\\u{110000}' };",
            "at defs.ts, line 1, column 24: expected hex digits in this escape (\\xHH, \\uHHHH or \\u{H…})",
        ),
        (
            "export const d = { A: 0x10 };",
            "at defs.ts, line 1, column 23: expected a decimal number, found a hexadecimal, octal, binary or leading-zero literal",
        ),
        (
            "export const d = { A: [1,,2] };",
            "at defs.ts, line 1, column 26: expected an array item (holes are not JSON), found `,`",
        ),
        (
            "const a = b; const b = a; export const d = { A: a } satisfies WireDefs;",
            "at defs.ts, line 1, column 7: expected `a` to be defined without using itself",
        ),
        (
            "export const d = 'string' satisfies WireDefs;",
            "at defs.ts, line 1, column 18: expected an object of definitions for `d`, found a string",
        ),
        (
            "export const d = { A: 'string' } satisfies WireDefs; export const e = { A: 'number' } satisfies WireDefs;",
            "at defs.ts, line 1, column 73: expected each type defined once, found `A` again",
        ),
        (
            "export default {};",
            "at defs.ts, line 1, column 8: expected `const` after `export` (only constant declarations are definitions), found `default`",
        ),
        (
            "const x = 1;",
            "at defs.ts, line 1, column 1: expected a definitions object (`export const defs = {…} satisfies WireDefs`), found none",
        ),
        (
            "export const d = { A: 'x' \u{00e9} };",
            "at defs.ts, line 1, column 27: expected TypeScript the definitions subset understands, found the character 'é'",
        ),
        (
            "export const d = { A: undefined };",
            "at defs.ts, line 1, column 23: expected a JSON value, found `undefined` (leave the key out, or use null)",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(ts_error(src), *want, "{src}");
    }
    // A type expression inside a string with escapes points at the string.
    assert_eq!(
        ts_error("export const d = { A: \"\\'a\\' | \" } satisfies WireDefs;"),
        "at defs.ts, line 1, column 23: in the type expression \"'a' | \": expected a type, found the end of the expression"
    );
}

#[test]
fn typescript_refuses_a_field_declared_twice_through_a_spread() {
    let defs = |body: &str| {
        format!(
            "const B = {{ x: \"string\" }};\nconst C = {{ x: \"boolean\" }};\nexport const d = {{ A: {body} }} satisfies WireDefs;"
        )
    };
    // A key written before a spread that has it too: TypeScript's TS2783,
    // refused at the written key wherever the object stands.
    let e = import_ts(&[("defs.ts", &defs("{ x: \"number\", ...B }"))]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(
        e.to_string(),
        "at defs.ts, line 3, column 25: expected each key once in an object literal, found \"x\" here and again in the spread `...B` after it, which would overwrite this one (TypeScript refuses it too: TS2783)"
    );
    // After the spread, or in two spreads, TypeScript lets the later one
    // win; a definition still comes from one place.
    let tail = "(definitions do not let one copy replace the other)";
    assert_eq!(
        ts_error(&defs("{ ...B, x: \"number\" }")),
        format!(
            "at defs.ts, line 3, column 31: expected each field declared once, found `x` here and in the spread `...B` before it {tail}"
        )
    );
    assert_eq!(
        ts_error(&defs("{ ...B, ...C }")),
        format!(
            "at defs.ts, line 3, column 34: expected each field declared once, found `x` in this spread `...C` and in the spread `...B` before it {tail}"
        )
    );
    // Inside a constant that the definitions use, the place is in it.
    let src = "const B = { x: \"string\" };\nconst D = { ...B,\n  x: \"number\" };\nexport const d = { A: { y: D } } satisfies WireDefs;";
    let e = import_ts(&[("defs.ts", src)]).unwrap_err();
    assert_eq!((e.line(), e.column()), (3, 3), "{e}");
    // The same holds for types.
    assert_eq!(
        ts_error(
            "const Base = { A: 'string' };\nexport const d = { ...Base, A: 'number' } satisfies WireDefs;"
        ),
        format!(
            "at defs.ts, line 2, column 29: expected each type defined once, found `A` here and in the spread `...Base` before it {tail}"
        )
    );
    // Spreads that do not meet are fine.
    let doc = import_ts(&[("defs.ts", &defs("{ ...B, y: \"number\" }"))]).unwrap();
    assert_eq!(doc, json(r#"{"A": {"x": "string", "y": "number"}}"#));
    // In a default, which is data, the later one wins as in JavaScript,
    // keeping the first one's place; the TS2783 order is refused there too.
    let data = |value: &str| {
        format!(
            "const D = {{ n: 1, m: 3 }};\nexport const d = {{ A: {{ f: absentAs('Record<string, number>', {value}) }} }} satisfies WireDefs;"
        )
    };
    let doc = import_ts(&[("defs.ts", &data("{ ...D, n: 2 }"))]).unwrap();
    let default = doc
        .get("A")
        .and_then(|a| a.get("f"))
        .and_then(|f| f.get("$absentAs"));
    assert_eq!(
        default.map(pith::json::stringify),
        Some(r#"{"n":2,"m":3}"#.to_owned())
    );
    let e = import_ts(&[("defs.ts", &data("{ n: 2, ...D }"))]).unwrap_err();
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::DuplicateKey, 2, 65),
        "{e}"
    );
}

#[test]
fn typescript_errors_about_a_type_point_into_the_file_that_names_it() {
    // `T` is named in b.ts; its definition is a constant of a.ts.
    let a = "import { absentAs } from './dsl';\n\n\nexport const TT = { n: absentAs('number', 'zero') };\nexport const S = 'string';";
    let b = "import { TT, S } from './a';\nexport const defs = {\n  T: TT,\n} satisfies WireDefs;";
    let e = import_ts(&[("a.ts", a), ("b.ts", b)]).unwrap_err();
    assert_eq!(
        (e.path(), e.line(), e.column()),
        (Some("b.ts"), 3, 3),
        "{e}"
    );
    let b = "import { S } from './a';\nexport const defs = { T: S } satisfies WireDefs;\nexport const more = { T: S } satisfies WireDefs;";
    let e = import_ts(&[("a.ts", a), ("b.ts", b)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at b.ts, line 3, column 23: expected each type defined once, found `T` again"
    );
}

#[test]
fn typescript_across_files_needs_imports() {
    let a = "export const T = 'string';";
    let b = "export const d = { A: T } satisfies WireDefs;";
    let e = import_ts(&[("a.ts", a), ("b.ts", b)]).unwrap_err();
    assert_eq!(e.path(), Some("b.ts"));
    assert!(
        e.message()
            .ends_with("(another file exports it: import it)"),
        "{e}"
    );
    let b = "import { T as Str } from './a'; export const d = { A: Str } satisfies WireDefs;";
    assert_eq!(
        import_ts(&[("a.ts", a), ("b.ts", b)]).unwrap(),
        json(r#"{"A": "string"}"#)
    );
}

#[test]
fn typescript_nesting_is_bounded() {
    let deep = format!(
        "export const d = {{ A: {}'x'{} }};",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let e = import_ts(&[("deep.ts", &deep)]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DepthLimit);
}

#[test]
fn typescript_constants_inside_constants_are_bounded_too() {
    // Each constant nests 200 deep around the one before; each is read
    // (and kept) before the next uses it, so only the value's own depth
    // can refuse the chain.
    let mut src = format!("const c0 = {}1{};\n", "[".repeat(200), "]".repeat(200));
    for i in 1..200 {
        src.push_str(&format!(
            "const c{i} = {}c{}{};\n",
            "[".repeat(200),
            i - 1,
            "]".repeat(200)
        ));
    }
    for i in 0..200 {
        src.push_str(&format!(
            "export const d{i} = {{ T{i}: {{ f: absentAs('unknown', c{i}) }} }} satisfies WireDefs;\n"
        ));
    }
    let e = import_ts(&[("chain.ts", &src)]).unwrap_err();
    assert_eq!((e.kind(), e.line()), (ErrorKind::DepthLimit, 2));
}

#[test]
fn typescript_literals_read_as_javascript_reads_them() {
    let src = "export const d = { T: { n: absentAs('number', 1_000.5), m: absentAs('number', .5), k: absentAs('number', 5.), e: absentAs('number', -2E+3),\n s: absentAs('string', '\\x41\\u00e9\\u{1F600}\\\n\\0\\'\\q'), t: absentAs('string', `a\r\nb\\``), 7: 'string' } } satisfies WireDefs;";
    let doc = import_ts(&[("lits.ts", src)]).unwrap_or_else(|e| panic!("{e}"));
    let t = doc.get("T").expect("T");
    let default = |k: &str| t.get(k).and_then(|f| f.get("$absentAs")).cloned();
    assert_eq!(default("n"), Some(json("1000.5")));
    assert_eq!(default("m"), Some(json("0.5")));
    assert_eq!(default("k"), Some(json("5")));
    assert_eq!(default("e"), Some(json("-2000")));
    assert_eq!(default("s"), Some(Value::from("A\u{e9}\u{1F600}\0'q")));
    assert_eq!(default("t"), Some(Value::from("a\nb`")));
    assert_eq!(t.get("7"), Some(&Value::from("string")));
}

#[test]
fn typescript_numbers_take_separators_only_where_javascript_does() {
    let src = |lit: &str| {
        format!(
            "export const d = {{ A: {{ x:\n  absentAs(\"number\", {lit}) }} }} satisfies WireDefs;"
        )
    };
    // Each is a SyntaxError in TypeScript: refused at the literal, not read
    // as the number without its separators.
    for lit in [
        "1e_5", "1E_5", "1._5", "1_.5", "1_e5", "1e+_5", "1e-_5", "0_1", "0._1", "1__0", "1_",
        "1.5_", "1.5e1_", ".5_", "1_0._5", "1.5_e1",
    ] {
        let e = import_ts(&[("defs.ts", &src(lit))]).expect_err(lit);
        assert_eq!(
            e.to_string(),
            format!(
                "at defs.ts, line 2, column 22: expected `_` in a number only between two digits, and not after a leading 0, found `{lit}`"
            ),
            "{lit}"
        );
    }
    // Hexadecimal and the other radixes stay outside the subset, separator or not.
    let e = import_ts(&[("defs.ts", &src("0x_1"))]).unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 22));
    // Between two digits of one sequence, a separator is only spacing.
    for (lit, want) in [
        ("1_000", "1000"),
        ("1.5e1_0", "15000000000"),
        ("1_0.0_5", "10.05"),
        (".0_1", "0.01"),
        ("0.0_1", "0.01"),
        ("1e0_1", "10"),
        ("-2_5E-0_1", "-2.5"),
    ] {
        let doc = import_ts(&[("defs.ts", &src(lit))]).unwrap_or_else(|e| panic!("{lit}: {e}"));
        let default = doc
            .get("A")
            .and_then(|a| a.get("x"))
            .and_then(|x| x.get("$absentAs"));
        assert_eq!(default, Some(&json(want)), "{lit}");
    }
}

//! Every strict-mode condition of TOON spec 4.0 §14 (and the decoder's own
//! limits), each with the exact error kind, line and column, and the message
//! where its wording matters. Plus properties: no input makes the decoder
//! panic, and an error always carries a position.

use pith::toon::{DecodeOptions, ExpandPaths, Spec, decode, decode_bytes};
use pith::{ErrorKind, ErrorKind::*};
use proptest::prelude::*;

/// `(input, kind, line, column, message fragment)`; an empty fragment skips the message check.
type Case = (&'static str, ErrorKind, usize, usize, &'static str);

fn check(cases: &[Case], opts: &DecodeOptions) {
    for &(input, kind, line, column, fragment) in cases {
        let err = match decode(input, opts) {
            Ok(v) => panic!("{input:?}: expected {kind:?}, decoded {v:?}"),
            Err(e) => e,
        };
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (kind, line, column),
            "{input:?}: {err}"
        );
        assert!(
            err.message().contains(fragment),
            "{input:?}: message {:?} lacks {fragment:?}",
            err.message()
        );
    }
}

fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

fn lenient() -> DecodeOptions {
    DecodeOptions::default().strict(false)
}

fn v3() -> DecodeOptions {
    DecodeOptions::default().spec(Spec::V3)
}

#[test]
fn count_mismatches_point_at_the_surplus_item_or_the_declared_length() {
    check(
        &[
            // §14.1 inline values: surplus value, or the length when values are missing.
            ("tags[2]: a,b,c", CountMismatch, 1, 14, "expected 2 values"),
            ("tags[2]: a , b ,  c", CountMismatch, 1, 19, "found 3"),
            ("tags[3]: a,b", CountMismatch, 1, 6, "expected 3 values"),
            // A length beyond any count names itself as written.
            (
                "a[99999999999999999999]: 1",
                CountMismatch,
                1,
                3,
                "expected 99999999999999999999 values as the header declares, found 1",
            ),
            (
                "t[18446744073709551616]{x}:\n  1",
                CountMismatch,
                1,
                3,
                "expected 18446744073709551616 rows",
            ),
            (
                "x:\n  t[1|]: a|b",
                CountMismatch,
                2,
                12,
                "expected 1 value ",
            ),
            // §14.1 list items.
            ("items[1]:\n  - 1\n  - 2", CountMismatch, 3, 3, "found more"),
            (
                "items[2]:\n  - a",
                CountMismatch,
                1,
                7,
                "expected 2 list items",
            ),
            ("a:\n  b[0]:\n    - x", CountMismatch, 3, 5, ""),
            // §14.1 tabular rows.
            ("[1]{id}:\n  1\n  2", CountMismatch, 3, 3, "expected 1 row "),
            ("t[3]{a}:\n  1\n  2", CountMismatch, 1, 3, "found 2"),
            // Comment lines are never rows (§5.1).
            ("items[2]{id}:\n  #1\n  2", CountMismatch, 1, 7, "found 1"),
            // §14.1 keyed entries.
            (
                "m[2:]{v}:\n  a: 1",
                CountMismatch,
                1,
                3,
                "expected 2 entries",
            ),
            (
                "m[1:]{v}:\n  a: 1\n  b: 2",
                CountMismatch,
                3,
                3,
                "found more",
            ),
            // Nested inner arrays.
            (
                "pairs[2]:\n  - [3]: 1,2\n  - [2]: 3,4",
                CountMismatch,
                2,
                6,
                "",
            ),
        ],
        &strict(),
    );
}

#[test]
fn width_mismatches_point_at_the_row_or_the_surplus_cell() {
    check(
        &[
            (
                "items[2]{id,name}:\n  1,Ada\n  2",
                WidthMismatch,
                3,
                3,
                "found 1",
            ),
            (
                "items[1]{id,name}:\n  1,Ada,x",
                WidthMismatch,
                2,
                9,
                "found more",
            ),
            // Cells map to leaf fields, nested groups included (§9.3).
            (
                "o[1]{id,c{n,k}}:\n  1,Ada",
                WidthMismatch,
                2,
                3,
                "expected 3 cells",
            ),
            // Rows split on the active delimiter only.
            (
                "items[2\t]{a\tb}:\n  1,2\n  3,4",
                WidthMismatch,
                2,
                3,
                "found 1",
            ),
            // Keyed entry rows (§9.5): cells after the entry key, a bare key has none.
            ("m[1:]{a,b}:\n  k: 1", WidthMismatch, 2, 6, "found 1"),
            (
                "m[1:]{v}:\n  a:",
                WidthMismatch,
                2,
                5,
                "expected 1 cell per row",
            ),
            ("m[1:]{v}:\n  a: 1|2, 3", WidthMismatch, 2, 11, "found more"),
        ],
        &strict(),
    );
    // Width is checked in lenient mode too: a short row cannot be mapped to fields.
    check(&[("t[1]{a,b}:\n  1", WidthMismatch, 2, 3, "")], &lenient());
}

#[test]
fn header_grammar_violations() {
    check(
        &[
            // Malformed bracket lengths (§6).
            ("items[03]: a,b,c", Header, 1, 7, "without leading zeros"),
            (
                "items[-1]: a",
                Header,
                1,
                7,
                "expected a length (the digits of a count) in the bracket segment, found `-1`",
            ),
            (
                "foo[bar]: 10",
                Header,
                1,
                5,
                "expected a length (the digits of a count) in the bracket segment, found `bar`",
            ),
            ("key[]: 1,2", Header, 1, 5, ""),
            ("x[3.7]: a,b,c", Header, 1, 3, ""),
            // Malformed keyed markers.
            ("m[2|:]{v}:\n  a: 1\n  b: 2", Header, 1, 3, "`2|:`"),
            ("m[2 :]{v}:\n  a: 1\n  b: 2", Header, 1, 3, ""),
            ("m[2:,]{v}:\n  a: 1\n  b: 2", Header, 1, 3, ""),
            ("m[03:]{v}:\n  a: 1\n  b: 2", Header, 1, 3, ""),
            // Content between the parts of a header.
            ("foo[1][bar]: 10", Header, 1, 7, "found `[bar]`"),
            ("foo[2]extra: a,b", Header, 1, 7, "found `extra`"),
            ("items[2] :\n  1,2", Header, 1, 9, "found whitespace"),
            (
                "items[2] {a,b}:\n  1,2\n  3,4",
                Header,
                1,
                9,
                "expected '{'",
            ),
            ("foo [2]: bar,baz", Header, 1, 4, "right after the key"),
            // Delimiter mismatch between bracket and field list.
            (
                "items[2\t]{a,b}:\n  1\t2\n  3\t4",
                Header,
                1,
                12,
                "separated by tabs",
            ),
            ("a[2|]{x,y}:\n  1|2", Header, 1, 8, "found ','"),
            // Field lists: empty groups, unmatched braces.
            ("items[1]{}:\n  1", Header, 1, 10, "empty entry"),
            ("items[1]{id,meta{}}:\n  1", Header, 1, 18, "empty entry"),
            (
                "items[1]{id,customer{name:\n  1,Ada",
                Header,
                1,
                9,
                "expected '}'",
            ),
            ("items[1]{a}b}:\n  1", Header, 1, 12, ""),
            // Keyed header without a field list.
            ("m[2:]:\n  a: 1\n  b: 2", Header, 1, 6, "field list"),
            // Values after a header with a field list, keyed or not.
            ("items[2]{a,b}: 1,2", Header, 1, 16, "found `1,2`"),
            ("[2]{a,b}: 1,2", Header, 1, 11, ""),
            ("m[1:]{v}: x\n  a: 1", Header, 1, 11, "found `x`"),
        ],
        &strict(),
    );
}

#[test]
fn keyless_headers_outside_their_positions() {
    check(
        &[
            ("a:\n  [2]: 1,2", Structure, 2, 3, "without a key"),
            ("a: 1\n[2]: x,y", Structure, 2, 1, ""),
            (
                "items[1]:\n  - [2]{x}:\n    1\n    2",
                Structure,
                2,
                5,
                "field list",
            ),
            (
                "items[1]:\n  - [2:]{v}:\n      a: 1\n      b: 2",
                Structure,
                2,
                5,
                "",
            ),
        ],
        &strict(),
    );
}

#[test]
fn strings_escapes_and_tokens() {
    check(
        &[
            ("\"a\\x\"", InvalidEscape, 1, 3, "found \\x"),
            ("k: \"a\\q\"", InvalidEscape, 1, 6, ""),
            ("val: \"a\\u00b\"", InvalidEscape, 1, 8, "four hex digits"),
            ("val: \"a\\u00\"", InvalidEscape, 1, 8, ""),
            ("\"unterminated", InvalidEscape, 1, 1, "unterminated"),
            ("k: \"abc", InvalidEscape, 1, 4, "unterminated"),
            ("k: \"ab\\\"", InvalidEscape, 1, 4, "unterminated"),
            ("\"a\\u00e9\\", InvalidEscape, 1, 1, "unterminated"),
            // Surrogates from \u escapes, lone or paired (§7.1).
            ("val: \"a\\uD800b\"", LoneSurrogate, 1, 8, "\\uD800"),
            ("val: \"\\udc00\"", LoneSurrogate, 1, 7, ""),
            (
                "val: \"\\uD83D\\uDE80\"",
                LoneSurrogate,
                1,
                7,
                "literal UTF-8",
            ),
            // Escapes in keys and field names.
            ("\"a\\x\": 1", InvalidEscape, 1, 3, ""),
            ("t[1]{\"a\\x\"}:\n  1", InvalidEscape, 1, 8, ""),
            ("m[1:]{v}:\n  \"k\\x\": 1", InvalidEscape, 2, 5, ""),
            // Text after a closing quote.
            ("k: \"abc\" def", Syntax, 1, 9, "after the closing quote"),
            ("t[2]: \"a\"b,c", Syntax, 1, 10, ""),
            ("\"a\" x: 1", Syntax, 1, 5, "after the quoted key"),
            ("m[1:]{v}:\n  \"a\" x: 1", Syntax, 2, 6, ""),
            // Numbers beyond the exponent domain.
            ("n: 1e1000000000", NumberRange, 1, 4, "exponent"),
            ("t[2]: 1,-2.5E-1000000000", NumberRange, 1, 9, ""),
        ],
        &strict(),
    );
}

#[test]
fn missing_colons_and_misplaced_lines() {
    check(
        &[
            // Missing colon in key context.
            ("a:\n  user", Syntax, 2, 3, "found `user` without ':'"),
            ("items[2]{id,name}\n  1,Ada\n  2,Bob", Syntax, 1, 1, ""),
            ("a: 1\nb", Syntax, 2, 1, ""),
            ("\"key\"\n  x: 1", Syntax, 1, 6, ""),
            // A line at entry depth without a colon (§9.5).
            ("m[2:]{v}:\n  a: 1\n  5", Syntax, 3, 3, "entry row"),
            // Two bare values at the root (§5).
            ("hello\nworld", Structure, 2, 1, "second bare value"),
            // A bare line inside an array scope.
            ("items[2]:\n  - a\n  x: 1", Structure, 3, 3, "list item"),
            ("k[1]:\n  - x: 1\n  bare", Structure, 3, 3, ""),
        ],
        &strict(),
    );
    // Neither reading keeps every fact, so lenient mode refuses these too.
    check(
        &[
            ("k[1]:\n  - x: 1\n  bare", Structure, 3, 3, ""),
            ("a:\n  user", Syntax, 2, 3, ""),
        ],
        &lenient(),
    );
}

#[test]
fn indentation_and_structure() {
    check(
        &[
            // Non-multiple indentation and tabs (§12).
            ("a:\n   b: 1", Indentation, 2, 4, "multiples of 2"),
            ("items[2]:\n   - id: 1", Indentation, 2, 4, ""),
            ("a:\n\tb: 1", Indentation, 2, 1, "found a tab"),
            ("a:\n \tb: 1", Indentation, 2, 2, ""),
            ("\ta: 1", Indentation, 1, 1, ""),
            ("a: 1\n\t# not a comment", Indentation, 2, 1, ""),
            // Depth jumps (§8).
            ("a:\n    b: 1", Indentation, 2, 5, "expected depth 1"),
            ("a:\n  b:\n      c: 1", Indentation, 3, 7, ""),
            ("t[1]:\n    - 1", Indentation, 2, 5, ""),
            // Over-indented lines: deeper than any open scope.
            ("a: 1\n  b: 2", Structure, 2, 3, "over-indented"),
            ("a: 1\n    b: 2", Structure, 2, 5, ""),
            ("a:\n  b: 1\n      c: 2", Structure, 3, 7, ""),
            ("u[1]{a}:\n  1\n    junk: 9", Structure, 3, 5, ""),
            ("a: 1\n  hello", Structure, 2, 3, ""),
            ("  a: 1", Structure, 1, 3, ""),
            ("t[1]{a}:\n  1\n  b: 2", Structure, 3, 3, "over-indented"),
        ],
        &strict(),
    );
    let four = DecodeOptions::default().indent(4);
    check(
        &[("a:\n   b: 1", Indentation, 2, 4, "multiples of 4")],
        &four,
    );
}

#[test]
fn blank_lines_inside_array_spans() {
    check(
        &[
            (
                "items[3]:\n  - a\n\n  - b\n  - c",
                BlankLine,
                3,
                1,
                "blank line",
            ),
            ("items[2]{id}:\n  1\n\n  2", BlankLine, 3, 1, ""),
            ("m[2:]{v}:\n  a: 1\n\n  b: 2", BlankLine, 3, 1, ""),
            ("items[2]:\n  - a\n    \n  - b", BlankLine, 3, 1, ""),
            ("items[2]:\n  - a\n\n\n  - b", BlankLine, 3, 1, ""),
            (
                "outer[2]:\n  - inner[2]{a}:\n      1\n      2\n\n  - x",
                BlankLine,
                5,
                1,
                "",
            ),
            (
                "items[2]:\n  - a: 1\n\n    b: 2\n  - x",
                BlankLine,
                3,
                1,
                "",
            ),
            ("items[1]:\n  - a: 1\n\n    b: 2", BlankLine, 3, 1, ""),
            // A comment line between is no blank line, but the blank still is.
            ("items[2]:\n  - a\n  # c\n\n  - b", BlankLine, 4, 1, ""),
            (
                "items[1]:\n  - inner[2]:\n\n      - a\n      - b",
                BlankLine,
                3,
                1,
                "",
            ),
        ],
        &strict(),
    );
}

#[test]
fn trailing_content_after_a_root_form() {
    check(
        &[
            (
                "[2]: 1,2\njunk: 3",
                TrailingContent,
                2,
                1,
                "after a root array",
            ),
            (
                "[2:]{v}:\n  a: 1\n  b: 2\njunk: 3",
                TrailingContent,
                4,
                1,
                "keyed root object",
            ),
            ("[]\njunk: 3", TrailingContent, 2, 1, "empty root array"),
            ("[1]:\n  - a\n[1]: b", TrailingContent, 3, 1, ""),
        ],
        &strict(),
    );
    // A root array ends the document in lenient mode too: nothing is dropped silently.
    check(&[("[1]: a\nb: 2", TrailingContent, 2, 1, "")], &lenient());
}

#[test]
fn duplicate_keys_in_every_position() {
    check(
        &[
            (
                "name: Ada\nname: Bob",
                DuplicateKey,
                2,
                1,
                "found `name` again",
            ),
            ("outer:\n  name: Ada\n  name: Bob", DuplicateKey, 3, 3, ""),
            ("items[1]:\n  - id: 1\n    id: 2", DuplicateKey, 3, 5, ""),
            ("a: 1\na[1]: 2", DuplicateKey, 2, 1, ""),
            ("a: 1\na:\n  b: 2", DuplicateKey, 2, 1, ""),
            ("m[2:]{v}:\n  a: 1\n  a: 2", DuplicateKey, 3, 3, ""),
            ("m[2:]{v}:\n  a: 1\n  \"a\": 2", DuplicateKey, 3, 3, ""),
            (
                "items[1]{a,a{x}}:\n  1,2",
                DuplicateKey,
                1,
                12,
                "field names",
            ),
            ("items[0]{a,a}:", DuplicateKey, 1, 12, ""),
            ("o[1]{a,g{x,x}}:\n  1,2,3", DuplicateKey, 1, 12, ""),
            // Past the size where an index takes over from scanning.
            (
                "k0: 0\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\n\
                 k10: 0\nk11: 1\nk12: 2\nk13: 3\nk14: 4\nk15: 5\nk16: 6\nk17: 7\nk18: 8\nk3: 9",
                DuplicateKey,
                20,
                1,
                "`k3`",
            ),
        ],
        &strict(),
    );
}

#[test]
fn depth_limit_without_deep_recursion() {
    let opts = DecodeOptions::default().max_depth(3);
    check(
        &[
            (
                "a:\n  b:\n    c:\n      d: 1",
                DepthLimit,
                3,
                5,
                "at most 3 levels",
            ),
            ("a[1]:\n  - [1]:\n    - [1]: x", DepthLimit, 3, 7, ""),
            ("a[1]{b{c}}:\n  1", DepthLimit, 2, 3, ""),
            ("a:\n  b: []\n  c:\n    d: []", DepthLimit, 4, 8, ""),
        ],
        &opts,
    );
    // 3,000 nested list items, one more space each: refused at the default limit.
    let mut deep = String::from("a[1]:\n");
    for i in 1..3000 {
        deep.push_str(&" ".repeat(i));
        deep.push_str("- [1]:\n");
    }
    let one = DecodeOptions::default().indent(1);
    let err = decode(&deep, &one).unwrap_err();
    assert_eq!((err.kind(), err.line()), (DepthLimit, 256));
    // Keys nested through a field list deeper than the limit.
    let mut fields = "x".to_owned();
    for _ in 0..100_000 {
        fields = format!("a{{{fields}}}");
        if fields.len() > 1_000 {
            break;
        }
    }
    let text = format!("t[1]{{{fields}}}:\n  1");
    let opts = DecodeOptions::default().max_depth(50);
    assert_eq!(decode(&text, &opts).unwrap_err().kind(), DepthLimit);
}

#[test]
fn spec_3_3_mode_refuses_spec_4_syntax_and_reports_path_conflicts() {
    check(
        &[
            ("m[2:]{v}:\n  a: 1\n  b: 2", Header, 1, 4, "spec 4 syntax"),
            ("o[1]{a,b{c}}:\n  1,2", Header, 1, 9, "nested field group"),
            // `#` lines are content in 3.3.
            ("a: 1\n# note", Syntax, 2, 1, ""),
        ],
        &v3(),
    );
    let expand = DecodeOptions::default()
        .spec(Spec::V3)
        .expand_paths(ExpandPaths::Safe);
    check(
        &[
            ("a.b: 1\na: 2", PathConflict, 2, 1, "an object and a number"),
            ("a.b: 1\na[2]: 2,3", PathConflict, 2, 1, "an array"),
            ("a: 1\na.b: 2", PathConflict, 2, 1, ""),
            ("a.b: 1\na.b.c: 2", PathConflict, 2, 1, "`b`"),
            ("x:\n  a.b: 1\n  a:\n    b: 2", PathConflict, 3, 3, ""),
            ("t[1]{a,a.b}:\n  1,2", PathConflict, 1, 8, ""),
            // Literal duplicates stay duplicates, expansion or not.
            ("a.b: 1\na.b: 2", DuplicateKey, 2, 1, ""),
        ],
        &expand,
    );
}

#[test]
fn ill_formed_utf8_is_refused_at_its_position() {
    let cases: &[(&[u8], usize, usize, &str)] = &[
        (b"a: 1\nb: \xff\xfe", 2, 4, "0xFF"),
        (b"a: \xe2\x82", 1, 4, "cut off"),
        // Encoded surrogates are ill-formed, not characters.
        (b"a: \xed\xa0\x80", 1, 4, "0xED"),
        (b"\xef\xbb\xbfa: \xc0\xaf", 1, 4, "0xC0"),
        (b"k:\n  v: caf\xc3\xa9 \x80", 2, 11, "0x80"),
    ];
    for &(bytes, line, column, fragment) in cases {
        let err = decode_bytes(bytes, &strict()).unwrap_err();
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (InvalidUtf8, line, column),
            "{bytes:?}: {err}"
        );
        assert!(err.message().contains(fragment), "{}", err.message());
        // Never replaced, in lenient mode either.
        assert_eq!(
            decode_bytes(bytes, &lenient()).unwrap_err().kind(),
            InvalidUtf8
        );
    }
    assert!(decode_bytes("a: café".as_bytes(), &strict()).is_ok());
}

#[test]
fn columns_count_characters_not_bytes() {
    check(
        &[
            ("é: \"\\x\"", InvalidEscape, 1, 5, ""),
            ("k: 😀😀\nk: 1", DuplicateKey, 2, 1, ""),
            ("t[2]: é,ü,ö", CountMismatch, 1, 11, ""),
        ],
        &strict(),
    );
}

/// TOON-flavoured text: the characters that carry structure, with some noise.
fn toonish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\n".to_owned()),
        Just("  ".to_owned()),
        Just("- ".to_owned()),
        Just(": ".to_owned()),
        Just(",".to_owned()),
        Just("|".to_owned()),
        Just("\t".to_owned()),
        Just("[2]".to_owned()),
        Just("[1:]".to_owned()),
        Just("{a,b}".to_owned()),
        Just("{a{b}}".to_owned()),
        Just("\"".to_owned()),
        Just("\\u".to_owned()),
        Just("#".to_owned()),
        Just("\r".to_owned()),
        Just("[]".to_owned()),
        "[a-z0-9.é]{1,3}",
        "[ -~]{1,4}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn decoding_never_panics_and_errors_carry_positions(text in toonish()) {
        for opts in [strict(), lenient(), v3(), DecodeOptions::default().spec(Spec::V3).strict(false).expand_paths(ExpandPaths::Safe)] {
            if let Err(e) = decode(&text, &opts) {
                prop_assert!(e.line() > 0 && e.column() > 0, "{e}");
            }
        }
    }

    #[test]
    fn decoding_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Err(e) = decode_bytes(&bytes, &lenient()) {
            prop_assert!(e.line() > 0, "{e}");
        }
    }
}

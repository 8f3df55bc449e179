//! The notation's cells beyond TOON's (`docs/notation.md` §3, §4, §7):
//! anchors, list columns and record lists, each feature as `(document,
//! expected JSON)` and each refusal with its position.

use pith::ErrorKind::*;

#[path = "support/cases.rs"]
mod cases;
use cases::*;

/// Anchors (§7) name a primitive where it first stands, in cells, flow
/// values and after `key: `; list columns (§3) hold arrays of primitives.
#[test]
fn anchors_and_list_columns() {
    let ok = [
        (
            "%pith\nt[3]{u,v}:\n&h https://x.org/a,1\n*h,2\nb,*h",
            r#"{"t":[{"u":"https://x.org/a","v":1},{"u":"https://x.org/a","v":2},{"u":"b","v":"https://x.org/a"}]}"#,
        ),
        (
            "%pith\nk: &n \"a, b\"\nf: {x:*n,y:[&m q,*m]}",
            r#"{"k":"a, b","f":{"x":"a, b","y":["q","q"]}}"#,
        ),
        (
            "%pith\nt[3]{id,tags[]}:\n1,a \"b c\" 7\n2,[]\n3,null",
            r#"{"t":[{"id":1,"tags":["a","b c",7]},{"id":2,"tags":[]},{"id":3,"tags":[null]}]}"#,
        ),
        (
            "%pith\nt[2]{id,g?{tags[],n}}:\n1,~,\n2,x y,3",
            r#"{"t":[{"id":1,"g":null},{"id":2,"g":{"tags":["x","y"],"n":3}}]}"#,
        ),
    ];
    for (text, json) in ok {
        let got = decode(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(got, pith::json::parse(json).unwrap(), "{text:?}");
    }
    let refused = [
        // An anchor names a primitive only.
        ("%pith\nk: &n {a:1}", Syntax, 2, 7),
        // A name given twice: by a definition, then by an anchor.
        ("%pith\n&n: [1]\nk: &n 2\nj: *n", DuplicateKey, 3, 5),
        // An anchor nobody uses.
        ("%pith\nk: &n 2", Structure, 2, 4),
        // Two spaces between list items.
        ("%pith\nt[1]{tags[]}:\na  b", Syntax, 3, 3),
        // A record list's fields are keys: no group inside.
        ("%pith\nt[1]{tags[]{a{b}}}:\n[1]", Header, 2, 14),
    ];
    for (text, kind, line, column) in refused {
        let e = decode(text).expect_err(text);
        assert_eq!(
            (e.kind(), e.line(), e.column()),
            (kind, line, column),
            "{text:?}: {e}"
        );
    }
}

/// Record lists (§3): an array of objects in one cell, its keys in the
/// header (`name[]{…}`), each object a record `[…]` of flow members.
#[test]
fn record_lists() {
    same(
        &[
            (
                "%pith\nt[2]{id,items[]{sku,qty?}}:\n1,[a,1][b,]\n2,[]",
                r#"{"t":[{"id":1,"items":[{"sku":"a","qty":1},{"sku":"b"}]},{"id":2,"items":[]}]}"#,
            ),
            // An absent column; a bare member with spaces; a short number.
            (
                "%pith\nt[2]{id,xs?[]{s,n}}:\n1,\n2,[a b,.5][c,-2]",
                r#"{"t":[{"id":1},{"id":2,"xs":[{"s":"a b","n":0.5},{"s":"c","n":-2}]}]}"#,
            ),
            // Members are flow values: containers, references, anchors,
            // quoted strings.
            (
                "%pith\n&u: {login:al,id:7}\nt[2]{n,xs[]{who,tags,note?}}:\n\
                 1,[*u,[x,y],\"a, b\"][&s https://x.org/a,{},]\n2,[*u,[],*s]",
                r#"{"t":[{"n":1,"xs":[{"who":{"login":"al","id":7},"tags":["x","y"],"note":"a, b"},
                    {"who":"https://x.org/a","tags":{}}]},
                    {"n":2,"xs":[{"who":{"login":"al","id":7},"tags":[],"note":"https://x.org/a"}]}]}"#,
            ),
            // A tab-delimited header separates the fields with tabs; members
            // are always separated by commas.
            (
                "%pith\nt[1\t]{id\txs[]{a\tb}}:\n1\t[1,2][3,4]",
                r#"{"t":[{"id":1,"xs":[{"a":1,"b":2},{"a":3,"b":4}]}]}"#,
            ),
            // The first cell of a group: `~` makes the group null.
            (
                "%pith\nt[2]{id,g{xs[]{a},n}}:\n1,~,\n2,[1][2],3",
                r#"{"t":[{"id":1,"g":null},{"id":2,"g":{"xs":[{"a":1},{"a":2}],"n":3}}]}"#,
            ),
            // In a keyed table, and in a table of a list item.
            (
                "%pith\nm[1:]{xs[]{a}}:\n  k: [1][true]",
                r#"{"m":{"k":{"xs":[{"a":1},{"a":true}]}}}"#,
            ),
            // A named object stands for a record; a named array alone for
            // the whole cell (a cell `*name` is one record when the name
            // stands for an object).
            (
                "%pith\n&u: {a:1,b:2}\n&v: {b:3}\n&l: [*u,{a:4}]\n\
                 t[4|]{id|xs[]{a?|b?}}:\n1|*u[5,]*v\n2|*l\n3|*u\n4|[6,7]*u",
                r#"{"t":[{"id":1,"xs":[{"a":1,"b":2},{"a":5},{"b":3}]},
                    {"id":2,"xs":[{"a":1,"b":2},{"a":4}]},
                    {"id":3,"xs":[{"a":1,"b":2}]},
                    {"id":4,"xs":[{"a":6,"b":7},{"a":1,"b":2}]}]}"#,
            ),
        ],
        &strict(),
    );
    refused(
        &[
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[1,2,3]",
                WidthMismatch,
                3,
                5,
                "found more",
            ),
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[1]",
                WidthMismatch,
                3,
                3,
                "found fewer",
            ),
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[1,]",
                Structure,
                3,
                4,
                "only a field marked '?'",
            ),
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[,2]",
                Structure,
                3,
                2,
                "only a field marked '?'",
            ),
            (
                "%pith\nt[1]{xs[]{a?,b?}}:\n[,]",
                Structure,
                3,
                1,
                "never empty",
            ),
            (
                "%pith\nt[1]{xs[]{a?}}:\n[1][]",
                Structure,
                3,
                4,
                "never empty",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n[1] [2]",
                Syntax,
                3,
                4,
                "expected a record '[…]'",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n[1]x",
                Syntax,
                3,
                4,
                "expected a record '[…]'",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n1",
                Syntax,
                3,
                1,
                "expected a record '[…]'",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\nnull",
                Syntax,
                3,
                1,
                "expected a record '[…]'",
            ),
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[1,2",
                Syntax,
                3,
                5,
                "found the end of the row",
            ),
            (
                "%pith\nt[1]{xs[]{a,b}}:\n[1",
                Syntax,
                3,
                3,
                "found the end of the row",
            ),
            ("%pith\nt[1]{xs[]{a}}:\n[ 1]", Syntax, 3, 2, "found a space"),
            (
                "%pith\nt[1]{xs[]{a}}:\n[~]",
                Syntax,
                3,
                2,
                "does not start with '~'",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n[{a:1]",
                Syntax,
                3,
                6,
                "expected ',' or '}'",
            ),
            (
                "%pith\nt[2]{xs[]{a}}:\n[1]\n[1],",
                WidthMismatch,
                4,
                5,
                "found more",
            ),
            (
                "%pith\nt[1]{xs[]{}}:\n[]",
                Header,
                2,
                11,
                "at least one field",
            ),
            (
                "%pith\nt[1]{xs[]{a,a}}:\n[1,2]",
                DuplicateKey,
                2,
                13,
                "twice",
            ),
            (
                "%pith\nt[1]{xs[]{a[]}}:\n[1]",
                Header,
                2,
                12,
                "its fields are keys",
            ),
            (
                "%pith\nt[1]{xs[]{a=1}}:\n[1]",
                Header,
                2,
                12,
                "its fields are keys",
            ),
            (
                "%pith\nt[1]{xs[]{a}:\n[1]",
                Header,
                2,
                13,
                "after the field `xs`, found ':'",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n[*nope]",
                Structure,
                3,
                2,
                "`*nope`, which is not defined",
            ),
            (
                "%pith\nt[1]{xs[]{a}}:\n*nope",
                Structure,
                3,
                1,
                "`*nope`, which is not defined",
            ),
            // A named record must fit the fields as a record would.
            (
                "%pith\n&u: {b:2,a:1}\nt[1]{xs[]{a,b?}}:\n[3,]*u",
                Structure,
                4,
                5,
                "found the key `b` before `a`, out of the fields' order",
            ),
            (
                "%pith\n&u: {b:2,a:1}\nt[1]{xs[]{a?,b?}}:\n*u",
                Structure,
                4,
                1,
                "found the key `a` out of the fields' order",
            ),
            (
                "%pith\n&u: {a:1,c:2}\nt[1]{xs[]{a,b?}}:\n*u",
                Structure,
                4,
                1,
                "found the key `c` not among the fields",
            ),
            (
                "%pith\n&u: {b:2}\nt[1]{xs[]{a?,b?,c}}:\n*u",
                Structure,
                4,
                1,
                "found no value for the field `c`, which is not marked '?'",
            ),
            (
                "%pith\n&u: {}\nt[1]{xs[]{a?}}:\n*u",
                Structure,
                4,
                1,
                "an empty object (a record is never empty)",
            ),
            (
                "%pith\n&s: abcdefghij\nt[1]{xs[]{a}}:\n*s",
                Structure,
                4,
                1,
                "`*s` to stand for records that fit the record list's fields, found a string",
            ),
            // A named array is a whole cell, and holds records that fit.
            (
                "%pith\n&l: [{a:1},{a:2}]\nt[1]{xs[]{a}}:\n[3]*l",
                Structure,
                4,
                4,
                "found an array (a record is an object)",
            ),
            (
                "%pith\n&l: [{a:1},{a:2}]\nt[1]{xs[]{a}}:\n*l[3]",
                Syntax,
                4,
                3,
                "expected the end of the cell after `*l`, which stands for an array",
            ),
            (
                "%pith\n&l: [{a:1},{c:2}]\nt[1]{xs[]{a}}:\n*l",
                Structure,
                4,
                1,
                "found the key `c` not among the fields",
            ),
            (
                "%pith\n&l: [{a:1},3]\nt[1]{xs[]{a}}:\n*l",
                Structure,
                4,
                1,
                "found a number",
            ),
            (
                "%pith\n&u: {a:1}\nt[1|]{xs[]{a}|n}:\n*u,*u|1",
                Syntax,
                4,
                3,
                "expected a record '[…]' or '*name' of the record list, found ','",
            ),
        ],
        &strict(),
    );
}

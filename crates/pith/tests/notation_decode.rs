//! The notation's reader against `docs/notation.md`: every feature as
//! `(document, expected JSON)`, every refusal of §10 as `(document, kind,
//! line, column, message fragment)`, lenient mode, limits, and properties
//! (no input panics; the writer's output reads back to its value).

use pith::toon::{DecodeOptions, Delimiter};
use pith::{ErrorKind::*, Value};
use proptest::prelude::*;

#[path = "support/cases.rs"]
mod cases;
use cases::*;

#[test]
fn the_examples_of_the_spec() {
    let issues = r#"[{"number":91,"title":"harden: audit","user":{"login":"inth3shadows","id":173382603,"type":"User"},
      "labels":[],"milestone":null,"closed_at":null,"reactions":{"total_count":0,"+1":0}},
     {"number":90,"title":"install: flag","user":{"login":"inth3shadows","id":173382603,"type":"User"},
      "labels":[{"name":"bug","color":"d73a4a"}],"milestone":null,"closed_at":"2026-07-14T22:57:06Z",
      "reactions":{"total_count":0,"+1":0},"draft":false}]"#;
    same(
        &[
            (
                "%pith\n&inth3shadows: {login:inth3shadows,id:173382603,type:User}\n\
                 &reactions: {total_count:0,\"+1\":0}\n\
                 [2]{number,title,user,labels,milestone,closed_at,reactions,draft?}:\n\
                 91,\"harden: audit\",*inth3shadows,[],null,null,*reactions,\n\
                 90,\"install: flag\",*inth3shadows,[{name:bug,color:d73a4a}],null,2026-07-14T22:57:06Z,*reactions,false",
                issues,
            ),
            (
                "%pith\n[2]{number,title,user{login,id,type},labels,milestone,closed_at,reactions{total_count,\"+1\"},draft?}:\n\
                 91,\"harden: audit\",inth3shadows,173382603,User,[],null,null,0,0,\n\
                 90,\"install: flag\",inth3shadows,173382603,User,[{name:bug,color:d73a4a}],null,2026-07-14T22:57:06Z,0,0,false",
                issues,
            ),
            (
                "%pith\nissues[2]{number,state=open,url=`https://api.github.com/repos/o/r/issues/${number}`}:\n91\n90",
                r#"{"issues":[{"number":91,"state":"open","url":"https://api.github.com/repos/o/r/issues/91"},
                             {"number":90,"state":"open","url":"https://api.github.com/repos/o/r/issues/90"}]}"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn documents_objects_and_primitives() {
    same(
        &[
            ("%pith\n", "{}"),
            // The marker line's line feed may be left out too (§1).
            ("%pith", "{}"),
            ("%pith\na: 1", r#"{"a":1}"#),
            // One final line feed is the end of the last line.
            ("%pith\na: 1\n", r#"{"a":1}"#),
            ("%pith\nhello world", r#""hello world""#),
            ("%pith\n42", "42"),
            ("%pith\n-0", "0"),
            ("%pith\nnull", "null"),
            ("%pith\n\"a: b\"", r#""a: b""#),
            ("%pith\n~x", r#""~x""#),
            (
                "%pith\na:\n  b: 1\n  c:\n    d: x y\ne: true",
                r#"{"a":{"b":1,"c":{"d":"x y"}},"e":true}"#,
            ),
            ("%pith\na:\nb: []\nc: {}", r#"{"a":{},"b":[],"c":{}}"#),
            (
                "%pith\n\"my key\": 1\na.b: 2\n\"\": 3\n_x9: 4",
                r#"{"my key":1,"a.b":2,"":3,"_x9":4}"#,
            ),
            // Values are TOON's: a colon, a leading hyphen or '#', an inner quote are text.
            (
                "%pith\nurl: https://x.org/a?b=1\nd: -x\nh: a#b\nq: say \"hi\"\nz: 05",
                r#"{"url":"https://x.org/a?b=1","d":"-x","h":"a#b","q":"say \"hi\"","z":"05"}"#,
            ),
            (
                "%pith\nn: 123456789012345678901234567890.5e-3\nm: 1E2\ne: \"\\u00e9\\t\"",
                r#"{"n":123456789012345678901234567.8905,"m":100,"e":"é\t"}"#,
            ),
            ("%pith\nk: ~tilde\ns: \"*x\"", r#"{"k":"~tilde","s":"*x"}"#),
        ],
        &strict(),
    );
}

#[test]
fn definitions_and_references() {
    same(
        &[
            // After `key: `, twice.
            (
                "%pith\n&u: {login:ada,id:1}\na: *u\nb: *u",
                r#"{"a":{"login":"ada","id":1},"b":{"login":"ada","id":1}}"#,
            ),
            // In cells, inline arrays, flow values, list items and other definitions.
            (
                "%pith\n&s: a long repeated string\n&pair: [*s,*s]\n\
                 t[2]{n,s}:\n1,*s\n2,*pair\n\
                 i[2]: *s,x\nf: {x:[*s],y:*pair}\nl[1]:\n  - *s",
                r#"{"t":[{"n":1,"s":"a long repeated string"},
                         {"n":2,"s":["a long repeated string","a long repeated string"]}],
                    "i":["a long repeated string","x"],
                    "f":{"x":["a long repeated string"],"y":["a long repeated string","a long repeated string"]},
                    "l":["a long repeated string"]}"#,
            ),
            // The whole name alphabet; a name may start with a digit.
            (
                "%pith\n&a-b.c/d~2: 1\n&9x: \"q\"\nk[2]: *a-b.c/d~2,*9x",
                r#"{"k":[1,"q"]}"#,
            ),
            // A text block, a primitive and an empty container as definitions.
            (
                "%pith\n&t: \"\"\"\n  line one\n  line two\n  \"\"\"\n&n: 12345678901234567890123\n&e: {}\n\
                 a: *t\nb[3]: *t,*n,*e",
                r#"{"a":"line one\nline two","b":["line one\nline two",12345678901234567890123,{}]}"#,
            ),
            // References in a flow object's values and in group cells.
            (
                "%pith\n&o: {k:v}\n[2]{u{a,b}}:\n*o,1\n2,*o",
                r#"[{"u":{"a":{"k":"v"},"b":1}},{"u":{"a":2,"b":{"k":"v"}}}]"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn flow_values_nest() {
    same(
        &[
            (
                "%pith\nk: {a:[1,{b:null}],\"c d\":\"x,y\",e:https://x.org/a,f:-1.5e3,g:true,h:05,i:a b}",
                r#"{"k":{"a":[1,{"b":null}],"c d":"x,y","e":"https://x.org/a","f":-1500,"g":true,"h":"05","i":"a b"}}"#,
            ),
            (
                "%pith\nk: [[],{},[[1]],[\"\"]]",
                r#"{"k":[[],{},[[1]],[""]]}"#,
            ),
            (
                "%pith\nk: [Zoë,\"a\\\"b\",\"\\u00e9\",-,1e,+1,.5e1,x:y,-0]",
                r#"{"k":["Zoë","a\"b","é","-","1e","+1",".5e1","x:y",0]}"#,
            ),
            // The short form of a number between -1 and 1 (§6), and the
            // quoted strings that look like it.
            (
                "%pith\nk: [.5,-.25,.0,\".5\",\"-.5\",.5.5,-.]",
                r#"{"k":[0.5,-0.25,0,".5","-.5",".5.5","-."]}"#,
            ),
            (
                "%pith\nt[2]{a,b[]}:\n.125,.5 \".5\"\n-.000000000000000000001,[]\nx: .75",
                r#"{"t":[{"a":0.125,"b":[0.5,".5"]},{"a":-1e-21,"b":[]}],"x":0.75}"#,
            ),
            // In cells, with the table's delimiter inside being text.
            (
                "%pith\nt[2|]{a|b}:\n[1,2]|{k:x|y}\n{}|[a|b]",
                r#"{"t":[{"a":[1,2],"b":{"k":"x|y"}},{"a":{},"b":["a|b"]}]}"#,
            ),
            // As list items, and `- [N]:` still a header.
            (
                "%pith\nl[3]:\n  - [1,2]\n  - {a:1}\n  - [2]: x,y",
                r#"{"l":[[1,2],{"a":1},["x","y"]]}"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn sparse_columns_groups_null_and_absent_groups() {
    same(
        &[
            // `?` columns: empty = absent; null and "" are written.
            (
                "%pith\n[4]{id,name?,tag?}:\n1,a,\n2,,x\n3,null,\"\"\n4,,",
                r#"[{"id":1,"name":"a"},{"id":2,"tag":"x"},{"id":3,"name":null,"tag":""},{"id":4}]"#,
            ),
            // Groups at depth, a null group (`~`) and absent groups.
            (
                "%pith\n[5]{id,user?{login,org?{name,id}}}:\n1,a,x,1\n2,~,,\n3,,,\n4,b,~,\n5,c,,",
                r#"[{"id":1,"user":{"login":"a","org":{"name":"x","id":1}}},{"id":2,"user":null},{"id":3},
                    {"id":4,"user":{"login":"b","org":null}},{"id":5,"user":{"login":"c"}}]"#,
            ),
            // `{}` in a group without `?`, all of whose fields are `?`.
            (
                "%pith\n[2]{n,u{a?,b?}}:\n1,,\n2,x,",
                r#"[{"n":1,"u":{}},{"n":2,"u":{"a":"x"}}]"#,
            ),
            // A group whose first field is a group: `~` nulls the outermost group
            // whose other cells are all empty.
            (
                "%pith\n[3]{n,u{p{a,b},c?}}:\n1,~,,\n2,~,,x\n3,1,2,",
                r#"[{"n":1,"u":null},{"n":2,"u":{"p":null,"c":"x"}},{"n":3,"u":{"p":{"a":1,"b":2}}}]"#,
            ),
            // A group's first cell-taking field comes after a derived one.
            ("%pith\n[1]{u{k=1,a,b?}}:\n~,", r#"[{"u":null}]"#),
            // Quoted field names with the notation's own characters.
            (
                "%pith\n[1]{\"a?\",\"b=c\",\"{d}\"}:\n1,2,3",
                r#"[{"a?":1,"b=c":2,"{d}":3}]"#,
            ),
            // Key order of a row is the header's.
            ("%pith\n[1]{b,a}:\n1,2", r#"[{"b":1,"a":2}]"#),
        ],
        &strict(),
    );
}

#[test]
fn keys_as_api_replies_spell_them_stand_unquoted() {
    same(
        &[
            // Lines, nested objects, a header key and a flow object.
            (
                "%pith\ndist-tags:\n  latest: 1.0.0\n$ref: x\n/users: 1\n\
                 0.14.0: {@babel/core:^7.0.0,x-rate+1:2,200:ok}\nbody-parser[2]: a,b",
                r#"{"dist-tags":{"latest":"1.0.0"},"$ref":"x","/users":1,
                    "0.14.0":{"@babel/core":"^7.0.0","x-rate+1":2,"200":"ok"},
                    "body-parser":["a","b"]}"#,
            ),
            // Field names, optional columns, groups and a keyed table's entries.
            (
                "%pith\nrows[2]{x-a,@b?,c{d-e}}:\n1,2,3\n4,,5\n@types[2:]{v}:\n  1.0: a\n  2xx: b",
                r#"{"rows":[{"x-a":1,"@b":2,"c":{"d-e":3}},{"x-a":4,"c":{"d-e":5}}],
                    "@types":{"1.0":{"v":"a"},"2xx":{"v":"b"}}}"#,
            ),
            // A list item whose first field has such a key.
            (
                "%pith\n[2]:\n  - 404: gone\n    x-y: 1\n  - /a: 2",
                r#"[{"404":"gone","x-y":1},{"/a":2}]"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn tables_keyed_tables_lists_and_delimiters() {
    same(
        &[
            // Root table rows at indentation 0; other rows one unit deeper.
            (
                "%pith\n[2]{a,b}:\n1,2\n3,4",
                r#"[{"a":1,"b":2},{"a":3,"b":4}]"#,
            ),
            (
                "%pith\nx:\n  t[1]{a}:\n    1\n  y: 2\nz: 3",
                r#"{"x":{"t":[{"a":1}],"y":2},"z":3}"#,
            ),
            ("%pith\nt[0]{a}:\nk[0]:\ni[0]:", r#"{"t":[],"k":[],"i":[]}"#),
            // A row is never taken for a `key: value` line.
            (
                "%pith\nt[2]{a}:\nx: y\nb: c",
                r#"{"t":[{"a":"x: y"},{"a":"b: c"}]}"#,
            ),
            // Keyed tables.
            (
                "%pith\nusers[2:]{id,name?}:\n  ada: 1,Ada\n  \"bo b\": 2,",
                r#"{"users":{"ada":{"id":1,"name":"Ada"},"bo b":{"id":2}}}"#,
            ),
            (
                "%pith\n[2:]{v}:\n  a: 1\n  b: [2]",
                r#"{"a":{"v":1},"b":{"v":[2]}}"#,
            ),
            (
                "%pith\nm[2:|]{a?|b}:\n  x: 1|2,3\n  y: |4",
                r#"{"m":{"x":{"a":1,"b":"2,3"},"y":{"b":4}}}"#,
            ),
            // Lists, with objects, nested arrays and tables on the hyphen line.
            (
                "%pith\nl[6]:\n  - 1\n  - a: 1\n    b: 2\n  -\n  - [1]:\n    - z\n  - t[1]{a}:\n      1\n    s: x\n  - n:\n      m: 1",
                r#"{"l":[1,{"a":1,"b":2},{},["z"],{"t":[{"a":1}],"s":"x"},{"n":{"m":1}}]}"#,
            ),
            ("%pith\n[2]:\n  - a\n  - b", r#"["a","b"]"#),
            // Tab and pipe delimiters; a tab row may start with its empty first cell.
            (
                "%pith\nt[3\t]{a?\tb}:\n1\tx,y\n\t2\n3\t[1,2]",
                r#"{"t":[{"a":1,"b":"x,y"},{"b":2},{"a":3,"b":[1,2]}]}"#,
            ),
            ("%pith\nk[3|]: a|b,c|d", r#"{"k":["a","b,c","d"]}"#),
            ("%pith\nk[2\t]: a b\tc", r#"{"k":["a b","c"]}"#),
            (
                "%pith\n[2\t]{a?\tb}:\n1\t2\n\t3",
                r#"[{"a":1,"b":2},{"b":3}]"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn text_blocks() {
    same(
        &[
            (
                "%pith\nkey: \"\"\"\n  first line\n  second line\n\n  \"quoted\" stays as it is\n  \"\"\"",
                r#"{"key":"first line\nsecond line\n\n\"quoted\" stays as it is"}"#,
            ),
            // Raw: trailing spaces, tabs, backslashes and deeper indentation kept.
            (
                "%pith\na:\n  b: \"\"\"\n    x  \n    \ty\\n\n      z\n    \"\"\"\n  c: 1",
                r#"{"a":{"b":"x  \n\ty\\n\n  z","c":1}}"#,
            ),
            // A line of exactly the indentation is an empty line too; a deeper
            // `"""` is text.
            (
                "%pith\nk: \"\"\"\n  a\n  \n    \"\"\"\n  \"\"\"",
                r#"{"k":"a\n\n  \"\"\""}"#,
            ),
            // In a list item's first field: one unit deeper than the field.
            (
                "%pith\nl[1]:\n  - k: \"\"\"\n      x\n      y\n      \"\"\"\n    j: 2",
                r#"{"l":[{"k":"x\ny","j":2}]}"#,
            ),
            ("%pith\nk: \"\"\"\n  \"\"\"", r#"{"k":""}"#),
        ],
        &strict(),
    );
}

#[test]
fn constants_and_templates() {
    same(
        &[
            (
                "%pith\nt[2]{n,s=open,z=0,q=\"a,b\",f={x:[1]},e=null,b=true}:\n1\n2",
                r#"{"t":[{"n":1,"s":"open","z":0,"q":"a,b","f":{"x":[1]},"e":null,"b":true},
                         {"n":2,"s":"open","z":0,"q":"a,b","f":{"x":[1]},"e":null,"b":true}]}"#,
            ),
            // Templates: strings as they are, numbers canonical, escapes, a field
            // named after the template, a reference's value.
            (
                "%pith\n&r: repo\nt[2]{u=`${base}/\\`\\$\\\\/${n}`,base,n}:\n*r,1.50\n\"a,b\",-0",
                r#"{"t":[{"u":"repo/`$\\/1.5","base":"repo","n":1.5},{"u":"a,b/`$\\/0","base":"a,b","n":0}]}"#,
            ),
            // Inside a group: only where the group is an object.
            (
                "%pith\n[2]{g?{id,url=`/i/${id}`}}:\n7\n~",
                r#"[{"g":{"id":7,"url":"/i/7"}},{"g":null}]"#,
            ),
            // A template with no field is a constant string; a pipe table's constant holds commas.
            (
                "%pith\n[1|]{a|b=`x`|c=x,y}:\n1",
                r#"[{"a":1,"b":"x","c":"x,y"}]"#,
            ),
        ],
        &strict(),
    );
}

#[test]
fn documents_and_lines_refused() {
    refused(
        &[
            ("", Syntax, 1, 1, "marker line `%pith`"),
            ("a: 1", Syntax, 1, 1, "marker line"),
            ("%pit\n", Syntax, 1, 5, "marker line"),
            ("\u{feff}%pith\n", Syntax, 1, 1, "marker line"),
            ("%pith \n", Syntax, 1, 6, "exactly `%pith`"),
            ("%pith\r\n", Syntax, 1, 6, "carriage return"),
            ("%pith\r\na: 1\r\n", Syntax, 1, 6, "carriage return"),
            ("%pith\na: 1\r\n", Syntax, 2, 5, "carriage return"),
            ("%pith\nk: \"a\rb\"", Syntax, 2, 6, "carriage return"),
            ("%pith\na: 1\n\nb: 2", BlankLine, 3, 1, "blank line"),
            ("%pith\na: 1\n  \nb: 2", BlankLine, 3, 1, "spaces only"),
            ("%pith\na: 1\n\n", BlankLine, 3, 1, "blank line"),
            ("%pith\n\n", BlankLine, 2, 1, "blank line"),
            ("%pith\na: 1  ", Syntax, 2, 5, "trailing spaces"),
            ("%pith\n# note\na: 1", Syntax, 2, 1, "comment"),
            ("%pith\n[1]{a}:\n#x", Syntax, 3, 1, "comment"),
            ("%pith\na:\n\tb: 1", Indentation, 3, 1, "found a tab"),
            ("%pith\na:\n  \tb: 1", Indentation, 3, 3, "found a tab"),
            ("%pith\na:\n   b: 1", Indentation, 3, 4, "multiples of 2"),
            ("%pith\na:\n    b: 1", Structure, 3, 5, "over-indented"),
            ("%pith\n  a: 1", Indentation, 2, 3, "indentation 0"),
            ("%pith\na: 1\n  b: 2", Structure, 3, 3, "opens no scope"),
            // Keys: unquoted ones are identifiers; `key: value` has one space.
            ("%pith\nmy key: 1", Syntax, 2, 3, "expected ':' or '['"),
            ("%pith\nfoo#bar: 1", Syntax, 2, 4, "quoted"),
            ("%pith\na~b: 1", Syntax, 2, 2, "quoted"),
            ("%pith\n-: 1", Syntax, 2, 1, "expected a key"),
            ("%pith\n-a: 1", Syntax, 2, 1, "expected a key"),
            ("%pith\na:1", Syntax, 2, 3, "one space"),
            ("%pith\na:  1", Syntax, 2, 4, "more spaces"),
            ("%pith\na: 1\nb", Syntax, 3, 2, "expected ':' or '['"),
            ("%pith\na: 1\nhello", Syntax, 3, 6, "expected ':' or '['"),
            ("%pith\na: 1\n\"x\"", Syntax, 3, 4, "expected ':' or '['"),
            ("%pith\nx\ny", TrailingContent, 3, 1, "root primitive"),
            ("%pith\n\"a\" : 1", Syntax, 2, 4, "closing quote"),
            (
                "%pith\nx: 1\n\"a\" : 1",
                Syntax,
                3,
                4,
                "expected ':' or '['",
            ),
            ("%pith\na: 1\na: 2", DuplicateKey, 3, 1, "`a` again"),
            ("%pith\nk:\n  x: 1\n  x: 2", DuplicateKey, 4, 3, "`x` again"),
            // The notation's quoted strings (§6).
            // An anchor without its value.
            (
                "%pith\nk: &x",
                Syntax,
                2,
                6,
                "one space and a value after the anchor's name",
            ),
            ("%pith\nk: ~", Syntax, 2, 4, "`~`"),
            ("%pith\nk: \"\"\"x", Syntax, 2, 4, "text block"),
            (
                "%pith\nk[1]: ~",
                Structure,
                2,
                7,
                "first cell of a field group",
            ),
            ("%pith\n~", Syntax, 2, 1, "`~`"),
            // The root is an object, an array header or a primitive.
            ("%pith\n[1,2]", Structure, 2, 1, "root"),
            ("%pith\n{a:1}", Structure, 2, 1, "root"),
            ("%pith\n&a: 1\n*a", Structure, 3, 1, "reference"),
            ("%pith\n[1]: a\nb: 1", TrailingContent, 3, 1, "root array"),
            (
                "%pith\n[1:]{v}:\n  a: 1\nb: 1",
                TrailingContent,
                4,
                1,
                "keyed table",
            ),
            // TOON's refusals: escapes, numbers, UTF-8.
            ("%pith\nk: \"a\\qb\"", InvalidEscape, 2, 6, "escapes"),
            ("%pith\nk: \"ab", InvalidEscape, 2, 4, "unterminated"),
            ("%pith\nk: \"\\ud800\"", LoneSurrogate, 2, 5, "surrogate"),
            ("%pith\nk: 1e9999999999", NumberRange, 2, 4, "exponent"),
            ("%pith\nk: \"a\"b", Syntax, 2, 7, "closing quote"),
        ],
        &strict(),
    );
    let e = pith::notation::decode(b"%pith\nk: a\xffb", &strict()).unwrap_err();
    assert_eq!((e.kind(), e.line(), e.column()), (InvalidUtf8, 2, 5), "{e}");
    let e = pith::notation::decode(b"%pith\nk: \xe2\x82", &strict()).unwrap_err();
    assert_eq!((e.kind(), e.line(), e.column()), (InvalidUtf8, 2, 4), "{e}");
}

#[test]
fn definitions_refused() {
    refused(
        &[
            ("%pith\n&: 1\nk: 1", Syntax, 2, 2, "expected a name"),
            ("%pith\n&-a: 1", Syntax, 2, 2, "expected a name"),
            ("%pith\n&x 1", Syntax, 2, 3, "': '"),
            ("%pith\n&x:1", Syntax, 2, 4, "one space"),
            ("%pith\n&x:", Syntax, 2, 4, "end of the line"),
            ("%pith\n&x: ~\nk: *x", Syntax, 2, 5, "`~`"),
            ("%pith\n&x: [1,\nk: *x", Syntax, 2, 8, "']' is missing"),
            (
                "%pith\n&x: 1\n&x: 2\nk: *x",
                DuplicateKey,
                3,
                2,
                "given once",
            ),
            (
                "%pith\n&a: [*b]\n&b: 1\nk: *a",
                Structure,
                2,
                6,
                "defined below, on line 3",
            ),
            ("%pith\n&a: *a\nk: *a", Structure, 2, 5, "not defined"),
            (
                "%pith\n&a: 1\n&b: 2\nk: *a",
                Structure,
                3,
                1,
                "`&b` used nowhere",
            ),
            ("%pith\n&a: 1", Structure, 2, 1, "used nowhere"),
            ("%pith\nk: *nope", Structure, 2, 4, "not defined"),
            ("%pith\n[1]{a}:\n*x", Structure, 3, 1, "not defined"),
            ("%pith\nk: [*x]", Structure, 2, 5, "not defined"),
            ("%pith\n&x: 1\nk: *x y", Syntax, 3, 6, "after the reference"),
            ("%pith\n&x: 1\nk: *", Syntax, 3, 5, "name after '*'"),
            ("%pith\n&x: 1\nk: *\"x\"", Syntax, 3, 5, "name after '*'"),
            // A definition after the body has begun is a key starting with '&'.
            (
                "%pith\na: 1\n&x: 2",
                Syntax,
                3,
                1,
                "definitions come before the body",
            ),
        ],
        &strict(),
    );
}

#[test]
fn rows_counts_and_cells_refused() {
    refused(
        &[
            ("%pith\n[1]{a,b}:\n1,2,3", WidthMismatch, 3, 5, "found more"),
            ("%pith\n[1]{a,b}:\n1", WidthMismatch, 3, 2, "found 1"),
            ("%pith\nm[1:]{a,b}:\n  x: 1", WidthMismatch, 3, 7, "found 1"),
            ("%pith\nk[2]: a", CountMismatch, 2, 3, "expected 2 values"),
            ("%pith\nk[1]: a,b", CountMismatch, 2, 9, "found more"),
            ("%pith\nk[0]: a", CountMismatch, 2, 7, "found more"),
            ("%pith\nt[2]{a}:\n1", CountMismatch, 2, 3, "expected 2 rows"),
            ("%pith\nt[1]{a}:\n1\n2", CountMismatch, 4, 1, "found more"),
            ("%pith\n[1]{a}:\n1\n2", CountMismatch, 4, 1, "found more"),
            ("%pith\n[2]{a}:\n1", CountMismatch, 2, 2, "found 1"),
            // A length beyond any count names itself as written.
            (
                "%pith\nk[99999999999999999999]: 1",
                CountMismatch,
                2,
                3,
                "expected 99999999999999999999 values as the header declares, found 1",
            ),
            (
                "%pith\n[18446744073709551616]{a}:\n1",
                CountMismatch,
                2,
                2,
                "expected 18446744073709551616 rows",
            ),
            (
                "%pith\nl[100000000000000000000]:\n  - a",
                CountMismatch,
                2,
                3,
                "expected 100000000000000000000 list items",
            ),
            (
                "%pith\nm[99999999999999999999:]{a}:\n  x: 1\n  y: 2",
                CountMismatch,
                2,
                3,
                "expected 99999999999999999999 entries",
            ),
            (
                "%pith\nt[1]{a}:\n1\n    2",
                Structure,
                4,
                5,
                "over-indented",
            ),
            (
                "%pith\nl[1]:\n  - a\n  - b",
                CountMismatch,
                4,
                3,
                "found more",
            ),
            (
                "%pith\nl[2]:\n  - a",
                CountMismatch,
                2,
                3,
                "expected 2 list items",
            ),
            (
                "%pith\nm[1:]{a}:\n  x: 1\n  y: 2",
                CountMismatch,
                4,
                3,
                "found more",
            ),
            (
                "%pith\nm[2:]{a}:\n  x: 1",
                CountMismatch,
                2,
                3,
                "expected 2 entries",
            ),
            (
                "%pith\nm[2:]{a}:\n  x: 1\n  x: 2",
                DuplicateKey,
                4,
                3,
                "`x` again",
            ),
            ("%pith\nm[1:]{a}:\n  x 1", Syntax, 3, 4, "': '"),
            ("%pith\nm[1:]{a}:\n  x:1", Syntax, 3, 5, "one space"),
            ("%pith\nl[1]:\n  x", Structure, 3, 3, "list item"),
            ("%pith\nl[1]:\n  -  x", Syntax, 3, 5, "another space"),
            (
                "%pith\nl[1]:\n  - [1]{a}:\n      1",
                Structure,
                3,
                5,
                "only at the root",
            ),
            // Empty cells only in `?` columns and absent groups.
            ("%pith\n[2]{a,b}:\n1,\n,2", Structure, 3, 3, "column `b`"),
            ("%pith\n[1]{a,u{x,y?}}:\n1,,", Structure, 3, 3, "column `x`"),
            ("%pith\nk[2]: a,", Structure, 2, 9, "empty cell"),
            ("%pith\nk[2]: ,a", Structure, 2, 7, "empty cell"),
            // `~` is the first cell of a group, whose other cells are empty.
            (
                "%pith\n[1]{a,u{x,y}}:\n~,1,2",
                Structure,
                3,
                1,
                "first cell of a field group",
            ),
            (
                "%pith\n[1]{u{x,y}}:\n1,~",
                Structure,
                3,
                3,
                "first cell of a field group",
            ),
            (
                "%pith\n[1]{u{x,y}}:\n~,2",
                Structure,
                3,
                3,
                "null group `u`",
            ),
            (
                "%pith\n[1]{u{p{a,b},c}}:\n~,1,2",
                Structure,
                3,
                3,
                "null group `p`",
            ),
            // Cells: no padding, no bare brackets or quotes.
            ("%pith\nk[2]: a, b", Syntax, 2, 9, "space"),
            ("%pith\nk[2]: a ,b", Syntax, 2, 8, "space"),
            ("%pith\nk[1]: a]b", Syntax, 2, 8, "']'"),
            ("%pith\nk[1]: a\"b\"", Syntax, 2, 8, "'\"'"),
            ("%pith\nk[2]: \"a\"b,c", Syntax, 2, 10, "after the cell"),
            ("%pith\nk[2]: [1]x,c", Syntax, 2, 10, "after the cell"),
            (
                "%pith\nk[1]: &a",
                Syntax,
                2,
                9,
                "one space and a value after the anchor's name",
            ),
            ("%pith\nt[1]{a}:\n\t1", Indentation, 3, 1, "found a tab"),
        ],
        &strict(),
    );
}

#[test]
fn headers_refused() {
    refused(
        &[
            ("%pith\nk[03]: a", Header, 2, 3, "leading zeros"),
            ("%pith\nk[]: a", Header, 2, 3, "length"),
            ("%pith\nk[2|:]{a|b}:", Header, 2, 5, "before the delimiter"),
            ("%pith\nk[2,]: a,b", Header, 2, 4, "']'"),
            ("%pith\nk[1:]: a", Header, 2, 6, "field list"),
            ("%pith\nt[1]{a}: x", Header, 2, 9, "nothing after the colon"),
            ("%pith\nt[1]{a} :", Header, 2, 8, "':' right after"),
            ("%pith\nt[1] {a}:", Header, 2, 5, "right after the bracket"),
            ("%pith\nt[1]{}:", Header, 2, 6, "empty field list"),
            ("%pith\nt[1]{a,}:", Header, 2, 8, "field name"),
            ("%pith\nt[1]{a, b}:", Header, 2, 8, "field name"),
            ("%pith\nt[1]{a|b}:", Header, 2, 7, "',' or '}'"),
            ("%pith\nt[1]{a,u{}}:", Header, 2, 10, "empty field list"),
            ("%pith\nt[1]{a,u{x}:", Header, 2, 12, "',' or '}'"),
            ("%pith\nt[1]{a,a}:", DuplicateKey, 2, 8, "twice"),
            ("%pith\nt[1]{a,u{x,x}}:", DuplicateKey, 2, 12, "twice"),
            (
                "%pith\nt[1]{a=1}:",
                Header,
                2,
                5,
                "at least one field that takes a cell",
            ),
            (
                "%pith\nt[1]{a,u{k=1}}:",
                Header,
                2,
                9,
                "at least one field that takes a cell",
            ),
            // Derived columns (§9).
            ("%pith\nt[1]{a,c?=1}:\n1", Header, 2, 9, "without '?'"),
            (
                "%pith\nt[1]{a,c=*x}:\n1",
                Header,
                2,
                10,
                "without references",
            ),
            (
                "%pith\nt[1]{a,c=[*x]}:\n1",
                Header,
                2,
                11,
                "without references",
            ),
            ("%pith\nt[1]{a,c=}:\n1", Header, 2, 10, "after '='"),
            ("%pith\nt[1]{a,c=~}:\n1", Header, 2, 10, "`~`"),
            ("%pith\nt[1]{a,c=x y ,b}:\n1,2", Header, 2, 13, "space"),
            ("%pith\nt[1]{a,c=a]b}:\n1", Header, 2, 11, "']'"),
            ("%pith\nt[1]{a,u=`${b}`}:\n1", Header, 2, 13, "not one"),
            (
                "%pith\nt[1]{a,c=1,u=`${c}`}:\n1",
                Header,
                2,
                17,
                "group or a derived column",
            ),
            (
                "%pith\nt[1]{g{x},u=`${g}`}:\n1",
                Header,
                2,
                16,
                "group or a derived column",
            ),
            (
                "%pith\nt[1]{g{x,u=`${a}`},a}:\n1,2",
                Header,
                2,
                15,
                "not one",
            ),
            ("%pith\nk:\n  t[1]{a,u=`x${a", Header, 3, 14, "'}' to close"),
            ("%pith\nt[1]{a,u=`x$a`}:\n1", Header, 2, 12, "'${'"),
            (
                "%pith\nt[1]{a,u=`x\\n`}:\n  1",
                InvalidEscape,
                2,
                12,
                "escapes",
            ),
            ("%pith\nt[1]{a,u=`x`y}:\n1", Header, 2, 13, "',' or '}'"),
            ("%pith\nt[1]{a,u=`x}:\n1", Header, 2, 10, "'`' to close"),
            ("%pith\nt[1]{a,u=`${}`}:\n1", Header, 2, 13, "field name"),
            // A template's fields hold text in every row.
            (
                "%pith\nt[2]{a?,b,u=`${a}`}:\nx,1\n,2",
                Type,
                4,
                1,
                "found an empty cell",
            ),
            (
                "%pith\nt[1]{a,u=`${a}`}:\ntrue",
                Type,
                3,
                1,
                "found boolean",
            ),
            ("%pith\nt[1]{a,u=`${a}`}:\n[1]", Type, 3, 1, "found array"),
        ],
        &strict(),
    );
}

#[test]
fn flow_values_refused() {
    refused(
        &[
            (
                "%pith\nk: [1,2",
                Syntax,
                2,
                8,
                "']' is missing for the bracket at column 4",
            ),
            ("%pith\nk: {a:1", Syntax, 2, 8, "'}' is missing"),
            ("%pith\nk: {a:[1}", Syntax, 2, 9, "expected ',' or ']'"),
            ("%pith\nk: {a:1]", Syntax, 2, 8, "expected ',' or '}'"),
            ("%pith\nk: [1]]", Syntax, 2, 7, "end of the line"),
            ("%pith\nk: {a}", Syntax, 2, 6, "expected ':'"),
            ("%pith\nk: {a:}", Syntax, 2, 7, "expected a value"),
            ("%pith\nk: {:1}", Syntax, 2, 5, "expected a key"),
            ("%pith\nk: {a#b:1}", Syntax, 2, 6, "expected ':'"),
            ("%pith\nk: {-a:1}", Syntax, 2, 5, "expected a key"),
            ("%pith\nk: [1,]", Syntax, 2, 7, "trailing commas"),
            ("%pith\nk: [,1]", Syntax, 2, 5, "expected a value"),
            ("%pith\nk: {a:1,}", Syntax, 2, 9, "expected a key"),
            ("%pith\nk: {a:1,a:2}", DuplicateKey, 2, 9, "`a` again"),
            ("%pith\nk: [ a]", Syntax, 2, 5, "space"),
            ("%pith\nk: [a ]", Syntax, 2, 6, "space"),
            ("%pith\nk: {a: 1}", Syntax, 2, 7, "space"),
            ("%pith\nk: [a\"b\"]", Syntax, 2, 6, "'\"'"),
            ("%pith\nk: [a[1]]", Syntax, 2, 6, "'['"),
            (
                "%pith\nk: [&x]",
                Syntax,
                2,
                7,
                "one space and a value after the anchor's name",
            ),
            // An anchor's name followed by a space and nothing before the
            // bracket or comma closes (found by the notation_decode fuzz target).
            ("%pith\nk: [&x ]", Syntax, 2, 8, "expected a value"),
            ("%pith\nk: [&x ,1]", Syntax, 2, 8, "expected a value"),
            ("%pith\nk: {a:&x }", Syntax, 2, 10, "expected a value"),
            (
                "%pith\nf: [&EE.EEEE ,u\n E",
                Syntax,
                2,
                14,
                "expected a value",
            ),
            ("%pith\nk: [~]", Syntax, 2, 5, "'~'"),
            ("%pith\nk: [a\u{1}b]", Syntax, 2, 6, "U+0001"),
            ("%pith\nk: [\"a]", InvalidEscape, 2, 5, "unterminated"),
            ("%pith\nk: {\"a\"1}", Syntax, 2, 8, "expected ':'"),
            ("%pith\nk: [1e99999999999]", NumberRange, 2, 5, "exponent"),
        ],
        &strict(),
    );
}

#[test]
fn text_blocks_refused() {
    refused(
        &[
            (
                "%pith\nk: \"\"\"\n  a\n b\n  \"\"\"",
                Indentation,
                4,
                2,
                "indented by 2 spaces",
            ),
            (
                "%pith\nk: \"\"\"\n  a\n\"\"\"",
                Indentation,
                4,
                1,
                "indented by 2",
            ),
            ("%pith\nk: \"\"\"\n  a", Syntax, 3, 4, "closing line"),
            (
                "%pith\nk: \"\"\"\n  a\n  \"\"\" ",
                Syntax,
                4,
                7,
                "closing line",
            ),
            (
                "%pith\nk: \"\"\"\n  a\u{7}b\n  \"\"\"",
                Syntax,
                3,
                4,
                "U+0007",
            ),
            (
                "%pith\nl[1]:\n  - \"\"\"\n    a\n    \"\"\"",
                Syntax,
                3,
                5,
                "text block",
            ),
            ("%pith\n[1]{a}:\n\"\"\"", Syntax, 3, 3, "after the cell"),
        ],
        &strict(),
    );
}

#[test]
fn depth_is_bounded_everywhere() {
    let shallow = DecodeOptions::default().max_depth(3);
    same(
        &[
            ("%pith\na:\n  b:\n    c: 1", r#"{"a":{"b":{"c":1}}}"#),
            ("%pith\nk: [[1]]", r#"{"k":[[1]]}"#),
            ("%pith\n&d: [[1]]\nk: *d", r#"{"k":[[1]]}"#),
            ("%pith\n[1]{u{a}}:\n1", r#"[{"u":{"a":1}}]"#),
        ],
        &shallow,
    );
    refused(
        &[
            (
                "%pith\na:\n  b:\n    c:\n      d: 1",
                DepthLimit,
                4,
                5,
                "at most 3",
            ),
            ("%pith\nk: [[[1]]]", DepthLimit, 2, 6, "at most 3"),
            ("%pith\n&d: [[[[1]]]]\nk: 1", DepthLimit, 2, 8, "at most 3"),
            ("%pith\n&d: [[1]]\na:\n  k: *d", DepthLimit, 4, 6, "`*d`"),
            ("%pith\nt[1]{u{a}}:\n1", DepthLimit, 2, 7, "at most 3"),
            ("%pith\n[1]{u{a{b}}}:\n1", DepthLimit, 2, 8, "at most 3"),
            ("%pith\n[1]{u{a}}:\n[1]", DepthLimit, 3, 1, "at most 3"),
            (
                "%pith\n[1]{a,c={x:[1]}}:\n1",
                DepthLimit,
                2,
                12,
                "at most 3",
            ),
            (
                "%pith\nl[1]:\n  - [1]:\n    - [1]: x",
                DepthLimit,
                4,
                7,
                "at most 3",
            ),
        ],
        &shallow,
    );
    // A record list's array and objects are levels too: in its header, in
    // a member's flow value, through a reference.
    refused(
        &[("%pith\n[1]{xs[]{a}}:\n[1]", DepthLimit, 2, 9, "at most 3")],
        &shallow,
    );
    let four = DecodeOptions::default().max_depth(4);
    same(
        &[("%pith\n[1]{xs[]{a}}:\n[1]", r#"[{"xs":[{"a":1}]}]"#)],
        &four,
    );
    refused(
        &[
            ("%pith\n[1]{xs[]{a}}:\n[[1]]", DepthLimit, 3, 2, "at most 4"),
            (
                "%pith\n&d: [1]\n[1]{xs[]{a}}:\n[*d]",
                DepthLimit,
                4,
                2,
                "`*d`",
            ),
        ],
        &four,
    );
    // Deep input never overflows the stack: flow values, objects, lists.
    let deep = 100_000;
    let flow = format!("%pith\nk: {}1{}", "[".repeat(deep), "]".repeat(deep));
    let objects: String = (0..2_000).fold(String::from("%pith\n"), |mut s, i| {
        s.push_str(&" ".repeat(2 * i));
        s.push_str("k:\n");
        s
    });
    for text in [&flow, &objects] {
        let e = decode(text).unwrap_err();
        assert_eq!(e.kind(), DepthLimit, "{e}");
    }
    // The default depth fits a test thread's stack: 255 nested lists, 256 objects.
    let mut list = String::from("%pith\na[1]:\n");
    for i in 1..254 {
        list.push_str(&" ".repeat(2 * i));
        list.push_str("- [1]:\n");
    }
    list.push_str(&" ".repeat(2 * 254));
    list.push_str("- x");
    assert_eq!(decode(&list).unwrap().depth(), 255);
    assert_eq!(
        decode(
            &objects[..objects.len()]
                .split_inclusive('\n')
                .take(256)
                .collect::<String>()
        )
        .unwrap()
        .depth(),
        256
    );
}

#[test]
fn references_cannot_expand_without_bound() {
    let mut text = String::from("%pith\n&a0: a string of some thirty-two bytes\n");
    for i in 1..64 {
        text.push_str(&format!("&a{i}: [*a{},*a{}]\n", i - 1, i - 1));
    }
    text.push_str("k: *a63");
    let e = decode(&text).unwrap_err();
    assert_eq!(e.kind(), Structure, "{e}");
    assert!(e.message().contains("expand"), "{e}");
    // The error names the first use that would cross the bound, on a definition line.
    assert!(e.line() > 10 && e.line() < 40, "{e}");
}

#[test]
fn declared_lengths_never_size_allocations() {
    for text in [
        "%pith\na[18446744073709551615]: 1",
        "%pith\na[99999999999999999999999]{x}:\n1",
        "%pith\na[4294967295]:\n  - 1",
        "%pith\na[4294967295:]{x}:\n  k: 1",
    ] {
        let e = decode(text).unwrap_err();
        assert_eq!(
            (e.kind(), e.line(), e.column()),
            (CountMismatch, 2, 3),
            "{text}: {e}"
        );
        let v = pith::notation::decode(text.as_bytes(), &lenient()).unwrap();
        assert!(v.get("a").is_some());
    }
}

#[test]
fn lenient_mode_relaxes_counts_and_blank_lines_only() {
    same(
        &[
            (
                "%pith\nk[1]: a,b\nl[3]:\n  - x",
                r#"{"k":["a","b"],"l":["x"]}"#,
            ),
            (
                "%pith\no:\n  t[1]{a}:\n    1\n    2\nz: 0",
                r#"{"o":{"t":[{"a":1},{"a":2}]},"z":0}"#,
            ),
            // A root object's table ends after its count, lenient or not.
            ("%pith\nt[1]{a}:\n1\nz: 0", r#"{"t":[{"a":1}],"z":0}"#),
            ("%pith\n[1]{a}:\n1\n2\n3", r#"[{"a":1},{"a":2},{"a":3}]"#),
            ("%pith\nm[5:]{v}:\n  a: 1", r#"{"m":{"a":{"v":1}}}"#),
            ("%pith\na: 1\n\n  \nb: 2\n", r#"{"a":1,"b":2}"#),
            (
                "%pith\nk: \"\"\"\n  a\n\n  b\n  \"\"\"",
                r#"{"k":"a\n\nb"}"#,
            ),
        ],
        &lenient(),
    );
    refused(
        &[
            ("%pith\na: 1\na: 2", DuplicateKey, 3, 1, ""),
            ("%pith\n[1]{a,b}:\n1", WidthMismatch, 3, 2, ""),
            ("%pith\n&a: 1\nk: 2", Structure, 2, 1, "used nowhere"),
            ("%pith\na:\n   b: 1", Indentation, 3, 4, ""),
            ("%pith\na:\n\tb: 1", Indentation, 3, 1, ""),
            ("%pith\na: 1  ", Syntax, 2, 5, ""),
            ("%pith\n[2]{a,b}:\n1,\n,2", Structure, 3, 3, ""),
        ],
        &lenient(),
    );
}

#[test]
fn indent_option_is_honoured() {
    let four = DecodeOptions::default().indent(4);
    same(
        &[(
            "%pith\na:\n    b: \"\"\"\n        x\n        \"\"\"\n    t[1]{c}:\n        1",
            r#"{"a":{"b":"x","t":[{"c":1}]}}"#,
        )],
        &four,
    );
    refused(
        &[("%pith\na:\n  b: 1", Indentation, 3, 3, "multiples of 4")],
        &four,
    );
}

#[test]
fn large_documents_stay_linear() {
    let n = 50_000;
    let mut object = String::from("%pith\n");
    let mut keyed = format!("%pith\nm[{n}:]{{v}}:\n");
    let mut rows = format!("%pith\n[{n}]{{id,name?,u{{a,b}}}}:\n");
    let mut flow = String::from("%pith\nf: {");
    for i in 0..n {
        object.push_str(&format!("k{i}: {i}\n"));
        keyed.push_str(&format!("  k{i}: {i}\n"));
        rows.push_str(&format!("{i},{},*u,x\n", if i % 2 == 0 { "a" } else { "" }));
        flow.push_str(&format!("{}k{i}:{i}", if i == 0 { "" } else { "," }));
    }
    flow.push('}');
    let rows = rows.replacen("%pith\n", "%pith\n&u: {login:ada}\n", 1);
    assert_eq!(decode(&object).unwrap().as_object().unwrap().len(), n);
    assert_eq!(
        decode(&keyed)
            .unwrap()
            .get("m")
            .unwrap()
            .as_object()
            .unwrap()
            .len(),
        n
    );
    assert_eq!(decode(&rows).unwrap().as_array().unwrap().len(), n);
    assert_eq!(
        decode(&flow)
            .unwrap()
            .get("f")
            .unwrap()
            .as_object()
            .unwrap()
            .len(),
        n
    );
    // A duplicate among many keys is still found, at its line.
    let dup = format!("{object}k7: 0");
    let e = decode(&dup).unwrap_err();
    assert_eq!((e.kind(), e.line()), (DuplicateKey, n + 2));
}

proptest! {
    /// Any text after the marker is decoded or refused with a position, never a panic.
    #[test]
    fn arbitrary_text_never_panics(body in "[ -~\t\n\u{e9}]{0,200}") {
        let text = format!("%pith\n{body}");
        for opts in [strict(), lenient()] {
            if let Err(e) = pith::notation::decode(text.as_bytes(), &opts) {
                prop_assert!(e.line() >= 1 && e.column() >= 1, "{e}");
            }
        }
    }

    /// Text built from the notation's own pieces, too.
    #[test]
    fn notation_shaped_text_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        "%pith\n", "&a: ", "*a", "[2]", "{a,b?,c{d,e}}", ":", "\n", "  ", "- ", "~", ",", "|", "\t",
        "\"\"\"", "\"x\"", "[1,{k:v}]", "=1", "=`${a}`", "k", "1", "?", "{", "}", "[", "]",
    ]), 0..40)) {
        let text: String = parts.concat();
        let text = format!("%pith\n{text}");
        for opts in [strict(), lenient()] {
            if let Err(e) = pith::notation::decode(text.as_bytes(), &opts) {
                prop_assert!(e.line() >= 1 && e.column() >= 1, "{e}");
            }
        }
    }
}

#[path = "support/gen.rs"]
mod generate;

/// Strings that look like the notation's own syntax, or need quotes.
fn tricky() -> impl Strategy<Value = String> {
    generate::look_alike(
        &[
            "~", "*a", "&a", "[1]", "{a:1}", "\"\"\"", "a\nb", "${x}", "`", "a,b", "a|b", "a\tb",
            "#x", "-", "x?", "a=b", "%pith", "a: b", "  ", "\u{1}", ".5", "-.5",
        ],
        "[a-z]{1,6}",
    )
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "id", "name", "user", "login", "a b", "x?", "k=v", "{k}", ""
        ])
        .prop_map(String::from),
        "[a-z]{1,3}",
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = generate::primitive(tricky());
    generate::nested(leaf, key, 5, 64, 6)
}

/// Arrays of records that share keys, sub-objects and long strings: the
/// shapes the writer turns into sparse tables, groups and references.
fn records() -> impl Strategy<Value = Value> {
    let shared = value();
    (
        shared,
        prop::collection::vec((any::<u8>(), value(), any::<bool>()), 0..12),
    )
        .prop_map(|(shared, rows)| {
            let items = rows
                .into_iter()
                .map(|(n, extra, has)| {
                    let mut m = vec![
                        ("id".to_owned(), Value::from(i64::from(n))),
                        ("user".to_owned(), shared.clone()),
                    ];
                    if has {
                        m.push(("extra".to_owned(), extra));
                    }
                    generate::object(m)
                })
                .collect();
            Value::Array(items)
        })
}

/// Records as API replies hold them: a number, a URL that is a template
/// over it, a constant, an optional sub-object (or null), optional fields
/// and a long repeated string: sparse tables, groups, derived columns and
/// references.
fn replies() -> impl Strategy<Value = Value> {
    let user = prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        (tricky(), 0i64..3).prop_map(|(login, id)| {
            let org = if id == 0 {
                Value::Null
            } else {
                generate::object(vec![("name".into(), Value::from("o"))])
            };
            Some(generate::object(vec![
                ("login".into(), Value::from(login)),
                ("id".into(), Value::from(id)),
                ("org".into(), org),
            ]))
        }),
    ];
    let row = (
        0u32..40,
        user,
        prop::option::of(tricky()),
        prop::option::of(value()),
        any::<bool>(),
    );
    prop::collection::vec(row, 0..24).prop_map(|rows| {
        let long = "a long string that repeats itself in every row of the table";
        let rows = rows.into_iter().map(|(n, user, title, extra, body)| {
            let mut m = vec![
                ("number".to_owned(), Value::from(n)),
                (
                    "url".to_owned(),
                    Value::from(format!("https://x.org/i/{n}")),
                ),
                ("state".to_owned(), Value::from("open")),
            ];
            m.extend(user.map(|u| ("user".to_owned(), u)));
            m.extend(title.map(|t| ("title".to_owned(), Value::from(t))));
            m.extend(extra.map(|x| ("extra".to_owned(), x)));
            if body {
                m.push(("body".to_owned(), Value::from(long)));
            }
            generate::object(m)
        });
        Value::Array(rows.collect())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// What the writer writes, at every readability floor, with every
    /// delimiter and indent, reads back to the same value (table rows may
    /// take the header's key order).
    #[test]
    fn the_writers_output_reads_back(
        v in prop_oneof![
            value(),
            records(),
            replies(),
            replies().prop_map(|r| generate::object(vec![("items".into(), r)])),
        ],
        min in 3u8..=5,
        refs in any::<bool>(),
        delimiter in prop::sample::select(vec![Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe]),
        indent in 1usize..=4,
    ) {
        let mut opts = pith::notation::Options::for_readability(min, refs);
        opts.delimiter = delimiter;
        opts.indent = indent;
        let read = DecodeOptions::default().indent(indent);
        let doc = pith::notation::encode(&v, &opts).expect("encodes");
        let json = pith::json::stringify(&v);
        match pith::notation::decode(doc.text.as_bytes(), &read) {
            Ok(back) => prop_assert!(
                pith::equiv::equivalent(&v, &back),
                "{json}\nwrote\n{}\nread {}", doc.text, pith::json::stringify(&back)
            ),
            Err(e) => prop_assert!(false, "{json}\nwrote\n{}\nrefused: {}", doc.text, e.render(&doc.text)),
        }
    }
}

/// The fuzz target's seeds (`fuzz/corpus/notation_decode/seed-*`: a layout
/// byte, then a document) are valid documents, so fuzzing starts from every
/// feature.
#[test]
fn the_fuzz_seeds_are_valid_documents() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/notation_decode"
    );
    let mut seeds = 0;
    for entry in std::fs::read_dir(dir).expect("the seed corpus") {
        let path = entry.expect("a seed").path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
        {
            continue;
        }
        let bytes = std::fs::read(&path).expect("a seed");
        let (layout, text) = bytes.split_first().expect("a layout byte");
        assert_eq!(*layout, 1, "{path:?}: indent 2, default depth");
        if let Err(e) = pith::notation::decode(text, &strict()) {
            panic!("{path:?}: {}", e.render(&String::from_utf8_lossy(text)));
        }
        seeds += 1;
    }
    assert!(seeds >= 20, "{seeds} seeds");
}

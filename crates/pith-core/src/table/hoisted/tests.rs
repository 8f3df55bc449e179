//! Tests of key-hoisted tables: both forms, metadata refusals, list cells.

use super::*;
use crate::ErrorKind;

fn j(s: &str) -> Value {
    crate::json::parse(s).unwrap()
}

#[test]
fn lists_round_trip_awkward_items() {
    let items = j(
        r#"["a", "", " ", "1", 1, -2.5, true, "true", null, "null", "\"q", "x\"y", "a b", "tab\t", "日本", "1e999999999999", "-", "05"]"#,
    );
    let items = items.as_array().unwrap();
    let mut cell = String::new();
    write_list(items, &mut cell);
    assert_eq!(
        cell,
        r#"a "" " " "1" 1 -2.5 true "true" null "null" "\"q" x"y "a b" "tab\t" 日本 1e999999999999 - "05""#
    );
    assert_eq!(&read_list(&cell).unwrap(), items);
    assert_eq!(read_list("").unwrap(), Vec::<Value>::new());
}

#[test]
fn malformed_lists_are_refused() {
    for cell in [" a", "a ", "a  b", "\"a", "\"\\x\"", "\"a\"b"] {
        assert!(read_list(cell).is_err(), "{cell:?}");
    }
}

#[test]
fn seed_form_matches_pm_cli() {
    // The case from pm-cli's own test of encodePmTableRows.
    let rows = j(
        r#"[{"id":"one","cell":["x,y","\"quoted\"","\n","雪"],"empty":{},"flag":false},
                    {"id":"two","cell":"[1]","empty":[],"count":0},
                    {"id":"three","cell":null,"flag":true},{}]"#,
    );
    let t = encode_rows(rows.as_array().unwrap()).unwrap();
    assert_eq!(t.encoding.json_columns, ["cell", "empty"]);
    assert!(t.encoding.absent.contains(&(2, "empty".to_owned())));
    assert_eq!(
        crate::json::stringify(&t.rows[1]),
        r#"{"id":"two","cell":"\"[1]\"","empty":"[]","flag":null,"count":0}"#
    );
    assert_eq!(
        crate::json::stringify(&t.encoding.to_value()),
        r#"{"json_columns":["cell","empty"],"absent":[[0,"count"],[1,"flag"],[2,"empty"],[2,"count"],[3,"id"],[3,"cell"],[3,"empty"],[3,"flag"],[3,"count"]]}"#
    );
    assert_eq!(
        &decode_rows(t.rows, &t.encoding).unwrap(),
        rows.as_array().unwrap()
    );
}

#[test]
fn compact_form_groups_lists_and_absent_by_column() {
    let rows = j(
        r#"[{"id":1,"tags":["a","b"],"owner":{"id":7,"login":"ada"}},
                    {"id":2,"tags":[]},
                    {"id":3,"owner":{"login":"bo","id":8},"tags":["c"]}]"#,
    );
    let t = encode_rows_compact(rows.as_array().unwrap()).unwrap();
    assert_eq!(
        crate::json::stringify(&Value::Array(t.rows.clone())),
        r#"[{"id":1,"tags":"a b","owner":{"id":7,"login":"ada"}},{"id":2,"tags":"","owner":{"id":null,"login":null}},{"id":3,"tags":"c","owner":{"login":"bo","id":8}}]"#
    );
    assert_eq!(
        crate::json::stringify(&t.encoding.to_value()),
        r#"{"json_columns":[],"list_columns":["tags"],"absent":{"owner":[1]}}"#
    );
    let back = decode_rows(t.rows, &t.encoding).unwrap();
    assert!(crate::equiv::equivalent(&rows, &Value::Array(back)));
}

#[test]
fn malformed_cells_name_row_and_column() {
    let enc = Encoding {
        json_columns: vec!["cell".into()],
        ..Encoding::default()
    };
    let err = decode_rows(vec![j(r#"{"cell":"[1]"}"#), j(r#"{"cell":"{"}"#)], &enc).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!(err.path(), Some("$[1].cell"));
    assert!(
        err.message()
            .starts_with("row 1, column \"cell\": malformed JSON cell"),
        "{err}"
    );
    let err = decode_rows(vec![j(r#"{"cell":5}"#)], &enc).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at $[0].cell: expected JSON text in a json column, found number 5"
    );
}

#[test]
fn metadata_is_validated() {
    for (text, msg) in [
        (
            r#"{"absent":[]}"#,
            "expected json_columns in table metadata, found none",
        ),
        (
            r#"{"json_columns":[1]}"#,
            "expected a column name, found number 1",
        ),
        (
            r#"{"json_columns":[],"absent":[[0]]}"#,
            "expected a [row, column] pair, found array",
        ),
        (
            r#"{"json_columns":[],"absent":{"a":[-1]}}"#,
            "expected a row index, found number -1",
        ),
        (
            r#"{"json_columns":[],"extra":1}"#,
            "expected only json_columns, list_columns and absent in table metadata, found \"extra\"",
        ),
        (
            r#"{"json_columns":["a"],"list_columns":["a"]}"#,
            "expected a column to be a json or a list column, found \"a\" named as both",
        ),
    ] {
        let err = Encoding::from_value(&j(text)).unwrap_err();
        assert_eq!(err.message(), msg, "{text}");
    }
    let enc = Encoding::from_value(&j(r#"{"json_columns":[],"absent":[[5,"a"]]}"#)).unwrap();
    let err = decode_rows(vec![j(r#"{"a":1}"#)], &enc).unwrap_err();
    assert_eq!(
        err.message(),
        "expected absent cells in rows below 1, found row 5"
    );
}

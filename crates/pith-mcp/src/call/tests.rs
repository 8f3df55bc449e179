//! Tests of the CallToolResult edit: text items, the structuredContent
//! policy, budgets and notices.

use super::*;
use crate::options::Options;
use crate::rewrite::{MORE_HINT, STRUCTURED_KEY_META_KEY, reads_back};

use crate::rewrite::tests::records;

fn json_string(s: &str) -> String {
    pith::json::stringify(&Value::String(s.to_owned()))
}

/// The message `line` (a response whose `result` is the first member
/// named so) after the edit, and the record.
fn edited(line: &str, tool: &str, state: &State) -> (String, Option<Record>) {
    let env = match crate::envelope::scan(line.as_bytes()) {
        crate::envelope::Frame::Single(e) => e,
        other => panic!("{other:?}"),
    };
    let mut splice = Splice::default();
    let record = edit(
        line.as_bytes(),
        env.result.unwrap(),
        tool,
        state,
        &mut splice,
    );
    (
        String::from_utf8(splice.apply(line.as_bytes())).unwrap(),
        record,
    )
}

fn state(f: impl FnOnce(&mut Options)) -> State {
    let mut o = Options::default();
    f(&mut o);
    State::new(o, None)
}

/// The text of the first content item of a response.
fn first_text(message: &Value) -> String {
    item_text(message.get("result").expect("a result"))
}

/// The content items of a response.
fn content(message: &Value) -> &Vec<Value> {
    let items = message.get("result").and_then(|r| r.get("content"));
    items
        .and_then(Value::as_array)
        .expect("a tools/call result")
}

/// The text of the first content item of a `CallToolResult`.
fn item_text(result: &Value) -> String {
    let items = result.get("content").and_then(Value::as_array);
    let item = &items.expect("a tools/call result")[0];
    item.get("text")
        .and_then(Value::as_str)
        .expect("a text item")
        .to_owned()
}

/// What `pith_more` answers for `cursor`.
fn more(s: &State, cursor: &str) -> Value {
    let args = parse(&format!(r#"{{"cursor":"{cursor}"}}"#));
    let page = crate::more::answer(s.store_mutex(), Some(&args), &s.options.rewrite);
    pith::json::parse_bytes(&page.result).unwrap()
}

fn parse(s: &str) -> Value {
    pith::json::parse(s).unwrap()
}

#[test]
fn a_rewritten_line_differs_only_inside_the_edited_item() {
    let text = records(20);
    let value = parse(&text);
    let r = crate::rewrite::rewrite_text(&text, &Default::default()).unwrap();
    // Numbers as the server wrote them, an escaped é, keys in an unusual
    // order, spacing, and fields no schema knows.
    let before = format!(
        "{{\"result\" : {{\"zeta\":1.0, \"content\":[{{\"text\":{}, \"type\":\"text\", \"x-unknown\":[1E2,-0.0]}}], \"structuredContent\":{{\"score\":1.0,\"big\":1E2,\"name\":\"caf\\u00e9\"}},\"_meta\":{{\"k\":1.50}}}}, \"id\":1.0,\"jsonrpc\":\"2.0\",\"extra\":{{\"b\":2,\"a\":1}}}}\r\n",
        json_string(&text)
    );
    let s = state(|_| {});
    let (after, record) = edited(&before, "search", &s);
    let expected = before
        .replace(&json_string(&text), &json_string(&r.text))
        .replace(
            "\"x-unknown\":[1E2,-0.0]}",
            &format!(
                "\"x-unknown\":[1E2,-0.0],\"_meta\":{{\"{ENCODING_META_KEY}\":\"{}\"}}}}",
                r.encoding.name()
            ),
        );
    assert_eq!(after, expected);
    let record = record.unwrap();
    assert_eq!(record.form, Some(r.encoding));
    assert!(record.structured_before > 0);
    assert_eq!(
        record.structured_after, record.structured_before,
        "not its text's value: kept"
    );
    assert!(!record.list_changed, "no schema was held back");
    // What the item says decodes to exactly what the server sent.
    let v = parse(after.trim_end());
    let new_text = first_text(&v);
    assert!(reads_back(&new_text, &value));
}

#[test]
fn only_text_items_with_json_are_rewritten() {
    let big = json_string(&records(20));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[
            {{"type":"text","text":{big}}},
            {{"type":"text","text":"plain words"}},
            {{"type":"image","data":"AAAA","mimeType":"image/png"}},
            {{"type":"resource","resource":{{"uri":"file:///a.json","text":{big}}}}},
            {{"type":"text","text":{big},"_meta":{{"x":1}},"annotations":{{"priority":1}}}},
            {{"type":"text","text":{big},"_meta":"not an object"}},
            {{"type":"future","text":{big}}},
            7
        ],"extra":{{"kept":true}}}}}}"#
    );
    let (after, _) = edited(&line, "t", &state(|_| {}));
    let v = parse(&after);
    let items = content(&v);
    let old = parse(&line);
    let old = content(&old);
    let marked: Vec<bool> = items
        .iter()
        .map(|i| {
            i.get("_meta")
                .and_then(|m| m.get(ENCODING_META_KEY))
                .is_some()
        })
        .collect();
    assert_eq!(
        marked,
        [true, false, false, false, true, false, false, false]
    );
    for i in [1, 2, 3, 5, 6, 7] {
        assert_eq!(items[i], old[i], "item {i} must be untouched");
    }
    let m = items[4].get("_meta").and_then(Value::as_object).unwrap();
    assert_eq!(m.keys().collect::<Vec<_>>(), ["x", ENCODING_META_KEY]);
}

#[test]
fn error_results_are_left_alone_unless_asked() {
    let big = json_string(&records(20));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{big}}}],"isError":true}}}}"#
    );
    let (after, record) = edited(&line, "t", &state(|_| {}));
    assert_eq!((after.as_str(), record), (line.as_str(), None));
    let (after, _) = edited(&line, "t", &state(|o| o.rewrite_errors = true));
    assert_ne!(after, line);
}

#[test]
fn structured_content_goes_when_its_text_holds_it() {
    let text = records(20);
    let same = pith::json::stringify(&parse(&text));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{}}}],"structuredContent":{same}}}}}"#,
        json_string(&text)
    );
    // Kept with --structured keep.
    let (after, _) = edited(&line, "t", &state(|o| o.structured = Structured::Keep));
    assert!(after.contains("\"structuredContent\":"), "{after}");
    // Dropped by default, marked, and the rest spliced.
    let s = state(|_| {});
    let (after, record) = edited(&line, "t", &s);
    assert!(!after.contains("structuredContent\":{"), "{after}");
    assert!(
        after.ends_with(&format!(
            r#"}}],"_meta":{{"{STRUCTURED_META_KEY}":"dropped"}}}}}}"#
        )),
        "{after}"
    );
    assert_eq!(record.unwrap().structured_after, 0);
    parse(&after);

    // One member wrapping the text's value: dropped, the member named.
    let member = format!(
        r#"{{"id":2,"result":{{"structuredContent":{{"rows":{same}}},"content":[{{"type":"text","text":{}}}]}}}}"#,
        json_string(&text)
    );
    let (after, _) = edited(&member, "w", &state(|_| {}));
    assert!(
        after.ends_with(&format!(r#"}}],"_meta":{{"{STRUCTURED_META_KEY}":"dropped","{STRUCTURED_KEY_META_KEY}":"rows"}}}}}}"#)),
        "{after}"
    );
    // A different value: kept, and the tool is kept from now on.
    let wrapped = format!(
        r#"{{"id":2,"result":{{"structuredContent":{{"rows":{same},"total":20}},"content":[{{"type":"text","text":{}}}]}}}}"#,
        json_string(&text)
    );
    s.schemas().strip("t");
    let (after, record) = edited(&wrapped, "t", &s);
    assert!(after.contains("\"structuredContent\":{\"rows\""), "{after}");
    assert!(
        record.unwrap().list_changed,
        "the client listed it without its schema"
    );
    // Once kept, never dropped again, even when equivalent.
    let (after, _) = edited(&line, "t", &s);
    assert!(after.contains("\"structuredContent\":"), "{after}");
    assert!(!s.schemas().strip("t"));

    // Key order that differs is a different value to pith: kept.
    let line = r#"{"id":1,"result":{"content":[{"type":"text","text":"{\"a\":1,\"b\":2}"}],"structuredContent":{"b":2,"a":1}}}"#;
    let (after, _) = edited(line, "u", &state(|_| {}));
    assert!(after.contains("\"structuredContent\""));
    // A small equivalent result loses structuredContent without a rewrite.
    let line = r#"{"id":1,"result":{"structuredContent":{"t":33},"content":[{"type":"text","text":"{\"t\":33}"}]}}"#;
    let (after, _) = edited(line, "v", &state(|_| {}));
    assert_eq!(
        after,
        format!(
            r#"{{"id":1,"result":{{"content":[{{"type":"text","text":"{{\"t\":33}}"}}],"_meta":{{"{STRUCTURED_META_KEY}":"dropped"}}}}}}"#
        )
    );
}

#[test]
fn a_python_list_return_becomes_one_text() {
    // The Python SDK returns a list as one pretty text item per element,
    // with structuredContent {"result": [...]}.
    let rows: Vec<String> = (0..30)
        .map(|i| format!("{{\n  \"id\": {i},\n  \"name\": \"row {i}\",\n  \"ok\": true\n}}"))
        .collect();
    let items: Vec<String> = rows
        .iter()
        .map(|r| format!(r#"{{"type":"text","text":{}}}"#, json_string(r)))
        .collect();
    let list = format!(
        "[{}]",
        rows.iter()
            .map(|r| pith::json::stringify(&parse(r)))
            .collect::<Vec<_>>()
            .join(",")
    );
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"content":[{}],"structuredContent":{{"result":{list}}},"isError":false}}}}"#,
        items.join(",")
    );
    let (after, record) = edited(&line, "rows", &state(|_| {}));
    let v = parse(&after);
    let r = v.get("result").unwrap();
    let content = r.get("content").unwrap().as_array().unwrap();
    assert_eq!(content.len(), 1, "{after}");
    let meta = content[0].get("_meta").unwrap();
    assert_eq!(meta.get(JOINED_META_KEY), Some(&Value::from(30)));
    let text = content[0].get("text").and_then(Value::as_str).unwrap();
    // The one text is the structured value, {"result": [...]}, as a table.
    assert!(
        reads_back(text, &parse(&format!(r#"{{"result":{list}}}"#))),
        "{text}"
    );
    assert!(
        text.starts_with("%pith\nresult[30]{id,name=`row ${id}`,ok=true}:"),
        "{text}"
    );
    assert!(r.get("structuredContent").is_none());
    assert_eq!(
        r.get("_meta").unwrap().get(STRUCTURED_META_KEY),
        Some(&Value::from("dropped"))
    );
    assert_eq!(r.get("isError"), Some(&Value::Bool(false)));
    let record = record.unwrap();
    assert!(record.text_after * 2 < record.text_before, "{record:?}");
}

/// `n` rows as pretty JSON text items, each with `extra` members after
/// `text`, and the response whose structuredContent is `{"result": rows}`.
fn list_return(n: usize, extra: &str) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| format!("{{\n  \"id\": {i},\n  \"name\": \"row {i}\"\n}}"))
        .collect();
    let items: Vec<String> = rows
        .iter()
        .map(|r| format!(r#"{{"type":"text","text":{}{extra}}}"#, json_string(r)))
        .collect();
    let list: Vec<String> = rows
        .iter()
        .map(|r| pith::json::stringify(&parse(r)))
        .collect();
    format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"content":[{}],"structuredContent":{{"result":[{}]}}}}}}"#,
        items.join(","),
        list.join(",")
    )
}

#[test]
fn items_with_members_of_their_own_are_not_joined() {
    // Joining makes one new item: annotations and a `_meta` of the
    // server's would be lost, so such items are rewritten one by one.
    let extra = r#","annotations":{"audience":["user"],"priority":0.3},"_meta":{"x":1}"#;
    let line = list_return(5, extra);
    let (after, _) = edited(&line, "rows", &state(|_| {}));
    let v = parse(&after);
    let items = content(&v);
    assert_eq!(items.len(), 5, "{after}");
    for (i, item) in items.iter().enumerate() {
        assert_eq!(
            item.get("annotations"),
            Some(&parse(r#"{"audience":["user"],"priority":0.3}"#)),
            "{after}"
        );
        let meta = item.get("_meta").expect("its _meta");
        assert_eq!(meta.get("x"), Some(&Value::from(1)), "{after}");
        let text = item.get("text").and_then(Value::as_str).unwrap();
        let row = parse(&format!(r#"{{"id":{i},"name":"row {i}"}}"#));
        assert!(reads_back(text, &row), "{text}");
    }
    // The same items bare are joined.
    let (after, _) = edited(&list_return(5, ""), "rows2", &state(|_| {}));
    assert_eq!(content(&parse(&after)).len(), 1, "{after}");
}

#[test]
fn a_repeated_key_leaves_the_result_or_the_item_as_it_is() {
    // Clients read the last `isError`, the proxy would read the first.
    let text = records(20);
    let line = format!(
        r#"{{"id":1,"result":{{"isError":false,"content":[{{"type":"text","text":{}}}],"isError":true}}}}"#,
        json_string(&text)
    );
    let s = state(|o| o.rewrite_errors = false);
    let (after, record) = edited(&line, "t", &s);
    assert_eq!(after, line);
    assert!(record.is_none());
    // An item with two texts, or two `_meta`, is not rewritten.
    for item in [
        format!(
            r#"{{"type":"text","text":{0},"text":{0}}}"#,
            json_string(&text)
        ),
        format!(
            r#"{{"type":"text","text":{},"_meta":{{"a":1}},"_meta":{{"b":2}}}}"#,
            json_string(&text)
        ),
        format!(
            r#"{{"type":"text","text":{},"_meta":{{"a":1,"a":2}}}}"#,
            json_string(&text)
        ),
    ] {
        let line = format!(r#"{{"id":1,"result":{{"content":[{item}]}}}}"#);
        let (after, _) = edited(&line, "t", &state(|_| {}));
        assert_eq!(after, line);
    }
    // A result `_meta` with a repeated key: structuredContent is kept.
    let same = pith::json::stringify(&parse(&text));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{}}}],"structuredContent":{same},"_meta":{{"k":1,"k":2}}}}}}"#,
        json_string(&text)
    );
    let (after, _) = edited(&line, "t", &state(|_| {}));
    assert!(after.contains(r#""structuredContent":"#), "{after}");
    assert!(after.ends_with(r#""_meta":{"k":1,"k":2}}}"#), "{after}");
}

#[test]
fn a_drop_is_always_marked() {
    // `_meta: null` has no room for the mark: structuredContent stays.
    let text = records(20);
    let same = pith::json::stringify(&parse(&text));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{}}}],"_meta":null,"structuredContent":{same}}}}}"#,
        json_string(&text)
    );
    let (after, _) = edited(&line, "t", &state(|_| {}));
    let v = parse(&after);
    let r = v.get("result").unwrap();
    assert_eq!(r.get("structuredContent"), Some(&parse(&same)), "{after}");
    assert_eq!(r.get("_meta"), Some(&Value::Null));
    // The text is still rewritten.
    assert!(reads_back(&first_text(&v), &parse(&text)));
    assert_ne!(first_text(&v), text);
}

#[test]
fn marks_already_there_are_set_not_repeated() {
    // pith's SDK helpers mark a text they wrote as JSON; a proxy before
    // this one may have marked a drop.
    let text = records(20);
    let same = pith::json::stringify(&parse(&text));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{},"_meta":{{"{ENCODING_META_KEY}":"json","z":0}}}}],"structuredContent":{same},"_meta":{{"{STRUCTURED_META_KEY}":"kept"}}}}}}"#,
        json_string(&text)
    );
    let (after, _) = edited(&line, "t", &state(|_| {}));
    assert_eq!(after.matches(ENCODING_META_KEY).count(), 1, "{after}");
    assert_eq!(after.matches(STRUCTURED_META_KEY).count(), 1, "{after}");
    let v = parse(&after);
    let item = &content(&v)[0];
    let meta = item.get("_meta").unwrap();
    assert_eq!(
        meta.get(ENCODING_META_KEY),
        Some(&Value::from("pith")),
        "{after}"
    );
    assert_eq!(meta.get("z"), Some(&Value::from(0)));
    let r = v.get("result").unwrap();
    assert_eq!(
        r.get("_meta").unwrap().get(STRUCTURED_META_KEY),
        Some(&Value::from("dropped")),
        "{after}"
    );
}

#[test]
fn a_string_that_is_json_text_keeps_its_structured_content() {
    // A Python tool `-> str` returning `json.dumps(rows)`: the text is the
    // string, and structuredContent `{"result": "<that text>"}`. The text
    // is rewritten to the rows' notation, so structuredContent is not
    // what the text now holds: it is kept.
    let text = records(20);
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{0}}}],"structuredContent":{{"result":{0}}}}}}}"#,
        json_string(&text)
    );
    let (after, _) = edited(&line, "t", &state(|_| {}));
    let v = parse(&after);
    let r = v.get("result").unwrap();
    let want = parse(&format!(r#"{{"result":{}}}"#, json_string(&text)));
    assert_eq!(r.get("structuredContent"), Some(&want), "{after}");
    assert!(reads_back(&first_text(&v), &parse(&text)));
    // A plain string that is no JSON is still the text: dropped.
    let line = r#"{"id":1,"result":{"content":[{"type":"text","text":"hello there"}],"structuredContent":{"result":"hello there"}}}"#;
    let (after, _) = edited(line, "u", &state(|_| {}));
    assert!(!after.contains("structuredContent\":{"), "{after}");
}

#[test]
fn nothing_fits_is_a_short_tool_error_within_the_budget() {
    // One object of 400 keys: no collection to cut.
    let mut m = pith::Map::new();
    for i in 0..400 {
        m.insert(format!("key{i}"), Value::from(format!("value number {i}")));
    }
    let text = pith::json::stringify_pretty(&Value::Object(m), 2);
    let line = format!(
        r#"{{"id":9,"result":{{"content":[{{"type":"text","text":{}}}]}}}}"#,
        json_string(&text)
    );
    let s = state(|o| o.rewrite.budget = Some(crate::rewrite::MIN_BUDGET));
    let (after, record) = edited(&line, "dump", &s);
    let v = parse(&after);
    let r = v.get("result").unwrap();
    assert_eq!(r.get("isError"), Some(&Value::Bool(true)), "{after}");
    let item = &r.get("content").unwrap().as_array().unwrap()[0];
    let notice = item.get("text").and_then(Value::as_str).unwrap();
    let n = Tokenizer::get(pith::tokens::TokenizerKind::O200k).count(notice);
    assert!(n <= crate::rewrite::MIN_BUDGET, "{n} tokens: {notice}");
    assert!(notice.contains("pith_more"), "{notice}");
    assert_eq!(
        item.get("_meta").unwrap().get(BUDGET_META_KEY),
        Some(&Value::from("exceeded"))
    );
    assert_eq!(record.unwrap().cut, Some("exceeded"));
    // Its cursor returns the value, cut to the smallest budget that holds it.
    let cursor = parse(notice)
        .get("output_budget_exceeded")
        .unwrap()
        .get("cursor")
        .and_then(Value::as_str)
        .unwrap()
        .to_owned();
    let page = more(&s, &cursor);
    assert!(page.get("isError").is_none(), "{page:?}");
    let shown = item_text(&page);
    let back = pith::select::decode(shown.as_bytes(), &Default::default()).unwrap();
    assert_eq!(
        back.as_object().unwrap().len(),
        401,
        "every key and read_output"
    );
}

#[test]
fn following_every_cursor_gives_every_row_once() {
    let rows: Vec<String> = (0..200)
        .map(|i| {
            // Titles no template can derive, so 200 rows need several pages.
            format!(
                r#"{{"id":{i},"title":"{} the parser near line {}","state":"open","votes":{}}}"#,
                ["fix", "speed up", "document", "test"][i % 4],
                i * 37 % 101,
                i * 7 % 13
            )
        })
        .collect();
    let text_sent = format!("[{}]", rows.join(","));
    let line = format!(
        r#"{{"id":1,"result":{{"content":[{{"type":"text","text":{}}}]}}}}"#,
        json_string(&text_sent)
    );
    let s = state(|o| o.rewrite.budget = Some(2000));
    let tok = Tokenizer::get(pith::tokens::TokenizerKind::O200k);
    let (after, record) = edited(&line, "list_issues", &s);
    assert_eq!(record.unwrap().cut, Some("cut"));
    let v = parse(&after);
    let mut text = first_text(&v);
    let mut seen = Vec::new();
    let mut pages = 0;
    loop {
        pages += 1;
        assert!(
            tok.count(&text) <= 2000,
            "page {pages}: {} tokens",
            tok.count(&text)
        );
        let back = pith::select::decode(text.as_bytes(), &Default::default()).unwrap();
        let ro = back.get("read_output").unwrap();
        let shown = back.get("result").and_then(Value::as_array).unwrap();
        seen.extend(shown.iter().cloned());
        let receipt = back.get("result_omitted");
        let Some(cursor) = receipt
            .and_then(|r| r.get("cursor"))
            .and_then(Value::as_str)
        else {
            break;
        };
        assert_eq!(
            ro.get("more"),
            Some(&Value::from(MORE_HINT)),
            "read_output names the tool"
        );
        text = item_text(&more(&s, cursor));
        assert!(pages < 50);
    }
    // Every row once, in order, each exactly as the server sent it.
    let want = pith::json::parse(&text_sent).unwrap();
    let want = want.as_array().unwrap();
    assert_eq!(seen.len(), want.len(), "every row once");
    for (i, (got, row)) in seen.iter().zip(want).enumerate() {
        assert!(
            pith::equiv::equivalent(row, got),
            "row {i}: {} != {}",
            pith::json::stringify(got),
            pith::json::stringify(row)
        );
    }
    assert!(pages > 1);
}

//! The edit of one `tools/call` result (a `CallToolResult`), spliced into
//! the server's bytes: rewritten text items, the `structuredContent`
//! policy, budgets and their `output_budget_exceeded` notice.
//!
//! Only the edited content items, `_meta` objects, `structuredContent`
//! (when dropped) and `isError` (set by the notice) change; every other
//! byte is the server's.

use crate::envelope::{
    Span, Splice, elements, find, key_is, members, object, string_value, unique_keys,
};
use crate::options::Structured;
use crate::rewrite::{
    BUDGET_META_KEY, Cut, ENCODING_META_KEY, Encoding, Rewritten, STRUCTURED_KEY_META_KEY,
    STRUCTURED_META_KEY, exceeded_notice, parse_structured, rewrite_value,
};
use crate::state::State;
use pith::Value;
use pith::tokens::Tokenizer;
use std::ops::Range;
use std::sync::Arc;

/// The `_meta` key of a text item that stands for several content items
/// of the server's (one per element of the list it holds).
pub const JOINED_META_KEY: &str = "pith/joined";

/// What the edit of one result found and did, for the ledger (no content).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Record {
    /// The notation of the first rewritten text, if any was rewritten.
    pub form: Option<Encoding>,
    /// Tokens of the text items, as the server wrote them and as sent on.
    pub text_before: usize,
    pub text_after: usize,
    /// Tokens of `structuredContent` as the server wrote it (0 if none),
    /// and as sent on (0 once dropped).
    pub structured_before: usize,
    pub structured_after: usize,
    /// Whether a budget cut a text (`cut` or `exceeded`).
    pub cut: Option<&'static str>,
    /// Whether the edit changed the tool's `outputSchema` decision, so
    /// the client should list the tools again.
    pub list_changed: bool,
}

/// One content item of the result.
struct Item {
    range: Range<usize>,
    spans: Vec<Span>,
    close: usize,
    text: Option<Text>,
}

struct Text {
    /// Span of the `text` member's value.
    value: Range<usize>,
    string: String,
    /// Its JSON value, when it is JSON a rewrite is for.
    parsed: Option<Arc<Value>>,
    tokens: usize,
    /// `Some(None)`: no `_meta`; `Some(Some(..))`: an object `_meta`;
    /// `None`: a `_meta` that is not an object (the item is left alone).
    meta: Option<Option<(Vec<Span>, usize)>>,
    /// Whether the item has no member but `type` and `text`: only such
    /// items are joined into one, which keeps nothing else of theirs.
    bare: bool,
}

/// How `structuredContent` relates to the text items.
enum Holds {
    /// No text item holds it.
    No,
    /// Item `i`'s text is exactly its value.
    Same,
    /// It is an object of one member, `{"K": X}`, and an item's text is
    /// exactly `X` (a wrapped value: the Python SDK writes a returned
    /// number or list under `result`, TypeScript servers wrap arrays so).
    Member(String),
    /// It is `{"K": [x1, …, xn]}`, n ≥ 2, and the content is n text items,
    /// item i exactly xi (the Python SDK writes a returned list so). The
    /// items are then replaced by one text of the structured value.
    Joined(String),
}

/// Edits the result whose value spans `result` in `line`, a result of
/// `tool`, into `splice`; `None` when it is not a `CallToolResult` object
/// the proxy may touch.
pub(crate) fn edit(
    line: &[u8],
    result: Range<usize>,
    tool: &str,
    state: &State,
    splice: &mut Splice,
) -> Option<Record> {
    let opts = &state.options;
    let (spans, end) = object(line, result.start)?;
    let close = end - 1;
    let is_error = find(line, &spans, "isError").is_some_and(|s| &line[s.value.clone()] == b"true");
    if is_error && !opts.rewrite_errors {
        return None;
    }
    let tokenizer = Tokenizer::get(opts.rewrite.tokenizer);
    let content = find(line, &spans, "content")?;
    let (ranges, _) = elements(line, content.value.start)?;
    let mut items: Vec<Item> = Vec::with_capacity(ranges.len());
    for range in ranges {
        items.push(item(line, range, opts.rewrite.max_bytes, tokenizer)?);
    }
    let mut record = Record {
        text_before: items
            .iter()
            .filter_map(|i| i.text.as_ref())
            .map(|t| t.tokens)
            .sum(),
        ..Record::default()
    };

    let structured = spans
        .iter()
        .position(|s| crate::envelope::key_is(&line[s.key.clone()], "structuredContent"));
    let mut drop_structured = false;
    let mut holds = Holds::No;
    let mut structured_value = None;
    if let Some(si) = structured {
        let raw = &line[spans[si].value.clone()];
        record.structured_before = tokenizer.count(&String::from_utf8_lossy(raw));
        record.structured_after = record.structured_before;
        if opts.structured == Structured::DropIfEquivalent && !is_error {
            structured_value = pith::json::parse_bytes(raw).ok();
            holds = structured_value
                .as_ref()
                .map_or(Holds::No, |v| relation(v, &items));
            let mut schemas = state.schemas();
            match holds {
                Holds::No => record.list_changed = schemas.keep(tool),
                _ => drop_structured = schemas.may_drop(tool),
            }
        }
    }

    // The texts are no longer compared with anything: what is left to do
    // needs their values, so the unescaped copies go now (on a large
    // result they are a good part of the proxy's memory).
    for item in &mut items {
        if let Some(t) = &mut item.text {
            t.string = String::new();
        }
    }

    let mut joined_done = false;
    if matches!(holds, Holds::Joined(_)) && drop_structured {
        // The structured value itself, `{"K": [...]}`: its list has a key,
        // so it can be a table with its metadata beside it.
        let list = Arc::new(structured_value.take().unwrap_or(Value::Null));
        let n = items.len();
        let first = items[0].range.start;
        let last = items[n - 1].range.end;
        let rewritten = rewrite_value(&list, record.text_before, &opts.rewrite)
            // One text is worth it when it is no longer than what a client
            // that shows structuredContent reads now.
            .filter(|r| r.cut.is_some() || r.tokens_after <= record.structured_before);
        if let Some(r) = rewritten {
            {
                let mut marks = vec![
                    (ENCODING_META_KEY, json_str(r.encoding.name())),
                    (JOINED_META_KEY, n.to_string()),
                ];
                let text = finish(&r, &list, tool, state, &mut record, &mut marks);
                let mut bytes = Vec::with_capacity(text.len() + 96);
                bytes.extend_from_slice(br#"{"type":"text","text":"#);
                pith::json::write_str_into(&text, &mut bytes);
                bytes.extend_from_slice(br#","_meta":{"#);
                bytes.extend_from_slice(written(&marks).as_bytes());
                bytes.extend_from_slice(b"}}");
                splice.replace(first..last, bytes);
                record.form = Some(r.encoding);
                record.text_after = record_tokens(&r, &text, tokenizer);
                joined_done = true;
            }
        }
    }
    if !joined_done {
        record.text_after = record.text_before;
        for item in &items {
            let Some(t) = &item.text else { continue };
            let (Some(value), Some(meta)) = (&t.parsed, &t.meta) else {
                continue;
            };
            let Some(r) = rewrite_value(value, t.tokens, &opts.rewrite) else {
                continue;
            };
            let mut marks = vec![(ENCODING_META_KEY, json_str(r.encoding.name()))];
            let text = finish(&r, value, tool, state, &mut record, &mut marks);
            record.text_after = record.text_after - t.tokens + record_tokens(&r, &text, tokenizer);
            record.form.get_or_insert(r.encoding);
            let mut token = Vec::with_capacity(text.len() + 2);
            pith::json::write_str_into(&text, &mut token);
            splice.replace(t.value.clone(), token);
            match meta {
                Some((meta_spans, meta_close)) => {
                    set_members(line, meta_spans, *meta_close, &marks, splice);
                }
                None => {
                    let member = format!(r#""_meta":{{{}}}"#, written(&marks));
                    splice.add_member(&item.spans, item.close, member.as_bytes());
                }
            }
        }
    }

    // Dropped only when the text left is no longer than what a client that
    // shows structuredContent would read instead (a small pretty-printed
    // text may be longer than compact structuredContent), or is a cut.
    drop_structured &=
        joined_done || record.cut.is_some() || record.text_after <= record.structured_before;
    // A drop is always marked: where the result's `_meta` is not an object
    // (`null`, say), or one with a repeated key, there is no sure place for
    // the mark, so nothing is dropped.
    let meta = match find(line, &spans, "_meta") {
        None => Some(None),
        Some(m) => object(line, m.value.start).map(Some),
    };
    drop_structured &= meta.is_some();
    if drop_structured && let Some(si) = structured {
        let (mark, key) = match &holds {
            Holds::Member(k) => ("dropped", Some(k)),
            Holds::Joined(_) if joined_done => ("dropped", None),
            Holds::Joined(k) => ("items", Some(k)),
            Holds::Same | Holds::No => ("dropped", None),
        };
        splice.remove_member(&spans, si);
        record.structured_after = 0;
        let mut marks = vec![(STRUCTURED_META_KEY, json_str(mark))];
        if let Some(k) = key {
            marks.push((STRUCTURED_KEY_META_KEY, json_str(k)));
        }
        match meta.flatten() {
            Some((meta_spans, meta_end)) => {
                set_members(line, &meta_spans, meta_end - 1, &marks, splice);
            }
            None => {
                let member = format!(r#""_meta":{{{}}}"#, written(&marks));
                splice.add_member(&spans, close, member.as_bytes());
            }
        }
    }
    if record.cut == Some("exceeded") {
        // The notice stands in for the whole value: the result says so.
        match find(line, &spans, "isError") {
            Some(s) => splice.replace(s.value.clone(), b"true".to_vec()),
            None => splice.add_member(&spans, close, br#""isError":true"#),
        }
    }
    Some(record)
}

/// The text of a rewrite as sent: for a cut, the value is kept for
/// `pith_more` and the receipts' cursors registered, and the notice of a
/// value no budget holds names the cursor that returns it; `marks` gets
/// the `_meta` member that marks the cut.
fn finish(
    r: &Rewritten,
    value: &Arc<Value>,
    tool: &str,
    state: &State,
    record: &mut Record,
    marks: &mut Vec<(&'static str, String)>,
) -> String {
    let Some(cut) = r.cut else {
        return r.text.clone();
    };
    marks.push((BUDGET_META_KEY, json_str(cut.name())));
    record.cut = Some(cut.name());
    let bytes = approximate_size(value);
    let mut store = state.store();
    let id = store.keep(tool, Arc::clone(value), bytes);
    match cut {
        Cut::Rows { .. } => {
            store.cursors(id, &r.cursors);
            r.text.clone()
        }
        Cut::Exceeded { minimum, unbounded } => {
            let token = store.minimum(id, None, minimum);
            exceeded_notice(&state.options.rewrite, minimum, unbounded, Some(&token))
        }
    }
}

/// `s` as a JSON string token.
fn json_str(s: &str) -> String {
    pith::json::stringify(&Value::from(s))
}

/// `_meta` members (keys and JSON values) as they are written inside braces.
fn written(marks: &[(&str, String)]) -> String {
    let mut out = String::new();
    for (k, v) in marks {
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(&json_str(k));
        out.push(':');
        out.push_str(v);
    }
    out
}

/// Sets `marks` in the object of `line` whose members are `spans` and whose
/// `}` is at `close`: a mark whose key the object already has (a producer
/// or a proxy before this one marked the item) replaces that member's
/// value; the others are added. So no key is ever written twice.
fn set_members(
    line: &[u8],
    spans: &[Span],
    close: usize,
    marks: &[(&str, String)],
    splice: &mut Splice,
) {
    let mut added = Vec::new();
    for (k, v) in marks {
        match find(line, spans, k) {
            Some(s) => splice.replace(s.value.clone(), v.clone().into_bytes()),
            None => added.push((*k, v.clone())),
        }
    }
    if !added.is_empty() {
        splice.add_member(spans, close, written(&added).as_bytes());
    }
}

fn record_tokens(r: &Rewritten, text: &str, tokenizer: &Tokenizer) -> usize {
    match r.cut {
        Some(Cut::Exceeded { .. }) => tokenizer.count(text),
        _ => r.tokens_after,
    }
}

/// The length of a value's compact JSON, for the store's bound: counted
/// as it is written, never held.
fn approximate_size(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    match pith::json::write_to(v, &mut n, None) {
        Ok(()) => n.0,
        // Counting cannot fail; should it, the bound errs high.
        Err(_) => usize::MAX / 2,
    }
}

fn item(line: &[u8], range: Range<usize>, max_bytes: usize, tokenizer: &Tokenizer) -> Option<Item> {
    if line.get(range.start) != Some(&b'{') {
        return Some(Item {
            range,
            spans: Vec::new(),
            close: 0,
            text: None,
        });
    }
    let (spans, end) = members(line, range.start)?;
    // An item with a repeated key is left as it is (see `unique_keys`).
    let is_text = unique_keys(line, &spans)
        && find(line, &spans, "type")
            .and_then(|s| string_value(&line[s.value.clone()]))
            .is_some_and(|t| t == "text");
    let text = match find(line, &spans, "text") {
        // A text over the size bound is not even unescaped.
        Some(s) if is_text && s.value.len() <= max_bytes.saturating_add(2) => {
            string_value(&line[s.value.clone()]).map(|string| {
                let meta = match find(line, &spans, "_meta") {
                    None => Some(None),
                    Some(m) => object(line, m.value.start).map(|(sp, e)| Some((sp, e - 1))),
                };
                let bare = spans.iter().all(|s| {
                    let k = &line[s.key.clone()];
                    key_is(k, "type") || key_is(k, "text")
                });
                Text {
                    value: s.value.clone(),
                    parsed: parse_structured(&string, max_bytes).map(Arc::new),
                    tokens: tokenizer.count(&string),
                    string,
                    meta,
                    bare,
                }
            })
        }
        _ => None,
    };
    Some(Item {
        range,
        spans,
        close: end - 1,
        text,
    })
}

/// How `structured` relates to the content items.
fn relation(structured: &Value, items: &[Item]) -> Holds {
    let holds_value = |want: &Value| {
        items
            .iter()
            .filter_map(|i| i.text.as_ref())
            .any(|t| text_is(t, want))
    };
    if holds_value(structured) {
        return Holds::Same;
    }
    let Some(m) = structured.as_object() else {
        return Holds::No;
    };
    let Some((key, inner)) = m.get_index(0).filter(|_| m.len() == 1) else {
        return Holds::No;
    };
    if let Value::Array(list) = inner
        && list.len() >= 2
        && list.len() == items.len()
        && items
            .iter()
            .zip(list)
            .all(|(i, x)| i.text.as_ref().is_some_and(|t| t.bare && text_is(t, x)))
    {
        return Holds::Joined(key.to_string());
    }
    if holds_value(inner) {
        return Holds::Member(key.to_string());
    }
    Holds::No
}

/// Whether a text item holds exactly `want`: its JSON is that value, or
/// `want` is a string and the text is that string (the Python SDK writes a
/// returned string as the text itself) and is not rewritten: a text that
/// is JSON a rewrite is for becomes its value's notation, which no longer
/// tells that the value was a string.
fn text_is(t: &Text, want: &Value) -> bool {
    match want {
        Value::String(s) if *s == t.string && t.parsed.is_none() => true,
        _ => match &t.parsed {
            Some(v) => **v == *want,
            None => pith::json::parse(&t.string).is_ok_and(|v| &v == want),
        },
    }
}

#[cfg(test)]
mod tests;

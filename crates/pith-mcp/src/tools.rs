//! The edit of a `tools/list` answer, spliced into the server's bytes:
//! `outputSchema` held back for the tools whose `structuredContent` may be
//! dropped, and `pith_more` added when a budget is set; and of the
//! `initialize` answer, whose tools capability then declares `listChanged`.
//!
//! With a budget the proxy answers every call of `pith_more` itself, so a
//! server's own tool of that name can never be reached: its entry is taken
//! out of every page, and the proxy's definition is listed once, on the
//! last page (the one whose `nextCursor` is missing or null). A listing
//! whose pages each decide alone would otherwise show two tools of that
//! name when the server's is on an earlier page.

use crate::envelope::{Splice, elements, find, members, object, string_value};
use crate::more::{MORE_TOOL, tool_definition};
use crate::options::Structured;
use crate::state::State;
use std::ops::Range;

/// Edits the `InitializeResult` whose value spans `result` in `line` so
/// that its tools capability declares `listChanged: true` when the proxy
/// may send `notifications/tools/list_changed` (it does when a tool whose
/// `outputSchema` it held back turns out to need it, with
/// [`Structured::DropIfEquivalent`]): a client may ignore that
/// notification from a server that did not declare it. A server without a
/// tools capability is never told to list tools again, and is left as it is.
pub(crate) fn declare_list_changed(
    line: &[u8],
    result: Range<usize>,
    state: &State,
    splice: &mut Splice,
) {
    if state.options.structured != Structured::DropIfEquivalent {
        return;
    }
    let Some((spans, _)) = object(line, result.start) else {
        return;
    };
    let Some((caps, _)) =
        find(line, &spans, "capabilities").and_then(|c| object(line, c.value.start))
    else {
        return;
    };
    let Some((tools, end)) = find(line, &caps, "tools").and_then(|t| object(line, t.value.start))
    else {
        return;
    };
    match find(line, &tools, "listChanged") {
        Some(s) if &line[s.value.clone()] == b"true" => {}
        Some(s) => splice.replace(s.value.clone(), b"true".to_vec()),
        None => splice.add_member(&tools, end - 1, br#""listChanged":true"#),
    }
}

/// Edits the `ListToolsResult` whose value spans `result` in `line`.
pub(crate) fn edit(line: &[u8], result: Range<usize>, state: &State, splice: &mut Splice) {
    let opts = &state.options;
    if line.get(result.start) != Some(&b'{') {
        return;
    }
    let Some((spans, _)) = members(line, result.start) else {
        return;
    };
    let Some(tools) = find(line, &spans, "tools") else {
        return;
    };
    let Some((ranges, end)) = elements(line, tools.value.start) else {
        return;
    };
    let more = opts.rewrite.budget.is_some();
    let mut shadowed = Vec::new();
    for (i, range) in ranges.iter().enumerate() {
        if line.get(range.start) != Some(&b'{') {
            continue;
        }
        let Some((tool, _)) = members(line, range.start) else {
            continue;
        };
        let Some(name) =
            find(line, &tool, "name").and_then(|s| string_value(&line[s.value.clone()]))
        else {
            continue;
        };
        if more && name == MORE_TOOL {
            shadowed.push(i);
            continue;
        }
        if opts.structured != Structured::DropIfEquivalent || !opts.tools.allows(&name) {
            continue;
        }
        if let Some(i) = tool
            .iter()
            .position(|s| crate::envelope::key_is(&line[s.key.clone()], "outputSchema"))
            && state.schemas().strip(&name)
        {
            splice.remove_member(&tool, i);
        }
    }
    if !more {
        return;
    }
    remove_elements(&ranges, &shadowed, splice);
    // MCP's last page has no `nextCursor`, or a null one.
    let last_page =
        find(line, &spans, "nextCursor").is_none_or(|s| &line[s.value.clone()] == b"null");
    if !last_page {
        return;
    }
    let kept = (0..ranges.len()).rev().find(|i| !shadowed.contains(i));
    match kept {
        Some(i) => {
            let mut bytes = b",".to_vec();
            bytes.extend_from_slice(tool_definition().as_bytes());
            splice.insert(ranges[i].end, bytes);
        }
        None => splice.insert(end - 1, tool_definition().as_bytes().to_vec()),
    }
}

/// Removes the elements at `gone` (indices into `ranges`, ascending) from
/// their array. Each run of neighbours goes with one separating comma (the
/// one before it, or for a run at the start the one after it), so that the
/// commas left stand between the elements kept and the edits never overlap.
fn remove_elements(ranges: &[Range<usize>], gone: &[usize], splice: &mut Splice) {
    let mut at = 0;
    while let Some(&first) = gone.get(at) {
        let mut last = first;
        at += 1;
        while gone.get(at) == Some(&(last + 1)) {
            last += 1;
            at += 1;
        }
        let range = match (first.checked_sub(1), ranges.get(last + 1)) {
            (Some(before), _) => ranges[before].end..ranges[last].end,
            (None, Some(after)) => ranges[first].start..after.start,
            (None, None) => ranges[first].start..ranges[last].end,
        };
        splice.replace(range, Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use pith::Value;

    #[test]
    fn the_initialize_answer_declares_list_changed() {
        let edit = |result: &str, structured: Structured| {
            let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
            let start = line.find(r#""result":"#).unwrap() + 9;
            let o = Options {
                structured,
                ..Options::default()
            };
            let state = State::new(o, None);
            let mut splice = Splice::default();
            declare_list_changed(line.as_bytes(), start..line.len() - 1, &state, &mut splice);
            let out = String::from_utf8(splice.apply(line.as_bytes())).unwrap();
            out[start..out.len() - 1].to_owned()
        };
        let drop = Structured::DropIfEquivalent;
        for (result, want) in [
            (
                r#"{"capabilities":{"tools":{}},"serverInfo":{"name":"s"}}"#,
                r#"{"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s"}}"#,
            ),
            (
                r#"{"capabilities":{"tools":{"listChanged":false,"x":1}}}"#,
                r#"{"capabilities":{"tools":{"listChanged":true,"x":1}}}"#,
            ),
            (
                r#"{"capabilities":{ "tools" : { "x" : 1 } }}"#,
                r#"{"capabilities":{ "tools" : { "x" : 1,"listChanged":true } }}"#,
            ),
            // Already declared, no tools, or a shape the proxy leaves alone.
            (r#"{"capabilities":{"tools":{"listChanged":true}}}"#, ""),
            (r#"{"capabilities":{"resources":{}}}"#, ""),
            (r#"{"capabilities":{"tools":true}}"#, ""),
            (r#"{"capabilities":{"tools":{},"tools":{}}}"#, ""),
            (r#"[]"#, ""),
        ] {
            let want = if want.is_empty() { result } else { want };
            assert_eq!(edit(result, drop), want);
        }
        // With --structured keep, no list_changed is ever sent.
        let plain = r#"{"capabilities":{"tools":{}}}"#;
        assert_eq!(edit(plain, Structured::Keep), plain);
    }

    /// A budget, so that `pith_more` is the proxy's.
    const BUDGET: Option<usize> = Some(2000);

    /// A server's own `pith_more`, with arguments the proxy does not take.
    const SERVERS_MORE: &str = r#"{"name":"pith_more","description":"the server's own","inputSchema":{"type":"object","properties":{"page":{"type":"integer"}}}}"#;

    fn tool(name: &str) -> String {
        format!(r#"{{"name":"{name}","inputSchema":{{"type":"object"}}}}"#)
    }

    /// The `result` of the `tools/list` answer whose result is `result`, as
    /// the client gets it.
    fn listed(result: &str, budget: Option<usize>) -> Value {
        let mut options = Options::default();
        options.rewrite.budget = budget;
        let state = State::new(options, None);
        let head = r#"{"jsonrpc":"2.0","id":1,"result":"#;
        let line = format!("{head}{result}}}\n");
        let mut splice = Splice::default();
        edit(
            line.as_bytes(),
            head.len()..head.len() + result.len(),
            &state,
            &mut splice,
        );
        let out = String::from_utf8(splice.apply(line.as_bytes())).unwrap();
        let message = pith::json::parse(out.trim_end()).expect("a JSON message");
        message.get("result").cloned().expect("a result")
    }

    fn names(result: &Value) -> Vec<String> {
        tools(result)
            .iter()
            .map(|t| t.get("name").and_then(Value::as_str).unwrap().to_owned())
            .collect()
    }

    fn tools(result: &Value) -> Vec<Value> {
        result
            .get("tools")
            .and_then(Value::as_array)
            .expect("a tools array")
            .to_vec()
    }

    /// Every tool named `pith_more` in `result` is the proxy's.
    fn only_the_proxys_more(result: &Value) {
        let ours = pith::json::parse(tool_definition()).unwrap();
        for t in tools(result) {
            if t.get("name").and_then(Value::as_str) == Some(MORE_TOOL) {
                assert_eq!(t, ours);
            }
        }
    }

    #[test]
    fn a_null_next_cursor_is_the_last_page() {
        let page = |cursor: &str| format!(r#"{{"tools":[{}],"nextCursor":{cursor}}}"#, tool("a"));
        assert_eq!(names(&listed(&page("null"), BUDGET)), ["a", MORE_TOOL]);
        assert_eq!(names(&listed(&page(" null "), BUDGET)), ["a", MORE_TOOL]);
        assert_eq!(names(&listed(&page(r#""2""#), BUDGET)), ["a"]);
        let alone = format!(r#"{{"tools":[{}]}}"#, tool("a"));
        assert_eq!(names(&listed(&alone, BUDGET)), ["a", MORE_TOOL]);
        assert_eq!(names(&listed(&page("null"), None)), ["a"]);
    }

    /// The server lists its own `pith_more` on the first page of two: the
    /// client sees one `pith_more`, the proxy's, on the last page.
    #[test]
    fn pith_more_is_listed_once_across_pages() {
        let first = format!(
            r#"{{"tools":[{SERVERS_MORE},{}],"nextCursor":"2"}}"#,
            tool("a")
        );
        let last = format!(r#"{{"tools":[{}]}}"#, tool("b"));
        let pages = [listed(&first, BUDGET), listed(&last, BUDGET)];
        let all: Vec<String> = pages.iter().flat_map(names).collect();
        assert_eq!(all, ["a", "b", MORE_TOOL]);
        pages.iter().for_each(only_the_proxys_more);
    }

    /// Wherever the server's `pith_more` stands, and however often, the
    /// page stays JSON and lists only the proxy's, on the last page.
    #[test]
    fn the_servers_pith_more_is_shadowed_wherever_it_stands() {
        let (a, b) = (tool("a"), tool("b"));
        let p = SERVERS_MORE;
        let schema = r#"{"name":"c","inputSchema":{},"outputSchema":{"type":"object"}}"#;
        let cases: [(String, &[&str]); 9] = [
            (format!(r#"{{"tools":[{p}]}}"#), &[MORE_TOOL]),
            (format!(r#"{{"tools":[{p}],"nextCursor":"2"}}"#), &[]),
            (
                format!(r#"{{"tools":[{p},{p},{a}],"nextCursor":"2"}}"#),
                &["a"],
            ),
            (format!(r#"{{"tools":[{a},{p},{p}]}}"#), &["a", MORE_TOOL]),
            (
                format!(r#"{{"tools":[{a},{p},{b},{p}]}}"#),
                &["a", "b", MORE_TOOL],
            ),
            (
                format!(r#"{{"tools":[{p},{a},{p},{b}]}}"#),
                &["a", "b", MORE_TOOL],
            ),
            (
                format!("{{\"tools\" : [ {p} ,\n {a} , {p}\n ] }}"),
                &["a", MORE_TOOL],
            ),
            (format!(r#"{{"tools":[{schema},{p}]}}"#), &["c", MORE_TOOL]),
            (r#"{"tools":[]}"#.to_owned(), &[MORE_TOOL]),
        ];
        for (result, want) in cases {
            let got = listed(&result, BUDGET);
            assert_eq!(names(&got), want, "{result}");
            only_the_proxys_more(&got);
        }
        // The schema of a tool the proxy may rewrite is still held back.
        let got = listed(&format!(r#"{{"tools":[{schema},{p}]}}"#), BUDGET);
        assert!(tools(&got)[0].get("outputSchema").is_none());
    }

    /// Without a budget the server's `pith_more` is its own to answer, and
    /// its entry passes untouched.
    #[test]
    fn without_a_budget_the_servers_pith_more_stays() {
        let result = format!(r#"{{"tools":[{SERVERS_MORE},{}]}}"#, tool("a"));
        let got = listed(&result, None);
        assert_eq!(got, pith::json::parse(&result).unwrap());
    }
}

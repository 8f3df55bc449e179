//! The edit of a `tools/list` answer, spliced into the server's bytes:
//! `outputSchema` held back for the tools whose `structuredContent` may be
//! dropped, and `pith_more` added when a budget is set.

use crate::envelope::{Splice, elements, find, members, string_value};
use crate::more::{MORE_TOOL, tool_definition};
use crate::options::Structured;
use crate::state::State;
use std::ops::Range;

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
    let mut has_more = false;
    for range in &ranges {
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
        has_more |= name == MORE_TOOL;
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
    // The last page of a paginated listing carries `pith_more`.
    let last_page = find(line, &spans, "nextCursor").is_none();
    if opts.rewrite.budget.is_some() && last_page && !has_more {
        match ranges.last() {
            Some(r) => {
                let mut bytes = b",".to_vec();
                bytes.extend_from_slice(tool_definition().as_bytes());
                splice.insert(r.end, bytes);
            }
            None => splice.insert(end - 1, tool_definition().as_bytes().to_vec()),
        }
    }
}

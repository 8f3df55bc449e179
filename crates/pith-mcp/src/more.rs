//! `pith_more`: the tool that returns the rest of a result a budget cut.
//!
//! A cut result's receipts hand out cursors (see [`pith::budget`]). The
//! proxy keeps the value they were cut from in memory ([`Store`]) and
//! answers `tools/call` of [`MORE_TOOL`] itself, with the next page, cut to
//! the same budget, whose receipts hand out the next cursors. Following
//! every cursor shows every row exactly once. The memory is bounded: at
//! most [`MORE_MAX_BYTES`] of results (by the length of their JSON text),
//! each kept [`MORE_MAX_AGE`] after it was last used; the oldest go first.
//! An unknown or expired cursor is answered with an `isError` result that
//! says so, never a protocol error.

use crate::options::RewriteOptions;
use crate::rewrite::{BUDGET_META_KEY, Cut, ENCODING_META_KEY};
use crate::rewrite::{Encoding, cut_to_budget, exceeded_notice};
use pith::Value;
use pith::budget::Cursor;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The name of the tool the proxy adds to `tools/list` when a budget is set.
pub const MORE_TOOL: &str = "pith_more";

/// Results kept for `pith_more`, at most, by the length of their JSON text.
pub const MORE_MAX_BYTES: usize = 64 << 20;

/// How long a cut result is kept after its last use.
pub const MORE_MAX_AGE: Duration = Duration::from_secs(30 * 60);

/// The `tools/list` entry of [`MORE_TOOL`], as JSON.
pub(crate) fn tool_definition() -> &'static str {
    concat!(
        r#"{"name":"pith_more","description":"Returns the next part of a tool result that was cut "#,
        r#"to fit the token budget. Pass a cursor from the result's omission receipts "#,
        r#"(a `cursor` under a key ending in `_omitted`); each part names the cursor of the "#,
        r#"part after it. Following every cursor shows every row exactly once.","#,
        r#""inputSchema":{"type":"object","properties":{"cursor":{"type":"string","#,
        r#""description":"A cursor from an omission receipt, such as c0-40-5e0c91aa"}},"#,
        r#""required":["cursor"]}}"#
    )
}

/// Where a cursor leads.
#[derive(Debug, Clone)]
enum Target {
    /// A page of a collection (a cursor from a receipt).
    Page(Cursor),
    /// What no page within the budget could hold (the cursor of an
    /// `output_budget_exceeded` notice): the same output cut to the
    /// smallest budget that holds it.
    Minimum {
        cursor: Option<Cursor>,
        budget: usize,
    },
}

struct Entry {
    id: u64,
    tool: String,
    doc: Arc<Value>,
    bytes: usize,
    used: Instant,
    tokens: Vec<String>,
}

/// Cut results, for `pith_more`.
pub(crate) struct Store {
    entries: VecDeque<Entry>,
    tokens: HashMap<String, (u64, Target)>,
    next: u64,
    bytes: usize,
    max_bytes: usize,
    max_age: Duration,
}

impl Default for Store {
    fn default() -> Self {
        Store::new(MORE_MAX_BYTES, MORE_MAX_AGE)
    }
}

impl Store {
    pub fn new(max_bytes: usize, max_age: Duration) -> Store {
        Store {
            entries: VecDeque::new(),
            tokens: HashMap::new(),
            next: 0,
            bytes: 0,
            max_bytes,
            max_age,
        }
    }

    /// Keeps `doc` (whose JSON text is `bytes` long) from a result of
    /// `tool`; its id.
    pub fn keep(&mut self, tool: &str, doc: Arc<Value>, bytes: usize) -> u64 {
        self.expire(Instant::now());
        self.next += 1;
        self.bytes += bytes;
        self.entries.push_back(Entry {
            id: self.next,
            tool: tool.to_owned(),
            doc,
            bytes,
            used: Instant::now(),
            tokens: Vec::new(),
        });
        // The newest entry stays even when it alone is over the bound: its
        // cursors were just handed out.
        while self.bytes > self.max_bytes && self.entries.len() > 1 {
            self.evict_oldest();
        }
        self.next
    }

    /// Makes the receipts' `cursors` lead to entry `id`.
    pub fn cursors(&mut self, id: u64, cursors: &[String]) {
        for c in cursors {
            if let Ok(cursor) = c.parse::<Cursor>() {
                self.register(id, c.clone(), Target::Page(cursor));
            }
        }
    }

    /// A cursor for the output of entry `id` (or of its page at `cursor`)
    /// cut to `budget`, for an `output_budget_exceeded` notice.
    pub fn minimum(&mut self, id: u64, cursor: Option<Cursor>, budget: usize) -> String {
        let token = format!(
            "m{id}-{}-{budget}",
            cursor.as_ref().map_or(0, Cursor::offset)
        );
        self.register(id, token.clone(), Target::Minimum { cursor, budget });
        token
    }

    fn register(&mut self, id: u64, token: String, target: Target) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.tokens.push(token.clone());
            self.tokens.insert(token, (id, target));
        }
    }

    fn lookup(&mut self, token: &str) -> Option<(u64, String, Arc<Value>, Target)> {
        let now = Instant::now();
        self.expire(now);
        let (id, target) = self.tokens.get(token)?.clone();
        let e = self.entries.iter_mut().find(|e| e.id == id)?;
        e.used = now;
        Some((id, e.tool.clone(), e.doc.clone(), target))
    }

    /// Results held, and the bytes of their JSON text.
    #[cfg(test)]
    pub fn held(&self) -> (usize, usize) {
        (self.entries.len(), self.bytes)
    }

    fn expire(&mut self, now: Instant) {
        let age = self.max_age;
        while self
            .entries
            .iter()
            .any(|e| now.saturating_duration_since(e.used) > age)
        {
            let i = self
                .entries
                .iter()
                .position(|e| now.saturating_duration_since(e.used) > age)
                .unwrap_or(0);
            self.remove(i);
        }
    }

    fn evict_oldest(&mut self) {
        let oldest = self
            .entries
            .iter()
            .enumerate()
            .min_by_key(|(_, e)| e.used)
            .map_or(0, |(i, _)| i);
        self.remove(oldest);
    }

    fn remove(&mut self, i: usize) {
        let Some(e) = self.entries.remove(i) else {
            return;
        };
        self.bytes -= e.bytes;
        for t in e.tokens {
            if self.tokens.get(&t).is_some_and(|(id, _)| *id == e.id) {
                self.tokens.remove(&t);
            }
        }
    }
}

/// What a `pith_more` call returned, for the ledger.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    /// The `CallToolResult` object, as JSON.
    pub result: Vec<u8>,
    /// The page's notation and tokens, when a page was shown.
    pub shown: Option<(Encoding, usize)>,
}

/// The answer to `pith_more` with `arguments` (the call's `arguments`
/// member, if any).
pub(crate) fn answer(
    store: &std::sync::Mutex<Store>,
    arguments: Option<&Value>,
    opts: &RewriteOptions,
) -> Page {
    let Some(token) = arguments
        .and_then(|a| a.get("cursor"))
        .and_then(Value::as_str)
    else {
        return failure(
            "pith_more needs {\"cursor\": \"…\"}: a cursor from an omission receipt of a cut result",
        );
    };
    let found = lock(store).lookup(token);
    let Some((id, _tool, doc, target)) = found else {
        return failure(&format!(
            "unknown or expired cursor `{token}`: pith keeps cut results for {} minutes after \
                 their last use and {} MiB in all; call the original tool again",
            MORE_MAX_AGE.as_secs() / 60,
            MORE_MAX_BYTES >> 20
        ));
    };
    let budget = opts.budget.unwrap_or(usize::MAX);
    let (cursor, budget) = match target {
        Target::Page(c) => (Some(c), budget),
        Target::Minimum { cursor, budget } => (cursor, budget),
    };
    let Some(r) = cut_to_budget(&doc, budget, opts, 0, cursor.clone()) else {
        return failure(&format!(
            "cursor `{token}` does not continue the result it was kept with"
        ));
    };
    match r.cut {
        Some(Cut::Exceeded { minimum, unbounded }) => {
            let again = lock(store).minimum(id, cursor, minimum);
            let text = exceeded_notice(opts, minimum, unbounded, Some(&again));
            failure(&text)
        }
        _ => {
            lock(store).cursors(id, &r.cursors);
            let mut result = Vec::with_capacity(r.text.len() + 96);
            result.extend_from_slice(br#"{"content":[{"type":"text","text":"#);
            pith::json::write_str_into(&r.text, &mut result);
            result.extend_from_slice(
                format!(
                    r#","_meta":{{"{ENCODING_META_KEY}":"{}","{BUDGET_META_KEY}":"cut"}}}}]}}"#,
                    r.encoding.name()
                )
                .as_bytes(),
            );
            Page {
                result,
                shown: Some((r.encoding, r.tokens_after)),
            }
        }
    }
}

impl Page {
    /// The ledger's line for this page (under the tool [`MORE_TOOL`]).
    pub fn record(&self) -> crate::call::Record {
        let (form, tokens) = self.shown.map_or((None, 0), |(f, n)| (Some(f), n));
        crate::call::Record {
            form,
            text_before: tokens,
            text_after: tokens,
            cut: form.map(|_| "page"),
            ..crate::call::Record::default()
        }
    }
}

fn failure(message: &str) -> Page {
    let mut result = Vec::with_capacity(message.len() + 64);
    result.extend_from_slice(br#"{"content":[{"type":"text","text":"#);
    pith::json::write_str_into(message, &mut result);
    result.extend_from_slice(br#"}],"isError":true}"#);
    Page {
        result,
        shown: None,
    }
}

fn lock(store: &std::sync::Mutex<Store>) -> std::sync::MutexGuard<'_, Store> {
    // The store holds no invariant a panic elsewhere could break halfway.
    store.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(n: usize) -> Arc<Value> {
        Arc::new(Value::Array((0..n).map(Value::from).collect()))
    }

    #[test]
    fn the_store_is_bounded_in_size_oldest_first() {
        let mut s = Store::new(100, MORE_MAX_AGE);
        let a = s.keep("t", doc(1), 60);
        s.cursors(a, &["c-1-00000000".into()]);
        let b = s.keep("t", doc(2), 60);
        assert_eq!(s.held(), (1, 60), "the older went");
        assert!(s.lookup("c-1-00000000").is_none());
        s.cursors(b, &["c-1-00000000".into()]);
        assert_eq!(s.lookup("c-1-00000000").map(|x| x.0), Some(b));
        // One result over the bound alone is still kept.
        s.keep("t", doc(3), 500);
        assert_eq!(s.held(), (1, 500));
    }

    #[test]
    fn the_store_forgets_by_age() {
        let mut s = Store::new(MORE_MAX_BYTES, Duration::from_millis(30));
        let a = s.keep("t", doc(1), 10);
        s.cursors(a, &["c-1-00000000".into()]);
        assert!(s.lookup("c-1-00000000").is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(s.lookup("c-1-00000000").is_none());
        assert_eq!(s.held(), (0, 0));
    }

    #[test]
    fn unknown_cursors_are_tool_errors() {
        let store = std::sync::Mutex::new(Store::default());
        let args = pith::json::parse(r#"{"cursor":"c-5-deadbeef"}"#).unwrap();
        let page = answer(&store, Some(&args), &RewriteOptions::default());
        let v = pith::json::parse_bytes(&page.result).unwrap();
        assert_eq!(v.get("isError"), Some(&Value::Bool(true)));
        let text = v.get("content").and_then(|c| c.as_array()).unwrap()[0]
            .get("text")
            .and_then(Value::as_str)
            .unwrap()
            .to_owned();
        assert!(
            text.contains("unknown or expired cursor `c-5-deadbeef`"),
            "{text}"
        );
        let page = answer(&store, None, &RewriteOptions::default());
        assert!(String::from_utf8_lossy(&page.result).contains("needs {"));
    }
}

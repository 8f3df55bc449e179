//! Which client requests are waiting for an answer, and what each answer
//! is: the state both directions of the proxy share.
//!
//! Every client→server request is recorded (so that the server's death can
//! be answered with an error for each), and removed when its response comes
//! back or when the client cancels it. Task-augmented `tools/call`s also
//! record which tool a task id belongs to, so that the `tasks/result` that
//! fetches the task's result is rewritten by the same tool rules.

use crate::envelope::{Envelope, Frame, scan, string_value};
use crate::more::MORE_TOOL;
use pith::Value;
use std::collections::{HashMap, VecDeque};
use std::ops::Range;

/// How many task ids are remembered; older ones are forgotten first (their
/// results then pass untouched).
const MAX_TASKS: usize = 4096;

/// What the proxy should do with a message from the server; the edits
/// carry the span of the message's `result` value in its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// Forward it as it is.
    Forward,
    /// It answers a `tools/call` or `tasks/result` of this tool: rewrite its
    /// result if the policy allows.
    CallResult(String, Range<usize>),
    /// It answers a task-augmented `tools/call` of this tool: remember the
    /// task id (or, if the server ran the call without a task, treat it as
    /// a call result).
    TaskCreated(String, Range<usize>),
    /// It answers `tools/list`.
    ToolList(Range<usize>),
    /// It answers `initialize`.
    Initialize(Range<usize>),
}

/// A `tools/call` of `pith_more`, which the proxy answers itself.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MoreCall {
    /// The id exactly as the client wrote it.
    pub raw_id: Vec<u8>,
    /// The call's `arguments`.
    pub arguments: Option<Value>,
}

/// A request that has not been answered yet.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    /// The id exactly as the client wrote it (JSON text).
    pub raw_id: Vec<u8>,
    /// Arrival order, to fail pending requests in the order they came.
    pub seq: u64,
    call: Call,
}

#[derive(Debug, Clone)]
enum Call {
    Tool { name: String, task: bool },
    TaskResult { tool: Option<String> },
    ToolList,
    Initialize,
    Other,
}

/// The shared routing state.
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    /// Keyed by the id's canonical JSON text, so `1` and `1.0` meet; a list
    /// in case a client reuses an id that is still in flight.
    pending: HashMap<String, VecDeque<Pending>>,
    seq: u64,
    tasks: HashMap<String, String>,
    task_order: VecDeque<String>,
    /// Whether `pith_more` calls are the proxy's to answer.
    more: bool,
}

impl Tracker {
    /// A tracker; with `more`, `tools/call`s of `pith_more` are the proxy's.
    pub fn new(more: bool) -> Tracker {
        Tracker {
            more,
            ..Tracker::default()
        }
    }

    /// Records the requests and cancellations on a line from the client;
    /// a `pith_more` call (a single message, when `more` is on) is handed
    /// back instead, for the proxy to answer.
    pub fn client_line(&mut self, line: &[u8]) -> Option<MoreCall> {
        match scan(line) {
            Frame::Single(env) => {
                if self.more
                    && let Some(call) = more_call(&env)
                {
                    return Some(call);
                }
                self.client_message(&env);
            }
            Frame::Batch(envs) => envs.iter().for_each(|env| self.client_message(env)),
            Frame::Opaque => {}
        }
        None
    }

    /// Decides what to do with each message of a line from the server
    /// (one, or the members of a batch, in order), clearing the pending
    /// entries they answer; `None` when the whole line is forwarded.
    pub fn server_line(&mut self, line: &[u8]) -> Option<Vec<Action>> {
        let actions = match scan(line) {
            Frame::Single(env) => match self.server_message(&env) {
                Action::Forward => return None,
                a => vec![a],
            },
            Frame::Batch(envs) => envs.iter().map(|env| self.server_message(env)).collect(),
            Frame::Opaque => return None,
        };
        actions
            .iter()
            .any(|a| *a != Action::Forward)
            .then_some(actions)
    }

    /// Remembers that task `task_id` runs the tool `tool`.
    pub fn task_created(&mut self, task_id: String, tool: String) {
        if self.tasks.insert(task_id.clone(), tool).is_none() {
            self.task_order.push_back(task_id);
            while self.task_order.len() > MAX_TASKS {
                if let Some(old) = self.task_order.pop_front() {
                    self.tasks.remove(&old);
                }
            }
        }
    }

    /// Takes every pending request out, oldest first.
    pub fn drain(&mut self) -> Vec<Pending> {
        let mut all: Vec<Pending> = self.pending.drain().flat_map(|(_, q)| q).collect();
        all.sort_by_key(|p| p.seq);
        all
    }

    /// How many requests wait for an answer.
    #[cfg(test)]
    pub fn pending_len(&self) -> usize {
        self.pending.values().map(VecDeque::len).sum()
    }

    fn client_message(&mut self, env: &Envelope<'_>) {
        let Some(method) = env.method.and_then(string_value) else {
            return;
        };
        match env.id {
            Some(raw_id) => {
                let Some(key) = id_key(raw_id) else { return };
                let call = self.classify(&method, env.span);
                self.seq += 1;
                self.pending.entry(key).or_default().push_back(Pending {
                    raw_id: raw_id.to_vec(),
                    seq: self.seq,
                    call,
                });
            }
            None if method == "notifications/cancelled" => {
                // A cancelled request may never be answered (the spec tells
                // the server not to), so it must not wait for one here.
                let key =
                    params(env.span).and_then(|p| p.get("requestId").map(pith::json::stringify));
                if let Some(key) = key {
                    self.take(&key);
                }
            }
            None => {}
        }
    }

    fn classify(&self, method: &str, span: &[u8]) -> Call {
        match method {
            "tools/call" => {
                let Some(p) = params(span) else {
                    return Call::Other;
                };
                match p.get("name").and_then(Value::as_str) {
                    Some(name) => Call::Tool {
                        name: name.to_owned(),
                        task: p.get("task").is_some(),
                    },
                    None => Call::Other,
                }
            }
            "tasks/result" => {
                let tool = params(span)
                    .and_then(|p| p.get("taskId").and_then(Value::as_str).map(str::to_owned))
                    .and_then(|id| self.tasks.get(&id).cloned());
                Call::TaskResult { tool }
            }
            "tools/list" => Call::ToolList,
            "initialize" => Call::Initialize,
            _ => Call::Other,
        }
    }

    fn server_message(&mut self, env: &Envelope<'_>) -> Action {
        if env.method.is_some() {
            return Action::Forward;
        }
        let Some(key) = env.id.and_then(id_key) else {
            return Action::Forward;
        };
        let Some(pending) = self.take(&key) else {
            return Action::Forward;
        };
        let Some(result) = env.result.clone() else {
            return Action::Forward;
        };
        match pending.call {
            Call::Tool { name, task: false } => Action::CallResult(name, result),
            Call::Tool { name, task: true } => Action::TaskCreated(name, result),
            Call::TaskResult { tool: Some(name) } => Action::CallResult(name, result),
            Call::ToolList => Action::ToolList(result),
            Call::Initialize => Action::Initialize(result),
            Call::TaskResult { tool: None } | Call::Other => Action::Forward,
        }
    }

    fn take(&mut self, key: &str) -> Option<Pending> {
        let queue = self.pending.get_mut(key)?;
        let first = queue.pop_front();
        if queue.is_empty() {
            self.pending.remove(key);
        }
        first
    }
}

/// The message as a `pith_more` call, if it is one.
fn more_call(env: &Envelope<'_>) -> Option<MoreCall> {
    let raw_id = env.id?;
    if env.method.and_then(string_value).as_deref() != Some("tools/call") {
        return None;
    }
    let mut p = params(env.span)?;
    if p.get("name").and_then(Value::as_str) != Some(MORE_TOOL) {
        return None;
    }
    id_key(raw_id)?;
    Some(MoreCall {
        raw_id: raw_id.to_vec(),
        arguments: p.remove("arguments"),
    })
}

/// The canonical text of a request id: ids are strings or numbers.
fn id_key(raw: &[u8]) -> Option<String> {
    match pith::json::parse_bytes(raw).ok()? {
        v @ (Value::String(_) | Value::Number(_)) => Some(pith::json::stringify(&v)),
        _ => None,
    }
}

/// The `params` object of a message, parsed exactly.
fn params(span: &[u8]) -> Option<pith::Map> {
    let mut m = pith::json::parse_bytes(span).ok()?.into_object().ok()?;
    m.remove("params")?.into_object().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first action for a server line, in words; each edit's span is
    /// the message's `result` object.
    fn act(t: &mut Tracker, line: &[u8]) -> String {
        let Some(actions) = t.server_line(line) else {
            return "forward".into();
        };
        let (word, span) = match &actions[0] {
            Action::Forward => return "forward".into(),
            Action::CallResult(n, r) => (format!("call {n}"), r),
            Action::TaskCreated(n, r) => (format!("task {n}"), r),
            Action::ToolList(r) => ("tools".into(), r),
            Action::Initialize(r) => ("initialize".into(), r),
        };
        assert_eq!(line[span.start], b'{', "{word}");
        assert_eq!(line[span.end - 1], b'}', "{word}");
        word
    }

    fn call(id: &str, name: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}"#
        )
    }

    #[test]
    fn tool_call_answers_are_routed_to_their_tool() {
        let mut t = Tracker::default();
        t.client_line(call("1", "read_graph").as_bytes());
        t.client_line(call("\"x\"", "search_nodes").as_bytes());
        t.client_line(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
        assert_eq!(t.pending_len(), 3);
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":"x","result":{"content":[]}}"#
            ),
            "call search_nodes"
        );
        assert_eq!(
            act(&mut t, br#"{"jsonrpc":"2.0","id":2,"result":{}}"#),
            "forward"
        );
        // The same id answered twice: the second answer finds nothing.
        assert_eq!(
            act(&mut t, br#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#),
            "call read_graph"
        );
        assert_eq!(
            act(&mut t, br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            "forward"
        );
        assert_eq!(t.pending_len(), 0);
    }

    #[test]
    fn errors_and_server_requests_are_forwarded() {
        let mut t = Tracker::default();
        t.client_line(call("5", "x").as_bytes());
        // A server→client request with the same id is not an answer.
        assert_eq!(
            act(&mut t, br#"{"jsonrpc":"2.0","id":5,"method":"roots/list"}"#),
            "forward"
        );
        assert_eq!(t.pending_len(), 1);
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}"#
            ),
            "forward"
        );
        assert_eq!(t.pending_len(), 0);
    }

    #[test]
    fn cancellation_clears_the_request() {
        let mut t = Tracker::default();
        t.client_line(call("9", "x").as_bytes());
        t.client_line(
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#,
        );
        assert_eq!(t.pending_len(), 0);
    }

    #[test]
    fn tasks_carry_their_tool_to_tasks_result() {
        let mut t = Tracker::default();
        t.client_line(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"research","task":{"ttl":1000}}}"#,
        );
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t-1"}}}"#
            ),
            "task research"
        );
        t.task_created("t-1".into(), "research".into());
        t.client_line(
            br#"{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"t-1"}}"#,
        );
        t.client_line(
            br#"{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"other"}}"#,
        );
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":2,"result":{"content":[]}}"#
            ),
            "call research"
        );
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#
            ),
            "forward"
        );
    }

    #[test]
    fn task_memory_is_bounded() {
        let mut t = Tracker::default();
        for i in 0..MAX_TASKS + 10 {
            t.task_created(format!("t{i}"), "x".into());
        }
        assert_eq!(t.tasks.len(), MAX_TASKS);
        assert!(!t.tasks.contains_key("t0"));
        assert!(t.tasks.contains_key(&format!("t{}", MAX_TASKS + 9)));
    }

    #[test]
    fn batches_are_tracked_and_drained_in_order() {
        let mut t = Tracker::default();
        t.client_line(
            format!(
                "[{},{},{}]",
                call("1", "a"),
                call("2", "b"),
                r#"{"method":"n"}"#
            )
            .as_bytes(),
        );
        t.client_line(call("3", "c").as_bytes());
        assert_eq!(t.pending_len(), 3);
        // Batched answers are routed like single ones.
        assert_eq!(
            act(&mut t, br#"[{"jsonrpc":"2.0","id":2,"result":{}}]"#),
            "call b"
        );
        let ids: Vec<Vec<u8>> = t.drain().into_iter().map(|p| p.raw_id).collect();
        assert_eq!(ids, vec![b"1".to_vec(), b"3".to_vec()]);
    }

    #[test]
    fn tools_list_is_recognised() {
        let mut t = Tracker::default();
        t.client_line(br#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#);
        assert_eq!(
            act(
                &mut t,
                br#"{"jsonrpc":"2.0","id":"l","result":{"tools":[]}}"#
            ),
            "tools"
        );
    }
}

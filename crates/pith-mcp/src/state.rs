//! What both directions of the proxy share beyond the request tracker:
//! the options, which tools' `outputSchema` the client has, the results
//! kept for `pith_more`, and the savings ledger.

use crate::ledger::Ledger;
use crate::more::Store;
use crate::options::Options;
use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

/// The proxy's shared state.
pub(crate) struct State {
    pub options: Options,
    schemas: Mutex<Schemas>,
    store: Mutex<Store>,
    pub ledger: Option<Ledger>,
}

impl State {
    pub fn new(options: Options, ledger: Option<Ledger>) -> State {
        State {
            options,
            schemas: Mutex::new(Schemas::default()),
            store: Mutex::new(Store::default()),
            ledger,
        }
    }

    pub fn schemas(&self) -> MutexGuard<'_, Schemas> {
        lock(&self.schemas)
    }

    pub fn store(&self) -> MutexGuard<'_, Store> {
        lock(&self.store)
    }

    pub fn store_mutex(&self) -> &Mutex<Store> {
        &self.store
    }
}

/// Which tools' `outputSchema` the proxy holds back from the client.
///
/// `tools/list` is answered before any result of a tool is seen, so the
/// schema of every tool the proxy may rewrite is held back (a validating
/// client would refuse a result whose `structuredContent` was dropped).
/// Once a result of a tool shows a `structuredContent` that no text item
/// holds, nothing of that tool's will be dropped: its schema is forwarded
/// from then on, and the client is told to list the tools again.
#[derive(Debug, Default)]
pub(crate) struct Schemas {
    stripped: HashSet<String>,
    kept: HashSet<String>,
}

impl Schemas {
    /// Whether `tool`'s `outputSchema` is held back (it then is, from now).
    pub fn strip(&mut self, tool: &str) -> bool {
        if self.kept.contains(tool) {
            return false;
        }
        self.stripped.insert(tool.to_owned());
        true
    }

    /// Whether a result of `tool` may lose its `structuredContent`: the
    /// client never got the tool's `outputSchema` from the proxy.
    pub fn may_drop(&self, tool: &str) -> bool {
        !self.kept.contains(tool)
    }

    /// `tool` keeps its `structuredContent` from now on; whether the
    /// client holds a listing without its schema (and should list again).
    pub fn keep(&mut self, tool: &str) -> bool {
        self.kept.insert(tool.to_owned()) && self.stripped.contains(tool)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Neither holds an invariant a panic elsewhere could break halfway.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

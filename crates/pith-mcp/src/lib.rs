//! `pith mcp`: a transparent, lossless proxy in front of any MCP server
//! (stdio, or remote over streamable HTTP) that re-encodes the JSON text of
//! tool results in fewer tokens.
//!
//! This is the only crate of pith that knows JSON-RPC and MCP.
//!
//! # What it does
//!
//! [`run`] starts the server as a child process ([`run_remote`] speaks to
//! a [`Remote`] URL instead; [`serve`] and [`serve_remote`] are the same
//! inside a caller's tokio runtime, between streams it hands over) and moves newline-delimited JSON-RPC between
//! pith's stdin/stdout and the server, both ways. Every message is
//! forwarded byte for byte except these, whose edits are spliced into the
//! server's bytes (nothing else of the message changes):
//!
//! * the result of a `tools/call` (or of the `tasks/result` that fetches a
//!   task-augmented call's result), alone or in a batch: each `text`
//!   content item whose text is a JSON object or array is passed to
//!   [`rewrite_text`]'s path, and replaced when a cheaper text decodes back
//!   to exactly the same value (the item's `_meta` names the encoding
//!   under [`ENCODING_META_KEY`]), or cut to the budget with receipts whose
//!   cursors [`MORE_TOOL`] follows;
//! * with [`Structured::DropIfEquivalent`] (the default),
//!   `structuredContent` that the text holds exactly, and `outputSchema`
//!   in `tools/list` for the tools whose results may lose it;
//! * `tools/list`, which gains [`MORE_TOOL`] on its last page when a
//!   budget is set (a server's own tool of that name is taken out); the
//!   proxy answers that tool's calls itself.
//!
//! Images, audio, embedded resources, resource links, unknown content types,
//! `isError` results (unless [`Options::rewrite_errors`]), notifications,
//! server requests, errors and unknown fields pass untouched, and so does a
//! line that is not JSON. The proxy takes no part in version negotiation.
//! [`ledger`] records what each result saved; [`install`] wraps the servers
//! of a client's configuration.
//!
//! # Faults
//!
//! The child's stderr is pith's stderr. Requests left unanswered when the
//! child exits or the client closes stdin get a JSON-RPC error
//! ([`SERVER_GONE_CODE`]) and pith exits non-zero (see [`run`]); each
//! starts a line of its own, even after server bytes that lack their
//! newline. When the client closes stdin, the child's stdin is closed; a
//! child that does not exit within [`Options::shutdown_grace`] gets
//! SIGTERM, then SIGKILL.
//! SIGTERM, SIGINT and SIGHUP are sent on as they came.

mod call;
mod envelope;
mod http;
pub mod install;
pub mod ledger;
mod more;
mod options;
mod proxy;
mod rewrite;
mod state;
mod tools;
mod track;

pub use call::JOINED_META_KEY;
pub use http::{Remote, RemoteError};
pub use more::{MORE_MAX_AGE, MORE_MAX_BYTES, MORE_TOOL};
pub use options::{
    DEFAULT_BUDGET, DEFAULT_EXCLUDES, DEFAULT_MAX_BYTES, DEFAULT_MIN_SAVING, Options,
    RewriteOptions, Structured, ToolFilter, server_name,
};
pub use proxy::{SERVER_GONE_CODE, run, run_remote, serve, serve_remote};
pub use rewrite::{
    BUDGET_META_KEY, Cut, ENCODING_META_KEY, Encoding, MIN_BUDGET, MORE_HINT, Rewritten,
    STRUCTURED_KEY_META_KEY, STRUCTURED_META_KEY, rewrite_text,
};

use std::fmt;

/// Why the proxy could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The server command could not be started.
    Spawn {
        /// The command as given.
        command: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The child's stdin or stdout could not be captured.
    Pipes,
    /// The async runtime could not be built.
    Runtime(std::io::Error),
    /// The remote server cannot be used (`--url`).
    Remote(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spawn { command, source } => {
                write!(f, "cannot start the MCP server `{command}`: {source}")
            }
            Error::Pipes => f.write_str("cannot connect to the MCP server's stdin and stdout"),
            Error::Runtime(e) => write!(f, "cannot start the I/O runtime: {e}"),
            Error::Remote(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } | Error::Runtime(source) => Some(source),
            Error::Pipes | Error::Remote(_) => None,
        }
    }
}

//! What the Python and Node.js packages of pith share.
//!
//! Each package is a thin layer: it turns its language's values into a
//! [`pith::Value`] and back, and its keyword arguments into an
//! [`EncodeArgs`]. Everything between (the options and how they are
//! checked, budgets, measuring, the MCP rewrite, how a decoded number is
//! handed to the caller, the JSON paths in messages) lives here, once, so
//! both packages say and do the same thing.
//!
//! * [`decode`]: reading every form, as the library reads them.
//! * [`events`]: TOON text read into a flat list of events, without a
//!   value, for the documents whose rules are simple; the rest goes to
//!   the library.
//! * [`options`]: the keyword arguments of `encode`, checked, as the
//!   library's options; [`options::encode`] and [`options::fit`] run them.
//! * [`number`]: a decoded number as an integer's digits, or as its
//!   canonical text, for the languages' own number types.
//! * [`path`]: JSON paths as pith's messages write them.
//! * [`measure`]: every form's size, as `pith measure --json` reports it.
//! * [`mcp`]: a tool result's text as `pith mcp` would rewrite it.
//! * [`input`]: a value as a flat tape of operations, doubles and text,
//!   which a package writes without making a value, and [`input::read`]
//!   turns into one; [`op`] holds the codes of its operations.
//! * [`direct`]: `format="toon"` written straight from such a tape, for
//!   the layouts whose rules are simple.
//! * [`sink`]: a decoded value as a stream of events, which a package turns
//!   into its language's values; [`read`] reads TOON straight into one,
//!   for the documents whose rules are simple, and
//!   [`decode::decode_into`] reads any text into one.
//! * [`drop_later`]: frees a large value on a background thread.

pub mod decode;
pub mod direct;
pub mod events;
pub mod input;
pub mod mcp;
pub mod measure;
pub mod number;
pub mod op;
pub mod options;
pub mod path;
pub mod read;
pub mod sink;

use std::sync::OnceLock;
use std::sync::mpsc::{Sender, channel};

pub use options::{ArgError, Budget, EncodeArgs, Failure, FitReport, Output, Plan};

/// Values whose source text (or whose count of members) is at least this
/// many bytes are freed on a background thread: dropping a 50,000-row
/// table takes longer than encoding it, and the caller does not wait for it.
pub const DROP_LATER_BYTES: usize = 1 << 16;

/// Frees `value` on a background thread, so the caller does not wait for a
/// large tree's allocations to be returned; freed at once if that thread
/// cannot be started.
pub fn drop_later<T: Send + 'static>(value: T) {
    type Job = Box<dyn Send>;
    static DROPPER: OnceLock<Option<std::sync::Mutex<Sender<Job>>>> = OnceLock::new();
    let dropper = DROPPER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("pith-drop".into())
            .spawn(move || rx.into_iter().for_each(drop))
            .ok()
            .map(|_| std::sync::Mutex::new(tx))
    });
    let job: Job = Box::new(value);
    let Some(tx) = dropper else { return };
    let Ok(tx) = tx.lock() else { return };
    // A send fails only if the thread is gone; the job then drops here.
    let _ = tx.send(job);
}

//! The stdio plumbing: two pumps, one writer, the child's life, and the
//! exit status.
//!
//! ```text
//!  client stdin ──pump_client──▶ child stdin     (records requests; bytes as read;
//!                    │                            answers pith_more itself)
//!  client stdout ◀─writer◀─pump_server── child stdout  (rewrites results)
//!  child stderr ───────────────▶ pith's stderr   (inherited, never read)
//! ```
//!
//! Everything for the client goes through one writer task, in the order
//! it is handed over, and is flushed when nothing more is waiting, so a
//! burst of messages costs one write and a lone message is not held back.
//! Each message handed over starts a line of its own: the server's last
//! bytes may lack their newline (it exited, or died mid-write), and what
//! comes after them (an error for each request left unanswered, say) would
//! otherwise be glued to them, and both lost to the client's parser.
//! A line that needs a long rewrite (at least [`OFFLOAD`] bytes) is
//! rewritten on the blocking pool and handed to the writer when done;
//! the lines behind it do not wait for it (a `ping` answered after a 2 MB
//! result is not delayed by its rewrite). Such results keep their order
//! among themselves only as far as their rewrites finish in order; every
//! answer is a JSON-RPC response matched by its id, so no client depends
//! on more.

use crate::Error;
use crate::envelope::Splice;
use crate::more;
use crate::options::Options;
use crate::state::State;
use crate::track::{Action, MoreCall, Tracker};
use std::ffi::{OsStr, OsString};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter,
};
use tokio::process::{Child, Command};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep_until, timeout};

/// Buffer size of each pump's reader and writer.
const BUF: usize = 64 << 10;

/// Lines at least this long are rewritten on the blocking pool, so a large
/// result never stalls the lines behind it.
pub(crate) const OFFLOAD: usize = 64 << 10;

/// A line buffer that grew past this is given back after use, so one huge
/// message does not pin its memory for the rest of the session.
const KEEP: usize = 4 << 20;

/// JSON-RPC error code for requests the server can no longer answer: the
/// implementation-defined range, the value the official SDK uses for a
/// closed connection.
pub const SERVER_GONE_CODE: i64 = -32000;

/// The notification that tells the client to list the tools again.
const LIST_CHANGED: &[u8] =
    b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n";

/// Starts `command` with `args` as the MCP server and proxies this
/// process's stdin and stdout to it until either side ends; returns the
/// exit status pith should exit with.
///
/// The status is the server's own: its exit code, or 128 + the signal that
/// ended it. It is 1 instead of 0 when requests were left unanswered (each
/// of those got an error response first), whether the server exited or
/// the client closed stdin while waiting.
///
/// `run` blocks on a runtime of its own; [`serve`] is the same proxy inside
/// the caller's tokio runtime.
pub fn run(command: &OsStr, args: &[OsString], options: &Options) -> Result<u8, Error> {
    on_stdio(|client_in, client_out| serve(command, args, options, client_in, client_out))
}

/// The proxy of [`run`] as a future, for a caller that already has a tokio
/// runtime: starts `command` with `args` as the MCP server and moves
/// newline-delimited JSON-RPC between the client's side (`client_in`, what
/// the client sends; `client_out`, where its answers go) and the server
/// until either side ends. Returns the status [`run`] would return.
///
/// The runtime must have I/O and time enabled (`enable_all`), as a process
/// child and signals need them; the proxy spawns its tasks on it and runs
/// long rewrites on its blocking pool. SIGTERM, SIGINT and SIGHUP received
/// by the process while it runs are passed on to the server, as with `run`.
/// Given `tokio::io::stdin()`, note that tokio reads stdin on a blocking
/// thread that may outlive the proxy (`run` shuts its runtime down in the
/// background for that reason).
pub async fn serve<I, O>(
    command: &OsStr,
    args: &[OsString],
    options: &Options,
    client_in: I,
    client_out: O,
) -> Result<u8, Error>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let state = Arc::new(State::new(
        options.clone(),
        options.open_ledger(command, args),
    ));
    let child = Command::new(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|source| Error::Spawn {
            command: command.to_string_lossy().into_owned(),
            source,
        })?;
    proxy(client_in, client_out, child, state).await
}

/// Proxies this process's stdin and stdout to the remote MCP server
/// `remote` over streamable HTTP (see [`Remote`](crate::Remote)) until the client
/// closes stdin or a signal arrives; returns the exit status pith should
/// exit with: 0, 1 when requests were left unanswered, or 128 + the
/// signal. [`serve_remote`] is the same inside the caller's runtime.
pub fn run_remote(remote: &crate::Remote, options: &Options) -> Result<u8, Error> {
    on_stdio(|client_in, client_out| serve_remote(remote, options, client_in, client_out))
}

/// The proxy of [`run_remote`] as a future, inside the caller's tokio
/// runtime, between the client's side (`client_in`, `client_out`) and
/// `remote`; the runtime needs what [`serve`] says.
pub async fn serve_remote<I, O>(
    remote: &crate::Remote,
    options: &Options,
    client_in: I,
    client_out: O,
) -> Result<u8, Error>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let name = options.name.clone().unwrap_or_else(|| {
        remote
            .url
            .parse::<hyper::Uri>()
            .ok()
            .and_then(|u| u.host().map(str::to_owned))
            .unwrap_or_else(|| remote.url.clone())
    });
    let mut named = options.clone();
    named.name = Some(name);
    let state = Arc::new(State::new(
        named.clone(),
        named.open_ledger(OsStr::new(""), &[]),
    ));
    remote_proxy(remote, client_in, client_out, state).await
}

/// Runs `proxy` between this process's stdin and stdout on a
/// current-thread runtime of its own: the blocking entry points.
fn on_stdio<F>(proxy: impl FnOnce(tokio::io::Stdin, tokio::io::Stdout) -> F) -> Result<u8, Error>
where
    F: std::future::Future<Output = Result<u8, Error>>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let result = runtime.block_on(proxy(tokio::io::stdin(), tokio::io::stdout()));
    // A read of pith's stdin may still be blocked in the runtime's thread
    // pool; it must not keep the process alive.
    runtime.shutdown_background();
    result
}

async fn remote_proxy<I, O>(
    remote: &crate::Remote,
    client_in: I,
    client_out: O,
    state: Arc<State>,
) -> Result<u8, Error>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (to_link, link_in) = tokio::io::duplex(BUF);
    let (mut link_out, from_link) = tokio::io::duplex(BUF);
    let (lines, mut lines_rx) = unbounded_channel::<Vec<u8>>();
    let link = crate::http::Link::new(remote, lines).map_err(|e| Error::Remote(e.0))?;
    let more = state.options.rewrite.budget.is_some();
    let tracker = Arc::new(Mutex::new(Tracker::new(more)));
    let (out, out_rx) = unbounded_channel();
    let writer = tokio::spawn(write_client(client_out, out_rx));
    let upstream = tokio::spawn(pump_client(
        client_in,
        to_link,
        tracker.clone(),
        state.clone(),
        out.clone(),
    ));
    let grace = state.options.shutdown_grace;
    let mut link_task = tokio::spawn(link.run(link_in, grace));
    // The link's lines become a byte stream for the same pump as a child's.
    tokio::spawn(async move {
        while let Some(line) = lines_rx.recv().await {
            if link_out.write_all(&line).await.is_err() {
                break;
            }
        }
    });
    let mut signals = Signals::new();
    let mut signalled: Option<u8> = None;
    {
        let downstream = pump_server(from_link, out.clone(), tracker.clone(), state.clone());
        tokio::pin!(downstream);
        let mut link_done = false;
        loop {
            tokio::select! {
                () = &mut downstream => break,
                _ = &mut link_task, if !link_done => link_done = true,
                sig = signals.recv() => {
                    signalled.get_or_insert(signal_number(sig));
                    // Stopping the client's pump ends the link: the
                    // session is ended and the stream closes.
                    upstream.abort();
                }
            }
        }
    }
    upstream.abort();
    let unanswered = lock(&tracker).drain();
    for pending in &unanswered {
        let _ = out.send(error_response(
            &pending.raw_id,
            "pith stopped before the remote MCP server answered",
        ));
    }
    drop(out);
    let _ = writer.await;
    Ok(match signalled {
        Some(sig) => 128u8.saturating_add(sig),
        None => u8::from(!unanswered.is_empty()),
    })
}

#[cfg(unix)]
fn signal_number(sig: Received) -> u8 {
    u8::try_from(sig.as_raw()).unwrap_or(1)
}

#[cfg(not(unix))]
fn signal_number(_: Received) -> u8 {
    1
}

/// Why the client→server pump stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Upstream {
    /// The client closed pith's stdin (or it became unreadable).
    ClientClosed,
    /// The server's stdin no longer takes bytes.
    ServerGone,
}

async fn proxy<I, O>(
    client_in: I,
    client_out: O,
    mut child: Child,
    state: Arc<State>,
) -> Result<u8, Error>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(Error::Pipes);
    };
    let more = state.options.rewrite.budget.is_some();
    let tracker = Arc::new(Mutex::new(Tracker::new(more)));
    let (out, out_rx) = unbounded_channel();
    let writer = tokio::spawn(write_client(client_out, out_rx));
    let mut upstream = tokio::spawn(pump_client(
        client_in,
        child_in,
        tracker.clone(),
        state.clone(),
        out.clone(),
    ));
    let mut signals = Signals::new();

    let grace = state.options.shutdown_grace;
    let mut upstream_done = false;
    let mut stage = Stage::Running;
    let mut escalate_at: Option<Instant> = None;
    let mut status: Option<Option<ExitStatus>> = None;
    let mut drain_until: Option<Instant> = None;
    {
        let downstream = pump_server(child_out, out.clone(), tracker.clone(), state.clone());
        tokio::pin!(downstream);
        loop {
            tokio::select! {
                () = &mut downstream => break,
                how = &mut upstream, if !upstream_done => {
                    upstream_done = true;
                    // The MCP stdio shutdown: stdin closed, then a grace
                    // period before SIGTERM, another before SIGKILL.
                    if how.unwrap_or(Upstream::ClientClosed) == Upstream::ClientClosed
                        && status.is_none()
                    {
                        escalate_at.get_or_insert(Instant::now() + grace);
                    }
                }
                sig = signals.recv() => {
                    // pith was told to stop: so is the server, at once and
                    // by the same signal; SIGKILL follows a grace period
                    // later if it has not exited by then.
                    if stage == Stage::Running && status.is_none() {
                        forward(&mut child, sig);
                        stage = Stage::Terminated;
                        escalate_at = Some(Instant::now() + grace);
                    }
                }
                exited = child.wait(), if status.is_none() => {
                    status = Some(exited.ok());
                    escalate_at = None;
                    // A process the server left behind may hold its stdout
                    // open; what it has not written by then is not waited for.
                    drain_until = Some(Instant::now() + grace);
                }
                () = sleep_until(escalate_at.unwrap_or_else(Instant::now)), if escalate_at.is_some() => {
                    stage = stage.escalate(&mut child);
                    escalate_at = (stage != Stage::Killed).then(|| Instant::now() + grace);
                }
                () = sleep_until(drain_until.unwrap_or_else(Instant::now)), if drain_until.is_some() => {
                    break;
                }
            }
        }
    }
    // Closes the server's stdin if the client has not.
    upstream.abort();
    let status = match status {
        Some(status) => status,
        None => reap(&mut child, grace, stage).await,
    };

    let unanswered = lock(&tracker).drain();
    if !unanswered.is_empty() {
        let message = format!(
            "the MCP server exited before answering ({})",
            describe(status.as_ref())
        );
        for pending in &unanswered {
            // The client may be gone too; there is no one left to tell.
            let _ = out.send(error_response(&pending.raw_id, &message));
        }
    }
    drop(out);
    // Waits for the last bytes to reach the client (or the client to go).
    let _ = writer.await;
    Ok(exit_code(status.as_ref(), !unanswered.is_empty()))
}

/// Writes what the pumps hand over to the client, in order, flushing when
/// nothing more is waiting; ends when every sender is gone or the client
/// stops taking bytes.
///
/// Every message handed over is a whole line but the server's last, which
/// ends where the server stopped writing. A message after that one (the
/// proxy's own errors and answers, a rewrite that finished later) gets a
/// newline first, so that it is never glued to the server's bytes; nothing
/// is added when nothing follows them.
async fn write_client<O>(client_out: O, mut rx: UnboundedReceiver<Vec<u8>>)
where
    O: AsyncWrite + Unpin,
{
    let mut w = BufWriter::with_capacity(BUF, client_out);
    let mut line_open = false;
    while let Some(bytes) = rx.recv().await {
        if bytes.is_empty() {
            // Nothing to write, and no line it could end.
            continue;
        }
        if line_open && w.write_all(b"\n").await.is_err() {
            return;
        }
        line_open = !bytes.ends_with(b"\n");
        if w.write_all(&bytes).await.is_err() {
            return;
        }
        if rx.is_empty() && w.flush().await.is_err() {
            return;
        }
    }
    let _ = w.flush().await;
}

async fn pump_client<I, W>(
    client_in: I,
    child_in: W,
    tracker: Arc<Mutex<Tracker>>,
    state: Arc<State>,
    out: UnboundedSender<Vec<u8>>,
) -> Upstream
where
    I: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(BUF, client_in);
    let mut writer = BufWriter::with_capacity(BUF, child_in);
    let mut line = Vec::new();
    while next_line(&mut reader, &mut line).await {
        // Recorded before it is sent, so the answer always finds it.
        let more = lock(&tracker).client_line(&line);
        if let Some(call) = more {
            answer_more(call, &state, &out);
            if reader.buffer().is_empty() && writer.flush().await.is_err() {
                return Upstream::ServerGone;
            }
            continue;
        }
        if send(&mut writer, &line, reader.buffer().is_empty())
            .await
            .is_err()
        {
            return Upstream::ServerGone;
        }
        give_back(&mut line);
    }
    if writer.flush().await.is_err() {
        return Upstream::ServerGone;
    }
    // Dropping the writer closes the server's stdin.
    Upstream::ClientClosed
}

/// Answers a `pith_more` call on the blocking pool (a page is cut from a
/// kept result, which takes time in proportion to its size).
fn answer_more(call: MoreCall, state: &Arc<State>, out: &UnboundedSender<Vec<u8>>) {
    let (state, out) = (state.clone(), out.clone());
    tokio::task::spawn_blocking(move || {
        let page = more::answer(
            state.store_mutex(),
            call.arguments.as_ref(),
            &state.options.rewrite,
        );
        if let Some(ledger) = &state.ledger {
            ledger.record(more::MORE_TOOL, &page.record());
        }
        let mut line = Vec::with_capacity(page.result.len() + 48);
        line.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        line.extend_from_slice(&call.raw_id);
        line.extend_from_slice(b",\"result\":");
        line.extend_from_slice(&page.result);
        line.extend_from_slice(b"}\n");
        let _ = out.send(line);
    });
}

/// Forwards the server's lines until its stdout closes, or the client
/// stops taking bytes; waits for the rewrites still running.
async fn pump_server<R: AsyncRead + Unpin>(
    child_out: R,
    out: UnboundedSender<Vec<u8>>,
    tracker: Arc<Mutex<Tracker>>,
    state: Arc<State>,
) {
    let mut reader = BufReader::with_capacity(BUF, child_out);
    let mut line = Vec::new();
    let mut running = JoinSet::new();
    while next_line(&mut reader, &mut line).await {
        let actions = lock(&tracker).server_line(&line);
        let Some(actions) = actions else {
            if out.send(std::mem::take(&mut line)).is_err() {
                break;
            }
            continue;
        };
        if line.len() < OFFLOAD {
            let (bytes, list_changed) = transform(&actions, &line, &tracker, &state);
            let bytes = bytes.unwrap_or_else(|| std::mem::take(&mut line));
            if !deliver(&out, bytes, list_changed) {
                break;
            }
        } else {
            let (line, tracker, state, out) = (
                std::mem::take(&mut line),
                tracker.clone(),
                state.clone(),
                out.clone(),
            );
            running.spawn_blocking(move || {
                let (bytes, list_changed) = transform(&actions, &line, &tracker, &state);
                deliver(&out, bytes.unwrap_or(line), list_changed);
            });
        }
        give_back(&mut line);
        // Reaps the rewrites that are done, so the set stays small.
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
}

/// Hands a server line to the writer, then the `tools/list_changed`
/// notification if `list_changed`; false once the writer is gone.
///
/// The notification is a message of its own, so that the writer starts it
/// on a new line even when the server's line lacks its newline.
fn deliver(out: &UnboundedSender<Vec<u8>>, line: Vec<u8>, list_changed: bool) -> bool {
    out.send(line).is_ok() && (!list_changed || out.send(LIST_CHANGED.to_vec()).is_ok())
}

/// The rewritten line for a server line the tracker routed, or `None` to
/// forward it as it is; and whether the tools' schemas the client should
/// hold changed (the client is then told to list the tools again).
fn transform(
    actions: &[Action],
    line: &[u8],
    tracker: &Mutex<Tracker>,
    state: &State,
) -> (Option<Vec<u8>>, bool) {
    let mut splice = Splice::default();
    let mut list_changed = false;
    for action in actions {
        let (tool, result) = match action {
            Action::Forward => continue,
            Action::ToolList(result) => {
                crate::tools::edit(line, result.clone(), state, &mut splice);
                continue;
            }
            Action::Initialize(result) => {
                crate::tools::declare_list_changed(line, result.clone(), state, &mut splice);
                continue;
            }
            Action::CallResult(tool, result) => (tool, result),
            Action::TaskCreated(tool, result) => {
                // A server that runs the call as a task answers with the
                // task; one that does not support tasks, with the result.
                if let Some(task_id) = task_id(&line[result.clone()]) {
                    lock(tracker).task_created(task_id, tool.clone());
                    continue;
                }
                (tool, result)
            }
        };
        if !state.options.tools.allows(tool) {
            continue;
        }
        if let Some(record) = crate::call::edit(line, result.clone(), tool, state, &mut splice) {
            list_changed |= record.list_changed;
            if let Some(ledger) = &state.ledger {
                ledger.record(tool, &record);
            }
        }
    }
    let bytes = (!splice.is_empty()).then(|| splice.apply(line));
    (bytes, list_changed)
}

/// The `task.taskId` of a `CreateTaskResult`.
fn task_id(result: &[u8]) -> Option<String> {
    let v = pith::json::parse_bytes(result).ok()?;
    v.get("task")?.get("taskId")?.as_str().map(str::to_owned)
}

/// How far pith has gone in stopping the child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// No signal sent (its stdin may be closed).
    Running,
    /// SIGTERM sent.
    Terminated,
    /// SIGKILL sent.
    Killed,
}

impl Stage {
    fn escalate(self, child: &mut Child) -> Stage {
        match self {
            Stage::Running => {
                terminate(child);
                Stage::Terminated
            }
            Stage::Terminated | Stage::Killed => {
                // Fails only if the child is already gone.
                let _ = child.start_kill();
                Stage::Killed
            }
        }
    }
}

/// SIGTERM, SIGINT and SIGHUP sent to pith itself.
#[cfg(unix)]
struct Signals(Vec<(tokio::signal::unix::Signal, rustix::process::Signal)>);

/// A signal pith received, to send on to the server.
#[cfg(unix)]
type Received = rustix::process::Signal;
#[cfg(not(unix))]
type Received = ();

#[cfg(unix)]
impl Signals {
    fn new() -> Signals {
        use rustix::process::Signal;
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            (SignalKind::terminate(), Signal::TERM),
            (SignalKind::interrupt(), Signal::INT),
            (SignalKind::hangup(), Signal::HUP),
        ];
        // A signal that cannot be listened to keeps its default action.
        Signals(
            kinds
                .into_iter()
                .filter_map(|(k, s)| signal(k).ok().map(|l| (l, s)))
                .collect(),
        )
    }

    /// Resolves with the signal, when one arrives.
    async fn recv(&mut self) -> Received {
        std::future::poll_fn(|cx| {
            for (listener, sig) in &mut self.0 {
                if let std::task::Poll::Ready(Some(())) = listener.poll_recv(cx) {
                    return std::task::Poll::Ready(*sig);
                }
            }
            std::task::Poll::Pending
        })
        .await
    }
}

#[cfg(not(unix))]
struct Signals;

#[cfg(not(unix))]
impl Signals {
    fn new() -> Signals {
        Signals
    }

    async fn recv(&mut self) -> Received {
        std::future::pending::<()>().await
    }
}

/// Sends the server the signal pith received.
#[cfg(unix)]
fn forward(child: &mut Child, sig: Received) {
    use rustix::process::{Pid, kill_process};
    let pid = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .and_then(Pid::from_raw);
    if let Some(pid) = pid {
        // Fails only if the child is already gone.
        let _ = kill_process(pid, sig);
    }
}

#[cfg(not(unix))]
fn forward(child: &mut Child, _: Received) {
    let _ = child.start_kill();
}

#[cfg(unix)]
fn terminate(child: &mut Child) {
    forward(child, rustix::process::Signal::TERM);
}

#[cfg(not(unix))]
fn terminate(child: &mut Child) {
    let _ = child.start_kill();
}

/// Waits for the child, escalating from `stage` a grace period at a time.
async fn reap(child: &mut Child, grace: Duration, mut stage: Stage) -> Option<ExitStatus> {
    loop {
        match timeout(grace, child.wait()).await {
            Ok(status) => return status.ok(),
            Err(_) if stage == Stage::Killed => {
                // SIGKILL cannot be refused; wait for the kernel.
                return child.wait().await.ok();
            }
            Err(_) => stage = stage.escalate(child),
        }
    }
}

fn exit_code(status: Option<&ExitStatus>, unanswered: bool) -> u8 {
    let Some(status) = status else { return 1 };
    match status.code() {
        Some(0) if unanswered => 1,
        Some(code) => u8::try_from(code).unwrap_or(1),
        None => signal(status).map_or(1, |s| 128u8.saturating_add(s)),
    }
}

fn describe(status: Option<&ExitStatus>) -> String {
    match status {
        None => "exit status unknown".into(),
        Some(s) => match (s.code(), signal(s)) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => "exit status unknown".into(),
        },
    }
}

#[cfg(unix)]
fn signal(status: &ExitStatus) -> Option<u8> {
    use std::os::unix::process::ExitStatusExt;
    status.signal().and_then(|s| u8::try_from(s).ok())
}

#[cfg(not(unix))]
fn signal(_: &ExitStatus) -> Option<u8> {
    None
}

/// `{"jsonrpc":"2.0","id":…,"error":{"code":-32000,"message":…}}` and a
/// newline, with the id exactly as the client wrote it.
pub(crate) fn error_response(raw_id: &[u8], message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(96 + raw_id.len() + message.len());
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(raw_id);
    out.extend_from_slice(
        format!(",\"error\":{{\"code\":{SERVER_GONE_CODE},\"message\":").as_bytes(),
    );
    pith::json::write_str_into(message, &mut out);
    out.extend_from_slice(b"}}\n");
    out
}

/// Reads the next line into `line`, which it clears first; false once the
/// input ends or fails.
async fn next_line<R>(reader: &mut R, line: &mut Vec<u8>) -> bool
where
    R: AsyncBufRead + Unpin,
{
    line.clear();
    matches!(reader.read_until(b'\n', line).await, Ok(n) if n > 0)
}

/// Writes `bytes`, flushing only when the input has nothing more waiting
/// (`drained`), so a burst of lines costs one write.
async fn send<W>(writer: &mut W, bytes: &[u8], drained: bool) -> std::io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    writer.write_all(bytes).await?;
    if drained {
        writer.flush().await?;
    }
    Ok(())
}

fn give_back(line: &mut Vec<u8>) {
    if line.capacity() > KEEP {
        *line = Vec::new();
    }
}

fn lock(tracker: &Mutex<Tracker>) -> MutexGuard<'_, Tracker> {
    // The tracker holds no invariant a panic elsewhere could break halfway.
    tracker.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_responses_echo_the_id() {
        let line = error_response(br#""a\"b""#, "the MCP server exited before answering (x)");
        let v = pith::json::parse_bytes(&line).unwrap();
        assert_eq!(v.get("id").and_then(pith::Value::as_str), Some("a\"b"));
        assert_eq!(
            v.get("error")
                .and_then(|e| e.get("code"))
                .map(pith::json::stringify),
            Some("-32000".into())
        );
        assert!(line.ends_with(b"}}\n"));
    }

    /// The server's last bytes lack their newline: each message handed
    /// over after them starts a line of its own, and nothing is added when
    /// nothing follows.
    #[tokio::test]
    async fn messages_after_an_unterminated_line_start_a_new_line() {
        let answer = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
        let error = error_response(b"2", "the MCP server exited before answering (x)");
        let (out, rx) = unbounded_channel();
        for message in [
            answer.to_vec(),
            error.clone(),
            LIST_CHANGED.to_vec(),
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{".to_vec(),
        ] {
            out.send(message).unwrap();
        }
        drop(out);
        let mut client = Vec::new();
        write_client(&mut client, rx).await;
        let mut want = answer.to_vec();
        want.push(b'\n');
        want.extend_from_slice(&error);
        want.extend_from_slice(LIST_CHANGED);
        want.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{");
        assert_eq!(
            String::from_utf8(client).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[cfg(unix)]
    #[test]
    fn exit_codes() {
        use std::os::unix::process::ExitStatusExt;
        let code = |c: i32| ExitStatus::from_raw(c << 8);
        assert_eq!(exit_code(Some(&code(0)), false), 0);
        assert_eq!(exit_code(Some(&code(0)), true), 1);
        assert_eq!(exit_code(None, true), 1);
        assert_eq!(exit_code(Some(&code(3)), true), 3);
        assert_eq!(exit_code(Some(&ExitStatus::from_raw(9)), false), 137);
        assert_eq!(exit_code(None, false), 1);
        assert_eq!(
            describe(Some(&ExitStatus::from_raw(9))),
            "killed by signal 9"
        );
        assert_eq!(describe(Some(&code(4))), "exit status 4");
    }
}

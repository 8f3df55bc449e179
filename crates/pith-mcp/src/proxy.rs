//! The stdio plumbing: two pumps, the child's life, and the exit status.
//!
//! ```text
//!  client stdin ──pump_client──▶ child stdin     (records requests; bytes as read)
//!  client stdout ◀─pump_server── child stdout    (rewrites tools/call results)
//!  child stderr ───────────────▶ pith's stderr   (inherited, never read)
//! ```
//!
//! Both pumps move whole lines and flush when their input has nothing more
//! waiting, so a burst of messages costs one write and a lone message is
//! not held back. Lines that are not rewritten are written from the very
//! buffer they were read into.

use crate::Error;
use crate::policy::{Options, Structured};
use crate::rewrite::{rewrite_call_result, rewrite_result, strip_output_schemas};
use crate::track::{Action, Tracker};
use pith::Value;
use std::ffi::{OsStr, OsString};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter,
};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::{Instant, sleep_until, timeout};

/// Buffer size of each pump's reader and writer.
const BUF: usize = 64 << 10;

/// Lines at least this long are rewritten on the blocking pool, so a large
/// result never stalls the other direction.
const OFFLOAD: usize = 256 << 10;

/// A line buffer that grew past this is given back after use, so one huge
/// message does not pin its memory for the rest of the session.
const KEEP: usize = 4 << 20;

/// JSON-RPC error code for requests the server can no longer answer: the
/// implementation-defined range, the value the official SDK uses for a
/// closed connection.
pub const SERVER_GONE_CODE: i64 = -32000;

/// Starts `command` with `args` as the MCP server and proxies this
/// process's stdin and stdout to it until either side ends; returns the
/// exit status pith should exit with.
///
/// The status is the server's own: its exit code, or 128 + the signal that
/// ended it. It is 1 instead of 0 when the server exited, before the client
/// closed stdin, leaving requests unanswered (each of those got an error
/// response first).
pub fn run(command: &OsStr, args: &[OsString], options: &Options) -> Result<u8, Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let result = runtime.block_on(async {
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
        proxy(
            tokio::io::stdin(),
            tokio::io::stdout(),
            child,
            Arc::new(options.clone()),
        )
        .await
    });
    // A read of pith's stdin may still be blocked in the runtime's thread
    // pool; it must not keep the process alive.
    runtime.shutdown_background();
    result
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
    options: Arc<Options>,
) -> Result<u8, Error>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin,
{
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(Error::Pipes);
    };
    let tracker = Arc::new(Mutex::new(Tracker::default()));
    let mut upstream = tokio::spawn(pump_client(client_in, child_in, tracker.clone()));
    let mut writer = BufWriter::with_capacity(BUF, client_out);
    let mut signals = Signals::new();

    let grace = options.shutdown_grace;
    let mut upstream_done = false;
    let mut client_closed = false;
    let mut stage = Stage::Running;
    let mut escalate_at: Option<Instant> = None;
    let mut status: Option<Option<ExitStatus>> = None;
    let mut drain_until: Option<Instant> = None;
    let client_ok = {
        let downstream = pump_server(child_out, &mut writer, tracker.clone(), options.clone());
        tokio::pin!(downstream);
        loop {
            tokio::select! {
                ok = &mut downstream => break ok,
                how = &mut upstream, if !upstream_done => {
                    upstream_done = true;
                    // The MCP stdio shutdown: stdin closed, then a grace
                    // period before SIGTERM, another before SIGKILL.
                    if how.unwrap_or(Upstream::ClientClosed) == Upstream::ClientClosed {
                        client_closed = true;
                        if status.is_none() {
                            escalate_at.get_or_insert(Instant::now() + grace);
                        }
                    }
                }
                () = signals.recv() => {
                    // pith was told to stop: so is the server, at once; the
                    // grace period before SIGKILL still applies (a client
                    // often sends SIGTERM just as pith's own timer does).
                    if stage == Stage::Running && status.is_none() {
                        stage = stage.escalate(&mut child);
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
                    break true;
                }
            }
        }
    };
    // Closes the server's stdin if the client has not.
    upstream.abort();
    let status = match status {
        Some(status) => status,
        None => reap(&mut child, grace, stage).await,
    };

    let unanswered = lock(&tracker).drain();
    if client_ok && !unanswered.is_empty() {
        let message = format!(
            "the MCP server exited before answering ({})",
            describe(status.as_ref())
        );
        for pending in &unanswered {
            let line = error_response(&pending.raw_id, &message);
            if writer.write_all(&line).await.is_err() {
                break;
            }
        }
        // The client may be gone too; there is no one left to tell.
        let _ = writer.flush().await;
    }
    Ok(exit_code(
        status.as_ref(),
        !unanswered.is_empty() && !client_closed,
    ))
}

async fn pump_client<I>(
    client_in: I,
    child_in: ChildStdin,
    tracker: Arc<Mutex<Tracker>>,
) -> Upstream
where
    I: AsyncRead + Unpin,
{
    let mut reader = BufReader::with_capacity(BUF, client_in);
    let mut writer = BufWriter::with_capacity(BUF, child_in);
    let mut line = Vec::new();
    while next_line(&mut reader, &mut line).await {
        // Recorded before it is sent, so the answer always finds it.
        lock(&tracker).client_line(&line);
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

/// Forwards the server's lines until its stdout closes; returns whether
/// the client still takes bytes.
async fn pump_server<W>(
    child_out: ChildStdout,
    writer: &mut W,
    tracker: Arc<Mutex<Tracker>>,
    options: Arc<Options>,
) -> bool
where
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(BUF, child_out);
    let mut line = Vec::new();
    while next_line(&mut reader, &mut line).await {
        let action = lock(&tracker).server_line(&line);
        let rewritten = match action {
            Action::Forward => None,
            action => transform_off_thread(action, &line, &tracker, &options).await,
        };
        let bytes = rewritten.as_deref().unwrap_or(&line);
        if send(writer, bytes, reader.buffer().is_empty())
            .await
            .is_err()
        {
            return false;
        }
        give_back(&mut line);
    }
    writer.flush().await.is_ok()
}

/// [`transform`], on the blocking pool for long lines.
async fn transform_off_thread(
    action: Action,
    line: &[u8],
    tracker: &Arc<Mutex<Tracker>>,
    options: &Arc<Options>,
) -> Option<Vec<u8>> {
    if line.len() < OFFLOAD {
        return transform(action, line, tracker, options);
    }
    let (line, tracker, options) = (line.to_vec(), tracker.clone(), options.clone());
    tokio::task::spawn_blocking(move || transform(action, &line, &tracker, &options))
        .await
        .ok()
        .flatten()
}

/// The rewritten line for a server message the tracker routed, or `None`
/// to forward it as it is.
fn transform(
    action: Action,
    line: &[u8],
    tracker: &Mutex<Tracker>,
    options: &Options,
) -> Option<Vec<u8>> {
    match action {
        Action::Forward => None,
        Action::CallResult(tool) => {
            if !options.tools.allows(&tool) {
                return None;
            }
            rewrite_result(line, |result| rewrite_call_result(result, options))
        }
        Action::TaskCreated(tool) => rewrite_result(line, |result| {
            // A server that runs the call as a task answers with the task;
            // one that does not support tasks answers with the result.
            if let Some(task_id) = result
                .get("task")
                .and_then(|t| t.get("taskId"))
                .and_then(Value::as_str)
            {
                lock(tracker).task_created(task_id.to_owned(), tool);
                return false;
            }
            options.tools.allows(&tool) && rewrite_call_result(result, options)
        }),
        Action::ToolList => {
            if options.structured != Structured::DropIfEquivalent {
                return None;
            }
            rewrite_result(line, |result| strip_output_schemas(result, &options.tools))
        }
    }
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
struct Signals(Vec<tokio::signal::unix::Signal>);

#[cfg(unix)]
impl Signals {
    fn new() -> Signals {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            SignalKind::terminate(),
            SignalKind::interrupt(),
            SignalKind::hangup(),
        ];
        // A signal that cannot be listened to keeps its default action.
        Signals(kinds.into_iter().filter_map(|k| signal(k).ok()).collect())
    }

    /// Resolves when one of the signals arrives.
    async fn recv(&mut self) {
        std::future::poll_fn(|cx| {
            for s in &mut self.0 {
                if let std::task::Poll::Ready(Some(())) = s.poll_recv(cx) {
                    return std::task::Poll::Ready(());
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

    async fn recv(&mut self) {
        std::future::pending::<()>().await
    }
}

#[cfg(unix)]
fn terminate(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process};
    let pid = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .and_then(Pid::from_raw);
    if let Some(pid) = pid {
        // Fails only if the child is already gone.
        let _ = kill_process(pid, Signal::TERM);
    }
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
fn error_response(raw_id: &[u8], message: &str) -> Vec<u8> {
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
        assert_eq!(v.get("id").and_then(Value::as_str), Some("a\"b"));
        assert_eq!(
            v.get("error")
                .and_then(|e| e.get("code"))
                .map(pith::json::to_string),
            Some("-32000".into())
        );
        assert!(line.ends_with(b"}}\n"));
    }

    #[cfg(unix)]
    #[test]
    fn exit_codes() {
        use std::os::unix::process::ExitStatusExt;
        let code = |c: i32| ExitStatus::from_raw(c << 8);
        assert_eq!(exit_code(Some(&code(0)), false), 0);
        assert_eq!(exit_code(Some(&code(0)), true), 1);
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

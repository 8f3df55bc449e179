//! Every way a command can fail, and the one place that maps them to exit
//! statuses and messages.

use std::io::Write;
use std::process::ExitCode;

/// Writes one message line to stderr, control characters escaped so that
/// input echoed in it cannot act on the terminal. A stderr that cannot be
/// written (closed, full, a pipe nobody reads) loses the message, never the
/// exit status.
pub fn say(message: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", pith::error::escape_controls(message));
    let _ = err.flush();
}

#[derive(Debug)]
pub enum Failure {
    /// The input is not what the command reads (exit 1).
    Input {
        /// `-` for stdin, else the path as given.
        name: String,
        /// The input text, to show the offending line.
        text: String,
        error: pith::Error,
    },
    /// A file could not be read or written (exit 1).
    Io { name: String, error: std::io::Error },
    /// Options that do not go together (exit 2).
    Usage(String),
    /// No output fits `--budget` (exit 3): the notice goes where the output
    /// would have gone, the message to stderr.
    Budget {
        notice: String,
        output: Option<std::path::PathBuf>,
        message: String,
    },
    /// Already reported (or, for `pith mcp`, the server's exit status passed
    /// on): exit with this status and print nothing more.
    Exit(u8),
}

impl Failure {
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input { name, text, error } => {
                say(&format!("pith: {name}: {}", error.render(&text)));
                ExitCode::from(1)
            }
            Failure::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe => {
                // The reader went away (`pith … | head`): not an error of ours.
                ExitCode::SUCCESS
            }
            Failure::Io { name, error } => {
                say(&format!("pith: {name}: {error}"));
                ExitCode::from(1)
            }
            Failure::Usage(msg) => {
                say(&format!("pith: {msg}"));
                ExitCode::from(2)
            }
            Failure::Budget {
                notice,
                output,
                message,
            } => {
                say(&format!("pith: {message}"));
                if let Err(Failure::Io { name, error }) =
                    crate::io::write_output(output.as_ref(), notice.as_bytes())
                    && error.kind() != std::io::ErrorKind::BrokenPipe
                {
                    say(&format!("pith: {name}: {error}"));
                }
                // The budget is the first failure and decides the status.
                ExitCode::from(3)
            }
            Failure::Exit(status) => ExitCode::from(status),
        }
    }
}

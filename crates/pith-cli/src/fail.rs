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
    /// Bad input already reported in full (schema violations, breaking
    /// changes): exit 1 and print nothing more.
    Reported,
    /// `pith mcp`: the server exited with this status, passed on.
    Server(u8),
    /// The arguments did not parse, or asked for help or the version: clap
    /// prints it; exit 2 for a mistake, 0 for help and version.
    Args(clap::Error),
}

/// The status of a run that did not fail.
pub fn success() -> ExitCode {
    ExitCode::SUCCESS
}

impl Failure {
    /// Reports the failure and decides the exit status. `write_output` is
    /// io.rs's writer, for the notice of a budget no output fits (fail.rs
    /// and io.rs stay apart: an I/O error is a failure, and io.rs only makes
    /// one).
    pub fn report(
        self,
        write_output: impl FnOnce(Option<&std::path::PathBuf>, &[u8]) -> Result<(), Failure>,
    ) -> ExitCode {
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
                    write_output(output.as_ref(), notice.as_bytes())
                    && error.kind() != std::io::ErrorKind::BrokenPipe
                {
                    say(&format!("pith: {name}: {error}"));
                }
                // The budget is the first failure and decides the status.
                ExitCode::from(3)
            }
            Failure::Reported => ExitCode::from(1),
            Failure::Server(status) => ExitCode::from(status),
            Failure::Args(e) => {
                let code = if e.use_stderr() { 2 } else { 0 };
                // Printing can only fail on a closed stream, where nothing is left to say.
                let _ = e.print();
                ExitCode::from(code)
            }
        }
    }
}

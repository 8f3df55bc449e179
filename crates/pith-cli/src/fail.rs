//! Every way a command can fail, and the one place that maps them to exit
//! statuses and messages.

use std::process::ExitCode;

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
                eprintln!("pith: {name}: {}", error.render(&text));
                ExitCode::from(1)
            }
            Failure::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe => {
                // The reader went away (`pith … | head`): not an error of ours.
                ExitCode::SUCCESS
            }
            Failure::Io { name, error } => {
                eprintln!("pith: {name}: {error}");
                ExitCode::from(1)
            }
            Failure::Usage(msg) => {
                eprintln!("pith: {msg}");
                ExitCode::from(2)
            }
            Failure::Budget {
                notice,
                output,
                message,
            } => {
                eprintln!("pith: {message}");
                if let Err(Failure::Io { name, error }) =
                    crate::io::write_output(output.as_ref(), notice.as_bytes())
                    && error.kind() != std::io::ErrorKind::BrokenPipe
                {
                    eprintln!("pith: {name}: {error}");
                }
                // The budget is the first failure and decides the status.
                ExitCode::from(3)
            }
            Failure::Exit(status) => ExitCode::from(status),
        }
    }
}

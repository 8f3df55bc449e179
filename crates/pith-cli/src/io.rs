//! Reading inputs and writing outputs.

use crate::fail::Failure;
use pith::Value;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// One input: its display name and bytes.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    /// Reads `path`, or stdin when it is absent or `-`.
    pub fn read(path: Option<&Path>) -> Result<Input, Failure> {
        match path {
            None => Input::stdin(),
            Some(p) if p == Path::new("-") => Input::stdin(),
            Some(p) => {
                let name = p.display().to_string();
                match std::fs::read(p) {
                    Ok(bytes) => Ok(Input { name, bytes }),
                    Err(error) => Err(Failure::Io { name, error }),
                }
            }
        }
    }

    fn stdin() -> Result<Input, Failure> {
        let mut bytes = Vec::new();
        match std::io::stdin().lock().read_to_end(&mut bytes) {
            Ok(_) => Ok(Input {
                name: "-".into(),
                bytes,
            }),
            Err(error) => Err(Failure::Io {
                name: "-".into(),
                error,
            }),
        }
    }

    /// The input as UTF-8 text; ill-formed bytes are a positioned error.
    pub fn text(&self) -> Result<&str, Failure> {
        std::str::from_utf8(&self.bytes).map_err(|e| {
            self.failure(pith::Error::at_offset(
                pith::ErrorKind::InvalidUtf8,
                &self.bytes,
                e.valid_up_to(),
                "invalid UTF-8: expected text",
            ))
        })
    }

    /// Frees the bytes once they are read into a value: later errors are
    /// about the value (JSON paths), and need no text to show.
    pub fn release(&mut self) {
        self.bytes = Vec::new();
    }

    /// A failure about this input, with its text for the caret display.
    pub fn failure(&self, error: pith::Error) -> Failure {
        Failure::Input {
            name: self.name.clone(),
            text: String::from_utf8_lossy(&self.bytes).into_owned(),
            error,
        }
    }
}

/// Writes `bytes` to `path` or stdout. On a terminal a final newline is
/// added; in a pipe or a file the bytes are written exactly.
pub fn write_output(path: Option<&PathBuf>, bytes: &[u8]) -> Result<(), Failure> {
    write_with(path, |out| {
        out.write_all(bytes)?;
        Ok(bytes.ends_with(b"\n"))
    })
}

/// Writes `value` as JSON (indented with `pretty`) to `path` or stdout as
/// it is made, without holding its text in memory; a final newline on a
/// terminal, as [`write_output`] adds it.
pub fn write_json(
    path: Option<&PathBuf>,
    value: &Value,
    pretty: Option<usize>,
) -> Result<(), Failure> {
    write_with(path, |out| {
        pith::json::write_to(value, &mut *out, pretty).map_err(|e| {
            // The writer's own error, so that a closed pipe is told apart.
            match std::error::Error::source(&e).and_then(|s| s.downcast_ref::<std::io::Error>()) {
                Some(io) => std::io::Error::new(io.kind(), io.to_string()),
                None => std::io::Error::other(e.to_string()),
            }
        })?;
        Ok(false)
    })
}

/// Runs `write` on the file at `path` or on stdout (which must be open:
/// writing to a closed stdout is an error, exit 1, never output lost in
/// silence). `write` says whether its output ended with a line feed; on a
/// terminal one is added if not.
fn write_with(
    path: Option<&PathBuf>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<bool>,
) -> Result<(), Failure> {
    let (name, result) = match path {
        Some(p) if p.as_os_str() != "-" => {
            let name = p.display().to_string();
            let result = std::fs::File::create(p).and_then(|f| {
                let mut out = std::io::BufWriter::new(f);
                write(&mut out)?;
                out.flush()
            });
            (name, result)
        }
        _ => {
            let result = stdout_file().and_then(|f| {
                let tty = f.is_terminal();
                let mut out = std::io::BufWriter::new(f);
                let ended = write(&mut out)?;
                if tty && !ended {
                    out.write_all(b"\n")?;
                }
                out.flush()
            });
            ("stdout".to_owned(), result)
        }
    };
    result.map_err(|error| Failure::Io { name, error })
}

/// Standard output as a file of its own, a duplicate of its descriptor:
/// Rust's `Stdout` reports success for writes to a closed descriptor, a
/// file reports the error (and duplicating a closed one fails first).
fn stdout_file() -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if crate::start::stdout_was_closed() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "closed when pith started: the output has nowhere to go",
            ));
        }
        Ok(std::fs::File::from(
            std::io::stdout().as_fd().try_clone_to_owned()?,
        ))
    }
    #[cfg(windows)]
    {
        use std::os::windows::io::AsHandle;
        Ok(std::fs::File::from(
            std::io::stdout().as_handle().try_clone_to_owned()?,
        ))
    }
}

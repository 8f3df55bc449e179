//! Reading inputs and writing outputs.

use crate::fail::Failure;
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
    match path {
        Some(p) if p.as_os_str() != "-" => std::fs::write(p, bytes).map_err(|error| Failure::Io {
            name: p.display().to_string(),
            error,
        }),
        _ => {
            let stdout = std::io::stdout();
            let tty = stdout.is_terminal();
            let mut out = stdout.lock();
            let res = out
                .write_all(bytes)
                .and_then(|()| {
                    if tty && !bytes.ends_with(b"\n") {
                        out.write_all(b"\n")
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| out.flush());
            res.map_err(|error| Failure::Io {
                name: "stdout".into(),
                error,
            })
        }
    }
}

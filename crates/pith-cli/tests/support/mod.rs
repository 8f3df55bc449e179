//! Running the built `pith` binary, shared by the command-line tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `pith` with `args`, `stdin` on its standard input.
pub fn pith(args: &[&str], stdin: &str) -> Output {
    pith_bytes(args, stdin.as_bytes())
}

/// Runs `pith` with `args`, the bytes `stdin` (UTF-8 or not) on its standard input.
pub fn pith_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pith runs");
    // pith may exit before reading (a usage error), closing the pipe early.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("pith finishes")
}

pub fn stdout(o: &Output) -> &str {
    std::str::from_utf8(&o.stdout).expect("UTF-8 stdout")
}

pub fn stderr(o: &Output) -> &str {
    std::str::from_utf8(&o.stderr).expect("UTF-8 stderr")
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

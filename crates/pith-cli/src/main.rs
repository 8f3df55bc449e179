//! `pith`: render JSON for LLM agents in the cheapest text a model reads
//! reliably, without losing a fact, and turn it back into the exact JSON.
//!
//! The binary is a thin layer: arguments ([`args`]) become library calls
//! ([`cmd`]), and every failure becomes one exit status in one place
//! ([`fail`]): 0 success, 1 bad input, 2 usage, 3 budget cannot be met.

mod args;
mod budget;
mod cmd;
mod fail;
mod io;
mod mcp;
mod measure;
mod schema;
#[cfg(unix)]
mod start;

use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(unix)]
    start::tune_allocator();
    let run = args::parse()
        .map_err(fail::Failure::Args)
        .and_then(cmd::run);
    match run {
        Ok(()) => fail::success(),
        Err(failure) => failure.report(io::write_output),
    }
}

//! The `cvperft` command line: a thin layer over the library. See `cvperft --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    cvperft_cli::run()
}

#[path = "cli/mod.rs"]
mod cvperft_cli;

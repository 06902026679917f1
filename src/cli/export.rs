//! `cvperft export`: suites written as EPD, python-chess `.perft` files or JSON Lines
//! (`docs/export.md`), the checks chosen with the same flags as `cvperft check`.
//!
//! The text comes from the library ([`cvperft::export`]); this command only parses arguments
//! and writes, `--output` as `check --output` does ([`super::sink`]): never a half-written
//! file, never over a suite it reads, a device or a FIFO written directly.

use super::Failure;
use super::selection::{SelectionArgs, load_suites_or_built_in, refused};
use super::sink::Sink;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use cvperft::conformance::plan_checks;
use cvperft::export::{ExportFormat, export_planned};
use std::path::PathBuf;

/// Export formats on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// One EPD line per position: `;D1 n ;D2 n ...`, id, variant, options, status, source.
    Epd,
    /// python-chess's `.perft` file: `id`, `epd` and `perft DEPTH COUNT` lines.
    Perft,
    /// One JSON object per check.
    Jsonl,
}

/// Arguments of `cvperft export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Suite files or directories (every *.yaml in a directory, sorted). Without one:
    /// `./suites` when it exists, else the suites built into cvperft (the repository's
    /// `suites/` as it was built).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// Write to FILE (a temporary file renamed into place) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Which checks.
    #[command(flatten)]
    pub selection: SelectionArgs,
}

/// Runs `cvperft export`.
///
/// # Errors
/// A [`Failure`] with code 2 for bad arguments, unreadable suites, a selection with nothing to
/// export or an output that cannot be written.
pub fn run(args: ExportArgs, stdout: &mut super::output::Stdout) -> Result<()> {
    let selection = args.selection.validated()?;
    let format = match args.format {
        FormatArg::Epd => ExportFormat::Epd,
        FormatArg::Perft => ExportFormat::PerftFile,
        FormatArg::Jsonl => ExportFormat::Jsonl,
    };
    let suites = load_suites_or_built_in(&args.paths)?;
    // Before any work: the output may not overwrite a suite read, a directory or a socket.
    let mut sink = Sink::open(args.output.as_deref(), &suites, &mut *stdout)?;
    let planned = plan_checks(&suites, &selection).map_err(refused)?;
    let exported = export_planned(&suites, &planned, format).context("export")?;
    if exported.summary.items == 0 && selection.shard.is_none() {
        let why = exported.summary.left_out().unwrap_or_default();
        return Err(Failure::input(format!(
            "nothing to export as {}: the selection left out {why}",
            format.name()
        ))
        .into());
    }
    if let Err(e) = sink.writer().write_all(exported.text.as_bytes()) {
        return Err(sink.failed(e));
    }
    sink.commit()?;
    // The export is the whole product: a reader that left early (`| head`) did not get it,
    // and the summary would have said every item was exported, with exit 0.
    if let Some(given) = stdout.reader_left_after() {
        return Err(Failure::input(format!(
            "export: standard output was closed by its reader with at most {given} of {} \
             bytes written to it; the export is incomplete",
            exported.text.len()
        ))
        .into());
    }
    super::say(&exported.summary.line(format));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: ExportArgs,
    }

    #[test]
    fn the_definition_is_consistent() {
        Wrapper::command().debug_assert();
    }

    #[test]
    fn arguments_become_typed_options() {
        let w = Wrapper::try_parse_from(["export", "--format", "epd"]).expect("defaults parse");
        assert!(w.args.paths.is_empty());
        assert_eq!(w.args.format, FormatArg::Epd);
        let w = Wrapper::try_parse_from([
            "export", "a.yaml", "--format", "jsonl", "-v", "chess", "--slow", "--shard", "1/2",
        ])
        .expect("arguments parse");
        assert_eq!(w.args.selection.variant.as_deref(), Some("chess"));
        assert!(w.args.selection.slow);
        for bad in [
            &["export"][..],
            &["export", "--format", "csv"],
            &["export", "--format", "epd", "--shard", "0/2"],
        ] {
            assert!(Wrapper::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}

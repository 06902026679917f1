//! `cvperft check`: runs the conformance suites against the reference generator, or against an
//! external engine with `--engine`; the work is the library's ([`cvperft::conformance`]).
//!
//! Arguments are turned into a selection and options and validated before anything runs; every
//! suite is loaded (all problems reported, exit 2) before the first check; results stream to
//! the chosen renderer case by case, with a progress bar on a terminal; `--output` writes a
//! temporary file beside the target and renames it, so a reader never sees half a report. Exit
//! 0 when nothing failed, 1 otherwise.

use super::Failure;
use super::engine_args::EngineSettings;
use super::selection::{SelectionArgs, load_suites_or_built_in, refused};
use super::sink::Sink;
use anyhow::Result;
use clap::{Args, ValueEnum};
use cvperft::conformance::{self, CheckOptions, CheckRun, Event};
use cvperft::engine::suites::SuiteEngineOptions;
use cvperft::findings::{BisectLimits, DEFAULT_BISECT_QUESTIONS, DEFAULT_BISECT_SECONDS};
use cvperft::report::{Format, renderer};
use cvperft::suite::Status;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Report formats on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Per-case lines and a summary.
    Human,
    /// One JSON document.
    Json,
    /// JUnit XML.
    Junit,
    /// One self-contained HTML page: boards of the failing cases, tables, rulings.
    Html,
}

/// When to colour human output.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// When writing to a terminal and NO_COLOR is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Arguments of `cvperft check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Suite files or directories (every *.yaml in a directory, sorted). Without one:
    /// `./suites` when it exists, else the suites built into cvperft (the repository's
    /// `suites/` as it was built).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Write the report to FILE (atomically: a temporary file renamed into place).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Which checks.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Worker threads (default: the number of CPUs). With --engine (default 1): N copies of
    /// the engine asked at once (UCI processes, or perftree commands), each with its own timeout
    /// and --max-engine-failures; the report is the same at any N.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Colour human output.
    #[arg(long, value_enum, default_value_t = ColourArg::Auto)]
    pub color: ColourArg,
    /// No progress bar (shown on a terminal, per check).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Run the checks against this external engine instead of the reference, shell-quoted
    /// (see docs/engines.md); `{variant}` in it is replaced by the suite's engine variant name.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The same engine flags as `diff`.
    #[command(flatten)]
    pub engine_settings: EngineSettings,
    /// With --engine: the engine's variant name for suites of cvperft variant ID (repeatable);
    /// suites of variants without an entry are skipped.
    #[arg(
        long,
        value_name = "ID=NAME",
        requires = "engine",
        conflicts_with = "engine_variant"
    )]
    pub engine_variant_map: Vec<String>,
    /// With --engine: a rule option the engine implements, `name=value` (repeatable; default:
    /// every option at its default, game-end as the suite says). Cases needing another value
    /// are skipped.
    #[arg(long, value_name = "NAME=VALUE", requires = "engine")]
    pub engine_reading: Vec<String>,
    /// With --engine: most engine questions the bisection of one failing perft or divide check
    /// may ask (failing checks are bisected to their first differing position).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BISECT_QUESTIONS, requires = "engine")]
    pub bisect_questions: usize,
    /// With --engine: most seconds all bisections of the run may take (no question is started
    /// after).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_BISECT_SECONDS, requires = "engine", value_parser = super::parse_seconds)]
    pub bisect_seconds: f64,
    /// With --engine: do not bisect failing checks.
    #[arg(long, requires = "engine")]
    pub no_bisect: bool,
}

impl CheckArgs {
    /// How to run the checks: jobs, and the engine when one is given.
    fn options(&self) -> CheckOptions {
        CheckOptions {
            jobs: self.jobs,
            engine: self.engine.as_ref().map(|engine| SuiteEngineOptions {
                engine: self.engine_settings.options(engine),
                variant_map: self.engine_variant_map.clone(),
                readings: self.engine_reading.clone(),
            }),
            bisect: (!self.no_bisect).then_some(BisectLimits {
                questions: self.bisect_questions,
                seconds: self.bisect_seconds,
            }),
        }
    }

    /// Whether human output is coloured.
    fn colour(&self) -> bool {
        match self.color {
            ColourArg::Always => true,
            ColourArg::Never => false,
            ColourArg::Auto => {
                self.output.is_none()
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Runs `cvperft check`.
///
/// # Errors
/// A [`Failure`] with code 2 for bad arguments or unreadable suites, code 1 when a check failed;
/// I/O errors writing the report.
pub fn run(args: CheckArgs, stdout: &mut impl Write) -> Result<()> {
    let selection = args.selection.selection();
    let options = args.options();
    conformance::validate(&selection, &options).map_err(refused)?;
    let suites = load_suites_or_built_in(&args.paths)?;
    // Before any check runs: a report may not overwrite an input, a directory or a socket.
    let mut sink = Sink::open(args.output.as_deref(), &suites, stdout)?;
    let checks = CheckRun::prepare(&suites, &selection, &options).map_err(refused)?;
    let format = match args.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
        FormatArg::Junit => Format::Junit,
        FormatArg::Html => Format::Html,
    };
    let mut render = renderer(format, args.colour(), &suites);
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let planned = checks.planned().len();
    let bar = super::progress::bar(
        planned as u64,
        args.quiet || planned == 0,
        "{bar:30} {pos}/{len} checks {elapsed} ETA {eta} {wide_msg}",
    );
    let mut write_error: Option<std::io::Error> = None;
    let outcome = checks.run(|event| {
        match event {
            Event::Check(result) => {
                bar.inc(1);
                bar.set_message(result.name.clone());
            }
            Event::Case(results) => {
                let written = if to_terminal {
                    bar.suspend(|| render.case(sink.writer(), results))
                } else {
                    render.case(sink.writer(), results)
                };
                if let Err(e) = written {
                    write_error = Some(e);
                }
            }
        }
        write_error.is_none()
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(sink.failed(e));
    }
    if let Err(e) = render.finish(sink.writer(), &outcome.report, &outcome.diagnosis) {
        return Err(sink.failed(e));
    }
    let to_file = sink.is_file();
    sink.commit()?;
    if to_file {
        super::output::stderr_line(&outcome.report.summary.line());
    }
    for warning in &outcome.refusal_warnings {
        super::output::stderr_line(&format!("cvperft: warning: {warning}"));
    }
    if let Some(refused) = &outcome.engine_refused {
        // Checks that failed, or an engine given up on, are the run's verdict (exit 1); the
        // refusals are said besides. Alone, an engine tested on nothing is unusable (exit 2).
        if outcome.report.summary.failed > 0 || outcome.engine_stopped.is_some() {
            super::output::stderr_line(&format!("cvperft: {refused}"));
        } else {
            return Err(Failure {
                code: 2,
                message: refused.to_string(),
            }
            .into());
        }
    }
    let summary = &outcome.report.summary;
    if args.engine.is_some()
        && summary.passed + summary.failed == 0
        && summary.skipped > 0
        && outcome.engine_stopped.is_none()
    {
        // Every check skipped for the engine (checks of outcomes a perftree engine cannot
        // state, readings it does not hold): a green run that tested nothing.
        let first = outcome
            .report
            .results
            .iter()
            .find(|r| r.status == Status::Skipped)
            .map(|r| format!(" (the first, `{}`: {})", r.name, r.message))
            .unwrap_or_default();
        return Err(Failure {
            code: 2,
            message: format!(
                "the engine was tested on nothing: all {} checks were skipped{first}",
                summary.skipped
            ),
        }
        .into());
    }
    if let Some(stopped) = &outcome.engine_stopped {
        return Err(Failure {
            code: 1,
            message: stopped.to_string(),
        }
        .into());
    }
    if !outcome.succeeded() {
        return Err(Failure {
            code: 1,
            message: String::new(),
        }
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: CheckArgs,
    }

    #[test]
    fn the_definition_is_consistent() {
        Wrapper::command().debug_assert();
    }

    #[test]
    fn arguments_become_typed_options() {
        let w = Wrapper::try_parse_from(["check"]).expect("defaults parse");
        assert!(w.args.paths.is_empty());
        assert_eq!(w.args.format, FormatArg::Human);
        let w = Wrapper::try_parse_from(["check", "a.yaml", "dir", "--shard", "2/3", "-j", "4"])
            .expect("arguments parse");
        assert_eq!(w.args.paths.len(), 2);
        assert_eq!(
            w.args.selection.shard,
            Some(cvperft::suite::Shard { index: 2, count: 3 })
        );
        assert_eq!(w.args.jobs, Some(4));
        for bad in [["check", "--shard", "3/2"], ["check", "--format", "xml"]] {
            assert!(Wrapper::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}

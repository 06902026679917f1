//! `cvperft check`: runs the conformance suites against the reference generator, or against an
//! external engine with `--engine` (see [`super::check_engine`]).
//!
//! Arguments are turned into a [`Selection`] and validated before anything runs; every suite is
//! loaded (all problems reported, exit 2) before the first check; results stream to the chosen
//! renderer case by case; `--output` writes a temporary file beside the target and renames it,
//! so a reader never sees half a report. Exit 0 when nothing failed, 1 otherwise.

use super::Failure;
use super::diff::{EngineArgs, EngineSettings};
use anyhow::Result;
use clap::{Args, ValueEnum};
use cvperft::fsio::{self, OutputTarget, TempFile};
use cvperft::report::{Format, renderer};
use cvperft::suite::run::execute;
use cvperft::suite::{
    Generator, Reference, RunReport, Selection, Shard, Suite, Summary, load_all, plan, suite_infos,
};
use cvperft::variants;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Most worker threads accepted by `--jobs`.
const MAX_JOBS: usize = 256;

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
    /// Suite files or directories (every *.yaml in a directory, sorted).
    #[arg(value_name = "PATH", default_value = "suites")]
    pub paths: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Write the report to FILE (atomically: a temporary file renamed into place).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Run only checks whose name (`variant::file::case::check`) contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Run only cases citing this ruling id (e.g. GE-1).
    #[arg(long, value_name = "ID")]
    pub rule: Option<String>,
    /// Run only suites of this variant.
    #[arg(short = 'v', long = "variant", value_name = "ID")]
    pub variant: Option<String>,
    /// Run shard K of N (1-based): cases dealt out by expected cost, deterministically.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Include cases marked slow.
    #[arg(long)]
    pub slow: bool,
    /// Include cases marked deep (hours of CPU; --slow does not include them).
    #[arg(long)]
    pub deep: bool,
    /// Skip perft and divide checks expecting more than N leaf nodes (reported as skipped).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Worker threads (default: the number of CPUs).
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
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// Where the report goes: standard output, a temporary file renamed over the target on success,
/// or a device or FIFO written directly.
enum Sink<'a> {
    Stdout(&'a mut dyn Write),
    Replace {
        writer: BufWriter<TempFile>,
        target: PathBuf,
    },
    Direct {
        writer: BufWriter<File>,
        target: PathBuf,
    },
}

impl Sink<'_> {
    /// Opens `--output`, refusing the run's inputs (`suites`), directories and sockets.
    fn open<'a>(
        output: Option<&Path>,
        suites: &[Suite],
        stdout: &'a mut dyn Write,
    ) -> Result<Sink<'a>> {
        let Some(path) = output else {
            return Ok(Sink::Stdout(stdout));
        };
        let inputs: Vec<(u64, u64)> = suites
            .iter()
            .filter_map(|s| fsio::identity(&s.path))
            .collect();
        let refused = |e: fsio::FileError| Failure::input(format!("--output {e}"));
        Ok(match fsio::output_target(path, &inputs).map_err(refused)? {
            OutputTarget::Replace { real, like } => Sink::Replace {
                writer: BufWriter::new(TempFile::beside(&real, like.as_ref()).map_err(refused)?),
                target: real,
            },
            OutputTarget::Direct(target) => Sink::Direct {
                writer: BufWriter::new(fsio::open_direct(&target).map_err(refused)?),
                target,
            },
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => *w,
            Sink::Replace { writer, .. } => writer,
            Sink::Direct { writer, .. } => writer,
        }
    }

    /// A write error, naming the `--output` file (standard output's errors are left as they
    /// are, so that a closed pipe is recognised).
    fn failed(&self, e: std::io::Error) -> anyhow::Error {
        match self {
            Sink::Stdout(_) => e.into(),
            Sink::Replace { target, .. } | Sink::Direct { target, .. } => {
                Failure::input(format!("--output {}: {e}", target.display())).into()
            }
        }
    }

    fn commit(self) -> Result<()> {
        let writing = |target: &Path, e: std::io::Error| {
            Failure::input(format!("--output {}: {e}", target.display()))
        };
        match self {
            Sink::Stdout(w) => Ok(w.flush()?),
            Sink::Replace { writer, target } => {
                let temp = writer
                    .into_inner()
                    .map_err(|e| writing(&target, e.into_error()))?;
                temp.commit(&target, None)
                    .map_err(|e| Failure::input(format!("--output {e}")))?;
                Ok(())
            }
            Sink::Direct { mut writer, target } => {
                writer.flush().map_err(|e| writing(&target, e))?;
                Ok(())
            }
        }
    }
}

fn validate(args: &CheckArgs) -> Result<()> {
    if let Some(v) = &args.variant
        && variants::get(v).is_none()
    {
        return Err(Failure::input(format!(
            "--variant: unknown variant `{v}` (variants: {})",
            variants::IDS.join(", ")
        ))
        .into());
    }
    if let Some(rule) = &args.rule
        && !variants::all()
            .iter()
            .any(|v| v.spec.rulings.contains(&rule.as_str()))
    {
        let mut known: Vec<&str> = variants::all()
            .iter()
            .flat_map(|v| v.spec.rulings.iter().copied())
            .collect();
        known.sort();
        known.dedup();
        return Err(Failure::input(format!(
            "--rule: no variant cites ruling `{rule}` (rulings: {})",
            known.join(", ")
        ))
        .into());
    }
    if let Some(jobs) = args.jobs
        && (jobs == 0 || jobs > MAX_JOBS)
    {
        return Err(Failure::input(format!("--jobs {jobs}: expected 1 to {MAX_JOBS}")).into());
    }
    Ok(())
}

/// Runs `cvperft check`.
///
/// # Errors
/// A [`Failure`] with code 2 for bad arguments or unreadable suites, code 1 when a check failed;
/// I/O errors writing the report.
pub fn run(args: CheckArgs, stdout: &mut impl Write) -> Result<()> {
    validate(&args)?;
    let suites = match load_all(&args.paths) {
        Ok(s) => s,
        Err(errors) => {
            let Some((last, before)) = errors.split_last() else {
                return Err(Failure::input("the suites could not be read").into());
            };
            for e in before {
                super::say(&e.to_string());
            }
            return Err(Failure::input(last.to_string()).into());
        }
    };
    if suites.is_empty() {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::input(format!("no suite (*.yaml) in {}", paths.join(" "))).into());
    }
    // Before any check runs: a report may not overwrite an input, a directory or a socket.
    let mut sink = Sink::open(args.output.as_deref(), &suites, stdout)?;
    let selection = Selection {
        filter: args.filter.clone(),
        rule: args.rule.clone(),
        variant: args.variant.clone(),
        slow: args.slow,
        deep: args.deep,
        max_nodes: args.max_nodes,
        shard: args.shard,
    };
    let mut planned = plan(&suites, &selection);
    if planned.is_empty() && args.shard.is_none() {
        return Err(Failure::input(
            "no check matches the selection (--filter, --rule, --variant)".to_string(),
        )
        .into());
    }
    let external = match &args.engine {
        Some(engine) => Some(super::check_engine::prepare(
            &EngineArgs {
                engine: engine.clone(),
                settings: args.engine_settings.clone(),
            },
            &args.engine_variant_map,
            &args.engine_reading,
            &suites,
            &mut planned,
        )?),
        None => None,
    };
    let generator: &dyn Generator = match &external {
        Some(e) => e,
        None => &Reference,
    };
    let colour = match args.color {
        ColourArg::Always => true,
        ColourArg::Never => false,
        ColourArg::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let format = match args.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
        FormatArg::Junit => Format::Junit,
        FormatArg::Html => Format::Html,
    };
    let mut render = renderer(format, colour, &suites);
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let bar = super::progress::bar(
        planned.len() as u64,
        args.quiet || planned.is_empty(),
        "{bar:30} {pos}/{len} checks {elapsed} ETA {eta} {wide_msg}",
    );
    // An engine answers one question at a time: more threads would only wait for it.
    let default_jobs = if external.is_some() { Some(1) } else { None };
    let jobs = args.jobs.or(default_jobs).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let start = Instant::now();
    let mut results = Vec::with_capacity(planned.len());
    let mut case_start = 0;
    let mut write_error: Option<std::io::Error> = None;
    execute(&suites, &planned, generator, jobs, |i, result| {
        bar.inc(1);
        bar.set_message(result.name.clone());
        results.push(result);
        let last_of_case = planned.get(i + 1).is_none_or(|next| {
            (next.check.suite, next.check.case) != (planned[i].check.suite, planned[i].check.case)
        });
        if last_of_case {
            if write_error.is_none() {
                let case_results = &results[case_start..];
                let outcome = if to_terminal {
                    bar.suspend(|| render.case(sink.writer(), case_results))
                } else {
                    render.case(sink.writer(), case_results)
                };
                if let Err(e) = outcome {
                    write_error = Some(e);
                }
            }
            case_start = results.len();
        }
        write_error.is_none()
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(sink.failed(e));
    }
    let summary = Summary::of(&results);
    let report = RunReport {
        generator: generator.name(),
        suites: suite_infos(&suites),
        results,
        summary,
        seconds: start.elapsed().as_secs_f64(),
    };
    if let Err(e) = render.finish(sink.writer(), &report) {
        return Err(sink.failed(e));
    }
    let to_file = !matches!(sink, Sink::Stdout(_));
    sink.commit()?;
    if to_file {
        super::output::stderr_line(&summary.line());
    }
    if let Some(engines) = &external {
        let stopped = engines.stopped();
        if !stopped.is_empty() {
            let skipped = report
                .results
                .iter()
                .filter(|r| r.message.contains(": not asked: "))
                .count();
            return Err(Failure {
                code: 1,
                message: format!(
                    "engine `{}` was not asked again ({}); {skipped} checks skipped",
                    engines.name(),
                    stopped.join("; ")
                ),
            }
            .into());
        }
    }
    if summary.failed > 0 {
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
        assert_eq!(w.args.paths, vec![PathBuf::from("suites")]);
        assert_eq!(w.args.format, FormatArg::Human);
        let w = Wrapper::try_parse_from(["check", "a.yaml", "dir", "--shard", "2/3", "-j", "4"])
            .expect("arguments parse");
        assert_eq!(w.args.paths.len(), 2);
        assert_eq!(w.args.shard, Some(Shard { index: 2, count: 3 }));
        assert_eq!(w.args.jobs, Some(4));
        for bad in [["check", "--shard", "3/2"], ["check", "--format", "xml"]] {
            assert!(Wrapper::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}

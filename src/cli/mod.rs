//! Command-line definition and dispatch. Every command returns a `Result`; `run` prints the
//! error once, on one line, and turns it into the exit code (0 success, 1 mismatch, 2 usage or
//! input error).

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use cvperft::echo::echo;
use cvperft::position::Position;
use cvperft::request::{MovesError, PositionRequest, RequestError};
use cvperft::variant::Rules;
use std::process::ExitCode;

mod add_case;
mod check;
mod diff;
mod engine_args;
mod export;
mod fen;
mod game;
mod identify;
mod output;
mod perft;
mod plan;
mod progress;
mod selection;
mod shard;
mod sink;
mod variants;
mod work;

/// A failure with its exit code.
#[derive(Debug)]
pub struct Failure {
    /// 1 mismatch, 2 usage or input error.
    pub code: u8,
    /// One-line cause (may be empty when the command already reported).
    pub message: String,
}

impl Failure {
    /// A usage or input error (exit 2).
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "cvperft",
    version,
    about = "Perft and rules-conformance harness for chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the position comes from: variant, options, FEN, a path of moves.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant id (see `cvperft variants`).
    #[arg(short = 'v', long = "variant", default_value = "chess")]
    pub variant: String,
    /// Start from this FEN (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Play these moves first (space-separated move text).
    #[arg(long)]
    pub moves: Option<String>,
    /// Set a rule option, `name=value` (repeatable); `game-end=rules|movegen` for every variant.
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List variants with board sizes and rule options.
    Variants,
    /// Count the leaf nodes at DEPTH: prints the count alone.
    Perft(perft::PerftArgs),
    /// Write the work units of a deep perft: the unique positions at ply K, each with how many
    /// paths reach it from each root move (JSON Lines; see docs/deep-perft.md).
    Plan(plan::PlanArgs),
    /// Count one shard of a plan's units, appending results as they finish (resumable).
    Work(work::WorkArgs),
    /// Sum results: a plan with its `work` result files (every unit exactly once), or shard
    /// reports of `perft --split K --shard I/N --format json` (every shard exactly once).
    Merge(perft::MergeArgs),
    /// One `move count` line per legal move, a blank line, then the total.
    Divide(perft::DivideArgs),
    /// The perftree script protocol: `cvperft perftree DEPTH FEN [MOVES]`.
    Perftree(perft::PerftreeArgs),
    /// Compare an engine's divide with ours and bisect to the first differing move.
    ///
    /// Compares with our reference, or with a second engine (`--against`), descends into the
    /// first move whose counts differ until the move lists differ, and prints that position.
    /// Exit 0 agree, 1 differ, 2 error.
    Diff(diff::DiffArgs),
    /// Add a case to a suite from a game: replay it, count perft 1..N with the reference,
    /// optionally compare an engine (differences make the case disputed), append keeping
    /// every byte of the file (`--create`: start a new suite file with the case).
    AddCase(add_case::AddCaseArgs),
    /// Tell which value of each rule option an engine implements.
    Identify(identify::IdentifyArgs),
    /// Replay a game record (our move text, Game Courier, PGN with SAN): one line per ply with
    /// the move as written, our move text, SAN and the FEN after it; `--at-ply K` also shows
    /// the position after ply K with its legal moves. Exit 2 at the first illegal move.
    Game(game::GameArgs),
    /// Run conformance suites: every check of every case, then `N passed, N failed, N skipped`.
    Check(check::CheckArgs),
    /// Write suites as EPD, python-chess `.perft` files or JSON Lines, for other projects' test
    /// runners (docs/export.md); the checks chosen as in `check`.
    Export(export::ExportArgs),
    /// Validate a FEN: prints the normalised FEN and a board diagram (`--format svg`: an SVG
    /// image of the board instead).
    Fen(fen::FenArgs),
}

/// Parses arguments, runs the command, prints any error once, returns the exit code.
pub fn run() -> ExitCode {
    // First, before any other thread exists: SIGINT, SIGTERM and SIGHUP go to a thread that
    // kills running engines and removes temporary files, then exits with 130, 143 or 129.
    if let Err(e) = cvperft::cleanup::install_signal_handling(report_signal) {
        say(&format!("cannot set up signal handling: {e}"));
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap prints them on stdout. A reader gone (`| head -1`)
            // is no failure, as for every command; a full disk is.
            return match e.print() {
                Err(io) if io.kind() != std::io::ErrorKind::BrokenPipe => {
                    say(&format!("standard output: {io}"));
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            };
        }
        Err(e) => {
            say(&usage_error_line(&e));
            return ExitCode::from(2);
        }
    };
    let mut out = output::Stdout::new();
    // A reader that goes away (`| head`) ends no run: what is written after is discarded, and
    // the exit status is the whole run's.
    let result = dispatch(cli.command, &mut out);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(f) = e.downcast_ref::<Failure>() {
                if !f.message.is_empty() {
                    say(&f.message);
                }
                return ExitCode::from(f.code);
            }
            let line = one_line(&e);
            if refuses_standard_error(&e) {
                // Standard error is the refused file: the message would become its last line.
                say_elsewhere(&line);
            } else {
                say(&line);
            }
            ExitCode::from(2)
        }
    }
}

/// The refusal of an output file named by its own name because standard error is written to
/// it (`work --output f.jsonl 2>>f.jsonl`): said on standard output, not added to the file.
/// (`--output /dev/stderr 2>>log` names the stream, and `log` is told on standard error.)
#[derive(Debug)]
pub struct OutputIsStandardError(pub String);

impl std::fmt::Display for OutputIsStandardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for OutputIsStandardError {}

/// Whether `e` refuses an output file, named by its own name, that standard error is written
/// to.
fn refuses_standard_error(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<OutputIsStandardError>())
}

/// Prints `cvperft: LINE` on standard output, for a message that standard error must not get;
/// nothing when standard output goes to the same file.
fn say_elsewhere(line: &str) {
    use std::io::Write;
    if cvperft::fsio::stdout_is_stderr() {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "cvperft: {}", cvperft::report::message_line(line));
    let _ = out.flush();
}

/// Reports an interrupting signal and what was cleaned up (the clean-up thread then exits with
/// 128 + its number).
fn report_signal(signal: i32, undone: cvperft::cleanup::Undone) {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut done = Vec::new();
    if undone.groups > 0 {
        done.push(format!("{} stopped", plural(undone.groups, "engine")));
    }
    if undone.files > 0 {
        done.push(format!(
            "{} removed",
            plural(undone.files, "temporary file")
        ));
    }
    let name = cvperft::cleanup::signal_name(signal);
    // A signal that comes after the run put a file in place does not undo it: say so, or a
    // script that sees the exit status would take the file for unchanged.
    let written = match undone.written.as_slice() {
        [] => String::new(),
        paths => format!(
            " after writing {} (the run's change is in it)",
            paths
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if done.is_empty() {
        say(&format!("interrupted by {name}{written}"));
    } else {
        say(&format!(
            "interrupted by {name}{written}: {}",
            done.join(", ")
        ));
    }
}

/// Prints `cvperft: LINE` on stderr, long words cut (see [`cvperft::report::message_line`]); a
/// stderr that cannot be written to is ignored, never a panic.
pub fn say(line: &str) {
    output::stderr_line(&format!("cvperft: {line}"));
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for Failure {}

/// A command-line usage error on one line: clap's message and tip, without its usage and
/// help hints (printed as they are, they take several lines).
fn usage_error_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        return "no command given (see `cvperft --help`)".into();
    }
    if e.kind() == ErrorKind::InvalidUtf8
        && let Some(line) = not_utf8_argument(std::env::args_os().skip(1))
    {
        return line;
    }
    let mut text = e.render().to_string();
    // clap repeats a wrong value or argument whole, in single quotes.
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg] {
        if let Some(ContextValue::String(given)) = e.get(kind) {
            // Its tip repeats it once more, after `-- `.
            for quoted in [given.clone(), format!("-- {given}")] {
                let short = echo(&quoted).quoted('\'').to_string();
                text = text.replace(&format!("'{quoted}'"), &short);
            }
        }
    }
    let mut line = String::new();
    for part in text.lines().map(str::trim) {
        if part.is_empty() || part.starts_with("Usage:") || part.starts_with("For more information")
        {
            continue;
        }
        if !line.is_empty() {
            line.push_str(if part.starts_with("tip:") { "; " } else { " " });
        }
        line.push_str(part.strip_prefix("error: ").unwrap_or(part));
    }
    format!("{line} (see `cvperft --help`)")
}

/// Which of `args` (the arguments after the program's name) is not UTF-8 text, at which column,
/// and the option before it: clap says only that one of them is not. The argument is shown
/// with each byte that is not UTF-8 as `\xHH` (and cut like any other message by [`say`]).
fn not_utf8_argument(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let mut before: Option<String> = None;
    for (i, arg) in args.enumerate() {
        let bytes = arg.as_bytes();
        let Err(bad) = std::str::from_utf8(bytes) else {
            before = arg.to_str().map(str::to_string);
            continue;
        };
        let at = bad.valid_up_to();
        let shown: String = bytes
            .utf8_chunks()
            .map(|c| {
                let invalid: String = c.invalid().iter().map(|b| format!("\\x{b:02x}")).collect();
                format!("{}{invalid}", c.valid())
            })
            .collect();
        let of = match before.as_deref() {
            Some(o) if o.starts_with('-') && o.len() > 1 && !o.contains('=') => {
                format!(" (after `{o}`)")
            }
            _ => String::new(),
        };
        let column = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
        return Some(format!(
            "argument {}{of}, column {column}: not UTF-8 text: {} (see `cvperft --help`)",
            i + 1,
            echo(&shown)
        ));
    }
    None
}

fn one_line(e: &anyhow::Error) -> String {
    let parts: Vec<String> = e.chain().map(|c| c.to_string()).collect();
    parts.join(": ").replace('\n', " ")
}

impl PositionArgs {
    /// The position asked for, as the library takes it.
    pub fn request(&self) -> PositionRequest {
        PositionRequest {
            variant: self.variant.clone(),
            options: self.options.clone(),
            fen: self.fen.clone(),
            moves: self.moves.clone(),
        }
    }

    /// Builds the position the arguments describe.
    ///
    /// # Errors
    /// Unknown variant or option, bad FEN, illegal move (exit 2).
    pub fn position(&self) -> Result<Position> {
        self.request().position().map_err(|e| match e {
            RequestError::Moves(e) => moves_refused("--moves", &e).into(),
            other => Failure::input(other.to_string()).into(),
        })
    }
}

/// A number of seconds on the command line (`--timeout`, `--bisect-seconds`,
/// `--lock-timeout`): a finite number from 0 to 86400. Refused here, where clap repeats the
/// text as given, so that `1e400` or `18446744073709551616` is not echoed as `inf` or
/// rounded; each command checks its own lower bound after.
pub fn parse_seconds(text: &str) -> std::result::Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds".to_string())?;
    // Each bound said on its own: "0 to 86400" for `nan` read as though 0 were allowed, which
    // `--timeout` then refused.
    if !seconds.is_finite() {
        Err("expected a finite number of seconds".to_string())
    } else if seconds < 0.0 {
        Err("expected no negative number of seconds".to_string())
    } else if seconds > 86_400.0 {
        Err("expected at most 86400 seconds".to_string())
    } else {
        Ok(seconds)
    }
}

/// Builds rules from a variant id and `name=value` options.
///
/// # Errors
/// Unknown variant, malformed or unknown option (exit 2).
pub fn build_rules(variant: &str, options: &[String]) -> Result<Rules> {
    Ok(cvperft::request::rules_with_options(variant, options)
        .map_err(|e| Failure::input(e.to_string()))?)
}

/// A path of moves refused, named as the command line gave it (`--moves`, `moves`).
pub fn moves_refused(what: &str, error: &MovesError) -> Failure {
    Failure::input(format!("{what}: {error}"))
}

/// Refuses 0 or more than [`MAX_THREADS`](cvperft::request::MAX_THREADS) worker threads.
pub(crate) fn check_threads(threads: usize) -> Result<()> {
    use cvperft::request::MAX_THREADS;
    if threads == 0 || threads > MAX_THREADS {
        bail!(Failure::input(format!(
            "--threads {threads}: expected 1 to {MAX_THREADS}"
        )));
    }
    Ok(())
}

fn dispatch(command: Command, out: &mut output::Stdout) -> Result<()> {
    match command {
        Command::Variants => variants::run(out),
        Command::Perft(args) => perft::run_perft(args, out),
        Command::Plan(args) => plan::run(args, out),
        Command::Work(args) => work::run(args, out),
        Command::Merge(args) => perft::run_merge(args, out),
        Command::Divide(args) => perft::run_divide(args, out),
        Command::Perftree(args) => perft::run_perftree(args, out),
        Command::Diff(args) => diff::run(args, out),
        Command::AddCase(args) => add_case::run(args, out),
        Command::Identify(args) => identify::run(args, out),
        Command::Game(args) => game::run(args, out),
        Command::Check(args) => check::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Fen(args) => fen::run(args, out),
    }
}

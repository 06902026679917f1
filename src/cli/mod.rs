//! Command-line definition and dispatch. Every command returns a `Result`; `run` prints the
//! error once, on one line, and turns it into the exit code (0 success, 1 mismatch, 2 usage or
//! input error).

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use cvperft::notation::{board_diagram, parse_position, play_moves, to_fen};
use cvperft::perft::{HashTable, PerftConfig, divide_with, perft_with};
use cvperft::position::Position;
use cvperft::variant::Rules;
use cvperft::variants;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

mod add_case;
mod check;
mod check_engine;
mod diff;
mod export;
mod game;
mod identify;
mod output;
mod plan;
mod progress;
mod selection;
mod work;

/// Deepest perft the command line accepts: deeper runs could not finish in any budget.
pub const MAX_DEPTH: u32 = 15;
/// Most moves accepted in `--moves`.
pub const MAX_MOVES: usize = 10_000;

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

mod shard;

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
    Perft {
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print time and nodes per second on stderr.
        #[arg(long)]
        stats: bool,
        /// Worker threads (split at the root).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table of this many MB (off by default; never used for suites).
        #[arg(long, value_name = "MB")]
        hash: Option<usize>,
        /// Split the tree this many plies deep (with --shard).
        #[arg(long, value_name = "K")]
        split: Option<u32>,
        /// Compute shard I of N of the split paths.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Output: the count alone (text) or a shard report (json).
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
        /// No progress bar (shown on a terminal, per root move).
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Write the work units of a deep perft: the unique positions at ply K, each with how many
    /// paths reach it from each root move (JSON Lines; see docs/deep-perft.md).
    Plan(plan::PlanArgs),
    /// Count one shard of a plan's units, appending results as they finish (resumable).
    Work(work::WorkArgs),
    /// Sum results: a plan with its `work` result files (every unit exactly once), or shard
    /// reports of `perft --split K --shard I/N --format json` (every shard exactly once).
    Merge {
        /// A plan and its result files, or shard report files.
        files: Vec<std::path::PathBuf>,
        /// With a plan: print the root divide (`move count` lines, a blank line, the total).
        #[arg(long)]
        divide: bool,
        /// With a plan: the total alone (text) or a JSON document with the divide.
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
    },
    /// One `move count` line per legal move, a blank line, then the total.
    Divide {
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Worker threads (split at the root).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print each move's SAN beside its move text: `move SAN count`.
        #[arg(long)]
        san: bool,
    },
    /// The perftree script protocol: `cvperft perftree DEPTH FEN [MOVES]`.
    Perftree {
        /// Depth in plies.
        depth: u32,
        /// Position.
        fen: String,
        /// Space-separated moves to play first.
        moves: Option<String>,
        /// Variant id.
        #[arg(short = 'v', long = "variant", default_value = "chess")]
        variant: String,
        /// Rule option `name=value` (repeatable).
        #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Plant a move-generation bug (repeatable), to test `diff`: see docs/engines.md.
        #[arg(long = "inject", value_name = "FAULT")]
        inject: Vec<String>,
    },
    /// Compare an engine's divide with ours and bisect to the first differing move.
    ///
    /// Compares with our reference, or with a second engine (`--against`), descends into the
    /// first move whose counts differ until the move lists differ, and prints that position.
    /// Exit 0 agree, 1 differ, 2 error.
    Diff(diff::DiffArgs),
    /// Add a case to a suite from a game: replay it, count perft 1..N with the reference,
    /// optionally compare an engine (differences make the case disputed), append keeping
    /// every byte of the file.
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
    Fen {
        /// The FEN to check (default: the variant's start position).
        fen: Option<String>,
        /// Output: the FEN and a text diagram, or an SVG image (byte-identical for the same
        /// position).
        #[arg(long, default_value = "text", value_parser = ["text", "svg"])]
        format: String,
        /// Play these moves first (space-separated move text).
        #[arg(long)]
        moves: Option<String>,
        /// Variant id.
        #[arg(short = 'v', long = "variant", default_value = "chess")]
        variant: String,
        /// Rule option `name=value` (repeatable).
        #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
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
            // --help and --version: clap prints them on stdout.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            say(&usage_error_line(&e));
            return ExitCode::from(2);
        }
    };
    let mut out = output::Stdout::new();
    let result = dispatch(cli.command, &mut out);
    if out.pipe_closed() {
        // The reader has gone (`| head`): what it wanted, it has. Not an error, whatever the
        // format or the error it caused on the way out.
        return ExitCode::SUCCESS;
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(f) = e.downcast_ref::<Failure>() {
                if !f.message.is_empty() {
                    say(&f.message);
                }
                return ExitCode::from(f.code);
            }
            say(&one_line(&e));
            ExitCode::from(2)
        }
    }
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
    if done.is_empty() {
        say(&format!("interrupted by {name}"));
    } else {
        say(&format!("interrupted by {name}: {}", done.join(", ")));
    }
}

/// Prints `cvperft: LINE` on stderr, long words cut (see [`output::cut_long_words`]); a
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
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        return "no command given (see `cvperft --help`)".into();
    }
    let text = e.render().to_string();
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

fn one_line(e: &anyhow::Error) -> String {
    let parts: Vec<String> = e.chain().map(|c| c.to_string()).collect();
    parts.join(": ").replace('\n', " ")
}

/// Builds rules from a variant id and `name=value` options.
///
/// # Errors
/// Unknown variant, malformed or unknown option.
pub fn build_rules(variant: &str, options: &[String]) -> Result<Rules> {
    let mut rules = variants::rules(variant).ok_or_else(|| {
        Failure::input(format!(
            "unknown variant `{variant}` (variants: {})",
            variants::IDS.join(", ")
        ))
    })?;
    for opt in options {
        let (name, value) = opt.split_once('=').ok_or_else(|| {
            Failure::input(format!("option `{opt}` is not of the form name=value"))
        })?;
        rules
            .set(name.trim(), value.trim())
            .map_err(|e| Failure::input(e.to_string()))?;
    }
    Ok(rules)
}

/// Builds the position the arguments describe.
///
/// # Errors
/// Unknown variant or option, bad FEN, illegal move.
pub fn build_position(args: &PositionArgs) -> Result<Position> {
    let rules = build_rules(&args.variant, &args.options)?;
    let fen = args.fen.clone().unwrap_or_else(|| rules.start_fen());
    let pos = parse_position(rules, &fen).map_err(|e| Failure::input(format!("FEN: {e}")))?;
    match &args.moves {
        None => Ok(pos),
        Some(moves) => apply_moves(&pos, moves, "--moves"),
    }
}

fn apply_moves(pos: &Position, moves: &str, what: &str) -> Result<Position> {
    let count = moves.split_whitespace().count();
    if count > MAX_MOVES {
        return Err(Failure::input(format!(
            "{what}: {count} moves, at most {MAX_MOVES} are accepted"
        ))
        .into());
    }
    play_moves(pos, moves)
        .map_err(|(ply, e)| Failure::input(format!("{what}: ply {ply}: {e}")).into())
}

fn check_depth(depth: u32) -> Result<()> {
    if depth > MAX_DEPTH {
        bail!(Failure::input(format!(
            "depth {depth} is above the limit of {MAX_DEPTH}"
        )));
    }
    Ok(())
}

pub(crate) fn check_threads(threads: usize) -> Result<()> {
    if threads == 0 || threads > 256 {
        bail!(Failure::input(format!(
            "--threads {threads}: expected 1 to 256"
        )));
    }
    Ok(())
}

fn dispatch(command: Command, out: &mut impl Write) -> Result<()> {
    match command {
        Command::Variants => list_variants(out),
        Command::Check(args) => check::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Perft {
            depth,
            position,
            stats,
            threads,
            hash,
            split,
            shard,
            format,
            quiet,
        } => {
            check_depth(depth)?;
            check_threads(threads)?;
            let pos = build_position(&position)?;
            let table = match hash {
                Some(0) | None => None,
                Some(mb) if mb > 65536 => {
                    bail!(Failure::input(format!("--hash {mb}: at most 65536 MB")))
                }
                Some(mb) => Some(HashTable::new(mb).map_err(Failure::input)?),
            };
            let root_moves = pos.legal_moves().len() as u64;
            let bar = progress::bar(
                root_moves,
                quiet || depth < 3 || split.is_some() || shard.is_some(),
                "{bar:30} {pos}/{len} root moves, {msg} {elapsed} ETA {eta}",
            );
            bar.set_message("- leaves/s");
            let leaves = std::sync::atomic::AtomicU64::new(0);
            let start = Instant::now();
            let report = |n: u64| {
                let sum = leaves.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
                bar.inc(1);
                bar.set_message(format!(
                    "{} leaves/s",
                    progress::metric(sum as f64 / start.elapsed().as_secs_f64().max(1e-9))
                ));
            };
            let cfg = PerftConfig {
                threads,
                hash: table.as_ref(),
                progress: (!bar.is_hidden()).then_some(&report as &(dyn Fn(u64) + Sync)),
            };
            let nodes = if split.is_some() || shard.is_some() || format == "json" {
                let (k, n) = match &shard {
                    Some(s) => shard::parse_shard(s)?,
                    None => (1, 1),
                };
                let info = shard::RunInfo {
                    variant: &position.variant,
                    options: &position.options,
                    fen: position
                        .fen
                        .clone()
                        .unwrap_or_else(|| pos.rules().start_fen()),
                    moves: position.moves.clone().unwrap_or_default(),
                };
                let report =
                    cvperft::shards::run_shard(&pos, info, depth, split.unwrap_or(0), (k, n), &cfg)
                        .map_err(|e| Failure::input(e.0))?;
                if format == "json" {
                    writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
                } else {
                    writeln!(out, "{}", report.nodes)?;
                }
                report.nodes.0
            } else {
                let nodes = perft_with(&pos, depth, &cfg);
                bar.finish_and_clear();
                writeln!(out, "{nodes}")?;
                u128::from(nodes)
            };
            let elapsed = start.elapsed();
            if stats {
                let secs = elapsed.as_secs_f64();
                output::stderr_line(&format!(
                    "time {:.3} s, {:.0} nodes/s ({} thread{})",
                    secs,
                    nodes as f64 / secs.max(1e-9),
                    threads,
                    if threads == 1 { "" } else { "s" }
                ));
            }
            Ok(())
        }
        Command::Plan(args) => plan::run(args, out),
        Command::Work(args) => work::run(args, out),
        Command::Merge {
            files,
            divide,
            format,
        } => {
            if plan::merge(&files, divide, format == "json", out)? {
                return Ok(());
            }
            if divide || format == "json" {
                bail!(Failure::input(
                    "merge: --divide and --format json need a plan (cvperft-plan-1) among the files"
                ));
            }
            let total = shard::merge(&files)?;
            writeln!(out, "{total}")?;
            Ok(())
        }
        Command::Divide {
            depth,
            position,
            threads,
            san,
        } => {
            check_depth(depth)?;
            check_threads(threads)?;
            let pos = build_position(&position)?;
            print_divide(out, &pos, depth, threads, san)
        }
        Command::Perftree {
            depth,
            fen,
            moves,
            variant,
            options,
            inject,
        } => {
            check_depth(depth)?;
            let rules = build_rules(&variant, &options)?;
            let faults = cvperft::faults::Faults::parse(&variant, &inject)
                .map_err(|e| Failure::input(e.to_string()))?;
            let pos =
                parse_position(rules, &fen).map_err(|e| Failure::input(format!("FEN: {e}")))?;
            let pos = match moves {
                Some(m) => apply_moves(&pos, &m, "moves")?,
                None => pos,
            };
            if faults.is_empty() {
                print_divide(out, &pos, depth, 1, false)
            } else {
                print_entries(out, &cvperft::faults::divide(&pos, depth, &faults))
            }
        }
        Command::Diff(args) => diff::run(args, out),
        Command::AddCase(args) => add_case::run(args, out),
        Command::Identify(args) => identify::run(args, out),
        Command::Game(args) => game::run(args, out),
        Command::Fen {
            fen,
            format,
            moves,
            variant,
            options,
        } => {
            let pos = build_position(&PositionArgs {
                variant,
                fen,
                moves,
                options,
            })?;
            if format == "svg" {
                let board = cvperft::diagram::Board::of_position(&pos);
                let svg = cvperft::diagram::svg::render(
                    &board,
                    &cvperft::diagram::Overlay::default(),
                    &cvperft::diagram::svg::SvgOptions::default(),
                );
                writeln!(out, "{svg}")?;
                return Ok(());
            }
            writeln!(out, "{}", to_fen(&pos))?;
            write!(out, "{}", board_diagram(&pos))?;
            Ok(())
        }
    }
}

fn print_divide(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    threads: usize,
    san: bool,
) -> Result<()> {
    let entries = divide_with(
        pos,
        depth,
        &PerftConfig {
            threads,
            ..Default::default()
        },
    );
    if !san {
        return print_entries(out, &entries);
    }
    let sans: std::collections::BTreeMap<String, String> = cvperft::san::san_moves(pos)
        .into_iter()
        .map(|(m, s)| (cvperft::notation::move_text(pos, &m), s))
        .collect();
    print_entries_with(out, &entries, |text| sans.get(text).map(String::as_str))
}

fn print_entries(out: &mut impl Write, entries: &[cvperft::perft::DivideEntry]) -> Result<()> {
    print_entries_with(out, entries, |_| None)
}

/// `move count` per entry (`move SAN count` when `san` names one), a blank line, the total.
fn print_entries_with<'a>(
    out: &mut impl Write,
    entries: &[cvperft::perft::DivideEntry],
    san: impl Fn(&str) -> Option<&'a str>,
) -> Result<()> {
    let total: u64 = entries.iter().map(|e| e.count).sum();
    for e in entries {
        match san(&e.text) {
            Some(s) => writeln!(out, "{} {s} {}", e.text, e.count)?,
            None => writeln!(out, "{} {}", e.text, e.count)?,
        }
    }
    writeln!(out)?;
    writeln!(out, "{total}")?;
    Ok(())
}

fn list_variants(out: &mut impl Write) -> Result<()> {
    for v in variants::all() {
        let s = &v.spec;
        writeln!(out, "{} ({}x{}) {}", s.id, s.files, s.ranks, s.name)?;
        let rules = Rules::new(v);
        writeln!(out, "  start: {}", rules.start_fen())?;
        for o in &s.options {
            writeln!(
                out,
                "  option {} = {} (default {}; {}) {}",
                o.name,
                o.values.join(" | "),
                o.values[0],
                o.ruling,
                o.help
            )?;
        }
        writeln!(
            out,
            "  option game-end = rules | movegen (default rules; GE-1)"
        )?;
    }
    Ok(())
}

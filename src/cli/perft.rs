//! `cvperft perft`, `divide`, `perftree` and `merge`: counting from one position.
//!
//! The counting is the library's ([`cvperft::perft`], [`cvperft::shards`] for `--split` and
//! `merge`); these commands check their arguments and print: a count alone, `move count` lines
//! with a blank line and the total, or a shard report.

use super::{Failure, PositionArgs, build_rules, check_threads, moves_refused, output, shard};
use anyhow::{Result, bail};
use clap::Args;
use cvperft::faults::Faults;
use cvperft::notation::{move_text, parse_position};
use cvperft::perft::{
    DivideEntry, HashTable, OVERFLOW, PerftConfig, checked, divide_with, perft_with, sum,
};
use cvperft::position::Position;
use cvperft::request::{MAX_DEPTH, play_path};
use cvperft::shards::{RunInfo, run_shard};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Largest transposition table accepted, in MB.
const MAX_HASH_MB: usize = 65536;

/// `cvperft perft` arguments.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print time and nodes per second on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Worker threads (split at the root).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table of this many MB (off by default; never used for suites).
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
    /// Split the tree this many plies deep (with --shard).
    #[arg(long, value_name = "K")]
    pub split: Option<u32>,
    /// Compute shard I of N of the paths at the --split ply (N > 1 needs --split).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Output: the count alone (text) or a shard report (json).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// No progress bar (shown on a terminal, per root move).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `cvperft divide` arguments.
#[derive(Args, Debug)]
pub struct DivideArgs {
    /// Depth in plies.
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Worker threads (split at the root).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print each move's SAN beside its move text: `move SAN count`.
    #[arg(long)]
    pub san: bool,
}

/// `cvperft perftree` arguments: perftree's script protocol.
#[derive(Args, Debug)]
pub struct PerftreeArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position.
    pub fen: String,
    /// Space-separated moves to play first.
    pub moves: Option<String>,
    /// Variant id.
    #[arg(short = 'v', long = "variant", default_value = "chess")]
    pub variant: String,
    /// Rule option `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Plant a move-generation bug (repeatable), to test `diff`: see docs/engines.md.
    #[arg(long = "inject", value_name = "FAULT")]
    pub inject: Vec<String>,
}

/// `cvperft merge` arguments.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// A plan and its result files, or shard report files.
    pub files: Vec<PathBuf>,
    /// With a plan: print the root divide (`move count` lines, a blank line, the total).
    #[arg(long)]
    pub divide: bool,
    /// With a plan: the total alone (text) or a JSON document with the divide.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// Refuses a depth above [`MAX_DEPTH`].
pub fn check_depth(depth: u32) -> Result<()> {
    if depth > MAX_DEPTH {
        bail!(Failure::input(format!(
            "depth {depth} is above the limit of {MAX_DEPTH}"
        )));
    }
    Ok(())
}

/// Checks the depth of a divide: one line per legal move needs depth 1 or more (at depth 0
/// there are no moves to list, and an empty list with a total of 0 would contradict perft 0,
/// which is 1).
///
/// # Errors
/// Depth 0 or above [`MAX_DEPTH`] (exit 2).
pub fn check_divide_depth(depth: u32) -> Result<()> {
    if depth == 0 {
        bail!(Failure::input(format!(
            "depth 0: a divide lists each move's count, at depths 1 to {MAX_DEPTH}"
        )));
    }
    check_depth(depth)
}

/// The transposition table `--hash MB` asks for (none for 0).
fn hash_table(hash: Option<usize>) -> Result<Option<HashTable>> {
    match hash {
        Some(0) | None => Ok(None),
        Some(mb) if mb > MAX_HASH_MB => bail!(Failure::input(format!(
            "--hash {mb}: at most {MAX_HASH_MB} MB"
        ))),
        Some(mb) => Ok(Some(HashTable::new(mb).map_err(Failure::input)?)),
    }
}

/// Runs `cvperft perft`: the count alone, or with `--split`, `--shard` or `--format json` one
/// shard of the split.
///
/// # Errors
/// Bad arguments or position (exit 2); writing failed.
pub fn run_perft(args: PerftArgs, out: &mut impl Write) -> Result<()> {
    check_depth(args.depth)?;
    check_threads(args.threads)?;
    let pos = args.position.position()?;
    let table = hash_table(args.hash)?;
    let split_run = args.split.is_some() || args.shard.is_some();
    let bar = super::progress::bar(
        pos.legal_moves().len() as u64,
        args.quiet || args.depth < 3 || split_run,
        "{bar:30} {pos}/{len} root moves, {msg} {elapsed} ETA {eta}",
    );
    bar.set_message("- leaves/s");
    let leaves = std::sync::atomic::AtomicU64::new(0);
    let start = Instant::now();
    // Called once per root move (never per node) when the bar is shown.
    let report = |n: u64| {
        let sum = leaves
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed)
            .saturating_add(n);
        bar.inc(1);
        bar.set_message(format!(
            "{} leaves/s",
            super::progress::metric(sum as f64 / start.elapsed().as_secs_f64().max(1e-9))
        ));
    };
    let cfg = PerftConfig {
        threads: args.threads,
        hash: table.as_ref(),
        progress: (!bar.is_hidden()).then_some(&report as &(dyn Fn(u64) + Sync)),
    };
    let nodes = if args.split.is_some() || args.shard.is_some() || args.format == "json" {
        let shard = match &args.shard {
            Some(s) => shard::parse_shard(s)?,
            None => (1, 1),
        };
        if shard.1 > 1 && args.split.unwrap_or(0) == 0 {
            // Without a split (or split at ply 0) the tree is one path: shard 1 would count all
            // of it and every other shard nothing (printing 0 with exit 0), which a farm of N
            // machines would not expect.
            return Err(Failure::input(format!(
                "--shard {}/{} needs --split K of 1 or more (the ply whose paths are dealt out, \
                 e.g. --split 2): {}, the tree is one path and shard 1 counts all of it",
                shard.0,
                shard.1,
                if args.split.is_some() {
                    "split at ply 0"
                } else {
                    "without it"
                }
            ))
            .into());
        }
        let request = args.position.request();
        let info = RunInfo {
            variant: &request.variant,
            options: &request.options,
            fen: request.root_fen(pos.rules()),
            moves: request.moves.clone().unwrap_or_default(),
        };
        let split = args.split.unwrap_or(0);
        let report = run_shard(&pos, info, args.depth, split, shard, &cfg)
            .map_err(|e| Failure::input(e.to_string()))?;
        if args.format == "json" {
            writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        } else {
            writeln!(out, "{}", report.nodes)?;
        }
        report.nodes.0
    } else {
        let nodes = checked(perft_with(&pos, args.depth, &cfg));
        bar.finish_and_clear();
        let nodes = nodes.map_err(|e| Failure::input(e.to_string()))?;
        writeln!(out, "{nodes}")?;
        u128::from(nodes)
    };
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        output::stderr_line(&format!(
            "time {:.3} s, {:.0} nodes/s ({} thread{})",
            secs,
            nodes as f64 / secs.max(1e-9),
            args.threads,
            if args.threads == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// Runs `cvperft divide`.
///
/// # Errors
/// Bad arguments or position (exit 2); writing failed.
pub fn run_divide(args: DivideArgs, out: &mut impl Write) -> Result<()> {
    check_divide_depth(args.depth)?;
    check_threads(args.threads)?;
    let pos = args.position.position()?;
    print_divide(out, &pos, args.depth, args.threads, args.san)
}

/// Runs `cvperft perftree`: a divide in perftree's format, of our generator or, with
/// `--inject`, of one with planted faults.
///
/// # Errors
/// Bad arguments, position or faults (exit 2); writing failed.
pub fn run_perftree(args: PerftreeArgs, out: &mut impl Write) -> Result<()> {
    check_divide_depth(args.depth)?;
    let rules = build_rules(&args.variant, &args.options)?;
    let faults =
        Faults::parse(&args.variant, &args.inject).map_err(|e| Failure::input(e.to_string()))?;
    let pos = parse_position(rules, &args.fen).map_err(|e| Failure::input(e.named()))?;
    let pos = match &args.moves {
        Some(moves) => play_path(&pos, moves).map_err(|e| moves_refused("moves", &e))?,
        None => pos,
    };
    if faults.is_empty() {
        print_divide(out, &pos, args.depth, 1, false)
    } else {
        print_entries(out, &cvperft::faults::divide(&pos, args.depth, &faults))
    }
}

/// Runs `cvperft merge`: the sum of the shard reports.
///
/// # Errors
/// Unreadable, malformed or inconsistent reports (exit 2); writing failed.
pub fn run_merge(args: MergeArgs, out: &mut impl Write) -> Result<()> {
    if super::plan::merge(&args.files, args.divide, args.format == "json", out)? {
        return Ok(());
    }
    if args.divide || args.format == "json" {
        bail!(Failure::input(
            "merge: --divide and --format json need a plan (cvperft-plan-1) among the files"
        ));
    }
    let total = shard::merge(&args.files)?;
    writeln!(out, "{total}")?;
    Ok(())
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
            ..PerftConfig::default()
        },
    );
    if !san {
        return print_entries(out, &entries);
    }
    let sans: BTreeMap<String, String> = cvperft::san::san_moves(pos)
        .into_iter()
        .map(|(m, s)| (move_text(pos, &m), s))
        .collect();
    print_entries_with(out, &entries, |text| sans.get(text).map(String::as_str))
}

fn print_entries(out: &mut impl Write, entries: &[DivideEntry]) -> Result<()> {
    print_entries_with(out, entries, |_| None)
}

/// `move count` per entry (`move SAN count` when `san` names one), a blank line, the total.
fn print_entries_with<'a>(
    out: &mut impl Write,
    entries: &[DivideEntry],
    san: impl Fn(&str) -> Option<&'a str>,
) -> Result<()> {
    // Nothing is printed of a divide whose total passes 64 bits (a move's count would have
    // saturated first, or the total does).
    let total = checked(sum(entries.iter().map(|e| e.count))).map_err(|e| {
        let over = entries.iter().find(|e| e.count == OVERFLOW);
        Failure::input(match over {
            Some(m) => format!("after {}: {e}", m.text),
            None => format!("the total: {e}"),
        })
    })?;
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

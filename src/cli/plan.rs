//! `cvperft plan`: the work units of a deep perft (see [`cvperft::deep`]).

use super::perft::check_depth;
use super::sink::Sink;
use super::{Failure, PositionArgs, check_threads};
use anyhow::Result;
use clap::Args;
use cvperft::deep::plan::{DEFAULT_MAX_UNITS, MAX_READ_UNITS, PlanRequest, build, write};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// Arguments of `cvperft plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Total depth in plies.
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// The ply of the work units (1 ..= DEPTH): each unique position there is one unit.
    #[arg(long, value_name = "K")]
    pub split: u32,
    /// Write the plan to FILE (a temporary file renamed into place) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads while planning.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Refuse plans of more units than this (memory: about 400 bytes per unit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_UNITS)]
    pub max_units: usize,
}

/// Runs `cvperft plan`.
///
/// # Errors
/// Bad arguments or position (exit 2), a write error.
pub fn run(args: PlanArgs, out: &mut impl Write) -> Result<()> {
    check_depth(args.depth)?;
    check_threads(args.threads)?;
    if args.max_units > MAX_READ_UNITS {
        return Err(Failure::input(format!(
            "--max-units {}: at most {MAX_READ_UNITS} (what `work` and `merge` read)",
            args.max_units
        ))
        .into());
    }
    let pos = args.position.position()?;
    let fen = args
        .position
        .fen
        .clone()
        .unwrap_or_else(|| pos.rules().start_fen());
    let moves = args.position.moves.clone().unwrap_or_default();
    let plan = build(
        &pos,
        &PlanRequest {
            variant: &args.position.variant,
            options: &args.position.options,
            fen: &fen,
            moves: &moves.split_whitespace().collect::<Vec<_>>().join(" "),
            depth: args.depth,
            split: args.split,
            max_units: args.max_units,
            threads: args.threads,
        },
    )
    .map_err(|e| Failure::input(e.to_string()))?;
    let summary = format!(
        "plan {}: {} units at ply {} ({} paths), depth {} left in each",
        plan.header.id,
        plan.header.units,
        plan.header.split,
        plan.header.paths,
        args.depth - args.split
    );
    match &args.output {
        None => {
            let mut w = BufWriter::new(out);
            write(&plan, &mut w)?;
            w.flush()?;
            super::output::stderr_line(&summary);
        }
        Some(target) => {
            // As `check --output`: a regular file replaced by a temporary file renamed over it
            // (links followed, removed on an error or a signal; read-only and hard-linked
            // files refused), a device or FIFO written directly.
            // The plan written to standard output itself (`--output /dev/stdout | gzip`) is
            // not followed there by the summary, which would become a line of the plan.
            let into_stdout = std::fs::metadata(target)
                .is_ok_and(|meta| cvperft::fsio::is_standard_output(&meta));
            let mut unused = std::io::sink();
            let mut sink = Sink::open(Some(target), &[], &mut unused)?;
            write(&plan, &mut sink.writer()).map_err(|e| sink.failed(e))?;
            sink.commit()?;
            if into_stdout {
                super::output::stderr_line(&summary);
            } else {
                writeln!(out, "{summary}")?;
            }
        }
    }
    Ok(())
}

/// Whether `path` starts with a plan header (a file that cannot be read is not one; reading it
/// again reports why). Only a regular file is looked into: a pipe, FIFO or device can be read
/// once, and the look would eat the beginning of a results file or shard report given as
/// `/dev/stdin` or `<(...)`, which was then refused as malformed.
fn is_plan(path: &std::path::Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = cvperft::fsio::open_read(path) else {
        return false;
    };
    let mut input = std::io::BufReader::new(file);
    match cvperft::deep::read_line(&mut input, &path.display().to_string(), 1) {
        Ok(Some(line)) => cvperft::deep::plan::is_plan_header(&line.text),
        _ => false,
    }
}

/// `merge` when a plan is among the files: checks and sums its results. Returns `false`
/// (nothing done) when no file is a plan.
///
/// # Errors
/// More than one plan, or as [`cvperft::deep::merge::merge`] (exit 2).
pub fn merge(files: &[PathBuf], divide: bool, json: bool, out: &mut impl Write) -> Result<bool> {
    let plans: Vec<&PathBuf> = files.iter().filter(|f| is_plan(f)).collect();
    let plan_path = match plans.as_slice() {
        [] => return Ok(false),
        [one] => *one,
        [a, b, ..] => {
            return Err(Failure::input(format!(
                "merge: two plans given ({} and {}); merge one plan's results at a time",
                a.display(),
                b.display()
            ))
            .into());
        }
    };
    let input = |e: cvperft::deep::DeepError| Failure::input(e.to_string());
    let plan = cvperft::deep::plan::read_file(plan_path).map_err(input)?;
    let results: Vec<PathBuf> = files.iter().filter(|f| *f != plan_path).cloned().collect();
    let merged = cvperft::deep::merge::merge(&plan, &results).map_err(input)?;
    if json {
        let h = &plan.header;
        let divide: Vec<serde_json::Value> = merged
            .divide
            .iter()
            .map(|(m, c)| serde_json::json!({"move": m, "count": cvperft::deep::json_count(*c)}))
            .collect();
        let doc = serde_json::json!({
            "format": "cvperft-merge-1",
            "plan": h.id,
            "variant": h.variant,
            "options": h.options,
            "fen": h.fen,
            "moves": h.moves,
            "depth": h.depth,
            "split": h.split,
            "units": merged.units,
            "verified_units": merged.verified,
            "total": cvperft::deep::json_count(merged.total),
            "divide": divide,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        if divide {
            for (m, c) in &merged.divide {
                writeln!(out, "{m} {c}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "{}", merged.total)?;
    }
    super::output::stderr_line(&format!(
        "merged {} units of plan {} from {} file(s); {} counted twice with equal results",
        merged.units, plan.header.id, merged.files, merged.verified
    ));
    Ok(true)
}

//! `cvperft work PLAN --shard I/N`: counts one shard of a plan's units, appending each result
//! to the shard's result file as it finishes; a rerun skips the units already there.

use super::progress::{bar, metric};
use super::shard::parse_shard;
use super::{Failure, build_rules, check_threads};
use anyhow::Result;
use clap::Args;
use cvperft::deep::plan::read_file;
use cvperft::deep::results::{RESULTS_FORMAT, ResultsHeader, ResultsWriter, UnitResult};
use cvperft::deep::work::{Counter, UnitCount, shard_units};
use cvperft::deep::{DeepError, DeepReason};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Arguments of `cvperft work`.
#[derive(Args, Debug)]
pub struct WorkArgs {
    /// The plan (from `cvperft plan`).
    pub plan: PathBuf,
    /// Count shard I of N (1-based): units dealt by estimated cost, deterministically.
    #[arg(long, value_name = "I/N")]
    pub shard: String,
    /// Result file, or a directory to hold `results-<plan>-I-of-N.jsonl` (default: the current
    /// directory). An existing result file of the same plan and shard is resumed.
    #[arg(long, value_name = "DIR|FILE")]
    pub output: Option<PathBuf>,
    /// Count every unit twice, independently (tables with keys from two seeds, or without and
    /// with a table), and report every unit whose counts differ (exit 1).
    #[arg(long)]
    pub verify: bool,
    /// Transposition table of this many MB (one per count; with --verify and no --hash the
    /// second count uses 64 MB).
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
    /// Seed of the table's hash keys (0: the built-in keys; --verify's second count uses
    /// SEED + 1).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (units are counted in parallel, sharing the table).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Plant a fault, to test --verify: `second-count` makes the second count of every odd
    /// unit one too high.
    #[arg(long, hide = true, value_name = "FAULT", value_parser = ["second-count"])]
    pub inject: Option<String>,
}

fn results_path(args: &WorkArgs, plan_id: &str, shard: (usize, usize)) -> PathBuf {
    let file = format!(
        "results-{}-{}-of-{}.jsonl",
        &plan_id[..plan_id.len().min(12)],
        shard.0,
        shard.1
    );
    match &args.output {
        None => PathBuf::from(file),
        Some(p) if p.is_dir() || p.to_string_lossy().ends_with('/') => p.join(file),
        Some(p) => p.clone(),
    }
}

/// Runs `cvperft work`.
///
/// # Errors
/// Bad arguments, plan or result file (exit 2); units whose two counts differ (exit 1).
pub fn run(args: WorkArgs, out: &mut impl Write) -> Result<()> {
    check_threads(args.threads)?;
    let (k, n) = parse_shard(&args.shard)?;
    if n > cvperft::shards::MAX_SHARDS {
        return Err(Failure::input(format!(
            "--shard {k}/{n}: at most {} shards",
            cvperft::shards::MAX_SHARDS
        ))
        .into());
    }
    if let Some(mb) = args.hash
        && !(1..=65536).contains(&mb)
    {
        return Err(Failure::input(format!("--hash {mb}: expected 1 to 65536 MB")).into());
    }
    if args.seed != 0 && args.hash.is_none() && !args.verify {
        return Err(
            Failure::input("--seed needs --hash or --verify (only tables use keys)").into(),
        );
    }
    let input = |e: DeepError| Failure::input(e.to_string());
    let plan = read_file(&args.plan).map_err(input)?;
    let rules = build_rules(&plan.header.variant, &plan.header.options)
        .map_err(|e| Failure::input(format!("{}: line 1: {e:#}", args.plan.display())))?;
    let path = results_path(&args, &plan.header.id, (k, n));
    let header = ResultsHeader {
        format: RESULTS_FORMAT.into(),
        plan: plan.header.id.clone(),
        shard: k,
        shards: n,
        seed: args.seed,
        verify: args.verify,
    };
    // The results file read back and appended to must not be where the summary or messages
    // go too (`--output /dev/stdout` with standard output sent to a file): they would
    // overwrite its header.
    if let Some(name) = std::fs::metadata(&path)
        .ok()
        .and_then(|meta| cvperft::fsio::standard_stream(&meta))
    {
        let message = format!(
            "--output {}: is {name}; give the results file a name of its own",
            path.display()
        );
        return Err(if cvperft::fsio::is_standard_error_by_name(&path) {
            super::OutputIsStandardError(message).into()
        } else {
            Failure::input(message).into()
        });
    }
    let (writer, done) = ResultsWriter::open(&path, &header).map_err(input)?;
    let mine = shard_units(&plan, k, n);
    let mine_set: std::collections::BTreeSet<usize> = mine.iter().copied().collect();
    if let Some((&unit, r)) = done.iter().find(|(u, _)| !mine_set.contains(u)) {
        return Err(Failure::input(format!(
            "{}: line {}: unit {unit} is not in shard {k}/{n}",
            path.display(),
            r.line
        ))
        .into());
    }
    let pending: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|u| !done.contains_key(u))
        .collect();
    let mut counter = Counter::new(args.hash, args.seed, args.verify).map_err(input)?;
    if args.inject.is_some() {
        counter.inject_fault();
    }
    let total_cost: u128 = mine.iter().map(|&u| u128::from(plan.units[u].cost)).sum();
    let done_cost: u128 = total_cost
        - pending
            .iter()
            .map(|&u| u128::from(plan.units[u].cost))
            .sum::<u128>();
    // The bar counts estimated cost, scaled to fit 64 bits; its message counts units.
    let scale = (total_cost >> 62) + 1;
    let progress = bar(
        (total_cost / scale) as u64,
        args.quiet,
        "{bar:30} {msg} {elapsed} ETA {eta}",
    );
    progress.set_position((done_cost / scale) as u64);
    let start = Instant::now();
    let leaves = AtomicU64::new(0);
    let units_done = AtomicU64::new((mine.len() - pending.len()) as u64);
    let message = |units: u64, leaves: u64| {
        format!(
            "{units}/{} units, {} leaves/s",
            mine.len(),
            metric(leaves as f64 / start.elapsed().as_secs_f64().max(1e-9))
        )
    };
    progress.set_message(message(units_done.load(Ordering::Relaxed), 0));
    let writer = Mutex::new(writer);
    let differ = Mutex::new(Vec::new());
    let failure: Mutex<Option<DeepError>> = Mutex::new(None);
    let work_on = |&u: &usize| {
        if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
            return;
        }
        let unit = &plan.units[u];
        // A unit's key that is not a position is the plan's fault: named by its line (the
        // header is line 1, unit u is line u + 2, as the plan was read).
        let located = |e: DeepError| match e.file {
            None => DeepError::at(&args.plan.display().to_string(), u + 2, e.reason),
            Some(_) => e,
        };
        let outcome = counter
            .count(rules, unit)
            .map_err(located)
            .and_then(|count| {
                let (value, verified) = match count {
                    UnitCount::Counted(c) => (c, false),
                    UnitCount::Verified(c) => (c, true),
                    UnitCount::Differ(a, b) => {
                        if let Ok(mut d) = differ.lock() {
                            d.push((u, a, b));
                        }
                        return Ok(());
                    }
                };
                let result = UnitResult {
                    unit: u,
                    count: value.to_string(),
                    verified,
                };
                let mut w = writer
                    .lock()
                    .map_err(|_| DeepError::from(DeepReason::WorkerFailed))?;
                w.append(&result)?;
                let l = leaves.fetch_add(value, Ordering::Relaxed) + value;
                let d = units_done.fetch_add(1, Ordering::Relaxed) + 1;
                progress.inc(u64::try_from(u128::from(unit.cost) / scale).unwrap_or(u64::MAX));
                progress.set_message(message(d, l));
                Ok(())
            });
        if let Err(e) = outcome
            && let Ok(mut f) = failure.lock()
        {
            f.get_or_insert(e);
        }
    };
    let run = || pending.par_iter().for_each(work_on);
    cvperft::perft::on_threads(args.threads, run);
    progress.finish_and_clear();
    let mut writer = writer
        .into_inner()
        .map_err(|_| Failure::input("a worker thread failed"))?;
    // The lines written are forced to disk even after a failure, which is the one reported.
    let synced = writer.sync();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(Failure::input(e.to_string()).into());
    }
    synced.map_err(input)?;
    let mut differ = differ.into_inner().unwrap_or_default();
    differ.sort_unstable();
    for &(u, a, b) in &differ {
        super::say(&format!(
            "unit {u} (`{}`, depth {}): {a} in the first count, {b} in the second",
            plan.units[u].key, plan.units[u].depth
        ));
    }
    let counted = pending.len() - differ.len();
    writeln!(
        out,
        "shard {k}/{n}: {} units, {counted} counted now, {} before{}; results in {}",
        mine.len(),
        mine.len() - pending.len(),
        if args.verify {
            " (each counted twice)"
        } else {
            ""
        },
        display(&path)
    )?;
    if !differ.is_empty() {
        return Err(Failure {
            code: 1,
            message: format!(
                "{} unit(s) counted differently twice (not written; see above)",
                differ.len()
            ),
        }
        .into());
    }
    Ok(())
}

/// The path as a summary line shows it: line breaks and what would act on a terminal escaped
/// (`--output $'a\nb\e[31m.jsonl'` was written raw), as in messages.
fn display(path: &Path) -> String {
    cvperft::report::one_line(&path.display().to_string()).into_owned()
}

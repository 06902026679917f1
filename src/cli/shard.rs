//! `perft --split K --shard I/N --format json` and `merge`: deep perft split into shards that
//! run anywhere (CI matrix jobs, a batch system) and are summed afterwards.
//!
//! A shard file records what was asked (variant, options, FEN, moves, depth, split, shard I of
//! N) and the count below each of its paths. `merge` refuses files from different runs, a shard
//! given twice, or a missing shard.

use super::Failure;
use anyhow::{Context, Result};
use cvperft::perft::{PerftConfig, for_each_path, perft_with};
use cvperft::position::Position;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One shard's result.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardReport {
    /// Format marker.
    pub format: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as given.
    pub options: Vec<String>,
    /// Root FEN.
    pub fen: String,
    /// Root moves played first.
    pub moves: String,
    /// Total depth.
    pub depth: u32,
    /// Plies of the split.
    pub split: u32,
    /// 1-based shard index.
    pub shard: usize,
    /// Number of shards.
    pub shards: usize,
    /// Paths in the whole split (all shards).
    pub paths_total: usize,
    /// This shard's paths with their counts.
    pub entries: Vec<ShardEntry>,
    /// Sum of this shard's counts.
    pub nodes: u64,
}

/// One path of a shard.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardEntry {
    /// Index of the path in the sorted list of all paths.
    pub index: usize,
    /// Space-separated moves.
    pub path: String,
    /// perft(depth - split) after the path.
    pub count: u64,
}

const FORMAT: &str = "cvperft-shard-1";

/// Most paths one shard report may hold (keeps reports and memory bounded).
pub const MAX_SHARD_PATHS: usize = 1_000_000;

/// Parses `I/N` (1-based).
///
/// # Errors
/// Not two positive numbers with I ≤ N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || {
        Failure::input(format!(
            "--shard `{text}`: expected K/N with 1 <= K <= N, e.g. 2/4"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// What the run is, for the report.
pub struct RunInfo<'a> {
    /// Variant id.
    pub variant: &'a str,
    /// Options as given.
    pub options: &'a [String],
    /// Root FEN.
    pub fen: String,
    /// Root moves.
    pub moves: String,
}

/// Computes one shard.
///
/// # Errors
/// A split deeper than the depth.
pub fn run_shard(
    pos: &Position,
    info: RunInfo,
    depth: u32,
    split: u32,
    shard: (usize, usize),
    cfg: &PerftConfig,
) -> Result<ShardReport> {
    if split > depth {
        anyhow::bail!(Failure::input(format!(
            "--split {split} is deeper than the depth {depth}"
        )));
    }
    let (k, n) = shard;
    let mut entries = Vec::new();
    let mut index = 0usize;
    let mut too_many = false;
    for_each_path(pos, split, &mut |path, next| {
        if index % n == k - 1 {
            if entries.len() >= MAX_SHARD_PATHS {
                too_many = true;
                return false;
            }
            entries.push(ShardEntry {
                index,
                path: path.join(" "),
                count: perft_with(next, depth - split, cfg),
            });
        }
        index += 1;
        true
    });
    if too_many {
        anyhow::bail!(Failure::input(format!(
            "--split {split}: shard {k}/{n} would hold more than {MAX_SHARD_PATHS} paths; use more shards or a smaller split"
        )));
    }
    let nodes = entries.iter().map(|e| e.count).sum();
    Ok(ShardReport {
        format: FORMAT.into(),
        variant: info.variant.into(),
        options: info.options.to_vec(),
        fen: info.fen,
        moves: info.moves,
        depth,
        split,
        shard: k,
        shards: n,
        paths_total: index,
        entries,
        nodes,
    })
}

/// Reads shard files and sums them, checking every shard is present exactly once.
///
/// # Errors
/// Unreadable or malformed files, files of different runs, duplicate or missing shards.
pub fn merge(files: &[std::path::PathBuf]) -> Result<u64> {
    if files.is_empty() {
        anyhow::bail!(Failure::input("merge: no shard files given"));
    }
    let mut reports: BTreeMap<usize, (String, ShardReport)> = BTreeMap::new();
    let mut first: Option<(String, ShardReport)> = None;
    for file in files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {name}"))
            .map_err(|e| Failure::input(format!("{e:#}")))?;
        let report: ShardReport = serde_json::from_str(&text).map_err(|e| {
            Failure::input(format!(
                "{name}: line {}, column {}: not a shard report: {e}",
                e.line(),
                e.column()
            ))
        })?;
        if report.format != FORMAT {
            anyhow::bail!(Failure::input(format!(
                "{name}: format `{}` is not {FORMAT}",
                report.format
            )));
        }
        if let Some((first_name, f)) = &first {
            let same = f.variant == report.variant
                && f.options == report.options
                && f.fen == report.fen
                && f.moves == report.moves
                && f.depth == report.depth
                && f.split == report.split
                && f.shards == report.shards
                && f.paths_total == report.paths_total;
            if !same {
                anyhow::bail!(Failure::input(format!(
                    "{name} is from a different run than {first_name} (variant, options, FEN, moves, depth, split or shard count differ)"
                )));
            }
        } else {
            first = Some((name.clone(), report.clone()));
        }
        if report.shard == 0 || report.shard > report.shards {
            anyhow::bail!(Failure::input(format!(
                "{name}: shard {} of {} is out of range",
                report.shard, report.shards
            )));
        }
        let expected = (0..report.paths_total)
            .filter(|i| i % report.shards == report.shard - 1)
            .count();
        let sum: u64 = report.entries.iter().map(|e| e.count).sum();
        if report.entries.len() != expected || sum != report.nodes {
            anyhow::bail!(Failure::input(format!(
                "{name}: shard {} is incomplete or inconsistent ({} paths, expected {expected})",
                report.shard,
                report.entries.len()
            )));
        }
        if let Some((other, _)) = reports.get(&report.shard) {
            anyhow::bail!(Failure::input(format!(
                "shard {} is given twice: {other} and {name}",
                report.shard
            )));
        }
        reports.insert(report.shard, (name, report));
    }
    let shards = first.expect("at least one file").1.shards;
    let missing: Vec<String> = (1..=shards)
        .filter(|k| !reports.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        anyhow::bail!(Failure::input(format!(
            "missing shard(s) {} of {shards}",
            missing.join(", ")
        )));
    }
    Ok(reports.values().map(|(_, r)| r.nodes).sum())
}

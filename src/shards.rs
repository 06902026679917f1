//! Deep perft split into shards that run anywhere, and the checks that make their sum
//! trustworthy.
//!
//! `perft DEPTH --split K --shard I/N --format json` lists the paths of K plies from the root
//! (sorted by move text, numbered from 0), keeps those whose index is I-1 modulo N, and counts
//! perft(DEPTH-K) below each ([`run_shard`]): one [`ShardReport`] in the `cvperft-shard-1`
//! format. [`merge`] sums the reports of one run and refuses anything that would make the sum
//! wrong:
//!
//! - files of different runs (named by the first field that differs; options are compared
//!   with their defaults filled in, so `game-end=rules` spelled out is the run without it), a
//!   shard given twice, a shard missing;
//! - a shard whose entries are not exactly its share of the indices, in order, or whose counts
//!   do not add up to its `nodes`;
//! - an entry whose path is not the split's path of that index: the split is listed again from
//!   the recorded root (stopping as soon as it has more paths than the reports say), and
//!   where the split is one ply or none above the leaves each count is checked at its path
//!   too (perft 0 or 1 costs nothing beside the listing: a report whose `depth` was edited
//!   passed before);
//! - sums beyond 128 bits (counts are summed in `u128` with overflow checks: chess perft 14 is
//!   above 2^64 already).
//!
//! Counts above 2^53 are written as decimal strings ([`Count`]): a JSON reader that stores
//! numbers as doubles (JavaScript, jq) would round them silently. The checks are functions of
//! their own ([`check_entries`], [`verify_split`], [`checked_sum`]) for other plan formats.

use crate::echo::echo;
use crate::notation::{PlyError, PositionTextError, parse_position, play_moves};
use crate::perft::{PerftConfig, for_each_path, perft_with};
use crate::position::Position;
use crate::variant::OptionError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The format marker of a shard report.
pub const FORMAT: &str = "cvperft-shard-1";
/// Most paths one shard report may hold (keeps reports and memory bounded).
pub const MAX_SHARD_PATHS: usize = 1_000_000;
/// Largest shard report read (bytes): a report of [`MAX_SHARD_PATHS`] short paths is about
/// 100 MB of pretty-printed JSON.
pub const MAX_REPORT_BYTES: u64 = 256 << 20;
/// Most shards a run may be split into.
pub const MAX_SHARDS: usize = 1_000_000;
/// Deepest perft a report may describe.
pub const MAX_DEPTH: u32 = 15;
/// Largest count written as a JSON number: every integer up to 2^53 is exact as a double.
pub const MAX_JSON_NUMBER: u128 = 1 << 53;
/// Missing shards named one by one (or as ranges) in a message; the rest are counted.
const MAX_RANGES_SHOWN: usize = 8;

/// A leaf count in a report: a JSON number up to 2^53, a decimal string above (either is read).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count(pub u128);

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0 <= MAX_JSON_NUMBER {
            serializer.serialize_u64(self.0 as u64)
        } else {
            serializer.serialize_str(&self.0.to_string())
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct CountVisitor;
        impl serde::de::Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count: a whole number, or one in decimal digits in a string")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                Ok(Count(u128::from(v)))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                u128::try_from(v)
                    .map(Count)
                    .map_err(|_| E::custom(format_args!("a count of {v} is negative")))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Count, E> {
                // JSON gives a float for a number with a point or an exponent, for a whole
                // number of 2^64 or more, and for `-0`; `380.0` was said to be "380, not a whole
                // number". The value is not quoted: a float prints rounded, or as 300 digits.
                let reason = if v.fract() != 0.0 {
                    "a count that is not a whole number"
                } else if v.is_sign_negative() {
                    "a count with a minus sign"
                } else if v >= 18_446_744_073_709_551_616.0 {
                    "a count of 2^64 or more as a JSON number (write a count below 2^128 as a \
                     string of decimal digits)"
                } else {
                    "a count with a decimal point or an exponent: write a count in decimal \
                     digits alone"
                };
                Err(E::custom(reason))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Count, E> {
                if v.is_empty() || v.len() > 39 || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(E::custom("a count in a string must be decimal digits"));
                }
                v.parse()
                    .map(Count)
                    .map_err(|_| E::custom("a count in a string must be below 2^128"))
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

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
    pub nodes: Count,
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
    pub count: Count,
}

/// Why a shard cannot be computed or a set of reports cannot be merged: the report concerned,
/// where one is, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError {
    /// The report's name (its file), written before the reason.
    pub report: Option<String>,
    /// What is wrong.
    pub reason: ShardReason,
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(report) = &self.report {
            write!(f, "{report}: ")?;
        }
        write!(f, "{}", self.reason)
    }
}

impl std::error::Error for ShardError {}

impl From<ShardReason> for ShardError {
    fn from(reason: ShardReason) -> ShardError {
        ShardError {
            report: None,
            reason,
        }
    }
}

impl ShardReason {
    /// The reason, about the report named `report`.
    fn of(self, report: &str) -> ShardError {
        ShardError {
            report: Some(report.to_string()),
            reason: self,
        }
    }
}

/// What is wrong with a shard asked for, a report, or a set of reports.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardReason {
    /// A split deeper than the depth.
    #[error("--split {split} is deeper than the depth {depth}")]
    SplitBeyondDepth {
        /// The split.
        split: u32,
        /// The depth.
        depth: u32,
    },
    /// More shards than [`MAX_SHARDS`].
    #[error("--shard {shard}/{shards}: at most {MAX_SHARDS} shards")]
    TooManyShards {
        /// The shard asked for.
        shard: usize,
        /// Of how many.
        shards: usize,
    },
    /// A shard of more than [`MAX_SHARD_PATHS`] paths (`paths`: how many, when counted).
    #[error(
        "--split {split}: shard {shard}/{shards} would hold more than {MAX_SHARD_PATHS} paths{}; \
         use more shards or a smaller split",
        counted_paths(*.paths)
    )]
    ShardTooLarge {
        /// The split.
        split: u32,
        /// The shard.
        shard: usize,
        /// Of how many.
        shards: usize,
        /// How many paths it would hold, when counted before listing them.
        paths: Option<usize>,
    },
    /// A shard's counts past 128 bits.
    #[error("the shard's counts add up to more than 2^128")]
    ShardOverflow,
    /// A path whose count saturated ([`crate::perft::OVERFLOW`]); the path is empty for the
    /// root (no split).
    #[error("{}{error}", if path.is_empty() { String::new() } else { format!("path `{path}`: ") })]
    PathOverflow {
        /// The path's moves.
        path: String,
        /// The count's overflow.
        error: crate::perft::CountOverflow,
    },
    /// A report's shard number out of range.
    #[error("shard {shard} of {shards} is out of range")]
    ShardOutOfRange {
        /// The shard number.
        shard: usize,
        /// Of how many.
        shards: usize,
    },
    /// A report listing another number of paths than its share.
    #[error(
        "shard {shard} is incomplete or inconsistent: it lists {listed} paths, but shard {shard} \
         of {shards} of a split of {paths_total} paths has {expected}"
    )]
    EntryCount {
        /// The shard number.
        shard: usize,
        /// Of how many.
        shards: usize,
        /// How many paths it lists.
        listed: usize,
        /// The split's paths.
        paths_total: usize,
        /// The shard's share of them.
        expected: usize,
    },
    /// An entry whose index is not the shard's next one.
    #[error(
        "shard {shard} is incomplete or inconsistent: its entry {entry} has index {index}, \
         where shard {shard} of {shards} has index {want}"
    )]
    EntryIndex {
        /// The shard number.
        shard: usize,
        /// Of how many.
        shards: usize,
        /// The entry (1-based).
        entry: usize,
        /// Its index.
        index: usize,
        /// The index it should have.
        want: usize,
    },
    /// A report's counts past 128 bits.
    #[error("shard {shard}'s counts add up to more than 2^128")]
    EntriesOverflow {
        /// The shard number.
        shard: usize,
    },
    /// A report whose counts do not add up to its `nodes`.
    #[error(
        "shard {shard} is incomplete or inconsistent: its counts add up to {sum}, but its \
         `nodes` says {nodes}"
    )]
    NodesDiffer {
        /// The shard number.
        shard: usize,
        /// The sum of its counts.
        sum: u128,
        /// Its `nodes`.
        nodes: Count,
    },
    /// A depth or split out of range.
    #[error(
        "depth {depth} with split {split}: expected a split of at most the depth, and a depth of \
         at most {MAX_DEPTH}"
    )]
    DepthOutOfRange {
        /// The depth.
        depth: u32,
        /// The split.
        split: u32,
    },
    /// A variant that is not registered.
    #[error("unknown variant {}", echo(.0))]
    UnknownVariant(String),
    /// An option not written `name=value`.
    #[error("option {} is not name=value", echo(.0))]
    OptionNotNameValue(String),
    /// An option the variant refuses.
    #[error("{0}")]
    Option(OptionError),
    /// One option with two values (`perft -o` refuses it; the last one won here), each echoed.
    #[error("option {} is given twice, as {} and as {}", .0.0, .0.1, .0.2)]
    OptionTwice(Box<(String, String, String)>),
    /// A root FEN that does not read.
    #[error("{}", .0.named())]
    Fen(Box<PositionTextError>),
    /// More root moves than a suite case may have.
    #[error("too many moves")]
    TooManyMoves,
    /// Root moves that cannot be played.
    #[error("moves: {0}")]
    Moves(Box<PlyError>),
    /// A report's path that is not the split's path of that index.
    #[error(
        "the entry with index {index} has path {}, but path {index} of the split is {}",
        echo(.given), echo(.listed)
    )]
    PathDiffers {
        /// The index.
        index: usize,
        /// The report's path.
        given: String,
        /// The split's path.
        listed: String,
    },
    /// An entry one ply or none above the leaves whose count is not that perft, which the
    /// listing of the split gives at no cost (a report with a wrong `depth` passed before).
    #[error(
        "the entry with index {index} (path {}) has count {given}, but perft {remaining} there \
         is {counted}",
        echo(.path)
    )]
    CountDiffers {
        /// The index.
        index: usize,
        /// The entry's path.
        path: String,
        /// The entry's count.
        given: u128,
        /// Plies from the path to the leaves.
        remaining: u32,
        /// perft(remaining) at the path.
        counted: u64,
    },
    /// A split with another number of paths than the reports say.
    #[error(
        "the reports say the split has {paths_total} paths, but listing it again gives {}",
        listed_paths(*.listed, *.paths_total)
    )]
    PathCount {
        /// The reports' number.
        paths_total: usize,
        /// How many were listed (one more than `paths_total` when there are more).
        listed: usize,
    },
    /// No reports to merge.
    #[error("merge: no shard files given")]
    NothingToMerge,
    /// Reports of more than [`MAX_SHARDS`] shards.
    #[error("{shards} shards; at most {MAX_SHARDS} are merged")]
    TooManyToMerge {
        /// The number of shards.
        shards: usize,
    },
    /// A report of another format.
    #[error("format {} is not {FORMAT}", echo(.0))]
    Format(String),
    /// Reports of two runs, with the first field that differs (options compared with their
    /// defaults filled in: `game-end=rules` spelled out is the run that leaves it out).
    #[error("{report} is from a different run than {first}: its {what}")]
    DifferentRun {
        /// The report that differs.
        report: String,
        /// The first report.
        first: String,
        /// What differs: `FEN is X, FIRST's Y`.
        what: String,
    },
    /// One shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    GivenTwice {
        /// The shard number.
        shard: usize,
        /// The report that gave it first.
        first: String,
        /// The report that gave it again.
        second: String,
    },
    /// Shards not given.
    #[error(
        "missing shard(s) {} of {shards}{}",
        ranges(.missing),
        shard_count(.missing)
    )]
    Missing {
        /// The shard numbers, sorted.
        missing: Vec<usize>,
        /// Of how many.
        shards: usize,
    },
    /// The reports' counts past 128 bits.
    #[error("the shards' counts add up to more than 2^128")]
    TotalOverflow,
}

/// ` (N)` for a number of paths counted, nothing otherwise.
fn counted_paths(paths: Option<usize>) -> String {
    paths.map(|p| format!(" ({p})")).unwrap_or_default()
}

/// How many paths a listing found: `more than N` past the reports' `N`.
fn listed_paths(listed: usize, paths_total: usize) -> String {
    if listed > paths_total {
        format!("more than {paths_total}")
    } else {
        listed.to_string()
    }
}

/// ` (N shards)` for more than one missing shard.
fn shard_count(missing: &[usize]) -> String {
    if missing.len() > 1 {
        format!(" ({} shards)", missing.len())
    } else {
        String::new()
    }
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

/// The sum of `counts`, or `None` past `u128::MAX`.
pub fn checked_sum(counts: impl IntoIterator<Item = u128>) -> Option<u128> {
    counts
        .into_iter()
        .try_fold(0u128, |sum, c| sum.checked_add(c))
}

/// How many of `total` indices fall to shard `k` of `n` (index ≡ k-1 mod n).
pub fn share(total: usize, k: usize, n: usize) -> usize {
    total / n + usize::from(total % n > k - 1)
}

/// Perft(`split`) of `pos` when it is at most `limit`, else `None`, stopping once the count
/// passes the limit ([`crate::suite::budget::perft_within`]); with several threads, each root
/// move's subtree is counted on its own (each stopping past the limit), as `perft --threads`
/// splits its work.
fn paths_within(pos: &Position, split: u32, limit: u64, threads: usize) -> Option<u64> {
    use crate::suite::budget::{Counted, perft_within};
    let exact = |c: Counted| match c {
        Counted::Exact(n) => Some(n),
        Counted::Above(_) => None,
    };
    if threads <= 1 || split < 3 {
        return exact(perft_within(pos, split, limit));
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(*next));
    let run = || {
        use rayon::prelude::*;
        children
            .par_iter()
            .map(|c| exact(perft_within(c, split - 1, limit)))
            .try_fold(|| 0u64, |sum, n| n.map(|n| sum.saturating_add(n)))
            .try_reduce(|| 0, |a, b| Some(a.saturating_add(b)))
    };
    crate::perft::on_threads(threads, run).filter(|&n| n <= limit)
}

/// Computes one shard.
///
/// # Errors
/// A split deeper than the depth, or a shard of more than [`MAX_SHARD_PATHS`] paths.
pub fn run_shard(
    pos: &Position,
    info: RunInfo,
    depth: u32,
    split: u32,
    shard: (usize, usize),
    cfg: &PerftConfig,
) -> Result<ShardReport, ShardError> {
    if split > depth {
        return Err(ShardReason::SplitBeyondDepth { split, depth }.into());
    }
    let (k, n) = shard;
    if n > MAX_SHARDS {
        return Err(ShardReason::TooManyShards {
            shard: k,
            shards: n,
        }
        .into());
    }
    // The paths are the leaves of perft(split): count them first (bulk-counted, cheap) so an
    // oversized shard is refused before any work. The count stops once it passes
    // `(MAX_SHARD_PATHS + 1) * n` paths: every shard then holds more than the most allowed,
    // whatever the whole count (a split of 15 plies would otherwise be counted in full first).
    let limit = (MAX_SHARD_PATHS as u64 + 1).saturating_mul(n as u64);
    let too_large = |paths| ShardReason::ShardTooLarge {
        split,
        shard: k,
        shards: n,
        paths,
    };
    let Some(total) = paths_within(pos, split, limit, cfg.threads) else {
        return Err(too_large(None).into());
    };
    let total = total as usize;
    let in_shard = share(total, k, n);
    if in_shard > MAX_SHARD_PATHS {
        return Err(too_large(Some(in_shard)).into());
    }
    let mut entries = Vec::new();
    let mut index = 0usize;
    for_each_path(pos, split, &mut |path, next| {
        if index % n == k - 1 {
            entries.push(ShardEntry {
                index,
                path: path.join(" "),
                count: Count(u128::from(perft_with(next, depth - split, cfg))),
            });
        }
        index += 1;
        entries.len() <= MAX_SHARD_PATHS
    });
    if entries.len() > MAX_SHARD_PATHS {
        return Err(ShardReason::ShardTooLarge {
            split,
            shard: k,
            shards: n,
            paths: None,
        }
        .into());
    }
    if let Some(e) = entries
        .iter()
        .find(|e| e.count.0 == u128::from(crate::perft::OVERFLOW))
    {
        return Err(ShardReason::PathOverflow {
            path: e.path.clone(),
            error: crate::perft::CountOverflow,
        }
        .into());
    }
    let nodes = checked_sum(entries.iter().map(|e| e.count.0)).ok_or(ShardReason::ShardOverflow)?;
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
        nodes: Count(nodes),
    })
}

/// Checks one report on its own: the shard number is in range, the entries are exactly the
/// shard's share of the `paths_total` indices (index k-1, k-1+n, ... in order), and their counts
/// add up to `nodes`. `name` names the report in errors.
///
/// # Errors
/// The first problem found.
pub fn check_entries(name: &str, report: &ShardReport) -> Result<(), ShardError> {
    let (k, n) = (report.shard, report.shards);
    if n == 0 || k == 0 || k > n {
        return Err(ShardReason::ShardOutOfRange {
            shard: k,
            shards: n,
        }
        .of(name));
    }
    let expected = share(report.paths_total, k, n);
    if report.entries.len() != expected {
        return Err(ShardReason::EntryCount {
            shard: k,
            shards: n,
            listed: report.entries.len(),
            paths_total: report.paths_total,
            expected,
        }
        .of(name));
    }
    for (j, e) in report.entries.iter().enumerate() {
        let want = (k - 1) + j * n;
        if e.index != want {
            return Err(ShardReason::EntryIndex {
                shard: k,
                shards: n,
                entry: j + 1,
                index: e.index,
                want,
            }
            .of(name));
        }
    }
    let sum = checked_sum(report.entries.iter().map(|e| e.count.0))
        .ok_or_else(|| ShardReason::EntriesOverflow { shard: k }.of(name))?;
    if sum != report.nodes.0 {
        return Err(ShardReason::NodesDiffer {
            shard: k,
            sum,
            nodes: report.nodes,
        }
        .of(name));
    }
    Ok(())
}

/// The position a report starts from: its variant, options, FEN and moves.
///
/// # Errors
/// An unknown variant or option, a bad FEN or move, a depth or split out of range.
pub fn root_position(report: &ShardReport) -> Result<Position, ShardError> {
    if report.depth > MAX_DEPTH || report.split > report.depth {
        return Err(ShardReason::DepthOutOfRange {
            depth: report.depth,
            split: report.split,
        }
        .into());
    }
    let rules = rules_of(report)?;
    let pos = parse_position(rules, &report.fen).map_err(|e| ShardReason::Fen(Box::new(e)))?;
    if report.moves.split_whitespace().count() > crate::suite::load::MAX_MOVES {
        return Err(ShardReason::TooManyMoves.into());
    }
    Ok(play_moves(&pos, &report.moves).map_err(|e| ShardReason::Moves(Box::new(e)))?)
}

/// Lists the paths of `split` plies from `pos` again and checks each against `entry_of(index)`
/// (the report that gives that index, and its path and count), and that there are exactly
/// `paths_total`. With `remaining` (the depth below the split) 0 or 1, each count is checked too:
/// perft 0 or 1 at the path costs nothing beside the listing. Stops as soon as something
/// differs or the split has more paths than that.
///
/// # Errors
/// The first path or count that differs (naming its report), or a different number of paths.
pub fn verify_split<'a>(
    pos: &Position,
    split: u32,
    remaining: u32,
    paths_total: usize,
    mut entry_of: impl FnMut(usize) -> (&'a str, &'a str, u128),
) -> Result<(), ShardError> {
    let mut index = 0usize;
    let mut problem = None;
    for_each_path(pos, split, &mut |path, at| {
        if index >= paths_total {
            index += 1;
            return false;
        }
        let (name, given, count) = entry_of(index);
        let text = path.join(" ");
        if text != given {
            problem = Some(
                ShardReason::PathDiffers {
                    index,
                    given: given.to_string(),
                    listed: text,
                }
                .of(name),
            );
            return false;
        }
        if remaining <= 1 {
            let counted = crate::perft::perft(at, remaining);
            if u128::from(counted) != count {
                problem = Some(
                    ShardReason::CountDiffers {
                        index,
                        path: text,
                        given: count,
                        remaining,
                        counted,
                    }
                    .of(name),
                );
                return false;
            }
        }
        index += 1;
        true
    });
    if let Some(e) = problem {
        return Err(e);
    }
    if index != paths_total {
        return Err(ShardReason::PathCount {
            paths_total,
            listed: index,
        }
        .into());
    }
    Ok(())
}

/// `1, 3-7, 9` for sorted numbers, the first [`MAX_RANGES_SHOWN`] ranges and a count of the rest.
fn ranges(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .take(MAX_RANGES_SHOWN)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let mut text = shown.join(", ");
    if runs.len() > MAX_RANGES_SHOWN {
        let rest: usize = runs[MAX_RANGES_SHOWN..]
            .iter()
            .map(|(a, b)| b - a + 1)
            .sum();
        text.push_str(&format!(" and {rest} more"));
    }
    text
}

/// The first field in which `report` is of another run than `first` (each with its options,
/// every default filled in): the field's name, the report's value and the first's.
fn run_difference(
    (first, ours): (&ShardReport, &Pairs),
    (report, theirs): (&ShardReport, &Pairs),
) -> Option<(&'static str, String, String)> {
    let text = |t: &str| echo(t).to_string();
    // Words: `e2e4  e7e5` and ` e2e4 e7e5` are the same moves (and no moves is `""` or `" "`).
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let (a, b) = (report, first);
    if a.variant != b.variant {
        Some(("variant is", text(&a.variant), text(&b.variant)))
    } else if theirs != ours {
        Some(("options are", pairs_text(theirs), pairs_text(ours)))
    } else if words(&a.fen) != words(&b.fen) {
        let (x, y) = where_they_differ(&words(&a.fen), &words(&b.fen));
        Some(("FEN is", x, y))
    } else if words(&a.moves) != words(&b.moves) {
        let (x, y) = where_they_differ(&words(&a.moves), &words(&b.moves));
        Some(("moves are", x, y))
    } else if a.depth != b.depth {
        Some(("depth is", a.depth.to_string(), b.depth.to_string()))
    } else if a.split != b.split {
        Some(("split is", a.split.to_string(), b.split.to_string()))
    } else if a.shards != b.shards {
        Some(("shard count is", a.shards.to_string(), b.shards.to_string()))
    } else if a.paths_total != b.paths_total {
        Some((
            "paths_total is",
            a.paths_total.to_string(),
            b.paths_total.to_string(),
        ))
    } else {
        None
    }
}

/// Two texts that differ, each echoed whole when short, else from a little before the first
/// character where they differ (a FEN cut to its first 40 characters showed two equal texts).
fn where_they_differ(a: &str, b: &str) -> (String, String) {
    const WHOLE: usize = 40;
    let shown = |t: &str| {
        if t.is_empty() {
            "none".to_string()
        } else {
            echo(t).to_string()
        }
    };
    if a.chars().count() <= WHOLE && b.chars().count() <= WHOLE {
        return (shown(a), shown(b));
    }
    let same = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let from = same.saturating_sub(8);
    let part = |t: &str| {
        let tail: String = t.chars().skip(from).collect();
        if from == 0 || tail.is_empty() {
            shown(&tail)
        } else {
            format!("{} from character {}", echo(&format!("…{tail}")), from + 1)
        }
    };
    (part(a), part(b))
}

/// Every option of a variant's rules with its value.
type Pairs = Vec<(&'static str, &'static str)>;

/// The rules a report names: its variant with its options set, read as `perft -o` reads them
/// ([`crate::request::rules_with_options`]: one option given two values is refused).
fn rules_of(report: &ShardReport) -> Result<crate::variant::Rules, ShardError> {
    use crate::request::RulesError;
    crate::request::rules_with_options(&report.variant, &report.options).map_err(|e| {
        match e {
            RulesError::UnknownVariant(variant) => ShardReason::UnknownVariant(variant),
            RulesError::NotNameValue(option) => ShardReason::OptionNotNameValue(option),
            RulesError::Option(e) => ShardReason::Option(e),
            RulesError::Conflicting(given) => {
                let (name, first, other) = *given;
                ShardReason::OptionTwice(Box::new((
                    echo(&name).to_string(),
                    echo(&first).to_string(),
                    echo(&other).to_string(),
                )))
            }
        }
        .into()
    })
}

/// Every option of the report's rules with its value, defaults included.
fn option_pairs(report: &ShardReport) -> Result<Pairs, ShardError> {
    Ok(rules_of(report)?.option_pairs())
}

/// `name=value, ...`.
fn pairs_text(pairs: &[(&str, &str)]) -> String {
    let text: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    format!("`{}`", text.join(", "))
}

/// Sums the shard reports of one run (each with a name for messages), after every check in the
/// module's documentation.
///
/// # Errors
/// The first problem found, naming the report.
pub fn merge(reports: &[(String, ShardReport)]) -> Result<u128, ShardError> {
    let Some((first_name, first)) = reports.first() else {
        return Err(ShardReason::NothingToMerge.into());
    };
    let n = first.shards;
    if n > MAX_SHARDS {
        return Err(ShardReason::TooManyToMerge { shards: n }.of(first_name));
    }
    let mut by_shard: Vec<Option<usize>> = Vec::new();
    let mut first_pairs = None;
    for (i, (name, report)) in reports.iter().enumerate() {
        if report.format != FORMAT {
            return Err(ShardReason::Format(report.format.clone()).of(name));
        }
        let pairs = option_pairs(report).map_err(|e| e.reason.of(name))?;
        let first_pairs = first_pairs.get_or_insert_with(|| pairs.clone());
        if let Some((field, theirs, ours)) = run_difference((first, first_pairs), (report, &pairs))
        {
            return Err(ShardReason::DifferentRun {
                report: name.clone(),
                first: first_name.clone(),
                what: format!("{field} {theirs}, {first_name}'s {ours}"),
            }
            .into());
        }
        check_entries(name, report)?;
        if by_shard.is_empty() {
            by_shard = vec![None; n];
        }
        let slot = &mut by_shard[report.shard - 1];
        if let Some(other) = slot {
            return Err(ShardReason::GivenTwice {
                shard: report.shard,
                first: reports[*other].0.clone(),
                second: name.clone(),
            }
            .into());
        }
        *slot = Some(i);
    }
    let missing: Vec<usize> = (1..=n).filter(|k| by_shard[k - 1].is_none()).collect();
    if !missing.is_empty() {
        return Err(ShardReason::Missing { missing, shards: n }.into());
    }
    let root = root_position(first).map_err(|e| e.reason.of(first_name))?;
    let remaining = first.depth - first.split;
    verify_split(&root, first.split, remaining, first.paths_total, |index| {
        let (name, report) = &reports[by_shard[index % n].unwrap_or(0)];
        let entry = &report.entries[index / n];
        (name.as_str(), entry.path.as_str(), entry.count.0)
    })?;
    checked_sum(by_shard.iter().flatten().map(|&i| reports[i].1.nodes.0))
        .ok_or_else(|| ShardReason::TotalOverflow.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_counts_are_strings_and_both_forms_are_read() {
        let small = serde_json::to_string(&Count(1 << 53)).expect("json");
        assert_eq!(small, "9007199254740992");
        let large = serde_json::to_string(&Count((1 << 53) + 1)).expect("json");
        assert_eq!(large, "\"9007199254740993\"");
        for (text, value) in [
            ("18446744073709551615", u128::from(u64::MAX)),
            ("\"36893488147419103232\"", 1 << 65),
            ("\"9007199254740993\"", (1 << 53) + 1),
        ] {
            let c: Count = serde_json::from_str(text).expect(text);
            assert_eq!(c.0, value, "{text}");
        }
        for bad in [
            "36893488147419103232",
            "1.5",
            "-1",
            "\"12a\"",
            "\"\"",
            "\"+1\"",
        ] {
            assert!(serde_json::from_str::<Count>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sums_overflow_only_past_128_bits() {
        assert_eq!(checked_sum([1 << 63, 1 << 63]), Some(1 << 64));
        assert_eq!(checked_sum([u128::MAX, 1]), None);
    }

    #[test]
    fn missing_shards_are_listed_as_ranges() {
        assert_eq!(ranges(&[2]), "2");
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        let many: Vec<usize> = (1..=40).map(|i| i * 2).collect();
        assert_eq!(ranges(&many), "2, 4, 6, 8, 10, 12, 14, 16 and 32 more");
    }
}

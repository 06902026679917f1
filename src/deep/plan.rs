//! `plan`: the unique positions at a ply, with how many paths reach each from each root move.
//!
//! The tree is walked level by level; at every ply the positions are merged by their exact key
//! ([`exact_key`]), so a position reached by many paths is expanded once and its children
//! inherit the path counts of all its parents. A plan is written as JSON Lines: a
//! [`PlanHeader`], then one [`Unit`] per position, sorted by key.

use super::keys::exact_key;
use super::{DeepError, DeepReason, Digest, json_error, read_line};
use crate::notation::{move_text, parse_position};
use crate::perft::perft;
use crate::position::Position;
use crate::variant::Rules;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Format marker of plan files.
pub const PLAN_FORMAT: &str = "cvperft-plan-1";

/// Default for the most units a plan may hold (about 400 bytes of memory each while planning).
pub const DEFAULT_MAX_UNITS: usize = 20_000_000;

/// Most units a plan file may declare (memory while reading: a few hundred bytes per unit).
pub const MAX_READ_UNITS: usize = 100_000_000;

/// The first line of a plan.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlanHeader {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as given (`name=value`).
    pub options: Vec<String>,
    /// Root FEN.
    pub fen: String,
    /// Moves played from the root FEN first (space-separated, may be empty).
    pub moves: String,
    /// Total depth.
    pub depth: u32,
    /// The ply of the units.
    pub split: u32,
    /// The root moves, sorted by move text; units name them by index.
    pub roots: Vec<String>,
    /// Number of units.
    pub units: usize,
    /// Number of move paths of length `split` (perft(split)), decimal.
    pub paths: String,
    /// The plan's identity: a digest of everything else in the file (empty while computing it).
    pub id: String,
}

/// One unique position at the split ply.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Index, from 0, in key order.
    pub unit: usize,
    /// Exact key: FEN without counters, en passant only when a capture is legal.
    pub key: String,
    /// Remaining depth (depth - split).
    pub depth: u32,
    /// Estimated leaves below it, for balancing shards.
    pub cost: u64,
    /// `[root move index, number of paths]`, by root index: how often the position occurs
    /// below each root move.
    pub paths: Vec<(u32, u64)>,
}

impl Unit {
    /// Paths reaching the unit from every root move together.
    pub fn multiplicity(&self) -> u128 {
        self.paths.iter().map(|&(_, n)| u128::from(n)).sum()
    }
}

/// A plan in memory.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The header, with the identity filled in.
    pub header: PlanHeader,
    /// The units, `units[i].unit == i`.
    pub units: Vec<Unit>,
}

/// What to plan.
pub struct PlanRequest<'a> {
    /// Variant id, as the header records it.
    pub variant: &'a str,
    /// Options as given.
    pub options: &'a [String],
    /// Root FEN.
    pub fen: &'a str,
    /// Moves played first.
    pub moves: &'a str,
    /// Total depth.
    pub depth: u32,
    /// Ply of the units (1 ..= depth).
    pub split: u32,
    /// Most units (and positions at any ply on the way) accepted.
    pub max_units: usize,
    /// Worker threads.
    pub threads: usize,
}

type Paths = Vec<(u32, u64)>;

/// Adds `from`'s path counts into `into` (both sorted by root index).
fn add_paths(into: &mut Paths, from: &[(u32, u64)]) {
    for &(root, n) in from {
        match into.binary_search_by_key(&root, |&(r, _)| r) {
            Ok(i) => into[i].1 = into[i].1.saturating_add(n),
            Err(i) => into.insert(i, (root, n)),
        }
    }
}

fn merge_levels(a: HashMap<String, Paths>, b: HashMap<String, Paths>) -> HashMap<String, Paths> {
    let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    for (key, paths) in small {
        add_paths(big.entry(key).or_default(), &paths);
    }
    big
}

fn read_back(rules: Rules, key: &str) -> Result<Position, DeepError> {
    let pos = parse_position(rules, key).map_err(|e| DeepReason::ReadBack {
        key: key.to_string(),
        error: Box::new(e),
    })?;
    let again = exact_key(&pos);
    if again != key {
        return Err(DeepReason::ReadsBackAs {
            key: key.to_string(),
            again,
        }
        .into());
    }
    Ok(pos)
}

/// Refuses a level of more than `max` positions.
fn at_most(
    level: HashMap<String, Paths>,
    max: usize,
    ply: u32,
) -> Result<HashMap<String, Paths>, DeepError> {
    if level.len() > max {
        return Err(DeepReason::TooManyUnits { max, ply }.into());
    }
    Ok(level)
}

/// The positions one ply below `level` (ply `ply`), merged by key; refused as soon as any part
/// holds more than `max`, so that a level far past the limit is never built whole (it took
/// about 400 bytes a position: `--max-units` bounded the memory only at the level before).
fn expand(
    rules: Rules,
    level: &[(String, Paths)],
    max: usize,
    ply: u32,
) -> Result<HashMap<String, Paths>, DeepError> {
    level
        .par_iter()
        .try_fold(
            HashMap::new,
            |mut next: HashMap<String, Paths>, (key, paths)| {
                let pos = read_back(rules, key)?;
                pos.for_each_legal(|_, child| {
                    add_paths(next.entry(exact_key(child)).or_default(), paths)
                });
                at_most(next, max, ply)
            },
        )
        .try_reduce(HashMap::new, |a, b| at_most(merge_levels(a, b), max, ply))
}

/// Estimated leaves below a position `depth` plies deep, from its perft 1 and 2.
fn estimate(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal().max(1),
        _ => {
            let p1 = pos.count_legal();
            let p2 = perft(pos, 2);
            if p1 == 0 || p2 == 0 {
                return 1;
            }
            let branching = p2 as f64 / p1 as f64;
            let est = p2 as f64 * branching.powi(depth as i32 - 2);
            // Capped far below u64::MAX so that sums of costs stay exact in u128.
            est.clamp(1.0, 1e18) as u64
        }
    }
}

/// Builds the plan of `root`.
///
/// # Errors
/// A split of 0 or deeper than the depth, more units than allowed, a position whose FEN does
/// not read back exactly, more paths than 64 bits hold.
pub fn build(root: &Position, req: &PlanRequest) -> Result<Plan, DeepError> {
    if req.split == 0 || req.split > req.depth {
        return Err(DeepReason::SplitRange {
            split: req.split,
            depth: req.depth,
        }
        .into());
    }
    let rules = *root.rules();
    let run = || -> Result<Plan, DeepError> {
        let mut roots: Vec<(String, Position)> = Vec::new();
        root.for_each_legal(|m, next| roots.push((move_text(root, &m), *next)));
        roots.sort_by(|a, b| a.0.cmp(&b.0));
        let mut first: HashMap<String, Paths> = HashMap::new();
        for (i, (_, next)) in roots.iter().enumerate() {
            add_paths(first.entry(exact_key(next)).or_default(), &[(i as u32, 1)]);
        }
        let mut level: Vec<(String, Paths)> = first.into_iter().collect();
        for ply in 2..=req.split {
            level.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            level = expand(rules, &level, req.max_units, ply)?
                .into_iter()
                .collect();
        }
        level.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if level.len() > req.max_units {
            return Err(DeepReason::TooManyUnits {
                max: req.max_units,
                ply: req.split,
            }
            .into());
        }
        let remaining = req.depth - req.split;
        let units: Vec<Unit> = level
            .into_par_iter()
            .enumerate()
            .map(|(unit, (key, paths))| {
                let pos = read_back(rules, &key)?;
                if paths.iter().any(|&(_, n)| n == u64::MAX) {
                    return Err(DeepError::from(DeepReason::TooManyPaths(key)));
                }
                Ok(Unit {
                    unit,
                    cost: estimate(&pos, remaining),
                    key,
                    depth: remaining,
                    paths,
                })
            })
            .collect::<Result<_, _>>()?;
        let paths: u128 = units.iter().map(Unit::multiplicity).sum();
        let mut header = PlanHeader {
            format: PLAN_FORMAT.into(),
            variant: req.variant.into(),
            options: req.options.to_vec(),
            fen: req.fen.into(),
            moves: req.moves.into(),
            depth: req.depth,
            split: req.split,
            roots: roots.into_iter().map(|(text, _)| text).collect(),
            units: units.len(),
            paths: paths.to_string(),
            id: String::new(),
        };
        header.id = identity(&header, &units)?;
        Ok(Plan { header, units })
    };
    crate::perft::on_threads(req.threads.max(1), run)
}

fn unit_line(unit: &Unit) -> Result<String, DeepError> {
    serde_json::to_string(unit).map_err(|e| {
        DeepReason::Serialise {
            what: format!("unit {}: ", unit.unit),
            message: e.to_string(),
        }
        .into()
    })
}

fn header_line(header: &PlanHeader) -> Result<String, DeepError> {
    serde_json::to_string(header).map_err(|e| {
        DeepReason::Serialise {
            what: "plan header: ".into(),
            message: e.to_string(),
        }
        .into()
    })
}

/// The identity of a plan: the digest of its header (identity left empty) and unit lines.
fn identity(header: &PlanHeader, units: &[Unit]) -> Result<String, DeepError> {
    let mut digest = Digest::default();
    let mut blank = header.clone();
    blank.id = String::new();
    digest.update(header_line(&blank)?.as_bytes());
    digest.update(b"\n");
    for unit in units {
        digest.update(unit_line(unit)?.as_bytes());
        digest.update(b"\n");
    }
    Ok(digest.hex())
}

/// Writes a plan as JSON Lines.
///
/// # Errors
/// A write error.
pub fn write(plan: &Plan, out: &mut impl Write) -> std::io::Result<()> {
    let io = |e: DeepError| std::io::Error::other(e.to_string());
    writeln!(out, "{}", header_line(&plan.header).map_err(io)?)?;
    for unit in &plan.units {
        writeln!(out, "{}", unit_line(unit).map_err(io)?)?;
    }
    Ok(())
}

/// Whether the first line of `text` is a plan header (for telling plans from other files).
pub fn is_plan_header(first_line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(first_line)
        .ok()
        .and_then(|v| {
            v.get("format")
                .and_then(|f| f.as_str())
                .map(|f| f == PLAN_FORMAT)
        })
        .unwrap_or(false)
}

/// Reads and checks a plan: format, identity (so that an edited or truncated plan is refused),
/// unit numbering, keys sorted and unique, depths, root indices and the path total.
///
/// # Errors
/// The first problem found, naming the file and line.
pub fn read(input: &mut impl BufRead, file: &str) -> Result<Plan, DeepError> {
    let Some(first) = read_line(input, file, 1)? else {
        return Err(DeepError::of(file, DeepReason::EmptyPlan));
    };
    // A line without its newline that does not parse was cut short, not mistyped.
    let cut = |line_no: usize| DeepError::at(file, line_no, DeepReason::PlanCutShort);
    let header: PlanHeader = match serde_json::from_str(&first.text) {
        Ok(header) => header,
        Err(_) if !first.complete => return Err(cut(1)),
        Err(e) => return Err(json_error(file, 1, "a plan header", &e, &first.text)),
    };
    if header.format != PLAN_FORMAT {
        return Err(DeepError::at(
            file,
            1,
            DeepReason::Format {
                found: header.format,
                expected: PLAN_FORMAT,
            },
        ));
    }
    if header.depth > crate::request::MAX_DEPTH {
        return Err(DeepError::at(file, 1, DeepReason::PlanDepth(header.depth)));
    }
    if header.split == 0 || header.split > header.depth {
        return Err(DeepError::at(file, 1, DeepReason::SplitField));
    }
    if header.units > MAX_READ_UNITS {
        return Err(DeepError::at(file, 1, DeepReason::UnitsField(header.units)));
    }
    let mut blank = header.clone();
    blank.id = String::new();
    let mut digest = Digest::default();
    digest.update(header_line(&blank)?.as_bytes());
    digest.update(b"\n");
    let mut units: Vec<Unit> = Vec::new();
    let mut line_no = 1;
    let mut complete = first.complete;
    while let Some(line) = read_line(input, file, line_no + 1)? {
        line_no += 1;
        if !complete {
            return Err(DeepError::at(file, line_no - 1, DeepReason::NoNewline));
        }
        complete = line.complete;
        if units.len() >= header.units {
            return Err(DeepError::at(
                file,
                line_no,
                DeepReason::MoreUnits(header.units),
            ));
        }
        let unit: Unit = match serde_json::from_str(&line.text) {
            Ok(unit) => unit,
            Err(_) if !complete => return Err(cut(line_no)),
            Err(e) => return Err(json_error(file, line_no, "a plan unit", &e, &line.text)),
        };
        let at = |reason: DeepReason| DeepError::at(file, line_no, reason);
        if unit.unit != units.len() {
            return Err(at(DeepReason::UnitField {
                found: unit.unit,
                due: units.len(),
            }));
        }
        if unit.depth != header.depth - header.split {
            return Err(at(DeepReason::DepthField {
                found: unit.depth,
                due: header.depth - header.split,
            }));
        }
        if let Some(prev) = units.last()
            && prev.key >= unit.key
        {
            return Err(at(DeepReason::KeyOrder));
        }
        if unit.paths.is_empty()
            || unit
                .paths
                .iter()
                .any(|&(r, n)| r as usize >= header.roots.len() || n == 0)
            || unit.paths.windows(2).any(|w| w[0].0 >= w[1].0)
        {
            return Err(at(DeepReason::PathsField));
        }
        digest.update(line.text.as_bytes());
        digest.update(b"\n");
        units.push(unit);
    }
    if !complete {
        return Err(cut(line_no));
    }
    if units.len() != header.units {
        return Err(DeepError::of(
            file,
            DeepReason::PlanIncomplete {
                found: units.len(),
                header: header.units,
            },
        ));
    }
    let paths: u128 = units.iter().map(Unit::multiplicity).sum();
    if paths.to_string() != header.paths {
        return Err(DeepError::at(
            file,
            1,
            DeepReason::PathsTotal {
                header: header.paths.clone(),
                found: paths,
            },
        ));
    }
    if digest.hex() != header.id {
        return Err(DeepError::at(
            file,
            1,
            DeepReason::Identity {
                id: header.id.clone(),
                digest: digest.hex(),
            },
        ));
    }
    Ok(Plan { header, units })
}

/// Reads a plan file (see [`read`]).
///
/// # Errors
/// Unreadable file, or as [`read`].
pub fn read_file(path: &std::path::Path) -> Result<Plan, DeepError> {
    let name = path.display().to_string();
    let file = crate::fsio::open_read(path).map_err(|e| {
        DeepError::from(DeepReason::CannotOpen {
            file: name.clone(),
            error: e.reason.to_string(),
        })
    })?;
    read(&mut std::io::BufReader::new(file), &name)
}

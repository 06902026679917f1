//! `merge` of a plan's results: every unit exactly once, then multiplicity × count summed in
//! 128 bits with overflow checked, in total and per root move (the divide).

use super::plan::Plan;
use super::results::{Expected, ReadUnit, read};
use super::work::deal;
use super::{DeepError, DeepReason};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A merged plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// perft(depth) of the root.
    pub total: u128,
    /// perft(depth - 1) after each root move, in the plan's root order (sorted by move text).
    pub divide: Vec<(String, u128)>,
    /// Units merged.
    pub units: usize,
    /// Units counted twice with equal results.
    pub verified: usize,
    /// Result files read.
    pub files: usize,
}

/// Most missing units named in an error.
pub(crate) const NAMED: usize = 10;

/// Merges result files of `plan`.
///
/// # Errors
/// A file of another plan, not a result file, cut short or malformed; a unit given twice or
/// not at all (naming the shards it belongs to); a sum above 128 bits.
pub fn merge(plan: &Plan, files: &[PathBuf]) -> Result<Merged, DeepError> {
    if files.is_empty() {
        return Err(DeepReason::NoResultFiles.into());
    }
    let n = plan.units.len();
    let mut counts: Vec<Option<(usize, ReadUnit)>> = vec![None; n];
    let mut shard_counts = BTreeSet::new();
    for (f, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let expected = Expected {
            plan: &plan.header.id,
            units: n,
        };
        let read = read(path, Some(expected))?;
        let Some(header) = &read.header else {
            return Err(DeepError::of(&name, DeepReason::NoResultsHeader));
        };
        if read.cut_short {
            return Err(DeepError::of(&name, DeepReason::ResultsCutShort));
        }
        shard_counts.insert(header.shards);
        for (&unit, r) in &read.units {
            if let Some((g, before)) = &counts[unit] {
                return Err(DeepError::at(
                    &name,
                    r.line,
                    DeepReason::GivenTwice {
                        unit,
                        other: files[*g].display().to_string(),
                        line: before.line,
                    },
                ));
            }
            counts[unit] = Some((f, *r));
        }
    }
    let missing: Vec<usize> = (0..n).filter(|&i| counts[i].is_none()).collect();
    if !missing.is_empty() {
        let mut lacking = None;
        if shard_counts.len() == 1
            && let Some(&shards) = shard_counts.first()
        {
            let deal = deal(plan, shards);
            let of: BTreeSet<usize> = missing.iter().map(|&i| deal[i] + 1).collect();
            lacking = Some((of.into_iter().collect(), shards));
        }
        return Err(DeepReason::Missing {
            missing,
            units: n,
            shards: lacking,
        }
        .into());
    }
    let overflow = || DeepError::from(DeepReason::Overflow);
    let mut per_root: BTreeMap<u32, u128> = BTreeMap::new();
    let mut verified = 0;
    for (unit, count) in plan.units.iter().zip(&counts) {
        let Some((_, r)) = count else { continue };
        verified += usize::from(r.verified);
        for &(root, paths) in &unit.paths {
            let product = u128::from(paths)
                .checked_mul(u128::from(r.count))
                .ok_or_else(overflow)?;
            let slot = per_root.entry(root).or_insert(0);
            *slot = slot.checked_add(product).ok_or_else(overflow)?;
        }
    }
    let mut total: u128 = 0;
    let mut divide = Vec::with_capacity(plan.header.roots.len());
    for (i, text) in plan.header.roots.iter().enumerate() {
        let count = per_root.get(&(i as u32)).copied().unwrap_or(0);
        total = total.checked_add(count).ok_or_else(overflow)?;
        divide.push((text.clone(), count));
    }
    Ok(Merged {
        total,
        divide,
        units: n,
        verified,
        files: files.len(),
    })
}

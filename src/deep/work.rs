//! `work`: counts one shard of a plan's units.
//!
//! Shards are dealt by estimated cost (largest unit first, each to the least loaded shard,
//! ties to the lower shard): every machine computes the same deal from the plan alone, and the
//! shards are disjoint and cover the plan. A unit is counted once, or with `verify` twice in
//! independent ways ([`Counter`]).

use super::plan::{Plan, Unit};
use super::{DeepError, DeepReason};
use crate::notation::parse_position;
use crate::perft::{HashTable, checked, perft, perft_hashed};
use crate::variant::Rules;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The shard (0-based) of every unit when the plan is dealt into `shards` shards.
pub fn deal(plan: &Plan, shards: usize) -> Vec<usize> {
    let shards = shards.max(1);
    let mut order: Vec<usize> = (0..plan.units.len()).collect();
    order.sort_by_key(|&i| (Reverse(plan.units[i].cost), i));
    let mut load: BinaryHeap<Reverse<(u128, usize)>> =
        (0..shards).map(|s| Reverse((0u128, s))).collect();
    let mut shard_of = vec![0; plan.units.len()];
    for i in order {
        if let Some(Reverse((cost, s))) = load.pop() {
            shard_of[i] = s;
            load.push(Reverse((cost + u128::from(plan.units[i].cost), s)));
        }
    }
    shard_of
}

/// The units of shard `shard` (1-based) of `shards`, in index order.
pub fn shard_units(plan: &Plan, shard: usize, shards: usize) -> Vec<usize> {
    deal(plan, shards)
        .into_iter()
        .enumerate()
        .filter(|&(_, s)| s + 1 == shard)
        .map(|(i, _)| i)
        .collect()
}

/// Default table size for the second count of `--verify` when no `--hash` is given (MB).
pub const VERIFY_HASH_MB: usize = 64;

/// How units are counted: with a table (keys from `seed`) or without, and with `verify` a
/// second time with a table whose keys come from `seed + 1`, so that a key collision or a
/// table fault in one count is not repeated in the other.
pub struct Counter {
    first: Option<HashTable>,
    second: Option<HashTable>,
    fault: bool,
}

/// A unit's count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitCount {
    /// Counted once.
    Counted(u64),
    /// Counted twice with the same result.
    Verified(u64),
    /// Counted twice with different results.
    Differ(u64, u64),
}

impl Counter {
    /// A counter: `hash` MB per table (none: the first count without a table), `seed` for the
    /// first table's keys, `verify` for a second count.
    ///
    /// # Errors
    /// A table cannot be allocated.
    pub fn new(hash: Option<usize>, seed: u64, verify: bool) -> Result<Counter, DeepError> {
        let first = match hash {
            Some(mb) => Some(HashTable::seeded(mb, seed).map_err(DeepReason::Hash)?),
            None => None,
        };
        let second = if verify {
            Some(
                HashTable::seeded(hash.unwrap_or(VERIFY_HASH_MB), seed.wrapping_add(1))
                    .map_err(DeepReason::Hash)?,
            )
        } else {
            None
        };
        Ok(Counter {
            first,
            second,
            fault: false,
        })
    }

    /// Plants a fault, to test that differing counts are reported: the second count of every
    /// unit with an odd index comes out one too high.
    pub fn inject_fault(&mut self) {
        self.fault = true;
    }

    /// Counts one unit.
    ///
    /// # Errors
    /// The unit's key is not a position of these rules, or its count passes 64 bits.
    pub fn count(&self, rules: Rules, unit: &Unit) -> Result<UnitCount, DeepError> {
        let pos = parse_position(rules, &unit.key).map_err(|e| DeepReason::UnitKey {
            unit: unit.unit,
            key: unit.key.clone(),
            error: Box::new(e),
        })?;
        let overflow = |error| DeepReason::UnitOverflow {
            unit: unit.unit,
            error,
        };
        let first = checked(match &self.first {
            Some(table) => perft_hashed(&pos, unit.depth, table),
            None => perft(&pos, unit.depth),
        })
        .map_err(overflow)?;
        Ok(match &self.second {
            None => UnitCount::Counted(first),
            Some(table) => {
                let second = checked(perft_hashed(&pos, unit.depth, table)).map_err(overflow)?
                    + u64::from(self.fault && unit.unit % 2 == 1);
                if second == first {
                    UnitCount::Verified(first)
                } else {
                    UnitCount::Differ(first, second)
                }
            }
        })
    }
}

//! Perft that stops once its count passes a limit, for checks against suites that may lie.
//!
//! A suite states the count it expects, and `check --max-nodes N` skips the checks expecting
//! more than N. A suite that lies (`perft: {15: 1}`) would pass that filter and start a perft
//! that never ends. But a count that has passed the expected one is already a failure, so the
//! reference counts in work units (subtrees of at most [`UNIT_DEPTH`] plies, walked from the
//! root) and checks the running total after each: it stops within one unit of the limit, and
//! hence never counts much more than `--max-nodes`. The check is made per unit, never per node,
//! so the counting itself (`crate::perft`) is untouched.

use crate::notation::move_text;
use crate::perft::perft;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// Depth of one work unit: a subtree counted by [`perft`] in one call.
pub const UNIT_DEPTH: u32 = 4;

/// A perft count, or the count reached when counting stopped past the limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// The whole count (at most the limit).
    Exact(u64),
    /// Counting stopped here, above the limit: the whole count is larger still.
    Above(u64),
}

/// A divide, or the total reached when counting stopped past the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Divided {
    /// Every root move with its count (the total at most the limit).
    Full(Vec<(String, u64)>),
    /// Counting stopped at this total, above the limit.
    Above(u64),
}

/// Perft(`depth`) of `pos`, stopping once the count passes `limit`.
pub fn perft_within(pos: &Position, depth: u32, limit: u64) -> Counted {
    perft_within_until(pos, depth, limit, &AtomicBool::new(false)).unwrap_or(Counted::Above(0))
}

/// [`perft_within`], also stopping once `stop` is set (read between two units): `None` then.
pub fn perft_within_until(
    pos: &Position,
    depth: u32,
    limit: u64,
    stop: &AtomicBool,
) -> Option<Counted> {
    let mut total = 0;
    match walk(pos, depth, limit, stop, &mut total) {
        Walked::On => Some(Counted::Exact(total)),
        Walked::Above => Some(Counted::Above(total)),
        Walked::Stopped => None,
    }
}

/// How a walk ended, or that it goes on.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Walked {
    /// Within the limit so far.
    On,
    /// The total passed the limit.
    Above,
    /// The stop flag was set.
    Stopped,
}

/// Adds the leaves below `pos` to `total` unit by unit, until `total` passes `limit` or `stop`
/// is set.
fn walk(pos: &Position, depth: u32, limit: u64, stop: &AtomicBool, total: &mut u64) -> Walked {
    if depth <= UNIT_DEPTH {
        if stop.load(Ordering::Relaxed) {
            return Walked::Stopped;
        }
        *total = total.saturating_add(perft(pos, depth));
        return if *total <= limit {
            Walked::On
        } else {
            Walked::Above
        };
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(*next));
    for child in &children {
        let walked = walk(child, depth - 1, limit, stop, total);
        if walked != Walked::On {
            return walked;
        }
    }
    Walked::On
}

/// The divide at `depth` (moves sorted by text), stopping once the total passes `limit`.
pub fn divide_within(pos: &Position, depth: u32, limit: u64) -> Divided {
    divide_within_until(pos, depth, limit, &AtomicBool::new(false)).unwrap_or(Divided::Above(0))
}

/// [`divide_within`], also stopping once `stop` is set (read between two units): `None` then.
pub fn divide_within_until(
    pos: &Position,
    depth: u32,
    limit: u64,
    stop: &AtomicBool,
) -> Option<Divided> {
    if depth == 0 {
        return Some(Divided::Full(Vec::new()));
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), *next)));
    let mut entries = Vec::with_capacity(children.len());
    let mut total: u64 = 0;
    for (text, next) in children {
        match perft_within_until(&next, depth - 1, limit - total, stop)? {
            Counted::Exact(n) => {
                total += n;
                entries.push((text, n));
            }
            Counted::Above(n) => return Some(Divided::Above(total.saturating_add(n))),
        }
    }
    entries.sort();
    Some(Divided::Full(entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::perft::divide;

    fn start(variant: &str) -> Position {
        let rules = crate::variants::rules(variant).expect("variant");
        parse_position(rules, &rules.start_fen()).expect("start")
    }

    #[test]
    fn without_a_limit_it_counts_as_perft_does() {
        for variant in crate::variants::IDS {
            let pos = start(variant);
            for depth in 0..=5 {
                if depth == 5 && *variant != "chess" {
                    continue;
                }
                assert_eq!(
                    perft_within(&pos, depth, u64::MAX),
                    Counted::Exact(perft(&pos, depth)),
                    "{variant} depth {depth}"
                );
            }
            let whole: Vec<(String, u64)> = divide(&pos, 3)
                .into_iter()
                .map(|e| (e.text, e.count))
                .collect();
            assert_eq!(divide_within(&pos, 3, u64::MAX), Divided::Full(whole));
        }
    }

    #[test]
    fn a_count_stops_when_asked() {
        let pos = start("chess");
        let stop = AtomicBool::new(true);
        // Perft 15 of the start position: it would take years.
        assert_eq!(perft_within_until(&pos, 15, u64::MAX, &stop), None);
        assert_eq!(divide_within_until(&pos, 15, u64::MAX, &stop), None);
        stop.store(false, Ordering::Relaxed);
        assert_eq!(
            perft_within_until(&pos, 5, u64::MAX, &stop),
            Some(Counted::Exact(perft(&pos, 5)))
        );
    }

    #[test]
    fn a_lying_expectation_stops_the_count_within_a_unit() {
        let pos = start("chess");
        // perft 15 expected to be 1: the first unit (perft 4 eleven plies down) passes it.
        let Counted::Above(n) = perft_within(&pos, 15, 1) else {
            panic!("counted to the end")
        };
        assert!(n > 1 && n < 10_000_000, "{n}");
        let Divided::Above(n) = divide_within(&pos, 15, 1) else {
            panic!("counted to the end")
        };
        assert!(n > 1 && n < 10_000_000, "{n}");
        // A limit equal to the count is not passed; one below it is.
        let whole = perft(&pos, 5);
        assert_eq!(perft_within(&pos, 5, whole), Counted::Exact(whole));
        assert!(matches!(
            perft_within(&pos, 5, whole - 1),
            Counted::Above(_)
        ));
    }
}

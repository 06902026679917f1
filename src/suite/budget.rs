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
    let mut total = 0;
    if walk(pos, depth, limit, &mut total) {
        Counted::Exact(total)
    } else {
        Counted::Above(total)
    }
}

/// Adds the leaves below `pos` to `total` unit by unit; false once `total` passes `limit`.
fn walk(pos: &Position, depth: u32, limit: u64, total: &mut u64) -> bool {
    if depth <= UNIT_DEPTH {
        *total = total.saturating_add(perft(pos, depth));
        return *total <= limit;
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(*next));
    children
        .iter()
        .all(|child| walk(child, depth - 1, limit, total))
}

/// The divide at `depth` (moves sorted by text), stopping once the total passes `limit`.
pub fn divide_within(pos: &Position, depth: u32, limit: u64) -> Divided {
    if depth == 0 {
        return Divided::Full(Vec::new());
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), *next)));
    let mut entries = Vec::with_capacity(children.len());
    let mut total: u64 = 0;
    for (text, next) in children {
        match perft_within(&next, depth - 1, limit - total) {
            Counted::Exact(n) => {
                total += n;
                entries.push((text, n));
            }
            Counted::Above(n) => return Divided::Above(total.saturating_add(n)),
        }
    }
    entries.sort();
    Divided::Full(entries)
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

//! Choosing which checks run: filters, slow cases, the node budget and sharding.
//!
//! Sharding works on whole cases so a case's checks stay together. Cases are dealt out by
//! expected cost (the leaf counts their checks expect): largest first, each to the shard with
//! the least work so far, ties to the lower shard, ties between equal cases by name. The result
//! depends only on the suites and the selection, so every shard of a CI matrix computes the same
//! partition: the shards are disjoint and together cover every selected case.

use super::check::{CheckRef, checks_of};
use super::load::Suite;
use crate::echo::echo;
use crate::variants;
use std::fmt;
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1..=count.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

/// Most shards accepted.
pub const MAX_SHARDS: usize = 10_000;

/// `K/N` with 1 <= K <= N, each written in decimal digits only (spaces around them allowed;
/// no sign: `+1/2` is refused as `-1/2` is), or `None`.
pub fn k_of_n(text: &str) -> Option<(usize, usize)> {
    let number = |t: &str| {
        let t = t.trim();
        // `usize::from_str` takes a leading `+`; only digits are a shard number here
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (k, n) = text.split_once('/')?;
    let (k, n) = (number(k)?, number(n)?);
    (k >= 1 && k <= n).then_some((k, n))
}

impl FromStr for Shard {
    type Err = ShardTextError;
    fn from_str(text: &str) -> Result<Shard, ShardTextError> {
        let (index, count) =
            k_of_n(text).ok_or_else(|| ShardTextError::NotKOfN(text.to_string()))?;
        if count > MAX_SHARDS {
            return Err(ShardTextError::TooMany(text.to_string()));
        }
        Ok(Shard { index, count })
    }
}

/// Why a shard's text `K/N` is refused; each holds the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardTextError {
    /// Not two numbers with 1 <= K <= N.
    #[error("shard {} is not of the form K/N with 1 <= K <= N", echo(.0))]
    NotKOfN(String),
    /// More than [`MAX_SHARDS`] shards.
    #[error("shard {}: at most {MAX_SHARDS} shards", echo(.0))]
    TooMany(String),
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Which checks to run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Keep checks whose trial name contains this text.
    pub filter: Option<String>,
    /// Keep cases citing this ruling id.
    pub rule: Option<String>,
    /// Keep suites of this variant.
    pub variant: Option<String>,
    /// Run slow cases (otherwise they are reported as skipped).
    pub slow: bool,
    /// Run deep cases (otherwise they are reported as skipped; `slow` does not include them).
    pub deep: bool,
    /// Skip perft and divide checks expecting more leaf nodes than this.
    pub max_nodes: Option<u64>,
    /// Run one shard of the selected cases.
    pub shard: Option<Shard>,
}

impl Selection {
    /// Checks that `variant` and `rule` name a variant and a ruling that exist.
    ///
    /// # Errors
    /// The unknown variant or ruling (its message lists the known ones).
    pub fn validate(&self) -> Result<(), SelectionError> {
        if let Some(v) = &self.variant
            && variants::get(v).is_none()
        {
            return Err(SelectionError::UnknownVariant(v.clone()));
        }
        if let Some(rule) = &self.rule
            && !known_rulings().contains(&rule.as_str())
        {
            return Err(SelectionError::UnknownRuling(rule.clone()));
        }
        Ok(())
    }
}

/// Every ruling id some variant cites, sorted.
pub fn known_rulings() -> Vec<&'static str> {
    let mut known: Vec<&'static str> = variants::all()
        .iter()
        .flat_map(|v| v.spec.rulings.iter().copied())
        .collect();
    known.sort();
    known.dedup();
    known
}

/// Why a selection cannot choose anything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// `variant` names no variant.
    #[error("--variant: unknown variant {} (variants: {list})", echo(.0), list = variants::IDS.join(", "))]
    UnknownVariant(String),
    /// No variant cites ruling `rule`.
    #[error("--rule: no variant cites ruling {} (rulings: {list})", echo(.0), list = known_rulings().join(", "))]
    UnknownRuling(String),
}

/// Why a deep case's check is skipped when the selection leaves the deep tier out.
pub const SKIP_DEEP: &str = "deep case: run with --deep (hours of CPU)";

/// Why a slow case's check is skipped when the selection leaves slow cases out.
pub const SKIP_SLOW: &str = "slow case: run with --slow";

/// A check chosen to run, or to be reported as skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedCheck {
    /// The check.
    pub check: CheckRef,
    /// Its trial name.
    pub name: String,
    /// Why it is not run, when it is not.
    pub skip: Option<String>,
}

/// The checks `selection` chooses from `suites`, in suite, case and check order.
pub fn plan(suites: &[Suite], selection: &Selection) -> Vec<PlannedCheck> {
    // Group by case: (case cost, case name, its checks).
    let mut cases: Vec<(u64, String, Vec<PlannedCheck>)> = Vec::new();
    for (s, suite) in suites.iter().enumerate() {
        if selection
            .variant
            .as_ref()
            .is_some_and(|v| v != suite.variant.spec.id)
        {
            continue;
        }
        for (c, case) in suite.cases.iter().enumerate() {
            if selection
                .rule
                .as_ref()
                .is_some_and(|r| !case.rules.contains(r))
            {
                continue;
            }
            let mut checks = Vec::new();
            let mut cost = 0u64;
            for check in checks_of(s, c, case) {
                let name = check.name(suites);
                if selection
                    .filter
                    .as_ref()
                    .is_some_and(|f| !name.contains(f.as_str()))
                {
                    continue;
                }
                let nodes = check.expected_nodes(suites);
                let skip = if case.deep && !selection.deep {
                    Some(SKIP_DEEP.to_string())
                } else if case.slow && !case.deep && !selection.slow {
                    Some(SKIP_SLOW.to_string())
                } else {
                    match selection.max_nodes {
                        Some(max) if nodes > max => {
                            Some(format!("expects {nodes} nodes, above --max-nodes {max}"))
                        }
                        _ => None,
                    }
                };
                if skip.is_none() {
                    cost = cost.saturating_add(nodes.saturating_add(1));
                }
                checks.push(PlannedCheck { check, name, skip });
            }
            if !checks.is_empty() {
                let case_name = format!("{}::{}", suite.prefix(), case.id);
                cases.push((cost, case_name, checks));
            }
        }
    }
    if let Some(shard) = selection.shard {
        let owner = assign_shards(
            &cases
                .iter()
                .map(|(cost, name, _)| (*cost, name.as_str()))
                .collect::<Vec<_>>(),
            shard.count,
        );
        let mut i = 0;
        cases.retain(|_| {
            let keep = owner[i] == shard.index - 1;
            i += 1;
            keep
        });
    }
    cases.into_iter().flat_map(|(_, _, c)| c).collect()
}

/// The 0-based shard of each case, given `(cost, name)` per case: largest first to the least
/// loaded shard.
pub fn assign_shards(cases: &[(u64, &str)], count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by(|a, b| {
        cases[*b]
            .0
            .cmp(&cases[*a].0)
            .then_with(|| cases[*a].1.cmp(cases[*b].1))
            .then_with(|| a.cmp(b))
    });
    let mut load = vec![0u64; count.max(1)];
    let mut owner = vec![0usize; cases.len()];
    for i in order {
        let (best, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(k, l)| (**l, *k))
            .unwrap_or((0, &0));
        owner[i] = best;
        load[best] = load[best].saturating_add(cases[i].0.max(1));
    }
    owner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_text_is_validated() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(" 2 / 3 ".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in [
            "0/3", "4/3", "1/0", "x/2", "1", "1/2/3", "-1/2", "+1/2", "1/+2", "/2", "",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_are_balanced_disjoint_and_covering() {
        let cases = [(100, "a"), (1, "b"), (60, "c"), (50, "d"), (0, "e")];
        let owner = assign_shards(&cases, 2);
        assert_eq!(owner.len(), cases.len());
        let load = |k: usize| -> u64 {
            cases
                .iter()
                .zip(&owner)
                .filter(|(_, o)| **o == k)
                .map(|(c, _)| c.0)
                .sum()
        };
        assert_eq!(load(0) + load(1), 211);
        assert!(load(0).abs_diff(load(1)) <= 11, "{owner:?}");
        assert_eq!(owner, assign_shards(&cases, 2), "deterministic");
    }
}

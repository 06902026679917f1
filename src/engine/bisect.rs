//! Comparing two divides and walking down to the first position where two generators disagree
//! on the moves themselves.
//!
//! At each level the two divides are compared. If the move sets differ, that position is the
//! finding: the moves one side has and the other lacks. Otherwise the first move (in sorted
//! order) whose counts differ is played and both sides are asked again one ply shallower.
//! Perft(1) counts moves, so by depth 1 any difference is a difference of move sets.

use super::{Divide, Engine, EngineError, Query};
use crate::notation::{parse_move, parse_position, to_fen};
use crate::perft::DivideEntry;
use crate::variant::Rules;

/// How two divides differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Moves only the first (reference) side lists: the engine misses them.
    pub missing: Vec<DivideEntry>,
    /// Moves only the second (engine) side lists: the engine has them extra.
    pub extra: Vec<DivideEntry>,
    /// Moves both list with different counts: (move, reference count, engine count).
    pub counts: Vec<(String, u64, u64)>,
    /// The reference total.
    pub reference_total: u64,
    /// The engine total.
    pub engine_total: u64,
    /// Moves both list with the same count.
    pub same: usize,
}

impl Comparison {
    /// Whether the divides are identical.
    pub fn agrees(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.counts.is_empty()
    }
    /// Whether the move sets differ.
    pub fn moves_differ(&self) -> bool {
        !self.missing.is_empty() || !self.extra.is_empty()
    }
}

/// Compares the reference's divide with the engine's (both sorted by move text).
pub fn compare(reference: &Divide, engine: &Divide) -> Comparison {
    let mut out = Comparison {
        reference_total: reference.total,
        engine_total: engine.total,
        ..Comparison::default()
    };
    let (mut i, mut j) = (0, 0);
    let (a, b) = (&reference.entries, &engine.entries);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.text == y.text => {
                if x.count == y.count {
                    out.same += 1;
                } else {
                    out.counts.push((x.text.clone(), x.count, y.count));
                }
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.text < y.text => {
                out.missing.push(x.clone());
                i += 1;
            }
            (Some(x), None) => {
                out.missing.push(x.clone());
                i += 1;
            }
            (_, Some(y)) => {
                out.extra.push(y.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// One level of the descent.
#[derive(Clone, Debug)]
pub struct Step {
    /// What both sides were asked.
    pub query: Query,
    /// The reference's answer.
    pub reference: Divide,
    /// The engine's answer.
    pub engine: Divide,
    /// How they differ.
    pub comparison: Comparison,
    /// The move descended into, if any.
    pub next: Option<String>,
}

/// Where the descent stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The move sets differ in the last step's position.
    MovesDiffer,
    /// Depth 1 reached with equal move sets but different counts (an engine counting a move
    /// more than once).
    CountsAtDepthOne,
    /// The parent's counts for the last move differed, but the divides after it agree: the
    /// engines answer differently for the same position reached another way.
    Vanished,
}

/// The result of a comparison with descent.
#[derive(Clone, Debug)]
pub struct Bisection {
    /// Every level asked, the root first.
    pub steps: Vec<Step>,
    /// Why it stopped; `None` when the root divides agree.
    pub stop: Option<Stop>,
    /// Moves played from the root query to the last step's position.
    pub path: Vec<String>,
    /// The FEN of the last step's position, when our generator can follow the path.
    pub fen: Option<String>,
    /// Lines noting inconsistencies seen on the way (a child total that is not its parent's
    /// count).
    pub notes: Vec<String>,
}

impl Bisection {
    /// Whether the two sides agree at the root.
    pub fn agrees(&self) -> bool {
        self.stop.is_none()
    }
    /// The last step.
    ///
    /// # Panics
    /// Never: a bisection has at least one step.
    pub fn last(&self) -> &Step {
        self.steps.last().expect("at least the root step")
    }

    /// The step to ask again to see the difference: the last one, except after
    /// [`Stop::Vanished`], where the divides of the last step agree and the difference is in
    /// its parent's count of the move played.
    pub fn disagreement(&self) -> &Step {
        match (&self.stop, self.steps.len()) {
            (Some(Stop::Vanished), n) if n >= 2 => &self.steps[n - 2],
            _ => self.last(),
        }
    }

    /// For [`Stop::Vanished`]: the move last played, with its count one ply up (reference,
    /// engine), which differ though the divides after it agree.
    pub fn vanished_count(&self) -> Option<(String, u64, u64)> {
        if self.stop != Some(Stop::Vanished) {
            return None;
        }
        let parent = self.disagreement();
        let mv = parent.next.as_deref()?;
        parent
            .comparison
            .counts
            .iter()
            .find(|(m, _, _)| m == mv)
            .cloned()
    }
}

/// Which side failed during a bisection.
#[derive(Debug)]
pub enum Side {
    /// The reference (or `--against` engine).
    Reference,
    /// The engine under test.
    Engine,
}

/// A bisection cut short by an engine failure: the failure, and the steps both sides had
/// answered before it (empty when the root question failed).
#[derive(Debug)]
pub struct Interrupted {
    /// The side that failed.
    pub side: Side,
    /// Its failure.
    pub error: EngineError,
    /// Every level answered by both sides, the root first; the last one's `next` is the move
    /// whose question failed.
    pub steps: Vec<Step>,
    /// The notes gathered on the way (see [`Bisection::notes`]).
    pub notes: Vec<String>,
}

impl Interrupted {
    /// The descent as far as it went, for a report: its steps, no [`Stop`], and as path the
    /// moves descended into (the last one is the move whose question failed).
    pub fn so_far(&self, rules: Rules, root: &Query) -> Bisection {
        let path: Vec<String> = self.steps.iter().filter_map(|s| s.next.clone()).collect();
        Bisection {
            steps: self.steps.clone(),
            stop: None,
            fen: position_fen(rules, root, &path),
            path,
            notes: self.notes.clone(),
        }
    }

    /// The question that failed: the one after the last step's move, or the root question
    /// when no step was answered.
    pub fn question(&self, root: &Query) -> Query {
        match self.steps.last() {
            Some(Step {
                query,
                next: Some(mv),
                ..
            }) => query.child(mv),
            _ => root.clone(),
        }
    }
}

/// Compares `engine` with `reference` on `root` and descends to the first difference of move
/// sets. `rules` compute the FEN of the position found.
///
/// # Errors
/// The first engine failure, with the side it came from.
pub fn bisect(
    reference: &mut dyn Engine,
    engine: &mut dyn Engine,
    root: &Query,
    rules: Rules,
) -> Result<Bisection, (Side, EngineError)> {
    bisect_keeping_steps(reference, engine, root, rules).map_err(|i| (i.side, i.error))
}

/// [`bisect`], keeping on a failure the steps answered before it, so that a report can still
/// show what the two sides were found to disagree on.
///
/// # Errors
/// The first engine failure, with the side it came from and the steps before it.
pub fn bisect_keeping_steps(
    reference: &mut dyn Engine,
    engine: &mut dyn Engine,
    root: &Query,
    rules: Rules,
) -> Result<Bisection, Box<Interrupted>> {
    let mut steps: Vec<Step> = Vec::new();
    let mut notes = Vec::new();
    let mut query = root.clone();
    let mut path = Vec::new();
    let stop = loop {
        let answers = reference
            .divide(&query)
            .map_err(|e| (Side::Reference, e))
            .and_then(|r| {
                engine
                    .divide(&query)
                    .map(|e| (r, e))
                    .map_err(|e| (Side::Engine, e))
            });
        let (r, e) = match answers {
            Ok(both) => both,
            Err((side, error)) => {
                return Err(Box::new(Interrupted {
                    side,
                    error,
                    steps,
                    notes,
                }));
            }
        };
        if let Some(parent) = steps.last() {
            let mv = parent.next.as_deref().unwrap_or("");
            for (side, expected, got) in [
                ("reference", parent.reference.count(mv), r.total),
                ("engine", parent.engine.count(mv), e.total),
            ] {
                if expected.is_some_and(|x| x != got) {
                    notes.push(format!(
                        "{side}: {mv} counted {} at depth {}, but its divide below totals {got}",
                        expected.unwrap_or(0),
                        parent.query.depth
                    ));
                }
            }
        }
        let comparison = compare(&r, &e);
        let stop = if comparison.agrees() {
            if steps.is_empty() {
                None
            } else {
                Some(Stop::Vanished)
            }
        } else if comparison.moves_differ() {
            Some(Stop::MovesDiffer)
        } else if query.depth <= 1 {
            Some(Stop::CountsAtDepthOne)
        } else {
            None
        };
        let agrees_at_root = steps.is_empty() && comparison.agrees();
        let next = match (&stop, agrees_at_root) {
            (None, false) => comparison.counts.first().map(|c| c.0.clone()),
            _ => None,
        };
        let child = next.as_ref().map(|mv| query.child(mv));
        steps.push(Step {
            query: query.clone(),
            reference: r,
            engine: e,
            comparison,
            next: next.clone(),
        });
        match (stop, child, next) {
            (Some(s), _, _) => break Some(s),
            (None, Some(c), Some(mv)) => {
                path.push(mv);
                query = c;
            }
            _ => break None,
        }
    };
    let fen = position_fen(rules, root, &path);
    Ok(Bisection {
        steps,
        stop,
        path,
        fen,
        notes,
    })
}

/// The FEN after `root.moves` and then `path`, when every move is legal for the reference.
pub fn position_fen(rules: Rules, root: &Query, path: &[String]) -> Option<String> {
    let mut pos = parse_position(rules, &root.fen).ok()?;
    for mv in root.moves.iter().chain(path) {
        let m = parse_move(&pos, mv).ok()?;
        pos = pos.play(m);
    }
    Some(to_fen(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divide(pairs: &[(&str, u64)]) -> Divide {
        Divide::from_entries(
            pairs
                .iter()
                .map(|&(t, c)| DivideEntry {
                    text: t.into(),
                    count: c,
                })
                .collect(),
        )
    }

    #[test]
    fn compare_sorts_out_differences() {
        let a = divide(&[("a2a3", 1), ("b2b3", 2), ("c2c3", 3)]);
        let b = divide(&[("b2b3", 5), ("c2c3", 3), ("d2d3", 1)]);
        let c = compare(&a, &b);
        assert_eq!(c.missing.len(), 1);
        assert_eq!(c.missing[0].text, "a2a3");
        assert_eq!(c.extra[0].text, "d2d3");
        assert_eq!(c.counts, vec![("b2b3".to_string(), 2, 5)]);
        assert_eq!(c.same, 1);
        assert!(compare(&a, &a).agrees());
    }
}

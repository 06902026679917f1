//! An external engine as a suite [`Generator`], so that `check` can run the suites against it
//! instead of our reference: the plug for `cvperft check --engine`.
//!
//! Perft, divide and legal moves become divide queries (the position as FEN, no moves). An
//! engine cannot say whether a game is over, so outcome checks are unsupported (reported as
//! skipped); so are questions the engine refuses (a variant or position it cannot express).
//! Other failures (crash, hang, malformed output) fail the check with the engine's one-line
//! error.

use super::pool::EnginePool;
use super::{Divide, Engine, EngineError, EngineErrorKind, Query};
use crate::notation::to_fen;
use crate::position::Position;
use crate::suite::check::{Generator, NoAnswer};
use crate::variant::Outcome;
use std::sync::Mutex;

/// An engine shared by the suite runner's threads: a pool of copies of it, each asked one
/// question at a time ([`EnginePool`]).
pub struct EngineGenerator {
    name: String,
    pool: EnginePool,
    /// Questions answered, questions refused, and the first refusal's words.
    tally: Mutex<Tally>,
}

/// What an engine did with the questions of the checks.
#[derive(Default)]
struct Tally {
    answered: u64,
    refused: u64,
    /// Questions that failed otherwise (a crash, a time-out, malformed output) or were not
    /// asked once the engine was given up on.
    failed: u64,
    first_refusal: Option<String>,
}

impl EngineGenerator {
    /// Wraps one engine (the runner's threads take turns).
    pub fn new(engine: Box<dyn Engine>) -> EngineGenerator {
        EngineGenerator::pooled(EnginePool::single(engine))
    }

    /// Wraps a pool (up to its size of questions at once).
    pub fn pooled(pool: EnginePool) -> EngineGenerator {
        EngineGenerator {
            name: pool.name().to_string(),
            pool,
            tally: Mutex::new(Tally::default()),
        }
    }

    /// How many questions of the checks the engine answered, refused and failed otherwise
    /// (crashes, time-outs, malformed output, questions not asked once it was given up on),
    /// with the first refusal's words (`None` when it refused none). A refusal alone is only a
    /// skipped check; an engine that refuses all or most of them was tested on little.
    pub fn refusals(&self) -> (u64, u64, u64, Option<String>) {
        let tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        (
            tally.answered,
            tally.refused,
            tally.failed,
            tally.first_refusal.clone(),
        )
    }

    /// The pool, for callers that ask the engine their own questions (a bisection).
    pub fn pool(&self) -> &EnginePool {
        &self.pool
    }

    /// Why the engine is no longer asked, once a session gave up on it.
    pub fn stopped(&self) -> Option<String> {
        self.pool.stopped()
    }

    /// Lends the engine to `f` (to bisect a failing check, say): the pool, which asks a free
    /// copy of the engine each question.
    pub fn with_engine<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> Option<R> {
        let mut engine = &self.pool;
        Some(f(&mut engine))
    }

    fn ask(&self, pos: &Position, depth: u32) -> Result<Divide, NoAnswer> {
        let query = Query::new(to_fen(pos), &[], depth);
        let answer = self
            .pool
            .divide(&query)
            .and_then(|d| self.one_leaf_per_move(&query, d));
        let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        match &answer {
            Ok(_) => tally.answered += 1,
            Err(e) if matches!(e.kind, EngineErrorKind::Rejected(_)) => {
                tally.refused += 1;
                if tally.first_refusal.is_none() {
                    tally.first_refusal = Some(e.kind.to_string());
                }
            }
            Err(_) => tally.failed += 1,
        }
        drop(tally);
        answer.map_err(no_answer)
    }

    /// A divide at depth 1 counts one leaf per move: any other count contradicts the answer
    /// itself (a move left out and another counted twice keep the total), so it is refused
    /// rather than passed on as a total that a perft check would take for a right one.
    fn one_leaf_per_move(&self, query: &Query, d: Divide) -> Result<Divide, EngineError> {
        if query.depth != 1 {
            return Ok(d);
        }
        let Some(wrong) = d.entries.iter().find(|e| e.count != 1) else {
            return Ok(d);
        };
        Err(EngineError::new(
            &self.name,
            Some(query),
            EngineErrorKind::NotOneLeaf {
                text: wrong.text.clone(),
                count: wrong.count,
            },
        ))
    }
}

fn no_answer(e: EngineError) -> NoAnswer {
    match e.kind {
        // A refusal, or a question its session no longer asks: skipped, with the reason.
        EngineErrorKind::Rejected(_) | EngineErrorKind::Stopped(_) => {
            NoAnswer::Unsupported(e.to_string())
        }
        _ => NoAnswer::Error(e.to_string()),
    }
}

impl Generator for EngineGenerator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, NoAnswer> {
        if depth == 0 {
            return Ok(1);
        }
        self.ask(pos, depth).map(|d| d.total)
    }

    fn divide(&self, pos: &Position, depth: u32) -> Result<Vec<(String, u64)>, NoAnswer> {
        if depth == 0 {
            return Ok(Vec::new());
        }
        self.ask(pos, depth)
            .map(|d| d.entries.into_iter().map(|e| (e.text, e.count)).collect())
    }

    fn legal_moves(&self, pos: &Position) -> Result<Vec<String>, NoAnswer> {
        self.ask(pos, 1)
            .map(|d| d.entries.into_iter().map(|e| e.text).collect())
    }

    fn outcome(&self, _pos: &Position) -> Result<Option<Outcome>, NoAnswer> {
        Err(NoAnswer::Unsupported(format!(
            "engine `{}` does not report game outcomes",
            self.name
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ReferenceEngine;
    use crate::faults::Faults;
    use crate::notation::parse_position;
    use crate::suite::check::Reference;

    #[test]
    fn answers_like_the_reference_and_skips_outcomes() {
        let rules = crate::variants::rules("chess").expect("chess");
        let pos = parse_position(rules, &rules.start_fen()).expect("start");
        let generator = EngineGenerator::new(Box::new(ReferenceEngine::new(rules)));
        assert_eq!(generator.perft(&pos, 3), Reference.perft(&pos, 3));
        assert_eq!(generator.divide(&pos, 2), Reference.divide(&pos, 2));
        let mut ours = Reference.legal_moves(&pos).expect("moves");
        ours.sort();
        assert_eq!(generator.legal_moves(&pos), Ok(ours));
        assert!(matches!(
            generator.outcome(&pos),
            Err(NoAnswer::Unsupported(_))
        ));
    }

    #[test]
    fn a_wrong_engine_gives_other_answers() {
        let rules = crate::variants::rules("chess").expect("chess");
        let pos = parse_position(rules, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").expect("fen");
        let faults = Faults::parse("chess", &["no-en-passant".into()]).expect("fault");
        let generator = EngineGenerator::new(Box::new(ReferenceEngine::with_faults(rules, faults)));
        assert_ne!(generator.perft(&pos, 1), Reference.perft(&pos, 1));
    }
}

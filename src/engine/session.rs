//! One external engine as a session: one deadline per question, and a circuit breaker.
//!
//! Every question gets one deadline, fixed when it is asked: an engine that prints a line of
//! `info` every half second does not earn more time with each line. And an engine that hangs
//! or dies on every question should not be asked two hundred more: after
//! [`DEFAULT_FAILURE_LIMIT`] consecutive time-outs or crashes (configurable; 0 never gives up)
//! the session stops asking it, answers every later question with
//! [`EngineErrorKind::Stopped`] (a suite run reports those checks as skipped, with the reason),
//! and [`Engine::stopped`] tells the caller, which exits 1. An answer of any other kind, right
//! or wrong, resets the count, except the early answers of a UCI engine restarted after a
//! failure: its process must answer two questions, and when the failed question was no deeper
//! than one the failed process had answered (a hang, not slowness), more questions than that
//! process did ([`RESTART_PROOF_CAP`] are always enough). An engine that hangs after its
//! first, or its k-th, answer would otherwise alternate between k answers and a time-out for
//! ever; one that hangs on a few positions only, or is too slow for the deepest questions, is
//! still asked the rest. A pool of engine processes runs one session per process.

use super::{Deadline, Divide, Engine, EngineError, EngineErrorKind, Query};
use std::time::Duration;

/// Consecutive time-outs or crashes after which a session stops asking its engine.
pub const DEFAULT_FAILURE_LIMIT: usize = 3;

/// Answers of a restarted UCI process that always end a run of failures, however many the
/// process before it gave: an engine that hangs on every ninth question or later costs one
/// time-out in nine at most, and one that hangs on a few positions is not given up.
pub const RESTART_PROOF_CAP: usize = 8;

/// An engine with a deadline per question and a circuit breaker.
pub struct EngineSession {
    inner: Box<dyn Engine>,
    timeout: Duration,
    failure_limit: usize,
    failures: usize,
    /// Answers a restarted process must have given to end the run of failures.
    proof: usize,
    /// The deepest question the current process has answered.
    deepest: Option<u32>,
    stopped: Option<String>,
}

impl EngineSession {
    /// A session over `inner`, giving each question `timeout` and stopping after
    /// `failure_limit` consecutive time-outs or crashes (0: never).
    pub fn new(inner: Box<dyn Engine>, timeout: Duration, failure_limit: usize) -> EngineSession {
        EngineSession {
            inner,
            timeout,
            failure_limit,
            failures: 0,
            proof: 0,
            deepest: None,
            stopped: None,
        }
    }

    fn record(&mut self, depth: u32, result: &Result<Divide, EngineError>) {
        if result.is_ok() {
            // A first answer is a new process's (a UCI engine restarted after a failure).
            self.deepest = match self.inner.process_answers() {
                Some(1) => Some(depth),
                _ => Some(self.deepest.map_or(depth, |d| d.max(depth))),
            };
        }
        match result {
            // The early answers of a process restarted after a failure prove little (an engine
            // that hangs after its k-th answer would answer k times, hang, answer k times...):
            // only an answer beyond what the failed process gave ends the run of failures.
            Ok(_)
                if self.failures > 0
                    && matches!(self.inner.process_answers(), Some(n) if n < self.proof) => {}
            Err(e) if is_failure(&e.kind) => {
                self.failures += 1;
                // After a failure the engine tells how many questions the failed process had
                // answered (`None` for engines that start a process per question). A question
                // deeper than any that process answered may just be too slow for the timeout
                // (an engine that answers depths 1-3 of every case in time and not depth 4):
                // two answers then end the run. One no deeper than an answered one is a hang.
                if let Some(answered) = self.inner.process_answers() {
                    let harder = answered == 0 || self.deepest.is_none_or(|d| depth > d);
                    self.proof = if harder {
                        2
                    } else {
                        (answered + 1).clamp(2, RESTART_PROOF_CAP)
                    };
                }
                self.deepest = None;
                if self.failure_limit > 0 && self.failures >= self.failure_limit {
                    self.stopped = Some(format!(
                        "the last {} questions timed out or crashed; the last: {}",
                        self.failures, e.kind
                    ));
                }
            }
            _ => self.failures = 0,
        }
    }
}

/// Whether an error is one the breaker counts: the engine hung, died or could not be run.
fn is_failure(kind: &EngineErrorKind) -> bool {
    matches!(
        kind,
        EngineErrorKind::Timeout { .. }
            | EngineErrorKind::Crashed { .. }
            | EngineErrorKind::Io(_)
            | EngineErrorKind::Spawn(_)
    )
}

impl Engine for EngineSession {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        self.divide_by(query, Deadline::after(self.timeout))
    }

    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        if let Some(reason) = &self.stopped {
            return Err(EngineError::new(
                &self.inner.name(),
                Some(query),
                EngineErrorKind::Stopped(reason.clone()),
            ));
        }
        let result = self
            .inner
            .divide_by(query, deadline.min(Deadline::after(self.timeout)));
        self.record(query.depth, &result);
        result
    }

    fn stopped(&self) -> Option<String> {
        self.stopped.clone()
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers from a script: `Ok(total)` or an error kind.
    struct Scripted(Vec<Result<u64, EngineErrorKind>>);

    impl Engine for Scripted {
        fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
            match self.0.remove(0) {
                Ok(total) => Ok(Divide {
                    total,
                    ..Divide::default()
                }),
                Err(kind) => Err(EngineError::new("scripted", Some(query), kind)),
            }
        }
        fn name(&self) -> String {
            "scripted".into()
        }
    }

    fn timeout() -> EngineErrorKind {
        EngineErrorKind::Timeout {
            allowed: Duration::from_millis(10),
            waiting_for: "its output".into(),
        }
    }

    #[test]
    fn three_failures_in_a_row_stop_the_session() {
        let malformed = EngineErrorKind::Malformed {
            line: "x".into(),
            expected: "y".into(),
        };
        let script = vec![
            Err(timeout()),
            Err(timeout()),
            Err(malformed),
            Ok(1),
            Err(timeout()),
            Err(timeout()),
            Err(timeout()),
            Ok(2),
        ];
        let mut session = EngineSession::new(Box::new(Scripted(script)), Duration::from_secs(1), 3);
        let q = Query::new("fen", &[], 1);
        let kinds: Vec<String> = (0..8)
            .map(|_| match session.divide(&q) {
                Ok(d) => format!("ok {}", d.total),
                Err(e) => match e.kind {
                    EngineErrorKind::Stopped(_) => "stopped".into(),
                    _ => "error".into(),
                },
            })
            .collect();
        // A wrong answer resets the count; the third time-out in a row stops it.
        assert_eq!(
            kinds,
            [
                "error", "error", "error", "ok 1", "error", "error", "error", "stopped"
            ]
        );
        let reason = session.stopped().expect("stopped");
        assert!(
            reason.starts_with("the last 3 questions timed out"),
            "{reason}"
        );
    }

    /// Times out, telling the time it was given.
    struct Hangs;

    impl Engine for Hangs {
        fn divide(&mut self, _: &Query) -> Result<Divide, EngineError> {
            unreachable!("asked with a deadline")
        }
        fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
            let kind = EngineErrorKind::Timeout {
                allowed: deadline.allowed,
                waiting_for: "its output".into(),
            };
            Err(EngineError::new("hangs", Some(query), kind))
        }
        fn name(&self) -> String {
            "hangs".into()
        }
    }

    #[test]
    fn a_time_out_tells_the_timeout_as_set() {
        let timeout = Duration::from_secs_f64(0.0001);
        let mut session = EngineSession::new(Box::new(Hangs), timeout, 0);
        let e = session
            .divide(&Query::new("fen", &[], 1))
            .expect_err("timed out");
        assert!(e.to_string().contains("no answer within 100 µs"), "{e}");
        // A caller's deadline before the timeout is the one told, and the timeout when later.
        let mut session = EngineSession::new(Box::new(Hangs), Duration::from_secs(1), 0);
        for (given, told) in [(2, "2 ms"), (5_000, "1 s")] {
            let deadline = Deadline::after(Duration::from_millis(given));
            let e = session
                .divide_by(&Query::new("fen", &[], 1), deadline)
                .expect_err("timed out");
            assert!(e.to_string().contains(&format!("within {told} ")), "{e}");
        }
    }

    #[test]
    fn a_limit_of_zero_never_stops() {
        let script = vec![Err(timeout()); 5];
        let mut session = EngineSession::new(Box::new(Scripted(script)), Duration::from_secs(1), 0);
        let q = Query::new("fen", &[], 1);
        for _ in 0..5 {
            assert!(matches!(
                session.divide(&q).map_err(|e| e.kind),
                Err(EngineErrorKind::Timeout { .. })
            ));
        }
        assert_eq!(session.stopped(), None);
    }

    /// A UCI-like engine whose process times out when `fails(answers so far, depth)` says so;
    /// the next question starts a new process, as a UCI engine does after a failure.
    struct Restarting {
        fails: Box<dyn Fn(usize, u32) -> bool + Send>,
        answers: usize,
        failed: bool,
    }

    impl Restarting {
        fn new(fails: impl Fn(usize, u32) -> bool + Send + 'static) -> Restarting {
            Restarting {
                fails: Box::new(fails),
                answers: 0,
                failed: false,
            }
        }
    }

    impl Engine for Restarting {
        fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
            if self.failed {
                self.failed = false;
                self.answers = 0;
            }
            if (self.fails)(self.answers, query.depth) {
                self.failed = true;
                return Err(EngineError::new("restarting", Some(query), timeout()));
            }
            self.answers += 1;
            Ok(Divide::default())
        }
        fn process_answers(&self) -> Option<usize> {
            Some(self.answers)
        }
        fn name(&self) -> String {
            "restarting".into()
        }
    }

    /// How many questions a session over an engine hanging after `k` answers is asked before
    /// it stops (`None`: not within 200).
    fn asked_before_stop(k: usize) -> Option<usize> {
        // Each process answers `k` questions and hangs on the next.
        let engine = Restarting::new(move |answers, _| answers == k);
        let mut session = EngineSession::new(Box::new(engine), Duration::from_secs(1), 3);
        let q = Query::new("fen", &[], 1);
        (1..=200).find(|_| {
            let _ = session.divide(&q);
            session.stopped().is_some()
        })
    }

    #[test]
    fn a_restarted_process_must_answer_more_than_the_one_that_failed() {
        // k answers and a time-out, three times over, for any k up to the cap.
        for k in 0..super::RESTART_PROOF_CAP {
            assert_eq!(asked_before_stop(k), Some(3 * (k + 1)), "k = {k}");
        }
        // An engine that hangs only now and then is asked on: one time-out in nine at most.
        assert_eq!(asked_before_stop(super::RESTART_PROOF_CAP), None);
    }

    #[test]
    fn an_engine_too_slow_for_the_deepest_questions_is_asked_the_rest() {
        // Cases asked at depths 1 to 4 in turn, as `check` asks them: three answers and a
        // time-out each, a time-out on a question deeper than any the process answered.
        // Every process answers depths 1 to 3 and times out at depth 4.
        let engine = Restarting::new(|_, depth| depth >= 4);
        let mut session = EngineSession::new(Box::new(engine), Duration::from_secs(1), 3);
        for case in 0..50 {
            for depth in 1..=4 {
                let _ = session.divide(&Query::new("fen", &[], depth));
                assert_eq!(session.stopped(), None, "case {case}, depth {depth}");
            }
        }
    }

    #[test]
    fn an_engine_without_a_lasting_process_resets_the_count_with_any_answer() {
        let script = vec![
            Err(timeout()),
            Err(timeout()),
            Ok(1),
            Err(timeout()),
            Err(timeout()),
            Ok(2),
        ];
        let mut session = EngineSession::new(Box::new(Scripted(script)), Duration::from_secs(1), 3);
        let q = Query::new("fen", &[], 1);
        for _ in 0..6 {
            let _ = session.divide(&q);
        }
        assert_eq!(session.stopped(), None);
    }
}

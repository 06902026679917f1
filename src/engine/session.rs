//! One external engine as a session: one deadline per question, and a circuit breaker.
//!
//! Every question gets one deadline, fixed when it is asked: an engine that prints a line of
//! `info` every half second does not earn more time with each line. And an engine that hangs
//! or dies on every question should not be asked two hundred more: after
//! [`DEFAULT_FAILURE_LIMIT`] consecutive time-outs or crashes (configurable; 0 never gives up)
//! the session stops asking it, answers every later question with
//! [`EngineErrorKind::Stopped`] (a suite run reports those checks as skipped, with the reason),
//! and [`Engine::stopped`] tells the caller, which exits 1. An answer of any other kind, right
//! or wrong, resets the count, except the first answer of a UCI engine restarted after a
//! failure (an engine that hangs after its first answer would otherwise alternate between an
//! answer and a time-out for ever). A pool of engine processes runs one session per process.

use super::{Deadline, Divide, Engine, EngineError, EngineErrorKind, Query};
use std::time::Duration;

/// Consecutive time-outs or crashes after which a session stops asking its engine.
pub const DEFAULT_FAILURE_LIMIT: usize = 3;

/// An engine with a deadline per question and a circuit breaker.
pub struct EngineSession {
    inner: Box<dyn Engine>,
    timeout: Duration,
    failure_limit: usize,
    failures: usize,
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
            stopped: None,
        }
    }

    fn record(&mut self, result: &Result<Divide, EngineError>) {
        match result {
            // The first answer of a process restarted after a failure proves little (an engine
            // that hangs after its first answer would answer, hang, answer, hang...): only a
            // second answer from the same process ends the run of failures.
            Ok(_) if self.failures > 0 && self.inner.process_answers() == Some(1) => {}
            Err(e) if is_failure(&e.kind) => {
                self.failures += 1;
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
        self.record(&result);
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
}

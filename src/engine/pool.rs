//! Several copies of one external engine asked at once: `cvperft check --engine -j N`.
//!
//! An engine answers one question at a time, so a suite run with N worker threads needs N
//! engines to gain anything: N UCI processes, or N perftree commands running side by side. A
//! pool keeps up to `size` members, each a whole engine stack as [`EngineConfig::open`] builds
//! it (its own process, its own deadline per question, its own circuit breaker), opened only
//! when every member already open is busy. A question borrows an idle member (or waits for
//! one), is answered without any lock held, and the member goes back to the pool.
//!
//! Every answer depends on the question alone (a member is a fresh process or a UCI engine set
//! up again for each position), so a suite run reports the same counts and verdicts at any
//! pool size; the runner puts results back in plan order. Once any member's breaker gives up
//! on its engine, the pool stops asking all of them: the engine hangs or crashes, whichever
//! copy was asked. Every process a member starts is registered for clean-up like any engine's,
//! so a signal kills the whole pool.
//!
//! [`EngineConfig::open`]: super::EngineConfig::open

use super::{Divide, Engine, EngineError, EngineErrorKind, Query};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Opens one more member of a pool.
pub type Opener = Box<dyn Fn() -> Result<Box<dyn Engine>, EngineError> + Send + Sync>;

/// Up to `size` copies of one engine, each asked one question at a time.
pub struct EnginePool {
    name: String,
    size: usize,
    open: Option<Opener>,
    state: Mutex<PoolState>,
    returned: Condvar,
}

struct PoolState {
    /// Members not answering a question now.
    idle: Vec<Box<dyn Engine>>,
    /// Members opened so far (idle or busy).
    opened: usize,
    /// Why the pool no longer asks its engine.
    stopped: Option<String>,
}

impl EnginePool {
    /// A pool of one engine that opens no other.
    pub fn single(engine: Box<dyn Engine>) -> EnginePool {
        EnginePool::with_first(engine, 1, None)
    }

    /// A pool holding `first` and opening up to `size - 1` more with `open` when all are busy.
    /// A size of 0 is taken as 1.
    pub fn new(first: Box<dyn Engine>, size: usize, open: Opener) -> EnginePool {
        EnginePool::with_first(first, size, Some(open))
    }

    fn with_first(first: Box<dyn Engine>, size: usize, open: Option<Opener>) -> EnginePool {
        EnginePool {
            name: first.name(),
            size: if open.is_some() { size.max(1) } else { 1 },
            open,
            state: Mutex::new(PoolState {
                idle: vec![first],
                opened: 1,
                stopped: None,
            }),
            returned: Condvar::new(),
        }
    }

    /// The most members the pool opens.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many members are open now.
    pub fn opened(&self) -> usize {
        self.lock().opened
    }

    /// Why the pool no longer asks its engine, once a member's session gave up on it.
    pub fn stopped(&self) -> Option<String> {
        self.lock().stopped.clone()
    }

    /// The engine's name (its command line).
    pub fn name(&self) -> &str {
        &self.name
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // A member that panicked left no state half-changed: the lists are only pushed to and
        // popped from. Carry on with what is there.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn not_asked(&self, query: &Query, reason: &str) -> EngineError {
        EngineError::new(
            &self.name,
            Some(query),
            EngineErrorKind::Stopped(reason.to_string()),
        )
    }

    /// Borrows an idle member, opens one when all are busy and the pool is not full, or waits.
    fn borrow(&self, query: &Query) -> Result<Box<dyn Engine>, EngineError> {
        let mut state = self.lock();
        loop {
            if let Some(reason) = &state.stopped {
                return Err(self.not_asked(query, reason));
            }
            if let Some(member) = state.idle.pop() {
                return Ok(member);
            }
            if let Some(open) = &self.open
                && state.opened < self.size
            {
                state.opened += 1;
                drop(state);
                let opened = open();
                if opened.is_err() {
                    self.lock().opened -= 1;
                    self.returned.notify_one();
                }
                return opened;
            }
            state = self
                .returned
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// The divide of `query`, asked of an idle member (waiting for one when all are busy).
    ///
    /// # Errors
    /// As [`Engine::divide`]; [`EngineErrorKind::Stopped`] once the pool gave up on the engine.
    pub fn divide(&self, query: &Query) -> Result<Divide, EngineError> {
        let mut member = self.borrow(query)?;
        let answer = member.divide(query);
        let mut state = self.lock();
        if state.stopped.is_none() {
            state.stopped = member.stopped();
        }
        state.idle.push(member);
        drop(state);
        // Waiters recheck `stopped` too, so wake them all once the pool stops.
        self.returned.notify_all();
        answer
    }
}

/// A shared pool is an engine too, so that `diff`'s bisection can ask it.
impl Engine for &EnginePool {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        EnginePool::divide(self, query)
    }
    fn stopped(&self) -> Option<String> {
        EnginePool::stopped(self)
    }
    fn name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Answers with the depth as the total after a pause, counting how many answer at once.
    struct Slow {
        busy: Arc<AtomicUsize>,
        most: Arc<AtomicUsize>,
        fail_on: Option<u32>,
    }

    impl Engine for Slow {
        fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
            let now = self.busy.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            self.busy.fetch_sub(1, Ordering::SeqCst);
            if self.fail_on == Some(query.depth) {
                return Err(EngineError::new(
                    "slow",
                    Some(query),
                    EngineErrorKind::Timeout {
                        allowed: Duration::from_millis(1),
                        waiting_for: "its answer".into(),
                    },
                ));
            }
            Ok(Divide {
                total: u64::from(query.depth),
                ..Divide::default()
            })
        }
        fn name(&self) -> String {
            "slow".into()
        }
    }

    fn pool(size: usize, fail_on: Option<u32>, limit: usize) -> (EnginePool, Arc<AtomicUsize>) {
        let busy = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let make = {
            let (busy, most) = (busy.clone(), most.clone());
            move || -> Box<dyn Engine> {
                Box::new(crate::engine::EngineSession::new(
                    Box::new(Slow {
                        busy: busy.clone(),
                        most: most.clone(),
                        fail_on,
                    }),
                    Duration::from_secs(5),
                    limit,
                ))
            }
        };
        let first = make();
        (
            EnginePool::new(first, size, Box::new(move || Ok(make()))),
            most,
        )
    }

    fn ask_all(pool: &EnginePool, threads: usize, questions: u32) -> Vec<Result<u64, String>> {
        let answers = Mutex::new(vec![Ok(0); questions as usize]);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= questions as usize {
                            break;
                        }
                        let q = Query::new("fen", &[], i as u32 + 1);
                        let a = pool.divide(&q).map(|d| d.total).map_err(|e| match e.kind {
                            EngineErrorKind::Stopped(_) => "stopped".to_string(),
                            _ => "error".to_string(),
                        });
                        answers.lock().expect("answers")[i] = a;
                    }
                });
            }
        });
        answers.into_inner().expect("answers")
    }

    #[test]
    fn members_answer_side_by_side_up_to_the_size() {
        let (pool, most) = pool(3, None, 3);
        let answers = ask_all(&pool, 5, 12);
        assert_eq!(answers, (1..=12).map(Ok).collect::<Vec<_>>());
        assert_eq!(pool.opened(), 3, "never more members than the size");
        assert!(most.load(Ordering::SeqCst) <= 3);
        assert!(most.load(Ordering::SeqCst) >= 2, "members answered at once");
        assert_eq!(pool.stopped(), None);
    }

    #[test]
    fn a_single_pool_opens_nothing_more() {
        let (pooled, _) = pool(1, None, 3);
        assert_eq!(ask_all(&pooled, 3, 4), (1..=4).map(Ok).collect::<Vec<_>>());
        assert_eq!(pooled.opened(), 1);
    }

    #[test]
    fn a_member_whose_breaker_trips_stops_the_pool() {
        // Every question at depth 2 times out; with a limit of 1 the first time-out stops the
        // member that had it, and with it the pool.
        let (pool, _) = pool(2, Some(2), 1);
        let first = pool.divide(&Query::new("fen", &[], 1)).map(|d| d.total);
        assert_eq!(first, Ok(1));
        let failed = pool.divide(&Query::new("fen", &[], 2));
        assert!(matches!(
            failed.map_err(|e| e.kind),
            Err(EngineErrorKind::Timeout { .. })
        ));
        let reason = pool.stopped().expect("stopped");
        assert!(reason.starts_with("the last 1 questions"), "{reason}");
        assert!(
            ask_all(&pool, 2, 4)
                .iter()
                .all(|a| a.as_ref().err().map(String::as_str) == Some("stopped"))
        );
        let mut handle: &EnginePool = &pool;
        assert!(Engine::stopped(&handle).is_some());
        assert!(Engine::divide(&mut handle, &Query::new("fen", &[], 1)).is_err());
    }
}

//! Running a plan: checks spread over worker threads, results handed back in plan order.

use super::check::{Generator, run_check};
use super::load::Suite;
use super::plan::PlannedCheck;
use super::result::{CheckResult, Status};
use crate::notation::to_fen;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// The result of a planned check that is not run.
pub fn skipped(suites: &[Suite], planned: &PlannedCheck, reason: &str) -> CheckResult {
    let suite = &suites[planned.check.suite];
    let case = &suite.cases[planned.check.case];
    CheckResult {
        name: planned.name.clone(),
        variant: suite.variant.spec.id.to_string(),
        file: suite.path.clone(),
        suite: suite.stem.clone(),
        case: case.id.clone(),
        line: case.line,
        check: planned.check.check_name(),
        alternative: planned
            .check
            .alternative
            .map(|k| super::result::AlternativeInfo {
                number: k + 1,
                reading: case.alternatives[k].reading.clone(),
            }),
        status: Status::Skipped,
        message: reason.to_string(),
        mismatch: None,
        fen: to_fen(&case.position),
        reproduce: None,
        seconds: 0.0,
    }
}

/// Runs every planned check on `jobs` threads (at least one) and calls `on_result` on the
/// calling thread with each result, in plan order, as soon as it and all before it are done.
/// When `on_result` returns false (its reader has gone away), no further check is started.
pub fn execute(
    suites: &[Suite],
    plan: &[PlannedCheck],
    generator: &dyn Generator,
    jobs: usize,
    mut on_result: impl FnMut(usize, CheckResult) -> bool,
) {
    let run_one = |i: usize| -> CheckResult {
        let planned = &plan[i];
        match &planned.skip {
            Some(reason) => skipped(suites, planned, reason),
            None => run_check(suites, &planned.check, generator),
        }
    };
    let jobs = jobs.clamp(1, plan.len().max(1));
    if jobs == 1 {
        for i in 0..plan.len() {
            if !on_result(i, run_one(i)) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, CheckResult)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let next = &next;
            let stop = &stop;
            let run_one = &run_one;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= plan.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if sender.send((i, run_one(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending: BTreeMap<usize, CheckResult> = BTreeMap::new();
        let mut emitted = 0;
        for (i, result) in receiver {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&emitted) {
                if !stop.load(Ordering::Relaxed) && !on_result(emitted, result) {
                    stop.store(true, Ordering::Relaxed);
                }
                emitted += 1;
            }
        }
    });
}

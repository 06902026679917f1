//! What `cvperft check` does, for any front end: suites loaded, checks chosen, run against the
//! reference or an external engine, and the results handed back for the renderers.
//!
//! The steps are functions of their own so that a front end can put its own work between them
//! (the command line opens its `--output` file after loading and before planning, so that a
//! report never overwrites a suite): [`validate`] the selection and options, [`load_suites`],
//! [`CheckRun::prepare`] (plan, and start the engines), [`CheckRun::run`] (with an observer
//! that sees every result and every finished case, and can stop the run). [`check`] does them
//! all. Nothing here prints.

use crate::engine::suites::{EngineSuites, SuiteEngineError, SuiteEngineOptions, prepare};
use crate::findings::{
    BisectLimits, Bisected, Diagnosis, NotBisected, bisect_check, diff_command, finding_of,
};
use crate::notation::to_fen;
use crate::position::Position;
use crate::suite::check::CheckKind;
use crate::suite::result::Mismatch;
use crate::suite::run::execute;
use crate::suite::{
    CheckResult, Generator, LoadError, PlannedCheck, Reference, RunReport, Selection,
    SelectionError, Status, StoppableReference, Suite, Summary, load_all, plan, suite_infos,
};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Most worker threads a run accepts.
pub const MAX_JOBS: usize = 256;

/// Longest time the bisections of a run may be given, in seconds (a day).
pub const MAX_BISECT_SECONDS: f64 = 86_400.0;

/// How to run the checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckOptions {
    /// Worker threads (default: one against an engine; otherwise the number of CPUs); against
    /// an engine, also the size of each variant's pool of engine copies.
    pub jobs: Option<usize>,
    /// Run against this external engine instead of the reference.
    pub engine: Option<SuiteEngineOptions>,
    /// With an engine: bisect each failing perft or divide check within these limits (`None`:
    /// not at all).
    pub bisect: Option<BisectLimits>,
}

/// Why the checks cannot run.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// An unknown variant or ruling in the selection.
    #[error(transparent)]
    Selection(#[from] SelectionError),
    /// A number of jobs out of range.
    #[error("--jobs {0}: expected 1 to {MAX_JOBS}")]
    Jobs(usize),
    /// A bisection time limit that is not a number of seconds.
    #[error("--bisect-seconds {0}: expected 0 to {MAX_BISECT_SECONDS} seconds")]
    BisectSeconds(f64),
    /// Suites that do not load: every problem of every file, in file order.
    #[error("{}", join_load_errors(.0))]
    Load(Vec<LoadError>),
    /// The paths hold no suite (or no path was given).
    #[error("{}", no_suite(.0))]
    NoSuite(Vec<PathBuf>),
    /// The selection chooses no check (and no shard was asked for, which may be empty).
    #[error("no check matches the selection (--filter, --rule, --variant)")]
    NothingSelected,
    /// The engine cannot be used.
    #[error(transparent)]
    Engine(#[from] SuiteEngineError),
}

fn join_load_errors(errors: &[LoadError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    lines.join("; ")
}

/// `no suite (*.yaml) in a b`, or that no path was given at all (a library caller's or a
/// binding's empty list; the command line always has one).
fn no_suite(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "no suite: no path given (a suite file or a directory of *.yaml)".to_string();
    }
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("no suite (*.yaml) in {}", names.join(" "))
}

/// Checks the selection and the options before anything is read.
///
/// # Errors
/// An unknown variant or ruling, or a number of jobs out of range.
pub fn validate(selection: &Selection, options: &CheckOptions) -> Result<(), CheckError> {
    selection.validate()?;
    if let Some(jobs) = options.jobs
        && (jobs == 0 || jobs > MAX_JOBS)
    {
        return Err(CheckError::Jobs(jobs));
    }
    if let Some(limits) = options.bisect
        && !(0.0..=MAX_BISECT_SECONDS).contains(&limits.seconds)
    {
        return Err(CheckError::BisectSeconds(limits.seconds));
    }
    Ok(())
}

/// Loads every suite under `paths` (files, or directories of `*.yaml` files), refusing none at
/// all.
///
/// # Errors
/// Every problem of every file ([`CheckError::Load`]), or no suite under `paths`.
pub fn load_suites(paths: &[PathBuf]) -> Result<Vec<Suite>, CheckError> {
    let suites = load_all(paths).map_err(CheckError::Load)?;
    if suites.is_empty() {
        return Err(CheckError::NoSuite(paths.to_vec()));
    }
    Ok(suites)
}

/// The checks `selection` chooses from `suites`.
///
/// # Errors
/// None chosen, unless a shard was asked for (a shard may be empty).
pub fn plan_checks(
    suites: &[Suite],
    selection: &Selection,
) -> Result<Vec<PlannedCheck>, CheckError> {
    let planned = plan(suites, selection);
    if planned.is_empty() && selection.shard.is_none() {
        return Err(CheckError::NothingSelected);
    }
    Ok(planned)
}

/// What an observer of a run sees.
#[derive(Copy, Clone, Debug)]
pub enum Event<'a> {
    /// A check has finished (results come in plan order).
    Check(&'a CheckResult),
    /// A case has finished: the results of all its checks.
    Case(&'a [CheckResult]),
}

/// The checks of a run, planned, and what they run against.
pub struct CheckRun<'a> {
    suites: &'a [Suite],
    planned: Vec<PlannedCheck>,
    engines: Option<EngineSuites>,
    /// Without an engine: the reference, stopping its counts on a flag (see [`Self::stop_on`]).
    stoppable: Option<StoppableReference>,
    jobs: usize,
    bisect: Option<BisectLimits>,
}

impl<'a> CheckRun<'a> {
    /// Plans the checks `selection` chooses and, with an engine, marks the checks it cannot
    /// answer as skipped and starts it (one process per variant).
    ///
    /// # Errors
    /// Nothing chosen ([`plan_checks`]), or an engine that cannot be used.
    pub fn prepare(
        suites: &'a [Suite],
        selection: &Selection,
        options: &CheckOptions,
    ) -> Result<CheckRun<'a>, CheckError> {
        let mut planned = plan_checks(suites, selection)?;
        // Against an engine, one at a time unless asked (-j N: a pool of N engine copies).
        let default_jobs = options.engine.as_ref().map(|_| 1);
        let jobs = options.jobs.or(default_jobs).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        let engines = match &options.engine {
            Some(engine) => Some(prepare(engine, suites, &mut planned, jobs)?),
            None => None,
        };
        Ok(CheckRun {
            suites,
            planned,
            engines,
            stoppable: None,
            jobs,
            bisect: options.bisect,
        })
    }

    /// The planned checks, in run order (skipped ones included).
    pub fn planned(&self) -> &[PlannedCheck] {
        &self.planned
    }

    /// Makes the reference's counts stop, unit by unit, once `stop` is set (a stopped check is
    /// then reported as failed): for a caller that is interrupted while a long count runs, and
    /// stops the run through [`Self::run`]'s `observe` too. Without effect against an engine.
    #[must_use]
    pub fn stop_on(mut self, stop: Arc<AtomicBool>) -> CheckRun<'a> {
        self.stoppable = Some(StoppableReference { stop });
        self
    }

    /// What the checks run against.
    pub fn generator(&self) -> &dyn Generator {
        match (&self.engines, &self.stoppable) {
            (Some(e), _) => e,
            (None, Some(reference)) => reference,
            (None, None) => &Reference,
        }
    }

    /// Runs every planned check, telling `observe` of each result and each finished case as
    /// soon as it and all before it are done; once `observe` returns false no further check is
    /// started (the report then holds the results so far).
    pub fn run(&self, mut observe: impl FnMut(Event<'_>) -> bool) -> CheckOutcome {
        let start = Instant::now();
        let planned = &self.planned;
        let mut results: Vec<CheckResult> = Vec::with_capacity(planned.len());
        let mut case_start = 0;
        let mut go_on = true;
        execute(
            self.suites,
            planned,
            self.generator(),
            self.jobs,
            |i, mut result| {
                if let Some(command) = self.engine_reproduce(i, &result) {
                    result.reproduce = Some(command);
                }
                go_on &= observe(Event::Check(&result));
                results.push(result);
                let last_of_case = planned.get(i + 1).is_none_or(|next| {
                    (next.check.suite, next.check.case)
                        != (planned[i].check.suite, planned[i].check.case)
                });
                if last_of_case {
                    if go_on {
                        go_on = observe(Event::Case(&results[case_start..]));
                    }
                    case_start = results.len();
                }
                go_on
            },
        );
        let summary = Summary::of(&results);
        // Asked before the bisections, which may use up an engine's patience too.
        let stopped = self.engines.as_ref().map(EngineSuites::stopped);
        let refusing = self.engines.as_ref().map(EngineSuites::refusing);
        let bisected = self.bisect_failures(&results);
        let cited: Vec<&[String]> = self.planned[..results.len()]
            .iter()
            .map(|p| {
                self.suites[p.check.suite].cases[p.check.case]
                    .rules
                    .as_slice()
            })
            .collect();
        let diagnosis = Diagnosis::build(&results, &cited, bisected);
        let report = RunReport {
            generator: self.generator().name(),
            suites: suite_infos(self.suites, &self.planned),
            results,
            summary,
            seconds: start.elapsed().as_secs_f64(),
        };
        let engine_stopped = self
            .engines
            .as_ref()
            .zip(stopped)
            .and_then(|(engines, reasons)| {
                (!reasons.is_empty()).then(|| EngineStopped {
                    engine: engines.name(),
                    skipped: report
                        .results
                        .iter()
                        .filter(|r| r.message.contains(": not asked: "))
                        .count(),
                    reasons,
                })
            });
        // Engines that refused every question, and those that refused most of them (there
        // are none without engines).
        let (all, most): (Vec<_>, Vec<_>) = refusing
            .unwrap_or_default()
            .into_iter()
            .partition(|(every, _)| *every);
        let engine = self.engines.as_ref().map(|e| e.name()).unwrap_or_default();
        let refusal_warnings = most
            .into_iter()
            .map(|(_, r)| {
                format!(
                    "engine `{engine}` refused most of what it was asked ({r}): those checks are \
                     skipped, not passed"
                )
            })
            .collect();
        let engine_refused = (!all.is_empty()).then(|| EngineRefused {
            engine,
            reasons: all.into_iter().map(|(_, r)| r).collect(),
        });
        CheckOutcome {
            report,
            engine_stopped,
            engine_refused,
            refusal_warnings,
            diagnosis,
        }
    }

    /// The position of planned check `i` and the depth of the divide that shows it: the
    /// check's own for perft and divide, 1 for legal and illegal (their moves are the divide's
    /// moves); `None` for an outcome check.
    fn divide_question(&self, i: usize) -> Option<(&Position, u32)> {
        let check = &self.planned.get(i)?.check;
        let depth = match check.kind {
            CheckKind::Perft(d) | CheckKind::Divide(d) => d,
            CheckKind::Legal | CheckKind::Illegal => 1,
            CheckKind::Outcome => return None,
        };
        let case = &self.suites[check.suite].cases[check.case];
        let pos = match check.alternative {
            None => Some(&case.position),
            Some(k) => case.alternatives[k].position.as_ref(),
        }?;
        Some((pos, depth))
    }

    /// The position and depth of planned check `i` when it is a perft or divide check.
    fn perft_check(&self, i: usize) -> Option<(&Position, u32)> {
        match self.planned.get(i)?.check.kind {
            CheckKind::Perft(_) | CheckKind::Divide(_) => self.divide_question(i),
            _ => None,
        }
    }

    /// For a failed perft, divide, legal or illegal check against an engine: the
    /// `cvperft diff` command that compares the engine with the reference there (and bisects
    /// the difference). The reference's own `divide` would show the reference's moves, not
    /// what the engine got wrong.
    fn engine_reproduce(&self, i: usize, result: &CheckResult) -> Option<String> {
        if result.status != Status::Failed {
            return None;
        }
        let (pos, depth) = self.divide_question(i)?;
        let settings = self.engines.as_ref()?.settings(pos.variant().spec.id)?;
        Some(diff_command(
            settings,
            pos.rules(),
            &to_fen(pos),
            &[],
            depth,
        ))
    }

    /// Bisects every failed perft or divide check of `results` against its engine, within the
    /// limits, in run order.
    fn bisect_failures(&self, results: &[CheckResult]) -> Vec<Bisected> {
        let Some(engines) = &self.engines else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let deadline = self.bisect.map(|l| {
            Instant::now() + Duration::from_secs_f64(l.seconds.clamp(0.0, MAX_BISECT_SECONDS))
        });
        for (i, result) in results.iter().enumerate() {
            if result.status != Status::Failed {
                continue;
            }
            let Some((pos, depth)) = self.perft_check(i) else {
                continue;
            };
            let not = |reason: String| NotBisected {
                check: result.name.clone(),
                reason,
            };
            if let Some(Mismatch::Error { .. }) = &result.mismatch {
                out.push(Err(not("the engine gave no answer to the check".into())));
                continue;
            }
            let (Some(limits), Some(deadline)) = (self.bisect, deadline) else {
                out.push(Err(not("--no-bisect".into())));
                continue;
            };
            let id = pos.variant().spec.id;
            let rules = *pos.rules();
            let bisected = engines.with_engine(id, |engine| {
                bisect_check(engine, pos, depth, limits.questions, deadline)
            });
            out.push(match bisected {
                None => Err(not(format!("no engine for variant {id}"))),
                Some(Err(reason)) => Err(not(reason.to_string())),
                Some(Ok(b)) => {
                    let reproduce = engines.settings(id).map(|settings| {
                        let asked = &b.disagreement().query;
                        diff_command(settings, &rules, &to_fen(pos), &asked.moves, asked.depth)
                    });
                    finding_of(&b, rules, &result.name, depth, reproduce).ok_or_else(|| {
                        not("the engine agrees with the reference when asked again".into())
                    })
                }
            });
        }
        out
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct CheckOutcome {
    /// Every result, the counts and the suites, for the renderers.
    pub report: RunReport,
    /// The engine given up on after repeated time-outs or crashes, if it was.
    pub engine_stopped: Option<EngineStopped>,
    /// An engine that refused every question it was asked for some variant: it was tested on
    /// nothing there, though each refusal alone is a skipped check.
    pub engine_refused: Option<EngineRefused>,
    /// Engines that refused more than half of their questions but not all, one line each: a
    /// warning, as the run still tested what they answered.
    pub refusal_warnings: Vec<String>,
    /// Findings, likely rulings and the per-ruling table.
    pub diagnosis: Diagnosis,
}

impl CheckOutcome {
    /// Whether the run counts as a success: no check failed, no engine was given up on and
    /// none refused every question.
    pub fn succeeded(&self) -> bool {
        self.report.summary.failed == 0
            && self.engine_stopped.is_none()
            && self.engine_refused.is_none()
    }
}

/// An engine that was not asked again: the checks left were reported as skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineStopped {
    /// The engine's command line.
    pub engine: String,
    /// Why, per variant (`chess: the last 3 questions timed out ...`).
    pub reasons: Vec<String>,
    /// How many checks were skipped because it was not asked.
    pub skipped: usize,
}

impl fmt::Display for EngineStopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "engine `{}` was not asked again ({}); {} checks skipped",
            self.engine,
            self.reasons.join("; "),
            self.skipped
        )
    }
}

/// An engine that refused every question of a variant's checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRefused {
    /// The engine's command line.
    pub engine: String,
    /// Per variant: how many questions it refused, and the first refusal.
    pub reasons: Vec<String>,
}

impl fmt::Display for EngineRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "engine `{}` refused every question it was asked ({}): nothing was tested \
             there; see docs/engines.md",
            self.engine,
            self.reasons.join("; ")
        )
    }
}

/// Validates, loads the suites under `paths`, plans and runs the checks `selection` chooses.
///
/// # Errors
/// As [`validate`], [`load_suites`] and [`CheckRun::prepare`].
pub fn check(
    paths: &[PathBuf],
    selection: &Selection,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckError> {
    validate(selection, options)?;
    let suites = load_suites(paths)?;
    let run = CheckRun::prepare(&suites, selection, options)?;
    Ok(run.run(|_| true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_suite() -> Vec<PathBuf> {
        vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suites/chess.yaml")]
    }

    #[test]
    fn a_selection_runs_to_a_report() {
        let selection = Selection {
            filter: Some("::kiwipete::".into()),
            max_nodes: Some(100_000),
            ..Selection::default()
        };
        let options = CheckOptions {
            jobs: Some(1),
            ..CheckOptions::default()
        };
        let outcome = check(&chess_suite(), &selection, &options).expect("runs");
        let report = &outcome.report;
        assert_eq!(report.generator, "reference");
        assert!(!report.results.is_empty());
        assert!(report.results.iter().all(|r| r.case == "kiwipete"));
        assert_eq!(
            report.summary.passed + report.summary.skipped,
            report.results.len()
        );
        assert!(outcome.succeeded());
    }

    #[test]
    fn cases_are_observed_whole_and_a_run_can_stop() {
        let suites = load_suites(&chess_suite()).expect("loads");
        let selection = Selection {
            max_nodes: Some(10_000),
            ..Selection::default()
        };
        let options = CheckOptions {
            jobs: Some(2),
            ..CheckOptions::default()
        };
        let run = CheckRun::prepare(&suites, &selection, &options).expect("plans");
        let (mut checks, mut cases) = (0, Vec::new());
        let outcome = run.run(|event| {
            match event {
                Event::Check(_) => checks += 1,
                Event::Case(results) => cases.push(results.len()),
            }
            cases.len() < 2
        });
        assert_eq!(cases.len(), 2, "no case after the observer said stop");
        assert_eq!(checks, cases.iter().sum::<usize>());
        assert_eq!(outcome.report.results.len(), checks);
    }

    #[test]
    fn refusals_are_typed() {
        let bad_variant = Selection {
            variant: Some("nosuch".into()),
            ..Selection::default()
        };
        assert!(matches!(
            validate(&bad_variant, &CheckOptions::default()),
            Err(CheckError::Selection(SelectionError::UnknownVariant(v))) if v == "nosuch"
        ));
        let jobs = CheckOptions {
            jobs: Some(0),
            ..CheckOptions::default()
        };
        assert_eq!(
            validate(&Selection::default(), &jobs)
                .expect_err("no jobs")
                .to_string(),
            "--jobs 0: expected 1 to 256"
        );
        let nothing = Selection {
            filter: Some("no check has this name".into()),
            ..Selection::default()
        };
        assert!(matches!(
            check(&chess_suite(), &nothing, &CheckOptions::default()),
            Err(CheckError::NothingSelected)
        ));
        let empty = std::env::temp_dir().join(format!("cvperft-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).expect("a directory");
        let none = load_suites(std::slice::from_ref(&empty));
        std::fs::remove_dir(&empty).expect("removed");
        assert!(matches!(none, Err(CheckError::NoSuite(p)) if p == vec![empty]));
        // No path at all is said so, not as a list of nothing (`no suite (*.yaml) in `).
        let nothing = load_suites(&[]).expect_err("no path, no suite");
        assert_eq!(
            nothing.to_string(),
            "no suite: no path given (a suite file or a directory of *.yaml)"
        );
    }
}

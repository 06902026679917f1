//! The conformance suites as cargo tests: one libtest-mimic trial per case and check, named
//! `<variant>::<file-stem>::<case-id>::<check>` and sorted. Slow cases are listed as ignored
//! trials of kind `slow` (`cargo test --release --test conformance -- --ignored` runs them).
//! Expectations live in `suites/*.yaml`; this file only drives them.
//!
//! Suites that do not load fail every run, whatever chooses the trials: the problems go to
//! stderr and the harness exits 101 before any trial is listed or run. (A load error made a
//! trial of its own, which a name filter, `--exact` or `--ignored` left out, and the run passed
//! having run nothing.) `CVPERFT_SUITES_DIR` names another suites directory than the
//! repository's `suites/`; the trial `harness::a_suite_that_does_not_load_fails_every_run` runs
//! this very binary so against a broken suite, filtered and with `--ignored`.

use cvperft::report::human::check_detail;
use cvperft::suite::{Reference, Status, Suite, checks_of, load_all, run_check};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;

mod support;

/// Names a suites directory other than the repository's `suites/`.
const SUITES_DIR_VAR: &str = "CVPERFT_SUITES_DIR";

fn trials(suites: Arc<Vec<Suite>>) -> Vec<Trial> {
    let mut out = Vec::new();
    for (s, suite) in suites.iter().enumerate() {
        for (c, case) in suite.cases.iter().enumerate() {
            for check in checks_of(s, c, case) {
                let name = check.name(&suites);
                let shared = Arc::clone(&suites);
                let trial = Trial::ignorable_test(name, move || {
                    let result = run_check(&shared, &check, &Reference);
                    match result.status {
                        Status::Passed | Status::ExpectedFailure => Ok(Completion::Completed),
                        Status::Skipped => Ok(Completion::ignored_with(result.message)),
                        Status::Failed | Status::UnexpectedPass => Err(Failed::from(format!(
                            "{}\n{}",
                            result.message,
                            check_detail(&result, false, 2)
                        ))),
                    }
                });
                out.push(if case.deep {
                    // Never run here, not even with --ignored: hours of CPU.
                    Trial::ignorable_test(trial.name().to_string(), || {
                        Ok(Completion::ignored_with("deep case: cvperft check --deep"))
                    })
                    .with_ignored_flag(true)
                    .with_kind("deep")
                } else if case.slow {
                    trial.with_ignored_flag(true).with_kind("slow")
                } else {
                    trial
                });
            }
        }
    }
    out
}

/// The suites directory: `CVPERFT_SUITES_DIR` if set, else the repository's `suites/`.
fn suites_dir() -> PathBuf {
    match std::env::var_os(SUITES_DIR_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suites"),
    }
}

/// Every suite under `dir`, or every problem as a line of text: a suite that does not load,
/// or no suite at all.
fn load(dir: &Path) -> Result<Vec<Suite>, Vec<String>> {
    match load_all(&[dir.to_path_buf()]) {
        Ok(suites) if suites.is_empty() => Err(vec![format!(
            "{}: no suite (`*.yaml`) in the directory",
            dir.display()
        )]),
        Ok(suites) => Ok(suites),
        Err(errors) => Err(errors.iter().map(|e| e.to_string()).collect()),
    }
}

/// This binary run over the suites directory `dir` with `args`: its exit code and stderr.
fn run_over(dir: &Path, args: &[&str]) -> Result<(Option<i32>, String), Failed> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new(exe)
        .args(args)
        .env(SUITES_DIR_VAR, dir)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Ok((out.status.code(), stderr))
}

/// A scratch suites directory with `chess.yaml` (a default case and a slow one, which pass
/// alone) and then `broken.yaml` (an unknown field), and the runs of this binary over it that
/// must fail: unfiltered, filtered to the good suite, `--exact`, `--ignored`, `--list`.
fn a_suite_that_does_not_load_fails_every_run() -> Result<(), Failed> {
    // One directory per process: two runs at once do not write each other's files.
    let name = format!("broken-suite-{}", std::process::id());
    let dir = support::scratch_dir("conformance", &name);
    let good = "variant: chess\ndescription: two counts\ngame-end: rules\ncases:\n\
                - id: start\n  perft: {1: 20}\n  source: {kind: public, citation: wiki}\n\
                - id: start-slow\n  perft: {2: 400}\n  slow: true\n  \
                source: {kind: public, citation: wiki}\n";
    std::fs::write(dir.join("chess.yaml"), good).map_err(|e| e.to_string())?;
    let (code, stderr) = run_over(&dir, &["--ignored", "chess::chess::"])?;
    if code != Some(0) {
        return Err(format!("the good suite alone: exit {code:?}\n{stderr}").into());
    }
    std::fs::write(
        dir.join("broken.yaml"),
        "variant: chess\nno-such-field: 1\n",
    )
    .map_err(|e| e.to_string())?;
    let runs: [&[&str]; 5] = [
        &[],
        &["chess::chess::"],
        &["--exact", "chess::chess::start::perft-d1"],
        &["--ignored"],
        &["--list"],
    ];
    for args in runs {
        let (code, stderr) = run_over(&dir, args)?;
        if code != Some(101) || !stderr.contains("no-such-field") {
            return Err(format!(
                "conformance {args:?} over a broken suite: exit {code:?} (expected 101 and the \
                 problem on stderr)\nstderr: {stderr}"
            )
            .into());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let suites = match load(&suites_dir()) {
        Ok(suites) => suites,
        Err(problems) => {
            eprintln!("error: the suites do not load, so no trial runs:");
            for problem in problems {
                eprintln!("  {problem}");
            }
            return ExitCode::from(101);
        }
    };
    let mut trials = trials(Arc::new(suites));
    trials.push(Trial::test(
        "harness::a_suite_that_does_not_load_fails_every_run",
        a_suite_that_does_not_load_fails_every_run,
    ));
    trials.sort_by(|a, b| a.name().cmp(b.name()));
    libtest_mimic::run(&args, trials).exit_code()
}

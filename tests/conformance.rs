//! The conformance suites as cargo tests: one libtest-mimic trial per case and check, named
//! `<variant>::<file-stem>::<case-id>::<check>` and sorted. Slow cases are listed as ignored
//! trials of kind `slow` (`cargo test --release --test conformance -- --ignored` runs them).
//! Expectations live in `suites/*.yaml`; this file only drives them.

use cvperft::report::human::check_detail;
use cvperft::suite::{Reference, Status, Suite, checks_of, load_all, run_check};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
    out.sort_by(|a, b| a.name().cmp(b.name()));
    out
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suites");
    let trials = match load_all(&[dir]) {
        Ok(suites) => trials(Arc::new(suites)),
        Err(errors) => {
            let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            vec![Trial::test("suites::load", move || {
                Err(Failed::from(text.join("\n")))
            })]
        }
    };
    libtest_mimic::run(&args, trials).exit_code()
}

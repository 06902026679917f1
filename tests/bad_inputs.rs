//! Runs every case of `fixtures/bad/cases.yaml` through the real `cvperft` binary: one trial per
//! case, named `<group>::<name>`. Each must exit with its code (2 unless the case says), print
//! exactly one line on stderr, `cvperft: ` and then a message containing the expected fragment,
//! print nothing on stdout, and show no panic or backtrace.

use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;
use std::path::Path;
use std::process::Command;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    cases: Vec<Case>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    group: String,
    args: Vec<String>,
    stderr_contains: String,
    #[serde(default = "input_error")]
    exit: i32,
}

fn input_error() -> i32 {
    2
}

fn run_case(root: &Path, case: &Case) -> Result<(), Failed> {
    let out = Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(&case.args)
        .current_dir(root)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .map_err(|e| Failed::from(format!("cannot run cvperft: {e}")))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut problems = Vec::new();
    if out.status.code() != Some(case.exit) {
        problems.push(format!(
            "exit {:?}, expected {}",
            out.status.code(),
            case.exit
        ));
    }
    if stderr.lines().count() != 1 || !stderr.ends_with('\n') {
        problems.push(format!(
            "{} lines on stderr, expected one",
            stderr.lines().count()
        ));
    }
    if !stderr.starts_with("cvperft: ") {
        problems.push("stderr does not start with `cvperft: `".into());
    }
    if !stderr.contains(&case.stderr_contains) {
        problems.push(format!("stderr lacks {:?}", case.stderr_contains));
    }
    for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace"] {
        if stderr.contains(bad) {
            problems.push(format!("stderr shows `{bad}`"));
        }
    }
    if !stdout.is_empty() {
        problems.push(format!("stdout is not empty: {stdout:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "cvperft {:?}: {}\nstderr: {stderr}",
            case.args,
            problems.join("; ")
        )
        .into())
    }
}

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("fixtures/bad/cases.yaml");
    let text = std::fs::read_to_string(&path).expect("fixtures/bad/cases.yaml");
    let file: CaseFile = serde_yaml::from_str(&text).expect("fixtures/bad/cases.yaml is valid");
    let mut names = std::collections::BTreeSet::new();
    for case in &file.cases {
        assert!(
            names.insert((case.group.clone(), case.name.clone())),
            "case {}::{} is listed twice",
            case.group,
            case.name
        );
    }
    let trials = file
        .cases
        .into_iter()
        .map(|case| {
            let root = root.to_path_buf();
            Trial::test(format!("{}::{}", case.group, case.name), move || {
                run_case(&root, &case)
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}

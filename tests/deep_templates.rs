//! The deep-perft templates users copy (`ci/parallel-perft.sh`, `ci/slurm-perft.sbatch`) run
//! here as far as this machine allows: GNU parallel for real (skipped with a message when it is
//! not installed), the Slurm script's body with the array variables set by hand. Both must
//! merge to the plain divide.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cvperft");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeded(what: &str, o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("deep-templates-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn divide(args: &[&str]) -> String {
    let o = Command::new(BIN)
        .arg("divide")
        .args(args)
        .output()
        .expect("runs");
    succeeded("divide", &o)
}

#[test]
fn gnu_parallel_runs_the_shards_and_merges() {
    if Command::new("parallel").arg("--version").output().is_err() {
        support::tool_missing(
            "parallel",
            "GNU parallel is not installed (apt-get install parallel)",
        );
        return;
    }
    let dir = scratch("parallel");
    let run = || {
        Command::new("bash")
            .arg(root().join("ci/parallel-perft.sh"))
            .args([dir.to_str().expect("utf-8"), "4", "2", "3", "-v", "cerimon"])
            .env("CVPERFT", BIN)
            .env("JOBS", "2")
            .output()
            .expect("bash runs")
    };
    let expected = divide(&["4", "-v", "cerimon"]);
    assert_eq!(succeeded("parallel-perft.sh", &run()), expected);
    // Run again: the plan is the same, every unit is already counted.
    let again = run();
    assert_eq!(succeeded("parallel-perft.sh again", &again), expected);
    assert!(
        text(&again.stderr).contains(" 0 counted now"),
        "{}",
        text(&again.stderr)
    );
    // A missing shard fails the merge.
    std::fs::remove_file(dir.join("results-2-of-3.jsonl")).expect("remove");
    let o = Command::new(BIN)
        .args([
            "merge",
            "plan.jsonl",
            "results-1-of-3.jsonl",
            "results-3-of-3.jsonl",
        ])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    // Another position in the same directory is refused.
    let o = Command::new("bash")
        .arg(root().join("ci/parallel-perft.sh"))
        .args([dir.to_str().expect("utf-8"), "4", "2", "3", "-v", "chess"])
        .env("CVPERFT", BIN)
        .output()
        .expect("bash runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("is another plan"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn slurm_array_body_runs_with_the_task_id_set_by_hand() {
    let dir = scratch("slurm");
    let plan = dir.join("plan.jsonl");
    let o = Command::new(BIN)
        .args([
            "plan",
            "4",
            "--split",
            "3",
            "-v",
            "plutonian",
            "-o",
            "black-array=diagram",
        ])
        .arg("--output")
        .arg(&plan)
        .output()
        .expect("runs");
    succeeded("plan", &o);
    let task = |id: Option<&str>| {
        let mut c = Command::new("bash");
        c.arg(root().join("ci/slurm-perft.sbatch"))
            .env("CVPERFT", BIN)
            .env("PLAN", &plan)
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .env_remove("SLURM_ARRAY_TASK_ID");
        if let Some(id) = id {
            c.env("SLURM_ARRAY_TASK_ID", id);
        }
        c.output().expect("bash runs")
    };
    let o = task(None);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains("not an array task"),
        "{}",
        text(&o.stderr)
    );
    for id in ["1", "2", "3", "4"] {
        succeeded(&format!("task {id}"), &task(Some(id)));
    }
    let mut merge = Command::new(BIN);
    merge.args(["merge", "--divide"]).arg(&plan);
    for id in 1..=4 {
        merge.arg(dir.join(format!("results-{id}-of-4.jsonl")));
    }
    let merged = succeeded("merge", &merge.output().expect("runs"));
    assert_eq!(
        merged,
        divide(&["4", "-v", "plutonian", "-o", "black-array=diagram"])
    );
}

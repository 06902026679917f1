//! The example workflow users copy (`ci/github-actions-conformance.yml`) run here as GitHub
//! would run it, as far as this machine allows: each shard step's script with its `${{ ... }}`
//! expressions filled in for every job of the matrix, through `ci/conformance.sh`. The shards'
//! JUnit reports must hold every check of an unsharded run exactly once, for the matrix as
//! shipped and for a matrix of another size (the one edit the workflow asks of its users).
//! `ci/conformance.sh` itself: its exit codes, and a clear refusal when it has no cvperft.

use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

mod support;

use support::{code, stderr};

const BIN: &str = env!("CARGO_BIN_EXE_cvperft");
const WORKFLOW: &str = "ci/github-actions-conformance.yml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The workflow's one job.
fn job() -> Value {
    let text = std::fs::read_to_string(root().join(WORKFLOW)).expect("the workflow reads");
    let doc: Value = serde_yaml::from_str(&text).expect("the workflow is YAML");
    doc["jobs"]["conformance"].clone()
}

/// The `run:` script of the step whose name starts with `name`.
fn step<'a>(job: &'a Value, name: &str) -> &'a Value {
    job["steps"]
        .as_sequence()
        .expect("steps")
        .iter()
        .find(|s| s["name"].as_str().is_some_and(|n| n.starts_with(name)))
        .unwrap_or_else(|| panic!("no step named `{name}...` in {WORKFLOW}"))
}

/// `text` with every `${{ expression }}` replaced as GitHub would for job `shard` of `total`
/// on a push; an expression the test does not know fails it, so that it keeps up with edits.
fn render(text: &str, shard: usize, total: usize) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("a closed expression") + start;
        let value = match rest[start + 3..end].trim() {
            "matrix.shard" => shard.to_string(),
            "strategy.job-total" => total.to_string(),
            "github.event_name" => "push".to_string(),
            other => panic!("{WORKFLOW}: the test does not know `${{{{ {other} }}}}`"),
        };
        out.push_str(&value);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// `(classname, name)` of every testcase of a JUnit report.
fn testcases(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let root = doc.root_element();
    let cases: Vec<(String, String)> = root
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            let attr = |a: &str| n.attribute(a).expect("classname and name").to_string();
            (attr("classname"), attr("name"))
        })
        .collect();
    assert_eq!(
        root.attribute("tests"),
        Some(cases.len().to_string().as_str()),
        "{}",
        path.display()
    );
    cases
}

/// Runs every job of a matrix of `total` shards in `dir`, as the workflow's shard step does;
/// the testcases of each job's report, by shard.
fn run_matrix(job: &Value, total: usize, dir: &Path) -> BTreeMap<usize, Vec<(String, String)>> {
    let run = step(job, "Run shard")["run"]
        .as_str()
        .expect("a run script");
    let upload = &step(job, "Upload the JUnit report")["with"];
    let env: BTreeMap<String, String> = job["env"]
        .as_mapping()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let value = match v {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .expect("a scalar")
                    .trim()
                    .to_string(),
            };
            (k.as_str().expect("a name").to_string(), value)
        })
        .collect();
    let mut artifacts = BTreeSet::new();
    let mut reports = BTreeMap::new();
    for shard in 1..=total {
        let o = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(render(run, shard, total))
            .current_dir(dir)
            .envs(&env)
            .env("CVPERFT", BIN)
            .output()
            .expect("bash runs");
        assert_eq!(code(&o), 0, "shard {shard}/{total}: {}", stderr(&o));
        let name = render(
            upload["name"].as_str().expect("artifact name"),
            shard,
            total,
        );
        assert!(artifacts.insert(name.clone()), "artifact `{name}` twice");
        let path = render(
            upload["path"].as_str().expect("artifact path"),
            shard,
            total,
        );
        reports.insert(shard, testcases(&dir.join(path)));
    }
    reports
}

/// A scratch directory laid out as a checkout: `ci/` and `suites/` of this repository.
fn checkout(name: &str) -> PathBuf {
    let dir = support::scratch_dir("ci-workflow", name);
    for entry in ["ci", "suites"] {
        std::os::unix::fs::symlink(root().join(entry), dir.join(entry)).expect("symlink");
    }
    dir
}

#[test]
fn the_shards_of_the_example_workflow_run_every_check_once() {
    let job = job();
    let shards: Vec<u64> = job["strategy"]["matrix"]["shard"]
        .as_sequence()
        .expect("a shard list")
        .iter()
        .map(|v| v.as_u64().expect("a shard number"))
        .collect();
    assert_eq!(
        shards,
        (1..=shards.len() as u64).collect::<Vec<_>>(),
        "shards 1..N"
    );
    let unsharded = checkout("unsharded");
    let o = Command::new(BIN)
        .args([
            "check", "suites", "--format", "junit", "--output", "all.xml",
        ])
        .current_dir(&unsharded)
        .output()
        .expect("cvperft runs");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let every: BTreeSet<(String, String)> =
        testcases(&unsharded.join("all.xml")).into_iter().collect();
    // As shipped, and with the shard list edited to another length.
    for total in [shards.len(), 3] {
        let dir = checkout(&format!("matrix-{total}"));
        let reports = run_matrix(&job, total, &dir);
        let mut seen = BTreeSet::new();
        for (shard, cases) in &reports {
            assert!(!cases.is_empty(), "shard {shard}/{total} ran nothing");
            for case in cases {
                assert!(
                    seen.insert(case.clone()),
                    "{case:?} in two shards of {total}"
                );
            }
        }
        let missing: Vec<_> = every.difference(&seen).take(5).collect();
        assert!(
            missing.is_empty(),
            "{total} shards left {} checks unrun, such as {missing:?}",
            every.len() - seen.len()
        );
        assert_eq!(seen, every, "{total} shards");
    }
}

/// `ci/conformance.sh` exits as `cvperft check` does (0 pass, 1 a failed check, 2 bad input),
/// and with 2 and a line naming the way out when it has no cvperft to run: `$CVPERFT` naming
/// nothing, or a copy of the script in another repository with no cvperft on PATH (it ran
/// `exec` on a missing file, 127, or built that other repository).
#[test]
fn conformance_sh_exits_as_check_does_and_2_without_a_cvperft() {
    let script = root().join("ci/conformance.sh");
    let run = |script: &Path, env: &[(&str, &str)], args: &[&str]| {
        let mut command = Command::new("sh");
        command
            .arg(script)
            .args(args)
            .current_dir(root())
            .env_remove("CVPERFT");
        for (k, v) in env {
            command.env(k, v);
        }
        command.output().expect("sh runs")
    };
    for (args, expected) in [
        (&["fixtures/suites/statuses.yaml"][..], 0),
        (&["fixtures/suites/xpass.yaml"], 1),
        (&["no/such/suite.yaml"], 2),
        (&["--shard", "5/4"], 2),
    ] {
        let o = run(&script, &[("CVPERFT", BIN)], args);
        assert_eq!(code(&o), expected, "{args:?}: {}", stderr(&o));
    }
    let o = run(&script, &[("CVPERFT", "/no/such/cvperft")], &[]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("CVPERFT=/no/such/cvperft is not a program to run"),
        "{err}"
    );
    // A copy in another repository, no cvperft on PATH, a cargo that must not be run.
    let dir = support::scratch_dir("ci-workflow", "copied-script");
    std::fs::create_dir_all(dir.join("ci")).expect("ci/");
    std::fs::copy(&script, dir.join("ci/conformance.sh")).expect("copied");
    std::fs::create_dir_all(dir.join("bin")).expect("bin/");
    let cargo = dir.join("bin/cargo");
    std::fs::write(&cargo, "#!/bin/sh\necho 'cargo ran' >&2\nexit 99\n").expect("cargo");
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("executable");
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let o = run(&dir.join("ci/conformance.sh"), &[("PATH", &path)], &[]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(!err.contains("cargo ran"), "{err}");
    assert!(
        err.contains("is not a cvperft repository to build it in (set CVPERFT"),
        "{err}"
    );
}

/// `ci/bench.sh` times the binary cargo just built: under `$CARGO_TARGET_DIR` when that is set
/// (it timed `./target/release/cvperft`, missing or left over from an older build), and says
/// so when the build left none there. A copy of the script runs with a `cargo` that builds
/// nothing and a target directory holding this build's binary.
#[test]
fn bench_sh_runs_the_binary_in_cargo_target_dir() {
    let dir = support::scratch_dir("ci-workflow", "bench-target-dir");
    for path in ["ci", "benches", "bin", "elsewhere/release"] {
        std::fs::create_dir_all(dir.join(path)).expect("folder");
    }
    std::fs::copy(root().join("ci/bench.sh"), dir.join("ci/bench.sh")).expect("copied");
    std::fs::copy(
        root().join("benches/depths.txt"),
        dir.join("benches/depths.txt"),
    )
    .expect("copied");
    let cargo = dir.join("bin/cargo");
    std::fs::write(&cargo, "#!/bin/sh\nexit 0\n").expect("cargo");
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("executable");
    std::os::unix::fs::symlink(BIN, dir.join("elsewhere/release/cvperft")).expect("symlink");
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let run = |target: &str| {
        Command::new("bash")
            .args(["ci/bench.sh", "--only", "kiwipete", "--quick"])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", target)
            .output()
            .expect("bash runs")
    };
    let o = run("elsewhere");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 0, "{out}{}", stderr(&o));
    assert!(out.contains("4085603"), "kiwipete perft 4: {out}");
    let o = run("nowhere");
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("the build left no binary at nowhere/release/cvperft"),
        "{err}"
    );
}

/// The Rust version the install instructions name is the one both crates declare
/// (`rust-version`, which an older cargo names when it refuses to build): README.md said
/// 1.85 while the library's `let` chains need 1.88.
#[test]
fn the_rust_version_the_install_pages_name_is_the_crates() {
    let declared = |manifest: &str| {
        let text = std::fs::read_to_string(root().join(manifest)).expect("manifest reads");
        text.lines()
            .find_map(|l| l.strip_prefix("rust-version = \""))
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{manifest} declares no rust-version"))
            .to_string()
    };
    let version = declared("Cargo.toml");
    assert_eq!(declared("python/Cargo.toml"), version);
    for page in ["README.md", "python/README.md", "docs/python.md"] {
        let text = std::fs::read_to_string(root().join(page)).expect("page reads");
        let named: Vec<&str> = text
            .match_indices("Rust 1.")
            .map(|(i, _)| {
                text[i + 5..]
                    .split([' ', ')', ',', ';'])
                    .next()
                    .unwrap_or("")
            })
            .collect();
        assert!(!named.is_empty(), "{page} names no Rust version");
        assert!(
            named.iter().all(|v| *v == version),
            "{page} names Rust {named:?}, the crates declare {version}"
        );
    }
}

#[test]
fn the_license_file_states_what_the_manifests_declare() {
    let declared = |manifest: &str, prefix: &str, suffix: &str| {
        let text = std::fs::read_to_string(root().join(manifest)).expect("manifest reads");
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.strip_suffix(suffix))
            .unwrap_or_else(|| panic!("{manifest} declares no license"))
            .to_string()
    };
    let license = declared("Cargo.toml", "license = \"", "\"");
    assert_eq!(license, "MIT OR Apache-2.0");
    assert_eq!(declared("python/Cargo.toml", "license = \"", "\""), license);
    assert_eq!(
        declared("python/pyproject.toml", "license = { text = \"", "\" }"),
        license
    );
    let text = std::fs::read_to_string(root().join("LICENSE")).expect("LICENSE reads");
    for named in [
        "(SPDX: Apache-2.0)",
        "(SPDX: MIT)",
        &format!("(`{license}`)"),
    ] {
        assert!(text.contains(named), "LICENSE does not say {named}");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README reads");
    assert!(
        readme.contains("[LICENSE](LICENSE)"),
        "README links no LICENSE"
    );
    let mit = std::fs::read_to_string(root().join("LICENSE-MIT")).expect("LICENSE-MIT reads");
    assert!(
        mit.contains("Copyright (c) ") && mit.contains("Permission is hereby granted"),
        "LICENSE-MIT holds no notice"
    );
}

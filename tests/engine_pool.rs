//! `cvperft check --engine -j N`: a pool of N engine copies must give the report of `-j 1`
//! (counts, verdicts, messages, order, exit code) against a faithful engine, a faulty one and
//! one that crashes or hangs on some questions, over perftree and UCI; and a signal must end
//! every engine of the pool.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{alive, children_of, wait_for};

const CVPERFT: &str = env!("CARGO_BIN_EXE_cvperft");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    // Under Cargo's target directory, reused by each run (not one per process id left behind).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pool-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes an executable shell script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_str().expect("utf-8").to_string()
}

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(CVPERFT);
    c.args(args).current_dir(root());
    c
}

fn run(args: &[&str]) -> Output {
    command(args).output().expect("cvperft runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON report without its times, which are all that may differ between runs.
fn report(o: &Output) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("seconds");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("JSON report: {e}\n{}", stderr(o)));
    strip(&mut v);
    v
}

/// Runs `check ARGS --format json -j N` for N = 1, 2, 3 and asserts the same report and exit
/// code each time; returns the exit code and the report.
fn same_at_every_j(args: &[&str]) -> (i32, serde_json::Value) {
    let mut first: Option<(i32, serde_json::Value, String)> = None;
    for jobs in ["1", "2", "3"] {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        all.extend(["--format", "json", "-q", "-j", jobs]);
        let o = run(&all);
        let code = o.status.code().unwrap_or(-1);
        let got = report(&o);
        assert!(
            got["results"].as_array().is_some_and(|r| !r.is_empty()),
            "no results at -j {jobs}: {}",
            stderr(&o)
        );
        match &first {
            None => first = Some((code, got, stderr(&o))),
            Some((code1, report1, stderr1)) => {
                assert_eq!(code, *code1, "exit code at -j {jobs}: {}", stderr(&o));
                assert_eq!(&got, report1, "report at -j {jobs} differs from -j 1");
                assert_eq!(&stderr(&o), stderr1, "stderr at -j {jobs}");
            }
        }
    }
    let (code, report, _) = first.expect("ran");
    (code, report)
}

fn statuses(report: &serde_json::Value) -> Vec<(String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().expect("name").to_string(),
                r["status"].as_str().expect("status").to_string(),
            )
        })
        .collect()
}

fn count(report: &serde_json::Value, status: &str) -> usize {
    statuses(report).iter().filter(|(_, s)| s == status).count()
}

#[test]
fn a_faithful_engine_reports_the_same_at_every_j_over_perftree_and_uci() {
    let perftree = format!("{CVPERFT} perftree -v {{variant}}");
    let (code, report) = same_at_every_j(&[
        "suites",
        "--max-nodes",
        "20000",
        "--engine",
        &perftree,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(code, 0);
    assert!(count(&report, "passed") > 100, "{:?}", report["summary"]);
    assert_eq!(count(&report, "failed"), 0);

    // The same engine behind the UCI shim: N engine processes.
    let shim = root().join("fixtures/engines/uci-shim");
    let uci = format!("{} {CVPERFT} perftree", shim.display());
    let (code, report) = same_at_every_j(&[
        "suites/chess.yaml",
        "--max-nodes",
        "50000",
        "--engine",
        &uci,
    ]);
    assert_eq!(code, 0);
    assert!(count(&report, "passed") > 50, "{:?}", report["summary"]);
}

#[test]
fn a_planted_fault_fails_the_same_checks_at_every_j() {
    let engine = format!("{CVPERFT} perftree --inject no-en-passant");
    let (code, report) = same_at_every_j(&[
        "suites/chess.yaml",
        "--max-nodes",
        "200000",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(code, 1);
    let failed: Vec<String> = statuses(&report)
        .into_iter()
        .filter(|(_, s)| s == "failed")
        .map(|(n, _)| n)
        .collect();
    assert!(!failed.is_empty());
    assert!(failed.iter().any(|n| n.contains("::ep-")), "{failed:?}");
}

#[test]
fn an_engine_that_crashes_or_hangs_on_some_questions_reports_the_same_at_every_j() {
    let dir = scratch("sometimes");
    // Crashes on Kiwipete at depth 2, hangs on the start position at depth 3; answers the
    // rest as our own generator does.
    let engine = script(
        &dir,
        "sometimes",
        &format!(
            "case \"$1 $2\" in\n\
             \"2 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq\"*) \
             echo 'a2a3 1'; echo 'out of cheese' >&2; kill -SEGV $$ ;;\n\
             \"3 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\"*) sleep 30 ;;\n\
             esac\nexec {CVPERFT} perftree \"$@\"\n"
        ),
    );
    let (code, report) = same_at_every_j(&[
        "suites/chess.yaml",
        "--max-nodes",
        "100000",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--timeout",
        "1",
    ]);
    assert_eq!(code, 1);
    let results = report["results"].as_array().expect("results");
    let failed: Vec<(&str, &str)> = results
        .iter()
        .filter(|r| r["status"] == "failed")
        .map(|r| {
            (
                r["name"].as_str().expect("name"),
                r["message"].as_str().expect("message"),
            )
        })
        .collect();
    assert_eq!(failed.len(), 3, "{failed:#?}");
    assert!(
        failed
            .iter()
            .any(|(n, m)| n.contains("kiwipete") && m.contains("killed by signal 11")),
        "{failed:#?}"
    );
    assert!(
        failed
            .iter()
            .any(|(n, m)| n.contains("::start::") && m.contains("no answer within 1 s")),
        "{failed:#?}"
    );
}

fn finish(mut child: Child) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code().unwrap_or(-1);
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "cvperft did not end after the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_signal_ends_every_engine_of_the_pool() {
    let dir = scratch("signal");
    // Both engines answer the depth-1 question about the start position (the probe) and hang
    // on every deeper one, each leaving a `sleep` in its process group.
    let moves = "a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 b1a3 b1c3 g1f3 g1h3";
    let uci = script(
        &dir,
        "uci-hang",
        &format!(
            "while IFS= read -r line; do case \"$line\" in\n\
             uci) echo uciok ;; isready) echo readyok ;;\n\
             \"go perft 1\") for m in {moves}; do echo \"$m: 1\"; done; \
             echo; echo \"Nodes searched: 20\" ;;\n\
             \"go perft \"*) sleep 300 ;;\n\
             quit) exit 0 ;; esac; done\n"
        ),
    );
    let perftree = script(
        &dir,
        "perftree-hang",
        &format!("if [ \"$1\" -gt 1 ]; then sleep 300; fi\nexec {CVPERFT} perftree \"$@\"\n"),
    );
    for (engine, protocol) in [(uci, "uci"), (perftree, "perftree")] {
        let child = command(&[
            "check",
            "suites/chess.yaml",
            "--engine",
            &engine,
            "--protocol",
            protocol,
            "--timeout",
            "120",
            "-j",
            "2",
            "-q",
            "--format",
            "json",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
        // Two engines, each with its `sleep`.
        let mut engines = Vec::new();
        let mut sleeps = Vec::new();
        wait_for(&format!("two hanging {protocol} engines"), || {
            engines = children_of(child.id());
            sleeps = engines.iter().flat_map(|&e| children_of(e)).collect();
            engines.len() == 2 && sleeps.len() == 2
        });
        // SAFETY: kill(2) sends a signal to our own child, which is not reaped yet.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
        assert_eq!(finish(child), 143, "{protocol}");
        for pid in engines.iter().chain(&sleeps) {
            wait_for(
                &format!("the end of {protocol} engine process {pid}"),
                || !alive(*pid),
            );
        }
    }
}

//! `cvperft check` run as a user runs it: the built binary, real suites, real files.
//!
//! Expected counts stay in YAML (`suites/`, `fixtures/suites/`); malformed suites live in
//! `fixtures/bad/suites/`, each with the error line it must produce in a sibling `.expected`
//! file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

use support::{code, stderr, stdout};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cvperft` from the package root.
fn cvperft(args: &[&str]) -> Output {
    support::cvperft_output(args)
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    support::scratch_dir("cli_check", name)
}

/// Parses `N passed, N failed, N skipped` from the last line.
fn summary(text: &str) -> (usize, usize, usize) {
    let last = text.lines().last().expect("output has lines");
    let parts: Vec<&str> = last.split(", ").collect();
    assert_eq!(parts.len(), 3, "summary line: {last:?}");
    let number = |s: &str, word: &str| -> usize {
        let (n, w) = s.split_once(' ').expect("count and word");
        assert_eq!(w, word, "summary line: {last:?}");
        n.parse().expect("a count")
    };
    (
        number(parts[0], "passed"),
        number(parts[1], "failed"),
        number(parts[2], "skipped"),
    )
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("JSON report: {e}\n{}", stdout(o)))
}

/// Names of the cases (`variant::file::case`) in a JSON report.
fn case_names(report: &serde_json::Value) -> BTreeSet<String> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            format!(
                "{}::{}::{}",
                r["variant"].as_str().unwrap(),
                r["suite"].as_str().unwrap(),
                r["case"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn the_shipped_suites_pass_within_a_node_budget() {
    let o = cvperft(&["check", "--max-nodes", "200000"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let (passed, failed, skipped) = summary(&stdout(&o));
    assert!(passed > 100, "{passed} passed");
    assert_eq!(failed, 0);
    assert!(skipped > 0, "deep and slow checks are skipped");
    assert!(stdout(&o).contains("above --max-nodes 200000"));
    assert!(stdout(&o).contains("slow case: run with --slow"));
}

#[test]
fn a_wrong_count_exits_1_and_shows_the_difference() {
    let o = cvperft(&["check", "fixtures/suites/wrong-count.yaml"]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}{}", stderr(&o));
    assert_eq!(summary(&out), (3, 2, 0));
    assert!(
        out.contains("FAIL  chess::wrong-count::start-wrong-perft"),
        "{out}"
    );
    assert!(
        out.contains("perft 2: expected 401, actual 400 (-1)"),
        "{out}"
    );
    assert!(
        out.contains("fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
    // The message names the move the divide lacks and the one that is no move.
    assert!(
        out.contains("the divide lists 19 of the 20 legal moves; not listed: h2h4; listed but not legal: h2h5"),
        "{out}"
    );
    // The divide diff: the wrong entry, the move that does not exist, and the totals.
    for line in [
        "-e2e4 21",
        "+e2e4 20",
        "-h2h5 20",
        "+h2h4 20",
        "-total 401",
        "+total 400",
    ] {
        assert!(
            out.lines().any(|l| l.trim() == line),
            "missing {line:?}:\n{out}"
        );
    }
    assert!(
        out.contains("PASS  chess::wrong-count::start-right"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour when not on a terminal");
}

#[test]
fn a_partial_divide_fails_naming_the_moves_it_lacks_and_those_not_legal() {
    // Three moves of the start position, one of them no move: the counts sum to less than the
    // generator's, so counting stops past them (it said only "the count passed it").
    let file = "fixtures/suites/partial-divide.yaml";
    // The legal moves, as the generator lists them.
    let d = cvperft(&["divide", "1", "-v", "chess"]);
    assert_eq!(code(&d), 0, "{}", stderr(&d));
    let legal: Vec<String> = stdout(&d)
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| l.split(' ').next().expect("move").to_string())
        .collect();
    assert!(legal.contains(&"e2e4".to_string()) && legal.contains(&"d2d4".to_string()));
    let not_listed: Vec<String> = legal
        .iter()
        .filter(|m| !["e2e4", "d2d4"].contains(&m.as_str()))
        .cloned()
        .collect();
    let o = cvperft(&["check", "--format", "json", file]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let report = json(&o);
    let result = &report["results"][0];
    assert_eq!(result["case"], "start");
    assert_eq!(result["line"], 8);
    assert_eq!(result["mismatch"]["kind"], "divide-moves", "{result}");
    assert_eq!(
        result["mismatch"]["not_listed"],
        serde_json::json!(not_listed),
        "{result}"
    );
    assert_eq!(result["mismatch"]["not_legal"], serde_json::json!(["a2a5"]));
    let message = result["message"].as_str().expect("message");
    assert!(
        message.starts_with(&format!(
            "divide 2: the divide lists 2 of the {} legal moves; not listed: {} ",
            legal.len(),
            not_listed[..8].join(" ")
        )),
        "{message}"
    );
    assert!(
        message.ends_with(&format!(
            "and {} more; listed but not legal: a2a5",
            not_listed.len() - 8
        )),
        "{message}"
    );
    // The human report names the case, the file and its line.
    let o = cvperft(&["check", file]);
    let out = stdout(&o);
    assert!(out.contains("FAIL  chess::partial-divide::start"), "{out}");
    assert!(out.contains(&format!("at: {file}:8")), "{out}");
    // A line break in the path reads `\n`, as in messages (it was `\u{a}` here alone).
    let odd = scratch("path-with-a-line-break").join("a\nb");
    std::fs::create_dir_all(&odd).expect("directory");
    let moved = odd.join("partial.yaml");
    std::fs::copy(file, &moved).expect("copied");
    let o = cvperft(&["check", moved.to_str().expect("utf-8")]);
    let shown = moved.display().to_string().replace('\n', "\\n");
    assert!(
        stdout(&o).contains(&format!("at: {shown}:8\n")),
        "{}",
        stdout(&o)
    );
    assert!(
        out.contains(&format!("legal, not listed: {}", not_listed.join(" "))),
        "{out}"
    );
    assert!(out.contains("listed, not legal: a2a5"), "{out}");
}

#[test]
fn forced_colour_marks_the_divide_diff() {
    let o = cvperft(&[
        "check",
        "--color",
        "always",
        "fixtures/suites/wrong-count.yaml",
    ]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains("\x1b[31m-e2e4 21\x1b[0m"), "{out}");
    assert!(out.contains("\x1b[32m+e2e4 20\x1b[0m"), "{out}");
}

#[test]
fn expected_failures_pass_and_alternatives_are_reported() {
    let o = cvperft(&["check", "fixtures/suites/statuses.yaml"]);
    let out = stdout(&o);
    assert_eq!(code(&o), 0, "{out}{}", stderr(&o));
    assert!(out.contains("XFAIL chess::statuses::known-wrong"), "{out}");
    assert!(out.contains("alt1-perft-d1 PASS"), "{out}");
    assert!(out.contains("reading 1: game-end = movegen"), "{out}");
    assert!(
        out.contains("alt2-perft-d1 SKIP: no option selects this reading"),
        "{out}"
    );
    assert_eq!(summary(&out), (5, 0, 1));
}

#[test]
fn an_unexpected_pass_is_a_failure() {
    let o = cvperft(&["check", "fixtures/suites/xpass.yaml"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("XPASS: perft 1 = 20, but the case is marked xfail"));
    assert_eq!(summary(&stdout(&o)), (0, 1, 0));
}

#[test]
fn slow_cases_run_only_with_slow() {
    let o = cvperft(&["check", "fixtures/suites/slow.yaml"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("SKIP  chess::slow::quick-but-slow (slow case: run with --slow)"));
    assert_eq!(summary(&stdout(&o)), (0, 0, 2));
    let o = cvperft(&["check", "--slow", "fixtures/suites/slow.yaml"]);
    assert_eq!(code(&o), 0);
    assert_eq!(summary(&stdout(&o)), (2, 0, 0));
}

#[test]
fn malformed_suites_exit_2_naming_file_and_line() {
    let dir = root().join("fixtures/bad/suites");
    let mut yaml: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/bad/suites")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    yaml.sort();
    assert!(yaml.len() >= 15, "the corpus of broken suites is there");
    for path in yaml {
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let expected_file = path.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_file)
            .unwrap_or_else(|_| panic!("{} has no .expected sibling", rel));
        let expected = expected.trim_end();
        let o = cvperft(&["check", &rel]);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{rel}: {err}");
        assert!(stdout(&o).is_empty(), "{rel}: nothing runs");
        assert_eq!(err.trim_end(), expected, "{rel}");
        assert!(
            err.starts_with(&format!("cvperft: {rel}:")),
            "{rel}: the message names the file and line: {err}"
        );
        assert!(!err.contains("panicked"), "{rel}: {err}");
    }
}

#[test]
fn every_problem_of_a_suite_is_reported() {
    let dir = scratch("many-problems");
    let file = dir.join("many.yaml");
    std::fs::write(
        &file,
        "variant: chess\ndescription: two broken cases\ngame-end: rules\ncases:\n\
         - id: a\n  rules: [XX-1]\n  perft: {1: 20}\n  source: {kind: hand, derivation: x}\n\
         - id: b\n  fen: \"8/8 w - - 0 1\"\n  perft: {1: 20}\n  source: {kind: hand, derivation: x}\n",
    )
    .unwrap();
    let o = cvperft(&["check", file.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].ends_with(":6: case `a`: unknown rule id `XX-1` (chess suites may cite: GE-1, FIDE-CASTLING, FIDE-EN-PASSANT, FIDE-PROMOTION, FIDE-CHECK, FIDE-END)"), "{err}");
    assert!(lines[1].contains(":10: case `b`: fen: "), "{err}");
}

#[test]
fn a_missing_path_exits_2() {
    let o = cvperft(&["check", "no/such/suites"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("cvperft: no/such/suites: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_suite_in_a_directory_that_cannot_be_read_exits_2_naming_it() {
    // A dangling link and a loop of links named `*.yaml` were passed over: their checks did
    // not run and the run passed. Each is named with where it leads. A directory named `*.yaml` is still passed over, and so is
    // a hidden link to nowhere (Emacs's lock on a suite being edited).
    let dir = scratch("unreadable-entries");
    std::fs::copy(root().join("fixtures/suites/slow.yaml"), dir.join("a.yaml")).unwrap();
    std::fs::create_dir(dir.join("folder.yaml")).unwrap();
    std::os::unix::fs::symlink("user@host.1234:1700000000", dir.join(".#a.yaml")).unwrap();
    let ok = cvperft(&["check", dir.to_str().unwrap()]);
    assert_eq!(code(&ok), 0, "{}", stderr(&ok));
    for (name, target, error) in [
        (
            "gone.yaml",
            Some("moved-away.yaml"),
            "a symbolic link to `moved-away.yaml`, which does not exist",
        ),
        (
            "loop.yaml",
            Some("loop.yaml"),
            "a symbolic link in a loop of links that leads to no file",
        ),
        // A FIFO (or a socket or a device) was loaded, or before that passed over.
        (
            "pipe.yaml",
            None,
            "not a regular file; a suite directory's `*.yaml` entries must be suite files",
        ),
    ] {
        let link = dir.join(name);
        match target {
            Some(target) => std::os::unix::fs::symlink(target, &link).unwrap(),
            None => {
                let made = std::process::Command::new("mkfifo")
                    .arg(&link)
                    .status()
                    .unwrap();
                assert!(made.success());
            }
        }
        let o = cvperft(&["check", dir.to_str().unwrap()]);
        assert_eq!(code(&o), 2, "{name}: {}", stdout(&o));
        assert!(
            stderr(&o).starts_with(&format!("cvperft: {}: {error}", link.display())),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        std::fs::remove_file(&link).unwrap();
    }
}

#[test]
fn every_problem_of_a_suite_directory_is_reported_in_name_order() {
    // The first entry that could not be examined, in the order the directory listed them,
    // was the only line: the other entries' problems stayed hidden, and which one showed
    // depended on the directory. Now each is reported, sorted by name, every run alike.
    let dir = scratch("every-entry");
    let broken = |id: &str| {
        format!(
            "variant: chess\ndescription: x\ngame-end: rules\ncases:\n  - id: {id}\n    \
             perft: {{1: 2.5}}\n    source: {{kind: hand, derivation: x}}\n"
        )
    };
    // Made in an order other than the names' (a directory often lists in creation order).
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("d-pipe.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::write(dir.join("c-broken.yaml"), broken("c")).unwrap();
    std::os::unix::fs::symlink("nowhere.yaml", dir.join("b-dangling.yaml")).unwrap();
    std::fs::write(dir.join("a-broken.yaml"), broken("a")).unwrap();
    let d = dir.to_str().unwrap();
    let first = cvperft(&["check", d]);
    assert_eq!(code(&first), 2, "{}", stdout(&first));
    assert!(stdout(&first).is_empty(), "{}", stdout(&first));
    let err = stderr(&first);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    for (line, (name, says)) in lines.iter().zip([
        ("a-broken.yaml:6", "case `a`"),
        (
            "b-dangling.yaml",
            "a symbolic link to `nowhere.yaml`, which does not exist",
        ),
        ("c-broken.yaml:6", "case `c`"),
        ("d-pipe.yaml", "not a regular file"),
    ]) {
        let at = format!("cvperft: {}:", dir.join(name).display());
        assert!(
            line.starts_with(&at) && line.contains(says),
            "{line}\n{err}"
        );
    }
    for _ in 0..2 {
        assert_eq!(stderr(&cvperft(&["check", d])), err);
    }
}

#[test]
fn shards_are_disjoint_and_cover_every_case() {
    let base = ["check", "--max-nodes", "100000", "--format", "json"];
    let whole = cvperft(&base);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let all = case_names(&json(&whole));
    assert!(all.len() > 40);
    for n in [1usize, 2, 3, 7] {
        let mut union = BTreeSet::new();
        let mut total = 0;
        for k in 1..=n {
            let shard = format!("{k}/{n}");
            let mut args = base.to_vec();
            args.extend(["--shard", &shard]);
            let o = cvperft(&args);
            assert_eq!(code(&o), 0, "{shard}: {}", stderr(&o));
            let names = case_names(&json(&o));
            assert!(
                union.is_disjoint(&names),
                "shard {shard} repeats a case: {:?}",
                union.intersection(&names).collect::<Vec<_>>()
            );
            total += names.len();
            union.extend(names);
            // Deterministic: the same shard twice gives the same cases.
            assert_eq!(case_names(&json(&cvperft(&args))), case_names(&json(&o)));
        }
        assert_eq!(union, all, "{n} shards cover every case");
        assert_eq!(total, all.len());
    }
}

#[test]
fn bad_shards_are_refused() {
    for bad in ["0/3", "4/3", "1/0", "a/b", "2"] {
        let o = cvperft(&["check", "--shard", bad]);
        assert_eq!(code(&o), 2, "--shard {bad}");
        assert!(stderr(&o).contains("K/N"), "--shard {bad}: {}", stderr(&o));
    }
}

#[test]
fn json_report_parses_and_agrees_with_the_summary() {
    let o = cvperft(&[
        "check",
        "--format",
        "json",
        "fixtures/suites/wrong-count.yaml",
    ]);
    assert_eq!(code(&o), 1);
    let report = json(&o);
    assert_eq!(report["format"], "cvperft-check");
    let results = report["results"].as_array().unwrap();
    let count = |s: &str| results.iter().filter(|r| r["status"] == s).count();
    assert_eq!(report["summary"]["passed"], count("passed"));
    assert_eq!(report["summary"]["failed"], count("failed"));
    assert_eq!(report["summary"]["skipped"], count("skipped"));
    let perft = results
        .iter()
        .find(|r| r["name"] == "chess::wrong-count::start-wrong-perft::perft-d2")
        .expect("the failing perft check");
    assert_eq!(perft["mismatch"]["expected"], 401);
    assert_eq!(perft["mismatch"]["actual"], 400);
    let divide = results
        .iter()
        .find(|r| r["check"] == "divide-d2")
        .expect("the failing divide check");
    assert_eq!(divide["mismatch"]["kind"], "divide");
    assert!(!divide["mismatch"]["diff"].as_array().unwrap().is_empty());
}

/// A suite under a directory whose name is not UTF-8 (legal on Unix): the JSON report names
/// it with U+FFFD for the bytes (it stopped half-written: "path contains invalid UTF-8
/// characters"), and every format reports the run.
#[cfg(unix)]
#[test]
fn a_suite_file_name_that_is_not_utf8_is_reported() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("not-utf8").join(std::ffi::OsStr::from_bytes(b"suites-\xff"));
    std::fs::create_dir_all(&dir).expect("a directory named with a byte that is not UTF-8");
    std::fs::copy(
        root().join("fixtures/suites/wrong-count.yaml"),
        dir.join("wrong-count.yaml"),
    )
    .expect("the suite copied");
    let mut report = serde_json::Value::Null;
    for format in ["json", "junit", "html", "human"] {
        let o = Command::new(support::CVPERFT)
            .args(["check", "--format", format])
            .arg(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("the cvperft binary runs");
        assert_eq!(code(&o), 1, "--format {format}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "--format {format}: {}", stderr(&o));
        if format == "json" {
            report = json(&o);
        }
    }
    let file = report["suites"][0]["file"]
        .as_str()
        .expect("the suite's file");
    assert!(file.ends_with("suites-\u{fffd}/wrong-count.yaml"), "{file}");
    assert_eq!(report["results"][0]["file"], file);
}

#[test]
fn junit_report_is_well_formed_xml_written_atomically() {
    let dir = scratch("junit");
    let file = dir.join("report.xml");
    let o = cvperft(&[
        "check",
        "--format",
        "junit",
        "--output",
        file.to_str().unwrap(),
        "fixtures/suites/wrong-count.yaml",
        "fixtures/suites/statuses.yaml",
        "fixtures/suites/slow.yaml",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "the report goes to the file");
    assert_eq!(stderr(&o).trim_end(), "8 passed, 2 failed, 3 skipped");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("report.xml")]);
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let top = doc.root_element();
    assert_eq!(top.tag_name().name(), "testsuites");
    assert_eq!(top.attribute("tests"), Some("13"));
    assert_eq!(top.attribute("failures"), Some("2"));
    assert_eq!(top.attribute("skipped"), Some("3"));
    let suites: Vec<_> = top
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 3);
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, 2);
    let skipped = doc
        .descendants()
        .filter(|n| n.has_tag_name("skipped"))
        .count();
    assert_eq!(skipped, 3);
    // Python's parser agrees, where Python is installed.
    if let Ok(py) = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])",
            file.to_str().unwrap(),
        ])
        .output()
    {
        assert!(
            py.status.success(),
            "{}",
            String::from_utf8_lossy(&py.stderr)
        );
    }
}

#[test]
fn output_to_an_unwritable_place_exits_2_and_leaves_nothing() {
    let o = cvperft(&[
        "check",
        "--output",
        "no/such/dir/report.json",
        "fixtures/suites/slow.yaml",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--output"), "{}", stderr(&o));

    // A new name ending in `/` is refused before the run, not once the report is written
    // beside it and cannot be renamed over it.
    let dir = scratch("output-trailing-slash");
    let target = format!("{}/", dir.join("report").display());
    let o = cvperft(&["check", "--output", &target, "fixtures/suites/slow.yaml"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        format!(
            "cvperft: --output {target}: ends in `/`, which only a directory can; give the name \
             of a file\n"
        )
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // So is one ending in `/.`: its temporary file was written beside `report`, in `dir`, and
    // the rename over `report/.` failed once every check had run (also for plan and export).
    // And a directory, which the message called a place for "the report" for a plan and an
    // export too.
    let dot_end = format!("{}/.", dir.join("report").display());
    let directory = dir.display().to_string();
    for (target, reason) in [
        (&dot_end, "ends in `/.`, which only a directory can"),
        (&directory, "is a directory"),
    ] {
        for args in [
            &["check", "--output", target, "fixtures/suites/slow.yaml"][..],
            &["export", "--format", "epd", "--output", target],
            &["plan", "2", "--split", "1", "--output", target],
        ] {
            let o = cvperft(args);
            assert_eq!(code(&o), 2);
            assert_eq!(
                stderr(&o),
                format!("cvperft: --output {target}: {reason}; give the name of a file\n")
            );
        }
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn filter_rule_and_variant_select_checks() {
    let o = cvperft(&["check", "--format", "json", "--filter", "castling-white-"]);
    assert_eq!(code(&o), 0);
    let names = case_names(&json(&o));
    assert!(!names.is_empty());
    assert!(
        names.iter().all(|n| n.contains("castling-white-")),
        "{names:?}"
    );

    // The filter matches any part of a name: `::perft-d1` also keeps depth 10 (Pink Panther's
    // deep case), which a run without `--deep` skips.
    let o = cvperft(&["check", "--format", "json", "--filter", "::perft-d1"]);
    let report = json(&o);
    let results = report["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["check"] == "perft-d1"));
    assert!(
        results.iter().all(|r| r["check"] == "perft-d1"
            || r["check"].as_str().unwrap().starts_with("perft-d1") && r["status"] == "skipped"),
        "{results:?}"
    );

    let o = cvperft(&["check", "--format", "json", "--rule", "FIDE-PROMOTION"]);
    assert_eq!(code(&o), 0);
    let names = case_names(&json(&o));
    assert!(
        names.contains("chess::chess::promotion-push-white"),
        "{names:?}"
    );
    assert!(names.iter().all(|n| n.contains("promotion")), "{names:?}");

    let o = cvperft(&["check", "--variant", "chess", "--filter", "fools-mate"]);
    assert_eq!(code(&o), 0);
    assert_eq!(summary(&stdout(&o)), (3, 0, 0));
}

/// A report counts and lists only the suites a check was selected from: `-v pink-panther`
/// over every suite said "from 6 suites", and the JSON and HTML reports listed the other five.
#[test]
fn reports_name_only_the_suites_that_had_a_check_selected() {
    let pink_panther = |format: &str| {
        let args = [
            "check",
            "suites",
            "-v",
            "pink-panther",
            "--max-nodes",
            "1000",
        ];
        cvperft(&[&args[..], &["--format", format]].concat())
    };
    let o = pink_panther("human");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains(" checks from 1 suite against "), "{text}");

    let report = json(&pink_panther("json"));
    let suites: Vec<&str> = report["suites"]
        .as_array()
        .expect("suites")
        .iter()
        .map(|s| s["variant"].as_str().expect("variant"))
        .collect();
    assert_eq!(suites, ["pink-panther"]);

    let o = pink_panther("html");
    let page = stdout(&o);
    let listed = &page[page.find("<summary>Suites</summary>").expect("the suites")..];
    let listed = &listed[..listed.find("</details>").expect("their end")];
    assert_eq!(listed.matches("<li>").count(), 1, "{listed}");
    assert!(listed.contains("(pink-panther, "), "{listed}");
    assert!(page.contains(" from 1 suite against "), "{page}");

    // With a filter, the suites listed are those the results come from.
    let o = cvperft(&[
        "check",
        "suites",
        "fixtures/suites/slow.yaml",
        "--filter",
        "castling",
        "--format",
        "json",
    ]);
    let report = json(&o);
    let from: BTreeSet<String> = case_names(&report)
        .iter()
        .map(|n| n.rsplit_once("::").expect("case").0.to_string())
        .collect();
    let listed: BTreeSet<String> = report["suites"]
        .as_array()
        .expect("suites")
        .iter()
        .map(|s| s["name"].as_str().expect("name").to_string())
        .collect();
    assert!(!from.is_empty());
    assert_eq!(listed, from);
}

#[test]
fn selections_that_cannot_match_are_usage_errors() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["check", "--variant", "chesss"],
            "--variant: unknown variant `chesss`",
        ),
        (
            &["check", "--rule", "XX-1"],
            "--rule: no variant cites ruling `XX-1`",
        ),
        (
            &["check", "--filter", "no-such-case"],
            "no check matches the selection",
        ),
        (&["check", "--jobs", "0"], "--jobs 0: expected 1 to 256"),
    ];
    for (args, message) in cases {
        let o = cvperft(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let run = |jobs: &str| {
        let o = cvperft(&[
            "check",
            "--max-nodes",
            "50000",
            "--format",
            "json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(code(&o), 0);
        let report = json(&o);
        report["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["name"].to_string(), r["status"].to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run("1"), run("3"));
}

/// An installed cvperft run away from a clone (no `suites/` where it runs) checks and exports
/// the suites built into it: the same checks, names, counts and exports as the repository's
/// `suites/`, and a line on stderr saying which suites it read. Given a PATH, or where
/// `suites` exists in any form, it reads what is there as before.
#[test]
fn without_a_suites_directory_the_built_in_suites_are_read() {
    let away = scratch("away");
    let args = ["check", "--format", "json", "--variant", "chess"];
    let here = cvperft(&args);
    let there = support::cvperft_output_in(&away, &args);
    assert_eq!(code(&here), 0, "{}", stderr(&here));
    assert_eq!(code(&there), 0, "{}", stderr(&there));
    assert!(
        stderr(&there).contains("no suites/ here: reading the 6 suites built into cvperft"),
        "{}",
        stderr(&there)
    );
    assert!(!stderr(&here).contains("built into"), "{}", stderr(&here));
    let results = |o: &Output| {
        let mut json = json(o);
        // Each check's time is the one field that may differ.
        for result in json["results"].as_array_mut().expect("results") {
            result.as_object_mut().expect("a result").remove("seconds");
        }
        (
            json["results"].clone(),
            json["summary"].clone(),
            json["suites"].clone(),
        )
    };
    let (results_here, summary_here, suites_here) = results(&here);
    assert_eq!(
        results(&there),
        (results_here.clone(), summary_here, suites_here)
    );
    assert!(
        results_here.as_array().is_some_and(|r| r.len() > 100),
        "{results_here}"
    );
    let export = ["export", "--format", "epd", "--variant", "pink-panther"];
    let (here, there) = (cvperft(&export), support::cvperft_output_in(&away, &export));
    assert_eq!(code(&there), 0, "{}", stderr(&there));
    assert!(!stdout(&here).is_empty());
    assert_eq!(stdout(&here), stdout(&there));
    // A PATH that is not there is refused, built-in suites or not.
    let o = support::cvperft_output_in(&away, &["check", "suites"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("suites"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("built into"), "{}", stderr(&o));
    // A `suites` that is a broken link is read as given, and refused.
    std::os::unix::fs::symlink(away.join("nowhere"), away.join("suites")).expect("a link");
    let o = support::cvperft_output_in(&away, &["check"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!stderr(&o).contains("built into"), "{}", stderr(&o));
}

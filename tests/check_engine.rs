//! `cvperft check --engine`: the suites run against an external engine through the real binary.
//! A planted fault must fail exactly the cases it touches (exit 1), a faithful engine must pass
//! (exit 0), Stockfish must agree with the chess suite, checks an engine cannot answer are
//! skipped with the reason, and an engine that cannot be used ends the run with exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CVPERFT: &str = env!("CARGO_BIN_EXE_cvperft");
const STOCKFISH: &str = "/usr/games/stockfish";

/// A small chess suite: one case that needs en passant, three that do not.
const SUITE: &str = r#"
variant: chess
description: A copy of a few chess cases, to run against engines with planted faults.
game-end: rules
cases:
  - id: ep-capture
    fen: "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
    moves: "d7d5"
    perft: {1: 7, 2: 38}
    legal: [e5d6]
    source:
      kind: hand
      derivation: "After d7d5 White has five King moves, e5e6 and the capture e5d6 en passant."
  - id: start
    perft: {1: 20, 2: 400, 3: 8902}
    illegal: [e1g1]
    source:
      kind: public
      citation: "https://www.chessprogramming.org/Perft_Results (Initial Position)"
  - id: castling
    fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    perft: {1: 26, 2: 568}
    legal: [e1g1, e1c1]
    source:
      kind: hand
      derivation: "Both castlings, five King moves, nineteen Rook moves."
  - id: stalemate-movegen
    fen: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    options: {game-end: movegen}
    perft: {1: 0}
    outcome: draw
    source:
      kind: hand
      derivation: "Black to move has no move and is not in check."
"#;

/// A directory of this test binary's own under Cargo's target directory (not the system's
/// temporary directory, where each run left one behind), emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("check-engine-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn temp_suite(name: &str) -> PathBuf {
    let dir = scratch(&format!("suite-{name}"));
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, SUITE).expect("write the suite");
    path
}

fn cvperft(args: &[&str]) -> Output {
    Command::new(CVPERFT)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the cvperft binary runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("JSON report: {e}\n{}", text(o)))
}

/// `case::check` → (status, message) from a JSON report.
fn statuses(report: &serde_json::Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                format!(
                    "{}::{}",
                    r["case"].as_str().unwrap(),
                    r["check"].as_str().unwrap()
                ),
                r["status"].as_str().unwrap().to_string(),
                r["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn status_of<'a>(all: &'a [(String, String, String)], name: &str) -> &'a (String, String, String) {
    all.iter()
        .find(|(n, _, _)| n == name)
        .unwrap_or_else(|| panic!("no result {name} in {all:?}"))
}

#[test]
fn a_planted_en_passant_fault_fails_the_en_passant_case_only() {
    let suite = temp_suite("faulty");
    let engine = format!("{CVPERFT} perftree --inject no-en-passant");
    let o = cvperft(&[
        "check",
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 1, "{}", text(&o));
    let report = json(&o);
    assert_eq!(report["generator"], engine.as_str());
    let all = statuses(&report);
    for failing in [
        "ep-capture::perft-d1",
        "ep-capture::perft-d2",
        "ep-capture::legal",
    ] {
        assert_eq!(status_of(&all, failing).1, "failed", "{failing}: {all:?}");
    }
    assert!(
        status_of(&all, "ep-capture::legal").2.contains("e5d6"),
        "{all:?}"
    );
    for passing in [
        "start::perft-d3",
        "start::illegal",
        "castling::perft-d2",
        "castling::legal",
    ] {
        assert_eq!(status_of(&all, passing).1, "passed", "{passing}: {all:?}");
    }
    // The engine plays game-end=rules (the suite's): a case overriding it is not asked.
    let (_, status, message) = status_of(&all, "stalemate-movegen::perft-d1");
    assert_eq!(status, "skipped");
    assert_eq!(
        message,
        "engine implements game-end=rules, case needs game-end=movegen"
    );
}

#[test]
fn a_faithful_engine_passes_and_outcomes_are_skipped_with_a_reason() {
    let suite = temp_suite("faithful");
    let engine = format!("{CVPERFT} perftree");
    let o = cvperft(&[
        "check",
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--engine-reading",
        "game-end=movegen",
        "--format",
        "json",
    ]);
    // `cvperft perftree` plays game-end=rules; declared movegen, the movegen case is asked and
    // still passes (stalemate has no move either way), and the rules cases are skipped.
    assert_eq!(code(&o), 0, "{}", text(&o));
    let all = statuses(&json(&o));
    assert_eq!(status_of(&all, "stalemate-movegen::perft-d1").1, "passed");
    let (_, status, message) = status_of(&all, "stalemate-movegen::outcome");
    assert_eq!(status, "skipped");
    assert!(
        message.contains("does not report game outcomes"),
        "{message}"
    );
    assert_eq!(status_of(&all, "start::perft-d1").1, "skipped");

    // The shipped chess suite, a few cases of it, in the human report.
    let o = cvperft(&[
        "check",
        "suites/chess.yaml",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--filter",
        "castling-",
        "--max-nodes",
        "100000",
        "--color",
        "never",
    ]);
    let out = text(&o);
    assert_eq!(code(&o), 0, "{out}");
    assert!(
        out.contains(&format!("against the {engine} generator")),
        "{out}"
    );
    assert!(out.contains(", 0 failed,"), "{out}");
}

#[test]
fn stockfish_agrees_with_a_few_chess_cases() {
    if !Path::new(STOCKFISH).exists() {
        eprintln!("SKIPPED: {STOCKFISH} is not installed (Debian package `stockfish`)");
        return;
    }
    let o = cvperft(&[
        "check",
        "suites/chess.yaml",
        "--engine",
        STOCKFISH,
        "--filter",
        "e",
        "--max-nodes",
        "2000000",
        "--format",
        "junit",
    ]);
    let out = text(&o);
    assert_eq!(code(&o), 0, "{out}");
    assert!(out.contains("<testsuite name=\"chess::chess\""), "{out}");
    assert!(
        out.contains("does not report game outcomes"),
        "outcome checks are skipped with the reason: {out}"
    );
    assert!(!out.contains("<failure"), "{out}");
}

#[test]
fn an_engine_that_cannot_be_used_exits_2_with_one_line() {
    let o = cvperft(&[
        "check",
        "suites/chess.yaml",
        "--engine",
        "/nonexistent/engine --flag",
    ]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(o.stdout.is_empty(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/nonexistent/engine --flag"), "{err}");
    assert!(err.contains("program not found"), "{err}");

    // Engine flags without --engine, and readings the suites' variants do not have.
    let o = cvperft(&["check", "suites/chess.yaml", "--protocol", "perftree"]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let o = cvperft(&[
        "check",
        "suites/chess.yaml",
        "--engine",
        "x",
        "--engine-reading",
        "medinese=continue",
    ]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("medinese"), "{}", text(&o));
}

#[test]
fn a_variant_map_runs_the_mapped_variants_only() {
    let engine = format!("{CVPERFT} perftree -v {{variant}}");
    let o = cvperft(&[
        "check",
        "suites",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--engine-variant-map",
        "plutonian=plutonian",
        "--filter",
        "perft-d1",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let report = json(&o);
    let results = report["results"].as_array().expect("results");
    let mut ran_plutonian = false;
    for r in results {
        let variant = r["variant"].as_str().unwrap();
        let status = r["status"].as_str().unwrap();
        // The filter matches any part of a name: it keeps deeper checks (perft-d10 of a deep
        // case), which a run without `--deep` skips before any engine is asked.
        if r["check"] != "perft-d1" {
            assert!(r["message"].as_str().unwrap().contains("deep case"), "{r}");
            continue;
        }
        if variant == "plutonian" {
            ran_plutonian |= status == "passed";
        } else {
            assert_eq!(status, "skipped", "{r}");
            assert!(
                r["message"]
                    .as_str()
                    .unwrap()
                    .contains("no --engine-variant-map entry"),
                "{r}"
            );
        }
    }
    assert!(ran_plutonian, "{report}");
}

/// `check SUITE --protocol perftree --engine ENGINE --format json`.
fn over_perftree(suite: &Path, engine: &str) -> Output {
    cvperft(&[
        "check",
        suite.to_str().unwrap(),
        "--protocol",
        "perftree",
        "--engine",
        engine,
        "--format",
        "json",
    ])
}

/// An engine that answers only the start probe and refuses every other position (perftree
/// `invalid fen`): where it refused every question of a variant's checks, nothing was tested
/// and the run ends with exit 2 naming it, though each refusal alone is a skipped check; where
/// it answered some but refused more, exit 0 with a warning on stderr.
#[test]
fn an_engine_refusing_every_position_is_not_a_pass() {
    let engine = format!(
        "{}/fixtures/engines/perftree-faulty startonly",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = scratch("refusing");
    let castling: String = SUITE
        .split("  - id: ")
        .filter(|part| !part.starts_with("start") && !part.starts_with("ep-capture"))
        .collect::<Vec<_>>()
        .join("  - id: ");
    let only_others = dir.join("others.yaml");
    std::fs::write(&only_others, &castling).expect("write");
    let o = over_perftree(&only_others, &engine);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("refused every question it was asked (chess: refused 3 of 3")
            && stderr.contains("the first: rejected the request: invalid fen"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    // The report is still written, every engine check skipped with its reason.
    let report = json(&o);
    assert_eq!(report["summary"]["passed"], 0, "{report}");
    assert!(
        report["summary"]["skipped"].as_u64().unwrap() >= 2,
        "{report}"
    );

    // The start position's depth 1 is answered, the rest refused: a warning, exit 0.
    let suite = temp_suite("refusing");
    let o = over_perftree(&suite, &engine);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("cvperft: warning: "))
        .unwrap_or_else(|| panic!("no warning: {stderr}"));
    assert!(
        warning.contains("refused most of what it was asked (chess: refused ")
            && warning.contains("those checks are skipped, not passed"),
        "{warning}"
    );
    let report = json(&o);
    assert!(
        report["summary"]["passed"].as_u64().unwrap() >= 1,
        "{report}"
    );

    // A faithful engine draws neither.
    let faithful = format!("{CVPERFT} perftree");
    let o = over_perftree(&suite, &faithful);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("refused"),
        "{}",
        text(&o)
    );
}

/// An engine run where every chosen check is skipped (here the outcome checks, which the
/// perftree protocol cannot answer) tested nothing: exit 2, naming the first skip. It gave
/// "0 passed, 0 failed, 8 skipped" and exit 0, a green CI run that tested nothing.
#[test]
fn an_engine_run_that_skipped_every_check_is_not_a_pass() {
    let faithful = format!("{CVPERFT} perftree");
    let o = cvperft(&[
        "check",
        "suites/chess.yaml",
        "--filter",
        "outcome",
        "--protocol",
        "perftree",
        "--engine",
        &faithful,
    ]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.starts_with("cvperft: the engine was tested on nothing: all ")
            && stderr.contains(" checks were skipped (the first, `chess::chess::"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The report says so too: nothing passed.
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 passed, 0 failed, "),
        "{}",
        text(&o)
    );
    // Without an engine the same selection is the reference's, tested: exit 0.
    let o = cvperft(&["check", "suites/chess.yaml", "--filter", "outcome"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
}

/// The refusals do not hide failures: with a chess engine missing en passant (checks fail) and
/// a Bachelor Kamil engine that answers only its start probe, the run exits 1 as for the
/// failures alone, and says besides that the Bachelor Kamil engine refused every question.
#[test]
fn refusals_are_said_beside_failures_which_decide_the_exit() {
    let dir = scratch("refusing-mixed");
    let chess = dir.join("chess.yaml");
    std::fs::write(&chess, SUITE).expect("write");
    let kamil = dir.join("bachelor-kamil.yaml");
    std::fs::write(
        &kamil,
        r#"
variant: bachelor-kamil
description: one position other than the start
game-end: rules
cases:
  - id: e-pawn-moved
    moves: "e2e4"
    perft: {1: 26}
    source:
      kind: reference
      command: "cvperft perft 1 -v bachelor-kamil --moves e2e4"
      cross-check: >
        The e2e4 line of the start position's divide 2, whose total suites/bachelor-kamil.yaml
        cross-checks against Fairy-Stockfish. The engine under test refuses the position.
"#,
    )
    .expect("write");
    // `{variant}` first: chess goes to a faithful engine with en passant left out, Bachelor
    // Kamil to one that answers depth 1 of its start position (the probe) and refuses the rest.
    let engine = dir.join("split-engine");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\nv=$1; shift\n\
             if [ \"$v\" = chess ]; then exec {CVPERFT} perftree --inject no-en-passant \"$@\"; fi\n\
             if [ \"$1\" = 1 ] && [ -z \"$3\" ] && [ \"$2\" = \"$({CVPERFT} variants | sed -n '/^bachelor-kamil /{{n;s/^  start: //p}}')\" ]; then\n\
             exec {CVPERFT} perftree -v \"$v\" \"$@\"\nfi\n\
             echo \"invalid fen: $2\" >&2\nexit 1\n"
        ),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let command = format!("{} {{variant}}", engine.display());
    let o = cvperft(&[
        "check",
        chess.to_str().unwrap(),
        kamil.to_str().unwrap(),
        "--protocol",
        "perftree",
        "--engine",
        &command,
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 1, "{}", text(&o));
    let report = json(&o);
    assert!(
        report["summary"]["failed"].as_u64().unwrap() >= 1,
        "{report}"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "refused every question it was asked (bachelor-kamil: refused 1 of 1 question,"
        ),
        "{stderr}"
    );
}

/// Runs a `reproduce:` command as printed, with `cvperft` standing for the binary under test,
/// through the shell (the command is shell-quoted for a person to paste).
fn run_printed(command: &str) -> Output {
    let rest = command
        .strip_prefix("cvperft ")
        .unwrap_or_else(|| panic!("not a cvperft command: {command}"));
    Command::new("sh")
        .arg("-c")
        .arg(format!("'{CVPERFT}' {rest}"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sh runs")
}

/// A failing `legal` or `illegal` check against an engine reproduces with `cvperft diff 1`
/// against that engine, which names the move it lacks or adds. It used to offer the
/// reference's own `cvperft divide 1`, which lists the reference's moves (the missing move
/// included) and says nothing of the engine.
#[test]
fn a_failing_legal_or_illegal_check_reproduces_against_the_engine() {
    let dir = scratch("legal-reproduce");
    let suite = dir.join("moves.yaml");
    std::fs::write(
        &suite,
        r#"
variant: chess
description: One legal and one illegal check, for engines with planted faults.
game-end: rules
cases:
  - id: ep-capture
    fen: "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
    moves: "d7d5"
    legal: [e5d6]
    source:
      kind: hand
      derivation: "After d7d5 White may take en passant."
  - id: castle-through-f1
    fen: "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"
    illegal: [e1g1]
    source:
      kind: hand
      derivation: "The Rook f2 attacks f1, which the King would cross."
"#,
    )
    .expect("write the suite");
    for (fault, check, fen, verdict) in [
        (
            "no-en-passant",
            "ep-capture::legal",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "missing:   e5d6",
        ),
        (
            "castle-through-check",
            "castle-through-f1::illegal",
            "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1",
            "extra:     e1g1",
        ),
    ] {
        let engine = format!("{CVPERFT} perftree --inject {fault}");
        let o = over_perftree(&suite, &engine);
        assert_eq!(code(&o), 1, "{}", text(&o));
        let report = json(&o);
        let result = report["results"]
            .as_array()
            .expect("results")
            .iter()
            .find(|r| {
                format!(
                    "{}::{}",
                    r["case"].as_str().unwrap(),
                    r["check"].as_str().unwrap()
                ) == check
            })
            .unwrap_or_else(|| panic!("no result {check}: {report}"));
        assert_eq!(result["status"], "failed", "{result}");
        let reproduce = result["reproduce"].as_str().expect("a reproduce command");
        assert!(
            reproduce.starts_with("cvperft diff 1 -v chess")
                && reproduce.contains(&format!("--fen '{fen}'"))
                && reproduce.contains("--engine")
                && reproduce.contains(fault),
            "{reproduce}"
        );
        let shown = run_printed(reproduce);
        assert_eq!(code(&shown), 1, "{reproduce}\n{}", text(&shown));
        assert!(
            text(&shown).contains(verdict),
            "{reproduce}\n{}",
            text(&shown)
        );
    }
}

/// An engine whose depth-1 answers leave out their last move and count the first twice keeps
/// every total right: each perft-d1 check passed it (exit 0 on a suite of depth-1 counts). At
/// depth 1 each move is one leaf, so such an answer contradicts itself and fails the check,
/// naming the move and its count; deeper answers, untouched, still pass.
#[test]
fn a_depth_1_answer_counting_a_move_twice_fails_instead_of_passing_on_its_total() {
    let dir = scratch("not-one-leaf");
    let suite = temp_suite("not-one-leaf");
    let engine = dir.join("twice-engine");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\nif [ \"$1\" != 1 ]; then exec {CVPERFT} perftree \"$@\"; fi\n\
             {CVPERFT} perftree \"$@\" | awk '{{l[NR]=$0}} END {{\n\
             for (i = 1; i <= NR; i++) if (l[i] == \"\") {{ blank = i; break }}\n\
             split(l[1], a, \" \"); split(l[blank - 1], b, \" \"); print a[1], a[2] + b[2]\n\
             for (i = 2; i < blank - 1; i++) print l[i]\n\
             for (i = blank; i <= NR; i++) print l[i] }}'\n"
        ),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let o = over_perftree(&suite, engine.to_str().unwrap());
    assert_eq!(code(&o), 1, "{}", text(&o));
    let all = statuses(&json(&o));
    let (_, status, message) = status_of(&all, "start::perft-d1");
    assert_eq!(status, "failed", "{message}");
    assert!(
        message.contains("counted 2 for `a2a3` at depth 1, where every move is one leaf"),
        "{message}"
    );
    let (_, status, message) = status_of(&all, "start::perft-d2");
    assert_eq!(status, "passed", "{message}");
}

//! `check --engine` says where an engine's bug is: each failing perft or divide check is
//! bisected to a finding, identical findings are kept once, the `reproduce:` line is a `diff`
//! that shows the finding, and the rulings are ranked so that a planted fault's own ruling comes
//! first, for every (fault, variant) pair whose fault changes a count of the quick suite cases.

mod support;

use cvperft::variant::MoveKind;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use support::{CVPERFT, Run, cvperft};

/// The perft and divide checks asked of each planted-fault engine: the suite cases expecting at
/// most this many leaf nodes (a few seconds per variant over the perftree protocol).
const MAX_NODES: &str = "20000";

fn engine(variant: &str, fault: &str) -> String {
    format!("{CVPERFT} perftree -v {variant} --inject {fault}")
}

/// `check` of one suite against a planted-fault engine, with `extra` arguments.
fn check(variant: &str, fault: &str, extra: &[&str]) -> Run {
    check_against(variant, &engine(variant, fault), extra)
}

/// `check` of one suite against the perftree `engine`, with `extra` arguments.
fn check_against(variant: &str, engine: &str, extra: &[&str]) -> Run {
    let suite = format!("suites/{variant}.yaml");
    let mut args = vec![
        "check",
        &suite,
        "--engine",
        engine,
        "--protocol",
        "perftree",
        "--max-nodes",
        MAX_NODES,
        "-q",
    ];
    args.extend_from_slice(extra);
    cvperft(&args)
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stderr, run.stdout))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_reproduce_line_runs_as_printed_and_shows_the_finding() {
    let run = check("chess", "no-en-passant", &["--filter", "::ep-basic::"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let line = run
        .stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: cvperft diff"))
        .unwrap_or_else(|| panic!("no diff reproduce line:\n{}", run.stdout));
    // Run it through a shell, as a person pasting it would.
    let stdout = pasted("sh", &format!("cvperft diff{line}"));
    assert!(
        stdout.contains("first difference: the move lists differ"),
        "{stdout}"
    );
    assert!(stdout.contains("missing:   e5d6"), "{stdout}");
    // The check's own report names the same finding.
    assert!(run.stdout.contains("missing e5d6"), "{}", run.stdout);
    assert!(run.stdout.contains("e5d6 (en passant, FIDE-EN-PASSANT)"));
}

/// The standard output of `command` run by `shell` with `cvperft` on the PATH, as a person
/// pasting it would; it must find a difference (exit 1).
fn pasted(shell: &str, command: &str) -> String {
    let bin = Path::new(CVPERFT).parent().expect("bin dir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(shell)
        .arg("-c")
        .arg(command)
        .env("PATH", path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("{shell}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Undoes the HTML report's escaping of an attribute value.
fn unescape_attribute(value: &str) -> String {
    value
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[test]
fn the_html_reproduce_command_keeps_control_characters_of_the_engine_path() {
    // The engine is the planted-fault generator under a name holding a newline and an escape:
    // the page's command must name that file, not one without them.
    let dir = support::scratch_dir("findings", "control-path");
    let link = dir.join("cv\nperft\u{1b}[1m");
    std::os::unix::fs::symlink(CVPERFT, &link).expect("symlink");
    let engine = format!(
        "'{}' perftree -v chess --inject no-en-passant",
        link.to_str().expect("utf-8")
    );
    let run = check_against(
        "chess",
        &engine,
        &["--filter", "::ep-basic::", "--format", "html"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    // The page's own text names the engine with its escape shown, not dropped.
    assert!(run.stdout.contains("perft\\u{1b}[1m"), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{1b}'), "a raw escape on the page");
    let copied = run
        .stdout
        .split("data-copy=\"")
        .skip(1)
        .map(|rest| unescape_attribute(rest.split('"').next().unwrap_or("")))
        .find(|cmd| cmd.starts_with("cvperft diff "))
        .unwrap_or_else(|| panic!("no diff command to copy:\n{}", run.stdout));
    assert!(copied.contains("$'\\'"), "{copied}");
    assert!(copied.contains("cv\\nperft\\033[1m"), "{copied}");
    assert!(copied.chars().all(|c| !c.is_control()), "{copied:?}");
    // Pasted into bash (the `$'...'` form is not in every sh), it runs the same engine.
    let stdout = pasted("bash", &copied);
    assert!(stdout.contains("missing:   e5d6"), "{stdout}");
}

/// Each failing check of an HTML report links to the finding it was bisected to (it named the
/// finding in bold text, though the findings have anchors), and a finding in the check's own
/// position is captioned as that position, not "After the check's position".
#[test]
fn html_failing_checks_link_to_their_finding() {
    let run = check(
        "chess",
        "no-en-passant",
        &["--filter", "::ep-basic::", "--format", "html"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let page = &run.stdout;
    let links: Vec<&str> = page
        .split("Bisected to <a href=\"#")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap_or(""))
        .collect();
    assert!(!links.is_empty(), "{page}");
    for anchor in &links {
        assert!(anchor.starts_with("finding-"), "{anchor}");
        assert!(
            page.contains(&format!("<article class=\"finding\" id=\"{anchor}\"")),
            "no finding with the id {anchor}"
        );
    }
    // The en passant capture is missing in the check's own position.
    assert!(!page.contains("After the check"), "{page}");
    assert!(
        page.contains("<figcaption>The check&apos;s position: 4k3/8/8/3pP3/"),
        "{page}"
    );
}

/// An engine whose count of a move one ply up is wrong though its divide below that move
/// agrees (here: one too many for a2a3 at depth 3 only). The finding says which count, and its
/// `reproduce` asks where the counts differ: it used to ask after a2a3, where the two sides
/// agree (`diff` exited 0 and showed nothing), and the headline said only "vanished". The same
/// for `diff`'s own reproduce line.
#[test]
fn a_count_wrong_only_one_ply_up_reproduces_where_it_differs() {
    let engine = format!(
        "{}/fixtures/engines/perftree-faulty plusone {CVPERFT}",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = check_against(
        "chess",
        &engine,
        &["--filter", "::start::", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    assert_eq!(f["stop"], "vanished");
    assert_eq!(f["path"], serde_json::json!(["a2a3"]));
    assert_eq!(
        f["counts"],
        serde_json::json!([{"move": "a2a3", "reference": 380, "engine": 381}])
    );
    let reproduce = f["reproduce"].as_str().expect("reproduce");
    assert!(
        reproduce.starts_with("cvperft diff 3 -v chess ") && !reproduce.contains("--moves"),
        "{reproduce}"
    );
    let stdout = pasted("sh", reproduce);
    assert!(
        stdout.contains(
            "first difference: counts differ above, but the divides after the move agree"
        ),
        "{stdout}"
    );
    // The diff's own reproduce line asks the same question again.
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: "))
        .unwrap_or_else(|| panic!("no reproduce line:\n{stdout}"));
    assert!(
        line.starts_with("cvperft diff 3 ") && !line.contains("--moves"),
        "{line}"
    );
    pasted("sh", line);
    // The human report's headline says what differs.
    let human = check_against("chess", &engine, &["--filter", "::start::"]);
    assert!(
        human.stdout.contains(
            "chess after a2a3 (depth 2): a2a3 counted 381 not 380 at depth 3, but the divides \
             after it agree"
        ),
        "{}",
        human.stdout
    );
}

#[test]
fn identical_findings_are_reported_once_with_their_cases() {
    let run = check(
        "chess",
        "no-en-passant",
        &["--filter", "::ep-basic::", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    let cases = strings(&f["cases"]);
    let failed_perft: Vec<String> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["status"] == "failed" && r["check"].as_str().unwrap_or("").contains("perft"))
        .map(|r| r["name"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(failed_perft.len() >= 2, "{failed_perft:?}");
    assert_eq!(cases, failed_perft);
    assert_eq!(f["path"], Value::Array(Vec::new()));
    assert_eq!(f["depth"], 1);
    assert_eq!(f["missing"][0]["move"], "e5d6");
    assert_eq!(f["missing"][0]["kind"], "en passant");
    assert_eq!(report["likely_rulings"][0]["ruling"], "FIDE-EN-PASSANT");
    let reproduce = f["reproduce"].as_str().expect("reproduce");
    assert!(
        reproduce.starts_with("cvperft diff 1 -v chess "),
        "{reproduce}"
    );
    // Every failing perft check's reproduce line is a diff against the same engine.
    for r in report["results"].as_array().expect("results") {
        if r["status"] == "failed" && r["check"].as_str().unwrap_or("").starts_with("perft") {
            let cmd = r["reproduce"].as_str().expect("reproduce");
            assert!(cmd.starts_with("cvperft diff "), "{cmd}");
            assert!(cmd.contains("--inject no-en-passant"), "{cmd}");
        }
    }
}

#[test]
fn bisection_is_bounded_and_can_be_turned_off() {
    let off = check(
        "chess",
        "no-en-passant",
        &[
            "--filter",
            "::ep-basic::",
            "--format",
            "json",
            "--no-bisect",
        ],
    );
    assert_eq!(off.code, 1, "{}", off.stderr);
    let report = json(&off);
    assert_eq!(report["findings"], Value::Array(Vec::new()));
    let not = report["not_bisected"].as_array().expect("not bisected");
    assert!(!not.is_empty());
    assert!(not.iter().all(|n| n["reason"] == "--no-bisect"), "{not:?}");

    // Kiwipete at depth 2 differs one ply down: one question is not enough.
    let short = check(
        "chess",
        "no-en-passant",
        &[
            "--filter",
            "::kiwipete::perft-d2",
            "--format",
            "json",
            "--bisect-questions",
            "1",
        ],
    );
    assert_eq!(short.code, 1, "{}", short.stderr);
    let report = json(&short);
    assert_eq!(report["findings"], Value::Array(Vec::new()));
    let reason = report["not_bisected"][0]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("--bisect-questions spent"), "{reason}");

    let none = check(
        "chess",
        "no-en-passant",
        &["--filter", "::kiwipete::perft-d2", "--bisect-seconds", "0"],
    );
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(
        none.stdout.contains("--bisect-seconds spent"),
        "{}",
        none.stdout
    );

    let bad = check("chess", "no-en-passant", &["--bisect-seconds=-1"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains(
            "invalid value '-1' for '--bisect-seconds <S>': expected no negative number of seconds"
        ),
        "{}",
        bad.stderr
    );
    let without_engine = cvperft(&["check", "suites/chess.yaml", "--no-bisect"]);
    assert_eq!(without_engine.code, 2, "{}", without_engine.stderr);
}

/// An engine that plays on after a Bachelor Kamil marriage (its `game-end=movegen` reading)
/// lists moves where the reference's game is over: every one is extra, Camel, pawn and castling
/// moves among them. The finding names the marriage (BK-6), and BK-6 comes first, not the
/// rulings of the pieces that happen to move there.
#[test]
fn moves_after_the_end_of_the_game_fall_under_the_ruling_that_ended_it() {
    let engine = format!("{CVPERFT} perftree -v bachelor-kamil -o game-end=movegen");
    let run = check_against(
        "bachelor-kamil",
        &engine,
        &["--rule", "BK-6", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(
        report["likely_rulings"][0]["ruling"], "BK-6",
        "{:#}",
        report["likely_rulings"]
    );
    let findings = report["findings"].as_array().expect("findings");
    let after_end: Vec<&Value> = findings
        .iter()
        .filter(|f| f["missing"].as_array().is_some_and(|m| m.is_empty()))
        .flat_map(|f| f["extra"].as_array().into_iter().flatten())
        .collect();
    assert!(!after_end.is_empty(), "{findings:#?}");
    for m in after_end {
        assert_eq!(m["kind"], "move after the game ended (BK-6)", "{m}");
        assert_eq!(strings(&m["rulings"]), ["BK-6"], "{m}");
    }
}

#[test]
fn junit_failures_name_their_finding() {
    let run = check(
        "chess",
        "no-en-passant",
        &["--filter", "::ep-basic::", "--format", "junit"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let doc = roxmltree::Document::parse(&run.stdout).expect("well-formed XML");
    let failures: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert!(!failures.is_empty());
    let perft: Vec<_> = failures
        .iter()
        .filter(|f| {
            f.parent()
                .and_then(|t| t.attribute("name"))
                .is_some_and(|n| n.starts_with("perft"))
        })
        .collect();
    assert!(!perft.is_empty());
    for f in perft {
        let message = f.attribute("message").unwrap_or("");
        assert!(message.contains("finding 1: chess"), "{message}");
        assert!(message.contains("missing e5d6"), "{message}");
    }
    let property = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("likely-ruling-1"))
        .expect("likely rulings as properties");
    assert!(
        property
            .attribute("value")
            .unwrap_or("")
            .starts_with("FIDE-EN-PASSANT (docs/rules/chess.md)"),
        "{property:?}"
    );
}

/// What each planted fault gets wrong, as the variant declarations name it: a kind of move
/// (whose ruling the variant's `move_rulings` give) or a piece (whose own ruling governs its
/// ordinary moves). Every fault of the registry must have a row.
const GOVERNS: &[(&str, Governs)] = &[
    ("no-en-passant", Governs::Kind(MoveKind::EnPassant)),
    ("castle-through-check", Governs::Kind(MoveKind::Castling)),
    ("no-promotion-to-knight", Governs::Kind(MoveKind::Promotion)),
    ("elephant-no-leap", Governs::Piece("Silver Elephant")),
    ("gnu-no-camel", Governs::Piece("Gnu")),
    ("changeling-no-knight", Governs::Piece("Changeling")),
    ("no-resurrection", Governs::Kind(MoveKind::AddedPlacement)),
    (
        "no-jewel-pass",
        Governs::Kind(MoveKind::Special("jewel pass")),
    ),
];

#[derive(Copy, Clone, Debug)]
enum Governs {
    Kind(MoveKind),
    Piece(&'static str),
}

/// (fault, variant) pairs whose move kind no ruling id governs, and why: the finding must still
/// name a move of that kind, but no ruling can come first for it.
const NO_SINGLE_RULING: &[(&str, &str, &str)] = &[];

/// The ruling `governs` falls under in `variant`, and the variant's word for the kind.
fn expected(variant: &str, governs: Governs) -> (Option<&'static str>, &'static str) {
    let v = cvperft::variants::get(variant).expect("variant");
    match governs {
        Governs::Kind(kind) => match v.spec.move_rulings.iter().find(|r| r.kind == kind) {
            Some(r) => (Some(r.ruling), r.name),
            None => (None, kind.name()),
        },
        Governs::Piece(name) => {
            let piece = v
                .spec
                .pieces
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("{variant} has no {name}"));
            (piece.ruling, "ordinary move")
        }
    }
}

/// Checks one pair; `None` when the fault changes no count of the selection.
fn planted_fault(variant: &str, fault: &str) -> Option<String> {
    let governs = GOVERNS
        .iter()
        .find(|(f, _)| *f == fault)
        .unwrap_or_else(|| panic!("fault {fault} has no row in GOVERNS"))
        .1;
    let run = check(variant, fault, &["--format", "json"]);
    assert!(
        run.code == 0 || run.code == 1,
        "{variant} {fault}: {}",
        run.stderr
    );
    let report = json(&run);
    if report["summary"]["failed"] == 0 {
        return None;
    }
    let (ruling, kind_name) = expected(variant, governs);
    let findings = report["findings"].as_array().expect("findings");
    assert!(!findings.is_empty(), "{variant} {fault}: no finding");
    let moves: Vec<&Value> = findings
        .iter()
        .flat_map(|f| {
            f["missing"]
                .as_array()
                .into_iter()
                .chain(f["extra"].as_array())
                .flatten()
        })
        .collect();
    let of_kind = |m: &&Value| m["kind"].as_str().unwrap_or("").contains(kind_name);
    let first = &report["likely_rulings"][0];
    match ruling {
        Some(id) => {
            assert_eq!(
                first["ruling"], id,
                "{variant} {fault}: likely rulings {:#}",
                report["likely_rulings"]
            );
            assert!(
                moves
                    .iter()
                    .any(|m| of_kind(m) && strings(&m["rulings"]).iter().any(|r| r == id)),
                "{variant} {fault}: no finding names a {kind_name} under {id}: {moves:?}"
            );
            let page = first["page"].as_str().unwrap_or("");
            assert!(page.starts_with("docs/rules/"), "{page}");
            Some(format!("{variant} {fault}: {id} first"))
        }
        None => {
            let why = NO_SINGLE_RULING
                .iter()
                .find(|(f, v, _)| *f == fault && *v == variant)
                .unwrap_or_else(|| {
                    panic!("{variant} {fault}: no ruling governs a {kind_name}; explain it in NO_SINGLE_RULING")
                });
            assert!(
                moves
                    .iter()
                    .any(|m| of_kind(m) && strings(&m["rulings"]).is_empty()),
                "{variant} {fault}: no finding names a {kind_name}: {moves:?}"
            );
            Some(format!("{variant} {fault}: no single ruling ({})", why.2))
        }
    }
}

#[test]
fn a_planted_fault_s_ruling_comes_first() {
    let pairs: Vec<(&str, &str)> = cvperft::variants::IDS
        .iter()
        .filter(|v| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("suites/{v}.yaml"))
                .exists()
        })
        .flat_map(|v| {
            cvperft::faults::names_for(v)
                .into_iter()
                .map(move |f| (*v, f))
        })
        .collect();
    assert!(pairs.len() >= 20, "{pairs:?}");
    // Two at a time: each run waits on its engine processes most of the time.
    let results: BTreeMap<(&str, &str), Option<String>> = std::thread::scope(|scope| {
        let halves: Vec<_> = [0, 1]
            .iter()
            .map(|&k| {
                let mine: Vec<(&str, &str)> = pairs.iter().copied().skip(k).step_by(2).collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|(v, f)| ((v, f), planted_fault(v, f)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    let mut changed = 0;
    for ((variant, fault), outcome) in &results {
        match outcome {
            Some(line) => {
                changed += 1;
                eprintln!("{line}");
            }
            None => eprintln!("{variant} {fault}: changes no count at --max-nodes {MAX_NODES}"),
        }
    }
    // Every variant's own fault changes its counts.
    for (variant, fault) in &pairs {
        if cvperft::faults::FAULTS
            .iter()
            .any(|s| s.name == *fault && !s.variants.is_empty())
        {
            assert!(results[&(*variant, *fault)].is_some(), "{variant} {fault}");
        }
    }
    assert!(changed >= 15, "{changed} pairs change a count");
}

//! `cvperft diff`, `identify` and the engine adapters, run through the real binary: planted
//! faults must be found at the exact position and move, misbehaving engines must end in one
//! clear line with exit 2 and leave no process behind, and Stockfish must agree with us.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CVPERFT: &str = env!("CARGO_BIN_EXE_cvperft");
const STOCKFISH: &str = "/usr/games/stockfish";

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

fn cvperft(args: &[&str]) -> Run {
    let start = Instant::now();
    let out = Command::new(CVPERFT)
        .args(args)
        .output()
        .expect("the cvperft binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/engines")
        .join(name)
        .display()
        .to_string()
}

/// `cvperft diff DEPTH --fen FEN --engine ENGINE` with `flags` after it.
fn diff_with(depth: &str, fen: &str, engine: &str, flags: &[&str]) -> Run {
    let mut args = vec!["diff", depth, "--fen", fen, "--engine", engine];
    args.extend_from_slice(flags);
    cvperft(&args)
}

/// `cvperft diff DEPTH --fen FEN` against the perftree command `engine`.
fn diff_perftree(depth: &str, fen: &str, engine: &str) -> Run {
    diff_with(depth, fen, engine, &["--protocol", "perftree"])
}

/// `uci-shim` over `perftree-faulty MODE CVPERFT`: a faulty perftree answer told over UCI.
fn faulty_over_uci(mode: &str) -> String {
    format!(
        "{} {}",
        fixture("uci-shim"),
        fixture(&format!("perftree-faulty {mode} {CVPERFT}"))
    )
}

fn injected(fault: &str) -> String {
    format!("{CVPERFT} perftree --inject {fault}")
}

/// The value printed after `label:` in the finding block (after the header).
fn field(stdout: &str, label: &str) -> String {
    let block = stdout
        .find("first difference")
        .or_else(|| stdout.find("matches none"))
        .map_or(stdout, |i| &stdout[i..]);
    block
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("{label}:")))
        .map(|v| v.trim().to_string())
        .unwrap_or_default()
}

/// The first word of a finding field (the moves, without the explanation).
fn moves(stdout: &str, label: &str) -> String {
    let v = field(stdout, label);
    v.split("  (").next().unwrap_or("").trim().to_string()
}

// ----- planted faults are found -----

struct FaultCase {
    variant: &'static str,
    fault: &'static str,
    fen: &'static str,
    depth: &'static str,
    path: &'static str,
    fen_found: &'static str,
    missing: &'static str,
    extra: &'static str,
}

fn check_fault(case: &FaultCase) {
    let engine = format!(
        "{CVPERFT} perftree -v {} --inject {}",
        case.variant, case.fault
    );
    let run = cvperft(&[
        "diff",
        case.depth,
        "-v",
        case.variant,
        "--fen",
        case.fen,
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 1, "{}: {}{}", case.fault, run.stdout, run.stderr);
    assert_eq!(field(&run.stdout, "path"), case.path, "{}", run.stdout);
    assert_eq!(field(&run.stdout, "fen"), case.fen_found, "{}", run.stdout);
    assert_eq!(
        moves(&run.stdout, "missing"),
        case.missing,
        "{}",
        run.stdout
    );
    assert_eq!(moves(&run.stdout, "extra"), case.extra, "{}", run.stdout);
    // The printed command reproduces the last step, and reports the same moves.
    let repro = field(&run.stdout, "reproduce");
    assert!(repro.starts_with("cvperft diff "), "{repro}");
    assert!(repro.contains("--protocol perftree"), "{repro}");
}

#[test]
fn finds_no_en_passant() {
    check_fault(&FaultCase {
        variant: "chess",
        fault: "no-en-passant",
        fen: POSITION_3,
        depth: "3",
        path: "a5a4 c7c5",
        fen_found: "8/8/3p4/1Pp4r/KR3p1k/8/4P1P1/8 w - c6 0 2",
        missing: "b5c6",
        extra: "-",
    });
}

#[test]
fn finds_castle_through_check() {
    check_fault(&FaultCase {
        variant: "chess",
        fault: "castle-through-check",
        fen: KIWIPETE,
        depth: "3",
        path: "a1b1 a6e2",
        fen_found: "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBbPPP/1R2K2R w Kkq - 0 2",
        missing: "-",
        extra: "e1g1",
    });
}

#[test]
fn finds_no_promotion_to_knight() {
    check_fault(&FaultCase {
        variant: "chess",
        fault: "no-promotion-to-knight",
        fen: POSITION_4,
        depth: "3",
        path: "b4c5",
        fen_found: "r3k2r/Pppp1ppp/1b3nbN/nPB5/B1P1P3/q4N2/Pp1P2PP/R2Q1RK1 b kq - 1 1",
        missing: "b2a1n b2b1n",
        extra: "-",
    });
}

// One fault per fairy variant, each on the variant's own rule, from a position where the
// faulty move only becomes possible two plies down.

#[test]
fn finds_elephant_no_leap() {
    check_fault(&FaultCase {
        variant: "silver-elephant",
        fault: "elephant-no-leap",
        fen: "5k3r/pp8/2P1P1P3/10/4E5/10/2P3P3/5K4 w - - 0 1",
        depth: "3",
        path: "c2c3 a7a5",
        fen_found: "5k3r/1p8/2P1P1P3/p9/4E5/2P7/6P3/5K4 w - a6 0 2",
        missing: "e4c2",
        extra: "-",
    });
}

#[test]
fn finds_gnu_no_camel() {
    check_fault(&FaultCase {
        variant: "bachelor-kamil",
        fault: "gnu-no-camel",
        fen: "4k4/1P7/9/9/9/9/9/4K4 w - - 0 1",
        depth: "3",
        path: "b7b8w e8d8",
        fen_found: "1W1k5/9/9/9/9/9/9/4K4 w - - 1 2",
        missing: "b8a5 b8c5 b8e7",
        extra: "-",
    });
}

#[test]
fn finds_changeling_no_knight() {
    check_fault(&FaultCase {
        variant: "plutonian",
        fault: "changeling-no-knight",
        fen: "4k3/7p/8/8/8/1P6/2P5/C3K3 w - - 0 1",
        depth: "3",
        path: "a1a2 e8d7",
        fen_found: "8/3k3p/8/8/8/1P6/C1P5/4K3 w - - 2 2",
        missing: "a2b4 a2c1 a2c3",
        extra: "-",
    });
}

#[test]
fn finds_no_resurrection() {
    check_fault(&FaultCase {
        variant: "cerimon",
        fault: "no-resurrection",
        fen: "4k3/s7/8/8/8/2N5/8/4K3[N] w - - 0 1",
        depth: "3",
        path: "c3a4 e8d7",
        fen_found: "8/s2k4/8/8/N7/8/8/4K3[N] w - - 2 2",
        missing: "a4b6,N@a2 a4b6,N@b2 a4b6,N@g2 a4b6,N@h2 \
                  a4c5,N@a2 a4c5,N@b2 a4c5,N@g2 a4c5,N@h2",
        extra: "-",
    });
}

#[test]
fn finds_no_jewel_pass() {
    check_fault(&FaultCase {
        variant: "pink-panther",
        fault: "no-jewel-pass",
        fen: "4g2/6p/7/2N4/7/4G2/+R6 w - - 0 1",
        depth: "3",
        path: "a1a2 e7d7",
        fen_found: "3g3/6p/7/2N4/7/+R3G2/7 w - - 2 2",
        missing: "a2f2 a2g2",
        extra: "-",
    });
}

#[test]
fn reproduce_command_shows_the_same_difference() {
    let engine = injected("no-en-passant");
    let run = cvperft(&[
        "diff",
        "1",
        "--fen",
        POSITION_3,
        "--moves",
        "a5a4 c7c5",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(field(&run.stdout, "path"), "(root)");
    assert_eq!(moves(&run.stdout, "missing"), "b5c6");
}

#[test]
fn against_a_second_engine() {
    // The faulty engine stands on the reference side: the difference is reported the other way.
    let good = format!("{CVPERFT} perftree");
    let bad = injected("no-en-passant");
    let run = cvperft(&[
        "diff",
        "3",
        "--fen",
        POSITION_3,
        "--engine",
        &good,
        "--protocol",
        "perftree",
        "--against",
        &bad,
        "--against-protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(field(&run.stdout, "path"), "a5a4 c7c5");
    assert_eq!(moves(&run.stdout, "extra"), "b5c6");
    assert!(field(&run.stdout, "reproduce").contains("--against"));
}

/// An engine that answers the root question (without en passant) but crashes when the descent
/// asks after a5a4: the run still fails with the crash (exit 2, one line on stderr), and what
/// was found before it is printed, not thrown away: the root comparison and the descent so far.
/// It used to print nothing but the header.
#[test]
fn a_crash_during_the_descent_keeps_what_was_found() {
    let engine = format!("{} {CVPERFT}", fixture("perftree-faulty deepcrash"));
    let run = cvperft(&[
        "diff",
        "3",
        "--fen",
        POSITION_3,
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("crashed mid-output after 2 lines (killed by signal 11)")
            && run.stderr.contains("moves \"a5a4\""),
        "{}",
        run.stderr
    );
    for shown in [
        "differ at depth 3: 0 missing, 0 extra, 2 counts differ, 12 agree; totals 2812 \
         (reference) vs 2810 (engine)",
        "  a5a4         224     223          -1",
        "  root, depth 3: ",
        "; descend into a5a4 (224 vs 223)",
        "  (the descent stopped: the engine failed, see the error)",
    ] {
        assert!(run.stdout.contains(shown), "{shown:?} in\n{}", run.stdout);
    }
    // A failure of the root question itself has nothing to show.
    let crash = fixture("perftree-faulty crash");
    let run = cvperft(&["diff", "2", "--engine", &crash, "--protocol", "perftree"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("differ"), "{}", run.stdout);
}

/// The notes gathered on the way down (here: the engine's divide after a5a4 totals 225 where
/// its root count of a5a4 was 223) are kept when the descent is then cut short by a crash, in
/// the text report and in the HTML page. They used to be shown only when the descent ended.
#[test]
fn a_crash_during_the_descent_keeps_the_notes_found_before_it() {
    let note = "engine: a5a4 counted 223 at depth 3, but its divide below totals 225";
    let run = support::faulty_diff("notecrash", &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("moves \"a5a4 c7c5\""), "{}", run.stderr);
    let stopped = run
        .stdout
        .find("(the descent stopped: the engine failed")
        .expect(&run.stdout);
    let noted = run
        .stdout
        .find(&format!("  note:      {note}"))
        .expect(&run.stdout);
    assert!(stopped < noted, "{}", run.stdout);
    let html = support::faulty_diff("notecrash", &["--format", "html"]);
    assert_eq!(html.code, 2, "{}", html.stderr);
    assert!(
        html.stdout
            .contains(&format!("<tr><th>note</th><td>{note}</td></tr>")),
        "{}",
        html.stdout
    );
}

/// An engine that writes promotions in upper case (`b7b8Q`) differs from us in spelling only,
/// and `check` already read its moves in our canonical spelling (its perft and legal checks
/// pass): `diff` agrees with it too. It used to report b7b8b b7b8n b7b8q b7b8r missing and
/// b7b8B ... extra (exit 1), a list of promotions to be taken for a rule the engine breaks,
/// which no `--map` of piece letters could translate.
#[test]
fn moves_in_other_letter_case_are_the_same_moves() {
    let engine = format!("{} {CVPERFT}", fixture("perftree-faulty upperpromo"));
    for depth in ["1", "2"] {
        let run = diff_perftree(depth, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &engine);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("agree: 9 moves"), "{}", run.stdout);
    }
    // The same over UCI, after a promotion played on the way (sent in our spelling).
    let shim = faulty_over_uci("upperpromo");
    let run = cvperft(&[
        "diff",
        "2",
        "--fen",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "--moves",
        "b7b8q",
        "--engine",
        &shim,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// An engine that lists one move in two spellings that are one move of ours (`b7b8b` and
/// `b7b8B`; with `--map-castling king-to-rook`, `e1g1` and `e1h1`) gives no count for the move:
/// its answer is refused, naming both listings with their counts and lines (exit 2). The
/// promotion was shown as one move with the two counts added up (`b7b8b 1 vs 2`: "same moves at
/// depth 1 but different counts"), the castling as the extra move `e1h1`.
#[test]
fn a_move_listed_in_two_spellings_is_refused_naming_both() {
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    // The count of b7b8b at depth 2, from our own divide.
    let ours = cvperft(&["divide", "2", "--fen", fen]);
    let count = ours
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("b7b8b "))
        .expect("b7b8b in our divide")
        .trim()
        .to_string();
    let engine = format!("{} {CVPERFT}", fixture("perftree-faulty twospell"));
    for (depth, count) in [("1", "1"), ("2", count.as_str())] {
        let run = diff_perftree(depth, fen, &engine);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        // The header only: no comparison, no count of the move.
        assert!(run.stdout.starts_with("diff chess"), "{}", run.stdout);
        assert!(!run.stdout.contains("b7b8"), "{}", run.stdout);
        assert_eq!(
            run.stderr,
            format!(
                "cvperft: the engine failed: engine `{engine}`: listed the move b7b8b twice, as \
                 `b7b8b` (count {count}, line 1 of its answer) and as `b7b8B` (count {count}, line \
                 2 of its answer): its count is not taken from this answer (asked depth {depth}, \
                 fen \"{fen}\")\n"
            )
        );
    }
    // A castling written both ways to an engine said to write it King-takes-Rook, over UCI:
    // the lines are those after `go perft` (the shim says one line first).
    let shim = faulty_over_uci("twospell");
    let castling = ["--map-castling", "king-to-rook"];
    let run = diff_with("1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", &shim, &castling);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "listed the move e1g1 twice, as `e1g1` (count 1, line 7 of its answer) and as \
             `e1h1` (count 1, line 8 of its answer)"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn agreement_exits_zero() {
    let engine = format!("{CVPERFT} perftree");
    let run = cvperft(&[
        "diff",
        "3",
        "--fen",
        KIWIPETE,
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("agree:"), "{}", run.stdout);
}

#[test]
fn uci_adapter_over_a_shim() {
    let engine = format!("{} {CVPERFT} perftree", fixture("uci-shim"));
    let run = cvperft(&[
        "diff",
        "3",
        "--fen",
        POSITION_4,
        "--engine",
        &engine,
        "--engine-variant",
        "chess",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // A variant the engine does not declare is refused before any position is sent.
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        &engine,
        "--engine-variant",
        "xiangqi",
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("variant `xiangqi` not supported"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("UCI_Variant values are: chess"),
        "{}",
        run.stderr
    );
}

/// A whole-move `--map` works over UCI as over perftree: this engine writes the short castling
/// as `O-O` (a perftree engine behind the UCI shim), and its `O-O: 2` line is read as a move
/// because the map names it, where a move without a digit is otherwise taken for chatter (the
/// answer then failed: counts adding up to less than `Nodes searched`).
#[test]
fn a_whole_move_map_works_over_uci() {
    let dir = std::env::temp_dir().join(format!("cvperft-test-{}-uci-map", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join("castles-as-o-o");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nmoves=$(printf '%s' \"$3\" | sed 's/O-O/e1g1/g')\n\
             {CVPERFT} perftree \"$1\" \"$2\" $moves | sed 's/^e1g1 /O-O /'\n"
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("executable");
    let engine = format!("{} {}", fixture("uci-shim"), script.display());
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let run = cvperft(&[
        "diff", "2", "--fen", fen, "--engine", &engine, "--map", "e1g1=O-O",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("agree: 26 moves"), "{}", run.stdout);
    // After the castling, sent in the engine's spelling.
    let run = cvperft(&[
        "diff", "2", "--fen", fen, "--moves", "e1g1", "--engine", &engine, "--map", "e1g1=O-O",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Without the map the line is chatter, and the answer does not add up.
    let run = cvperft(&["diff", "2", "--fen", fen, "--engine", &engine]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("its counts add up to"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn castling_map_works_both_ways() {
    // This engine writes castling as King-takes-Rook (e1h1). Without a map, the castlings
    // look missing and extra; with one, sent moves and received divides are translated.
    let engine = format!("{} '{CVPERFT} perftree'", fixture("perftree-king-to-rook"));
    let base = [
        "diff",
        "3",
        "--fen",
        KIWIPETE,
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ];
    let run = cvperft(&base);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(moves(&run.stdout, "missing"), "e1c1 e1g1");
    assert_eq!(moves(&run.stdout, "extra"), "e1a1 e1h1");
    let mut mapped = base.to_vec();
    mapped.extend(["--map-castling", "king-to-rook"]);
    let run = cvperft(&mapped);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    mapped.extend(["--moves", "e1g1 h3g2"]);
    let run = cvperft(&mapped);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

// ----- engine faults end cleanly -----

fn assert_one_line_error(run: &Run, engine: &str, what: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let line = run.stderr.trim_end();
    assert!(!line.contains('\n'), "more than one line: {line}");
    assert!(line.contains(engine), "engine not named: {line}");
    assert!(line.contains("asked depth"), "request not named: {line}");
    assert!(line.contains(what), "expected {what:?} in: {line}");
}

#[test]
fn engine_not_found() {
    let run = cvperft(&["diff", "2", "--engine", "/nonexistent/engine --flag"]);
    assert_one_line_error(&run, "/nonexistent/engine --flag", "program not found");
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        "/nonexistent/script",
        "--protocol",
        "perftree",
    ]);
    assert_one_line_error(&run, "/nonexistent/script", "program not found");
}

#[test]
fn engine_crashes_mid_output() {
    let uci = format!("{} crash", fixture("uci-faulty"));
    let run = cvperft(&["diff", "2", "--moves", "e2e4", "--engine", &uci]);
    assert_one_line_error(
        &run,
        &uci,
        "crashed mid-output after 2 lines (exit status 3)",
    );
    assert!(
        run.stderr.contains("simulated crash in movegen"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("moves \"e2e4\""), "{}", run.stderr);
    let script = format!("{} crash", fixture("perftree-faulty"));
    let run = cvperft(&["diff", "2", "--engine", &script, "--protocol", "perftree"]);
    assert_one_line_error(&run, &script, "killed by signal 11");
    assert!(run.stderr.contains("segmentation fault"), "{}", run.stderr);
}

fn assert_gone(pidfile: &Path) {
    let text = std::fs::read_to_string(pidfile).expect("the fake engine wrote its pids");
    for pid in text.split_whitespace() {
        // SIGKILL is delivered asynchronously: give a loaded machine a moment to act on it.
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Gone, or a zombie waiting for a parent that does not reap: no longer running.
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            if stat.is_empty() || state == Some("Z") || state == Some("X") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "process {pid} still alive: {stat}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let _ = std::fs::remove_file(pidfile);
}

fn pidfile(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cvperft-test-{}-{name}", std::process::id()))
}

#[test]
fn engine_hangs_and_its_group_is_killed() {
    let pids = pidfile("uci-hang");
    let uci = format!("{} hang {}", fixture("uci-faulty"), pids.display());
    let run = cvperft(&["diff", "2", "--engine", &uci, "--timeout", "0.5"]);
    assert_one_line_error(&run, &uci, "no answer within 500 ms");
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    assert_gone(&pids);

    let pids = pidfile("perftree-hang");
    let script = format!("{} hang {}", fixture("perftree-faulty"), pids.display());
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        &script,
        "--protocol",
        "perftree",
        "--timeout",
        "0.5",
    ]);
    assert_one_line_error(&run, &script, "killed its process group");
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    assert_gone(&pids);

    let silent = format!("{} silent", fixture("uci-faulty"));
    let run = cvperft(&["diff", "2", "--engine", &silent, "--timeout", "0.3"]);
    assert_one_line_error(&run, &silent, "waiting for uciok");
    // A timeout under a millisecond is told as set, not rounded away.
    let run = cvperft(&["diff", "2", "--engine", &silent, "--timeout", "0.0001"]);
    assert_one_line_error(
        &run,
        &silent,
        "no answer within 100 µs while waiting for uciok",
    );
}

#[test]
fn a_uci_engine_has_the_whole_timeout_for_its_first_question_after_the_handshake() {
    // The handshake is a question of its own: it took the first question's time as well, so
    // an engine taking 1 s to start and 1 s to answer failed under `--timeout 1.8` with
    // "no answer within 1.8 s", every time it was restarted.
    let slow = format!("{} slowstart", fixture("uci-faulty"));
    // Under `setsid` the engine is forked out of its group and the process started exits at
    // once: out of reach of the group's kill, the engine's quiet second is read on.
    let moved = format!("setsid {slow}");
    // White's only move is a2a3, the engine's one answer.
    let fen = "kr6/8/8/8/p7/8/P7/K7 w - - 0 1";
    for engine in [&slow, &moved] {
        let run = cvperft(&[
            "diff",
            "1",
            "--fen",
            fen,
            "--engine",
            engine,
            "--timeout",
            "1.8",
        ]);
        let last = run.stdout.lines().last();
        let agreed = (run.code, last);
        let agree = "agree: 1 moves, 1 nodes at depth 1";
        assert_eq!(agreed, (0, Some(agree)), "{engine}: {}", run.stderr);
    }
}

#[test]
fn a_uci_engine_crashing_while_a_child_holds_its_output_is_a_crash() {
    // Its output stayed open, so its crash was waited out to the deadline and told as a
    // time-out, without its exit status or its stderr.
    let pids = pidfile("uci-orphan");
    let uci = format!("{} orphan {}", fixture("uci-faulty"), pids.display());
    let run = cvperft(&["diff", "2", "--engine", &uci, "--timeout", "20"]);
    assert_one_line_error(
        &run,
        &uci,
        "crashed mid-output after 1 line (exit status 3); stderr: fatal: simulated crash in \
         movegen",
    );
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    assert_gone(&pids);
}

#[test]
fn engine_prints_malformed_output() {
    let uci = format!("{} malformed", fixture("uci-faulty"));
    let run = cvperft(&["diff", "2", "--engine", &uci]);
    assert_one_line_error(&run, &uci, "malformed line \"a2a3: one\"");
    let script = format!("{} malformed", fixture("perftree-faulty"));
    let run = cvperft(&["diff", "2", "--engine", &script, "--protocol", "perftree"]);
    assert_one_line_error(&run, &script, "malformed line \"a2a3: 1\"");
    let uci = format!("{} mismatch", fixture("uci-faulty"));
    let run = cvperft(&["diff", "2", "--engine", &uci]);
    assert_one_line_error(&run, &uci, "add up to 2 but it reported a total of 3");
}

#[test]
fn engine_rejects_an_illegal_move() {
    let uci = format!("{} illegal", fixture("uci-faulty"));
    let run = cvperft(&["diff", "2", "--moves", "e2e4", "--engine", &uci]);
    assert_one_line_error(&run, &uci, "rejected a move: Illegal move: e2e4");
    let script = format!("{} illegal", fixture("perftree-faulty"));
    let run = cvperft(&[
        "diff",
        "2",
        "--moves",
        "g1f3",
        "--engine",
        &script,
        "--protocol",
        "perftree",
    ]);
    assert_one_line_error(&run, &script, "rejected a move: illegal move in 'g1f3'");
    // Our own perftree refuses a move the map garbles.
    let ours = format!("{CVPERFT} perftree");
    let run = cvperft(&[
        "diff",
        "2",
        "--moves",
        "e2e4",
        "--engine",
        &ours,
        "--protocol",
        "perftree",
        "--map",
        "e2e4=e2e5",
    ]);
    assert_one_line_error(&run, &ours, "move `e2e5`: not a legal move here");
}

/// A bad `--fen` or `--moves` is the user's mistake, named by its argument as `perft` names it,
/// before any engine starts, with `--against` too: it is read as a position of `-v` whichever
/// engines are compared (two engines reading a chess FEN as chess agreed under `-v cerimon`,
/// and a bad move was told as a crash of the `--against` engine).
#[test]
fn a_bad_root_is_refused_before_any_engine_starts() {
    let dir = support::temp_dir("diff-bad-root");
    let started = dir.join("started");
    // An engine that leaves a mark when it is started.
    let script = dir.join("marking-engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntouch '{}'\nexec '{CVPERFT}' perftree \"$@\"\n",
            started.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let engine = script.display().to_string();
    let chess_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for against in [false, true] {
        let mut extra = vec!["--protocol", "perftree"];
        if against {
            extra.extend(["--against", &engine, "--against-protocol", "perftree"]);
        }
        for (args, told) in [
            (
                vec!["diff", "2", "--moves", "e2e5"],
                "cvperft: --moves: ply 1: move `e2e5`: not a legal move here",
            ),
            (
                vec!["diff", "2", "--moves", "zz"],
                "cvperft: --moves: ply 1: move `zz`, column 1:",
            ),
            (
                vec!["diff", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
                "cvperft: FEN: illegal position: White has 0 royal pieces",
            ),
            (
                vec!["diff", "2", "-v", "cerimon", "--fen", chess_fen],
                "cvperft: FEN board field, column 4: `q` is not a piece of cerimon",
            ),
        ] {
            let mut all = args.clone();
            all.extend(["--engine", &engine]);
            all.extend(extra.iter().copied());
            let run = cvperft(&all);
            assert_eq!(run.code, 2, "{all:?}: {}{}", run.stdout, run.stderr);
            assert!(run.stderr.starts_with(told), "{all:?}: {}", run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(run.stdout.is_empty(), "{all:?}: {}", run.stdout);
            assert!(!started.exists(), "{all:?} started an engine");
        }
    }
    // The mark is left by a good root: the test would see a start.
    let run = cvperft(&["diff", "1", "--engine", &engine, "--protocol", "perftree"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(started.exists());
}

#[test]
fn bad_arguments_are_input_errors() {
    let run = cvperft(&["diff", "0", "--engine", "x"]);
    assert_eq!(run.code, 2);
    let run = cvperft(&["diff", "2", "--engine", "'unclosed"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unclosed"), "{}", run.stderr);
    let run = cvperft(&["diff", "2", "--engine", "x", "--moves", "e2e5"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("e2e5"), "{}", run.stderr);
    let run = cvperft(&["diff", "2", "--engine", "x", "--timeout", "-1"]);
    assert_eq!(run.code, 2);
    // A line break in what is sent as one line would be a command of its own (`quit` here,
    // which was told as the engine "ended without answering"); in the FEN too, which with
    // --against nothing of ours reads first.
    let shim = format!("{} {CVPERFT} perftree", fixture("uci-shim"));
    let fen = format!("{POSITION_3}\nquit");
    for (flag, value) in [
        ("--engine-option", "Hash=1\nquit"),
        ("--engine-variant", "chess\nquit"),
        ("--map", "e2e4=e2e4\nquit"),
        ("--fen", &fen),
    ] {
        let run = cvperft(&[
            "diff",
            "1",
            "--engine",
            &shim,
            "--against",
            &shim,
            flag,
            value,
        ]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        let told = format!("cvperft: {flag} {value:?}: a line break or other control character");
        assert!(run.stderr.starts_with(&told), "{}", run.stderr);
    }
    let run = cvperft(&["perftree", "2", POSITION_3, "--inject", "nonsense"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no-en-passant"), "{}", run.stderr);
}

// ----- identify -----

#[test]
fn identify_reports_where_an_engine_departs() {
    let good = format!("{CVPERFT} perftree");
    let run = cvperft(&["identify", "--engine", &good, "--protocol", "perftree"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("game-end: undecided"), "{}", run.stdout);

    let bad = injected("no-en-passant");
    let run = cvperft(&["identify", "--engine", &bad, "--protocol", "perftree"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("game-end: matches none"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("departs at probe `kiwipete`"),
        "{}",
        run.stdout
    );
    assert_eq!(field(&run.stdout, "path"), "a2a4");
    assert_eq!(field(&run.stdout, "missing"), "b4a3");
}

/// An engine that refuses every probe (a chess engine asked about Cerimon) was tested on
/// nothing: exit 2, naming the first refusal. It gave exit 1 and a "closest" reading of each
/// option, as though it had answered.
#[test]
fn identify_refuses_an_engine_that_answered_no_probe() {
    let chess_only = format!("{CVPERFT} perftree");
    let run = cvperft(&[
        "identify",
        "-v",
        "cerimon",
        "--engine",
        &chess_only,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("closest"), "{}", run.stdout);
    assert!(
        run.stderr.starts_with("cvperft: the engine refused all ")
            && run
                .stderr
                .contains("so it was tested on nothing (the first, `start`: ")
            && run.stderr.contains("is not a piece of chess"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// A probe file with no probes, and no suites to add any: nothing to ask, exit 2 before the
/// engine starts (it said "identify chess with 0 probes", every option undecided, exit 0).
#[test]
fn identify_with_no_probes_is_refused() {
    let dir = std::env::temp_dir().join(format!("cvperft-no-probes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let empty = dir.join("empty.yaml");
    std::fs::write(&empty, "variant: chess\nprobes: []\n").expect("probe file");
    let run = cvperft(&[
        "identify",
        "--engine",
        "/nonexistent/engine",
        "--probes",
        empty.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "cvperft: identify chess: {} lists no probes: with nothing to ask, the engine would \
             be tested on nothing\n",
            empty.display()
        )
    );
    assert_eq!(run.stdout, "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine whose count of a2a3 is wrong at depth 3 only (its divide below a2a3 agrees)
/// departs at the start probe with equal move lists everywhere: the departure names the count
/// that differs. It used to show a path, no missing and no extra move, and nothing else.
#[test]
fn identify_names_the_count_when_the_moves_agree() {
    let engine = format!("{} {CVPERFT}", fixture("perftree-faulty plusone"));
    let run = cvperft(&["identify", "--engine", &engine, "--protocol", "perftree"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("departs at probe `start`"),
        "{}",
        run.stdout
    );
    assert_eq!(field(&run.stdout, "path"), "a2a3");
    assert_eq!(
        field(&run.stdout, "count"),
        "a2a3 380 (reference) vs 381 (engine) at depth 3, but the divides after it agree"
    );
}

/// For every variant, option and value: an engine configured with that reading is identified
/// as having it (or, where the probe file says no divide can tell, as undecided), and no other
/// option is reported as matching none. The probe files must keep up with the options.
#[test]
fn identify_names_every_reading_of_every_variant() {
    use cvperft::engine::identify::{load_probes, option_values};
    for variant in cvperft::variants::IDS {
        let rules = cvperft::variants::rules(variant).expect("registered");
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/identify")
            .join(format!("{variant}.yaml"));
        let file = load_probes(&path, rules).unwrap_or_else(|e| panic!("{e}"));
        for (option, values) in option_values(&rules) {
            for value in &values {
                let engine = format!("{CVPERFT} perftree -v {variant} -o {option}={value}");
                let run = cvperft(&[
                    "identify",
                    "-v",
                    variant,
                    "--engine",
                    &engine,
                    "--protocol",
                    "perftree",
                ]);
                let context = format!("{variant} {option}={value}:\n{}{}", run.stdout, run.stderr);
                assert_eq!(run.code, 0, "{context}");
                let line = run
                    .stdout
                    .lines()
                    .find(|l| l.starts_with(&format!("{option}: ")))
                    .unwrap_or_else(|| panic!("no verdict for {option}: {context}"));
                let expected = if file.undecidable.contains_key(&option) {
                    format!("{option}: undecided")
                } else {
                    format!("{option}: {value}  ")
                };
                assert!(line.starts_with(&expected), "{context}");
                assert!(!run.stdout.contains("matches none"), "{context}");
            }
        }
    }
}

// ----- Stockfish -----

fn stockfish() -> bool {
    if Path::new(STOCKFISH).exists() {
        true
    } else {
        support::tool_missing(
            "stockfish",
            &format!("stockfish is not installed ({STOCKFISH})"),
        );
        false
    }
}

fn agrees_with_stockfish(fen: &str, depth: &str, moves: Option<&str>) {
    let mut args = vec!["diff", depth, "--fen", fen, "--engine", STOCKFISH];
    if let Some(m) = moves {
        args.extend(["--moves", m]);
    }
    let run = cvperft(&args);
    assert_eq!(run.code, 0, "{fen}: {}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("agree:"), "{}", run.stdout);
}

#[test]
fn stockfish_agrees_on_the_start_position() {
    if !stockfish() {
        return;
    }
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    agrees_with_stockfish(start, "4", None);
    agrees_with_stockfish(start, "3", Some("e2e4 d7d5 e4e5 f7f5"));
}

#[test]
fn stockfish_agrees_on_kiwipete() {
    if !stockfish() {
        return;
    }
    agrees_with_stockfish(KIWIPETE, "3", None);
}

#[test]
fn stockfish_agrees_on_en_passant_and_promotion_positions() {
    if !stockfish() {
        return;
    }
    agrees_with_stockfish(POSITION_3, "4", None);
    agrees_with_stockfish(POSITION_4, "3", None);
    agrees_with_stockfish(POSITION_5, "3", None);
}

#[test]
fn stockfish_against_a_faulty_engine() {
    if !stockfish() {
        return;
    }
    let bad = injected("castle-through-check");
    let run = cvperft(&[
        "diff",
        "3",
        "--fen",
        KIWIPETE,
        "--engine",
        &bad,
        "--protocol",
        "perftree",
        "--against",
        STOCKFISH,
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(field(&run.stdout, "path"), "a1b1 a6e2");
    assert_eq!(moves(&run.stdout, "extra"), "e1g1");
}

#[test]
fn stockfish_options_are_sent_and_checked() {
    if !stockfish() {
        return;
    }
    let run = cvperft(&[
        "diff",
        "3",
        "--engine",
        STOCKFISH,
        "--engine-option",
        "Hash=32",
        "--engine-option",
        "Threads=1",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        STOCKFISH,
        "--engine-option",
        "Hsh=16",
    ]);
    assert_one_line_error(&run, STOCKFISH, "No such option: Hsh");
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        STOCKFISH,
        "--engine-variant",
        "atomic",
    ]);
    assert_one_line_error(&run, STOCKFISH, "declares no UCI_Variant option");
}

// ----- Fairy-Stockfish through pyffish -----

fn pyffish() -> Option<String> {
    let script = fixture("pyffish-perftree");
    let importable = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success());
    if importable && Path::new(&script).exists() {
        Some(script)
    } else {
        support::tool_missing(
            "pyffish",
            "pyffish is not installed (python3 -m pip install pyffish), or its perftree script is missing",
        );
        None
    }
}

#[test]
fn pyffish_agrees_on_the_variants_it_can_express() {
    let Some(script) = pyffish() else {
        return;
    };
    // Plutonian and Pink Panther cannot be written as Fairy-Stockfish variants; Cerimon's
    // resurrection cannot either, but it needs a lost piece and a check, not found in 3 plies.
    for variant in ["chess", "silver-elephant", "bachelor-kamil", "cerimon"] {
        let engine = format!("{script} --variant {variant}");
        let run = cvperft(&[
            "diff",
            "3",
            "-v",
            variant,
            "--engine",
            &engine,
            "--protocol",
            "perftree",
        ]);
        assert_eq!(run.code, 0, "{variant}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("agree:"), "{}", run.stdout);
    }
}

#[test]
fn pyffish_reading_of_the_bare_king() {
    let Some(script) = pyffish() else {
        return;
    };
    // RULES.md SE-6 names `one-reply` as Fairy-Stockfish's reading.
    let engine = format!("{script} --variant silver-elephant");
    let run = cvperft(&[
        "identify",
        "-v",
        "silver-elephant",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("\nbare-king: one-reply  "),
        "{}",
        run.stdout
    );
    // Whatever it implements of another variant's disputed rules, identify answers for every
    // option without failing.
    let engine = format!("{script} --variant cerimon");
    let run = cvperft(&[
        "identify",
        "-v",
        "cerimon",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ]);
    assert!(
        run.code == 0 || run.code == 1,
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(run.stdout.contains("resurrect-by: "), "{}", run.stdout);
    assert!(run.stdout.contains("game-end: "), "{}", run.stdout);
}

/// A `--map` that gives two legal moves one spelling (`e7e8q=a1b1` while the King may go to
/// b1) is refused before the engine is asked, exit 2: the engine's `a1b1` was read as our
/// a1b1 and its `e7e8q` as our e7e8q, so `diff` said they agreed (exit 0) although under the
/// map the engine gave e7e8q 3 leaves where ours has 2.
#[test]
fn a_map_spelling_two_legal_moves_alike_is_refused() {
    let engine = format!("{CVPERFT} perftree");
    let fen = "k7/4P3/8/8/8/8/8/K7 w - - 0 1";
    let flags = ["--protocol", "perftree", "--map", "e7e8q=a1b1"];
    let run = diff_with("2", fen, &engine, &flags);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("the spelling map gives the legal moves a1b1 and e7e8q one spelling, `a1b1`"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

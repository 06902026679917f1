//! Limits of the command line: absurd depths, huge `--moves` lists, overlong FEN and move text,
//! 20-digit numbers. Each must end at once with exit 2 and a one-line cause, or run within a
//! small budget; none may exhaust memory.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `cvperft` with `args`; returns its output and how long it took.
fn cvperft(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run cvperft");
    (out, start.elapsed())
}

/// Asserts exit 2 with one line on stderr containing `fragment`, within `budget`.
fn assert_refused(args: &[&str], fragment: &str, budget: Duration) {
    let (out, took) = cvperft(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.chars().take(60).collect::<String>())
        .collect();
    assert_eq!(out.status.code(), Some(2), "{shown:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{shown:?}: {stderr}");
    assert!(stderr.starts_with("cvperft: "), "{shown:?}: {stderr}");
    assert!(stderr.contains(fragment), "{shown:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{shown:?}: {stderr}");
    assert!(took < budget, "{shown:?} took {took:?}");
}

/// Asserts success within `budget`; returns stdout.
fn assert_runs(args: &[&str], budget: Duration) -> String {
    let (out, took) = cvperft(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(took < budget, "took {took:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const QUICK: Duration = Duration::from_secs(5);

/// A knight shuffle of `plies` legal moves from the start: Nf3 Nf6 Ng1 Ng8, repeated.
fn knight_shuffle(plies: usize) -> String {
    ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn absurd_depths_are_refused_at_once() {
    assert_refused(&["perft", "99"], "depth 99 is above the limit of 15", QUICK);
    assert_refused(&["divide", "16"], "depth 16 is above the limit", QUICK);
    assert_refused(
        &["perft", "4294967295", "-v", "pink-panther"],
        "depth 4294967295 is above the limit",
        QUICK,
    );
    assert_refused(
        &["perft", "4294967296"],
        "invalid value '4294967296'",
        QUICK,
    );
    assert_refused(
        &["perft", "12345678901234567890"],
        "invalid value '12345678901234567890'",
        QUICK,
    );
}

#[test]
fn ten_thousand_and_one_moves_are_refused() {
    let moves = knight_shuffle(10_001);
    assert_refused(
        &["perft", "1", "--moves", &moves],
        "--moves: 10001 moves, at most 10000 are accepted",
        QUICK,
    );
    assert_refused(
        &[
            "perftree",
            "1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &moves,
        ],
        "moves: 10001 moves, at most 10000 are accepted",
        QUICK,
    );
}

#[test]
fn a_game_of_two_thousand_moves_is_played() {
    let moves = knight_shuffle(2_000);
    let fen = assert_runs(&["fen", "--moves", &moves], Duration::from_secs(30));
    assert_eq!(
        fen.lines().next(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2000 1001")
    );
    let count = assert_runs(&["perft", "2", "--moves", &moves], Duration::from_secs(30));
    assert_eq!(count.trim(), "400");
}

#[test]
fn the_largest_accepted_move_list_is_played() {
    let moves = knight_shuffle(10_000);
    let fen = assert_runs(&["fen", "--moves", &moves], Duration::from_secs(60));
    assert_eq!(
        fen.lines().next(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001")
    );
}

#[test]
fn counters_stay_readable_past_the_fen_limit() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99990 99990";
    let out = assert_runs(&["fen", fen, "--moves", &knight_shuffle(40)], QUICK);
    let reached = out.lines().next().expect("a FEN");
    assert!(reached.ends_with(" 99999 99999"), "{reached}");
    assert_runs(&["fen", reached], QUICK);
}

#[test]
fn overlong_fen_is_refused() {
    let long = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r".repeat(100_000)
    );
    assert_refused(&["fen", &long], "longer than 512 characters", QUICK);
    assert_refused(
        &["perft", "1", "--fen", &long],
        "longer than 512 characters",
        QUICK,
    );
    let many_ranks = format!("{} w - - 0 1", vec!["8"; 10_000].join("/"));
    assert_refused(&["fen", &many_ranks], "longer than 512 characters", QUICK);
}

#[test]
fn overlong_move_text_is_refused() {
    let long = "e2e4".repeat(25_000);
    // The length is the whole token's: no column (it said `column 1`).
    assert_refused(
        &["perft", "1", "--moves", &long],
        "` (100000 characters): longer than 64 characters",
        QUICK,
    );
    let commas = ",".repeat(100_000);
    assert_refused(
        &["perft", "1", "--moves", &commas],
        "longer than 64 characters",
        QUICK,
    );
    // Nine thousand bad moves: refused at the first.
    let junk = vec!["zz"; 9_000].join(" ");
    assert_refused(&["perft", "1", "--moves", &junk], "ply 1", QUICK);
}

#[test]
fn twenty_digit_numbers_are_refused() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let big = "12345678901234567890";
    for (fen, fragment) in [
        (format!("{board} w KQkq - {big} 1"), "FEN halfmove field"),
        (format!("{board} w KQkq - 0 {big}"), "FEN fullmove field"),
        (format!("{board} w KQkq e{big} 0 1"), "FEN en-passant field"),
        (
            format!("{big}/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "rank 8 has more than 8 files",
        ),
        (
            format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{big}] w KQkq - 0 1"),
            "FEN hand field",
        ),
    ] {
        assert_refused(&["fen", &fen], fragment, QUICK);
    }
    assert_refused(
        &["perft", "1", "--moves", &format!("e2e{big}")],
        "is not a coordinate move",
        QUICK,
    );
    assert_refused(
        &[
            "perft",
            "2",
            "--split",
            "1",
            "--shard",
            &format!("1/{big}{big}"),
        ],
        "expected K/N",
        QUICK,
    );
    assert_refused(
        &["perft", "1", "--threads", big],
        "--threads 12345678901234567890: expected 1 to 256",
        QUICK,
    );
}

/// Runs `cvperft` under a 2 GiB address-space limit (a stand-in for a machine without the
/// memory asked for), so a runaway allocation fails instead of exhausting the machine.
#[cfg(unix)]
fn cvperft_in_two_gib(args: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 2097152 && exec \"$0\" {args}"))
        .arg(env!("CARGO_BIN_EXE_cvperft"))
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run cvperft under sh")
}

#[cfg(unix)]
#[test]
fn hash_table_too_large_for_memory_is_an_input_error() {
    let out = cvperft_in_two_gib("perft 1 --hash 8192");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[cfg(unix)]
#[test]
fn deep_split_is_refused_or_bounded() {
    // Paths are streamed (memory proportional to the split depth); a shard that would hold
    // more than a million paths is refused before it is computed.
    let out = cvperft_in_two_gib("perft 8 --split 6 --shard 1/2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("would hold more than 1000000 paths"),
        "{stderr}"
    );
}

/// Asserts exit 2 with one short line on stderr holding `fragment` and the length of the
/// text that was cut: the library bounded the echo, not the binary's last-resort cut of long
/// words (`...(N characters)...`), which would also have cut what follows the name.
fn assert_echo_bounded(args: &[&str], fragment: &str, length: usize) {
    let (out, _) = cvperft(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let head: String = stderr.chars().take(300).collect();
    assert_eq!(out.status.code(), Some(2), "{head}");
    assert_eq!(stderr.lines().count(), 1, "{head}");
    // Bounded up to the cut; what follows it lists the variants or rulings the message
    // offers, which grows with every variant (a seventh pushed a 400-byte bound on the whole
    // line over).
    let mark = format!("({length} characters)");
    let echoed = stderr
        .find(&mark)
        .map_or(stderr.len(), |at| at + mark.len());
    assert!(echoed < 300, "{echoed} bytes up to the cut: {head}");
    assert!(stderr.len() < 1000, "{} bytes: {head}", stderr.len());
    assert!(stderr.contains(fragment), "{head}");
    assert!(
        stderr.contains(&format!("…` ({length} characters)"))
            || stderr.contains(&format!("…' ({length} characters)"))
            || stderr.contains(&format!("…\" ({length} characters)")),
        "{head}"
    );
    assert!(!stderr.contains("...("), "{head}");
}

#[test]
fn a_long_name_is_echoed_in_short_with_its_length() {
    let long = "x".repeat(100_000);
    // Words apart: the binary's cut of long words did not apply, and the list of variants
    // fell past its cut of long lines.
    let words = "ab ".repeat(3000);
    let variants =
        "(variants: chess, silver-elephant, bachelor-kamil, cerimon, plutonian, pink-panther)";
    assert_echo_bounded(&["perft", "3", "-v", &long], variants, 100_000);
    assert_echo_bounded(&["perft", "3", "-v", &words], variants, 9000);
    assert_echo_bounded(&["check", "--variant", &long], variants, 100_000);
    assert_echo_bounded(
        &["check", "--rule", &words],
        "--rule: no variant cites ruling `ab ab",
        9000,
    );
    assert_echo_bounded(
        &["perft", "1", "-o", &format!("{long}=1")],
        "(options: game-end)",
        100_000,
    );
    assert_echo_bounded(
        &["perft", "1", "-o", &format!("game-end={long}")],
        "(expected rules or movegen)",
        100_000,
    );
    assert_echo_bounded(
        &["check", "--shard", &long],
        "is not of the form K/N",
        100_000,
    );
    assert_echo_bounded(
        &["check", "--format", &long],
        "[possible values: human, json",
        100_000,
    );
    assert_echo_bounded(
        &["perft", "1", &format!("--{long}")],
        "unexpected argument '--xxx",
        100_002,
    );
    assert_echo_bounded(
        &["divide", "1", "--moves", &long],
        "longer than 64 characters",
        100_000,
    );
    // A suite's `variant:` and a record's `[Variant]` tag.
    let dir = std::env::temp_dir().join(format!("cvperft-limits-echo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let suite = dir.join("long.yaml");
    std::fs::write(
        &suite,
        format!(
            "variant: {long}\ndescription: x\ngame-end: rules\ncases:\n  - id: a\n    \
             perft: {{1: 20}}\n    source: {{kind: hand, derivation: x}}\n"
        ),
    )
    .expect("suite");
    assert_echo_bounded(&["check", suite.to_str().unwrap()], variants, 100_000);
    let record = dir.join("long.pgn");
    std::fs::write(&record, format!("[Variant \"{long}\"]\n\n1. e4 e5 *\n")).expect("record");
    assert_echo_bounded(&["game", record.to_str().unwrap()], variants, 100_000);
    let _ = std::fs::remove_dir_all(&dir);
}

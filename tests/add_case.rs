//! `cvperft add-case` run as a user runs it: the built binary on copies of real suite files.
//!
//! Every test works on a copy in `CARGO_TARGET_TMPDIR`: the suites under `suites/` and the
//! fixture under `fixtures/games/` are never written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_cvperft")
}

fn cvperft(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Its standard output, once the run is seen to have succeeded.
fn succeeded(o: &Output) -> String {
    assert_eq!(code(o), 0, "{}", text(&o.stderr));
    text(&o.stdout)
}

/// Its standard error, once the run is seen to have been refused (exit 2).
fn refused(o: &Output) -> String {
    assert_eq!(code(o), 2, "{}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stderr)
}

/// A fresh, empty scratch directory.
fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("add_case-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A copy of `source` (relative to the package root) in a fresh scratch directory.
fn copy(test: &str, source: &str) -> (PathBuf, Vec<u8>) {
    let dir = scratch(test);
    let bytes = std::fs::read(root().join(source)).expect("source suite");
    let name = Path::new(source).file_name().expect("file name");
    let path = dir.join(name);
    std::fs::write(&path, &bytes).expect("copy");
    (path, bytes)
}

fn check_passes(path: &Path) {
    let o = cvperft(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(
        code(&o),
        0,
        "check failed:\n{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

/// `add-case --suite PATH --moves MOVES --depth 1`.
fn add_at_depth_1(path: &Path, moves: &str) -> Output {
    let suite = path.to_str().expect("utf-8 path");
    cvperft(&[
        "add-case", "--suite", suite, "--moves", moves, "--depth", "1",
    ])
}

const GAME: &str = "fixtures/games/silver-elephant-en-passant.txt";
const SE_SUITE: &str = "fixtures/games/silver-elephant.yaml";

#[test]
fn appending_keeps_every_byte_and_the_suite_still_checks() {
    let (path, before) = copy("append-chess", "suites/chess.yaml");
    let p = path.to_str().unwrap();
    let o = cvperft(&[
        "add-case",
        "--suite",
        p,
        "-v",
        "chess",
        "--moves",
        "1. e2-e4 e7-e5 2. g1-f3+ {!}",
        "--depth",
        "2",
        "--rule",
        "GE-1",
        "--divide",
    ]);
    succeeded(&o);
    assert!(
        text(&o.stdout).contains("added case `chess-ply-3`"),
        "{}",
        text(&o.stdout)
    );
    let after = std::fs::read(&path).unwrap();
    assert!(
        after.starts_with(&before),
        "the original bytes are a prefix"
    );
    let added = text(&after[before.len()..]);
    assert!(added.contains("moves: \"e2e4 e7e5 g1f3\""), "{added}");
    assert!(added.contains("cross-check: none"), "{added}");
    assert!(added.contains("FEN reached: "), "{added}");
    check_passes(&path);
}

#[test]
fn a_file_without_final_newline_and_a_game_on_stdin() {
    let (path, mut before) = copy("no-newline", SE_SUITE);
    while before.last() == Some(&b'\n') {
        before.pop();
    }
    std::fs::write(&path, &before).unwrap();
    let mut child = Command::new(bin())
        .args([
            "add-case",
            "--suite",
            path.to_str().unwrap(),
            "-v",
            "silver-elephant",
            "--game",
            "-",
            "--depth",
            "2",
            "--at-ply",
            "4",
        ])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let game = std::fs::read(root().join(GAME)).unwrap();
    child.stdin.take().unwrap().write_all(&game).unwrap();
    let o = child.wait_with_output().unwrap();
    succeeded(&o);
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    assert!(text(&after).contains("moves: \"f2f4 e7e5 c1c3 h8h6\""));
    check_passes(&path);
}

#[test]
fn a_suite_in_crlf_gets_its_case_in_crlf() {
    let (path, lf) = copy("crlf", "suites/chess.yaml");
    // Its first line in LF (as a tool rewriting the schema line may leave it), every other in
    // CRLF: the line break was taken from the first line alone.
    let crlf = text(&lf).replace('\n', "\r\n");
    let first = crlf.find("\r\n").unwrap();
    let before = format!("{}\n{}", &crlf[..first], &crlf[first + 2..]).into_bytes();
    std::fs::write(&path, &before).unwrap();
    let o = add_at_depth_1(&path, "e2e4 e7e5 g1f3");
    succeeded(&o);
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    // Every line of the case ends as the suite's do: it was added in LF.
    let added = text(&after[before.len()..]);
    assert!(added.contains("moves: \"e2e4 e7e5 g1f3\"\r\n"), "{added:?}");
    assert_eq!(
        added.matches('\n').count(),
        added.matches("\r\n").count(),
        "{added:?}"
    );
    check_passes(&path);
}

#[test]
fn a_note_keeps_the_characters_yaml_reads_as_line_breaks() {
    let (path, _) = copy("note-breaks", "suites/chess.yaml");
    // Written unescaped in the quoted note, YAML folded NEL into a space and the spaces after
    // it away: the note read back was not the one given. DEL, the other C1 controls and
    // U+FFFE it refuses to read: the case was refused with a message about block scalars.
    let note = "a\u{85}  b\u{2028}c\u{2029}d\u{7f}e\u{9b}f\u{fffe}g\u{feff}h";
    let suite = path.to_str().unwrap();
    let o = cvperft(&[
        "add-case", "--suite", suite, "--moves", "d2d4", "--depth", "1", "--note", note,
    ]);
    succeeded(&o);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("note: \"a\\u0085  b\\u2028c\\u2029d\\u007fe\\u009bf\\ufffeg\\ufeffh. FEN"),
        "{after}"
    );
    let yaml: serde_yaml::Value = serde_yaml::from_str(&after).unwrap();
    let added = yaml["cases"].as_sequence().and_then(|c| c.last()).unwrap();
    let read = added["note"].as_str().unwrap();
    assert!(
        read.starts_with(&format!("{note}. FEN reached: ")),
        "{read:?}"
    );
    check_passes(&path);
}

#[test]
fn a_case_that_would_take_the_suite_past_its_size_limit_is_refused() {
    let (path, suite) = copy("size-limit", "suites/chess.yaml");
    // Comment lines up to just under the 8 MiB a suite is read up to: the case was added with
    // exit 0, and every later read of the suite refused it as too large.
    let limit = 8 << 20;
    let line = format!("# {}\n", "x".repeat(97));
    let mut before = line
        .repeat((limit - suite.len() - 100) / line.len())
        .into_bytes();
    before.extend_from_slice(&suite);
    std::fs::write(&path, &before).unwrap();
    check_passes(&path);
    let o = add_at_depth_1(&path, "e2e4 e7e5 g1f3");
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(
            "bytes, larger than the limit of 8388608 bytes a suite is read up to; add the case \
             to another suite"
        ),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn cases_before_another_top_level_key() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("add_case-middle");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("middle.yaml");
    let original = "variant: chess\ncases:\n  - id: start\n    perft: {1: 20}\n    source: \
                    {kind: hand, derivation: \"16 pawn moves, 4 knight moves\"}\n# the suite \
                    keys follow\ndescription: cases first\ngame-end: rules\n";
    std::fs::write(&path, original).unwrap();
    let o = add_at_depth_1(&path, "e2e4");
    succeeded(&o);
    let after = std::fs::read_to_string(&path).unwrap();
    let at = after.find("  - id: middle-ply-1").expect("added");
    assert!(
        at < after.find("# the suite keys follow").unwrap(),
        "{after}"
    );
    assert!(after.ends_with("description: cases first\ngame-end: rules\n"));
    check_passes(&path);
}

#[test]
fn an_illegal_move_names_the_ply_and_leaves_the_file() {
    let (path, before) = copy("illegal", "suites/chess.yaml");
    let o = cvperft(&[
        "add-case",
        "--suite",
        path.to_str().unwrap(),
        "--moves",
        "1. e2-e4 e7-e5 2. e4-e5",
        "--depth",
        "1",
    ]);
    assert_eq!(code(&o), 2);
    let err = text(&o.stderr);
    assert!(err.contains("ply 3 `e4-e5`"), "{err}");
    assert!(err.contains("legal: "), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn duplicates_are_refused_and_leave_the_file() {
    let (path, before) = copy("duplicate", "suites/chess.yaml");
    let p = path.to_str().unwrap();
    let o = cvperft(&[
        "add-case", "--suite", p, "--moves", "e2e4", "--id", "kiwipete", "--depth", "1",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("case `kiwipete` already exists"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // The start position with the suite's options is the `start` case.
    let o = cvperft(&[
        "add-case", "--suite", p, "--moves", "", "--id", "again", "--depth", "1",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("case `start` already has this position"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn dry_run_prints_the_case_and_writes_nothing() {
    let (path, before) = copy("dry-run", SE_SUITE);
    let o = cvperft(&[
        "add-case",
        "--suite",
        path.to_str().unwrap(),
        "--game",
        GAME,
        "--depth",
        "2",
        "--dry-run",
    ]);
    succeeded(&o);
    let out = text(&o.stdout);
    assert!(out.starts_with("  - id: silver-elephant-ply-9\n"), "{out}");
    assert!(out.contains("kind: reference"), "{out}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left behind");
}

#[test]
fn a_disputed_case_records_both_expectations() {
    let (path, before) = copy("disputed", SE_SUITE);
    let engine = format!(
        "{} perftree -v silver-elephant --inject no-en-passant",
        bin()
    );
    let o = cvperft(&[
        "add-case",
        "--suite",
        path.to_str().unwrap(),
        "-v",
        "silver-elephant",
        "--game",
        GAME,
        "--at-ply",
        "6",
        "--depth",
        "2",
        "--rule",
        "SE-3",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--divide",
        "--note",
        "Black's engine refused e5xd6 here",
    ]);
    succeeded(&o);
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    let added = text(&after[before.len()..]);
    // The note and the FEN are two sentences; the reason names only the side with moves (it
    // used to end "and the engine has - that the reference lacks").
    assert!(
        added.contains("Black's engine refused e5xd6 here. FEN reached: "),
        "{added}"
    );
    assert!(
        added.contains("there the reference has e5d6 that the engine lacks.\""),
        "{added}"
    );
    assert!(!added.contains(" - that"), "{added}");
    assert!(added.contains("perft: {1: 41, 2: 1711}"), "{added}");
    assert!(added.contains("status: disputed"), "{added}");
    assert!(added.contains("perft: {1: 40, 2: 1666}"), "{added}");
    assert!(
        added.contains("e5d6"),
        "the first difference is named: {added}"
    );
    check_passes(&path);
}

/// An engine whose totals agree with ours but which gives two root moves each other's counts,
/// while its divide after either agrees: the reason says so instead of listing no moves
/// lacking on either side.
#[test]
fn a_dispute_in_the_counts_per_move_alone_is_described_as_such() {
    let (path, _) = copy("swapped", SE_SUITE);
    let dir = path.parent().unwrap().to_path_buf();
    let engine = dir.join("swap.sh");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\no=$('{}' perftree \"$@\")\n\
             a=$(printf '%s\\n' \"$o\" | awk '$1==\"a2a3\"{{print $2}}')\n\
             h=$(printf '%s\\n' \"$o\" | awk '$1==\"d1h5\"{{print $2}}')\n\
             printf '%s\\n' \"$o\" | awk -v a=\"$a\" -v h=\"$h\" \
             '$1==\"a2a3\"{{print \"a2a3\",h;next}} $1==\"d1h5\"{{print \"d1h5\",a;next}}{{print}}'\n",
            bin()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let chess = dir.join("chess.yaml");
    std::fs::write(
        &chess,
        "variant: chess\ndescription: t\ngame-end: rules\ncases:\n  - id: a\n    perft: {1: 20}\n    source: {kind: hand, derivation: x}\n",
    )
    .unwrap();
    let o = cvperft(&[
        "add-case",
        "--suite",
        chess.to_str().unwrap(),
        "--moves",
        "e2e4 e7e5",
        "--depth",
        "2",
        "--dry-run",
        "--protocol",
        "perftree",
        "--engine",
        engine.to_str().unwrap(),
    ]);
    succeeded(&o);
    let out = text(&o.stdout);
    assert!(out.contains("status: disputed"), "{out}");
    assert!(
        out.contains("(at N = 2: the totals agree, 835, but not the counts per move)"),
        "{out}"
    );
    assert!(
        out.contains("the engine counts a2a3 as 26 where the reference counts 29, yet its divide after a2a3 agrees"),
        "{out}"
    );
}

#[test]
fn a_record_whose_fen_tag_is_mistyped_adds_no_case() {
    // `[FEN ...]` without quotes used to be passed over as no tag: the game replayed from the
    // usual start, and the start's counts went into the suite with exit 0.
    let (suite, before) = copy("mistyped-fen", "suites/chess.yaml");
    let dir = suite.parent().expect("scratch dir");
    let game = dir.join("mistyped.pgn");
    std::fs::write(
        &game,
        "[Event \"x\"]\n[FEN 4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1]\n\n1. e4 e5 *\n",
    )
    .expect("game");
    let o = cvperft(&[
        "add-case",
        "--suite",
        suite.to_str().expect("utf-8 path"),
        "--game",
        game.to_str().expect("utf-8 path"),
        "--depth",
        "2",
        "--id",
        "mistyped",
    ]);
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(
            "line 2, column 1: `[FEN 4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1]` is not a tag pair"
        ),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(
        std::fs::read(&suite).expect("suite"),
        before,
        "the suite is untouched"
    );
}

/// `add-case --suite PATH --create` with `args`.
fn create(path: &Path, args: &[&str]) -> Output {
    let suite = path.to_str().expect("utf-8 path");
    cvperft(&[&["add-case", "--suite", suite, "--create"], args].concat())
}

/// The Silver Elephant game cut at ply 6, at depth 2.
const AT_PLY_6: [&str; 8] = [
    "--game", GAME, "--at-ply", "6", "--depth", "2", "--rule", "SE-3",
];

/// `add-case --create` of the Silver Elephant game cut at ply 6, with `extra`.
fn create_at_ply_6(path: &Path, extra: &[&str]) -> Output {
    create(path, &[&AT_PLY_6[..], extra].concat())
}

/// `add-case --create` of the Silver Elephant PGN (which names its variant) with `extra`.
fn create_from_pgn(path: &Path, extra: &[&str]) -> Output {
    let pgn = ["--game", "fixtures/records/silver-elephant/game.pgn"];
    create(
        path,
        &[&pgn[..], &["--at-ply", "13", "--depth", "1"], extra].concat(),
    )
}

/// The ids of the cases in the suite text `suite` (block style, as add-case writes).
fn case_ids(suite: &str) -> Vec<&str> {
    suite
        .lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .collect()
}

#[test]
fn create_starts_a_new_suite_that_checks() {
    let dir = scratch("create");
    let path = dir.join("disputes.yaml");
    let out = succeeded(&create_at_ply_6(&path, &["-v", "silver-elephant"]));
    assert_eq!(
        out,
        format!(
            "created {} with case `disputes-ply-6`: perft 1: 41, 2: 1711\n",
            path.display()
        )
    );
    let suite = std::fs::read_to_string(&path).expect("created");
    assert!(
        suite.starts_with("# Silver Elephant Chess: positions from disputed games.\n"),
        "{suite}"
    );
    for line in [
        "\nvariant: silver-elephant\ndescription: >\n  Silver Elephant Chess: positions",
        "\ngame-end: rules\noptions: {}\ncases:\n  - id: disputes-ply-6\n",
        "\n    moves: \"f2f4 e7e5 c1c3 h8h6 f4e5 d7d5\"\n",
        "\n    rules: [SE-3]\n    perft: {1: 41, 2: 1711}\n",
        "\n      kind: reference\n",
    ] {
        assert!(suite.contains(line), "{line:?} in {suite}");
    }
    assert_eq!(case_ids(&suite), ["disputes-ply-6"]);
    // Only the suite: no temporary file, and no lock file (creating takes no lock).
    assert_eq!(listing(&dir), ["disputes.yaml"]);
    check_passes(&path);
    // The next case goes into the new suite as into any other.
    succeeded(&add_at_depth_1(&path, "f2f4 e7e5"));
    let grown = std::fs::read_to_string(&path).expect("suite");
    assert!(grown.starts_with(&suite), "the created text is kept");
    assert_eq!(case_ids(&grown), ["disputes-ply-6", "disputes-ply-2"]);
    check_passes(&path);
}

#[test]
fn a_missing_suite_without_create_is_refused_naming_the_flag() {
    let dir = scratch("missing");
    let path = dir.join("typo.yaml");
    let plain = ["-v", "silver-elephant"];
    for extra in [&plain[..], &[&plain[..], &["--dry-run"]].concat()] {
        let mut args = vec!["add-case", "--suite", path.to_str().unwrap()];
        args.extend_from_slice(&["--game", GAME, "--depth", "1"]);
        args.extend_from_slice(extra);
        assert_eq!(
            refused(&cvperft(&args)),
            format!(
                "cvperft: {}: no such file; to start a new suite there, add --create\n",
                path.display()
            )
        );
    }
    assert!(listing(&dir).is_empty(), "{:?}", listing(&dir));
}

#[test]
fn create_dry_run_prints_the_whole_suite_and_creates_nothing() {
    let dir = scratch("create-dry-run");
    let path = dir.join("disputes.yaml");
    let printed = succeeded(&create_at_ply_6(
        &path,
        &["-v", "silver-elephant", "--dry-run"],
    ));
    assert!(listing(&dir).is_empty(), "{:?}", listing(&dir));
    assert!(printed.starts_with("# Silver Elephant Chess"), "{printed}");
    assert_eq!(case_ids(&printed), ["disputes-ply-6"]);
    // What it printed is the whole suite: it checks as it is.
    std::fs::write(&path, &printed).unwrap();
    check_passes(&path);
    // And it is what a real run writes.
    std::fs::remove_file(&path).unwrap();
    succeeded(&create_at_ply_6(&path, &["-v", "silver-elephant"]));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), printed);
}

#[test]
fn create_on_an_existing_suite_adds_the_case_as_usual() {
    let (path, before) = copy("create-existing", SE_SUITE);
    let out = succeeded(&create_at_ply_6(&path, &[]));
    assert!(
        out.starts_with("added case `silver-elephant-ply-6` to "),
        "{out}"
    );
    let after = text(&std::fs::read(&path).unwrap());
    assert!(
        after.as_bytes().starts_with(&before),
        "the original bytes are a prefix"
    );
    assert_eq!(case_ids(&after), ["start", "silver-elephant-ply-6"]);
    check_passes(&path);
    // `-v` must still be the suite's.
    let err = refused(&create_at_ply_6(&path, &["-v", "chess", "--id", "other"]));
    assert!(err.contains("is a silver-elephant suite"), "{err}");
    assert_eq!(text(&std::fs::read(&path).unwrap()), after);
}

#[test]
fn a_new_suite_takes_its_variant_from_v_or_the_records_variant_tag() {
    let dir = scratch("create-variant");
    // A record with no [Variant] tag, and no -v: refused before any counting.
    let path = dir.join("untagged.yaml");
    assert_eq!(
        refused(&create_at_ply_6(&path, &[])),
        format!(
            "cvperft: {}: the new suite's variant is not known: give -v VARIANT (the record has \
             no [Variant] tag)\n",
            path.display()
        )
    );
    // A PGN naming its variant needs no -v.
    let path = dir.join("tagged.yaml");
    succeeded(&create_from_pgn(&path, &[]));
    let suite = std::fs::read_to_string(&path).unwrap();
    assert!(suite.contains("\nvariant: silver-elephant\n"), "{suite}");
    assert!(suite.contains("    fen: \"r2bqkb2r/"), "{suite}");
    assert_eq!(case_ids(&suite), ["tagged-ply-13"]);
    check_passes(&path);
    // A -v the tag contradicts is refused.
    let err = refused(&create_from_pgn(
        &dir.join("contradicted.yaml"),
        &["-v", "chess"],
    ));
    assert!(err.contains("but -v is chess"), "{err}");
    assert_eq!(listing(&dir), ["tagged.yaml"]);
}

#[test]
fn a_new_suite_takes_no_variant_from_a_tag_outside_the_game() {
    // Found by an attack: coordinate text reads this record as one game carrying game 2's
    // [Variant], and game 1 (untagged) was added to a new Plutonian suite with exit 0.
    let dir = scratch("create-foreign-tag");
    let two = dir.join("two.pgn");
    std::fs::write(&two, "1. Nc3 *\n\n[Variant \"Plutonian\"]\n\n1. Nc3 *\n").unwrap();
    // Likewise a tag inside a Game Courier comment.
    let log = dir.join("log.txt");
    std::fs::write(&log, "1. N b1-c3 // [Variant \"Plutonian\"]\n").unwrap();
    for record in [&two, &log] {
        let path = dir.join("new.yaml");
        let o = create(&path, &["--game", record.to_str().unwrap(), "--depth", "1"]);
        assert_eq!(
            refused(&o),
            format!(
                "cvperft: {}: the new suite's variant is not known: give -v VARIANT (the record \
                 has no [Variant] tag)\n",
                path.display()
            )
        );
    }
    assert_eq!(listing(&dir), ["log.txt", "two.pgn"]);
    // Game 2 carries the tag, and makes a Plutonian suite.
    let path = dir.join("second.yaml");
    let o = create(
        &path,
        &[
            "--game",
            two.to_str().unwrap(),
            "--game-index",
            "2",
            "--depth",
            "1",
        ],
    );
    succeeded(&o);
    let suite = std::fs::read_to_string(&path).unwrap();
    assert!(suite.contains("\nvariant: plutonian\n"), "{suite}");
}

#[test]
fn a_new_suite_is_named_yaml() {
    let dir = scratch("create-name");
    for name in ["disputes", "disputes.yml", "disputes.yaml.txt"] {
        let path = dir.join(name);
        assert_eq!(
            refused(&create_at_ply_6(&path, &["-v", "silver-elephant"])),
            format!(
                "cvperft: {}: a new suite's file name ends in `.yaml` (`cvperft check DIR` reads \
                 no other file); name it so\n",
                path.display()
            )
        );
    }
    assert!(listing(&dir).is_empty(), "{:?}", listing(&dir));
}

#[test]
fn a_new_suite_takes_the_description_given() {
    let dir = scratch("description");
    let path = dir.join("mine.yaml");
    // Quoted where YAML would read it otherwise (`: ` would start a mapping).
    let description = "My engine's disputes: November 2026";
    succeeded(&create_at_ply_6(
        &path,
        &["-v", "silver-elephant", "--description", description],
    ));
    let suite = std::fs::read_to_string(&path).expect("created");
    assert!(
        suite.contains(&format!(
            "\ndescription: \"{description}\"\ngame-end: rules\n"
        )),
        "{suite}"
    );
    check_passes(&path);
    // On a suite that exists it is not used, and a warning says so; the case is added.
    let o = create(
        &path,
        &[
            "--moves",
            "f2f4 e7e5",
            "--depth",
            "1",
            "--description",
            "other",
        ],
    );
    succeeded(&o);
    assert!(
        text(&o.stderr).contains(&format!(
            "cvperft: warning: {} exists: --description describes a new suite only, so it was \
             not used",
            path.display()
        )),
        "{}",
        text(&o.stderr)
    );
    let grown = std::fs::read_to_string(&path).expect("suite");
    assert!(
        grown.starts_with(&suite) && !grown.contains("other"),
        "{grown}"
    );
    // Without --create it is a usage error; an empty one would not load, and nothing is made.
    let plain = cvperft(&[
        "add-case",
        "--suite",
        path.to_str().expect("utf-8"),
        "--description",
        "x",
        "--moves",
        "e2e4",
        "--depth",
        "1",
    ]);
    assert!(refused(&plain).contains("--create"));
    // It was reported at a line of the file never written (`empty.yaml:6: description is
    // empty`); the argument is named now.
    let empty = dir.join("empty.yaml");
    for blank in ["", " ", "\t", "\u{85}"] {
        let err = refused(&create_at_ply_6(
            &empty,
            &["-v", "silver-elephant", "--description", blank],
        ));
        assert_eq!(
            err,
            "cvperft: --description is empty: give the new suite's description, or leave the \
             option out for the default one\n",
            "{blank:?}"
        );
    }
    assert!(!empty.exists());
}

#[test]
fn a_file_name_that_gives_no_case_id_asks_for_one() {
    // `é.yaml` gave the id `-ply-1`, refused as if --id had been given.
    let dir = scratch("create-no-id");
    let path = dir.join("é.yaml");
    let args = ["-v", "chess", "--moves", "e2e4", "--depth", "1"];
    assert_eq!(
        refused(&create(&path, &args)),
        format!(
            "cvperft: {}: no case id can be made from this file name (it gave `-ply-1`): give \
             --id, with lower-case letters, digits and `-`, starting with a letter or digit\n",
            path.display()
        )
    );
    assert!(!path.exists());
    succeeded(&create(&path, &[&args[..], &["--id", "e4"]].concat()));
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("  - id: e4\n")
    );
}

#[test]
fn a_rule_id_the_variant_cannot_cite_is_refused_before_counting() {
    // It was refused only when the suite written was read back, after every count, and named
    // a line of that unwritten file.
    let (path, bytes) = copy("rule-id", "suites/chess.yaml");
    let suite = path.to_str().expect("utf-8");
    for (rules, said) in [
        (
            vec!["--rule", "XX-9"],
            "cvperft: --rule: unknown rule id `XX-9` (chess suites may cite: GE-1,",
        ),
        (
            vec!["--rule", "GE-1", "--rule", "GE-1"],
            "cvperft: --rule `GE-1` is given twice",
        ),
    ] {
        let mut args = vec![
            "add-case",
            "--suite",
            suite,
            "--moves",
            "e2e4 e7e5",
            "--depth",
            "2",
        ];
        args.extend(rules);
        let err = refused(&cvperft(&args));
        assert!(err.starts_with(said), "{err}");
        assert_eq!(std::fs::read(&path).expect("suite"), bytes);
    }
}

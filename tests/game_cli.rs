//! The record commands run as a user runs them: `cvperft game`, `divide --san`, and
//! `add-case --dry-run --game FILE --at-ply N` over the composed records of `fixtures/records/`
//! (the suites are only read: a dry run writes nothing).

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cvperft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// moves.txt of a variant's records: the start FEN (`# fen:`) and the moves.
fn original(variant: &str) -> (Option<String>, Vec<String>) {
    let text =
        std::fs::read_to_string(root().join(format!("fixtures/records/{variant}/moves.txt")))
            .expect("moves.txt");
    let fen = text
        .lines()
        .find_map(|l| l.strip_prefix("# fen:"))
        .map(|f| f.trim().to_string());
    let moves = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(String::from)
        .collect();
    (fen, moves)
}

#[test]
fn game_prints_every_ply_and_says_which_notation_it_read() {
    let o = cvperft(&["game", "fixtures/records/chess/game-courier.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 39, "a header and one line per ply:\n{out}");
    let promotion: Vec<&str> = lines[9].split_whitespace().collect();
    assert_eq!(
        promotion[..7],
        ["9", "5.", "P", "b7-a8;", "Q-a8", "b7a8q", "bxa8=Q"],
        "{out}"
    );
    assert!(lines[39].contains("Qxf7#"), "{out}");
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "read as game-courier (--notation auto; coordinate stopped at ply 1, san stopped at \
             ply 1)"
        ),
        "{err}"
    );
    let o = cvperft(&[
        "game",
        "fixtures/records/chess/game-courier.txt",
        "--notation",
        "game-courier",
    ]);
    assert!(o.stderr.is_empty(), "no notice when the notation is given");
}

#[test]
fn a_lichess_game_from_position_is_replayed_from_its_fen() {
    // `[Variant "From Position"]` was refused as an unknown variant.
    let o = cvperft(&["game", "fixtures/records/chess/from-position.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let plies: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(plies.len(), 5, "{out}");
    // Castling at once: only the [FEN] position allows it.
    assert_eq!(
        plies[0].join(" "),
        "1 1. O-O e1g1 O-O 4k3/8/8/8/8/8/4P3/5RK1 b - - 1 1",
        "{out}"
    );
    assert_eq!(plies[4][..5], ["5", "3.", "Rf6+", "f1f6", "Rf6+"], "{out}");
    // Without [FEN] the record is refused at its [Variant] tag.
    let o = cvperft(&["game", "fixtures/records/bad/from-position-without-fen.pgn"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert_eq!(
        text(&o.stderr),
        "cvperft: game `fixtures/records/bad/from-position-without-fen.pgn`, line 2, column 1: \
         [Variant \"From Position\"] says the game starts from a set-up position, but there is \
         no [FEN] tag giving it\n"
    );
}

/// The last ply line of `cvperft game`'s output, split into its columns.
fn last_ply(out: &str) -> Vec<String> {
    let line = out.lines().last().unwrap_or_default();
    line.split_whitespace().map(String::from).collect()
}

#[test]
fn exports_as_lichess_and_chess_com_write_them_are_replayed() {
    // The shapes of their exports: a clock and an evaluation in a comment after every move, the
    // move number again after a comment, glyphs, nested variations, two games in one file (the
    // second a study chapter from a position, Black to move), CRLF line ends (chess.com).
    let opera = "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17";
    let chesscom = "fixtures/records/chess/chesscom-export.pgn";
    let lichess = "fixtures/records/chess/lichess-export.pgn";
    let bytes = std::fs::read(root().join(chesscom)).expect("the export");
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "CRLF line ends");
    for args in [
        vec![lichess],
        vec![lichess, "--game-index", "1"],
        vec![chesscom],
    ] {
        let mut all = vec!["game"];
        all.extend(&args);
        let o = cvperft(&all);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        let ply = last_ply(&text(&o.stdout));
        assert_eq!(ply[..5], ["33", "17.", "Rd8#", "d1d8", "Rd8#"], "{args:?}");
        assert_eq!(ply[5..].join(" "), opera, "{args:?}");
        assert!(text(&o.stderr).contains("read as san"), "{args:?}");
    }
    let o = cvperft(&["game", lichess, "--game-index", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.lines().nth(1).unwrap_or_default().contains("3...  a6"),
        "{out}"
    );
    assert_eq!(last_ply(&out)[..3], ["11", "8...", "O-O"], "{out}");
    let o = cvperft(&["game", lichess, "--game-index", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "cvperft: game `{lichess}`, line 1, column 1: game 3 asked for, but the record holds 2 games\n"
        )
    );
    // add-case keeps the study's start position.
    let case = chess_case_of(lichess, &["--game-index", "2"]);
    assert!(
        case.contains("fen: \"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\""),
        "{case}"
    );
}

/// The case `add-case --dry-run` writes for a chess suite from `record` (`extra` arguments
/// added), the command succeeding.
fn chess_case_of(record: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "add-case",
        "--suite",
        "suites/chess.yaml",
        "--game",
        record,
        "--depth",
        "1",
        "--id",
        "from-an-export",
        "--dry-run",
    ];
    args.extend(extra);
    let o = cvperft(&args);
    assert_eq!(o.status.code(), Some(0), "{record}: {}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn a_pgn_in_latin1_as_the_standard_has_it_is_read() {
    // Its `Müller` (0xfc) was refused as not UTF-8.
    let o = cvperft(&["game", "fixtures/records/chess/latin1.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let ply = last_ply(&text(&o.stdout));
    assert_eq!(ply[..3], ["16", "8...", "O-O"]);
    // One game, the bytes above 0x7f in its tags and comment starting no other.
    let o = cvperft(&[
        "game",
        "fixtures/records/chess/latin1.pgn",
        "--game-index",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let case = chess_case_of(
        "fixtures/records/chess/latin1.pgn",
        &["--note", "from Zürich"],
    );
    assert!(case.contains("e2e4 c7c5 g1f3"), "{case}");
}

#[test]
fn a_tag_that_disagrees_with_the_command_line_is_placed_at_its_column() {
    // These named the tag's line only.
    let lichess = "fixtures/records/chess/lichess-export.pgn";
    let o = cvperft(&["game", lichess, "-v", "cerimon"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "cvperft: game `{lichess}`, line 11, column 1: [Variant \"Standard\"] is chess, but -v \
             is cerimon\n"
        )
    );
    let o = cvperft(&[
        "game",
        lichess,
        "--game-index",
        "2",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with(&format!(
            "cvperft: game `{lichess}`, line 28, column 1: the record's [FEN"
        )),
        "{}",
        text(&o.stderr)
    );
    // A [FEN] that is no position is placed at its fault: the `H` of Shredder-FEN castling.
    let dir = scratch("fen-tag");
    let record = dir.join("shredder.pgn");
    std::fs::write(
        &record,
        "[Event \"x\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\
         [SetUp \"1\"]\n\n1. e4 *\n",
    )
    .expect("a record");
    let path = record.to_str().expect("a path");
    let o = cvperft(&["game", path]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "cvperft: game `{path}`, line 2, column 53: [FEN]: FEN castling field: expected K, Q, \
             k, q or -, found `H`\n"
        )
    );
}

/// A scratch directory for `test`.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("game_cli-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Asserts that `cvperft game` reads the record `fixture` (relative to the package root) with
/// its text changed by `edit` (a copy in `dir`) as it reads the record itself.
fn assert_reads_as_written(dir: &Path, fixture: &str, edit: impl Fn(&str) -> String) {
    let record = std::fs::read_to_string(root().join(fixture)).expect("record");
    let edited = dir.join(Path::new(fixture).file_name().expect("file name"));
    std::fs::write(&edited, edit(&record)).expect("copy");
    let (a, b) = (
        cvperft(&["game", fixture]),
        cvperft(&["game", edited.to_str().expect("utf-8")]),
    );
    assert_eq!(b.status.code(), Some(0), "{fixture}: {}", text(&b.stderr));
    assert_eq!(text(&b.stdout), text(&a.stdout), "{fixture}");
}

#[test]
fn a_record_with_lines_ended_by_cr_alone_reads_as_with_lf() {
    let dir = scratch("cr");
    // A `//` or `;` comment ran to the end of the record: the moves after it were dropped,
    // with exit 0 (every move of the Game Courier log, which opens with a comment).
    for name in ["game-courier.txt", "game.txt"] {
        let fixture = format!("fixtures/records/chess/{name}");
        assert_reads_as_written(&dir, &fixture, |r| r.replace('\n', "\r"));
        // Ended by a tool with one LF (or CRLF), every CR was a space: the moves after the
        // first comment were dropped, with exit 0.
        assert_reads_as_written(&dir, &fixture, |r| r.trim_end().replace('\n', "\r") + "\n");
        assert_reads_as_written(&dir, &fixture, |r| r.replace('\n', "\r") + "\r\n");
    }
    // Errors name the line as an editor shows it.
    assert_refused_at(
        &dir.join("illegal.pgn"),
        "1. e4 e5 ; c\r2. Nf3 Nc6\r3. Bb6 *\r",
        "illegal.pgn`, line 3, column 4: ply 5 `Bb6`: illegal",
    );
    // In a record with LF line breaks a stray CR is a space: it neither ends a comment (the
    // text after it was read as moves) nor counts as a line (the errors' line numbers then
    // differed from an editor's).
    assert_refused_at(
        &dir.join("stray.pgn"),
        "[Event \"x\ry\"]\n\n1. e4 e5 ; pasted\rsee the other line\n2. Nf3 Nc6\n3. Bb6 *\n",
        "stray.pgn`, line 5, column 4: ply 5 `Bb6`: illegal",
    );
}

#[test]
fn a_record_past_the_ply_limit_is_refused_at_the_first_ply_past_it() {
    // Placed at the last ply, line 10005, it named a move the limit had nothing to do with.
    let dir = scratch("ply-limit");
    assert_refused_at(
        &dir.join("long.pgn"),
        &"Nf3\n".repeat(10_005),
        "long.pgn`, line 10001, column 1: ply 10001: 10005 plies, more than the limit of 10000",
    );
}

/// Writes `record` to `path` and asserts that `cvperft game` (SAN) refuses it with exit 2 and
/// `message` on stderr.
fn assert_refused_at(path: &Path, record: &str, message: &str) {
    std::fs::write(path, record).expect("record");
    let o = cvperft(&["game", path.to_str().expect("utf-8"), "--notation", "san"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(message), "{}", text(&o.stderr));
}

#[test]
fn a_comma_standing_alone_joins_the_parts_of_a_move() {
    // `Nf6+ , N@b2`: the lone comma was dropped and the placement read as Black's ply (here
    // refused, Black holding no Knight; read as another game where Black holds one).
    let fixture = "fixtures/records/cerimon/game.pgn";
    let record = std::fs::read_to_string(root().join(fixture)).expect("record");
    assert!(record.contains("Nf6+, N@b2"), "a compound move");
    assert_reads_as_written(&scratch("comma"), fixture, |r| r.replace(',', " , "));
}

#[test]
fn the_notation_named_at_a_ply_is_one_that_reads_the_whole_record() {
    // At `--at-ply 0` every notation read the no plies asked for, and the first tried,
    // coordinate, was named, though it cannot read these records.
    for (record, notation) in [("game.pgn", "san"), ("game-courier.txt", "game-courier")] {
        let path = format!("fixtures/records/chess/{record}");
        let o = cvperft(&["game", &path, "--at-ply", "0"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(&format!("read as {notation} (")), "{err}");
        assert!(text(&o.stdout).starts_with("start position:"));
    }
}

#[test]
fn game_at_a_ply_shows_the_position_and_its_legal_moves() {
    let o = cvperft(&[
        "game",
        "fixtures/records/silver-elephant/game.pgn",
        "--at-ply",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // The variant and the start position come from the record's tags.
    assert!(
        out.contains("after ply 2 (1... N@b8,E@c8,E@h8,N@i8):"),
        "{out}"
    );
    assert!(
        out.contains("FEN rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RENBQKBNER w KQkq - 2 2"),
        "{out}"
    );
    assert!(
        out.contains("legal moves (28), move text and SAN:"),
        "{out}"
    );
    assert!(out.contains("  i1i3  Ei3\n"), "{out}");
}

#[test]
fn game_at_a_ply_shows_the_side_to_move_and_the_hands() {
    // The diagram left out Cerimon's lost pieces and the side to move.
    let o = cvperft(&["game", "fixtures/records/cerimon/game.pgn", "--at-ply", "6"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains(
            "\nWhite to move\nWhite's lost pieces: N\nBlack's lost pieces: none\n\
             FEN rbbtkbbr/nnss1s1n/3s4/8/3n2N1/8/N1SSSSN1/RBBTKBBR[N] w - - 2 4\n"
        ),
        "{out}"
    );
}

#[test]
fn divide_writes_san_beside_the_move_text() {
    let args = [
        "divide",
        "2",
        "-v",
        "cerimon",
        "--moves",
        "b2c4 g7f5 c4d6 e7d6 h2g4 f5d4",
    ];
    let plain = text(&cvperft(&args).stdout);
    let o = cvperft(&[&args[..], &["--san"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let with_san = text(&o.stdout);
    assert!(with_san.contains("\ng4f6,N@b2 Nf6+,N@b2 "), "{with_san}");
    // The same entries and counts, with the SAN between them.
    let stripped: Vec<String> = with_san
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() == 3 {
                format!("{} {}", w[0], w[2])
            } else {
                l.to_string()
            }
        })
        .collect();
    assert_eq!(stripped.join("\n") + "\n", plain);
}

#[test]
fn add_case_dry_run_replays_every_notation_to_the_same_plies() {
    for variant in cvperft::variants::IDS {
        let (fen, moves) = original(variant);
        let suite = format!("suites/{variant}.yaml");
        let before = std::fs::read(root().join(&suite)).expect("suite");
        for file in ["game.txt", "game-courier.txt", "game.pgn"] {
            for ply in [3, moves.len()] {
                let path = format!("fixtures/records/{variant}/{file}");
                let ply_text = ply.to_string();
                let mut args = vec![
                    "add-case",
                    "--suite",
                    &suite,
                    "--game",
                    &path,
                    "--at-ply",
                    &ply_text,
                    "--depth",
                    "1",
                    "--id",
                    "from-a-record",
                    "--dry-run",
                ];
                if let Some(fen) = &fen
                    && file != "game.pgn"
                {
                    args.extend(["--fen", fen]);
                }
                if *variant == "cerimon" && file == "game-courier.txt" {
                    args.extend(["--label", "T=A"]);
                }
                let o = cvperft(&args);
                let out = text(&o.stdout);
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{path} --at-ply {ply}: {}",
                    text(&o.stderr)
                );
                let want = format!("moves: \"{}\"", moves[..ply].join(" "));
                assert!(out.contains(&want), "{path} --at-ply {ply}: {out}");
                if let Some(fen) = &fen {
                    assert!(
                        out.contains(&format!("fen: \"{fen}\"")),
                        "{path}: the start FEN is kept: {out}"
                    );
                }
            }
        }
        assert_eq!(
            std::fs::read(root().join(&suite)).expect("suite"),
            before,
            "a dry run writes nothing"
        );
    }
}

#[test]
fn figurine_san_reads_as_the_letters_it_stands_for() {
    // `♘f3` was refused: "unexpected character '♘'".
    let figurine = "fixtures/records/chess/figurine.pgn";
    let o = cvperft(&["game", figurine]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("read as san"),
        "{}",
        text(&o.stderr)
    );
    let out = text(&o.stdout);
    let ply = last_ply(&out);
    assert_eq!(ply[..5], ["33", "17.", "♖d8#", "d1d8", "Rd8#"]);
    // The same game as the lichess export writes it with letters: the same moves and positions.
    let letters = text(&cvperft(&["game", "fixtures/records/chess/lichess-export.pgn"]).stdout);
    let without_written = |table: &str| -> Vec<Vec<String>> {
        table
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().skip(3).map(str::to_string).collect())
            .collect()
    };
    assert_eq!(without_written(&out), without_written(&letters));
    // A wrong move is placed at its character, the figurine counted as one.
    let dir = scratch("figurine");
    assert_refused_at(
        &dir.join("wrong.pgn"),
        "1. e4 e5 2. ♘f3 ♞c6 3. ♗kb5 *\n",
        "wrong.pgn`, line 1, column 25: ply 5 `♗kb5`: not SAN: `k` is not a file of this board",
    );
    assert_refused_at(
        &dir.join("illegal.pgn"),
        "1. e4 e5 2. ♘f6 *\n",
        "illegal.pgn`, line 1, column 13: ply 3 `♘f6`: illegal",
    );
}

#[test]
fn game_index_0_is_refused_as_games_count_from_1() {
    // With --notation auto it said "the record holds 1 game" of a record of two.
    let dir = scratch("game-index-0");
    let two = dir.join("two.pgn");
    std::fs::write(
        &two,
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n",
    )
    .unwrap();
    let path = two.to_str().unwrap();
    for notation in ["auto", "san"] {
        let o = cvperft(&["game", path, "--game-index", "0", "--notation", notation]);
        assert_eq!(o.status.code(), Some(2), "{notation}");
        assert_eq!(
            text(&o.stderr),
            "cvperft: invalid value '0' for '--game-index <N>': games are counted from 1 (see \
             `cvperft --help`)\n"
        );
    }
    let o = cvperft(&["game", path, "--game-index", "3"]);
    assert!(
        text(&o.stderr).ends_with("game 3 asked for, but the record holds 2 games\n"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_game_courier_placement_read_as_a_coordinate_comment_is_said() {
    // A Cerimon log whose Knight is resurrected on b2 at ply 7 (`; N*b2`, no piece label on
    // the move). Coordinate text, tried first, reads `;` as a comment and replays the whole
    // record (Game Courier's reading stops at ply 9, `c1-b2` onto the Knight): the Knight is
    // dropped, and nothing said so.
    let dir = scratch("placement-comment");
    let path = dir.join("cerimon.txt");
    let record = "1. b2-c4\n1... g7-f5\n2. c4-d6\n2... e7-d6\n3. h2-g4\n3... f5-d4\n\
                  4. g4-f6; N*b2\n4... d8-f6\n5. c1-b2\n";
    std::fs::write(&path, record).expect("record");
    let path = path.to_str().expect("utf-8");
    let o = cvperft(&["game", "-v", "cerimon", path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("read as coordinate (--notation auto"), "{err}");
    assert!(
        err.contains(
            "; `; N*b2` at line 7, column 9 is read as a comment, as coordinate notation reads \
             `;` (give --notation game-courier to read it as a placement)"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // In a variant without hands nothing is ever placed: a comment that looks like a
    // placement is a comment.
    let chess = dir.join("chess.txt");
    std::fs::write(&chess, "1. e2e4 e7e5 ; Q*h5 next?\n2. g1f3 b8c6\n").expect("record");
    let o = cvperft(&["game", chess.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        !text(&o.stderr).contains("read as a comment"),
        "{}",
        text(&o.stderr)
    );
    // As asked, Game Courier's reading puts the Knight on b2, and `c1-b2` is refused.
    let o = cvperft(&["game", "-v", "cerimon", "--notation", "game-courier", path]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).contains("ply 9 `c1-b2`: illegal"),
        "{}",
        text(&o.stderr)
    );
}

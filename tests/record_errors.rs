//! The exact message of the errors reading a game record gives (the record's lexing, Game
//! Courier turns, PGN tags, SAN, coordinate and Game Courier moves, `--notation auto`), through
//! the library: the CLI cases of `fixtures/bad/cases.yaml` reach only some of them, and these
//! texts are what a user reads on stderr.

use cvperft::game::{ReadOptions, read_game, read_header};
use cvperft::notation::parse_position;
use cvperft::record::{Labels, Notation};
use cvperft::variants;

/// (variant, notation or auto, game index, ply asked for, record, the error's text).
type Case = (
    &'static str,
    Option<&'static str>,
    usize,
    Option<usize>,
    &'static str,
    &'static str,
);

const CASES: &[Case] = &[
    // ----- lexing and splitting
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 { open",
        "line 1, column 7: ply 2: comment `{` is never closed by `}`",
    ),
    // A null move in the main line (analysis writes it in variations, which are skipped): it
    // was "`--` names no square of this board to move to".
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 e5 2. -- Nc6 (2... d5 3. -- d4) *",
        "line 1, column 13: ply 3 `--`: not SAN: `--` is a null move (a pass, as analysis \
         writes it): no move of a game",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "[Event \"x\"\n1. e4",
        "line 1, column 1: tag `[` is never closed by `]`",
    ),
    // Bracketed text that is no tag pair: taken as no tag, `[FEN ...]` without quotes let the
    // game start from the usual position with exit 0.
    (
        "chess",
        Some("san"),
        1,
        None,
        "[Event \"x\"]\n[FEN 4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1]\n\n1. e4 e5 *",
        "line 2, column 1: `[FEN 4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1]` is not a tag pair: write \
         `[Name \"value\"]`, the value in double quotes",
    ),
    (
        "pink-panther",
        None,
        1,
        None,
        "[Variant Pink Panther]\n1. c2-c3 *",
        "line 1, column 1: `[Variant Pink Panther]` is not a tag pair: write `[Name \"value\"]`, \
         the value in double quotes",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\" extra]\n1. e4 *",
        "line 1, column 1: `[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\" extra]` is not a tag pair: \
         write `[Name \"value\"]`, the value in double quotes",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P e2-e4; [Bad\u{1}] 1... p e7-e5",
        "line 1, column 13: `[Bad\\u{1}]` is not a tag pair: write `[Name \"value\"]`, the value in \
         double quotes",
    ),
    // A byte-order mark opening the record (files saved by some Windows tools) is shown by no
    // editor: it took a column, so every place on line 1 was one column too far, and a `%`
    // escape line after it was read as moves.
    (
        "chess",
        Some("san"),
        1,
        None,
        "\u{feff}1. e4 e5 Qz9",
        "line 1, column 11: ply 3 `Qz9`: not SAN: `Qz9` names no square of this board to move to",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "\u{feff}% exported by a tool\n1. e4 e5 2. Qz9",
        "line 2, column 14: ply 3 `Qz9`: not SAN: `Qz9` names no square of this board to move to",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "\u{feff}1. e4 e5 2.{ open",
        "line 1, column 12: ply 3: comment `{` is never closed by `}`",
    ),
    // A CRLF in a record whose lines end in CR alone ends one line, as an editor shows it (it
    // ended two, and every line after it was named one too far).
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4\r e5\r\n Qz9\r",
        "line 3, column 3: ply 3 `Qz9`: not SAN: `Qz9` names no square of this board to move to",
    ),
    // Moves after a result that neither tag pairs nor move 1 open: the result cut the game
    // short there, and the rest was read as game 2, with exit 0.
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 e5 2. Nf3 Nc6 1-0\n3. Bb5 a6 *",
        "line 2, column 1: ply 5: `3.` follows the result `1-0` at line 1, column 21: a game \
         after a result opens with tag pairs or with move 1 (is the result misplaced?)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P e2-e4 * p e7-e5",
        "line 1, column 14: ply 2: `p` follows the result `*` at line 1, column 12: a game after \
         a result opens with tag pairs or with move 1 (is the result misplaced?)",
    ),
    // A promotion in brackets glued to its square is the word's, checked as the others.
    (
        "chess",
        Some("san"),
        1,
        None,
        "[FEN \"8/P6k/8/8/8/8/7p/K7 w - - 0 1\"]\n1. a8(Z)",
        "line 2, column 6: ply 1 `a8(Z)`: not SAN: `(Z)` after the destination is not a promotion \
         of chess",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 ) e5",
        "line 1, column 7: ply 2: `)` closes no variation",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 (e5",
        "line 1, column 7: ply 2: variation `(` is never closed by `)`",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2-e4;",
        "line 1, column 9: ply 1 `e2-e4`: the turn ends after `;`: a part is missing",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2e4 e7-e5",
        "line 1, column 4: ply 1 `e2e4 e7-e5`: unknown piece label `e2e4` (labels of chess: P N B R Q K; map others with --label OURS=THEIRS)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. N",
        "line 1, column 4: ply 1 `N`: the piece label `N` is not followed by a move",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. ; e2-e4",
        "line 1, column 4: ply 1: `;` joins nothing: no move before it",
    ),
    // ----- games, tags and plies
    (
        "chess",
        Some("san"),
        3,
        None,
        "1. e4 *\n1. d4 *",
        "line 1, column 1: game 3 asked for, but the record holds 2 games",
    ),
    (
        "chess",
        Some("san"),
        1,
        Some(5),
        "1. e4 e5",
        "line 1, column 7: ply 5 asked for, but the game has only 2 plies",
    ),
    (
        "chess",
        None,
        1,
        None,
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qb8",
        "line 1, column 35: ply 7 `Qb8`: illegal: not a legal move here (legal: Qd1 Qe2 Qf3 Qf5 Qg4 Qg5 Qg6 Qh3 Qh4 Qh6 Qxe5+ Qxf7# ...) [read as san, the notation that got furthest; coordinate stopped at ply 1, game-courier stopped at ply 1]",
    ),
    // ----- coordinate moves
    (
        "chess",
        Some("coordinate"),
        1,
        None,
        "1. e2e4 e7e5 2. z9z9",
        "line 1, column 17: ply 3 `z9z9`: not coordinate move text: move `z9z9`, column 1: `z9` is not a square of this board",
    ),
    (
        "chess",
        Some("coordinate"),
        1,
        None,
        "1. e2e5",
        "line 1, column 4: ply 1 `e2e5`: illegal: move `e2e5`: not a legal move here (legal: e2e3 e2e4 a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 ...)",
    ),
    // ----- SAN
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. Zf3",
        "line 1, column 4: ply 1 `Zf3`: not SAN: `Z` is not a piece of chess",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. N@f3",
        "line 1, column 4: ply 1 `N@f3`: illegal: not a legal move here: White has no Knight in hand to place (legal: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 ...)",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. Z@f3",
        "line 1, column 4: ply 1 `Z@f3`: not SAN: `Z@` does not name a piece of chess",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. N@z9",
        "line 1, column 6: ply 1 `N@z9`: not SAN: `z9` is not a square of this board",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4,e5",
        "line 1, column 7: ply 1 `e4,e5`: not SAN: a move has at most one moving part",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. N@f3,N@f3",
        "line 1, column 9: ply 1 `N@f3,N@f3`: not SAN: two placements on f3",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. Nz",
        "line 1, column 5: ply 1 `Nz`: not SAN: `Nz` names no square of this board to move to",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. Nzf3",
        "line 1, column 5: ply 1 `Nzf3`: not SAN: `z` is not a file of this board",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. N9f3",
        "line 1, column 5: ply 1 `N9f3`: not SAN: `9` is not a rank of this board",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. NgQf3",
        "line 1, column 6: ply 1 `NgQf3`: not SAN: unexpected `Q` before the destination square",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4=Z",
        "line 1, column 6: ply 1 `e4=Z`: not SAN: `=Z` after the destination is not a promotion of chess",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e5",
        "line 1, column 4: ply 1 `e5`: illegal: not a legal move here (legal: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 ...)",
    ),
    (
        "chess",
        Some("san"),
        1,
        None,
        "1. e4 e5 2. Nf3 Nf6 3. Nc3 Nc6 4. Nd5 Nd4 5. Ne5 Ne6 6. Nc4 Nc5 7. Ne3",
        "line 1, column 68: ply 13 `Ne3`: ambiguous: it fits 2 legal moves (Nce3, Nde3)",
    ),
    // ----- Game Courier moves
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2",
        "line 1, column 4: ply 1 `e2`: `e2` is not a Game Courier move: write the squares with `-`, as `e2-e4`",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P e2-z9",
        "line 1, column 9: ply 1 `P e2-z9`: `z9` is not a square of this 8x8 board",
    ),
    // A label set apart from its move (spaces to align a log, a line break) is joined to it
    // with one space; places in the move were counted in the joined text, so they fell short
    // of the square meant, or past the end of the label's line.
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. N    g1-f9",
        "line 1, column 12: ply 1 `N g1-f9`: `f9` is not a square of this 8x8 board",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. N\n   g1-f9",
        "line 2, column 7: ply 1 `N g1-f9`: `f9` is not a square of this 8x8 board",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P   Ne2-e4",
        "line 1, column 8: ply 1 `P Ne2-e4`: two piece labels: `P` and `N`",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P   e2-e4;",
        "line 1, column 13: ply 1 `P e2-e4`: the turn ends after `;`: a part is missing",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. P Ne2-e4",
        "line 1, column 6: ply 1 `P Ne2-e4`: two piece labels: `P` and `N`",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. -e4",
        "line 1, column 4: ply 1 `-e4`: `-e4` does not say which piece to put on the square",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. Z e2-e4",
        "line 1, column 4: ply 1 `Z e2-e4`: unknown piece label `Z` (labels of chess: P N B R Q K; map others with --label OURS=THEIRS)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. p e7-e5",
        "line 1, column 4: ply 1 `p e7-e5`: the label `p` names a Black piece, but White is to move",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2-e4; d2-d4; c2-c4",
        "line 1, column 18: ply 1 `e2-e4; d2-d4; c2-c4`: a turn has at most two moving parts (the King's and the Rook's in castling)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2-e4; Q-e4; R-e4",
        "line 1, column 17: ply 1 `e2-e4; Q-e4; R-e4`: two promotions on e4",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e7-e5",
        "line 1, column 4: ply 1 `e7-e5`: illegal: not a legal move here: the piece on e7 is Black's, but White is to move (legal: N b1-a3 N b1-c3 N g1-f3 N g1-h3 P a2-a3 P a2-a4 P b2-b3 P b2-b4 P c2-c3 P c2-c4 P d2-d3 P d2-d4 ...)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. N b1-d2",
        "line 1, column 4: ply 1 `N b1-d2`: illegal: not a legal move here (legal: N b1-a3 N b1-c3 N g1-f3 N g1-h3 P a2-a3 P a2-a4 P b2-b3 P b2-b4 P c2-c3 P c2-c4 P d2-d3 P d2-d4 ...)",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. B e2-e4",
        "line 1, column 4: ply 1 `B e2-e4`: the label names a Bishop, but e2 holds a Pawn",
    ),
    (
        "chess",
        Some("game-courier"),
        1,
        None,
        "1. e2-e4; @-e7",
        "line 1, column 11: ply 1 `e2-e4; @-e7`: this turn captures nothing on e7, so it cannot be emptied",
    ),
    (
        "cerimon",
        Some("game-courier"),
        1,
        None,
        "1. T*d4",
        "line 1, column 4: ply 1 `T*d4`: illegal: not a legal move here: White has no Terror in hand (legal: N a2-b4 N a2-c3 N b2-a4 N b2-c4 N b2-d3 N g2-e3 N g2-f4 N g2-h4 N h2-f3 N h2-g4 S c2-a4 S c2-b3 ...)",
    ),
];

fn options(notation: Option<&str>, game_index: usize, at_ply: Option<usize>) -> ReadOptions {
    ReadOptions {
        notation: notation.map(|n| Notation::parse(n).expect("a notation")),
        game_index,
        at_ply,
        ..ReadOptions::default()
    }
}

#[test]
fn every_record_error_reads_as_before() {
    let mut wrong = Vec::new();
    for &(variant, notation, game_index, at_ply, record, expected) in CASES {
        let rules = variants::rules(variant).expect("a variant");
        let start = parse_position(rules, &rules.start_fen()).expect("the start");
        let got = match read_game(record, &start, &options(notation, game_index, at_ply)) {
            Ok(_) => "read".to_string(),
            Err(e) => e.to_string(),
        };
        if got != expected {
            wrong.push(format!(
                "{record:?}\n  got      {got:?}\n  expected {expected:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A label outside ASCII (`--label N=ÉA`) glued to its square: columns count characters (the
/// place of a square after it counted the label's bytes, one column too far).
#[test]
fn columns_after_a_label_outside_ascii_count_characters() {
    let rules = variants::rules("chess").expect("chess");
    let start = parse_position(rules, &rules.start_fen()).expect("the start");
    let options = ReadOptions {
        labels: Labels::new(rules.variant, &["N=ÉA".to_string()]).expect("a label"),
        ..options(Some("game-courier"), 1, None)
    };
    let e = read_game("1. ÉAg1-f9", &start, &options)
        .map(|_| ())
        .expect_err("off the board");
    assert_eq!(
        e.to_string(),
        "line 1, column 9: ply 1 `ÉAg1-f9`: `f9` is not a square of this 8x8 board"
    );
}

/// A label with no letter A-Z (`--label N=É`) is refused: its lower case is itself, so White's
/// Knight and Black's had one label, and Black's could not be named (`é` was unknown, `É` named
/// White's).
#[test]
fn a_label_without_a_letter_a_to_z_is_refused() {
    let rules = variants::rules("chess").expect("chess");
    assert_eq!(
        Labels::new(rules.variant, &["N=É".to_string()]).map_err(|e| e.to_string()),
        Err(
            "--label `N=É`: the label `É` has no letter A-Z, so White's label and Black's (its \
             lower case) would be the same and the two sides' pieces could not be told apart: \
             give a label with a letter A-Z"
                .to_string()
        )
    );
    // With a letter A-Z the sides are told apart: Black's `Éa` is its Knight.
    let start = parse_position(rules, &rules.start_fen()).expect("the start");
    let options = ReadOptions {
        labels: Labels::new(rules.variant, &["N=ÉA".to_string()]).expect("a label"),
        ..options(Some("game-courier"), 1, None)
    };
    let game = read_game("1. ÉA b1-c3 Éa b8-c6", &start, &options).expect("read");
    let moves: Vec<&str> = game.plies.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(moves, ["b1c3", "b8c6"]);
}

#[test]
fn header_errors_read_as_before() {
    let header = |record: &str| match read_header(record, &options(Some("san"), 1, None)) {
        Ok(_) => "read".to_string(),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        header("[Variant \"crazyhouse\"]\n1. e4"),
        "line 1, column 1: [Variant \"crazyhouse\"]: not a variant cvperft knows (variants: chess, \
         silver-elephant, bachelor-kamil, cerimon, plutonian, pink-panther)"
    );
    assert_eq!(
        header("[SetUp \"0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4"),
        "line 2, column 1: [FEN] is given but [SetUp \"0\"] says the game starts from the usual \
         position"
    );
    assert_eq!(
        header("[SetUp \"1\"]\n1. e4"),
        "line 1, column 1: [SetUp \"1\"] without a [FEN] tag"
    );
    assert_eq!(
        header("[SetUp \"yes\"]\n1. e4"),
        "line 1, column 1: [SetUp \"yes\"]: the value is \"0\" (the usual start) or \"1\" (the \
         start in [FEN])"
    );
    assert_eq!(header("1. e4 *"), "read");
    // Lichess's orthodox chess from a set-up position needs the position: without `[FEN]` the
    // usual start would be taken silently.
    assert_eq!(
        header("[Event \"x\"]\n[Variant \"From Position\"]\n1. e4"),
        "line 2, column 1: [Variant \"From Position\"] says the game starts from a set-up \
         position, but there is no [FEN] tag giving it"
    );
    assert_eq!(
        header("[Variant \"from position\"]\n[SetUp \"0\"]\n1. e4"),
        "line 1, column 1: [Variant \"from position\"] says the game starts from a set-up \
         position, but there is no [FEN] tag giving it"
    );
    assert_eq!(
        header(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n1. Kd2"
        ),
        "line 1, column 1: [Variant \"Chess960\"]: not a variant cvperft knows (variants: chess, \
         silver-elephant, bachelor-kamil, cerimon, plutonian, pink-panther)"
    );
    let mut huge = String::from("1. e4 ");
    while huge.len() <= 1 << 20 {
        huge.push_str("{ padding } ");
    }
    let rules = variants::rules("chess").expect("chess");
    let start = parse_position(rules, &rules.start_fen()).expect("the start");
    let e = read_game(&huge, &start, &options(Some("san"), 1, None))
        .map(|_| ())
        .expect_err("too large");
    // A size has no place in the record (it was given `line 1, column 1`).
    assert_eq!(
        e.to_string(),
        format!("{} bytes, larger than the limit of 1048576", huge.len())
    );
}

/// A `[FEN]` tag that is no position of the variant is placed at its fault in the record: it
/// named the tag's line only, and a column of the FEN text (`column 47` of a line whose value
/// starts in column 7), which read as a column of the record. Castling rights as Shredder-FEN
/// writes them (`HAha`), a rank cut short, a castling right without its Rook.
#[test]
fn a_fen_tag_that_is_no_position_is_placed_in_the_record() {
    let rules = variants::rules("chess").expect("chess");
    let fen_error = |record: &str| {
        let header = read_header(record, &options(Some("san"), 1, None)).expect("a header");
        let tag = header.fen.expect("a [FEN] tag");
        cvperft::game::tag_position(rules, &tag)
            .map(|_| ())
            .expect_err("no position")
            .to_string()
    };
    assert_eq!(
        fen_error(
            "[Event \"x\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\
             [SetUp \"1\"]\n\n1. e4 *"
        ),
        "line 2, column 53: [FEN]: FEN castling field: expected K, Q, k, q or -, found `H`"
    );
    assert_eq!(
        fen_error("[FEN  \"4k3/8/8/8/8/8/8/4K2 w - - 0 1\"]\n1. Kd1 *"),
        "line 1, column 24: [FEN]: FEN board field: rank 1 has 7 files, expected 8"
    );
    // A position that reads but is not legal: placed at the value.
    assert_eq!(
        fen_error("[FEN \"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1\"]\n1. O-O *"),
        "line 1, column 7: [FEN]: illegal position: castling right Q needs the King on e1 and a \
         Rook on a1"
    );
    // A value that is not written as it reads (an escape) is placed at its tag's `[`.
    assert_eq!(
        fen_error("\n  [FEN \"4k3/8/8/8/8/8/8/4K3 w - - \\\"0 1\"]\n1. Kd1 *"),
        "line 2, column 3: [FEN]: FEN halfmove field: expected a number below 100000, found \
         `\"0`"
    );
}

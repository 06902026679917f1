//! Game records: SAN and Game Courier notation written and read back for every legal move of
//! random-game positions, and the composed records of `fixtures/records/` replayed.
//!
//! Round trips: every variant under every combination of its options and both game-end modes
//! (Silver Elephant also from its set-up position), fixed-seed random games, every position of
//! every game; every legal move is written as SAN and read back to the same move, and no two
//! legal moves share a SAN; the same for our Game Courier writing, and for castling written
//! the other ways Game Courier allows.

use cvperft::game::{ReadOptions, read_game, read_header};
use cvperft::notation::{parse_position, play_moves, to_fen};
use cvperft::position::{Move, Position};
use cvperft::record::{Labels, Notation, game_courier, games, interpret};
use cvperft::san::{parse_san, san_moves};
use cvperft::variant::Rules;
use cvperft::variants;
use std::collections::BTreeSet;
use std::path::Path;

/// Every variant × every combination of its options and game-end, with its start FEN (and
/// Silver Elephant's set-up FEN).
fn configs() -> Vec<(Rules, String)> {
    let mut out = Vec::new();
    for variant in variants::all() {
        let mut options: Vec<(&str, &[&str])> = variant
            .spec
            .options
            .iter()
            .map(|o| (o.name, o.values))
            .collect();
        options.push(("game-end", &["rules", "movegen"]));
        let mut combos = vec![Rules::new(variant)];
        for (name, values) in options {
            combos = combos
                .into_iter()
                .flat_map(|r| {
                    values.iter().map(move |value| {
                        let mut r = r;
                        r.set(name, value).expect("declared option");
                        r
                    })
                })
                .collect();
        }
        for rules in combos {
            out.push((rules, rules.start_fen()));
            if variant.spec.id == "silver-elephant" {
                out.push((rules, variants::silver_elephant::SETUP_FEN.to_string()));
            }
        }
    }
    out
}

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Every position of `games` random games of at most `plies` plies from the config's start.
fn positions(rules: Rules, start: &str, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let start = parse_position(rules, start).expect("start position");
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = start;
        out.push(pos);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}

fn all_positions() -> Vec<(Rules, Position)> {
    let mut out = Vec::new();
    for (i, (rules, start)) in configs().into_iter().enumerate() {
        for pos in positions(rules, &start, 0x5eed + i as u64, 6, 50) {
            out.push((rules, pos));
        }
    }
    out
}

/// The one Game Courier move of `text`, read in `pos`.
fn read_gc(pos: &Position, text: &str) -> Result<Move, String> {
    let games = games(text, Notation::GameCourier).map_err(|e| e.to_string())?;
    let [game] = games.as_slice() else {
        return Err(format!("{} games", games.len()));
    };
    let [written] = game.moves.as_slice() else {
        return Err(format!("{} turns", game.moves.len()));
    };
    interpret(pos, Notation::GameCourier, written, &Labels::default())
        .map_err(|p| p.reason.to_string())
}

/// Whether a SAN text has some form (a castling, a promotion, ...).
type Form = fn(&str) -> bool;

#[test]
fn san_round_trips_for_every_legal_move() {
    let all = all_positions();
    let mut moves = 0;
    // How often each form was met, so that a walk that never reaches one cannot pass silently.
    let forms: [(&str, Form); 8] = [
        ("resurrection", |s| {
            s.contains('@') && s.split(',').next().is_some_and(|p| !p.contains('@'))
        }),
        ("set-up", |s| {
            s.split(',').filter(|p| p.contains('@')).count() == 4
        }),
        ("carrier", |s| s.starts_with('+')),
        ("promotion", |s| s.contains('=')),
        ("castling", |s| s.starts_with("O-O")),
        ("disambiguated", |s| {
            let b = s.as_bytes();
            b.len() > 3
                && b[0].is_ascii_uppercase()
                && b[1] != b'x'
                && (b[1].is_ascii_lowercase() || b[1].is_ascii_digit())
                && (b[2].is_ascii_lowercase() || b[2] == b'x')
        }),
        ("capture", |s| s.contains('x')),
        ("mate", |s| s.contains('#')),
    ];
    let mut seen = [0usize; 8];
    for (rules, pos) in &all {
        let fen = to_fen(pos);
        let sans = san_moves(pos);
        let distinct: BTreeSet<&str> = sans.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(distinct.len(), sans.len(), "{rules:?}: {fen}: {sans:?}");
        for (m, text) in &sans {
            let back = parse_san(pos, text).unwrap_or_else(|e| panic!("{rules:?}: {fen}: {e}"));
            assert_eq!(back, *m, "{rules:?}: {fen}: {text}");
            moves += 1;
            for (count, (_, form)) in seen.iter_mut().zip(&forms) {
                *count += usize::from(form(text));
            }
        }
    }
    let report: Vec<String> = forms
        .iter()
        .zip(seen)
        .map(|((name, _), n)| format!("{name} {n}"))
        .collect();
    eprintln!(
        "SAN round trip: {} positions, {moves} moves ({})",
        all.len(),
        report.join(", ")
    );
    assert!(all.len() >= 5000, "{} positions", all.len());
    for ((name, _), n) in forms.iter().zip(seen) {
        assert!(n > 0, "no {name} was written: {}", report.join(", "));
    }
}

#[test]
fn game_courier_round_trips_for_every_legal_move() {
    let all = all_positions();
    let labels = Labels::default();
    let mut castlings = 0;
    for (rules, pos) in &all {
        let fen = to_fen(pos);
        for m in pos.legal_moves() {
            let text = game_courier::write(pos, &m, &labels);
            let back =
                read_gc(pos, &text).unwrap_or_else(|e| panic!("{rules:?}: {fen}: {text}: {e}"));
            assert_eq!(back, m, "{rules:?}: {fen}: {text}");
            // Castling the other ways: with the Rook's move, in either order, or the Rook
            // moving onto the King.
            let wing = if m.flags & cvperft::position::flags::CASTLE_KING != 0 {
                0
            } else if m.flags & cvperft::position::flags::CASTLE_QUEEN != 0 {
                1
            } else {
                continue;
            };
            let c = pos.rules().castles[pos.side().index()][wing].expect("castling");
            for other in [
                format!(
                    "{}-{}; {}-{}",
                    c.king_from, c.king_to, c.rook_from, c.rook_to
                ),
                format!(
                    "{}-{}; {}-{}",
                    c.rook_from, c.rook_to, c.king_from, c.king_to
                ),
                format!("{}-{}", c.rook_from, c.king_from),
            ] {
                let back = read_gc(pos, &other)
                    .unwrap_or_else(|e| panic!("{rules:?}: {fen}: {other}: {e}"));
                assert_eq!(back, m, "{rules:?}: {fen}: {other}");
            }
            castlings += 1;
        }
    }
    assert!(castlings > 0, "no castling was tried");
}

// ----- the composed records -----

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The value of `key: value` on a comment line of a record's head (`# fen: ...`).
fn header_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        l.trim_start_matches(['{', '/', '#', ';', ' '])
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix(':'))
            .map(str::trim)
    })
}

#[test]
fn composed_records_replay_to_the_same_position_in_every_notation() {
    let dir = root().join("fixtures/records");
    let mut checked = 0;
    for variant in variants::IDS {
        let base = dir.join(variant);
        let original = std::fs::read_to_string(base.join("moves.txt"))
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert!(original.contains("Composed by us"), "{variant}/moves.txt");
        let rules = variants::rules(variant).expect("variant");
        let start_fen =
            header_value(&original, "fen").map_or_else(|| rules.start_fen(), String::from);
        let start = parse_position(rules, &start_fen).expect("start");
        let moves: Vec<&str> = original
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        let end = play_moves(&start, &moves.join(" ")).unwrap_or_else(|e| panic!("{variant}: {e}"));
        for (file, notation) in [
            ("game.txt", Notation::Coordinate),
            ("game-courier.txt", Notation::GameCourier),
            ("game.pgn", Notation::San),
        ] {
            let text = std::fs::read_to_string(base.join(file))
                .unwrap_or_else(|e| panic!("{variant}/{file}: {e}"));
            assert!(
                text.contains("Composed by us"),
                "{variant}/{file} says that it is composed"
            );
            let labels: Vec<String> = header_value(&text, "labels")
                .map(|l| l.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            for chosen in [Some(notation), None] {
                let options = ReadOptions {
                    notation: chosen,
                    labels: Labels::new(rules.variant, &labels).expect("labels"),
                    ..ReadOptions::default()
                };
                // What the record's tags say must agree with moves.txt.
                let header = read_header(&text, &options)
                    .unwrap_or_else(|e| panic!("{variant}/{file}: {e}"));
                if let Some((id, _)) = header.variant {
                    assert_eq!(id, *variant, "{variant}/{file}: [Variant]");
                }
                if let Some(tag) = &header.fen {
                    assert_eq!(tag.value, start_fen, "{variant}/{file}: [FEN]");
                }
                let game = read_game(&text, &start, &options)
                    .unwrap_or_else(|e| panic!("{variant}/{file} ({chosen:?}): {e}"));
                assert_eq!(game.notation, notation, "{variant}/{file}: detected");
                let texts: Vec<&str> = game.plies.iter().map(|p| p.text.as_str()).collect();
                assert_eq!(texts, moves, "{variant}/{file} ({chosen:?})");
                assert_eq!(
                    to_fen(game.end()),
                    to_fen(&end),
                    "{variant}/{file} ({chosen:?}) ends elsewhere than moves.txt"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * variants::IDS.len());
}

/// Hostile text: random records over an alphabet of what the notations give meaning to (and
/// some they do not) are read in every variant and notation without a panic; every refusal
/// names a line and a column.
#[test]
fn arbitrary_text_is_refused_or_read_never_a_panic() {
    const ALPHABET: &[&str] = &[
        "e2", "e4", "d7", "d5", "g1", "f3", "b8", "c6", "a8", "h8", "j1", "i3", "-", "x", "*", "@",
        ";", ",", "+", "#", "=", "!", "?", "/", "//", "{", "}", "(", ")", "[", "]", "\"", "$1",
        "1.", "1...", "O-O", "0-0-0", "N", "n", "P", "p", "+R", "Q", "K", "E", "S", "T", "W", "C",
        "D", "G", "I", "e.p.", "1-0", "*", "%", " ", " ", " ", "\n", "é", "½", "\u{0}", "99",
    ];
    let mut rng = Lcg(0xbad);
    let notations = [
        None,
        Some(Notation::Coordinate),
        Some(Notation::GameCourier),
        Some(Notation::San),
    ];
    for variant in variants::all() {
        let rules = Rules::new(variant);
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        for _ in 0..1000 {
            let len = rng.below(60);
            let text: String = (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect();
            for notation in notations {
                let options = ReadOptions {
                    notation,
                    game_index: 1 + rng.below(2),
                    at_ply: (rng.below(3) == 0).then(|| rng.below(4)),
                    ..ReadOptions::default()
                };
                if let Err(e) = read_header(&text, &options) {
                    assert!(e.line >= 1 && e.column >= 1, "{text:?}: {e}");
                }
                if let Err(e) = read_game(&text, &start, &options) {
                    assert!(e.line >= 1 && e.column >= 1, "{text:?}: {e}");
                }
            }
        }
    }
}

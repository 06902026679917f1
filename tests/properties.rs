//! Property tests on random legal games of every variant, under every combination of its rule
//! options and both game-end modes (RULES.md GE-1).
//!
//! A case is a random walk: each byte picks the next move among the legal ones (modulo their
//! number) from a start position, so proptest shrinks a failure to the shortest path that
//! shows it. Every case runs the walk under every configuration ([`configs`]), so each variant
//! and option value is exercised in every run.
//!
//! The properties: FEN round-trip; move-text round-trip (compound parts in any order too);
//! divide sums to perft; deep-perft keys keep counts; perft of the generator equals perft of a slow brute-force legality
//! filter; colour-flipped positions give equal counts where the rules are colour-symmetric.
//!
//! Case counts are modest so `cargo test --release` stays fast; `PROPTEST_CASES=N` raises them
//! for a deeper run.

use cvperft::deep::keys::exact_key;
use cvperft::geometry::Square;
use cvperft::notation::{move_text, normalise_move_text, parse_move, parse_position, to_fen};
use cvperft::perft::{HashTable, divide, perft, perft_hashed};
use cvperft::position::{Move, Position, Setup, flags};
use cvperft::variant::{Colour, GameEnd, Rules, Wing};
use cvperft::variants;
use proptest::prelude::*;

/// One configuration: rules (options and game-end chosen) and a start FEN.
#[derive(Clone, Debug)]
struct Config {
    rules: Rules,
    start: String,
}

/// Every variant × every combination of its declared options × both game-end modes, from the
/// start position; Silver Elephant also from its Korean setup position (SE-5).
fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for variant in variants::all() {
        let mut combos = vec![Rules::new(variant)];
        for option in &variant.spec.options {
            combos = combos
                .iter()
                .flat_map(|r| {
                    option.values.iter().map(move |value| {
                        let mut r = *r;
                        r.set(option.name, value).expect("declared option");
                        r
                    })
                })
                .collect();
        }
        for mut rules in combos {
            for game_end in ["rules", "movegen"] {
                rules.set("game-end", game_end).expect("game-end");
                out.push(Config {
                    rules,
                    start: rules.start_fen(),
                });
                if variant.spec.id == "silver-elephant" {
                    out.push(Config {
                        rules,
                        start: variants::silver_elephant::SETUP_FEN.to_string(),
                    });
                }
            }
        }
    }
    out
}

/// The positions of the walk `bytes` from the config's start, the start included.
fn walk(config: &Config, bytes: &[u8]) -> Vec<Position> {
    let mut pos = parse_position(config.rules, &config.start).expect("start position");
    let mut out = vec![pos];
    for &b in bytes {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[b as usize % moves.len()]);
        out.push(pos);
    }
    out
}

/// The last position of the walk.
fn walk_end(config: &Config, bytes: &[u8]) -> Position {
    walk(config, bytes).pop().expect("at least the start")
}

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..=max)
}

// ----- brute-force legality -----

/// Whether some pseudo-legal move of the side to move lands on `sq` (a capture there).
fn lands_on(pos: &Position, sq: Square) -> bool {
    let mut replies = Vec::new();
    pos.pseudo_moves(&mut replies);
    replies.iter().any(|m| {
        m.has_moving_part()
            && m.to == sq
            && m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) == 0
    })
}

fn royal_squares(pos: &Position, colour: Colour) -> Vec<Square> {
    let v = pos.variant();
    v.royal_kinds
        .iter()
        .flat_map(|&k| pos.pieces_of(k, colour))
        .collect()
}

/// The same position with the other side to move and no en-passant square; `None` when that
/// is not a legal position (the side that was to move is in check).
fn other_side_to_move(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.side = setup.side.flip();
    setup.ep = None;
    Position::from_setup(*pos.rules(), &setup).ok()
}

/// The legal moves by brute force: every pseudo-legal move (with its resurrection variants)
/// is made, and refused when some pseudo-legal reply captures a royal piece of the mover;
/// castling also needs the King's start and the squares it passes to be out of reach.
fn brute_legal(pos: &Position) -> Vec<(Move, Position)> {
    if pos.rules().game_end == GameEnd::Rules && pos.decided().is_some() {
        return Vec::new();
    }
    let us = pos.side();
    let hooks = pos.variant().spec.hooks;
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let mut out = Vec::new();
    for base in pseudo {
        let mut expanded = Vec::new();
        hooks.expand(pos, &pos.play(base), base, &mut expanded);
        for m in expanded {
            let after = pos.play(m);
            if royal_squares(&after, us)
                .iter()
                .any(|&k| lands_on(&after, k))
            {
                continue;
            }
            if m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) != 0 {
                let Some(other) = other_side_to_move(pos) else {
                    continue;
                };
                let (a, b) = (
                    m.from.file().min(m.to.file()),
                    m.from.file().max(m.to.file()),
                );
                if (a..=b)
                    .map(|f| Square::new(f, m.from.rank()))
                    .any(|s| s != m.to && lands_on(&other, s))
                {
                    continue;
                }
            }
            out.push((m, after));
        }
    }
    out
}

fn brute_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    brute_legal(pos)
        .iter()
        .map(|(_, next)| brute_perft(next, depth - 1))
        .sum()
}

fn sorted_texts(pos: &Position, moves: impl Iterator<Item = Move>) -> Vec<String> {
    let mut texts: Vec<String> = moves.map(|m| move_text(pos, &m)).collect();
    texts.sort();
    texts
}

// ----- colour flips -----

/// A symmetry of the board that swaps the colours.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flip {
    /// Ranks mirrored (a1 ↔ a8): castling wings kept.
    Vertical,
    /// Turned half a circle (a1 ↔ h8): castling wings swapped.
    Rotation,
}

/// The symmetries under which a variant's rules are colour-symmetric.
///
/// - chess, silver-elephant, pink-panther: Black's pieces mirror White's across the middle
///   rank and every rule is stated per side: vertical flip. Chess and Silver Elephant castle
///   asymmetrically along the rank (King-side and Queen-side differ), so a half turn is not a
///   symmetry. Silver Elephant positions with pieces in hand are left out: White places first
///   (SE-5), so a flipped setup position is not one of the game's.
/// - bachelor-kamil: the King stands on the middle file of nine and castles the same distance
///   on both wings, so both the vertical flip and the half turn are symmetries of the rules
///   whichever Black array (BK-2) started the game.
/// - cerimon: no castling, and the beginning squares of CE-5 are the same on both wings:
///   vertical flip and half turn.
/// - pink-panther: every piece moves the same to the left and right and there is no castling:
///   vertical flip and half turn.
/// - plutonian: a vertical flip changes the colour of every square, which changes how a
///   Changeling moves (PL-2); a half turn keeps square colours, and with the text array
///   (PL-1) Black's castling is White's turned half a circle: half turn, text array only.
fn symmetries(rules: &Rules) -> &'static [Flip] {
    match rules.variant.spec.id {
        "chess" | "silver-elephant" => &[Flip::Vertical],
        "bachelor-kamil" | "cerimon" | "pink-panther" => &[Flip::Vertical, Flip::Rotation],
        "plutonian" if rules.is("black-array", "text") => &[Flip::Rotation],
        _ => &[],
    }
}

fn flip_setup(pos: &Position, flip: Flip) -> Setup {
    let g = pos.variant().geometry;
    let map = |sq: Square| {
        let file = match flip {
            Flip::Vertical => sq.file(),
            Flip::Rotation => g.files - 1 - sq.file(),
        };
        Square::new(file, g.ranks - 1 - sq.rank())
    };
    let mut setup = pos.to_setup();
    for (sq, piece) in setup.pieces.iter_mut() {
        *sq = map(*sq);
        piece.colour = piece.colour.flip();
    }
    setup.neutral = setup.neutral.iter().map(|&s| map(s)).collect();
    setup.hand.swap(0, 1);
    setup.side = setup.side.flip();
    for (colour, wing) in setup.castling.iter_mut() {
        *colour = colour.flip();
        if flip == Flip::Rotation {
            *wing = match wing {
                Wing::King => Wing::Queen,
                Wing::Queen => Wing::King,
            };
        }
    }
    setup.ep = setup.ep.map(map);
    setup
}

/// The text of a move of `pos` as its image under `flip` spells it (canonical order).
fn flip_move_text(pos: &Position, text: &str, flip: Flip) -> String {
    let g = pos.variant().geometry;
    let map = |name: &str| {
        let sq = g.parse_square(name).expect("a square of the board");
        let file = match flip {
            Flip::Vertical => sq.file(),
            Flip::Rotation => g.files - 1 - sq.file(),
        };
        Square::new(file, g.ranks - 1 - sq.rank()).to_string()
    };
    let parts: Vec<String> = text
        .split(',')
        .map(|part| match part.split_once('@') {
            Some((letter, sq)) => format!("{letter}@{}", map(sq)),
            None => format!("{}{}{}", map(&part[0..2]), map(&part[2..4]), &part[4..]),
        })
        .collect();
    normalise_move_text(pos.variant(), &parts.join(",")).expect("a well-formed move")
}

// ----- the properties -----

proptest! {
    #![proptest_config(cases(24))]

    /// Every position of a game prints a FEN that parses back to the same FEN and the same
    /// Zobrist key (nothing the moves depend on is lost).
    #[test]
    fn fen_round_trips(walk_bytes in bytes(60)) {
        for config in configs() {
            for pos in walk(&config, &walk_bytes) {
                let fen = to_fen(&pos);
                let again = parse_position(config.rules, &fen)
                    .unwrap_or_else(|e| panic!("{:?}: {fen} does not parse back: {e}", config.rules));
                prop_assert_eq!(to_fen(&again), fen.clone(), "{:?}", config.rules);
                prop_assert_eq!(again.zobrist(), pos.zobrist(), "{:?}: {}", config.rules, fen);
            }
        }
    }

    /// Every legal move's text parses back to that move, with the parts of a compound move in
    /// any order; distinct moves have distinct texts.
    #[test]
    fn move_text_round_trips(walk_bytes in bytes(60)) {
        for config in configs() {
            let pos = walk_end(&config, &walk_bytes);
            let fen = to_fen(&pos);
            let moves = pos.legal_moves();
            for m in &moves {
                let text = move_text(&pos, m);
                let back = parse_move(&pos, &text)
                    .unwrap_or_else(|e| panic!("{:?}: {fen}: {text}: {e}", config.rules));
                prop_assert_eq!(back, *m, "{:?}: {}: {}", config.rules, fen, text);
                let mut parts: Vec<&str> = text.split(',').collect();
                if parts.len() > 1 {
                    parts.reverse();
                    let reversed = parts.join(",");
                    let back = parse_move(&pos, &reversed)
                        .unwrap_or_else(|e| panic!("{:?}: {fen}: {reversed}: {e}", config.rules));
                    prop_assert_eq!(back, *m, "{:?}: {}: {}", config.rules, fen, reversed);
                }
            }
            let texts = sorted_texts(&pos, moves.iter().copied());
            let mut unique = texts.clone();
            unique.dedup();
            prop_assert_eq!(unique.len(), texts.len(), "{:?}: {}", config.rules, fen);
        }
    }

    /// A deep-perft work unit is its exact key: the position read back from the key (FEN
    /// without counters, en passant only when a capture is legal) counts as the position itself,
    /// and a table with seeded keys counts as no table.
    #[test]
    fn exact_keys_keep_counts(walk_bytes in bytes(60)) {
        for config in configs() {
            // One table per configuration: keys do not include the rule options.
            let table = HashTable::seeded(1, 0x5eed).expect("a small table");
            for pos in walk(&config, &walk_bytes).iter().step_by(7) {
                let key = exact_key(pos);
                let again = parse_position(config.rules, &key)
                    .unwrap_or_else(|e| panic!("{:?}: {key} does not parse back: {e}", config.rules));
                prop_assert_eq!(exact_key(&again), key.clone(), "{:?}", config.rules);
                for depth in 1..=2 {
                    prop_assert_eq!(perft(&again, depth), perft(pos, depth), "{:?}: {} from {}", config.rules, key, to_fen(pos));
                }
                prop_assert_eq!(perft_hashed(&again, 3, &table), perft(pos, 3), "{:?}: {}", config.rules, key);
            }
        }
    }

    /// Divide at depth 2 has one entry per legal move and its counts sum to perft 2; perft 1
    /// (bulk-counted) is the number of legal moves.
    #[test]
    fn divide_sums_to_perft(walk_bytes in bytes(60)) {
        for config in configs() {
            let pos = walk_end(&config, &walk_bytes);
            let fen = to_fen(&pos);
            let entries = divide(&pos, 2);
            let moves = pos.legal_moves();
            prop_assert_eq!(entries.len(), moves.len(), "{:?}: {}", config.rules, fen);
            prop_assert_eq!(perft(&pos, 1), moves.len() as u64, "{:?}: {}", config.rules, fen);
            let sum: u64 = entries.iter().map(|e| e.count).sum();
            prop_assert_eq!(sum, perft(&pos, 2), "{:?}: {}", config.rules, fen);
            for e in &entries {
                let m = parse_move(&pos, &e.text).expect("divide prints legal moves");
                prop_assert_eq!(e.count, perft(&pos.play(m), 1), "{:?}: {} {}", config.rules, fen, e.text);
            }
        }
    }

    /// The generator's legal moves and perft 2 equal those of the brute-force filter.
    #[test]
    fn perft_matches_brute_force(walk_bytes in bytes(60)) {
        for config in configs() {
            let pos = walk_end(&config, &walk_bytes);
            let fen = to_fen(&pos);
            let fast = sorted_texts(&pos, pos.legal_moves().into_iter());
            let slow = sorted_texts(&pos, brute_legal(&pos).into_iter().map(|(m, _)| m));
            prop_assert_eq!(fast, slow, "{:?}: {}", config.rules, fen);
            prop_assert_eq!(perft(&pos, 2), brute_perft(&pos, 2), "{:?}: {}", config.rules, fen);
        }
    }

    /// A position and its colour-flipped image have the same legal moves (mapped) and the same
    /// perft 2 where the rules are colour-symmetric (see [`symmetries`]).
    #[test]
    fn colour_flip_keeps_counts(walk_bytes in bytes(60)) {
        for config in configs() {
            let flips = symmetries(&config.rules);
            let pos = walk_end(&config, &walk_bytes);
            if config.rules.variant.spec.id == "silver-elephant"
                && !(pos.hand_is_empty(Colour::White) && pos.hand_is_empty(Colour::Black))
            {
                continue;
            }
            let fen = to_fen(&pos);
            for &flip in flips {
                let image = Position::from_setup(config.rules, &flip_setup(&pos, flip))
                    .unwrap_or_else(|e| panic!("{:?}: {fen}: {flip:?} image refused: {e}", config.rules));
                let image_fen = to_fen(&image);
                let mut mapped: Vec<String> = sorted_texts(&pos, pos.legal_moves().into_iter())
                    .iter()
                    .map(|t| flip_move_text(&pos, t, flip))
                    .collect();
                mapped.sort();
                prop_assert_eq!(
                    mapped,
                    sorted_texts(&image, image.legal_moves().into_iter()),
                    "{:?}: {} vs {:?} image {}", config.rules, fen, flip, image_fen
                );
                prop_assert_eq!(
                    perft(&pos, 2), perft(&image, 2),
                    "{:?}: {} vs {:?} image {}", config.rules, fen, flip, image_fen
                );
            }
        }
    }
}

/// The symmetries claimed above hold for the start positions themselves: each start position
/// is its own image (or, for Bachelor Kamil's rotational array, the reflective one's image).
#[test]
fn start_positions_are_their_own_images() {
    for config in configs() {
        if config.start != config.rules.start_fen() {
            continue;
        }
        let pos = parse_position(config.rules, &config.start).expect("start");
        for &flip in symmetries(&config.rules) {
            let image = Position::from_setup(config.rules, &flip_setup(&pos, flip))
                .expect("image of a start position");
            let id = config.rules.variant.spec.id;
            let self_image = match (id, flip) {
                ("bachelor-kamil", Flip::Vertical) => config.rules.is("black-array", "reflective"),
                ("bachelor-kamil", Flip::Rotation) => config.rules.is("black-array", "rotational"),
                ("cerimon" | "pink-panther", Flip::Rotation) => false,
                _ => true,
            };
            if self_image {
                // Same board and rights; only the side to move differs.
                let (a, b) = (to_fen(&pos), to_fen(&image));
                assert_eq!(
                    a.split(' ').next(),
                    b.split(' ').next(),
                    "{:?} {flip:?}",
                    config.rules
                );
                assert_eq!(
                    a.split(' ').nth(2),
                    b.split(' ').nth(2),
                    "{:?} {flip:?}",
                    config.rules
                );
            }
        }
    }
}

//! Property tests on random legal games of every variant, under every combination of its rule
//! options and both game-end modes (RULES.md GE-1).
//!
//! A case is a random walk: each byte picks the next move among the legal ones (modulo their
//! number) from a start position, so proptest shrinks a failure to the shortest path that
//! shows it. Every case runs the walk under every configuration ([`configs`]), so each variant
//! and option value is exercised in every run.
//!
//! The properties: FEN round-trip; move-text round-trip (compound parts in any order too);
//! divide sums to perft; deep-perft keys keep counts; perft of the generator equals perft of a
//! slow brute-force legality filter; colour-flipped positions give equal counts where the rules
//! are colour-symmetric; the merged last plies of perft count as the plain ply-by-ply counter.
//!
//! Case counts are modest so `cargo test --release` stays fast; `PROPTEST_CASES=N` raises them
//! for a deeper run.

use cvperft::deep::keys::exact_key;
use cvperft::geometry::Square;
use cvperft::notation::{move_text, normalise_move_text, parse_move, parse_position, to_fen};
use cvperft::perft::{HashTable, divide, perft, perft_hashed, perft_plain};
use cvperft::piece::{Atom, Movement, parse_betza};
use cvperft::position::{Move, Position, Setup, flags};
use cvperft::variant::{Colour, GameEnd, HandKind, MovementSpec, Rules, Wing};
use cvperft::variants;
use proptest::prelude::*;

/// One configuration: rules (options and game-end chosen) and a start FEN.
#[derive(Clone, Debug)]
struct Config {
    rules: Rules,
    start: String,
}

/// Every variant × every combination of its declared options × both game-end modes, from the
/// start position, and from the position before its set-up phase when it has one (Silver
/// Elephant's Korean setup, SE-5).
fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for variant in variants::all() {
        for mut rules in Rules::every_combination(variant) {
            for game_end in ["rules", "movegen"] {
                rules.set("game-end", game_end).expect("game-end");
                out.push(Config {
                    rules,
                    start: rules.start_fen(),
                });
                if let Some(setup) = variant.spec.setup_fen {
                    out.push(Config {
                        rules,
                        start: setup.to_string(),
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
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let mut out = Vec::new();
    for base in pseudo {
        let mut expanded = Vec::new();
        pos.expand(&pos.play(base), base, &mut expanded);
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

/// Where a flip sends a square of a `files` × `ranks` board.
fn flip_square(flip: Flip, files: u8, ranks: u8, sq: Square) -> Square {
    let file = match flip {
        Flip::Vertical => sq.file(),
        Flip::Rotation => files - 1 - sq.file(),
    };
    Square::new(file, ranks - 1 - sq.rank())
}

/// The symmetries under which the rules are colour-symmetric, worked out from the
/// declaration: a flip turns White's pieces into Black's, so it is a symmetry when
///
/// - every piece moves alike on both wings (for the vertical flip, which keeps left and
///   right; a half turn swaps them for both sides at once);
/// - no piece moves by the colour of its square, or the flip keeps square colours (a
///   vertical flip changes them when the board has an even number of ranks, a half turn
///   when files plus ranks is odd): Plutonian's Changeling, PL-2;
/// - the image of every castling of White is the castling of Black on the same wing
///   (vertical flip) or the other one (half turn), and the same for placement squares.
///
/// The hooks are taken to treat both sides alike (bare King, marriage, resurrection, jewel
/// jumps all do): a hook that did not would fail [`colour_flip_keeps_counts`]. Positions with
/// set-up pieces in hand are left out there: White places first (SE-5), so a flipped set-up
/// position is not one of the game's.
fn symmetries(rules: &Rules) -> Vec<Flip> {
    let v = rules.variant;
    let (files, ranks) = (v.spec.files, v.spec.ranks);
    let movements: Vec<(Movement, Movement)> = v
        .spec
        .pieces
        .iter()
        .map(|p| match p.movement {
            MovementSpec::Uniform(b) => (parse_betza(b).unwrap(), parse_betza(b).unwrap()),
            MovementSpec::BySquareColour { light, dark } => {
                (parse_betza(light).unwrap(), parse_betza(dark).unwrap())
            }
        })
        .collect();
    let mirrored = |m: &Movement| {
        let mut atoms: Vec<_> = m.atoms.iter().map(|a| Atom { dx: -a.dx, ..*a }).collect();
        let mut own = m.atoms.clone();
        let key = |a: &Atom| {
            (
                a.dx, a.dy, a.rider, a.range, a.quiet, a.capture, a.initial, a.lame,
            )
        };
        atoms.sort_by_key(key);
        own.sort_by_key(key);
        atoms == own
    };
    let same_on_both_colours = movements.iter().all(|(light, dark)| light == dark);
    let mut out = Vec::new();
    for flip in [Flip::Vertical, Flip::Rotation] {
        let (wings_kept, colours_change) = match flip {
            Flip::Vertical => (true, ranks % 2 == 0),
            Flip::Rotation => (false, (files + ranks) % 2 == 1),
        };
        if wings_kept && !movements.iter().all(|(l, d)| mirrored(l) && mirrored(d)) {
            continue;
        }
        if colours_change && !same_on_both_colours {
            continue;
        }
        let castles = Wing::BOTH.iter().all(|&wing| {
            let image_wing = match (wings_kept, wing) {
                (true, w) => w,
                (false, Wing::King) => Wing::Queen,
                (false, Wing::Queen) => Wing::King,
            };
            let white = rules.castle(Colour::White, wing);
            let black = rules.castle(Colour::Black, image_wing);
            match (white, black) {
                (None, None) => true,
                (Some(w), Some(b)) => {
                    let map = |sq| flip_square(flip, files, ranks, sq);
                    (
                        map(w.king_from),
                        map(w.king_to),
                        map(w.rook_from),
                        map(w.rook_to),
                    ) == (b.king_from, b.king_to, b.rook_from, b.rook_to)
                }
                _ => false,
            }
        });
        let placements = (0..v.spec.pieces.len()).all(|k| {
            let image: Vec<Square> = v.placement_squares[k * 2]
                .map(|sq| flip_square(flip, files, ranks, sq))
                .collect();
            let mut image = image;
            image.sort();
            image == v.placement_squares[k * 2 + 1].collect::<Vec<_>>()
        });
        if castles && placements {
            out.push(flip);
        }
    }
    out
}

fn flip_setup(pos: &Position, flip: Flip) -> Setup {
    let g = pos.variant().geometry;
    let map = |sq: Square| flip_square(flip, g.files, g.ranks, sq);
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
        flip_square(flip, g.files, g.ranks, sq).to_string()
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

    /// Perft with its last two plies merged (one pass at the parent of the counted positions,
    /// replies reused after quiet moves that cannot change them) counts as the plain counter
    /// that lists and makes every move: perft 2 at every position of the game, perft 3 at its
    /// end.
    #[test]
    fn merged_plies_count_as_plain_ones(walk_bytes in bytes(60)) {
        for config in configs() {
            let positions = walk(&config, &walk_bytes);
            for pos in &positions {
                prop_assert_eq!(
                    perft(pos, 2), perft_plain(pos, 2), "{:?}: {}", config.rules, to_fen(pos)
                );
            }
            let end = positions.last().expect("at least the start");
            prop_assert_eq!(
                perft(end, 3), perft_plain(end, 3), "{:?}: {}", config.rules, to_fen(end)
            );
        }
    }

    /// A position and its colour-flipped image have the same legal moves (mapped) and the same
    /// perft 2 where the rules are colour-symmetric (see [`symmetries`]).
    #[test]
    fn colour_flip_keeps_counts(walk_bytes in bytes(60)) {
        for config in configs() {
            let flips = symmetries(&config.rules);
            let pos = walk_end(&config, &walk_bytes);
            if config.rules.variant.spec.hand == HandKind::Setup
                && !(pos.hand_is_empty(Colour::White) && pos.hand_is_empty(Colour::Black))
            {
                continue;
            }
            let fen = to_fen(&pos);
            for &flip in &flips {
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

/// The symmetries worked out above hold at the start positions themselves: the image of each
/// start position is a legal position with the same perft 3, and every variant but those
/// whose pieces change their moves with the square colour has at least one symmetry.
#[test]
fn start_positions_count_as_their_images() {
    for config in configs() {
        if config.start != config.rules.start_fen() {
            continue;
        }
        let flips = symmetries(&config.rules);
        let variant = config.rules.variant;
        let by_colour = variant
            .spec
            .pieces
            .iter()
            .any(|p| matches!(p.movement, MovementSpec::BySquareColour { .. }));
        assert!(
            by_colour || !flips.is_empty(),
            "{:?}: no colour symmetry found",
            config.rules
        );
        let pos = parse_position(config.rules, &config.start).expect("start");
        for flip in flips {
            let image = Position::from_setup(config.rules, &flip_setup(&pos, flip))
                .expect("image of a start position");
            assert_eq!(
                perft(&pos, 3),
                perft(&image, 3),
                "{:?} {flip:?}",
                config.rules
            );
        }
    }
}

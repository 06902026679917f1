//! Cross-checks the generator's legality test against a brute-force one on random games of
//! every variant.
//!
//! Every variant of the registry is checked, under each value of each of its options.
//!
//! The generator decides legality with reverse attack tables (`Position::attacked`). The brute
//! force makes every pseudo-legal move, then generates every reply of the opponent and asks
//! whether one of them lands on the mover's royal piece; castling transit squares are tested
//! the same way from the position before castling, with the opponent to move. The two must
//! produce the same move list in every position reached. Random games use a fixed-seed
//! generator, so failures are reproducible.

use cvperft::notation::{move_text, parse_position, to_fen};
use cvperft::position::{Move, Position, flags};
use cvperft::variant::{Colour, Rules};
use cvperft::variants;

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Whether any pseudo-legal move of the side to move in `pos` lands on `sq`.
fn scan_attacks(pos: &Position, sq: cvperft::geometry::Square) -> bool {
    let mut replies = Vec::new();
    pos.pseudo_moves(&mut replies);
    replies.iter().any(|m| {
        m.has_moving_part()
            && m.to == sq
            && m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) == 0
    })
}

fn royal_squares(pos: &Position, colour: Colour) -> Vec<cvperft::geometry::Square> {
    let v = pos.variant();
    v.royal_kinds
        .iter()
        .flat_map(|&k| pos.pieces_of(k, colour))
        .collect()
}

/// The same position with the other side to move (for scanning attacks on castling squares).
fn flipped_side(pos: &Position) -> Option<Position> {
    let fen = to_fen(pos);
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields[3] = "-";
    parse_position(*pos.rules(), &fields.join(" ")).ok()
}

fn brute_legal(pos: &Position) -> Vec<String> {
    let us = pos.side();
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let mut expanded: Vec<Move> = Vec::new();
    for m in pseudo {
        let after = pos.play(m);
        let mut list = Vec::new();
        pos.expand(&after, m, &mut list);
        expanded.extend(list);
    }
    let mut out = Vec::new();
    for m in expanded {
        let after = pos.play(m);
        let safe = royal_squares(&after, us)
            .iter()
            .all(|&k| !scan_attacks(&after, k));
        if !safe {
            continue;
        }
        if m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) != 0 {
            let Some(other) = flipped_side(pos) else {
                continue;
            };
            let (a, b) = (
                m.from.file().min(m.to.file()),
                m.from.file().max(m.to.file()),
            );
            let attacked = (a..=b)
                .map(|f| cvperft::geometry::Square::new(f, m.from.rank()))
                .filter(|&s| s != m.to)
                .any(|s| scan_attacks(&other, s));
            if attacked {
                continue;
            }
        }
        out.push(move_text(pos, &m));
    }
    out.sort();
    out
}

/// The start position of `id` under `options`, the variant's own game ends off (every
/// position reached keeps its moves).
fn start_position(id: &str, options: &[(&str, &str)]) -> Position {
    let mut rules: Rules = variants::rules(id).expect("variant");
    rules.set("game-end", "movegen").expect("option");
    for (k, v) in options {
        rules.set(k, v).expect("option");
    }
    parse_position(rules, &rules.start_fen()).expect("start")
}

fn check_variant(id: &str, options: &[(&str, &str)], games: usize, plies: usize) {
    let start = start_position(id, options);
    let mut rng = Lcg(0x5eed ^ id.len() as u64);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = start;
        for _ in 0..plies {
            let fast: Vec<String> = {
                let mut l: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| move_text(&pos, m))
                    .collect();
                l.sort();
                l
            };
            let slow = brute_legal(&pos);
            assert_eq!(fast, slow, "{id}: legal moves differ in {}", to_fen(&pos));
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos = pos.play(m);
        }
    }
    assert!(
        positions > games,
        "{id}: too few positions checked ({positions})"
    );
}

/// A variant id, rule options chosen, and a number of random games.
type Configuration = (&'static str, Vec<(&'static str, &'static str)>, usize);

/// Every variant of the registry under its default options, then under each other value of
/// each of its options (the others at their defaults), with how many random games to check:
/// `default_games` under the defaults, `other_games` under each other value.
fn configurations(default_games: usize, other_games: usize) -> Vec<Configuration> {
    let mut out = Vec::new();
    for v in variants::all() {
        out.push((v.spec.id, Vec::new(), default_games));
        for option in &v.spec.options {
            for &value in &option.values[1..] {
                out.push((v.spec.id, vec![(option.name, value)], other_games));
            }
        }
    }
    out
}

/// Runs `check` on every configuration, each on its own thread.
fn for_every_configuration(
    default_games: usize,
    other_games: usize,
    check: impl Fn(&str, &[(&str, &str)], usize) + Sync,
) {
    let configurations = configurations(default_games, other_games);
    std::thread::scope(|s| {
        for (id, options, games) in &configurations {
            let check = &check;
            s.spawn(move || check(id, options, *games));
        }
    });
}

#[test]
fn every_variant_matches_brute_force() {
    for_every_configuration(30, 10, |id, options, games| {
        check_variant(id, options, games, 120)
    });
}

/// The legal moves by making and testing every pseudo-legal move (no pins, no attack maps).
fn make_and_test(pos: &Position) -> Vec<String> {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    // Each pseudo-legal move with the variants the rules add to it (Cerimon's resurrections).
    let mut expanded = Vec::new();
    for &m in &pseudo {
        pos.expand(&pos.play(m), m, &mut expanded);
    }
    let mut out: Vec<String> = expanded
        .iter()
        .filter(|m| !pos.play(**m).royal_attacked(pos.side()))
        .map(|m| move_text(pos, m))
        .collect();
    out.sort();
    out
}

/// At every node of perft `depth` below `pos` (leaves excluded, their parents bulk-counted): the bulk count at the leaves
/// and the legal move list both equal make-and-test. Returns the nodes checked.
fn fast_legality_tree(pos: &Position, depth: u32) -> usize {
    let slow = make_and_test(pos);
    assert_eq!(
        pos.count_legal(),
        slow.len() as u64,
        "bulk count in {}",
        to_fen(pos)
    );
    if pos.variant().narrow {
        assert_eq!(
            pos.narrowed().count_legal(),
            slow.len() as u64,
            "bulk count on 64-bit masks in {}",
            to_fen(pos)
        );
    }
    let mut fast: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| move_text(pos, m))
        .collect();
    fast.sort();
    assert_eq!(fast, slow, "legal moves in {}", to_fen(pos));
    let mut nodes = 1;
    if depth > 1 {
        pos.for_each_legal(|_, next| nodes += fast_legality_tree(next, depth - 1));
    }
    nodes
}

#[test]
fn pink_panther_fast_legality_matches_make_and_test() {
    let mut rules: Rules = variants::rules("pink-panther").expect("variant");
    rules.set("game-end", "movegen").expect("option");
    // Every suite position, then positions of random games every 15 plies.
    let suite = std::fs::read_to_string("suites/pink-panther.yaml").expect("suite");
    let mut roots: Vec<Position> = suite
        .lines()
        .filter_map(|l| l.trim().strip_prefix("fen: \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter_map(|fen| parse_position(rules, fen).ok())
        .collect();
    // Where the leaf counter decides jewel jumps and carrier moves without making them, at
    // the edges: a jump that unshields the General (a Queen behind the jewel), a jump by a
    // pinned Knight, a jump whose new carrier a Rook could rob onto the General, a carrier
    // step a Knight could rob onto the General, and a King passing into check. Then jumps
    // over a jewel that shields the General from a piece that cannot acquire (a Princess each
    // way, a Queen on a diagonal: the jumps are illegal), and from a Princess that slides away
    // from it (legal).
    for fen in [
        "3q2g/7/7/7/3*3/1N5/3G3 w - - 0 1",
        "6g/7/7/2*b3/7/1N5/G6 w - - 0 1",
        "3r2g/7/7/7/2*4/7/1N1G3 w - - 0 1",
        "6g/7/1n5/+N6/7/3P3/3G3 w - - 0 1",
        "4r1g/7/7/7/7/4P2/4+G2 w - - 0 1",
        "3i2g/7/7/R2*3/7/2N4/3G3 w - - 0 1",
        "3g3/7/7/r2*3/7/7/3I2G b - - 0 1",
        "6g/7/4q2/7/2*4/2P4/G1R4 w - - 0 1",
        "3G2g/7/7/R2*3/7/2Ni3/7 w - - 0 1",
    ] {
        roots.push(parse_position(rules, fen).expect(fen));
    }
    let start = parse_position(rules, &rules.start_fen()).expect("start");
    let mut rng = Lcg(0x9e37);
    for _ in 0..12 {
        let mut pos = start;
        for ply in 0..90 {
            if ply % 15 == 14 {
                roots.push(pos);
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    assert!(roots.len() > 100, "too few roots: {}", roots.len());
    let nodes: usize = roots.iter().map(|r| fast_legality_tree(r, 4)).sum();
    assert!(nodes > 500_000, "too few nodes: {nodes}");
}

/// The leaf counter and the legal move list of every variant against make-and-test, at every
/// node of perft 3 below positions of random games (one every 7 plies). Positions in check by
/// one table piece are counted through the check mask, and random games reach many.
#[test]
fn every_variant_fast_legality_matches_make_and_test() {
    for_every_configuration(4, 1, |id, options, games| {
        let start = start_position(id, options);
        let mut rng = Lcg(0xc0ffee ^ id.len() as u64);
        let (mut nodes, mut in_check) = (0, 0);
        for _ in 0..games {
            let mut pos = start;
            for ply in 0..70 {
                if ply % 7 == 6 {
                    nodes += fast_legality_tree(&pos, 3);
                }
                in_check += usize::from(pos.in_check());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
        assert!(
            nodes > 500 * games,
            "{id} {options:?}: too few nodes: {nodes}"
        );
        if games > 1 {
            assert!(in_check > 0, "{id}: no position in check along the games");
        }
    });
}

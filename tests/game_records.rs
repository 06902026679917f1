//! Game records: SAN written and read back for every legal move of random-game positions.
//!
//! Round trips: every variant under every combination of its options and both game-end modes
//! (Silver Elephant also from its set-up position), fixed-seed random games, every position of
//! every game; every legal move is written as SAN and read back to the same move, and no two
//! legal moves share a SAN.

use cvperft::notation::{parse_position, to_fen};
use cvperft::position::Position;
use cvperft::san::{parse_san, san_moves};
use cvperft::variant::Rules;
use cvperft::variants;
use std::collections::BTreeSet;

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

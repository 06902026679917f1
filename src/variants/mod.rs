//! The variant registry: one file per variant, named by its id. Every test, bench and tool
//! that goes over the variants reads [`IDS`] or [`all`], so a variant added here is tested
//! everywhere (see `docs/adding-a-variant.md`).

use crate::variant::{Rules, Variant, VariantSpec};
use std::sync::OnceLock;

pub use crate::variant::{castle, corner_castling, sq};

pub mod bachelor_kamil;
pub mod cerimon;
pub mod chess;
pub mod marriage;
pub mod pink_panther;
pub mod plutonian;
pub mod silver_elephant;

/// Ids of every variant, in the order `cvperft variants` lists them.
pub const IDS: &[&str] = &[
    "chess",
    "silver-elephant",
    "bachelor-kamil",
    "cerimon",
    "plutonian",
    "pink-panther",
];

fn declare(id: &str) -> Option<VariantSpec> {
    Some(match id {
        "chess" => chess::spec(),
        "silver-elephant" => silver_elephant::spec(),
        "bachelor-kamil" => bachelor_kamil::spec(),
        "cerimon" => cerimon::spec(),
        "plutonian" => plutonian::spec(),
        "pink-panther" => pink_panther::spec(),
        _ => return None,
    })
}

static COMPILED: OnceLock<Vec<Variant>> = OnceLock::new();

/// Every variant, compiled once.
///
/// # Panics
/// When a built-in declaration does not compile (a programming error the unit tests catch).
pub fn all() -> &'static [Variant] {
    COMPILED.get_or_init(|| {
        IDS.iter()
            .map(|id| {
                let spec = declare(id).expect("every id has a declaration");
                Variant::compile(spec)
                    .unwrap_or_else(|e| panic!("variant {id} does not compile: {e}"))
            })
            .collect()
    })
}

/// The variant with this id.
pub fn get(id: &str) -> Option<&'static Variant> {
    all().iter().find(|v| v.spec.id == id)
}

/// The rules of variant `id` with every option at its default.
pub fn rules(id: &str) -> Option<Rules> {
    get(id).map(Rules::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_position, to_fen};
    use crate::variant::RuleHooksAt;

    #[test]
    fn every_variant_compiles_and_its_start_round_trips() {
        for v in all() {
            let rules = Rules::new(v);
            let fen = rules.start_fen();
            let pos = parse_position(rules, &fen).unwrap_or_else(|e| panic!("{}: {e}", v.spec.id));
            assert_eq!(to_fen(&pos), fen, "{}", v.spec.id);
        }
    }

    /// The example of `docs/adding-a-variant.md`, kept here so that it compiles.
    fn example_spec() -> VariantSpec {
        use crate::variant::{MoveKind, MoveRuling, OptionSpec, PieceSpec, corner_castling};
        let mut spec = VariantSpec {
            id: "my-variant",
            name: "My Variant",
            files: 9,
            ranks: 8,
            start_fen: "rnbqakbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQAKBNR w KQkq - 0 1",
            castling: corner_castling(9, 8, 'f', ('h', 'g'), ('d', 'e')),
            options: vec![
                OptionSpec::new(
                    "black-array",
                    &["mirror", "swapped"],
                    "MV-2",
                    "Black's Q and A",
                )
                .with_start(
                    "swapped",
                    "rnbaqkbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQAKBNR w KQkq - 0 1",
                ),
            ],
            rulings: &["GE-1", "MV-1", "MV-2", "MV-3", "MV-4", "FIDE-EN-PASSANT"],
            move_rulings: vec![
                MoveRuling::new(MoveKind::Castling, "MV-4"),
                MoveRuling::new(MoveKind::EnPassant, "FIDE-EN-PASSANT"),
                MoveRuling::new(MoveKind::Promotion, "MV-3"),
            ],
            ..chess::spec()
        }
        .inserting_after("Q", PieceSpec::new("A", "Archbishop", "BN").ruling("MV-3"));
        spec.piece_mut("P").promotes_to = &["Q", "A", "R", "B", "N"];
        spec
    }

    #[test]
    fn the_documented_example_compiles_and_plays() {
        let variant: &'static Variant = Box::leak(Box::new(
            Variant::compile(example_spec()).expect("compiles"),
        ));
        for value in ["mirror", "swapped"] {
            let mut rules = Rules::new(variant);
            rules.set("black-array", value).expect("option");
            let pos = parse_position(rules, &rules.start_fen()).expect("start");
            assert_eq!(to_fen(&pos), rules.start_fen());
            // Nine pawns with a single and a double step each, two moves for each Knight and
            // two Knight moves for the Archbishop (d3, f3).
            assert_eq!(pos.count_legal(), 24);
        }
    }

    /// The example's body in `docs/adding-a-variant.md` is the one compiled above (spaces
    /// and line breaks aside), so the page cannot drift from what is tested.
    #[test]
    fn the_documented_example_is_the_tested_one() {
        let squeeze = |text: &str| -> String {
            let start = text
                .find("let mut spec = VariantSpec {")
                .expect("the example's start");
            let body = &text[start..];
            let last = body
                .find("promotes_to = &[")
                .expect("the example's last line");
            let end = last + body[last..].find("];").expect("the example's end");
            body[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .replace(",)", ")")
        };
        let page = include_str!("../../docs/adding-a-variant.md");
        let test = include_str!("mod.rs");
        let test = &test[test.find("fn example_spec()").expect("example_spec")..];
        assert_eq!(squeeze(page), squeeze(test));
    }

    /// The generator asks a variant's `expand` only while the side to move holds a piece of a
    /// kind with placement squares (`Variant::expands`, `Position::expand`): an expansion
    /// doing anything else would be silently skipped. So every variant an expansion adds
    /// must be the base move plus placements of such pieces from the mover's hand on their
    /// placement squares. Checked at every position of random games of every variant, with the
    /// hook asked directly.
    #[test]
    fn expansions_only_place_pieces_from_the_hand() {
        let mut seed: u64 = 0x0ddba11;
        let mut expanded = 0;
        for v in all() {
            let Some(hooks) = v.rule_hooks() else {
                continue;
            };
            let mut rules = Rules::new(v);
            rules.set("game-end", "movegen").expect("option");
            let start = parse_position(rules, &rules.start_fen()).expect("start");
            for _ in 0..20 {
                let mut pos = start;
                for _ in 0..60 {
                    let mut pseudo = Vec::new();
                    pos.pseudo_moves(&mut pseudo);
                    for &m in &pseudo {
                        let mut out = Vec::new();
                        RuleHooksAt::<u128>::expand(hooks, &pos, &pos.play(m), m, &mut out);
                        let us = pos.side();
                        for e in out.iter().filter(|e| **e != m) {
                            let mut base = *e;
                            base.placements = m.placements;
                            assert_eq!(base, m, "{}", to_fen(&pos));
                            for (kind, sq) in e.placement_list() {
                                let squares = v.placement_squares[kind as usize * 2 + us.index()];
                                assert!(
                                    squares.has(sq) && pos.hand_count(us, kind) > 0,
                                    "{}: {kind} on {sq}",
                                    to_fen(&pos)
                                );
                            }
                            expanded += 1;
                        }
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    pos = pos.play(moves[(seed >> 33) as usize % moves.len()]);
                }
            }
        }
        assert!(expanded > 0, "no move was expanded along the games");
    }
}

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

    /// The generator asks a variant's `expand` only when the side to move has pieces in hand
    /// (expansions place pieces from it): an expansion anywhere else would be silently
    /// skipped. Checked at every position of random games of every variant, with the hook
    /// asked directly.
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
                        if out.len() > 1 {
                            assert!(!pos.hand_is_empty(pos.side()), "{}", to_fen(&pos));
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

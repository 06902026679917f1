//! The variant registry: one file per variant, named by its id.

use crate::geometry::Square;
use crate::variant::{CastleSpec, Colour, Rules, Variant, VariantSpec, Wing};
use std::sync::OnceLock;

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

/// A square from its name, for declarations (`"e1"`).
///
/// # Panics
/// On a malformed name: declarations are code.
pub fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    let file = b[0] - b'a';
    let rank: u8 = name[1..].parse().expect("rank digits");
    Square::new(file, rank - 1)
}

/// One castling declaration: King `king_from`→`king_to`, Rook `rook_from`→`rook_to`.
pub fn castle(
    colour: Colour,
    wing: Wing,
    king_from: &str,
    king_to: &str,
    rook_from: &str,
    rook_to: &str,
) -> (Colour, Wing, CastleSpec) {
    (
        colour,
        wing,
        CastleSpec {
            king_from: sq(king_from),
            king_to: sq(king_to),
            rook_from: sq(rook_from),
            rook_to: sq(rook_to),
        },
    )
}

/// The four castlings of a King on `king_file` with Rooks in the corners of a `ranks`-high
/// board: King-side King to `short_to` and Rook to `short_rook`, Queen-side King to `long_to`
/// and Rook to `long_rook` (file letters), mirrored on the top rank for Black.
pub fn corner_castling(
    files: u8,
    ranks: u8,
    king_file: char,
    short: (char, char),
    long: (char, char),
) -> Vec<(Colour, Wing, CastleSpec)> {
    let last_file = (b'a' + files - 1) as char;
    let mut out = Vec::new();
    for (colour, rank) in [(Colour::White, 1), (Colour::Black, ranks)] {
        let s = |f: char| format!("{f}{rank}");
        out.push(castle(
            colour,
            Wing::King,
            &s(king_file),
            &s(short.0),
            &s(last_file),
            &s(short.1),
        ));
        out.push(castle(
            colour,
            Wing::Queen,
            &s(king_file),
            &s(long.0),
            &s('a'),
            &s(long.1),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_position, to_fen};

    #[test]
    fn every_variant_compiles_and_its_start_round_trips() {
        for v in all() {
            let rules = Rules::new(v);
            let fen = rules.start_fen();
            let pos = parse_position(rules, &fen).unwrap_or_else(|e| panic!("{}: {e}", v.spec.id));
            assert_eq!(to_fen(&pos), fen, "{}", v.spec.id);
        }
    }

    /// The generator asks `replace_moves` and `expands_here` only of variants that declare
    /// them (`replaces_moves`, `expands`): a hook that answers true where its variant does not
    /// declare it would be silently skipped. Checked at every position up to two plies from
    /// each start, and from Silver Elephant's set-up phase (the suite's `setup-d6`).
    #[test]
    fn move_hooks_that_act_are_declared() {
        const SE_SETUP: &str =
            "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1";
        let mut roots: Vec<(Rules, String)> = all()
            .iter()
            .map(|v| (Rules::new(v), Rules::new(v).start_fen()))
            .collect();
        roots.push((
            rules("silver-elephant").expect("variant"),
            SE_SETUP.to_string(),
        ));
        let mut replaced = 0;
        for (rules, fen) in roots {
            let v = rules.variant;
            let hooks = v.spec.hooks;
            let mut frontier = vec![parse_position(rules, &fen).expect("root")];
            let mut positions = frontier.clone();
            for _ in 0..2 {
                let mut next = Vec::new();
                for pos in &frontier {
                    pos.for_each_legal_unchecked(|_, after| next.push(*after));
                }
                positions.extend_from_slice(&next);
                frontier = next;
            }
            for pos in &positions {
                if hooks.replace_moves(pos, &mut Vec::new()) {
                    assert!(hooks.replaces_moves(), "{}: replaces_moves", v.spec.id);
                    replaced += 1;
                }
                if hooks.expands_here(pos) {
                    assert!(hooks.expands(), "{}: expands", v.spec.id);
                }
            }
        }
        assert!(replaced > 0, "no position of a set-up phase was visited");
    }
}

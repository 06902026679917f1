//! Planted move-generation bugs, to prove that `cvperft diff` finds them.
//!
//! A fault is a named, deliberate mistake applied to the legal move list of every position of a
//! perft tree: it removes moves a correct generator makes (`no-en-passant`) or adds moves it
//! refuses (`castle-through-check`). The ordinary generator in [`crate::position`] knows nothing
//! of faults, so they cost nothing when off: only [`perft`] and [`divide`] of this module (used by
//! `cvperft perftree --inject` and the reference engine) apply them.
//!
//! # Adding a fault
//! Add one [`FaultSpec`] to [`FAULTS`]: a name, the variants it applies to (empty: all), one
//! line of help, and a function that edits the legal moves of one position. Besides the three
//! orthodox faults, each fairy variant has one on its own special rule (an Elephant that forgets
//! its leap, a Gnu without its Camel half, a Changeling without its Knight half, checks that
//! never resurrect, a jewel that is never passed on).

use crate::geometry::Square;
use crate::notation::move_text;
use crate::perft::DivideEntry;
use crate::position::{Move, Position, flags};
use crate::variant::{GameEnd, MoveKind, Wing, classify};
use std::fmt;

/// One legal move and the position after it.
pub type Child = (Move, Position);

/// Edits the legal moves of `pos` (already filtered for legality) the way the fault does.
pub type FaultEdit = fn(pos: &Position, moves: &mut Vec<Child>);

/// A fault as the registry declares it.
pub struct FaultSpec {
    /// The name used with `--inject`.
    pub name: &'static str,
    /// Variant ids it applies to; empty for every variant.
    pub variants: &'static [&'static str],
    /// One line: what the generator then gets wrong.
    pub help: &'static str,
    /// The edit.
    pub edit: FaultEdit,
}

/// Every fault, by name.
pub const FAULTS: &[FaultSpec] = &[
    FaultSpec {
        name: "no-en-passant",
        variants: &[],
        help: "never captures en passant",
        edit: drop_en_passant,
    },
    FaultSpec {
        name: "castle-through-check",
        variants: &[],
        help: "lets the King castle across attacked squares",
        edit: castle_through_check,
    },
    FaultSpec {
        name: "no-promotion-to-knight",
        variants: &[],
        help: "never promotes to a Knight",
        edit: drop_knight_promotions,
    },
    FaultSpec {
        name: "elephant-no-leap",
        variants: &["silver-elephant"],
        help: "the Silver Elephant never leaps two squares",
        edit: elephant_no_leap,
    },
    FaultSpec {
        name: "gnu-no-camel",
        variants: &["bachelor-kamil"],
        help: "the Gnu moves as a Knight only",
        edit: gnu_no_camel,
    },
    FaultSpec {
        name: "changeling-no-knight",
        variants: &["plutonian"],
        help: "the Changeling never makes its Knight moves",
        edit: changeling_no_knight,
    },
    FaultSpec {
        name: "no-resurrection",
        variants: &["cerimon"],
        help: "a check never brings a lost piece back",
        edit: no_resurrection,
    },
    FaultSpec {
        name: "no-jewel-pass",
        variants: &["pink-panther"],
        help: "a carrier never hands the Pink Panther to an ally",
        edit: no_jewel_pass,
    },
];

/// A fault name that is not registered or does not apply to the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown fault `{name}` for {variant} (faults: {})", .known.join(", "))]
pub struct FaultError {
    /// The name given.
    pub name: String,
    /// The variant id.
    pub variant: String,
    /// The faults that apply to the variant.
    pub known: Vec<&'static str>,
}

/// A set of faults chosen for one variant.
#[derive(Clone, Default)]
pub struct Faults {
    active: Vec<&'static FaultSpec>,
}

impl fmt::Debug for Faults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.active.iter().map(|s| s.name))
            .finish()
    }
}

impl Faults {
    /// No fault: the correct generator.
    pub fn none() -> Faults {
        Faults::default()
    }

    /// The faults named in `names`, checked against `variant`.
    ///
    /// # Errors
    /// An unknown name, or a fault that does not apply to the variant; the message lists the
    /// faults that do.
    pub fn parse(variant: &str, names: &[String]) -> Result<Faults, FaultError> {
        let mut active = Vec::new();
        for name in names {
            let spec = FAULTS
                .iter()
                .find(|s| s.name == name.as_str())
                .filter(|s| s.variants.is_empty() || s.variants.contains(&variant))
                .ok_or_else(|| FaultError {
                    name: name.clone(),
                    variant: variant.to_string(),
                    known: names_for(variant),
                })?;
            if !active.iter().any(|a: &&FaultSpec| a.name == spec.name) {
                active.push(spec);
            }
        }
        Ok(Faults { active })
    }

    /// Whether no fault is active.
    pub fn is_empty(&self) -> bool {
        self.active.is_empty()
    }

    /// The active fault names.
    pub fn names(&self) -> Vec<&'static str> {
        self.active.iter().map(|s| s.name).collect()
    }

    /// The legal moves of `pos` with the faults applied, each with the position after it.
    pub fn children(&self, pos: &Position) -> Vec<Child> {
        let mut out = Vec::new();
        pos.for_each_legal(|m, next| out.push((m, *next)));
        let decided = pos.rules().game_end == GameEnd::Rules && pos.decided().is_some();
        if !decided {
            for spec in &self.active {
                (spec.edit)(pos, &mut out);
            }
        }
        out
    }
}

/// The fault names that apply to `variant`.
pub fn names_for(variant: &str) -> Vec<&'static str> {
    FAULTS
        .iter()
        .filter(|s| s.variants.is_empty() || s.variants.contains(&variant))
        .map(|s| s.name)
        .collect()
}

/// Perft with the faults applied at every node.
pub fn perft(pos: &Position, depth: u32, faults: &Faults) -> u64 {
    if faults.is_empty() {
        return crate::perft::perft(pos, depth);
    }
    match depth {
        0 => 1,
        1 => faults.children(pos).len() as u64,
        _ => crate::perft::sum(
            faults
                .children(pos)
                .iter()
                .map(|(_, next)| perft(next, depth - 1, faults)),
        ),
    }
}

/// Divide with the faults applied at every node, sorted by move text.
pub fn divide(pos: &Position, depth: u32, faults: &Faults) -> Vec<DivideEntry> {
    if faults.is_empty() {
        return crate::perft::divide(pos, depth);
    }
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<DivideEntry> = faults
        .children(pos)
        .iter()
        .map(|(m, next)| DivideEntry {
            text: move_text(pos, m),
            count: perft(next, depth - 1, faults),
        })
        .collect();
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

/// Whether `m` (a move of `pos`) has a part of `kind`.
fn is_kind(pos: &Position, m: &Move, kind: MoveKind) -> bool {
    classify(pos, m).iter().any(|c| c.kind == kind)
}

/// Whether `m` (a move of `pos`) has a part that falls under `ruling`.
fn under_ruling(pos: &Position, m: &Move, ruling: &str) -> bool {
    classify(pos, m).iter().any(|c| c.ruling == Some(ruling))
}

fn drop_en_passant(pos: &Position, moves: &mut Vec<Child>) {
    moves.retain(|(m, _)| !is_kind(pos, m, MoveKind::EnPassant));
}

fn drop_knight_promotions(pos: &Position, moves: &mut Vec<Child>) {
    let knight = pos.variant().kind_by_fen("N");
    moves.retain(|(m, _)| m.promotion == 0 || Some(m.promotion - 1) != knight);
}

/// Drops the moves of pieces spelled `fen` whose (file, rank) offset, ignoring signs and order,
/// is `leap`.
fn drop_leaps(pos: &Position, moves: &mut Vec<Child>, fen: &str, leap: (u8, u8)) {
    let Some(kind) = pos.variant().kind_by_fen(fen) else {
        return;
    };
    moves.retain(|(m, _)| {
        if !is_kind(pos, m, MoveKind::Ordinary) {
            return true;
        }
        let moving = pos.piece_at(m.from).map(|p| p.kind);
        let dx = m.from.file().abs_diff(m.to.file());
        let dy = m.from.rank().abs_diff(m.to.rank());
        let (small, large) = (dx.min(dy), dx.max(dy));
        !(moving == Some(kind) && (small, large) == leap)
    });
}

fn elephant_no_leap(pos: &Position, moves: &mut Vec<Child>) {
    drop_leaps(pos, moves, "E", (0, 2));
    drop_leaps(pos, moves, "E", (2, 2));
}

fn gnu_no_camel(pos: &Position, moves: &mut Vec<Child>) {
    drop_leaps(pos, moves, "W", (1, 3));
}

fn changeling_no_knight(pos: &Position, moves: &mut Vec<Child>) {
    drop_leaps(pos, moves, "C", (1, 2));
}

fn no_resurrection(pos: &Position, moves: &mut Vec<Child>) {
    moves.retain(|(m, _)| !under_ruling(pos, m, "CE-5"));
}

fn no_jewel_pass(pos: &Position, moves: &mut Vec<Child>) {
    moves.retain(|(m, _)| !under_ruling(pos, m, "PP-6"));
}

/// Adds the castlings the correct generator refused only because the King would pass over an
/// attacked square. Castling out of check and onto an attacked square stay illegal.
fn castle_through_check(pos: &Position, moves: &mut Vec<Child>) {
    let us = pos.side();
    if pos.in_check() {
        return;
    }
    let blockers = pos.occupied() | pos.neutral();
    for wing in [Wing::King, Wing::Queen] {
        if !pos.has_castling(us, wing) {
            continue;
        }
        let Some(c) = pos.rules().castles[us.index()][wing as usize] else {
            continue;
        };
        let flag = match wing {
            Wing::King => flags::CASTLE_KING,
            Wing::Queen => flags::CASTLE_QUEEN,
        };
        if moves.iter().any(|(m, _)| m.flags & flag != 0) {
            continue;
        }
        let rank = c.king_from.rank();
        let files = [c.king_from, c.king_to, c.rook_from, c.rook_to].map(|s| s.file());
        let lo = files.iter().copied().min().unwrap_or(0);
        let hi = files.iter().copied().max().unwrap_or(0);
        let blocked = (lo..=hi)
            .map(|f| Square::new(f, rank))
            .any(|sq| sq != c.king_from && sq != c.rook_from && blockers.has(sq));
        if blocked {
            continue;
        }
        let mut m = Move::new(c.king_from, c.king_to);
        m.flags = flag;
        let next = pos.play(m);
        if !next.royal_attacked(us) {
            moves.push((m, next));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::variants;

    fn position(fen: &str) -> Position {
        parse_position(variants::rules("chess").expect("chess"), fen).expect("fen")
    }

    fn texts(pos: &Position, faults: &Faults) -> Vec<String> {
        divide(pos, 1, faults).into_iter().map(|e| e.text).collect()
    }

    fn faults(name: &str) -> Faults {
        Faults::parse("chess", &[name.to_string()]).expect("fault")
    }

    #[test]
    fn unknown_fault_lists_the_known_ones() {
        let e = Faults::parse("chess", &["nope".into()]).unwrap_err();
        assert!(e.known.contains(&"no-en-passant"), "{e}");
        assert!(
            e.to_string()
                .starts_with("unknown fault `nope` for chess (faults: ")
        );
    }

    #[test]
    fn no_en_passant_drops_the_capture() {
        let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert!(texts(&pos, &Faults::none()).contains(&"e5d6".to_string()));
        assert!(!texts(&pos, &faults("no-en-passant")).contains(&"e5d6".to_string()));
    }

    #[test]
    fn castle_through_check_adds_the_castling() {
        // The Rook on f8 attacks f1: the King may not pass it.
        let pos = position("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(!texts(&pos, &Faults::none()).contains(&"e1g1".to_string()));
        assert!(texts(&pos, &faults("castle-through-check")).contains(&"e1g1".to_string()));
        // Still not out of check.
        let pos = position("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(!texts(&pos, &faults("castle-through-check")).contains(&"e1g1".to_string()));
    }

    #[test]
    fn no_promotion_to_knight_drops_it() {
        let pos = position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let with = texts(&pos, &Faults::none());
        let without = texts(&pos, &faults("no-promotion-to-knight"));
        assert!(with.contains(&"b7b8n".to_string()));
        assert!(!without.contains(&"b7b8n".to_string()));
        assert_eq!(with.len(), without.len() + 1);
    }

    #[test]
    fn faults_off_is_the_plain_generator() {
        let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(
            perft(&pos, 2, &Faults::none()),
            crate::perft::perft(&pos, 2)
        );
    }
}

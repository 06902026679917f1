//! `cerimon`: Cerimon Chess (RULES.md CE-1 to CE-6).
//!
//! Data: chess with the Sergeant (`fWfF` plus initial two-square straight or diagonal steps)
//! for the Pawn and the Terror `QN` for the Queen, no castling, no en passant, captured pieces
//! kept in their owner's hand, the beginning squares of the Knights, Bishops, Rooks and
//! Sergeants as their placement squares. Hook: resurrection (CE-5), which turns each move
//! giving check by a Knight, Bishop, Rook or Sergeant into that move plus every possible
//! placement of a lost piece of a checking type on an empty beginning square.

use super::chess;
use crate::geometry::Bitboard;
use crate::position::{Move, Position};
use crate::variant::hooks::RuleViolation;
use crate::variant::{
    Colour, HandKind, MoveKind, MoveRuling, OptionSpec, PieceSpec, RuleHooksAt, SpecError, Variant,
    VariantHooks, VariantSpec, Width,
};

/// The order in which lost pieces are offered back, which fixes the order of the moves
/// generated (the pieces with beginning squares, CE-5).
const OFFER_ORDER: [&str; 4] = ["N", "B", "R", "S"];

/// Each piece's count in the start array, besides the King.
const START_COUNTS: [(&str, u32); 5] = [("S", 4), ("N", 4), ("B", 4), ("R", 2), ("T", 1)];

/// The hooks, with the piece kinds they name.
struct Cerimon {
    /// Each kind a check may bring back, with its beginning squares per colour.
    resurrecting: Vec<(u8, [Bitboard; 2])>,
    sergeant: u8,
    king: u8,
    /// The kinds a Sergeant promotes to, with their start counts.
    promoted: Vec<(u8, u32)>,
}

impl Cerimon {
    fn build(v: &Variant) -> Result<VariantHooks, SpecError> {
        let mut resurrecting = Vec::new();
        let mut offered = 0u16;
        for letter in OFFER_ORDER {
            let kind = v.kind(letter)?;
            let at = kind as usize * 2;
            resurrecting.push((kind, [v.placement_squares[at], v.placement_squares[at + 1]]));
            offered |= 1 << kind;
        }
        if offered != v.placeable_kinds {
            return Err(SpecError::Hooks {
                variant: v.spec.id,
                problem: "the pieces offered back are not those with beginning squares".into(),
            });
        }
        let promoted = START_COUNTS
            .iter()
            .filter(|(letter, _)| *letter != "S")
            .map(|&(letter, count)| Ok((v.kind(letter)?, count)))
            .collect::<Result<_, SpecError>>()?;
        Ok(VariantHooks::with_rules(Cerimon {
            resurrecting,
            sergeant: v.kind("S")?,
            king: v.kind("K")?,
            promoted,
        }))
    }
}

impl<B: Width> RuleHooksAt<B> for Cerimon {
    fn expand(&self, before: &Position<B>, after: &Position<B>, m: Move, out: &mut Vec<Move>) {
        out.push(m);
        let us = before.side();
        let Some(king) = after.pieces_of(self.king, us.flip()).first() else {
            return;
        };
        let checkers = after.attackers(king, us);
        if checkers.is_empty() {
            return;
        }
        let moved_only = before.rules().is("resurrect-by", "moved-piece");
        for &(kind, squares) in &self.resurrecting {
            if before.hand_count(us, kind) == 0 {
                continue;
            }
            let gives_check = if moved_only {
                checkers.has(m.to) && after.piece_at(m.to).is_some_and(|p| p.kind == kind)
            } else {
                (checkers & after.pieces_of(kind, us)).count() > 0
            };
            if !gives_check {
                continue;
            }
            for sq in squares[us.index()].to::<B>() & !after.occupied() {
                let mut with = m;
                with.add_placement(kind, sq);
                out.push(with);
            }
        }
    }

    /// Only a check by a held kind brings a piece back (CE-5). When every held kind that may
    /// be placed is a plain leaper (Knight, Sergeant), none of ours checks now and the
    /// variant has no special captures, such a check after a base move comes from the moved
    /// piece alone (leaps are not discovered), arriving where its kind attacks the other King,
    /// or from a promotion: only the held kinds' moves onto those squares may expand.
    fn expanding_moves(&self, pos: &Position<B>) -> Option<(u16, Bitboard<B>)> {
        let v = pos.variant();
        if v.special_captures {
            return None;
        }
        let us = pos.side();
        let king = pos.pieces_of(self.king, us.flip()).first()?;
        let mut kinds = 0u16;
        let mut targets = Bitboard::NONE;
        for &(kind, _) in &self.resurrecting {
            if pos.hand_count(us, kind) == 0 {
                continue;
            }
            let kc = kind as usize * 2 + us.index();
            if v.slider_kinds[us.index()] >> kind & 1 != 0 || v.has_rides[kc] {
                return None;
            }
            let from = v.leap_attackers[Variant::slot(kind, us, king)].to::<B>();
            if from.intersects(pos.pieces_of(kind, us)) {
                return None;
            }
            kinds |= 1 << kind;
            targets |= from;
        }
        Some((kinds, targets))
    }

    fn validate(&self, pos: &Position<B>) -> Result<(), RuleViolation> {
        for c in Colour::BOTH {
            if pos.hand_count(c, self.king) > 0 {
                return Err(RuleViolation::NeverInHand {
                    piece: "King",
                    ruling: "CE-4",
                });
            }
            let total = |k: u8| pos.pieces_of(k, c).count() + pos.hand_count(c, k) as u32;
            let sergeants = total(self.sergeant);
            if sergeants > 4 {
                return Err(RuleViolation::TooMany {
                    colour: c,
                    count: sergeants,
                    pieces: "Sergeants",
                    most: 4,
                });
            }
            let promoted: u32 = self
                .promoted
                .iter()
                .map(|&(k, start)| total(k).saturating_sub(start))
                .sum();
            if promoted + sergeants > 4 {
                return Err(RuleViolation::BeyondPromotions {
                    colour: c,
                    ruling: "CE-4",
                });
            }
        }
        Ok(())
    }
}

/// The declaration: chess with the Sergeant for the Pawn and the Terror for the Queen.
pub fn spec() -> VariantSpec {
    let mut spec = VariantSpec {
        id: "cerimon",
        name: "Cerimon Chess",
        start_fen: "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[] w - - 0 1",
        castling: vec![],
        en_passant: false,
        hand: HandKind::LostPieces,
        options: vec![OptionSpec::new(
            "resurrect-by",
            &["any-checker", "moved-piece"],
            "CE-5",
            "which checks resurrect: any checking Knight, Bishop, Rook or Sergeant, or only the moved piece",
        )],
        rulings: &["GE-1", "CE-1", "CE-2", "CE-3", "CE-4", "CE-5", "CE-6"],
        move_rulings: vec![
            MoveRuling::new(MoveKind::Promotion, "CE-3"),
            MoveRuling::new(MoveKind::AddedPlacement, "CE-5").named("resurrection"),
        ],
        hooks: Some(Cerimon::build),
        ..chess::spec()
    }
    .replacing(
        "P",
        PieceSpec::new("S", "Sergeant", "fWfFifmnDifmnA")
            .pawn(&["T", "R", "B", "N"])
            .ruling("CE-2")
            .placed_on(&["c2", "d2", "e2", "f2"]),
    )
    .replacing("Q", PieceSpec::new("T", "Terror", "QN").ruling("CE-2"));
    spec.piece_mut("N").placement_squares = &["a2", "b2", "g2", "h2"];
    spec.piece_mut("B").placement_squares = &["b1", "c1", "f1", "g1"];
    spec.piece_mut("R").placement_squares = &["a1", "h1"];
    spec
}

#[cfg(test)]
mod tests {
    use crate::notation::{parse_move, parse_position};
    use crate::variant::{MoveKind, classify};
    use crate::variants;

    /// The classifier names a resurrection (CE-5), a promotion (CE-3) and the Sergeant's and
    /// Terror's moves (CE-2).
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("cerimon").expect("variant");
        let pos = parse_position(rules, "8/2S1k3/8/8/8/8/3T4/4K3[Nn] w - - 0 1").expect("fen");
        let kinds = |text: &str| -> Vec<(MoveKind, &str, Option<&str>)> {
            let m = parse_move(&pos, text).expect(text);
            classify(&pos, &m)
                .iter()
                .map(|c| (c.kind, c.name, c.ruling))
                .collect()
        };
        assert_eq!(
            kinds("c7c8n,N@a2"),
            [
                (MoveKind::Ordinary, "ordinary move", Some("CE-2")),
                (MoveKind::Promotion, "promotion", Some("CE-3")),
                (MoveKind::AddedPlacement, "resurrection", Some("CE-5"))
            ]
        );
        assert_eq!(
            kinds("d2d5"),
            [(MoveKind::Ordinary, "ordinary move", Some("CE-2"))]
        );
    }
}

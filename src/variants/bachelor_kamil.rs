//! `bachelor-kamil`: Bachelor Kamil (RULES.md BK-1 to BK-6).
//!
//! Data: chess on a 9×8 board with the Camel (`C`) after the Rook and the Gnu (`NC`) after the
//! Queen, FIDE castling on nine files, the Black array option (BK-2) choosing the start
//! position. Hook: the wins by marriage and taming (BK-6).

use super::chess;
use super::marriage::{Marriage, marriage_decision, may_promote_to_partner, partner_on_board};
use crate::position::Position;
use crate::variant::{
    MoveKind, MoveRuling, OptionSpec, Outcome, PieceSpec, RuleHooksAt, SpecError, Variant,
    VariantHooks, VariantSpec, Width, corner_castling,
};

/// The hooks: a King marries a Queen or tames a Gnu.
struct BachelorKamil {
    marriage: Marriage,
}

impl BachelorKamil {
    fn build(v: &Variant) -> Result<VariantHooks, SpecError> {
        Ok(VariantHooks::with_rules(BachelorKamil {
            marriage: Marriage::of(v, "K", &["Q", "W"], false)?,
        }))
    }
}

impl<B: Width> RuleHooksAt<B> for BachelorKamil {
    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        marriage_decision(pos, &self.marriage)
    }

    fn decision_ruling(&self) -> Option<&'static str> {
        Some("BK-6")
    }

    fn quiet_move_may_decide(&self, pos: &Position<B>) -> bool {
        // `decided` answers only when a side is married, which needs a partner on the board,
        // and a quiet move makes none.
        partner_on_board(pos, &self.marriage)
    }

    fn any_move_may_decide(&self, pos: &Position<B>) -> bool {
        // A partner appears only by a promotion.
        partner_on_board(pos, &self.marriage) || may_promote_to_partner(pos, &self.marriage)
    }
}

/// The declaration: chess with the Camel after the Rook and the Gnu after the Queen.
pub fn spec() -> VariantSpec {
    let mut spec = VariantSpec {
        id: "bachelor-kamil",
        name: "Bachelor Kamil",
        files: 9,
        ranks: 8,
        start_fen: "rnbbkccnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBBKCCNR w KQkq - 0 1",
        castling: corner_castling(9, 8, 'e', ('g', 'f'), ('c', 'd')),
        options: vec![
            OptionSpec::new(
                "black-array",
                &["reflective", "rotational"],
                "BK-2",
                "Black's back rank: mirror image of White's, or White's turned half a circle",
            )
            .with_start(
                "rotational",
                "rncckbbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBBKCCNR w KQkq - 0 1",
            ),
            OptionSpec::new(
                "medinese",
                &["win", "continue"],
                "BK-6",
                "a marriage or taming wins at once, or only if it survives the reply",
            ),
        ],
        rulings: &["GE-1", "BK-1", "BK-2", "BK-3", "BK-4", "BK-5", "BK-6"],
        move_rulings: vec![
            MoveRuling::new(MoveKind::EnPassant, "BK-4"),
            MoveRuling::new(MoveKind::Promotion, "BK-4"),
            MoveRuling::new(MoveKind::Castling, "BK-5"),
        ],
        hooks: Some(BachelorKamil::build),
        ..chess::spec()
    }
    .inserting_after("R", PieceSpec::new("C", "Camel", "C").ruling("BK-3"))
    .inserting_after("Q", PieceSpec::new("W", "Gnu", "NC").ruling("BK-3"));
    let pawn = spec.piece_mut("P");
    pawn.promotes_to = &["R", "N", "B", "C", "Q", "W"];
    pawn.ruling = Some("BK-4");
    spec
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::variant::MoveKind;
    use crate::variant::classify::rulings_of;
    use crate::variants;

    /// The classifier names the Camel's and Gnu's moves, castling and promotion by their BK
    /// rulings.
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("bachelor-kamil").expect("variant");
        let pos = parse_position(rules, "4k4/pP7/9/9/3C5/6W2/9/R3K3R w KQ - 0 1").expect("fen");
        let kinds = |text: &str| rulings_of(&pos, text);
        assert_eq!(kinds("d4e7"), [(MoveKind::Ordinary, Some("BK-3"))]);
        assert_eq!(kinds("g3h6"), [(MoveKind::Ordinary, Some("BK-3"))]);
        assert_eq!(kinds("e1g1"), [(MoveKind::Castling, Some("BK-5"))]);
        assert_eq!(
            kinds("b7b8w"),
            [
                (MoveKind::Ordinary, Some("BK-4")),
                (MoveKind::Promotion, Some("BK-4"))
            ]
        );
    }
}

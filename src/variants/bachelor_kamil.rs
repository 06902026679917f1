//! `bachelor-kamil`: Bachelor Kamil (RULES.md BK-1 to BK-6).
//!
//! Data: a 9×8 board, Camels (`C`), the Gnu (`NC`) and Queen by promotion, FIDE castling on nine
//! files. Hooks: the Black array option (BK-2) and the wins by marriage and taming (BK-6).

use super::corner_castling;
use super::marriage::{Marriage, marriage_decision};
use crate::position::Position;
use crate::variant::{
    HandKind, Hooks, HooksAt, OptionSpec, Outcome, PieceSpec, Rules, VariantSpec, Width,
};

const QUEEN: u8 = 5;
const GNU: u8 = 6;
const KING: u8 = 7;

struct BachelorKamil;

impl Hooks for BachelorKamil {
    fn start_fen(&self, rules: &Rules) -> String {
        if rules.is("black-array", "rotational") {
            "rncckbbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBBKCCNR w KQkq - 0 1".to_string()
        } else {
            rules.variant.spec.start_fen.to_string()
        }
    }
}

impl<B: Width> HooksAt<B> for BachelorKamil {
    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        marriage_decision(
            pos,
            &Marriage {
                king: KING,
                partners: &[QUEEN, GNU],
                robbing_saves: false,
            },
        )
    }
}

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "bachelor-kamil",
        name: "Bachelor Kamil",
        files: 9,
        ranks: 8,
        pieces: vec![
            PieceSpec::new("P", "Pawn", "fmWfcFifmnD").pawn(&["R", "N", "B", "C", "Q", "W"]),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("C", "Camel", "C"),
            PieceSpec::new("Q", "Queen", "Q"),
            PieceSpec::new("W", "Gnu", "NC"),
            PieceSpec::new("K", "King", "K").royal(),
        ],
        start_fen: "rnbbkccnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBBKCCNR w KQkq - 0 1",
        castling: corner_castling(9, 8, 'e', ('g', 'f'), ('c', 'd')),
        en_passant: true,
        hand: HandKind::None,
        jewel: false,
        options: vec![
            OptionSpec {
                name: "black-array",
                values: &["reflective", "rotational"],
                ruling: "BK-2",
                help: "Black's back rank: mirror image of White's, or White's turned half a circle",
            },
            OptionSpec {
                name: "medinese",
                values: &["win", "continue"],
                ruling: "BK-6",
                help: "a marriage or taming wins at once, or only if it survives the reply",
            },
        ],
        rulings: &["GE-1", "BK-1", "BK-2", "BK-3", "BK-4", "BK-5", "BK-6"],
        hooks: &BachelorKamil,
    }
}

//! `plutonian`: Plutonian Chess (RULES.md PL-1 to PL-4).
//!
//! Data: the Changeling moves by the colour of the square it stands on (a
//! [`MovementSpec::BySquareColour`] piece: `BN` from light squares, `RN` from dark ones), the
//! Dominator `BNK` is the only promotion. Hook: the Black array option (PL-1), which moves
//! Black's King and so its castling (PL-4).

use super::{castle, corner_castling};
use crate::variant::{
    CastleSpec, Colour, HandKind, Hooks, HooksAt, MovementSpec, OptionSpec, PieceSpec, Rules,
    VariantSpec, Width, Wing,
};

struct Plutonian;

impl<B: Width> HooksAt<B> for Plutonian {}

impl Hooks for Plutonian {
    fn start_fen(&self, rules: &Rules) -> String {
        if rules.is("black-array", "diagram") {
            "rccqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1".to_string()
        } else {
            rules.variant.spec.start_fen.to_string()
        }
    }

    fn castling(&self, rules: &Rules) -> Vec<(Colour, Wing, CastleSpec)> {
        let mut list = rules.variant.spec.castling.clone();
        if rules.is("black-array", "diagram") {
            list.retain(|(c, _, _)| *c == Colour::White);
            list.extend(
                corner_castling(8, 8, 'e', ('g', 'f'), ('c', 'd'))
                    .into_iter()
                    .filter(|(c, _, _)| *c == Colour::Black),
            );
        }
        list
    }
}

/// The declaration (default: the text array, Black's King on d8).
pub fn spec() -> VariantSpec {
    let mut castling: Vec<_> = corner_castling(8, 8, 'e', ('g', 'f'), ('c', 'd'))
        .into_iter()
        .filter(|(c, _, _)| *c == Colour::White)
        .collect();
    castling.push(castle(Colour::Black, Wing::King, "d8", "f8", "h8", "e8"));
    castling.push(castle(Colour::Black, Wing::Queen, "d8", "b8", "a8", "c8"));
    VariantSpec {
        id: "plutonian",
        name: "Plutonian Chess",
        files: 8,
        ranks: 8,
        pieces: vec![
            PieceSpec::new("P", "Pawn", "fmWfcFifmnD").pawn(&["D"]),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("Q", "Queen", "Q"),
            PieceSpec {
                movement: MovementSpec::BySquareColour {
                    light: "BN",
                    dark: "RN",
                },
                ..PieceSpec::new("C", "Changeling", "BN")
            },
            PieceSpec::new("D", "Dominator", "BNK"),
            PieceSpec::new("K", "King", "K").royal(),
        ],
        start_fen: "rcckqnnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1",
        castling,
        en_passant: true,
        hand: HandKind::None,
        jewel: false,
        options: vec![OptionSpec {
            name: "black-array",
            values: &["text", "diagram"],
            ruling: "PL-1",
            help: "Black's King on d8 and Queen on e8 (the article's text), or King e8 and Queen d8 (its diagram)",
        }],
        rulings: &["GE-1", "PL-1", "PL-2", "PL-3", "PL-4"],
        hooks: &Plutonian,
    }
}

//! `plutonian`: Plutonian Chess (RULES.md PL-1 to PL-4).
//!
//! All data, no hooks: chess with the Changeling, which moves by the colour of the square it
//! stands on (a [`MovementSpec::BySquareColour`] piece: `BN` from light squares, `RN` from dark
//! ones), and the Dominator `BNK`, the only promotion, after the Queen. The Black array option
//! (PL-1) chooses the start position and with it Black's castling (PL-4). En passant is FIDE's:
//! RULES.md gives it no id of its own, so it falls under the id chess uses, `FIDE-EN-PASSANT`
//! (docs/rules/plutonian.md, gap 8).

use super::chess;
use crate::variant::{
    Colour, MoveKind, MoveRuling, MovementSpec, OptionSpec, PieceSpec, VariantSpec, Wing, castle,
    corner_castling,
};

/// The declaration (default: the text array, Black's King on d8).
pub fn spec() -> VariantSpec {
    let orthodox = corner_castling(8, 8, 'e', ('g', 'f'), ('c', 'd'));
    let mut text_array: Vec<_> = orthodox
        .iter()
        .copied()
        .filter(|(c, _, _)| *c == Colour::White)
        .collect();
    text_array.push(castle(Colour::Black, Wing::King, "d8", "f8", "h8", "e8"));
    text_array.push(castle(Colour::Black, Wing::Queen, "d8", "b8", "a8", "c8"));
    let mut spec = VariantSpec {
        id: "plutonian",
        name: "Plutonian Chess",
        start_fen: "rcckqnnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1",
        castling: text_array,
        options: vec![
            OptionSpec::new(
                "black-array",
                &["text", "diagram"],
                "PL-1",
                "Black's King on d8 and Queen on e8 (the article's text), or King e8 and Queen d8 (its diagram)",
            )
            .with_start(
                "diagram",
                "rccqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1",
            )
            .with_castling("diagram", orthodox),
        ],
        rulings: &["GE-1", "PL-1", "PL-2", "PL-3", "PL-4", "FIDE-EN-PASSANT"],
        move_rulings: vec![
            MoveRuling::new(MoveKind::EnPassant, "FIDE-EN-PASSANT"),
            MoveRuling::new(MoveKind::Promotion, "PL-3"),
            MoveRuling::new(MoveKind::Castling, "PL-4"),
        ],
        ..chess::spec()
    }
    .inserting_after(
        "Q",
        PieceSpec::new("C", "Changeling", "BN")
            .moving(MovementSpec::BySquareColour {
                light: "BN",
                dark: "RN",
            })
            .ruling("PL-2"),
    )
    .inserting_after("C", PieceSpec::new("D", "Dominator", "BNK").ruling("PL-3"));
    spec.piece_mut("P").promotes_to = &["D"];
    spec
}

#[cfg(test)]
mod tests {
    use crate::notation::{parse_move, parse_position};
    use crate::variant::classify::rulings_of;
    use crate::variant::{MoveKind, classify};
    use crate::variants;

    /// The classifier names the Changeling's moves, castling and promotion by their PL
    /// rulings; en passant follows FIDE, under chess's `FIDE-EN-PASSANT`.
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let mut rules = variants::rules("plutonian").expect("variant");
        let pos = parse_position(rules, "4k3/1P6/8/3pP3/8/8/2C5/R3K3 w Q d6 0 2").expect("fen");
        let kinds = |text: &str| rulings_of(&pos, text);
        // c2 is light: the Changeling moves as a Bishop or a Knight.
        assert_eq!(kinds("c2e4"), [(MoveKind::Ordinary, Some("PL-2"))]);
        assert_eq!(kinds("e1c1"), [(MoveKind::Castling, Some("PL-4"))]);
        assert_eq!(
            kinds("e5d6"),
            [(MoveKind::EnPassant, Some("FIDE-EN-PASSANT"))]
        );
        assert_eq!(
            kinds("b7b8d"),
            [
                (MoveKind::Ordinary, None),
                (MoveKind::Promotion, Some("PL-3"))
            ]
        );
        // The diagram array castles Black's King from e8, by the option's override alone.
        rules.set("black-array", "diagram").expect("option");
        let pos = parse_position(rules, "r3k3/8/8/8/8/8/8/4K3 b q - 0 1").expect("fen");
        let m = parse_move(&pos, "e8c8").expect("castling");
        assert_eq!(classify(&pos, &m)[0].kind, MoveKind::Castling);
    }
}

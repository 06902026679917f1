//! `chess`: orthodox chess, the baseline whose public perft tables validate the machinery. Its
//! rules are all data: it has no hooks.

use crate::variant::{HandKind, MoveKind, MoveRuling, PieceSpec, VariantSpec, corner_castling};

/// Ruling ids chess suites may cite: GE-1 (RULES.md) and the FIDE rules the edge cases
/// exercise, each following an article of the FIDE Laws of Chess (documented in
/// `docs/suite-format.md`): castling (Art. 3.8), en passant and promotion (Art. 3.7), not leaving
/// the King in check (Art. 3.9, 3.10), checkmate and stalemate (Art. 5.1, 5.2).
pub const RULINGS: &[&str] = &[
    "GE-1",
    "FIDE-CASTLING",
    "FIDE-EN-PASSANT",
    "FIDE-PROMOTION",
    "FIDE-CHECK",
    "FIDE-END",
];

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "chess",
        name: "Orthodox chess",
        files: 8,
        ranks: 8,
        pieces: vec![
            PieceSpec::new("P", "Pawn", "fmWfcFifmnD").pawn(&["N", "B", "R", "Q"]),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("Q", "Queen", "Q"),
            PieceSpec::new("K", "King", "K").royal(),
        ],
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        setup_fen: None,
        castling: corner_castling(8, 8, 'e', ('g', 'f'), ('c', 'd')),
        en_passant: true,
        hand: HandKind::None,
        neutral: false,
        pawns_on_first_rank: false,
        options: vec![],
        rulings: RULINGS,
        move_rulings: vec![
            MoveRuling::new(MoveKind::Castling, "FIDE-CASTLING"),
            MoveRuling::new(MoveKind::EnPassant, "FIDE-EN-PASSANT"),
            MoveRuling::new(MoveKind::Promotion, "FIDE-PROMOTION"),
        ],
        hooks: None,
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::variant::MoveKind;
    use crate::variant::classify::rulings_of;
    use crate::variants;

    /// The classifier names each special rule of chess by its FIDE ruling.
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("chess").expect("chess");
        let pos = parse_position(rules, "r3k3/1P6/8/3pP3/8/8/8/R3K2R w KQq d6 0 2").expect("fen");
        let parts = |text: &str| rulings_of(&pos, text);
        assert_eq!(
            parts("e5d6"),
            [(MoveKind::EnPassant, Some("FIDE-EN-PASSANT"))]
        );
        assert_eq!(parts("e1g1"), [(MoveKind::Castling, Some("FIDE-CASTLING"))]);
        assert_eq!(parts("e1c1"), [(MoveKind::Castling, Some("FIDE-CASTLING"))]);
        assert_eq!(
            parts("b7a8n"),
            [
                (MoveKind::Ordinary, None),
                (MoveKind::Promotion, Some("FIDE-PROMOTION"))
            ]
        );
        assert_eq!(parts("e5e6"), [(MoveKind::Ordinary, None)]);
    }
}

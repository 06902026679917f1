//! `capablanca`: Capablanca chess (RULES.md CA-1 to CA-4).

use super::chess;
use crate::variant::{MoveKind, MoveRuling, PieceSpec, VariantSpec, corner_castling};

/// The declaration: chess on 10 files with the Archbishop and the Chancellor.
pub fn spec() -> VariantSpec {
    let mut spec = VariantSpec {
        id: "capablanca",
        name: "Capablanca chess",
        files: 10,
        ranks: 8,
        start_fen: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        castling: corner_castling(10, 8, 'f', ('i', 'h'), ('c', 'd')),
        options: vec![],
        rulings: &["GE-1", "CA-1", "CA-2", "CA-3", "CA-4", "FIDE-EN-PASSANT"],
        move_rulings: vec![
            MoveRuling::new(MoveKind::Castling, "CA-3"),
            MoveRuling::new(MoveKind::EnPassant, "FIDE-EN-PASSANT"),
            MoveRuling::new(MoveKind::Promotion, "CA-4"),
        ],
        ..chess::spec()
    }
    .inserting_after("Q", PieceSpec::new("A", "Archbishop", "BN").ruling("CA-2"))
    .inserting_after("A", PieceSpec::new("C", "Chancellor", "RN").ruling("CA-2"));
    spec.piece_mut("P").promotes_to = &["Q", "R", "B", "N", "A", "C"];
    spec
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::variant::MoveKind;
    use crate::variant::classify::rulings_of;
    use crate::variants;

    /// The classifier names the new pieces' moves, castling, promotion and en passant.
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("capablanca").expect("variant");
        let pos =
            parse_position(rules, "r4k3r/1P8/10/3pP5/10/10/2A7/R4K3R w KQkq d6 0 2").expect("fen");
        let parts = |text: &str| rulings_of(&pos, text);
        assert_eq!(parts("c2e4"), [(MoveKind::Ordinary, Some("CA-2"))]);
        assert_eq!(parts("f1i1"), [(MoveKind::Castling, Some("CA-3"))]);
        assert_eq!(parts("f1c1"), [(MoveKind::Castling, Some("CA-3"))]);
        assert_eq!(
            parts("e5d6"),
            [(MoveKind::EnPassant, Some("FIDE-EN-PASSANT"))]
        );
        assert_eq!(
            parts("b7a8c"),
            [
                (MoveKind::Ordinary, None),
                (MoveKind::Promotion, Some("CA-4"))
            ]
        );
    }
}

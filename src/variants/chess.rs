//! `chess`: orthodox chess, the baseline whose public perft tables validate the machinery.

use super::corner_castling;
use crate::variant::{HandKind, Hooks, HooksAt, PieceSpec, VariantSpec, Width};

struct Orthodox;
impl Hooks for Orthodox {}
impl<B: Width> HooksAt<B> for Orthodox {}

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
        castling: corner_castling(8, 8, 'e', ('g', 'f'), ('c', 'd')),
        en_passant: true,
        hand: HandKind::None,
        jewel: false,
        options: vec![],
        rulings: RULINGS,
        hooks: &Orthodox,
    }
}

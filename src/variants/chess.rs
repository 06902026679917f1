//! `chess`: orthodox chess, the baseline whose public perft tables validate the machinery.

use super::corner_castling;
use crate::variant::{HandKind, Hooks, PieceSpec, VariantSpec};

struct Orthodox;
impl Hooks for Orthodox {}

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
        rulings: &["GE-1"],
        hooks: &Orthodox,
    }
}

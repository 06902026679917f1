//! Text formats: the FEN dialect of RULES.md "Common ground" ([`fen`]) and coordinate move
//! text ([`moves`]).
//!
//! Parsing goes text → [`Setup`](crate::position::Setup) (unchecked) → [`Position`]
//! (validated). Each layer has its own error type: FEN errors name the field and the 1-based
//! column, move errors the column or, for an illegal move, the legal ones; each holds its
//! reason as data.

use crate::geometry::Square;
use crate::position::{Piece, Position, PositionError};
use crate::variant::{Colour, Rules, Variant};

pub mod fen;
pub mod moves;

pub use fen::{FenError, FenField, FenReason, MAX_FEN_LEN, parse_fen, to_fen};
pub use moves::{
    MAX_MOVE_LEN, MoveError, MoveReason, PlyError, move_text, normalise_move_text, parse_move,
    play_moves,
};

/// A FEN that is unreadable or describes an illegal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// The text is malformed.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The text is well formed, the position is not legal.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Parses and validates a FEN.
///
/// # Errors
/// Malformed text or an illegal position.
pub fn parse_position(rules: Rules, text: &str) -> Result<Position, PositionTextError> {
    let setup = parse_fen(rules.variant, text)?;
    Ok(Position::from_setup(rules, &setup)?)
}

/// The FEN spelling of a piece (`N`, `n`, `+G`, `+g`).
pub fn piece_text(variant: &Variant, piece: Piece) -> String {
    let fen = variant.spec.pieces[piece.kind as usize].fen;
    match piece.colour {
        Colour::White => fen.to_string(),
        Colour::Black => fen.to_ascii_lowercase(),
    }
}

/// An ASCII diagram of the board, White at the bottom.
pub fn board_diagram(pos: &Position) -> String {
    let v = pos.variant();
    let g = &v.geometry;
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..g.files {
            let sq = Square::new(file, rank);
            let cell = if let Some(p) = pos.piece_at(sq) {
                piece_text(v, p)
            } else if pos.neutral().has(sq) {
                "*".to_string()
            } else {
                ".".to_string()
            };
            out.push_str(&format!("{cell:>2}"));
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..g.files {
        out.push_str(&format!(" {}", (b'a' + file) as char));
    }
    out.push('\n');
    out
}

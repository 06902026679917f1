//! Pieces on the board and moves: a moving part (from, to, promotion) with flags, and up to
//! four placements from the hand.

use crate::geometry::Square;
use crate::variant::Colour;

/// A square value meaning "none" in compact fields.
pub const NO_SQUARE: Square = Square(255);

/// A piece: kind index into the variant's declaration, and colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Index into the variant's piece list.
    pub kind: u8,
    /// Owner.
    pub colour: Colour,
}

impl Piece {
    pub(super) fn encode(self) -> u8 {
        1 + self.kind + 16 * self.colour.index() as u8
    }
    /// The kind of an occupied square's byte.
    #[inline(always)]
    pub(super) fn kind_of(byte: u8) -> u8 {
        (byte - 1) % 16
    }
    pub(super) fn decode(byte: u8) -> Option<Piece> {
        if byte == 0 {
            return None;
        }
        let v = byte - 1;
        Some(Piece {
            kind: v % 16,
            colour: if v >= 16 {
                Colour::Black
            } else {
                Colour::White
            },
        })
    }
}

/// One piece put on the board from the hand as part of a move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Placement {
    /// Kind index + 1 (0: no placement).
    pub kind: u8,
    /// Where it goes.
    pub square: Square,
}

impl Placement {
    const NONE: Placement = Placement {
        kind: 0,
        square: NO_SQUARE,
    };
}

/// Move flags.
pub mod flags {
    /// Castling toward the King-side Rook.
    pub const CASTLE_KING: u8 = 1;
    /// Castling toward the Queen-side Rook.
    pub const CASTLE_QUEEN: u8 = 2;
    /// En-passant capture.
    pub const EN_PASSANT: u8 = 4;
    /// A pawn's double step: sets the en-passant square.
    pub const DOUBLE_STEP: u8 = 8;
    /// One of the variant's special moves, made by its hooks
    /// ([`SpecialMovesAt`](crate::variant::SpecialMovesAt)), which give
    /// [`Move::special_square`](super::Move::special_square) its meaning.
    pub const SPECIAL: u8 = 16;
}

/// A move: a moving part (from, to, promotion) and up to four placements. A pure placement
/// move (a setup) has `from == to == NO_SQUARE`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Origin of the moving part.
    pub from: Square,
    /// Destination of the moving part (the King's for castling).
    pub to: Square,
    /// Kind index + 1 of the piece after promotion (0: none).
    pub promotion: u8,
    /// See [`flags`].
    pub flags: u8,
    /// For a special move, a square its variant names besides origin and destination (the
    /// square a Pink Panther jump passes over); [`NO_SQUARE`] otherwise.
    pub special_square: Square,
    /// Placements, unused ones with kind 0, sorted by file then rank.
    pub placements: [Placement; 4],
}

impl Move {
    /// A plain move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: 0,
            flags: 0,
            special_square: NO_SQUARE,
            placements: [Placement::NONE; 4],
        }
    }
    /// A special move over or through `special_square` (see [`flags::SPECIAL`]).
    pub const fn special(from: Square, to: Square, special_square: Square) -> Move {
        let mut m = Move::new(from, to);
        m.flags = flags::SPECIAL;
        m.special_square = special_square;
        m
    }
    /// A move of placements only.
    pub fn placements_only(list: &[(u8, Square)]) -> Move {
        let mut m = Move::new(NO_SQUARE, NO_SQUARE);
        for &(kind, sq) in list {
            m.add_placement(kind, sq);
        }
        m
    }
    /// Whether the move has a moving part.
    pub fn has_moving_part(&self) -> bool {
        self.from != NO_SQUARE
    }
    /// Adds a placement of `kind` on `square`, keeping the list sorted by file then rank.
    ///
    /// # Panics
    /// With more than four placements (a variant hook bug).
    pub fn add_placement(&mut self, kind: u8, square: Square) {
        let slot = self
            .placements
            .iter()
            .position(|p| p.kind == 0)
            .expect("at most four placements per move");
        self.placements[slot] = Placement {
            kind: kind + 1,
            square,
        };
        self.placements[..=slot].sort_by_key(|p| (p.square.file(), p.square.rank()));
    }
    /// The placements made.
    pub fn placement_list(&self) -> impl Iterator<Item = (u8, Square)> + '_ {
        self.placements
            .iter()
            .filter(|p| p.kind != 0)
            .map(|p| (p.kind - 1, p.square))
    }
}

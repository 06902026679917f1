//! Validated positions, moves, move generation and make-move.
//!
//! A [`Position`] is always legal for its [`Rules`]: it is built from a [`Setup`] (the unchecked
//! result of parsing a FEN) by [`Position::from_setup`], which lists every reason a setup is
//! refused. Moves are generated pseudo-legally from the variant's tables and hooks, made by
//! copy ([`Position::play`]), and kept when the mover's royal pieces are not attacked afterwards.
//!
//! * `moves`: [`Piece`], [`Move`], [`flags`];
//! * `setup`: [`Setup`] and its validation, [`PositionError`];
//! * `attacks`: which pieces attack a square;
//! * `generate`: pseudo-legal moves into a [`MoveSink`];
//! * `legality`: deciding legality from pins and checks without making moves ([`Legality`]),
//!   and the perft leaf counter built on it;
//! * `legal`: the legal moves, their number, and the end of the game;
//! * `frontier`: perft 2 in one pass, reusing the opponent's replies where a move cannot
//!   change them;
//! * `make`: playing a move;
//! * `zobrist`: the position's hash key.

mod attacks;
mod frontier;
mod generate;
mod legal;
mod legality;
mod make;
mod moves;
mod setup;
mod zobrist;

pub use generate::MoveSink;
pub(crate) use generate::{add_promoting, moves_onto};
pub use legality::Legality;
pub use moves::{Move, NO_SQUARE, Piece, Placement, flags};
pub use setup::{PositionError, PositionReason, Setup, castle_letter, colour_name};

use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::variant::{
    Colour, FastPathsAt, GameEnd, MAX_KINDS, RuleHooksAt, Rules, SpecialMovesAt, Variant, Width,
    Wing,
};

/// The largest halfmove clock and fullmove number a position holds: FEN accepts no more, and
/// playing a move keeps the counters at this value instead of passing it, so every position
/// reached still prints a FEN that parses back.
pub const MAX_COUNTER: u32 = 99_999;

/// A position that passed validation.
#[derive(Clone, Copy)]
pub struct Position<B: Width = u128> {
    /// Shared by every position under the same rules ([`Rules::interned`]): a reference keeps
    /// the copy of copy-make small.
    rules: &'static Rules,
    /// The rules' variant and game-end mode, read at every node: kept here too, so that
    /// reading them takes one load.
    variant: &'static Variant,
    game_end: GameEnd,
    board: [u8; SQUARE_COUNT],
    by_colour: [Bitboard<B>; 2],
    by_kind: [Bitboard<B>; MAX_KINDS],
    side: Colour,
    castling: u8,
    ep: Option<Square>,
    ep_victim: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    hand: [[u8; MAX_KINDS]; 2],
    neutral: Bitboard<B>,
    /// Per colour, as bits: every kind put on the board since the set-up, so a superset of the
    /// kinds on it. Loops over kinds skip the others (in Pink Panther, half the kinds appear
    /// only by acquiring or promoting).
    kinds: [u16; 2],
}

impl<B: Width> Position<B> {
    /// The variant's rule hooks for positions kept in `B`, if it has any.
    #[inline(always)]
    pub fn rule_hooks(&self) -> Option<&'static dyn RuleHooksAt<B>> {
        self.variant.rule_hooks().map(B::rules)
    }

    /// The variant's special moves for positions kept in `B`, if it has any.
    #[inline(always)]
    pub fn special_moves(&self) -> Option<&'static dyn SpecialMovesAt<B>> {
        self.variant.special_moves().map(B::special)
    }

    /// The fast paths for the variant's special moves, for positions kept in `B`, if it has
    /// them.
    #[inline(always)]
    pub fn fast_paths(&self) -> Option<&'static dyn FastPathsAt<B>> {
        self.variant.fast_paths().map(B::fast)
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        self.rules
    }
    /// The compiled variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    /// Side to move.
    pub fn side(&self) -> Colour {
        self.side
    }
    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::decode(*self.board.get(sq.index())?)
    }
    /// The kind of the piece on `sq`, which must hold one (for a hot path that knows it does).
    #[inline(always)]
    pub(crate) fn kind_on(&self, sq: Square) -> u8 {
        Piece::kind_of(self.board[sq.index() % SQUARE_COUNT])
    }
    /// Squares of `colour`'s pieces.
    pub fn colour_bb(&self, colour: Colour) -> Bitboard<B> {
        self.by_colour[colour.index()]
    }
    /// Squares of pieces of `kind` (both colours).
    #[inline(always)]
    pub fn kind_bb(&self, kind: u8) -> Bitboard<B> {
        // Kinds are below `MAX_KINDS` (a compiled variant has no more): the mask costs less
        // than the bounds check for the kinds hooks look up when the variant is compiled.
        self.by_kind[kind as usize % MAX_KINDS]
    }
    /// Squares of `colour`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, kind: u8, colour: Colour) -> Bitboard<B> {
        self.kind_bb(kind) & self.by_colour[colour.index()]
    }
    /// Squares holding a piece.
    pub fn occupied(&self) -> Bitboard<B> {
        self.by_colour[0] | self.by_colour[1]
    }
    /// Squares that cannot be entered and block slides (the unclaimed jewel).
    pub fn neutral(&self) -> Bitboard<B> {
        self.neutral
    }
    /// Pieces of `kind` in `colour`'s hand.
    pub fn hand_count(&self, colour: Colour, kind: u8) -> u8 {
        self.hand[colour.index()][kind as usize]
    }
    /// Whether `colour` has anything in hand.
    pub fn hand_is_empty(&self, colour: Colour) -> bool {
        self.hand[colour.index()].iter().all(|&n| n == 0)
    }
    /// Whether the castling right is held.
    pub fn has_castling(&self, colour: Colour, wing: Wing) -> bool {
        self.castling >> (colour.index() * 2 + wing as usize) & 1 != 0
    }
    /// En-passant square.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    /// Halfmove clock.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
    /// Fullmove number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    // ----- low-level editing (for make-move and hooks) -----

    /// Puts a piece on an empty square.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = piece.encode();
        self.by_colour[piece.colour.index()].set(sq);
        self.by_kind[piece.kind as usize].set(sq);
        self.kinds[piece.colour.index()] |= 1 << piece.kind;
    }
    /// Removes and returns the piece on `sq`.
    #[inline(always)]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.board[sq.index()] = 0;
        self.by_colour[piece.colour.index()].clear(sq);
        self.by_kind[piece.kind as usize].clear(sq);
        Some(piece)
    }
    /// Changes the hand of `colour` by `delta` pieces of `kind`.
    pub fn add_to_hand(&mut self, colour: Colour, kind: u8, delta: i32) {
        let slot = &mut self.hand[colour.index()][kind as usize];
        *slot = (*slot as i32 + delta).clamp(0, 255) as u8;
    }
    /// Sets or clears the neutral square set.
    pub fn set_neutral(&mut self, bb: Bitboard<B>) {
        self.neutral = bb;
    }
}

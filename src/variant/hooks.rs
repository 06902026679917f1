//! The hooks: what a variant's rules say that its data cannot, and apart from them what the
//! generator's fast paths need to know of the variant's own moves.
//!
//! * [`RuleHooksAt`]: validation of a set-up, the variant's own game ends, the set-up phase's
//!   placements and the expansion of a move into its variants (resurrections). Every method
//!   has a default that adds nothing.
//! * [`SpecialMovesAt`]: moves the piece tables cannot describe (Pink Panther's jewel jumps),
//!   how they attack and how they are made.
//! * [`FastPathsAt`]: the one optional place for what lets the generator decide the legality
//!   of moves and count them without making them when special moves exist. Without it every
//!   move is made and tested.
//!
//! A variant implements each trait once, generically over the mask [`Width`], and its
//! declaration's [`HookBuilder`] builds them when the variant is compiled, looking its piece
//! kinds up by letter. A variant with no special rules has no builder (chess). Whether the
//! generator asks a hook at all is worked out by [`Variant::compile`] from the declaration and
//! from which hooks exist (see [`Variant`]'s derived fields), never declared by hand: a set-up
//! phase comes with [`HandKind::Setup`](super::HandKind::Setup), an expansion only places
//! pieces of kinds with [`placement_squares`](super::PieceSpec::placement_squares) from the
//! mover's hand, and only special moves capture beyond the tables.

use super::lines::LineBits;
use super::tables::{SpecError, Variant};
use super::vocabulary::{Colour, Outcome};
use crate::geometry::{Bitboard, Square};
use crate::position::{Legality, Move, MoveSink, Piece, Position};

/// A set-up that a variant's own rules refuse ([`RuleHooksAt::validate`]), in words any game
/// may use: the variant gives its pieces' names and its ruling's id as data.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    /// A set-up phase's hand holding neither nothing nor exactly what the phase places.
    #[error("a hand must be empty or hold exactly {holds} ({ruling})")]
    SetupHand {
        /// What a full hand holds (`two Elephants and two Knights`).
        holds: &'static str,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// A piece on a set-up square while its side still has pieces to place there.
    #[error("{square} is on a setup square while pieces are in hand ({ruling})")]
    SetupSquareTaken {
        /// The square.
        square: Square,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// The side that places first still has pieces to place while the other has placed.
    #[error(
        "{} still has pieces to place but {} has placed ({} places first, {ruling})",
        .first.name(), .first.flip().name(), .first.name()
    )]
    PlacedOutOfTurn {
        /// The side that places first.
        first: Colour,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// A side to move while the other still has pieces to place.
    #[error(
        "{} cannot move before {} has placed its pieces ({ruling})",
        .mover.name(), .mover.flip().name()
    )]
    MovesBeforePlacing {
        /// The side to move.
        mover: Colour,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// A piece of a kind that is never held in hand.
    #[error("a {piece} cannot be in hand ({ruling})")]
    NeverInHand {
        /// The kind's name (`King`).
        piece: &'static str,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// More pieces of a kind, on the board and in hand together, than a side can have.
    #[error("{} has {count} {pieces} on the board and in hand (at most {most})", .colour.name())]
    TooMany {
        /// The side.
        colour: Colour,
        /// How many it has.
        count: u32,
        /// The kind's name in the plural (`Sergeants`).
        pieces: &'static str,
        /// How many it can have.
        most: u32,
    },
    /// More pieces than the start array and the promotions made so far can account for.
    #[error(
        "{} has more pieces on the board and in hand than its start array and promotions allow \
         ({ruling})",
        .colour.name()
    )]
    BeyondPromotions {
        /// The side.
        colour: Colour,
        /// The ruling's id.
        ruling: &'static str,
    },
    /// Not exactly one of a piece that the game has exactly one of.
    #[error("{count} {pieces} on the board (exactly one {written} expected, {ruling})")]
    NotExactlyOne {
        /// How many there are.
        count: u32,
        /// The piece's name in the plural (`Pink Panthers`).
        pieces: &'static str,
        /// How the one is written in FEN.
        written: &'static str,
        /// The ruling's id.
        ruling: &'static str,
    },
}

/// What a variant's rules say beyond its data, for positions kept in `B` ([`Width`]).
pub trait RuleHooksAt<B: Width>: Send + Sync {
    /// Extra validation of a set-up: the first rule it breaks.
    ///
    /// # Errors
    /// A [`RuleViolation`] naming the ruling.
    fn validate(&self, _pos: &Position<B>) -> Result<(), RuleViolation> {
        Ok(())
    }
    /// A decision beyond checkmate and stalemate, asked only under `game-end = rules`, before
    /// any move is generated: `Some` ends the game (bare King, marriage).
    fn decided(&self, _pos: &Position<B>) -> Option<Outcome> {
        None
    }
    /// The ruling by which [`decided`](Self::decided) ends a game (`BK-6`): a report names it
    /// for a difference found where the reference's game is over.
    fn decision_ruling(&self) -> Option<&'static str> {
        None
    }
    /// Whether [`decided`](Self::decided) may answer `Some` after a plain quiet move (no
    /// capture, no promotion, no flag) of the side to move in `pos`. The parent of the leaves
    /// plays each move whose replies it reuses to ask `decided` unless this says `false`; the
    /// default `true` is always right, a `false` must be implied by `decided` itself.
    fn quiet_move_may_decide(&self, _pos: &Position<B>) -> bool {
        true
    }
    /// Whether [`decided`](Self::decided) may answer `Some` after a plain capture (no
    /// promotion, no flag) of the side to move in `pos`. The parent of the leaves takes the
    /// replies of such a capture from those with the turn passed only where this says `false`
    /// (it asks nothing of the position the capture leads to); the default `true` is always
    /// right, a `false` must be implied by `decided` itself.
    fn capture_may_decide(&self, _pos: &Position<B>) -> bool {
        true
    }
    /// Whether [`decided`](Self::decided) may answer `Some` after any one move of the side to
    /// move in `pos`. The parent of the leaves asks it once and, on `false`, does not ask
    /// `decided` of the positions its moves lead to; the default `true` is always right, a
    /// `false` must be implied by `decided` itself.
    fn any_move_may_decide(&self, _pos: &Position<B>) -> bool {
        true
    }
    /// The side to move's pseudo-legal placements in a set-up phase: asked instead of every
    /// other move while it has pieces in hand, in a variant whose hand is
    /// [`HandKind::Setup`](super::HandKind::Setup).
    fn setup_moves(&self, _pos: &Position<B>, _out: &mut Vec<Move>) {}
    /// Turns one pseudo-legal base move into its variants by adding placements from the
    /// mover's hand (resurrections) on the placed kind's
    /// [`placement_squares`](super::PieceSpec::placement_squares), given the position before
    /// and after the base move: pushes every variant, the base move included, onto `out`.
    /// Asked only when the mover holds a piece of a kind that has placement squares. Default:
    /// the move alone.
    fn expand(&self, _before: &Position<B>, _after: &Position<B>, m: Move, out: &mut Vec<Move>) {
        out.push(m);
    }
    /// A fast path for [`RuleHooksAt::expand`], asked where it would be: kinds (as bits) and
    /// squares such that a base move has no variant but itself (`expand` pushes it alone)
    /// unless it promotes or moves a piece of one of the kinds onto one of the squares.
    /// `None` (the default) when the hooks cannot tell, and every move is then expanded.
    fn expanding_moves(&self, _pos: &Position<B>) -> Option<(u16, Bitboard<B>)> {
        None
    }
}

/// The squares [`FastPathsAt::reply_sensitive`] names, by what a quiet move touching them
/// (leaving or entering one) may change.
#[derive(Clone, Copy, Debug)]
pub struct ReplySquares<B: Width> {
    /// Squares no piece may touch for its replies to be reused.
    pub all: Bitboard<B>,
    /// Kinds (as bits) whose pieces may not touch `for_kinds` either (a line that matters
    /// only if a slider of one of those kinds stands on it).
    pub kinds: u16,
    /// See `kinds`.
    pub for_kinds: Bitboard<B>,
    /// Squares (none of `all`) where a quiet move changes only the opponent's special moves
    /// (which exist and which are legal) and which of its royal piece's steps the side to
    /// move's special moves attack: not the opponent's other moves, their legality, its pins
    /// or whether it is in check. A move touching one of them, and no square of `all` (nor
    /// of `for_kinds` for its kind), gets the replies with the turn passed, less the special
    /// moves [`FastPathsAt::count_legal`] counts there and the royal's steps
    /// [`FastPathsAt::attack_map`] attacks there, plus both counted after the move, the
    /// special moves with the legality of the position with the turn passed (the same royal
    /// piece and pins, not in check): `count_legal` must then answer, and count exactly with
    /// it. The same holds for a capture touching them, beyond what `captured` names: what the
    /// capture changes of the opponent's table moves is adjusted for the piece tables, and
    /// the special moves and the royal's steps are counted again the same way.
    pub special_only: Bitboard<B>,
    /// The squares of `special_only` where a move (quiet, or a capture) may change which of
    /// the royal's steps the side to move's special moves attack. A move touching only other
    /// squares of `special_only` leaves those attacks as they are with the turn passed, and
    /// [`FastPathsAt::attack_map`] is not asked after it.
    pub special_steps: Bitboard<B>,
    /// The squares of `special_only` where a move (quiet, or a capture) may change the
    /// opponent's special moves or which of them are legal. A move touching only other squares
    /// of `special_only` leaves them as they are with the turn passed, and
    /// [`FastPathsAt::count_legal`] is not asked after it.
    pub special_moves: Bitboard<B>,
    /// Squares (none of `all`) whose piece of the opponent, captured, changes its special
    /// moves or which of them are legal, beyond what `special_only` names: the squares those
    /// moves start from, land on or jump over. A capture by a plain move leaving or entering a
    /// square of `all` (or of `for_kinds` for its kind) or `captured` counts its child; one
    /// touching `special_only` has the special moves and the royal's steps counted again (see
    /// there). Any other capture changes no special move of the opponent, no check or pin by a
    /// special move of the side to move, and none of the royal's steps those attack, so the
    /// replies with the turn passed are adjusted for the piece tables alone.
    pub captured: Bitboard<B>,
}

/// Moves the piece tables cannot describe, for positions kept in `B`. Every such move carries
/// [`flags::SPECIAL`](crate::position::flags::SPECIAL) and is always made and tested for
/// legality unless the variant supplies [`FastPathsAt`].
pub trait SpecialMovesAt<B: Width>: Send + Sync {
    /// Adds the pseudo-legal special moves of the side to move to `out`, one by one as they
    /// are found (no list is kept in between).
    fn generate(&self, pos: &Position<B>, out: &mut dyn MoveSink<B>);
    /// Whether a special move of `by` would capture on `sq` (pins ignored): such moves give
    /// check.
    fn attacks(&self, pos: &Position<B>, sq: Square, by: Colour) -> bool;
    /// Applies the special part of `m` to `next`, where the mover has been lifted from its
    /// square and any captured piece removed; returns the mover as it lands (before any
    /// promotion).
    fn make(&self, next: &mut Position<B>, m: Move, mover: Piece) -> Piece;
    /// The kind of special move `m` is, by the name the declaration's
    /// [`move_rulings`](super::VariantSpec::move_rulings) give it.
    fn kind(&self, pos: &Position<B>, m: &Move) -> &'static str;
}

/// What the generator's fast paths need when special moves exist: with it, pins and checks
/// found in the tables decide the legality of most moves, as in a variant without special
/// moves. Exact for the moves it lets the generator decide; see [`Position::legality`].
pub trait FastPathsAt<B: Width>: Send + Sync {
    /// The number of legal special moves at a perft leaf, when [`Position::legality`] gave
    /// `legality` (the side to move is not in check); `None` to generate them and decide each.
    fn count_legal(&self, _pos: &Position<B>, _legality: &Legality<B>) -> Option<u64> {
        None
    }
    /// Every square of `wanted` on which a special move of `by` could capture the other side's
    /// royal piece if it stood there, slides blocked by `blockers` (the board without that
    /// royal piece); squares outside `wanted` may be included or not.
    fn attack_map(
        &self,
        pos: &Position<B>,
        by: Colour,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
    ) -> Bitboard<B>;
    /// Pieces of the side to move whose moves must be made and tested although no table
    /// piece pins them, with the squares where that matters: moving one of them onto one of
    /// the squares may open or create a special capture onto `royal` (the side to move's
    /// royal piece); their other moves are decided as any piece's.
    fn must_test(&self, pos: &Position<B>, royal: Square) -> (Bitboard<B>, Bitboard<B>);
    /// Whether the special move `m` of the side to move, in check by one table piece
    /// (`legality.check_mask`: the checker's square and the squares between it and the royal
    /// piece), may be legal: `false` only where it certainly leaves the royal piece attacked,
    /// so that it need not be made and tested. Default: `true` (every special move is made
    /// and tested).
    fn may_evade(&self, _pos: &Position<B>, _legality: &Legality<B>, _m: &Move) -> bool {
        true
    }
    /// Squares where a quiet move of the side to move (a capturable piece leaving one square
    /// for an empty one, no flag, no promotion) may change the opponent's legal replies
    /// through special moves, beyond what the piece tables show: every square the opponent's
    /// special moves read, and every square the side to move's special moves read when, after
    /// some reply, they could capture the opponent's royal piece on `royal` or on one of
    /// `zone` (where it may step). A move that neither leaves nor enters one of them leaves the
    /// special moves and their checks as they are, so the parent of the leaves may reuse one
    /// reply count for it (`Replies`). An answer also lets `Replies` follow the lines from
    /// the royal piece only as far as the piece tables need (as without special moves), so it
    /// must name as well every square whose contents decide whether a special move of the
    /// opponent uncovers a table attack on its royal piece (a piece it empties that shields
    /// the royal, and the piece next behind). See [`ReplySquares`] for how they are given.
    /// `None` (the default) when the hooks cannot tell: no count is then reused.
    fn reply_sensitive(
        &self,
        _pos: &Position<B>,
        _royal: Square,
        _zone: Bitboard<B>,
    ) -> Option<ReplySquares<B>> {
        None
    }
    /// The opponent's pieces (the side not to move in `pos`, whose royal piece is on `royal`)
    /// whose plain slides or plain uneven leaps (pawns) may not be adjusted when a quiet move
    /// of the side to move changes where they go (`Replies`' adjusted moves, asked only where
    /// [`FastPathsAt::reply_sensitive`] answered): a piece whose moving may change the special
    /// moves (it carries what they read), or whose leaving its square may let a special move
    /// of the side to move capture on `royal` (a pin the piece tables do not show). Its slides
    /// then stay sensitive. Default: every piece (nothing adjusted).
    fn reply_unadjusted(&self, _pos: &Position<B>, _royal: Square) -> Bitboard<B> {
        Bitboard::ALL
    }
}

/// [`RuleHooksAt`] for both widths, as a declaration's builder returns it.
pub trait RuleHooks: RuleHooksAt<u64> + RuleHooksAt<u128> {}
impl<T: RuleHooksAt<u64> + RuleHooksAt<u128>> RuleHooks for T {}

/// [`SpecialMovesAt`] for both widths, as a declaration's builder returns it.
pub trait SpecialMoves: SpecialMovesAt<u64> + SpecialMovesAt<u128> {}
impl<T: SpecialMovesAt<u64> + SpecialMovesAt<u128>> SpecialMoves for T {}

/// [`FastPathsAt`] for both widths, as a declaration's builder returns it.
pub trait FastPaths: FastPathsAt<u64> + FastPathsAt<u128> {}
impl<T: FastPathsAt<u64> + FastPathsAt<u128>> FastPaths for T {}

/// The hooks of one compiled variant.
#[derive(Default)]
pub struct VariantHooks {
    /// What the rules say beyond the data.
    pub rules: Option<Box<dyn RuleHooks>>,
    /// The variant's special moves.
    pub special_moves: Option<Box<dyn SpecialMoves>>,
    /// The fast paths for them, if any (only with special moves).
    pub fast_paths: Option<Box<dyn FastPaths>>,
}

impl VariantHooks {
    /// Rule hooks alone.
    pub fn with_rules(rules: impl RuleHooks + 'static) -> VariantHooks {
        VariantHooks {
            rules: Some(Box::new(rules)),
            ..VariantHooks::default()
        }
    }
}

/// Builds a variant's hooks from its compiled tables (where its piece kinds are looked up by
/// letter, [`Variant::kind`]).
pub type HookBuilder = fn(&Variant) -> Result<VariantHooks, SpecError>;

/// A [`Bits`](crate::geometry::Bits) the generator runs on: `u128` for every board, `u64` for boards of at most 8
/// files ([`Variant::narrow`]).
pub trait Width: LineBits {
    /// The rule hooks for positions kept in `Self`.
    fn rules(h: &'static dyn RuleHooks) -> &'static dyn RuleHooksAt<Self>;
    /// The special moves for positions kept in `Self`.
    fn special(s: &'static dyn SpecialMoves) -> &'static dyn SpecialMovesAt<Self>;
    /// The fast paths for positions kept in `Self`.
    fn fast(f: &'static dyn FastPaths) -> &'static dyn FastPathsAt<Self>;
}

impl Width for u64 {
    #[inline(always)]
    fn rules(h: &'static dyn RuleHooks) -> &'static dyn RuleHooksAt<u64> {
        h
    }
    #[inline(always)]
    fn special(s: &'static dyn SpecialMoves) -> &'static dyn SpecialMovesAt<u64> {
        s
    }
    #[inline(always)]
    fn fast(f: &'static dyn FastPaths) -> &'static dyn FastPathsAt<u64> {
        f
    }
}

impl Width for u128 {
    #[inline(always)]
    fn rules(h: &'static dyn RuleHooks) -> &'static dyn RuleHooksAt<u128> {
        h
    }
    #[inline(always)]
    fn special(s: &'static dyn SpecialMoves) -> &'static dyn SpecialMovesAt<u128> {
        s
    }
    #[inline(always)]
    fn fast(f: &'static dyn FastPaths) -> &'static dyn FastPathsAt<u128> {
        f
    }
}

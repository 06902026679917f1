//! A variant compiled into move tables ([`Variant`]), and the lookups the move generator makes
//! in them. [`Variant::compile`] builds them; each table is kept in one form.

use super::declaration::{MAX_KINDS, VariantSpec};
use super::hooks::{FastPaths, RuleHooks, SpecialMoves, Width};
use super::lines::{LINE_KINDS, LINE_SQUARES, LineMasks};
use crate::geometry::{Bitboard, Bits, Geometry, SQUARE_COUNT, Square};
use crate::piece::{Atom, BetzaError};

/// Most slide directions any variant uses.
pub const MAX_DIRECTIONS: usize = 16;

/// Room for every (kind, colour, square) slot of [`Variant::slot_moves`]: a power of two, so
/// that an index masked by it needs no bounds check ([`Variant::slot_moves_at`]).
pub const SLOTS: usize = 4096;
/// Room for every (direction, square) of [`Variant::back_ray_bb`], a power of two likewise.
pub const DIR_SQUARES: usize = 2048;
/// Room for every (colour, square) of [`Variant::any_leap_attackers`], a power of two likewise.
pub const COLOUR_SQUARES: usize = 256;
const _: () = assert!(
    2 * MAX_KINDS * SQUARE_COUNT <= SLOTS
        && MAX_DIRECTIONS * SQUARE_COUNT <= DIR_SQUARES
        && 2 * SQUARE_COUNT <= COLOUR_SQUARES
        && SQUARE_COUNT <= LINE_SQUARES
        && SLOTS.is_power_of_two()
        && DIR_SQUARES.is_power_of_two()
        && COLOUR_SQUARES.is_power_of_two()
        && LINE_SQUARES.is_power_of_two()
);

/// `table` copied into a fixed-size box of `N` entries, the rest default: the hot lookups mask
/// their index by `N` (a power of two) instead of checking it against a length.
pub(super) fn padded<T: Copy + Default, const N: usize>(table: &[T]) -> Box<[T; N]> {
    assert!(
        table.len() <= N,
        "table of {} entries over {N}",
        table.len()
    );
    let mut out = vec![T::default(); N];
    out[..table.len()].copy_from_slice(table);
    out.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("length {N}"))
}

/// Most squares a special leap's path may have for [`LeapSet`].
pub const MAX_LEAP_PATH: usize = 3;

/// A variant compiled into move tables.
///
/// Tables "per (kind, colour, square)" are indexed by [`Variant::slot`]; "per (direction,
/// square)" by `direction * SQUARE_COUNT + square`. The last group of fields is derived by
/// `compile` from the declaration and its hooks: which fast paths apply.
pub struct Variant {
    /// The declaration.
    pub spec: VariantSpec,
    /// The board.
    pub geometry: Geometry,

    // ----- movement, per (kind, colour, square) -----
    /// Leap targets and unlimited slides, packed for the generator's inner loop.
    /// Padded to [`SLOTS`] entries (see [`Variant::slot_moves_at`]).
    pub slot_moves: Box<[SlotMoves; SLOTS]>,
    /// Lame or initial leaps.
    pub special_leaps: Vec<Vec<SpecialLeap>>,
    /// Per slot: every square whose contents the slot's leaps read (their targets, and the
    /// paths and targets of its special leaps), padded to [`SLOTS`] entries like
    /// [`Variant::slot_moves`] (read by [`Variant::leap_reads_at`]).
    pub leap_reads: Box<[Bitboard; SLOTS]>,
    /// Per slot of a kind of [`Variant::uneven_leap_kinds`] on a square: the squares from
    /// which a piece of that kind and colour reads that square ([`Variant::leap_reads`] turned
    /// around; empty for the other kinds). Read by [`Variant::leap_readers_at`].
    pub leap_readers: Box<[Bitboard; SLOTS]>,
    /// Per slot: every square the slot's plain moves may end on with nothing in the way (its
    /// plain leap targets and the whole rays of its unlimited slides; not its special leaps or
    /// limited slides), indexed by [`Variant::slot`] (read by [`Variant::plain_reach_at`]).
    pub plain_reach: Vec<Bitboard>,
    /// Slides of limited range (unlimited ones are in [`Variant::slot_moves`]).
    pub ranged_rides: Vec<Vec<Ride>>,
    /// Per direction: the longest capturing slide (0 none, 255 unlimited).
    pub ride_capture_range: Vec<[u8; MAX_DIRECTIONS]>,
    /// Origins from which such a piece captures on the square by a plain leap.
    pub leap_attackers: Vec<Bitboard>,

    // ----- lines -----
    /// The direction vectors used by slides.
    pub directions: Vec<(i8, i8)>,
    /// Per (direction, square): the forward ray as a set.
    pub ray_bb: Vec<Bitboard>,
    /// Per (direction, square): the backward ray as a set.
    /// Padded to [`DIR_SQUARES`] entries (see [`Variant::back_ray`]).
    pub back_ray_bb: Box<[Bitboard; DIR_SQUARES]>,
    /// Per square: every backward ray from it, as one set.
    /// Padded to [`LINE_SQUARES`] entries.
    pub all_back_rays: Box<[Bitboard; LINE_SQUARES]>,
    /// Per square: the directions (bits) whose backward ray from it is not empty, so walks
    /// toward a possible slider skip the board's edges at once.
    /// Padded to [`LINE_SQUARES`] entries.
    pub back_dirs: Box<[u16; LINE_SQUARES]>,
    /// Per direction: the step length (Chebyshev) of one step.
    pub step_length: Vec<u8>,
    /// The directions (bits) along whose forward rays square indices fall (and so grow along
    /// the backward ones).
    pub descending_dirs: u16,
    /// Per kind of unit line ([`LINE_KINDS`]): its two directions (bits) when the variant has
    /// both, else none. Slides along both are looked up whole ([`LineBits::along_lines`](super::lines::LineBits::along_lines)).
    pub line_dirs: [u16; LINE_KINDS],
    /// Per square, the unit lines through it ([`LineBits::masks`](super::lines::LineBits::masks)).
    pub line_masks: LineMasks,
    /// Per square (index below [`LINE_SQUARES`]): the directions (bits) whose forward ray from
    /// it is not empty, and those whose backward ray is not empty.
    pub open_dirs: Box<[[u16; 2]; LINE_SQUARES]>,
    /// Per colour: that side's last rank (where its pieces promote).
    pub last_rank_bb: [Bitboard; 2],

    // ----- kinds -----
    /// Per kind: the movement vectors from a light square, White's view, as parsed.
    pub atoms: Vec<Vec<Atom>>,
    /// Kind index of each promotion target, per kind.
    pub promotion_kinds: Vec<Vec<u8>>,
    /// Royal kinds.
    pub royal_kinds: Vec<u8>,
    /// Kinds an enemy may not capture, as bits.
    pub uncapturable_kinds: u16,
    /// The pawn kinds, as bits.
    pub pawn_kinds: u16,
    /// Per colour: the kinds whose leaps depend on what stands on the target (a quiet leap
    /// that does not capture there, or the reverse, on some square) or on a path (special
    /// leaps), as bits. The other kinds' leaps go to the same squares whether these hold an
    /// enemy piece or nothing.
    pub uneven_leap_kinds: [u16; 2],
    /// Per (colour, square): every square from which some piece of that colour could capture
    /// on it by a plain leap, whatever its kind.
    /// Padded to [`COLOUR_SQUARES`] entries.
    pub any_leap_attackers: Box<[Bitboard; COLOUR_SQUARES]>,
    /// Per (kind, colour): the directions (bits) of every capturing slide from any square.
    /// Padded to `2 * MAX_KINDS` entries.
    pub capture_dirs: [u16; 2 * MAX_KINDS],
    /// Per colour: the kinds with some capturing slide (`capture_dirs` not empty), as bits.
    pub slider_kinds: [u16; 2],
    /// Per colour: the kinds that capture by a plain leap from some square (`leap_attackers`
    /// not empty somewhere), as bits.
    pub leaper_kinds: [u16; 2],
    /// The kinds expansions may place from the hand (some placement squares), as bits.
    pub placeable_kinds: u16,
    /// Per (kind, colour): the squares expansions may place such a piece on.
    pub placement_squares: Vec<Bitboard>,

    // ----- counting -----
    /// Every (kind, colour)'s leaps (plain and special) as sets, one list after the other;
    /// [`KindCounting::sets`] says which belong to whom.
    pub leap_sets: Vec<LeapSet>,
    /// Per (kind, colour) (index `kind * 2 + colour`, below `2 * MAX_KINDS` so that no lookup
    /// needs a bounds check): what the leaf counter reads of the kind, in one place.
    pub counting: [KindCounting; 2 * MAX_KINDS],
    /// Per (kind, colour): some square has slides or limited-range rides for the kind.
    pub has_rides: Vec<bool>,
    /// Per colour: the kinds with `has_rides`, as bits.
    pub ride_kinds: [u16; 2],

    // ----- derived from the declaration and the hooks -----
    /// Some kind has special (lame or initial) capturing leaps.
    pub special_captures: bool,
    /// Legality may be decided from pins and checks found in the tables: no special moves,
    /// no special capturing leaps.
    pub fast_legality: bool,
    /// Every square of the board has an index below 64 (at most 8 files): positions are
    /// counted on 64-bit masks ([`Position::narrowed`](crate::position::Position::narrowed)).
    pub narrow: bool,
    /// The variant has a set-up phase ([`HandKind::Setup`](super::HandKind::Setup) and a
    /// [`RuleHooksAt::setup_moves`](super::RuleHooksAt::setup_moves) to ask).
    pub setup_phase: bool,
    /// Moves may be expanded ([`RuleHooksAt::expand`](super::RuleHooksAt::expand)): the
    /// variant has rule hooks and pieces that may be placed from the hand.
    pub expands: bool,

    // ----- hooks -----
    pub(super) rule_hooks: Option<Box<dyn RuleHooks>>,
    pub(super) special_moves: Option<Box<dyn SpecialMoves>>,
    pub(super) fast_paths: Option<Box<dyn FastPaths>>,
}

/// `FROM_BIT[i]`: the bits from `i` up (a table load is cheaper than a variable 128-bit shift).
static FROM_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = u128::MAX << i;
        i += 1;
    }
    t
};

/// Squares along the rays of `rays` (per direction and square) from `sq`, in the directions of
/// `rising` (whose rays' indices grow) and `falling`, each up to and including its first square
/// of `blockers`.
#[inline(always)]
fn reach<B: Bits>(
    rays: &[Bitboard],
    rising: u16,
    falling: u16,
    sq: Square,
    blockers: Bitboard<B>,
) -> Bitboard<B> {
    let mut reach = B::ZERO;
    // Along a ray whose indices grow, the squares up to the first blocker are the bits up to
    // the lowest hit: `hits ^ (hits - 1)` (every bit when nothing is hit).
    let mut up = rising;
    while up != 0 {
        let dir = up.trailing_zeros() as usize;
        up &= up - 1;
        let ray = rays[dir * SQUARE_COUNT + sq.index()].to::<B>().0;
        let hits = ray & blockers.0;
        reach |= ray & (hits ^ hits.minus_one());
    }
    // Along a falling ray, the bits from the highest hit up; square 0 counts as hit when
    // nothing is, which keeps the whole ray either way.
    let mut down = falling;
    while down != 0 {
        let dir = down.trailing_zeros() as usize;
        down &= down - 1;
        let ray = rays[dir * SQUARE_COUNT + sq.index()].to::<B>().0;
        let hits = ray & blockers.0 | B::ONE;
        reach |= ray & B::from_wide(FROM_BIT[(B::WIDTH - 1 - hits.leading_zeros()) as usize]);
    }
    Bitboard(reach)
}

/// `dirs` (direction bits) split into the unit lines (bits, see [`LINE_KINDS`]) along which a
/// slide is looked up whole and the directions left to walk, given each line's directions
/// (`line_dirs`, see [`Variant::line_dirs`]): a line is looked up when `dirs` has one of its
/// directions and the other one too or one leaving the board at once (not among `open`, the
/// directions whose ray from the square is not empty).
#[inline(always)]
pub fn line_plan(line_dirs: &[u16; LINE_KINDS], dirs: u16, open: u16) -> (u8, u16) {
    let covered = dirs | !open;
    let mut lines = 0u8;
    let mut rest = dirs;
    for (kind, &line) in line_dirs.iter().enumerate() {
        if dirs & line != 0 && covered & line == line {
            lines |= 1 << kind;
            rest &= !line;
        }
    }
    (lines, rest)
}

/// One leap vector of a kind and colour as a set: from each square of `sources` (when the
/// squares `path` steps away are empty) to the square `delta` steps away in index.
#[derive(Copy, Clone, Debug)]
pub struct LeapSet {
    /// Index change from origin to destination.
    pub delta: i32,
    /// Origins.
    pub sources: Bitboard,
    /// Index changes to squares that must be empty (the first `path_len`).
    pub path: [i32; MAX_LEAP_PATH],
    /// How many of `path` are used.
    pub path_len: u8,
    /// May go to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// What the leaf counter reads for one (kind, colour), in one place (it used to look each up in
/// a table of its own, a bounds check and a pointer load apiece, for every kind at every leaf).
#[derive(Copy, Clone, Debug, Default)]
pub struct KindCounting {
    /// The leaps can be counted as sets: no square reached twice from one square, no slide
    /// over a leap's target, short paths. Otherwise the generator goes piece by piece.
    pub by_sets: bool,
    /// The kind's sets: `leap_sets[start..start + len]` of [`Variant::leap_sets`].
    pub sets: (u16, u16),
    /// Below how many free pieces the leaps are cheaper piece by piece (one table load and
    /// popcount each) than as sets (a shift and popcount per set): five quarters of the number
    /// of sets, rounded up; 0 for pawns.
    pub by_piece_below: u32,
    /// The number of promotion choices.
    pub promotions: u8,
    /// A pawn kind.
    pub pawn: bool,
    /// Some square has slides or limited-range rides for the kind.
    pub has_rides: bool,
}

/// What the generator reads for one (kind, colour, square), in one place: leap targets, the
/// unlimited slides as direction bits, and whether the other lists must be read as well.
#[derive(Copy, Clone, Debug, Default)]
pub struct SlotMoves {
    /// Quiet leap targets.
    pub leap_quiet: Bitboard,
    /// Capturing leap targets.
    pub leap_capture: Bitboard,
    /// Unlimited slides that both stop on empty squares and capture.
    pub slide_both: u16,
    /// Unlimited slides that only stop on empty squares.
    pub slide_quiet: u16,
    /// Unlimited slides that only capture.
    pub slide_capture: u16,
    /// Limited-range slides or special leaps: [`Variant::ranged_rides`] and
    /// [`Variant::special_leaps`] hold moves the bits above do not.
    pub irregular: bool,
    /// Some of those irregular moves capture.
    pub irregular_captures: bool,
    /// The first square of each unlimited slide above: when own pieces stand on all of them
    /// (most sliders early in a game), no slide goes anywhere and none is walked.
    pub slide_first: Bitboard,
    /// [`SlotMoves::slide_both`] as [`Variant::line_plan`] splits it: the unit lines looked up
    /// whole (bits, see [`LINE_KINDS`]) and the directions walked.
    pub both_plan: (u8, u16),
}

impl SlotMoves {
    /// Every unlimited slide direction, as bits.
    #[inline(always)]
    pub fn slides(&self) -> u16 {
        self.slide_both | self.slide_quiet | self.slide_capture
    }
}

/// A lame or initial leap from one square.
#[derive(Copy, Clone, Debug)]
pub struct SpecialLeap {
    /// Destination.
    pub to: Square,
    /// Squares that must be empty.
    pub path: Bitboard,
    /// May go to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// A slide of limited range from one square in one direction.
#[derive(Copy, Clone, Debug)]
pub struct Ride {
    /// Index into [`Variant::directions`].
    pub dir: u8,
    /// Most steps.
    pub range: u8,
    /// May stop on empty squares.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// A declaration that does not compile.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// More than [`MAX_KINDS`] pieces.
    #[error("{variant}: too many piece kinds")]
    TooManyKinds {
        /// The variant id.
        variant: &'static str,
    },
    /// More than [`MAX_DIRECTIONS`] slide directions.
    #[error("{variant}: too many slide directions")]
    TooManyDirections {
        /// The variant id.
        variant: &'static str,
    },
    /// An initial or lame rider.
    #[error("{variant}: `i` and `n` are not supported on riders")]
    RiderModifiers {
        /// The variant id.
        variant: &'static str,
    },
    /// A promotion to a piece the variant does not declare.
    #[error("{variant}: unknown promotion piece {letter}")]
    UnknownPromotion {
        /// The variant id.
        variant: &'static str,
        /// The letter.
        letter: &'static str,
    },
    /// Fast paths without special moves.
    #[error("{variant}: fast paths without special moves")]
    FastPathsAlone {
        /// The variant id.
        variant: &'static str,
    },
    /// A malformed square name in a declaration.
    #[error("{variant}: no square `{name}` on the board")]
    UnknownSquare {
        /// The variant id.
        variant: &'static str,
        /// The name.
        name: &'static str,
    },
    /// Hooks that do not fit the declaration.
    #[error("{variant}: {problem}")]
    Hooks {
        /// The variant id.
        variant: &'static str,
        /// What does not fit.
        problem: String,
    },
    /// A hook asks for a piece the variant does not declare.
    #[error("{variant}: no piece `{letter}`")]
    UnknownPiece {
        /// The variant id.
        variant: &'static str,
        /// The letter.
        letter: String,
    },
    /// More options than [`MAX_OPTIONS`](super::MAX_OPTIONS), or an override of a value the
    /// option does not have.
    #[error("{variant}: {problem}")]
    Options {
        /// The variant id.
        variant: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A movement that does not parse.
    #[error(transparent)]
    Betza(#[from] BetzaError),
}

impl Variant {
    /// Index into per (kind, colour, square) tables.
    #[inline(always)]
    pub fn slot(kind: u8, colour: super::Colour, sq: Square) -> usize {
        (kind as usize * 2 + colour.index()) * SQUARE_COUNT + sq.index()
    }

    /// `slot_moves[slot]` for a slot of [`Variant::slot`]: masked, not bounds-checked (a slot
    /// is below `2 * MAX_KINDS * SQUARE_COUNT`, so below [`SLOTS`], and the mask keeps it).
    #[inline(always)]
    pub fn slot_moves_at(&self, slot: usize) -> &SlotMoves {
        debug_assert!(slot < 2 * MAX_KINDS * SQUARE_COUNT);
        &self.slot_moves[slot % SLOTS]
    }

    /// `leap_reads[slot]`, masked like [`Variant::slot_moves_at`].
    #[inline(always)]
    pub fn leap_reads_at<B: Width>(&self, slot: usize) -> Bitboard<B> {
        self.leap_reads[slot % SLOTS].to::<B>()
    }

    /// `plain_reach[slot]` (bounds-checked: read only by positions in check).
    #[inline(always)]
    pub fn plain_reach_at<B: Width>(&self, slot: usize) -> Bitboard<B> {
        self.plain_reach[slot].to::<B>()
    }

    /// `leap_readers[slot]`, masked like [`Variant::slot_moves_at`].
    #[inline(always)]
    pub fn leap_readers_at<B: Width>(&self, slot: usize) -> Bitboard<B> {
        self.leap_readers[slot % SLOTS].to::<B>()
    }

    /// The backward ray of `dir` from `sq` (`back_ray_bb`, masked like
    /// [`Variant::slot_moves_at`]).
    #[inline(always)]
    pub fn back_ray<B: Bits>(&self, dir: u8, sq: Square) -> Bitboard<B> {
        debug_assert!((dir as usize) < MAX_DIRECTIONS && sq.index() < SQUARE_COUNT);
        self.back_ray_bb[(dir as usize * SQUARE_COUNT + sq.index()) % DIR_SQUARES].to()
    }

    /// The squares of `colour`'s pieces that could capture on `sq` by a plain leap, whatever
    /// their kind (`any_leap_attackers`, masked).
    #[inline(always)]
    pub fn any_leap_attackers_of<B: Bits>(&self, colour: super::Colour, sq: Square) -> Bitboard<B> {
        debug_assert!(sq.index() < SQUARE_COUNT);
        self.any_leap_attackers[(colour.index() * SQUARE_COUNT + sq.index()) % COLOUR_SQUARES].to()
    }

    /// The leaf counter's view of kind `k` of the side with index `colour` (see
    /// [`Variant::counting`]) and its leap sets.
    #[inline(always)]
    pub fn counting_of(&self, k: usize, colour: usize) -> (&KindCounting, &[LeapSet]) {
        let c = &self.counting[(k * 2 + colour) % (2 * MAX_KINDS)];
        let (start, len) = (c.sets.0 as usize, c.sets.1 as usize);
        (c, &self.leap_sets[start..start + len])
    }

    /// Squares a slide from `sq` along `dir` reaches before or on the first of `blockers`
    /// (unlimited range), with that first blocker if any.
    #[inline(always)]
    pub fn slide<B: Bits>(
        &self,
        dir: u8,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> (Bitboard<B>, Option<Square>) {
        let idx = dir as usize * SQUARE_COUNT + sq.index();
        let ray = self.ray_bb[idx].to::<B>();
        let hits = ray & blockers;
        if hits.is_empty() {
            return (ray, None);
        }
        let first = if self.descending(dir) {
            B::WIDTH - 1 - hits.0.leading_zeros()
        } else {
            hits.0.trailing_zeros()
        } as u8;
        let first = Square(first);
        let beyond = self.ray_bb[dir as usize * SQUARE_COUNT + first.index()].to::<B>();
        (ray & !beyond, Some(first))
    }

    /// Whether square indices fall along direction `dir`.
    #[inline(always)]
    pub fn descending(&self, dir: u8) -> bool {
        self.descending_dirs >> dir & 1 != 0
    }

    /// Every slide direction of the variant, as direction bits.
    #[inline(always)]
    pub fn all_dirs(&self) -> u16 {
        ((1u32 << self.directions.len()) - 1) as u16
    }

    /// `dirs` (direction bits) split as [`line_plan`] does, where `open` are the directions
    /// whose ray from the square is not empty.
    #[inline(always)]
    pub fn line_plan(&self, dirs: u16, open: u16) -> (u8, u16) {
        line_plan(&self.line_dirs, dirs, open)
    }

    /// Squares the unlimited slides in `dirs` (direction bits) from `sq` reach, each up to and
    /// including its first square of `blockers`.
    #[inline(always)]
    pub fn slides<B: Width>(&self, dirs: u16, sq: Square, blockers: Bitboard<B>) -> Bitboard<B> {
        let plan = self.line_plan(dirs, self.open_dirs[sq.index() % LINE_SQUARES][0]);
        self.planned_slides(plan, sq, blockers)
    }

    /// [`Variant::slides`] along the directions of `plan` ([`Variant::line_plan`]).
    #[inline(always)]
    pub fn planned_slides<B: Width>(
        &self,
        (lines, rest): (u8, u16),
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Bitboard<B> {
        self.planned_reach(
            (lines, rest),
            sq,
            blockers,
            &self.ray_bb,
            !self.descending_dirs,
        )
    }

    /// The whole lines of a plan looked up, the other directions walked along `rays`, those
    /// of `rising` (direction bits) as rays whose indices grow.
    #[inline(always)]
    fn planned_reach<B: Width>(
        &self,
        (lines, rest): (u8, u16),
        sq: Square,
        blockers: Bitboard<B>,
        rays: &[Bitboard],
        rising: u16,
    ) -> Bitboard<B> {
        let mut out = Bitboard::NONE;
        if lines != 0 {
            let masks = &B::masks(&self.line_masks)[sq.index() % LINE_SQUARES];
            out = Bitboard(B::along_lines(lines, sq, blockers.0, masks));
        }
        if rest != 0 {
            out |= reach(rays, rest & rising, rest & !rising, sq, blockers);
        }
        out
    }

    /// Squares along the backward rays of `dirs` (direction bits) from `sq`, each up to and
    /// including its first square of `blockers`: where a piece sliding along one of `dirs` onto
    /// `sq` may stand, or block such a slide.
    #[inline(always)]
    pub fn back_slides<B: Width>(
        &self,
        dirs: u16,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Bitboard<B> {
        let plan = self.line_plan(dirs, self.open_dirs[sq.index() % LINE_SQUARES][1]);
        self.planned_back_slides(plan, sq, blockers)
    }

    /// [`Variant::back_slides`] along the directions of `plan` ([`Variant::line_plan`]).
    #[inline(always)]
    pub fn planned_back_slides<B: Width>(
        &self,
        (lines, rest): (u8, u16),
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Bitboard<B> {
        // A whole line is the same forward and backward; a backward ray's indices grow along
        // a descending direction.
        self.planned_reach(
            (lines, rest),
            sq,
            blockers,
            &self.back_ray_bb[..],
            self.descending_dirs,
        )
    }

    /// Squares the unlimited slides of `sm` (the slot of a piece on `sq`) reach, each up to
    /// and including its first square of `blockers`, whether they move, capture or both.
    #[inline(always)]
    pub fn slot_slides<B: Width>(
        &self,
        sm: &SlotMoves,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Bitboard<B> {
        if sm.slide_quiet | sm.slide_capture == 0 {
            self.planned_slides(sm.both_plan, sq, blockers)
        } else {
            self.slides(sm.slides(), sq, blockers)
        }
    }

    /// The first `steps` squares of the ray of `dir` from `sq`.
    pub fn ray_prefix(&self, dir: u8, sq: Square, steps: u8) -> Bitboard {
        let ray = self.ray_bb[dir as usize * SQUARE_COUNT + sq.index()];
        let (dx, dy) = self.directions[dir as usize];
        match self
            .geometry
            .offset(sq, dx as i32 * steps as i32, dy as i32 * steps as i32)
        {
            Some(end) => ray & !self.ray_bb[dir as usize * SQUARE_COUNT + end.index()],
            None => ray,
        }
    }

    /// The directions of `dirs` worth walking back from `sq` toward a piece of `sliders`: none
    /// when no line through `sq` holds one, else those whose backward ray is not empty.
    #[inline(always)]
    pub fn dirs_toward<B: Bits>(&self, sq: Square, dirs: u16, sliders: Bitboard<B>) -> u16 {
        if self.all_back_rays[sq.index() % LINE_SQUARES]
            .to::<B>()
            .intersects(sliders)
        {
            dirs & self.back_dirs[sq.index() % LINE_SQUARES]
        } else {
            0
        }
    }

    /// The nearest square of `blockers` on the backward ray of `dir` from `sq`.
    #[inline(always)]
    pub fn nearest_back<B: Bits>(
        &self,
        dir: u8,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Option<Square> {
        let hits = self.back_ray::<B>(dir, sq) & blockers;
        if hits.is_empty() {
            return None;
        }
        Some(Square(if self.descending(dir) {
            hits.0.trailing_zeros()
        } else {
            B::WIDTH - 1 - hits.0.leading_zeros()
        } as u8))
    }

    /// Steps of direction `dir` from `a` to `b` (which lie on one ray of it).
    #[inline(always)]
    pub fn steps_between(&self, dir: u8, a: Square, b: Square) -> u32 {
        let cheb = (a.file() as i32 - b.file() as i32)
            .unsigned_abs()
            .max((a.rank() as i32 - b.rank() as i32).unsigned_abs());
        cheb / self.step_length[dir as usize] as u32
    }

    /// The kind whose FEN spelling (White's) is `fen`.
    pub fn kind_by_fen(&self, fen: &str) -> Option<u8> {
        self.spec
            .pieces
            .iter()
            .position(|p| p.fen == fen)
            .map(|k| k as u8)
    }

    /// The kind spelled `fen`, for hooks looking up their pieces when the variant is compiled.
    ///
    /// # Errors
    /// The variant declares no such piece.
    pub fn kind(&self, fen: &str) -> Result<u8, SpecError> {
        self.kind_by_fen(fen)
            .ok_or_else(|| SpecError::UnknownPiece {
                variant: self.spec.id,
                letter: fen.to_string(),
            })
    }

    /// The option declared as `name`, with its index.
    pub fn option(&self, name: &str) -> Option<(usize, &super::OptionSpec)> {
        self.spec
            .options
            .iter()
            .enumerate()
            .find(|(_, o)| o.name == name)
    }

    /// The rule hooks, if the variant has any.
    #[inline(always)]
    pub fn rule_hooks(&self) -> Option<&dyn RuleHooks> {
        self.rule_hooks.as_deref()
    }

    /// The special moves, if the variant has any.
    #[inline(always)]
    pub fn special_moves(&self) -> Option<&dyn SpecialMoves> {
        self.special_moves.as_deref()
    }

    /// The fast paths for the special moves, if the variant has them.
    #[inline(always)]
    pub fn fast_paths(&self) -> Option<&dyn FastPaths> {
        self.fast_paths.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares the slides along `dirs` from `sq` reach, walked square by square (`sign` -1
    /// for the backward rays).
    fn walked(v: &Variant, dirs: u16, sq: Square, blockers: Bitboard, sign: i32) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (d, &(dx, dy)) in v.directions.iter().enumerate() {
            if dirs >> d & 1 == 0 {
                continue;
            }
            let mut at = sq;
            while let Some(next) = v.geometry.offset(at, dx as i32 * sign, dy as i32 * sign) {
                out.set(next);
                if blockers.has(next) {
                    break;
                }
                at = next;
            }
        }
        out
    }

    /// Compares the lookups with the walk, on `B`, for every set of directions (the first ten
    /// directions' subsets), every square and random blockers.
    fn compare<B: Width>(v: &Variant, state: &mut u64) {
        let mut random = || {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            *state
        };
        let count = v.directions.len().min(10);
        for sq in v.geometry.squares() {
            for _ in 0..4 {
                let a = u128::from(random()) << 64 | u128::from(random());
                let b = u128::from(random()) << 64 | u128::from(random());
                // Sparse and dense boards alike.
                let blockers =
                    Bitboard(if random() % 2 == 0 { a & b } else { a }) & v.geometry.mask;
                let narrow = blockers.to::<B>();
                for dirs in 0..1u16 << count {
                    let want = walked(v, dirs, sq, blockers, 1).to::<B>();
                    assert_eq!(
                        v.slides(dirs, sq, narrow),
                        want,
                        "{} {sq} {dirs:b}",
                        v.spec.id
                    );
                    let plan = v.line_plan(dirs, u16::MAX);
                    assert_eq!(v.planned_slides(plan, sq, narrow), want);
                    let back = walked(v, dirs, sq, blockers, -1).to::<B>();
                    assert_eq!(v.back_slides(dirs, sq, narrow), back, "{} {sq}", v.spec.id);
                    assert_eq!(v.planned_back_slides(plan, sq, narrow), back);
                }
                for colour in super::super::Colour::BOTH {
                    for k in 0..v.spec.pieces.len() {
                        let sm = v.slot_moves_at(Variant::slot(k as u8, colour, sq));
                        let want = walked(v, sm.slides(), sq, blockers, 1).to::<B>();
                        assert_eq!(v.slot_slides(sm, sq, narrow), want);
                        let both = walked(v, sm.slide_both, sq, blockers, 1).to::<B>();
                        assert_eq!(v.planned_slides(sm.both_plan, sq, narrow), both);
                    }
                }
            }
        }
    }

    #[test]
    fn looked_up_slides_match_walked_ones() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for v in crate::variants::all() {
            compare::<u128>(v, &mut state);
            if v.narrow {
                compare::<u64>(v, &mut state);
            }
        }
    }
}

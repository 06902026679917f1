//! Pseudo-legal move generation: every move the pieces can make (tables, castling, the set-up
//! phase and the variant's special moves), own royal safety not yet tested, into a
//! [`MoveSink`] (a list, or the perft leaf counter).

use super::Position;
use super::legality::Legality;
use super::moves::{Move, flags};
use crate::geometry::{Bitboard, Square};
use crate::variant::{Colour, SlotMoves, Variant, Width, Wing};

/// Receives generated moves.
pub trait MoveSink<B: Width> {
    /// One move.
    fn add(&mut self, pos: &Position<B>, m: Move);
    /// Plain moves (no flags) from `from` to every square of `to`; arriving on `last_rank`
    /// promotes to each of `promotions` when that list is not empty.
    fn add_targets(
        &mut self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        add_one_by_one(self, pos, from, to, promotions, last_rank);
    }
    /// A move known to be legal (by [`MoveSink::legality`]).
    fn add_legal(&mut self, pos: &Position<B>, m: Move) {
        self.add(pos, m);
    }
    /// What the sink knows of the legality of the side to move's moves, if anything: with it,
    /// castlings are decided without making them and given to [`MoveSink::add_legal`].
    fn legality(&self) -> Option<&Legality<B>> {
        None
    }
    /// Counts the variant's special moves itself instead of being given them one by one
    /// ([`FastPathsAt::count_legal`](crate::variant::FastPathsAt::count_legal)); false (the
    /// default) when it cannot.
    fn count_special_moves(&mut self, _pos: &Position<B>) -> bool {
        false
    }
}

/// The number of moves arriving on the squares of `to`: one each, or one per promotion choice
/// on `last_rank` when the mover has `promotions` choices.
#[inline(always)]
pub(crate) fn moves_onto<B: Width>(
    to: Bitboard<B>,
    last_rank: Bitboard<B>,
    promotions: usize,
) -> u64 {
    let mut n = to.count() as u64;
    if promotions > 1 {
        n += (to & last_rank).count() as u64 * (promotions as u64 - 1);
    }
    n
}

/// The plain moves from `from` to each square of `to` added to `sink` one by one (see
/// [`MoveSink::add_targets`]).
#[inline(always)]
fn add_one_by_one<B: Width, S: MoveSink<B> + ?Sized>(
    sink: &mut S,
    pos: &Position<B>,
    from: Square,
    to: Bitboard<B>,
    promotions: &[u8],
    last_rank: Bitboard<B>,
) {
    for sq in to {
        add_promoting(sink, pos, Move::new(from, sq), promotions, last_rank);
    }
}

/// Adds `m` to `sink`: once per promotion choice when it arrives on `last_rank` and
/// `promotions` is not empty, else once.
#[inline(always)]
pub(crate) fn add_promoting<B: Width, S: MoveSink<B> + ?Sized>(
    sink: &mut S,
    pos: &Position<B>,
    mut m: Move,
    promotions: &[u8],
    last_rank: Bitboard<B>,
) {
    if !promotions.is_empty() && last_rank.has(m.to) {
        for &p in promotions {
            m.promotion = p + 1;
            sink.add(pos, m);
        }
    } else {
        sink.add(pos, m);
    }
}

impl<B: Width> MoveSink<B> for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, _pos: &Position<B>, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn add_targets(
        &mut self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        add_one_by_one(self, pos, from, to, promotions, last_rank);
    }
}

/// What move generation reads from a position, computed once per node.
#[derive(Clone, Copy)]
pub(super) struct GenContext<B: Width> {
    pub(super) ours: Bitboard<B>,
    pub(super) blockers: Bitboard<B>,
    pub(super) empty: Bitboard<B>,
    pub(super) targets: Bitboard<B>,
    pub(super) reachable: Bitboard<B>,
    pub(super) last_rank: Bitboard<B>,
}

impl<B: Width> GenContext<B> {
    #[inline(always)]
    pub(super) fn new(pos: &Position<B>) -> Self {
        Self::of(pos, pos.side)
    }

    /// The context of `us`'s moves in `pos`, whoever is to move.
    #[inline(always)]
    pub(super) fn of(pos: &Position<B>, us: Colour) -> Self {
        let v = pos.variant;
        let blockers = pos.occupied() | pos.neutral;
        let empty = v.geometry.mask.to() & !blockers;
        let targets = pos.capturable(us.flip());
        GenContext {
            ours: pos.by_colour[us.index()],
            blockers,
            empty,
            targets,
            reachable: empty | targets,
            last_rank: v.last_rank_bb[us.index()].to(),
        }
    }
}

impl<B: Width> Position<B> {
    // ----- move generation -----

    /// Pseudo-legal moves: every move the pieces can make, own royal safety not yet tested.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    /// Generates the pseudo-legal moves into any sink (a list, or a counter at perft leaves).
    pub fn generate<S: MoveSink<B>>(&self, sink: &mut S) {
        if let Some(placements) = self.setup_placements() {
            placements.iter().for_each(|&m| sink.add(self, m));
            return;
        }
        let ctx = GenContext::new(self);
        let mut kinds = self.kinds[self.side.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            for from in self.by_kind[k] & ctx.ours {
                self.piece_moves(sink, &ctx, k, from, true);
            }
        }
        self.castling_and_special_moves(sink, false);
    }

    /// Castling and the variant's special moves; `not_in_check` when the caller knows the side
    /// to move is not in check.
    pub(super) fn castling_and_special_moves<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        not_in_check: bool,
    ) {
        if self.castling != 0 && self.castling_open() {
            self.castling_moves(sink, not_in_check);
        }
        let Some(special) = self.special_moves() else {
            return;
        };
        if sink.count_special_moves(self) {
            return;
        }
        special.generate(self, sink);
    }

    /// The moves of the piece of kind `k` on `from`; with `leaps` false only its slides, rides
    /// and en passant (its leaps are counted as sets, see [`Variant::leap_sets`]).
    #[inline(always)]
    pub(super) fn piece_moves<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        ctx: &GenContext<B>,
        k: usize,
        from: Square,
        leaps: bool,
    ) {
        self.piece_moves_of(sink, ctx, k, from, leaps, self.side, self.ep);
    }

    /// [`Position::piece_moves`] for a piece of `us` (`ctx` made for it), with the en-passant
    /// square `ep`: the moves of a piece of the side not to move as they would be with the
    /// turn passed (`ep` `None`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn piece_moves_of<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        ctx: &GenContext<B>,
        k: usize,
        from: Square,
        leaps: bool,
        us: Colour,
        ep: Option<Square>,
    ) {
        let v = self.variant;
        let promotions = &v.promotion_kinds[k];
        let is_pawn = v.spec.pieces[k].pawn;
        let slot = Variant::slot(k as u8, us, from);
        let sm = v.slot_moves_at(slot);
        let mut plain = if leaps {
            (sm.leap_quiet.to() & ctx.empty) | (sm.leap_capture.to() & ctx.targets)
        } else {
            Bitboard::NONE
        };
        plain |= self.slide_targets(sm, from, ctx);
        if sm.irregular {
            let double_steps = is_pawn && v.spec.en_passant;
            let (more, doubles) = self.irregular_targets(
                slot,
                from,
                ctx.blockers,
                ctx.empty,
                ctx.targets,
                leaps,
                double_steps,
            );
            plain |= more;
            self.add_flagged(sink, from, doubles, flags::DOUBLE_STEP, promotions);
        }
        if is_pawn
            && let Some(ep) = ep
            && sm.leap_capture.has(ep)
        {
            self.add_flagged(
                sink,
                from,
                Bitboard::<B>::of(ep),
                flags::EN_PASSANT,
                promotions,
            );
        }
        sink.add_targets(self, from, plain, promotions, ctx.last_rank);
    }

    /// Where the unlimited slides of a slot go: empty squares and enemy pieces, as each slide
    /// may.
    #[inline(always)]
    pub(super) fn slide_targets(
        &self,
        sm: &SlotMoves,
        from: Square,
        ctx: &GenContext<B>,
    ) -> Bitboard<B> {
        let v = self.variant;
        let mut to = Bitboard::NONE;
        // Every slide's first square holds an own piece (or there is no slide): nothing.
        if !sm.slide_first.to().intersects(!ctx.ours) {
            return to;
        }
        if sm.slide_both != 0 {
            to |= v.planned_slides(sm.both_plan, from, ctx.blockers) & ctx.reachable;
        }
        if sm.slide_quiet | sm.slide_capture == 0 {
            return to;
        }
        if sm.slide_quiet != 0 {
            to |= v.slides(sm.slide_quiet, from, ctx.blockers) & ctx.empty;
        }
        if sm.slide_capture != 0 {
            to |= v.slides(sm.slide_capture, from, ctx.blockers) & ctx.targets;
        }
        to
    }

    /// The squares reached from `from` by the slot's limited-range slides and special leaps:
    /// a quiet step onto a square of `quiet_ok` (the empty squares), a capturing one onto a
    /// square of `capture_ok` (the enemy's capturable pieces); special leaps only `with_special`.
    /// Returned apart, as the second set: quiet-only special leaps when `double_steps` is set
    /// (a pawn's double step, which needs a flag).
    #[allow(clippy::too_many_arguments)]
    fn irregular_targets(
        &self,
        slot: usize,
        from: Square,
        blockers: Bitboard<B>,
        quiet_ok: Bitboard<B>,
        capture_ok: Bitboard<B>,
        with_special: bool,
        double_steps: bool,
    ) -> (Bitboard<B>, Bitboard<B>) {
        let v = self.variant;
        let mut out = Bitboard::NONE;
        let mut doubles = Bitboard::NONE;
        for ride in &v.ranged_rides[slot] {
            // Up to the first blocker, that one included, and no further than the range.
            let reach =
                v.slide(ride.dir, from, blockers).0 & v.ray_prefix(ride.dir, from, ride.range).to();
            if ride.quiet {
                out |= reach & quiet_ok & !blockers;
            }
            if ride.capture {
                out |= reach & capture_ok;
            }
        }
        if !with_special {
            return (out, doubles);
        }
        for leap in &v.special_leaps[slot] {
            if leap.path.to().intersects(blockers) {
                continue;
            }
            if (leap.quiet && quiet_ok.has(leap.to)) || (leap.capture && capture_ok.has(leap.to)) {
                if double_steps && leap.quiet && !leap.capture {
                    doubles.set(leap.to);
                } else {
                    out.set(leap.to);
                }
            }
        }
        (out, doubles)
    }

    /// Moves from `from` to each square of `to` with `flag`, promoting on the last rank.
    pub(super) fn add_flagged<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        from: Square,
        to: Bitboard<B>,
        flag: u8,
        promotions: &[u8],
    ) {
        let last_rank = self.variant.last_rank_bb[self.side.index()].to();
        for sq in to {
            let mut m = Move::new(from, sq);
            m.flags = flag;
            add_promoting(sink, self, m, promotions, last_rank);
        }
    }

    /// Whether the side to move holds a castling right whose squares between King and Rook
    /// are empty: in most positions with a right, a piece still stands there, and this test
    /// alone is made.
    #[inline(always)]
    fn castling_open(&self) -> bool {
        let us = self.side.index();
        let rights = self.castling >> (us * 2);
        let blockers = self.occupied() | self.neutral;
        let empty = &self.rules.castle_empty[us];
        (rights & 1 != 0 && !blockers.intersects(empty[0].to()))
            || (rights & 2 != 0 && !blockers.intersects(empty[1].to()))
    }

    fn castling_moves<S: MoveSink<B>>(&self, sink: &mut S, not_in_check: bool) {
        let us = self.side;
        let blockers = self.occupied() | self.neutral;
        let mut in_check = None;
        for wing in Wing::BOTH {
            // The right and the squares that must be empty first: in most positions that hold
            // a right, a piece still stands between the King and the Rook.
            if !self.has_castling(us, wing)
                || blockers.intersects(self.rules.castle_empty[us.index()][wing as usize].to())
            {
                continue;
            }
            let Some(c) = self.rules.castles[us.index()][wing as usize] else {
                continue;
            };
            let files = self.rules.castle_files[us.index()][wing as usize];
            let rank = c.king_from.rank();
            // With table attacks alone, the sink's legality decides castling.
            let decided = sink
                .legality()
                .filter(|_| self.variant.fast_legality)
                .copied();
            let checked = match &decided {
                Some(l) => l.check_mask != Bitboard::ALL,
                None => !not_in_check && *in_check.get_or_insert_with(|| self.in_check()),
            };
            if checked {
                return;
            }
            let mut passed = Bitboard::on_rank(files.passed, rank).to::<B>();
            let mut m = Move::new(c.king_from, c.king_to);
            m.flags = if wing == Wing::King {
                flags::CASTLE_KING
            } else {
                flags::CASTLE_QUEEN
            };
            match decided {
                // Not in check: a slide onto a passed square through the King's would check
                // it, so the King may be lifted; on its destination, the Rook moved too.
                Some(l) => {
                    if passed.any(|sq| self.royal_target_attacked(sq, &l)) {
                        continue;
                    }
                    if !self.castling_lands_attacked(&c, &l) {
                        sink.add_legal(self, m);
                    }
                }
                None => {
                    if passed.any(|sq| self.attacked(sq, us.flip())) {
                        continue;
                    }
                    sink.add(self, m);
                }
            }
        }
    }

    /// The side to move's set-up placements while it has pieces in hand, in a variant with
    /// a set-up phase; `None` when it moves as usual.
    #[inline(always)]
    pub(super) fn setup_placements(&self) -> Option<Vec<Move>> {
        let v = self.variant;
        if !v.setup_phase || self.hand_is_empty(self.side) {
            return None;
        }
        let mut out = Vec::new();
        if let Some(hooks) = self.rule_hooks() {
            hooks.setup_moves(self, &mut out);
        }
        Some(out)
    }
}

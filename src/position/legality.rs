//! Deciding legality without making moves: the side to move's royal piece, the pins and the
//! check found in the tables ([`Legality`]), and the perft leaf counter built on them, which
//! counts most moves as sets of squares.

use super::Position;
use super::generate::{GenContext, MoveSink, moves_onto};
use super::moves::{Move, NO_SQUARE, flags};
use crate::geometry::{Bitboard, Square};
use crate::variant::{CastleSpec, FastPathsAt, LeapSet, MAX_KINDS, Variant, Width};

/// Most pins [`Position::legality`] records; with more, every move is made and tested. Four
/// keep [`Legality`] at 128 bytes, which is copied without a call to `memcpy`.
const MAX_PINS: usize = 4;
const _: () = assert!(std::mem::size_of::<Legality>() <= 128);

/// Pins found by [`Position::legality`]: a pinned piece may only move inside its segment
/// (between its King and the pinning piece, the pinner included).
#[derive(Clone, Copy, Debug)]
pub struct Legality<B: Width = u128> {
    /// Directions (bits) some enemy piece captures along (none without a royal piece).
    pub(super) enemy_dirs: u16,
    /// The enemy pieces that capture by sliding (none without a royal piece).
    pub(super) enemy_sliders: Bitboard<B>,
    /// Squares the opponent's special moves capture on (see [`FastPathsAt::attack_map`]),
    /// with the side to move's royal piece lifted.
    pub(super) special_attacked: Bitboard<B>,
    /// The side to move's royal piece.
    pub royals: Bitboard<B>,
    /// Pinned pieces of the side to move.
    pub pinned: Bitboard<B>,
    /// Pieces of the side to move whose moves onto [`Legality::tested_to`] are made and tested
    /// (from [`FastPathsAt::must_test`]).
    pub tested: Bitboard<B>,
    /// The squares where moves of [`Legality::tested`] pieces are made and tested; their
    /// moves elsewhere are decided as any piece's.
    pub tested_to: Bitboard<B>,
    /// In check by one table piece: the checker's square and the squares between it and the
    /// royal piece, where every move but the royal piece's must end; [`Bitboard::ALL`] (every
    /// square index) when not in check.
    pub check_mask: Bitboard<B>,
    /// The royal piece's square (when there is one).
    king: Square,
    /// Each pin: the pinned piece's square, the direction from the pinning piece to the royal
    /// piece, the pinning piece's square.
    pins: [(Square, u8, Square); MAX_PINS],
    pin_count: u8,
}

impl<B: Width> Legality<B> {
    /// Nothing known yet: what [`Position::legality_into`] starts from.
    pub(super) const EMPTY: Self = Legality {
        enemy_dirs: 0,
        enemy_sliders: Bitboard::NONE,
        special_attacked: Bitboard::NONE,
        royals: Bitboard::NONE,
        pinned: Bitboard::NONE,
        tested: Bitboard::NONE,
        tested_to: Bitboard::NONE,
        check_mask: Bitboard::ALL,
        king: NO_SQUARE,
        pins: [(NO_SQUARE, 0, NO_SQUARE); MAX_PINS],
        pin_count: 0,
    };

    /// Squares the pinned piece on `from` may move to (`v` is the position's variant): between
    /// the royal piece and the pinning piece, that one included.
    #[inline(always)]
    pub fn pin_mask(&self, v: &Variant, from: Square) -> Bitboard<B> {
        let mut mask = Bitboard::<B>::ALL;
        for &(pinned, dir, by) in &self.pins[..self.pin_count as usize] {
            if pinned == from {
                mask &= v.back_ray::<B>(dir, self.king) & !v.back_ray::<B>(dir, by);
            }
        }
        mask
    }
}

impl<B: Width> Position<B> {
    /// What the side to move needs to decide legality cheaply: `None` when every move must be
    /// made and tested (in check by a special move or by two pieces, special moves without
    /// fast paths, special capturing leaps, more than one royal piece, many pins).
    ///
    /// With special moves, the opponent's special attack map joins the table attacks and the
    /// variant's fast paths name the pieces whose moves are still made and tested
    /// ([`Legality::tested`], onto [`Legality::tested_to`]); flagged moves are always made and
    /// tested
    /// ([`Position::quick_legal`]). In check by one table piece, every move but the royal
    /// piece's must end on [`Legality::check_mask`]. With no royal piece at all, a move is
    /// illegal only if it creates one: flagged moves and placements are tested, and plain moves
    /// cannot unless they promote to a royal kind, which is then refused here. (No royal piece
    /// also means no castling right.)
    pub fn legality(&self) -> Option<Legality<B>> {
        let mut legality = Legality::EMPTY;
        self.legality_into(&mut legality).then_some(legality)
    }

    /// [`Position::legality`] written into `legality` (which must be [`Legality::EMPTY`]),
    /// without copying the result: false for `None`.
    #[inline(always)]
    pub(super) fn legality_into(&self, legality: &mut Legality<B>) -> bool {
        let v = self.variant;
        if v.special_captures || v.royal_kinds.len() != 1 {
            return false;
        }
        let us = self.side;
        let them = us.flip();
        let royals = self.pieces_of(v.royal_kinds[0], us);
        if royals.count() > 1 {
            return false;
        }
        let blockers = self.occupied() | self.neutral;
        legality.royals = royals;
        let Some(king) = royals.first() else {
            let promotes_to_royal = v
                .promotion_kinds
                .iter()
                .flatten()
                .any(|k| v.royal_kinds.contains(k));
            return !promotes_to_royal;
        };
        let ours = self.by_colour[us.index()];
        let theirs = self.by_colour[them.index()];
        // Directions some enemy piece can capture along.
        let mut dirs = 0u16;
        let mut sliders = Bitboard::NONE;
        let mut kinds = v.slider_kinds[them.index()] & self.kinds[them.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.by_kind[k] & theirs;
            // Without a branch: which slider kinds are on the board varies from node to node.
            let present = u16::from(!pieces.is_empty());
            dirs |=
                v.capture_dirs[(k * 2 + them.index()) % (2 * MAX_KINDS)] & present.wrapping_neg();
            sliders |= pieces;
        }
        legality.king = king;
        legality.enemy_dirs = dirs;
        legality.enemy_sliders = sliders;
        dirs = v.dirs_toward(king, dirs, sliders);
        let mut fast: Option<&dyn FastPathsAt<B>> = None;
        if !v.fast_legality {
            let Some(paths) = self.fast_paths() else {
                return false;
            };
            // The map is read on the royal piece's square and where it may go.
            let sm = &v.slot_moves[Variant::slot(v.royal_kinds[0], us, king)];
            let wanted = if sm.irregular || sm.slides() != 0 {
                v.geometry.mask.to()
            } else {
                Bitboard::<B>::of(king) | (sm.leap_quiet | sm.leap_capture).to()
            };
            legality.special_attacked = paths.attack_map(self, them, blockers & !royals, wanted);
            fast = Some(paths);
        }
        // In check by a special move or by two pieces: no quick decisions. In check by one
        // leap or slide (slides are seen below, in the same walk along each direction as the
        // pins), every move but the royal piece's must end on the checker or between.
        if legality.special_attacked.has(king) {
            return false;
        }
        let leap_checkers = self.table_attackers(king, them, blockers, 0, Bitboard::NONE, false);
        match leap_checkers.count() {
            0 => {}
            1 => legality.check_mask = leap_checkers,
            _ => return false,
        }
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let back = v.back_ray::<B>(dir, king);
            if !back.intersects(sliders) {
                continue;
            }
            let Some(first) = v.nearest_back(dir, king, blockers) else {
                continue;
            };
            if theirs.has(first) {
                if self.rides_to(first, them, dir, king) {
                    if legality.check_mask != Bitboard::ALL {
                        return false;
                    }
                    legality.check_mask = back & !v.back_ray::<B>(dir, first);
                }
                continue;
            }
            if !ours.has(first) {
                continue;
            }
            let mut rest = blockers;
            rest.clear(first);
            if let Some(next) = v.nearest_back(dir, king, rest)
                && theirs.has(next)
                && self.rides_to(next, them, dir, king)
            {
                if legality.pin_count as usize == MAX_PINS {
                    return false;
                }
                legality.pinned.set(first);
                legality.pins[legality.pin_count as usize] = (first, dir, next);
                legality.pin_count += 1;
            }
        }
        if let Some(paths) = fast {
            // Only special captures make pieces worth testing.
            (legality.tested, legality.tested_to) = paths.must_test(self, king);
        }
        true
    }

    /// Whether `m` is legal, when [`Position::legality`] decides it without making the move;
    /// `None` when it must be made and tested (placements, en passant, castling, special
    /// moves, moves of [`Legality::tested`] pieces).
    #[inline(always)]
    pub fn quick_legal(&self, m: &Move, legality: &Legality<B>) -> Option<bool> {
        const SPECIAL: u8 =
            flags::EN_PASSANT | flags::CASTLE_KING | flags::CASTLE_QUEEN | flags::SPECIAL;
        if !m.has_moving_part()
            || m.flags & SPECIAL != 0
            || (legality.tested.has(m.from) && legality.tested_to.has(m.to))
        {
            None
        } else if legality.royals.has(m.from) {
            Some(!self.royal_target_attacked(m.to, legality))
        } else if legality.pinned.has(m.from) {
            Some((legality.pin_mask(self.variant, m.from) & legality.check_mask).has(m.to))
        } else {
            Some(legality.check_mask.has(m.to))
        }
    }

    /// Whether `m`, which [`Position::quick_legal`] leaves to be made and tested, may be
    /// legal: false only for a special move in check by one table piece that the fast paths
    /// rule out ([`FastPathsAt::may_evade`]).
    #[inline(always)]
    pub(super) fn may_evade(&self, m: &Move, l: &Legality<B>) -> bool {
        l.check_mask == Bitboard::ALL
            || m.flags & flags::SPECIAL == 0
            || self
                .fast_paths()
                .is_none_or(|paths| paths.may_evade(self, l, m))
    }

    /// The squares of `to` where the side to move's royal piece would be attacked by no
    /// table piece (slides passing through the square it leaves), and those of them a
    /// special move attacks by `l`.
    pub(super) fn royal_targets_table_safe(
        &self,
        to: Bitboard<B>,
        l: &Legality<B>,
    ) -> (Bitboard<B>, Bitboard<B>) {
        let by = self.side.flip();
        let without_king = (self.occupied() | self.neutral) & !l.royals;
        let safe = to.filter_squares(|sq| {
            self.table_attackers(sq, by, without_king, l.enemy_dirs, l.enemy_sliders, true)
                .is_empty()
        });
        (safe, safe & l.special_attacked)
    }

    /// Whether the side to move's royal piece would be attacked on `sq` (slides passing
    /// through the square it leaves).
    #[inline(always)]
    pub(super) fn royal_target_attacked(&self, sq: Square, l: &Legality<B>) -> bool {
        let by = self.side.flip();
        let without_king = (self.occupied() | self.neutral) & !l.royals;
        l.special_attacked.has(sq)
            || !self
                .table_attackers(sq, by, without_king, l.enemy_dirs, l.enemy_sliders, true)
                .is_empty()
    }

    /// Whether the side to move's royal piece, castling by `c`, would be attacked where it
    /// lands (the King and the Rook moved), when `l` decides with table attacks alone.
    #[inline(always)]
    pub(super) fn castling_lands_attacked(&self, c: &CastleSpec, l: &Legality<B>) -> bool {
        let blockers = ((self.occupied() | self.neutral)
            & !Bitboard::of(c.king_from)
            & !Bitboard::of(c.rook_from))
            | Bitboard::of(c.rook_to);
        let by = self.side.flip();
        !self
            .table_attackers(c.king_to, by, blockers, l.enemy_dirs, l.enemy_sliders, true)
            .is_empty()
    }

    /// The squares of `to` the piece on `from` (not a [`Legality::tested`] one) may move to by
    /// plain moves as far as its royalty and pins go; the moves of other pieces than the royal
    /// one must still end on [`Legality::check_mask`].
    #[inline(always)]
    pub(super) fn legal_targets(
        &self,
        l: &Legality<B>,
        from: Square,
        to: Bitboard<B>,
    ) -> Bitboard<B> {
        if l.royals.has(from) {
            // A loop, not `filter_squares` with a closure: the closure was not inlined into
            // the leaf counter on 128-bit masks (a call per square).
            let mut safe = Bitboard::NONE;
            for sq in to {
                if !self.royal_target_attacked(sq, l) {
                    safe.set(sq);
                }
            }
            safe
        } else if l.pinned.has(from) {
            to & l.pin_mask(self.variant, from)
        } else {
            to
        }
    }

    /// The number of legal moves when `l` decides legality: leaps of pieces neither royal nor
    /// pinned are counted as sets (one shift and one popcount per leap vector), everything else
    /// piece by piece.
    #[inline(always)]
    pub(super) fn bulk_count(&self, l: &Legality<B>) -> u64 {
        self.bulk_count_with(l, None)
    }

    /// [`Position::bulk_count`], with the legal special moves' number `specials` when the
    /// caller has counted them ([`FastPathsAt::count_legal`] with `l`, not in check).
    /// Out of line: [`Position::count_moves`] and [`Position::count_with`] share one copy (a
    /// copy in each doubled the hot code of Pink Panther's counts, which use both).
    #[inline(never)]
    pub(super) fn bulk_count_with(&self, l: &Legality<B>, specials: Option<u64>) -> u64 {
        let v = self.variant;
        let mut counter = LeafCounter {
            legality: l,
            count: 0,
            specials,
        };
        if let Some(placements) = self.setup_placements() {
            placements.iter().for_each(|&m| counter.add(self, m));
            return counter.count;
        }
        // The royal piece's moves are tested square by square; in check, every other move
        // must end on `check_mask`.
        let royal_ctx = GenContext::new(self);
        let in_check = l.check_mask != Bitboard::ALL;
        let mut ctx = royal_ctx;
        if in_check {
            ctx.empty &= l.check_mask;
            ctx.targets &= l.check_mask;
            ctx.reachable &= l.check_mask;
        }
        let ctx_for = |from: Square| if l.royals.has(from) { &royal_ctx } else { &ctx };
        let restricted = l.pinned | l.royals | l.tested;
        // Where a leap may end, indexed by quiet + 2 * capture.
        let allowed = [Bitboard::NONE, ctx.empty, ctx.targets, ctx.reachable];
        let mut kinds = self.kinds[self.side.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.by_kind[k] & ctx.ours;
            if pieces.is_empty() {
                continue;
            }
            let (kind, sets) = v.counting_of(k, self.side.index());
            if !kind.by_sets {
                for from in pieces {
                    self.piece_moves(&mut counter, ctx_for(from), k, from, true);
                }
                continue;
            }
            let free = pieces & !restricted;
            let promotions = kind.promotions as usize;
            let is_pawn = kind.pawn;
            // A few pieces with many leap vectors (Knights) cost less piece by piece: one
            // table load and popcount each, against a shift and popcount per vector.
            let by_piece = !free.is_empty() && free.count() < kind.by_piece_below;
            let sets: &[LeapSet] = if free.is_empty() || by_piece {
                &[]
            } else {
                sets
            };
            for set in sets {
                let mut from = free & set.sources.to();
                if from.is_empty() {
                    continue;
                }
                for &p in &set.path[..set.path_len as usize] {
                    from &= royal_ctx.empty.shift(-p);
                }
                let to =
                    from.shift(set.delta) & allowed[set.quiet as usize + 2 * set.capture as usize];
                counter.count += moves_onto(to, ctx.last_rank, promotions);
            }
            if is_pawn {
                if kind.has_rides {
                    for from in free {
                        self.piece_moves(&mut counter, &ctx, k, from, false);
                    }
                } else if let Some(ep) = self.ep {
                    // Their leaps are counted; en passant is left, for the pawns that capture
                    // on the square.
                    let takers =
                        free & v.leap_attackers[Variant::slot(k as u8, self.side, ep)].to();
                    for from in takers {
                        self.add_flagged(
                            &mut counter,
                            from,
                            Bitboard::<B>::of(ep),
                            flags::EN_PASSANT,
                            &v.promotion_kinds[k],
                        );
                    }
                }
            } else if by_piece || kind.has_rides {
                // Slides piece by piece, and the leaps too when they were not counted as sets.
                for from in free {
                    let slot = Variant::slot(k as u8, self.side, from);
                    let sm = v.slot_moves_at(slot);
                    if sm.irregular {
                        self.piece_moves(&mut counter, &ctx, k, from, by_piece);
                        continue;
                    }
                    // In check, a piece none of whose leaps and whole slide rays meets the
                    // checker or the squares between has no move.
                    if in_check && !v.plain_reach_at::<B>(slot).intersects(l.check_mask) {
                        continue;
                    }
                    let mut to = self.slide_targets(sm, from, &ctx);
                    if by_piece {
                        to |=
                            (sm.leap_quiet.to() & ctx.empty) | (sm.leap_capture.to() & ctx.targets);
                    }
                    counter.count += moves_onto(to, ctx.last_rank, promotions);
                }
            }
            for from in pieces & restricted {
                self.piece_moves(&mut counter, ctx_for(from), k, from, true);
            }
        }
        self.castling_and_special_moves(&mut counter, !in_check);
        counter.count
    }
}

/// attack tables already decide.
struct LeafCounter<'a, B: Width> {
    legality: &'a Legality<B>,
    count: u64,
    /// The legal special moves, when already counted.
    specials: Option<u64>,
}

impl<B: Width> MoveSink<B> for LeafCounter<'_, B> {
    #[inline(always)]
    fn legality(&self) -> Option<&Legality<B>> {
        Some(self.legality)
    }
    #[inline(always)]
    fn add_legal(&mut self, _pos: &Position<B>, _m: Move) {
        self.count += 1;
    }
    #[inline(always)]
    fn count_special_moves(&mut self, pos: &Position<B>) -> bool {
        if self.legality.check_mask != Bitboard::ALL {
            return false;
        }
        match self.specials.or_else(|| {
            pos.fast_paths()
                .and_then(|paths| paths.count_legal(pos, self.legality))
        }) {
            Some(n) => {
                self.count += n;
                true
            }
            None => false,
        }
    }
    #[inline(always)]
    fn add(&mut self, pos: &Position<B>, m: Move) {
        let legal = match pos.quick_legal(&m, self.legality) {
            Some(known) => known,
            None => pos.may_evade(&m, self.legality) && !pos.play(m).royal_attacked(pos.side),
        };
        if legal {
            self.count += 1;
        }
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
        let mut to = to;
        if self.legality.tested.has(from) {
            let tested = to & self.legality.tested_to;
            OneByOne(self).add_targets(pos, from, tested, promotions, last_rank);
            to &= !tested;
        }
        let to = pos.legal_targets(self.legality, from, to);
        self.count += moves_onto(to, last_rank, promotions.len());
    }
}

/// A [`LeafCounter`] taking targets one move at a time (the default `add_targets`), so each
/// goes through `quick_legal` to make-and-test.
struct OneByOne<'a, 'b, B: Width>(&'a mut LeafCounter<'b, B>);

impl<B: Width> MoveSink<B> for OneByOne<'_, '_, B> {
    fn add(&mut self, pos: &Position<B>, m: Move) {
        self.0.add(pos, m);
    }
}

//! Attacks: which pieces could capture on a square, from the tables and the special moves.

use super::Position;
use super::moves::Piece;
use crate::geometry::{Bitboard, Square};
use crate::variant::{Colour, Variant, Width};

impl<B: Width> Position<B> {
    /// Squares of pieces an enemy may capture.
    #[inline(always)]
    pub fn capturable(&self, colour: Colour) -> Bitboard<B> {
        let mut bb = self.by_colour[colour.index()];
        let mut kinds = self.variant.uncapturable_kinds & self.kinds[colour.index()];
        while kinds != 0 {
            bb &= !self.by_kind[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        bb
    }

    /// Whether a piece of `by` could capture on `sq` (pins ignored).
    pub fn attacked(&self, sq: Square, by: Colour) -> bool {
        let v = self.variant;
        let blockers = self.occupied() | self.neutral;
        !self
            .table_attackers(
                sq,
                by,
                blockers,
                v.all_dirs(),
                self.by_colour[by.index()],
                true,
            )
            .is_empty()
            || !self.special_attackers(sq, by, blockers, true).is_empty()
            || self
                .special_moves()
                .is_some_and(|s| s.attacks(self, sq, by))
    }

    /// Squares of `by`'s pieces that could capture on `sq` by their table moves (leaps and
    /// slides; special moves not included).
    pub fn attackers(&self, sq: Square, by: Colour) -> Bitboard<B> {
        let v = self.variant;
        let blockers = self.occupied() | self.neutral;
        self.table_attackers(
            sq,
            by,
            blockers,
            v.all_dirs(),
            self.by_colour[by.index()],
            false,
        ) | self.special_attackers(sq, by, blockers, false)
    }

    /// `by`'s pieces that capture on `sq` by a plain leap or by a slide along one of `dirs`
    /// (direction bits), `blockers` blocking slides; with `any`, the first one found alone.
    /// Directions whose backward ray holds none of `sliders` (a superset of `by`'s sliding
    /// pieces) are skipped.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn table_attackers(
        &self,
        sq: Square,
        by: Colour,
        blockers: Bitboard<B>,
        dirs: u16,
        sliders: Bitboard<B>,
        any: bool,
    ) -> Bitboard<B> {
        let v = self.variant;
        let theirs = self.by_colour[by.index()];
        let mut found = Bitboard::NONE;
        // The pieces standing where some kind could leap onto `sq` (usually none or one), each
        // asked whether its own kind does.
        let candidates = v.any_leap_attackers_of::<B>(by, sq) & theirs;
        for s in candidates {
            let kind = Piece::kind_of(self.board[s.index()]);
            if v.leap_attackers[Variant::slot(kind, by, sq)].has(s) {
                found.set(s);
                if any {
                    return found;
                }
            }
        }
        let mut dirs = v.dirs_toward(sq, dirs, sliders);
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            if !v.back_ray::<B>(dir, sq).intersects(sliders) {
                continue;
            }
            if let Some(s) = v.nearest_back(dir, sq, blockers)
                && theirs.has(s)
                && self.rides_to(s, by, dir, sq)
            {
                found.set(s);
                if any {
                    return found;
                }
            }
        }
        found
    }

    /// `by`'s pieces that capture on `sq` by a special (lame or initial) leap; with `any`, the
    /// first one found alone.
    fn special_attackers(
        &self,
        sq: Square,
        by: Colour,
        blockers: Bitboard<B>,
        any: bool,
    ) -> Bitboard<B> {
        let v = self.variant;
        let mut found = Bitboard::NONE;
        if !v.special_captures {
            return found;
        }
        for from in self.by_colour[by.index()] {
            let p = self.piece_at(from).expect("occupied");
            for leap in &v.special_leaps[Variant::slot(p.kind, by, from)] {
                if leap.capture && leap.to == sq && !leap.path.to().intersects(blockers) {
                    found.set(from);
                    if any {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Whether the piece of `by` on `s` captures on `target` by sliding along direction `dir`
    /// (`target` lies on that ray from `s`, with nothing between).
    #[inline(always)]
    pub(crate) fn rides_to(&self, s: Square, by: Colour, dir: u8, target: Square) -> bool {
        let v = self.variant;
        let kind = self.piece_at(s).expect("occupied").kind;
        let range = v.ride_capture_range[Variant::slot(kind, by, s)][dir as usize];
        range == 255 || (range != 0 && range as u32 >= v.steps_between(dir, s, target))
    }

    /// Whether any royal piece of `colour` is attacked.
    pub fn royal_attacked(&self, colour: Colour) -> bool {
        let v = self.variant;
        for &k in &v.royal_kinds {
            for sq in self.pieces_of(k, colour) {
                if self.attacked(sq, colour.flip()) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }
}

//! Pink Panther's fast paths ([`FastPathsAt`]): what lets the generator decide the legality of
//! most moves, and count the jewel jumps at perft leaves, without making them. Apart from the
//! rules (the jumps themselves are in the parent module): none of this changes what is legal.

use super::{
    BISHOP_PAIR, JumpStart, Jumps, KNIGHT_PAIR, NO_LINE, PLAIN_LETTERS, ROOK_PAIR, boxed,
    colour_square, landing_squares, vector,
};
use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::position::{Legality, Move, Position, moves_onto};
use crate::variant::tables::{COLOUR_SQUARES, MAX_DIRECTIONS};
use crate::variant::{Colour, FastPathsAt, ReplySquares, Variant, Width};
use std::sync::Arc;

#[cfg(test)]
mod reply_tests;

impl<B: Width> FastPathsAt<B> for Arc<Jumps> {
    fn count_legal(&self, pos: &Position<B>, legality: &Legality<B>) -> Option<u64> {
        // Most positions have no jump ([`Jumps::jump_start`]): then nothing else is set up.
        Some(match self.jump_start(pos, pos.side()) {
            Some(start) => self.count_jumps(pos, legality, start),
            None => 0,
        })
    }

    /// The map of the fast legality path (`Position::legality`), exact for the moves it
    /// decides, the side to move's plain moves without a jump (jumps are made and tested).
    ///
    /// * The General's step to `s`: it is then attacked by a jump landing on `s`, with the
    ///   board as before but the General gone from its square (a capturable piece on `s`, and
    ///   the squares between mover, jumped square and `s` are never `s`). That is this map with
    ///   the General removed from `blockers`; the General is never jumpable for the enemy (it
    ///   is not the jewel and not theirs), so its old square cannot matter as a jumped one,
    ///   and a piece it captures on `s` can be neither the mover nor the jumped square of a
    ///   jump landing on `s`.
    /// * Any other piece's move, the General staying: the General is not attacked before
    ///   (else no fast path). The move empties `from` and fills `to` with a piece of ours,
    ///   perhaps capturing. Filling a square only blocks jumps (ours are never jumpable), and a
    ///   capture removes an enemy mover or jumped square (carriers cannot be captured), so only
    ///   emptying `from` can create an attack: by a leap only if `from` becomes jumpable (never:
    ///   it is empty), by a slide only if `from` is one of the first two blockers behind the
    ///   General on a line, or by moving the jewel (the carrier). Those are
    ///   `Jumps::jump_pinned`.
    /// * No General (a King is never in check): a move is illegal only if it makes the mover's
    ///   King a General, which only a jump does (passing, or a robbery of one's own King).
    fn attack_map(
        &self,
        pos: &Position<B>,
        by: Colour,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
    ) -> Bitboard<B> {
        self.jump_attack_map(pos, by, blockers, wanted)
    }

    fn must_test(&self, pos: &Position<B>, general: Square) -> (Bitboard<B>, Bitboard<B>) {
        self.jump_pinned(pos, general)
    }

    /// In check by one table piece C (a jump attacking the General leaves the legality
    /// undecided), a jump `m` leaves the General plain and attacked by C (PP-7) unless the
    /// General is the mover (acquiring, it becomes a King), or the ally a pass jumps over
    /// (`m.special_square`: it becomes a King), or the jump changes C or its line. A jump
    /// newly fills only its landing square (an acquiring one takes the PP there; a pass
    /// leaves the PP on the ally's square, which was filled), empties only squares (its start,
    /// the unclaimed PP's), captures only on its landing square, and changes a piece only on
    /// the square it jumps over (a carrier robbed there becomes its plain piece). So C still
    /// attacks the General unless the landing square or the jumped square lies on C's square
    /// or between it and the General (`check_mask`): such jumps are made and tested, the
    /// others are illegal.
    fn may_evade(&self, _pos: &Position<B>, legality: &Legality<B>, m: &Move) -> bool {
        let evading = legality.check_mask | legality.royals;
        legality.royals.has(m.from) || evading.has(m.to) || evading.has(m.special_square)
    }

    fn reply_sensitive(
        &self,
        pos: &Position<B>,
        general: Square,
        zone: Bitboard<B>,
    ) -> Option<ReplySquares<B>> {
        self.reply_squares(pos, general, zone)
    }

    /// The opponent O's pieces whose slides a quiet move of the side to move S may not adjust:
    /// O's carrier (its move moves the jewel, which every acquiring jump reads), and O's
    /// pieces that a slide jump of S pins now (`Jumps::jump_pinned_pieces` from O's side:
    /// first or second on a line from O's General, the other of the two jumpable for S, a
    /// slider of S third). A leap jump of S onto the General goes over the square next to it
    /// (the jewel or S's ally) from a square of S, so no piece of O stands in its way. A quiet
    /// move reused or adjusted here pins no other piece of O that way and frees none: the lines
    /// from the General through a square the jewel may hold are sensitive up to their third
    /// blocker (the fourth past the jewel) in `Jumps::reply_squares`, for every piece where a
    /// slider of S stands on them and for S's sliders where none does. The slides of O's other
    /// pieces, not pinned before the move nor after, stay legal as the table pins decide.
    fn reply_unadjusted(&self, pos: &Position<B>, general: Square) -> Bitboard<B> {
        let Some(jewel) = self.carriers.jewel_square(pos) else {
            return Bitboard::ALL;
        };
        let them = pos.side().flip();
        let carrier = Bitboard::of(jewel) & pos.colour_bb(them);
        carrier | self.jump_pinned_pieces(pos, them, general, jewel)
    }
}

// `reply_squares` turns a direction into its bit by a shift in 32 bits kept to 16: every
// direction has a bit there, and `NO_LINE` none.
const _: () = assert!(MAX_DIRECTIONS <= 16 && NO_LINE % 32 >= 16);

/// Indices in [`ReplyTables::leaps`].
const LANDS_OVER: usize = 0;
const PASS_LANDS: usize = 1;

/// What only [`Jumps::reply_squares`] reads, from the declared atoms, built with the
/// [`JumpTables`](super::JumpTables):
///
/// * `leaps`, per (colour, square `j`) and carrier pair, for the capturing leaps `d` of the
///   plain piece: the squares `j + d` with `j - d` on the board (a jump of that colour from
///   `j - d` over `j` lands there, `LANDS_OVER`), and the squares `j + 2d` with `j + d` on the
///   board (a pass from `j` lands there, `PASS_LANDS`). The squares an acquiring jump over
///   `j` may start from, for a leap of any mode or a slide, are the [`JumpTables`]'
///   `any_source` (which holds the sources of the uneven leaps too).
/// * `capture_dirs`, per colour and pair: the directions the plain piece captures sliding
///   along (bits); `dir_pairs`, per colour and direction, the same as pairs (bits).
///
/// The directions between two squares are the [`JumpTables`]' `line_dir`.
///
/// [`JumpTables`]: super::JumpTables
pub(super) struct ReplyTables {
    leaps: Box<[[[Bitboard; 2]; PLAIN_LETTERS.len()]; COLOUR_SQUARES]>,
    capture_dirs: [[u16; PLAIN_LETTERS.len()]; 2],
    dir_pairs: [[u8; MAX_DIRECTIONS]; 2],
}

impl ReplyTables {
    /// The empty tables, filled by [`ReplyTables::build`].
    pub(super) fn empty() -> ReplyTables {
        ReplyTables {
            leaps: boxed([[Bitboard::EMPTY; 2]; PLAIN_LETTERS.len()]),
            capture_dirs: [[0; PLAIN_LETTERS.len()]; 2],
            dir_pairs: [[0; MAX_DIRECTIONS]; 2],
        }
    }

    /// The tables of the variant `v`, for the kinds, slides and tables of `jumps`.
    pub(super) fn build(v: &Variant, jumps: &Jumps) -> ReplyTables {
        let mut r = ReplyTables::empty();
        let g = &v.geometry;
        for (i, &(plain, _)) in jumps.carriers.pairs.iter().enumerate() {
            for by in Colour::BOTH {
                for slide in jumps.slides(plain, by).iter().filter(|s| s.capture) {
                    r.capture_dirs[by.index()][i] |= 1 << slide.dir;
                    r.dir_pairs[by.index()][slide.dir as usize] |= 1 << i;
                }
                for j in g.squares() {
                    let at = colour_square(by, j);
                    let leaps = &mut r.leaps[at][i];
                    for atom in v.atoms[plain as usize]
                        .iter()
                        .filter(|a| !a.rider && a.capture)
                    {
                        let (dx, dy) = vector(atom, by);
                        if let (Some(_), Some(to)) = (g.offset(j, -dx, -dy), g.offset(j, dx, dy)) {
                            leaps[LANDS_OVER].set(to);
                        }
                        if let (Some(_), Some(to)) =
                            (g.offset(j, dx, dy), g.offset(j, 2 * dx, 2 * dy))
                        {
                            leaps[PASS_LANDS].set(to);
                        }
                    }
                }
            }
        }
        r
    }
}

impl Jumps {
    /// The squares a quiet move of the side to move S (a capturable plain piece X from `a` to
    /// an empty `b`) must neither leave nor enter for the opponent O's legal replies to be those
    /// of the position with the turn passed ([`FastPathsAt::reply_sensitive`]), with O's
    /// General on `general` and `zone` the squares it may step to; the piece tables' part
    /// (O's table moves, S's table attacks) is the generic one. Only `a` and `b` differ
    /// between the two positions, before and after any reply of O. Squares that change only
    /// O's jumps, or which of the General's steps S's jumps attack, are returned apart
    /// ([`ReplySquares::special_only`]): the caller counts those again in the child.
    ///
    /// * O's jumps (special only). An acquiring slide along a direction needs O's plain
    ///   slider of it behind the jewel square: where there is one, the squares from the jewel
    ///   to the first blocker either way (the mover, the landing squares). A pass needs O to
    ///   carry the jewel: along its plain piece's slides, the squares up to the second blocker
    ///   (the ally, the landing squares). A leap's landing square counts only for an uneven
    ///   atom (a Pawn lands straight only on an empty square, diagonally only on an enemy)
    ///   with O's mover there: an even atom's landing may hold X or not and stays one move, a
    ///   capture or a quiet one. Elsewhere O's jumps are the same moves in both positions.
    /// * S's jumps onto O's General after a reply that does not move it (for every piece, or
    ///   for the kinds returned). A reply changes the board on at most three squares (from,
    ///   jumped, landing): it empties at most two squares of a line through the General, both
    ///   only when the jewel is unclaimed and on that line (an acquiring slide along it, which
    ///   fills a landing square on it too). A slide jump onto the General reads its line up to
    ///   the second blocker after the reply: so up to the third blocker now, the fourth when
    ///   the jewel is among the first three, on the lines of S's capturing slides (of plain
    ///   pieces and carriers: a robbed carrier becomes plain) where the jewel may stand after
    ///   some reply (`jewels`: its square now, where an acquiring jump of O lands, and when O
    ///   carries it where the carrier may go on an empty board or pass it). Such a jump needs
    ///   a slider of S along the line (a plain one, or the carrier that passes or is robbed
    ///   there): where none stands on it, its squares count only for S's plain sliders along
    ///   it, the kinds returned with them. A leap jump by the atom `d` comes from
    ///   `general - 2d` over `general - d`: the mover's square counts when the jewel may stand
    ///   over it after some reply, the square jumped when S carries the jewel on the mover's
    ///   square (a pass over X). These decide checks and the pieces a jump pins.
    /// * S's jumps onto a square `z` the General steps to (special only: they decide which of
    ///   its steps are legal, nothing else): the jewel stays where it is, so the squares of a
    ///   leap jump over the jewel onto `z` (or a pass from it), and on a line from `z` through
    ///   the jewel, the squares between, the jewel's and those behind it up to the first
    ///   blocker (with the General lifted).
    /// * O's acquiring jumps empty the unclaimed jewel's square (special only: they decide
    ///   which of those jumps are legal): where it is the first blocker on a line from the
    ///   General, the squares behind it up to the next blocker decide whether such a jump
    ///   uncovers a table attack ([`Jumps::jewel_shield`]); `Replies` follows the lines from
    ///   the General only as far as the piece tables need.
    ///
    /// * Captures (`captured`): a capture of O's piece on a square where one of O's jumps
    ///   starts, lands (whatever stands there now: the capture may open a landing) or which a
    ///   pass jumps over changes O's jumps. A capture elsewhere (and on no square above) leaves
    ///   the square occupied: O's jumps read it as a blocker before and after, and S's jumps
    ///   read it only as a mover's square or a square S's carrier passes over, both named
    ///   above where they matter.
    ///
    /// [`count_legal`](FastPathsAt::count_legal) counts O's jumps in the child exactly with the
    /// legality of the position with the turn passed, as `special_only` asks: it reads only
    /// the General's square and the table pins there, which a move touching none of the other
    /// squares leaves as they are. A General that acquires becomes a King and is never in
    /// check; without a General O has no royal piece and the caller reuses nothing. `None`
    /// when there is no jewel.
    ///
    /// How the squares above are found without walking every pair, step and direction
    /// ([`ReplyTables`]; `reply_squares_reference` in the tests is the plain walk):
    ///
    /// * A pair of O's is looked at only where O carries the jewel with its carrier or a plain
    ///   piece of it stands on `any_source` (every square an acquiring jump over the jewel starts
    ///   from, the uneven leaps' included): elsewhere it has neither slides nor uneven leaps to
    ///   name. Without such a pair and without a carrier of O's, O has no jump at all, and the
    ///   jumps are not enumerated.
    /// * A leap jump of S from `z - 2d` over `z - d` lands on a step `z` over the jewel when
    ///   `z = jewel + d` with `jewel - d` on the board (`LANDS_OVER`), and is a pass from the
    ///   jewel when `z = jewel + 2d` with `jewel + d` on the board (`PASS_LANDS`, the square
    ///   halfway jumped): one lookup per pair of S's instead of one per pair and step. Onto the
    ///   General, a pass from the jewel goes over the square halfway, if that is a square
    ///   jumped onto it.
    /// * The lines from the General that hold a square the jewel may stand on are found from
    ///   those squares (`line_dir`) when they are few, and S's kinds and pieces along such a
    ///   line from the pairs capturing along its direction (`dir_pairs`), only for the lines
    ///   followed.
    fn reply_squares<B: Width>(
        &self,
        pos: &Position<B>,
        general: Square,
        zone: Bitboard<B>,
    ) -> Option<ReplySquares<B>> {
        let v = pos.variant();
        let g = &v.geometry;
        let t = &self.tables;
        let r = &self.reply;
        let pairs = &self.carriers.pairs;
        let us = pos.side();
        let them = us.flip();
        let jewel = self.carriers.jewel_square(pos)?;
        let blockers = pos.occupied() | pos.neutral();
        let ours = pos.colour_bb(us);
        let theirs = pos.colour_bb(them);
        let carrier = pos.piece_at(jewel);
        let they_carry = theirs.has(jewel);
        let we_carry = ours.has(jewel);
        let back = |dir: u8, sq: Square| v.back_ray::<B>(dir, sq);
        // Squares of the back ray of `dir` from `sq` up to its first blocker.
        let behind = |dir: u8, sq: Square| match v.nearest_back(dir, sq, blockers) {
            Some(first) => back(dir, sq) & !back(dir, first),
            None => back(dir, sq),
        };
        let mut out = Bitboard::NONE;
        // Squares that change O's jumps only (`special`), and those that change only which
        // of the General's steps S's jumps attack (`steps_special`).
        let mut special = Bitboard::NONE;
        let mut steps_special = Bitboard::NONE;
        // One pass over the pairs: S's pieces of each (plain or carrier: `own`, `present`),
        // and the pairs of O's whose plain pieces stand where they may acquire (`near`).
        let at_them = colour_square(them, jewel);
        let (mut own, mut present, mut near) = ([Bitboard::<B>::NONE; 5], 0u8, 0u8);
        for (i, &(plain, carrier_kind)) in pairs.iter().enumerate() {
            own[i] = (pos.kind_bb(plain) | pos.kind_bb(carrier_kind)) & ours;
            present |= u8::from(!own[i].is_empty()) << i;
            let movers = pos.kind_bb(plain) & theirs;
            near |= u8::from(movers.intersects(t.any_source[at_them][i].to())) << i;
        }
        // The pair of O's carrier, if O carries the jewel.
        let mut passing_pairs = 0u8;
        if let Some(c) = carrier.filter(|_| they_carry) {
            for (i, &(_, carrier_kind)) in pairs.iter().enumerate() {
                passing_pairs |= u8::from(c.kind == carrier_kind) << i;
            }
        }
        // O's jumps, and where the jewel may stand after them.
        let mut work = near | passing_pairs;
        while work != 0 {
            let i = work.trailing_zeros() as usize;
            work &= work - 1;
            let (plain, _) = pairs[i % pairs.len()];
            let movers = pos.kind_bb(plain) & theirs;
            let passing = passing_pairs >> i & 1 != 0;
            // Where a slide of the plain piece may start to acquire (behind the jewel on its
            // lines): usually no mover stands there.
            let slide_from = t.sources[at_them][i][2].to::<B>();
            let slides = match passing || movers.intersects(slide_from) {
                true => self.slides(plain, them),
                false => &[],
            };
            for slide in slides {
                if back(slide.dir, jewel).intersects(movers) {
                    special |= behind(slide.dir, jewel) | v.slide(slide.dir, jewel, blockers).0;
                }
                if passing {
                    let (ray, first) = v.slide(slide.dir, jewel, blockers);
                    special |= ray;
                    if let Some(first) = first {
                        special |= v.slide(slide.dir, first, blockers).0;
                    }
                }
            }
            // Leaps that land only quietly or only capturing: an acquiring one mirrors its
            // mover about the jewel square.
            let [from, pass_to] = t.uneven[at_them][i];
            for from in movers & from.to() {
                special.set(Square(2 * jewel.0 - from.0));
            }
            if passing {
                special |= pass_to.to();
            }
        }
        let mut jewels = Bitboard::of(jewel);
        // The squares O's jumps start from, land on (whatever stands there) and jump over: a
        // capture there takes a jump away (its mover, or the ally a pass jumps) or adds one
        // (onto the captured piece's square). Without a pair `near` and a carrier of O's, O
        // has no jump.
        let mut captured = Bitboard::NONE;
        if near != 0 || they_carry {
            self.for_each_jump(pos, them, blockers, g.mask.to(), |j| {
                jewels |= if j.acquiring {
                    j.to
                } else {
                    Bitboard::of(j.via)
                };
                captured |= Bitboard::of(j.from) | Bitboard::of(j.via) | j.to;
                false
            });
        }
        if let Some(c) = carrier.filter(|_| they_carry) {
            let sm = &v.slot_moves[Variant::slot(c.kind, them, jewel)];
            jewels |= (sm.leap_quiet | sm.leap_capture).to::<B>()
                | v.slides(sm.slides(), jewel, Bitboard::<B>::NONE);
        }
        // S's jumps onto the General or a square it steps to. Square indices are linear in
        // file and rank: a leap jump's mover mirrors its landing square about the one jumped.
        let mirror = |over: Square, onto: Square| Square(2 * over.0 - onto.0);
        let steps = zone & !Bitboard::of(general);
        let (at_general, at_jewel) = (colour_square(us, general), colour_square(us, jewel));
        let mut slide_dirs = 0u16;
        let (mut overs, mut lands_over, mut pass_lands) =
            (Bitboard::NONE, Bitboard::NONE, Bitboard::NONE);
        let mut bits = present;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            slide_dirs |= r.capture_dirs[us.index()][i];
            overs |= t.capture_overs[at_general][i].to();
            lands_over |= r.leaps[at_jewel][i][LANDS_OVER].to::<B>();
            pass_lands |= r.leaps[at_jewel][i][PASS_LANDS].to::<B>();
        }
        // A leap jump over the jewel onto `z` (its mover mirrors `z` about the jewel).
        for z in steps & lands_over {
            steps_special.set(mirror(jewel, z));
        }
        // A pass from the jewel over the square halfway to `z`.
        if we_carry {
            for z in steps & pass_lands {
                steps_special.set(Square((jewel.0 + z.0) / 2));
            }
        }
        for over in overs & jewels {
            out.set(mirror(over, general));
        }
        // A pass from the jewel over the square halfway to the General.
        let (sum, mid) = (general.0 + jewel.0, Square((general.0 + jewel.0) / 2));
        if we_carry && sum % 2 == 0 && overs.has(mid) {
            out.set(mid);
        }
        let (mut kinds, mut for_kinds) = (0u16, Bitboard::NONE);
        // The directions of S's capturing slides whose line from the General holds a square
        // the jewel may stand on: from those squares when they are few.
        let mut dirs = 0u16;
        if jewels.count() <= 4 {
            for j in jewels {
                // Directions are below 16: `NO_LINE` (no direction) sets a bit cut off here.
                dirs |= (1u32 << (t.line_dir(general, j) % 32)) as u16;
            }
        } else {
            let mut all = slide_dirs;
            while all != 0 {
                let dir = all.trailing_zeros() as u8;
                all &= all - 1;
                dirs |= u16::from(back(dir, general).intersects(jewels)) << dir;
            }
        }
        dirs &= slide_dirs;
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            // Its square now is among them: a pass from it (S's carrier) is covered too.
            let line = back(dir, general);
            // S's kinds capturing along it, and their pieces.
            let (mut dir_kinds, mut dir_pieces) = (0u16, Bitboard::NONE);
            let mut bits = r.dir_pairs[us.index()][dir as usize % MAX_DIRECTIONS] & present;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                dir_kinds |= 1 << pairs[i].0;
                dir_pieces |= own[i];
            }
            // Without a slider of S along it (a robbed carrier stays on its square), the line
            // matters only to a slider that enters it.
            let squares = if line.intersects(dir_pieces) {
                &mut out
            } else {
                kinds |= dir_kinds;
                &mut for_kinds
            };
            // The blockers on the line, nearest first: `nearest_back` from the General, then
            // from each blocker found (the back ray from a square of `line` is the part of
            // `line` beyond it, so it holds the blockers not yet taken).
            let descending = v.descending(dir);
            let mut hits = line & blockers;
            let (mut seen, mut limit) = (0, 3);
            *squares |= loop {
                if hits.is_empty() {
                    break line;
                }
                let next = Square(match descending {
                    true => hits.0.trailing_zeros(),
                    false => B::WIDTH - 1 - hits.0.leading_zeros(),
                } as u8);
                hits.clear(next);
                seen += 1;
                if next == jewel {
                    limit = 4;
                }
                if seen == limit {
                    break line & !back(dir, next);
                }
            };
        }
        // O's acquiring jumps empty the unclaimed jewel's square: when it is the first blocker
        // on a line from the General, the piece next behind it decides whether they uncover a
        // table attack (`Jumps::jewel_shield`), so the squares up to that piece count.
        if pos.neutral().has(jewel) {
            let dir = t.line_dir(general, jewel);
            if dir != NO_LINE && v.nearest_back(dir, general, blockers) == Some(jewel) {
                special |= behind(dir, jewel);
            }
        }
        let lifted = blockers & !Bitboard::of(general);
        // Only the steps on a line through the jewel have a direction to it.
        for z in steps & t.lines[jewel.index() % SQUARE_COUNT].to() {
            let dir = t.line_dir(z, jewel);
            if dir == NO_LINE || slide_dirs >> dir & 1 == 0 {
                continue;
            }
            let next = v.nearest_back(dir, jewel, lifted);
            let line = back(dir, z)
                & match next {
                    Some(next) => !back(dir, next),
                    None => Bitboard::ALL,
                };
            // Unless S carries the jewel (a pass reads every square) or the next blocker is a
            // slider of S along the line, there is no jump onto `z` along it now, and only a
            // slider of S arriving makes one; the next blocker's square stays sensitive (a
            // piece of S leaving it may uncover another behind).
            steps_special |= line;
            if let Some(next) = next {
                steps_special.set(next);
            }
        }
        Some(ReplySquares {
            all: out,
            kinds,
            for_kinds,
            special_only: (special | steps_special) & !out,
            special_steps: steps_special & !out,
            special_moves: special & !out,
            captured: captured & !out,
        })
    }

    /// Squares on which the jewel (carried by the side to move) would let an acquiring jump of
    /// `them` land on `general`, a superset: every acquiring jump lands a plain atom beyond the
    /// jewel square, so on a line through it (slides, and the General's and Pawn's steps) or a
    /// Knight's move from it. Lines are kept only when `them` has, or could get back by being
    /// robbed, a plain slider along them; the eight neighbours are always kept. Which of the
    /// Knight, Rook and Bishop `them` has (plain or carrier) picks one of the eight unions of
    /// [`JumpTables`]' `exposing` for the General's square, built from the same moves and lines
    /// (`reference_exposing_squares` in the tests is the union made here).
    #[inline(always)]
    fn exposing_squares<B: Width>(
        &self,
        pos: &Position<B>,
        general: Square,
        them: Colour,
    ) -> Bitboard<B> {
        let theirs = pos.colour_bb(them);
        let pairs = &self.carriers.pairs;
        let has = |i: usize| {
            let (plain, carrier) = pairs[i];
            u8::from((pos.kind_bb(plain) | pos.kind_bb(carrier)).intersects(theirs))
        };
        let kinds = has(KNIGHT_PAIR) | has(ROOK_PAIR) << 1 | has(BISHOP_PAIR) << 2;
        self.tables.exposing[colour_square(them, general)][kinds as usize].to()
    }

    /// Where the side to move's acquiring jumps over the unclaimed jewel on `jewel` may land,
    /// with its General on `general`: when the jewel is the first blocker on a line from the
    /// General and the next one is an enemy piece that captures along the line onto the
    /// General (taking the jewel then opens that attack), only the squares between the General
    /// and that piece, or the piece's own (a capture); else every square.
    fn jewel_shield<B: Width>(
        &self,
        pos: &Position<B>,
        general: Square,
        jewel: Square,
    ) -> Bitboard<B> {
        let v = pos.variant();
        let dir = self.tables.line_dir(general, jewel);
        if dir == NO_LINE {
            return Bitboard::ALL;
        }
        let blockers = pos.occupied() | pos.neutral();
        let them = pos.side().flip();
        if v.nearest_back(dir, general, blockers) != Some(jewel) {
            return Bitboard::ALL;
        }
        match v.nearest_back(dir, jewel, blockers) {
            Some(s) if pos.colour_bb(them).has(s) && pos.rides_to(s, them, dir, general) => {
                v.back_ray::<B>(dir, general) & !v.back_ray::<B>(dir, s)
            }
            _ => Bitboard::ALL,
        }
    }

    /// The number of legal jewel jumps of the side to move ([`FastPathsAt::count_legal`]).
    ///
    /// With the General on `g` (not in check, else no `legality`), a jump of another piece from
    /// `from` over `via` to `to` changes only those three squares. Table attacks on `g` can then
    /// only come through `from` (the pins of `legality`) or through `via` when it held the
    /// unclaimed jewel: a robbed carrier stays a blocker and attacks no more as its plain piece,
    /// a passing jump leaves `via` occupied, and `to` is filled. When the unclaimed jewel is the
    /// first blocker on a line from `g` and the next one an enemy piece capturing along it onto
    /// `g`, an acquiring jump is legal only where it lands between the two or on that piece
    /// ([`Jumps::jewel_shield`]; `from` is on neither side's segment of the line, the jewel
    /// being the first blocker and the enemy piece the next). Jump attacks after the move all
    /// go over the new jewel square (`to` when acquiring, `via` when passing; the side to move
    /// then carries it, so the enemy only acquires), which must lie in
    /// [`Jumps::exposing_squares`]. The General acquiring becomes a King and is never in check.
    /// Without a General, a jump is illegal only if it makes our King a General (its pass, or a
    /// robbery of it). Every jump left undecided is made and tested. The jumps start from
    /// `start` ([`Jumps::jump_start`]); out of line, as most positions have none.
    #[inline(never)]
    fn count_jumps<B: Width>(
        &self,
        pos: &Position<B>,
        l: &Legality<B>,
        start: JumpStart<B>,
    ) -> u64 {
        let v = pos.variant();
        let us = pos.side();
        let them = us.flip();
        let blockers = pos.occupied() | pos.neutral();
        let last_rank = v.last_rank_bb[us.index()].to();
        let general = l.royals.first();
        let unclaimed = pos.neutral().first();
        let mut exposing: Option<Bitboard<B>> = None;
        let mut shield: Option<Bitboard<B>> = None;
        let targets = pos.capturable(them);
        let mut count = 0;
        self.for_each_jump_at(pos, us, start, blockers, v.geometry.mask.to(), |j| {
            let to = landing_squares(&j, blockers, targets);
            if to.is_empty() {
                return false;
            }
            let acquiring = j.acquiring;
            // The squares the jump may legally land on (`to`, narrowed), and those of them
            // known to be legal without making the move.
            let (to, safe) = match general {
                None => {
                    let makes_general = if acquiring {
                        pos.piece_at(j.via)
                            .is_some_and(|p| p.kind == self.king && p.colour == us)
                    } else {
                        j.mover == self.king
                    };
                    (to, if makes_general { Bitboard::NONE } else { to })
                }
                Some(g) if g == j.from => (to, to),
                Some(g) => {
                    let to = match acquiring && unclaimed == Some(j.via) {
                        true => {
                            to & *shield.get_or_insert_with(|| self.jewel_shield(pos, g, j.via))
                        }
                        false => to,
                    };
                    let exposing =
                        *exposing.get_or_insert_with(|| self.exposing_squares(pos, g, them));
                    let safe = if l.pinned.has(j.from) || (!acquiring && exposing.has(j.via)) {
                        Bitboard::NONE
                    } else if acquiring {
                        to & !exposing
                    } else {
                        to
                    };
                    (to, safe)
                }
            };
            let promotions = &v.promotion_kinds[j.lands_as as usize];
            count += moves_onto(safe, last_rank, promotions.len());
            for sq in to & !safe {
                let mut m = Move::special(j.from, sq, j.via);
                let choices: &[u8] = if last_rank.has(sq) { promotions } else { &[] };
                if choices.is_empty() {
                    count += u64::from(!pos.play(m).royal_attacked(us));
                }
                for &p in choices {
                    m.promotion = p + 1;
                    count += u64::from(!pos.play(m).royal_attacked(us));
                }
            }
            false
        });
        count
    }

    /// Every square of `wanted` on which a jewel jump of `by` could capture a piece standing
    /// there, slides blocked by `blockers`: the jumps' landing squares for atoms that capture,
    /// whatever stands on them now (squares outside `wanted` may be included too).
    fn jump_attack_map<B: Width>(
        &self,
        pos: &Position<B>,
        by: Colour,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
    ) -> Bitboard<B> {
        match self.jump_start(pos, by) {
            Some(start) => self.jump_attack_map_from(pos, by, start, blockers, wanted),
            None => Bitboard::NONE,
        }
    }

    /// [`Jumps::jump_attack_map`] from `start`, out of line: most positions have no jump.
    #[inline(never)]
    fn jump_attack_map_from<B: Width>(
        &self,
        pos: &Position<B>,
        by: Colour,
        start: JumpStart<B>,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
    ) -> Bitboard<B> {
        let mut map = Bitboard::NONE;
        self.for_each_jump_at(pos, by, start, blockers, wanted, |j| {
            if j.capture {
                map |= j.to;
            }
            false
        });
        map
    }

    /// The side to move's pieces whose moves must be made and tested, with its General on
    /// `general`, and the squares where that matters ([`FastPathsAt::must_test`]); see
    /// [`FastPathsAt::attack_map`] on [`Jumps`] for why every other move is decided exactly by the
    /// attack map and the table pins.
    ///
    /// * Its carrier: moving it moves the jewel square, which changes every acquiring jump of the
    ///   enemy (which then carries nothing). A jump landing on the General after the carrier's
    ///   plain move to `s` goes over `s`, so only moves onto [`Jumps::exposing_squares`] are
    ///   tested.
    /// * A piece whose leaving a line through the General lets a sliding jump land on it. Such a
    ///   jump needs, behind the General on that line, a jumpable first blocker and an enemy mover
    ///   next (a leap's jumped square is fixed, and no piece of ours is ever jumpable for the
    ///   enemy). Taking one piece off the line changes the first two blockers only if it is one of
    ///   them: so the pieces flagged are the first or second blocker when the other one of the two
    ///   is jumpable for the enemy ([`Jumps::may_jump`]) and the third is an enemy piece. Their
    ///   moves are tested wherever they go (and then the carrier's too).
    fn jump_pinned<B: Width>(
        &self,
        pos: &Position<B>,
        general: Square,
    ) -> (Bitboard<B>, Bitboard<B>) {
        let v = pos.variant();
        let us = pos.side();
        let Some(jewel) = self.carriers.jewel_square(pos) else {
            return (Bitboard::NONE, Bitboard::NONE);
        };
        let carrier = Bitboard::<B>::of(jewel) & pos.colour_bb(us);
        let tested = self.jump_pinned_pieces(pos, us, general, jewel);
        if !tested.is_empty() {
            (tested | carrier, v.geometry.mask.to())
        } else if carrier.is_empty() {
            (Bitboard::NONE, Bitboard::NONE)
        } else {
            (carrier, self.exposing_squares(pos, general, us.flip()))
        }
    }

    /// The pieces of `us` (General on `general`, the jewel on `jewel`) whose leaving a line
    /// through the General may let a sliding jump of the other side land on it: the first or
    /// second blocker on such a line when the other one of the two is jumpable for the other
    /// side ([`Jumps::may_jump`]) and the third is a piece of that side sliding along the line
    /// ([`Jumps::jump_pinned`]). The lines worth walking are picked here, inline, and walked
    /// out of line ([`Jumps::jump_pinned_lines`]): usually there is none.
    #[inline(always)]
    fn jump_pinned_pieces<B: Width>(
        &self,
        pos: &Position<B>,
        us: Colour,
        general: Square,
        jewel: Square,
    ) -> Bitboard<B> {
        let v = pos.variant();
        let them = us.flip();
        let theirs = pos.colour_bb(them);
        // Unless the enemy carries the jewel (and may pass over its own pieces), the jewel square
        // is the only square it may jump: only the line from the General through it matters.
        let t = &self.tables;
        let dirs = if theirs.has(jewel) {
            0..v.directions.len() as u8
        } else {
            match t.line_dir(general, jewel) {
                NO_LINE => return Bitboard::NONE,
                // Then every enemy piece is plain, and the third blocker must be a plain slider
                // behind the jewel square: usually there is none.
                dir if !v
                    .back_ray::<B>(dir, jewel)
                    .intersects(theirs & (pos.kind_bb(self.rook) | pos.kind_bb(self.bishop))) =>
                {
                    return Bitboard::NONE;
                }
                dir => dir..dir + 1,
            }
        };
        self.jump_pinned_lines(pos, us, general, jewel, dirs)
    }

    /// [`Jumps::jump_pinned_pieces`] on the lines from the General along `dirs`.
    #[inline(never)]
    fn jump_pinned_lines<B: Width>(
        &self,
        pos: &Position<B>,
        us: Colour,
        general: Square,
        jewel: Square,
        dirs: std::ops::Range<u8>,
    ) -> Bitboard<B> {
        let v = pos.variant();
        let them = us.flip();
        let ours = pos.colour_bb(us);
        let theirs = pos.colour_bb(them);
        let mut tested = Bitboard::NONE;
        // Whether the enemy piece on `from` could jump `over` by a capturing slide along `dir`.
        let slides_over = |from: Square, over: Square, dir: u8| {
            let mover = pos.piece_at(from).expect("a blocker of theirs");
            self.jump_rule(mover.kind)
                .is_some_and(|(plain, acquiring, _)| {
                    self.may_jump(pos, them, acquiring, over, jewel)
                        && self
                            .slides(plain, them)
                            .iter()
                            .any(|r| r.dir == dir && r.capture)
                })
        };
        let blockers = pos.occupied() | pos.neutral();
        let behind = |sq: Square, dir: u8| v.nearest_back(dir, sq, blockers);
        for dir in dirs {
            let Some(first) = behind(general, dir) else {
                continue;
            };
            let Some(second) = behind(first, dir) else {
                continue;
            };
            let Some(third) = behind(second, dir).filter(|&t| theirs.has(t)) else {
                continue;
            };
            if ours.has(first) && slides_over(third, second, dir) {
                tested.set(first);
            }
            if ours.has(second) && slides_over(third, first, dir) {
                tested.set(second);
            }
        }
        tested
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{jumps, varied_positions};
    use super::*;
    use crate::notation::to_fen;

    /// [`Jumps::exposing_squares`] as it was before the table: squares on which the jewel
    /// (carried by the side to move) would let an acquiring jump of `them` land on `general`,
    /// a superset: every acquiring jump lands a plain atom beyond the
    /// jewel square, so on a line through it (slides, and the General's and Pawn's steps) or a
    /// Knight's move from it. Lines are kept only when `them` has, or could get back by being
    /// robbed, a plain slider along them; the eight neighbours are always kept.
    fn reference_exposing_squares(
        this: &Jumps,
        pos: &Position,
        general: Square,
        them: Colour,
    ) -> Bitboard {
        let v = pos.variant();
        let t = &this.tables;
        let theirs = pos.colour_bb(them);
        let has = |plain: u8| {
            let carrier = this.carriers.carrier_of(plain).expect("a carrier form");
            (pos.kind_bb(plain) | pos.kind_bb(carrier)).intersects(theirs)
        };
        let mut out = v.slot_moves[Variant::slot(this.king, them, general)].leap_capture;
        if has(this.knight) {
            out |= v.slot_moves[Variant::slot(this.knight, them, general)].leap_capture;
        }
        if has(this.rook) {
            out |= t.orthogonal_lines[general.index()];
        }
        if has(this.bishop) {
            out |= t.diagonal_lines[general.index()];
        }
        out
    }

    /// The squares an uneven leap's acquiring jump starts from are among `any_source`, which
    /// [`Jumps::reply_squares`] reads alone for them; the squares with a direction to a square
    /// are those `line_dir` names, which its loop over the General's steps reads.
    #[test]
    fn reply_squares_tables_cover_their_reads() {
        let compiled = jumps();
        let t = &compiled.tables;
        for (any, uneven) in t.any_source.iter().zip(t.uneven.iter()) {
            for (a, [from, _]) in any.iter().zip(uneven) {
                assert_eq!(*from & !*a, Bitboard::EMPTY);
            }
        }
        for j in 0..SQUARE_COUNT {
            for z in 0..SQUARE_COUNT {
                let (j, z) = (Square(j as u8), Square(z as u8));
                assert_eq!(t.lines[j.index()].has(z), t.line_dir(z, j) != NO_LINE);
            }
        }
    }

    /// The exposing squares read from the table are the union made from the moves and lines,
    /// for both sides and every square a General could stand on.
    #[test]
    fn exposing_squares_match_the_reference() {
        let compiled = jumps();
        let mut kinds = [false; 8];
        for pos in varied_positions() {
            for them in Colour::BOTH {
                let theirs = pos.colour_bb(them);
                let has = |i: usize| {
                    let (plain, carrier) = compiled.carriers.pairs[i];
                    (pos.kind_bb(plain) | pos.kind_bb(carrier)).intersects(theirs)
                };
                let index = usize::from(has(KNIGHT_PAIR))
                    | usize::from(has(ROOK_PAIR)) << 1
                    | usize::from(has(BISHOP_PAIR)) << 2;
                kinds[index] = true;
                for general in pos.variant().geometry.squares() {
                    let fast: Bitboard = compiled.exposing_squares(&pos, general, them);
                    let slow = reference_exposing_squares(&compiled, &pos, general, them);
                    assert_eq!(fast, slow, "{general} for {them:?} in {}", to_fen(&pos));
                }
            }
        }
        assert!(
            kinds.iter().filter(|&&k| k).count() >= 4,
            "too few sets of kinds: {kinds:?}"
        );
    }

    /// [`Jumps::jump_pinned_pieces`] as it was before the lines were walked out of line.
    fn reference_jump_pinned_pieces(
        this: &Jumps,
        pos: &Position,
        us: Colour,
        general: Square,
        jewel: Square,
    ) -> Bitboard {
        let v = pos.variant();
        let them = us.flip();
        let ours = pos.colour_bb(us);
        let theirs = pos.colour_bb(them);
        let t = &this.tables;
        let dirs = if theirs.has(jewel) {
            0..v.directions.len() as u8
        } else {
            match t.line_dir(general, jewel) {
                NO_LINE => return Bitboard::NONE,
                dir if !v
                    .back_ray::<u128>(dir, jewel)
                    .intersects(theirs & (pos.kind_bb(this.rook) | pos.kind_bb(this.bishop))) =>
                {
                    return Bitboard::NONE;
                }
                dir => dir..dir + 1,
            }
        };
        let mut tested = Bitboard::NONE;
        let slides_over = |from: Square, over: Square, dir: u8| {
            let mover = pos.piece_at(from).expect("a blocker of theirs");
            this.jump_rule(mover.kind)
                .is_some_and(|(plain, acquiring, _)| {
                    this.may_jump(pos, them, acquiring, over, jewel)
                        && this
                            .slides(plain, them)
                            .iter()
                            .any(|r| r.dir == dir && r.capture)
                })
        };
        let blockers = pos.occupied() | pos.neutral();
        let behind = |sq: Square, dir: u8| v.nearest_back(dir, sq, blockers);
        for dir in dirs {
            let Some(first) = behind(general, dir) else {
                continue;
            };
            let Some(second) = behind(first, dir) else {
                continue;
            };
            let Some(third) = behind(second, dir).filter(|&t| theirs.has(t)) else {
                continue;
            };
            if ours.has(first) && slides_over(third, second, dir) {
                tested.set(first);
            }
            if ours.has(second) && slides_over(third, first, dir) {
                tested.set(second);
            }
        }
        tested
    }

    /// In check by one table piece, every jump [`FastPathsAt::may_evade`] rules out is illegal when
    /// made and tested, at the positions of random games and their varied copies, on 128-bit
    /// and 64-bit masks.
    #[test]
    fn jumps_ruled_out_in_check_are_illegal() {
        let compiled = jumps();
        let (mut in_check, mut ruled_out, mut kept) = (0, 0, 0);
        // Legal jumps kept by each exception: made by the General, passing to it, and landing
        // on or jumping over the check line.
        let (mut by_general, mut to_general, mut on_line) = (0, 0, 0);
        let mut positions = super::super::tests::random_positions(400, 150);
        positions.extend(varied_positions());
        for pos in positions {
            let Some(legality) = pos.legality() else {
                continue;
            };
            if legality.check_mask == Bitboard::ALL {
                continue;
            }
            in_check += 1;
            let mut jumps = Vec::new();
            compiled.jewel_jumps(&pos, pos.side(), &mut jumps);
            let narrow = pos.narrowed();
            let narrow_legality = narrow.legality().expect("the same legality");
            let paths = pos.fast_paths().expect("fast paths");
            let narrow_paths = narrow.fast_paths().expect("fast paths");
            for m in jumps {
                let legal = !pos.play(m).royal_attacked(pos.side());
                let evades = paths.may_evade(&pos, &legality, &m);
                let narrow_evades = narrow_paths.may_evade(&narrow, &narrow_legality, &m);
                assert_eq!(evades, narrow_evades, "{m:?} in {}", to_fen(&pos));
                assert!(
                    evades || !legal,
                    "{m:?} ruled out but legal in {}",
                    to_fen(&pos)
                );
                match evades {
                    true => kept += 1,
                    false => ruled_out += 1,
                }
                if legal {
                    let line = legality.check_mask;
                    by_general += usize::from(legality.royals.has(m.from));
                    to_general += usize::from(legality.royals.has(m.special_square));
                    on_line += usize::from(line.has(m.to) || line.has(m.special_square));
                }
            }
        }
        assert!(
            in_check > 1000 && ruled_out > 1000 && kept > 500,
            "{in_check} positions in check, {ruled_out} jumps ruled out, {kept} kept"
        );
        assert!(
            by_general > 50 && to_general > 20 && on_line > 50,
            "legal jumps by the General {by_general}, passing to it {to_general}, \
             onto or over the check line {on_line}"
        );
    }

    /// The pieces a slide jump pins are the same as before the split, for both sides' Generals
    /// and every square a General could stand on.
    #[test]
    fn split_jump_pins_match_the_reference() {
        let compiled = jumps();
        let mut pinned = 0;
        for pos in varied_positions() {
            let jewel = compiled.carriers.jewel_square(&pos).expect("a jewel");
            for us in Colour::BOTH {
                for general in pos.variant().geometry.squares() {
                    let fast = compiled.jump_pinned_pieces(&pos, us, general, jewel);
                    let slow = reference_jump_pinned_pieces(&compiled, &pos, us, general, jewel);
                    assert_eq!(fast, slow, "{general} for {us:?} in {}", to_fen(&pos));
                    pinned += fast.count();
                }
            }
        }
        assert!(pinned > 1000, "too few pinned pieces: {pinned}");
    }
}

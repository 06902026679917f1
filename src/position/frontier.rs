//! Perft 2 in one pass: the parent of the counted positions generates its moves, decides their
//! legality and counts each child's replies without a move list, and a quiet move that cannot
//! change the opponent's replies takes their number from the position with the turn passed
//! ([`Replies`]) instead of counting them again.

use super::Position;
use super::generate::{MoveSink, moves_onto};
use super::legality::Legality;
use super::moves::{Move, flags};
use crate::geometry::{Bitboard, Square};
use crate::variant::{GameEnd, MAX_KINDS, Variant, Width};

impl<B: Width> Position<B> {
    /// Perft 2: the number of legal move sequences of two plies.
    pub fn count_two_plies(&self) -> u64 {
        if self.game_end == GameEnd::Rules && self.decided().is_some() {
            return 0;
        }
        let mut legality = Legality::EMPTY;
        // Where moves may expand, the base moves are counted as anywhere else and their
        // variants apart, when the rule hooks tell which base moves have some.
        let expanding = match self.may_expand() {
            false => None,
            true => match self.rule_hooks().and_then(|h| h.expanding_moves(self)) {
                None => return self.count_two_plies_plain(),
                some => some,
            },
        };
        if !self.legality_into(&mut legality) {
            return self.count_two_plies_plain();
        }
        let mut parent = Parent {
            legality: &legality,
            replies: Replies::new(self, &legality),
            decide: self.rules.game_end == GameEnd::Rules
                && self
                    .rule_hooks()
                    .is_some_and(|h| h.any_move_may_decide(self)),
            total: 0,
        };
        self.generate(&mut parent);
        let variants = expanding.map_or(0, |(kinds, targets)| {
            self.count_variants(kinds, targets, true)
        });
        parent.total + variants
    }

    /// Perft 2 with every legal move made and its replies counted.
    fn count_two_plies_plain(&self) -> u64 {
        let mut total = 0;
        self.for_each_legal_unchecked(|_, next| total += next.count_legal());
        total
    }
}

/// The number of legal replies after `m`, counted in a function of its own: one copy of the
/// leaf counter, called from every move of the parent. Without `decide` the variant's own
/// decision is known to be `None` after every move of `pos`
/// ([`RuleHooksAt::any_move_may_decide`](crate::variant::RuleHooksAt::any_move_may_decide))
/// and is not asked.
#[inline(never)]
fn count_after<B: Width>(pos: &Position<B>, m: Move, decide: bool) -> u64 {
    let mut next = *pos;
    next.make(m);
    if decide || next.may_expand() {
        next.count_legal()
    } else {
        next.count_moves()
    }
}

/// A move generator's sink at the parent of the counted positions: each legal move's replies
/// are added to `total`.
struct Parent<'a, B: Width> {
    legality: &'a Legality<B>,
    replies: Replies<B>,
    /// Whether the variant's own decision may end the game after some move here.
    decide: bool,
    total: u64,
}

impl<B: Width> MoveSink<B> for Parent<'_, B> {
    fn legality(&self) -> Option<&Legality<B>> {
        Some(self.legality)
    }
    fn add_legal(&mut self, pos: &Position<B>, m: Move) {
        self.total += count_after(pos, m, self.decide);
    }
    #[inline(always)]
    fn add(&mut self, pos: &Position<B>, m: Move) {
        match pos.quick_legal(&m, self.legality) {
            Some(false) => {}
            Some(true) => {
                if m.flags == flags::DOUBLE_STEP
                    && m.promotion == 0
                    && self.replies.double_step_reusable(pos, &m)
                {
                    self.total += self.replies.after_each(pos, std::iter::once(m));
                } else {
                    self.total += count_after(pos, m, self.decide);
                }
            }
            None => {
                let next = pos.play(m);
                if !next.royal_attacked(pos.side) {
                    self.total += next.count_legal();
                }
            }
        }
    }

    fn add_targets(
        &mut self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        let l = self.legality;
        let mut to = to;
        if l.tested.has(from) {
            for sq in to & l.tested_to {
                super::generate::add_promoting(
                    self,
                    pos,
                    Move::new(from, sq),
                    promotions,
                    last_rank,
                );
            }
            to &= !l.tested_to;
        }
        let mut to = pos.legal_targets(l, from, to);
        if !l.royals.has(from) {
            to &= l.check_mask;
        }
        let promoting = if promotions.is_empty() {
            Bitboard::NONE
        } else {
            to & last_rank
        };
        let mut plain = to & !promoting;
        if !plain.is_empty() {
            let reused = self.replies.reusable(pos, from, plain);
            if !reused.is_empty() {
                self.total += self
                    .replies
                    .after_each(pos, reused.map(|sq| Move::new(from, sq)));
                plain &= !reused;
            }
            let adjusted = self.replies.adjustable(pos, from, plain);
            if !adjusted.is_empty() {
                for sq in adjusted {
                    self.total += self.replies.after_adjusted(pos, Move::new(from, sq));
                }
                plain &= !adjusted;
            }
        }
        for sq in plain {
            self.total += count_after(pos, Move::new(from, sq), self.decide);
        }
        for sq in promoting {
            for &p in promotions {
                let mut m = Move::new(from, sq);
                m.promotion = p + 1;
                self.total += count_after(pos, m, self.decide);
            }
        }
    }
}

/// Quiet moves that cannot change the opponent's replies, or change them only along the
/// opponent's plain slides, and the number of those replies.
///
/// Let the side to move S, not in check, move a capturable piece X from `a` to an empty `b`
/// with no flag and no promotion, in a variant without special moves (or whose fast paths
/// name the squares its special moves read,
/// [`FastPathsAt::reply_sensitive`](crate::variant::FastPathsAt::reply_sensitive), which join
/// the sensitive ones, for every piece or for pieces of the kinds it names), while the
/// opponent O neither places pieces (set-up phase) nor expands moves. Then O's legal replies
/// are the same moves as in the position with the turn passed to O (and no en-passant square)
/// when neither `a` nor `b` is *sensitive* or *adjusted* and X attacks none of O's royal *zone*
/// from `a` or from `b`:
///
/// - the zone is O's royal square, the squares its leaps may go to (empty or S's), and the
///   passed and destination squares of its castlings that no piece of O blocks: where O's
///   safety is read (a castling whose squares that must be empty hold a piece of O is
///   impossible before and after a quiet move of S);
/// - sensitive are the zone; every square along S's capturing slide directions back from a
///   zone square up to the first piece (O's royal lifted), and from O's royal square up to the
///   second piece (lines of checks and pins); the squares O's slides and rides other than the
///   plain slides below reach, their first piece included; every leap target and path of O's
///   kinds whose leaps depend on what stands there (pawns), but the plain uneven leaps below;
///   the squares that must be empty of O's castlings that no piece of O blocks;
/// - adjusted are the squares O's *plain* slides reach, their first piece included. A slide is
///   plain when the slot of its piece has no irregular moves and only slides that both stop
///   on empty squares and capture (`slide_both`), the piece is not
///   the first on any of S's capturing slide lines from O's royal square (so it is pinned
///   neither before the move nor after: a pin needs that line, which is sensitive), and, with
///   special moves, the fast paths do not name it
///   ([`FastPathsAt::reply_unadjusted`](crate::variant::FastPathsAt::reply_unadjusted): its
///   moves may change the special moves, or a special move of S may capture O's royal once it
///   leaves its square); and the targets of O's *plain uneven leaps*: the regular leaps (no
///   path) of a kind whose leaps depend on what stands there, of a piece that, as for a plain
///   slide, is not the first on S's capturing lines from O's royal nor named by the fast
///   paths, and whose targets include none of O's last rank if its kind promotes.
///
/// O's pseudo-legal moves are then the same (a symmetric leap onto `a` or `b` changes from a
/// capture to a quiet move or back, and stays one move), and no S piece attacks a zone square,
/// checks, pins or stops checking or pinning through `a` or `b`, before or after any O move.
///
/// When `a` or `b` is adjusted (and neither is sensitive), the same argument holds for every
/// reply but the plain slides along the lines through `a` and `b`; those stay legal where they
/// go (O is not in check, which no position counted here allows, and their pieces are not
/// pinned, by the tables or through special moves), each square one move (or one per
/// promotion on O's last rank, whatever stands there), so only their number changes; so do the plain uneven leaps onto `a` and `b` (one move each,
/// no promotion): a leap that only moves gains `a` and loses `b`, one that only captures loses
/// `a` (X) and gains `b` (X there, capturable), one that does both stays one move. Along each
/// plain slide direction d of an O piece on f:
///
/// - X lifted from `a`: if the ray from f first meets `a`, the capture of X there becomes a
///   quiet move onto `a` (the same moves either way), and the squares beyond `a` up to the
///   next blocker c are gained, c too when it is a capturable piece of S;
/// - X placed on `b` (the occupancy with `a` lifted): if the ray from f passes `b`, the quiet
///   move onto `b` becomes the capture of X (capturable), and the squares beyond `b` up to the
///   next blocker are lost, that blocker too when it is a capturable piece of S.
///
/// So the replies are those with the turn passed plus the gains less the losses
/// ([`Replies::adjustment`]): a few walks along the lines through `a` and `b`, and a look at
/// the plain uneven leapers' targets, instead of the child's replies counted.
struct Replies<B: Width> {
    /// Whether quiet moves may be reused here at all.
    enabled: bool,
    /// The variant's own decision is asked after each move (rule hooks, `game-end = rules`).
    decided: bool,
    /// Squares a reused move may neither leave nor enter: the sensitive and adjusted ones.
    unchanged_off: Bitboard<B>,
    /// Squares an adjusted move may neither leave nor enter.
    sensitive: Bitboard<B>,
    /// Kinds (bits) whose pieces may also neither leave nor enter `kind_sensitive`.
    sensitive_kinds: u16,
    /// Squares only pieces of `sensitive_kinds` may neither leave nor enter.
    kind_sensitive: Bitboard<B>,
    /// Squares O's plain slides reach and its plain uneven leaps' targets (none sensitive): a
    /// move leaving or entering one takes the replies with the turn passed adjusted.
    adjusted: Bitboard<B>,
    /// O's pieces with plain slides.
    plain_sliders: Bitboard<B>,
    /// Their slide directions, as bits.
    plain_dirs: u16,
    /// O's pieces with plain uneven leaps: a move leaving or entering one of their leap
    /// targets (adjusted) changes their number of moves there by one.
    plain_leapers: Bitboard<B>,
    /// Their targets.
    leap_targets: Bitboard<B>,
    /// O's royal zone.
    zone: Bitboard<B>,
    /// Per kind of S: the squares from which such a piece captures by a plain leap onto a
    /// square of the zone (its pieces may neither leave nor enter them).
    zone_leapers: [Bitboard<B>; MAX_KINDS],
    /// O's replies with the turn passed, once counted.
    count: Option<u64>,
}

impl<B: Width> Replies<B> {
    fn new(pos: &Position<B>, l: &Legality<B>) -> Self {
        let mut replies = Replies {
            enabled: false,
            decided: false,
            unchanged_off: Bitboard::ALL,
            sensitive: Bitboard::ALL,
            sensitive_kinds: 0,
            kind_sensitive: Bitboard::NONE,
            adjusted: Bitboard::NONE,
            plain_sliders: Bitboard::NONE,
            plain_dirs: 0,
            plain_leapers: Bitboard::NONE,
            leap_targets: Bitboard::NONE,
            zone: Bitboard::NONE,
            zone_leapers: [Bitboard::NONE; MAX_KINDS],
            count: None,
        };
        let v = pos.variant;
        let us = pos.side;
        let them = us.flip();
        if l.check_mask != Bitboard::ALL || (v.setup_phase && !pos.hand_is_empty(them)) {
            return replies;
        }
        if v.expands && pos.passed().may_expand() {
            return replies;
        }
        let royal = v.royal_kinds[0];
        let king_bb = pos.pieces_of(royal, them);
        let Some(king) = king_bb.first() else {
            return replies;
        };
        let sm = &v.slot_moves[Variant::slot(royal, them, king)];
        if sm.irregular || sm.slides() != 0 {
            return replies;
        }
        let theirs = pos.by_colour[them.index()];
        let ours = pos.by_colour[us.index()];
        let occupied = pos.occupied() | pos.neutral;
        let mut zone = king_bb | ((sm.leap_quiet | sm.leap_capture).to::<B>() & !theirs);
        let mut sensitive = Bitboard::NONE;
        for (_, c, files) in pos.held_castlings(them) {
            let rank = c.king_from.rank();
            let empty = Bitboard::on_rank(files.empty, rank).to::<B>();
            // A piece of O on a square the castling needs empty stays there after a quiet move
            // of S: O cannot castle there before or after, so its squares matter to no reply.
            if empty.intersects(theirs) {
                continue;
            }
            zone |= Bitboard::on_rank(files.passed, rank).to::<B>() | Bitboard::of(c.king_to);
            sensitive |= empty;
        }
        // Special moves: only where their fast paths name the squares they read, and the
        // opponent's pieces whose slides they keep from being adjusted.
        let mut unadjusted = Bitboard::NONE;
        if !v.fast_legality {
            let Some(paths) = pos.fast_paths() else {
                return replies;
            };
            match paths.reply_sensitive(pos, king, zone) {
                Some((extra, kinds, squares)) => {
                    sensitive |= extra;
                    replies.sensitive_kinds = kinds;
                    replies.kind_sensitive = squares;
                }
                None => return replies,
            }
            unadjusted = paths.reply_unadjusted(pos, king);
        }
        // S's capturing slide directions.
        let mut dirs = 0u16;
        let mut kinds = v.slider_kinds[us.index()] & pos.kinds[us.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            if pos.by_kind[k].intersects(ours) {
                dirs |= v.capture_dirs[k * 2 + us.index()];
            }
        }
        // O's pieces first on those lines from its royal: the ones S may pin.
        let mut shields = Bitboard::NONE;
        if dirs != 0 {
            let lifted = occupied & !king_bb;
            let plan = v.line_plan(dirs, u16::MAX);
            // The royal square's own lines are walked below, up to the second piece, which
            // covers the walk up to the first.
            for t in zone & !king_bb {
                sensitive |= v.planned_back_slides(plan, t, lifted);
            }
            let first = v.planned_back_slides(plan, king, occupied) & occupied;
            sensitive |= v.planned_back_slides(plan, king, occupied & !first);
            shields = first & theirs;
        }
        // Where O's moves depend on what stands on a square.
        let mut adjusted = Bitboard::NONE;
        let mut plain_sliders = Bitboard::NONE;
        let mut plain_dirs = 0u16;
        let mut plain_leapers = Bitboard::NONE;
        let last_rank = v.last_rank_bb[them.index()].to::<B>();
        let mut kinds = pos.kinds[them.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let kc = k * 2 + them.index();
            let uneven = v.uneven_leap_kinds[them.index()] >> k & 1 != 0;
            if !uneven && !v.has_rides[kc] {
                continue;
            }
            // With special moves, their fast paths named above every square a quiet move may not
            // leave or enter for them (whatever the reply), and the pieces whose slides may not
            // be adjusted (`unadjusted`).
            let promotes = !v.promotion_kinds[k].is_empty();
            for from in pos.by_kind[k] & theirs {
                let slot = Variant::slot(k as u8, them, from);
                let sm = &v.slot_moves[slot];
                if sm.slides() != 0 {
                    let reach = v.slot_slides(sm, from, occupied);
                    let plain = !sm.irregular
                        && sm.slide_quiet | sm.slide_capture == 0
                        && !shields.has(from)
                        && !unadjusted.has(from);
                    if plain {
                        adjusted |= reach;
                        plain_sliders.set(from);
                        plain_dirs |= sm.slide_both;
                    } else {
                        sensitive |= reach;
                    }
                }
                if uneven {
                    // Plain as the slides above, and no target where it would promote.
                    let leaps = (sm.leap_quiet | sm.leap_capture).to::<B>();
                    let plain = (!promotes || !leaps.intersects(last_rank))
                        && !shields.has(from)
                        && !unadjusted.has(from);
                    if plain {
                        adjusted |= leaps;
                        replies.leap_targets |= leaps;
                        plain_leapers.set(from);
                    } else {
                        sensitive |= leaps;
                    }
                }
                if sm.irregular {
                    for ride in &v.ranged_rides[slot] {
                        sensitive |= v.slide(ride.dir, from, occupied).0;
                    }
                    for leap in &v.special_leaps[slot] {
                        sensitive |= leap.path.to() | Bitboard::of(leap.to);
                    }
                }
            }
        }
        // Only the kinds with plain capturing leaps have zone leapers.
        let mut kinds = pos.kinds[us.index()] & v.leaper_kinds[us.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as u8;
            kinds &= kinds - 1;
            for t in zone {
                replies.zone_leapers[k as usize] |= v.leap_attackers[Variant::slot(k, us, t)].to();
            }
        }
        replies.enabled = true;
        replies.decided = pos.game_end == GameEnd::Rules
            && pos
                .rule_hooks()
                .is_some_and(|h| h.quiet_move_may_decide(pos));
        replies.sensitive = sensitive | zone;
        replies.adjusted = adjusted & !replies.sensitive;
        replies.unchanged_off = replies.sensitive | replies.adjusted;
        replies.plain_sliders = plain_sliders;
        replies.plain_dirs = plain_dirs;
        replies.plain_leapers = plain_leapers;
        replies.zone = zone;
        replies
    }

    /// The squares of `to` (legal, quiet or capturing, no promotion) to which the piece on
    /// `from` moves without changing the opponent's replies.
    #[inline(always)]
    fn reusable(&self, pos: &Position<B>, from: Square, to: Bitboard<B>) -> Bitboard<B> {
        self.quiet_targets(pos, from, to, self.unchanged_off)
    }

    /// The squares of `to` (legal, quiet or capturing, no promotion, none of them
    /// [`Replies::reusable`]) to which the piece on `from` moves changing only the
    /// opponent's plain slides ([`Replies::after_adjusted`]).
    #[inline(always)]
    fn adjustable(&self, pos: &Position<B>, from: Square, to: Bitboard<B>) -> Bitboard<B> {
        if !self.adjusted.has(from) && !to.intersects(self.adjusted) {
            return Bitboard::NONE;
        }
        self.quiet_targets(pos, from, to, self.sensitive)
    }

    /// The empty squares of `to` off `off` to which the piece on `from` (off `off`, capturable)
    /// moves attacking no zone square from either square.
    #[inline(always)]
    fn quiet_targets(
        &self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        off: Bitboard<B>,
    ) -> Bitboard<B> {
        if !self.enabled || off.has(from) {
            return Bitboard::NONE;
        }
        let v = pos.variant;
        let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
        if v.uncapturable_kinds >> kind & 1 != 0 {
            return Bitboard::NONE;
        }
        let mut off = off;
        if self.sensitive_kinds >> kind & 1 != 0 {
            off |= self.kind_sensitive;
            if off.has(from) {
                return Bitboard::NONE;
            }
        }
        let leapers = self.zone_leapers[kind as usize % MAX_KINDS];
        if leapers.has(from) {
            return Bitboard::NONE;
        }
        to & !off & !pos.occupied() & !leapers
    }

    /// Whether the double step `m` (legal) may take the replies of the position with the turn
    /// passed: as a quiet move changing no reply, and no pawn of the opponent can take it en
    /// passant (so the en-passant square it sets adds no reply).
    fn double_step_reusable(&self, pos: &Position<B>, m: &Move) -> bool {
        if self.reusable(pos, m.from, Bitboard::of(m.to)).is_empty() {
            return false;
        }
        let v = pos.variant;
        let them = pos.side.flip();
        let ep = Square((m.from.0 + m.to.0) / 2);
        let mut pawns = v.pawn_kinds & pos.kinds[them.index()];
        while pawns != 0 {
            let k = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let takers = v.leap_attackers[Variant::slot(k, them, ep)].to::<B>();
            if takers.intersects(pos.pieces_of(k, them)) {
                return false;
            }
        }
        true
    }

    /// O's replies with the turn passed.
    #[inline(always)]
    fn passed_count(&mut self, pos: &Position<B>) -> u64 {
        *self.count.get_or_insert_with(|| pos.passed().count_moves())
    }

    /// The replies after each of `moves` (all reusable).
    fn after_each(&mut self, pos: &Position<B>, moves: impl Iterator<Item = Move>) -> u64 {
        let count = self.passed_count(pos);
        if !self.decided {
            return count * moves.count() as u64;
        }
        moves.filter(|&m| pos.play(m).decided().is_none()).count() as u64 * count
    }

    /// The replies after `m` (one of the adjusted moves of [`Replies::reusable`]): those with
    /// the turn passed and the plain slides' changes.
    fn after_adjusted(&mut self, pos: &Position<B>, m: Move) -> u64 {
        if self.decided && pos.play(m).decided().is_some() {
            return 0;
        }
        let count = self.passed_count(pos);
        count.wrapping_add_signed(self.adjustment(pos, m.from, m.to))
    }

    /// How many replies O's plain slides gain when the piece on `a` moves to the empty `b`:
    /// the squares they reach beyond `a` once it is lifted, less those beyond `b` once the
    /// piece stands there; and O's plain uneven leaps: one more for each that only moves onto
    /// `a` or only captures onto `b`, one fewer for each that only captures onto `a` or only
    /// moves onto `b`.
    #[inline(always)]
    fn adjustment(&self, pos: &Position<B>, a: Square, b: Square) -> i64 {
        let blockers = pos.occupied() | pos.neutral;
        let capturable = pos.capturable(pos.side);
        let gained = self.beyond(pos, a, blockers, capturable);
        let lost = self.beyond(pos, b, blockers & !Bitboard::of(a), capturable);
        i64::from(gained) - i64::from(lost) + self.leap_change(pos, a, b)
    }

    /// The change in O's plain uneven leaps of [`Replies::adjustment`] (none promotes where
    /// it lands: their targets on O's last rank were left sensitive).
    #[inline(always)]
    fn leap_change(&self, pos: &Position<B>, a: Square, b: Square) -> i64 {
        let v = pos.variant;
        let them = pos.side.flip();
        let mut n = 0i64;
        if !self.leap_targets.has(a) && !self.leap_targets.has(b) {
            return 0;
        }
        for from in self.plain_leapers {
            let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
            let sm = &v.slot_moves[Variant::slot(kind, them, from)];
            let quiet_only = (sm.leap_quiet & !sm.leap_capture).to::<B>();
            let capture_only = (sm.leap_capture & !sm.leap_quiet).to::<B>();
            n += i64::from(quiet_only.has(a)) - i64::from(capture_only.has(a));
            n += i64::from(capture_only.has(b)) - i64::from(quiet_only.has(b));
        }
        n
    }

    /// The moves O's plain slides reaching `sq` (with `blockers`) have beyond it, were it
    /// empty: along each one's direction, the squares past `sq` up to the next blocker, that
    /// one too when it is one of the `capturable` pieces.
    #[inline(always)]
    fn beyond(
        &self,
        pos: &Position<B>,
        sq: Square,
        blockers: Bitboard<B>,
        capturable: Bitboard<B>,
    ) -> u32 {
        let v = pos.variant;
        let mut dirs = v.dirs_toward(sq, self.plain_dirs, self.plain_sliders);
        let them = pos.side.flip();
        let last_rank = v.last_rank_bb[them.index()].to::<B>();
        let mut n = 0;
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let Some(from) = v.nearest_back(dir, sq, blockers) else {
                continue;
            };
            if !self.plain_sliders.has(from) {
                continue;
            }
            let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
            if v.slot_moves[Variant::slot(kind, them, from)].slide_both >> dir & 1 == 0 {
                continue;
            }
            let (mut reach, first) = v.slide(dir, sq, blockers);
            if let Some(c) = first.filter(|&c| !capturable.has(c)) {
                reach.clear(c);
            }
            // Each square one move, or one per promotion on O's last rank.
            let promotions = v.promotion_kinds[kind as usize].len();
            n += moves_onto(reach, last_rank, promotions) as u32;
        }
        n
    }
}

impl<B: Width> Position<B> {
    /// The position with the turn passed to the other side and no en-passant square.
    fn passed(&self) -> Self {
        let mut p = *self;
        p.side = self.side.flip();
        p.ep = None;
        p.ep_victim = None;
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_position, to_fen};
    use crate::variant::Rules;
    use crate::variants;
    use std::collections::BTreeMap;

    /// What [`check_replies`] compared in one position: moves whose replies were reused as
    /// they are, and moves whose replies were adjusted.
    #[derive(Default)]
    struct Checked {
        reused: usize,
        adjusted: usize,
    }

    /// Compares, for every legal quiet move of `pos` that [`Replies`] reuses or adjusts, the
    /// replies it gives with the child's replies counted.
    /// (`wide` is the same position on 128-bit masks, for the messages.)
    fn check_replies<B: Width>(pos: &Position<B>, wide: &Position, checked: &mut Checked) {
        if pos.game_end == GameEnd::Rules && pos.decided().is_some() {
            return;
        }
        let mut legality = Legality::EMPTY;
        if !pos.legality_into(&mut legality) {
            return;
        }
        let mut replies = Replies::new(pos, &legality);
        for m in pos.legal_moves_unchecked() {
            if m.promotion != 0 || m.placement_list().next().is_some() {
                continue;
            }
            let counted = count_after(pos, m, true);
            if m.flags == flags::DOUBLE_STEP {
                if replies.double_step_reusable(pos, &m) {
                    let reused = replies.after_each(pos, std::iter::once(m));
                    assert_eq!(reused, counted, "{:?} {}: {m:?}", pos.rules, to_fen(wide));
                    checked.reused += 1;
                }
                continue;
            }
            if m.flags != 0 {
                continue;
            }
            let reused = replies.reusable(pos, m.from, Bitboard::of(m.to));
            let adjusted = replies.adjustable(pos, m.from, Bitboard::of(m.to) & !reused);
            if reused.has(m.to) {
                let n = replies.after_each(pos, std::iter::once(m));
                assert_eq!(n, counted, "reused {:?} {}: {m:?}", pos.rules, to_fen(wide));
                checked.reused += 1;
            }
            if adjusted.has(m.to) {
                let n = replies.after_adjusted(pos, m);
                assert_eq!(
                    n,
                    counted,
                    "adjusted {:?} {}: {m:?}",
                    pos.rules,
                    to_fen(wide)
                );
                checked.adjusted += 1;
            }
        }
    }

    /// Every move the parent of the leaves reuses or adjusts the replies of gives the number
    /// the child counts, checked move by move (so that errors cannot cancel in a total), at
    /// every position of random games in every variant, option combination and game-end
    /// mode, from the start and from the set-up position where there is one, on 128-bit
    /// masks and, where the board allows, on 64-bit ones.
    #[test]
    fn adjusted_replies_match_counted_ones() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut by_variant: BTreeMap<&str, Checked> = BTreeMap::new();
        for variant in variants::all() {
            let checked = by_variant.entry(variant.spec.id).or_default();
            for mut rules in Rules::every_combination(variant) {
                for game_end in ["rules", "movegen"] {
                    rules.set("game-end", game_end).expect("game-end");
                    let starts = std::iter::once(rules.start_fen())
                        .chain(variant.spec.setup_fen.map(str::to_string));
                    for start in starts {
                        let start = parse_position(rules, &start).expect("start position");
                        for _ in 0..3 {
                            let mut pos = start;
                            for _ in 0..60 {
                                check_replies(&pos, &pos, checked);
                                if variant.narrow {
                                    check_replies(&pos.narrowed(), &pos, checked);
                                }
                                match pos.play_random(&mut state) {
                                    Some(next) => pos = next,
                                    None => break,
                                }
                            }
                        }
                    }
                }
            }
        }
        for variant in variants::all() {
            let checked = &by_variant[variant.spec.id];
            assert!(
                checked.reused > 100,
                "{}: {} reused",
                variant.spec.id,
                checked.reused
            );
            assert!(
                checked.adjusted > 100,
                "{}: {} adjusted",
                variant.spec.id,
                checked.adjusted
            );
        }
    }
}

//! Perft 2 in one pass: the parent of the counted positions generates its moves, decides their
//! legality and counts each child's replies without a move list, and a quiet move that cannot
//! change the opponent's replies takes their number from the position with the turn passed
//! ([`Replies`]) instead of counting them again.

use super::Position;
use super::generate::MoveSink;
use super::legality::Legality;
use super::moves::{Move, flags};
use crate::geometry::{Bitboard, Square};
use crate::variant::{GameEnd, MAX_KINDS, Variant, Width};

impl<B: Width> Position<B> {
    /// Perft 2: the number of legal move sequences of two plies.
    pub fn count_two_plies(&self) -> u64 {
        if self.rules.game_end == GameEnd::Rules && self.decided().is_some() {
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
/// leaf counter, called from every move of the parent.
#[inline(never)]
fn count_after<B: Width>(pos: &Position<B>, m: Move) -> u64 {
    let mut next = *pos;
    next.make(m);
    next.count_legal()
}

/// A move generator's sink at the parent of the counted positions: each legal move's replies
/// are added to `total`.
struct Parent<'a, B: Width> {
    legality: &'a Legality<B>,
    replies: Replies<B>,
    total: u64,
}

impl<B: Width> MoveSink<B> for Parent<'_, B> {
    fn legality(&self) -> Option<&Legality<B>> {
        Some(self.legality)
    }
    fn add_legal(&mut self, pos: &Position<B>, m: Move) {
        self.total += count_after(pos, m);
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
                    self.total += count_after(pos, m);
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
        }
        for sq in plain {
            self.total += count_after(pos, Move::new(from, sq));
        }
        for sq in promoting {
            for &p in promotions {
                let mut m = Move::new(from, sq);
                m.promotion = p + 1;
                self.total += count_after(pos, m);
            }
        }
    }
}

/// Quiet moves that cannot change the opponent's replies, and the number of those replies.
///
/// Let the side to move S, not in check, move a capturable piece X from `a` to an empty `b`
/// with no flag and no promotion, in a variant without special moves (or whose fast paths
/// name the squares its special moves read,
/// [`FastPathsAt::reply_sensitive`](crate::variant::FastPathsAt::reply_sensitive), which join
/// the sensitive ones, for every piece or for pieces of the kinds it names), while the
/// opponent O neither places pieces (set-up phase) nor expands moves. Then O's legal replies
/// are the same moves as in the position with the turn passed to O (and no en-passant square) when neither
/// `a` nor `b` is *sensitive* and X attacks none of O's royal *zone* from `a` or from `b`:
///
/// - the zone is O's royal square, the squares its leaps may go to (empty or S's), and its
///   castlings' passed and destination squares: where O's safety is read;
/// - sensitive are the zone; every square along S's capturing slide directions back from a
///   zone square up to the first piece (O's royal lifted), and from O's royal square up to the
///   second piece (lines of checks and pins); the squares O's slides and rides reach, their
///   first piece included; every leap target and path of O's kinds whose leaps depend on what
///   stands there (pawns); O's castlings' squares that must be empty.
///
/// O's pseudo-legal moves are then the same (a symmetric leap onto `a` or `b` changes from a
/// capture to a quiet move or back, and stays one move), and no S piece attacks a zone square,
/// checks, pins or stops checking or pinning through `a` or `b`, before or after any O move.
struct Replies<B: Width> {
    /// Whether quiet moves may be reused here at all.
    enabled: bool,
    /// The variant's own decision is asked after each move (rule hooks, `game-end = rules`).
    decided: bool,
    /// Squares a reused move may neither leave nor enter.
    sensitive: Bitboard<B>,
    /// Kinds (bits) whose pieces may also neither leave nor enter `kind_sensitive`.
    sensitive_kinds: u16,
    /// Squares only pieces of `sensitive_kinds` may neither leave nor enter.
    kind_sensitive: Bitboard<B>,
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
            sensitive: Bitboard::ALL,
            sensitive_kinds: 0,
            kind_sensitive: Bitboard::NONE,
            zone: Bitboard::NONE,
            zone_leapers: [Bitboard::NONE; MAX_KINDS],
            count: None,
        };
        let v = pos.rules.variant;
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
            zone |= Bitboard::on_rank(files.passed, rank).to::<B>() | Bitboard::of(c.king_to);
            sensitive |= Bitboard::on_rank(files.empty, rank).to::<B>();
        }
        // Special moves: only where their fast paths name the squares they read.
        if !v.fast_legality {
            match pos
                .fast_paths()
                .and_then(|f| f.reply_sensitive(pos, king, zone))
            {
                Some((extra, kinds, squares)) => {
                    sensitive |= extra;
                    replies.sensitive_kinds = kinds;
                    replies.kind_sensitive = squares;
                }
                None => return replies,
            }
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
        if dirs != 0 {
            let lifted = occupied & !king_bb;
            for t in zone {
                sensitive |= v.back_slides(dirs, t, lifted);
            }
            let first = v.back_slides(dirs, king, occupied) & occupied;
            sensitive |= v.back_slides(dirs, king, occupied & !first);
        }
        // Where O's moves depend on what stands on a square.
        let mut kinds = pos.kinds[them.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let kc = k * 2 + them.index();
            let uneven = v.uneven_leap_kinds[them.index()] >> k & 1 != 0;
            if !uneven && !v.has_rides[kc] {
                continue;
            }
            for from in pos.by_kind[k] & theirs {
                let slot = Variant::slot(k as u8, them, from);
                let sm = &v.slot_moves[slot];
                if sm.slides() != 0 {
                    sensitive |= v.slides(sm.slides(), from, occupied);
                }
                if uneven {
                    sensitive |= (sm.leap_quiet | sm.leap_capture).to();
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
        let mut kinds = pos.kinds[us.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as u8;
            kinds &= kinds - 1;
            for t in zone {
                replies.zone_leapers[k as usize] |= v.leap_attackers[Variant::slot(k, us, t)].to();
            }
        }
        replies.enabled = true;
        replies.decided = pos.rules.game_end == GameEnd::Rules && v.rule_hooks().is_some();
        replies.sensitive = sensitive | zone;
        replies.zone = zone;
        replies
    }

    /// The squares of `to` (legal, quiet or capturing, no promotion) to which the piece on
    /// `from` moves without changing the opponent's replies.
    #[inline(always)]
    fn reusable(&self, pos: &Position<B>, from: Square, to: Bitboard<B>) -> Bitboard<B> {
        if !self.enabled || self.sensitive.has(from) {
            return Bitboard::NONE;
        }
        let v = pos.rules.variant;
        let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
        if v.uncapturable_kinds >> kind & 1 != 0 {
            return Bitboard::NONE;
        }
        let mut sensitive = self.sensitive;
        if self.sensitive_kinds >> kind & 1 != 0 {
            sensitive |= self.kind_sensitive;
            if sensitive.has(from) {
                return Bitboard::NONE;
            }
        }
        let leapers = self.zone_leapers[kind as usize % MAX_KINDS];
        if leapers.has(from) {
            return Bitboard::NONE;
        }
        to & !sensitive & !pos.occupied() & !leapers
    }

    /// Whether the double step `m` (legal) may take the replies of the position with the turn
    /// passed: as a quiet move, and no pawn of the opponent can take it en passant (so the
    /// en-passant square it sets adds no reply).
    fn double_step_reusable(&self, pos: &Position<B>, m: &Move) -> bool {
        if self.reusable(pos, m.from, Bitboard::of(m.to)).is_empty() {
            return false;
        }
        let v = pos.rules.variant;
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

    /// The replies after each of `moves` (all reusable).
    fn after_each(&mut self, pos: &Position<B>, moves: impl Iterator<Item = Move>) -> u64 {
        let count = *self.count.get_or_insert_with(|| pos.passed().count_moves());
        if !self.decided {
            return count * moves.count() as u64;
        }
        moves.filter(|&m| pos.play(m).decided().is_none()).count() as u64 * count
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

//! Perft 2 in one pass: the parent of the counted positions generates its moves, decides their
//! legality and counts each child's replies without a move list, and a quiet move that cannot
//! change the opponent's replies takes their number from the position with the turn passed
//! ([`Replies`]) instead of counting them again.

use super::Position;
use super::generate::{GenContext, MoveSink, moves_onto};
use super::legality::Legality;
use super::moves::{Move, flags};
use crate::geometry::{Bitboard, Square};
use crate::variant::{GameEnd, HandKind, MAX_KINDS, Variant, Width, Wing};

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
        let replies = Replies::new(self, &legality);
        let decide = self.rules.game_end == GameEnd::Rules
            && self
                .rule_hooks()
                .is_some_and(|h| h.any_move_may_decide(self));
        // Two copies of the generator's sink: the one without captures from the passed count
        // has none of their code (the variants that never take that path keep their loop).
        let total = match replies.captures {
            true => self.parent_total::<true>(&legality, replies, decide),
            false => self.parent_total::<false>(&legality, replies, decide),
        };
        let variants = expanding.map_or(0, |(kinds, targets)| {
            self.count_variants(kinds, targets, true)
        });
        total + variants
    }

    /// The moves' replies summed by [`Parent`], with [`Replies::after_captures`] when
    /// `CAPTURES`.
    #[inline(always)]
    fn parent_total<const CAPTURES: bool>(
        &self,
        legality: &Legality<B>,
        replies: Replies<B>,
        decide: bool,
    ) -> u64 {
        let mut parent = Parent::<B, CAPTURES> {
            legality,
            replies,
            decide,
            total: 0,
        };
        self.generate(&mut parent);
        parent.total
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

/// How many plain sliders [`Replies`] lists (the others are walked by [`Replies::beyond`]).
/// Fewer under test, so that the random games reach both paths.
#[cfg(not(test))]
const LISTED_SLIDERS: usize = 8;
#[cfg(test)]
const LISTED_SLIDERS: usize = 2;

/// How many more pseudo-legal moves the plain uneven leaper of kind `k` on `slot` (no slides
/// or ranged rides) has with `after` than with `before`, as [`Position::piece_moves`]
/// generates them with `leaps` set and no en-passant square: its leaps onto the context's
/// empty squares and targets, and its special leaps whose path is empty, each one move or one
/// per promotion on the last rank (the same in both contexts). The slot's tables are read once
/// for both counts.
#[inline(always)]
fn leaper_change<B: Width>(
    v: &Variant,
    before: &GenContext<B>,
    after: &GenContext<B>,
    k: usize,
    slot: usize,
) -> i64 {
    let sm = v.slot_moves_at(slot);
    let (quiet, capture) = (sm.leap_quiet.to::<B>(), sm.leap_capture.to::<B>());
    let ctxs = [before, after];
    let mut plain = ctxs.map(|ctx| (quiet & ctx.empty) | (capture & ctx.targets));
    let mut doubles = [Bitboard::NONE; 2];
    if sm.irregular {
        let double_steps = v.spec.pieces[k].pawn && v.spec.en_passant;
        for leap in &v.special_leaps[slot] {
            let double = double_steps && leap.quiet && !leap.capture;
            for (i, ctx) in ctxs.iter().enumerate() {
                if leap.path.to().intersects(ctx.blockers) {
                    continue;
                }
                if (leap.quiet && ctx.empty.has(leap.to))
                    || (leap.capture && ctx.targets.has(leap.to))
                {
                    match double {
                        true => doubles[i].set(leap.to),
                        false => plain[i].set(leap.to),
                    }
                }
            }
        }
    }
    let promotions = v.promotion_kinds[k].len();
    let moves = |i: usize| {
        moves_onto(plain[i], before.last_rank, promotions)
            + moves_onto(doubles[i], before.last_rank, promotions)
    };
    moves(1) as i64 - moves(0) as i64
}

/// The squares the capturing slides of the side to move's piece on `s` reach with `blockers`
/// when they reach `t` (every square when the piece has irregular moves, which are not
/// followed), else `None`.
#[inline(always)]
fn attack_on<B: Width>(
    pos: &Position<B>,
    s: Square,
    t: Square,
    blockers: Bitboard<B>,
) -> Option<Bitboard<B>> {
    let v = pos.variant;
    let kind = super::moves::Piece::kind_of(pos.board[s.index()]);
    let sm = v.slot_moves_at(Variant::slot(kind, pos.side, s));
    if sm.irregular {
        return Some(Bitboard::ALL);
    }
    let reach = v.slides(sm.slide_both | sm.slide_capture, s, blockers);
    reach.has(t).then_some(reach)
}

/// The generation context `ctx` of the position with the turn passed (O to move), with the
/// quiet move `m` of S's capturable piece swapped in: `m.from` empty, `m.to` holding a piece O
/// may capture.
#[inline(always)]
fn moved_in<B: Width>(mut ctx: GenContext<B>, m: &Move) -> GenContext<B> {
    let (a, b) = (Bitboard::of(m.from), Bitboard::of(m.to));
    ctx.blockers = (ctx.blockers & !a) | b;
    ctx.empty = (ctx.empty | a) & !b;
    ctx.targets = (ctx.targets & !a) | b;
    ctx.reachable = ctx.empty | ctx.targets;
    ctx
}

/// What a piece of S attacks on arriving ([`Replies::arrival`]).
struct Arrival<B: Width> {
    /// The squares it attacks by sliding and leaping.
    attacked: Bitboard<B>,
    /// The blockers after the move.
    after: Bitboard<B>,
    /// Its capturing slide directions, as bits.
    capturing: u16,
    /// O's pieces its slides reach.
    shields: Bitboard<B>,
    /// Whether its slides pin one of them to O's royal.
    pins: bool,
}

/// A move generator's sink counting the moves that leave `line` (those of a piece pinned
/// along it, in [`Replies::after_zone_move`]).
struct CountOff<B: Width> {
    line: Bitboard<B>,
    n: u64,
}

impl<B: Width> MoveSink<B> for CountOff<B> {
    fn add(&mut self, _pos: &Position<B>, m: Move) {
        self.n += u64::from(!self.line.has(m.to));
    }
    fn add_targets(
        &mut self,
        _pos: &Position<B>,
        _from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        self.n += moves_onto(to & !self.line, last_rank, promotions.len());
    }
}

/// A move generator's sink at the parent of the counted positions: each legal move's replies
/// are added to `total`.
struct Parent<'a, B: Width, const CAPTURES: bool> {
    legality: &'a Legality<B>,
    replies: Replies<B>,
    /// Whether the variant's own decision may end the game after some move here.
    decide: bool,
    total: u64,
}

impl<B: Width, const CAPTURES: bool> MoveSink<B> for Parent<'_, B, CAPTURES> {
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
                let reused = match m.flags == flags::DOUBLE_STEP && m.promotion == 0 {
                    true => self.replies.after_double_step(pos, &m),
                    false => None,
                };
                self.total += match reused {
                    Some(n) => n,
                    None => count_after(pos, m, self.decide),
                };
            }
            None if !pos.may_evade(&m, self.legality) => {}
            None => {
                let next = pos.play(m);
                if !next.royal_attacked(pos.side) {
                    self.total += next.count_legal();
                }
            }
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
            if !self.replies.special_only.is_empty() && !plain.is_empty() {
                for sq in self.replies.special_adjustable(pos, from, plain) {
                    if let Some(n) = self.replies.after_special(pos, Move::new(from, sq)) {
                        self.total += n;
                        plain.clear(sq);
                    }
                }
            }
            if self.replies.zone_king.is_some() && !plain.is_empty() {
                for sq in self.replies.zone_adjustable(pos, from, plain) {
                    if let Some(n) = self.replies.after_zone_move(pos, Move::new(from, sq)) {
                        self.total += n;
                        plain.clear(sq);
                    }
                }
            }
        }
        if CAPTURES {
            let (n, counted) = self.replies.after_captures(pos, self.legality, from, plain);
            self.total += n;
            plain &= !counted;
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

/// What [`Replies::after_special`] keeps of the position with the turn passed (O to move).
struct SpecialBefore<B: Width> {
    /// The position with the turn passed, where [`Replies::after_special`] moves X and back.
    passed: Position<B>,
    /// O's legal replies there ([`Replies::passed_count`]).
    count: u64,
    legality: Legality<B>,
    /// O's legal special moves.
    specials: u64,
    /// The royal piece's steps that no table piece of S attacks (the royal lifted).
    steps: Bitboard<B>,
    /// The moves onto `steps` that S's special moves take away.
    steps_lost: u64,
    /// O's last rank, and how many promotions its royal kind has there.
    last_rank: Bitboard<B>,
    promotions: usize,
}

impl<B: Width> SpecialBefore<B> {
    /// The parent's record kept in `slot`, made the first time ([`SpecialBefore::new`]; `None`
    /// inside when there is none), with O's replies with the turn passed in `count` (counted
    /// by it when they were not yet).
    #[inline(always)]
    fn kept<'a>(
        slot: &'a mut Option<Option<Box<Self>>>,
        count: &mut Option<u64>,
        pos: &Position<B>,
    ) -> Option<&'a mut Self> {
        let counted = *count;
        let before = slot
            .get_or_insert_with(|| Self::new(pos, counted))
            .as_deref_mut()?;
        *count = Some(before.count);
        Some(before)
    }

    /// `None` unless O, not in check and with one royal piece, has its legality decided by
    /// the fast paths and its special moves counted by them. `counted`: O's replies there, when
    /// already counted (else counted here, with the legality found). Boxed here, so that the
    /// record is not moved into its box after it is made.
    #[inline(never)]
    fn new(pos: &Position<B>, counted: Option<u64>) -> Option<Box<Self>> {
        // The record is boxed first and filled there, the turn passed on its copy as by
        // `Position::passed`: the position is copied once.
        let mut before = Box::new(SpecialBefore {
            passed: *pos,
            count: 0,
            legality: Legality::EMPTY,
            specials: 0,
            steps: Bitboard::NONE,
            steps_lost: 0,
            last_rank: Bitboard::NONE,
            promotions: 0,
        });
        let b = &mut *before;
        let passed = &mut b.passed;
        passed.side = pos.side.flip();
        passed.ep = None;
        passed.ep_victim = None;
        let passed = &b.passed;
        let l = &mut b.legality;
        let v = passed.variant;
        if !passed.legality_into(l) || l.check_mask != Bitboard::ALL {
            return None;
        }
        let king = l.royals.first()?;
        let specials = passed.fast_paths()?.count_legal(passed, l)?;
        let royal = v.royal_kinds[0];
        let sm = &v.slot_moves[Variant::slot(royal, passed.side, king)];
        let ctx = GenContext::new(passed);
        let pseudo = (sm.leap_quiet.to() & ctx.empty) | (sm.leap_capture.to() & ctx.targets);
        let (steps, attacked) = passed.royal_targets_table_safe(pseudo, l);
        let promotions = v.promotion_kinds[royal as usize].len();
        b.count = counted.unwrap_or_else(|| passed.count_with(l, specials));
        b.specials = specials;
        b.steps = steps;
        b.steps_lost = moves_onto(attacked, ctx.last_rank, promotions);
        b.last_rank = ctx.last_rank;
        b.promotions = promotions;
        Some(before)
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
///   second piece (lines of checks and pins; in variants without special moves, or whose
///   fast paths name the squares their special moves read, only past a first piece of O, and
///   a second piece of S only when a slider of S is second or third on one of those lines:
///   else it uncovers no pin by leaving); the squares O's slides and rides other than the
///   plain slides below reach, their first piece included; every leap target and path of O's
///   kinds whose leaps depend on what stands there (pawns), but those of the plain uneven
///   leapers below; the squares that must be empty of O's castlings that no piece of O blocks;
/// - for a piece X of a kind that does not capture by sliding, in a variant without special
///   moves (or whose fast paths name the squares their special moves read), a line's empty
///   squares are not sensitive when no slider of S attacks along it: those before the first
///   piece from a zone square other than the royal one, unless that piece is a slider of S
///   attacking the zone square by sliding (the squares where its slides cross another line
///   from the zone square stay sensitive too), and, when no slider of S stands second behind
///   a piece of O on any line from O's royal square, those before the first piece on those
///   lines (unless that piece is neutral: a special move of O may take it) and those between
///   a first piece of O and the second. There X blocks no attack, check or pin (there is
///   none to block on that line) and, not sliding, makes none. A slider arriving there is
///   taken by [`Replies::after_zone_move`];
/// - in those variants, a piece of S first on a line from a zone square is not sensitive for
///   that line when it does not attack the zone square by sliding and no slider of S behind
///   it would by its leaving (a leaper attacking it is kept by the zone leapers instead);
/// - adjusted are the squares O's *plain* slides reach, their first piece included, and the
///   leap targets and paths of O's *plain uneven leapers*. A slide is plain when the slot of
///   its piece has no irregular moves and only slides that both stop on empty squares and
///   capture (`slide_both`), the piece is not the first on any of S's capturing slide lines
///   from O's royal square (so it is pinned neither before the move nor after: a pin needs
///   that line, which is sensitive; without special moves or with fast paths naming the
///   squares their special moves read, when no slider of S is second behind any such piece,
///   none is pinned before or after and the first pieces are plain too), and, with special
///   moves, the fast paths do not name it
///   ([`FastPathsAt::reply_unadjusted`](crate::variant::FastPathsAt::reply_unadjusted): its
///   moves may change the special moves, or a special move of S may capture O's royal once it
///   leaves its square). A plain uneven leaper is a piece of a kind whose leaps depend on what
///   stands there, with no slides or rides, not royal, and plain in the same two senses (not
///   first on S's lines from O's royal, not named by the fast paths).
///
/// O's pseudo-legal moves are then the same (a symmetric leap onto `a` or `b` changes from a
/// capture to a quiet move or back, and stays one move), and no S piece attacks a zone square,
/// checks, pins or stops checking or pinning through `a` or `b`, before or after any O move.
///
/// When `a` or `b` is adjusted (and neither is sensitive), the same argument holds for every
/// reply but the plain slides along the lines through `a` and `b` and the plain uneven
/// leapers' moves; those stay legal where they go (O is not in check, which no position
/// counted here allows, and their pieces are not pinned, by the tables or through special
/// moves), so only their number changes. A plain uneven leaper that reads `a` or `b` has its
/// moves counted again in the child ([`Replies::leap_adjustment`]). Along each plain slide
/// direction d of an O piece on f, each square one move or one per promotion on O's last
/// rank (whatever stands there):
///
/// - X lifted from `a`: if the ray from f first meets `a`, the capture of X there becomes a
///   quiet move onto `a` (the same moves either way), and the squares beyond `a` up to the
///   next blocker c are gained, c too when it is a capturable piece of S;
/// - X placed on `b` (the occupancy with `a` lifted): if the ray from f passes `b`, the quiet
///   move onto `b` becomes the capture of X (capturable), and the squares beyond `b` up to the
///   next blocker are lost, that blocker too when it is a capturable piece of S.
///
/// So the replies are those with the turn passed plus the gains less the losses
/// ([`Replies::adjustment`]): the slides of the few pieces reaching `a` or `b` found again (or
/// a few walks along the lines through them) instead of the child's replies counted.
struct Replies<B: Width> {
    /// Whether quiet moves may be reused here at all.
    enabled: bool,
    /// The variant's own decision is asked after each move (rule hooks, `game-end = rules`).
    decided: bool,
    /// Squares a reused move may neither leave nor enter: the sensitive and adjusted ones.
    unchanged_off: Bitboard<B>,
    /// Squares an adjusted move may neither leave nor enter, nor one whose special moves are
    /// counted again ([`Replies::after_special`]).
    sensitive: Bitboard<B>,
    /// Squares (none sensitive) where a quiet move changes only O's special moves
    /// ([`ReplySquares::special_only`](crate::variant::ReplySquares::special_only)): a move
    /// leaving or entering one takes the replies with the turn passed, adjusted, with O's
    /// special moves counted again ([`Replies::after_special`]).
    special_only: Bitboard<B>,
    /// The squares where a move may change S's special attacks on O's royal steps
    /// ([`ReplySquares::special_steps`](crate::variant::ReplySquares::special_steps)), as the
    /// fast paths name them: sensitive ones are not taken off (a capture onto a
    /// `capture_lines` square reads them, [`Replies::after_capture`]).
    special_steps: Bitboard<B>,
    /// The squares where a move may change O's special moves
    /// ([`ReplySquares::special_moves`](crate::variant::ReplySquares::special_moves)), as the
    /// fast paths name them (sensitive ones not taken off, as for `special_steps`).
    special_moves: Bitboard<B>,
    /// `sensitive` and `special_only`: squares an adjusted move may neither leave nor enter.
    not_plain: Bitboard<B>,
    /// Kinds (bits) whose pieces may also neither leave nor enter `kind_sensitive`.
    sensitive_kinds: u16,
    /// Squares only pieces of `sensitive_kinds` may neither leave nor enter.
    kind_sensitive: Bitboard<B>,
    /// Squares (empty, none sensitive) that pieces of `slider_kinds` may neither leave nor
    /// enter, as if they were sensitive.
    slider_only: Bitboard<B>,
    /// S's kinds that capture by sliding.
    slider_kinds: u16,
    /// Squares O's plain slides reach (none sensitive): a move leaving or entering one takes
    /// the replies with the turn passed adjusted.
    adjusted: Bitboard<B>,
    /// O's pieces with plain slides.
    plain_sliders: Bitboard<B>,
    /// The squares of the first [`LISTED_SLIDERS`] of them, for [`Replies::adjustment`].
    listed_from: [Square; LISTED_SLIDERS],
    /// The squares each one's slides reach with the turn passed (each up to and including its
    /// first blocker).
    listed_reach: [Bitboard<B>; LISTED_SLIDERS],
    /// How many of `listed_from` and `listed_reach` are filled.
    listed_len: u8,
    /// The plain sliders not listed.
    unlisted_sliders: Bitboard<B>,
    /// Squares only O's *plain uneven leapers* read (their leap targets and paths; none
    /// sensitive): a move leaving or entering one takes the replies with the turn passed
    /// adjusted by those pieces' moves counted again ([`Replies::leap_adjustment`]).
    leap_adjusted: Bitboard<B>,
    /// Every square O's plain uneven leapers read (`leap_adjusted` with the sensitive ones).
    leap_read: Bitboard<B>,
    /// O's plain uneven leapers: pieces of a kind whose leaps depend on what stands on the
    /// target or path (pawns), with no slides or rides, not royal, and first on none of S's
    /// capturing slide lines from O's royal (so pinned neither before a quiet move of S nor
    /// after).
    plain_leapers: Bitboard<B>,
    /// Their slide directions, as bits.
    plain_dirs: u16,
    /// The kinds of `plain_leapers`, as bits.
    leaper_kinds: u16,
    /// O's royal zone.
    zone: Bitboard<B>,
    /// The zone squares its castlings add (their passed and destination squares).
    castle_zone: Bitboard<B>,
    /// O's single royal piece, where a piece of S may move onto a square from which it attacks
    /// the zone ([`Replies::zone_onto`]) by [`Replies::after_zone_move`], or by
    /// [`Replies::after_special`] with special moves, or capture there by
    /// [`Replies::after_capture`] (not where the variant's own decision may end the game after
    /// a quiet move).
    zone_king: Option<Square>,
    /// Per kind of S: the squares from which such a piece captures by a plain leap onto a
    /// square of the zone (its pieces may not leave them; they enter them only by
    /// [`Replies::after_zone_move`], [`Replies::after_special`] or, capturing,
    /// [`Replies::after_capture`]).
    zone_leapers: [Bitboard<B>; MAX_KINDS],
    /// Whether captures may take their replies from those with the turn passed
    /// ([`Replies::after_capture`]): the fast paths name the squares the special moves read,
    /// there is no hand and no castling right of O, and the variant's own decision cannot end
    /// the game after a capture.
    captures: bool,
    /// O's royal pieces and those the fast paths keep from being adjusted
    /// ([`FastPathsAt::reply_unadjusted`](crate::variant::FastPathsAt::reply_unadjusted)):
    /// neither captured by [`Replies::after_capture`] nor taking back there.
    capture_off: Bitboard<B>,
    /// Squares a capture of [`Replies::after_capture`] may neither leave nor enter besides the
    /// sensitive ones: those of
    /// [`ReplySquares::special_only`](crate::variant::ReplySquares::special_only) and
    /// [`ReplySquares::captured`](crate::variant::ReplySquares::captured).
    capture_counted: Bitboard<B>,
    /// Sensitive squares only for the lines of S's capturing slides from O's royal and zone
    /// (none of `capture_counted`): a capture onto one by a piece of a kind that does not
    /// capture by sliding changes nothing there, by a slider only where its slides from
    /// there reach the zone or pin ([`Replies::after_capture`]).
    capture_lines: Bitboard<B>,
    /// O's replies with the turn passed, once counted.
    count: Option<u64>,
    /// For [`Replies::after_special`], once needed (`None` inside when the special moves
    /// cannot be counted again).
    special_before: Option<Option<Box<SpecialBefore<B>>>>,
    /// S's pieces second on a line from O's royal behind a piece of O that are not
    /// sensitive (nothing pins once they leave): kept for the tests.
    #[cfg(test)]
    second_free: Bitboard<B>,
    /// O's pieces first on S's lines from O's royal that may be adjusted all the same: kept
    /// for the tests.
    #[cfg(test)]
    shields_free: Bitboard<B>,
    /// Plain uneven leapers recounted: kept for the tests.
    #[cfg(test)]
    leapers_recounted: usize,
    /// Adjusted moves whose plain slides' walks were skipped in part or in whole (`a` not
    /// adjusted): kept for the tests.
    #[cfg(test)]
    walks_skipped: std::cell::Cell<usize>,
    /// Adjusted moves whose listed plain sliders were found again, and those that walked
    /// unlisted ones: kept for the tests.
    #[cfg(test)]
    sliders_adjusted: std::cell::Cell<[usize; 2]>,
    /// Moves onto [`Replies::zone_onto`]'s squares taken by [`Replies::after_zone_move`], the
    /// royal's steps they took away and the pins they made: kept for the tests.
    #[cfg(test)]
    zone_moves: usize,
    #[cfg(test)]
    zone_steps_lost: usize,
    #[cfg(test)]
    zone_pins: usize,
    /// Of those moves, the ones onto a square from which X leaps onto a zone square; and the
    /// moves of [`Replies::after_special`] onto a square from which X may attack the zone, with
    /// the royal's steps safe before that X attacks there (a step S's special moves attack
    /// too counted here, but taken once): kept for the tests.
    #[cfg(test)]
    zone_leaps: usize,
    #[cfg(test)]
    special_zone: [usize; 2],
    /// Captures whose special moves were counted again (for the tests).
    #[cfg(test)]
    special_captures: usize,
    /// Captures by a piece attacking the zone from its new square (for the tests).
    #[cfg(test)]
    zone_captures: usize,
    /// Pins whose special moves were counted again (for the tests).
    #[cfg(test)]
    special_pins: usize,
    /// Special-path moves whose child was not read (neither O's special moves nor S's
    /// special attacks counted again, [`Replies::special_change`]): kept for the tests.
    #[cfg(test)]
    special_unread: usize,
}

impl<B: Width> Replies<B> {
    fn new(pos: &Position<B>, l: &Legality<B>) -> Self {
        let mut replies = Replies {
            enabled: false,
            decided: false,
            unchanged_off: Bitboard::ALL,
            sensitive: Bitboard::ALL,
            special_only: Bitboard::NONE,
            special_steps: Bitboard::NONE,
            special_moves: Bitboard::NONE,
            not_plain: Bitboard::ALL,
            sensitive_kinds: 0,
            kind_sensitive: Bitboard::NONE,
            slider_only: Bitboard::NONE,
            slider_kinds: 0,
            adjusted: Bitboard::NONE,
            plain_sliders: Bitboard::NONE,
            listed_from: [Square(0); LISTED_SLIDERS],
            listed_reach: [Bitboard::NONE; LISTED_SLIDERS],
            listed_len: 0,
            unlisted_sliders: Bitboard::NONE,
            leap_adjusted: Bitboard::NONE,
            leap_read: Bitboard::NONE,
            plain_leapers: Bitboard::NONE,
            leaper_kinds: 0,
            plain_dirs: 0,
            zone: Bitboard::NONE,
            castle_zone: Bitboard::NONE,
            zone_king: None,
            zone_leapers: [Bitboard::NONE; MAX_KINDS],
            captures: false,
            capture_off: Bitboard::NONE,
            capture_counted: Bitboard::NONE,
            capture_lines: Bitboard::NONE,
            count: None,
            special_before: None,
            #[cfg(test)]
            second_free: Bitboard::NONE,
            #[cfg(test)]
            shields_free: Bitboard::NONE,
            #[cfg(test)]
            leapers_recounted: 0,
            #[cfg(test)]
            walks_skipped: std::cell::Cell::new(0),
            #[cfg(test)]
            sliders_adjusted: std::cell::Cell::new([0; 2]),
            #[cfg(test)]
            zone_moves: 0,
            #[cfg(test)]
            zone_steps_lost: 0,
            #[cfg(test)]
            zone_pins: 0,
            #[cfg(test)]
            zone_leaps: 0,
            #[cfg(test)]
            special_zone: [0; 2],
            #[cfg(test)]
            special_captures: 0,
            #[cfg(test)]
            zone_captures: 0,
            #[cfg(test)]
            special_pins: 0,
            #[cfg(test)]
            special_unread: 0,
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
        for wing in Wing::BOTH {
            if !pos.has_castling(them, wing) {
                continue;
            }
            let empty = pos.rules.castle_empty[them.index()][wing as usize].to::<B>();
            // A piece of O on a square the castling needs empty stays there after a quiet move
            // of S: O cannot castle there before or after, so its squares matter to no reply.
            if empty.intersects(theirs) {
                continue;
            }
            let Some(c) = pos.rules.castles[them.index()][wing as usize] else {
                continue;
            };
            let files = pos.rules.castle_files[them.index()][wing as usize];
            let rank = c.king_from.rank();
            let castle = Bitboard::on_rank(files.passed, rank).to::<B>() | Bitboard::of(c.king_to);
            zone |= castle;
            replies.castle_zone |= castle;
            sensitive |= empty;
        }
        // Special moves: only where their fast paths name the squares they read, and the
        // opponent's pieces whose moves they keep from being adjusted.
        let mut unadjusted = Bitboard::NONE;
        // The lines are followed only as far as table pieces need (below) without special
        // moves, or where the fast paths name every square the special moves make matter.
        let mut relax = v.fast_legality;
        let mut captures = false;
        if !v.fast_legality {
            let Some(paths) = pos.fast_paths() else {
                return replies;
            };
            match paths.reply_sensitive(pos, king, zone) {
                Some(squares) => {
                    sensitive |= squares.all;
                    replies.capture_counted = squares.captured;
                    replies.sensitive_kinds = squares.kinds;
                    replies.kind_sensitive = squares.for_kinds;
                    replies.special_only = squares.special_only;
                    replies.special_steps = squares.special_steps;
                    replies.special_moves = squares.special_moves;
                    relax = true;
                }
                None => return replies,
            }
            unadjusted = paths.reply_unadjusted(pos, king);
            captures = v.spec.hand == HandKind::None
                && !v.special_captures
                && Wing::BOTH.iter().all(|&w| !pos.has_castling(them, w));
        }
        // S's capturing slide directions, and its pieces that capture by sliding.
        let mut dirs = 0u16;
        let mut s_sliders = Bitboard::NONE;
        let mut kinds = v.slider_kinds[us.index()] & pos.kinds[us.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = pos.by_kind[k] & ours;
            if !pieces.is_empty() {
                dirs |= v.capture_dirs[k * 2 + us.index()];
                s_sliders |= pieces;
            }
        }
        // O's pieces first on those lines from its royal: the ones S may pin.
        let mut shields = Bitboard::NONE;
        // Empty squares of those lines that only a piece of S capturing by sliding makes
        // matter (without special moves): those before the first piece from a zone square,
        // where that piece is no slider of S attacking the zone square, and those before the
        // first piece from the royal one and between it and the second, where no second piece
        // is a slider of S (no attack, check or pin to block there, so only an arriving
        // slider could make one).
        let mut slider_only = Bitboard::NONE;
        // The squares these walks make sensitive (kept apart for captures, which leave the
        // captured piece's square occupied: `capture_lines`).
        let mut walked = Bitboard::NONE;
        if dirs != 0 {
            let lifted = occupied & !king_bb;
            let plan = v.line_plan(dirs, u16::MAX);
            // The royal square's own lines are handled below, up to the second piece.
            for t in zone & !king_bb {
                let line = v.planned_back_slides(plan, t, lifted);
                if !relax {
                    walked |= line;
                    continue;
                }
                // O's and neutral first pieces; a slider of S first on a line that attacks `t`,
                // with the squares between (its slides from its square, clipped to `t`'s lines:
                // a square where they cross another of those lines is kept too); and a piece of
                // S first on a line whose leaving uncovers such an attack of the piece behind
                // it.
                // The other empty squares matter only to a slider of S arriving there, and S's
                // other first pieces to none: leaving, they uncover no attack on `t`.
                let ours_first = line & ours;
                walked |= line & lifted & !ours_first;
                slider_only |= line & !lifted;
                for s in line & s_sliders {
                    if let Some(reach) = attack_on(pos, s, t, lifted) {
                        walked |= (reach & line) | Bitboard::of(s);
                    }
                }
                if !ours_first.is_empty() {
                    let behind = lifted & !ours_first;
                    let second = v.planned_back_slides(plan, t, behind) & behind & s_sliders;
                    for s in second {
                        if let Some(reach) = attack_on(pos, s, t, behind) {
                            walked |= reach & ours_first;
                        }
                    }
                }
            }
            let to_first = v.planned_back_slides(plan, king, occupied);
            let first = to_first & occupied;
            shields = first & theirs;
            if relax {
                // Only a line whose first piece is O's may pin: the lines whose first piece is
                // S's are walked no further (a piece of S arriving behind it, or leaving,
                // changes no check or pin while it stands there).
                let to_second = v.planned_back_slides(plan, king, occupied & !shields);
                let second = to_second & occupied & !first;
                if !second.intersects(s_sliders) {
                    // A piece of S second on such a line, leaving it, uncovers the third,
                    // which pins only when it is a slider of S.
                    let third =
                        v.planned_back_slides(plan, king, occupied & !shields & !(second & ours))
                            & occupied
                            & !first
                            & !second;
                    let held = match third.intersects(s_sliders) {
                        true => second,
                        false => second & !ours,
                    };
                    // The empty squares before the first pieces of either side matter only to
                    // a slider of S arriving there (no slider of S first attacks along its
                    // line: O is not in check; none stands second behind a piece of O on any
                    // line: nothing is pinned there). Before a neutral piece
                    // they stay sensitive: a reply of O may take it (Pink Panther's jewel) and
                    // uncover the piece behind it, unless a piece of S arrives in between.
                    let mut before_neutral = Bitboard::NONE;
                    for n in first & pos.neutral {
                        before_neutral |= v.slides(v.all_dirs(), n, occupied) & to_first;
                    }
                    walked |= (to_first & occupied) | before_neutral | held;
                    slider_only |= to_first & !occupied;
                    #[cfg(test)]
                    {
                        replies.second_free = second & !held;
                        replies.shields_free = shields;
                    }
                    // No slider of S stands second behind a piece of O, nor can one after a
                    // move reused here (it would arrive on a sensitive or slider-only square,
                    // or a second piece held above would leave): O's first pieces are pinned
                    // neither before nor after, and their moves may be adjusted.
                    shields = Bitboard::NONE;
                    slider_only |= to_second & !to_first & !occupied;
                } else {
                    walked |= to_second;
                }
            } else {
                walked |= v.planned_back_slides(plan, king, occupied & !first);
            }
        }
        // Where O's moves depend on what stands on a square.
        let mut adjusted = Bitboard::NONE;
        let mut plain_sliders = Bitboard::NONE;
        let mut plain_dirs = 0u16;
        let mut leap_adjusted = Bitboard::NONE;
        let mut plain_leapers = Bitboard::NONE;
        let mut leaper_kinds = 0u16;
        // Only the kinds with uneven leaps or with rides.
        let mut kinds = pos.kinds[them.index()]
            & (v.uneven_leap_kinds[them.index()] | v.ride_kinds[them.index()]);
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let kc = k * 2 + them.index();
            let uneven = v.uneven_leap_kinds[them.index()] >> k & 1 != 0;
            let rides = v.has_rides[kc];
            // With special moves, their fast paths named above every square a quiet move may
            // not leave or enter for them (whatever the reply), and the pieces whose moves may
            // not be adjusted (`unadjusted`).
            for from in pos.by_kind[k] & theirs {
                let slot = Variant::slot(k as u8, them, from);
                // A kind with no rides on any square (pawns) has no slides to look up: a plain
                // uneven leaper of it needs only the squares it reads (the test below, without
                // reading the slot's moves).
                if !rides && !unadjusted.has(from) && !king_bb.has(from) && !shields.has(from) {
                    leap_adjusted |= v.leap_reads_at(slot);
                    plain_leapers.set(from);
                    leaper_kinds |= 1 << k;
                    continue;
                }
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
                        let i = usize::from(replies.listed_len);
                        if i < LISTED_SLIDERS {
                            replies.listed_from[i] = from;
                            replies.listed_reach[i] = reach;
                            replies.listed_len += 1;
                        } else {
                            replies.unlisted_sliders.set(from);
                        }
                    } else {
                        sensitive |= reach;
                    }
                }
                // A plain uneven leaper's squares are adjusted by counting its moves again.
                let plain_leaper = uneven
                    && !unadjusted.has(from)
                    && sm.slides() == 0
                    // Limited slides make a slot irregular: most slots need no look.
                    && (!sm.irregular || v.ranged_rides[slot].is_empty())
                    && !king_bb.has(from)
                    && !shields.has(from);
                if plain_leaper {
                    leap_adjusted |= v.leap_reads_at(slot);
                    plain_leapers.set(from);
                    leaper_kinds |= 1 << k;
                    continue;
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
        // Without the variant's own decision after a capture (it is not asked there).
        if captures
            && (pos.game_end != GameEnd::Rules
                || pos.rule_hooks().is_none_or(|h| !h.capture_may_decide(pos)))
        {
            // Royal pieces, those the fast paths keep from being adjusted, and those S may pin:
            // neither captured nor taking back in `after_capture`.
            replies.captures = true;
            replies.capture_off = unadjusted | shields;
            for &k in &v.royal_kinds {
                replies.capture_off |= pos.pieces_of(k, them);
            }
        }
        replies.decided = pos.game_end == GameEnd::Rules
            && pos
                .rule_hooks()
                .is_some_and(|h| h.quiet_move_may_decide(pos));
        replies.sensitive = sensitive | walked | zone;
        replies.capture_lines = walked & !(sensitive | zone);
        replies.special_only &= !replies.sensitive;
        replies.not_plain = replies.sensitive | replies.special_only;
        replies.slider_only = slider_only & !replies.sensitive;
        replies.slider_kinds = v.slider_kinds[us.index()];
        // Squares of `special_only` stay adjusted: a move touching them adjusts its replies
        // in `after_special`.
        replies.adjusted = adjusted & !replies.sensitive;
        replies.leap_adjusted = leap_adjusted & !replies.sensitive;
        replies.leap_read = leap_adjusted;
        replies.plain_leapers = plain_leapers;
        replies.leaper_kinds = leaper_kinds;
        replies.unchanged_off = replies.not_plain | replies.adjusted | replies.leap_adjusted;
        replies.plain_sliders = plain_sliders;
        replies.plain_dirs = plain_dirs;
        replies.zone = zone;
        // With special moves, where their fast paths answered (`relax`): see
        // `after_zone_move`.
        if (v.fast_legality || relax) && !replies.decided && king_bb.count() == 1 {
            replies.zone_king = Some(king);
        }
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
        let adjusted = self.adjusted | self.leap_adjusted;
        if !adjusted.has(from) && !to.intersects(adjusted) {
            return Bitboard::NONE;
        }
        self.quiet_targets(pos, from, to, self.not_plain)
    }

    /// The squares of `to` (legal, quiet or capturing, no promotion, none of them
    /// [`Replies::reusable`] or [`Replies::adjustable`]) to which the piece on `from` moves
    /// changing only the opponent's plain slides and special moves
    /// ([`Replies::after_special`]), and, with a zone royal, the royal's steps that the piece
    /// attacks from its new square (as [`Replies::zone_adjustable`]'s squares).
    #[inline(always)]
    fn special_adjustable(&self, pos: &Position<B>, from: Square, to: Bitboard<B>) -> Bitboard<B> {
        if !self.special_only.has(from) && !to.intersects(self.special_only) {
            return Bitboard::NONE;
        }
        let zone = self.zone_king.is_some();
        self.quiet_targets_off(pos, from, to, self.sensitive, zone)
    }

    /// The squares from which a piece of S of `kind` may attack the zone on arriving
    /// ([`Replies::zone_adjustable`]): `slider_only` ones for S's sliders, and those from which
    /// it leaps onto a zone square.
    #[inline(always)]
    fn zone_onto(&self, kind: u8) -> Bitboard<B> {
        let mut onto = self.zone_leapers[kind as usize % MAX_KINDS];
        if self.slider_kinds >> kind & 1 != 0 {
            onto |= self.slider_only;
        }
        onto
    }

    /// What the piece X of S moving quietly by `m` attacks from `m.to` with the occupancy
    /// after the move (O's royal on `king`): `None` when X has irregular moves there, checks
    /// the royal or attacks a castling's square.
    #[inline(always)]
    fn arrival(&self, pos: &Position<B>, m: Move, king: Square) -> Option<Arrival<B>> {
        let v = pos.variant;
        let kind = super::moves::Piece::kind_of(pos.board[m.from.index()]);
        let sm = v.slot_moves_at(Variant::slot(kind, pos.side, m.to));
        if sm.irregular {
            return None;
        }
        let after = ((pos.occupied() | pos.neutral) & !Bitboard::of(m.from)) | Bitboard::of(m.to);
        let capturing = sm.slide_both | sm.slide_capture;
        // Without capture-only slides these are the slot's own slides, whose plan it keeps.
        let slides = |blockers| match sm.slide_capture {
            0 => v.planned_slides(sm.both_plan, m.to, blockers),
            _ => v.slides(capturing, m.to, blockers),
        };
        let slid = slides(after);
        let attacked = slid | sm.leap_capture.to::<B>();
        if attacked.has(king) || attacked.intersects(self.castle_zone) {
            return None;
        }
        let shields = slid & pos.by_colour[pos.side.flip().index()];
        let pins = !shields.is_empty() && slides(after & !shields).has(king);
        Some(Arrival {
            attacked,
            after,
            capturing,
            shields,
            pins,
        })
    }

    /// The squares of `to` (legal, none of them [`Replies::reusable`] or
    /// [`Replies::adjustable`]) to which the piece on `from` moves touching no sensitive or
    /// `special_only` square, leaping onto no zone square from `from`, onto a square from
    /// which it may attack the zone ([`Replies::zone_onto`]; [`Replies::after_zone_move`]).
    #[inline(always)]
    fn zone_adjustable(&self, pos: &Position<B>, from: Square, to: Bitboard<B>) -> Bitboard<B> {
        let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
        let onto = self.zone_onto(kind);
        if !to.intersects(onto) {
            return Bitboard::NONE;
        }
        self.quiet_targets_off(pos, from, to & onto, self.not_plain, true)
    }

    /// The replies after the quiet move `m` of a piece X of S onto a `slider_only` square (X
    /// a slider) or a square from which X leaps onto a zone square
    /// ([`Replies::zone_adjustable`]; so `m.from` and `m.to` are not sensitive and X leaps
    /// onto no zone square from `m.from`), when they follow from those with the turn passed:
    /// `None` when the child must be counted.
    ///
    /// An empty square is `slider_only` when the lines through it that make it matter end in
    /// no slider of S attacking along them: from a zone square up to the first piece where
    /// that piece is no slider of S attacking the zone square, or from O's royal up to its
    /// first piece (not before a neutral one) and between its first piece (O's) and the
    /// second, where no slider of S stands second. A piece of S arriving there blocks no
    /// attack, check or pin of S, and leaving a square that is not sensitive uncovers none.
    /// Only what X itself attacks from `m.to` by sliding and leaping (the occupancy after the
    /// move) changes O's replies, besides what the adjusted squares change
    /// ([`Replies::after_adjusted`]):
    /// - X checking O's royal: `None`;
    /// - X attacking a square of a castling's (passed or destination squares): `None`;
    /// - X pinning a piece of O to the royal (its slides through one piece of O reaching it;
    ///   leaps pin nothing): that piece's moves off the line between X and the royal are
    ///   taken away (with special moves, theirs too: below);
    /// - X takes from O exactly the royal's steps onto the zone squares it attacks that were
    ///   legal before: a target of the royal's leaps (empty, or a capturable piece of S) that
    ///   no piece of S attacked with the royal lifted. Nothing else of O's replies reads X's
    ///   attacks (no special moves: `fast_legality`), and O is not in check.
    /// - With special moves whose fast paths name the squares they read (`m` touches none of
    ///   them, nor `special_only`: O's special moves, S's special attacks and their checks
    ///   are as before), the royal's steps that S's special moves attacked with the turn
    ///   passed are not taken again (they were no replies before). The special moves'
    ///   legality reads the table pins and the royal's square: without a pin it is as before;
    ///   with one, O's special moves are counted again in the child with the new pins
    ///   ([`Replies::special_change`]; the pinned piece's special moves may leave the line
    ///   too), unless a pinned piece's moves were made and tested with the turn passed
    ///   (`None`).
    #[inline(never)]
    fn after_zone_move(&mut self, pos: &Position<B>, m: Move) -> Option<u64> {
        let king = self.zone_king?;
        let v = pos.variant;
        let arrival = self.arrival(pos, m, king)?;
        let attacked = arrival.attacked;
        let us = pos.side;
        let them = us.flip();
        let occupied = pos.occupied() | pos.neutral;
        // With special moves (their fast paths name the squares they read, and `m` touches
        // none of them), a pin takes the pinned piece's special moves off the line too: O's
        // special moves are counted again below, with the pin. The royal's steps that S's
        // special moves attacked with the turn passed were not replies before either.
        // With them, the royal's steps safe from S's table attacks with the turn passed are
        // kept by `SpecialBefore` (its `steps`): X takes those it attacks that S's special
        // moves did not attack already.
        let mut safe_before = None;
        if !v.fast_legality {
            let before = SpecialBefore::kept(&mut self.special_before, &mut self.count, pos)?;
            safe_before = Some(before.steps & !before.legality.special_attacked);
        }
        // The pieces of O that X pins: their moves off the line between X and the royal are
        // lost.
        let (pinned, pinned_lost) = self.pins(pos, m, &arrival, king);
        let special = match !pinned.is_empty() && !v.fast_legality {
            true => self.special_change(pos, m, Bitboard::NONE, pinned)?,
            false => 0,
        };
        // The royal's steps (a target of its leaps, empty or a capturable piece of S) that no
        // table piece of S attacked with the royal lifted: those X attacks are lost.
        let lost = match safe_before {
            Some(safe) => (attacked & safe & self.zone).count() as usize,
            None => {
                let royal = v.royal_kinds[0];
                let ksm = v.slot_moves_at(Variant::slot(royal, them, king));
                let steps = (ksm.leap_quiet.to::<B>() & !occupied & v.geometry.mask.to())
                    | (ksm.leap_capture.to::<B>() & pos.capturable(us));
                let without_king = occupied & !Bitboard::of(king);
                let ours = pos.by_colour[us.index()];
                let mut lost = 0;
                for t in attacked & steps & self.zone {
                    if pos
                        .table_attackers(t, us, without_king, v.all_dirs(), ours, true)
                        .is_empty()
                    {
                        lost += 1;
                    }
                }
                lost
            }
        };
        #[cfg(test)]
        {
            self.zone_moves += 1;
            self.zone_steps_lost += lost;
            let kind = super::moves::Piece::kind_of(pos.board[m.from.index()]);
            self.zone_leaps += usize::from(self.zone_leapers[kind as usize % MAX_KINDS].has(m.to));
        }
        let touched = Bitboard::of(m.from) | Bitboard::of(m.to);
        let base = match touched.intersects(self.adjusted | self.leap_adjusted) {
            true => self.after_adjusted(pos, m),
            false => self.passed_count(pos),
        };
        Some((base - lost as u64 - pinned_lost).wrapping_add_signed(special))
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
        self.quiet_targets_off(pos, from, to, off, false)
    }

    /// [`Replies::quiet_targets`]; with `zone` ([`Replies::zone_adjustable`],
    /// [`Replies::special_adjustable`]), [`Replies::zone_onto`]'s squares are not taken off
    /// `to`: the caller accounts for what the piece attacks there.
    #[inline(always)]
    fn quiet_targets_off(
        &self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        off: Bitboard<B>,
        zone: bool,
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
        if zone {
            return to & !off & !pos.occupied();
        }
        if self.slider_kinds >> kind & 1 != 0 {
            off |= self.slider_only;
        }
        to & !off & !pos.occupied() & !leapers
    }

    /// The replies after the double step `m` (legal) when they follow from those with the turn
    /// passed: as after a quiet move changing no reply ([`Replies::reusable`]) or changing
    /// only the plain slides ([`Replies::adjustable`]; the square passed over is empty before
    /// and after), when no pawn of the opponent can take it en passant (so the en-passant
    /// square it sets adds no reply). `None` when the child must be counted.
    fn after_double_step(&mut self, pos: &Position<B>, m: &Move) -> Option<u64> {
        let to = Bitboard::of(m.to);
        let reused = !self.reusable(pos, m.from, to).is_empty();
        if !reused && self.adjustable(pos, m.from, to).is_empty() {
            return None;
        }
        if self.en_passant_taker(pos, m) {
            return None;
        }
        Some(match reused {
            true => self.after_each(pos, std::iter::once(*m)),
            false => self.after_adjusted(pos, *m),
        })
    }

    /// Whether a pawn of the opponent could take the double step `m` en passant.
    fn en_passant_taker(&self, pos: &Position<B>, m: &Move) -> bool {
        let v = pos.variant;
        let them = pos.side.flip();
        let ep = Square((m.from.0 + m.to.0) / 2);
        let mut pawns = v.pawn_kinds & pos.kinds[them.index()];
        while pawns != 0 {
            let k = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let takers = v.leap_attackers[Variant::slot(k, them, ep)].to::<B>();
            if takers.intersects(pos.pieces_of(k, them)) {
                return true;
            }
        }
        false
    }

    /// O's replies with the turn passed.
    #[inline(always)]
    fn passed_count(&mut self, pos: &Position<B>) -> u64 {
        if let Some(n) = self.count {
            return n;
        }
        self.count_passed(pos)
    }

    /// [`Replies::passed_count`] the first time: where special-only squares may send moves
    /// to [`Replies::after_special`], by [`SpecialBefore`] (the passed position's legality and
    /// special moves then found once for both).
    #[inline(never)]
    fn count_passed(&mut self, pos: &Position<B>) -> u64 {
        if !self.special_only.is_empty()
            && let Some(before) =
                SpecialBefore::kept(&mut self.special_before, &mut self.count, pos)
        {
            return before.count;
        }
        *self.count.insert(pos.passed().count_moves())
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
        count
            .wrapping_add_signed(self.adjustment(pos, m.from, m.to))
            .wrapping_add_signed(self.leap_adjustment(pos, m))
    }

    /// The replies after `m` (one of [`Replies::special_adjustable`]'s moves): those with the
    /// turn passed, adjusted as after [`Replies::after_adjusted`], with what the squares of
    /// [`ReplySquares::special_only`] change counted again in the child: O's special moves,
    /// counted with the legality of the position with the turn passed, and O's royal steps
    /// safe from S's table attacks that S's special moves attack. `m` touches no sensitive
    /// square, so O has the same royal piece and pins after it and is not in check, and S's
    /// table pieces attack the same squares of O's zone: that legality is the child's for the
    /// special moves, by the contract, and the royal's steps differ only by S's special
    /// attacks. `None` when the special moves are not counted that way (the child is then
    /// counted).
    ///
    /// A move onto one of [`Replies::zone_adjustable`]'s squares (X may attack the zone from
    /// there) takes away, as in [`Replies::after_zone_move`], the royal's steps X attacks from
    /// `m.to` among those safe from S's table attacks before, together with those S's special
    /// moves attack in the child (each step once); X checking O's royal, attacking a
    /// castling's square or pinning a piece of O: `None`.
    ///
    /// [`ReplySquares::special_only`]: crate::variant::ReplySquares::special_only
    #[inline(never)]
    fn after_special(&mut self, pos: &Position<B>, m: Move) -> Option<u64> {
        // X's table attacks from `m.to` where it may attack the zone from there
        // ([`Replies::zone_adjustable`]'s squares; `zone_king` is set there): none on the royal
        // (a check), a castling's squares, or through one piece of O onto the royal (a pin).
        let kind = super::moves::Piece::kind_of(pos.board[m.from.index()]);
        let onto = self.zone_onto(kind);
        let mut attacks = Bitboard::NONE;
        if onto.has(m.to) {
            // A pin: counted in full (counting it again here costs as much as the child).
            let arrival = self.arrival(pos, m, self.zone_king?)?;
            if arrival.pins {
                return None;
            }
            attacks = arrival.attacked;
        }
        if self.decided && pos.play(m).decided().is_some() {
            return Some(0);
        }
        let change = self.special_change(pos, m, attacks, Bitboard::NONE)?;
        #[cfg(test)]
        if onto.has(m.to) {
            self.special_zone[0] += 1;
            self.special_zone[1] += (attacks & self.steps_before()).count() as usize;
        }
        let count = self.passed_count(pos);
        Some(
            count
                .wrapping_add_signed(change)
                .wrapping_add_signed(self.adjustment(pos, m.from, m.to))
                .wrapping_add_signed(self.leap_adjustment(pos, m)),
        )
    }

    /// The royal's steps safe from S's table attacks with the turn passed (for the tests).
    #[cfg(test)]
    fn steps_before(&self) -> Bitboard<B> {
        match &self.special_before {
            Some(Some(before)) => before.steps,
            _ => Bitboard::NONE,
        }
    }

    /// How many replies O gains (negative: loses) after S's move `m` (X from `m.from` onto
    /// `m.to`, quiet or capturing, touching [`ReplySquares::special_only`]'s squares) through
    /// what those squares change, against the position with the turn passed: O's special
    /// moves, counted again in the child with that position's legality, and the royal's steps
    /// safe from S's table attacks that S's special moves attack, together with `attacks`
    /// (X's own attacks from `m.to`). Only what `m`'s squares may change is counted again
    /// (`special_moves`, `special_steps`). The child is the position with the turn passed
    /// with X moved (and the piece on `m.to` taken), as far as the special moves and their
    /// attacks read it, made on [`SpecialBefore`]'s copy and put back (only when something of
    /// it is counted again: else the child is not read). `pinned`: O's pieces
    /// that `m` newly pins to the royal ([`Replies::pins`]; `m` may then touch no special
    /// square): O's special moves are counted again with those pins added to the legality
    /// (each special move of a pinned piece is then made and tested), unless a pinned piece's
    /// moves were made and tested with the turn passed. `None` when the special moves are not
    /// counted that way.
    ///
    /// [`ReplySquares::special_only`]: crate::variant::ReplySquares::special_only
    #[inline(always)]
    fn special_change(
        &mut self,
        pos: &Position<B>,
        m: Move,
        attacks: Bitboard<B>,
        pinned: Bitboard<B>,
    ) -> Option<i64> {
        let before = SpecialBefore::kept(&mut self.special_before, &mut self.count, pos)?;
        // A pinned piece whose moves were made and tested with the turn passed: its table
        // moves there may not all have been legal.
        if pinned.intersects(before.legality.tested) {
            return None;
        }
        let king = before.legality.royals;
        let paths = pos.fast_paths()?;
        let touched = Bitboard::of(m.from) | Bitboard::of(m.to);
        let moves_read = touched.intersects(self.special_moves) || !pinned.is_empty();
        let steps_read = touched.intersects(self.special_steps);
        if !moves_read && !steps_read {
            // Neither the special moves nor their attacks are counted again: the child is not
            // read, and X need not be moved on the copy.
            let attacked = (before.legality.special_attacked | attacks) & before.steps;
            let steps_lost = moves_onto(attacked, before.last_rank, before.promotions);
            #[cfg(test)]
            {
                self.special_unread += 1;
            }
            return Some(before.steps_lost as i64 - steps_lost as i64);
        }
        let child = &mut before.passed;
        let taken = child.take(m.to);
        let Some(piece) = child.take(m.from) else {
            if let Some(y) = taken {
                child.put(m.to, y);
            }
            return None;
        };
        child.put(m.to, piece);
        let specials = match (touched.intersects(self.special_moves), pinned.is_empty()) {
            (false, true) => Some(before.specials),
            (_, true) => paths.count_legal(child, &before.legality),
            (_, false) => {
                let mut legality = before.legality;
                legality.pinned |= pinned;
                #[cfg(test)]
                {
                    self.special_pins += 1;
                }
                paths.count_legal(child, &legality)
            }
        };
        let special_attacks = match steps_read {
            true => {
                let blockers = (child.occupied() | child.neutral) & !king;
                paths.attack_map(child, pos.side, blockers, before.steps)
            }
            false => before.legality.special_attacked,
        };
        child.take(m.to);
        child.put(m.from, piece);
        if let Some(y) = taken {
            child.put(m.to, y);
        }
        let attacked = (special_attacks | attacks) & before.steps;
        let steps_lost = moves_onto(attacked, before.last_rank, before.promotions);
        Some(
            specials? as i64 - before.specials as i64 + before.steps_lost as i64
                - steps_lost as i64,
        )
    }

    /// The pieces of O that X, arriving by the quiet move `m` (`arrival`), pins to O's royal
    /// piece on `king`, and how many of their table moves with the turn passed leave the line
    /// between X and the royal (lost after `m`).
    fn pins(
        &mut self,
        pos: &Position<B>,
        m: Move,
        arrival: &Arrival<B>,
        king: Square,
    ) -> (Bitboard<B>, u64) {
        let v = pos.variant;
        let (mut pinned, mut lost) = (Bitboard::NONE, 0);
        if !arrival.pins {
            return (pinned, lost);
        }
        let mut dirs = arrival.capturing;
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let Some(p) = v
                .slide(dir, m.to, arrival.after)
                .1
                .filter(|&p| arrival.shields.has(p))
            else {
                continue;
            };
            let (line, next) = v.slide(dir, m.to, arrival.after & !Bitboard::of(p));
            if next != Some(king) {
                continue;
            }
            pinned.set(p);
            let them = pos.side.flip();
            let ctx = moved_in(GenContext::of(pos, them), &m);
            let mut off = CountOff {
                line: line | Bitboard::of(m.to),
                n: 0,
            };
            let k = super::moves::Piece::kind_of(pos.board[p.index()]);
            pos.piece_moves_of(&mut off, &ctx, k as usize, p, true, them, None);
            lost += off.n;
            #[cfg(test)]
            {
                self.zone_pins += 1;
            }
        }
        (pinned, lost)
    }

    /// The replies after the captures among the moves from `from` to `to` (legal, no
    /// promotion) that [`Replies::after_capture`] counts, and their squares (`l`: the
    /// parent's legality).
    #[inline(always)]
    fn after_captures(
        &mut self,
        pos: &Position<B>,
        l: &Legality<B>,
        from: Square,
        to: Bitboard<B>,
    ) -> (u64, Bitboard<B>) {
        let (mut total, mut counted) = (0, Bitboard::NONE);
        for sq in to & pos.by_colour[pos.side.flip().index()] {
            if let Some(n) = self.after_capture(pos, l, Move::new(from, sq)) {
                total += n;
                counted.set(sq);
            }
        }
        (total, counted)
    }

    /// The replies after the capture `m` (legal, no flag, no promotion) by S of a piece Y of O,
    /// in a variant whose fast paths name the squares its special moves read
    /// ([`ReplySquares`](crate::variant::ReplySquares)), with no hand (a capture only removes
    /// Y) and no castling right of O: those with the turn passed, less Y's table moves there,
    /// plus the captures of X on Y's square, adjusted as after a quiet move
    /// ([`Replies::after_adjusted`]) for the square X leaves. `None` when the child must be
    /// counted (`l`: the parent's legality). Asked only where the variant's own decision cannot
    /// end the game after a capture
    /// ([`RuleHooksAt::capture_may_decide`](crate::variant::RuleHooksAt::capture_may_decide)).
    ///
    /// Let X move from `a` to `b`, where Y stands. `a` is not sensitive, `b` is not but for the
    /// walks along S's capturing slide lines from O's royal and zone (`capture_lines`), neither
    /// is kind-sensitive for X's kind nor one where a capture changes the special moves
    /// (`capture_counted`), X is capturable and attacks no zone square by a plain leap from
    /// `a`, Y is neither royal, nor named by `reply_unadjusted`, nor one S may pin, and none
    /// of those attacks `b` (with `a` emptied):
    ///
    /// - O keeps its pins but those X makes: `b` holds a piece before and after, so no line
    ///   of S through it opens or closes, and lifting X from `a` uncovers none (`a` is not
    ///   sensitive). X on `b` attacks the zone only where it leaps onto it from `b` (a zone
    ///   leaper there), or slides onto it from `b` on those lines (or would through one piece
    ///   of O): elsewhere a slider attacking a zone square from `b` would have made it
    ///   sensitive (the first piece on that line from the zone square), as would one pinning
    ///   (`b` second on a line from O's royal behind a piece of O). Then what X attacks from
    ///   `b` ([`Replies::arrival`], the occupancy after the move) is counted in full when it
    ///   checks O's royal, attacks a castling's square or pins a piece of O; else it takes
    ///   the royal's steps it attacks that were safe from S's table and special attacks with
    ///   the turn passed, as a quiet move onto a zone-attacking square does
    ///   ([`Replies::after_zone_move`]; [`Replies::special_change`] takes each step once).
    ///   Y, first on a line from O's royal, is not pinned: where a slider of S
    ///   stands second behind a piece of O, those pieces are ones S may pin. The special moves
    ///   of both sides, and their checks, pins and attacks on the royal's steps, are as before
    ///   by the fast paths' contract, but where `a` or `b` is one of
    ///   [`ReplySquares::special_only`]'s squares: there O's special moves and the royal's
    ///   steps S's special moves attack are counted again ([`Replies::special_change`]), and
    ///   nothing else changes by that contract. The royal's steps are the same squares (it
    ///   does not attack `b`), attacked by S's table pieces as before, and by X from `b`
    ///   (taken above).
    /// - Y's table moves with the turn passed are legal there (O not in check, Y neither
    ///   pinned, nor named by `reply_unadjusted`, nor royal) and gone (its special moves, if
    ///   any, would have put `b` in `capture_counted`).
    /// - `b` held Y, which kept every table move of O off it; it now holds X, and each piece of
    ///   O that captures there (a plain leap, a slide or ride with `a` emptied) gains that
    ///   capture, legal (not pinned, not named, not royal), one move or one per promotion on
    ///   O's last rank; the plain uneven leapers among them are counted again instead, as they
    ///   read `b`. Beyond `b` nothing changes (blocked by Y before, by X after).
    /// - Lifting X from `a` changes O's table moves as after a quiet move from `a`: the plain
    ///   slides gain the squares beyond `a` up to the next blocker (Y on `b` stops them, not
    ///   counted: the capture of X there is counted once, above), the plain uneven leapers
    ///   reading `a` are counted again; any other slide or uneven leap reaching `a` made it
    ///   sensitive. Y is left out of both adjustments.
    ///
    /// [`ReplySquares::special_only`]: crate::variant::ReplySquares::special_only
    #[inline(never)]
    fn after_capture(&mut self, pos: &Position<B>, l: &Legality<B>, m: Move) -> Option<u64> {
        let (a, b) = (m.from, m.to);
        let v = pos.variant;
        let kind = super::moves::Piece::kind_of(pos.board[a.index()]);
        let mut off = self.capture_counted;
        if self.sensitive_kinds >> kind & 1 != 0 {
            off |= self.kind_sensitive;
        }
        let leapers = self.zone_leapers[kind as usize % MAX_KINDS];
        if off.has(a)
            || off.has(b)
            || self.sensitive.has(a)
            || (self.sensitive & !self.capture_lines).has(b)
            || self.capture_off.has(b)
            || v.uncapturable_kinds >> kind & 1 != 0
            || leapers.has(a)
        {
            return None;
        }
        let them = pos.side.flip();
        let theirs = pos.by_colour[them.index()];
        let blockers = pos.occupied() | pos.neutral;
        let after = blockers & !Bitboard::of(a);
        // X attacking the zone from `b`: by a plain leap, or by sliding from a square on a
        // line of S from O's royal or zone (reaching the zone, or the royal through one
        // piece of O: a pin). Its attacks there take the royal's steps (below); a check, an
        // attack on a castling's square or a pin is counted in full.
        let mut zone_attacks = leapers.has(b);
        if !zone_attacks
            && self.capture_lines.has(b)
            && v.slider_kinds[pos.side.index()] >> kind & 1 != 0
        {
            let sm = v.slot_moves_at(Variant::slot(kind, pos.side, b));
            if sm.irregular {
                return None;
            }
            let reach = v.slot_slides(sm, b, after);
            let through = v.slot_slides(sm, b, after & !(reach & theirs));
            zone_attacks = (reach | through).intersects(self.zone);
        }
        let attacks = match zone_attacks {
            true => {
                let arrival = self.arrival(pos, m, self.zone_king?)?;
                if arrival.pins {
                    return None;
                }
                arrival.attacked
            }
            false => Bitboard::NONE,
        };
        // Only O's pieces of kinds that capture by sliding take back along a line: those the
        // parent's legality found (it found none when S has no royal piece).
        let (dirs, sliders) = match l.royals.is_empty() {
            true => (v.all_dirs(), theirs),
            false => (l.enemy_dirs, l.enemy_sliders),
        };
        let takers = pos.table_attackers(b, them, after, dirs, sliders, false);
        if takers.intersects(self.capture_off) {
            return None;
        }
        let last_rank = v.last_rank_bb[them.index()].to::<B>();
        let mut onto = 0;
        for t in takers & !self.plain_leapers {
            let k = super::moves::Piece::kind_of(pos.board[t.index()]);
            onto += moves_onto(
                Bitboard::of(b),
                last_rank,
                v.promotion_kinds[k as usize].len(),
            );
        }
        let beyond = match self.adjusted.has(a) {
            true => self.beyond(
                pos,
                a,
                blockers,
                pos.capturable(pos.side),
                self.plain_sliders & !Bitboard::of(b),
            ),
            false => 0,
        };
        // Y's table moves with the turn passed (no en-passant square).
        let captured = super::moves::Piece::kind_of(pos.board[b.index()]);
        let mut lost = CountOff {
            line: Bitboard::NONE,
            n: 0,
        };
        let ctx = GenContext::of(pos, them);
        pos.piece_moves_of(&mut lost, &ctx, captured as usize, b, true, them, None);
        // What `a` and `b` change of the special moves is counted again; X's attacks take the
        // royal's steps safe from S's table and special attacks with the turn passed (without
        // reading the child when the squares change nothing special).
        let touched = Bitboard::of(a) | Bitboard::of(b);
        let touched_special = touched.intersects(self.special_moves | self.special_steps);
        let special = match touched_special || zone_attacks {
            true => {
                let change = self.special_change(pos, m, attacks, Bitboard::NONE)?;
                #[cfg(test)]
                {
                    self.special_captures += usize::from(touched_special);
                }
                change
            }
            false => 0,
        };
        #[cfg(test)]
        if zone_attacks {
            self.zone_captures += 1;
        }
        let count = self.passed_count(pos);
        let leaps = self.leap_recount(pos, m, self.leap_read, Bitboard::of(b));
        Some(
            (count + onto + u64::from(beyond) - lost.n)
                .wrapping_add_signed(leaps)
                .wrapping_add_signed(special),
        )
    }

    /// How many replies O's plain uneven leapers gain when S plays the quiet move `m` (one of
    /// the adjusted ones): the moves of each such piece whose squares hold `m`'s start or end,
    /// counted after `m` less those counted with the turn passed. Such a piece is pinned
    /// neither before nor after and O is not in check after `m`, so every move counted is
    /// legal; the en-passant square a double step sets gives it nothing (no pawn of O can
    /// take there, [`Replies::after_double_step`]).
    fn leap_adjustment(&mut self, pos: &Position<B>, m: Move) -> i64 {
        self.leap_recount(pos, m, self.leap_adjusted, Bitboard::NONE)
    }

    /// [`Replies::leap_adjustment`] where the plain uneven leapers read `read` (for a capture,
    /// whose square may be sensitive for quiet moves only, `capture_lines`, all they read),
    /// leaving out the one on `gone` (the captured piece).
    #[inline(always)]
    fn leap_recount(
        &mut self,
        pos: &Position<B>,
        m: Move,
        read: Bitboard<B>,
        gone: Bitboard<B>,
    ) -> i64 {
        let touched = Bitboard::of(m.from) | Bitboard::of(m.to);
        if !touched.intersects(read) {
            return 0;
        }
        let v = pos.variant;
        let them = pos.side.flip();
        let before = GenContext::of(pos, them);
        // After `m`, as generated from the passed position (the same side, no en-passant
        // square) with `m`'s squares swapped in the context: the mover's piece, capturable
        // (see `quiet_targets`), leaves `a` empty and stands on `b`.
        let after = moved_in(before, &m);
        let mut n = 0i64;
        let theirs = self.plain_leapers & !gone;
        let mut kinds = self.leaper_kinds;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as u8;
            kinds &= kinds - 1;
            // The pieces of this kind reading `a` or `b` (every plain uneven leaper is of a
            // kind of `uneven_leap_kinds`, whose readers the table holds).
            let readers = v.leap_readers_at::<B>(Variant::slot(k, them, m.from))
                | v.leap_readers_at::<B>(Variant::slot(k, them, m.to));
            for from in readers & theirs & pos.by_kind[k as usize] {
                let slot = Variant::slot(k, them, from);
                n += leaper_change(v, &before, &after, k as usize, slot);
                #[cfg(test)]
                {
                    self.leapers_recounted += 1;
                }
            }
        }
        n
    }

    /// How many replies O's plain slides gain when the piece on `a` moves to the empty `b`:
    /// the listed sliders' moves found again ([`Replies::listed_adjustment`]), and for the
    /// others the squares they reach beyond `a` once it is lifted, less those beyond `b` once
    /// the piece stands there.
    ///
    /// A plain slide whose ray first meets `a` reaches it, so `a` is then adjusted (it is not
    /// sensitive, or the move would not be adjusted); one that reaches `b` once `a` is lifted
    /// reaches `b` before, or passes through `a` to it. So with `a` not adjusted nothing is
    /// gained, and with neither adjusted nothing is lost: no walk is needed.
    #[inline(always)]
    fn adjustment(&self, pos: &Position<B>, a: Square, b: Square) -> i64 {
        let a_reached = self.adjusted.has(a);
        #[cfg(test)]
        self.walks_skipped
            .set(self.walks_skipped.get() + usize::from(!a_reached));
        if !a_reached && !self.adjusted.has(b) {
            return 0;
        }
        let blockers = pos.occupied() | pos.neutral;
        let capturable = pos.capturable(pos.side);
        let mut n = self.listed_adjustment(pos, a, b, blockers, capturable);
        let sliders = self.unlisted_sliders;
        if sliders.is_empty() {
            return n;
        }
        #[cfg(test)]
        {
            let mut counted = self.sliders_adjusted.get();
            counted[1] += 1;
            self.sliders_adjusted.set(counted);
        }
        if a_reached {
            n += i64::from(self.beyond(pos, a, blockers, capturable, sliders));
        }
        let lost = self.beyond(pos, b, blockers & !Bitboard::of(a), capturable, sliders);
        n - i64::from(lost)
    }

    /// [`Replies::adjustment`] for the listed plain sliders: each one whose slides reach `a`
    /// or `b` with the turn passed has its slides found again with `a` lifted and `b` filled,
    /// and its moves counted before and after.
    ///
    /// A slide reaching neither square is the same after the move (its squares up to its first
    /// blocker are as before, and so is that blocker), and moves onto the same squares: only
    /// `a` and `b` change, and both are squares a plain slide may move onto before and after
    /// (`b` empty before, `a` after; the mover is capturable on either). So a plain slide's
    /// moves are the squares it reaches that are empty or hold a capturable piece of S
    /// (`movable`, the same before and after), each one move or one per promotion on O's last
    /// rank, and the change is the listed sliders' moves after less before.
    #[inline(always)]
    fn listed_adjustment(
        &self,
        pos: &Position<B>,
        a: Square,
        b: Square,
        blockers: Bitboard<B>,
        capturable: Bitboard<B>,
    ) -> i64 {
        let v = pos.variant;
        let touched = Bitboard::of(a) | Bitboard::of(b);
        let after = (blockers & !Bitboard::of(a)) | Bitboard::of(b);
        let movable = !blockers | capturable;
        let them = pos.side.flip();
        let last_rank = v.last_rank_bb[them.index()].to::<B>();
        let mut n = 0i64;
        let len = usize::from(self.listed_len);
        for (&from, &before) in self.listed_from[..len]
            .iter()
            .zip(&self.listed_reach[..len])
        {
            if !before.intersects(touched) {
                continue;
            }
            let kind = super::moves::Piece::kind_of(pos.board[from.index()]);
            let sm = v.slot_moves_at(Variant::slot(kind, them, from));
            let reach = v.planned_slides(sm.both_plan, from, after);
            let promotions = v.promotion_kinds[kind as usize].len();
            n += moves_onto(reach & movable, last_rank, promotions) as i64
                - moves_onto(before & movable, last_rank, promotions) as i64;
            #[cfg(test)]
            {
                let mut counted = self.sliders_adjusted.get();
                counted[0] += 1;
                self.sliders_adjusted.set(counted);
            }
        }
        n
    }

    /// The moves the plain slides of O's `sliders` (some of `plain_sliders`) reaching `sq`
    /// (with `blockers`) have beyond it, were it empty: along each one's direction, the
    /// squares past `sq` up to the next blocker, that one too when it is one of the
    /// `capturable` pieces.
    #[inline(always)]
    fn beyond(
        &self,
        pos: &Position<B>,
        sq: Square,
        blockers: Bitboard<B>,
        capturable: Bitboard<B>,
        sliders: Bitboard<B>,
    ) -> u32 {
        let v = pos.variant;
        let mut dirs = v.dirs_toward(sq, self.plain_dirs, sliders);
        let them = pos.side.flip();
        let last_rank = v.last_rank_bb[them.index()].to::<B>();
        let mut n = 0;
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            // Most directions hold none of the sliders at all: no nearest blocker to find.
            if !v.back_ray::<B>(dir, sq).intersects(sliders) {
                continue;
            }
            let Some(from) = v.nearest_back(dir, sq, blockers) else {
                continue;
            };
            if !sliders.has(from) {
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
        adjusted_double_steps: usize,
        /// Reused or adjusted moves of a piece second on a line from O's royal behind a piece
        /// of O.
        second_free: usize,
        /// Adjusted moves where a piece of O first on S's lines from its royal is adjusted.
        shields_free: usize,
        /// Plain uneven leapers recounted.
        leapers_recounted: usize,
        /// Adjusted moves that skipped the walk from the start square.
        walks_skipped: usize,
        /// Listed plain sliders found again, and adjustments walking unlisted ones.
        sliders_adjusted: [usize; 2],
        /// Moves onto [`Replies::zone_onto`]'s squares whose replies
        /// [`Replies::after_zone_move`] gave, the royal's steps they took away, and the pins.
        zone_moves: usize,
        zone_steps_lost: usize,
        zone_pins: usize,
        /// Of those, moves onto a square from which X leaps onto a zone square; and moves of
        /// [`Replies::after_special`] onto a square from which X may attack the zone, and the
        /// royal's steps safe before that X attacks there.
        zone_leaps: usize,
        special_zone: [usize; 2],
        /// Moves whose replies [`Replies::after_special`] gave.
        special: usize,
        /// Captures whose replies [`Replies::after_capture`] gave, and of those the ones
        /// whose special moves were counted again ([`Replies::special_change`]).
        captures: usize,
        special_captures: usize,
        /// Of those, captures by a piece attacking the zone from its new square.
        zone_captures: usize,
        /// Pins of [`Replies::after_zone_move`] whose special moves were counted again.
        special_pins: usize,
        /// Moves that reach [`Replies::after_special`] only with the piece's other targets
        /// (as the sink hands them over), and special-path moves whose child was not read.
        special_wide: usize,
        special_unread: usize,
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
        let second_free = replies.second_free;
        let shields_free =
            !(replies.shields_free & (replies.plain_sliders | replies.plain_leapers)).is_empty();
        let moves = pos.legal_moves_unchecked();
        // Each piece's legal plain moves, as the sink hands them over together
        // (`Parent::add_targets`).
        let mut plain_to = [Bitboard::<B>::NONE; crate::geometry::SQUARE_COUNT];
        for m in &moves {
            if m.flags == 0 && m.promotion == 0 && m.placement_list().next().is_none() {
                plain_to[m.from.index()].set(m.to);
            }
        }
        for m in moves {
            if m.promotion != 0 || m.placement_list().next().is_some() {
                continue;
            }
            let counted = count_after(pos, m, true);
            if m.flags == flags::DOUBLE_STEP {
                let to = Bitboard::of(m.to);
                let reused = !replies.reusable(pos, m.from, to).is_empty();
                if let Some(n) = replies.after_double_step(pos, &m) {
                    assert_eq!(
                        n,
                        counted,
                        "double step {:?} {}: {m:?}",
                        pos.rules,
                        to_fen(wide)
                    );
                    match reused {
                        true => checked.reused += 1,
                        false => checked.adjusted_double_steps += 1,
                    }
                    checked.second_free += usize::from(second_free.has(m.from));
                }
                continue;
            }
            if m.flags != 0 {
                continue;
            }
            if pos.board[m.to.index()] != 0 {
                if replies.captures
                    && let Some(n) = replies.after_capture(pos, &legality, m)
                {
                    assert_eq!(
                        n,
                        counted,
                        "capture {:?} {}: {}",
                        pos.rules,
                        to_fen(wide),
                        crate::notation::moves::move_text(wide, &m),
                    );
                    checked.captures += 1;
                }
                continue;
            }
            let reused = replies.reusable(pos, m.from, Bitboard::of(m.to));
            let adjusted = replies.adjustable(pos, m.from, Bitboard::of(m.to) & !reused);
            if reused.has(m.to) {
                let n = replies.after_each(pos, std::iter::once(m));
                assert_eq!(n, counted, "reused {:?} {}: {m:?}", pos.rules, to_fen(wide));
                checked.reused += 1;
                checked.second_free += usize::from(second_free.has(m.from));
            }
            let special =
                replies.special_adjustable(pos, m.from, Bitboard::of(m.to) & !reused & !adjusted);
            // The sink asks `special_adjustable` with every target the piece has left, so a
            // move touching no special square gets there too when another target does.
            let all_to = plain_to[m.from.index()];
            let wide_reused = replies.reusable(pos, m.from, all_to);
            let wide_adjusted = replies.adjustable(pos, m.from, all_to & !wide_reused);
            let sink_special =
                replies.special_adjustable(pos, m.from, all_to & !wide_reused & !wide_adjusted);
            let asked = match (special.has(m.to), sink_special.has(m.to)) {
                (true, _) => Some("alone"),
                (false, true) => Some("with the piece's other targets"),
                (false, false) => None,
            };
            if let Some(how) = asked
                && let Some(n) = replies.after_special(pos, m)
            {
                assert_eq!(
                    n,
                    counted,
                    "special ({how}) {:?} {}: {}",
                    pos.rules,
                    to_fen(wide),
                    crate::notation::moves::move_text(wide, &m),
                );
                match special.has(m.to) {
                    true => checked.special += 1,
                    false => checked.special_wide += 1,
                }
            }
            let zoned = replies.zone_adjustable(pos, m.from, Bitboard::of(m.to));
            if replies.zone_king.is_some()
                && zoned.has(m.to)
                && !reused.has(m.to)
                && !adjusted.has(m.to)
                && let Some(n) = replies.after_zone_move(pos, m)
            {
                assert_eq!(n, counted, "zone {:?} {}: {m:?}", pos.rules, to_fen(wide));
            }
            if adjusted.has(m.to) {
                let n = replies.after_adjusted(pos, m);
                assert_eq!(
                    n,
                    counted,
                    "adjusted {:?} {}: {m:?} {} narrowed={}",
                    pos.rules,
                    to_fen(wide),
                    crate::notation::moves::move_text(wide, &m),
                    std::mem::size_of::<B>() == 8
                );
                checked.adjusted += 1;
                checked.shields_free += usize::from(shields_free);
                checked.second_free += usize::from(second_free.has(m.from));
            }
        }
        checked.leapers_recounted += replies.leapers_recounted;
        checked.walks_skipped += replies.walks_skipped.get();
        let sliders = replies.sliders_adjusted.get();
        checked.sliders_adjusted[0] += sliders[0];
        checked.sliders_adjusted[1] += sliders[1];
        checked.zone_moves += replies.zone_moves;
        checked.zone_steps_lost += replies.zone_steps_lost;
        checked.zone_pins += replies.zone_pins;
        checked.zone_leaps += replies.zone_leaps;
        checked.special_zone[0] += replies.special_zone[0];
        checked.special_zone[1] += replies.special_zone[1];
        checked.special_captures += replies.special_captures;
        checked.zone_captures += replies.zone_captures;
        checked.special_pins += replies.special_pins;
        checked.special_unread += replies.special_unread;
    }

    /// [`check_replies`] at every position of `games.0` random games of at most `games.1`
    /// plies from `start`, on 128-bit masks and, where the board allows, on 64-bit ones.
    fn check_random_games(
        start: &Position,
        games: (usize, usize),
        state: &mut u64,
        checked: &mut Checked,
    ) {
        for _ in 0..games.0 {
            let mut pos = *start;
            for _ in 0..games.1 {
                check_replies(&pos, &pos, checked);
                if pos.variant.narrow {
                    check_replies(&pos.narrowed(), &pos, checked);
                }
                match pos.play_random(state) {
                    Some(next) => pos = next,
                    None => break,
                }
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
                        check_random_games(&start, (3, 60), &mut state, checked);
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
        let double_steps: usize = by_variant.values().map(|c| c.adjusted_double_steps).sum();
        assert!(double_steps > 100, "{double_steps} adjusted double steps");
        let second_free: usize = by_variant.values().map(|c| c.second_free).sum();
        assert!(
            second_free > 100,
            "{second_free} moves of free second pieces"
        );
        let recounted: usize = by_variant.values().map(|c| c.leapers_recounted).sum();
        assert!(
            recounted > 100,
            "{recounted} plain uneven leapers recounted"
        );
        for (i, path) in ["listed", "unlisted"].iter().enumerate() {
            let n: usize = by_variant.values().map(|c| c.sliders_adjusted[i]).sum();
            assert!(n > 100, "{n} adjustments of {path} plain sliders");
        }
        let skipped: usize = by_variant.values().map(|c| c.walks_skipped).sum();
        assert!(skipped > 100, "{skipped} adjusted moves skipping a walk");
        let zone_moves: usize = by_variant.values().map(|c| c.zone_moves).sum();
        let steps_lost: usize = by_variant.values().map(|c| c.zone_steps_lost).sum();
        let pins: usize = by_variant.values().map(|c| c.zone_pins).sum();
        assert!(
            pins > 100,
            "{pins} pins by moves onto squares attacking the zone"
        );
        assert!(
            zone_moves > 100,
            "{zone_moves} moves onto squares attacking the zone"
        );
        assert!(steps_lost > 100, "{steps_lost} royal steps taken by them");
        let pp = &by_variant["pink-panther"];
        for (n, what) in [
            (pp.special, "moves with the special moves counted again"),
            (
                pp.zone_moves,
                "Pink Panther moves onto squares attacking the zone",
            ),
            (pp.captures, "captures counted from the passed replies"),
            (
                pp.special_captures,
                "captures with their special moves counted again",
            ),
            (
                pp.zone_captures,
                "Pink Panther captures by pieces attacking the zone",
            ),
            (
                pp.special_pins,
                "pins with their special moves counted again",
            ),
            (
                pp.special_wide,
                "special-path moves reached with the piece's other targets",
            ),
            (
                pp.special_unread,
                "special-path moves not reading the child",
            ),
        ] {
            assert!(n > 100, "{n} {what}");
        }
        let leaps: usize = by_variant.values().map(|c| c.zone_leaps).sum();
        assert!(
            leaps > 100,
            "{leaps} moves onto squares leaping onto the zone"
        );
        let [special_zone, special_lost] = by_variant["pink-panther"].special_zone;
        assert!(
            special_zone > 100 && special_lost > 10,
            "{special_zone} special moves onto squares attacking the zone, {special_lost} steps lost"
        );
    }

    /// The number in the environment variable `name` (for the tests run by hand), else
    /// `default`.
    fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }

    /// Puts `letters` on `home` when `at_home` and it is empty, else on a random empty square
    /// (for a pawn, off the first and last ranks).
    fn place(
        grid: &mut [Vec<String>],
        next: &mut dyn FnMut(u64) -> u64,
        home: (usize, usize),
        letters: &str,
        at_home: bool,
        pawn: bool,
    ) {
        let (ranks, files) = (grid.len(), grid[0].len());
        let (r, f) = if at_home && grid[home.0][home.1].is_empty() {
            home
        } else {
            loop {
                let (r, f) = (next(ranks as u64) as usize, next(files as u64) as usize);
                if grid[r][f].is_empty() && !(pawn && (r == 0 || r == ranks - 1)) {
                    break (r, f);
                }
            }
        };
        grid[r][f] = letters.to_string();
    }

    /// Random set-ups of every game but Pink Panther (which [`random_setups_replies`] covers):
    /// each piece of the start position kept at random, on its start square or on a random
    /// one (pawns off the first and last ranks), the royal pieces at home half the time, with
    /// each of the start's castling rights whose King and Rook stand at home (and without),
    /// either side to move, for each start position the options give; each checked
    /// with [`check_replies`] under every rule set and game end, and a few random plies on
    /// from it: 150 set-ups of each game in the regular run, more by hand
    /// (`REVIEW_VARIANT=chess REVIEW_SEED=1 REVIEW_POSITIONS=3000 cargo test --release --lib
    /// random_setups_every -- --nocapture`; every such game when `REVIEW_VARIANT` is not set).
    #[test]
    fn random_setups_every_game() {
        let positions: usize = env_or("REVIEW_POSITIONS", 150);
        let mut state: u64 = env_or("REVIEW_SEED", 7);
        let only = std::env::var("REVIEW_VARIANT").ok();
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let mut game_state: u64 = 0x2545_f491_4f6c_dd1d ^ env_or("REVIEW_SEED", 7u64);
        let mut games = 0;
        for variant in variants::all() {
            let id = variant.spec.id;
            if id == "pink-panther" || only.as_deref().is_some_and(|o| o != id) {
                continue;
            }
            games += 1;
            // The rule sets, grouped by their start position (some options change it).
            let mut groups: Vec<(String, Vec<_>)> = Vec::new();
            for mut rules in Rules::every_combination(variant) {
                for game_end in ["rules", "movegen"] {
                    rules.set("game-end", game_end).expect("game-end");
                    let start = rules.start_fen();
                    match groups.iter_mut().find(|(s, _)| *s == start) {
                        Some((_, group)) => group.push(rules),
                        None => groups.push((start, vec![rules])),
                    }
                }
            }
            let mut checked = Checked::default();
            let (mut setups, mut castled, mut castles) = (0, 0, false);
            for (start, rule_sets) in &groups {
                let mut fields = start.split(' ');
                let placement = fields.next().expect("placement");
                let castling = fields.nth(1).expect("castling").to_string();
                castles |= castling != "-";
                let (board, hand) = match placement.find('[') {
                    Some(i) => (&placement[..i], "[]"),
                    None => (placement, ""),
                };
                // The start's pieces: (rank from the top, file, FEN letters).
                let mut pieces = Vec::new();
                for (r, rank) in board.split('/').enumerate() {
                    let (mut f, mut skip, mut promoted) = (0usize, 0usize, false);
                    for c in rank.chars() {
                        if let Some(d) = c.to_digit(10) {
                            skip = skip * 10 + d as usize;
                            continue;
                        }
                        f += std::mem::take(&mut skip);
                        if c == '+' {
                            promoted = true;
                            continue;
                        }
                        let letters = if std::mem::take(&mut promoted) {
                            format!("+{c}")
                        } else {
                            c.to_string()
                        };
                        pieces.push((r, f, letters));
                        f += 1;
                    }
                }
                let kind_of = |letters: &str| variant.kind_by_fen(&letters.to_uppercase());
                let royal = |letters: &str| {
                    kind_of(letters).is_some_and(|k| variant.royal_kinds.contains(&k))
                };
                let pawn = |letters: &str| {
                    kind_of(letters).is_some_and(|k| variant.pawn_kinds >> k & 1 != 0)
                };
                let (files, ranks) = (variant.spec.files as usize, variant.spec.ranks as usize);
                for _ in 0..positions {
                    let keep = 1 + next(6);
                    let mut grid = vec![vec![String::new(); files]; ranks];
                    for (r, f, letters) in &pieces {
                        if royal(letters) {
                            let at_home = next(2) == 0;
                            place(&mut grid, &mut next, (*r, *f), letters, at_home, false);
                        }
                    }
                    for (r, f, letters) in &pieces {
                        if !royal(letters) && next(8) < keep {
                            let at_home = next(3) == 0;
                            place(
                                &mut grid,
                                &mut next,
                                (*r, *f),
                                letters,
                                at_home,
                                pawn(letters),
                            );
                        }
                    }
                    let fen = crate::variants::pink_panther::tests::board_of(&grid);
                    let side = ["w", "b"][next(2) as usize];
                    let text = |rights: &str| format!("{fen}{hand} {side} {rights} - 0 1");
                    let mut parsed = false;
                    for &rules in rule_sets {
                        // The start's castling rights whose King and Rook stand at home.
                        let rights: String = castling
                            .chars()
                            .filter(|&c| {
                                c != '-' && parse_position(rules, &text(&c.to_string())).is_ok()
                            })
                            .collect();
                        for rights in [rights.as_str(), "-"] {
                            let Ok(pos) = parse_position(rules, &text(rights)) else {
                                continue;
                            };
                            parsed = true;
                            castled += usize::from(rights != "-");
                            check_random_games(&pos, (2, 6), &mut game_state, &mut checked);
                        }
                    }
                    setups += usize::from(parsed);
                }
            }
            eprintln!(
                "{id}: {setups} set-ups ({castled} with castling rights): reused {} adjusted {} zone {} (steps lost {}, leaps {}, pins {})",
                checked.reused,
                checked.adjusted,
                checked.zone_moves,
                checked.zone_steps_lost,
                checked.zone_leaps,
                checked.zone_pins
            );
            assert!(
                setups * 4 >= positions * groups.len()
                    && (castled > 0 || !castles)
                    && checked.reused > 100
                    && checked.zone_moves > 100,
                "{id}: too few set-ups or moves checked: {setups} set-ups, {castled} with castling \
                 rights, {} reused, {} onto zone squares",
                checked.reused,
                checked.zone_moves
            );
        }
        assert!(
            games > 0,
            "no game to set up (REVIEW_VARIANT names none but Pink Panther)"
        );
    }

    /// Random Pink Panther set-ups (not reached from the start): the jewel unclaimed, carried
    /// by either side or by a King, pieces scattered, each checked with [`check_replies`] under
    /// every rule set and game end, and a few random plies on from it (run by hand:
    /// `REVIEW_SEED=1 REVIEW_POSITIONS=4000 cargo test --release --lib random_setups --
    /// --ignored`).
    #[test]
    #[ignore]
    fn random_setups_replies() {
        let positions: usize = env_or("REVIEW_POSITIONS", 2000);
        let mut state: u64 = env_or("REVIEW_SEED", 7);
        let variant = variants::all()
            .iter()
            .find(|v| v.spec.id == "pink-panther")
            .expect("variant");
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let mut game_state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut checked = Checked::default();
        let mut parsed = 0;
        let mut rule_sets = Vec::new();
        for mut rules in Rules::every_combination(variant) {
            for game_end in ["rules", "movegen"] {
                rules.set("game-end", game_end).expect("game-end");
                rule_sets.push(rules);
            }
        }
        // Crafted: the unclaimed jewel shielding the General with a Knight of S behind it; O's
        // Pawn acquiring onto its last rank; O carrying next to its General with S's Rook
        // along the line; S carrying a Silvergeneral next to O's General; O's General next to
        // the jewel (acquiring, becoming a King); a Queen and Princess pinned past the jewel.
        let crafted = [
            "3n2g/7/7/7/3*3/7/3G3 b - - 0 1",
            "3n2g/7/2N4/7/3*3/b6/3G3 b - - 0 1",
            "g6/2P4/1*5/3n3/7/7/3G2r w - - 0 1",
            "3r2g/7/7/3p3/3+R3/3G3/7 b - - 0 1",
            "6g/2n4/7/4+p2/2G4/1B5/7 b - - 0 1",
            "g3r2/7/7/7/2*G3/7/b6 b - - 0 1",
            "3g3/3i3/3*3/7/1N5/3Q3/3G3 w - - 0 1",
            "6g/2p4/1*1N3/7/2G4/4r2/7 b - - 0 1",
            "b5g/7/2*4/7/3Q3/5G1/7 w - - 0 1",
            "3g3/7/3+b3/7/1N2R2/7/3G3 w - - 0 1",
        ];
        for fen in crafted {
            for &rules in &rule_sets {
                let Ok(pos) = parse_position(rules, fen) else {
                    continue;
                };
                parsed += 1;
                check_random_games(&pos, (4, 8), &mut game_state, &mut checked);
            }
        }
        for _ in 0..positions {
            let mut grid = vec![vec![String::new(); 7]; 7];
            let empty = |grid: &Vec<Vec<String>>, next: &mut dyn FnMut(u64) -> u64, pawn: bool| loop {
                let (r, f) = (next(7) as usize, next(7) as usize);
                if grid[r][f].is_empty() && (!pawn || (r != 0 && r != 6)) {
                    break (r, f);
                }
            };
            // Jewel: 0 unclaimed, 1 White carries, 2 Black carries.
            let jewel = next(3);
            let carrier = ["G", "R", "B", "N", "P"][next(5) as usize];
            let case = |colour: u64, s: &str| match colour {
                0 => s.to_string(),
                _ => s.to_lowercase(),
            };
            let mut royals = [(0usize, 0usize); 2];
            for colour in 0..2u64 {
                let royal = if jewel == colour + 1 && carrier == "G" {
                    "+G"
                } else {
                    "G"
                };
                let (r, f) = empty(&grid, &mut next, false);
                grid[r][f] = case(colour, royal);
                royals[colour as usize] = (r, f);
            }
            if jewel == 0 || carrier != "G" {
                let item = match jewel {
                    0 => "*".to_string(),
                    c => case(c - 1, &format!("+{carrier}")),
                };
                let pawn = jewel != 0 && carrier == "P";
                // Most often next to a General or two squares from it along a line.
                let mut at = None;
                if next(3) != 0 {
                    let (gr, gf) = royals[next(2) as usize];
                    let (dr, df) = [
                        (0, 1),
                        (1, 0),
                        (0, -1),
                        (-1, 0),
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                    ][next(8) as usize];
                    let k = 1 + next(2) as i64;
                    let (r, f) = (gr as i64 + dr * k, gf as i64 + df * k);
                    if (0..7).contains(&r) && (0..7).contains(&f) {
                        let (r, f) = (r as usize, f as usize);
                        if grid[r][f].is_empty() && (!pawn || (r != 0 && r != 6)) {
                            at = Some((r, f));
                        }
                    }
                }
                let (r, f) = at.unwrap_or_else(|| empty(&grid, &mut next, pawn));
                grid[r][f] = item;
            }
            for colour in 0..2u64 {
                let count = next(6);
                for _ in 0..count {
                    let kind =
                        ["R", "B", "N", "P", "I", "Q", "R", "B", "N", "P"][next(10) as usize];
                    let (r, f) = empty(&grid, &mut next, kind == "P");
                    grid[r][f] = case(colour, kind);
                }
            }
            let side = if next(2) == 0 { "w" } else { "b" };
            let board = crate::variants::pink_panther::tests::board_of(&grid);
            let fen = format!("{board} {side} - - 0 1");
            for &rules in &rule_sets {
                let Ok(pos) = parse_position(rules, &fen) else {
                    continue;
                };
                parsed += 1;
                check_random_games(&pos, (1, 6), &mut game_state, &mut checked);
            }
        }
        eprintln!(
            "random set-ups: {parsed} parsed, reused {} adjusted {} special {} captures {} (special {})",
            checked.reused,
            checked.adjusted,
            checked.special,
            checked.captures,
            checked.special_captures,
        );
        eprintln!(
            "random set-ups: zone moves {}, pins {} (special {})",
            checked.zone_moves, checked.zone_pins, checked.special_pins
        );
    }

    /// Many more random games of one variant than the test above (run by hand:
    /// `STRESS_VARIANT=pink-panther cargo test --release --lib stress_replies -- --ignored`).
    #[test]
    #[ignore]
    fn stress_replies() {
        let id = std::env::var("STRESS_VARIANT").unwrap_or_else(|_| "pink-panther".into());
        let games: usize = env_or("STRESS_GAMES", 200);
        let mut state: u64 = env_or("STRESS_SEED", 0x9e37_79b9_7f4a_7c15);
        let variant = variants::all()
            .iter()
            .find(|v| v.spec.id == id)
            .expect("variant");
        let mut checked = Checked::default();
        for mut rules in Rules::every_combination(variant) {
            for game_end in ["rules", "movegen"] {
                rules.set("game-end", game_end).expect("game-end");
                let start = parse_position(rules, &rules.start_fen()).expect("start");
                check_random_games(&start, (games, 120), &mut state, &mut checked);
            }
        }
        eprintln!(
            "{id}: reused {} adjusted {} special {} (onto zone attacks {}, steps lost {}) captures {} (special {}) zone {} (pins {}, special {}; steps lost {}, leaps {}) second_free {} shields_free {}",
            checked.reused,
            checked.adjusted,
            checked.special,
            checked.special_zone[0],
            checked.special_zone[1],
            checked.captures,
            checked.special_captures,
            checked.zone_moves,
            checked.zone_pins,
            checked.special_pins,
            checked.zone_steps_lost,
            checked.zone_leaps,
            checked.second_free,
            checked.shields_free
        );
        assert!(
            checked.reused > 100 && checked.adjusted > 100,
            "{id}: too few moves reused or adjusted to check"
        );
    }
}

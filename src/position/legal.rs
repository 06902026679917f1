//! The legal moves: each with the position it leads to, their number (perft 1, counted
//! without making most moves), and the end of the game.

use super::Position;
use super::generate::{GenContext, MoveSink, add_promoting};
use super::legality::Legality;
use super::moves::Move;
use crate::geometry::{Bitboard, Square};
use crate::variant::{GameEnd, Outcome, Width};

impl<B: Width> Position<B> {
    /// Calls `f` with every legal move and the position it leads to, ignoring whether the game
    /// is already decided (see [`Position::decided`]).
    pub fn for_each_legal_unchecked(&self, mut f: impl FnMut(Move, &Self)) {
        if self.may_expand() {
            let us = self.side;
            let mut pseudo = Vec::with_capacity(64);
            self.pseudo_moves(&mut pseudo);
            let mut expanded = Vec::new();
            for m in pseudo {
                let after = self.play(m);
                expanded.clear();
                self.expand(&after, m, &mut expanded);
                for &e in &expanded {
                    let after_e = if e == m { after } else { self.play(e) };
                    if !after_e.royal_attacked(us) {
                        f(e, &after_e);
                    }
                }
            }
            return;
        }
        let mut known_legality = Legality::EMPTY;
        let legality = self
            .legality_into(&mut known_legality)
            .then_some(&known_legality);
        // Each move made as it is generated: no list.
        self.generate(&mut Legal { legality, f });
    }

    /// Calls `f` with every legal move and the position after it; none when the game is decided
    /// by the variant's own rules under `game-end = rules`.
    pub fn for_each_legal(&self, f: impl FnMut(Move, &Self)) {
        if self.game_end == GameEnd::Rules && self.decided().is_some() {
            return;
        }
        self.for_each_legal_unchecked(f);
    }

    /// The legal moves (none when decided under `game-end = rules`).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_legal(|m, _| out.push(m));
        out
    }

    /// The position after a legal move picked by a linear congruential step of `state` (the
    /// random games of the unit tests), or `None` when there is none.
    #[cfg(test)]
    pub(crate) fn play_random(&self, state: &mut u64) -> Option<Self> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return None;
        }
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        Some(self.play(moves[(*state >> 33) as usize % moves.len()]))
    }

    /// The legal moves, ignoring the variant's decisive rules.
    pub fn legal_moves_unchecked(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_legal_unchecked(|m, _| out.push(m));
        out
    }

    /// The number of legal moves (perft 1).
    pub fn count_legal(&self) -> u64 {
        if self.may_expand() {
            if let Some(n) = self.count_with_expansions() {
                return n;
            }
            let mut n = 0;
            self.for_each_legal(|_, _| n += 1);
            return n;
        }
        if self.game_end == GameEnd::Rules && self.decided().is_some() {
            return 0;
        }
        self.count_moves()
    }

    /// The number of legal moves where the mover may place pieces, when the rule hooks tell
    /// which base moves may have variants
    /// ([`RuleHooksAt::expanding_moves`](crate::variant::RuleHooksAt::expanding_moves)): the
    /// base moves counted as where nothing expands, then the variants of those base moves
    /// (generated from the pieces of the kinds named or promoting) made and tested one by
    /// one. `None` when the hooks do not know.
    fn count_with_expansions(&self) -> Option<u64> {
        let (kinds, targets) = self.rule_hooks()?.expanding_moves(self)?;
        if self.game_end == GameEnd::Rules && self.decided().is_some() {
            return Some(0);
        }
        Some(self.count_moves() + self.count_variants(kinds, targets, false))
    }

    /// The legal variants, base moves left out, of the base moves that may have some (of a
    /// piece of `kinds` onto `targets`, or promoting; see
    /// [`RuleHooksAt::expanding_moves`](crate::variant::RuleHooksAt::expanding_moves)): their
    /// number, or with `replies` the sum of their numbers of legal replies.
    pub(super) fn count_variants(&self, kinds: u16, targets: Bitboard<B>, replies: bool) -> u64 {
        let v = self.variant;
        let mut sink = Variants {
            kinds,
            targets,
            replies,
            expanded: Vec::new(),
            total: 0,
        };
        let ctx = GenContext::new(self);
        let mut movers = self.kinds[self.side.index()];
        while movers != 0 {
            let k = movers.trailing_zeros() as usize;
            movers &= movers - 1;
            let named = kinds >> k & 1 != 0 && !targets.is_empty();
            if named || !v.promotion_kinds[k].is_empty() {
                for from in self.by_kind[k] & ctx.ours {
                    self.piece_moves(&mut sink, &ctx, k, from, true);
                }
            }
        }
        self.castling_and_special_moves(&mut sink, false);
        sink.total
    }

    /// The number of legal moves whatever the variant's own decision, when moves are not
    /// expanded.
    pub(super) fn count_moves(&self) -> u64 {
        let us = self.side;
        let mut legality = Legality::EMPTY;
        match self.legality_into(&mut legality) {
            true => self.bulk_count(&legality),
            false => {
                let mut pseudo = Vec::with_capacity(64);
                self.pseudo_moves(&mut pseudo);
                pseudo
                    .iter()
                    .filter(|m| !self.play(**m).royal_attacked(us))
                    .count() as u64
            }
        }
    }

    /// [`Position::count_moves`] where `l` is this position's legality, decided
    /// ([`Position::legality_into`] returned true), not in check, and its legal special moves
    /// `specials` ([`FastPathsAt::count_legal`](crate::variant::FastPathsAt::count_legal)
    /// with `l`).
    #[inline(never)]
    pub(super) fn count_with(&self, l: &Legality<B>, specials: u64) -> u64 {
        self.bulk_count_with(l, Some(specials))
    }

    /// The variant's own decision (bare King, marriage), whatever the game-end mode.
    pub fn decided(&self) -> Option<Outcome> {
        self.rule_hooks().and_then(|hooks| hooks.decided(self))
    }

    /// The ruling that has ended the game here, when the variant's own decision has under the
    /// rules' game-end mode ([`RuleHooksAt::decision_ruling`](crate::variant::RuleHooksAt::decision_ruling)).
    pub fn decided_by(&self) -> Option<&'static str> {
        if self.game_end != GameEnd::Rules || self.decided().is_none() {
            return None;
        }
        self.rule_hooks().and_then(|hooks| hooks.decision_ruling())
    }

    /// The outcome when the game is over under the rules' game-end mode; `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.game_end == GameEnd::Rules
            && let Some(o) = self.decided()
        {
            return Some(o);
        }
        let mut any = false;
        self.for_each_legal_unchecked(|_, _| any = true);
        if any {
            None
        } else if self.in_check() {
            Some(Outcome::win(self.side.flip()))
        } else {
            Some(Outcome::Draw)
        }
    }

    // ----- make move -----

    /// Pushes onto `out` the moves `m` (a pseudo-legal base move, `after` the position it
    /// leads to) stands for: itself and the variants the rules add to it (Cerimon's
    /// resurrections), asked only when the mover holds a piece that may be placed.
    #[inline]
    pub fn expand(&self, after: &Self, m: Move, out: &mut Vec<Move>) {
        match self.rule_hooks() {
            Some(hooks) if self.may_expand() => hooks.expand(self, after, m, out),
            _ => out.push(m),
        }
    }

    /// Whether moves may have variants here: the variant expands moves and the side to move
    /// holds a piece of a kind its expansions may place.
    #[inline(always)]
    pub(super) fn may_expand(&self) -> bool {
        let v = self.variant;
        if !v.expands {
            return false;
        }
        let hand = &self.hand[self.side.index()];
        let mut kinds = v.placeable_kinds;
        while kinds != 0 {
            if hand[kinds.trailing_zeros() as usize] != 0 {
                return true;
            }
            kinds &= kinds - 1;
        }
        false
    }
}

/// A move generator's sink making each legal move as it comes and handing it, with the position
/// it leads to, to `f` ([`Position::for_each_legal_unchecked`] where moves do not expand).
struct Legal<'a, B: Width, F> {
    /// What the side to move's legality is known by, if anything.
    legality: Option<&'a Legality<B>>,
    f: F,
}

impl<B: Width, F: FnMut(Move, &Position<B>)> MoveSink<B> for Legal<'_, B, F> {
    fn legality(&self) -> Option<&Legality<B>> {
        self.legality
    }
    fn add_legal(&mut self, pos: &Position<B>, m: Move) {
        let mut after = *pos;
        after.make(m);
        (self.f)(m, &after);
    }
    #[inline(always)]
    fn add(&mut self, pos: &Position<B>, m: Move) {
        let known = self.legality.and_then(|l| pos.quick_legal(&m, l));
        if known == Some(false) {
            return;
        }
        // Made in place: a returned position costs a second copy.
        let mut after = *pos;
        after.make(m);
        if known == Some(true) || !after.royal_attacked(pos.side) {
            (self.f)(m, &after);
        }
    }
}

/// A move generator's sink counting the legal variants of the base moves of a piece of
/// `kinds` onto `targets` and of the promotions, the base moves themselves left out; with
/// `replies`, the legal replies after each.
struct Variants<B: Width> {
    kinds: u16,
    targets: Bitboard<B>,
    replies: bool,
    expanded: Vec<Move>,
    total: u64,
}

impl<B: Width> MoveSink<B> for Variants<B> {
    fn add(&mut self, pos: &Position<B>, m: Move) {
        if m.promotion == 0 {
            let named = pos
                .piece_at(m.from)
                .is_some_and(|p| self.kinds >> p.kind & 1 != 0);
            if !named || !self.targets.has(m.to) {
                return;
            }
        }
        let after = pos.play(m);
        self.expanded.clear();
        pos.expand(&after, m, &mut self.expanded);
        for &e in &self.expanded {
            if e == m {
                continue;
            }
            let next = pos.play(e);
            if !next.royal_attacked(pos.side) {
                self.total += if self.replies { next.count_legal() } else { 1 };
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
        let mut wanted = self.targets;
        if !promotions.is_empty() {
            wanted |= last_rank;
        }
        for sq in to & wanted {
            add_promoting(self, pos, Move::new(from, sq), promotions, last_rank);
        }
    }
}

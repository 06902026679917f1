//! The win by marriage shared by Bachelor Kamil (BK-6, with taming) and Pink Panther (PP-9).
//!
//! A side is married when its King stands on one of the eight squares next to one of its
//! partners. Under `medinese = win` a position whose side not to move is married is over.
//! Under `continue` the game goes on when exactly one partner is adjacent and the side to move
//! can legally capture it (or, for the Pink Panther, can legally rob the King), and a position
//! whose side to move is married and not in check is that side's win.

use crate::geometry::{Bitboard, Square};
use crate::position::{Position, flags};
use crate::variant::{Colour, Outcome, SpecError, Variant, Width};

/// Which kinds marry.
pub struct Marriage {
    /// The King kind.
    pub king: u8,
    /// Partner kinds.
    pub partners: Vec<u8>,
    /// Pink Panther: a legal move robbing the King (a special move over its square) also lets
    /// the game go on.
    pub robbing_saves: bool,
}

impl Marriage {
    /// The King spelled `king` marrying the pieces spelled `partners`, looked up in `v`.
    ///
    /// # Errors
    /// A letter the variant does not declare.
    pub fn of(
        v: &Variant,
        king: &str,
        partners: &[&str],
        robbing_saves: bool,
    ) -> Result<Marriage, SpecError> {
        Ok(Marriage {
            king: v.kind(king)?,
            partners: partners
                .iter()
                .map(|p| v.kind(p))
                .collect::<Result<_, _>>()?,
            robbing_saves,
        })
    }
}

/// Whether two squares touch (one of the eight squares around each other).
fn touch(a: Square, b: Square) -> bool {
    a != b && a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1
}

/// Squares of `c`'s partners next to its King (empty when not married).
pub fn adjacent_partners<B: Width>(pos: &Position<B>, m: &Marriage, c: Colour) -> Bitboard<B> {
    let mut found = Bitboard::NONE;
    for king in pos.pieces_of(m.king, c) {
        for &p in &m.partners {
            found |= pos.pieces_of(p, c).filter_squares(|q| touch(q, king));
        }
    }
    found
}

/// Whether a partner of either side stands on the board: without one, no side is married.
pub fn partner_on_board<B: Width>(pos: &Position<B>, m: &Marriage) -> bool {
    m.partners.iter().any(|&p| {
        Colour::BOTH
            .iter()
            .any(|&c| !pos.pieces_of(p, c).is_empty())
    })
}

/// Whether some piece of the side to move may promote to a partner by its next move: a piece
/// of a kind promoting to one, whose leaps may end on its last rank or which slides, rides or
/// has special leaps (those are not looked into).
pub fn may_promote_to_partner<B: Width>(pos: &Position<B>, m: &Marriage) -> bool {
    let v = pos.variant();
    let us = pos.side();
    let last_rank = v.last_rank_bb[us.index()];
    (0..v.spec.pieces.len() as u8).any(|k| {
        if !v.promotion_kinds[k as usize]
            .iter()
            .any(|p| m.partners.contains(p))
        {
            return false;
        }
        pos.pieces_of(k, us).any(|from| {
            let sm = &v.slot_moves[Variant::slot(k, us, from)];
            sm.irregular
                || sm.slides() != 0
                || (sm.leap_quiet | sm.leap_capture).intersects(last_rank)
        })
    })
}

/// The decision of BK-6 / PP-9 for `pos` (asked under `game-end = rules`). Asked at every node,
/// so it looks at the King and partner squares first and at the option and the legal moves
/// only when a side is married.
pub fn marriage_decision<B: Width>(pos: &Position<B>, m: &Marriage) -> Option<Outcome> {
    let s = pos.side();
    let o = s.flip();
    let continue_rule = || pos.rules().is("medinese", "continue");
    let theirs = adjacent_partners(pos, m, o);
    if !theirs.is_empty() {
        if !continue_rule() {
            return Some(Outcome::win(o));
        }
        let single = theirs.count() == 1;
        let partner = theirs.first().expect("non-empty");
        let king_sq = pos.pieces_of(m.king, o).first();
        let mut saved = false;
        pos.for_each_legal_unchecked(|mv, _| {
            let captures = single && mv.has_moving_part() && mv.to == partner;
            let robs = m.robbing_saves
                && mv.flags & flags::SPECIAL != 0
                && Some(mv.special_square) == king_sq;
            saved |= captures || robs;
        });
        if !saved {
            return Some(Outcome::win(o));
        }
    }
    if !adjacent_partners(pos, m, s).is_empty() && continue_rule() && !pos.in_check() {
        return Some(Outcome::win(s));
    }
    None
}

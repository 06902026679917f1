//! The win by marriage shared by Bachelor Kamil (BK-6, with taming) and Pink Panther (PP-9).
//!
//! A side is married when its King stands on one of the eight squares next to one of its
//! partners. Under `medinese = win` a position whose side not to move is married is over.
//! Under `continue` the game goes on when exactly one partner is adjacent and the side to move
//! can legally capture it (or, for the Pink Panther, can legally rob the King), and a position
//! whose side to move is married and not in check is that side's win.

use crate::geometry::Bitboard;
use crate::position::{Position, flags};
use crate::variant::{Colour, Outcome};

/// Which kinds marry.
pub struct Marriage<'a> {
    /// The King kind.
    pub king: u8,
    /// Partner kinds.
    pub partners: &'a [u8],
    /// Pink Panther: a legal move robbing the King also lets the game go on.
    pub robbing_saves: bool,
}

fn neighbours(pos: &Position, sq: crate::geometry::Square) -> Bitboard {
    let g = &pos.variant().geometry;
    let mut bb = Bitboard::EMPTY;
    for dx in -1..=1 {
        for dy in -1..=1 {
            if (dx, dy) != (0, 0)
                && let Some(s) = g.offset(sq, dx, dy)
            {
                bb.set(s);
            }
        }
    }
    bb
}

/// Squares of `c`'s partners next to its King (empty when not married).
pub fn adjacent_partners(pos: &Position, m: &Marriage, c: Colour) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    for king in pos.pieces_of(m.king, c) {
        let near = neighbours(pos, king);
        for &p in m.partners {
            found |= near & pos.pieces_of(p, c);
        }
    }
    found
}

/// The decision of BK-6 / PP-9 for `pos` (asked under `game-end = rules`).
pub fn marriage_decision(pos: &Position, m: &Marriage) -> Option<Outcome> {
    let s = pos.side();
    let o = s.flip();
    let continue_rule = pos.rules().is("medinese", "continue");
    let theirs = adjacent_partners(pos, m, o);
    if !theirs.is_empty() {
        if !continue_rule {
            return Some(Outcome::win(o));
        }
        let legal = pos.legal_moves_unchecked();
        let single = theirs.count() == 1;
        let partner = theirs.first().expect("non-empty");
        let captures = single
            && legal
                .iter()
                .any(|mv| mv.has_moving_part() && mv.to == partner);
        let king_sq = pos.pieces_of(m.king, o).first();
        let robs = m.robbing_saves
            && legal
                .iter()
                .any(|mv| mv.flags & flags::ACQUIRE != 0 && Some(mv.via) == king_sq);
        if !captures && !robs {
            return Some(Outcome::win(o));
        }
    }
    if continue_rule && !adjacent_partners(pos, m, s).is_empty() && !pos.in_check() {
        return Some(Outcome::win(s));
    }
    None
}

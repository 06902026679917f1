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

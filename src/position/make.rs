//! Make-move: a move played on a copy of the position.

use super::MAX_COUNTER;
use super::Position;
use super::moves::{Move, Piece, flags};
use crate::geometry::Square;
use crate::variant::{HandKind, Width};

impl<B: Width> Position<B> {
    /// The position after `m`, which must come from this position's generator.
    #[inline(always)]
    pub fn play(&self, m: Move) -> Self {
        let mut next = *self;
        next.make(m);
        next
    }

    /// Plays `m` on this position (see [`Position::play`]).
    pub(super) fn make(&mut self, m: Move) {
        let v = self.variant;
        let us = self.side;
        let ep_victim = self.ep_victim;
        let next = self;
        next.ep = None;
        next.ep_victim = None;
        next.halfmove = (next.halfmove + 1).min(MAX_COUNTER);
        if m.has_moving_part() {
            let mut piece = next.take(m.from).expect("a move starts on a piece");
            if v.pawn_kinds >> piece.kind & 1 != 0 {
                next.halfmove = 0;
            }
            if m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) != 0 {
                let wing = if m.flags & flags::CASTLE_KING != 0 {
                    0
                } else {
                    1
                };
                let c = next.rules.castles[us.index()][wing].expect("castling move has a spec");
                let rook = next.take(c.rook_from).expect("castling Rook present");
                next.put(c.king_to, piece);
                next.put(c.rook_to, rook);
            } else {
                let victim_sq = if m.flags & flags::EN_PASSANT != 0 {
                    ep_victim.expect("en passant needs a victim")
                } else {
                    m.to
                };
                if let Some(captured) = next.take(victim_sq) {
                    next.halfmove = 0;
                    if v.spec.hand == HandKind::LostPieces {
                        next.add_to_hand(captured.colour, captured.kind, 1);
                    }
                }
                if m.flags & flags::DOUBLE_STEP != 0 {
                    next.ep = Some(Square((m.from.0 + m.to.0) / 2));
                    next.ep_victim = Some(m.to);
                }
                if m.flags & flags::SPECIAL != 0 {
                    let special = next.special_moves().expect("a special move has its hooks");
                    piece = special.make(next, m, piece);
                }
                if m.promotion != 0 {
                    piece.kind = m.promotion - 1;
                }
                next.put(m.to, piece);
            }
            // Castling rights: a King or Rook leaving or being captured on its square.
            if next.castling != 0 {
                let keep = &next.rules.castle_keep;
                next.castling &= keep[m.from.index()] & keep[m.to.index()];
            }
        }
        // Placements fill the list from its start.
        if m.placements[0].kind != 0 {
            for (kind, sq) in m.placement_list() {
                next.put(sq, Piece { kind, colour: us });
                next.add_to_hand(us, kind, -1);
            }
        }
        // Without a branch: it alternates at every ply.
        next.fullmove = (next.fullmove + us.index() as u32).min(MAX_COUNTER);
        next.side = us.flip();
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::{parse_position, play_moves, to_fen};
    use crate::variants;

    #[test]
    fn move_counters_stop_at_the_largest_value_fen_accepts() {
        // Found by the `movegen` fuzz target: a clock at 99999 went to 100000, which the
        // printed FEN could not be read back with.
        let rules = variants::rules("chess").expect("chess");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 99999 99999";
        let pos = parse_position(rules, start).expect("legal position");
        let after = play_moves(&pos, "g8f6").expect("legal move");
        let fen = to_fen(&after);
        assert!(fen.ends_with(" 99999 99999"), "{fen}");
        parse_position(rules, &fen).expect("the position reached parses back");
    }
}

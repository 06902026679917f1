//! Exact keys of positions (what a work unit is) and seeded hash keys (what lets a unit be
//! counted twice with independent transposition tables).

use crate::geometry::SQUARE_COUNT;
use crate::notation::to_fen;
use crate::position::{Position, flags};
use crate::variant::{Colour, MAX_KINDS, Width, Wing};

/// The exact key of a position: its FEN without the move counters (which change no count, as
/// perft ignores the 50-move rule, GE-1), with the en-passant square kept only when an en
/// passant capture is legal (otherwise the square changes nothing below the position).
///
/// Everything else that decides the moves is in the FEN: board, the jewel (`*`, `+X`), pieces
/// in hand (`[...]`), side to move and castling rights; the keys are compared as text, never by
/// a hash alone. Two positions with the same key have the same perft at every depth, which
/// `tests/deep.rs` checks along random games of every variant.
pub fn exact_key(pos: &Position) -> String {
    let fen = to_fen(pos);
    let fields: Vec<&str> = fen.split(' ').collect();
    let ep = match fields.get(3) {
        Some(&sq) if sq != "-" && en_passant_legal(pos) => sq,
        _ => "-",
    };
    format!(
        "{} {} {} {ep}",
        fields.first().copied().unwrap_or(""),
        fields.get(1).copied().unwrap_or(""),
        fields.get(2).copied().unwrap_or("")
    )
}

fn en_passant_legal(pos: &Position) -> bool {
    let mut any = false;
    pos.for_each_legal(|m, _| any |= m.flags & flags::EN_PASSANT != 0);
    any
}

/// Zobrist keys drawn from a seed: the same inputs as [`Position::zobrist`] (pieces, neutral
/// squares, hands, side, castling rights, en-passant square) with other random numbers, so a
/// collision under one seed is unrelated to a collision under another.
pub struct SeededKeys {
    piece: Vec<[u64; SQUARE_COUNT]>,
    neutral: [u64; SQUARE_COUNT],
    side: u64,
    castling: [[u64; 2]; 2],
    ep: [u64; SQUARE_COUNT],
    hand: [[[u64; 64]; MAX_KINDS]; 2],
}

impl SeededKeys {
    /// The keys of `seed` (splitmix64 from the seed: the same keys on every machine).
    pub fn new(seed: u64) -> SeededKeys {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut keys = SeededKeys {
            piece: vec![[0; SQUARE_COUNT]; 2 * MAX_KINDS],
            neutral: [0; SQUARE_COUNT],
            side: next(),
            castling: [[0; 2]; 2],
            ep: [0; SQUARE_COUNT],
            hand: [[[0; 64]; MAX_KINDS]; 2],
        };
        for row in keys.piece.iter_mut() {
            row.iter_mut().for_each(|v| *v = next());
        }
        keys.neutral.iter_mut().for_each(|v| *v = next());
        keys.castling.iter_mut().flatten().for_each(|v| *v = next());
        keys.ep.iter_mut().for_each(|v| *v = next());
        keys.hand
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|v| *v = next());
        keys
    }

    /// The key of `pos` under these keys.
    pub fn key<B: Width>(&self, pos: &Position<B>) -> u64 {
        let mut key = if pos.side() == Colour::Black {
            self.side
        } else {
            0
        };
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                key ^= self.piece[p.colour.index() * MAX_KINDS + p.kind as usize][sq.index()];
            }
        }
        for sq in pos.neutral() {
            key ^= self.neutral[sq.index()];
        }
        for colour in Colour::BOTH {
            for wing in [Wing::King, Wing::Queen] {
                if pos.has_castling(colour, wing) {
                    key ^= self.castling[colour.index()][wing as usize];
                }
            }
            for kind in 0..MAX_KINDS {
                let n = pos.hand_count(colour, kind as u8) as usize;
                if n > 0 {
                    key ^= self.hand[colour.index()][kind][n.min(63)];
                }
            }
        }
        if let Some(ep) = pos.ep_square() {
            key ^= self.ep[ep.index()];
        }
        key
    }
}

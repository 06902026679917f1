//! The position's 64-bit Zobrist key, for the perft transposition table.

use super::Position;
use crate::geometry::SQUARE_COUNT;
use crate::variant::{Colour, MAX_KINDS, Width};

impl<B: Width> Position<B> {
    /// A 64-bit Zobrist key of everything that decides the moves and their future: pieces,
    /// neutral squares, hands, side, castling rights and the en-passant square (the rules are
    /// the same for every position of one perft run).
    pub fn zobrist(&self) -> u64 {
        let z = zobrist_table();
        let mut key = if self.side == Colour::Black {
            z.side
        } else {
            0
        };
        for sq in self.occupied() {
            key ^= z.piece[self.board[sq.index()] as usize][sq.index()];
        }
        for sq in self.neutral {
            key ^= z.piece[0][sq.index()];
        }
        key ^= z.castling[self.castling as usize & 15];
        if let Some(ep) = self.ep {
            key ^= z.ep[ep.index()];
        }
        for c in 0..2 {
            for k in 0..MAX_KINDS {
                let n = self.hand[c][k] as usize;
                if n > 0 {
                    key ^= z.hand[c][k][n.min(63)];
                }
            }
        }
        key
    }
}

struct ZobristTable {
    piece: Vec<[u64; SQUARE_COUNT]>,
    side: u64,
    castling: [u64; 16],
    ep: [u64; SQUARE_COUNT],
    hand: [[[u64; 64]; MAX_KINDS]; 2],
}

fn zobrist_table() -> &'static ZobristTable {
    static TABLE: std::sync::OnceLock<ZobristTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // splitmix64: fixed seed, so keys are the same in every run.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut t = ZobristTable {
            piece: vec![[0; SQUARE_COUNT]; 64],
            side: next(),
            castling: [0; 16],
            ep: [0; SQUARE_COUNT],
            hand: [[[0; 64]; MAX_KINDS]; 2],
        };
        for row in t.piece.iter_mut() {
            row.iter_mut().for_each(|v| *v = next());
        }
        t.castling.iter_mut().for_each(|v| *v = next());
        t.ep.iter_mut().for_each(|v| *v = next());
        for side in t.hand.iter_mut() {
            for kind in side.iter_mut() {
                kind.iter_mut().for_each(|v| *v = next());
            }
        }
        t
    })
}

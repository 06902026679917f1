//! Slides along whole unit lines by table lookup: a file, a rank, a diagonal or an
//! anti-diagonal through a square, both directions at once, when a variant slides along both
//! directions of the line.
//!
//! Squares are numbered file × 8 + rank, so the squares of a line, whatever its kind, gather into
//! one byte (ten bits for a rank of a 10-file board) with a shift, a mask and at most one
//! multiplication ("kindergarten" bitboards): a file is one byte already, a rank's squares are
//! eight bits apart and one multiplication collects them, and a diagonal's squares have one
//! rank each, so the bytes of the files add up without carries. A table of the reach of a slider
//! on a line of at most ten squares, per position and occupancy, then gives both directions'
//! squares up to and including their first blockers, which the reverse of the gathering puts back.
//! The lines are data: [`line_kind`] sorts a variant's direction vectors into them, and any
//! other direction keeps the walk along its ray.

use crate::geometry::{Bits, SPREAD, Square};

/// Kinds of unit line: a file (steps (0, ±1)), a rank ((±1, 0)), a diagonal (±(1, 1)) and an
/// anti-diagonal (±(1, −1)), in the order of the masks of [`LineBits::masks`].
pub const LINE_KINDS: usize = 4;

/// Entries of the per-square line masks: every square index a [`Bits`] can hold.
pub const LINE_SQUARES: usize = 128;

/// The kind of unit line (see [`LINE_KINDS`]) a direction vector runs along, if any.
pub fn line_kind(dx: i8, dy: i8) -> Option<usize> {
    match (dx, dy) {
        (0, 1) | (0, -1) => Some(0),
        (1, 0) | (-1, 0) => Some(1),
        (1, 1) | (-1, -1) => Some(2),
        (1, -1) | (-1, 1) => Some(3),
        _ => None,
    }
}

/// The squares of a line of `len` squares a slider on `pos` reaches when `occ` are occupied:
/// both ways, up to and including the first occupied square.
const fn reach_on_line(pos: usize, occ: usize, len: usize) -> u16 {
    let mut out = 0u16;
    let mut i = pos + 1;
    while i < len {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos;
    while i > 0 {
        i -= 1;
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
    }
    out
}

/// `REACH8[pos][occ]`: [`reach_on_line`] on a line of eight squares (a file, a diagonal, a rank
/// of at most eight files).
static REACH8: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut occ = 0;
        while occ < 256 {
            t[pos][occ] = reach_on_line(pos, occ, 8) as u8;
            occ += 1;
        }
        pos += 1;
    }
    t
};

/// `REACH10[pos][occ]`: [`reach_on_line`] on a line of ten squares (a rank of a board of up to
/// ten files); rows from 10 up are never read (they let a file index skip its bounds check).
static REACH10: [[u16; 1024]; 16] = {
    let mut t = [[0u16; 1024]; 16];
    let mut pos = 0;
    while pos < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[pos][occ] = reach_on_line(pos, occ, 10);
            occ += 1;
        }
        pos += 1;
    }
    t
};

/// Bit 8 × f of a set, for the files f of a rank moved to rank 0.
const RANK_0: u64 = 0x0101_0101_0101_0101;
/// Multiplying the squares of rank 0 of files 0 to 7 by this puts file f on bit 56 + f.
const RANK_GATHER: u64 = 0x0102_0408_1020_4080;

/// The integers a set of squares is kept in, with the lookups of whole unit lines.
pub trait LineBits: Bits {
    /// The line masks kept in `Self`: per square (index below [`LINE_SQUARES`]), the squares of
    /// each kind of line through it on the board, the square itself left out.
    fn masks(lines: &LineMasks) -> &[[Self; LINE_KINDS]; LINE_SQUARES];

    /// The squares the lines of `kinds` (bits, see [`LINE_KINDS`]) through `sq` reach, both
    /// ways, each up to and including its first square of `occ`; `masks` are the line masks of
    /// `sq`.
    #[inline(always)]
    fn along_lines(kinds: u8, sq: Square, occ: Self, masks: &[Self; LINE_KINDS]) -> Self {
        let mut out = Self::ZERO;
        if kinds & 1 != 0 {
            out |= Self::along_file(sq, occ) & masks[0];
        }
        if kinds & 2 != 0 {
            out |= Self::along_rank(sq, occ) & masks[1];
        }
        if kinds & 4 != 0 {
            out |= Self::along_diagonal(sq, occ, masks[2]);
        }
        if kinds & 8 != 0 {
            out |= Self::along_diagonal(sq, occ, masks[3]);
        }
        out
    }

    /// The file through `sq`, before the mask (it may spill into the next file).
    fn along_file(sq: Square, occ: Self) -> Self;
    /// The rank through `sq`, before the mask (it may hold files off the board).
    fn along_rank(sq: Square, occ: Self) -> Self;
    /// The diagonal or anti-diagonal `line` (a mask) through `sq`, masked.
    fn along_diagonal(sq: Square, occ: Self, line: Self) -> Self;
}

impl LineBits for u64 {
    #[inline(always)]
    fn masks(lines: &LineMasks) -> &[[u64; LINE_KINDS]; LINE_SQUARES] {
        &lines.narrow
    }
    #[inline(always)]
    fn along_file(sq: Square, occ: u64) -> u64 {
        let shift = u32::from(sq.0) & 56;
        let reach = REACH8[(sq.0 & 7) as usize][(occ >> shift) as u8 as usize];
        u64::from(reach) << shift
    }
    #[inline(always)]
    fn along_rank(sq: Square, occ: u64) -> u64 {
        let rank = u32::from(sq.0) & 7;
        let files = (((occ >> rank) & RANK_0).wrapping_mul(RANK_GATHER) >> 56) as usize;
        SPREAD[REACH8[(sq.0 >> 3 & 7) as usize][files] as usize] << rank
    }
    #[inline(always)]
    fn along_diagonal(sq: Square, occ: u64, line: u64) -> u64 {
        let ranks = ((occ & line).wrapping_mul(RANK_0) >> 56) as usize;
        u64::from(REACH8[(sq.0 & 7) as usize][ranks]).wrapping_mul(RANK_0) & line
    }
}

impl LineBits for u128 {
    #[inline(always)]
    fn masks(lines: &LineMasks) -> &[[u128; LINE_KINDS]; LINE_SQUARES] {
        &lines.wide
    }
    #[inline(always)]
    fn along_file(sq: Square, occ: u128) -> u128 {
        let shift = u32::from(sq.0) & 120;
        let reach = REACH8[(sq.0 & 7) as usize][(occ >> shift) as u8 as usize];
        u128::from(reach) << shift
    }
    #[inline(always)]
    fn along_rank(sq: Square, occ: u128) -> u128 {
        let rank = u32::from(sq.0) & 7;
        let low = (occ as u64 >> rank) & RANK_0;
        // Files 8 and 9 on bits 0 and 8 of the high half.
        let high = ((occ >> 64) as u64 >> rank) & 0x101;
        let files = (low.wrapping_mul(RANK_GATHER) >> 56) as usize
            | (((high | high >> 7) & 3) as usize) << 8;
        let reach = REACH10[(sq.0 >> 3 & 15) as usize][files];
        let low = SPREAD[(reach & 0xff) as usize] << rank;
        let high = SPREAD[(reach >> 8) as usize] << rank;
        u128::from(high) << 64 | u128::from(low)
    }
    #[inline(always)]
    fn along_diagonal(sq: Square, occ: u128, line: u128) -> u128 {
        let on = occ & line;
        // One square per rank: the two halves' bytes fold without overlap.
        let folded = on as u64 | (on >> 64) as u64;
        let ranks = (folded.wrapping_mul(RANK_0) >> 56) as usize;
        let reach = u64::from(REACH8[(sq.0 & 7) as usize][ranks]).wrapping_mul(RANK_0);
        (u128::from(reach) << 64 | u128::from(reach)) & line
    }
}

/// Per square, the unit lines through it (see [`LineBits::masks`]), kept in both widths.
pub struct LineMasks {
    narrow: Box<[[u64; LINE_KINDS]; LINE_SQUARES]>,
    wide: Box<[[u128; LINE_KINDS]; LINE_SQUARES]>,
}

impl LineMasks {
    /// The masks from the lines of each kind through each square (the square left out).
    pub fn new(lines: impl Fn(Square, usize) -> u128) -> LineMasks {
        let mut narrow = Box::new([[0u64; LINE_KINDS]; LINE_SQUARES]);
        let mut wide = Box::new([[0u128; LINE_KINDS]; LINE_SQUARES]);
        for sq in 0..crate::geometry::SQUARE_COUNT {
            for kind in 0..LINE_KINDS {
                let line = lines(Square(sq as u8), kind);
                wide[sq][kind] = line;
                narrow[sq][kind] = line as u64;
            }
        }
        LineMasks { narrow, wide }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_stops_on_first_blockers() {
        assert_eq!(reach_on_line(3, 0, 8), 0b1111_0111);
        assert_eq!(reach_on_line(3, 0b0010_0010, 8), 0b0011_0110);
        assert_eq!(reach_on_line(0, 0b1, 10), 0b11_1111_1110);
        assert_eq!(reach_on_line(9, 0b1_0000_0000, 10), 0b1_0000_0000);
    }

    #[test]
    fn kinds_of_unit_vectors() {
        assert_eq!(line_kind(0, -1), Some(0));
        assert_eq!(line_kind(-1, 0), Some(1));
        assert_eq!(line_kind(-1, -1), Some(2));
        assert_eq!(line_kind(-1, 1), Some(3));
        assert_eq!(line_kind(1, 2), None);
        assert_eq!(line_kind(2, 2), None);
    }
}

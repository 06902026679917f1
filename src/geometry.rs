//! Squares, bitboards and board shapes.
//!
//! Squares are numbered file by file: square index = file * 8 + rank. Every board up to 10 files
//! by 8 ranks then fits in one `u128`, and every board of at most 8 files (chess, Cerimon and
//! Plutonian 8×8, Pink Panther 7×7) lies in its low 64 bits, which leaves room for 64-bit masks
//! on those boards. Each variant masks its own rectangle, so one set of types and tables serves
//! them all, Bachelor Kamil (9×8) and Silver Elephant (10×8) included.

use std::fmt;

/// Squares per file in the internal numbering, whatever the board's real height.
pub const STRIDE: i32 = 8;
/// The widest board supported.
pub const MAX_FILES: u8 = 10;
/// The tallest board supported.
pub const MAX_RANKS: u8 = 8;
/// Number of square indices (some of them off any given board).
pub const SQUARE_COUNT: usize = 80;

/// How far apart in index two squares `dx` files and `dy` ranks apart are.
pub const fn index_delta(dx: i32, dy: i32) -> i32 {
    dx * STRIDE + dy
}

/// A square, numbered file * 8 + rank (both from zero).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(pub u8);

impl Square {
    /// The square on `file` and `rank`, both counted from zero.
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(file * STRIDE as u8 + rank)
    }
    /// Zero-based file.
    pub const fn file(self) -> u8 {
        self.0 / STRIDE as u8
    }
    /// Zero-based rank.
    pub const fn rank(self) -> u8 {
        self.0 % STRIDE as u8
    }
    /// The index into per-square arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Whether the square is light: a1 is dark, (file + rank) odd is light (RULES.md).
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }
    /// The bitboard holding this square alone.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// `SPREAD[bits]`: bit `f` of `bits` moved to bit `8 * f`, the rank-0 square of file `f`.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut f = 0;
        while f < 8 {
            if bits >> f & 1 != 0 {
                t[bits] |= 1 << (f * STRIDE as usize);
            }
            f += 1;
        }
        bits += 1;
    }
    t
};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether no square is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether `sq` is in the set.
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }
    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Adds a square.
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.0;
    }
    /// Removes a square.
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.0);
    }
    /// The lowest square, if any.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
    /// The squares for which `keep` holds.
    #[inline(always)]
    pub fn filter_squares(self, mut keep: impl FnMut(Square) -> bool) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self {
            if keep(sq) {
                out.set(sq);
            }
        }
        out
    }
    /// The squares of rank `rank` on the files of `files` (bit `f` for file `f`).
    #[inline(always)]
    pub const fn on_rank(files: u16, rank: u8) -> Bitboard {
        let low = SPREAD[(files & 0xff) as usize] as u128;
        let high = (SPREAD[(files >> 8) as usize] as u128) << 64;
        Bitboard((low | high) << rank)
    }
    /// Whether the two sets share a square.
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }
    /// Every square moved by `delta` in index (squares leaving the 128 bits are dropped; the
    /// caller keeps to squares whose destination is on the board).
    #[inline(always)]
    pub const fn shift(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(sq))
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
impl std::ops::BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}
impl std::ops::BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let squares: Vec<String> = self.into_iter().map(|s| s.to_string()).collect();
        write!(f, "Bitboard[{}]", squares.join(" "))
    }
}

/// The rectangle a variant plays on.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Number of files (a, b, ...).
    pub files: u8,
    /// Number of ranks.
    pub ranks: u8,
    /// Every square of the board.
    pub mask: Bitboard,
}

impl Geometry {
    /// A board of `files` × `ranks`.
    ///
    /// # Panics
    /// When the board is larger than 10 × 8 or empty: variant declarations are code, so this is
    /// a programming error, checked by the variant tests.
    pub fn new(files: u8, ranks: u8) -> Geometry {
        assert!((1..=MAX_FILES).contains(&files) && (1..=MAX_RANKS).contains(&ranks));
        let mut mask = Bitboard::EMPTY;
        for r in 0..ranks {
            for f in 0..files {
                mask.set(Square::new(f, r));
            }
        }
        Geometry { files, ranks, mask }
    }

    /// The square at (file, rank) when it is on this board.
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < self.files as i32 && rank < self.ranks as i32 {
            Some(Square::new(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// The square `(dx, dy)` away from `sq`, when on the board.
    pub fn offset(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square(sq.file() as i32 + dx, sq.rank() as i32 + dy)
    }

    /// Every square of the board, in index order (a1, b1, ..., then rank 2, ...).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.mask
    }

    /// Parses a square name such as `e4` or `j8` on this board.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
            return None;
        }
        let file = (bytes[0] - b'a') as i32;
        let rank_text = &text[1..];
        if !rank_text.bytes().all(|b| b.is_ascii_digit()) || rank_text.starts_with('0') {
            return None;
        }
        let rank: i32 = rank_text.parse().ok()?;
        self.square(file, rank - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_and_colours() {
        let g = Geometry::new(10, 8);
        let j8 = g.parse_square("j8").unwrap();
        assert_eq!(j8.to_string(), "j8");
        assert_eq!((j8.file(), j8.rank()), (9, 7));
        assert!(!g.parse_square("a1").unwrap().is_light());
        assert!(g.parse_square("b1").unwrap().is_light());
        assert_eq!(g.parse_square("k1"), None);
        assert_eq!(g.parse_square("a9"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a"), None);
        assert_eq!(Geometry::new(7, 7).parse_square("h1"), None);
    }

    #[test]
    fn mask_covers_rectangle_only() {
        let g = Geometry::new(7, 7);
        assert_eq!(g.mask.count(), 49);
        assert!(!g.mask.has(Square::new(7, 0)));
        assert_eq!(Geometry::new(10, 8).mask.count(), 80);
        assert_eq!(g.offset(Square::new(0, 0), -1, 0), None);
        assert_eq!(g.offset(Square::new(6, 6), 0, 0), Some(Square::new(6, 6)));
    }

    #[test]
    fn bitboard_iterates_in_order() {
        let mut b = Bitboard::EMPTY;
        b.set(Square(79));
        b.set(Square(3));
        assert_eq!(b.collect::<Vec<_>>(), vec![Square(3), Square(79)]);
        assert_eq!(b.first(), Some(Square(3)));
    }
}

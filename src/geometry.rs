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
pub(crate) static SPREAD: [u64; 256] = {
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

/// The integer a [`Bitboard`] keeps its squares in: `u128` fits every board, `u64` the boards
/// of at most 8 files (every square index below 64), on which each mask operation is one
/// instruction instead of two.
pub trait Bits:
    Copy
    + Eq
    + Default
    + std::hash::Hash
    + Send
    + Sync
    + 'static
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    /// No bit.
    const ZERO: Self;
    /// The lowest bit.
    const ONE: Self;
    /// Every bit.
    const ALL: Self;
    /// Width in bits.
    const WIDTH: u32;
    /// Number of trailing zero bits.
    fn trailing_zeros(self) -> u32;
    /// Number of leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Number of one bits.
    fn count_ones(self) -> u32;
    /// `self - 1`, wrapping.
    fn minus_one(self) -> Self;
    /// The low bits of a 128-bit set.
    fn from_wide(x: u128) -> Self;
    /// The set holding bit `n` alone (`n` below the width).
    fn bit(n: u32) -> Self;
    /// Whether bit `n` (below the width) is set.
    fn has_bit(self, n: u32) -> bool;
    /// The lowest bit's index, that bit removed; `None` when no bit is set.
    fn pop_lowest(&mut self) -> Option<u32>;
    /// `self` shifted left by `n`, below 64.
    fn shl_short(self, n: u32) -> Self;
    /// `self` shifted right by `n`, below 64.
    fn shr_short(self, n: u32) -> Self;
}

macro_rules! bits_impl {
    ($t:ty, $bit:item, $has_bit:item, $pop_lowest:item) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const ALL: Self = !0;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn minus_one(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn from_wide(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            $bit
            #[inline(always)]
            $has_bit
            #[inline(always)]
            $pop_lowest
            // A count below 64 masked as such: on 128 bits, two shifts instead of two shifts,
            // a test of bit 6 and two conditional moves.
            #[inline(always)]
            fn shl_short(self, n: u32) -> Self {
                self << (n & 63)
            }
            #[inline(always)]
            fn shr_short(self, n: u32) -> Self {
                self >> (n & 63)
            }
        }
    };
}
bits_impl!(
    u64,
    fn bit(n: u32) -> Self {
        1 << n
    },
    fn has_bit(self, n: u32) -> bool {
        self >> n & 1 != 0
    },
    fn pop_lowest(&mut self) -> Option<u32> {
        if *self == 0 {
            return None;
        }
        let n = self.trailing_zeros();
        *self &= *self - 1;
        Some(n)
    }
);
// A 128-bit shift by a variable count is two shifts, a test and two conditional moves; a bit
// is set or tested in one of the two halves instead, chosen by bit 6 of its index.
bits_impl!(
    u128,
    fn bit(n: u32) -> Self {
        let b = 1u64 << (n & 63);
        if n & 64 != 0 {
            (b as u128) << 64
        } else {
            b as u128
        }
    },
    fn has_bit(self, n: u32) -> bool {
        let half = if n & 64 != 0 {
            (self >> 64) as u64
        } else {
            self as u64
        };
        half >> (n & 63) & 1 != 0
    },
    // The low half first, then the high one: a 64-bit bit scan and clear instead of the
    // 128-bit ones (a scan of both halves and a select, a subtraction with borrow).
    fn pop_lowest(&mut self) -> Option<u32> {
        let low = *self as u64;
        let high = (*self >> 64) as u64;
        if low != 0 {
            *self = (high as u128) << 64 | (low & (low - 1)) as u128;
            Some(low.trailing_zeros())
        } else if high != 0 {
            *self = ((high & (high - 1)) as u128) << 64;
            Some(64 + high.trailing_zeros())
        } else {
            None
        }
    }
);

/// A set of squares, kept in `B` ([`Bits`]); 128 bits unless said otherwise.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<B = u128>(pub B);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The squares of rank `rank` on the files of `files` (bit `f` for file `f`).
    #[inline(always)]
    pub const fn on_rank(files: u16, rank: u8) -> Bitboard {
        // Each half shifted alone (a rank is below 8, so no bit crosses from one half to the
        // other): two 64-bit shifts instead of one by a variable count on 128 bits.
        let low = SPREAD[(files & 0xff) as usize] << rank;
        let high = SPREAD[(files >> 8) as usize] << rank;
        Bitboard(low as u128 | (high as u128) << 64)
    }
    /// The same squares kept in `B` (squares from 64 up are dropped for `u64`).
    #[inline(always)]
    pub fn to<B: Bits>(self) -> Bitboard<B> {
        Bitboard(B::from_wide(self.0))
    }
}

impl<B: Bits> Bitboard<B> {
    /// The empty set.
    pub const NONE: Self = Bitboard(B::ZERO);
    /// Every square index.
    pub const ALL: Self = Bitboard(B::ALL);

    /// The set holding `sq` alone.
    #[inline(always)]
    pub fn of(sq: Square) -> Self {
        Bitboard(B::bit(sq.0 as u32))
    }
    /// Whether no square is in the set.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == B::ZERO
    }
    /// Whether `sq` is in the set.
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        self.0.has_bit(sq.0 as u32)
    }
    /// Number of squares in the set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Adds a square.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= B::bit(sq.0 as u32);
    }
    /// Removes a square.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !B::bit(sq.0 as u32);
    }
    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
    /// The squares for which `keep` holds.
    #[inline(always)]
    pub fn filter_squares(self, mut keep: impl FnMut(Square) -> bool) -> Self {
        let mut out = Self::NONE;
        for sq in self {
            if keep(sq) {
                out.set(sq);
            }
        }
        out
    }
    /// Whether the two sets share a square.
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != B::ZERO
    }
    /// Every square moved by `delta` in index, which must lie between -63 and 63 (squares
    /// leaving the bits are dropped; the caller keeps to squares whose destination is on the
    /// board).
    #[inline(always)]
    pub fn shift(self, delta: i32) -> Self {
        debug_assert!(delta.abs() < 64);
        if delta >= 0 {
            Bitboard(self.0.shl_short(delta as u32))
        } else {
            Bitboard(self.0.shr_short((-delta) as u32))
        }
    }
}

impl<B: Bits> Iterator for Bitboard<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lowest().map(|n| Square(n as u8))
    }
}

impl<B: Bits> std::ops::BitOr for Bitboard<B> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        Bitboard(self.0 | o.0)
    }
}
impl<B: Bits> std::ops::BitAnd for Bitboard<B> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Bitboard(self.0 & o.0)
    }
}
impl<B: Bits> std::ops::Not for Bitboard<B> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}
impl<B: Bits> std::ops::BitOrAssign for Bitboard<B> {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Self) {
        self.0 |= o.0;
    }
}
impl<B: Bits> std::ops::BitAndAssign for Bitboard<B> {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Self) {
        self.0 &= o.0;
    }
}

impl<B: Bits> fmt::Debug for Bitboard<B> {
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

    /// Every square of the board, in index order (a1, a2, ..., then file b, ...).
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

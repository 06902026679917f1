//! Board diagrams: what a person looks at when two generators disagree about a position.
//!
//! A perft dispute ends in one position, and a FEN of a 10×8 board with Elephants or a 7×7 board
//! with a jewel is hard to read. This module turns a position into a [`Board`] (what stands on
//! each square, the hands, the side to move) and an [`Overlay`] (moves drawn as arrows: missing
//! ones, extra ones, a numbered path; highlighted squares), which [`svg`] draws as an SVG image
//! and [`text`] as a terminal diagram. Both outputs are byte-identical for the same input: no
//! hash-map order, integer coordinates, fixed-precision numbers.
//!
//! Moves in an overlay are move text, read here without the rules ([`move_parts`]): an engine's
//! extra move is, by definition, not a legal move of ours, and must still be drawn.

pub mod svg;
pub mod text;

use crate::geometry::Square;
use crate::notation::{FenError, parse_fen};
use crate::position::{Piece, Position, Setup};
use crate::variant::{Colour, HandKind, MAX_KINDS, Variant};

/// What stands on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// The unclaimed Pink Panther jewel (`*` in FEN).
    Jewel,
    /// A piece.
    Piece(Piece),
}

/// A position as a picture sees it: squares, hands and the side to move.
#[derive(Clone)]
pub struct Board {
    variant: &'static Variant,
    /// Rank by rank from rank 1, file by file from a: index `rank * files + file`.
    cells: Vec<Cell>,
    hand: [[u8; MAX_KINDS]; 2],
    side: Colour,
    fen: String,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("variant", &self.variant.spec.id)
            .field("fen", &self.fen)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// The board of a validated position.
    pub fn of_position(pos: &Position) -> Board {
        let variant = pos.variant();
        let (files, ranks) = (variant.spec.files, variant.spec.ranks);
        let mut cells = Vec::with_capacity(usize::from(files) * usize::from(ranks));
        for rank in 0..ranks {
            for file in 0..files {
                let sq = Square::new(file, rank);
                cells.push(match pos.piece_at(sq) {
                    Some(p) => Cell::Piece(p),
                    None if pos.neutral().has(sq) => Cell::Jewel,
                    None => Cell::Empty,
                });
            }
        }
        let mut hand = [[0; MAX_KINDS]; 2];
        for colour in Colour::BOTH {
            for (kind, count) in hand[colour.index()]
                .iter_mut()
                .enumerate()
                .take(variant.spec.pieces.len())
            {
                *count = pos.hand_count(colour, kind as u8);
            }
        }
        Board {
            variant,
            cells,
            hand,
            side: pos.side(),
            fen: crate::notation::to_fen(pos),
        }
    }

    /// The board a FEN describes, read without judging whether the position is legal (a report
    /// shows whatever position a check was about).
    ///
    /// # Errors
    /// The FEN cannot be read for this variant.
    pub fn from_fen(variant: &'static Variant, fen: &str) -> Result<Board, FenError> {
        let setup = parse_fen(variant, fen)?;
        Ok(Board::of_setup(variant, &setup, fen.trim()))
    }

    /// The board of unchecked setup data; `fen` is the text it came from.
    pub fn of_setup(variant: &'static Variant, setup: &Setup, fen: &str) -> Board {
        let (files, ranks) = (variant.spec.files, variant.spec.ranks);
        let mut cells = vec![Cell::Empty; usize::from(files) * usize::from(ranks)];
        let index =
            |sq: Square| usize::from(sq.rank()) * usize::from(files) + usize::from(sq.file());
        for &sq in &setup.neutral {
            if sq.file() < files && sq.rank() < ranks {
                cells[index(sq)] = Cell::Jewel;
            }
        }
        for &(sq, piece) in &setup.pieces {
            if sq.file() < files && sq.rank() < ranks {
                cells[index(sq)] = Cell::Piece(piece);
            }
        }
        Board {
            variant,
            cells,
            hand: setup.hand,
            side: setup.side,
            fen: fen.to_string(),
        }
    }

    /// The variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    /// Number of files.
    pub fn files(&self) -> u8 {
        self.variant.spec.files
    }
    /// Number of ranks.
    pub fn ranks(&self) -> u8 {
        self.variant.spec.ranks
    }
    /// What stands on `file`, `rank` (both from zero).
    ///
    /// # Panics
    /// A square off the board.
    pub fn cell(&self, file: u8, rank: u8) -> Cell {
        assert!(
            file < self.files() && rank < self.ranks(),
            "square off the board"
        );
        self.cells[usize::from(rank) * usize::from(self.files()) + usize::from(file)]
    }
    /// The side to move.
    pub fn side(&self) -> Colour {
        self.side
    }
    /// The FEN the board was made from.
    pub fn fen(&self) -> &str {
        &self.fen
    }
    /// Whether the hands are drawn: always for Cerimon's lost pieces (whose FEN always prints
    /// them), for Silver Elephant's pieces still to place only while there are some.
    pub fn has_hands(&self) -> bool {
        match self.variant.spec.hand {
            HandKind::None => false,
            HandKind::LostPieces => true,
            HandKind::Setup => self.hand.iter().flatten().any(|&n| n > 0),
        }
    }
    /// What a hand holds, by kind index: `(kind, count)` for every kind held.
    pub fn hand(&self, colour: Colour) -> Vec<(u8, u8)> {
        self.hand[colour.index()]
            .iter()
            .enumerate()
            .take(self.variant.spec.pieces.len())
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (k as u8, *n))
            .collect()
    }
    /// How the hand is called in this variant, for a caption.
    pub fn hand_caption(&self, colour: Colour) -> String {
        let who = crate::position::colour_name(colour);
        match self.variant.spec.hand {
            HandKind::LostPieces => format!("{who}'s lost pieces"),
            HandKind::Setup => format!("{who} to place"),
            HandKind::None => format!("{who} in hand"),
        }
    }
    /// Every piece kind on the board or in a hand, in declaration order.
    pub fn kinds_shown(&self) -> Vec<u8> {
        let mut seen = [false; MAX_KINDS];
        for cell in &self.cells {
            if let Cell::Piece(p) = cell {
                seen[usize::from(p.kind)] = true;
            }
        }
        for hand in &self.hand {
            for (kind, &n) in hand.iter().enumerate() {
                if n > 0 {
                    seen[kind] = true;
                }
            }
        }
        (0..self.variant.spec.pieces.len() as u8)
            .filter(|&k| seen[usize::from(k)])
            .collect()
    }
    /// Whether an unclaimed jewel lies on the board.
    pub fn has_jewel(&self) -> bool {
        self.cells.contains(&Cell::Jewel)
    }
}

/// How a piece kind is drawn: the letter on its disc and whether it carries the jewel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceLook {
    /// The letter on the disc (White's upper-case FEN letter, without `+`).
    pub letter: char,
    /// A Pink Panther carrier (FEN `+X`): drawn with the jewel's ring.
    pub carrier: bool,
    /// The kind's name (`Knight`, `Chatelaine`).
    pub name: &'static str,
    /// White's FEN spelling (`N`, `+R`).
    pub fen: &'static str,
}

/// How `kind` of `variant` is drawn.
pub fn look(variant: &Variant, kind: u8) -> PieceLook {
    let spec = &variant.spec.pieces[usize::from(kind)];
    PieceLook {
        letter: spec.fen.chars().last().unwrap_or('?'),
        carrier: spec.fen.starts_with('+'),
        name: spec.name,
        fen: spec.fen,
    }
}

/// The FEN spelling of a piece of a colour (`N`, `n`, `+G`, `+g`).
pub fn piece_fen(variant: &Variant, piece: Piece) -> String {
    let fen = look(variant, piece.kind).fen;
    match piece.colour {
        Colour::White => fen.to_string(),
        Colour::Black => fen.to_ascii_lowercase(),
    }
}

/// Why a move is drawn, which decides its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MarkKind {
    /// One step of the path from the root to this position, numbered from 1.
    Path(u32),
    /// The reference (or expectation) has the move, the engine does not.
    Missing,
    /// The engine has the move, the reference (or expectation) does not.
    Extra,
}

impl MarkKind {
    /// A lower-case word for attributes and legends.
    pub fn name(self) -> &'static str {
        match self {
            MarkKind::Path(_) => "path",
            MarkKind::Missing => "missing",
            MarkKind::Extra => "extra",
        }
    }
}

/// A move to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMark {
    /// Move text (`e2e4`, `e7e8q`, `N@a2`, `f1b5,N@a2`).
    pub text: String,
    /// Why it is drawn.
    pub kind: MarkKind,
}

/// Everything drawn over the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// Moves, drawn in this order.
    pub moves: Vec<MoveMark>,
    /// Squares given a highlight (the last move of a path, say).
    pub highlights: Vec<Square>,
}

impl Overlay {
    /// The overlay of a finding: the numbered path that leads to the position, its last move
    /// highlighted, and the moves one side lacks (`missing`) or has too many (`extra`).
    pub fn finding(path: &[String], missing: &[String], extra: &[String]) -> Overlay {
        let mut overlay = Overlay::default();
        for (i, mv) in path.iter().enumerate() {
            overlay.moves.push(MoveMark {
                text: mv.clone(),
                kind: MarkKind::Path(i as u32 + 1),
            });
        }
        overlay.add(missing, MarkKind::Missing);
        overlay.add(extra, MarkKind::Extra);
        overlay
    }

    /// Adds moves of one kind.
    pub fn add(&mut self, moves: &[String], kind: MarkKind) {
        for mv in moves {
            self.moves.push(MoveMark {
                text: mv.clone(),
                kind,
            });
        }
    }

    /// The moves of one kind, as text.
    pub fn texts(&self, kind: MarkKind) -> Vec<&str> {
        self.moves
            .iter()
            .filter(|m| m.kind == kind)
            .map(|m| m.text.as_str())
            .collect()
    }

    /// Whether some move has this kind (any path step for `Path(_)`).
    pub fn has(&self, kind: MarkKind) -> bool {
        self.moves.iter().any(|m| match (m.kind, kind) {
            (MarkKind::Path(_), MarkKind::Path(_)) => true,
            (a, b) => a == b,
        })
    }
}

/// One part of a move's text, as far as a picture needs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MovePart {
    /// A piece going from one square to another (castling is the King's move); `suffix` is a
    /// promotion letter.
    Step {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// The promotion letter, if any.
        suffix: Option<char>,
    },
    /// A piece put on a square from the hand (`N@b2`).
    Drop {
        /// The piece letter.
        letter: char,
        /// Where it goes.
        to: Square,
    },
}

/// A square name (`e4`) on a board of `files` × `ranks`.
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let file = file as u8 - b'a';
    let rank: u8 = chars.as_str().parse().ok()?;
    if file >= files || rank == 0 || rank > ranks || chars.as_str().starts_with('0') {
        return None;
    }
    Some(Square::new(file, rank - 1))
}

/// Reads move text into the parts a picture draws, without the rules: `None` when some part is
/// not a square pair (with an optional letter) or a placement on the board.
pub fn move_parts(text: &str, files: u8, ranks: u8) -> Option<Vec<MovePart>> {
    let mut parts = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        if let Some((letter, square)) = part.split_once('@') {
            let mut letters = letter.chars();
            let (Some(letter), None) = (letters.next(), letters.next()) else {
                return None;
            };
            if !letter.is_ascii_alphabetic() {
                return None;
            }
            parts.push(MovePart::Drop {
                letter: letter.to_ascii_uppercase(),
                to: parse_square(square, files, ranks)?,
            });
            continue;
        }
        // Two squares, each a letter and digits, then an optional promotion letter.
        if part.is_empty() || !part.is_ascii() {
            return None;
        }
        let bytes = part.as_bytes();
        let mut i = 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let from = parse_square(&part[..i], files, ranks)?;
        let rest = &part[i..];
        let mut j = 1;
        let rest_bytes = rest.as_bytes();
        while j < rest_bytes.len() && rest_bytes[j].is_ascii_digit() {
            j += 1;
        }
        if rest.is_empty() {
            return None;
        }
        let to = parse_square(&rest[..j], files, ranks)?;
        let suffix = match &rest[j..] {
            "" => None,
            s if s.len() == 1 && s.as_bytes()[0].is_ascii_alphabetic() => s.chars().next(),
            _ => return None,
        };
        parts.push(MovePart::Step { from, to, suffix });
    }
    if parts.is_empty() { None } else { Some(parts) }
}

/// The name of the square at zero-based `file`, `rank` (`a1`).
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, u32::from(rank) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn move_text_becomes_parts() {
        let sq = |t: &str| parse_square(t, 10, 8).expect("square");
        assert_eq!(
            move_parts("e2e4", 8, 8),
            Some(vec![MovePart::Step {
                from: sq("e2"),
                to: sq("e4"),
                suffix: None
            }])
        );
        assert_eq!(
            move_parts("f1b5,N@a2", 8, 8),
            Some(vec![
                MovePart::Step {
                    from: sq("f1"),
                    to: sq("b5"),
                    suffix: None
                },
                MovePart::Drop {
                    letter: 'N',
                    to: sq("a2")
                }
            ])
        );
        assert_eq!(
            move_parts("j7j8e", 10, 8),
            Some(vec![MovePart::Step {
                from: sq("j7"),
                to: sq("j8"),
                suffix: Some('e')
            }])
        );
        for bad in [
            "", "e2", "e2e9", "h1i1", "e2e4qq", "NN@a2", "@a2", "e0e4", "e02e4",
        ] {
            assert_eq!(move_parts(bad, 8, 8), None, "{bad}");
        }
    }

    #[test]
    fn a_board_reads_its_fen() {
        let v = variants::get("pink-panther").expect("variant");
        let b =
            Board::from_fen(v, "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1").expect("fen");
        assert_eq!(b.cell(3, 3), Cell::Jewel);
        assert!(matches!(b.cell(3, 0), Cell::Piece(p) if look(v, p.kind).letter == 'G'));
        assert!(b.has_jewel());
        assert!(!b.has_hands());
        let cerimon = variants::get("cerimon").expect("variant");
        let b = Board::from_fen(cerimon, "4k3/8/8/8/4N3/8/8/K7[NNr] w - - 0 1").expect("fen");
        assert!(b.has_hands());
        assert_eq!(b.hand(Colour::White).len(), 1);
        assert_eq!(b.hand(Colour::White)[0].1, 2);
        assert_eq!(b.hand(Colour::Black).len(), 1);
    }
}

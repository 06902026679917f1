//! The FEN dialect of RULES.md "Common ground": read into an unchecked [`Setup`], one function
//! per field, and written from a [`Position`].
//!
//! Reading stops at the first problem with a [`FenError`]: the field, the 1-based column and
//! the reason ([`FenReason`]). Fields are read in order: board (with the hand in `[...]`
//! after it), side, castling, en passant, halfmove clock, fullmove number; the last two may be
//! omitted.

use super::piece_text;
use crate::echo::echo;
use crate::geometry::Square;
use crate::position::{MAX_COUNTER, Piece, Position, Setup, castle_letter};
use crate::variant::{Colour, HandKind, MAX_KINDS, Variant, Wing};
use std::fmt;

/// Most characters accepted in a FEN (longer input is refused before parsing).
pub const MAX_FEN_LEN: usize = 512;
/// Most pieces of one kind and colour in hand.
pub const MAX_IN_HAND: u8 = 64;

/// A FEN field, as error messages name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The text as a whole (length, characters, number of fields).
    Fen,
    /// The piece placement.
    Board,
    /// The pieces in hand, `[...]` after the board.
    Hand,
    /// The side to move.
    Side,
    /// The castling rights.
    Castling,
    /// The en-passant square.
    EnPassant,
    /// The halfmove clock.
    Halfmove,
    /// The fullmove number.
    Fullmove,
}

impl FenField {
    /// Every field, in the order of the text.
    pub const ALL: [FenField; 8] = [
        FenField::Fen,
        FenField::Board,
        FenField::Hand,
        FenField::Side,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmove,
        FenField::Fullmove,
    ];

    /// The field's name: `fen`, `board`, `hand`, `side`, `castling`, `en-passant`, `halfmove`
    /// or `fullmove`.
    pub fn name(self) -> &'static str {
        match self {
            FenField::Fen => "fen",
            FenField::Board => "board",
            FenField::Hand => "hand",
            FenField::Side => "side",
            FenField::Castling => "castling",
            FenField::EnPassant => "en-passant",
            FenField::Halfmove => "halfmove",
            FenField::Fullmove => "fullmove",
        }
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenReason {
    /// More than [`MAX_FEN_LEN`] bytes.
    #[error("longer than {MAX_FEN_LEN} characters")]
    TooLong,
    /// A character outside printable ASCII (tabs are blanks).
    #[error("unexpected character {0:?}")]
    Character(char),
    /// Nothing but blanks.
    #[error("empty FEN")]
    Empty,
    /// Only the board.
    #[error("missing side to move (w or b)")]
    MissingSide,
    /// The castling or en-passant field left out: only the two counters may be (RULES.md,
    /// "Common ground"), so a FEN cut short is not read as one without castling rights.
    #[error("missing (write `-` for none; only the two move counters may be left out)")]
    MissingField,
    /// A seventh field.
    #[error("unexpected extra field `{0}`")]
    ExtraField(String),
    /// Another number of ranks than the board has.
    #[error("{found} ranks, this board has {expected}")]
    RankCount {
        /// Ranks given.
        found: usize,
        /// Ranks of the board.
        expected: u8,
    },
    /// An empty-square count of 0 or with a leading 0.
    #[error("bad empty-square count `{0}`")]
    EmptyCount(String),
    /// A rank running past the last file.
    #[error("rank {rank} has more than {files} files")]
    RankTooLong {
        /// 1-based rank.
        rank: usize,
        /// Files of the board.
        files: u8,
    },
    /// A rank ending before the last file.
    #[error("rank {rank} has {found} files, expected {expected}")]
    RankFiles {
        /// 1-based rank.
        rank: usize,
        /// Files given.
        found: usize,
        /// Files of the board.
        expected: u8,
    },
    /// `*` in a variant without the neutral piece.
    #[error("`*` is not a piece of {0}")]
    NoNeutral(&'static str),
    /// `+` without a letter after it.
    #[error("`+` must be followed by a piece letter")]
    PlusWithoutLetter,
    /// A character that is no piece, digit, `*` or `+` on the board.
    #[error("unexpected character `{0}`")]
    BoardCharacter(char),
    /// A piece spelling the variant does not have.
    #[error("{} is not a piece of {variant}", echo(.spelling))]
    UnknownPiece {
        /// The spelling (`X`, `+x`).
        spelling: String,
        /// The variant's id.
        variant: &'static str,
    },
    /// `[` without `]` at the end of the board field.
    #[error("hand field `[` is not closed by `]`")]
    HandNotClosed,
    /// Pieces in hand in a variant without a hand.
    #[error("{0} has no pieces in hand")]
    NoHand(&'static str),
    /// A character that is not a letter in the hand.
    #[error("unexpected character `{0}` in hand")]
    HandCharacter(char),
    /// More than [`MAX_IN_HAND`] pieces of one kind and colour in hand.
    #[error("more than 64 pieces of one kind in hand")]
    HandFull,
    /// A side other than `w` or `b`.
    #[error("expected w or b, found `{0}`")]
    Side(String),
    /// A castling letter other than `K`, `Q`, `k`, `q`.
    #[error("expected K, Q, k, q or -, found `{0}`")]
    CastlingLetter(char),
    /// A castling right given twice.
    #[error("`{0}` given twice")]
    CastlingTwice(char),
    /// An en-passant square off the board.
    #[error("`{0}` is not a square of this board")]
    NotASquare(String),
    /// A counter that is not a number up to [`MAX_COUNTER`].
    #[error("expected a number below 100000, found `{0}`")]
    Counter(String),
    /// A fullmove number of 0.
    #[error("the fullmove number starts at 1")]
    FullmoveZero,
}

/// A FEN that cannot be read: where, and why. A text over [`MAX_FEN_LEN`] has no place: its
/// message names neither field nor column ([`FenError::place`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The field.
    pub field: FenField,
    /// 1-based column in the FEN text (1 for a text that is too long as a whole).
    pub column: usize,
    /// What is wrong.
    pub reason: FenReason,
}

impl FenError {
    /// The field and column where the problem is, or `None` for a text too long as a whole
    /// (column 1 of it would point at nothing wrong).
    pub fn place(&self) -> Option<(FenField, usize)> {
        match self.reason {
            FenReason::TooLong => None,
            _ => Some((self.field, self.column)),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place() {
            Some((field, column)) => write!(f, "FEN {field} field, column {column}: "),
            None => f.write_str("FEN "),
        }?;
        write!(f, "{}", self.reason)
    }
}

impl std::error::Error for FenError {}

/// A field of the text and where it starts (0-based byte offset).
#[derive(Copy, Clone, Debug)]
struct Field<'a> {
    start: usize,
    text: &'a str,
}

impl Field<'_> {
    /// An error at byte `offset` of this field.
    fn error(self, field: FenField, offset: usize, reason: FenReason) -> FenError {
        FenError {
            field,
            column: self.start + offset + 1,
            reason,
        }
    }
}

/// Parses a FEN into an unchecked setup.
///
/// # Errors
/// A [`FenError`] naming the field and column of the first problem.
pub fn parse_fen(variant: &Variant, text: &str) -> Result<Setup, FenError> {
    let fields = split_fields(text)?;
    let (board, hand) = split_hand(fields[0]);
    let (mut pieces, mut neutral) = (Vec::new(), Vec::new());
    parse_board(variant, board, &mut pieces, &mut neutral)?;
    let hand = match hand {
        Some(hand) => parse_hand(variant, hand)?,
        // An omitted hand is an empty one.
        None => [[0; MAX_KINDS]; 2],
    };
    let side = parse_side(fields[1])?;
    // Only the counters may be left out: a FEN cut short after the side is refused, not read
    // as one without castling rights.
    let missing =
        |field| Field { start: 0, text }.error(field, text.len(), FenReason::MissingField);
    let castling = fields.get(2).ok_or_else(|| missing(FenField::Castling))?;
    let castling = parse_castling(*castling)?;
    let ep = fields.get(3).ok_or_else(|| missing(FenField::EnPassant))?;
    let ep = parse_en_passant(variant, *ep)?;
    let halfmove = match fields.get(4) {
        Some(&field) => parse_counter(field, FenField::Halfmove)?,
        None => 0,
    };
    let fullmove = match fields.get(5) {
        Some(&field) => parse_fullmove(field)?,
        None => 1,
    };
    Ok(Setup {
        pieces,
        neutral,
        hand,
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    })
}

/// The blank-separated fields of `text`, two to six of them, after checking its length and
/// characters.
fn split_fields(text: &str) -> Result<Vec<Field<'_>>, FenError> {
    let whole = Field { start: 0, text };
    if text.len() > MAX_FEN_LEN {
        return Err(whole.error(FenField::Fen, 0, FenReason::TooLong));
    }
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii() || c.is_ascii_control() && *c != '\t')
    {
        return Err(whole.error(FenField::Fen, i, FenReason::Character(c)));
    }
    let mut fields = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                fields.push(Field {
                    start: s,
                    text: &text[s..i],
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        fields.push(Field {
            start: s,
            text: &text[s..],
        });
    }
    // A blank inside the hand (`[N N]`) splits it: said of the hand, not of the fields it
    // seems to add (it was "unexpected extra field" at the full-move number).
    if let Some(&first) = fields.first()
        && let (_, Some(hand)) = split_hand(first)
        && !hand.text.ends_with(']')
        && fields.len() > 6
    {
        return Err(hand.error(FenField::Hand, 0, FenReason::HandNotClosed));
    }
    match fields.len() {
        0 => Err(whole.error(FenField::Fen, 0, FenReason::Empty)),
        1 => Err(whole.error(FenField::Side, text.len(), FenReason::MissingSide)),
        2..=6 => Ok(fields),
        _ => Err(fields[6].error(
            FenField::Fen,
            0,
            FenReason::ExtraField(fields[6].text.to_string()),
        )),
    }
}

/// The board field without and with its `[...]` hand part.
fn split_hand(field: Field<'_>) -> (Field<'_>, Option<Field<'_>>) {
    match field.text.find('[') {
        Some(i) => (
            Field {
                start: field.start,
                text: &field.text[..i],
            },
            Some(Field {
                start: field.start + i,
                text: &field.text[i..],
            }),
        ),
        None => (field, None),
    }
}

/// The board field, rank by rank from the top: its pieces and neutral squares added to the
/// lists.
fn parse_board(
    variant: &Variant,
    board: Field<'_>,
    pieces: &mut Vec<(Square, Piece)>,
    neutral: &mut Vec<Square>,
) -> Result<(), FenError> {
    let ranks = variant.geometry.ranks;
    let rank_texts: Vec<&str> = board.text.split('/').collect();
    if rank_texts.len() != ranks as usize {
        return Err(board.error(
            FenField::Board,
            0,
            FenReason::RankCount {
                found: rank_texts.len(),
                expected: ranks,
            },
        ));
    }
    let mut start = board.start;
    for (row, text) in rank_texts.into_iter().enumerate() {
        let rank = ranks as usize - 1 - row;
        parse_rank(variant, rank, Field { start, text }, pieces, neutral)?;
        start += text.len() + 1;
    }
    Ok(())
}

/// One rank of the board (0-based `rank`): its pieces and neutral squares added to the lists.
fn parse_rank(
    variant: &Variant,
    rank: usize,
    field: Field<'_>,
    pieces: &mut Vec<(Square, Piece)>,
    neutral: &mut Vec<Square>,
) -> Result<(), FenError> {
    let files = variant.geometry.files;
    let too_long = || FenReason::RankTooLong {
        rank: rank + 1,
        files,
    };
    let bytes = field.text.as_bytes();
    let mut file = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let at = i;
        let error = |reason| field.error(FenField::Board, at, reason);
        let c = bytes[i] as char;
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &field.text[at..i];
            let run: usize = digits.parse().unwrap_or(usize::MAX);
            if run == 0 || digits.starts_with('0') {
                return Err(error(FenReason::EmptyCount(digits.to_string())));
            }
            file = file.saturating_add(run);
            if file > files as usize {
                return Err(error(too_long()));
            }
            continue;
        }
        if file >= files as usize {
            return Err(error(too_long()));
        }
        let sq = Square::new(file as u8, rank as u8);
        file += 1;
        if c == '*' {
            if !variant.spec.neutral {
                return Err(error(FenReason::NoNeutral(variant.spec.id)));
            }
            neutral.push(sq);
            i += 1;
            continue;
        }
        let spelling = match c {
            '+' => match bytes.get(i + 1) {
                Some(&b) if b.is_ascii_alphabetic() => &field.text[i..i + 2],
                _ => return Err(error(FenReason::PlusWithoutLetter)),
            },
            c if c.is_ascii_alphabetic() => &field.text[i..i + 1],
            c => return Err(error(FenReason::BoardCharacter(c))),
        };
        let piece = piece_of(variant, spelling).ok_or_else(|| {
            error(FenReason::UnknownPiece {
                spelling: spelling.to_string(),
                variant: variant.spec.id,
            })
        })?;
        pieces.push((sq, piece));
        i += spelling.len();
    }
    if file != files as usize {
        return Err(field.error(
            FenField::Board,
            0,
            FenReason::RankFiles {
                rank: rank + 1,
                found: file,
                expected: files,
            },
        ));
    }
    Ok(())
}

/// The piece a spelling (`N`, `n`, `+G`) stands for: White in upper case, Black in lower.
fn piece_of(variant: &Variant, spelling: &str) -> Option<Piece> {
    let colour = if spelling
        .chars()
        .last()
        .is_some_and(|l| l.is_ascii_uppercase())
    {
        Colour::White
    } else {
        Colour::Black
    };
    let kind = variant.kind_by_fen(&spelling.to_ascii_uppercase())?;
    Some(Piece { kind, colour })
}

/// The pieces in hand, `[...]` (the field starts at the `[`), counted per colour and kind.
fn parse_hand(variant: &Variant, field: Field<'_>) -> Result<[[u8; MAX_KINDS]; 2], FenError> {
    let error = |offset, reason| field.error(FenField::Hand, offset, reason);
    let Some(inner) = field
        .text
        .strip_suffix(']')
        .map(|t| t.strip_prefix('[').unwrap_or(t))
    else {
        return Err(error(0, FenReason::HandNotClosed));
    };
    if variant.spec.hand == HandKind::None && !inner.is_empty() {
        return Err(error(0, FenReason::NoHand(variant.spec.id)));
    }
    let mut hand = [[0u8; MAX_KINDS]; 2];
    for (i, c) in inner.char_indices() {
        // After the `[`.
        let offset = i + 1;
        if !c.is_ascii_alphabetic() {
            return Err(error(offset, FenReason::HandCharacter(c)));
        }
        let spelling = &inner[i..i + 1];
        let piece = piece_of(variant, spelling).ok_or_else(|| {
            error(
                offset,
                FenReason::UnknownPiece {
                    spelling: spelling.to_string(),
                    variant: variant.spec.id,
                },
            )
        })?;
        let slot = &mut hand[piece.colour.index()][piece.kind as usize];
        if *slot >= MAX_IN_HAND {
            return Err(error(offset, FenReason::HandFull));
        }
        *slot += 1;
    }
    Ok(hand)
}

/// The side to move: `w` or `b`.
fn parse_side(field: Field<'_>) -> Result<Colour, FenError> {
    match field.text {
        "w" => Ok(Colour::White),
        "b" => Ok(Colour::Black),
        other => Err(field.error(FenField::Side, 0, FenReason::Side(other.to_string()))),
    }
}

/// The castling rights: `-`, or each of `K`, `Q`, `k`, `q` at most once.
fn parse_castling(field: Field<'_>) -> Result<Vec<(Colour, Wing)>, FenError> {
    let mut castling = Vec::new();
    if field.text == "-" {
        return Ok(castling);
    }
    for (i, c) in field.text.char_indices() {
        let error = |reason| field.error(FenField::Castling, i, reason);
        let right = match c {
            'K' => (Colour::White, Wing::King),
            'Q' => (Colour::White, Wing::Queen),
            'k' => (Colour::Black, Wing::King),
            'q' => (Colour::Black, Wing::Queen),
            other => return Err(error(FenReason::CastlingLetter(other))),
        };
        if castling.contains(&right) {
            return Err(error(FenReason::CastlingTwice(c)));
        }
        castling.push(right);
    }
    Ok(castling)
}

/// The en-passant square: `-` or a square of the board.
fn parse_en_passant(variant: &Variant, field: Field<'_>) -> Result<Option<Square>, FenError> {
    if field.text == "-" {
        return Ok(None);
    }
    match variant.geometry.parse_square(field.text) {
        Some(sq) => Ok(Some(sq)),
        None => Err(field.error(
            FenField::EnPassant,
            0,
            FenReason::NotASquare(field.text.to_string()),
        )),
    }
}

/// A counter: a number up to [`MAX_COUNTER`].
fn parse_counter(field: Field<'_>, which: FenField) -> Result<u32, FenError> {
    // Digits only: `parse` would take a sign (`+5`), which no FEN writes.
    Some(field.text)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<u32>().ok())
        .filter(|n| *n <= MAX_COUNTER)
        .ok_or_else(|| field.error(which, 0, FenReason::Counter(field.text.to_string())))
}

/// The fullmove number: a counter from 1.
fn parse_fullmove(field: Field<'_>) -> Result<u32, FenError> {
    match parse_counter(field, FenField::Fullmove)? {
        0 => Err(field.error(FenField::Fullmove, 0, FenReason::FullmoveZero)),
        n => Ok(n),
    }
}

/// Prints a position as FEN.
pub fn to_fen(pos: &Position) -> String {
    let v = pos.variant();
    let g = &v.geometry;
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        let mut run = 0;
        for file in 0..g.files {
            let sq = Square::new(file, rank);
            let text = if let Some(p) = pos.piece_at(sq) {
                piece_text(v, p)
            } else if pos.neutral().has(sq) {
                "*".to_string()
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push_str(&text);
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let mut hand = String::new();
    for colour in Colour::BOTH {
        let mut letters: Vec<char> = Vec::new();
        for (kind, spec) in v.spec.pieces.iter().enumerate() {
            for _ in 0..pos.hand_count(colour, kind as u8) {
                let c = spec.fen.chars().last().unwrap_or('?');
                letters.push(if colour == Colour::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        letters.sort_unstable();
        hand.extend(letters);
    }
    match v.spec.hand {
        HandKind::LostPieces => out.push_str(&format!("[{hand}]")),
        HandKind::Setup if !hand.is_empty() => out.push_str(&format!("[{hand}]")),
        _ => {}
    }
    out.push(' ');
    out.push(if pos.side() == Colour::White {
        'w'
    } else {
        'b'
    });
    out.push(' ');
    let mut rights = String::new();
    for colour in Colour::BOTH {
        for wing in [Wing::King, Wing::Queen] {
            if pos.has_castling(colour, wing) {
                rights.push(castle_letter(colour, wing));
            }
        }
    }
    out.push_str(if rights.is_empty() { "-" } else { &rights });
    out.push(' ');
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmove(), pos.fullmove()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    fn refusal(variant: &str, fen: &str) -> FenError {
        let variant = variants::get(variant).expect("a variant");
        parse_fen(variant, fen).expect_err(fen)
    }

    /// The columns are those the binary printed before parse_fen was split by field.
    #[test]
    fn each_field_names_its_column_and_reason() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        for (fen, field, column, reason) in [
            ("", FenField::Fen, 1, FenReason::Empty),
            (start, FenField::Side, 44, FenReason::MissingSide),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w",
                FenField::Castling,
                26,
                FenReason::MissingField,
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq",
                FenField::EnPassant,
                31,
                FenReason::MissingField,
            ),
            (
                "8/8 w",
                FenField::Board,
                1,
                FenReason::RankCount {
                    found: 2,
                    expected: 8,
                },
            ),
            (
                "8/8/8/8/8/8/8/k6K1 w",
                FenField::Board,
                18,
                FenReason::RankTooLong { rank: 1, files: 8 },
            ),
            (
                "8/8/8/8/8/8/8/k5K w",
                FenField::Board,
                15,
                FenReason::RankFiles {
                    rank: 1,
                    found: 7,
                    expected: 8,
                },
            ),
            (
                "8/8/8/8/8/8/8/k06K w",
                FenField::Board,
                16,
                FenReason::EmptyCount("06".into()),
            ),
            (
                "8/8/8/3*4/8/8/8/k6K w",
                FenField::Board,
                8,
                FenReason::NoNeutral("chess"),
            ),
            (
                "8/8/8/8/8/8/8/k5+K w",
                FenField::Board,
                17,
                FenReason::UnknownPiece {
                    spelling: "+K".into(),
                    variant: "chess",
                },
            ),
            (
                "8/8/8/8/8/8/8/k6K[N] w",
                FenField::Hand,
                18,
                FenReason::NoHand("chess"),
            ),
            (
                "8/8/8/8/8/8/8/k6K x",
                FenField::Side,
                19,
                FenReason::Side("x".into()),
            ),
            (
                "8/8/8/8/8/8/8/k6K w KQK",
                FenField::Castling,
                23,
                FenReason::CastlingTwice('K'),
            ),
            (
                "8/8/8/8/8/8/8/k6K w - i3",
                FenField::EnPassant,
                23,
                FenReason::NotASquare("i3".into()),
            ),
            (
                "8/8/8/8/8/8/8/k6K w - - 100000",
                FenField::Halfmove,
                25,
                FenReason::Counter("100000".into()),
            ),
            (
                "8/8/8/8/8/8/8/k6K w - - 0 0",
                FenField::Fullmove,
                27,
                FenReason::FullmoveZero,
            ),
            (
                "8/8/8/8/8/8/8/k6K w - - +5 1",
                FenField::Halfmove,
                25,
                FenReason::Counter("+5".into()),
            ),
            (
                "8/8/8/8/8/8/8/k6K w - - 0 +1",
                FenField::Fullmove,
                27,
                FenReason::Counter("+1".into()),
            ),
        ] {
            let e = refusal("chess", fen);
            assert_eq!(
                (e.field, e.column, &e.reason),
                (field, column, &reason),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_text_too_long_is_refused_without_a_place() {
        let long = format!("{} {}", "8/".repeat(300), "w - - 0 1");
        let e = refusal("chess", &long);
        assert_eq!((e.place(), &e.reason), (None, &FenReason::TooLong));
        assert_eq!(e.to_string(), "FEN longer than 512 characters");
        // Any other refusal keeps its field and column.
        let e = refusal("chess", "8/8/8/8/8/8/8/k6K x - - 0 1");
        assert_eq!(e.place(), Some((FenField::Side, 19)));
        assert_eq!(
            e.to_string(),
            format!("FEN side field, column 19: {}", e.reason)
        );
    }

    #[test]
    fn hands_are_read_and_refused_by_column() {
        let cerimon = variants::get("cerimon").expect("cerimon");
        let fen = "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[NNs] w - - 0 1";
        let setup = parse_fen(cerimon, fen).expect("a hand");
        assert_eq!(
            setup.hand.iter().flatten().map(|n| *n as u32).sum::<u32>(),
            3
        );
        let e = refusal(
            "cerimon",
            "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[N1] w - - 0 1",
        );
        assert_eq!((e.column, e.reason), (46, FenReason::HandCharacter('1')));
        assert_eq!(
            refusal("cerimon", "8/8/8/8/8/8/8/k6K[N w").to_string(),
            "FEN hand field, column 18: hand field `[` is not closed by `]`"
        );
        // A blank in the hand, with every field after it: the hand, not an extra field.
        for fen in [
            "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSS2/RBBTKBBR[N N] w - - 0 1",
            "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSS2/RBBTKBBR[N N N] w - - 0 1",
        ] {
            let e = refusal("cerimon", fen);
            assert_eq!(
                (e.column, e.reason),
                (43, FenReason::HandNotClosed),
                "{fen}"
            );
        }
    }
}

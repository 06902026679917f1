//! Move text: the coordinate moving part (`e2e4`, `e7e8q`), placements (`N@b2`), the parts of a
//! compound move joined by commas (`f1b5,N@a2`), printed in a fixed order and read in any.
//!
//! Reading refuses with a [`MoveError`]: the text, the 1-based column of a syntax error, the
//! reason ([`MoveReason`]) and, for a well-formed move that is not legal, the legal moves,
//! closest to the text first.

use crate::echo::echo;
use crate::geometry::Square;
use crate::position::{Move, Position};
use crate::variant::Variant;
use std::fmt;

/// Most characters accepted in one move's text.
pub const MAX_MOVE_LEN: usize = 64;
/// Legal moves named in a message (the rest as `...`).
const LEGAL_SHOWN: usize = 12;

/// What is wrong with move text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveReason {
    /// No text.
    #[error("empty move")]
    Empty,
    /// More than [`MAX_MOVE_LEN`] characters.
    #[error("longer than {MAX_MOVE_LEN} characters")]
    TooLong,
    /// A character outside printable ASCII.
    #[error("unexpected character {0:?}")]
    Character(char),
    /// Two commas in a row, or one at an end.
    #[error("empty part between commas")]
    EmptyPart,
    /// A placement without one upper-case letter before `@`.
    #[error("placement {} needs one upper-case piece letter before `@`", echo(.0))]
    PlacementLetter(String),
    /// A placement of a piece the variant does not have.
    #[error("{} is not a piece of {variant}", echo(.letter))]
    UnknownPiece {
        /// The letter.
        letter: String,
        /// The variant's id.
        variant: &'static str,
    },
    /// A square that is not on the board.
    #[error("{} is not a square of this board", echo(.0))]
    NotASquare(String),
    /// Two placements on one square.
    #[error("two placements on {0}")]
    TwoPlacements(Square),
    /// Two parts without `@`.
    #[error("a move has at most one moving part")]
    TwoMovingParts,
    /// A moving part of the wrong length.
    #[error("{} is not a coordinate move like e2e4 or e7e8q", echo(.0))]
    NotCoordinate(String),
    /// A fifth character that is not a letter.
    #[error("`{0}` is not a promotion letter")]
    PromotionLetter(char),
    /// Well formed, but no legal move of the position is spelled so.
    #[error("not a legal move here")]
    Illegal,
    /// Well formed, but the game is over: no move is legal (the outcome, as suites spell it).
    #[error("not a legal move here: the game is over ({0})")]
    GameOver(&'static str),
}

/// Move text that is not a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text given.
    pub text: String,
    /// 1-based column of a syntax error (0 when the move is well formed but not legal).
    pub column: usize,
    /// What is wrong.
    pub reason: MoveReason,
    /// The legal moves, closest to the text first (for illegal moves).
    pub legal: Vec<String>,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A size has no column: the whole text is too long, and not repeated whole.
        if self.reason == MoveReason::TooLong {
            return write!(f, "move {}: {}", echo(&self.text), self.reason);
        }
        if self.column > 0 {
            return write!(
                f,
                "move `{}`, column {}: {}",
                self.text, self.column, self.reason
            );
        }
        write!(f, "move `{}`: {}", self.text, self.reason)?;
        if matches!(self.reason, MoveReason::GameOver(_)) {
            return Ok(());
        }
        if self.legal.is_empty() {
            return write!(f, " (no legal moves)");
        }
        let shown: Vec<&str> = self
            .legal
            .iter()
            .take(LEGAL_SHOWN)
            .map(String::as_str)
            .collect();
        let more = if self.legal.len() > LEGAL_SHOWN {
            " ..."
        } else {
            ""
        };
        write!(f, " (legal: {}{more})", shown.join(" "))
    }
}

impl std::error::Error for MoveError {}

/// A move of a path that cannot be played, with its 1-based ply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {error}")]
pub struct PlyError {
    /// 1-based ply of the move in the path.
    pub ply: usize,
    /// What is wrong with it.
    pub error: MoveError,
}

/// Move text: coordinate moving part (`e2e4`, `e7e8q`), then placements (`N@b2`), comma-joined.
pub fn move_text(pos: &Position, m: &Move) -> String {
    let v = pos.variant();
    let mut parts = Vec::new();
    if m.has_moving_part() {
        let mut s = format!("{}{}", m.from, m.to);
        if m.promotion != 0 {
            let fen = v.spec.pieces[m.promotion as usize - 1].fen;
            s.push(fen.chars().last().unwrap_or('?').to_ascii_lowercase());
        }
        parts.push(s);
    }
    for (kind, sq) in m.placement_list() {
        let fen = v.spec.pieces[kind as usize].fen;
        parts.push(format!("{}@{}", fen.chars().last().unwrap_or('?'), sq));
    }
    parts.join(",")
}

/// Checks the syntax of move text and returns its canonical spelling (placements sorted).
///
/// # Errors
/// A [`MoveError`] with the column of the problem.
pub fn normalise_move_text(variant: &Variant, text: &str) -> Result<String, MoveError> {
    let fail = |column: usize, reason: MoveReason| MoveError {
        text: text.to_string(),
        column,
        reason,
        legal: Vec::new(),
    };
    if text.is_empty() {
        return Err(fail(1, MoveReason::Empty));
    }
    if text.chars().nth(MAX_MOVE_LEN).is_some() {
        return Err(fail(1, MoveReason::TooLong));
    }
    // Move text is ASCII; refusing anything else first also keeps the byte slicing below on
    // character boundaries.
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii() || c.is_ascii_control())
    {
        return Err(fail(i + 1, MoveReason::Character(c)));
    }
    let mut moving: Option<String> = None;
    let mut placements: Vec<(Square, String)> = Vec::new();
    let mut column = 1;
    for part in text.split(',') {
        if part.is_empty() {
            return Err(fail(column, MoveReason::EmptyPart));
        }
        if let Some(at) = part.find('@') {
            let (sq, placement) = read_placement(variant, part, at)
                .map_err(|(offset, reason)| fail(column + offset, reason))?;
            if placements.iter().any(|(s, _)| *s == sq) {
                return Err(fail(column, MoveReason::TwoPlacements(sq)));
            }
            placements.push((sq, placement));
        } else {
            if moving.is_some() {
                return Err(fail(column, MoveReason::TwoMovingParts));
            }
            let canonical = read_moving_part(variant, part)
                .map_err(|(offset, reason)| fail(column + offset, reason))?;
            moving = Some(canonical);
        }
        column += part.len() + 1;
    }
    placements.sort_by_key(|(sq, _)| (sq.file(), sq.rank()));
    let mut parts: Vec<String> = moving.into_iter().collect();
    parts.extend(placements.into_iter().map(|(_, p)| p));
    Ok(parts.join(","))
}

/// A placement `X@sq` (`at` is the index of `@`): its square and canonical text, or the
/// problem's offset in the part and reason.
fn read_placement(
    variant: &Variant,
    part: &str,
    at: usize,
) -> Result<(Square, String), (usize, MoveReason)> {
    let letter = &part[..at];
    if letter.len() != 1 || !letter.chars().all(|c| c.is_ascii_uppercase()) {
        return Err((0, MoveReason::PlacementLetter(part.to_string())));
    }
    if variant.kind_by_fen(letter).is_none() {
        return Err((
            0,
            MoveReason::UnknownPiece {
                letter: letter.to_string(),
                variant: variant.spec.id,
            },
        ));
    }
    let square = &part[at + 1..];
    let sq = variant
        .geometry
        .parse_square(square)
        .ok_or_else(|| (at + 1, MoveReason::NotASquare(square.to_string())))?;
    Ok((sq, format!("{letter}@{sq}")))
}

/// A moving part `e2e4` or `e7e8q`: its canonical text (promotion letter in lower case), or
/// the problem's offset in the part and reason.
fn read_moving_part(variant: &Variant, part: &str) -> Result<String, (usize, MoveReason)> {
    if part.len() < 4 || part.len() > 5 {
        return Err((0, MoveReason::NotCoordinate(part.to_string())));
    }
    let square = |offset: usize| {
        let text = &part[offset..offset + 2];
        variant
            .geometry
            .parse_square(text)
            .ok_or_else(|| (offset, MoveReason::NotASquare(text.to_string())))
    };
    let (from, to) = (square(0)?, square(2)?);
    let mut canonical = format!("{from}{to}");
    if let Some(&p) = part.as_bytes().get(4) {
        let p = p as char;
        if !p.is_ascii_alphabetic() {
            return Err((4, MoveReason::PromotionLetter(p)));
        }
        canonical.push(p.to_ascii_lowercase());
    }
    Ok(canonical)
}

/// Finds the legal move spelled `text`.
///
/// # Errors
/// A syntax error with its column, or an illegal move with the legal moves, closest first.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let canonical = normalise_move_text(pos.variant(), text.trim())?;
    let moves = pos.legal_moves();
    let mut spelled: Vec<(String, Move)> = moves.iter().map(|m| (move_text(pos, m), *m)).collect();
    if let Some((_, m)) = spelled.iter().find(|(t, _)| *t == canonical) {
        return Ok(*m);
    }
    spelled.sort_by_key(|(t, _)| (similarity_rank(&canonical, t), t.clone()));
    // No move at all: say why (a checkmate, a stalemate, the variant's own decision).
    let reason = match spelled.is_empty().then(|| pos.outcome()).flatten() {
        Some(o) => MoveReason::GameOver(o.name()),
        None => MoveReason::Illegal,
    };
    Err(MoveError {
        text: text.to_string(),
        column: 0,
        reason,
        legal: spelled.into_iter().map(|(t, _)| t).collect(),
    })
}

fn similarity_rank(want: &str, have: &str) -> usize {
    // Moves sharing the origin square first, then the destination, then the rest.
    let (w, h) = (want.as_bytes(), have.as_bytes());
    let same_from = w.len() >= 2 && h.len() >= 2 && w[..2] == h[..2];
    let same_to = w.len() >= 4 && h.len() >= 4 && w[2..4] == h[2..4];
    match (same_from, same_to) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        _ => 3,
    }
}

/// Plays a space-separated list of moves from `pos`.
///
/// # Errors
/// The first illegal or malformed move, with its 1-based ply number.
pub fn play_moves(pos: &Position, moves: &str) -> Result<Position, PlyError> {
    let mut cur = *pos;
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = parse_move(&cur, text).map_err(|error| PlyError { ply: i + 1, error })?;
        cur = cur.play(m);
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::variants;

    #[test]
    fn non_ascii_move_text_is_an_error_not_a_panic() {
        // Found by the `move_text` fuzz target: byte slicing split a multi-byte character.
        let chess = variants::get("chess").expect("chess");
        for text in ["eé24", "gɘǈ", "e2e4,N@é1", "e2e\u{7}4"] {
            let e = normalise_move_text(chess, text).expect_err(text);
            assert!(matches!(e.reason, MoveReason::Character(_)), "{text}: {e}");
        }
    }

    #[test]
    fn the_length_limit_counts_characters() {
        // It counted bytes while saying characters: 22 figurines were "longer than 64".
        let chess = variants::get("chess").expect("chess");
        let e = normalise_move_text(chess, &"♘".repeat(22)).expect_err("not move text");
        assert_eq!((e.column, e.reason), (1, MoveReason::Character('♘')));
        let e = normalise_move_text(chess, &"♘".repeat(MAX_MOVE_LEN + 1)).expect_err("long");
        assert_eq!(e.reason, MoveReason::TooLong);
        assert!(
            e.to_string()
                .ends_with("(65 characters): longer than 64 characters"),
            "{e}"
        );
    }

    #[test]
    fn syntax_errors_name_the_column_and_reason() {
        let cerimon = variants::get("cerimon").expect("cerimon");
        for (text, column, reason) in [
            ("", 1, MoveReason::Empty),
            ("e2e4,,N@a1", 6, MoveReason::EmptyPart),
            ("e2e4,n@a1", 6, MoveReason::PlacementLetter("n@a1".into())),
            ("e2e4,N@z9", 8, MoveReason::NotASquare("z9".into())),
            ("N@a1,N@a1", 6, MoveReason::TwoPlacements(Square::new(0, 0))),
            ("e2e4,d2d4", 6, MoveReason::TwoMovingParts),
            ("e2e", 1, MoveReason::NotCoordinate("e2e".into())),
            ("e2z4", 3, MoveReason::NotASquare("z4".into())),
            ("e7e81", 5, MoveReason::PromotionLetter('1')),
        ] {
            let e = normalise_move_text(cerimon, text).expect_err(text);
            assert_eq!((e.column, &e.reason), (column, &reason), "{text}");
        }
        assert_eq!(
            normalise_move_text(cerimon, "N@b2,f1b5").as_deref(),
            Ok("f1b5,N@b2")
        );
    }

    #[test]
    fn a_path_names_the_ply_of_its_first_illegal_move() {
        let rules = variants::rules("chess").expect("chess");
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        let e = match play_moves(&start, "e2e4 e7e5 e1e3") {
            Ok(_) => panic!("e1e3 is not legal"),
            Err(e) => e,
        };
        assert_eq!((e.ply, &e.error.reason), (3, &MoveReason::Illegal));
        assert!(
            e.to_string()
                .starts_with("ply 3: move `e1e3`: not a legal move here (legal: e1e2 "),
            "{e}"
        );
    }

    /// A move after the end of the game says that the game is over, and how, rather than
    /// "(no legal moves)": a checkmate, and Silver Elephant's bare King (SE-6).
    #[test]
    fn a_move_after_the_end_says_the_game_is_over() {
        for (variant, fen, moves, said) in [
            (
                "chess",
                "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
                "h8g8",
                "ply 1: move `h8g8`: not a legal move here: the game is over (white-wins)",
            ),
            (
                "silver-elephant",
                "5k4/10/10/10/10/10/10/R4K3R w KQ - 0 1",
                "f1i1",
                "ply 1: move `f1i1`: not a legal move here: the game is over (white-wins)",
            ),
            (
                "chess",
                "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                "h8g8",
                "ply 1: move `h8g8`: not a legal move here: the game is over (draw)",
            ),
        ] {
            let rules = variants::rules(variant).expect("variant");
            let pos = parse_position(rules, fen).expect("fen");
            let Err(e) = play_moves(&pos, moves) else {
                panic!("{moves} is not legal")
            };
            assert_eq!(e.to_string(), said);
        }
    }
}

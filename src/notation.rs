//! Text formats: the FEN dialect of RULES.md "Common ground" and coordinate move text.
//!
//! Parsing goes text → [`Setup`] (unchecked) → [`Position`] (validated). Each layer has its own
//! error type; FEN errors name the field and the 1-based column.

use crate::geometry::Square;
use crate::position::{MAX_COUNTER, Move, Piece, Position, PositionError, Setup, castle_letter};
use crate::variant::{Colour, HandKind, MAX_KINDS, Rules, Variant, Wing};
use std::fmt;

/// A FEN that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The FEN field: `board`, `hand`, `side`, `castling`, `en-passant`, `halfmove`,
    /// `fullmove` or `fen`.
    pub field: &'static str,
    /// 1-based column in the FEN text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FEN {} field, column {}: {}",
            self.field, self.column, self.message
        )
    }
}

impl std::error::Error for FenError {}

/// A FEN that is unreadable or describes an illegal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    /// The text is malformed.
    Fen(FenError),
    /// The text is well formed, the position is not legal.
    Position(PositionError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::Fen(e) => e.fmt(f),
            PositionTextError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionTextError {}

/// Most characters accepted in a FEN (longer input is refused before parsing).
pub const MAX_FEN_LEN: usize = 512;

/// Parses a FEN into an unchecked setup.
///
/// # Errors
/// A [`FenError`] naming the field and column of the first problem.
pub fn parse_fen(variant: &Variant, text: &str) -> Result<Setup, FenError> {
    let err = |field: &'static str, column: usize, message: String| FenError {
        field,
        column,
        message,
    };
    if text.len() > MAX_FEN_LEN {
        return Err(err(
            "fen",
            1,
            format!("longer than {MAX_FEN_LEN} characters"),
        ));
    }
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii() || c.is_ascii_control() && *c != '\t')
    {
        return Err(err("fen", i + 1, format!("unexpected character {c:?}")));
    }
    // Split into fields, remembering each field's column.
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                fields.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        fields.push((s, &text[s..]));
    }
    if fields.is_empty() {
        return Err(err("fen", 1, "empty FEN".into()));
    }
    if fields.len() < 2 {
        return Err(err(
            "side",
            text.len() + 1,
            "missing side to move (w or b)".into(),
        ));
    }
    if fields.len() > 6 {
        let (col, extra) = fields[6];
        return Err(err(
            "fen",
            col + 1,
            format!("unexpected extra field `{extra}`"),
        ));
    }
    let g = &variant.geometry;
    let (board_col, board_text) = fields[0];
    let (board_part, hand_part) = match board_text.find('[') {
        Some(i) => (&board_text[..i], Some((board_col + i, &board_text[i..]))),
        None => (board_text, None),
    };
    let mut pieces = Vec::new();
    let mut neutral = Vec::new();
    let rank_texts: Vec<&str> = board_part.split('/').collect();
    if rank_texts.len() != g.ranks as usize {
        return Err(err(
            "board",
            board_col + 1,
            format!("{} ranks, this board has {}", rank_texts.len(), g.ranks),
        ));
    }
    let mut col = board_col;
    for (row, rank_text) in rank_texts.iter().enumerate() {
        let rank = g.ranks as usize - 1 - row;
        let mut file = 0usize;
        let bytes = rank_text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i] as char;
            let here = col + i + 1;
            if c.is_ascii_digit() {
                let s = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let run: usize = rank_text[s..i].parse().unwrap_or(usize::MAX);
                if run == 0 || rank_text[s..i].starts_with('0') {
                    return Err(err(
                        "board",
                        here,
                        format!("bad empty-square count `{}`", &rank_text[s..i]),
                    ));
                }
                file = file.saturating_add(run);
                if file > g.files as usize {
                    return Err(err(
                        "board",
                        here,
                        format!("rank {} has more than {} files", rank + 1, g.files),
                    ));
                }
                continue;
            }
            if file >= g.files as usize {
                return Err(err(
                    "board",
                    here,
                    format!("rank {} has more than {} files", rank + 1, g.files),
                ));
            }
            let sq = Square::new(file as u8, rank as u8);
            if c == '*' {
                if !variant.spec.jewel {
                    return Err(err(
                        "board",
                        here,
                        format!("`*` is not a piece of {}", variant.spec.id),
                    ));
                }
                neutral.push(sq);
                file += 1;
                i += 1;
                continue;
            }
            let (spelling, width) = if c == '+' {
                match bytes.get(i + 1) {
                    Some(&b) if (b as char).is_ascii_alphabetic() => (format!("+{}", b as char), 2),
                    _ => {
                        return Err(err(
                            "board",
                            here,
                            "`+` must be followed by a piece letter".into(),
                        ));
                    }
                }
            } else if c.is_ascii_alphabetic() {
                (c.to_string(), 1)
            } else {
                return Err(err("board", here, format!("unexpected character `{c}`")));
            };
            let colour = if spelling
                .chars()
                .last()
                .is_some_and(|l| l.is_ascii_uppercase())
            {
                Colour::White
            } else {
                Colour::Black
            };
            let kind = variant
                .kind_by_fen(&spelling.to_ascii_uppercase())
                .ok_or_else(|| {
                    err(
                        "board",
                        here,
                        format!("`{spelling}` is not a piece of {}", variant.spec.id),
                    )
                })?;
            pieces.push((sq, Piece { kind, colour }));
            file += 1;
            i += width;
        }
        if file != g.files as usize {
            return Err(err(
                "board",
                col + 1,
                format!("rank {} has {} files, expected {}", rank + 1, file, g.files),
            ));
        }
        col += rank_text.len() + 1;
    }
    let mut hand = [[0u8; MAX_KINDS]; 2];
    if let Some((hcol, htext)) = hand_part {
        if !htext.ends_with(']') {
            return Err(err(
                "hand",
                hcol + 1,
                "hand field `[` is not closed by `]`".into(),
            ));
        }
        let inner = &htext[1..htext.len() - 1];
        if variant.spec.hand == HandKind::None && !inner.is_empty() {
            return Err(err(
                "hand",
                hcol + 1,
                format!("{} has no pieces in hand", variant.spec.id),
            ));
        }
        for (i, c) in inner.char_indices() {
            let here = hcol + 2 + i;
            if !c.is_ascii_alphabetic() {
                return Err(err(
                    "hand",
                    here,
                    format!("unexpected character `{c}` in hand"),
                ));
            }
            let kind = variant
                .kind_by_fen(&c.to_ascii_uppercase().to_string())
                .ok_or_else(|| {
                    err(
                        "hand",
                        here,
                        format!("`{c}` is not a piece of {}", variant.spec.id),
                    )
                })?;
            let colour = if c.is_ascii_uppercase() {
                Colour::White
            } else {
                Colour::Black
            };
            let slot = &mut hand[colour.index()][kind as usize];
            if *slot >= 64 {
                return Err(err(
                    "hand",
                    here,
                    "more than 64 pieces of one kind in hand".into(),
                ));
            }
            *slot += 1;
        }
    } else if variant.spec.hand == HandKind::LostPieces {
        // Accepted: an omitted hand is an empty one.
    }
    let (side_col, side_text) = fields[1];
    let side = match side_text {
        "w" => Colour::White,
        "b" => Colour::Black,
        other => {
            return Err(err(
                "side",
                side_col + 1,
                format!("expected w or b, found `{other}`"),
            ));
        }
    };
    let mut castling = Vec::new();
    if let Some(&(ccol, ctext)) = fields.get(2)
        && ctext != "-"
    {
        for (i, c) in ctext.char_indices() {
            let right = match c {
                'K' => (Colour::White, Wing::King),
                'Q' => (Colour::White, Wing::Queen),
                'k' => (Colour::Black, Wing::King),
                'q' => (Colour::Black, Wing::Queen),
                other => {
                    return Err(err(
                        "castling",
                        ccol + i + 1,
                        format!("expected K, Q, k, q or -, found `{other}`"),
                    ));
                }
            };
            if castling.contains(&right) {
                return Err(err("castling", ccol + i + 1, format!("`{c}` given twice")));
            }
            castling.push(right);
        }
    }
    let mut ep = None;
    if let Some(&(ecol, etext)) = fields.get(3)
        && etext != "-"
    {
        ep = Some(g.parse_square(etext).ok_or_else(|| {
            err(
                "en-passant",
                ecol + 1,
                format!("`{etext}` is not a square of this board"),
            )
        })?);
    }
    let number = |idx: usize, field: &'static str, default: u32| -> Result<u32, FenError> {
        match fields.get(idx) {
            None => Ok(default),
            Some(&(c, t)) => t
                .parse::<u32>()
                .ok()
                .filter(|n| *n <= MAX_COUNTER)
                .ok_or_else(|| {
                    err(
                        field,
                        c + 1,
                        format!("expected a number below 100000, found `{t}`"),
                    )
                }),
        }
    };
    let halfmove = number(4, "halfmove", 0)?;
    let fullmove = number(5, "fullmove", 1)?;
    if fields.len() > 5 && fullmove == 0 {
        return Err(err(
            "fullmove",
            fields[5].0 + 1,
            "the fullmove number starts at 1".into(),
        ));
    }
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

/// Parses and validates a FEN.
///
/// # Errors
/// Malformed text or an illegal position.
pub fn parse_position(rules: Rules, text: &str) -> Result<Position, PositionTextError> {
    let setup = parse_fen(rules.variant, text).map_err(PositionTextError::Fen)?;
    Position::from_setup(rules, &setup).map_err(PositionTextError::Position)
}

/// The FEN spelling of a piece (`N`, `n`, `+G`, `+g`).
pub fn piece_text(variant: &Variant, piece: Piece) -> String {
    let fen = variant.spec.pieces[piece.kind as usize].fen;
    match piece.colour {
        Colour::White => fen.to_string(),
        Colour::Black => fen.to_ascii_lowercase(),
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

/// An ASCII diagram of the board, White at the bottom.
pub fn board_diagram(pos: &Position) -> String {
    let v = pos.variant();
    let g = &v.geometry;
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..g.files {
            let sq = Square::new(file, rank);
            let cell = if let Some(p) = pos.piece_at(sq) {
                piece_text(v, p)
            } else if pos.neutral().has(sq) {
                "*".to_string()
            } else {
                ".".to_string()
            };
            out.push_str(&format!("{cell:>2}"));
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..g.files {
        out.push_str(&format!(" {}", (b'a' + file) as char));
    }
    out.push('\n');
    out
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

/// Move text that is not a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text given.
    pub text: String,
    /// 1-based column of a syntax error (0 when the move is well formed but not legal).
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The legal moves, closest to the text first (for illegal moves).
    pub legal: Vec<String>,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(
                f,
                "move `{}`, column {}: {}",
                self.text, self.column, self.message
            )
        } else {
            write!(f, "move `{}`: {}", self.text, self.message)?;
            if self.legal.is_empty() {
                write!(f, " (no legal moves)")
            } else {
                let shown: Vec<&str> = self.legal.iter().take(12).map(|s| s.as_str()).collect();
                write!(
                    f,
                    " (legal: {}{})",
                    shown.join(" "),
                    if self.legal.len() > 12 { " ..." } else { "" }
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Most characters accepted in one move's text.
pub const MAX_MOVE_LEN: usize = 64;

/// Checks the syntax of move text and returns its canonical spelling (placements sorted).
///
/// # Errors
/// A [`MoveError`] with the column of the problem.
pub fn normalise_move_text(variant: &Variant, text: &str) -> Result<String, MoveError> {
    let fail = |column: usize, message: String| MoveError {
        text: text.to_string(),
        column,
        message,
        legal: Vec::new(),
    };
    if text.is_empty() {
        return Err(fail(1, "empty move".into()));
    }
    if text.len() > MAX_MOVE_LEN {
        return Err(fail(1, format!("longer than {MAX_MOVE_LEN} characters")));
    }
    // Move text is ASCII; refusing anything else first also keeps the byte slicing below on
    // character boundaries.
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii() || c.is_ascii_control())
    {
        return Err(fail(i + 1, format!("unexpected character {c:?}")));
    }
    let g = &variant.geometry;
    let mut moving: Option<String> = None;
    let mut placements: Vec<(Square, String)> = Vec::new();
    let mut col = 1;
    for part in text.split(',') {
        let bytes = part.as_bytes();
        if part.is_empty() {
            return Err(fail(col, "empty part between commas".into()));
        }
        if let Some(at) = part.find('@') {
            let letter = &part[..at];
            if letter.len() != 1 || !letter.chars().all(|c| c.is_ascii_uppercase()) {
                return Err(fail(
                    col,
                    format!("placement `{part}` needs one upper-case piece letter before `@`"),
                ));
            }
            if variant.kind_by_fen(letter).is_none() {
                return Err(fail(
                    col,
                    format!("`{letter}` is not a piece of {}", variant.spec.id),
                ));
            }
            let sq = g.parse_square(&part[at + 1..]).ok_or_else(|| {
                fail(
                    col + at + 1,
                    format!("`{}` is not a square of this board", &part[at + 1..]),
                )
            })?;
            if placements.iter().any(|(s, _)| *s == sq) {
                return Err(fail(col, format!("two placements on {sq}")));
            }
            placements.push((sq, format!("{letter}@{sq}")));
        } else {
            if moving.is_some() {
                return Err(fail(col, "a move has at most one moving part".into()));
            }
            if bytes.len() < 4 || bytes.len() > 5 {
                return Err(fail(
                    col,
                    format!("`{part}` is not a coordinate move like e2e4 or e7e8q"),
                ));
            }
            let from = g.parse_square(&part[0..2]).ok_or_else(|| {
                fail(
                    col,
                    format!("`{}` is not a square of this board", &part[0..2]),
                )
            })?;
            let to = g.parse_square(&part[2..4]).ok_or_else(|| {
                fail(
                    col + 2,
                    format!("`{}` is not a square of this board", &part[2..4]),
                )
            })?;
            let mut s = format!("{from}{to}");
            if bytes.len() == 5 {
                let p = bytes[4] as char;
                if !p.is_ascii_alphabetic() {
                    return Err(fail(col + 4, format!("`{p}` is not a promotion letter")));
                }
                s.push(p.to_ascii_lowercase());
            }
            moving = Some(s);
        }
        col += part.len() + 1;
    }
    placements.sort_by_key(|(sq, _)| (sq.file(), sq.rank()));
    let mut parts: Vec<String> = moving.into_iter().collect();
    parts.extend(placements.into_iter().map(|(_, p)| p));
    Ok(parts.join(","))
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
    Err(MoveError {
        text: text.to_string(),
        column: 0,
        message: "not a legal move here".into(),
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
pub fn play_moves(pos: &Position, moves: &str) -> Result<Position, (usize, MoveError)> {
    let mut cur = *pos;
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = parse_move(&cur, text).map_err(|e| (i + 1, e))?;
        cur = cur.play(m);
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn non_ascii_move_text_is_an_error_not_a_panic() {
        // Found by the `move_text` fuzz target: byte slicing split a multi-byte character.
        let chess = variants::get("chess").expect("chess");
        for text in ["eé24", "gɘǈ", "e2e4,N@é1", "e2e\u{7}4"] {
            let e = normalise_move_text(chess, text).expect_err(text);
            assert!(e.message.contains("unexpected character"), "{text}: {e}");
        }
    }
}

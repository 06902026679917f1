//! Standard algebraic notation (SAN) for every variant: writing it for a legal move and reading
//! it back.
//!
//! Disputed games arrive as PGN exported by servers and engine front ends, whose moves are SAN
//! (`Nf3`, `exd5`, `O-O`, `e8=Q+`). This module extends SAN to our games the way drop variants
//! and Fairy-Stockfish do, and as `docs/game-records.md` documents:
//!
//! * a piece is named by its FEN spelling in upper case for either side (`E`, `C`, `W`, `T`,
//!   `S`, `D`, `G`, `I`, and Pink Panther's carriers `+R`, `+B`, ...); only a piece spelled `P`
//!   that moves as a pawn goes unnamed, so Cerimon's Sergeant is `S`;
//! * the origin is added, as little as tells the move apart (file, else rank, else square), when
//!   another piece of the same kind can go to the same square; a pawn's capture always names
//!   its file;
//! * `x` marks a capture, `=X` a promotion, `O-O` castling with the Rook on the higher file
//!   (FEN `K`/`k`) and `O-O-O` the other;
//! * a placement is `X@sq`, and a compound move is the moving part followed by its placements,
//!   comma-joined (`Bb5+,N@a2`; Silver Elephant's set-up `E@b1,N@c1,N@h1,E@i1`);
//! * `+` or `#` after the moving part (after the whole text when there is none) tells whether
//!   the opponent is in check, or checkmated, once the whole move is made.
//!
//! Reading is lenient where nothing is lost: check marks, `x`, `=`, annotation glyphs (`!?`) and
//! `e.p.` are optional, castling may be written with zeros or as the King's own move (`Kg1`),
//! the origin may be given more fully than needed (`Ng1f3`, `Ng1-f3`), and figurine SAN
//! (`♘f3`, `♞c6`) reads as the letter SAN it stands for. A text that fits two
//! legal moves is refused with both named, never guessed.

use crate::echo::echo;
use crate::geometry::Square;
use crate::notation::MoveReason;
use crate::position::{Move, Position, flags};
use crate::variant::{Colour, Variant};
use std::fmt;

/// Why a SAN text names no move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SanErrorKind {
    /// The text is not SAN for this variant.
    Syntax,
    /// It is SAN, but fits no legal move.
    Illegal,
    /// It fits several legal moves.
    Ambiguous,
}

/// SAN that does not name exactly one legal move: the text, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SanError {
    /// The text given.
    pub text: String,
    /// 1-based column of a syntax error in the text; 0 when no column points at what is
    /// wrong: a well-formed move that is not legal or is ambiguous, a text too long as a whole
    /// (as [`MoveError`](crate::notation::MoveError) has it).
    pub column: usize,
    /// What is wrong.
    pub reason: SanReason,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A size has no column: the whole text is too long, and not repeated whole.
        if self.reason == SanReason::TooLong {
            return write!(f, "{}: {}", echo(&self.text), self.reason);
        }
        if self.column == 0 {
            return write!(f, "`{}`: {}", self.text, self.reason);
        }
        write!(
            f,
            "`{}`, column {}: {}",
            self.text, self.column, self.reason
        )
    }
}

impl SanError {
    /// What kind of problem.
    pub fn kind(&self) -> SanErrorKind {
        match self.reason {
            SanReason::Illegal { .. } => SanErrorKind::Illegal,
            SanReason::Ambiguous(_) => SanErrorKind::Ambiguous,
            _ => SanErrorKind::Syntax,
        }
    }

    /// The legal moves the text fits when it is ambiguous, or the closest legal moves when it
    /// fits none, in SAN (none for a syntax error).
    pub fn moves(&self) -> &[String] {
        match &self.reason {
            SanReason::Illegal { closest, .. } => closest,
            SanReason::Ambiguous(moves) => moves,
            _ => &[],
        }
    }
}

/// Why a SAN text names no move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanReason {
    /// Nothing.
    #[error("empty move")]
    Empty,
    /// More than [`MAX_SAN_LEN`] characters.
    #[error("longer than {MAX_SAN_LEN} characters")]
    TooLong,
    /// A character SAN never holds.
    #[error("unexpected character {0:?}")]
    Character(char),
    /// Two commas with nothing between.
    #[error("empty part between commas")]
    EmptyPart,
    /// A placement naming no piece of the variant.
    #[error("`{name}@` does not name a piece of {variant}")]
    NotAPieceToPlace {
        /// The name written.
        name: String,
        /// The variant's id.
        variant: &'static str,
    },
    /// A problem of a move's parts that SAN shares with coordinate move text: a placement's
    /// square off the board ([`MoveReason::NotASquare`]), two placements on one square, two
    /// moving parts.
    #[error("{0}")]
    Parts(MoveReason),
    /// A piece name of no piece of the variant.
    #[error("`{name}` is not a piece of {variant}")]
    NotAPiece {
        /// The name written.
        name: String,
        /// The variant's id.
        variant: &'static str,
    },
    /// A null move (`--`, `Z0`, `0000`, `@@@@`): a pass, which analysis tools write in
    /// variations and no game has.
    #[error("`{0}` is a null move (a pass, as analysis writes it): no move of a game")]
    NullMove(String),
    /// A moving part with no destination square.
    #[error("`{0}` names no square of this board to move to")]
    NoDestination(String),
    /// A disambiguating file off the board.
    #[error("`{0}` is not a file of this board")]
    NotAFile(char),
    /// A disambiguating rank off the board.
    #[error("`{0}` is not a rank of this board")]
    NotARank(String),
    /// Text between the piece and the destination that is no file or rank.
    #[error("unexpected `{0}` before the destination square")]
    BeforeDestination(String),
    /// Text after the destination that is no promotion.
    #[error("`{suffix}` after the destination is not a promotion of {variant}")]
    NotAPromotion {
        /// The text after the destination.
        suffix: String,
        /// The variant's id.
        variant: &'static str,
    },
    /// SAN that fits no legal move: why, when something simple says so, and the closest legal
    /// moves, closest first.
    #[error("not a legal move here{}", .why.as_ref().map(|w| format!(": {w}")).unwrap_or_default())]
    Illegal {
        /// What rules the move out, when it is simple.
        why: Option<Unplayable>,
        /// The legal moves, closest first, in SAN.
        closest: Vec<String>,
    },
    /// SAN that fits several legal moves (listed).
    #[error("ambiguous: it fits {} legal moves ({})", .0.len(), .0.join(", "))]
    Ambiguous(Vec<String>),
}

/// What simply rules a SAN move out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unplayable {
    /// A placement of a piece the side does not hold.
    #[error("{} has no {piece} in hand to place", .side.name())]
    NotInHand {
        /// The side to move.
        side: Colour,
        /// The piece's name.
        piece: &'static str,
    },
    /// A move of a piece the side does not have.
    #[error("{} has no {piece} on the board", .side.name())]
    NoneOnBoard {
        /// The side to move.
        side: Colour,
        /// The piece's name (`pawn` for the unnamed pawn).
        piece: &'static str,
    },
}

/// Most characters accepted in one SAN move.
pub const MAX_SAN_LEN: usize = 64;

/// The SAN name of a piece kind: its FEN spelling, or `None` for the unnamed pawn (a piece
/// spelled `P` that moves as a pawn).
pub fn piece_name(variant: &Variant, kind: u8) -> Option<&'static str> {
    let spec = &variant.spec.pieces[kind as usize];
    if spec.pawn && spec.fen == "P" {
        None
    } else {
        Some(spec.fen)
    }
}

/// SAN of every legal move of `pos`, in the order of [`Position::legal_moves`].
pub fn san_moves(pos: &Position) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    legal.iter().map(|m| (*m, write(pos, m, &legal))).collect()
}

/// SAN of `m`, a legal move of `pos`.
pub fn san(pos: &Position, m: &Move) -> String {
    write(pos, m, &pos.legal_moves())
}

fn capture_count(pos: &Position, colour: Colour) -> u32 {
    pos.colour_bb(colour).count()
}

/// SAN of `m` given every legal move of `pos` (for disambiguation).
fn write(pos: &Position, m: &Move, legal: &[Move]) -> String {
    let v = pos.variant();
    let mut out = String::new();
    let after = pos.play(*m);
    if m.flags & flags::CASTLE_KING != 0 {
        out.push_str("O-O");
    } else if m.flags & flags::CASTLE_QUEEN != 0 {
        out.push_str("O-O-O");
    } else if m.has_moving_part() {
        let kind = pos.piece_at(m.from).map_or(0, |p| p.kind);
        let name = piece_name(v, kind);
        let capture =
            capture_count(&after, pos.side().flip()) < capture_count(pos, pos.side().flip());
        // Other pieces of the same kind that can go to the same square.
        let others: Vec<Square> = legal
            .iter()
            .filter(|o| {
                o.has_moving_part()
                    && o.to == m.to
                    && o.from != m.from
                    && pos.piece_at(o.from).map(|p| p.kind) == Some(kind)
            })
            .map(|o| o.from)
            .collect();
        if let Some(name) = name {
            out.push_str(name);
        }
        // A pawn's capture always names its file.
        out.push_str(&origin(m.from, &others, name.is_none() && capture));
        if capture {
            out.push('x');
        }
        out.push_str(&m.to.to_string());
        if m.promotion != 0 {
            out.push('=');
            out.push_str(v.spec.pieces[m.promotion as usize - 1].fen);
        }
    }
    let mark = if after.in_check() {
        if after.legal_moves().is_empty() {
            "#"
        } else {
            "+"
        }
    } else {
        ""
    };
    if m.has_moving_part() {
        out.push_str(mark);
    }
    for (kind, sq) in m.placement_list() {
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(v.spec.pieces[kind as usize].fen);
        out.push('@');
        out.push_str(&sq.to_string());
    }
    if !m.has_moving_part() {
        out.push_str(mark);
    }
    out
}

/// As much of `from` as tells it apart from `others` (file, else rank, else the square), or
/// nothing when there are no others; with `file_always` at least the file, then the square.
fn origin(from: Square, others: &[Square], file_always: bool) -> String {
    let file = ((b'a' + from.file()) as char).to_string();
    let same_file = others.iter().any(|o| o.file() == from.file());
    let same_rank = others.iter().any(|o| o.rank() == from.rank());
    if others.is_empty() && !file_always {
        String::new()
    } else if !same_file {
        file
    } else if !same_rank && !file_always {
        (from.rank() + 1).to_string()
    } else {
        from.to_string()
    }
}

/// What a SAN text says about a move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Pattern {
    /// `Some(flag)` for castling.
    castle: Option<u8>,
    /// Whether the text has a moving part.
    moving: bool,
    /// The moving piece's kind (`None`: the unnamed pawn).
    kind: Option<u8>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Option<Square>,
    /// Kind index + 1 of the promotion piece, as the move stores it; `None` when not written.
    promotion: Option<Vec<u8>>,
    /// Placements as (kind, square), sorted like a move's.
    placements: Vec<(u8, Square)>,
}

fn fail(text: &str, column: usize, reason: SanReason) -> SanError {
    SanError {
        text: text.to_string(),
        column,
        reason,
    }
}

/// Promotion kinds a text names: the kind spelled `name`, and for a plain letter also its
/// carrier (Pink Panther's move text writes both `+R` and `R` as `r`, so `=R` fits either;
/// which one the pawn may take is for the legal moves to say).
fn promotion_kinds(v: &Variant, name: &str) -> Vec<u8> {
    let carrier = format!("+{name}");
    (0..v.spec.pieces.len() as u8)
        .filter(|&k| {
            let fen = v.spec.pieces[k as usize].fen;
            fen == name || (name.len() == 1 && fen == carrier)
        })
        .collect()
}

/// Strips trailing check marks, annotation glyphs and `e.p.` from a moving part.
fn strip_marks(part: &str) -> &str {
    let mut s = part;
    loop {
        let before = s.len();
        if let Some(rest) = s.strip_suffix("e.p.") {
            s = rest;
        }
        s = s.trim_end_matches(['!', '?']);
        // A `+` is a check mark only at the end and not as a carrier's own prefix.
        if s.len() > 1 && (s.ends_with('+') || s.ends_with('#')) {
            s = &s[..s.len() - 1];
        }
        if s.len() == before {
            return s;
        }
    }
}

fn parse_pattern(v: &Variant, text: &str) -> Result<Pattern, SanError> {
    if text.is_empty() {
        return Err(fail(text, 1, SanReason::Empty));
    }
    if text.chars().nth(MAX_SAN_LEN).is_some() {
        return Err(fail(text, 0, SanReason::TooLong));
    }
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii() || c.is_ascii_control() || c.is_ascii_whitespace())
    {
        return Err(fail(text, i + 1, SanReason::Character(c)));
    }
    let g = &v.geometry;
    let mut pattern = Pattern::default();
    let mut column = 1;
    for part in text.split(',') {
        if part.is_empty() {
            return Err(fail(text, column, SanReason::EmptyPart));
        }
        let bare = strip_marks(part);
        if let Some(at) = bare.find('@') {
            let name = &bare[..at];
            let kind = v.kind_by_fen(&name.to_ascii_uppercase()).ok_or_else(|| {
                fail(
                    text,
                    column,
                    SanReason::NotAPieceToPlace {
                        name: name.to_string(),
                        variant: v.spec.id,
                    },
                )
            })?;
            let sq = g.parse_square(&bare[at + 1..]).ok_or_else(|| {
                fail(
                    text,
                    column + at + 1,
                    SanReason::Parts(MoveReason::NotASquare(bare[at + 1..].to_string())),
                )
            })?;
            if pattern.placements.iter().any(|(_, s)| *s == sq) {
                return Err(fail(
                    text,
                    column,
                    SanReason::Parts(MoveReason::TwoPlacements(sq)),
                ));
            }
            pattern.placements.push((kind, sq));
        } else {
            if pattern.moving {
                return Err(fail(
                    text,
                    column,
                    SanReason::Parts(MoveReason::TwoMovingParts),
                ));
            }
            pattern.moving = true;
            parse_moving(v, text, bare, column, &mut pattern)?;
        }
        column += part.len() + 1;
    }
    pattern
        .placements
        .sort_by_key(|(_, sq)| (sq.file(), sq.rank()));
    Ok(pattern)
}

fn parse_moving(
    v: &Variant,
    text: &str,
    part: &str,
    column: usize,
    pattern: &mut Pattern,
) -> Result<(), SanError> {
    let g = &v.geometry;
    match part {
        "O-O" | "0-0" | "o-o" => {
            pattern.castle = Some(flags::CASTLE_KING);
            return Ok(());
        }
        "O-O-O" | "0-0-0" | "o-o-o" => {
            pattern.castle = Some(flags::CASTLE_QUEEN);
            return Ok(());
        }
        _ => {}
    }
    let bytes = part.as_bytes();
    // The piece: `+X` (a carrier), `X`, or nothing (the pawn).
    let name_len = match bytes {
        [b'+', c, ..] if c.is_ascii_uppercase() => 2,
        [c, ..] if c.is_ascii_uppercase() => 1,
        _ => 0,
    };
    if name_len > 0 {
        let name = &part[..name_len];
        let kind = v.kind_by_fen(name).ok_or_else(|| {
            fail(
                text,
                column,
                SanReason::NotAPiece {
                    name: name.to_string(),
                    variant: v.spec.id,
                },
            )
        })?;
        // `P` for the unnamed pawn is accepted too.
        pattern.kind = Some(kind);
        if piece_name(v, kind).is_none() {
            pattern.kind = None;
        }
    }
    let rest = &part[name_len..];
    let rest_column = column + name_len;
    // The destination: the last square named.
    let rb = rest.as_bytes();
    let mut dest = None;
    for i in (0..rb.len()).rev() {
        if !rb[i].is_ascii_lowercase() || (rb[i] - b'a') >= g.files {
            continue;
        }
        let digits = rb[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            continue;
        }
        if let Some(sq) = g.parse_square(&rest[i..i + 1 + digits]) {
            dest = Some((i, i + 1 + digits, sq));
            break;
        }
    }
    let Some((start, end, to)) = dest else {
        return Err(fail(
            text,
            rest_column,
            SanReason::NoDestination(part.to_string()),
        ));
    };
    pattern.to = Some(to);
    // Before the destination: origin hints and a capture or move sign.
    let mut prefix = &rest[..start];
    if let Some(p) = prefix.strip_suffix(['x', ':', '-']) {
        prefix = p;
    }
    let pb = prefix.as_bytes();
    let mut i = 0;
    if i < pb.len() && pb[i].is_ascii_lowercase() {
        if pb[i] - b'a' >= g.files {
            return Err(fail(
                text,
                rest_column + i,
                SanReason::NotAFile(pb[i] as char),
            ));
        }
        pattern.from_file = Some(pb[i] - b'a');
        i += 1;
    }
    let digits = pb[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let rank: u32 = prefix[i..i + digits].parse().unwrap_or(0);
        if rank == 0 || rank > g.ranks as u32 {
            return Err(fail(
                text,
                rest_column + i,
                SanReason::NotARank(prefix[i..i + digits].to_string()),
            ));
        }
        pattern.from_rank = Some(rank as u8 - 1);
        i += digits;
    }
    if i < pb.len() {
        return Err(fail(
            text,
            rest_column + i,
            SanReason::BeforeDestination(prefix[i..].to_string()),
        ));
    }
    // After the destination: a promotion, `=X`, `X`, `/X` or `(X)`.
    let suffix = &rest[end..];
    if !suffix.is_empty() {
        let inner = suffix
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .or_else(|| suffix.strip_prefix(['=', '/']))
            .unwrap_or(suffix);
        let kinds = promotion_kinds(v, inner);
        if kinds.is_empty() {
            return Err(fail(
                text,
                rest_column + end,
                SanReason::NotAPromotion {
                    suffix: suffix.to_string(),
                    variant: v.spec.id,
                },
            ));
        }
        pattern.promotion = Some(kinds.iter().map(|k| k + 1).collect());
    }
    Ok(())
}

fn fits(pos: &Position, p: &Pattern, m: &Move) -> bool {
    let placements: Vec<(u8, Square)> = m.placement_list().collect();
    if placements != p.placements {
        return false;
    }
    if let Some(flag) = p.castle {
        return m.flags & flag != 0;
    }
    if !p.moving {
        return !m.has_moving_part();
    }
    if !m.has_moving_part() || Some(m.to) != p.to {
        return false;
    }
    let Some(piece) = pos.piece_at(m.from) else {
        return false;
    };
    let kind_fits = match p.kind {
        Some(k) => piece.kind == k,
        None => piece_name(pos.variant(), piece.kind).is_none(),
    };
    kind_fits
        && p.from_file.is_none_or(|f| m.from.file() == f)
        && p.from_rank.is_none_or(|r| m.from.rank() == r)
        && p.promotion
            .as_ref()
            .is_none_or(|ks| ks.contains(&m.promotion))
}

/// Finds the legal move of `pos` that the SAN `text` names.
///
/// # Errors
/// A [`SanError`]: the text is malformed (with its column), fits no legal move (with the
/// closest ones), or fits several (with all of them).
///
/// # Examples
/// ```
/// use cvperft::notation::{move_text, parse_position};
/// let rules = cvperft::variants::rules("chess").unwrap();
/// let pos = parse_position(rules, &rules.start_fen()).unwrap();
/// let m = cvperft::san::parse_san(&pos, "Nf3").unwrap();
/// assert_eq!(move_text(&pos, &m), "g1f3");
/// assert!(cvperft::san::parse_san(&pos, "Nd5").is_err());
/// ```
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let written = text.trim();
    let lettered = letters_for_figurines(written);
    parse_lettered(pos, &lettered).map_err(|e| SanError {
        text: written.to_string(),
        ..e
    })
}

/// The text with each chess figurine (`♘`, `♞`, ...: U+2654 to U+265F, either colour) replaced
/// by its piece letter (`N`), as figurine SAN from a chess program's export writes them. One
/// character stands for one, so columns in the result are columns in the text.
fn letters_for_figurines(text: &str) -> std::borrow::Cow<'_, str> {
    fn letter(c: char) -> Option<char> {
        const LETTERS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];
        let i = (c as u32).checked_sub(0x2654)?;
        LETTERS.get(i as usize % 6).copied().filter(|_| i < 12)
    }
    if !text.chars().any(|c| letter(c).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(|c| letter(c).unwrap_or(c)).collect())
}

fn parse_lettered(pos: &Position, text: &str) -> Result<Move, SanError> {
    let core = text.strip_suffix("e.p.").map_or(text, str::trim_end);
    if matches!(core, "--" | "Z0" | "0000" | "@@@@") {
        return Err(fail(text, 1, SanReason::NullMove(core.to_string())));
    }
    let pattern = parse_pattern(pos.variant(), core)?;
    let legal = pos.legal_moves();
    let fitting: Vec<Move> = legal
        .iter()
        .filter(|m| fits(pos, &pattern, m))
        .copied()
        .collect();
    match fitting.as_slice() {
        [m] => Ok(*m),
        [] => {
            let mut closest: Vec<(usize, String)> = legal
                .iter()
                .map(|m| (closeness(pos, &pattern, m), write(pos, m, &legal)))
                .collect();
            closest.sort();
            Err(fail(
                text,
                0,
                SanReason::Illegal {
                    why: why_not(pos, &pattern),
                    closest: closest.into_iter().map(|(_, s)| s).collect(),
                },
            ))
        }
        several => {
            let moves: Vec<String> = several.iter().map(|m| write(pos, m, &legal)).collect();
            Err(fail(text, 0, SanReason::Ambiguous(moves)))
        }
    }
}

/// A reason a pattern fits no legal move, when one is plain: a placement of a piece not in
/// hand, or no piece of that kind for the side to move.
fn why_not(pos: &Position, p: &Pattern) -> Option<Unplayable> {
    let v = pos.variant();
    let side = pos.side();
    for &(kind, _) in &p.placements {
        let wanted = p.placements.iter().filter(|(k, _)| *k == kind).count();
        if (pos.hand_count(side, kind) as usize) < wanted {
            return Some(Unplayable::NotInHand {
                side,
                piece: v.spec.pieces[kind as usize].name,
            });
        }
    }
    if p.moving && p.castle.is_none() {
        let any = v.spec.pieces.iter().enumerate().any(|(k, _)| {
            let k = k as u8;
            let named = match p.kind {
                Some(want) => k == want,
                None => piece_name(v, k).is_none(),
            };
            named && !pos.pieces_of(k, side).is_empty()
        });
        if !any {
            let what = match p.kind {
                Some(k) => v.spec.pieces[k as usize].name,
                None => "pawn",
            };
            return Some(Unplayable::NoneOnBoard { side, piece: what });
        }
    }
    None
}

/// Sort key for the closest legal moves: same piece and square first.
fn closeness(pos: &Position, p: &Pattern, m: &Move) -> usize {
    let same_to = m.has_moving_part() && Some(m.to) == p.to;
    let same_kind = m.has_moving_part()
        && pos.piece_at(m.from).is_some_and(|piece| match p.kind {
            Some(k) => piece.kind == k,
            None => piece_name(pos.variant(), piece.kind).is_none(),
        });
    match (same_to, same_kind) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{move_text, parse_position};
    use crate::variants;

    fn position(variant: &str, fen: &str) -> Position {
        let rules = variants::rules(variant).expect("variant");
        let fen = if fen.is_empty() {
            rules.start_fen()
        } else {
            fen.to_string()
        };
        parse_position(rules, &fen).expect("fen")
    }

    fn text_of(pos: &Position, san_text: &str) -> String {
        let m = parse_san(pos, san_text).unwrap_or_else(|e| panic!("{san_text}: {e}"));
        move_text(pos, &m)
    }

    #[test]
    fn chess_conventions() {
        let pos = position("chess", "r3k2r/1P6/8/3pP3/8/8/6N1/R3K2R w KQkq d6 0 1");
        let sans: Vec<String> = san_moves(&pos).into_iter().map(|(_, s)| s).collect();
        for want in [
            "O-O", "O-O-O", "exd6", "b8=Q+", "bxa8=Q+", "Nf4", "Ne3", "Rb1",
        ] {
            assert!(sans.contains(&want.to_string()), "{want} in {sans:?}");
        }
        assert_eq!(text_of(&pos, "0-0"), "e1g1");
        assert_eq!(text_of(&pos, "Kg1"), "e1g1");
        assert_eq!(text_of(&pos, "exd6 e.p."), "e5d6");
        assert_eq!(text_of(&pos, "b8Q"), "b7b8q");
        assert_eq!(text_of(&pos, "b7xa8=Q+!"), "b7a8q");
        assert_eq!(text_of(&pos, "Ng2-f4"), "g2f4");
        let e = parse_san(&pos, "b8").expect_err("promotion piece missing");
        assert!(e.to_string().contains("ambiguous"), "{e}");
        assert_eq!(e.moves().len(), 4, "{e:?}");
        let e = parse_san(&pos, "Nd4").expect_err("no knight reaches d4");
        assert!(e.to_string().contains("not a legal move"), "{e}");
        assert!(e.moves()[0].starts_with('N'), "closest first: {e:?}");
    }

    #[test]
    fn disambiguation_is_minimal() {
        let pos = position("chess", "1k6/8/8/8/R7/8/8/R3K2R w K - 0 1");
        let sans: Vec<String> = san_moves(&pos).into_iter().map(|(_, s)| s).collect();
        for want in ["R1a2", "R4a2", "Rah4", "Rhh4", "Rb1+", "Ra5"] {
            assert!(sans.contains(&want.to_string()), "{want} in {sans:?}");
        }
        let e = parse_san(&pos, "Ra2").expect_err("two rooks");
        assert!(
            e.to_string().contains("R1a2, R4a2") || e.to_string().contains("R4a2, R1a2"),
            "{e}"
        );
        // Over-specified origins are accepted.
        assert_eq!(text_of(&pos, "Ra1a2"), "a1a2");
    }

    #[test]
    fn mate_and_check_marks() {
        let pos = position("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
        let m = parse_san(&pos, "Ra8").expect("legal");
        assert_eq!(san(&pos, &m), "Ra8#");
        let pos = position("chess", "7k/8/8/8/8/8/8/R3K3 w - - 0 1");
        let m = parse_san(&pos, "Ra8#").expect("marks are not checked");
        assert_eq!(san(&pos, &m), "Ra8+");
    }

    #[test]
    fn fairy_pieces_placements_and_carriers() {
        let se = position(
            "silver-elephant",
            crate::variants::silver_elephant::SETUP_FEN,
        );
        let sans: Vec<String> = san_moves(&se).into_iter().map(|(_, s)| s).collect();
        assert!(
            sans.contains(&"E@b1,N@c1,N@h1,E@i1".to_string()),
            "{sans:?}"
        );
        assert_eq!(text_of(&se, "N@h1,E@b1,E@i1,N@c1"), "E@b1,N@c1,N@h1,E@i1");
        let e = parse_san(&se, "E@b1,N@c1").expect_err("two placements are not a set-up");
        assert!(e.to_string().contains("not a legal move"), "{e}");

        let pp = position(
            "pink-panther",
            "rnngbbr/pppippp/7/3*3/3P3/PPPI1PP/RNNGBBR w - - 0 1",
        );
        let sans: Vec<String> = san_moves(&pp).into_iter().map(|(_, s)| s).collect();
        assert!(
            sans.contains(&"d5".to_string()),
            "the pawn's jewel jump: {sans:?}"
        );
        let pp = position(
            "pink-panther",
            "rnngbbr/pppippp/7/3+R3/7/PPPIPPP/1NNGBBR w - - 0 1",
        );
        let m = parse_san(&pp, "+Rd5").expect("the Chatelaine");
        assert_eq!(san(&pp, &m), "+Rd5");

        let cerimon = position("cerimon", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        assert!(san_moves(&cerimon).iter().all(|(_, s)| s.starts_with('K')));
        let e = parse_san(&cerimon, "Ke2,N@a2").expect_err("no Knight in hand");
        assert!(e.to_string().contains("no Knight in hand"), "{e}");
    }

    #[test]
    fn malformed_text_names_the_column() {
        let pos = position("chess", "");
        for (text, column) in [("Zf3", 1), ("Nf3,", 5), ("e4=Y", 3), ("N", 2), ("Nkf3", 2)] {
            let e = parse_san(&pos, text).expect_err(text);
            assert_eq!(e.column, column, "{text}: {e}");
        }
    }

    /// No column points into a well-formed move that is not legal, an ambiguous one or a text
    /// too long as a whole (each had column 1, and the long text was written out whole).
    #[test]
    fn what_concerns_the_whole_move_has_no_column() {
        let pos = position("chess", "");
        let e = parse_san(&pos, "O-O").expect_err("no castling at the start");
        assert_eq!((e.kind(), e.column), (SanErrorKind::Illegal, 0));
        assert!(
            e.to_string().starts_with("`O-O`: not a legal move here"),
            "{e}"
        );
        let knights = position("chess", "k7/8/8/8/8/8/8/KN3N2 w - - 0 1");
        let e = parse_san(&knights, "Nd2").expect_err("two Knights reach d2");
        assert_eq!((e.kind(), e.column), (SanErrorKind::Ambiguous, 0));
        assert!(e.to_string().starts_with("`Nd2`: ambiguous"), "{e}");
        let long = "N".repeat(500);
        let e = parse_san(&pos, &long).expect_err("too long");
        assert_eq!((e.kind(), e.column), (SanErrorKind::Syntax, 0));
        assert_eq!(
            e.to_string(),
            format!("{}: longer than 64 characters", echo(&long))
        );
        let e = parse_san(&pos, "Qh5x").expect_err("a capture of nothing named");
        assert_eq!(e.column, 4);
        assert!(e.to_string().starts_with("`Qh5x`, column 4: "), "{e}");
    }

    #[test]
    fn figurines_read_as_their_letters() {
        let pos = position("chess", "");
        for (figurine, letters) in [("♘f3", "Nf3"), ("♞c3", "Nc3"), ("♙e4", "Pe4"), ("e4", "e4")]
        {
            assert_eq!(
                parse_san(&pos, figurine),
                parse_san(&pos, letters),
                "{figurine}"
            );
        }
        let after = position(
            "chess",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        );
        let bishop = parse_san(&after, "♗b5").expect("the Bishop's move");
        assert_eq!(move_text(&after, &bishop), "f1b5");
        // An error quotes the text as written, at the column of the character in it.
        let e = parse_san(&pos, "♘f6").expect_err("no Knight reaches f6");
        assert_eq!(e.text, "♘f6");
        let e = parse_san(&pos, "♘kf3").expect_err("not a file of chess");
        assert_eq!((e.text.as_str(), e.column), ("♘kf3", 2), "{e}");
        // Other symbols are still refused, where they stand.
        let e = parse_san(&pos, "N♠f3").expect_err("a card suit");
        assert_eq!((e.column, e.reason.clone()), (2, SanReason::Character('♠')));
    }

    #[test]
    fn the_length_limit_counts_characters() {
        // It counted bytes while saying characters: 42 characters were "longer than 64".
        let pos = position("chess", "");
        let accented = format!("{}f3", "é".repeat(40));
        let e = parse_san(&pos, &accented).expect_err("no SAN");
        assert_eq!((e.column, e.reason), (1, SanReason::Character('é')));
        let long = "N".repeat(MAX_SAN_LEN + 1);
        assert_eq!(
            parse_san(&pos, &long).expect_err("long").reason,
            SanReason::TooLong
        );
        let e = parse_san(&pos, &"é".repeat(MAX_SAN_LEN + 1)).expect_err("long");
        assert_eq!(e.reason, SanReason::TooLong);
    }

    #[test]
    fn a_null_move_is_named_as_one() {
        // `--` was "names no square of this board to move to", `Z0` "not a piece of chess".
        let pos = position("chess", "");
        for text in ["--", "Z0", "0000", "@@@@"] {
            let e = parse_san(&pos, text).expect_err(text);
            assert_eq!(e.reason, SanReason::NullMove(text.to_string()), "{text}");
        }
    }
}

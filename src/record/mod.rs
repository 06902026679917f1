//! Game records in the notations players write: our coordinate move text, Game Courier's
//! notation, and PGN with SAN.
//!
//! A record is read in two steps. The notation's reader splits the text into games (tag pairs,
//! movetext, a result) and each game into the moves as written, each with its line and column;
//! comments, move numbers, annotation glyphs and variations are dropped there. Then
//! [`crate::game`] replays the moves, asking the notation which legal move each written move
//! names ([`interpret`]). `docs/game-records.md` describes the three notations as we read them.

pub mod coordinate;
pub mod game_courier;
pub mod pgn;

use crate::echo::echo;
use crate::notation::{MoveError, PositionTextError};
use crate::position::{Move, Position};
use crate::san::SanReason;
use std::fmt;

pub use game_courier::{CourierReason, LabelError, LabelReason, Labels};

/// A notation a record is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Our move text (`e2e4`, `N@b2`), with what records add around it stripped.
    Coordinate,
    /// Game Courier's notation (`P e2-e4`, `N*b2`, `;` joining the parts of a turn).
    GameCourier,
    /// PGN movetext with SAN (`Nf3`, `O-O`, `e8=Q`).
    San,
}

impl Notation {
    /// The order `--notation auto` tries the notations in.
    pub const AUTO_ORDER: [Notation; 3] =
        [Notation::Coordinate, Notation::GameCourier, Notation::San];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Coordinate => "coordinate",
            Notation::GameCourier => "game-courier",
            Notation::San => "san",
        }
    }

    /// The notation named `text` (`coordinate`, `game-courier`, `san`).
    pub fn parse(text: &str) -> Option<Notation> {
        Notation::AUTO_ORDER.into_iter().find(|n| n.name() == text)
    }
}

/// A record that cannot be read: where, at which ply, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The ply (1-based) being read, when the problem concerns a move.
    pub ply: Option<usize>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The move as written, when the problem concerns a move.
    pub written: Option<String>,
    /// What is wrong.
    pub reason: RecordReason,
    /// With `--notation auto`, when several notations were tried: which one the error is from
    /// and how the others stopped.
    pub tried: Option<Box<Tried>>,
}

impl fmt::Display for RecordError {
    /// On one line whatever the record holds: the record's own text quoted in it (a tag's
    /// value, a word) has its control characters and line separators escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let mut out = String::new();
        // A record's size has no place in it.
        if !matches!(self.reason, RecordReason::TooLarge(_)) {
            write!(out, "line {}, column {}: ", self.line, self.column)?;
        }
        match (self.ply, &self.written) {
            (Some(ply), Some(w)) => write!(out, "ply {ply} {}: ", echo(w))?,
            (Some(ply), None) => write!(out, "ply {ply}: ")?,
            _ => {}
        }
        write!(out, "{}", self.reason)?;
        if let Some(tried) = &self.tried {
            write!(
                out,
                " [read as {}, the notation that got furthest; {}]",
                tried.chosen.name(),
                tried.others.join(", ")
            )?;
        }
        f.write_str(&crate::report::one_line(&out))
    }
}

impl std::error::Error for RecordError {}

impl RecordError {
    /// An error at a place, about no ply in particular.
    pub fn at(line: usize, column: usize, reason: RecordReason) -> RecordError {
        RecordError {
            ply: None,
            line,
            column,
            written: None,
            reason,
            tried: None,
        }
    }
}

/// The notations `--notation auto` tried when none read the whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tried {
    /// The notation that got furthest, whose error this is.
    pub chosen: Notation,
    /// How each other notation stopped (`coordinate stopped at ply 1`).
    pub others: Vec<String>,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordReason {
    /// A record larger than [`MAX_RECORD_BYTES`].
    #[error("{0} bytes, larger than the limit of {MAX_RECORD_BYTES}")]
    TooLarge(usize),
    /// A byte that is not UTF-8 (the first such one).
    #[error("not UTF-8 text: byte {0:#04x} (save the record as UTF-8)")]
    NotUtf8(u8),
    /// Moves after a result, not opened by tag pairs or move 1.
    #[error(
        "`{}` follows the result `{}` at line {}, column {}: a game after a result opens with \
         tag pairs or with move 1 (is the result misplaced?)",
        .0.word, .0.result, .0.line, .0.column
    )]
    MovesAfterResult(Box<AfterResult>),
    /// `{` without `}`.
    #[error("comment `{{` is never closed by `}}`")]
    UnclosedComment,
    /// `[` without `]`.
    #[error("tag `[` is never closed by `]`")]
    UnclosedTag,
    /// Bracketed text that is not a tag pair `[Name "value"]` (taken as no tag, it would let a
    /// mistyped `[FEN ...]` start the game from the usual position).
    #[error("`[{0}]` is not a tag pair: write `[Name \"value\"]`, the value in double quotes")]
    NotATagPair(String),
    /// A `[SetUp]` value other than `0` and `1`.
    #[error("[SetUp \"{0}\"]: the value is \"0\" (the usual start) or \"1\" (the start in [FEN])")]
    SetUpValue(String),
    /// `)` without `(`.
    #[error("`)` closes no variation")]
    UnopenedVariation,
    /// `(` without `)`.
    #[error("variation `(` is never closed by `)`")]
    UnclosedVariation,
    /// A tag pair between a variation's `(` and its `)`: a new game cannot start there.
    #[error("a tag pair inside the variation opened on line {line}, column {column}")]
    TagInVariation {
        /// Where the variation's `(` is.
        line: usize,
        /// Its column.
        column: usize,
    },
    /// A tag pair given twice in one game with two different values.
    #[error(
        "tag `{}` given twice with different values (`{}` on line {}, then `{}`)",
        .0.name, .0.first, .0.line, .0.second
    )]
    TagTwice(Box<TagTwice>),
    /// A Game Courier turn ending in `;`.
    #[error("the turn ends after `;`: a part is missing")]
    TurnCutShort,
    /// A square written alone where Game Courier writes `e2-e4`.
    #[error("`{0}` is not a Game Courier move: write the squares with `-`, as `e2-e4`")]
    SquareWithoutDash(String),
    /// A Game Courier piece label with no move after it.
    #[error("the piece label `{0}` is not followed by a move")]
    LabelWithoutMove(String),
    /// A `;` with no move before it.
    #[error("`;` joins nothing: no move before it")]
    JoinsNothing,
    /// Game 0 asked for: games are counted from 1.
    #[error("game 0 asked for: games are counted from 1")]
    GameZero,
    /// A game index past the record's games.
    #[error("game {index} asked for, but the record holds {games} game{}", if *.games == 1 { "" } else { "s" })]
    NoSuchGame {
        /// The game asked for (from 1).
        index: usize,
        /// The record's games.
        games: usize,
    },
    /// A `[Variant]` tag naming no variant we know.
    #[error(
        "[Variant {}]: not a variant cvperft knows (variants: {ids})",
        echo(.0).quoted('"'),
        ids = variant_ids()
    )]
    UnknownVariant(String),
    /// `[FEN]` with `[SetUp "0"]`.
    #[error("[FEN] is given but [SetUp \"0\"] says the game starts from the usual position")]
    FenWithoutSetUp,
    /// `[SetUp "1"]` without `[FEN]`.
    #[error("[SetUp \"1\"] without a [FEN] tag")]
    SetUpWithoutFen,
    /// A `[FEN]` that is not a position of the variant (the error placed at its fault).
    #[error("[FEN]: {}", fen_problem(.0))]
    Fen(Box<PositionTextError>),
    /// `[Variant "From Position"]` (lichess: orthodox chess from a set-up position) without
    /// `[FEN]`.
    #[error(
        "[Variant \"{0}\"] says the game starts from a set-up position, but there is no [FEN] tag \
         giving it"
    )]
    FromPositionWithoutFen(String),
    /// A game of more than [`crate::game::MAX_PLIES`] plies.
    #[error("{0} plies, more than the limit of {max}", max = crate::game::MAX_PLIES)]
    TooManyPlies(usize),
    /// A ply asked for past the game's end.
    #[error("ply {ply} asked for, but the game has only {plies} plies")]
    NoSuchPly {
        /// The ply asked for.
        ply: usize,
        /// The game's plies.
        plies: usize,
    },
    /// A written move that names no legal move.
    #[error("{0}")]
    Move(Box<MoveReason>),
    /// Two notations that read the record as different games.
    #[error(
        "the record reads as {} and as {}, as different games: here {} reads {first_reads} and \
         {} reads {second_reads}; choose with --notation",
        .first.name(), .second.name(), .first.name(), .second.name()
    )]
    Disagree {
        /// The notation that read it first.
        first: Notation,
        /// The other.
        second: Notation,
        /// The move the first reads here.
        first_reads: String,
        /// The move the other reads here.
        second_reads: String,
    },
}

/// A `[FEN]` tag's problem, its place in the FEN left out: the error names the record's line
/// and column of it (a column of the FEN text read as one of the record).
fn fen_problem(e: &PositionTextError) -> String {
    match e {
        PositionTextError::Fen(e) => match e.place() {
            Some((field, _)) => format!("FEN {field} field: {}", e.reason),
            None => e.to_string(),
        },
        PositionTextError::Position(e) => e.to_string(),
    }
}

/// The variant ids `[Variant]` accepts: every registered variant's.
fn variant_ids() -> String {
    crate::variants::IDS.join(", ")
}

/// Most bytes of a record read.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// One part of a written move, where it stands in the record (a Game Courier turn has several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The text as written.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Where the text after a Game Courier piece label written apart from its move starts
    /// (`P   e2-e4`, or the label at a line's end, joined as `P e2-e4`): its byte offset in
    /// `text`, its line and its column.
    pub then: Option<(usize, usize, usize)>,
}

impl Part {
    /// The line and column (in characters) of the byte `offset` of the text.
    pub fn place(&self, offset: usize) -> (usize, usize) {
        let chars = |from: usize, to: usize| {
            self.text
                .get(from..to)
                .map_or(to - from, |s| s.chars().count())
        };
        match self.then {
            Some((at, line, column)) if offset >= at => (line, column + chars(at, offset)),
            _ => (self.line, self.column + chars(0, offset)),
        }
    }
}

/// One move (ply) as a record writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Its parts, in order (one but for Game Courier's `;`-joined turns and SAN split at a
    /// comma).
    pub parts: Vec<Part>,
}

impl Written {
    /// The move's text as written (parts joined as the notation joins them).
    pub fn text(&self, notation: Notation) -> String {
        let sep = match notation {
            Notation::GameCourier => "; ",
            _ => ",",
        };
        self.parts
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(sep)
    }
    /// Where the move starts.
    pub fn at(&self) -> (usize, usize) {
        self.parts.first().map_or((1, 1), |p| (p.line, p.column))
    }
}

/// A tag given twice with two values ([`RecordReason::TagTwice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagTwice {
    /// The tag's name, as written the second time.
    pub name: String,
    /// The first value.
    pub first: String,
    /// Its line.
    pub line: usize,
    /// The second value.
    pub second: String,
}

/// Moves after a result that neither tag pairs nor move 1 open
/// ([`RecordReason::MovesAfterResult`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterResult {
    /// The first word after the result.
    pub word: String,
    /// The result as written.
    pub result: String,
    /// The result's line.
    pub line: usize,
    /// Its column.
    pub column: usize,
}

/// A tag pair (`[Variant "cerimon"]`) and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The tag's name.
    pub name: String,
    /// Its value, PGN's escapes undone.
    pub value: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column of its `[`.
    pub column: usize,
    /// The line and column of the value's first character when the value stands in the record
    /// as it reads (ASCII on one line, no escapes), so that a column in the value is one of the
    /// record (a fault in a `[FEN]` is placed at its character).
    pub value_at: Option<(usize, usize)>,
}

impl Tag {
    /// Where the value's character at `offset` (0-based) stands in the record: there when the
    /// value is written as it reads, else at the tag's `[`.
    pub fn place(&self, offset: usize) -> (usize, usize) {
        match self.value_at {
            Some((line, column)) if offset <= self.value.len() => (line, column + offset),
            _ => (self.line, self.column),
        }
    }
}

/// One game of a record: its tag pairs and its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// Tag pairs, in order.
    pub tags: Vec<Tag>,
    /// The moves as written.
    pub moves: Vec<Written>,
}

impl GameText {
    /// The tag `name` (case-insensitive), if given.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// Splits a record into games, as `notation` writes them.
///
/// # Errors
/// An unclosed comment, tag or variation, a truncated Game Courier turn, or a record larger
/// than [`MAX_RECORD_BYTES`].
pub fn games(text: &str, notation: Notation) -> Result<Vec<GameText>, RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::at(1, 1, RecordReason::TooLarge(text.len())));
    }
    match notation {
        Notation::Coordinate => coordinate::games(text),
        Notation::GameCourier => game_courier::games(text),
        Notation::San => pgn::games(text),
    }
}

/// The tags cvperft reads from a game ([`GameText::tag`]): where the start position and the
/// variant come from.
pub const READ_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];

/// Refuses a tag cvperft reads ([`READ_TAGS`], names compared without case, as
/// [`GameText::tag`] looks them up) given twice in one game with two values: the first would be
/// used silently (`[FEN]` twice, two `[Variant]`s). The same value twice is accepted, and so is
/// any other tag given twice (`[Annotator]`). Every notation checks its own games' tags (a
/// coordinate record is one game with every tag of the text).
pub(crate) fn tags_once(tags: &[Tag]) -> Result<(), RecordError> {
    let mut seen: std::collections::HashMap<String, &Tag> = std::collections::HashMap::new();
    for tag in tags
        .iter()
        .filter(|t| READ_TAGS.iter().any(|r| t.name.eq_ignore_ascii_case(r)))
    {
        let first = *seen.entry(tag.name.to_ascii_lowercase()).or_insert(tag);
        if first.value != tag.value {
            return Err(RecordError::at(
                tag.line,
                tag.column,
                RecordReason::TagTwice(Box::new(TagTwice {
                    name: tag.name.clone(),
                    first: first.value.clone(),
                    line: first.line,
                    second: tag.value.clone(),
                })),
            ));
        }
    }
    Ok(())
}

/// Why a written move names no legal move: where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveProblem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong (closest legal moves included).
    pub reason: MoveReason,
}

/// Why a written move names no legal move, in the notation it was read in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveReason {
    /// Text that is not coordinate move text.
    #[error("not coordinate move text: {0}")]
    NotCoordinate(MoveError),
    /// Coordinate move text naming no legal move.
    #[error("illegal: {0}")]
    IllegalCoordinate(MoveError),
    /// SAN that is malformed, fits no legal move (the closest listed) or several.
    #[error("{}", san_problem(.0))]
    San(SanReason),
    /// A Game Courier turn that cannot be read or fits no legal move.
    #[error("{0}")]
    GameCourier(CourierReason),
}

impl MoveReason {
    /// Whether the text could not be read at all (as opposed to naming no legal move): auto
    /// detection prefers a notation that read the text.
    pub fn unreadable(&self) -> bool {
        match self {
            MoveReason::NotCoordinate(_) => true,
            MoveReason::IllegalCoordinate(_) => false,
            MoveReason::San(r) => !matches!(r, SanReason::Illegal { .. } | SanReason::Ambiguous(_)),
            MoveReason::GameCourier(r) => r.unreadable(),
        }
    }
}

/// `not SAN: ...`, `illegal: ... (legal: ...)` or the ambiguity.
fn san_problem(reason: &SanReason) -> String {
    match reason {
        SanReason::Illegal { closest, .. } => {
            format!("illegal: {reason} ({})", list_moves(closest))
        }
        SanReason::Ambiguous(_) => reason.to_string(),
        _ => format!("not SAN: {reason}"),
    }
}

/// The legal move of `pos` that `written` names in `notation`.
///
/// # Errors
/// A [`MoveProblem`] locating what is wrong.
pub fn interpret(
    pos: &Position,
    notation: Notation,
    written: &Written,
    labels: &Labels,
) -> Result<Move, MoveProblem> {
    match notation {
        Notation::Coordinate => coordinate::interpret(pos, written),
        Notation::GameCourier => game_courier::interpret(pos, written, labels),
        Notation::San => pgn::interpret(pos, written),
    }
}

/// The names `[Variant "..."]` accepts besides every registered variant's id and name,
/// normalised (lower case, letters and digits only), with the variant each selects.
pub const VARIANT_NAMES: &[(&str, &str)] = &[
    ("chess", "chess"),
    ("standard", "chess"),
    ("orthodox", "chess"),
    ("orthodoxchess", "chess"),
    // Lichess's name for orthodox chess from a set-up position, given in `[FEN]`.
    (FROM_POSITION, "chess"),
    ("silverelephant", "silver-elephant"),
    ("silverelephantchess", "silver-elephant"),
    ("bachelorkamil", "bachelor-kamil"),
    ("bachelorkamilchess", "bachelor-kamil"),
    ("cerimon", "cerimon"),
    ("cerimonchess", "cerimon"),
    ("plutonian", "plutonian"),
    ("plutonianchess", "plutonian"),
    ("pinkpanther", "pink-panther"),
    ("pinkpantherchess", "pink-panther"),
];

/// The normalised `[Variant]` name lichess writes for orthodox chess from a set-up position
/// (`From Position`): it needs `[FEN]`.
const FROM_POSITION: &str = "fromposition";

/// A `[Variant]` value normalised as [`VARIANT_NAMES`] lists it.
fn variant_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The variant id a `[Variant "..."]` tag names: case, spaces, `-` and `_` do not matter
/// (`Silver Elephant Chess`, `silver-elephant`, `Standard`, `From Position`).
pub fn variant_of_tag(name: &str) -> Option<&'static str> {
    let key = variant_key(name);
    VARIANT_NAMES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, id)| *id)
        .or_else(|| registered_variant(&key))
}

/// The registered variant whose id or declared name normalises to `key` (a variant added to
/// the registry is read from its own records without a line in [`VARIANT_NAMES`]).
fn registered_variant(key: &str) -> Option<&'static str> {
    crate::variants::all()
        .iter()
        .find(|v| variant_key(v.spec.id) == key || variant_key(v.spec.name) == key)
        .map(|v| v.spec.id)
}

/// Whether a `[Variant "..."]` tag says the game starts from the position in `[FEN]`, which must
/// then be given (lichess's `From Position`).
pub fn variant_tag_needs_fen(name: &str) -> bool {
    variant_key(name) == FROM_POSITION
}

// ----- shared lexing -----

/// Which comments a notation has.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Comments {
    /// `{ ... }`.
    pub braces: bool,
    /// `;` to the end of the line.
    pub semicolon: bool,
    /// `//` to the end of the line.
    pub slashes: bool,
    /// `%` in the first column: the whole line.
    pub percent: bool,
}

/// A word of the movetext with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    pub line: usize,
    pub column: usize,
    /// Index in characters into the record (orders words and tags).
    pub index: usize,
}

impl Word {
    pub fn part(&self) -> Part {
        Part {
            text: self.text.clone(),
            line: self.line,
            column: self.column,
            then: None,
        }
    }
    pub fn error(&self, ply: Option<usize>, reason: RecordReason) -> RecordError {
        RecordError {
            ply,
            line: self.line,
            column: self.column,
            written: None,
            reason,
            tried: None,
        }
    }
}

/// A record with its comments and tag pairs blanked out, and the tag pairs.
pub(crate) struct Lexed {
    /// Words of the movetext; characters in `own` are words of their own.
    pub words: Vec<Word>,
    /// Tag pairs with the index they start at.
    pub tags: Vec<(usize, Tag)>,
    /// The `;` comments, each placed at its `;`, their text after it.
    pub semicolon_comments: Vec<Word>,
}

/// Blanks comments and tag pairs out of `text` and splits the rest into words.
pub(crate) fn lex(text: &str, comments: Comments, own: &[char]) -> Result<Lexed, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    let cr_alone = cr_ends_lines(text.as_bytes());
    let mut plain: Vec<char> = Vec::with_capacity(chars.len());
    // Characters of `own` that belong to the word they stand in (`e8(Q)`).
    let mut glued: Vec<bool> = Vec::with_capacity(chars.len());
    let mut tags = Vec::new();
    let mut semicolon_comments = Vec::new();
    let positions = places(&chars, cr_alone);
    let unclosed = |i: usize, reason: RecordReason| {
        let (line, column) = positions[i];
        RecordError::at(line, column, reason)
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let to_line_end = |i: usize| {
            let mut j = i;
            while j < chars.len() && !ends_line(&chars, j, cr_alone) {
                j += 1;
            }
            j
        };
        let end = if comments.braces && c == '{' {
            let close = (i..chars.len()).find(|&j| chars[j] == '}');
            close.ok_or_else(|| unclosed(i, RecordReason::UnclosedComment))? + 1
        } else if comments.semicolon && c == ';' {
            let end = to_line_end(i);
            let (line, column) = positions[i];
            semicolon_comments.push(Word {
                text: chars[i + 1..end].iter().collect(),
                line,
                column,
                index: i,
            });
            end
        } else if (comments.slashes && c == '/' && chars.get(i + 1) == Some(&'/'))
            || (comments.percent && c == '%' && positions[i].1 == 1)
        {
            to_line_end(i)
        } else if c == '[' {
            let end = tag_end(&chars, i).ok_or_else(|| unclosed(i, RecordReason::UnclosedTag))?;
            let inner: String = chars[i + 1..end - 1].iter().collect();
            let (line, column) = positions[i];
            let Some((name, value)) = tag_pair(&inner) else {
                return Err(RecordError::at(
                    line,
                    column,
                    RecordReason::NotATagPair(shown(&inner)),
                ));
            };
            let value_at = value_start(&chars, i, end, &value).map(|j| positions[j]);
            tags.push((
                i,
                Tag {
                    name,
                    value,
                    line,
                    column,
                    value_at,
                },
            ));
            end
        } else if own.contains(&c) && glued_promotion(&chars, i) {
            // `e8(Q)`: a promotion written in brackets, glued to its square, is part of the
            // word (a variation holding a piece letter alone would hold no move).
            plain.extend_from_slice(&chars[i..i + 3]);
            glued.extend([true; 3]);
            i += 3;
            continue;
        } else {
            plain.push(c);
            glued.push(false);
            i += 1;
            continue;
        };
        // Blank, keeping newlines.
        for &b in &chars[i..end] {
            plain.push(if b == '\n' { '\n' } else { ' ' });
            glued.push(false);
        }
        i = end;
    }
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    for (i, &c) in plain.iter().enumerate() {
        let (line, column) = positions[i];
        // A byte-order mark (files saved by some Windows tools start with one) is a space.
        let own_word = own.contains(&c) && !glued[i];
        if c.is_whitespace() || c == '\u{feff}' || own_word {
            if let Some(w) = current.take() {
                words.push(w);
            }
            if own_word {
                words.push(Word {
                    text: c.to_string(),
                    line,
                    column,
                    index: i,
                });
            }
            continue;
        }
        match &mut current {
            Some(w) => w.text.push(c),
            None => {
                current = Some(Word {
                    text: c.to_string(),
                    line,
                    column,
                    index: i,
                });
            }
        }
    }
    if let Some(w) = current {
        words.push(w);
    }
    Ok(Lexed {
        words,
        tags,
        semicolon_comments,
    })
}

/// The line and column (1-based, as an editor shows them) of each of `chars`, and after the
/// last of them. A byte-order mark opening the record takes no column (no editor shows it), so
/// that what follows it stands in column 1 (a `%` escape line there is one).
pub(crate) fn places(chars: &[char], cr_alone: bool) -> Vec<(usize, usize)> {
    let (mut line, mut column) = (1usize, 1usize);
    let mut positions = Vec::with_capacity(chars.len() + 1);
    for i in 0..chars.len() {
        positions.push((line, column));
        if ends_line(chars, i, cr_alone) {
            line += 1;
            column = 1;
        } else if i > 0 || chars[i] != '\u{feff}' {
            column += 1;
        }
    }
    positions.push((line, column));
    positions
}

/// A record's bytes as text: UTF-8, else ISO 8859-1 (Latin-1), every byte a character, which
/// is the encoding the PGN standard gives its files (section 4.1) and the one older databases
/// export in (`[White "M\xfcller"]`, refused as not UTF-8 though a tool wrote it as the
/// standard says). Moves are ASCII in every notation, so the reading of the moves is the same
/// either way. Bytes holding a NUL or opening with a UTF-16 byte-order mark are no such text
/// (UTF-16, a binary file) and are refused.
///
/// # Errors
/// The line and column of the first byte that is not UTF-8, in bytes that are not Latin-1
/// text either.
pub fn decode(bytes: Vec<u8>) -> Result<String, RecordError> {
    String::from_utf8(bytes).or_else(|e| {
        let bytes = e.as_bytes();
        if latin1_text(bytes) {
            return Ok(bytes.iter().map(|&b| char::from(b)).collect());
        }
        let bad = e.utf8_error().valid_up_to();
        // Valid up to `bad` by the error's own account.
        let before: Vec<char> = String::from_utf8_lossy(&bytes[..bad]).chars().collect();
        let (line, column) = places(&before, cr_ends_lines(bytes))[before.len()];
        Err(RecordError::at(
            line,
            column,
            RecordReason::NotUtf8(bytes[bad]),
        ))
    })
}

/// Whether bytes that are not UTF-8 read as Latin-1 text: no NUL (which UTF-16 holds in every
/// ASCII character, and binary files hold) and no UTF-16 byte-order mark.
fn latin1_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && !bytes.starts_with(&[0xff, 0xfe]) && !bytes.starts_with(&[0xfe, 0xff])
}

/// Whether a record's lines end in CR alone (the line breaks of the classic Mac OS; read as
/// spaces, a `;` or `//` comment ran to the end of the record, and the moves after the first
/// such comment were dropped): its CRs not followed by LF outnumber its LFs, as in a record
/// holding no LF, or one that a tool ended with an LF (which made every CR a space, with exit
/// 0). In a record with LF line breaks a CR is a space: the CR of a CRLF, and a stray CR inside
/// a comment, which does not end it (as an editor shows the line).
pub(crate) fn cr_ends_lines(text: &[u8]) -> bool {
    let lf = text.iter().filter(|&&b| b == b'\n').count();
    let lone_cr = text
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && text.get(i + 1) != Some(&b'\n'))
        .count();
    lone_cr > lf
}

/// The line break of a record: CR where its lines end in CR alone ([`cr_ends_lines`]), else
/// LF (for text joined to it).
pub(crate) fn line_break(text: &str) -> char {
    match cr_ends_lines(text.as_bytes()) {
        true => '\r',
        false => '\n',
    }
}

/// Whether the character at `i` ends its line: LF, or CR in a record whose lines end in CR
/// alone (`cr_alone`, [`cr_ends_lines`]) unless an LF follows (a CRLF there ends one line).
pub(crate) fn ends_line(chars: &[char], i: usize, cr_alone: bool) -> bool {
    match chars[i] {
        '\n' => true,
        '\r' => cr_alone && chars.get(i + 1) != Some(&'\n'),
        _ => false,
    }
}

/// Whether the `(` at `open` starts a promotion glued to a square, as in `e8(Q)`: after a
/// digit, one letter, then `)`.
fn glued_promotion(chars: &[char], open: usize) -> bool {
    chars[open] == '('
        && open > 0
        && chars[open - 1].is_ascii_digit()
        && chars.get(open + 1).is_some_and(char::is_ascii_alphabetic)
        && chars.get(open + 2) == Some(&')')
}

/// Bracketed text as an error shows it: control characters escaped, at most 60 characters.
pub(crate) fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(60) {
        match c.is_control() {
            true => out.extend(c.escape_debug()),
            false => out.push(c),
        }
    }
    if text.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// The index just past the `]` closing the tag opened at `open`; a `]` inside a quoted value
/// does not close it.
fn tag_end(chars: &[char], open: usize) -> Option<usize> {
    let mut quoted = false;
    let mut j = open + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' if quoted => j += 1,
            '"' => quoted = !quoted,
            ']' if !quoted => return Some(j + 1),
            _ => {}
        }
        j += 1;
    }
    None
}

/// The index of the first character of the value of the tag in `chars[open..end]`, when the
/// text between its quotes is `value` as it reads: ASCII on one line, no escape.
fn value_start(chars: &[char], open: usize, end: usize, value: &str) -> Option<usize> {
    let quote = (open..end).find(|&j| chars[j] == '"')? + 1;
    let written: String = chars.get(quote..quote + value.len())?.iter().collect();
    let plain = value.is_ascii() && !value.contains(['\\', '\n', '\r']);
    (plain && written == value && chars.get(quote + value.len()) == Some(&'"')).then_some(quote)
}

/// `Name "value"` (PGN's escapes `\"` and `\\` undone), or `None` for other bracketed text.
fn tag_pair(inner: &str) -> Option<(String, String)> {
    let inner = inner.trim();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    if name_len == 0 {
        return None;
    }
    let rest = inner[name_len..].trim_start();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    for c in quoted.chars() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            value.push(c);
        }
    }
    Some((inner[..name_len].to_string(), value))
}

/// Whether a word is a game result.
pub(crate) fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// A move number (`1.`, `12...`, `...`) and the rest of the word glued to it (`1.e4`).
pub(crate) fn strip_move_number(word: &str) -> &str {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let rest = &word[digits..];
    if rest.starts_with('.') || (digits == 0 && word.starts_with("...")) {
        rest.trim_start_matches('.')
    } else {
        word
    }
}

/// A game as [`split_games`] finds it: its tag pairs and its words.
pub(crate) type SplitGame = (Vec<Tag>, Vec<Word>);

/// Groups words into games: a game ends at a result, and tag pairs after moves start a new one.
/// Every game keeps the tags just before its moves.
///
/// # Errors
/// Moves after a result that neither tag pairs nor move 1 open: a result written inside a game
/// cut it short there, and the rest was read as another game, with exit 0.
pub(crate) fn split_games(lexed: Lexed) -> Result<Vec<SplitGame>, RecordError> {
    let mut games = Vec::new();
    let mut tags: Vec<Tag> = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut after_result: Option<Word> = None;
    let mut tag_iter = lexed.tags.into_iter().peekable();
    for w in lexed.words {
        while let Some((_, tag)) = tag_iter.next_if(|(i, _)| *i < w.index) {
            if !words.is_empty() {
                games.push((std::mem::take(&mut tags), std::mem::take(&mut words)));
            }
            tags.push(tag);
            after_result = None;
        }
        if is_result(&w.text) {
            games.push((std::mem::take(&mut tags), std::mem::take(&mut words)));
            after_result = Some(w);
            continue;
        }
        if let Some(result) = after_result.take()
            && !opens_a_game(&w.text)
        {
            return Err(w.error(
                None,
                RecordReason::MovesAfterResult(Box::new(AfterResult {
                    word: w.text.clone(),
                    result: result.text,
                    line: result.line,
                    column: result.column,
                })),
            ));
        }
        words.push(w);
    }
    if !words.is_empty() || games.is_empty() || tag_iter.peek().is_some() || !tags.is_empty() {
        tags.extend(tag_iter.map(|(_, t)| t));
        games.push((tags, words));
    }
    Ok(games)
}

/// Whether a word can open a game that has no tag pairs: move 1 (`1.`, `1...`, `1.e4`).
fn opens_a_game(word: &str) -> bool {
    let number = &word[..word.len() - strip_move_number(word).len()];
    number.trim_end_matches('.') == "1"
}

/// Closest legal moves as a short list for messages.
pub(crate) fn list_moves(moves: &[String]) -> String {
    if moves.is_empty() {
        return "no legal moves".into();
    }
    let shown: Vec<&str> = moves.iter().take(12).map(String::as_str).collect();
    format!(
        "legal: {}{}",
        shown.join(" "),
        if moves.len() > 12 { " ..." } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: Comments = Comments {
        braces: true,
        semicolon: true,
        slashes: false,
        percent: true,
    };

    #[test]
    fn a_byte_that_is_not_utf8_is_placed_as_an_editor_shows_it() {
        // It was "not UTF-8 text", with no line or column, in a record of up to 1 MiB. A NUL
        // (after the bad byte) makes the bytes no Latin-1 text either.
        let place = |bytes: &[u8]| {
            let e = decode([bytes, b"\0"].concat()).expect_err("not UTF-8");
            (e.line, e.column, e.to_string())
        };
        assert_eq!(
            place(b"1. e4 \xff e5"),
            (
                1,
                7,
                "line 1, column 7: not UTF-8 text: byte 0xff (save the record as UTF-8)".into()
            )
        );
        // Columns count characters; lines end in LF, or in CR alone where no LF is.
        assert_eq!(place(b"\xc3\xa9\r\n1. \xc3\xa9\xe9").0, 2);
        assert_eq!(place(b"\xc3\xa9\r\n1. \xc3\xa9\xe9").1, 5);
        assert_eq!(place(b"[A \"b\"]\r1. e4\re5 \xc3").0, 3);
        assert_eq!(place(b"[A \"b\"]\r1. e4\re5 \xc3").1, 4);
        // A byte-order mark opening the record takes no column.
        assert_eq!(place(b"\xef\xbb\xbf1. e4 \xff").1, 7);
        assert_eq!(decode(b"1. e4".to_vec()).as_deref(), Ok("1. e4"));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_read_as_latin1_as_the_pgn_standard_says() {
        // `Müller` as a Latin-1 export writes it was refused as not UTF-8.
        assert_eq!(
            decode(b"[White \"M\xfcller\"]\n1. e4 *".to_vec()).as_deref(),
            Ok("[White \"Müller\"]\n1. e4 *")
        );
        // UTF-8 stays UTF-8; UTF-16, with its byte-order mark or its NULs, is refused.
        assert_eq!(
            decode("Müller".as_bytes().to_vec()).as_deref(),
            Ok("Müller")
        );
        for bytes in [&b"\xff\xfe[\0E\0"[..], b"\xfe\xff\0[\0E", b"[\0W\0\xfc\0"] {
            let e = decode(bytes.to_vec()).expect_err("UTF-16");
            assert!(matches!(e.reason, RecordReason::NotUtf8(_)), "{bytes:?}");
        }
    }

    #[test]
    fn an_error_quoting_the_record_stays_on_one_line() {
        // Found by the `record` fuzz target: a tag's value holding a line break was quoted as
        // it was (`[FEN]` given twice), and the error ran over two lines.
        let text =
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[FEN \"8/8/8/8/8/8/8/K6k\nw - - 0 1\"]\n";
        let e = games(text, Notation::San).expect_err("two values");
        assert_eq!(
            e.to_string(),
            "line 2, column 1: tag `FEN` given twice with different values \
             (`8/8/8/8/8/8/8/K6k w - - 0 1` on line 1, then `8/8/8/8/8/8/8/K6k\\nw - - 0 1`)"
        );
        let e = RecordError::at(
            1,
            1,
            RecordReason::FromPositionWithoutFen("From\r\u{2028}Position".into()),
        );
        assert!(!e.to_string().contains(['\n', '\r', '\u{2028}']), "{e}");
        assert!(e.to_string().contains("From\\r\\u{2028}Position"), "{e}");
    }

    #[test]
    fn a_record_too_large_is_refused_without_a_place() {
        let text = " ".repeat(MAX_RECORD_BYTES + 1);
        let e = games(&text, Notation::Coordinate).expect_err("too large");
        // The size has no place: it said `line 1, column 1`.
        assert_eq!(
            e.to_string(),
            format!(
                "{} bytes, larger than the limit of {MAX_RECORD_BYTES}",
                text.len()
            )
        );
    }

    #[test]
    fn lexing_keeps_lines_and_columns_and_reads_tags() {
        let lexed = lex(
            "[Event \"a ] b\"]\n[FEN \"x\\\"y\"]\n1. e4 {c\nd} e5 ; rest\n% skip\n(Nf3)",
            ALL,
            &['(', ')'],
        )
        .expect("lexes");
        let words: Vec<(&str, usize, usize)> = lexed
            .words
            .iter()
            .map(|w| (w.text.as_str(), w.line, w.column))
            .collect();
        assert_eq!(
            words,
            [
                ("1.", 3, 1),
                ("e4", 3, 4),
                ("e5", 4, 4),
                ("(", 6, 1),
                ("Nf3", 6, 2),
                (")", 6, 5)
            ]
        );
        let tags: Vec<(&str, &str)> = lexed
            .tags
            .iter()
            .map(|(_, t)| (t.name.as_str(), t.value.as_str()))
            .collect();
        assert_eq!(tags, [("Event", "a ] b"), ("FEN", "x\"y")]);
    }

    #[test]
    fn a_promotion_in_brackets_stays_in_its_word() {
        let lexed = lex("1. a8(Q) Kg6 2. Qb8(2. Qa1 Kf5) *", ALL, &['(', ')']).expect("lexes");
        let words: Vec<&str> = lexed.words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(
            words,
            [
                "1.", "a8(Q)", "Kg6", "2.", "Qb8", "(", "2.", "Qa1", "Kf5", ")", "*"
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_is_a_space() {
        let lexed = lex("\u{feff}[Event \"x\"]\r\n1. e4\r\n", ALL, &[]).expect("lexes");
        let words: Vec<&str> = lexed.words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(words, ["1.", "e4"]);
    }

    #[test]
    fn unclosed_comments_and_tags_are_located() {
        let e = lex("1. e4\n  { open", ALL, &[]).err().expect("unclosed");
        assert_eq!((e.line, e.column), (2, 3));
        let e = lex("1. e4\n[Event \"x\"\n1. e4", ALL, &[])
            .err()
            .expect("unclosed");
        assert_eq!((e.line, e.column), (2, 1));
    }

    #[test]
    fn games_split_at_results_and_tags() {
        let lexed = lex(
            "[A \"1\"]\n1. e4 1-0\n[B \"2\"]\n1. d4 *\n[C \"3\"] 1. c4",
            ALL,
            &[],
        )
        .expect("lexes");
        let games = split_games(lexed).expect("splits");
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].0[0].value, "2");
        assert_eq!(games[2].1.last().map(|w| w.text.as_str()), Some("c4"));
    }

    #[test]
    fn variant_tags() {
        assert_eq!(
            variant_of_tag("Silver Elephant Chess"),
            Some("silver-elephant")
        );
        assert_eq!(variant_of_tag("pink_panther"), Some("pink-panther"));
        assert_eq!(variant_of_tag("Standard"), Some("chess"));
        assert_eq!(variant_of_tag("crazyhouse"), None);
        // Lichess's orthodox chess from a set-up position, in any case; its Chess960 is not
        // orthodox chess (castling differs) and stays refused.
        for name in ["From Position", "from position", "fromPosition"] {
            assert_eq!(variant_of_tag(name), Some("chess"), "{name}");
            assert!(variant_tag_needs_fen(name), "{name}");
        }
        assert!(!variant_tag_needs_fen("Standard"));
        assert_eq!(variant_of_tag("Chess960"), None);
    }

    /// Every registered variant is read by its id and by its declared name, with no line in
    /// `VARIANT_NAMES` (a seventh variant's `[Variant]` was refused with a list of variants
    /// that left it out), and the refusal lists every registered id.
    #[test]
    fn every_registered_variant_is_a_variant_tag() {
        for v in crate::variants::all() {
            for name in [v.spec.id, v.spec.name] {
                assert_eq!(registered_variant(&variant_key(name)), Some(v.spec.id));
                assert_eq!(variant_of_tag(name), Some(v.spec.id), "{name}");
            }
            assert!(
                variant_ids().split(", ").any(|id| id == v.spec.id),
                "{}",
                v.spec.id
            );
        }
    }
}

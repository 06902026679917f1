//! Replaying a game record: which notation it is written in, where it starts, and the position
//! after every ply.
//!
//! A disputed game arrives as a record copied from where it was played: a Game Courier log, a
//! PGN export, or our own move text. [`read_header`] finds what the record says about its
//! variant and start (PGN's `[Variant]`, `[FEN]` and `[SetUp]` tags), and [`read_game`] replays
//! it from the start position the caller settled on, in the notation asked for or, with
//! `--notation auto`, in the first of [`Notation::AUTO_ORDER`] that reads it to the end.
//! [`read_record`] does the whole of it as `cvperft game` does: the header, the rules the
//! caller settles from it, the start, the replay, and a cross-check of the notations each
//! reading the record with the tags of its own split into games.

use crate::notation::{PositionTextError, move_text, parse_position, to_fen};
use crate::position::{Move, Position};
use crate::record::{self, GameText, Labels, Notation, RecordError, RecordReason, Tag, Tried};
use crate::san::san;
use crate::variant::{Colour, Rules};

mod auto;

pub use auto::{Detection, ReadRecordError, RecordRead, RecordRequest, read_record};

/// Most plies replayed from one record.
pub const MAX_PLIES: usize = 10_000;

/// How to read a record.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// The notation; `None` detects it (`--notation auto`).
    pub notation: Option<Notation>,
    /// Game Courier piece labels that differ from ours.
    pub labels: Labels,
    /// Which game of the record, from 1.
    pub game_index: usize,
    /// Stop after this many plies (default: the end of the game).
    pub at_ply: Option<usize>,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            notation: None,
            labels: Labels::default(),
            game_index: 1,
            at_ply: None,
        }
    }
}

/// One ply replayed.
#[derive(Clone)]
pub struct Ply {
    /// 1-based ply number in the record.
    pub ply: usize,
    /// The move number as a record writes it: `12.` for White, `12...` for Black.
    pub number: String,
    /// The move as written.
    pub written: String,
    /// Where it was written: 1-based line and column.
    pub at: (usize, usize),
    /// The move.
    pub mv: Move,
    /// Our move text.
    pub text: String,
    /// SAN.
    pub san: String,
    /// The position after it.
    pub after: Position,
}

impl std::fmt::Debug for Ply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} `{}` {} {} {}",
            self.ply,
            self.number,
            self.written,
            self.text,
            self.san,
            self.fen()
        )
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("notation", &self.notation)
            .field("start", &to_fen(&self.start))
            .field("plies", &self.plies)
            .finish_non_exhaustive()
    }
}

impl Ply {
    /// FEN of the position after the ply.
    pub fn fen(&self) -> String {
        to_fen(&self.after)
    }
}

/// How one notation fared with `--notation auto`.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The notation tried.
    pub notation: Notation,
    /// Plies it replayed before stopping.
    pub read: usize,
    /// Why it stopped (`None`: it read the whole game).
    pub error: Option<RecordError>,
    /// Whether it stopped at text it could not read at all (rather than at an illegal move).
    pub unreadable: bool,
    /// How many games it found in the record.
    pub games: usize,
}

/// A record replayed.
#[derive(Clone)]
pub struct Game {
    /// The notation it was read in.
    pub notation: Notation,
    /// With `--notation auto`, every notation tried, in order (the first that read the whole
    /// game is the choice).
    pub attempts: Vec<Attempt>,
    /// The start position.
    pub start: Position,
    /// The plies replayed.
    pub plies: Vec<Ply>,
    /// The game's tag pairs.
    pub tags: Vec<Tag>,
}

impl Game {
    /// The position reached.
    pub fn end(&self) -> &Position {
        self.plies.last().map_or(&self.start, |p| &p.after)
    }
}

/// What a record says about its variant and start position (PGN tags).
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// The variant `[Variant]` names, with its tag.
    pub variant: Option<(&'static str, Tag)>,
    /// The start position `[FEN]` gives, with its tag.
    pub fen: Option<Tag>,
}

impl Header {
    /// Whether `other` names the same variant and start position (wherever the tags stand).
    pub fn same_start(&self, other: &Header) -> bool {
        self.variant.as_ref().map(|(id, _)| id) == other.variant.as_ref().map(|(id, _)| id)
            && self.fen.as_ref().map(|t| &t.value) == other.fen.as_ref().map(|t| &t.value)
    }
}

fn tag_error(tag: &Tag, reason: RecordReason) -> RecordError {
    RecordError::at(tag.line, tag.column, reason)
}

/// The start position a `[FEN]` tag gives under `rules`.
///
/// # Errors
/// A FEN that cannot be read, placed at its fault in the record (the tag's value as written
/// there), or one that is no legal position, placed at the value.
pub fn tag_position(rules: Rules, tag: &Tag) -> Result<Position, RecordError> {
    parse_position(rules, &tag.value).map_err(|e| {
        let offset = match &e {
            PositionTextError::Fen(f) => f.place().map_or(0, |(_, column)| column - 1),
            PositionTextError::Position(_) => 0,
        };
        let (line, column) = tag.place(offset);
        RecordError::at(line, column, RecordReason::Fen(Box::new(e)))
    })
}

/// The game `index` (from 1) of `games`.
fn select(mut games: Vec<GameText>, index: usize) -> Result<GameText, RecordError> {
    if index == 0 {
        return Err(RecordError::at(1, 1, RecordReason::GameZero));
    }
    if index > games.len() {
        return Err(RecordError::at(
            1,
            1,
            RecordReason::NoSuchGame {
                index,
                games: games.len(),
            },
        ));
    }
    Ok(games.swap_remove(index - 1))
}

/// Reads the tags of the selected game: `[Variant]` (see [`record::VARIANT_NAMES`]), and
/// `[FEN]` unless `[SetUp "0"]` says the game starts from the usual position.
///
/// # Errors
/// An unknown variant name, `[SetUp "1"]` or `[Variant "From Position"]` without `[FEN]`,
/// `[SetUp "0"]` with `[FEN]`, or a game index beyond the record's games.
pub fn read_header(text: &str, options: &ReadOptions) -> Result<Header, RecordError> {
    let order: Vec<Notation> = match options.notation {
        Some(n) => vec![n],
        None => Notation::AUTO_ORDER.to_vec(),
    };
    // The first notation that splits the record into at least the game asked for, else the
    // one that found the most games (which says how many there are). If none splits it,
    // `read_game` says why. The notation that then replays the game may split the record
    // otherwise (coordinate text reads a PGN file of two games as one): the caller reads the
    // header again with it and replays from those tags when they differ.
    let mut splits: Vec<Vec<GameText>> = order
        .iter()
        .filter_map(|n| record::games(text, *n).ok())
        .collect();
    let chosen = splits
        .iter()
        .position(|games| games.len() >= options.game_index)
        .or_else(|| {
            let most = splits.iter().map(Vec::len).max()?;
            splits.iter().position(|games| games.len() == most)
        });
    let Some(chosen) = chosen else {
        return Ok(Header::default());
    };
    let game = select(splits.swap_remove(chosen), options.game_index)?;
    let mut header = Header::default();
    if let Some(tag) = game.tag("Variant") {
        let id = record::variant_of_tag(&tag.value)
            .ok_or_else(|| tag_error(tag, RecordReason::UnknownVariant(tag.value.clone())))?;
        header.variant = Some((id, tag.clone()));
    }
    let setup = game.tag("SetUp");
    if let Some(tag) = setup.filter(|t| !matches!(t.value.trim(), "0" | "1")) {
        return Err(tag_error(
            tag,
            RecordReason::SetUpValue(record::shown(&tag.value)),
        ));
    }
    match (game.tag("FEN"), setup.map(|t| t.value.trim())) {
        (Some(fen), Some("0")) => {
            return Err(tag_error(fen, RecordReason::FenWithoutSetUp));
        }
        (Some(fen), _) => header.fen = Some(fen.clone()),
        (None, Some("1")) => {
            return Err(tag_error(
                setup.expect("matched"),
                RecordReason::SetUpWithoutFen,
            ));
        }
        (None, _) => {
            // `From Position` without the position: the usual start would be taken silently.
            if let Some((_, tag)) = header
                .variant
                .as_ref()
                .filter(|(_, t)| record::variant_tag_needs_fen(&t.value))
            {
                return Err(tag_error(
                    tag,
                    RecordReason::FromPositionWithoutFen(tag.value.clone()),
                ));
            }
        }
    }
    Ok(header)
}

/// Replays `game` from `start` in `notation`: the plies read, and why it stopped early.
fn replay(
    start: &Position,
    notation: Notation,
    game: &GameText,
    options: &ReadOptions,
) -> (Vec<Ply>, Option<(RecordError, bool)>) {
    let mut plies = Vec::new();
    let mut pos = *start;
    let limit = options.at_ply.unwrap_or(game.moves.len());
    for (i, w) in game.moves.iter().take(limit).enumerate() {
        let written = w.text(notation);
        match record::interpret(&pos, notation, w, &options.labels) {
            Ok(m) => {
                let number = match pos.side() {
                    Colour::White => format!("{}.", pos.fullmove()),
                    Colour::Black => format!("{}...", pos.fullmove()),
                };
                let after = pos.play(m);
                plies.push(Ply {
                    ply: i + 1,
                    number,
                    written,
                    at: w.at(),
                    mv: m,
                    text: move_text(&pos, &m),
                    san: san(&pos, &m),
                    after,
                });
                pos = after;
            }
            Err(p) => {
                let unreadable = p.reason.unreadable();
                let e = RecordError {
                    ply: Some(i + 1),
                    line: p.line,
                    column: p.column,
                    written: Some(written),
                    reason: RecordReason::Move(Box::new(p.reason)),
                    tried: None,
                };
                return (plies, Some((e, unreadable)));
            }
        }
    }
    (plies, None)
}

/// Replays the selected game of a record from `start`.
///
/// # Errors
/// A [`RecordError`] with the ply, line and column of the first move that cannot be read or is
/// not legal (with `--notation auto`, from the notation that read furthest, ties going to the
/// one that read the text, then to the one that found more games, then to the one whose error
/// stands further into the text, then to the earlier in [`Notation::AUTO_ORDER`]); a record
/// that two notations read as different games; a record
/// with more than [`MAX_PLIES`] plies or fewer than `at_ply`.
///
/// # Examples
/// ```
/// use cvperft::game::{ReadOptions, read_game};
/// use cvperft::notation::parse_position;
/// let rules = cvperft::variants::rules("chess").unwrap();
/// let start = parse_position(rules, &rules.start_fen()).unwrap();
/// let game = read_game("1. e4 e5 2. Nf3 {develops} Nc6", &start, &ReadOptions::default()).unwrap();
/// assert_eq!(game.notation.name(), "san");
/// assert_eq!(game.plies[2].text, "g1f3");
/// ```
pub fn read_game(text: &str, start: &Position, options: &ReadOptions) -> Result<Game, RecordError> {
    let order: Vec<Notation> = match options.notation {
        Some(n) => vec![n],
        None => Notation::AUTO_ORDER.to_vec(),
    };
    let mut attempts: Vec<Attempt> = Vec::new();
    let mut read: Option<Game> = None;
    for &notation in &order {
        let games = match record::games(text, notation) {
            Ok(games) => games,
            Err(e) => {
                let (e, read) = placed(text, notation, e);
                attempts.push(Attempt {
                    notation,
                    read,
                    error: Some(e),
                    unreadable: true,
                    games: 0,
                });
                continue;
            }
        };
        let count = games.len();
        let game = match select(games, options.game_index) {
            Ok(game) => game,
            Err(e) => {
                attempts.push(Attempt {
                    notation,
                    read: 0,
                    error: Some(e),
                    unreadable: true,
                    games: count,
                });
                continue;
            }
        };
        let (line, column) = game.moves.last().map_or((1, 1), |w| w.at());
        let too = |reason: RecordReason| RecordError::at(line, column, reason);
        if let Some(past) = game.moves.get(MAX_PLIES) {
            // Placed at the first ply past the limit (it was placed at the last ply).
            let (line, column) = past.at();
            return Err(RecordError {
                ply: Some(MAX_PLIES + 1),
                ..RecordError::at(line, column, RecordReason::TooManyPlies(game.moves.len()))
            });
        }
        if let Some(k) = options.at_ply
            && k > game.moves.len()
        {
            attempts.push(Attempt {
                notation,
                read: 0,
                error: Some(too(RecordReason::NoSuchPly {
                    ply: k,
                    plies: game.moves.len(),
                })),
                unreadable: false,
                games: count,
            });
            continue;
        }
        let (plies, stop) = replay(start, notation, &game, options);
        match stop {
            None => {
                attempts.push(Attempt {
                    notation,
                    read: plies.len(),
                    error: None,
                    unreadable: false,
                    games: count,
                });
                match &read {
                    // A later notation that also reads the whole game must read the same one.
                    Some(first) => disagree(first, notation, &plies)?,
                    None => {
                        read = Some(Game {
                            notation,
                            attempts: Vec::new(),
                            start: *start,
                            plies,
                            tags: game.tags,
                        });
                    }
                }
            }
            Some((e, unreadable)) => attempts.push(Attempt {
                notation,
                read: plies.len(),
                error: Some(e),
                unreadable,
                games: count,
            }),
        }
    }
    if let Some(mut game) = read {
        if options.notation.is_none() {
            game.attempts = attempts;
        }
        return Ok(game);
    }
    // Nothing read the whole game: report the attempt that got furthest (in plies, then in the
    // text: `N b2-z9` is Game Courier's move with a square off the board, not a coordinate
    // move that stops at its first letter).
    // Among attempts that got as far, a record the notation refuses as contradicting itself
    // (a tag cvperft reads given twice, a tag pair inside a variation) is reported before
    // another notation's failure to read the text at all: that notation is the one the
    // record is written in.
    let refused = |a: &Attempt| {
        a.error.as_ref().is_some_and(|e| {
            matches!(
                e.reason,
                RecordReason::TagTwice(_) | RecordReason::TagInVariation { .. }
            )
        })
    };
    let best = attempts
        .iter()
        .enumerate()
        .max_by_key(|(i, a)| {
            (
                a.read,
                !a.unreadable,
                refused(a),
                a.games,
                // then the one that read furthest into the text before it stopped
                a.error.as_ref().map(|e| (e.line, e.column)),
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, a)| a.clone())
        .expect("at least one notation tried");
    let mut error = best.error.expect("a failed attempt");
    // Every notation stopped at the same place for the same reason (an unclosed tag before any
    // move): which one was chosen says nothing.
    let alike = attempts.iter().all(|a| {
        a.error.as_ref().is_some_and(|e| {
            (e.line, e.column, &e.reason) == (error.line, error.column, &error.reason)
        })
    });
    if attempts.len() > 1 && !alike {
        let others: Vec<String> = attempts
            .iter()
            .filter(|a| a.notation != best.notation)
            .map(|a| format!("{} {}", a.notation.name(), stopped(a)))
            .collect();
        error.tried = Some(Box::new(Tried {
            chosen: best.notation,
            others,
        }));
    }
    Err(error)
}

/// A move every notation splits a record into games with, written where an error stands to find
/// the error's game (after a game's result, the next one). Numbered 1, as a game after a result
/// must open ([`RecordReason::MovesAfterResult`]).
const PROBE: &str = "1. a1-a2";

/// A record error that names no ply (an unclosed comment or tag, a stray `)`) placed in its
/// game: how many of the game's moves are written before it (for choosing the notation that got
/// furthest), and the error naming the ply it stands at, one more than those moves. An error
/// before the game's first move names no ply, nor one in a tag pair (the game's header).
fn placed(text: &str, notation: Notation, mut e: RecordError) -> (RecordError, usize) {
    if let Some(ply) = e.ply {
        return (e, ply.saturating_sub(1));
    }
    // Moves after a result are the problem of the game the result cut short.
    let at = match &e.reason {
        RecordReason::MovesAfterResult(after) => (after.line, after.column),
        _ => (e.line, e.column),
    };
    let chars: Vec<char> = text.chars().collect();
    let places = record::places(&chars, record::cr_ends_lines(text.as_bytes()));
    let offset = text
        .char_indices()
        .zip(places)
        .find(|(_, place)| *place == at)
        .map_or(text.len(), |((i, _), _)| i);
    let prefix = &text[..offset];
    // Joined with the record's own line break, so that the probe reads its lines as it did.
    let joined = format!("{prefix}{}{PROBE}", record::line_break(text));
    let before = match record::games(&joined, notation) {
        Ok(games) => games.last().map_or(0, |g| g.moves.len().saturating_sub(1)),
        // The probe took a record at the size limit over it: the last game before the error.
        Err(_) => record::games(prefix, notation)
            .ok()
            .and_then(|games| Some(games.last()?.moves.len()))
            .unwrap_or(0),
    };
    let header = matches!(
        e.reason,
        RecordReason::UnclosedTag | RecordReason::TagTwice(_) | RecordReason::TagInVariation { .. }
    );
    if before > 0 && !header {
        e.ply = Some(before + 1);
    }
    (e, before)
}

/// Refuses a record that two notations read to different games (an unlabelled Game Courier
/// turn `g4-f6; N*b2` is `g4f6` in coordinate notation, where `;` starts a comment).
fn disagree(first: &Game, notation: Notation, plies: &[Ply]) -> Result<(), RecordError> {
    let differ = first
        .plies
        .iter()
        .zip(plies)
        .find(|(a, b)| a.mv != b.mv)
        .map(|(a, b)| (a, b.text.as_str()));
    let Some((a, other)) = differ else {
        return Ok(());
    };
    Err(RecordError {
        ply: Some(a.ply),
        line: a.at.0,
        column: a.at.1,
        written: Some(a.written.clone()),
        reason: RecordReason::Disagree {
            first: first.notation,
            second: notation,
            first_reads: a.text.clone(),
            second_reads: other.to_string(),
        },
        tried: None,
    })
}

/// How an attempt stopped, for messages: `stopped at ply 3`.
pub fn stopped(a: &Attempt) -> String {
    match &a.error {
        None if a.read == 0 => "read no moves".to_string(),
        None => format!("read all {} plies", a.read),
        Some(e) => match e.ply {
            Some(p) => format!("stopped at ply {p}"),
            None => format!("stopped at line {}", e.line),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::variants;

    fn start(variant: &str) -> Position {
        let rules = variants::rules(variant).expect("variant");
        parse_position(rules, &rules.start_fen()).expect("start")
    }

    fn texts(game: &Game) -> Vec<&str> {
        game.plies.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn auto_detection_reads_each_notation() {
        let chess = start("chess");
        let opts = ReadOptions::default();
        for (record, notation) in [
            ("1. e2e4 e7e5 2. g1f3 ; a comment", "coordinate"),
            ("1. e2-e4 e7-e5 2. Ng1-f3", "game-courier"),
            (
                "1. P e2-e4 1... p e7-e5 2. N g1-f3 // develop",
                "game-courier",
            ),
            ("1. e4 e5 2. Nf3", "san"),
        ] {
            let game = read_game(record, &chess, &opts).unwrap_or_else(|e| panic!("{record}: {e}"));
            assert_eq!(game.notation.name(), notation, "{record}");
            assert_eq!(texts(&game), ["e2e4", "e7e5", "g1f3"], "{record}");
            let first_read = game.attempts.iter().find(|a| a.error.is_none());
            assert_eq!(first_read.map(|a| a.notation), Some(game.notation));
        }
    }

    #[test]
    fn two_readings_of_one_record_are_refused() {
        let rules = variants::rules("cerimon").expect("variant");
        let pos = parse_position(rules, "4k3/8/8/8/6N1/8/8/4K3[N] w - - 0 1").expect("fen");
        // `;` ends a coordinate move: `g4f6` without the resurrection.
        let e = read_game("1. g4-f6; N*h2", &pos, &ReadOptions::default()).expect_err("two");
        assert_eq!((e.ply, e.column), (Some(1), 4), "{e}");
        assert!(
            e.to_string()
                .contains("here coordinate reads g4f6 and game-courier reads g4f6,N@h2"),
            "{e}"
        );
        let opts = ReadOptions {
            notation: Some(Notation::GameCourier),
            ..ReadOptions::default()
        };
        let game = read_game("1. g4-f6; N*h2", &pos, &opts).expect("given notation");
        assert_eq!(texts(&game), ["g4f6,N@h2"]);
    }

    #[test]
    fn the_furthest_attempt_is_reported() {
        let chess = start("chess");
        let e = read_game(
            "1. e4 e5 2. Nf3 Nc6 3. Bb6",
            &chess,
            &ReadOptions::default(),
        )
        .expect_err("illegal");
        assert_eq!((e.ply, e.line, e.column), (Some(5), 1, 24), "{e}");
        assert!(e.to_string().contains("[read as san"), "{e}");
        assert!(e.to_string().contains("coordinate stopped at ply 1"), "{e}");
    }

    #[test]
    fn an_unclosed_comment_names_its_ply() {
        let chess = start("chess");
        let e = read_game("1. e4 e5\n2. Nf3 { open", &chess, &ReadOptions::default())
            .expect_err("unclosed");
        assert_eq!((e.ply, e.line, e.column), (Some(4), 2, 8), "{e}");
    }

    #[test]
    fn an_error_before_the_first_move_names_no_ply() {
        let chess = start("chess");
        let auto = ReadOptions::default();
        // Every notation stops at the unclosed tag: no ply, and no list of notations tried.
        let e = read_game("[Event \"x\"\n\n1. e4 e5 *\n", &chess, &auto).expect_err("unclosed");
        assert_eq!(
            e.to_string(),
            "line 1, column 1: tag `[` is never closed by `]`"
        );
        // The same in the second game's header, after the first game's two moves.
        let e =
            read_game("1. e4 e5 *\n\n[Event \"x\"\n1. d4 *", &chess, &auto).expect_err("unclosed");
        assert_eq!(
            e.to_string(),
            "line 3, column 1: tag `[` is never closed by `]`"
        );
        // A comment opened before any move; Game Courier stops elsewhere, so the notations
        // tried are listed.
        let e = read_game("{ open\n1. e4", &chess, &auto).expect_err("unclosed");
        assert_eq!(e.ply, None, "{e}");
        assert!(
            e.to_string()
                .starts_with("line 1, column 1: comment `{` is never closed by `}` [read as "),
            "{e}"
        );
        // After the first game's result a comment stands before the second game's first move.
        let san = ReadOptions {
            notation: Some(Notation::San),
            ..ReadOptions::default()
        };
        let e = read_game("1. e4 e5 *\n{ open", &chess, &san).expect_err("unclosed");
        assert_eq!(
            e.to_string(),
            "line 2, column 1: comment `{` is never closed by `}`"
        );
        let e = read_game("1. e4 e5 { open", &chess, &san).expect_err("unclosed");
        assert_eq!(
            e.to_string(),
            "line 1, column 10: ply 3: comment `{` is never closed by `}`"
        );
    }

    #[test]
    fn an_error_at_the_end_of_a_record_at_the_size_limit_names_its_ply() {
        let mut text = String::from("1. e4 e5 ");
        text.push_str(&" ".repeat(record::MAX_RECORD_BYTES - text.len() - 1));
        text.push('{');
        let san = ReadOptions {
            notation: Some(Notation::San),
            ..ReadOptions::default()
        };
        let e = read_game(&text, &start("chess"), &san).expect_err("unclosed");
        assert_eq!((e.ply, e.reason), (Some(3), RecordReason::UnclosedComment));
    }

    #[test]
    fn cut_at_a_ply_and_choose_a_game() {
        let chess = start("chess");
        let record = "[Event \"1\"]\n1. e4 e5 *\n[Event \"2\"]\n1. d4 d5 2. Qd3 Qd7 *";
        let opts = ReadOptions {
            game_index: 2,
            at_ply: Some(3),
            ..ReadOptions::default()
        };
        let game = read_game(record, &chess, &opts).expect("readable");
        assert_eq!(texts(&game), ["d2d4", "d7d5", "d1d3"]);
        let opts = ReadOptions {
            game_index: 3,
            ..ReadOptions::default()
        };
        let e = read_game(record, &chess, &opts).expect_err("two games");
        assert!(e.to_string().contains("holds 2 games"), "{e}");
    }

    #[test]
    fn header_tags() {
        let opts = ReadOptions::default();
        let h = read_header(
            "[Variant \"Cerimon Chess\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3[] w - - 0 1\"]\n*",
            &opts,
        )
        .expect("readable");
        assert_eq!(h.variant.map(|(id, _)| id), Some("cerimon"));
        assert!(h.fen.is_some());
        let e = read_header("\n[Variant \"Crazyhouse\"]\n1. e4", &opts).expect_err("unknown");
        assert_eq!(e.line, 2);
        let e = read_header("[SetUp \"1\"]\n1. e4", &opts).expect_err("no FEN");
        assert!(e.to_string().contains("without a [FEN]"), "{e}");
    }
}

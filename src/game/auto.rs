//! Reading a whole record as `cvperft game` and `add-case` do: its header, the rules the caller
//! settles from it, its start position, the replay, and with `--notation auto` a cross-check
//! of the notations.
//!
//! [`read_game`] detects the notation within one split of the record into games, the one
//! [`read_header`] chose. The notations split a record otherwise, though: coordinate text reads
//! a record of several games as one, carrying every game's tags, and PGN's reading splits a
//! Game Courier log at a result token in a `//` comment. [`read_record`] therefore also reads
//! the record in each notation on its own, with the tags of that notation's own split, and
//! refuses a record the notations read as different games.

use super::{Game, Header, ReadOptions, read_game, read_header, stopped, tag_position};
use crate::notation::{PositionTextError, parse_position, to_fen};
use crate::record::{LabelError, Labels, Notation, RecordError, Tag, games};
use crate::variant::Rules;
use std::fmt;

/// How to read a record: what `cvperft game` and `add-case` take on their command lines.
#[derive(Clone, Debug)]
pub struct RecordRequest {
    /// The notation; `None` detects it (`--notation auto`).
    pub notation: Option<Notation>,
    /// Game Courier piece labels that differ from ours, `OURS=THEIRS` (`--label`).
    pub labels: Vec<String>,
    /// Which game of the record, from 1.
    pub game_index: usize,
    /// The start position, a FEN; a `[FEN]` tag must then give the same position (`--fen`).
    pub fen: Option<String>,
    /// Stop after this many plies (`--at-ply`; default: the end of the game).
    pub at_ply: Option<usize>,
}

impl Default for RecordRequest {
    fn default() -> RecordRequest {
        RecordRequest {
            notation: None,
            labels: Vec::new(),
            game_index: 1,
            fen: None,
            at_ply: None,
        }
    }
}

/// How `--notation auto` chose the notation of a record read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detection {
    /// [`read_game`]'s choice, the first notation that read the whole game in the split
    /// [`read_header`] chose; the game's [`attempts`](Game::attempts) say how the others fared.
    First,
    /// The notations that each read the record whole with the tags of their own split agreed,
    /// and the usual detection failed or read another game: the first of them, and the others.
    Agreed {
        /// The notation the game was read in.
        chosen: Notation,
        /// The other notations that read the same game.
        also: Vec<Notation>,
    },
}

/// A record read by [`read_record`].
#[derive(Clone, Debug)]
pub struct RecordRead {
    /// The game, cut at the ply asked for.
    pub game: Game,
    /// The start FEN when it is not the variant's: the one given, else the `[FEN]` tag's.
    pub start_fen: Option<String>,
    /// With `--notation auto`, how the notation was chosen.
    pub detection: Option<Detection>,
}

impl RecordRead {
    /// The line that says which notation `--notation auto` chose, for a record named `name`
    /// (`game `x.pgn``); `None` when the notation was given.
    pub fn note(&self, name: &str) -> Option<String> {
        let (chosen, others) = match self.detection.as_ref()? {
            Detection::First => {
                let others: Vec<String> = self
                    .game
                    .attempts
                    .iter()
                    .filter(|a| a.notation != self.game.notation)
                    .map(|a| format!("{} {}", a.notation.name(), stopped(a)))
                    .collect();
                let others = if others.is_empty() {
                    String::new()
                } else {
                    format!("; {}", others.join(", "))
                };
                (self.game.notation, others)
            }
            Detection::Agreed { chosen, also } => {
                let also: Vec<&str> = also.iter().map(|n| n.name()).collect();
                let others = if also.is_empty() {
                    String::new()
                } else {
                    format!("; the same game as {}", also.join(", "))
                };
                let others = format!(
                    ", each notation with the tags of its own reading of the record{others}"
                );
                (*chosen, others)
            }
        };
        Some(format!(
            "{name} read as {} (--notation auto{others})",
            chosen.name()
        ))
    }
}

/// Why [`read_record`] refused a record named `name` in messages (`game `x.pgn``,
/// `standard input`); `E` is the error of the caller's choice of rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadRecordError<E> {
    /// The record cannot be read: its header, its `[FEN]` tag or a move, placed in it.
    Record {
        /// The record's name.
        name: String,
        /// What is wrong, and where.
        error: Box<RecordError>,
    },
    /// The `[FEN]` tag gives another position than the start given.
    FenNotGiven {
        /// The record's name.
        name: String,
        /// The tag, with its place.
        tag: Tag,
    },
    /// A label pair cannot be used.
    Label(LabelError),
    /// The start position given (or the variant's own) cannot be read.
    Fen(PositionTextError),
    /// The caller refused the rules for the record's header.
    Rules(E),
    /// With `--notation auto`: one notation splits the record into fewer games than the one
    /// asked for and reads its own last game whole, while another reads that game.
    FewerGames {
        /// The record's name.
        name: String,
        /// The notation that finds fewer games.
        notation: Notation,
        /// How many it finds.
        games: usize,
        /// The notation that reads the game asked for.
        other: Notation,
        /// The game asked for (from 1).
        index: usize,
    },
    /// With `--notation auto`: two notations each read the whole record, as different games.
    Disagree {
        /// The record's name.
        name: String,
        /// The first notation that read it.
        first: Notation,
        /// The one that read another game.
        other: Notation,
    },
}

impl<E: fmt::Display> fmt::Display for ReadRecordError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadRecordError::Record { name, error } => write!(f, "{name}, {error}"),
            ReadRecordError::FenNotGiven { name, tag } => {
                // On one line, as a record error quotes the record.
                let value = crate::report::one_line(&tag.value);
                write!(
                    f,
                    "{name}, line {}, column {}: the record's [FEN \"{value}\"] is not the --fen \
                     given",
                    tag.line, tag.column
                )
            }
            ReadRecordError::Label(e) => write!(f, "{e}"),
            ReadRecordError::Fen(e) => f.write_str(&e.named()),
            ReadRecordError::Rules(e) => write!(f, "{e}"),
            ReadRecordError::FewerGames {
                name,
                notation,
                games,
                other,
                index,
            } => write!(
                f,
                "{name}: read as {} it holds {games} game{}, read as {} game {index} is there; \
                 give --notation",
                notation.name(),
                if *games == 1 { "" } else { "s" },
                other.name()
            ),
            ReadRecordError::Disagree { name, first, other } => write!(
                f,
                "{name}: read as {} and as {}, it gives two different games (another start, \
                 variant or moves: the notations split the record otherwise); give --notation",
                first.name(),
                other.name()
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ReadRecordError<E> {}

/// One notation's reading (or the usual detection's): the game, its start FEN, and the header
/// and rules it was replayed under.
struct Reading {
    game: Game,
    start_fen: Option<String>,
    header: Header,
    rules: Rules,
}

/// Reads the record `text` (named `name` in errors) as `request` asks: its header (the
/// `[Variant]` and `[FEN]` tags of the game asked for), the rules `rules_for` settles from it,
/// the start position (`request.fen`, else the `[FEN]` tag, else the variant's start), and the
/// game replayed up to `request.at_ply`.
///
/// With `--notation auto` (`request.notation` is `None`) each notation is also tried on its
/// own, with the tags of its own split of the record, reading the whole game. Readings that
/// replay the whole game must agree (the same variant, start and moves), else the record is
/// refused; when the usual detection fails or reads another game than they agree on, their
/// game is taken ([`Detection::Agreed`]). A notation that splits the record into fewer games
/// than the one asked for, and reads its own last game whole, while another reads the game
/// asked for, makes the record ambiguous: it is refused.
///
/// # Errors
/// A header, start position or move that cannot be read ([`ReadRecordError::Record`]), a
/// `[FEN]` tag that is not the start given, bad label pairs, an unreadable start FEN, the
/// rules refused by `rules_for`, and with `--notation auto` readings that disagree.
///
/// # Examples
/// ```
/// use cvperft::game::{Detection, RecordRequest, read_record};
/// let rules = |_: &cvperft::game::Header| cvperft::variants::rules("chess").ok_or("no chess");
/// let read = read_record("1. e4 e5 2. Nf3", "--moves", &RecordRequest::default(), rules)
///     .unwrap();
/// assert_eq!(read.game.notation.name(), "san");
/// assert_eq!(read.detection, Some(Detection::First));
/// assert_eq!(
///     read.note("--moves").unwrap(),
///     "--moves read as san (--notation auto; coordinate stopped at ply 1, \
///      game-courier stopped at ply 1)"
/// );
/// ```
pub fn read_record<E>(
    text: &str,
    name: &str,
    request: &RecordRequest,
    rules_for: impl Fn(&Header) -> Result<Rules, E>,
) -> Result<RecordRead, ReadRecordError<E>> {
    let reader = Reader {
        text,
        name,
        request,
        rules_for,
    };
    let whole = |notation, game_index, at_ply| reader.read(notation, game_index, at_ply);
    let usual = whole(request.notation, request.game_index, request.at_ply);
    if request.notation.is_some() {
        return usual.map(|r| RecordRead {
            game: r.game,
            start_fen: r.start_fen,
            detection: None,
        });
    }
    // Each notation reads the whole game (not cut at `at_ply`: a cut game would hide where
    // readings part, and a game too short for the cut would drop out).
    let mut read: Vec<(Notation, Reading)> = Vec::new();
    // A notation that splits the record into fewer games than the one asked for, and reads its
    // own last game whole, says that game does not exist.
    let mut fewer = None;
    for n in Notation::AUTO_ORDER {
        let count = games(text, n).map_or(0, |g| g.len());
        if fewer.is_none()
            && count > 0
            && count < request.game_index
            && whole(Some(n), count, None).is_ok()
        {
            fewer = Some((n, count));
        }
        if let Ok(found) = whole(Some(n), request.game_index, None) {
            read.push((n, found));
        }
    }
    if let (Some((notation, games)), Some((other, _))) = (fewer, read.first()) {
        return Err(ReadRecordError::FewerGames {
            name: name.to_string(),
            notation,
            games,
            other: *other,
            index: request.game_index,
        });
    }
    let Some((first, agreed)) = read.first() else {
        // No notation reads the whole game with its own tags. The usual reading took its
        // header from the first split that has the game, which may be another notation's
        // (coordinate text reads a record of two games as one, carrying the second game's
        // `[Variant]`): it stands only as the notation it was replayed in reads it on its own,
        // cut at the same ply.
        let usual = usual?;
        let notation = usual.game.notation;
        let own = whole(Some(notation), request.game_index, request.at_ply)?;
        if begins(&own.game, &usual.game) && begins(&usual.game, &own.game) {
            return Ok(RecordRead {
                game: usual.game,
                start_fen: usual.start_fen,
                detection: Some(Detection::First),
            });
        }
        return Ok(RecordRead {
            game: own.game,
            start_fen: own.start_fen,
            detection: Some(Detection::Agreed {
                chosen: notation,
                also: Vec::new(),
            }),
        });
    };
    if let Some((other, _)) = read
        .iter()
        .find(|(_, r)| !(begins(&r.game, &agreed.game) && begins(&agreed.game, &r.game)))
    {
        return Err(ReadRecordError::Disagree {
            name: name.to_string(),
            first: *first,
            other: *other,
        });
    }
    // The usual reading stands when its notation is one that reads the whole game: cut at
    // `at_ply`, a notation that cannot read the record reads its first plies (none at
    // `--at-ply 0`) and was named as the one the record was read in.
    if let Ok(r) = &usual
        && read.iter().any(|(n, _)| *n == r.game.notation)
        && begins(&r.game, &agreed.game)
        && (request.at_ply.is_some() || r.game.plies.len() == agreed.game.plies.len())
    {
        return usual.map(|r| RecordRead {
            game: r.game,
            start_fen: r.start_fen,
            detection: Some(Detection::First),
        });
    }
    let (game, start_fen) = reader.replay(
        &agreed.header,
        agreed.rules,
        Some(*first),
        request.game_index,
        request.at_ply,
    )?;
    Ok(RecordRead {
        game,
        start_fen,
        detection: Some(Detection::Agreed {
            chosen: *first,
            also: read[1..].iter().map(|(n, _)| *n).collect(),
        }),
    })
}

/// Whether `a` and `b` start from the same position of the same variant.
fn same_start(a: &Game, b: &Game) -> bool {
    a.start.variant().spec.id == b.start.variant().spec.id && to_fen(&a.start) == to_fen(&b.start)
}

/// Whether `a`'s plies are the first of `b`'s (all of them when `a` is not cut), from the same
/// start.
fn begins(a: &Game, b: &Game) -> bool {
    same_start(a, b)
        && a.plies.len() <= b.plies.len()
        && a.plies.iter().zip(&b.plies).all(|(x, y)| x.text == y.text)
}

/// A record being read, with what the caller asked.
struct Reader<'a, F> {
    text: &'a str,
    name: &'a str,
    request: &'a RecordRequest,
    rules_for: F,
}

impl<E, F: Fn(&Header) -> Result<Rules, E>> Reader<'_, F> {
    fn record_error(&self, error: RecordError) -> ReadRecordError<E> {
        ReadRecordError::Record {
            name: self.name.to_string(),
            error: Box::new(error),
        }
    }

    /// Reads the header of game `game_index` in `notation` (`None`: detected), settles the
    /// rules and replays the game up to `at_ply`.
    fn read(
        &self,
        notation: Option<Notation>,
        game_index: usize,
        at_ply: Option<usize>,
    ) -> Result<Reading, ReadRecordError<E>> {
        let options = ReadOptions {
            notation,
            game_index,
            ..ReadOptions::default()
        };
        let header = read_header(self.text, &options).map_err(|e| self.record_error(e))?;
        let rules = (self.rules_for)(&header).map_err(ReadRecordError::Rules)?;
        let (game, start_fen) = self.replay(&header, rules, notation, game_index, at_ply)?;
        Ok(Reading {
            game,
            start_fen,
            header,
            rules,
        })
    }

    /// Replays game `game_index` in `notation` under `rules` from the start given, else the
    /// `[FEN]` tag of `header`, else the variant's start: the game, and the start FEN when it
    /// is not the variant's.
    fn replay(
        &self,
        header: &Header,
        rules: Rules,
        notation: Option<Notation>,
        game_index: usize,
        at_ply: Option<usize>,
    ) -> Result<(Game, Option<String>), ReadRecordError<E>> {
        let labels =
            Labels::new(rules.variant, &self.request.labels).map_err(ReadRecordError::Label)?;
        let fen = self.request.fen.as_deref();
        let start_fen = match (fen, &header.fen) {
            (Some(given), Some(tag)) => {
                let same = parse_position(rules, given)
                    .ok()
                    .zip(parse_position(rules, &tag.value).ok())
                    .is_some_and(|(a, b)| to_fen(&a) == to_fen(&b));
                if !same {
                    return Err(ReadRecordError::FenNotGiven {
                        name: self.name.to_string(),
                        tag: tag.clone(),
                    });
                }
                Some(given.to_string())
            }
            (Some(given), None) => Some(given.to_string()),
            (None, Some(tag)) => Some(tag.value.clone()),
            (None, None) => None,
        };
        let start = match (&start_fen, &header.fen) {
            (Some(_), Some(tag)) if fen.is_none() => {
                tag_position(rules, tag).map_err(|e| self.record_error(e))?
            }
            (Some(f), _) => parse_position(rules, f).map_err(ReadRecordError::Fen)?,
            (None, _) => parse_position(rules, &rules.start_fen()).map_err(ReadRecordError::Fen)?,
        };
        let options = ReadOptions {
            notation,
            labels,
            game_index,
            at_ply,
        };
        let game = read_game(self.text, &start, &options).map_err(|e| self.record_error(e))?;
        Ok((game, start_fen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    /// The rules of `variant`, whatever the header says.
    fn rules_of(variant: &str) -> impl Fn(&Header) -> Result<Rules, String> + '_ {
        move |_| variants::rules(variant).ok_or_else(|| format!("no {variant}"))
    }

    /// The header's `[Variant]`, else chess.
    fn tagged(header: &Header) -> Result<Rules, String> {
        let id = header.variant.as_ref().map_or("chess", |(id, _)| id);
        variants::rules(id).ok_or_else(|| format!("no {id}"))
    }

    fn auto(text: &str) -> Result<RecordRead, ReadRecordError<String>> {
        read_record(text, "game `x`", &RecordRequest::default(), tagged)
    }

    fn texts(game: &Game) -> Vec<&str> {
        game.plies.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn each_notation_is_detected() {
        for (record, notation, note) in [
            (
                "1. e2e4 e7e5 2. g1f3",
                Notation::Coordinate,
                "game `x` read as coordinate (--notation auto; game-courier stopped at ply 1, \
                 san stopped at ply 3)",
            ),
            (
                "1. P e2-e4 1... p e7-e5 2. N g1-f3 // develop",
                Notation::GameCourier,
                "game `x` read as game-courier (--notation auto; coordinate stopped at ply 1, \
                 san stopped at ply 1)",
            ),
            (
                "[Event \"x\"]\n1. e4 e5 2. Nf3 *",
                Notation::San,
                "game `x` read as san (--notation auto; coordinate stopped at ply 1, \
                 game-courier stopped at ply 1)",
            ),
        ] {
            let read = auto(record).unwrap_or_else(|e| panic!("{record}: {e}"));
            assert_eq!(read.game.notation, notation, "{record}");
            assert_eq!(texts(&read.game), ["e2e4", "e7e5", "g1f3"], "{record}");
            assert_eq!(read.detection, Some(Detection::First), "{record}");
            assert_eq!(read.note("game `x`").as_deref(), Some(note), "{record}");
            assert_eq!(read.start_fen, None, "{record}");
        }
    }

    #[test]
    fn a_notation_given_is_the_only_one_read() {
        let request = RecordRequest {
            notation: Some(Notation::GameCourier),
            at_ply: Some(1),
            ..RecordRequest::default()
        };
        let read = read_record("1. e2-e4 e7-e5", "--moves", &request, rules_of("chess"))
            .expect("readable");
        assert_eq!(texts(&read.game), ["e2e4"]);
        assert_eq!((read.detection.clone(), read.note("--moves")), (None, None));
        // Coordinate notation alone refuses SAN, placed in the record.
        let request = RecordRequest {
            notation: Some(Notation::Coordinate),
            ..RecordRequest::default()
        };
        let e = read_record("1. e4 e5", "--moves", &request, rules_of("chess"))
            .expect_err("not coordinate");
        let ReadRecordError::Record { error, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(
            (error.ply, error.line, error.column),
            (Some(1), 1, 4),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("--moves, line 1, column 4: ply 1"),
            "{e}"
        );
    }

    /// A Game Courier log whose `//` comment holds a result token: PGN's split cuts it in
    /// two, Game Courier reads it as one game, from its `[FEN]`.
    const LOG: &str = "// Game Courier log; * marks the engine's moves\n\
                       [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"]\n\
                       1. e2-e4\n1... e7-e5\n";

    #[test]
    fn a_log_split_otherwise_by_pgn_is_read_whole() {
        let read = auto(LOG).expect("readable");
        assert_eq!(read.game.notation, Notation::GameCourier);
        assert_eq!(texts(&read.game), ["e2e4", "e7e5"]);
        // The log's [FEN], without castling rights.
        assert_eq!(
            read.start_fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
        );
        // Cut at ply 0, the same start.
        let request = RecordRequest {
            at_ply: Some(0),
            ..RecordRequest::default()
        };
        let read = read_record(LOG, "x", &request, tagged).expect("readable");
        assert!(read.game.plies.is_empty());
        assert!(to_fen(&read.game.start).ends_with(" w - - 0 1"));
    }

    #[test]
    fn an_ambiguous_record_is_read_as_the_notations_that_read_it_whole_agree() {
        // Coordinate text splits no games: its header carries game 2's [FEN], from which
        // game 1 is not legal. SAN, reading game 1 with its own (no) tags, is taken.
        let record = "[Event \"g1\"]\n\n1. e4 e5 *\n\n[Event \"g2\"]\n[SetUp \"1\"]\n\
                      [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n";
        let read = auto(record).expect("readable");
        assert_eq!(
            read.detection,
            Some(Detection::Agreed {
                chosen: Notation::San,
                also: Vec::new()
            })
        );
        assert_eq!(read.start_fen, None);
        assert_eq!(texts(&read.game), ["e2e4", "e7e5"]);
        assert_eq!(
            read.note("game `x`").as_deref(),
            Some(
                "game `x` read as san (--notation auto, each notation with the tags of its own \
                 reading of the record)"
            )
        );
        // Game 2 from its own [FEN].
        let request = RecordRequest {
            game_index: 2,
            ..RecordRequest::default()
        };
        let read = read_record(record, "x", &request, tagged).expect("readable");
        assert_eq!(
            read.start_fen.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        );
        assert_eq!(texts(&read.game), ["e2e4", "e8d7"]);
    }

    #[test]
    fn readings_that_disagree_are_refused() {
        // Coordinate notation reads one game from game 2's [FEN], Game Courier game 1 from the
        // usual start.
        let record = "1. e2-e4\n1... e7-e5\n1-0\n[FEN \"4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\
                      1. e1-d2\n1... e8-d7\n";
        let e = auto(record).expect_err("two games");
        assert!(matches!(e, ReadRecordError::Disagree { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "game `x`: read as coordinate and as game-courier, it gives two different games \
             (another start, variant or moves: the notations split the record otherwise); give \
             --notation"
        );
        // However far the game is cut.
        let request = RecordRequest {
            at_ply: Some(3),
            ..RecordRequest::default()
        };
        let e = read_record(record, "game `x`", &request, tagged).expect_err("two games");
        assert!(matches!(e, ReadRecordError::Disagree { .. }), "{e:?}");
    }

    #[test]
    fn a_game_one_notation_says_is_not_there_is_refused() {
        let request = RecordRequest {
            game_index: 2,
            ..RecordRequest::default()
        };
        let e = read_record(LOG, "game `log`", &request, tagged).expect_err("one game");
        assert_eq!(
            e,
            ReadRecordError::FewerGames {
                name: "game `log`".to_string(),
                notation: Notation::GameCourier,
                games: 1,
                other: Notation::San,
                index: 2,
            }
        );
        assert_eq!(
            e.to_string(),
            "game `log`: read as game-courier it holds 1 game, read as san game 2 is there; \
             give --notation"
        );
    }

    #[test]
    fn the_start_given_and_the_rules_refused() {
        let record = "\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e4";
        // The [FEN] tag against another start given: placed at the tag.
        let request = RecordRequest {
            fen: Some("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1".to_string()),
            ..RecordRequest::default()
        };
        let e = read_record(record, "game `x`", &request, tagged).expect_err("another start");
        assert_eq!(
            e.to_string(),
            "game `x`, line 2, column 1: the record's [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"] \
             is not the --fen given"
        );
        // The same position written otherwise is the start given.
        let request = RecordRequest {
            fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - -".to_string()),
            ..RecordRequest::default()
        };
        let read = read_record(record, "x", &request, tagged).expect("the same start");
        assert_eq!(read.start_fen, request.fen);
        // A start given that cannot be read.
        let request = RecordRequest {
            fen: Some("8/8 w".to_string()),
            ..RecordRequest::default()
        };
        let e = read_record("1. e4", "x", &request, tagged).expect_err("bad FEN");
        assert!(matches!(e, ReadRecordError::Fen(_)), "{e:?}");
        assert!(e.to_string().starts_with("FEN board field, column "), "{e}");
        // The caller's refusal comes back as it was.
        let refuse = |_: &Header| Err::<Rules, _>("no rules".to_string());
        let e = read_record("1. e4", "x", &RecordRequest::default(), refuse).expect_err("refused");
        assert_eq!(e, ReadRecordError::Rules("no rules".to_string()));
        // A label pair that names no piece.
        let request = RecordRequest {
            labels: vec!["Z=A".to_string()],
            ..RecordRequest::default()
        };
        let e = read_record("1. e4", "x", &request, tagged).expect_err("bad label");
        assert!(matches!(e, ReadRecordError::Label(_)), "{e:?}");
        assert!(e.to_string().starts_with("--label `Z=A`"), "{e}");
    }

    /// The caller that knows no variant without a `[Variant]` tag (`add-case --create`).
    fn tag_needed(header: &Header) -> Result<Rules, String> {
        let (id, _) = header.variant.as_ref().ok_or("no [Variant] tag")?;
        variants::rules(id).ok_or_else(|| format!("no {id}"))
    }

    #[test]
    fn a_tag_outside_the_game_read_is_not_its_tag() {
        // Game 1 has no tag; coordinate text reads the record as one game carrying game 2's
        // [Variant], and the moves are SAN: no notation reads game 1 with a tag of its own.
        let two = "1. Nc3 *\n\n[Variant \"Plutonian\"]\n\n1. Nc3 *\n";
        // A Game Courier comment that looks like a tag is no tag of the log.
        let commented = "1. N b1-c3 // [Variant \"Plutonian\"]\n";
        for record in [two, commented] {
            let e = read_record(record, "x", &RecordRequest::default(), tag_needed)
                .expect_err("no tag of its own");
            assert_eq!(
                e,
                ReadRecordError::Rules("no [Variant] tag".to_string()),
                "{record}"
            );
            // Where the caller takes chess without a tag, that is what the game is read in.
            let read = auto(record).expect("readable");
            assert_eq!(read.game.start.variant().spec.id, "chess", "{record}");
            assert_eq!(texts(&read.game), ["b1c3"], "{record}");
        }
        // The game tagged is read in its variant.
        let request = RecordRequest {
            game_index: 2,
            ..RecordRequest::default()
        };
        let read = read_record(two, "x", &request, tag_needed).expect("tagged");
        assert_eq!(read.game.start.variant().spec.id, "plutonian");
        // Game 0 is no game: games count from 1 (it said the record held 1 game).
        let request = RecordRequest {
            game_index: 0,
            ..RecordRequest::default()
        };
        let e = read_record(two, "x", &request, tagged).expect_err("game 0");
        assert_eq!(
            e.to_string(),
            "x, line 1, column 1: game 0 asked for: games are counted from 1"
        );
    }

    #[test]
    fn a_header_that_cannot_be_read_is_placed() {
        let e = auto("\n[Variant \"Crazyhouse\"]\n1. e4").expect_err("unknown variant");
        let ReadRecordError::Record { name, error } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(
            (name.as_str(), error.line, error.column),
            ("game `x`", 2, 1)
        );
    }
}

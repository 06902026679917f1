//! Move spellings: engines agree on coordinate notation but not on every detail. A [`MoveMap`]
//! translates our move text to an engine's and back:
//! - castling written as the King's own move (ours) or as "King takes own Rook" (`e1h1`, the
//!   Chess960 convention some engines use everywhere);
//! - piece letters (`--map e=x`: our Elephant is the engine's `x`), in promotion suffixes and
//!   placements;
//! - whole moves (`--map f1i1=f1j1`), for anything else.
//!
//! Translation uses the position when our generator can follow the path (so a Rook move
//! `e1g1` is never mistaken for a castling), and falls back to the castling declarations of the
//! variant when it cannot. [`MappedEngine`] applies a map around any engine, both ways.

use super::{Deadline, Divide, Engine, EngineError, EngineErrorKind, ListedTwice, Listing, Query};
use crate::notation::{move_text, normalise_move_text, parse_move, parse_position};
use crate::perft::DivideEntry;
use crate::position::{Move, Position, flags};
use crate::variant::{CastleSpec, Colour, Rules, Wing};
use std::collections::BTreeMap;

/// How an engine writes castling.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CastlingStyle {
    /// The King's own move, `e1g1` (ours, and UCI's for orthodox chess).
    #[default]
    KingMove,
    /// The King onto its own Rook, `e1h1`.
    KingToRook,
}

impl CastlingStyle {
    /// Parses `king-move` or `king-to-rook`.
    pub fn parse(text: &str) -> Option<CastlingStyle> {
        match text {
            "king-move" => Some(CastlingStyle::KingMove),
            "king-to-rook" => Some(CastlingStyle::KingToRook),
            _ => None,
        }
    }
}

/// Why a `--map OURS=THEIRS` pair is refused; each holds the pair as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// No `=` in it.
    #[error("--map `{0}` is not of the form OURS=THEIRS")]
    NotAPair(String),
    /// One side is empty.
    #[error("--map `{0}`: both sides are needed")]
    EmptySide(String),
    /// Two single characters that are not both letters.
    #[error("--map `{0}`: piece letters must be letters")]
    NotLetters(String),
    /// One of its letters is mapped already.
    #[error("--map `{0}`: letter already mapped")]
    LetterMapped(String),
    /// One of its moves is mapped already.
    #[error("--map `{0}`: move already mapped")]
    MoveMapped(String),
}

/// Translations between our move text and an engine's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveMap {
    /// How the engine writes castling.
    pub castling: CastlingStyle,
    /// Piece letters, ours (upper case) to the engine's (upper case).
    pub pieces: Vec<(char, char)>,
    /// Whole moves, ours to the engine's.
    pub moves: Vec<(String, String)>,
}

impl MoveMap {
    /// Whether the map changes nothing.
    pub fn is_identity(&self) -> bool {
        self.castling == CastlingStyle::KingMove && self.pieces.is_empty() && self.moves.is_empty()
    }

    /// Adds one `OURS=THEIRS` pair: two single letters map a piece letter, anything else a
    /// whole move.
    ///
    /// # Errors
    /// No `=`, an empty side, or a spelling already mapped (the map must work both ways).
    pub fn add_pair(&mut self, text: &str) -> Result<(), MapError> {
        let pair = || text.to_string();
        let Some((ours, theirs)) = text.split_once('=') else {
            return Err(MapError::NotAPair(pair()));
        };
        let (ours, theirs) = (ours.trim(), theirs.trim());
        if ours.is_empty() || theirs.is_empty() {
            return Err(MapError::EmptySide(pair()));
        }
        let mut letters = (ours.chars(), theirs.chars());
        if let ((Some(a), None), (Some(b), None)) = (
            (letters.0.next(), letters.0.next()),
            (letters.1.next(), letters.1.next()),
        ) {
            if !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() {
                return Err(MapError::NotLetters(pair()));
            }
            let (a, b) = (a.to_ascii_uppercase(), b.to_ascii_uppercase());
            if self.pieces.iter().any(|&(x, y)| x == a || y == b) {
                return Err(MapError::LetterMapped(pair()));
            }
            self.pieces.push((a, b));
            return Ok(());
        }
        if self.moves.iter().any(|(x, y)| x == ours || y == theirs) {
            return Err(MapError::MoveMapped(pair()));
        }
        self.moves.push((ours.to_string(), theirs.to_string()));
        Ok(())
    }

    fn piece_to_engine(&self, c: char) -> char {
        self.map_letter(c, |&(ours, theirs)| (ours, theirs))
    }

    fn piece_to_ours(&self, c: char) -> char {
        self.map_letter(c, |&(ours, theirs)| (theirs, ours))
    }

    fn map_letter(&self, c: char, dir: impl Fn(&(char, char)) -> (char, char)) -> char {
        let upper = c.to_ascii_uppercase();
        for pair in &self.pieces {
            let (from, to) = dir(pair);
            if from == upper {
                return if c.is_ascii_lowercase() {
                    to.to_ascii_lowercase()
                } else {
                    to
                };
            }
        }
        c
    }

    /// Our move text as the engine writes it; `pos` is the position it is played in, when our
    /// generator knows it.
    pub fn to_engine(&self, rules: &Rules, pos: Option<&Position>, ours: &str) -> String {
        match pos.and_then(|p| parse_move(p, ours).ok().map(|m| (p, m))) {
            Some((p, m)) => self.spell(rules, p, &m),
            None => {
                let castle =
                    static_castle(rules, ours, |c| format!("{}{}", c.king_from, c.king_to));
                self.spell_text(ours, castle)
            }
        }
    }

    /// The engine's spelling of a legal move `m` of `pos`.
    pub fn spell(&self, rules: &Rules, pos: &Position, m: &Move) -> String {
        let wing = if m.flags & flags::CASTLE_KING != 0 {
            Some(Wing::King)
        } else if m.flags & flags::CASTLE_QUEEN != 0 {
            Some(Wing::Queen)
        } else {
            None
        };
        let castle = wing.and_then(|w| rules.castles[pos.side().index()][w as usize]);
        self.spell_text(&move_text(pos, m), castle)
    }

    fn spell_text(&self, ours: &str, castle: Option<CastleSpec>) -> String {
        if let Some((_, theirs)) = self.moves.iter().find(|(o, _)| o == ours) {
            return theirs.clone();
        }
        let parts: Vec<String> = ours
            .split(',')
            .enumerate()
            .map(|(i, part)| match castle {
                Some(c) if i == 0 && self.castling == CastlingStyle::KingToRook => {
                    format!("{}{}", c.king_from, c.rook_from)
                }
                _ => self.map_part(part, true),
            })
            .collect();
        parts.join(",")
    }

    /// Every legal move of `pos`, keyed by the engine's spelling, with ours.
    ///
    /// # Errors
    /// Two legal moves of ours spelled alike (`--map e7e8q=a1b1` where `a1b1` is legal too,
    /// `--map q=r` without `r=q`): the engine's listing under that spelling could be either,
    /// so its answer cannot be read back (`[spelling, ours, ours]`, ours in sorted order).
    pub fn table(
        &self,
        rules: &Rules,
        pos: &Position,
    ) -> Result<BTreeMap<String, String>, [String; 3]> {
        let mut table: BTreeMap<String, String> = BTreeMap::new();
        let mut alike = None;
        pos.for_each_legal(|m, _| {
            let ours = move_text(pos, &m);
            let theirs = self.spell(rules, pos, &m);
            match table.get(&theirs) {
                Some(other) if alike.is_none() => {
                    let mut two = [other.clone(), ours];
                    two.sort();
                    let [a, b] = two;
                    alike = Some([theirs, a, b]);
                }
                Some(_) => {}
                None => {
                    table.insert(theirs, ours);
                }
            }
        });
        alike.map_or(Ok(table), Err)
    }

    /// The engine's move text in our spelling; `table` is [`MoveMap::table`] of the position it
    /// is played in, when our generator knows it.
    pub fn to_ours(
        &self,
        rules: &Rules,
        table: Option<&BTreeMap<String, String>>,
        theirs: &str,
    ) -> String {
        if let Some(ours) = table.and_then(|t| t.get(theirs)) {
            return ours.clone();
        }
        if let Some((ours, _)) = self.moves.iter().find(|(_, t)| t == theirs) {
            return ours.clone();
        }
        let castle = if self.castling == CastlingStyle::KingToRook {
            static_castle(rules, theirs, |c| format!("{}{}", c.king_from, c.rook_from))
        } else {
            None
        };
        let parts: Vec<String> = theirs
            .split(',')
            .enumerate()
            .map(|(i, part)| match castle {
                Some(c) if i == 0 => format!("{}{}", c.king_from, c.king_to),
                _ => self.map_part(part, false),
            })
            .collect();
        // In our canonical spelling where our notation reads it as a move (`e7e8Q` is `e7e8q`,
        // placements in order), as the suite runner reads an engine's moves: else a spelling
        // would be reported as moves missing and extra.
        let text = parts.join(",");
        normalise_move_text(rules.variant, &text).unwrap_or(text)
    }

    /// Maps the piece letters of one part of a move (`N@b2`, `e7e8q`).
    fn map_part(&self, part: &str, to_engine: bool) -> String {
        let map = |c: char| {
            if to_engine {
                self.piece_to_engine(c)
            } else {
                self.piece_to_ours(c)
            }
        };
        if let Some((letter, square)) = part.split_once('@') {
            let letter: String = letter.chars().map(map).collect();
            return format!("{letter}@{square}");
        }
        match part.chars().last() {
            Some(last) if part.len() == 5 && part.is_ascii() && last.is_ascii_alphabetic() => {
                format!("{}{}", &part[..4], map(last))
            }
            _ => part.to_string(),
        }
    }
}

/// The castling whose spelling (by `spell`) is the moving part of `text`, when the position is
/// unknown.
fn static_castle(
    rules: &Rules,
    text: &str,
    spell: impl Fn(&CastleSpec) -> String,
) -> Option<CastleSpec> {
    let moving = text.split(',').next()?;
    for colour in Colour::BOTH {
        for c in rules.castles[colour.index()].iter().flatten() {
            if spell(c) == moving {
                return Some(*c);
            }
        }
    }
    None
}

/// An engine whose moves are translated by a [`MoveMap`] on the way in and out.
pub struct MappedEngine<E: Engine> {
    inner: E,
    map: MoveMap,
    rules: Rules,
}

impl<E: Engine> MappedEngine<E> {
    /// Wraps `inner`; `rules` give the positions used to translate castling exactly.
    pub fn new(inner: E, map: MoveMap, rules: Rules) -> MappedEngine<E> {
        MappedEngine { inner, map, rules }
    }
}

impl<E: Engine> Engine for MappedEngine<E> {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        self.translated(query, |inner, asked| inner.divide(asked))
    }

    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        self.translated(query, |inner, asked| inner.divide_by(asked, deadline))
    }

    fn stopped(&self) -> Option<String> {
        self.inner.stopped()
    }

    fn process_answers(&self) -> Option<usize> {
        self.inner.process_answers()
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

impl<E: Engine> MappedEngine<E> {
    /// Asks `inner` through `ask`, translating the moves of the query and of the answer.
    fn translated(
        &mut self,
        query: &Query,
        ask: impl FnOnce(&mut E, &Query) -> Result<Divide, EngineError>,
    ) -> Result<Divide, EngineError> {
        let mut pos = parse_position(self.rules, &query.fen).ok();
        let mut moves = Vec::with_capacity(query.moves.len());
        for ours in &query.moves {
            moves.push(self.map.to_engine(&self.rules, pos.as_ref(), ours));
            pos = pos.and_then(|p| parse_move(&p, ours).ok().map(|m| p.play(m)));
        }
        // Read back before asking: a map that spells two legal moves alike makes any answer
        // unreadable (the listing of one was taken for the other, and they agreed).
        let table = match pos.as_ref().map(|p| self.map.table(&self.rules, p)) {
            Some(Err([spelling, first, second])) => {
                return Err(EngineError::new(
                    &self.inner.name(),
                    Some(query),
                    EngineErrorKind::SpelledAlike {
                        spelling,
                        moves: Box::new([first, second]),
                    },
                ));
            }
            Some(Ok(table)) => Some(table),
            None => None,
        };
        let asked = Query {
            fen: query.fen.clone(),
            moves,
            depth: query.depth,
        };
        let answer = ask(&mut self.inner, &asked)?;
        // Our spelling of each move listed, with the listing it came from.
        let mut entries: BTreeMap<String, &DivideEntry> = BTreeMap::new();
        for e in &answer.entries {
            let ours = self.map.to_ours(&self.rules, table.as_ref(), &e.text);
            // Two spellings of one move of ours (`e7e8q` and `e7e8Q`, a castling listed both
            // ways): neither count can be taken for the move, nor their sum.
            if let Some(first) = entries.get(&ours) {
                return Err(EngineError::new(
                    &self.inner.name(),
                    Some(query),
                    EngineErrorKind::ListedTwice(Box::new(listed_twice(&answer, ours, first, e))),
                ));
            }
            entries.insert(ours, e);
        }
        let mut divide = Divide::from_entries(
            entries
                .into_iter()
                .map(|(text, e)| DivideEntry {
                    text,
                    count: e.count,
                })
                .collect(),
        );
        divide.total = answer.total;
        Ok(divide)
    }
}

/// The two listings `a` and `b` of `answer` that are one move, `ours`, the one printed first
/// (when the lines are known) first.
fn listed_twice(answer: &Divide, ours: String, a: &DivideEntry, b: &DivideEntry) -> ListedTwice {
    let listing = |e: &DivideEntry| Listing {
        text: e.text.clone(),
        count: e.count,
        line: answer.lines.get(&e.text).copied(),
    };
    let (mut first, mut second) = (listing(a), listing(b));
    if let (Some(x), Some(y)) = (first.line, second.line)
        && y < x
    {
        std::mem::swap(&mut first, &mut second);
    }
    ListedTwice {
        ours,
        first,
        second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn castling_king_to_rook_both_ways() {
        let rules = variants::rules("chess").expect("chess");
        let map = MoveMap {
            castling: CastlingStyle::KingToRook,
            ..MoveMap::default()
        };
        let pos = parse_position(rules, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(map.to_engine(&rules, Some(&pos), "e1g1"), "e1h1");
        assert_eq!(map.to_engine(&rules, Some(&pos), "e1c1"), "e1a1");
        let table = map.table(&rules, &pos).expect("one spelling per move");
        assert_eq!(map.to_ours(&rules, Some(&table), "e1h1"), "e1g1");
        assert_eq!(map.to_ours(&rules, None, "e8a8"), "e8c8");
        // A Rook on e1 going to g1 is not a castling.
        let rook = parse_position(rules, "3k4/8/8/8/8/8/8/K3R3 w - - 0 1").unwrap();
        assert_eq!(map.to_engine(&rules, Some(&rook), "e1g1"), "e1g1");
        let table = map.table(&rules, &rook).expect("one spelling per move");
        assert_eq!(map.to_ours(&rules, Some(&table), "e1g1"), "e1g1");
    }

    /// An engine that answers every question with one divide.
    struct Answers(Divide);

    impl Engine for Answers {
        fn divide(&mut self, _: &Query) -> Result<Divide, EngineError> {
            Ok(self.0.clone())
        }
        fn name(&self) -> String {
            "answers".into()
        }
    }

    #[test]
    fn two_spellings_of_one_move_are_refused_with_both_listings() {
        let rules = variants::rules("chess").expect("chess");
        let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        let entry = |text: &str, count: u64, line: usize| {
            (
                DivideEntry {
                    text: text.into(),
                    count,
                },
                line,
            )
        };
        // Printed upper case first: the listings are told in the order printed.
        let answer = Divide::from_lines(vec![entry("b7b8Q", 4, 2), entry("b7b8q", 3, 5)]);
        let mut engine = MappedEngine::new(Answers(answer), MoveMap::default(), rules);
        let e = engine
            .divide(&Query::new(fen, &[], 2))
            .expect_err("one move listed twice");
        assert_eq!(
            e.kind,
            EngineErrorKind::ListedTwice(Box::new(ListedTwice {
                ours: "b7b8q".into(),
                first: Listing {
                    text: "b7b8Q".into(),
                    count: 4,
                    line: Some(2),
                },
                second: Listing {
                    text: "b7b8q".into(),
                    count: 3,
                    line: Some(5),
                },
            }))
        );
        // Without lines (an answer not read from output), the listings are told without them.
        let answer = Divide::from_entries(vec![entry("b7b8q", 3, 0).0, entry("b7b8Q", 4, 0).0]);
        let mut engine = MappedEngine::new(Answers(answer), MoveMap::default(), rules);
        let e = engine.divide(&Query::new(fen, &[], 2)).expect_err("twice");
        assert_eq!(
            e.kind.to_string(),
            "listed the move b7b8q twice, as `b7b8Q` (count 4) and as `b7b8q` (count 3): its \
             count is not taken from this answer"
        );
        // One spelling each: read as our moves, counts as given.
        let answer = Divide::from_lines(vec![entry("b7b8Q", 4, 1), entry("b7b8R", 3, 2)]);
        let mut engine = MappedEngine::new(Answers(answer), MoveMap::default(), rules);
        let d = engine.divide(&Query::new(fen, &[], 2)).expect("read");
        assert_eq!(
            (d.count("b7b8q"), d.count("b7b8r"), d.total),
            (Some(4), Some(3), 7)
        );
    }

    /// A map that spells two legal moves alike (`b7b8q=e1d1` where the King may go to d1,
    /// `q=r` without `r=q`) is refused before the engine is asked: the listing under that
    /// spelling could be either move, and one was read as the other (`diff` said they agreed).
    #[test]
    fn a_map_spelling_two_legal_moves_alike_is_refused() {
        let rules = variants::rules("chess").expect("chess");
        let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        let answer = Divide::from_entries(Vec::new());
        let refused = |pairs: &[&str]| {
            let mut map = MoveMap::default();
            for pair in pairs {
                map.add_pair(pair).expect("a pair");
            }
            let mut engine = MappedEngine::new(Answers(answer.clone()), map, rules);
            engine
                .divide(&Query::new(fen, &[], 2))
                .map(|_| ())
                .map_err(|e| e.kind)
        };
        let alike = |spelling: &str, first: &str, second: &str| EngineErrorKind::SpelledAlike {
            spelling: spelling.into(),
            moves: Box::new([first.into(), second.into()]),
        };
        assert_eq!(
            refused(&["b7b8q=e1d1"]),
            Err(alike("e1d1", "b7b8q", "e1d1"))
        );
        assert_eq!(refused(&["q=r"]), Err(alike("b7b8r", "b7b8q", "b7b8r")));
        assert_eq!(refused(&["q=r", "r=q"]), Ok(()));
        assert_eq!(refused(&["b7b8q=Q8"]), Ok(()));
    }

    #[test]
    fn letters_and_moves() {
        let rules = variants::rules("chess").expect("chess");
        let mut map = MoveMap::default();
        map.add_pair("n=h").unwrap();
        map.add_pair("a2a3=a2a3!").unwrap();
        assert_eq!(
            map.add_pair("N=x"),
            Err(MapError::LetterMapped("N=x".into()))
        );
        assert_eq!(
            map.add_pair("nothing"),
            Err(MapError::NotAPair("nothing".into()))
        );
        assert_eq!(
            map.add_pair("x=").map_err(|e| e.to_string()),
            Err("--map `x=`: both sides are needed".into())
        );
        assert_eq!(map.to_engine(&rules, None, "b7b8n"), "b7b8h");
        assert_eq!(map.to_ours(&rules, None, "b7b8h"), "b7b8n");
        assert_eq!(map.to_engine(&rules, None, "N@c3"), "H@c3");
        assert_eq!(map.to_engine(&rules, None, "a2a3"), "a2a3!");
        assert_eq!(map.to_ours(&rules, None, "a2a3!"), "a2a3");
    }
}

//! External engines behind one trait, so that `diff`, `identify` and the suite runner can ask any
//! move generator for a divide and compare it with ours.
//!
//! An [`Engine`] answers a [`Query`] (a FEN, moves played from it, a depth) with a [`Divide`]:
//! the leaf count below every root move, in our move spelling. Three implementations:
//! - [`UciEngine`]: a long-running UCI engine asked `go perft N` (Stockfish, Fairy-Stockfish);
//! - [`PerftreeEngine`]: a command run once per query the way the `perftree` tool runs scripts;
//! - [`ReferenceEngine`]: our own generator, optionally with planted faults ([`crate::faults`]).
//!
//! [`MappedEngine`] wraps any of them to translate move spellings both ways, and
//! [`EngineConfig::open`] builds the whole stack from the settings a front end checked with
//! [`EngineOptions::config`]; [`suites`] runs the conformance suites against engines. Errors name
//! the engine and the query, so that one line tells a user what was asked and what went wrong.

use crate::perft::DivideEntry;
use crate::report::printable;
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

pub mod bisect;
pub mod generator;
pub mod identify;
pub mod mapping;
pub mod options;
pub mod perftree;
pub mod pool;
pub mod process;
pub mod reference;
pub mod session;
pub mod suites;
pub mod uci;

pub use generator::EngineGenerator;
pub use mapping::{CastlingStyle, MapError, MappedEngine, MoveMap};
pub use options::{EngineOptionError, EngineOptions, parse_option};
pub use perftree::PerftreeEngine;
pub use pool::EnginePool;
pub use reference::ReferenceEngine;
pub use session::{DEFAULT_FAILURE_LIMIT, EngineSession};
pub use uci::UciEngine;

/// Default seconds an engine may take to answer one question.
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// What an engine is asked: the divide at `depth` of the position reached from `fen` by `moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The starting position.
    pub fen: String,
    /// Moves played from it, in our spelling.
    pub moves: Vec<String>,
    /// Depth in plies (at least 1).
    pub depth: u32,
}

impl Query {
    /// A query.
    pub fn new(fen: impl Into<String>, moves: &[String], depth: u32) -> Query {
        Query {
            fen: fen.into(),
            moves: moves.to_vec(),
            depth,
        }
    }

    /// The same position one move further, one ply shallower.
    pub fn child(&self, mv: &str) -> Query {
        let mut moves = self.moves.clone();
        moves.push(mv.to_string());
        Query {
            fen: self.fen.clone(),
            moves,
            depth: self.depth.saturating_sub(1),
        }
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}, fen \"{}\"", self.depth, self.fen)?;
        if !self.moves.is_empty() {
            write!(f, ", moves \"{}\"", self.moves.join(" "))?;
        }
        Ok(())
    }
}

/// An engine's answer: leaf counts per root move, sorted by move text, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Divide {
    /// One entry per root move, sorted by text.
    pub entries: Vec<DivideEntry>,
    /// The total the engine reported (equal to the sum of the counts).
    pub total: u64,
    /// Where the engine printed each move, by its text as printed: the 1-based line of its
    /// answer (a perftree command's output, a UCI engine's lines after `go perft`). Empty when
    /// not known (our own generator).
    pub lines: BTreeMap<String, usize>,
}

impl Divide {
    /// A divide from entries in any order; the total is their sum.
    pub fn from_entries(mut entries: Vec<DivideEntry>) -> Divide {
        entries.sort_by(|a, b| a.text.cmp(&b.text));
        // Engines' answers are checked against their totals with [`Divide::sum_of`] first; a
        // sum beyond 2^64 cannot reach here unnoticed, and never wraps.
        let total = u64::try_from(Divide::sum_of(&entries)).unwrap_or(u64::MAX);
        Divide {
            entries,
            total,
            lines: BTreeMap::new(),
        }
    }

    /// A divide from the entries an engine printed, each with the line of its answer it was
    /// read from.
    pub fn from_lines(listed: Vec<(DivideEntry, usize)>) -> Divide {
        let lines = listed.iter().map(|(e, l)| (e.text.clone(), *l)).collect();
        Divide {
            lines,
            ..Divide::from_entries(listed.into_iter().map(|(e, _)| e).collect())
        }
    }

    /// The sum of the entries' counts, without overflow.
    pub fn sum_of(entries: &[DivideEntry]) -> u128 {
        entries.iter().map(|e| u128::from(e.count)).sum()
    }

    /// The count of `mv`, if the engine listed it.
    pub fn count(&self, mv: &str) -> Option<u64> {
        self.entries
            .binary_search_by(|e| e.text.as_str().cmp(mv))
            .ok()
            .map(|i| self.entries[i].count)
    }
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineErrorKind {
    /// The command line is empty or badly quoted.
    BadCommand(process::CommandError),
    /// The program does not exist.
    NotFound,
    /// The program may not be run.
    NotExecutable,
    /// It could not be started for another reason.
    Spawn(String),
    /// It exited, or closed its output, before finishing its answer.
    Crashed {
        /// How it ended (`exit status 3`, `killed by signal 11`, `closed its output`).
        how: String,
        /// The last lines of its stderr.
        stderr: String,
        /// Lines of the answer it had printed (0: it ended before answering at all).
        answered: usize,
    },
    /// It did not answer within the timeout (its process group was killed).
    Timeout {
        /// The time it was given (to the nanosecond, as the timeout was set).
        allowed: Duration,
        /// What it was waiting for.
        waiting_for: String,
    },
    /// A line it printed is not in the protocol.
    Malformed {
        /// The line, quoted in the message.
        line: String,
        /// What was expected.
        expected: String,
    },
    /// It refused a move of the query.
    IllegalMove(String),
    /// It refused the position or the variant.
    Rejected(String),
    /// It was not asked: its session stopped asking it (the reason says why).
    Stopped(String),
    /// Its counts do not add up to the total it printed.
    TotalMismatch {
        /// Sum of the per-move counts.
        sum: u64,
        /// The total it printed.
        total: u64,
    },
    /// At depth 1 it gave a move a count other than 1 (each move is one leaf there): a move
    /// left out and another counted twice keep the total right.
    NotOneLeaf {
        /// The move as listed.
        text: String,
        /// The count it gave.
        count: u64,
    },
    /// The spelling map (`--map`) gives two legal moves of the position one spelling, so the
    /// engine's answer cannot be read back: it was not asked.
    SpelledAlike {
        /// The one spelling.
        spelling: String,
        /// Our two moves, in sorted order.
        moves: Box<[String; 2]>,
    },
    /// Its counts add up to more than 2^64 - 1 (no perft count is that large).
    SumOverflow {
        /// The total it printed.
        total: u64,
    },
    /// Our own count saturated ([`crate::perft::OVERFLOW`]): the reference cannot answer.
    CountOverflow(crate::perft::CountOverflow),
    /// Writing to it failed.
    Io(String),
    /// It listed one move twice, in two spellings that are one move of ours (`e7e8q` and
    /// `e7e8Q`; with `--map-castling king-to-rook`, `e1g1` and `e1h1`).
    ListedTwice(Box<ListedTwice>),
}

/// One move listed twice by an engine ([`EngineErrorKind::ListedTwice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedTwice {
    /// The move in our spelling.
    pub ours: String,
    /// The first listing (by line of the answer, when known; else by text).
    pub first: Listing,
    /// The other.
    pub second: Listing,
}

/// A move as an engine listed it: its text, its count, and the line of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The move as the engine wrote it.
    pub text: String,
    /// The count it gave.
    pub count: u64,
    /// The 1-based line of its answer, when known.
    pub line: Option<usize>,
}

/// The moves of one answer as they are read, in the engine's spelling, to find one listed twice
/// in the same spelling (a set, not a scan: 100,000 lines would cost 5 * 10^9 comparisons).
#[derive(Default)]
pub(crate) struct Listed(std::collections::HashMap<String, (u64, usize)>);

impl Listed {
    /// Takes `text` with `count`, from line `line` of the answer.
    ///
    /// # Errors
    /// [`EngineErrorKind::ListedTwice`] with both listings when `text` was listed before.
    pub(crate) fn add(
        &mut self,
        text: &str,
        count: u64,
        line: usize,
    ) -> Result<(), EngineErrorKind> {
        match self.0.get(text) {
            Some(&(first_count, first_line)) => {
                let listing = |count, line| Listing {
                    text: text.to_string(),
                    count,
                    line: Some(line),
                };
                Err(EngineErrorKind::ListedTwice(Box::new(ListedTwice {
                    ours: text.to_string(),
                    first: listing(first_count, first_line),
                    second: listing(count, line),
                })))
            }
            None => {
                self.0.insert(text.to_string(), (count, line));
                Ok(())
            }
        }
    }
}

impl fmt::Display for Listing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` (count {}", self.text, self.count)?;
        if let Some(line) = self.line {
            write!(f, ", line {line} of its answer")?;
        }
        write!(f, ")")
    }
}

impl EngineErrorKind {
    /// [`EngineErrorKind::TotalMismatch`] (or [`EngineErrorKind::SumOverflow`]) when the sum of
    /// `entries`' counts is not `total`.
    ///
    /// # Errors
    /// The mismatch.
    pub fn check_total(entries: &[DivideEntry], total: u64) -> Result<(), EngineErrorKind> {
        let sum = Divide::sum_of(entries);
        match u64::try_from(sum) {
            Ok(sum) if sum == total => Ok(()),
            Ok(sum) => Err(EngineErrorKind::TotalMismatch { sum, total }),
            Err(_) => Err(EngineErrorKind::SumOverflow { total }),
        }
    }
}

/// An engine failure: which engine, what it was asked, what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// The engine's name (its command line).
    pub engine: String,
    /// The query, when the failure happened while answering one.
    pub query: Option<Box<Query>>,
    /// What happened.
    pub kind: EngineErrorKind,
}

impl EngineError {
    /// An error of `engine` while answering `query`.
    pub fn new(engine: &str, query: Option<&Query>, kind: EngineErrorKind) -> EngineError {
        EngineError {
            engine: engine.to_string(),
            query: query.map(|q| Box::new(q.clone())),
            kind,
        }
    }
}

impl fmt::Display for EngineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineErrorKind::BadCommand(m) => write!(f, "bad command line: {m}"),
            EngineErrorKind::NotFound => write!(f, "program not found"),
            EngineErrorKind::NotExecutable => write!(f, "program is not executable"),
            EngineErrorKind::Spawn(m) => write!(f, "could not start: {m}"),
            EngineErrorKind::Crashed {
                how,
                stderr,
                answered,
            } => {
                // An exit with status 0 is no crash: the engine stopped before its answer did.
                let clean = how == "exit status 0";
                match (answered, clean) {
                    (0, _) => write!(f, "ended without answering ({how})")?,
                    (n, true) => write!(
                        f,
                        "ended after {n} line{} of its answer, without finishing it ({how})",
                        if *n == 1 { "" } else { "s" }
                    )?,
                    (1, false) => write!(f, "crashed mid-output after 1 line ({how})")?,
                    (n, false) => write!(f, "crashed mid-output after {n} lines ({how})")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; stderr: {}", printable(stderr))?;
                }
                Ok(())
            }
            EngineErrorKind::Timeout {
                allowed,
                waiting_for,
            } => write!(
                f,
                "no answer within {} while waiting for {waiting_for}; killed its process group",
                span(*allowed)
            ),
            EngineErrorKind::Malformed { line, expected } => {
                write!(f, "malformed line {line:?} (expected {expected})")
            }
            // The engine's own words, which may hold a CR or other control characters: shown
            // escaped, so that the error stays on one line.
            EngineErrorKind::IllegalMove(m) => write!(f, "rejected a move: {}", printable(m)),
            EngineErrorKind::Rejected(m) => write!(f, "rejected the request: {}", printable(m)),
            EngineErrorKind::Stopped(reason) => write!(f, "not asked: {reason}"),
            EngineErrorKind::TotalMismatch { sum, total } => write!(
                f,
                "its counts add up to {sum} but it reported a total of {total}"
            ),
            EngineErrorKind::NotOneLeaf { text, count } => write!(
                f,
                "counted {count} for `{text}` at depth 1, where every move is one leaf (its \
                 total says nothing then: a move left out and another counted twice keep it)"
            ),
            EngineErrorKind::SpelledAlike { spelling, moves } => write!(
                f,
                "not asked: the spelling map gives the legal moves {} and {} one \
                 spelling, `{spelling}`, so its answer could not be read back (give each move a \
                 spelling of its own: `--map q=r` needs `--map r=q`)",
                moves[0], moves[1]
            ),
            EngineErrorKind::SumOverflow { total } => write!(
                f,
                "its counts add up to more than 2^64 - 1 but it reported a total of {total}"
            ),
            EngineErrorKind::CountOverflow(e) => write!(f, "{e}"),
            EngineErrorKind::Io(m) => write!(f, "i/o error: {m}"),
            EngineErrorKind::ListedTwice(twice) => write!(
                f,
                "listed the move {} twice, as {} and as {}: its count is not taken from this \
                 answer",
                twice.ours, twice.first, twice.second
            ),
        }
    }
}

/// When an answer is due, and how long the question was given (what a time-out tells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// When the answer is due.
    pub at: Instant,
    /// The time given, from when the question was put to `at`.
    pub allowed: Duration,
}

impl Deadline {
    /// A question put now and given `allowed`.
    pub fn after(allowed: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + allowed,
            allowed,
        }
    }

    /// The earlier of two deadlines (the first when they are the same).
    pub fn min(self, other: Deadline) -> Deadline {
        if other.at < self.at { other } else { self }
    }
}

/// A time span, exactly (to the nanosecond) and in the unit a reader expects: from a second in
/// seconds (`1 s`, `2.5 s`), from a millisecond in milliseconds (`500 ms`), from a microsecond
/// in microseconds (`100 µs`), else in nanoseconds; no trailing zeros.
fn span(d: Duration) -> String {
    let nanos = d.subsec_nanos();
    let (whole, fraction, digits, unit) = match (d.as_secs(), nanos) {
        (0, 1_000_000..) => (u64::from(nanos / 1_000_000), nanos % 1_000_000, 6, "ms"),
        (0, 1_000..) => (u64::from(nanos / 1_000), nanos % 1_000, 3, "µs"),
        (0, _) => (u64::from(nanos), 0, 1, "ns"),
        (secs, _) => (secs, nanos, 9, "s"),
    };
    let fraction = format!("{fraction:0digits$}");
    match fraction.trim_end_matches('0') {
        "" => format!("{whole} {unit}"),
        decimals => format!("{whole}.{decimals} {unit}"),
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine `{}`: {}", self.engine, self.kind)?;
        if let Some(q) = &self.query {
            write!(f, " (asked {q})")?;
        }
        Ok(())
    }
}

impl std::error::Error for EngineError {}

/// A move generator that can be asked for divides.
///
/// Implementations keep any process they start alive between queries and end it on drop. They
/// are `Send`, so a runner may move each engine to a worker thread.
pub trait Engine: Send {
    /// The divide of `query`, moves in our spelling, sorted.
    ///
    /// # Errors
    /// The engine could not be run, crashed, hung, printed something out of protocol, refused
    /// the position or a move, or printed counts that do not add up.
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError>;

    /// [`Engine::divide`], the whole answer due by `deadline` (then the engine is killed and
    /// the answer is a time-out). Engines running in this process ignore the deadline.
    ///
    /// # Errors
    /// As [`Engine::divide`].
    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        let _ = deadline;
        self.divide(query)
    }

    /// Why the engine is no longer asked, once its session gave up on it ([`EngineSession`]).
    fn stopped(&self) -> Option<String> {
        None
    }

    /// How many questions the engine's current process has answered, for engines that keep one
    /// process across questions (a UCI engine, restarted after a failure); `None` for the rest.
    fn process_answers(&self) -> Option<usize> {
        None
    }

    /// A name for reports (the command line for external engines).
    fn name(&self) -> String;

    /// Perft: the divide's total.
    ///
    /// # Errors
    /// As [`Engine::divide`].
    fn perft(&mut self, query: &Query) -> Result<u64, EngineError> {
        self.divide(query).map(|d| d.total)
    }
}

impl<E: Engine + ?Sized> Engine for Box<E> {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        (**self).divide(query)
    }
    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        (**self).divide_by(query, deadline)
    }
    fn stopped(&self) -> Option<String> {
        (**self).stopped()
    }
    fn process_answers(&self) -> Option<usize> {
        (**self).process_answers()
    }
    fn name(&self) -> String {
        (**self).name()
    }
}

/// How to talk to an external engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI with `go perft`.
    Uci,
    /// One process per query: `CMD DEPTH FEN [MOVES]`.
    Perftree,
}

impl Protocol {
    /// Parses `uci` or `perftree`.
    pub fn parse(text: &str) -> Option<Protocol> {
        match text {
            "uci" => Some(Protocol::Uci),
            "perftree" => Some(Protocol::Perftree),
            _ => None,
        }
    }
    /// The spelling on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Perftree => "perftree",
        }
    }
}

/// Everything needed to start and talk to one external engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The command line, shell-quoted.
    pub command: String,
    /// The protocol.
    pub protocol: Protocol,
    /// `UCI_Variant` to select (UCI only).
    pub variant: Option<String>,
    /// `setoption` pairs sent after `uci` (UCI only), in order.
    pub options: Vec<(String, String)>,
    /// Most time one question may take (the handshake is one question).
    pub timeout: Duration,
    /// Consecutive time-outs or crashes after which the engine is not asked any more (0:
    /// never give up).
    pub failure_limit: usize,
    /// Move spellings.
    pub map: MoveMap,
}

impl EngineConfig {
    /// A config with defaults: no variant, no options, the default timeout, no mapping.
    pub fn new(command: &str, protocol: Protocol) -> EngineConfig {
        EngineConfig {
            command: command.to_string(),
            protocol,
            variant: None,
            options: Vec::new(),
            timeout: Duration::from_secs_f64(DEFAULT_TIMEOUT_SECS),
            failure_limit: DEFAULT_FAILURE_LIMIT,
            map: MoveMap::default(),
        }
    }

    /// Starts nothing yet: builds the engine, which starts its process on the first query, in a
    /// session that gives each question one deadline and stops asking after
    /// `failure_limit` consecutive time-outs or crashes. `rules` decide the mapping of move
    /// spellings (castling needs the position).
    ///
    /// # Errors
    /// A command line that cannot be split into words.
    pub fn open(&self, rules: crate::variant::Rules) -> Result<Box<dyn Engine>, EngineError> {
        let argv = process::split_command(&self.command)
            .map_err(|e| EngineError::new(&self.command, None, EngineErrorKind::BadCommand(e)))?;
        if argv.is_empty() {
            return Err(EngineError::new(
                &self.command,
                None,
                EngineErrorKind::BadCommand(process::CommandError::Empty),
            ));
        }
        let inner: Box<dyn Engine> = match self.protocol {
            Protocol::Uci => Box::new(
                UciEngine::new(
                    &self.command,
                    argv,
                    self.variant.clone(),
                    self.options.clone(),
                    self.timeout,
                )
                .naming_moves(self.map.moves.iter().map(|(_, theirs)| theirs.clone())),
            ),
            Protocol::Perftree => Box::new(PerftreeEngine::new(&self.command, argv, self.timeout)),
        };
        // Mapped even without a map: the engine's moves are read in our canonical spelling.
        let engine: Box<dyn Engine> = Box::new(MappedEngine::new(inner, self.map.clone(), rules));
        Ok(Box::new(EngineSession::new(
            engine,
            self.timeout,
            self.failure_limit,
        )))
    }
}

/// An engine's count: decimal digits only (Rust's `parse` would also take a sign, `+20`, which
/// no engine writes and which a careless one might put before a wrong number), at most
/// `u64::MAX`.
pub(crate) fn parse_count(text: &str) -> Option<u64> {
    match !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        true => text.parse().ok(),
        false => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_engine_and_query() {
        let q = Query::new("8/8/8/8/8/8/8/K6k w - - 0 1", &["a1a2".into()], 3);
        let e = EngineError::new(
            "my-engine --fast",
            Some(&q),
            EngineErrorKind::Malformed {
                line: "garbage".into(),
                expected: "`move: count`".into(),
            },
        );
        let text = e.to_string();
        assert!(text.contains("my-engine --fast"), "{text}");
        assert!(text.contains("\"garbage\""), "{text}");
        assert!(text.contains("depth 3"), "{text}");
        assert!(text.contains("moves \"a1a2\""), "{text}");
        assert!(!text.contains('\n'));
    }

    #[test]
    fn an_engines_own_words_stay_on_one_line() {
        // Found by the `engine_output` fuzz target: a UCI line `e2e4: 1<CR>Illegal move` (a
        // CR inside the line; only line endings are dropped) was quoted as it was, on two
        // lines.
        for kind in [
            EngineErrorKind::IllegalMove("e2e4: 1\rIllegal move".into()),
            EngineErrorKind::Rejected("No such option: \u{2028}x\ny".into()),
            EngineErrorKind::Crashed {
                how: "exit status 1".into(),
                stderr: "a\rb | \u{1b}[2J".into(),
                answered: 0,
            },
        ] {
            let text = kind.to_string();
            assert!(
                !text.contains(['\n', '\r', '\u{1b}', '\u{2028}']),
                "{text:?}"
            );
        }
        assert_eq!(
            EngineErrorKind::IllegalMove("e2e4: 1\rIllegal move".into()).to_string(),
            "rejected a move: e2e4: 1\\u{d}Illegal move"
        );
    }

    #[test]
    fn a_timeout_is_told_exactly_in_a_readable_unit() {
        let told = |seconds: f64| {
            EngineErrorKind::Timeout {
                allowed: Duration::from_secs_f64(seconds),
                waiting_for: "its output".into(),
            }
            .to_string()
        };
        for (seconds, within) in [
            (1e-9, "1 ns"),
            (0.000_000_999, "999 ns"),
            (0.000_001_5, "1.5 µs"),
            (0.0001, "100 µs"),
            (0.001, "1 ms"),
            (0.0049, "4.9 ms"),
            (0.3, "300 ms"),
            (0.999_999_999, "999.999999 ms"),
            (1.0, "1 s"),
            (2.5, "2.5 s"),
            (1.000_000_001, "1.000000001 s"),
            (86_400.0, "86400 s"),
        ] {
            assert_eq!(
                told(seconds),
                format!(
                    "no answer within {within} while waiting for its output; killed its \
                     process group"
                )
            );
        }
    }
}

//! Reading suite files: YAML → [`SuiteFile`] → validated [`Suite`], every error located.

use super::aliases::{AnchorAgain, Traced, anchor_given_twice, trace};
use super::locate::{SourceMap, yaml_lines};
use super::model::{
    AlternativeFile, CaseFile, DivideFile, OutcomeFile, SourceFile, SourceKind, StatusFile,
    SuiteFile,
};
use super::nesting::{MAX_FLOW_NESTING, TooDeep, check_flow_nesting};
use crate::echo::echo;
use crate::notation::{
    MoveError, PlyError, PositionTextError, normalise_move_text, parse_position, play_moves, to_fen,
};
use crate::position::Position;
use crate::variant::{OptionError, Rules, Variant};
use crate::variants;
use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

/// Deepest perft or divide a suite may ask for.
pub const MAX_DEPTH: u32 = 15;
/// Largest suite file read (bytes).
pub const MAX_FILE_BYTES: u64 = 8 << 20;
/// Most moves in one case's `moves`.
pub const MAX_MOVES: usize = 10_000;
/// How many times its own size (and at least 4096 bytes) a suite may grow when its YAML aliases
/// are expanded, counting every node once and every byte of its scalars. Without aliases a suite
/// never grows; the limit stops an alias bomb (a few lines that expand to gigabytes) before it is
/// read into memory.
pub const MAX_EXPANSION: usize = 16;

/// A suite that cannot be read, or one problem in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as given.
    pub file: PathBuf,
    /// 1-based line, when the problem has one (a missing file has none).
    pub line: Option<usize>,
    /// 1-based column, when known (YAML syntax and type errors).
    pub column: Option<usize>,
    /// The case's id, when the problem is inside a case whose id is known.
    pub case: Option<String>,
    /// What is wrong (boxed: errors travel in lists, and most are small).
    pub reason: Box<LoadReason>,
}

/// What is wrong with a suite file, or with one case of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadReason {
    /// The file or directory cannot be read (the system's message).
    #[error("{0}")]
    Io(String),
    /// UTF-16 text.
    #[error("UTF-16 text (it starts with a UTF-16 byte-order mark); save the suite as UTF-8")]
    Utf16,
    /// Bytes that are not UTF-8.
    #[error("not valid UTF-8")]
    NotUtf8,
    /// Nothing but blank lines, comments and `---`.
    #[error("empty suite: expected variant, description, game-end and cases")]
    Empty,
    /// A character YAML allows nowhere in a file, not even in quotes (a control character
    /// other than tab, line feed, carriage return and next line; U+FFFE, U+FFFF). The parser
    /// placed it at line 1, column 1, with its byte offset as "position N".
    #[error(
        "U+{:04X}, {}, is not allowed anywhere in YAML, not even in quotes: remove it, or \
         write it as the escape `{}` in a double-quoted string",
        u32::from(*.0),
        if .0.is_control() { "a control character" } else { "a noncharacter" },
        yaml_escape(*.0)
    )]
    NotPrintable(char),
    /// Flow collections nested too deep for the YAML parser.
    #[error("{0}")]
    TooDeep(TooDeep),
    /// An anchor name given twice, which serde_yaml can resolve to the wrong node.
    #[error("{0}")]
    AnchorGivenTwice(AnchorAgain),
    /// YAML that is not a suite.
    #[error(
        "{message}{}{}{}",
        alias_note(.alias),
        game_end_hint(.missing_game_end),
        byte_order_mark_note(.byte_order_mark)
    )]
    Yaml {
        /// The parser's message, on one line, without the location (the error has it).
        message: String,
        /// Whether the problem is the missing `game-end` key.
        missing_game_end: bool,
        /// A line holding a byte-order mark after the start, which the parser stumbles on.
        byte_order_mark: Option<usize>,
        /// When the problem is in the value of an alias (`*name`), which the error is placed at:
        /// the alias's name and where the problem is in the node its anchor marks.
        alias: Option<Box<Traced>>,
    },
    /// A variant that is not registered.
    #[error("unknown variant {} (variants: {ids})", echo(.0), ids = variants::IDS.join(", "))]
    UnknownVariant(String),
    /// An empty `description`.
    #[error("description is empty")]
    EmptyDescription,
    /// A `game-end` the variant refuses.
    #[error("{0}")]
    GameEnd(OptionError),
    /// `game-end` among the `options`.
    #[error("options: state game-end with the suite-level `game-end` key")]
    GameEndAsOption,
    /// An option the variant refuses.
    #[error("options: {0}")]
    Option(OptionError),
    /// An empty `cases` list.
    #[error("no cases: a suite must check something")]
    NoCases,
    /// A case id used before.
    #[error("duplicate id (first used on line {0})")]
    DuplicateId(usize),
    /// A case id that is not `[a-z0-9][a-z0-9-]*`.
    #[error("id must be lower-case letters, digits and `-`, starting with a letter or digit")]
    BadId,
    /// A file stem holding a character check names cannot carry.
    #[error(
        "the file name holds {}, which check names (`<variant>::<file-stem>::<case-id>::<check>`) \
         cannot carry: rename the file without control characters, white space other than single \
         spaces between words, bidirectional controls, invisible characters or `:`",
        stem_character(*.0)
    )]
    BadStem(char),
    /// A suite whose name (`<variant>::<file-stem>`) another suite of the same run has: every
    /// check name of both would read alike (a CI system shows them as one test).
    #[error(
        "`{name}` is also the name of `{}`, loaded first: every check name \
         (`<variant>::<file-stem>::<case-id>::<check>`) would be the same in both suites; rename \
         one of the files or check them in separate runs",
        crate::report::one_line(&.first.display().to_string())
    )]
    SameName {
        /// The name both have.
        name: String,
        /// The suite loaded first under that name.
        first: PathBuf,
    },
    /// A file stem that is not UTF-8: it cannot be told apart from others in check names.
    #[error(
        "the file name is not valid UTF-8, which check names \
         (`<variant>::<file-stem>::<case-id>::<check>`) are: rename the file"
    )]
    StemNotUtf8,
    /// A ruling id the variant's suites may not cite.
    #[error("unknown rule id {} ({variant} suites may cite: {})", echo(.rule), .rulings.join(", "))]
    UnknownRule {
        /// The id cited.
        rule: String,
        /// The variant's id.
        variant: &'static str,
        /// The ids its suites may cite.
        rulings: &'static [&'static str],
    },
    /// A ruling id cited twice in one case's `rules`.
    #[error("rules: {} is listed twice", echo(.0))]
    RuleListedTwice(String),
    /// A source without a field its kind requires.
    #[error("source of kind {kind} needs `{field}`")]
    SourceNeeds {
        /// The source's kind.
        kind: &'static str,
        /// The missing field.
        field: &'static str,
    },
    /// A `reason` on a normal case.
    #[error("reason is only for disputed or xfail cases")]
    ReasonWithoutStatus,
    /// A disputed or xfail case without a reason.
    #[error("status {0} needs a reason")]
    StatusNeedsReason(&'static str),
    /// A disputed case without alternatives.
    #[error("a disputed case lists its alternatives (reading, options, expectations)")]
    NoAlternatives,
    /// Alternatives on a case that is not disputed.
    #[error("alternatives are only for disputed cases")]
    AlternativesNotDisputed,
    /// A case without expectations.
    #[error("the case expects nothing (give perft, divide, legal, illegal or outcome)")]
    ExpectsNothing,
    /// A FEN that is unreadable or illegal.
    #[error("fen: {0}")]
    Fen(Box<PositionTextError>),
    /// More than [`MAX_MOVES`] moves.
    #[error("moves: {0} moves, at most {MAX_MOVES} are accepted")]
    TooManyMoves(usize),
    /// A move that cannot be played.
    #[error("moves: {0}")]
    Moves(Box<PlyError>),
    /// A perft depth outside 1..=[`MAX_DEPTH`].
    #[error("perft: depth {0} is outside 1..={MAX_DEPTH}")]
    PerftDepth(u32),
    /// A divide depth outside 1..=[`MAX_DEPTH`].
    #[error("divide: depth {0} is outside 1..={MAX_DEPTH}")]
    DivideDepth(u32),
    /// A move listed twice in `divide`, `legal` or `illegal` (`key`).
    #[error("{key}: move `{text}` is listed twice")]
    ListedTwice {
        /// The list.
        key: &'static str,
        /// The move, in its canonical spelling.
        text: String,
    },
    /// Move text in `divide`, `legal` or `illegal` (`key`) that is malformed.
    #[error("{key}: {error}")]
    BadMove {
        /// The list.
        key: &'static str,
        /// What is wrong with it.
        error: Box<MoveError>,
    },
    /// Divide counts whose sum does not fit the largest count a suite can hold.
    #[error(
        "divide: the counts sum to more than {}, the largest count a suite can hold",
        u64::MAX
    )]
    DivideTooLarge,
    /// Divide counts whose sum is not the perft count at the divide's depth.
    #[error("divide: the counts sum to {sum}, but perft {depth} says {perft}")]
    DivideSum {
        /// The sum of the divide's counts.
        sum: u64,
        /// The divide's depth.
        depth: u32,
        /// The perft count at that depth.
        perft: u64,
    },
    /// A divide at depth 1 with a count other than 1: perft(0) after any move is 1.
    #[error(
        "divide: at depth 1 each move counts 1 (perft 0 after it), but {} counts {count}",
        echo(.text)
    )]
    DivideDepthOneCount {
        /// The move, in its canonical spelling.
        text: String,
        /// Its count.
        count: u64,
    },
    /// A divide listing another number of moves than `perft` at depth 1 says there are.
    #[error(
        "divide: lists {listed} {}, but perft 1 says {legal}: a divide lists every legal move \
         with its count",
        if *.listed == 1 { "move" } else { "moves" }
    )]
    DivideMoveCount {
        /// How many moves the divide lists.
        listed: usize,
        /// perft 1.
        legal: u64,
    },
    /// A move `legal` lists but the divide does not (a divide lists every legal move).
    #[error(
        "divide: lists no {}, which `legal` lists: a divide lists every legal move with its count",
        echo(.0)
    )]
    LegalNotInDivide(String),
    /// A move `illegal` lists but the divide counts.
    #[error("divide: counts {}, which `illegal` lists", echo(.0))]
    IllegalInDivide(String),
    /// A move both in `legal` and in `illegal`.
    #[error("move `{0}` is listed both as legal and as illegal")]
    LegalAndIllegal(String),
    /// An alternative with an empty `reading`.
    #[error("reading is empty")]
    ReadingEmpty,
    /// An alternative without expectations.
    #[error("expects nothing")]
    AlternativeExpectsNothing,
    /// A problem in one alternative of a disputed case (1-based).
    #[error("alternatives[{number}]: {reason}")]
    Alternative {
        /// The alternative's number, from 1.
        number: usize,
        /// What is wrong.
        reason: Box<LoadReason>,
    },
}

/// What a YAML error adds when it was found in the value of an alias.
fn alias_note(alias: &Option<Box<Traced>>) -> String {
    alias.as_deref().map(Traced::note).unwrap_or_default()
}

/// What a YAML error adds when the suite lacks `game-end`.
fn game_end_hint(missing: &bool) -> &'static str {
    if *missing {
        " (RULES.md GE-1: a suite states `game-end: rules` or `game-end: movegen`)"
    } else {
        ""
    }
}

/// What a YAML error adds when a byte-order mark after the start may be its cause.
fn byte_order_mark_note(line: &Option<usize>) -> String {
    line.map(|line| {
        format!(
            " (line {line} holds a byte-order mark, U+FEFF, which YAML reads only at the start: remove it)"
        )
    })
    .unwrap_or_default()
}

/// A character of a file stem, for [`LoadReason::BadStem`]: `a space`, `` `:` ``, else
/// `U+0009`.
fn stem_character(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        ':' => "`:`".to_string(),
        c => format!("U+{:04X}", u32::from(c)),
    }
}

/// Whether YAML allows `c` in a file (its `c-printable`: tab, line feed, carriage return, next
/// line and the characters that are not controls, U+FFFE and U+FFFF excepted).
fn yaml_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{85}')
        || !(c.is_control() || c == '\u{fffe}' || c == '\u{ffff}')
}

/// The double-quoted YAML escape of `c`.
fn yaml_escape(c: char) -> String {
    match u32::from(c) {
        n @ 0..=0xff => format!("\\x{n:02X}"),
        n => format!("\\u{n:04X}"),
    }
}

/// The 1-based line and column (in characters, as YAML counts lines) of the first character
/// of `text` YAML does not allow, with the character.
fn first_not_printable(text: &str) -> Option<(usize, usize, char)> {
    yaml_lines(text).iter().enumerate().find_map(|(i, line)| {
        line.chars()
            .enumerate()
            .find(|(_, c)| !yaml_printable(*c))
            .map(|(column, c)| (i + 1, column + 1, c))
    })
}

/// Characters that show as nothing at all (a zero-width space or joiner, a soft hyphen, a
/// word joiner, a byte-order mark): a name holding one looks like a name without it.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}'
    )
}

/// The file stem of a suite, which begins the name of each of its checks.
///
/// # Errors
/// A stem holding a character that a report, a terminal or an export would show otherwise or
/// not at all (a control character, white space other than single spaces between other
/// characters, a bidirectional control, an invisible character): the names `check` prints
/// and the ids `export` writes would differ, or look alike; or one that would make names
/// ambiguous: `:` (`a::b.yaml` would read as two parts), bytes that are not UTF-8 (two such
/// names would give one stem).
fn stem(path: &Path) -> Result<String, LoadReason> {
    let Some(stem) = path.file_stem() else {
        return Ok("suite".into());
    };
    let stem = stem.to_str().ok_or(LoadReason::StemNotUtf8)?;
    // A space is kept between two other characters (`chess copy.yaml`): exports fold runs of
    // white space to one space and reports trim the ends.
    let chars: Vec<char> = stem.chars().collect();
    let lone_space =
        |i: usize| i > 0 && i + 1 < chars.len() && chars[i - 1] != ' ' && chars[i + 1] != ' ';
    let bad = chars.iter().enumerate().find(|&(i, &c)| {
        (c.is_whitespace() && !(c == ' ' && lone_space(i)))
            || c == ':'
            || invisible(c)
            || !crate::report::shows_as_itself(c)
    });
    match bad {
        Some((_, &c)) => Err(LoadReason::BadStem(c)),
        None => Ok(stem.to_string()),
    }
}

/// The file stem a suite at `path` would have, refused as the loader refuses it: `add-case
/// --create` asks before it counts anything, and names its default case ids after it.
///
/// # Errors
/// As the loader's: a stem holding a character check names cannot carry, or not UTF-8.
pub fn suite_stem(path: &Path) -> Result<String, LoadError> {
    stem(path).map_err(|reason| LoadError {
        file: path.to_path_buf(),
        line: None,
        column: None,
        case: None,
        reason: Box::new(reason),
    })
}

/// Writes `text` with control characters and line or paragraph separators escaped (`\r`,
/// `\u{2028}`), so that text taken from a suite cannot break an error over several lines.
fn write_one_line(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            write!(f, "{}", c.escape_default())?;
        } else {
            f.write_char(c)?;
        }
    }
    Ok(())
}

impl fmt::Display for LoadError {
    /// `file:line:column: case `id`: message`, always on one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_one_line(f, &self.file.display().to_string())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": ")?;
        if let Some(case) = &self.case {
            f.write_str("case `")?;
            write_one_line(f, case)?;
            f.write_str("`: ")?;
        }
        write_one_line(f, &self.reason.to_string())
    }
}

impl std::error::Error for LoadError {}

/// Where a case's expectations come from (validated: the kind's required fields are present).
pub type Source = SourceFile;

/// A case's status with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Every check must pass.
    Normal,
    /// The main expectation must hold; alternatives are checked under their options.
    Disputed {
        /// Why.
        reason: String,
    },
    /// Every check is expected to fail.
    Xfail {
        /// Why.
        reason: String,
    },
}

impl Status {
    /// The suite spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Normal => "normal",
            Status::Disputed { .. } => "disputed",
            Status::Xfail { .. } => "xfail",
        }
    }
}

/// An expected divide with canonical move text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divide {
    /// Depth (at least 1).
    pub depth: u32,
    /// Canonical move text → count.
    pub moves: BTreeMap<String, u64>,
}

impl Divide {
    /// The sum of the counts: perft(depth). The loader refuses a divide whose sum does not
    /// fit in a `u64`.
    pub fn total(&self) -> u64 {
        self.moves.values().sum()
    }
}

/// What a case (or one of its alternatives) expects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expectations {
    /// perft by depth.
    pub perft: BTreeMap<u32, u64>,
    /// A full divide.
    pub divide: Option<Divide>,
    /// Canonical text of moves that must be legal.
    pub legal: Vec<String>,
    /// Canonical text of moves that must not be legal.
    pub illegal: Vec<String>,
    /// Game state.
    pub outcome: Option<OutcomeFile>,
}

impl Expectations {
    /// Whether nothing is expected.
    pub fn is_empty(&self) -> bool {
        self.perft.is_empty()
            && self.divide.is_none()
            && self.legal.is_empty()
            && self.illegal.is_empty()
            && self.outcome.is_none()
    }
}

/// Another reading of a disputed case.
#[derive(Clone)]
pub struct Alternative {
    /// The reading in words.
    pub reading: String,
    /// The option overrides as written (on top of the case's).
    pub options: BTreeMap<String, String>,
    /// The position under the reading's options; `None` when no option selects the reading.
    pub position: Option<Position>,
    /// What the reading expects.
    pub expect: Expectations,
}

/// A validated case.
#[derive(Clone)]
pub struct Case {
    /// Stable id.
    pub id: String,
    /// 1-based line of the case in its file.
    pub line: usize,
    /// The FEN as written (`None`: the start position).
    pub fen: Option<String>,
    /// The moves as written.
    pub moves: Option<String>,
    /// The position the checks run on (after `moves`).
    pub position: Position,
    /// Ruling ids exercised.
    pub rules: Vec<String>,
    /// The main expectations.
    pub expect: Expectations,
    /// Where they come from.
    pub source: Source,
    /// Kept out of default runs.
    pub slow: bool,
    /// Run only by `check --deep`.
    pub deep: bool,
    /// normal, disputed or xfail.
    pub status: Status,
    /// Other readings (disputed cases).
    pub alternatives: Vec<Alternative>,
    /// Free text.
    pub note: Option<String>,
}

impl fmt::Debug for Alternative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Alternative")
            .field("reading", &self.reading)
            .field("options", &self.options)
            .field("expect", &self.expect)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("id", &self.id)
            .field("line", &self.line)
            .field("fen", &self.fen_reached())
            .field("expect", &self.expect)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Suite")
            .field("path", &self.path)
            .field("variant", &self.variant.spec.id)
            .field("cases", &self.cases)
            .finish_non_exhaustive()
    }
}

impl Case {
    /// The FEN of the position the checks run on.
    pub fn fen_reached(&self) -> String {
        to_fen(&self.position)
    }
}

/// A validated suite file.
#[derive(Clone)]
pub struct Suite {
    /// The file, as given.
    pub path: PathBuf,
    /// The file name without `.yaml`: the second part of trial names.
    pub stem: String,
    /// The variant.
    pub variant: &'static Variant,
    /// What the suite covers.
    pub description: String,
    /// GE-1 mode stated by the suite.
    pub game_end: &'static str,
    /// Suite-level default options as written.
    pub options: BTreeMap<String, String>,
    /// The cases, in file order.
    pub cases: Vec<Case>,
}

impl Suite {
    /// `<variant>::<file-stem>`, the prefix of every trial name in this suite.
    pub fn prefix(&self) -> String {
        format!("{}::{}", self.variant.spec.id, self.stem)
    }
}

/// Lists the suite files named by `paths`: files as given, directories scanned (not
/// recursively) for `*.yaml` that are not directories, sorted by name; each file once.
///
/// # Errors
/// Every path that does not exist, directory that cannot be read, and `*.yaml` in one that
/// cannot be examined (a dangling link, a loop of links, a FIFO), in the order of
/// [`discover_each`]: their checks would silently not run.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Vec<LoadError>> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for entry in discover_each(paths) {
        match entry {
            Ok(file) => files.push(file),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

/// Every suite file named by `paths`, or why one cannot be: the paths in the order given, a
/// directory's `*.yaml` entries (not recursively; directories named so passed over) sorted by
/// name, each file once. One entry that cannot be examined does not hide the others, and
/// which are reported does not depend on the order the directory lists them in. A hidden name
/// (`.` first) that cannot be examined is passed over.
pub fn discover_each(paths: &[PathBuf]) -> Vec<Result<PathBuf, LoadError>> {
    let fail = |p: &Path, message: String| LoadError {
        file: p.to_path_buf(),
        line: None,
        column: None,
        case: None,
        reason: Box::new(LoadReason::Io(message)),
    };
    let mut out: Vec<Result<PathBuf, LoadError>> = Vec::new();
    for path in paths {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) => {
                out.push(Err(fail(path, e.to_string())));
                continue;
            }
        };
        if !meta.is_dir() {
            out.push(Ok(path.clone()));
            continue;
        }
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(e) => {
                out.push(Err(fail(path, e.to_string())));
                continue;
            }
        };
        let mut found: Vec<(PathBuf, Result<PathBuf, LoadError>)> = Vec::new();
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found.push((path.clone(), Err(fail(path, e.to_string()))));
                    continue;
                }
            };
            let p = entry.path();
            if p.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            match std::fs::metadata(&p) {
                Ok(meta) if meta.is_dir() => {}
                Ok(meta) if meta.is_file() => found.push((p.clone(), Ok(p))),
                // A FIFO, socket or device among the suites: its checks cannot be run, and
                // passing it over would pass the run without them.
                Ok(_) => {
                    let e = fail(
                        &p,
                        "not a regular file; a suite directory's `*.yaml` entries must be suite \
                         files"
                            .to_string(),
                    );
                    found.push((p, Err(e)));
                }
                // Editors leave hidden links that point nowhere (Emacs's `.#chess.yaml`).
                Err(_) if entry.file_name().as_encoded_bytes().starts_with(b".") => {}
                Err(e) => {
                    let e = fail(&p, unreadable_entry(&p, &e));
                    found.push((p, Err(e)));
                }
            }
        }
        // Stable: an entry the directory could not list stays among its neighbours' order.
        found.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(found.into_iter().map(|(_, entry)| entry));
    }
    let mut seen = BTreeSet::new();
    out.retain(|entry| match entry {
        Ok(p) => seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())),
        Err(_) => true,
    });
    out
}

/// Why a suite directory's entry `p` cannot be examined: for a symbolic link, where it leads
/// (a link to a file that does not exist, or a loop of links), as `ls` shows it.
fn unreadable_entry(p: &Path, e: &std::io::Error) -> String {
    match std::fs::read_link(p) {
        Ok(target) if e.kind() == std::io::ErrorKind::NotFound => format!(
            "a symbolic link to `{}`, which does not exist",
            target.display()
        ),
        Ok(_) if e.raw_os_error() == Some(libc::ELOOP) => {
            "a symbolic link in a loop of links that leads to no file".to_string()
        }
        _ => e.to_string(),
    }
}

/// Reads and validates one suite file.
///
/// # Errors
/// Every problem found, each naming file, line and (inside a case) the case id.
pub fn load_file(path: &Path) -> Result<Suite, Vec<LoadError>> {
    let bytes = crate::fsio::read_capped(path, MAX_FILE_BYTES).map_err(|e| {
        vec![LoadError {
            file: path.to_path_buf(),
            line: None,
            column: None,
            case: None,
            reason: Box::new(LoadReason::Io(e.reason.to_string())),
        }]
    })?;
    load_bytes(bytes, path)
}

/// Validates suite bytes read from `path` (which names them in errors): UTF-8 text, then as
/// [`load_str`].
///
/// # Errors
/// Every problem found, each naming file, line and (inside a case) the case id.
pub fn load_bytes(bytes: Vec<u8>, path: &Path) -> Result<Suite, Vec<LoadError>> {
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err(vec![LoadError {
            file: path.to_path_buf(),
            line: Some(1),
            column: None,
            case: None,
            reason: Box::new(LoadReason::Utf16),
        }]);
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|b| **b == b'\n').count() + 1;
        let lossy = String::from_utf8_lossy(e.as_bytes());
        let case = SourceMap::scan(&lossy)
            .item_at(line)
            .and_then(|(_, it)| it.id.clone());
        vec![LoadError {
            file: path.to_path_buf(),
            line: Some(line),
            column: None,
            case,
            reason: Box::new(LoadReason::NotUtf8),
        }]
    })?;
    load_str(&text, path)
}

/// Validates suite text; `path` names it in errors and gives the file stem.
///
/// # Errors
/// Every problem found, each naming file, line and (inside a case) the case id.
pub fn load_str(text: &str, path: &Path) -> Result<Suite, Vec<LoadError>> {
    let stem = suite_stem(path).map_err(|e| vec![e])?;
    // A byte-order mark may open a YAML stream; anywhere else it is refused below.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map = SourceMap::scan(text);
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#') || l.trim() == "---")
    {
        return Err(vec![LoadError {
            file: path.to_path_buf(),
            line: Some(1),
            column: None,
            case: None,
            reason: Box::new(LoadReason::Empty),
        }]);
    }
    // An error found before parsing, at a line and column, in the case holding that line.
    let placed = |line: usize, column: usize, reason: LoadReason| {
        vec![LoadError {
            file: path.to_path_buf(),
            line: Some(line),
            column: Some(column),
            case: map.item_at(line).and_then(|(_, it)| it.id.clone()),
            reason: Box::new(reason),
        }]
    };
    // serde_yaml places such a character at line 1, column 1.
    if let Some((line, column, c)) = first_not_printable(text) {
        return Err(placed(line, column, LoadReason::NotPrintable(c)));
    }
    check_flow_nesting(text, MAX_FLOW_NESTING)
        .map_err(|e| placed(e.line, e.column, LoadReason::TooDeep(e)))?;
    // Before serde_yaml reads any alias: it reads some of them wrongly after a name is reused.
    if let Some(again) = anchor_given_twice(text) {
        let (line, column) = again.again;
        return Err(placed(line, column, LoadReason::AnchorGivenTwice(again)));
    }
    // A byte-order mark after the start is text inside a scalar, but the parser stumbles on
    // one anywhere else: say so when it does.
    let located = |e: serde_yaml::Error| {
        let mut error = yaml_error(&e, path, &map);
        moved_to_its_alias(&mut error, &e, text, &map);
        if let LoadReason::Yaml {
            byte_order_mark, ..
        } = error.reason.as_mut()
        {
            *byte_order_mark = yaml_lines(text)
                .iter()
                .position(|l| l.contains('\u{feff}'))
                .map(|index| index + 1);
        }
        vec![error]
    };
    check_alias_expansion(text).map_err(located)?;
    let file: SuiteFile = serde_yaml::from_str(text).map_err(located)?;
    Validator {
        path,
        stem,
        map: &map,
        errors: Vec::new(),
        alternative: None,
    }
    .suite(file)
}

/// Walks the YAML `text` with its aliases expanded, before anything is built from it: an alias
/// costs three bytes of text but copies all it names, so a small file could fill the memory. The
/// walk also refuses a key given twice in one mapping, at the second key: the typed reading that
/// follows could only name the mapping (`variant:` twice was reported at line 1, column 1).
///
/// # Errors
/// Where the aliases expand the text to more than [`MAX_EXPANSION`] times its size, a key that
/// repeats one of its mapping (or the YAML does not parse).
pub fn check_alias_expansion(text: &str) -> Result<(), serde_yaml::Error> {
    let budget = Cell::new(MAX_EXPANSION.saturating_mul(text.len().max(4096)));
    ExpansionBudget {
        budget: &budget,
        keys: None,
    }
    .deserialize(serde_yaml::Deserializer::from_str(text))
}

/// Walks a YAML document with its aliases expanded, spending one unit of the budget per node
/// and per byte of scalar text, and fails where the budget runs out.
#[derive(Clone, Copy)]
struct ExpansionBudget<'a> {
    budget: &'a Cell<usize>,
    /// When the node walked is a key: the keys its mapping had before it, as text (a scalar
    /// key is refused where it repeats one; a collection as a key is not compared).
    keys: Option<&'a RefCell<BTreeSet<String>>>,
}

impl<'a> ExpansionBudget<'a> {
    /// The walker of a value, or of a collection's element: no key.
    fn value(&self) -> ExpansionBudget<'a> {
        ExpansionBudget {
            budget: self.budget,
            keys: None,
        }
    }

    fn spend<E: de::Error>(&self, units: usize) -> Result<(), E> {
        match self.budget.get().checked_sub(units.saturating_add(1)) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(E::custom(format_args!(
                "YAML aliases expand the file to more than {MAX_EXPANSION} times its size"
            ))),
        }
    }

    /// Spends for a scalar of `units` bytes; a key whose text (`text`, as read: `0x1` is `1`)
    /// its mapping holds already is refused here, so that the error is placed at this key.
    fn scalar<E: de::Error>(&self, units: usize, text: impl fmt::Display) -> Result<(), E> {
        self.spend(units)?;
        if let Some(keys) = self.keys {
            let text = text.to_string();
            if !keys.borrow_mut().insert(text.clone()) {
                return Err(E::custom(format_args!(
                    "key `{text}` is given twice in this mapping: give each key once"
                )));
            }
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for ExpansionBudget<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// `Visitor` methods for scalars without text: each spends one unit, and as a key is compared
/// by the text of its value.
macro_rules! nodes_without_text {
    ($($method:ident: $type:ty),*) => {
        $(fn $method<E: de::Error>(self, v: $type) -> Result<(), E> {
            self.scalar(0, v)
        })*
    };
}

impl<'de> Visitor<'de> for ExpansionBudget<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    // Every scalar that is not text costs one unit, as a node.
    nodes_without_text!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_i128: i128);
    nodes_without_text!(visit_u128: u128, visit_f64: f64);
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.scalar(v.len(), v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.scalar(v.len(), String::from_utf8_lossy(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.scalar(0, "~")
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.scalar(0, "~")
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.spend(0)?;
        while seq.next_element_seed(self.value())?.is_some() {}
        Ok(())
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.spend(0)?;
        let keys = RefCell::new(BTreeSet::new());
        let key = ExpansionBudget {
            budget: self.budget,
            keys: Some(&keys),
        };
        while map.next_key_seed(key)?.is_some() {
            map.next_value_seed(self.value())?;
        }
        Ok(())
    }
    // serde_yaml reads a node with a local tag (`!xfail`, `!custom {...}`) as an enum variant,
    // so that `status: !xfail` set a status and other tags vanished: no file of ours has tags.
    fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(de::Error::custom(
            "a YAML tag (`!name`): tags are not part of this file's format; remove it",
        ))
    }
}

/// The message of a serde_yaml error without the ` at line L column C` it writes of its place,
/// for a caller that writes the place itself.
pub fn message_without_place(e: &serde_yaml::Error) -> String {
    let message = e.to_string();
    match e.location() {
        Some(loc) => message.replacen(
            &format!(" at line {} column {}", loc.line(), loc.column()),
            "",
            1,
        ),
        None => message,
    }
}

/// A serde_yaml error with its location and, when it falls inside a case, the case id.
fn yaml_error(e: &serde_yaml::Error, path: &Path, map: &SourceMap) -> LoadError {
    // The location goes in front, as file:line:column; the message drops its repetition.
    let message = message_without_place(e);
    let (line, column) = match e.location() {
        Some(loc) => (Some(loc.line()), Some(loc.column())),
        None => (Some(1), None),
    };
    let case = line
        .and_then(|l| map.item_at(l))
        .and_then(|(_, it)| it.id.clone());
    LoadError {
        file: path.to_path_buf(),
        line,
        column,
        case,
        reason: Box::new(LoadReason::Yaml {
            missing_game_end: message.contains("missing field `game-end`"),
            message: message.replace('\n', " "),
            byte_order_mark: None,
            alias: None,
        }),
    }
}

/// Places a YAML error found in the value of an alias (`perft: *counts`) at the alias, where
/// serde_yaml placed it at the anchor (`&counts`), perhaps in another case: the message keeps
/// the place in the anchor's node as a note, and the case is the alias's.
fn moved_to_its_alias(error: &mut LoadError, e: &serde_yaml::Error, text: &str, map: &SourceMap) {
    let LoadReason::Yaml { alias, .. } = error.reason.as_mut() else {
        return;
    };
    let Some(traced) = trace(e, text) else {
        return;
    };
    let (line, column) = traced.at;
    (error.line, error.column) = (Some(line), Some(column));
    error.case = map.item_at(line).and_then(|(_, it)| it.id.clone());
    *alias = Some(Box::new(traced));
}

struct Validator<'a> {
    path: &'a Path,
    stem: String,
    map: &'a SourceMap,
    errors: Vec<LoadError>,
    /// The alternative being validated (1-based): its problems are reported as its own.
    alternative: Option<usize>,
}

/// Whether `id` is a stable case id: `[a-z0-9][a-z0-9-]*`.
pub fn is_valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl Validator<'_> {
    fn error(&mut self, line: usize, case: Option<&str>, reason: LoadReason) {
        let reason = match self.alternative {
            Some(number) => LoadReason::Alternative {
                number,
                reason: Box::new(reason),
            },
            None => reason,
        };
        self.errors.push(LoadError {
            file: self.path.to_path_buf(),
            line: Some(line),
            column: None,
            case: case.map(str::to_string),
            reason: Box::new(reason),
        });
    }

    fn top_line(&self, key: &str) -> usize {
        self.map.top_line(key).unwrap_or(1)
    }

    fn suite(mut self, file: SuiteFile) -> Result<Suite, Vec<LoadError>> {
        let Some(variant) = variants::get(&file.variant) else {
            self.error(
                self.top_line("variant"),
                None,
                LoadReason::UnknownVariant(file.variant),
            );
            return Err(self.errors);
        };
        if file.description.trim().is_empty() {
            self.error(
                self.top_line("description"),
                None,
                LoadReason::EmptyDescription,
            );
        }
        let mut base = Rules::new(variant);
        let game_end = file.game_end.name();
        if let Err(e) = base.set("game-end", game_end) {
            self.error(self.top_line("game-end"), None, LoadReason::GameEnd(e));
        }
        for (name, value) in &file.options {
            if name == "game-end" {
                self.error(self.top_line("options"), None, LoadReason::GameEndAsOption);
            } else if let Err(e) = base.set(name, value) {
                self.error(self.top_line("options"), None, LoadReason::Option(e));
            }
        }
        if file.cases.is_empty() {
            self.error(self.top_line("cases"), None, LoadReason::NoCases);
        }
        let mut cases = Vec::new();
        let mut first_line: BTreeMap<String, usize> = BTreeMap::new();
        for (index, case) in file.cases.into_iter().enumerate() {
            let line = self.map.case_line(index);
            if let Some(first) = first_line.get(&case.id) {
                self.error(
                    self.map.case_key_line(index, "id"),
                    Some(&case.id),
                    LoadReason::DuplicateId(*first),
                );
            } else {
                first_line.insert(case.id.clone(), line);
            }
            if let Some(c) = self.case(index, case, base, variant) {
                cases.push(c);
            }
        }
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        Ok(Suite {
            path: self.path.to_path_buf(),
            stem: self.stem,
            variant,
            description: file.description,
            game_end,
            options: file.options,
            cases,
        })
    }

    /// Validates one case: every problem is recorded (in the order of the case's fields), and
    /// the case is returned only when it has none.
    fn case(
        &mut self,
        index: usize,
        case: CaseFile,
        base: Rules,
        variant: &'static Variant,
    ) -> Option<Case> {
        let before = self.errors.len();
        let id = case.id.clone();
        self.check_id(index, &id);
        let rules = self.case_rules(index, &id, base, &case.options);
        self.check_rule_ids(index, &id, variant, &case.rules);
        self.source(&id, &case.source, self.map.case_key_line(index, "source"));
        let status = self.status(index, &id, case.status, case.reason);
        self.check_alternatives_fit(index, &id, &status, !case.alternatives.is_empty());
        // Keep validating after a bad position: every problem of the case is reported.
        let position = self.position(index, &id, &case.fen, &case.moves, rules);
        let fields = ExpectFields {
            perft: case.perft,
            divide: case.divide,
            legal: case.legal,
            illegal: case.illegal,
            outcome: case.outcome,
        };
        // Expectations given but refused (a divide at depth 0) have their own error.
        let nothing_given = fields.is_empty();
        let expect = self.expectations(index, &id, variant, fields);
        if nothing_given {
            self.error(
                self.map.case_line(index),
                Some(&id),
                LoadReason::ExpectsNothing,
            );
        }
        // The alternatives replay the case's FEN and moves under their options; when those
        // already failed, saying so again for each alternative would only repeat it.
        let replay = position.is_some().then_some((&case.fen, &case.moves));
        let mut alternatives = Vec::new();
        for (k, alt) in case.alternatives.into_iter().enumerate() {
            alternatives.push(self.alternative(index, &id, k + 1, alt, replay, rules));
        }
        let position = position?;
        if self.errors.len() > before {
            return None;
        }
        Some(Case {
            id,
            line: self.map.case_line(index),
            fen: case.fen,
            moves: case.moves,
            position,
            rules: case.rules,
            expect,
            source: case.source,
            slow: case.slow,
            deep: case.deep,
            status,
            alternatives,
            note: case.note,
        })
    }

    /// Refuses an id that is not `[a-z0-9][a-z0-9-]*`.
    fn check_id(&mut self, index: usize, id: &str) {
        if !is_valid_id(id) {
            self.error(
                self.map.case_key_line(index, "id"),
                Some(id),
                LoadReason::BadId,
            );
        }
    }

    /// The suite's rules with the case's options set, each refused option recorded.
    fn case_rules(
        &mut self,
        index: usize,
        id: &str,
        base: Rules,
        options: &BTreeMap<String, String>,
    ) -> Rules {
        let line = self.map.case_key_line(index, "options");
        let mut rules = base;
        for (name, value) in options {
            if let Err(e) = rules.set(name, value) {
                self.error(line, Some(id), LoadReason::Option(e));
            }
        }
        rules
    }

    /// Refuses a cited ruling id that the variant's suites may not cite.
    fn check_rule_ids(&mut self, index: usize, id: &str, variant: &Variant, rules: &[String]) {
        let line = self.map.case_key_line(index, "rules");
        for (i, rule) in rules.iter().enumerate() {
            // Cited twice, the case counted twice in the report's table of rulings.
            if rules[..i].contains(rule) {
                self.error(line, Some(id), LoadReason::RuleListedTwice(rule.clone()));
            } else if !variant.spec.rulings.contains(&rule.as_str()) {
                self.error(
                    line,
                    Some(id),
                    LoadReason::UnknownRule {
                        rule: rule.clone(),
                        variant: variant.spec.id,
                        rulings: variant.spec.rulings,
                    },
                );
            }
        }
    }

    /// The case's status: a disputed or xfail case needs a reason, a normal one has none.
    fn status(
        &mut self,
        index: usize,
        id: &str,
        status: StatusFile,
        reason: Option<String>,
    ) -> Status {
        match (status, reason) {
            (StatusFile::Normal, None) => Status::Normal,
            (StatusFile::Normal, Some(_)) => {
                self.error(
                    self.map.case_key_line(index, "reason"),
                    Some(id),
                    LoadReason::ReasonWithoutStatus,
                );
                Status::Normal
            }
            (StatusFile::Disputed, Some(reason)) if !reason.trim().is_empty() => {
                Status::Disputed { reason }
            }
            (StatusFile::Xfail, Some(reason)) if !reason.trim().is_empty() => {
                Status::Xfail { reason }
            }
            (s, _) => {
                self.error(
                    self.map.case_key_line(index, "status"),
                    Some(id),
                    LoadReason::StatusNeedsReason(s.name()),
                );
                Status::Normal
            }
        }
    }

    /// A disputed case lists alternatives, and only a disputed case does.
    fn check_alternatives_fit(
        &mut self,
        index: usize,
        id: &str,
        status: &Status,
        has_alternatives: bool,
    ) {
        match (status, has_alternatives) {
            (Status::Disputed { .. }, false) => self.error(
                self.map.case_key_line(index, "status"),
                Some(id),
                LoadReason::NoAlternatives,
            ),
            (Status::Normal | Status::Xfail { .. }, true) => self.error(
                self.map.case_key_line(index, "alternatives"),
                Some(id),
                LoadReason::AlternativesNotDisputed,
            ),
            _ => {}
        }
    }

    fn source(&mut self, id: &str, source: &SourceFile, line: usize) {
        let present = |v: &Option<String>| v.as_ref().is_some_and(|s| !s.trim().is_empty());
        let required: &[(&str, bool)] = match source.kind {
            SourceKind::Public => &[("citation", present(&source.citation))],
            SourceKind::Hand => &[("derivation", present(&source.derivation))],
            SourceKind::FairyStockfish => &[("command", present(&source.command))],
            SourceKind::Reference => &[
                ("command", present(&source.command)),
                ("cross-check", present(&source.cross_check)),
            ],
        };
        for (field, ok) in required {
            if !ok {
                self.error(
                    line,
                    Some(id),
                    LoadReason::SourceNeeds {
                        kind: source.kind.name(),
                        field,
                    },
                );
            }
        }
    }

    /// Builds the position from `fen` (default: start) and `moves` under `rules`.
    fn position(
        &mut self,
        index: usize,
        id: &str,
        fen: &Option<String>,
        moves: &Option<String>,
        rules: Rules,
    ) -> Option<Position> {
        let fen_text = fen.clone().unwrap_or_else(|| rules.start_fen());
        let pos = match parse_position(rules, &fen_text) {
            Ok(p) => p,
            Err(e) => {
                let line = if fen.is_some() {
                    self.map.case_key_line(index, "fen")
                } else {
                    self.map.case_line(index)
                };
                self.error(line, Some(id), LoadReason::Fen(Box::new(e)));
                return None;
            }
        };
        let Some(moves) = moves else {
            return Some(pos);
        };
        let line = self.map.case_key_line(index, "moves");
        let count = moves.split_whitespace().count();
        if count > MAX_MOVES {
            self.error(line, Some(id), LoadReason::TooManyMoves(count));
            return None;
        }
        match play_moves(&pos, moves) {
            Ok(p) => Some(p),
            Err(e) => {
                self.error(line, Some(id), LoadReason::Moves(Box::new(e)));
                None
            }
        }
    }

    fn expectations(
        &mut self,
        index: usize,
        id: &str,
        variant: &Variant,
        fields: ExpectFields,
    ) -> Expectations {
        let at = |key: &str| {
            if self.alternative.is_none() {
                self.map.case_key_line(index, key)
            } else {
                self.map.case_key_line(index, "alternatives")
            }
        };
        let (perft_line, divide_line, legal_line, illegal_line) =
            (at("perft"), at("divide"), at("legal"), at("illegal"));
        for depth in fields.perft.keys() {
            if *depth == 0 || *depth > MAX_DEPTH {
                self.error(perft_line, Some(id), LoadReason::PerftDepth(*depth));
            }
        }
        let divide = fields.divide.and_then(|d| {
            if d.depth == 0 || d.depth > MAX_DEPTH {
                self.error(divide_line, Some(id), LoadReason::DivideDepth(d.depth));
                return None;
            }
            let mut moves = BTreeMap::new();
            for (text, count) in d.moves {
                match normalise_move_text(variant, &text) {
                    Ok(canonical) => {
                        if moves.insert(canonical.clone(), count).is_some() {
                            self.error(
                                divide_line,
                                Some(id),
                                LoadReason::ListedTwice {
                                    key: "divide",
                                    text: canonical,
                                },
                            );
                        }
                    }
                    Err(error) => self.error(
                        divide_line,
                        Some(id),
                        LoadReason::BadMove {
                            key: "divide",
                            error: Box::new(error),
                        },
                    ),
                }
            }
            if moves
                .values()
                .try_fold(0u64, |sum, n| sum.checked_add(*n))
                .is_none()
            {
                self.error(divide_line, Some(id), LoadReason::DivideTooLarge);
                return None;
            }
            Some(Divide {
                depth: d.depth,
                moves,
            })
        });
        if let (Some(d), Some(p)) = (
            &divide,
            fields.perft.get(&divide.as_ref().map_or(0, |d| d.depth)),
        ) && d.total() != *p
        {
            self.error(
                divide_line,
                Some(id),
                LoadReason::DivideSum {
                    sum: d.total(),
                    depth: d.depth,
                    perft: *p,
                },
            );
        }
        let mut canonical_list = |list: Vec<String>, key: &'static str, line: usize| {
            let mut out: Vec<String> = Vec::new();
            for text in list {
                match normalise_move_text(variant, &text) {
                    Ok(c) if out.contains(&c) => {
                        self.error(line, Some(id), LoadReason::ListedTwice { key, text: c })
                    }
                    Ok(c) => out.push(c),
                    Err(error) => self.error(
                        line,
                        Some(id),
                        LoadReason::BadMove {
                            key,
                            error: Box::new(error),
                        },
                    ),
                }
            }
            out
        };
        let legal = canonical_list(fields.legal, "legal", legal_line);
        let illegal = canonical_list(fields.illegal, "illegal", illegal_line);
        if let Some(d) = &divide {
            for reason in divide_contradictions(d, fields.perft.get(&1), &legal, &illegal) {
                self.error(divide_line, Some(id), reason);
            }
        }
        for m in &legal {
            if illegal.contains(m) {
                self.error(
                    illegal_line,
                    Some(id),
                    LoadReason::LegalAndIllegal(m.clone()),
                );
            }
        }
        Expectations {
            perft: fields.perft,
            divide,
            legal,
            illegal,
            outcome: fields.outcome,
        }
    }

    fn alternative(
        &mut self,
        index: usize,
        id: &str,
        number: usize,
        alt: AlternativeFile,
        replay: Option<(&Option<String>, &Option<String>)>,
        case_rules: Rules,
    ) -> Alternative {
        let line = self.map.case_key_line(index, "alternatives");
        self.alternative = Some(number);
        if alt.reading.trim().is_empty() {
            self.error(line, Some(id), LoadReason::ReadingEmpty);
        }
        let mut rules = case_rules;
        let mut options_ok = true;
        for (name, value) in &alt.options {
            if let Err(e) = rules.set(name, value) {
                self.error(line, Some(id), LoadReason::Option(e));
                options_ok = false;
            }
        }
        let position = match replay {
            Some((fen, moves)) if options_ok && !alt.options.is_empty() => {
                self.position(index, id, fen, moves, rules)
            }
            _ => None,
        };
        let fields = ExpectFields {
            perft: alt.perft,
            divide: alt.divide,
            legal: alt.legal,
            illegal: alt.illegal,
            outcome: alt.outcome,
        };
        let nothing_given = fields.is_empty();
        let expect = self.expectations(index, id, case_rules.variant, fields);
        if nothing_given {
            self.error(line, Some(id), LoadReason::AlternativeExpectsNothing);
        }
        self.alternative = None;
        Alternative {
            reading: alt.reading,
            options: alt.options,
            position,
            expect,
        }
    }
}

/// What a case's own expectations say against its divide, found without a generator: a
/// depth-1 count other than 1, another number of moves than perft 1, a move `legal` lists and
/// the divide lacks, a move `illegal` lists and the divide counts. Which moves are missing or
/// not legal at all only the generator can say, when the check runs.
fn divide_contradictions(
    d: &Divide,
    perft_1: Option<&u64>,
    legal: &[String],
    illegal: &[String],
) -> Vec<LoadReason> {
    let mut out = Vec::new();
    if d.depth == 1 {
        // The counts' sum is compared with perft 1 already.
        out.extend(d.moves.iter().filter(|(_, c)| **c != 1).map(|(m, c)| {
            LoadReason::DivideDepthOneCount {
                text: m.clone(),
                count: *c,
            }
        }));
    } else if let Some(&n) = perft_1
        && u64::try_from(d.moves.len()) != Ok(n)
    {
        out.push(LoadReason::DivideMoveCount {
            listed: d.moves.len(),
            legal: n,
        });
    }
    out.extend(
        legal
            .iter()
            .filter(|m| !d.moves.contains_key(*m))
            .map(|m| LoadReason::LegalNotInDivide(m.clone())),
    );
    out.extend(
        illegal
            .iter()
            .filter(|m| d.moves.contains_key(*m))
            .map(|m| LoadReason::IllegalInDivide(m.clone())),
    );
    out
}

struct ExpectFields {
    perft: BTreeMap<u32, u64>,
    divide: Option<DivideFile>,
    legal: Vec<String>,
    illegal: Vec<String>,
    outcome: Option<OutcomeFile>,
}

impl ExpectFields {
    /// Whether nothing is given (before any of it is validated).
    fn is_empty(&self) -> bool {
        self.perft.is_empty()
            && self.divide.is_none()
            && self.legal.is_empty()
            && self.illegal.is_empty()
            && self.outcome.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    const HEADER: &str = "variant: chess\ndescription: limits\ngame-end: rules\n";

    /// Loads `text` as `t.yaml`, expecting exactly one error; returns it.
    fn refused(text: &str) -> LoadError {
        let start = Instant::now();
        let errors = load_str(text, Path::new("t.yaml")).expect_err("refused");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "took {:?}",
            start.elapsed()
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        let shown = errors[0].to_string();
        assert!(shown.starts_with("t.yaml:"), "{shown}");
        assert!(errors[0].line.is_some(), "{shown}");
        assert!(!shown.contains(['\n', '\r']), "{shown}");
        errors[0].clone()
    }

    #[test]
    fn errors_escape_line_breaks_taken_from_the_suite() {
        // A YAML escape puts a line break into the variant, which the error quotes.
        let e = refused("variant: \"a\\nb\"\ndescription: x\ngame-end: rules\ncases: []\n");
        assert!(e.to_string().contains("unknown variant `a\\nb`"), "{e}");
        let e = LoadError {
            file: PathBuf::from("a\nb.yaml"),
            line: Some(3),
            column: None,
            case: Some("x\u{2028}y".into()),
            reason: Box::new(LoadReason::Io("unknown variant `c\nd\u{85}`".into())),
        };
        assert_eq!(
            e.to_string(),
            "a\\nb.yaml:3: case `x\\u{2028}y`: unknown variant `c\\nd\\u{85}`"
        );
    }

    #[test]
    fn file_stems_are_refused_when_a_check_name_cannot_carry_them() {
        for (name, character) in [
            ("a\u{1}b.yaml", '\u{1}'),
            ("t\tb.yaml", '\t'),
            ("two  spaces.yaml", ' '),
            (" lead.yaml", ' '),
            ("trail .yaml", ' '),
            ("x\u{200b}y.yaml", '\u{200b}'),
            ("soft\u{ad}hyphen.yaml", '\u{ad}'),
            ("bom\u{feff}.yaml", '\u{feff}'),
            ("l\u{2028}s.yaml", '\u{2028}'),
            ("x\u{202e}y.yaml", '\u{202e}'),
            ("c\u{85}1.yaml", '\u{85}'),
            ("del\u{7f}.yaml", '\u{7f}'),
        ] {
            let errors = load_str(HEADER, Path::new(name)).expect_err(name);
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert_eq!(*errors[0].reason, LoadReason::BadStem(character), "{name}");
            assert_eq!(errors[0].line, None, "{name}");
        }
        let e = load_str(HEADER, Path::new("dir/two  spaces.yaml")).expect_err("spaces");
        assert_eq!(
            e[0].to_string(),
            "dir/two  spaces.yaml: the file name holds a space, which check names \
             (`<variant>::<file-stem>::<case-id>::<check>`) cannot carry: rename the file without \
             control characters, white space other than single spaces between words, \
             bidirectional controls, invisible characters or `:`"
        );
        let body = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{1: 20}}\n    source: {{kind: hand, derivation: x}}\n"
        );
        for name in [
            "chess.yaml",
            "Chess_960.v2+é.yaml",
            "dir with space/a-b.yaml",
            "chess copy.yaml",
            "a b c.yaml",
        ] {
            let suite = load_str(&body, Path::new(name)).expect(name);
            assert_eq!(
                suite.stem,
                Path::new(name)
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .expect("stem")
            );
        }
    }

    #[test]
    fn file_stems_that_would_make_check_names_ambiguous_are_refused() {
        use std::os::unix::ffi::OsStrExt;
        // `a::b.yaml` would name its checks `chess::a::b::<case>::<check>`.
        for name in ["a::b.yaml", "a:b.yaml", ":.yaml"] {
            let errors = load_str(HEADER, Path::new(name)).expect_err(name);
            assert_eq!(*errors[0].reason, LoadReason::BadStem(':'), "{name}");
            assert!(
                errors[0]
                    .to_string()
                    .contains("holds `:`, which check names (`<variant>::<file-stem>::"),
                "{}",
                errors[0]
            );
        }
        // Two names that are not UTF-8 would give one stem (`a\u{fffd}`).
        for bytes in [&b"a\xff.yaml"[..], b"a\xfe.yaml"] {
            let path = Path::new(std::ffi::OsStr::from_bytes(bytes));
            let errors = load_str(HEADER, path).expect_err("not UTF-8");
            assert_eq!(*errors[0].reason, LoadReason::StemNotUtf8);
            assert_eq!(
                errors[0].to_string(),
                "a\u{fffd}.yaml: the file name is not valid UTF-8, which check names \
                 (`<variant>::<file-stem>::<case-id>::<check>`) are: rename the file"
            );
        }
    }

    #[test]
    fn lines_are_counted_as_yaml_counts_them() {
        let lf = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{1: 20}}\n    source: {{kind: hand, derivation: x}}\n  \
             - id: b\n    fen: \"8/8 w - - 0 1\"\n    perft: {{1: 1}}\n    source: {{kind: hand, derivation: x}}\n"
        );
        for end in ["\n", "\r", "\r\n", "\u{2029}"] {
            let e = refused(&lf.replace('\n', end));
            assert_eq!(
                (e.line, e.case.as_deref()),
                (Some(9), Some("b")),
                "{end:?}: {e}"
            );
        }
    }

    #[test]
    fn an_alias_bomb_is_refused_with_its_line() {
        // Ten levels of ten aliases each: 10^10 strings once expanded.
        let mut text = String::from("x: &l0 [e2e4, e2e4, e2e4, e2e4, e2e4, e2e4, e2e4, e2e4]\n");
        for level in 1..10 {
            let prev = format!("*l{}", level - 1);
            text.push_str(&format!(
                "x{level}: &l{level} [{}]\n",
                [prev.as_str(); 10].join(", ")
            ));
        }
        text.push_str(HEADER);
        text.push_str(
            "cases:\n  - id: a\n    legal: *l9\n    source: {kind: hand, derivation: x}\n",
        );
        let e = refused(&text);
        assert!(
            e.reason
                .to_string()
                .contains("YAML aliases expand the file")
                || e.reason.to_string().contains("repetition limit exceeded"),
            "{e}"
        );
    }

    #[test]
    fn long_text_repeated_by_aliases_is_refused_where_the_limit_is_reached() {
        // Few aliases (no repetition limit), but each repeats 3000 bytes: 90 kB from 3 kB.
        let long = "e2e4 ".repeat(600);
        let text = format!(
            "{HEADER}cases:\n  - id: a\n    note: &n \"{long}\"\n    legal: [{}]\n    \
             source: {{kind: hand, derivation: x}}\n",
            ["*n"; 30].join(", ")
        );
        let e = refused(&text);
        assert!(
            e.reason
                .to_string()
                .contains("legal[20]: YAML aliases expand the file to more than 16 times its size"),
            "{e}"
        );
        // At the 21st alias, where the budget ran out (serde_yaml placed it at the anchor).
        assert_eq!((e.line, e.column), (Some(7), Some(13 + 20 * 4)), "{e}");
        assert!(
            e.reason
                .to_string()
                .contains("(through the alias `*n`: the problem is at line 6, column 11,"),
            "{e}"
        );
        assert_eq!(e.case.as_deref(), Some("a"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused_with_its_line() {
        let text = format!(
            "{HEADER}cases:\n  - id: a\n    legal: {}{}\n    source: {{kind: hand, derivation: x}}\n",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let e = refused(&text);
        assert!(
            e.reason
                .to_string()
                .contains("nested more than 64 levels deep"),
            "{e}"
        );
        assert_eq!((e.line, e.column), (Some(6), Some(12 + 64)), "{e}");
        assert_eq!(e.case.as_deref(), Some("a"), "{e}");
        // Block nesting costs the parser linear time; its own limit refuses it.
        let text = format!(
            "{HEADER}cases:\n  - id: a\n    legal:\n      {}x\n",
            "- ".repeat(100_000)
        );
        let e = refused(&text);
        assert!(
            e.reason.to_string().contains("recursion limit exceeded"),
            "{e}"
        );
    }

    #[test]
    fn a_byte_order_mark_opens_a_suite_but_nowhere_else() {
        let body = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{1: 20}}\n    source: {{kind: hand, derivation: x}}\n"
        );
        let suite = load_str(&format!("\u{feff}{body}"), Path::new("t.yaml")).expect("accepted");
        assert_eq!(suite.cases.len(), 1);
        let e = refused(&body.replace("cases:", "\u{feff}cases:"));
        assert!(
            e.reason
                .to_string()
                .contains("line 4 holds a byte-order mark"),
            "{e}"
        );
        let e = load_bytes(vec![0xff, 0xfe, b'v', 0], Path::new("t.yaml")).expect_err("refused");
        assert!(e[0].reason.to_string().contains("UTF-16"), "{}", e[0]);
    }

    #[test]
    fn a_character_yaml_allows_nowhere_is_placed_at_its_line_and_column() {
        // serde_yaml placed each at line 1, column 1 ("at position N", a byte offset).
        let body = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{1: 20}}\n    source: {{kind: hand, derivation: x}}\n"
        );
        for (at, c, shown, escape) in [
            (
                "derivation: x",
                '\u{0}',
                "U+0000, a control character",
                "`\\x00`",
            ),
            (
                "derivation: x",
                '\u{7f}',
                "U+007F, a control character",
                "`\\x7F`",
            ),
            (
                "derivation: x",
                '\u{9b}',
                "U+009B, a control character",
                "`\\x9B`",
            ),
            (
                "derivation: x",
                '\u{ffff}',
                "U+FFFF, a noncharacter",
                "`\\uFFFF`",
            ),
        ] {
            // After `é` (two bytes, one column) on a line that CR LF ends.
            let text = body
                .replace(at, &format!("{at}é{c}"))
                .replace("\n  - id", "\r\n  - id");
            let e = refused(&text);
            assert_eq!((e.line, e.column), (Some(7), Some(40)), "{e}");
            assert_eq!(e.case.as_deref(), Some("a"), "{e}");
            let message = e.reason.to_string();
            assert!(message.contains(shown) && message.contains(escape), "{e}");
        }
        // Tab, CR, LF and NEL (a YAML line break) are allowed.
        let text = body.replace("derivation: x", "derivation: \"x\ty\u{85}  z\"");
        assert!(load_str(&text, Path::new("t.yaml")).is_ok());
    }

    /// YAML's other spellings of an integer are the number they spell, as
    /// docs/suite-format.md says; those YAML 1.1 read otherwise are refused.
    #[test]
    fn yaml_integer_spellings_read_as_their_numbers() {
        let case = |perft: &str| {
            format!(
                "{HEADER}cases:\n  - id: a\n    perft: {perft}\n    source: {{kind: hand, derivation: x}}\n"
            )
        };
        for perft in [
            "{1: 0x14}",
            "{1: 0o24}",
            "{1: +20}",
            "{1: !!int \"20\"}",
            "{0x1: 20}",
        ] {
            let suite = load_str(&case(perft), Path::new("t.yaml")).expect(perft);
            let expected: BTreeMap<u32, u64> = [(1, 20)].into();
            assert_eq!(suite.cases[0].expect.perft, expected, "{perft}");
        }
        for perft in ["{1: 020}", "{1: 2_0}", "{1: !!str 20}"] {
            let e = refused(&case(perft));
            assert!(
                e.to_string().contains("a whole number written in digits"),
                "{perft}: {e}"
            );
        }
    }

    #[test]
    fn counts_and_depths_that_are_not_whole_numbers_say_so_in_words() {
        // serde_yaml reads digits past u128 as a float: serde called the count one.
        let too_long = "4".repeat(45);
        for (perft, message) in [
            (
                format!("{{1: {too_long}}}"),
                "perft.1: count is too large: counts go from 0 to 18446744073709551615",
            ),
            (
                "{1: 18446744073709551616}".to_string(),
                "perft.1: count 18446744073709551616 is too large",
            ),
            (
                "{1: 12.5}".to_string(),
                "perft.1: count 12.5 is not a whole number",
            ),
            ("{1: -3}".to_string(), "perft.1: count -3 is negative"),
            (
                format!("{{1: -{too_long}}}"),
                "perft.1: count -4.444444444444444e44 is negative",
            ),
            (
                "{1: 2e1}".to_string(),
                "perft.1: count is written as a floating-point number: write it in digits, as 20",
            ),
            (
                format!("{{{too_long}: 20}}"),
                "perft: depth is too large: depths go from 1 to 15",
            ),
            (
                "{4294967296: 20}".to_string(),
                "perft: depth 4294967296 is too large: depths go from 1 to 15",
            ),
            ("{-1: 20}".to_string(), "perft: depth -1 is negative"),
        ] {
            let e = refused(&format!(
                "{HEADER}cases:\n  - id: a\n    perft: {perft}\n    source: {{kind: hand, derivation: x}}\n"
            ));
            assert!(e.to_string().contains(message), "{perft}: {e}");
            assert!(!e.to_string().contains("floating point"), "{perft}: {e}");
            assert_eq!(e.line, Some(6), "{e}");
        }
        let e = refused(&format!(
            "{HEADER}cases:\n  - id: a\n    divide: {{depth: 2.0, moves: {{e2e4: 20}}}}\n    \
             source: {{kind: hand, derivation: x}}\n"
        ));
        assert!(
            e.to_string()
                .contains("divide.depth: depth is written as a floating-point number"),
            "{e}"
        );
        // The largest count a suite can hold is read.
        let text = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{9: {}}}\n    slow: true\n    \
             source: {{kind: hand, derivation: x}}\n",
            u64::MAX
        );
        let suite = load_str(&text, Path::new("t.yaml")).expect("accepted");
        assert_eq!(suite.cases[0].expect.perft[&9], u64::MAX);
    }

    #[test]
    fn a_few_aliases_are_accepted() {
        let text = format!(
            "{HEADER}cases:\n  - id: a\n    perft: {{1: 20}}\n    legal: &l [e2e4, g1f3]\n    \
             source: &s {{kind: hand, derivation: twenty}}\n  - id: b\n    moves: e2e4\n    \
             illegal: *l\n    source: *s\n"
        );
        let suite = load_str(&text, Path::new("t.yaml")).expect("accepted");
        assert_eq!(suite.cases[1].expect.illegal, ["e2e4", "g1f3"]);
    }
}

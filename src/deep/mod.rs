//! Deep perft on many machines: the tree is cut at a shallow ply into its *unique* positions,
//! each weighted by how many move paths reach it from each root move (a transposition is
//! counted once, not once per path). A plan lists those work units ([`plan`]); `work` counts a
//! shard of them, writing each result as it finishes so that a stopped run resumes
//! ([`work`], [`results`]); `merge` checks that every unit of the plan is counted exactly once
//! and sums multiplicity × count in 128 bits ([`merge`]).
//!
//! Files are JSON Lines: a header line naming the format, then one line per unit. A plan's
//! header carries an identity (a 128-bit FNV-1a digest of its content) that every result file
//! repeats, so results of another plan are refused.

pub mod keys;
pub mod merge;
pub mod plan;
pub mod results;
pub mod work;

use crate::notation::PositionTextError;
use crate::perft::HashError;
use std::io::BufRead;

/// A problem with a plan or result file, or with what was asked: one line, naming the file,
/// the line and the field where there is one (`FILE: line L: REASON`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeepError {
    /// The file the problem is in, when it is about one file (written first).
    pub file: Option<String>,
    /// The 1-based line of that file.
    pub line: Option<usize>,
    /// What is wrong.
    pub reason: DeepReason,
}

impl std::fmt::Display for DeepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{}", self.reason)
    }
}

impl std::error::Error for DeepError {}

impl From<DeepReason> for DeepError {
    fn from(reason: DeepReason) -> DeepError {
        DeepError {
            file: None,
            line: None,
            reason,
        }
    }
}

impl DeepError {
    /// An error about line `line` (1-based) of `file`.
    pub fn at(file: &str, line: usize, reason: DeepReason) -> DeepError {
        DeepError {
            file: Some(file.to_string()),
            line: Some(line),
            reason,
        }
    }

    /// An error about `file` as a whole.
    pub fn of(file: &str, reason: DeepReason) -> DeepError {
        DeepError {
            file: Some(file.to_string()),
            line: None,
            reason,
        }
    }
}

/// What is wrong with a plan, a result file, a set of result files or a plan asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeepReason {
    /// A file that cannot be opened (the system's message).
    #[error("cannot read {file}: {error}")]
    CannotOpen {
        /// The file.
        file: String,
        /// The system's message.
        error: String,
    },
    /// A file that cannot be written (the system's message).
    #[error("cannot write {file}: {error}")]
    CannotWrite {
        /// The file.
        file: String,
        /// The system's message.
        error: String,
    },
    /// A read that fails midway (the system's message).
    #[error("cannot read: {0}")]
    Read(String),
    /// A line longer than [`MAX_LINE`].
    #[error("longer than {MAX_LINE} bytes")]
    LineTooLong,
    /// A line that is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// A line that is not the JSON expected (serde's message without its location).
    #[error("column {column}: not {what}: {message}")]
    Json {
        /// The 1-based column.
        column: usize,
        /// What the line should be (`a plan header`).
        what: &'static str,
        /// serde's message.
        message: String,
    },
    /// A value that cannot be written as JSON (serde's message), with what it belongs to
    /// (`unit 3: `, `plan header: `) where the file does not say.
    #[error("{what}{message}")]
    Serialise {
        /// What the value is, ending in `: `, or nothing.
        what: String,
        /// serde's message.
        message: String,
    },
    /// A `format` field of another format.
    #[error("field `format`: `{found}` is not {expected}")]
    Format {
        /// The field's value.
        found: String,
        /// The format expected.
        expected: &'static str,
    },
    /// A shard report of `perft --split` given where results of `work` belong.
    #[error(
        "a shard report of `perft --split` ({}), not results of `work` (shard reports merge \
         on their own, without a plan)",
        crate::shards::FORMAT
    )]
    ShardReport,
    /// A plan file with no line at all.
    #[error("empty, not a plan")]
    EmptyPlan,
    /// A plan header's split of 0 or past the depth.
    #[error("field `split`: not within 1 ..= depth")]
    SplitField,
    /// A plan header's depth past [`crate::request::MAX_DEPTH`].
    #[error("field `depth`: {0} is above the limit of {max}", max = crate::request::MAX_DEPTH)]
    PlanDepth(u32),
    /// A plan header announcing more units than a plan may hold.
    #[error("field `units`: {0} is above the {MAX_READ_UNITS} a plan may hold", MAX_READ_UNITS = plan::MAX_READ_UNITS)]
    UnitsField(usize),
    /// A line that a next line follows without a newline.
    #[error("no newline before the next line")]
    NoNewline,
    /// More unit lines than the header says.
    #[error("more units than the header's {0}")]
    MoreUnits(usize),
    /// A unit out of sequence.
    #[error("field `unit`: {found} where {due} was due")]
    UnitField {
        /// The unit's number.
        found: usize,
        /// The number due.
        due: usize,
    },
    /// A unit's depth that is not depth - split.
    #[error("field `depth`: {found} is not depth - split ({due})")]
    DepthField {
        /// The unit's depth.
        found: u32,
        /// depth - split.
        due: u32,
    },
    /// Keys out of order or repeated.
    #[error("field `key`: not after the previous unit's key (keys are sorted and unique)")]
    KeyOrder,
    /// Paths that are not sorted [root index, count] pairs.
    #[error("field `paths`: expected [root index, count] pairs, sorted, counts above 0")]
    PathsField,
    /// A plan whose last line has no newline.
    #[error("cut short (no newline): the plan was not written completely")]
    PlanCutShort,
    /// Fewer units than the header says.
    #[error("{found} units, the header says {header}: the plan is incomplete")]
    PlanIncomplete {
        /// Units read.
        found: usize,
        /// Units the header says.
        header: usize,
    },
    /// A header's path total that is not the units' sum.
    #[error("field `paths`: {header} but the units hold {found}")]
    PathsTotal {
        /// The header's total.
        header: String,
        /// The units' sum.
        found: u128,
    },
    /// A header's identity that is not the content's digest.
    #[error(
        "field `id`: {id} but the content digests to {digest}: the plan was changed after it was \
         made"
    )]
    Identity {
        /// The header's identity.
        id: String,
        /// The content's digest.
        digest: String,
    },
    /// A result's count that is not a whole number.
    #[error("field `count`: `{0}` is not a whole number")]
    CountField(String),
    /// A result's count of 2^64 or more, which no unit's perft reaches.
    #[error("field `count`: {0} is 2^64 or more, past what one unit counts")]
    CountTooLarge(String),
    /// A unit listed twice in one result file.
    #[error("unit {unit} is given twice (also on line {line})")]
    TwiceInFile {
        /// The unit.
        unit: usize,
        /// The line that gave it first.
        line: usize,
    },
    /// A unit's `verified` that contradicts the header's `verify`: `work --verify` marks every
    /// unit it writes, a run without it none, so a mixed file was edited or joined from two.
    #[error(
        "field `verified`: unit {unit} is {}marked verified, but the header says `verify`: {verify} \
         (`work --verify` marks every unit it writes, `work` without it none)",
        if *.verify { "not " } else { "" }
    )]
    VerifiedAgainstHeader {
        /// The unit.
        unit: usize,
        /// The header's `verify`.
        verify: bool,
    },
    /// A result file that is a FIFO, a device or anything but a regular file.
    #[error("{0} is not a regular file: `work` appends to a results file and reads it back")]
    NotRegular(String),
    /// A results file without write permission in its mode.
    #[error(
        "{file} is read-only (mode {mode:04o}); `work` does not write to it (make it writable, \
         or use another --output)"
    )]
    ReadOnly {
        /// The file.
        file: String,
        /// Its permission bits.
        mode: u32,
    },
    /// A file where `work` would write whose first line is no results header.
    #[error(
        "not a results file (its first line is no results header); refusing to overwrite it: use another --output"
    )]
    NotResults,
    /// A result file another `work` holds locked.
    #[error("{0} is being written by another `cvperft work` (locked)")]
    Locked(String),
    /// A result file of another plan or shard, found where `work` would write.
    #[error(
        "{file} holds results of {found}, not of {wanted}: use another --output",
        found = run_text(.found), wanted = run_text(.wanted)
    )]
    OtherRun {
        /// The file.
        file: String,
        /// Its header.
        found: Box<results::ResultsHeader>,
        /// The header of the run asked for.
        wanted: Box<results::ResultsHeader>,
    },
    /// A unit's key that is not a position of the plan's rules.
    #[error("unit {unit}: `{key}`: {error}")]
    UnitKey {
        /// The unit.
        unit: usize,
        /// Its key.
        key: String,
        /// Why it is not a position.
        error: Box<PositionTextError>,
    },
    /// A unit whose count saturated ([`crate::perft::OVERFLOW`]).
    #[error("unit {unit}: {error}")]
    UnitOverflow {
        /// The unit.
        unit: usize,
        /// The count's overflow.
        error: crate::perft::CountOverflow,
    },
    /// A transposition table that cannot be had.
    #[error("{0}")]
    Hash(HashError),
    /// A worker thread that panicked while holding the results file.
    #[error("a worker thread failed")]
    WorkerFailed,
    /// `merge` given a plan but no result files.
    #[error("merge: no result files given after the plan")]
    NoResultFiles,
    /// A result file with no header line.
    #[error("no results header (an empty or unfinished file)")]
    NoResultsHeader,
    /// A results header whose shard is not one of 1 to its number of shards, or whose number
    /// of shards is past [`crate::shards::MAX_SHARDS`].
    #[error(
        "fields `shard`, `shards`: shard {shard} of {shards} (expected 1 <= shard <= shards <= {})",
        crate::shards::MAX_SHARDS
    )]
    ShardRange {
        /// The header's shard.
        shard: usize,
        /// The header's number of shards.
        shards: usize,
    },
    /// A result file of another plan.
    #[error("results of plan {found}, not of this plan ({plan})")]
    OtherPlan {
        /// The plan the file's results are of.
        found: String,
        /// This plan's identity.
        plan: String,
    },
    /// A result file whose last line was cut short.
    #[error(
        "its last line is cut short (its `work` was stopped): run that `work` again to finish it"
    )]
    ResultsCutShort,
    /// A unit number past the plan's units.
    #[error("unit {unit} is not in the plan ({units} units)")]
    NotInPlan {
        /// The unit.
        unit: usize,
        /// The plan's number of units.
        units: usize,
    },
    /// A unit given by two result files (or twice by one).
    #[error("unit {unit} is given twice (also {other}: line {line})")]
    GivenTwice {
        /// The unit.
        unit: usize,
        /// The file that gave it first.
        other: String,
        /// Its line there.
        line: usize,
    },
    /// Units no result file gives: the first `merge::NAMED` of them, and the shards they
    /// belong to when every file is of the same shard count.
    #[error(
        "missing {} of {units} units ({}{}){}",
        .missing.len(),
        named_units(.missing),
        if .missing.len() > merge::NAMED { ", ..." } else { "" },
        lacking_shards(.shards)
    )]
    Missing {
        /// The missing units, sorted.
        missing: Vec<usize>,
        /// The plan's number of units.
        units: usize,
        /// The shards (1-based, sorted) they belong to, and of how many.
        shards: Option<(Vec<usize>, usize)>,
    },
    /// A sum past 128 bits.
    #[error("the sum does not fit in 128 bits")]
    Overflow,
    /// A split of 0 or past the depth asked for.
    #[error("--split {split}: expected 1 to the depth ({depth})")]
    SplitRange {
        /// The split.
        split: u32,
        /// The depth.
        depth: u32,
    },
    /// A position whose FEN does not read.
    #[error("the position `{key}` does not read back: {error}")]
    ReadBack {
        /// The FEN.
        key: String,
        /// Why it does not read.
        error: Box<PositionTextError>,
    },
    /// A position whose FEN reads as another.
    #[error("the position `{key}` reads back as `{again}`: its FEN does not hold all its state")]
    ReadsBackAs {
        /// The FEN written.
        key: String,
        /// The FEN of what it reads as.
        again: String,
    },
    /// More unique positions than a plan may have (found without building the whole level).
    #[error(
        "more than {max} unique positions at ply {ply}; use a smaller --split or a larger \
         --max-units"
    )]
    TooManyUnits {
        /// The most allowed.
        max: usize,
        /// The ply.
        ply: u32,
    },
    /// A position reached by more paths than 64 bits count.
    #[error("`{0}` is reached by more paths than 64 bits count")]
    TooManyPaths(String),
}

/// `plan P shard I/N (seed S, verify V)`.
fn run_text(h: &results::ResultsHeader) -> String {
    format!(
        "plan {} shard {}/{} (seed {}, verify {})",
        h.plan, h.shard, h.shards, h.seed, h.verify
    )
}

/// The first [`merge::NAMED`] units, comma-separated.
fn named_units(missing: &[usize]) -> String {
    let named: Vec<String> = missing
        .iter()
        .take(merge::NAMED)
        .map(|i| i.to_string())
        .collect();
    named.join(", ")
}

/// `; they belong to shard(s) 1, 3 of 4`, or nothing.
fn lacking_shards(shards: &Option<(Vec<usize>, usize)>) -> String {
    match shards {
        Some((lacking, of)) => {
            let lacking: Vec<String> = lacking.iter().map(|s| s.to_string()).collect();
            format!("; they belong to shard(s) {} of {of}", lacking.join(", "))
        }
        None => String::new(),
    }
}

/// A JSON error on one line of a file: `FILE: line L: column C: not WHAT: MESSAGE` (serde's own
/// ` at line .. column ..` suffix dropped, since the line is ours).
pub fn json_error(
    file: &str,
    line: usize,
    what: &'static str,
    e: &serde_json::Error,
    json: &str,
) -> DeepError {
    DeepError::at(
        file,
        line,
        DeepReason::Json {
            column: e.column(),
            what,
            message: json_message(e, json),
        },
    )
}

/// serde's message for `e` without its ` at line .. column ..` suffix, for messages that name
/// the place themselves. serde_json reads an integer too long for 64 bits as a float and then
/// calls it one ("invalid type: floating point `3.4e38`, expected u64"): with `json`, the text
/// `e` was found in, such a number is told as written and as too large.
pub fn json_message(e: &serde_json::Error, json: &str) -> String {
    let mut text = e.to_string();
    if let Some(i) = text.rfind(" at line ") {
        text.truncate(i);
    }
    if let Some(expected) = text
        .strip_prefix("invalid type: floating point `")
        .and_then(|rest| rest.split_once("`, expected "))
        .map(|(_, expected)| expected)
        && let Some(digits) = integer_ending_at(json, e.line(), e.column())
    {
        let range = match digits.starts_with('-') {
            true => "out of range",
            false => "too large",
        };
        return format!(
            "the number {} is {range} (expected {expected})",
            crate::echo::echo(digits)
        );
    }
    text
}

/// The integer literal (digits, perhaps after a minus sign) that ends at 1-based `line` and
/// byte `column` of `json`, where serde_json stops after a number; `None` if a fraction or an
/// exponent is part of it.
fn integer_ending_at(json: &str, line: usize, column: usize) -> Option<&str> {
    let text = json.lines().nth(line.checked_sub(1)?)?;
    let head = text.get(..column.min(text.len()))?;
    let start = head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let digits = &head[start..];
    let before = head[..start].chars().next_back();
    match before {
        _ if digits.is_empty() => None,
        Some('.' | 'e' | 'E' | '+') => None,
        Some('-') => Some(&head[start - 1..]),
        _ => Some(digits),
    }
}

/// Longest line accepted in a plan or result file (a unit line is a few hundred bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// A 128-bit FNV-1a digest, for file identities (not for security).
#[derive(Clone)]
pub struct Digest(u128);

impl Default for Digest {
    fn default() -> Digest {
        Digest(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }
}

impl Digest {
    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        const PRIME: u128 = (1 << 88) + (1 << 8) + 0x3b;
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    /// The digest as 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// One line read by [`read_line`]: its text (without the newline) and whether it ended with a
/// newline (a last line without one was cut short, e.g. by a killed writer).
pub struct Line {
    /// The text.
    pub text: String,
    /// Whether a newline ended it.
    pub complete: bool,
    /// Bytes it took in the file, newline and byte-order mark included (the text may be
    /// shorter: a byte-order mark opening the file is dropped from it).
    pub bytes: u64,
}

/// Reads one line of at most [`MAX_LINE`] bytes; `None` at the end of the input.
///
/// # Errors
/// A read error, a line longer than the limit, or text that is not UTF-8.
pub fn read_line(
    input: &mut impl BufRead,
    file: &str,
    line: usize,
) -> Result<Option<Line>, DeepError> {
    let mut bytes = Vec::new();
    let mut limited = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1);
    limited
        .read_until(b'\n', &mut bytes)
        .map_err(|e| DeepError::of(file, DeepReason::Read(e.to_string())))?;
    if bytes.is_empty() {
        return Ok(None);
    }
    let taken = bytes.len() as u64;
    let complete = bytes.last() == Some(&b'\n');
    if complete {
        bytes.pop();
        // A line break saved as CRLF (a Windows editor, git's autocrlf) is a line break: the
        // carriage return, kept in the text, made a plan's digest differ ("the plan was
        // changed after it was made"). JSON holds no raw carriage return of its own.
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    if bytes.len() > MAX_LINE {
        return Err(DeepError::at(file, line, DeepReason::LineTooLong));
    }
    let mut text =
        String::from_utf8(bytes).map_err(|_| DeepError::at(file, line, DeepReason::NotUtf8))?;
    // A byte-order mark (some Windows editors save one) is not part of the first line.
    if line == 1 && text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(Some(Line {
        text,
        complete,
        bytes: taken,
    }))
}

/// A count in JSON: a number up to 2^53 (exact in every JSON reader), a decimal string above.
pub fn json_count(n: u128) -> serde_json::Value {
    if n <= 1 << 53 {
        serde_json::Value::from(n as u64)
    } else {
        serde_json::Value::from(n.to_string())
    }
}

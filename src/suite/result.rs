//! What running a check produced, in a form every report renders from.

use serde::{Serialize, Serializer};
use std::path::{Path, PathBuf};

/// A file name as report text: bytes that are not UTF-8 (a legal file name on Unix) shown as
/// U+FFFD, as `Path::display` shows them, rather than failing the whole JSON report ("path
/// contains invalid UTF-8 characters").
fn file_name<S: Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
}

/// How one check ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The expectation held.
    Passed,
    /// The expectation did not hold (or the generator failed).
    Failed,
    /// An `xfail` case's check failed, as expected.
    ExpectedFailure,
    /// An `xfail` case's check passed: reported as a failure.
    UnexpectedPass,
    /// Not run (slow, over the node budget, not answerable).
    Skipped,
}

/// The three outcomes the summary counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Counted as passed.
    Passed,
    /// Counted as failed.
    Failed,
    /// Counted as skipped.
    Skipped,
}

impl Status {
    /// Which summary count the status goes to.
    pub fn verdict(self) -> Verdict {
        match self {
            Status::Passed | Status::ExpectedFailure => Verdict::Passed,
            Status::Failed | Status::UnexpectedPass => Verdict::Failed,
            Status::Skipped => Verdict::Skipped,
        }
    }
    /// A short upper-case label.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "PASS",
            Status::Failed => "FAIL",
            Status::ExpectedFailure => "XFAIL",
            Status::UnexpectedPass => "XPASS",
            Status::Skipped => "SKIP",
        }
    }
}

/// One line of a divide comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    /// `equal`, `expected` (only in the expectation) or `actual` (only in the result).
    pub tag: DiffTag,
    /// `move count`, or `total count`.
    pub text: String,
}

/// The side of a diff line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffTag {
    /// On both sides.
    Equal,
    /// Only expected.
    Expected,
    /// Only in the result.
    Actual,
}

/// The difference between an expectation and the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Mismatch {
    /// A count (perft) differs.
    Count {
        /// Expected count.
        expected: u64,
        /// Count found; when `stopped`, the count reached when counting stopped.
        actual: u64,
        /// Counting stopped once the count passed the expected one (a failure already): the
        /// whole count is larger than `actual`.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        stopped: bool,
    },
    /// A divide differs.
    Divide {
        /// Sum of the expected counts.
        expected_total: u64,
        /// Sum of the counts found.
        actual_total: u64,
        /// Line diff of the sorted `move count` lists, totals last.
        diff: Vec<DiffLine>,
    },
    /// A divide whose moves are not the legal ones (found before anything was counted).
    DivideMoves {
        /// Legal moves the divide does not list.
        not_listed: Vec<String>,
        /// Moves the divide lists that are not legal.
        not_legal: Vec<String>,
    },
    /// Moves expected legal that are not.
    NotLegal {
        /// The moves.
        moves: Vec<String>,
        /// Every legal move of the position.
        legal_moves: Vec<String>,
    },
    /// Moves expected illegal that are legal.
    NotIllegal {
        /// The moves.
        moves: Vec<String>,
    },
    /// The game state differs.
    Outcome {
        /// Expected state.
        expected: String,
        /// State found.
        actual: String,
    },
    /// The generator could not answer.
    Error {
        /// Why.
        message: String,
    },
}

/// The disputed reading a check belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AlternativeInfo {
    /// 1-based position in the case's `alternatives`.
    pub number: usize,
    /// The reading in words.
    pub reading: String,
}

/// The result of one check.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    /// `<variant>::<file-stem>::<case-id>::<check>`.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Suite file.
    #[serde(serialize_with = "file_name")]
    pub file: PathBuf,
    /// Suite file stem.
    pub suite: String,
    /// Case id.
    pub case: String,
    /// Line of the case.
    pub line: usize,
    /// Check name (`perft-d3`, `alt1-perft-d2`, ...).
    pub check: String,
    /// For checks of a disputed case's alternative reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<AlternativeInfo>,
    /// How it ended.
    pub status: Status,
    /// One line: what was compared, or why it was skipped.
    pub message: String,
    /// Details of a difference (also kept for expected failures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<Mismatch>,
    /// FEN of the position checked (after the case's moves).
    pub fen: String,
    /// A command that shows the generator's view of the check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// Counts of passed, failed and skipped checks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Passed (expected failures included).
    pub passed: usize,
    /// Failed (unexpected passes included).
    pub failed: usize,
    /// Skipped.
    pub skipped: usize,
}

impl Summary {
    /// Counts the results.
    pub fn of(results: &[CheckResult]) -> Summary {
        Summary::from_statuses(results.iter().map(|r| r.status))
    }
    /// Counts statuses.
    pub fn from_statuses(statuses: impl IntoIterator<Item = Status>) -> Summary {
        let mut s = Summary::default();
        for status in statuses {
            s.add(status);
        }
        s
    }
    /// Counts one more check.
    pub fn add(&mut self, status: Status) {
        match status.verdict() {
            Verdict::Passed => self.passed += 1,
            Verdict::Failed => self.failed += 1,
            Verdict::Skipped => self.skipped += 1,
        }
    }
    /// `N passed, N failed, N skipped`.
    pub fn line(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// One suite file of the run, for report headers.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteInfo {
    /// The file.
    #[serde(serialize_with = "file_name")]
    pub file: PathBuf,
    /// `<variant>::<file-stem>`.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// GE-1 mode.
    pub game_end: String,
    /// The suite's description.
    pub description: String,
}

/// A whole run.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// The generator checked (`reference` for the built-in one).
    pub generator: String,
    /// The suites with at least one selected check, in order.
    pub suites: Vec<SuiteInfo>,
    /// Every check, in run order.
    pub results: Vec<CheckResult>,
    /// The counts.
    pub summary: Summary,
    /// Wall time in seconds.
    pub seconds: f64,
}

//! JSON Lines: one object per check, everything a test runner in another language needs to run
//! it without reading our YAML (the variant and every option, the FEN before and after the
//! moves, what is expected) and to judge it (status, rulings, source).
//!
//! Keys are the same on every line; a key that does not apply to the check's kind is `null`.
//! The shape is [`CheckRecord`]; `docs/export.md` lists the keys.

use super::{ExportSummary, Exported, Reading};
use crate::notation::normalise_move_text;
use crate::suite::model::{OutcomeFile, SourceFile};
use crate::suite::{CheckKind, PlannedCheck, Suite};
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the records' shape; bumped on incompatible changes.
pub const JSONL_VERSION: u32 = 1;

/// One check as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckRecord {
    /// Version of this shape ([`JSONL_VERSION`]).
    pub version: u32,
    /// `<variant>::<file-stem>::<case-id>::<check>`, the name `cvperft check` reports.
    pub name: String,
    /// The suite file, as given.
    pub file: String,
    /// The case's id.
    pub case: String,
    /// 1-based line of the case in its file.
    pub line: usize,
    /// Variant id.
    pub variant: String,
    /// Every option the variant declares, with its value for this check (`game-end` apart).
    pub options: BTreeMap<String, String>,
    /// RULES.md GE-1: `rules` or `movegen`.
    pub game_end: String,
    /// The position before the moves (the case's FEN, or the variant's start), normalised.
    pub fen: String,
    /// The moves played before the check, canonical text.
    pub moves: Vec<String>,
    /// The position the check is about, after the moves.
    pub fen_after: String,
    /// `perft`, `divide`, `legal`, `illegal` or `outcome`.
    pub kind: &'static str,
    /// Depth of a perft or divide check.
    pub depth: Option<u32>,
    /// perft(depth) for perft and divide checks, the outcome's name for outcome checks.
    pub expected: Option<Expected>,
    /// For divide checks: every root move with perft(depth - 1) after it.
    pub divide: Option<BTreeMap<String, u64>>,
    /// For legal checks: moves that must be legal.
    pub legal: Option<Vec<String>>,
    /// For illegal checks: well-formed moves that must not be legal.
    pub illegal: Option<Vec<String>>,
    /// Ruling ids the case cites.
    pub rulings: Vec<String>,
    /// `normal`, `disputed` (the reading RULES.md fixes), `xfail` (the reference is known to get
    /// it wrong) or `alternative` (another reading of a disputed case).
    pub status: &'static str,
    /// Why the case is disputed or expected to fail.
    pub reason: Option<String>,
    /// For an alternative: which one and whether an option selects it.
    pub alternative: Option<AlternativeRecord>,
    /// Whether `cvperft check` leaves the case out unless asked for slow cases.
    pub slow: bool,
    /// Whether `cvperft check` leaves the case out unless asked for deep cases (`--deep`).
    pub deep: bool,
    /// Where the expectation comes from.
    pub source: SourceRecord,
}

/// An expected count or outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Expected {
    /// perft(depth).
    Count(u64),
    /// `white-wins`, `black-wins`, `draw` or `ongoing`.
    Outcome(&'static str),
}

/// Another reading of a disputed case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AlternativeRecord {
    /// 1-based number (`alt1-...` in check names).
    pub number: usize,
    /// The reading in words.
    pub reading: String,
    /// Whether options select it. When none does, the record's position and options are the
    /// case's and only the expectation differs: a generator implementing our rulings cannot
    /// be checked against it.
    pub selectable: bool,
}

/// A case's source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceRecord {
    /// `public`, `hand`, `fairy-stockfish` or `reference`.
    pub kind: &'static str,
    /// The publication (public).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation: Option<String>,
    /// The argument (hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derivation: Option<String>,
    /// The command that produced the numbers (fairy-stockfish, reference).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// How reference numbers were cross-checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_check: Option<String>,
}

impl From<&SourceFile> for SourceRecord {
    fn from(source: &SourceFile) -> SourceRecord {
        SourceRecord {
            kind: source.kind.name(),
            citation: source.citation.clone(),
            derivation: source.derivation.clone(),
            command: source.command.clone(),
            cross_check: source.cross_check.clone(),
        }
    }
}

/// The records of the checks of `planned` that are not skipped, in plan order.
pub fn records(suites: &[Suite], planned: &[PlannedCheck]) -> Vec<CheckRecord> {
    planned
        .iter()
        .filter(|check| check.skip.is_none())
        .map(|check| record(suites, check))
        .collect()
}

/// The record of one check.
pub fn record(suites: &[Suite], check: &PlannedCheck) -> CheckRecord {
    let reading = Reading::of(suites, check);
    let case = reading.case;
    let expect = reading.expectations();
    let variant = reading.suite.variant;
    let mut out = CheckRecord {
        version: JSONL_VERSION,
        name: check.name.clone(),
        file: reading.suite.path.display().to_string(),
        case: case.id.clone(),
        line: case.line,
        variant: variant.spec.id.to_string(),
        options: reading
            .options()
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        game_end: reading.game_end().to_string(),
        fen: reading.start_fen(),
        moves: case
            .moves
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(|m| normalise_move_text(variant, m).unwrap_or_else(|_| m.to_string()))
            .collect(),
        fen_after: reading.fen_after(),
        kind: "",
        depth: None,
        expected: None,
        divide: None,
        legal: None,
        illegal: None,
        rulings: case.rules.clone(),
        status: reading.status(),
        reason: reading.reason().map(str::to_string),
        alternative: reading.alternative.map(|(number, alt)| AlternativeRecord {
            number,
            reading: alt.reading.clone(),
            selectable: alt.position.is_some(),
        }),
        slow: case.slow,
        deep: case.deep,
        source: SourceRecord::from(&case.source),
    };
    match check.check.kind {
        CheckKind::Perft(depth) => {
            out.kind = "perft";
            out.depth = Some(depth);
            out.expected = expect.perft.get(&depth).map(|c| Expected::Count(*c));
        }
        CheckKind::Divide(depth) => {
            out.kind = "divide";
            out.depth = Some(depth);
            out.expected = expect.divide.as_ref().map(|d| Expected::Count(d.total()));
            out.divide = expect.divide.as_ref().map(|d| d.moves.clone());
        }
        CheckKind::Legal => {
            out.kind = "legal";
            out.legal = Some(expect.legal.clone());
        }
        CheckKind::Illegal => {
            out.kind = "illegal";
            out.illegal = Some(expect.illegal.clone());
        }
        CheckKind::Outcome => {
            out.kind = "outcome";
            out.expected = Some(Expected::Outcome(
                expect
                    .outcome
                    .map_or(OutcomeFile::Ongoing.name(), OutcomeFile::name),
            ));
        }
    }
    out
}

/// The JSON Lines export of `planned`: one line per check that is not skipped.
///
/// # Errors
/// A record that does not serialise (it holds only strings, numbers, lists and maps with
/// string keys, so this is not expected).
pub fn export(suites: &[Suite], planned: &[PlannedCheck]) -> Result<Exported, serde_json::Error> {
    let records = records(suites, planned);
    let mut text = String::new();
    for r in &records {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    let mut summary = ExportSummary {
        items: records.len(),
        checks: records.len(),
        ..ExportSummary::default()
    };
    summary.tally_skipped(planned);
    Ok(Exported { text, summary })
}

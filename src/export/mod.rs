//! Suites exported to formats other projects already read: EPD with perft opcodes,
//! python-chess's `.perft` files and JSON Lines (`docs/export.md`).
//!
//! Engines written in Python, C++ or JavaScript run perft suites from plain files in their own
//! test runners; they should not need our binary to use our cases. This module turns loaded
//! suites and a [`Selection`] (the same one `cvperft check` uses) into the text of each format.
//! The binary only parses arguments and writes the text (`cvperft export`), so a binding of the
//! library can offer the same export without a second implementation.
//!
//! What is exported is what the suites say, never recomputed: the expected counts, moves and
//! outcomes as written, with the status and the source kind of each. A *reading* is one
//! position under one set of options with its expectations: a case's own, or one alternative
//! of a disputed case. EPD and `.perft` hold counts only, one line or block per reading that
//! has a selected count (perft, or a divide's total); JSON Lines holds every selected check.

pub mod epd;
pub mod jsonl;
pub mod perft_file;

use crate::notation::{parse_position, to_fen};
use crate::position::Position;
use crate::suite::plan::{SKIP_DEEP, SKIP_SLOW};
use crate::suite::{
    Alternative, Case, CaseStatus, CheckKind, Expectations, PlannedCheck, Selection, Suite, plan,
};
use std::collections::BTreeMap;

/// The export formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// One EPD line per reading: `;D1 n ;D2 n ...` and the metadata as opcodes.
    Epd,
    /// python-chess's `.perft` file: `id`, `epd` and `perft DEPTH COUNT` lines.
    PerftFile,
    /// One JSON object per check.
    Jsonl,
}

impl ExportFormat {
    /// Every format's name, as `cvperft export --format` spells it.
    pub const NAMES: &[&str] = &["epd", "perft", "jsonl"];

    /// Parses a format name.
    pub fn parse(text: &str) -> Option<ExportFormat> {
        match text {
            "epd" => Some(ExportFormat::Epd),
            "perft" => Some(ExportFormat::PerftFile),
            "jsonl" => Some(ExportFormat::Jsonl),
            _ => None,
        }
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Epd => "epd",
            ExportFormat::PerftFile => "perft",
            ExportFormat::Jsonl => "jsonl",
        }
    }
}

/// The text of an export and what went into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The whole file.
    pub text: String,
    /// What was written and what was left out.
    pub summary: ExportSummary,
}

/// What an export holds and what it left out, for the one line the binary prints.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Lines (EPD), blocks (`.perft`) or objects (JSON Lines) written.
    pub items: usize,
    /// Checks whose expectation was written.
    pub checks: usize,
    /// Checks of slow cases the selection matched but left out (no `--slow`).
    pub slow: usize,
    /// Checks of deep cases the selection matched but left out (no `--deep`).
    pub deep: usize,
    /// Counts the selection matched but left out as above `--max-nodes`.
    pub over_budget: usize,
    /// Readings left out of EPD and `.perft` because none of their selected checks is a count
    /// (only legal, illegal or outcome checks).
    pub without_counts: usize,
    /// Alternative readings with counts left out of EPD and `.perft` because no option selects
    /// them: their position and options would be the case's, with other numbers.
    pub unselectable: usize,
}

impl ExportSummary {
    /// Counts the checks of `planned` that the plan skips, by why: slow, deep or over budget.
    pub fn tally_skipped(&mut self, planned: &[PlannedCheck]) {
        for reason in planned.iter().filter_map(|c| c.skip.as_deref()) {
            match reason {
                SKIP_SLOW => self.slow += 1,
                SKIP_DEEP => self.deep += 1,
                _ => self.over_budget += 1,
            }
        }
    }

    /// `exported 12 EPD lines (40 checks); left out: ...`, on one line.
    pub fn line(&self, format: ExportFormat) -> String {
        let items = match format {
            ExportFormat::Epd => ("EPD line", "EPD lines"),
            ExportFormat::PerftFile => (".perft position", ".perft positions"),
            ExportFormat::Jsonl => ("JSON Lines object", "JSON Lines objects"),
        };
        let mut line = format!(
            "exported {} ({})",
            counted(self.items, items),
            counted(self.checks, ("check", "checks"))
        );
        if let Some(left_out) = self.left_out() {
            line.push_str("; left out: ");
            line.push_str(&left_out);
        }
        line
    }

    /// What the selection matched but the export does not hold, when anything.
    pub fn left_out(&self) -> Option<String> {
        let mut parts = Vec::new();
        for (n, what) in [
            (self.slow, "of slow cases (--slow)"),
            (self.deep, "of deep cases (--deep)"),
            (self.over_budget, "above --max-nodes"),
        ] {
            if n > 0 {
                parts.push(format!("{} {what}", counted(n, ("check", "checks"))));
            }
        }
        if self.without_counts > 0 {
            parts.push(format!(
                "{} with only legal, illegal or outcome checks (--format jsonl has them)",
                counted(self.without_counts, ("reading", "readings"))
            ));
        }
        if self.unselectable > 0 {
            parts.push(format!(
                "{} no option selects (--format jsonl has them)",
                counted(self.unselectable, ("alternative", "alternatives"))
            ));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// `1 check`, `2 checks`.
fn counted(n: usize, (one, many): (&str, &str)) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Exports the checks `selection` chooses from `suites` in `format`.
///
/// # Errors
/// A JSON record that does not serialise (not expected: see [`jsonl::export`]).
pub fn export(
    suites: &[Suite],
    selection: &Selection,
    format: ExportFormat,
) -> Result<Exported, serde_json::Error> {
    export_planned(suites, &plan(suites, selection), format)
}

/// Exports checks already planned (`crate::suite::plan`); skipped ones are left out.
///
/// # Errors
/// A JSON record that does not serialise (not expected: see [`jsonl::export`]).
pub fn export_planned(
    suites: &[Suite],
    planned: &[PlannedCheck],
    format: ExportFormat,
) -> Result<Exported, serde_json::Error> {
    Ok(match format {
        ExportFormat::Epd => epd::export(suites, planned),
        ExportFormat::PerftFile => perft_file::export(suites, planned),
        ExportFormat::Jsonl => jsonl::export(suites, planned)?,
    })
}

/// One position under one set of options with its expectations: a case's own reading, or
/// alternative `number` (1-based) of a disputed case.
#[derive(Copy, Clone, Debug)]
pub struct Reading<'a> {
    /// The suite.
    pub suite: &'a Suite,
    /// The case.
    pub case: &'a Case,
    /// The alternative with its 1-based number, for another reading of a disputed case.
    pub alternative: Option<(usize, &'a Alternative)>,
}

impl<'a> Reading<'a> {
    /// The reading of `check` in `suites`.
    pub fn of(suites: &'a [Suite], check: &PlannedCheck) -> Reading<'a> {
        let suite = &suites[check.check.suite];
        let case = &suite.cases[check.check.case];
        Reading {
            suite,
            case,
            alternative: check
                .check
                .alternative
                .map(|k| (k + 1, &case.alternatives[k])),
        }
    }

    /// `<variant>::<file-stem>::<case-id>`, with `::alt<K>` for an alternative.
    pub fn id(&self) -> String {
        let base = format!("{}::{}", self.suite.prefix(), self.case.id);
        match self.alternative {
            None => base,
            Some((number, _)) => format!("{base}::alt{number}"),
        }
    }

    /// The position the checks run on, after the moves. `None` for an alternative no option
    /// selects.
    pub fn position(&self) -> Option<&'a Position> {
        match self.alternative {
            None => Some(&self.case.position),
            Some((_, alt)) => alt.position.as_ref(),
        }
    }

    /// The position, or the case's for an alternative no option selects (its options are the
    /// case's, so is its position; only its expectations differ).
    pub fn position_or_case(&self) -> &'a Position {
        self.position().unwrap_or(&self.case.position)
    }

    /// What the reading expects.
    pub fn expectations(&self) -> &'a Expectations {
        match self.alternative {
            None => &self.case.expect,
            Some((_, alt)) => &alt.expect,
        }
    }

    /// `normal`, `disputed` (the reading RULES.md fixes), `xfail` (the reference is known to
    /// fail it) or `alternative` (another reading of a disputed case).
    pub fn status(&self) -> &'static str {
        match self.alternative {
            None => self.case.status.name(),
            Some(_) => "alternative",
        }
    }

    /// The start position's FEN (as the case gives it, or the variant's start under the
    /// reading's options), normalised.
    pub fn start_fen(&self) -> String {
        let rules = *self.position_or_case().rules();
        let text = self.case.fen.clone().unwrap_or_else(|| rules.start_fen());
        // The loader parsed this text under these rules already; should it ever fail here,
        // the text as written is still the right answer.
        parse_position(rules, &text).map_or(text, |p| to_fen(&p))
    }

    /// The FEN after the moves.
    pub fn fen_after(&self) -> String {
        to_fen(self.position_or_case())
    }

    /// The GE-1 mode of the reading.
    pub fn game_end(&self) -> &'static str {
        self.position_or_case().rules().game_end.name()
    }

    /// Every option the variant declares with its value under the reading (`game-end` apart),
    /// in declaration order.
    pub fn options(&self) -> Vec<(&'static str, &'static str)> {
        self.position_or_case()
            .rules()
            .option_pairs()
            .into_iter()
            .filter(|(name, _)| *name != "game-end")
            .collect()
    }

    /// The reason of a disputed or xfail case.
    pub fn reason(&self) -> Option<&'a str> {
        match &self.case.status {
            CaseStatus::Normal => None,
            CaseStatus::Disputed { reason } | CaseStatus::Xfail { reason } => Some(reason),
        }
    }
}

/// A reading with the counts its selected checks expect: one EPD line, one `.perft` block.
#[derive(Clone, Debug)]
pub struct CountedReading<'a> {
    /// The reading.
    pub reading: Reading<'a>,
    /// Expected perft by depth: the perft checks' counts and the divide checks' totals.
    pub counts: BTreeMap<u32, u64>,
    /// How many checks the counts come from.
    pub checks: usize,
}

/// The readings of `planned` that have counts, in plan order, and the summary of what was left
/// out (every field but `items`, which the format fills in).
pub fn counted_readings<'a>(
    suites: &'a [Suite],
    planned: &[PlannedCheck],
) -> (Vec<CountedReading<'a>>, ExportSummary) {
    let mut summary = ExportSummary::default();
    summary.tally_skipped(planned);
    let mut out: Vec<CountedReading<'a>> = Vec::new();
    for group in planned.chunk_by(|a, b| {
        (a.check.suite, a.check.case, a.check.alternative)
            == (b.check.suite, b.check.case, b.check.alternative)
    }) {
        let reading = Reading::of(suites, &group[0]);
        let expect = reading.expectations();
        let mut counts = BTreeMap::new();
        let mut checks = 0;
        let mut selected = false;
        for check in group {
            if check.skip.is_some() {
                continue;
            }
            selected = true;
            let count = match check.check.kind {
                CheckKind::Perft(d) => expect.perft.get(&d).map(|c| (d, *c)),
                CheckKind::Divide(d) => expect.divide.as_ref().map(|x| (d, x.total())),
                CheckKind::Legal | CheckKind::Illegal | CheckKind::Outcome => None,
            };
            if let Some((depth, count)) = count {
                counts.insert(depth, count);
                checks += 1;
            }
        }
        if counts.is_empty() {
            if selected {
                summary.without_counts += 1;
            }
        } else if reading.position().is_none() {
            summary.unselectable += 1;
        } else {
            summary.checks += checks;
            out.push(CountedReading {
                reading,
                counts,
                checks,
            });
        }
    }
    (out, summary)
}

/// `text` on one line: control characters, line or paragraph separators and bidirectional
/// controls escaped (as [`crate::report::printable`] writes them), runs of white space made one
/// space (suite text such as derivations spans several lines).
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split([' ', '\n', '\t', '\r'])
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        // A right-to-left override was written raw, reordering the comment line it was in.
        out.push_str(&crate::report::printable(word));
    }
    out
}

/// The first four fields of a FEN (board, side, castling, en passant) and the last two (the
/// halfmove clock and the fullmove number, absent when the FEN has none).
pub fn split_fen(fen: &str) -> (String, Option<&str>, Option<&str>) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let head = fields[..fields.len().min(4)].join(" ");
    (head, fields.get(4).copied(), fields.get(5).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for name in ExportFormat::NAMES {
            let format = ExportFormat::parse(name).expect("a known name");
            assert_eq!(format.name(), *name);
        }
        assert_eq!(ExportFormat::parse("json"), None);
    }

    #[test]
    fn suite_text_becomes_one_line() {
        assert_eq!(one_line("  a\n  b\tc \r\n"), "a b c");
        assert_eq!(one_line("x\u{7}y\u{2028}z"), "x\\u{7}y\\u{2028}z");
        // Bidirectional controls too (a right-to-left override reordered a comment line).
        assert_eq!(
            one_line("B \u{202e} evil \u{85}"),
            "B \\u{202e} evil \\u{85}"
        );
    }

    #[test]
    fn fens_split_into_epd_fields_and_counters() {
        let (head, clock, number) = split_fen("8/8/8/8/8/8/8/K6k w - - 3 40");
        assert_eq!(head, "8/8/8/8/8/8/8/K6k w - -");
        assert_eq!((clock, number), (Some("3"), Some("40")));
        assert_eq!(split_fen("8/8 b - e3").1, None);
    }
}

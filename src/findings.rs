//! Where an engine's bug is: the findings of `check --engine` and the rulings they point to.
//!
//! A failing perft or divide check only says that two numbers differ. Each one is bisected
//! against the reference ([`bisect_check`], the same descent `cvperft diff` makes) down to the
//! first position where the move lists differ: a [`Finding`], with the kind and ruling of each
//! missing or extra move (the variant's move classifier). Identical findings reached from
//! several checks are kept once, listing the checks. [`Diagnosis::build`] then ranks the
//! rulings ([`LikelyRuling`]): first those a finding's moves fall under, then by the share of
//! the run cases citing the ruling that failed (a ruling every case cites, like GE-1, does not
//! come first by mere frequency); and counts, per variant and ruling, the cases run, passed and
//! failed ([`RulingRow`]).
//!
//! The bisection takes any [`Engine`] handle, so that whatever holds the engines (one process
//! per variant, or a pool) can lend one. Nothing here prints.

use crate::engine::bisect::{Bisection, Stop, bisect};
use crate::engine::{Divide, Engine, EngineError, EngineErrorKind, EngineOptions, Query};
use crate::engine::{ReferenceEngine, process::shell_quote};
use crate::notation::{move_text, parse_move, parse_position, to_fen};
use crate::position::{Move, Position, flags};
use crate::report::rulings;
use crate::suite::{CheckResult, Status};
use crate::variant::{MoveClass, MoveKind, Rules, Wing, classify};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// Default most engine questions one failing check's bisection may ask.
pub const DEFAULT_BISECT_QUESTIONS: usize = 40;
/// Default most seconds all the bisections of a run may take (no question is started later).
pub const DEFAULT_BISECT_SECONDS: f64 = 300.0;
/// How many likely rulings the reports show.
pub const TOP_RULINGS: usize = 5;

/// How far the failing checks of a run are bisected.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BisectLimits {
    /// Most engine questions per failing check.
    pub questions: usize,
    /// Most seconds for all the bisections of a run.
    pub seconds: f64,
}

impl Default for BisectLimits {
    fn default() -> BisectLimits {
        BisectLimits {
            questions: DEFAULT_BISECT_QUESTIONS,
            seconds: DEFAULT_BISECT_SECONDS,
        }
    }
}

/// An engine that answers at most `left` questions and starts none after `deadline`.
struct Budgeted<'a> {
    inner: &'a mut dyn Engine,
    left: usize,
    deadline: Instant,
    spent: Option<&'static str>,
}

impl Engine for Budgeted<'_> {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        let spent = if self.left == 0 {
            Some("--bisect-questions")
        } else if Instant::now() >= self.deadline {
            Some("--bisect-seconds")
        } else {
            None
        };
        if let Some(flag) = spent {
            self.spent = Some(flag);
            let kind = EngineErrorKind::Stopped(format!("{flag} spent"));
            return Err(EngineError::new(&self.name(), Some(query), kind));
        }
        self.left -= 1;
        self.inner.divide(query)
    }
    fn name(&self) -> String {
        self.inner.name()
    }
}

/// Why a failing check has no finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotBisected {
    /// The check's trial name.
    pub check: String,
    /// Why (`--bisect-questions spent`, the engine's error, `--no-bisect`).
    pub reason: String,
}

/// Why a bisection stopped before the first difference.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BisectFailure {
    /// A budget ran out (`--bisect-questions`, `--bisect-seconds`).
    #[error("{0} spent before the first difference")]
    Spent(&'static str),
    /// The reference failed.
    #[error("the reference failed: {0}")]
    Reference(Box<EngineError>),
    /// The engine under test failed.
    #[error("the engine failed: {0}")]
    Engine(Box<EngineError>),
}

/// Bisects one failing check: `engine`'s divide of `pos` at `depth` against the reference's,
/// down to the first difference, asking `engine` at most `questions` questions and none after
/// `deadline`.
///
/// # Errors
/// The budget ran out, or either side failed ([`BisectFailure`]).
pub fn bisect_check(
    engine: &mut dyn Engine,
    pos: &Position,
    depth: u32,
    questions: usize,
    deadline: Instant,
) -> Result<Bisection, BisectFailure> {
    let rules = *pos.rules();
    let mut reference = ReferenceEngine::new(rules);
    let mut budgeted = Budgeted {
        inner: engine,
        left: questions,
        deadline,
        spent: None,
    };
    let root = Query::new(to_fen(pos), &[], depth);
    match bisect(&mut reference, &mut budgeted, &root, rules) {
        Ok(b) => Ok(b),
        Err((side, e)) => Err(match budgeted.spent {
            Some(flag) => BisectFailure::Spent(flag),
            None => match side {
                crate::engine::bisect::Side::Reference => BisectFailure::Reference(Box::new(e)),
                crate::engine::bisect::Side::Engine => BisectFailure::Engine(Box::new(e)),
            },
        }),
    }
}

/// A missing or extra move of a finding, with what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FindingMove {
    /// The move, in our spelling.
    #[serde(rename = "move")]
    pub text: String,
    /// Its parts in the variant's words (`en passant`, `ordinary move + promotion`); `unknown`
    /// for an extra move our generator cannot make even ignoring legality.
    pub kind: String,
    /// The rulings it falls under, as the reports count them: those of its parts other than
    /// the moving piece's ordinary move (en passant, castling, a special move, a set-up, a
    /// promotion, an added placement); for an ordinary move, the moving piece's own ruling.
    /// Empty when no part names one (an orthodox piece's ordinary move, or en passant in a
    /// variant whose rulings give it no id).
    pub rulings: Vec<String>,
}

/// A move both sides list with different counts at depth 1 (a finding with equal move lists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountDifference {
    /// The move.
    #[serde(rename = "move")]
    pub text: String,
    /// The reference's count.
    pub reference: u64,
    /// The engine's count.
    pub engine: u64,
}

/// The first position where the engine and the reference disagree, for one or more failing
/// checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Variant id.
    pub variant: String,
    /// The failing check's position (FEN), where the path starts.
    pub root_fen: String,
    /// Moves from the check's position to the finding.
    pub path: Vec<String>,
    /// The finding's position (FEN), when the reference can follow the path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The depth both sides were asked at the finding.
    pub depth: u32,
    /// `moves-differ`, `counts-at-depth-one` (same moves, different counts) or `vanished`
    /// (counts differ above, the divides after the move agree).
    pub stop: &'static str,
    /// Moves the reference makes and the engine does not.
    pub missing: Vec<FindingMove>,
    /// Moves the engine makes and the reference does not.
    pub extra: Vec<FindingMove>,
    /// For `counts-at-depth-one`: the moves counted differently; for `vanished`: the move last
    /// played, with the counts both sides gave it one ply up.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<CountDifference>,
    /// The failing checks that led here (trial names, run order).
    pub cases: Vec<String>,
    /// Their depths, in the same order.
    pub check_depths: Vec<u32>,
    /// The `cvperft diff` command that shows this finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

impl Finding {
    /// One line naming the finding: where, and the moves that differ.
    pub fn headline(&self) -> String {
        let place = if self.path.is_empty() {
            "at the check's position".to_string()
        } else {
            format!("after {}", self.path.join(" "))
        };
        let list = |moves: &[FindingMove]| -> String {
            moves
                .iter()
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!("missing {}", list(&self.missing)));
        }
        if !self.extra.is_empty() {
            parts.push(format!("extra {}", list(&self.extra)));
        }
        for c in &self.counts {
            let counted = format!("{} counted {} not {}", c.text, c.engine, c.reference);
            parts.push(match self.stop {
                "vanished" => format!(
                    "{counted} at depth {}, but the divides after it agree",
                    self.depth + 1
                ),
                _ => counted,
            });
        }
        if parts.is_empty() {
            parts.push(self.stop.replace('-', " "));
        }
        format!(
            "{} {place} (depth {}): {}",
            self.variant,
            self.depth,
            parts.join("; ")
        )
    }

    /// The path in words: its moves, or `the check's position` when it is empty.
    pub fn path_text(&self) -> String {
        if self.path.is_empty() {
            "the check's position".to_string()
        } else {
            self.path.join(" ")
        }
    }

    /// The checks that led here, each with its depth (`chess::chess::ep::perft-d2 (depth 2)`).
    pub fn sources(&self) -> Vec<String> {
        self.cases
            .iter()
            .zip(&self.check_depths)
            .map(|(c, d)| format!("{c} (depth {d})"))
            .collect()
    }

    /// Every missing and extra move.
    pub fn moves(&self) -> impl Iterator<Item = &FindingMove> {
        self.missing.iter().chain(&self.extra)
    }

    fn key(&self) -> (String, String, Vec<String>, Vec<String>, &'static str) {
        let texts = |m: &[FindingMove]| m.iter().map(|m| m.text.clone()).collect();
        let place = self
            .fen
            .clone()
            .unwrap_or_else(|| format!("{} {}", self.root_fen, self.path.join(" ")));
        (
            self.variant.clone(),
            place,
            texts(&self.missing),
            texts(&self.extra),
            self.stop,
        )
    }
}

/// The move spelled `text` in `pos`: a legal one, else one the generator makes ignoring
/// legality, else a castling the side to move still has the right to (an engine that castles
/// through check makes such a move).
fn find_move(pos: &Position, text: &str) -> Option<Move> {
    if let Ok(m) = parse_move(pos, text) {
        return Some(m);
    }
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    if let Some(m) = pseudo.into_iter().find(|m| move_text(pos, m) == text) {
        return Some(m);
    }
    let us = pos.side();
    for wing in [Wing::King, Wing::Queen] {
        let Some(c) = pos.rules().castles[us.index()][wing as usize] else {
            continue;
        };
        if !pos.has_castling(us, wing) {
            continue;
        }
        let mut m = Move::new(c.king_from, c.king_to);
        m.flags = match wing {
            Wing::King => flags::CASTLE_KING,
            Wing::Queen => flags::CASTLE_QUEEN,
        };
        if move_text(pos, &m) == text {
            return Some(m);
        }
    }
    None
}

/// What move `text` of `pos` is, for a finding.
pub fn finding_move(pos: Option<&Position>, text: &str) -> FindingMove {
    let parts: Vec<MoveClass> = pos
        .and_then(|p| find_move(p, text).map(|m| classify(p, &m)))
        .unwrap_or_default();
    let kind = if parts.is_empty() {
        "unknown".to_string()
    } else {
        parts.iter().map(|c| c.name).collect::<Vec<_>>().join(" + ")
    };
    let special: Vec<&MoveClass> = parts
        .iter()
        .filter(|c| c.kind != MoveKind::Ordinary)
        .collect();
    let counted: Vec<&MoveClass> = if special.is_empty() {
        parts.iter().collect()
    } else {
        special
    };
    let mut rulings: Vec<String> = Vec::new();
    for id in counted.iter().filter_map(|c| c.ruling) {
        if !rulings.iter().any(|r| r == id) {
            rulings.push(id.to_string());
        }
    }
    FindingMove {
        text: text.to_string(),
        kind,
        rulings,
    }
}

/// The finding a bisection reached (`None` when the sides agree at the root).
pub fn finding_of(
    bisection: &Bisection,
    rules: Rules,
    check: &str,
    check_depth: u32,
    reproduce: Option<String>,
) -> Option<Finding> {
    let stop = match bisection.stop.as_ref()? {
        Stop::MovesDiffer => "moves-differ",
        Stop::CountsAtDepthOne => "counts-at-depth-one",
        Stop::Vanished => "vanished",
    };
    let last = bisection.last();
    let pos = bisection
        .fen
        .as_deref()
        .and_then(|fen| parse_position(rules, fen).ok());
    let moves = |entries: &[crate::perft::DivideEntry]| -> Vec<FindingMove> {
        entries
            .iter()
            .map(|e| finding_move(pos.as_ref(), &e.text))
            .collect()
    };
    let counted = match bisection.stop {
        Some(Stop::CountsAtDepthOne) => last.comparison.counts.clone(),
        Some(Stop::Vanished) => bisection.vanished_count().into_iter().collect(),
        _ => Vec::new(),
    };
    let mut extra = moves(&last.comparison.extra);
    // The reference's game is over here (a marriage, a bare King): every move the engine lists
    // is one played after the end, whatever its piece, and falls under the ruling that ended it.
    if let Some(ruling) = pos.as_ref().and_then(|p| p.decided_by())
        && last.comparison.missing.is_empty()
    {
        for m in &mut extra {
            m.kind = format!("move after the game ended ({ruling})");
            m.rulings = vec![ruling.to_string()];
        }
    }
    let counts = counted
        .into_iter()
        .map(|(text, reference, engine)| CountDifference {
            text,
            reference,
            engine,
        })
        .collect();
    Some(Finding {
        variant: rules.variant.spec.id.to_string(),
        root_fen: bisection.steps[0].query.fen.clone(),
        path: bisection.path.clone(),
        fen: bisection.fen.clone(),
        depth: last.query.depth,
        stop,
        missing: moves(&last.comparison.missing),
        extra,
        counts,
        cases: vec![check.to_string()],
        check_depths: vec![check_depth],
        reproduce,
    })
}

/// The `cvperft diff` command asking `engine` and the reference about `fen` (with the rule
/// options of `rules`) after `moves`, at `depth`: it shows the difference and bisects it.
pub fn diff_command(
    engine: &EngineOptions,
    rules: &Rules,
    fen: &str,
    moves: &[String],
    depth: u32,
) -> String {
    let mut words = vec![
        "cvperft".to_string(),
        "diff".to_string(),
        depth.to_string(),
        "-v".to_string(),
        rules.variant.spec.id.to_string(),
    ];
    for (name, value) in rules.option_pairs() {
        words.extend(["-o".to_string(), format!("{name}={value}")]);
    }
    words.extend(["--fen".to_string(), shell_quote(fen)]);
    if !moves.is_empty() {
        words.extend(["--moves".to_string(), shell_quote(&moves.join(" "))]);
    }
    words.extend(engine.flags());
    words.join(" ")
}

/// A ruling ranked as a likely place of the engine's bug.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LikelyRuling {
    /// Variant id.
    pub variant: String,
    /// Ruling id.
    pub ruling: String,
    /// Its heading on the rules page (the id when it has none).
    pub title: String,
    /// Its rules page, with the heading's anchor when it has one
    /// (`docs/rules/chess.md#fide-en-passant`).
    pub page: String,
    /// Finding moves that fall under it.
    pub finding_moves: Vec<String>,
    /// Findings it explains: every missing and extra move of the finding falls under it.
    pub explains: usize,
    /// Run cases citing it that failed.
    pub failed: usize,
    /// Run cases citing it.
    pub run: usize,
}

/// Most moves [`LikelyRuling::reason`] names.
const REASON_MOVES: usize = 12;

impl LikelyRuling {
    /// The share of run cases citing it that failed (0 when none ran).
    pub fn share(&self) -> f64 {
        if self.run == 0 {
            0.0
        } else {
            self.failed as f64 / self.run as f64
        }
    }

    /// Why it is ranked where it is, in one line.
    pub fn reason(&self) -> String {
        let mut parts = Vec::new();
        if !self.finding_moves.is_empty() {
            // A line, not a wall: the report's findings list every move.
            let shown = &self.finding_moves[..self.finding_moves.len().min(REASON_MOVES)];
            let more = match self.finding_moves.len() - shown.len() {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            parts.push(format!(
                "explains {} of the findings; moves of its kind: {}{more}",
                self.explains,
                shown.join(" ")
            ));
        }
        parts.push(format!(
            "{} of {} run cases citing it failed",
            self.failed, self.run
        ));
        parts.join("; ")
    }
}

/// Cases run, passed and failed for one ruling of one variant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RulingRow {
    /// Variant id.
    pub variant: String,
    /// Ruling id.
    pub ruling: String,
    /// Cases citing it with at least one check run.
    pub run: usize,
    /// Of those, cases with no failed check.
    pub passed: usize,
    /// Of those, cases with a failed check.
    pub failed: usize,
    /// The depths of the findings reached from its cases or naming a move under it, sorted.
    pub finding_depths: Vec<u32>,
}

/// What a run says about where an engine's bugs are: findings, likely rulings, the per-ruling
/// table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Diagnosis {
    /// Distinct findings, in the order first reached.
    pub findings: Vec<Finding>,
    /// Failing perft and divide checks without a finding, with the reason.
    pub not_bisected: Vec<NotBisected>,
    /// Rulings that failing cases cite or finding moves fall under, most likely first.
    pub likely_rulings: Vec<LikelyRuling>,
    /// Per variant and ruling: cases run, passed, failed (sorted by variant, then ruling).
    pub rulings: Vec<RulingRow>,
}

/// One case of a run, for the per-ruling table.
struct CaseTally<'a> {
    variant: String,
    rules: &'a [String],
    run: bool,
    failed: bool,
}

/// The outcome of bisecting one failing check.
pub type Bisected = Result<Finding, NotBisected>;

/// GitHub's anchor of a heading: lower case, spaces as hyphens, other punctuation dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The rules page of `ruling` of `variant`, with its heading's anchor when it has one.
pub fn ruling_page(variant: &str, ruling: &str) -> (String, String) {
    match rulings::ruling(variant, ruling) {
        Some(r) if r.title != r.id => (format!("{}#{}", r.path, anchor(&r.title)), r.title),
        Some(r) => (r.path.to_string(), r.title),
        None => (format!("docs/rules/{variant}.md"), ruling.to_string()),
    }
}

impl Diagnosis {
    /// Puts the bisections of a run together. `cases` gives, for each result, the rulings its
    /// case cites (`results[i]` belongs to a case citing `cases[i]`); `bisected` the outcome
    /// of each failing check bisected, in run order.
    pub fn build(results: &[CheckResult], cases: &[&[String]], bisected: Vec<Bisected>) -> Self {
        let mut findings: Vec<Finding> = Vec::new();
        let mut not_bisected = Vec::new();
        for b in bisected {
            match b {
                Ok(f) => match findings.iter_mut().find(|g| g.key() == f.key()) {
                    Some(same) => {
                        same.cases.extend(f.cases);
                        same.check_depths.extend(f.check_depths);
                    }
                    None => findings.push(f),
                },
                Err(n) => not_bisected.push(n),
            }
        }
        // Cases by (file, case id): whether any check ran, whether any failed.
        let mut by_case: BTreeMap<(String, String), CaseTally> = BTreeMap::new();
        for (r, rules) in results.iter().zip(cases) {
            let key = (r.file.display().to_string(), r.case.clone());
            let tally = by_case.entry(key).or_insert(CaseTally {
                variant: r.variant.clone(),
                rules,
                run: false,
                failed: false,
            });
            tally.run |= r.status != Status::Skipped;
            tally.failed |= matches!(r.status, Status::Failed | Status::UnexpectedPass);
        }
        let mut rows: BTreeMap<(String, String), RulingRow> = BTreeMap::new();
        for tally in by_case.values() {
            for id in tally.rules.iter() {
                let row = rows
                    .entry((tally.variant.clone(), id.clone()))
                    .or_insert_with(|| RulingRow {
                        variant: tally.variant.clone(),
                        ruling: id.clone(),
                        ..RulingRow::default()
                    });
                if tally.run {
                    row.run += 1;
                    if tally.failed {
                        row.failed += 1;
                    } else {
                        row.passed += 1;
                    }
                }
            }
        }
        // Which rulings each check cites, by trial name.
        let cited: BTreeMap<&str, &[String]> = results
            .iter()
            .zip(cases)
            .map(|(r, rules)| (r.name.as_str(), *rules))
            .collect();
        let mut moves_of: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        let mut explains: BTreeMap<(String, String), usize> = BTreeMap::new();
        for f in &findings {
            let mut touched: Vec<String> = Vec::new();
            for m in f.moves() {
                for id in &m.rulings {
                    let list = moves_of.entry((f.variant.clone(), id.clone())).or_default();
                    if !list.contains(&m.text) {
                        list.push(m.text.clone());
                    }
                    touched.push(id.clone());
                }
            }
            let mut all: Vec<&String> = touched.iter().collect();
            all.sort();
            all.dedup();
            for id in all {
                if f.moves().all(|m| m.rulings.contains(id)) {
                    *explains.entry((f.variant.clone(), id.clone())).or_default() += 1;
                }
            }
            for case in &f.cases {
                touched.extend(
                    cited
                        .get(case.as_str())
                        .into_iter()
                        .flat_map(|r| r.iter())
                        .cloned(),
                );
            }
            touched.sort();
            touched.dedup();
            for id in touched {
                let row = rows
                    .entry((f.variant.clone(), id.clone()))
                    .or_insert_with(|| RulingRow {
                        variant: f.variant.clone(),
                        ruling: id,
                        ..RulingRow::default()
                    });
                if !row.finding_depths.contains(&f.depth) {
                    row.finding_depths.push(f.depth);
                    row.finding_depths.sort_unstable();
                }
            }
        }
        let mut likely: Vec<LikelyRuling> = rows
            .values()
            .filter_map(|row| {
                let key = (row.variant.clone(), row.ruling.clone());
                let finding_moves = moves_of.get(&key).cloned().unwrap_or_default();
                let explains = explains.get(&key).copied().unwrap_or(0);
                if row.failed == 0 && finding_moves.is_empty() {
                    return None;
                }
                let (page, title) = ruling_page(&row.variant, &row.ruling);
                Some(LikelyRuling {
                    variant: row.variant.clone(),
                    ruling: row.ruling.clone(),
                    title,
                    page,
                    finding_moves,
                    explains,
                    failed: row.failed,
                    run: row.run,
                })
            })
            .collect();
        // A ruling that explains no finding is not put first for moves of its kind that fall
        // among others (a position the reference has decided, where every move the engine
        // lists is extra): the share of its failed cases decides before its moves do.
        likely.sort_by(|a, b| {
            b.explains
                .cmp(&a.explains)
                .then(b.share().total_cmp(&a.share()))
                .then(a.finding_moves.is_empty().cmp(&b.finding_moves.is_empty()))
                .then(b.finding_moves.len().cmp(&a.finding_moves.len()))
                .then(b.failed.cmp(&a.failed))
                .then(a.variant.cmp(&b.variant))
                .then(a.ruling.cmp(&b.ruling))
        });
        Diagnosis {
            findings,
            not_bisected,
            likely_rulings: likely,
            rulings: rows.into_values().collect(),
        }
    }

    /// Whether there is nothing to show beyond the table.
    pub fn is_empty(&self) -> bool {
        self.findings.is_empty() && self.not_bisected.is_empty() && self.likely_rulings.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ReferenceEngine;
    use crate::faults::Faults;

    /// An engine that cannot start.
    struct Broken;

    impl Engine for Broken {
        fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
            Err(EngineError::new(
                "broken",
                Some(query),
                EngineErrorKind::NotFound,
            ))
        }
        fn name(&self) -> String {
            "broken".into()
        }
    }

    #[test]
    fn a_bisection_that_stops_says_why() {
        let rules = crate::variants::rules("chess").expect("chess");
        let pos = parse_position(rules, &rules.start_fen()).expect("start");
        let mut reference = ReferenceEngine::new(rules);
        let later = Instant::now() + std::time::Duration::from_secs(600);
        let why = |e: &mut dyn Engine, questions: usize, deadline: Instant| match bisect_check(
            e, &pos, 2, questions, deadline,
        ) {
            Ok(_) => "bisected".to_string(),
            Err(reason) => reason.to_string(),
        };
        assert_eq!(
            why(&mut reference, 0, later),
            "--bisect-questions spent before the first difference"
        );
        assert_eq!(
            why(&mut reference, 5, Instant::now()),
            "--bisect-seconds spent before the first difference"
        );
        assert_eq!(
            why(&mut Broken, 5, later),
            "the engine failed: engine `broken`: program not found (asked depth 2, fen \
             \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\")"
        );
    }

    #[test]
    fn a_planted_fault_is_found_and_named() {
        let rules = crate::variants::rules("chess").expect("chess");
        let pos = parse_position(rules, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").expect("fen");
        let faults = Faults::parse("chess", &["no-en-passant".into()]).expect("fault");
        let mut engine = ReferenceEngine::with_faults(rules, faults);
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let b = bisect_check(&mut engine, &pos, 2, 10, far).expect("bisected");
        let f = finding_of(&b, rules, "chess::x::ep::perft-d2", 2, None).expect("a finding");
        assert_eq!(f.path, Vec::<String>::new());
        assert_eq!(f.missing.len(), 1);
        assert_eq!(f.missing[0].text, "e5d6");
        assert_eq!(f.missing[0].kind, "en passant");
        assert_eq!(f.missing[0].rulings, ["FIDE-EN-PASSANT"]);
        assert!(f.headline().contains("missing e5d6"), "{}", f.headline());
        let spent = bisect_check(&mut engine, &pos, 2, 0, far).expect_err("no question");
        assert_eq!(spent, BisectFailure::Spent("--bisect-questions"), "{spent}");
    }

    #[test]
    fn a_reason_names_a_dozen_moves_at_most() {
        let mut l = LikelyRuling {
            variant: "bachelor-kamil".into(),
            ruling: "BK-6".into(),
            title: "BK-6".into(),
            page: String::new(),
            finding_moves: (1..=20).map(|i| format!("a{i}")).collect(),
            explains: 3,
            failed: 2,
            run: 4,
        };
        assert_eq!(
            l.reason(),
            "explains 3 of the findings; moves of its kind: a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 \
             a12 and 8 more; 2 of 4 run cases citing it failed"
        );
        l.finding_moves.truncate(2);
        assert_eq!(
            l.reason(),
            "explains 3 of the findings; moves of its kind: a1 a2; 2 of 4 run cases citing it \
             failed"
        );
    }

    #[test]
    fn extra_castlings_are_classified() {
        let rules = crate::variants::rules("chess").expect("chess");
        let pos = parse_position(rules, "4kr2/8/8/8/8/8/8/4K2R w K - 0 1").expect("fen");
        let m = finding_move(Some(&pos), "e1g1");
        assert_eq!(m.kind, "castling");
        assert_eq!(m.rulings, ["FIDE-CASTLING"]);
        assert_eq!(finding_move(Some(&pos), "a1a8").kind, "unknown");
    }

    #[test]
    fn anchors_are_github_s() {
        assert_eq!(
            anchor("PP-5 Acquiring and robbing"),
            "pp-5-acquiring-and-robbing"
        );
        assert_eq!(
            anchor("SE-2: the Elephant (leap)"),
            "se-2-the-elephant-leap"
        );
        let (page, _) = ruling_page("pink-panther", "PP-5");
        assert_eq!(
            page,
            "docs/rules/pink-panther.md#pp-5-acquiring-and-robbing"
        );
    }
}

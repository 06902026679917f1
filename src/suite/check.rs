//! The checks of a case and how one is run against a move generator.
//!
//! A case yields one check per expected perft depth (`perft-d<N>`), one for its divide
//! (`divide-d<N>`), `legal`, `illegal` and `outcome`, and the same again for each alternative of
//! a disputed case (prefixed `alt<K>-`). The generator answering them sits behind
//! [`Generator`], so the same checks can run against the built-in [`Reference`] or, later, an
//! external engine.

use super::budget::{
    Counted, Divided, divide_within, divide_within_until, perft_within, perft_within_until,
};
use super::load::{Case, Divide, Expectations, Status as CaseStatus, Suite};
use super::model::OutcomeFile;
use super::result::{AlternativeInfo, CheckResult, DiffLine, DiffTag, Mismatch, Status};
use crate::engine::process::shell_quote;
use crate::notation::{move_text, normalise_move_text, to_fen};
use crate::perft::{divide, perft};
use crate::position::Position;
use crate::variant::Outcome;
use similar::{ChangeTag, TextDiff};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What a check compares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CheckKind {
    /// perft at this depth.
    Perft(u32),
    /// The full divide at this depth.
    Divide(u32),
    /// The listed moves are legal.
    Legal,
    /// The listed moves are not legal.
    Illegal,
    /// The game state.
    Outcome,
}

impl CheckKind {
    /// `perft-d3`, `divide-d2`, `legal`, `illegal`, `outcome`.
    pub fn name(self) -> String {
        match self {
            CheckKind::Perft(d) => format!("perft-d{d}"),
            CheckKind::Divide(d) => format!("divide-d{d}"),
            CheckKind::Legal => "legal".into(),
            CheckKind::Illegal => "illegal".into(),
            CheckKind::Outcome => "outcome".into(),
        }
    }
}

/// The checks an expectation set yields, in run order.
pub fn kinds_of(expect: &Expectations) -> Vec<CheckKind> {
    let mut out: Vec<CheckKind> = expect.perft.keys().map(|d| CheckKind::Perft(*d)).collect();
    if let Some(d) = &expect.divide {
        out.push(CheckKind::Divide(d.depth));
    }
    if !expect.legal.is_empty() {
        out.push(CheckKind::Legal);
    }
    if !expect.illegal.is_empty() {
        out.push(CheckKind::Illegal);
    }
    if expect.outcome.is_some() {
        out.push(CheckKind::Outcome);
    }
    out
}

/// One check of one case: indices into the suites it was planned from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CheckRef {
    /// Index of the suite.
    pub suite: usize,
    /// Index of the case in the suite.
    pub case: usize,
    /// 0-based index of the alternative, for a disputed case's other readings.
    pub alternative: Option<usize>,
    /// What is compared.
    pub kind: CheckKind,
}

impl CheckRef {
    /// The check's name within its case: `perft-d3`, or `alt1-perft-d3` for an alternative.
    pub fn check_name(&self) -> String {
        match self.alternative {
            None => self.kind.name(),
            Some(k) => format!("alt{}-{}", k + 1, self.kind.name()),
        }
    }
    /// `<variant>::<file-stem>::<case-id>::<check>`.
    pub fn name(&self, suites: &[Suite]) -> String {
        let suite = &suites[self.suite];
        format!(
            "{}::{}::{}",
            suite.prefix(),
            suite.cases[self.case].id,
            self.check_name()
        )
    }
    /// The expectations the check reads.
    pub fn expectations<'a>(&self, suites: &'a [Suite]) -> &'a Expectations {
        let case = &suites[self.suite].cases[self.case];
        match self.alternative {
            None => &case.expect,
            Some(k) => &case.alternatives[k].expect,
        }
    }
    /// The number of leaf nodes the check expects to visit (0 for move-list checks).
    pub fn expected_nodes(&self, suites: &[Suite]) -> u64 {
        let e = self.expectations(suites);
        match self.kind {
            CheckKind::Perft(d) => e.perft.get(&d).copied().unwrap_or(0),
            CheckKind::Divide(_) => e.divide.as_ref().map_or(0, Divide::total),
            _ => 0,
        }
    }
}

/// Every check of a case, main expectations first, then each alternative's.
pub fn checks_of(suite: usize, case_index: usize, case: &Case) -> Vec<CheckRef> {
    let mut out: Vec<CheckRef> = kinds_of(&case.expect)
        .into_iter()
        .map(|kind| CheckRef {
            suite,
            case: case_index,
            alternative: None,
            kind,
        })
        .collect();
    for (k, alt) in case.alternatives.iter().enumerate() {
        out.extend(kinds_of(&alt.expect).into_iter().map(|kind| CheckRef {
            suite,
            case: case_index,
            alternative: Some(k),
            kind,
        }));
    }
    out
}

/// Why a generator gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAnswer {
    /// It cannot answer this kind of question (reported as skipped).
    Unsupported(String),
    /// It failed while answering (reported as failed).
    Error(String),
}

/// A move generator the checks run against.
pub trait Generator: Sync {
    /// A short name for reports (`reference`).
    fn name(&self) -> String;
    /// perft(depth) of the position.
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, NoAnswer>;
    /// The divide at `depth`: move text and count per root move.
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn divide(&self, pos: &Position, depth: u32) -> Result<Vec<(String, u64)>, NoAnswer>;
    /// The legal moves' text.
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn legal_moves(&self, pos: &Position) -> Result<Vec<String>, NoAnswer>;
    /// The game state (`None`: ongoing).
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn outcome(&self, pos: &Position) -> Result<Option<Outcome>, NoAnswer>;
    /// perft(depth), which may stop once the count passes `limit` (the expected count: more
    /// is a failure already). By default the whole count, from [`Generator::perft`].
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn perft_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Counted, NoAnswer> {
        let _ = limit;
        self.perft(pos, depth).map(Counted::Exact)
    }
    /// The divide at `depth`, which may stop once its total passes `limit`. By default the
    /// whole divide, from [`Generator::divide`].
    ///
    /// # Errors
    /// [`NoAnswer`] when the generator cannot or did not answer.
    fn divide_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Divided, NoAnswer> {
        let _ = limit;
        self.divide(pos, depth).map(Divided::Full)
    }
}

/// The built-in reference generator.
#[derive(Copy, Clone, Debug, Default)]
pub struct Reference;

impl Generator for Reference {
    fn name(&self) -> String {
        "reference".into()
    }
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, NoAnswer> {
        crate::perft::checked(perft(pos, depth)).map_err(overflowed)
    }
    fn divide(&self, pos: &Position, depth: u32) -> Result<Vec<(String, u64)>, NoAnswer> {
        full_counts(
            divide(pos, depth)
                .into_iter()
                .map(|e| (e.text, e.count))
                .collect(),
        )
    }
    fn legal_moves(&self, pos: &Position) -> Result<Vec<String>, NoAnswer> {
        Ok(pos
            .legal_moves()
            .iter()
            .map(|m| move_text(pos, m))
            .collect())
    }
    fn outcome(&self, pos: &Position) -> Result<Option<Outcome>, NoAnswer> {
        Ok(pos.outcome())
    }
    fn perft_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Counted, NoAnswer> {
        exact_counts(perft_within(pos, depth, limit))
    }
    fn divide_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Divided, NoAnswer> {
        match divide_within(pos, depth, limit) {
            Divided::Full(entries) => full_counts(entries).map(Divided::Full),
            above => Ok(above),
        }
    }
}

/// A count that saturated ([`crate::perft::OVERFLOW`]) is no answer: never compared as a number.
fn overflowed(e: crate::perft::CountOverflow) -> NoAnswer {
    NoAnswer::Error(e.to_string())
}

/// `counted`, unless its whole count saturated.
fn exact_counts(counted: Counted) -> Result<Counted, NoAnswer> {
    match counted {
        Counted::Exact(n) => crate::perft::checked(n)
            .map(Counted::Exact)
            .map_err(overflowed),
        above => Ok(above),
    }
}

/// `entries`, unless a count or their sum saturated.
fn full_counts(entries: Vec<(String, u64)>) -> Result<Vec<(String, u64)>, NoAnswer> {
    crate::perft::checked(crate::perft::sum(entries.iter().map(|(_, n)| *n)))
        .map_err(overflowed)?;
    Ok(entries)
}

/// The reference generator, whose counts stop (unit by unit, as [`perft_within`]'s) once
/// `stop` is set, answering [`NoAnswer::Error`] then: a run whose caller is interrupted
/// (Ctrl-C in Python) does not wait for a long count to end.
#[derive(Clone, Debug, Default)]
pub struct StoppableReference {
    /// Set to stop every count.
    pub stop: Arc<AtomicBool>,
}

impl StoppableReference {
    fn stopped() -> NoAnswer {
        NoAnswer::Error("the run was stopped".into())
    }
}

impl Generator for StoppableReference {
    fn name(&self) -> String {
        Reference.name()
    }
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, NoAnswer> {
        match self.perft_within(pos, depth, u64::MAX)? {
            Counted::Exact(n) | Counted::Above(n) => Ok(n),
        }
    }
    fn divide(&self, pos: &Position, depth: u32) -> Result<Vec<(String, u64)>, NoAnswer> {
        match self.divide_within(pos, depth, u64::MAX)? {
            Divided::Full(entries) => Ok(entries),
            // Nothing passes a limit of u64::MAX.
            Divided::Above(_) => Err(Self::stopped()),
        }
    }
    fn legal_moves(&self, pos: &Position) -> Result<Vec<String>, NoAnswer> {
        Reference.legal_moves(pos)
    }
    fn outcome(&self, pos: &Position) -> Result<Option<Outcome>, NoAnswer> {
        Reference.outcome(pos)
    }
    fn perft_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Counted, NoAnswer> {
        exact_counts(perft_within_until(pos, depth, limit, &self.stop).ok_or_else(Self::stopped)?)
    }
    fn divide_within(&self, pos: &Position, depth: u32, limit: u64) -> Result<Divided, NoAnswer> {
        match divide_within_until(pos, depth, limit, &self.stop).ok_or_else(Self::stopped)? {
            Divided::Full(entries) => full_counts(entries).map(Divided::Full),
            above => Ok(above),
        }
    }
}

/// The suite spelling of a game state.
pub fn outcome_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => OutcomeFile::Ongoing.name(),
        Some(o) => o.name(),
    }
}

/// A shell-quoted command that shows the generator's view of the check.
pub fn reproduce_command(pos: &Position, kind: CheckKind) -> String {
    let (verb, depth) = match kind {
        CheckKind::Perft(d) | CheckKind::Divide(d) => ("divide", d),
        CheckKind::Legal | CheckKind::Illegal => ("divide", 1),
        CheckKind::Outcome => ("fen", 0),
    };
    let rules = pos.rules();
    let mut cmd = String::from("cvperft ");
    let options: Vec<String> = rules
        .option_pairs()
        .iter()
        .map(|(n, v)| format!(" -o {n}={v}"))
        .collect();
    let fen = shell_quote(&to_fen(pos));
    if verb == "fen" {
        cmd.push_str(&format!(
            "fen -v {}{} {fen}",
            rules.variant.spec.id,
            options.concat()
        ));
    } else {
        cmd.push_str(&format!(
            "{verb} {depth} -v {}{} --fen {fen}",
            rules.variant.spec.id,
            options.concat()
        ));
    }
    cmd
}

/// A raw comparison: `Ok(message)` when the expectation held, `Err((message, mismatch))` when
/// it did not.
type Compared = Result<String, (String, Mismatch)>;

/// Runs one check against `generator`.
pub fn run_check(suites: &[Suite], check: &CheckRef, generator: &dyn Generator) -> CheckResult {
    let suite = &suites[check.suite];
    let case = &suite.cases[check.case];
    let alternative = check.alternative.map(|k| &case.alternatives[k]);
    let position = match alternative {
        None => Some(&case.position),
        Some(a) => a.position.as_ref(),
    };
    let fen = position.map_or_else(|| case.fen_reached(), to_fen);
    let mut result = CheckResult {
        name: check.name(suites),
        variant: suite.variant.spec.id.to_string(),
        file: suite.path.clone(),
        suite: suite.stem.clone(),
        case: case.id.clone(),
        line: case.line,
        check: check.check_name(),
        alternative: check.alternative.map(|k| AlternativeInfo {
            number: k + 1,
            reading: case.alternatives[k].reading.clone(),
        }),
        status: Status::Skipped,
        message: String::new(),
        mismatch: None,
        fen,
        reproduce: position.map(|p| reproduce_command(p, check.kind)),
        seconds: 0.0,
    };
    let Some(position) = position else {
        result.message = "no option selects this reading, so the reference cannot check it".into();
        return result;
    };
    let start = Instant::now();
    let compared = compare(check.kind, check.expectations(suites), position, generator);
    result.seconds = start.elapsed().as_secs_f64();
    let xfail = matches!(case.status, CaseStatus::Xfail { .. });
    match compared {
        Answer::Unsupported(reason) => {
            result.status = Status::Skipped;
            result.message = reason;
        }
        Answer::Done(Ok(message)) => {
            result.status = if xfail {
                Status::UnexpectedPass
            } else {
                Status::Passed
            };
            result.message = if xfail {
                format!("{message}, but the case is marked xfail")
            } else {
                message
            };
        }
        Answer::Done(Err((message, mismatch))) => {
            let is_error = matches!(mismatch, Mismatch::Error { .. });
            result.status = if xfail && !is_error {
                Status::ExpectedFailure
            } else {
                Status::Failed
            };
            result.message = message;
            result.mismatch = Some(mismatch);
        }
    }
    result
}

enum Answer {
    Unsupported(String),
    Done(Compared),
}

fn compare(
    kind: CheckKind,
    expect: &Expectations,
    pos: &Position,
    generator: &dyn Generator,
) -> Answer {
    let answer = |r: Result<Compared, NoAnswer>| match r {
        Ok(c) => Answer::Done(c),
        Err(NoAnswer::Unsupported(reason)) => Answer::Unsupported(reason),
        Err(NoAnswer::Error(message)) => Answer::Done(Err((
            format!("{} failed: {message}", generator.name()),
            Mismatch::Error { message },
        ))),
    };
    match kind {
        CheckKind::Perft(depth) => {
            let expected = expect.perft.get(&depth).copied().unwrap_or(0);
            answer(generator.perft_within(pos, depth, expected).map(|counted| {
                let actual = match counted {
                    Counted::Exact(n) => n,
                    Counted::Above(n) => return Err(stopped("perft", depth, expected, n)),
                };
                if actual == expected {
                    Ok(format!("perft {depth} = {actual}"))
                } else {
                    Err((
                        format!(
                            "perft {depth}: expected {expected}, actual {actual} ({:+})",
                            actual as i128 - expected as i128
                        ),
                        Mismatch::Count {
                            expected,
                            actual,
                            stopped: false,
                        },
                    ))
                }
            }))
        }
        CheckKind::Divide(depth) => {
            let Some(want) = &expect.divide else {
                return Answer::Unsupported("no divide expected".into());
            };
            answer(
                generator
                    .divide_within(pos, depth, want.total())
                    .map(|divided| {
                        let got = match divided {
                            Divided::Full(entries) => entries,
                            // A divide listing other moves than the generator's fails on
                            // that, naming them, rather than on a count stopped once past
                            // the expected total. A generator that cannot list its moves
                            // leaves the stopped count.
                            Divided::Above(n) => {
                                let differ = legal_set(generator, pos)
                                    .ok()
                                    .and_then(|legal| moves_differ(want, &legal));
                                return Err(match differ {
                                    Some((text, not_listed, not_legal)) => (
                                        format!("divide {depth}: {text}"),
                                        Mismatch::DivideMoves {
                                            not_listed,
                                            not_legal,
                                        },
                                    ),
                                    None => stopped("divide", depth, want.total(), n),
                                });
                            }
                        };
                        let variant = pos.variant();
                        let got: Vec<(String, u64)> = got
                            .into_iter()
                            .map(|(t, c)| (normalise_move_text(variant, &t).unwrap_or(t), c))
                            .collect();
                        compare_divide(depth, want, got)
                    }),
            )
        }
        CheckKind::Legal | CheckKind::Illegal => answer(legal_set(generator, pos).map(|legal| {
            if kind == CheckKind::Legal {
                let missing = kept(&expect.legal, |m| !legal.contains(m));
                if missing.is_empty() {
                    Ok(format!("{} moves legal", expect.legal.len()))
                } else {
                    Err((
                        format!("expected legal but not: {}", missing.join(" ")),
                        Mismatch::NotLegal {
                            moves: missing,
                            legal_moves: legal.into_iter().collect(),
                        },
                    ))
                }
            } else {
                let present = kept(&expect.illegal, |m| legal.contains(m));
                if present.is_empty() {
                    Ok(format!("{} moves illegal", expect.illegal.len()))
                } else {
                    Err((
                        format!("expected illegal but legal: {}", present.join(" ")),
                        Mismatch::NotIllegal { moves: present },
                    ))
                }
            }
        })),
        CheckKind::Outcome => {
            let expected = expect.outcome.map_or("ongoing", OutcomeFile::name);
            answer(generator.outcome(pos).map(|o| {
                let actual = outcome_name(o);
                if actual == expected {
                    Ok(format!("outcome {actual}"))
                } else {
                    Err((
                        format!("outcome: expected {expected}, actual {actual}"),
                        Mismatch::Outcome {
                            expected: expected.into(),
                            actual: actual.into(),
                        },
                    ))
                }
            }))
        }
    }
}

/// The generator's legal moves in canonical text.
fn legal_set(generator: &dyn Generator, pos: &Position) -> Result<BTreeSet<String>, NoAnswer> {
    let variant = pos.variant();
    Ok(generator
        .legal_moves(pos)?
        .into_iter()
        .map(|t| normalise_move_text(variant, &t).unwrap_or(t))
        .collect())
}

/// The moves of `moves` that `keep` keeps, in their order.
fn kept<'a>(
    moves: impl IntoIterator<Item = &'a String>,
    keep: impl Fn(&str) -> bool,
) -> Vec<String> {
    moves.into_iter().filter(|m| keep(m)).cloned().collect()
}

/// How many moves of a list a check's message names; the mismatch holds them all.
const MOVES_NAMED: usize = 8;

/// `moves` for a message: the first [`MOVES_NAMED`], then how many more.
fn some_moves(moves: &[String]) -> String {
    let named = moves[..moves.len().min(MOVES_NAMED)].join(" ");
    match moves.len().checked_sub(MOVES_NAMED) {
        Some(more) if more > 0 => format!("{named} and {more} more"),
        _ => named,
    }
}

/// When a divide's moves are not the `legal` ones: a sentence naming the difference, the legal
/// moves it does not list and the moves it lists that are not legal.
fn moves_differ(
    want: &Divide,
    legal: &BTreeSet<String>,
) -> Option<(String, Vec<String>, Vec<String>)> {
    let not_listed = kept(legal, |m| !want.moves.contains_key(m));
    let not_legal = kept(want.moves.keys(), |m| !legal.contains(m));
    if not_listed.is_empty() && not_legal.is_empty() {
        return None;
    }
    let mut text = format!(
        "the divide lists {} of the {} legal moves",
        legal.len() - not_listed.len(),
        legal.len()
    );
    if !not_listed.is_empty() {
        text.push_str(&format!("; not listed: {}", some_moves(&not_listed)));
    }
    if !not_legal.is_empty() {
        text.push_str(&format!(
            "; listed but not legal: {}",
            some_moves(&not_legal)
        ));
    }
    Some((text, not_listed, not_legal))
}

/// The failure of a count stopped once it passed the expected one.
fn stopped(what: &str, depth: u32, expected: u64, counted: u64) -> (String, Mismatch) {
    (
        format!(
            "{what} {depth}: expected {expected}, but the count passed it (stopped at {counted})"
        ),
        Mismatch::Count {
            expected,
            actual: counted,
            stopped: true,
        },
    )
}

fn divide_lines(entries: &[(String, u64)]) -> String {
    let mut sorted: Vec<&(String, u64)> = entries.iter().collect();
    sorted.sort();
    let total: u64 = entries.iter().map(|(_, c)| c).sum();
    let mut text = String::new();
    for (m, c) in sorted {
        text.push_str(&format!("{m} {c}\n"));
    }
    text.push_str(&format!("total {total}\n"));
    text
}

fn compare_divide(depth: u32, want: &Divide, got: Vec<(String, u64)>) -> Compared {
    let want_list: Vec<(String, u64)> = want.moves.iter().map(|(m, c)| (m.clone(), *c)).collect();
    let expected_text = divide_lines(&want_list);
    let actual_text = divide_lines(&got);
    let actual_total: u64 = got.iter().map(|(_, c)| c).sum();
    if expected_text == actual_text {
        return Ok(format!(
            "divide {depth}: {} moves, total {actual_total}",
            got.len()
        ));
    }
    let diff = TextDiff::from_lines(&expected_text, &actual_text);
    let lines: Vec<DiffLine> = diff
        .iter_all_changes()
        .map(|c| DiffLine {
            tag: match c.tag() {
                ChangeTag::Equal => DiffTag::Equal,
                ChangeTag::Delete => DiffTag::Expected,
                ChangeTag::Insert => DiffTag::Actual,
            },
            text: c.value().trim_end().to_string(),
        })
        .collect();
    let differing = lines
        .iter()
        .filter(|l| l.tag == DiffTag::Expected && !l.text.starts_with("total "))
        .count()
        .max(
            lines
                .iter()
                .filter(|l| l.tag == DiffTag::Actual && !l.text.starts_with("total "))
                .count(),
        );
    let legal: BTreeSet<String> = got.iter().map(|(m, _)| m.clone()).collect();
    let moves = moves_differ(want, &legal)
        .map(|(text, _, _)| format!("; {text}"))
        .unwrap_or_default();
    Err((
        format!(
            "divide {depth}: {differing} of the move lines differ; expected total {}, actual {actual_total}{moves}",
            want.total()
        ),
        Mismatch::Divide {
            expected_total: want.total(),
            actual_total,
            diff: lines,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::OVERFLOW;

    /// A saturated count is no answer (the check fails naming it), never a number compared
    /// with the expectation: a case expecting 2^64 - 1 would have passed against any count
    /// past 64 bits.
    #[test]
    fn a_saturated_count_is_no_answer() {
        fn overflow<T>(r: Result<T, NoAnswer>) -> bool {
            match r {
                Err(NoAnswer::Error(m)) => m.starts_with("more than 18446744073709551614 leaves"),
                _ => false,
            }
        }
        assert!(overflow(exact_counts(Counted::Exact(OVERFLOW))));
        assert_eq!(
            exact_counts(Counted::Exact(OVERFLOW - 1)),
            Ok(Counted::Exact(OVERFLOW - 1))
        );
        assert_eq!(
            exact_counts(Counted::Above(OVERFLOW)),
            Ok(Counted::Above(OVERFLOW))
        );
        assert!(overflow(full_counts(vec![("e2e4".into(), OVERFLOW)])));
        assert!(overflow(full_counts(vec![
            ("e2e4".into(), OVERFLOW - 1),
            ("d2d4".into(), 1),
        ])));
        let fits = vec![("e2e4".into(), OVERFLOW - 2), ("d2d4".into(), 1)];
        assert_eq!(full_counts(fits.clone()), Ok(fits));
    }
}

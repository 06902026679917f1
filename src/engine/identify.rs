//! Which reading of a disputed rule does an engine implement? For every rule option of a
//! variant (and `game-end`), compare the engine's divides on a set of probe positions with ours
//! under each value of the option: the value that matches on every probe is the engine's
//! reading. Probes come from data, never from code: a probe file
//! (`fixtures/identify/<variant>.yaml`), and with [`probes_from_suites`] the suites themselves,
//! wherever two cases of one position differ in one option and their counts differ.

use super::bisect::{Bisection, bisect};
use super::reference::ReferenceEngine;
use super::{Divide, Engine, EngineError, EngineErrorKind, Query};
use crate::fsio::FileError;
use crate::request::MAX_MOVES;
use crate::suite::aliases::{AnchorAgain, Traced, anchor_given_twice, trace};
use crate::suite::nesting::TooDeep;
use crate::variant::{OptionError, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Deepest probe accepted.
pub const MAX_PROBE_DEPTH: u32 = 8;

/// A probe file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProbeFile {
    /// The variant id the probes are for.
    pub variant: String,
    /// The probes, in the order they are tried.
    pub probes: Vec<Probe>,
    /// Options no divide can tell apart, with the reason (for example an option that only
    /// changes the start position, which every probe states explicitly).
    #[serde(default, deserialize_with = "crate::suite::model::unique")]
    pub undecidable: BTreeMap<String, String>,
}

/// One position to ask about.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// A short name, unique in the file.
    pub name: String,
    /// The position (default: the variant's start position with default options).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played first, space-separated.
    #[serde(default)]
    pub moves: Option<String>,
    /// Depth of the divide.
    pub depth: u32,
    /// Other options fixed for this probe (`name: value`).
    #[serde(default, deserialize_with = "crate::suite::model::unique")]
    pub options: BTreeMap<String, String>,
    /// Why this position tells readings apart.
    #[serde(default)]
    pub note: Option<String>,
}

/// A probe file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The file cannot be read (its path is in the error).
    #[error("probe file {0}")]
    Read(FileError),
    /// The file is not UTF-8 text.
    #[error("probe file {}: not UTF-8 text", .0.display())]
    NotUtf8(PathBuf),
    /// Flow collections nested too deep for the YAML parser.
    #[error("probe file {}:{}:{}: {nesting}", .file.display(), .nesting.line, .nesting.column)]
    TooDeep {
        /// The file.
        file: PathBuf,
        /// Where, and the limit.
        nesting: TooDeep,
    },
    /// An anchor name given twice, which serde_yaml can resolve to the wrong node.
    #[error("probe file {}:{}:{}: {again}", .file.display(), .again.again.0, .again.again.1)]
    AnchorGivenTwice {
        /// The file.
        file: PathBuf,
        /// The name and both places.
        again: AnchorAgain,
    },
    /// YAML that is not a probe file.
    #[error("probe file {}: {}", .file.display(), yaml_message(.error, .alias))]
    Yaml {
        /// The file.
        file: PathBuf,
        /// The parser's error (with its line and column).
        error: serde_yaml::Error,
        /// When the error is in the value of an alias: the alias, which it is placed at
        /// (serde_yaml places it in the node the alias repeats).
        alias: Option<Box<Traced>>,
    },
    /// Probes of another variant.
    #[error("probe file {} is for variant {found}, not {expected}", .file.display())]
    OtherVariant {
        /// The file.
        file: PathBuf,
        /// The file's variant.
        found: String,
        /// The variant asked for.
        expected: &'static str,
    },
    /// `undecidable` names an option the variant does not have.
    #[error("probe file {}: undecidable: {variant} has no option `{option}`", .file.display())]
    UnknownOption {
        /// The file.
        file: PathBuf,
        /// The variant's id.
        variant: &'static str,
        /// The option named.
        option: String,
    },
    /// One probe cannot be used.
    #[error(
        "probe file {}{}, probe `{probe}`: {reason}",
        .file.display(),
        .line.map(|l| format!(":{l}")).unwrap_or_default()
    )]
    Probe {
        /// The file.
        file: PathBuf,
        /// The line of the probe's `name:` (of its second use for a name used twice), where
        /// it can be found in the text.
        line: Option<u32>,
        /// The probe's name.
        probe: String,
        /// What is wrong with it.
        reason: Box<ProbeReason>,
    },
}

/// A serde_yaml error of a probe file, placed at the alias it came through if any (serde_yaml
/// writes the place in the alias's node as ` at line L column C`).
fn yaml_message(error: &serde_yaml::Error, alias: &Option<Box<Traced>>) -> String {
    let Some(traced) = alias else {
        return error.to_string();
    };
    let (at_line, at_column) = traced.at;
    format!(
        "{} at line {at_line} column {at_column}{}",
        crate::suite::load::message_without_place(error),
        traced.note()
    )
}

/// What is wrong with one probe.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeReason {
    /// Another probe has the same name.
    #[error("name used twice")]
    NameUsedTwice,
    /// An empty name, which no report could show.
    #[error("the name is empty")]
    EmptyName,
    /// A depth of 0 or above [`MAX_PROBE_DEPTH`].
    #[error("depth {0} (expected 1 to {MAX_PROBE_DEPTH})")]
    Depth(u32),
    /// More moves than any command accepts: the engine would be asked what `perft` refuses.
    #[error("moves: {0} moves, at most {MAX_MOVES} are accepted")]
    TooManyMoves(usize),
    /// Our reference refuses it under every reading (the first reading's reason).
    #[error("cvperft refuses it under every reading: {0}")]
    Refused(Refusal),
}

/// Why a probe is not a question one side can answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// An option of the probe, or of the reading, that the variant does not have.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// Our reference refuses the position or a move.
    #[error("{0}")]
    Reference(EngineErrorKind),
    /// The engine refuses the position or a move, in its own words.
    #[error("{0}")]
    Engine(String),
}

/// Reads and checks a probe file for `rules`' variant.
///
/// # Errors
/// Unreadable file, YAML that is not a probe file (with line and column), another variant, a
/// duplicate name, a depth of 0 or above [`MAX_PROBE_DEPTH`], an unknown option, or a probe
/// whose position or moves the reference refuses under every option value.
pub fn load_probes(path: &Path, rules: Rules) -> Result<ProbeFile, ProbeError> {
    let bytes = crate::fsio::read_capped(path, crate::suite::load::MAX_FILE_BYTES)
        .map_err(ProbeError::Read)?;
    let text = String::from_utf8(bytes).map_err(|_| ProbeError::NotUtf8(path.to_path_buf()))?;
    probes_of_text(&text, path, rules)
}

/// The probe files of `fixtures/identify/`, compiled in, as (path in the repository, text):
/// `cvperft identify`'s default probes where there is no such file where it runs (an installed
/// binary away from a clone).
pub const BUILT_IN_PROBES: [(&str, &str); 6] = [
    (
        "fixtures/identify/bachelor-kamil.yaml",
        include_str!("../../fixtures/identify/bachelor-kamil.yaml"),
    ),
    (
        "fixtures/identify/cerimon.yaml",
        include_str!("../../fixtures/identify/cerimon.yaml"),
    ),
    (
        "fixtures/identify/chess.yaml",
        include_str!("../../fixtures/identify/chess.yaml"),
    ),
    (
        "fixtures/identify/pink-panther.yaml",
        include_str!("../../fixtures/identify/pink-panther.yaml"),
    ),
    (
        "fixtures/identify/plutonian.yaml",
        include_str!("../../fixtures/identify/plutonian.yaml"),
    ),
    (
        "fixtures/identify/silver-elephant.yaml",
        include_str!("../../fixtures/identify/silver-elephant.yaml"),
    ),
];

/// The built-in probe file of `rules`' variant ([`BUILT_IN_PROBES`]), with its path, checked as
/// [`load_probes`] checks a file; `None` for a variant that has none.
pub fn built_in_probes(rules: Rules) -> Option<(&'static str, Result<ProbeFile, ProbeError>)> {
    let file = format!("fixtures/identify/{}.yaml", rules.variant.spec.id);
    let (path, text) = BUILT_IN_PROBES.iter().find(|(p, _)| *p == file)?;
    Some((path, probes_of_text(text, Path::new(path), rules)))
}

/// [`load_probes`] of a file's text, read from `path`.
fn probes_of_text(text: &str, path: &Path, rules: Rules) -> Result<ProbeFile, ProbeError> {
    // As for suites: deep flow nesting would keep the YAML parser busy for minutes.
    use crate::suite::nesting::{MAX_FLOW_NESTING, check_flow_nesting};
    check_flow_nesting(text, MAX_FLOW_NESTING).map_err(|nesting| ProbeError::TooDeep {
        file: path.to_path_buf(),
        nesting,
    })?;
    if let Some(again) = anchor_given_twice(text) {
        return Err(ProbeError::AnchorGivenTwice {
            file: path.to_path_buf(),
            again,
        });
    }
    let yaml = |error| ProbeError::Yaml {
        file: path.to_path_buf(),
        alias: trace(&error, text).map(Box::new),
        error,
    };
    // As for suites: aliases must not expand a small file beyond the memory.
    crate::suite::load::check_alias_expansion(text).map_err(yaml)?;
    let file: ProbeFile = serde_yaml::from_str(text).map_err(yaml)?;
    let id = rules.variant.spec.id;
    if file.variant != id {
        return Err(ProbeError::OtherVariant {
            file: path.to_path_buf(),
            found: file.variant,
            expected: id,
        });
    }
    let options = option_values(&rules);
    for name in file.undecidable.keys() {
        if !options.iter().any(|(o, _)| o == name) {
            return Err(ProbeError::UnknownOption {
                file: path.to_path_buf(),
                variant: id,
                option: name.clone(),
            });
        }
    }
    let mut seen = Vec::new();
    for probe in &file.probes {
        let uses = seen.iter().filter(|n| **n == probe.name).count();
        let refused = |reason| ProbeError::Probe {
            file: path.to_path_buf(),
            line: name_line(text, &probe.name, uses),
            probe: probe.name.clone(),
            reason: Box::new(reason),
        };
        if probe.name.trim().is_empty() {
            return Err(refused(ProbeReason::EmptyName));
        }
        if uses > 0 {
            return Err(refused(ProbeReason::NameUsedTwice));
        }
        seen.push(probe.name.clone());
        if probe.depth == 0 || probe.depth > MAX_PROBE_DEPTH {
            return Err(refused(ProbeReason::Depth(probe.depth)));
        }
        let moves = probe
            .moves
            .as_deref()
            .map_or(0, |m| m.split_whitespace().count());
        if moves > MAX_MOVES {
            return Err(refused(ProbeReason::TooManyMoves(moves)));
        }
        // The probe must be a legal question under at least one reading.
        let mut first_error = None;
        let mut accepted = false;
        let readings = std::iter::once(None).chain(
            options
                .iter()
                .flat_map(|(o, vs)| vs.iter().map(move |v| Some((o.as_str(), v.as_str())))),
        );
        for set in readings {
            let result = probe_rules(rules, probe, set).and_then(|r| {
                ReferenceEngine::new(r)
                    .position(&probe.query(rules))
                    .map(|_| ())
                    .map_err(|e| Refusal::Reference(e.kind))
            });
            match result {
                Ok(()) => {
                    accepted = true;
                    break;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if let (false, Some(first)) = (accepted, first_error) {
            return Err(refused(ProbeReason::Refused(first)));
        }
    }
    Ok(file)
}

/// The line of the `name:` key whose value is `name`, skipping the first `skip` such keys
/// (block `name: a` or flow `{name: a, ...}`, the value plain or quoted); `None` where the text
/// gives the name otherwise (through an alias, or with escapes).
fn name_line(text: &str, name: &str, skip: usize) -> Option<u32> {
    let mut found = text.lines().enumerate().filter(|(_, line)| {
        // A comment (`# - name: b`, a probe set aside) names no probe.
        if line.trim_start().starts_with('#') {
            return false;
        }
        line.match_indices("name:").any(|(i, key)| {
            let before = line[..i].trim_end();
            let flow = before.ends_with(['{', ',']);
            if !(flow || before.is_empty() || before.ends_with('-')) {
                return false;
            }
            let rest = line[i + key.len()..].trim_start();
            // In a flow mapping the value ends at `,` or `}`; in a block it runs to the end of
            // the line (`- name: a, b` names `a, b`), less a comment.
            let value = if flow {
                rest.split([',', '}']).next().unwrap_or("")
            } else {
                rest.split(" #").next().unwrap_or("")
            }
            .trim_end();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(value);
            value == name
        })
    });
    found.nth(skip).and_then(|(i, _)| u32::try_from(i + 1).ok())
}

impl Probe {
    /// The query this probe asks.
    pub fn query(&self, rules: Rules) -> Query {
        let fen = self
            .fen
            .clone()
            .unwrap_or_else(|| Rules::new(rules.variant).start_fen());
        let moves: Vec<String> = self
            .moves
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        Query::new(fen, &moves, self.depth)
    }
}

/// Deepest count a suite probe may ask for: our reference computes it under every value of
/// every option, and the engine once.
pub const MAX_SUITE_PROBE_NODES: u64 = 1_000_000;

/// A case's position as written: its FEN (`None`: the start position) and moves.
type WrittenPosition<'a> = (Option<&'a str>, Option<&'a str>);

/// One reading of a suite case's position: the case itself or one of its alternatives.
struct SuiteReading<'a> {
    case: &'a crate::suite::Case,
    /// `case-id` or `case-id (alternative N)`.
    label: String,
    /// Every option with its value under this reading (`game-end` included).
    options: Vec<(&'static str, &'static str)>,
    /// The FEN of the position the checks run on, under this reading.
    fen: String,
    /// Expected leaf counts by depth (perft, and a divide's total).
    counts: BTreeMap<u32, u64>,
}

fn reading<'a>(
    case: &'a crate::suite::Case,
    label: String,
    position: &crate::position::Position,
    expect: &crate::suite::load::Expectations,
) -> SuiteReading<'a> {
    let mut counts = expect.perft.clone();
    if let Some(divide) = &expect.divide {
        counts.entry(divide.depth).or_insert_with(|| divide.total());
    }
    SuiteReading {
        case,
        label,
        options: position.rules().option_pairs(),
        fen: crate::notation::to_fen(position),
        counts,
    }
}

/// Probes drawn from `suites`: wherever two readings of one position (two cases with the same
/// FEN and moves, or a case and one of its alternatives) differ in exactly one option and
/// expect different counts at a depth both state, the smallest such depth becomes a probe
/// named `<suite>:<case>/<case>`, so every disputed reading a suite records is asked about
/// without writing a probe file. Suites of other variants are ignored; a pair whose counts
/// differ only beyond [`MAX_PROBE_DEPTH`] or [`MAX_SUITE_PROBE_NODES`] gives no probe; a
/// position asked at the same depth twice gives one. The probes fix no option: like those of
/// a probe file, they are asked with the other options at the values assumed in each round.
pub fn probes_from_suites(suites: &[crate::suite::Suite], rules: Rules) -> Vec<Probe> {
    let id = rules.variant.spec.id;
    let mut probes: Vec<Probe> = Vec::new();
    for suite in suites.iter().filter(|s| s.variant.spec.id == id) {
        // Readings grouped by the position as written, in file order.
        let mut groups: Vec<(WrittenPosition<'_>, Vec<SuiteReading<'_>>)> = Vec::new();
        for case in &suite.cases {
            let key = (case.fen.as_deref(), case.moves.as_deref());
            let mut found = vec![reading(case, case.id.clone(), &case.position, &case.expect)];
            for (k, alt) in case.alternatives.iter().enumerate() {
                if let Some(position) = &alt.position {
                    let label = format!("{} (alternative {})", case.id, k + 1);
                    found.push(reading(case, label, position, &alt.expect));
                }
            }
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, readings)) => readings.extend(found),
                None => groups.push((key, found)),
            }
        }
        for (_, readings) in &groups {
            for (i, a) in readings.iter().enumerate() {
                for b in &readings[i + 1..] {
                    if let Some(probe) = suite_probe(suite, a, b)
                        && !probes.iter().any(|p| {
                            (&p.fen, &p.moves, p.depth) == (&probe.fen, &probe.moves, probe.depth)
                        })
                    {
                        probes.push(probe);
                    }
                }
            }
        }
    }
    probes
}

/// The probe two readings of one position make, if they differ in one option and in a count.
fn suite_probe(suite: &crate::suite::Suite, a: &SuiteReading, b: &SuiteReading) -> Option<Probe> {
    let differing: Vec<(&str, &str, &str)> = a
        .options
        .iter()
        .zip(&b.options)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, y)| (x.0, x.1, y.1))
        .collect();
    // The same position under both readings (an option that changes the start position
    // makes two positions, which no divide of one of them can tell apart).
    let [(option, value_a, value_b)] = differing.as_slice() else {
        return None;
    };
    if a.fen != b.fen || a.options.len() != b.options.len() {
        return None;
    }
    let (depth, count_a, count_b) = a.counts.iter().find_map(|(&depth, &count_a)| {
        let count_b = *b.counts.get(&depth)?;
        (count_a != count_b
            && depth <= MAX_PROBE_DEPTH
            && count_a.max(count_b) <= MAX_SUITE_PROBE_NODES)
            .then_some((depth, count_a, count_b))
    })?;
    Some(Probe {
        name: format!("{}:{}/{}", suite.stem, a.case.id, b.case.id),
        fen: a.case.fen.clone(),
        moves: a.case.moves.clone(),
        depth,
        options: BTreeMap::new(),
        note: Some(format!(
            "{} lines {} and {}: perft {depth} is {count_a} under {option}={value_a} ({}) and \
             {count_b} under {option}={value_b} ({})",
            suite.path.display(),
            a.case.line,
            b.case.line,
            a.label,
            b.label
        )),
    })
}

/// `base` with the probe's fixed options, then `option = value` when given.
fn probe_rules(base: Rules, probe: &Probe, set: Option<(&str, &str)>) -> Result<Rules, Refusal> {
    let mut rules = base;
    for (name, value) in &probe.options {
        rules.set(name, value)?;
    }
    if let Some((name, value)) = set {
        rules.set(name, value)?;
    }
    Ok(rules)
}

/// What identify concluded about one option.
#[derive(Debug)]
pub enum Verdict {
    /// Exactly one value matches the engine on every probe.
    Agrees {
        /// The value.
        value: String,
        /// Probes on which the values give different divides.
        deciding: Vec<String>,
    },
    /// Several values match and no probe tells them apart.
    Undecided {
        /// The matching values.
        values: Vec<String>,
        /// Why no probe can, when the probe file says so.
        reason: Option<String>,
    },
    /// No value matches.
    MatchesNone {
        /// The value matching the most probes (the default on a tie).
        closest: String,
        /// The first probe where the engine departs from it.
        probe: String,
        /// The descent from that probe to the first differing position, when both sides
        /// accept the probe.
        bisection: Option<Box<Bisection>>,
        /// When one side refuses the probe: which, and why.
        refusal: Option<String>,
    },
}

/// The result for one option.
#[derive(Debug)]
pub struct OptionReport {
    /// The option name (`game-end` included).
    pub option: String,
    /// Its values, default first.
    pub values: Vec<String>,
    /// The probes used (those that do not fix this option themselves).
    pub probes: Vec<String>,
    /// The conclusion.
    pub verdict: Verdict,
}

/// Why identify stopped.
#[derive(Debug, thiserror::Error)]
pub enum IdentifyError {
    /// A probe the rules refuse under some option value.
    #[error("probe `{probe}`: {refusal}")]
    Probe {
        /// The probe's name.
        probe: String,
        /// Why the rules refuse it.
        refusal: Refusal,
    },
    /// A value identified for an option cannot be assumed.
    #[error(transparent)]
    Option(OptionError),
    /// The engine (or our reference) failed.
    #[error(transparent)]
    Engine(EngineError),
    /// No probe to ask (an empty probe file, and no suite probes): nothing would be tested.
    #[error("with nothing to ask, the engine would be tested on nothing")]
    NoProbes,
    /// The engine refused every probe it was asked: nothing was tested.
    #[error(
        "the engine refused all {asked} probes it was asked, so it was tested on nothing (the \
         first, `{probe}`: {why}); is it the variant's engine, and is the protocol right?"
    )]
    NothingAnswered {
        /// How many probes it was asked.
        asked: usize,
        /// The first probe's name.
        probe: String,
        /// Why it refused that one.
        why: Refusal,
    },
}

/// Every option of `base`'s variant with its values, default first, then `game-end`.
pub fn option_values(base: &Rules) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = base
        .variant
        .spec
        .options
        .iter()
        .map(|o| {
            (
                o.name.to_string(),
                o.values.iter().map(|v| v.to_string()).collect(),
            )
        })
        .collect();
    out.push((
        "game-end".to_string(),
        vec!["rules".to_string(), "movegen".to_string()],
    ));
    out
}

/// One side's answer to a probe: a divide, or the reason it refused the question.
pub type Answer = Result<Divide, Refusal>;

/// An engine failure that means "I refuse this question" rather than "I am broken".
fn refusal(e: &EngineError) -> Option<Refusal> {
    match &e.kind {
        EngineErrorKind::Rejected(m) | EngineErrorKind::IllegalMove(m) => {
            Some(Refusal::Engine(m.clone()))
        }
        _ => None,
    }
}

/// What identify found.
#[derive(Debug)]
pub struct Identification {
    /// One report per option, `game-end` last.
    pub reports: Vec<OptionReport>,
    /// The values assumed for the other options in the last round: the caller's, replaced by
    /// those identified in earlier rounds.
    pub assumed: Vec<(String, String)>,
}

/// Identifies, for every option of `base`'s variant, which value `engine` implements.
///
/// Options are studied one at a time, the others held at the values of `base`. When the engine
/// turns out to follow another value of some option, that value is assumed from then on and
/// the others are studied again, until nothing changes (an engine with two non-default readings
/// would otherwise match no value of either). A probe that one reading refuses (a position
/// illegal under it) and the engine refuses too counts as agreement.
///
/// # Errors
/// No probe ([`IdentifyError::NoProbes`]), a probe with an unknown option, an engine failure
/// other than refusing a probe, or an engine that refused every probe
/// ([`IdentifyError::NothingAnswered`]).
pub fn identify(
    base: Rules,
    file: &ProbeFile,
    engine: &mut dyn Engine,
) -> Result<Identification, IdentifyError> {
    if file.probes.is_empty() {
        return Err(IdentifyError::NoProbes);
    }
    let mut answers: BTreeMap<usize, Answer> = BTreeMap::new();
    let mut assumed = base;
    let rounds = option_values(&base).len() + 1;
    let mut reports = Vec::new();
    for _ in 0..rounds {
        reports = identify_round(assumed, file, engine, &mut answers)?;
        let mut next = assumed;
        for r in &reports {
            if let Verdict::Agrees { value, .. } = &r.verdict {
                next.set(&r.option, value).map_err(IdentifyError::Option)?;
            }
        }
        if next == assumed {
            break;
        }
        assumed = next;
    }
    // Refusing a probe agrees with a reading that refuses it too, but an engine that refuses
    // them all (the start position among them) has answered nothing: no verdict holds.
    let mut refused = answers
        .iter()
        .filter_map(|(&i, a)| a.as_ref().err().map(|e| (i, e)));
    if let Some((first, why)) = refused.next()
        && refused.count() + 1 == answers.len()
    {
        return Err(IdentifyError::NothingAnswered {
            asked: answers.len(),
            probe: file.probes[first].name.clone(),
            why: why.clone(),
        });
    }
    Ok(Identification {
        reports,
        assumed: assumed
            .option_pairs()
            .into_iter()
            .map(|(o, v)| (o.to_string(), v.to_string()))
            .collect(),
    })
}

/// One round: every option studied with the others at `base`'s values. `answers` caches the
/// engine's answers by probe index (they do not depend on our options).
fn identify_round(
    base: Rules,
    file: &ProbeFile,
    engine: &mut dyn Engine,
    answers: &mut BTreeMap<usize, Answer>,
) -> Result<Vec<OptionReport>, IdentifyError> {
    let probes = &file.probes;
    let mut reports = Vec::new();
    for (option, values) in option_values(&base) {
        let used: Vec<usize> = (0..probes.len())
            .filter(|&i| !probes[i].options.contains_key(&option))
            .collect();
        // ours[v][k]: our answer under value v to probe used[k].
        let mut ours: Vec<Vec<Answer>> = Vec::new();
        for value in &values {
            let mut row = Vec::new();
            for &i in &used {
                let rules =
                    probe_rules(base, &probes[i], Some((&option, value))).map_err(|refusal| {
                        IdentifyError::Probe {
                            probe: probes[i].name.clone(),
                            refusal,
                        }
                    })?;
                let answer = ReferenceEngine::new(rules)
                    .divide(&probes[i].query(base))
                    .map_err(|e| Refusal::Reference(e.kind));
                row.push(answer);
            }
            ours.push(row);
        }
        let mut theirs = Vec::new();
        for &i in &used {
            if let std::collections::btree_map::Entry::Vacant(slot) = answers.entry(i) {
                let answer = match engine.divide(&probes[i].query(base)) {
                    Ok(d) => Ok(d),
                    Err(e) => Err(refusal(&e).ok_or(IdentifyError::Engine(e))?),
                };
                slot.insert(answer);
            }
            theirs.push(answers[&i].clone());
        }
        let same = |a: &Answer, b: &Answer| match (a, b) {
            (Ok(x), Ok(y)) => x == y,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        let matches: Vec<usize> = (0..values.len())
            .map(|v| {
                (0..used.len())
                    .filter(|&k| same(&ours[v][k], &theirs[k]))
                    .count()
            })
            .collect();
        let full: Vec<usize> = (0..values.len())
            .filter(|&v| matches[v] == used.len())
            .collect();
        let deciding: Vec<String> = (0..used.len())
            .filter(|&k| (1..values.len()).any(|v| !same(&ours[v][k], &ours[0][k])))
            .map(|k| probes[used[k]].name.clone())
            .collect();
        let verdict = match full.as_slice() {
            [v] => Verdict::Agrees {
                value: values[*v].clone(),
                deciding,
            },
            [] => {
                let best = (0..values.len())
                    .max_by_key(|&v| (matches[v], std::cmp::Reverse(v)))
                    .unwrap_or(0);
                let k = (0..used.len())
                    .find(|&k| !same(&ours[best][k], &theirs[k]))
                    .unwrap_or(0);
                let probe = &probes[used[k]];
                let (bisection, refusal) = match (&ours[best][k], &theirs[k]) {
                    (Ok(_), Ok(_)) => {
                        let rules = probe_rules(base, probe, Some((&option, &values[best])))
                            .map_err(|refusal| IdentifyError::Probe {
                                probe: probe.name.clone(),
                                refusal,
                            })?;
                        let mut reference = ReferenceEngine::new(rules);
                        let b = bisect(&mut reference, engine, &probe.query(base), rules)
                            .map_err(|(_, e)| IdentifyError::Engine(e))?;
                        (Some(Box::new(b)), None)
                    }
                    (Err(why), _) => (
                        None,
                        Some(format!(
                            "under {} our reference refuses it: {why}",
                            values[best]
                        )),
                    ),
                    (_, Err(why)) => (None, Some(format!("the engine refuses it: {why}"))),
                };
                Verdict::MatchesNone {
                    closest: values[best].clone(),
                    probe: probe.name.clone(),
                    bisection,
                    refusal,
                }
            }
            several => Verdict::Undecided {
                values: several.iter().map(|&v| values[v].clone()).collect(),
                reason: file.undecidable.get(&option).cloned(),
            },
        };
        reports.push(OptionReport {
            option,
            values,
            probes: used.iter().map(|&i| probes[i].name.clone()).collect(),
            verdict,
        });
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::variant::VariantSpec;
    use crate::variant::{
        Colour, OptionSpec, Outcome, RuleHooksAt, SpecError, Variant, VariantHooks, Width,
    };

    /// The built-in probes are the files of `fixtures/identify/`, one per variant, each loading
    /// for its variant as the file does.
    #[test]
    fn the_built_in_probes_are_the_probe_files() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<String> = std::fs::read_dir(root.join("fixtures/identify"))
            .expect("the directory reads")
            .map(|e| {
                format!(
                    "fixtures/identify/{}",
                    e.expect("an entry").file_name().display()
                )
            })
            .filter(|name| name.ends_with(".yaml"))
            .collect();
        files.sort();
        let listed: Vec<String> = BUILT_IN_PROBES.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(files, listed);
        for id in crate::variants::IDS {
            let rules = crate::variants::rules(id).expect("registered");
            let (path, built_in) = built_in_probes(rules).expect("every variant has probes");
            let built_in = built_in.expect("the built-in probes load");
            let file = load_probes(&root.join(path), rules).expect("the file loads");
            assert_eq!(built_in.probes.len(), file.probes.len(), "{path}");
            assert!(!built_in.probes.is_empty(), "{path}");
        }
    }

    /// A test rule: with `lone-king = loses`, a side left with its King alone has lost.
    struct LoneKing;
    impl<B: Width> RuleHooksAt<B> for LoneKing {
        fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
            let alone = |c: Colour| pos.colour_bb(c).count() == 1;
            (pos.rules().is("lone-king", "loses") && alone(pos.side()))
                .then(|| Outcome::win(pos.side().flip()))
        }
    }

    fn test_rules() -> Rules {
        let spec = VariantSpec {
            id: "lone-king-test",
            name: "Chess with a test option",
            start_fen: "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
            castling: vec![],
            options: vec![OptionSpec::new(
                "lone-king",
                &["plays", "loses"],
                "TEST-1",
                "a lone King loses",
            )],
            rulings: &[],
            hooks: Some(|_: &Variant| -> Result<VariantHooks, SpecError> {
                Ok(VariantHooks::with_rules(LoneKing))
            }),
            ..crate::variants::chess::spec()
        };
        let variant: &'static Variant =
            Box::leak(Box::new(Variant::compile(spec).expect("test variant")));
        Rules::new(variant)
    }

    /// A probe file's refusals carry their reason as data, and their messages name the file
    /// and the probe.
    #[test]
    fn bad_probe_files_are_refused_with_their_reason() {
        let rules = crate::variants::rules("cerimon").expect("cerimon");
        let dir = std::env::temp_dir().join(format!("cvperft-probes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let refused = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("written");
            load_probes(&path, rules).expect_err(name)
        };
        let probes = "variant: cerimon\nprobes:\n";
        let e = refused(
            "twice.yaml",
            &format!("{probes}  - {{name: a, depth: 1}}\n  - {{name: a, depth: 1}}\n"),
        );
        assert!(
            matches!(&e, ProbeError::Probe { probe, reason, .. }
                if probe == "a" && **reason == ProbeReason::NameUsedTwice),
            "{e}"
        );
        assert!(
            e.to_string()
                .ends_with("twice.yaml:4, probe `a`: name used twice"),
            "{e}"
        );
        // Found by an attack: the errors named no line, and our own refusal read as an
        // engine's ("rejected a move").
        let e = refused(
            "lines.yaml",
            &format!(
                "{probes}  - name: \"a\"\n    depth: 1\n  - name: b\n    depth: 1\n    moves: e2e5\n"
            ),
        );
        assert!(
            e.to_string().contains(
                "lines.yaml:5, probe `b`: cvperft refuses it under every reading: rejected a \
                 move: "
            ),
            "{e}"
        );
        // A probe set aside in a comment is no probe; a block value runs to the line's end.
        let e = refused(
            "commented.yaml",
            &format!(
                "{probes}  # - name: b\n  #   depth: 2\n  - name: a, b\n    depth: 1\n  - name: a\n    \
                 depth: 1\n  - name: b  # the second\n    depth: 99\n"
            ),
        );
        assert!(
            e.to_string()
                .ends_with("commented.yaml:9, probe `b`: depth 99 (expected 1 to 8)"),
            "{e}"
        );
        let e = refused(
            "empty-name.yaml",
            &format!("{probes}  - {{name: '', depth: 1}}\n"),
        );
        assert!(
            e.to_string()
                .ends_with("empty-name.yaml:3, probe ``: the name is empty"),
            "{e}"
        );
        let e = refused(
            "depth.yaml",
            &format!("{probes}  - {{name: a, depth: 9}}\n"),
        );
        assert!(
            matches!(
                &e,
                ProbeError::Probe { reason, .. } if matches!(**reason, ProbeReason::Depth(9))
            ),
            "{e}"
        );
        let e = refused(
            "option.yaml",
            &format!("{probes}  - {{name: a, depth: 1, options: {{nope: x}}}}\n"),
        );
        assert!(
            matches!(
                &e,
                ProbeError::Probe { reason, .. } if matches!(**reason, ProbeReason::Refused(Refusal::Option(_)))
            ),
            "{e}"
        );
        let e = refused(
            "moves.yaml",
            &format!("{probes}  - {{name: a, depth: 1, moves: e2e5}}\n"),
        );
        assert!(
            matches!(
                &e,
                ProbeError::Probe { reason, .. } if matches!(**reason, ProbeReason::Refused(Refusal::Reference(_)))
            ),
            "{e}"
        );
        // 10,001 moves: refused before any is read, as `perft --moves` and suites refuse them.
        let e = refused(
            "many-moves.yaml",
            &format!(
                "{probes}  - {{name: a, depth: 1, moves: \"{}\"}}\n",
                "x ".repeat(MAX_MOVES + 1)
            ),
        );
        assert!(
            e.to_string().ends_with(
                "many-moves.yaml:3, probe `a`: moves: 10001 moves, at most 10000 are accepted"
            ),
            "{e}"
        );
        let e = refused("chess.yaml", "variant: chess\nprobes: []\n");
        assert!(
            matches!(&e, ProbeError::OtherVariant { found, expected: "cerimon", .. }
                if found == "chess"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn probe(name: &str, fen: &str, depth: u32) -> Probe {
        Probe {
            name: name.into(),
            fen: Some(fen.into()),
            moves: None,
            depth,
            options: BTreeMap::new(),
            note: None,
        }
    }

    fn file(probes: &[Probe]) -> ProbeFile {
        ProbeFile {
            variant: "lone-king-test".into(),
            probes: probes.to_vec(),
            undecidable: BTreeMap::new(),
        }
    }

    fn verdicts(engine_rules: Rules, probes: &[Probe]) -> Vec<(String, String)> {
        let base = test_rules();
        let mut engine = ReferenceEngine::new(engine_rules);
        identify(base, &file(probes), &mut engine)
            .expect("identify runs")
            .reports
            .into_iter()
            .map(|r| {
                let v = match r.verdict {
                    Verdict::Agrees { value, .. } => format!("agrees {value}"),
                    Verdict::Undecided { values, .. } => {
                        format!("undecided {}", values.join(" "))
                    }
                    Verdict::MatchesNone { closest, probe, .. } => {
                        format!("none, closest {closest} at {probe}")
                    }
                };
                (r.option, v)
            })
            .collect()
    }

    #[test]
    fn tells_the_option_values_apart() {
        let probes = [
            probe("quiet", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 2),
            probe("bare-black", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 1),
        ];
        let base = test_rules();
        let mut loses = base;
        loses.set("lone-king", "loses").expect("option");
        let plays = verdicts(base, &probes);
        assert_eq!(plays[0], ("lone-king".into(), "agrees plays".into()));
        // Under `plays`, game-end changes nothing on these probes.
        assert_eq!(
            plays[1],
            ("game-end".into(), "undecided rules movegen".into())
        );

        let found = verdicts(loses, &probes);
        assert_eq!(found[0], ("lone-king".into(), "agrees loses".into()));
        // Once `loses` is known, game-end is judged under it.
        assert_eq!(found[1], ("game-end".into(), "agrees rules".into()));
    }

    #[test]
    fn an_engine_no_value_explains_matches_none() {
        let probes = [
            probe("quiet", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 2),
            probe("en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", 1),
        ];
        let faults = crate::faults::Faults::parse("lone-king-test", &["no-en-passant".to_string()])
            .expect("fault");
        let mut engine = ReferenceEngine::with_faults(test_rules(), faults);
        let found = identify(test_rules(), &file(&probes), &mut engine).expect("identify runs");
        match &found.reports[0].verdict {
            Verdict::MatchesNone {
                closest,
                probe,
                bisection: Some(b),
                ..
            } => {
                assert_eq!((closest.as_str(), probe.as_str()), ("plays", "en-passant"));
                let missing: Vec<&str> = b
                    .last()
                    .comparison
                    .missing
                    .iter()
                    .map(|e| e.text.as_str())
                    .collect();
                assert_eq!(missing, ["e5d6"]);
            }
            other => panic!("unexpected verdict {other:?}"),
        }
    }

    #[test]
    fn suites_give_one_probe_per_position_and_depth_of_their_own_variant() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("suites/silver-elephant.yaml");
        let suites = crate::suite::load_all(&[path]).expect("the suite loads");
        let rules = crate::variants::rules("silver-elephant").expect("registered");
        let probes = probes_from_suites(&suites, rules);
        assert!(!probes.is_empty());
        for (i, p) in probes.iter().enumerate() {
            assert!(p.name.starts_with("silver-elephant:"), "{}", p.name);
            assert!((1..=MAX_PROBE_DEPTH).contains(&p.depth), "{}", p.name);
            assert!(p.options.is_empty(), "{}", p.name);
            assert!(p.note.as_deref().is_some_and(|n| n.contains(" under ")));
            let same = |q: &Probe| (&q.fen, &q.moves, q.depth) == (&p.fen, &p.moves, p.depth);
            assert!(!probes[i + 1..].iter().any(same), "{} twice", p.name);
        }
        let chess = crate::variants::rules("chess").expect("registered");
        assert!(probes_from_suites(&suites, chess).is_empty());
    }

    #[test]
    fn probes_fixing_the_option_are_left_out() {
        let mut fixed = probe("bare-black", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 1);
        fixed.options.insert("lone-king".into(), "loses".into());
        let reports = identify(
            test_rules(),
            &file(&[fixed]),
            &mut ReferenceEngine::new(test_rules()),
        );
        let reports = reports.expect("identify runs").reports;
        assert!(reports[0].probes.is_empty());
        assert!(matches!(reports[0].verdict, Verdict::Undecided { .. }));
    }
}

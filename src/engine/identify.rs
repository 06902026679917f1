//! Which reading of a disputed rule does an engine implement? For every rule option of a
//! variant (and `game-end`), compare the engine's divides on a set of probe positions with ours
//! under each value of the option: the value that matches on every probe is the engine's
//! reading. Probes come from data (`fixtures/identify/<variant>.yaml`), never from code.

use super::bisect::{Bisection, bisect};
use super::reference::ReferenceEngine;
use super::{Divide, Engine, EngineError, EngineErrorKind, Query};
use crate::variant::Rules;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

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
    #[serde(default)]
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
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Why this position tells readings apart.
    #[serde(default)]
    pub note: Option<String>,
}

/// A probe file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeError(pub String);

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProbeError {}

/// Reads and checks a probe file for `rules`' variant.
///
/// # Errors
/// Unreadable file, YAML that is not a probe file (with line and column), another variant, a
/// duplicate name, a depth of 0 or above [`MAX_PROBE_DEPTH`], an unknown option, or a probe
/// whose position or moves the reference refuses under every option value.
pub fn load_probes(path: &Path, rules: Rules) -> Result<ProbeFile, ProbeError> {
    let shown = path.display();
    let bytes = crate::fsio::read_capped(path, crate::suite::load::MAX_FILE_BYTES)
        .map_err(|e| ProbeError(format!("probe file {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ProbeError(format!("probe file {shown}: not UTF-8 text")))?;
    // As for suites: deep flow nesting would keep the YAML parser busy for minutes.
    use crate::suite::nesting::{MAX_FLOW_NESTING, check_flow_nesting};
    check_flow_nesting(&text, MAX_FLOW_NESTING)
        .map_err(|e| ProbeError(format!("probe file {shown}:{}:{}: {e}", e.line, e.column)))?;
    let file: ProbeFile =
        serde_yaml::from_str(&text).map_err(|e| ProbeError(format!("probe file {shown}: {e}")))?;
    let id = rules.variant.spec.id;
    if file.variant != id {
        return Err(ProbeError(format!(
            "probe file {shown} is for variant {}, not {id}",
            file.variant
        )));
    }
    let options = option_values(&rules);
    for name in file.undecidable.keys() {
        if !options.iter().any(|(o, _)| o == name) {
            return Err(ProbeError(format!(
                "probe file {shown}: undecidable: {id} has no option `{name}`"
            )));
        }
    }
    let mut seen = Vec::new();
    for probe in &file.probes {
        let here = format!("probe file {shown}, probe `{}`", probe.name);
        if seen.contains(&probe.name) {
            return Err(ProbeError(format!("{here}: name used twice")));
        }
        seen.push(probe.name.clone());
        if probe.depth == 0 || probe.depth > MAX_PROBE_DEPTH {
            return Err(ProbeError(format!(
                "{here}: depth {} (expected 1 to {MAX_PROBE_DEPTH})",
                probe.depth
            )));
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
                    .map_err(|e| e.kind.to_string())
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
        if !accepted {
            return Err(ProbeError(format!(
                "{here}: {}",
                first_error.unwrap_or_default()
            )));
        }
    }
    Ok(file)
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

/// `base` with the probe's fixed options, then `option = value` when given.
fn probe_rules(base: Rules, probe: &Probe, set: Option<(&str, &str)>) -> Result<Rules, String> {
    let mut rules = base;
    for (name, value) in &probe.options {
        rules.set(name, value).map_err(|e| e.to_string())?;
    }
    if let Some((name, value)) = set {
        rules.set(name, value).map_err(|e| e.to_string())?;
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
#[derive(Debug)]
pub enum IdentifyError {
    /// A probe the rules refuse under some option value.
    Probe(String),
    /// The engine (or our reference) failed.
    Engine(EngineError),
}

impl fmt::Display for IdentifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdentifyError::Probe(m) => f.write_str(m),
            IdentifyError::Engine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IdentifyError {}

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
pub type Answer = Result<Divide, String>;

/// An engine failure that means "I refuse this question" rather than "I am broken".
fn refusal(e: &EngineError) -> Option<String> {
    match &e.kind {
        EngineErrorKind::Rejected(m) | EngineErrorKind::IllegalMove(m) => Some(m.clone()),
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
/// A probe with an unknown option, or an engine failure other than refusing a probe.
pub fn identify(
    base: Rules,
    file: &ProbeFile,
    engine: &mut dyn Engine,
) -> Result<Identification, IdentifyError> {
    let mut answers: BTreeMap<usize, Answer> = BTreeMap::new();
    let mut assumed = base;
    let rounds = option_values(&base).len() + 1;
    let mut reports = Vec::new();
    for _ in 0..rounds {
        reports = identify_round(assumed, file, engine, &mut answers)?;
        let mut next = assumed;
        for r in &reports {
            if let Verdict::Agrees { value, .. } = &r.verdict {
                next.set(&r.option, value)
                    .map_err(|e| IdentifyError::Probe(e.to_string()))?;
            }
        }
        if next == assumed {
            break;
        }
        assumed = next;
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
                let rules = probe_rules(base, &probes[i], Some((&option, value))).map_err(|e| {
                    IdentifyError::Probe(format!("probe `{}`: {e}", probes[i].name))
                })?;
                let answer = ReferenceEngine::new(rules)
                    .divide(&probes[i].query(base))
                    .map_err(|e| e.kind.to_string());
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
                            .map_err(IdentifyError::Probe)?;
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

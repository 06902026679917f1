//! Which reading of a disputed rule does an engine implement? For every rule option of a
//! variant (and `game-end`), compare the engine's divides on a set of probe positions with ours
//! under each value of the option: the value that matches on every probe is the engine's
//! reading. Probes come from data (`fixtures/identify/<variant>.yaml`), never from code.

use super::bisect::{Bisection, bisect};
use super::reference::ReferenceEngine;
use super::{Divide, Engine, EngineError, Query};
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
/// whose position or moves the reference refuses.
pub fn load_probes(path: &Path, rules: Rules) -> Result<Vec<Probe>, ProbeError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ProbeError(format!("probe file {shown}: {e}")))?;
    let file: ProbeFile =
        serde_yaml::from_str(&text).map_err(|e| ProbeError(format!("probe file {shown}: {e}")))?;
    let id = rules.variant.spec.id;
    if file.variant != id {
        return Err(ProbeError(format!(
            "probe file {shown} is for variant {}, not {id}",
            file.variant
        )));
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
        let probe_rules =
            probe_rules(rules, probe, None).map_err(|e| ProbeError(format!("{here}: {e}")))?;
        ReferenceEngine::new(probe_rules)
            .position(&probe.query(rules))
            .map_err(|e| ProbeError(format!("{here}: {}", e.kind)))?;
    }
    Ok(file.probes)
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
    },
    /// No value matches.
    MatchesNone {
        /// The value matching the most probes (the default on a tie).
        closest: String,
        /// The first probe where the engine departs from it.
        probe: String,
        /// The descent from that probe to the first differing position.
        bisection: Box<Bisection>,
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

/// Identifies, for every option of `base`'s variant, which value `engine` implements.
/// `base` holds the values assumed for the options not under study.
///
/// # Errors
/// A probe the rules refuse, or an engine failure.
pub fn identify(
    base: Rules,
    probes: &[Probe],
    engine: &mut dyn Engine,
) -> Result<Vec<OptionReport>, IdentifyError> {
    let mut answers: BTreeMap<usize, Divide> = BTreeMap::new();
    let mut reports = Vec::new();
    for (option, values) in option_values(&base) {
        let used: Vec<usize> = (0..probes.len())
            .filter(|&i| !probes[i].options.contains_key(&option))
            .collect();
        // ours[v][k]: our divide for value v on probe used[k].
        let mut ours: Vec<Vec<Divide>> = Vec::new();
        for value in &values {
            let mut row = Vec::new();
            for &i in &used {
                let rules = probe_rules(base, &probes[i], Some((&option, value))).map_err(|e| {
                    IdentifyError::Probe(format!("probe `{}`: {e}", probes[i].name))
                })?;
                let mut reference = ReferenceEngine::new(rules);
                let d = reference.divide(&probes[i].query(base)).map_err(|e| {
                    IdentifyError::Probe(format!("probe `{}`: {e}", probes[i].name))
                })?;
                row.push(d);
            }
            ours.push(row);
        }
        let mut theirs = Vec::new();
        for &i in &used {
            let answer = match answers.entry(i) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => e.insert(
                    engine
                        .divide(&probes[i].query(base))
                        .map_err(IdentifyError::Engine)?,
                ),
            };
            theirs.push(answer.clone());
        }
        let matches: Vec<usize> = (0..values.len())
            .map(|v| (0..used.len()).filter(|&k| ours[v][k] == theirs[k]).count())
            .collect();
        let full: Vec<usize> = (0..values.len())
            .filter(|&v| matches[v] == used.len())
            .collect();
        let deciding: Vec<String> = (0..used.len())
            .filter(|&k| (1..values.len()).any(|v| ours[v][k] != ours[0][k]))
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
                    .find(|&k| ours[best][k] != theirs[k])
                    .unwrap_or(0);
                let probe = &probes[used[k]];
                let rules = probe_rules(base, probe, Some((&option, &values[best])))
                    .map_err(IdentifyError::Probe)?;
                let mut reference = ReferenceEngine::new(rules);
                let bisection = bisect(&mut reference, engine, &probe.query(base), rules)
                    .map_err(|(_, e)| IdentifyError::Engine(e))?;
                Verdict::MatchesNone {
                    closest: values[best].clone(),
                    probe: probe.name.clone(),
                    bisection: Box::new(bisection),
                }
            }
            several => Verdict::Undecided {
                values: several.iter().map(|&v| values[v].clone()).collect(),
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
    use crate::variant::{Colour, HandKind, Hooks, OptionSpec, Outcome, PieceSpec, Variant};

    /// A test rule: with `lone-king = loses`, a side left with its King alone has lost.
    struct LoneKing;
    impl Hooks for LoneKing {
        fn decided(&self, pos: &Position) -> Option<Outcome> {
            let alone = |c: Colour| pos.colour_bb(c).count() == 1;
            (pos.rules().is("lone-king", "loses") && alone(pos.side()))
                .then(|| Outcome::win(pos.side().flip()))
        }
    }

    fn test_rules() -> Rules {
        let spec = VariantSpec {
            id: "lone-king-test",
            name: "Chess with a test option",
            files: 8,
            ranks: 8,
            pieces: vec![
                PieceSpec::new("P", "Pawn", "fmWfcFifmnD").pawn(&["N", "B", "R", "Q"]),
                PieceSpec::new("N", "Knight", "N"),
                PieceSpec::new("B", "Bishop", "B"),
                PieceSpec::new("R", "Rook", "R"),
                PieceSpec::new("Q", "Queen", "Q"),
                PieceSpec::new("K", "King", "K").royal(),
            ],
            start_fen: "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
            castling: vec![],
            en_passant: true,
            hand: HandKind::None,
            jewel: false,
            options: vec![OptionSpec {
                name: "lone-king",
                values: &["plays", "loses"],
                ruling: "TEST-1",
                help: "a lone King loses",
            }],
            rulings: &[],
            hooks: &LoneKing,
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

    fn verdicts(engine_rules: Rules, probes: &[Probe]) -> Vec<(String, String)> {
        let base = test_rules();
        let mut engine = ReferenceEngine::new(engine_rules);
        identify(base, probes, &mut engine)
            .expect("identify runs")
            .into_iter()
            .map(|r| {
                let v = match r.verdict {
                    Verdict::Agrees { value, .. } => format!("agrees {value}"),
                    Verdict::Undecided { values } => format!("undecided {}", values.join(" ")),
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
        // The base assumes `plays`, which no game-end value reconciles with this engine.
        assert_eq!(
            found[1],
            ("game-end".into(), "none, closest rules at quiet".into())
        );
    }

    #[test]
    fn probes_fixing_the_option_are_left_out() {
        let mut fixed = probe("bare-black", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 1);
        fixed.options.insert("lone-king".into(), "loses".into());
        let reports = identify(
            test_rules(),
            &[fixed],
            &mut ReferenceEngine::new(test_rules()),
        );
        let reports = reports.expect("identify runs");
        assert!(reports[0].probes.is_empty());
        assert!(matches!(reports[0].verdict, Verdict::Undecided { .. }));
    }
}

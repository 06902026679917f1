//! The suites run against an external engine: `cvperft check --engine` for any front end.
//!
//! One engine per variant of the selected suites (a suite's variant may need another engine
//! variant name: a variant map `ID=NAME`, and `{variant}` in the command is replaced by that
//! name). An engine cannot be told a case's rule options, so the caller declares the readings
//! the engine implements (`name=value`, default: every option at its default, game-end as the
//! suite says) and checks of cases needing another reading are skipped with the reason. Before
//! the first check every engine is asked for the divide at depth 1 of its variant's start
//! position, so that an engine that cannot be used ends the run with an error instead of
//! failing every check. With `-j N` each variant's engine is a pool of N copies asked side by
//! side ([`super::pool`]); the results are the same as with one.

use super::options::{EngineOptionError, EngineOptions};
use super::{Engine, EngineError, EngineGenerator, EnginePool, Query};
use crate::echo::echo;
use crate::position::Position;
use crate::suite::check::NoAnswer;
use crate::suite::{Generator, PlannedCheck, Suite};
use crate::variant::{OptionError, Outcome};
use crate::variants;
use std::collections::BTreeMap;

/// The engine to run suites against, and what it plays.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteEngineOptions {
    /// How to start and talk to it; `{variant}` in the command is replaced by the engine's
    /// variant name for each suite's variant.
    pub engine: EngineOptions,
    /// `ID=NAME` entries: the engine's variant name for suites of cvperft variant ID; when
    /// any is given, suites of variants without an entry are skipped.
    pub variant_map: Vec<String>,
    /// `name=value` entries: the rule options the engine implements.
    pub readings: Vec<String>,
}

impl SuiteEngineOptions {
    /// `engine` with no variant map and no declared readings.
    pub fn new(engine: EngineOptions) -> SuiteEngineOptions {
        SuiteEngineOptions {
            engine,
            variant_map: Vec::new(),
            readings: Vec::new(),
        }
    }
}

/// Why the suites cannot be run against the engine.
#[derive(Debug, thiserror::Error)]
pub enum SuiteEngineError {
    /// A variant map or reading entry without a `=` or with an empty side.
    #[error("{flag} {} is not of the form {form}", echo(.entry))]
    NotAPair {
        /// `--engine-variant-map` or `--engine-reading`.
        flag: &'static str,
        /// The entry as given.
        entry: String,
        /// `ID=NAME` or `NAME=VALUE`.
        form: &'static str,
    },
    /// A variant map entry naming no variant of ours.
    #[error("--engine-variant-map: unknown variant {} (variants: {list})", echo(.0), list = variants::IDS.join(", "))]
    UnknownVariant(String),
    /// A variant mapped twice.
    #[error("--engine-variant-map: variant {} given twice", echo(.0))]
    VariantTwice(String),
    /// A reading with a value the option does not have.
    #[error("--engine-reading: {0}")]
    Reading(OptionError),
    /// A reading of an option no selected suite's variant has.
    #[error("--engine-reading: no selected suite's variant has option {}", echo(.0))]
    NoSuchOption(String),
    /// One option given two readings (the last would win silently).
    #[error("--engine-reading: option {} is given two different values; give it once", echo(.0))]
    ReadingTwice(String),
    /// Bad engine settings.
    #[error(transparent)]
    Options(#[from] EngineOptionError),
    /// The engine's command line cannot be used.
    #[error(transparent)]
    Open(EngineError),
    /// The engine could not answer the depth-1 question about its variant's start.
    #[error(
        "{error}; the engine cannot be used for the {variant} suites (choose suites with -v, or \
         the variants it plays with --engine-variant-map)"
    )]
    Unusable {
        /// The engine's answer.
        error: EngineError,
        /// The variant whose suites it was started for.
        variant: &'static str,
    },
}

/// One engine per variant, chosen by the position's variant.
pub struct EngineSuites {
    name: String,
    engines: BTreeMap<&'static str, EngineGenerator>,
    settings: BTreeMap<&'static str, EngineOptions>,
}

impl EngineSuites {
    /// The engines given up on after repeated time-outs or crashes, each with the reason.
    pub fn stopped(&self) -> Vec<String> {
        self.engines
            .iter()
            .filter_map(|(id, e)| e.stopped().map(|reason| format!("{id}: {reason}")))
            .collect()
    }

    /// Per variant whose engine refused most of the questions of the checks: whether it
    /// refused every one (none answered, none failed otherwise), and what it did (`chess:
    /// refused 12 of 13 questions, the first: ...`).
    pub fn refusing(&self) -> Vec<(bool, String)> {
        self.engines
            .iter()
            .filter_map(|(id, e)| {
                let (answered, refused, failed, first) = e.refusals();
                let asked = answered + refused + failed;
                let first = first.filter(|_| 2 * refused > asked)?;
                let questions = if asked == 1 { "question" } else { "questions" };
                Some((
                    refused == asked,
                    format!("{id}: refused {refused} of {asked} {questions}, the first: {first}"),
                ))
            })
            .collect()
    }

    /// The pool of engines asked about positions of `variant` (an id), if it was started:
    /// for callers that ask their own questions (a bisection after a failed check).
    pub fn pool(&self, variant: &str) -> Option<&EnginePool> {
        self.engines.get(variant).map(EngineGenerator::pool)
    }

    /// The settings the engine of `variant` was started with (its variant name filled in).
    pub fn settings(&self, variant: &str) -> Option<&EngineOptions> {
        self.settings.get(variant)
    }

    /// Lends the engine of `variant` to `f` (to bisect a failing check), if one was started.
    pub fn with_engine<R>(&self, variant: &str, f: impl FnOnce(&mut dyn Engine) -> R) -> Option<R> {
        self.engines.get(variant)?.with_engine(f)
    }

    fn pick(&self, pos: &Position) -> Result<&EngineGenerator, NoAnswer> {
        let id = pos.variant().spec.id;
        self.engines
            .get(id)
            .ok_or_else(|| NoAnswer::Unsupported(format!("no engine for variant {id}")))
    }
}

impl Generator for EngineSuites {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, NoAnswer> {
        self.pick(pos)?.perft(pos, depth)
    }
    fn divide(&self, pos: &Position, depth: u32) -> Result<Vec<(String, u64)>, NoAnswer> {
        self.pick(pos)?.divide(pos, depth)
    }
    fn legal_moves(&self, pos: &Position) -> Result<Vec<String>, NoAnswer> {
        self.pick(pos)?.legal_moves(pos)
    }
    fn outcome(&self, pos: &Position) -> Result<Option<Outcome>, NoAnswer> {
        self.pick(pos)?.outcome(pos)
    }
}

fn split_pair<'a>(
    entry: &'a str,
    flag: &'static str,
    form: &'static str,
) -> Result<(&'a str, &'a str), SuiteEngineError> {
    match entry.split_once('=') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => Ok((a.trim(), b.trim())),
        _ => Err(SuiteEngineError::NotAPair {
            flag,
            entry: entry.to_string(),
            form,
        }),
    }
}

/// Parses variant map entries: cvperft variant id → engine variant name.
fn variant_map(entries: &[String]) -> Result<BTreeMap<&'static str, String>, SuiteEngineError> {
    let mut map = BTreeMap::new();
    for entry in entries {
        let (id, name) = split_pair(entry, "--engine-variant-map", "ID=NAME")?;
        let variant =
            variants::get(id).ok_or_else(|| SuiteEngineError::UnknownVariant(id.to_string()))?;
        if map.insert(variant.spec.id, name.to_string()).is_some() {
            return Err(SuiteEngineError::VariantTwice(id.to_string()));
        }
    }
    Ok(map)
}

/// Parses reading entries, checking each against the selected suites' variants.
fn readings(
    entries: &[String],
    suites: &[Suite],
) -> Result<BTreeMap<String, String>, SuiteEngineError> {
    let mut out = BTreeMap::new();
    for entry in entries {
        let (name, value) = split_pair(entry, "--engine-reading", "NAME=VALUE")?;
        let mut known = false;
        for suite in suites {
            if name != "game-end" && suite.variant.option(name).is_none() {
                continue;
            }
            known = true;
            let mut rules = crate::variant::Rules::new(suite.variant);
            rules.set(name, value).map_err(SuiteEngineError::Reading)?;
        }
        if !known {
            return Err(SuiteEngineError::NoSuchOption(name.to_string()));
        }
        if out
            .insert(name.to_string(), value.to_string())
            .is_some_and(|first| first != value)
        {
            return Err(SuiteEngineError::ReadingTwice(name.to_string()));
        }
    }
    Ok(out)
}

/// The position a planned check runs on (None: an alternative no option selects).
fn position_of<'a>(suites: &'a [Suite], planned: &PlannedCheck) -> Option<&'a Position> {
    let case = &suites[planned.check.suite].cases[planned.check.case];
    match planned.check.alternative {
        None => Some(&case.position),
        Some(k) => case.alternatives[k].position.as_ref(),
    }
}

/// Why the engine cannot answer checks on `pos` given the readings it implements.
/// Undeclared options are taken at their default, and game-end at the suite's value.
fn reading_conflicts(
    pos: &Position,
    suite_game_end: &str,
    readings: &BTreeMap<String, String>,
) -> Option<String> {
    let spec = &pos.variant().spec;
    let mut conflicts = Vec::new();
    for (name, needed) in pos.rules().option_pairs() {
        let implemented = match readings.get(name) {
            Some(v) => v.as_str(),
            None if name == "game-end" => suite_game_end,
            None => match spec.options.iter().find(|o| o.name == name) {
                Some(o) => o.values[0],
                None => continue,
            },
        };
        if implemented != needed {
            conflicts.push(format!(
                "engine implements {name}={implemented}, case needs {name}={needed}"
            ));
        }
    }
    (!conflicts.is_empty()).then(|| conflicts.join("; "))
}

/// Marks the checks the engine cannot answer as skipped, starts one engine per variant that has
/// checks to run, and makes sure each can answer a depth-1 question about its start position.
/// Each variant's engine is a pool of up to `pool_size` copies ([`EnginePool`]: `check -j N`),
/// each with its own deadline and circuit breaker; the copies beyond the first start when the
/// open ones are all busy.
///
/// # Errors
/// Bad settings, a bad variant map or reading, or an engine that cannot be used.
pub fn prepare(
    options: &SuiteEngineOptions,
    suites: &[Suite],
    planned: &mut [PlannedCheck],
    pool_size: usize,
) -> Result<EngineSuites, SuiteEngineError> {
    let map = variant_map(&options.variant_map)?;
    let readings = readings(&options.readings, suites)?;
    // Check the engine settings before anything is skipped or started.
    options.engine.config()?;
    let mut needed: Vec<&'static str> = Vec::new();
    for p in planned.iter_mut() {
        if p.skip.is_some() {
            continue;
        }
        let Some(pos) = position_of(suites, p) else {
            continue;
        };
        let id = pos.variant().spec.id;
        if !map.is_empty() && !map.contains_key(id) {
            p.skip = Some(format!(
                "no --engine-variant-map entry for variant {id}: the engine is not run on it"
            ));
            continue;
        }
        let suite_game_end = suites[p.check.suite].game_end;
        if let Some(reason) = reading_conflicts(pos, suite_game_end, &readings) {
            p.skip = Some(reason);
            continue;
        }
        if !needed.contains(&id) {
            needed.push(id);
        }
    }
    let mut engines = BTreeMap::new();
    let mut started = BTreeMap::new();
    for id in needed {
        let Some(rules) = variants::rules(id) else {
            continue;
        };
        let engine_variant = map
            .get(id)
            .cloned()
            .or_else(|| options.engine.variant.clone());
        let mut settings = options.engine.clone();
        settings.command = with_variant(&settings.command, engine_variant.as_deref().unwrap_or(id));
        settings.variant = engine_variant;
        let config = settings.config()?;
        let mut opened = config.open(rules).map_err(SuiteEngineError::Open)?;
        let probe = Query::new(rules.start_fen(), &[], 1);
        if let Err(error) = opened.divide(&probe) {
            return Err(SuiteEngineError::Unusable { error, variant: id });
        }
        // The other members start on their first question, when every open one is busy.
        let pool = EnginePool::new(opened, pool_size, Box::new(move || config.open(rules)));
        engines.insert(id, EngineGenerator::pooled(pool));
        started.insert(id, settings);
    }
    Ok(EngineSuites {
        name: options.engine.command.clone(),
        engines,
        settings: started,
    })
}

/// The engine command with `{variant}` replaced by `name` inside each of its words: the name
/// stays within the word it is written in, whatever blanks or quotes it holds (it was pasted
/// into the text before the split, so `my chess` gave the engine two arguments and `x --opt`
/// one more option). A command that cannot be split is left as written, for the split to name
/// its error.
fn with_variant(command: &str, name: &str) -> String {
    if !command.contains("{variant}") {
        return command.to_string();
    }
    let Ok(words) = super::process::split_command(command) else {
        return command.to_string();
    };
    let quoted: Vec<String> = words
        .iter()
        .map(|w| super::process::quote_word(&w.replace("{variant}", name)))
        .collect();
    quoted.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_variant_name_stays_in_its_word() {
        let split = |command: &str, name: &str| {
            super::super::process::split_command(&with_variant(command, name)).expect("splits")
        };
        assert_eq!(
            with_variant("./engine --variant {variant} -q", "chess"),
            "./engine --variant chess -q"
        );
        assert_eq!(
            split("./e {variant} X", "my chess"),
            ["./e", "my chess", "X"]
        );
        assert_eq!(
            split("./e {variant} X", "x --inject no-en-passant"),
            ["./e", "x --inject no-en-passant", "X"]
        );
        assert_eq!(split("./e '{variant}' X", "it's"), ["./e", "it's", "X"]);
        assert_eq!(split("./e \"v={variant}\"", "a\nb"), ["./e", "v=a\nb"]);
        assert_eq!(split("'my engine' {variant}", ""), ["my engine", ""]);
        // Without the placeholder, and unsplittable, the command is as written.
        assert_eq!(with_variant("./e 'x y'", "chess"), "./e 'x y'");
        assert_eq!(with_variant("./e '{variant}", "chess"), "./e '{variant}");
    }

    #[test]
    fn readings_other_than_the_cases_are_reported() {
        let mut rules = variants::rules("chess").expect("chess");
        let pos = parse_position(rules, &rules.start_fen()).expect("start");
        assert_eq!(reading_conflicts(&pos, "rules", &BTreeMap::new()), None);
        assert_eq!(
            reading_conflicts(&pos, "movegen", &BTreeMap::new()).as_deref(),
            Some("engine implements game-end=movegen, case needs game-end=rules")
        );
        let mut declared = BTreeMap::new();
        declared.insert("game-end".to_string(), "movegen".to_string());
        assert_eq!(
            reading_conflicts(&pos, "rules", &declared).as_deref(),
            Some("engine implements game-end=movegen, case needs game-end=rules")
        );
        rules.set("game-end", "movegen").expect("option");
        let pos = parse_position(rules, &rules.start_fen()).expect("start");
        assert_eq!(reading_conflicts(&pos, "rules", &declared), None);
    }

    #[test]
    fn variant_maps_are_checked() {
        assert!(variant_map(&["chess=fairy".into()]).is_ok());
        for bad in ["nosuch=x", "chess", "chess=", "=x"] {
            assert!(variant_map(&[bad.into()]).is_err(), "{bad}");
        }
        assert!(matches!(
            variant_map(&["chess=a".into(), "chess=b".into()]),
            Err(SuiteEngineError::VariantTwice(id)) if id == "chess"
        ));
        assert_eq!(
            variant_map(&["chess".into()])
                .expect_err("no pair")
                .to_string(),
            "--engine-variant-map `chess` is not of the form ID=NAME"
        );
    }
}

//! `cvperft check --engine`: the suites run against an external engine.
//!
//! One engine per variant of the selected suites (a suite's variant may need another engine
//! variant name: `--engine-variant-map ID=NAME`, and `{variant}` in the command is replaced by
//! that name). An engine cannot be told a case's rule options, so the user declares the readings
//! the engine implements (`--engine-reading name=value`, default: every option at its default,
//! game-end as the suite says) and checks of cases needing another reading are skipped with the
//! reason. Before the first check every engine is asked for the divide at depth 1 of its
//! variant's start position, so that an engine that cannot be used ends the run with exit 2
//! instead of failing every check.

use super::Failure;
use super::diff::EngineArgs;
use anyhow::Result;
use cvperft::engine::{Engine, EngineGenerator, Query};
use cvperft::position::Position;
use cvperft::suite::check::NoAnswer;
use cvperft::suite::{Generator, PlannedCheck, Suite};
use cvperft::variant::Outcome;
use cvperft::variants;
use std::collections::BTreeMap;

/// One engine per variant, chosen by the position's variant.
pub struct EngineSuites {
    name: String,
    engines: BTreeMap<&'static str, EngineGenerator>,
}

impl EngineSuites {
    /// The engines given up on after repeated time-outs or crashes, each with the reason.
    pub fn stopped(&self) -> Vec<String> {
        self.engines
            .iter()
            .filter_map(|(id, e)| e.stopped().map(|reason| format!("{id}: {reason}")))
            .collect()
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

fn split_pair<'a>(text: &'a str, flag: &str, form: &str) -> Result<(&'a str, &'a str)> {
    match text.split_once('=') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => Ok((a.trim(), b.trim())),
        _ => Err(Failure::input(format!("{flag} `{text}` is not of the form {form}")).into()),
    }
}

/// Parses `--engine-variant-map` entries: cvperft variant id → engine variant name.
fn variant_map(entries: &[String]) -> Result<BTreeMap<&'static str, String>> {
    let mut map = BTreeMap::new();
    for entry in entries {
        let (id, name) = split_pair(entry, "--engine-variant-map", "ID=NAME")?;
        let variant = variants::get(id).ok_or_else(|| {
            Failure::input(format!(
                "--engine-variant-map: unknown variant `{id}` (variants: {})",
                variants::IDS.join(", ")
            ))
        })?;
        if map.insert(variant.spec.id, name.to_string()).is_some() {
            return Err(Failure::input(format!(
                "--engine-variant-map: variant `{id}` given twice"
            ))
            .into());
        }
    }
    Ok(map)
}

/// Parses `--engine-reading` entries, checking each against the selected suites' variants.
fn readings(entries: &[String], suites: &[Suite]) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for entry in entries {
        let (name, value) = split_pair(entry, "--engine-reading", "NAME=VALUE")?;
        let mut known = false;
        for suite in suites {
            let mut rules = variants::rules(suite.variant.spec.id).expect("a loaded variant");
            if name != "game-end" && suite.variant.option(name).is_none() {
                continue;
            }
            known = true;
            rules
                .set(name, value)
                .map_err(|e| Failure::input(format!("--engine-reading: {e}")))?;
        }
        if !known {
            return Err(Failure::input(format!(
                "--engine-reading: no selected suite's variant has option `{name}`"
            ))
            .into());
        }
        out.insert(name.to_string(), value.to_string());
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
///
/// # Errors
/// Bad `--engine-*` arguments, or an engine that cannot be used (exit 2, one line naming it).
pub fn prepare(
    engine: &EngineArgs,
    variant_map_entries: &[String],
    reading_entries: &[String],
    suites: &[Suite],
    planned: &mut [PlannedCheck],
) -> Result<EngineSuites> {
    let map = variant_map(variant_map_entries)?;
    let readings = readings(reading_entries, suites)?;
    // Validate the engine flags before anything is skipped or started.
    engine.config()?;
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
    for id in needed {
        let rules = variants::rules(id).expect("a loaded variant");
        let engine_variant = map
            .get(id)
            .cloned()
            .or_else(|| engine.settings.engine_variant.clone());
        let mut args = engine.clone();
        args.engine = args
            .engine
            .replace("{variant}", engine_variant.as_deref().unwrap_or(id));
        args.settings.engine_variant = engine_variant;
        let mut opened = args
            .config()?
            .open(rules)
            .map_err(|e| Failure::input(e.to_string()))?;
        let probe = Query::new(rules.start_fen(), &[], 1);
        if let Err(e) = opened.divide(&probe) {
            return Err(Failure::input(format!(
                "{e}; the engine cannot be used for the {id} suites (choose suites with -v, or \
                 the variants it plays with --engine-variant-map)"
            ))
            .into());
        }
        engines.insert(id, EngineGenerator::new(opened));
    }
    Ok(EngineSuites {
        name: engine.engine.clone(),
        engines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cvperft::notation::parse_position;

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
        assert!(variant_map(&["chess=a".into(), "chess=b".into()]).is_err());
    }
}

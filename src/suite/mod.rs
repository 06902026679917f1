//! Conformance suites: curated positions with expected counts and rule edge cases.
//!
//! A suite is a YAML file (`docs/suite-format.md`, `suites/schema.json`). Loading goes text →
//! [`model::SuiteFile`] (serde, unknown keys refused) → [`Suite`] (variant, options, rule ids,
//! FENs and moves all checked), and every problem becomes a [`LoadError`] naming the file, the
//! line and the case. A case yields checks ([`check`]); a [`plan::Selection`] chooses which run;
//! [`run::execute`] runs them against a [`check::Generator`] and hands back
//! [`result::CheckResult`]s for the renderers in [`crate::report`]. Nothing here prints.

pub mod aliases;
pub mod append;
pub mod budget;
pub mod builtin;
pub mod check;
pub mod load;
pub mod locate;
pub mod model;
pub mod nesting;
pub mod plan;
pub mod result;
pub mod run;

pub use check::{
    CheckKind, CheckRef, Generator, Reference, StoppableReference, checks_of, run_check,
};
pub use load::{
    Alternative, Case, Divide, Expectations, LoadError, Status as CaseStatus, Suite, discover,
    discover_each, load_bytes, load_file, load_str,
};
pub use plan::{PlannedCheck, Selection, SelectionError, Shard, ShardTextError, plan};
pub use result::{CheckResult, RunReport, Status, SuiteInfo, Summary};

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Discovers and loads every suite under `paths`.
///
/// # Errors
/// Every problem of every file, and every path or directory entry that cannot be read, in the
/// order of [`discover_each`] (a directory's entries sorted by name).
pub fn load_all(paths: &[PathBuf]) -> Result<Vec<Suite>, Vec<LoadError>> {
    let mut suites = Vec::new();
    let mut errors = Vec::new();
    // Two suites of one variant with one file stem (in different folders) would give every
    // check the same name: the second is refused.
    let mut names: BTreeMap<String, PathBuf> = BTreeMap::new();
    for found in discover_each(paths) {
        let file = match found {
            Ok(file) => file,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        match load_file(&file) {
            Ok(s) => match names.entry(s.prefix()) {
                Entry::Occupied(first) => errors.push(LoadError {
                    file,
                    line: None,
                    column: None,
                    case: None,
                    reason: Box::new(load::LoadReason::SameName {
                        name: first.key().clone(),
                        first: first.get().clone(),
                    }),
                }),
                Entry::Vacant(slot) => {
                    slot.insert(file);
                    suites.push(s);
                }
            },
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(suites)
    } else {
        Err(errors)
    }
}

/// Header information for reports: the suites `planned` has at least one check of, in their
/// order (a suite that `-v`, `--filter` or `--shard` left without a check ran nothing, so a
/// report neither counts nor lists it).
pub fn suite_infos(suites: &[Suite], planned: &[PlannedCheck]) -> Vec<SuiteInfo> {
    let selected: BTreeSet<usize> = planned.iter().map(|p| p.check.suite).collect();
    suites
        .iter()
        .enumerate()
        .filter(|(i, _)| selected.contains(i))
        .map(|(_, s)| SuiteInfo {
            file: s.path.clone(),
            name: s.prefix(),
            variant: s.variant.spec.id.to_string(),
            game_end: s.game_end.to_string(),
            description: s.description.trim().to_string(),
        })
        .collect()
}

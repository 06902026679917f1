//! The flags that choose checks from suites (`--filter`, `--rule`, `--variant`, `--slow`,
//! `--max-nodes`, `--shard`), shared by `cvperft check` and `cvperft export` with the same
//! meaning and messages, and the loading of the suites both read.

use super::Failure;
use anyhow::Result;
use clap::Args;
use cvperft::conformance::{self, CheckError};
use cvperft::suite::{Selection, Shard, ShardTextError, Suite};
use std::path::PathBuf;

/// Loads every suite under `paths`, refusing none at all.
///
/// # Errors
/// A [`Failure`] (exit 2): every problem of every file is printed on stderr, the last one is
/// the failure's message; or no suite under `paths`.
pub fn load_suites(paths: &[PathBuf]) -> Result<Vec<Suite>> {
    conformance::load_suites(paths).map_err(|e| refused(e).into())
}

/// Where `check` and `export` look for suites when given no PATH.
pub const DEFAULT_SUITES: &str = "suites";

/// The suites under `paths`; with none, those under `./suites` when it exists (in any form: a
/// file or a broken link there is read, and refused, as a PATH would be), else the suites built
/// into cvperft ([`cvperft::suite::builtin`]), said on stderr.
///
/// # Errors
/// As [`load_suites`].
pub fn load_suites_or_built_in(paths: &[PathBuf]) -> Result<Vec<Suite>> {
    if !paths.is_empty() {
        return load_suites(paths);
    }
    let default = PathBuf::from(DEFAULT_SUITES);
    if default.symlink_metadata().is_ok() {
        return load_suites(&[default]);
    }
    let suites = cvperft::suite::builtin::load().map_err(|e| refused(CheckError::Load(e)))?;
    super::say(&format!(
        "no {DEFAULT_SUITES}/ here: reading the {} suites built into cvperft {} \
         (give PATH for others)",
        suites.len(),
        env!("CARGO_PKG_VERSION")
    ));
    Ok(suites)
}

/// A refusal of the library's check steps as a [`Failure`] (exit 2); of load errors, all but
/// the last are printed on stderr at once, the last is the failure's message.
pub fn refused(error: CheckError) -> Failure {
    match error {
        CheckError::Load(errors) => {
            let Some((last, before)) = errors.split_last() else {
                return Failure::input("the suites could not be read");
            };
            for e in before {
                super::say(&e.to_string());
            }
            Failure::input(last.to_string())
        }
        other => Failure::input(other.to_string()),
    }
}

/// Which checks of the suites to take.
#[derive(Args, Debug, Clone)]
pub struct SelectionArgs {
    /// Only checks whose name (`variant::file::case::check`) contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Only cases citing this ruling id (e.g. GE-1).
    #[arg(long, value_name = "ID")]
    pub rule: Option<String>,
    /// Only suites of this variant.
    #[arg(short = 'v', long = "variant", value_name = "ID")]
    pub variant: Option<String>,
    /// Shard K of N (1-based): cases dealt out by expected cost, deterministically.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Include cases marked slow.
    #[arg(long)]
    pub slow: bool,
    /// Include cases marked deep (hours of CPU; --slow does not include them).
    #[arg(long)]
    pub deep: bool,
    /// Leave out perft and divide checks expecting more than N leaf nodes (`check` reports
    /// them as skipped).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
}

fn parse_shard(text: &str) -> Result<Shard, ShardTextError> {
    text.parse()
}

impl SelectionArgs {
    /// The selection, unchecked.
    pub fn selection(&self) -> Selection {
        Selection {
            filter: self.filter.clone(),
            rule: self.rule.clone(),
            variant: self.variant.clone(),
            slow: self.slow,
            deep: self.deep,
            max_nodes: self.max_nodes,
            shard: self.shard,
        }
    }

    /// The selection, with `--variant` and `--rule` checked against what exists.
    ///
    /// # Errors
    /// A [`Failure`] (exit 2) naming the unknown variant or ruling and listing the known ones.
    pub fn validated(&self) -> Result<Selection> {
        let selection = self.selection();
        selection
            .validate()
            .map_err(|e| Failure::input(e.to_string()))?;
        Ok(selection)
    }
}

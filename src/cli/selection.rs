//! The flags that choose checks from suites (`--filter`, `--rule`, `--variant`, `--slow`,
//! `--max-nodes`, `--shard`), validated into a [`Selection`] before anything runs.
//!
//! `cvperft export` uses them as `cvperft check` does, with the same meaning and messages.

use super::Failure;
use anyhow::Result;
use clap::Args;
use cvperft::suite::{Selection, Shard, Suite, load_all};
use cvperft::variants;
use std::path::PathBuf;

/// Loads every suite under `paths`, refusing none at all.
///
/// # Errors
/// A [`Failure`] (exit 2): every problem of every file is printed on stderr, the last one is
/// the failure's message; or no suite under `paths`.
pub fn load_suites(paths: &[PathBuf]) -> Result<Vec<Suite>> {
    let suites = match load_all(paths) {
        Ok(s) => s,
        Err(errors) => {
            let Some((last, before)) = errors.split_last() else {
                return Err(Failure::input("the suites could not be read").into());
            };
            for e in before {
                super::say(&e.to_string());
            }
            return Err(Failure::input(last.to_string()).into());
        }
    };
    if suites.is_empty() {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::input(format!("no suite (*.yaml) in {}", paths.join(" "))).into());
    }
    Ok(suites)
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
    /// Leave out perft and divide checks expecting more than N leaf nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

impl SelectionArgs {
    /// The selection, with `--variant` and `--rule` checked against what exists.
    ///
    /// # Errors
    /// A [`Failure`] (exit 2) naming the unknown variant or ruling and listing the known ones.
    pub fn selection(&self) -> Result<Selection> {
        if let Some(v) = &self.variant
            && variants::get(v).is_none()
        {
            return Err(Failure::input(format!(
                "--variant: unknown variant `{v}` (variants: {})",
                variants::IDS.join(", ")
            ))
            .into());
        }
        if let Some(rule) = &self.rule {
            let mut known: Vec<&str> = variants::all()
                .iter()
                .flat_map(|v| v.spec.rulings.iter().copied())
                .collect();
            known.sort();
            known.dedup();
            if !known.contains(&rule.as_str()) {
                return Err(Failure::input(format!(
                    "--rule: no variant cites ruling `{rule}` (rulings: {})",
                    known.join(", ")
                ))
                .into());
            }
        }
        Ok(Selection {
            filter: self.filter.clone(),
            rule: self.rule.clone(),
            variant: self.variant.clone(),
            slow: self.slow,
            deep: self.deep,
            max_nodes: self.max_nodes,
            shard: self.shard,
        })
    }
}

//! `perft --split K --shard I/N --format json` and `merge`: the command-line side of
//! [`cvperft::shards`] (shard numbers parsed, report files read with a size cap, errors made
//! exit 2).

use super::Failure;
use anyhow::Result;
use cvperft::fsio;
use cvperft::shards::{self, MAX_REPORT_BYTES, ShardReport};

/// Parses `I/N` (1-based).
///
/// # Errors
/// Not two positive numbers with I ≤ N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || {
        Failure::input(format!(
            "--shard `{text}`: expected K/N with 1 <= K <= N, e.g. 2/4"
        ))
    };
    cvperft::suite::plan::k_of_n(text).ok_or_else(bad)
}

/// Reads shard files (each at most [`MAX_REPORT_BYTES`]) and sums them, checking every shard
/// is present once, consistent, and made of the split's paths.
///
/// # Errors
/// Unreadable or malformed files, or any problem [`shards::merge`] finds (exit 2).
pub fn merge(files: &[std::path::PathBuf]) -> Result<u128> {
    if files.is_empty() {
        anyhow::bail!(Failure::input("merge: no shard files given"));
    }
    let mut reports = Vec::with_capacity(files.len());
    for file in files {
        let name = file.display().to_string();
        let bytes = fsio::read_capped(file, MAX_REPORT_BYTES)
            .map_err(|e| Failure::input(format!("cannot read {name}: {}", e.reason)))?;
        // A byte-order mark (some Windows editors save one) is not part of the report.
        let json = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
        let report: ShardReport = serde_json::from_slice(json).map_err(|e| {
            if let Some(what) = deep_file(json) {
                return Failure::input(format!("{name}: {what}"));
            }
            Failure::input(format!(
                "{name}: line {}, column {}: not a shard report: {}",
                e.line(),
                e.column(),
                cvperft::deep::json_message(&e, &String::from_utf8_lossy(json))
            ))
        })?;
        reports.push((name, report));
    }
    Ok(shards::merge(&reports).map_err(|e| Failure::input(e.to_string()))?)
}

/// What a file given to `merge` as a shard report is instead, when its first line says it is a
/// plan or a results file of `work` (a plan is looked for only in regular files: one given as
/// a pipe, FIFO or device is read as a shard report).
fn deep_file(bytes: &[u8]) -> Option<&'static str> {
    let first = bytes.split(|&b| b == b'\n').next()?;
    let value: serde_json::Value = serde_json::from_slice(first).ok()?;
    match value.get("format")?.as_str()? {
        cvperft::deep::plan::PLAN_FORMAT => Some(
            "is a plan given as a pipe, FIFO or device; `merge` reads a plan only from a \
             regular file (save it to one first)",
        ),
        cvperft::deep::results::RESULTS_FORMAT => {
            Some("is a results file of `work`; give its plan too: `merge PLAN RESULTS...`")
        }
        _ => None,
    }
}

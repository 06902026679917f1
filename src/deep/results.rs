//! Result files of `work`: a header line, then one line per counted unit, appended as each unit
//! finishes. A rerun reads the file, keeps every complete line, cuts off a last line that a
//! killed run left without its newline (that unit is counted again, never summed half-written)
//! and counts only the units still missing.

use super::{DeepError, DeepReason, json_error, read_line};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// Format marker of result files.
pub const RESULTS_FORMAT: &str = "cvperft-results-1";

/// The first line of a result file: which plan and shard, and how the units were counted.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResultsHeader {
    /// [`RESULTS_FORMAT`].
    pub format: String,
    /// The plan's identity.
    pub plan: String,
    /// Shard index, from 1.
    pub shard: usize,
    /// Number of shards.
    pub shards: usize,
    /// Hash key seed of the (first) count (0: the built-in keys).
    pub seed: u64,
    /// Whether each unit was counted twice (see `work --verify`).
    pub verify: bool,
}

/// One counted unit.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UnitResult {
    /// Unit index in the plan.
    pub unit: usize,
    /// perft(remaining depth) of the unit's position, decimal.
    pub count: String,
    /// Counted twice, independently, with equal results.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
}

/// A unit read back from a result file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadUnit {
    /// Line in the file (1-based).
    pub line: usize,
    /// The count.
    pub count: u64,
    /// Whether it was verified.
    pub verified: bool,
}

/// What a result file holds.
#[derive(Clone, Debug)]
pub struct ReadResults {
    /// The header, if the file has a complete one.
    pub header: Option<ResultsHeader>,
    /// Units by index.
    pub units: BTreeMap<usize, ReadUnit>,
    /// Bytes up to the end of the last complete line.
    pub complete_bytes: u64,
    /// Whether a last line without newline follows (a write cut short).
    pub cut_short: bool,
}

/// What `merge` knows a result file must hold: results of this plan, of its units. Checked
/// as the file is read, so that a file of another plan, or one that goes on for ever (a pipe
/// fed without end), is refused at its header or at its first unit past the plan, before
/// more is read or kept.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    /// The plan's identity.
    pub plan: &'a str,
    /// The plan's number of units.
    pub units: usize,
}

/// Reads a result file, checking every complete line (and, with `expected`, the plan and the
/// unit numbers).
///
/// # Errors
/// An unreadable file, a malformed line, a unit given twice; with `expected`, a file of
/// another plan, a unit past the plan's.
pub fn read(path: &Path, expected: Option<Expected>) -> Result<ReadResults, DeepError> {
    let name = path.display().to_string();
    let file = crate::fsio::open_read(path).map_err(|e| {
        DeepError::from(DeepReason::CannotOpen {
            file: name.clone(),
            error: e.reason.to_string(),
        })
    })?;
    let mut input = BufReader::new(file);
    let mut out = ReadResults {
        header: None,
        units: BTreeMap::new(),
        complete_bytes: 0,
        cut_short: false,
    };
    let mut line_no = 0;
    while let Some(line) = read_line(&mut input, &name, line_no + 1)? {
        line_no += 1;
        // A shard report is one JSON document, pretty-printed (`{` alone on line 1) or not, and
        // perhaps with no line break at its end (a results header cut after its `{` is a file
        // cut short, which `work` resumes).
        let text = line.text.trim();
        if line_no == 1 && ((line.complete && text == "{") || text.contains(crate::shards::FORMAT))
        {
            return Err(DeepError::at(&name, 1, DeepReason::ShardReport));
        }
        if !line.complete {
            out.cut_short = true;
            break;
        }
        // Counted as read, not as kept: a byte-order mark opening the file is not in the text,
        // and a cut counted from the text cut into the last complete line.
        out.complete_bytes += line.bytes;
        let json = |what: &'static str, e: serde_json::Error| {
            json_error(&name, line_no, what, &e, &line.text)
        };
        if line_no == 1 {
            let header: ResultsHeader =
                serde_json::from_str(&line.text).map_err(|e| json("a results header", e))?;
            if header.format != RESULTS_FORMAT {
                return Err(DeepError::at(
                    &name,
                    1,
                    DeepReason::Format {
                        found: header.format,
                        expected: RESULTS_FORMAT,
                    },
                ));
            }
            if header.shard == 0
                || header.shard > header.shards
                || header.shards > crate::shards::MAX_SHARDS
            {
                return Err(DeepError::at(
                    &name,
                    1,
                    DeepReason::ShardRange {
                        shard: header.shard,
                        shards: header.shards,
                    },
                ));
            }
            if let Some(expected) = expected
                && header.plan != expected.plan
            {
                return Err(DeepError::of(
                    &name,
                    DeepReason::OtherPlan {
                        found: header.plan,
                        plan: expected.plan.to_string(),
                    },
                ));
            }
            out.header = Some(header);
            continue;
        }
        let unit: UnitResult =
            serde_json::from_str(&line.text).map_err(|e| json("a unit result", e))?;
        let count = parse_count(&unit.count).map_err(|r| DeepError::at(&name, line_no, r))?;
        if let Some(expected) = expected
            && unit.unit >= expected.units
        {
            return Err(DeepError::at(
                &name,
                line_no,
                DeepReason::NotInPlan {
                    unit: unit.unit,
                    units: expected.units,
                },
            ));
        }
        if let Some(header) = &out.header
            && header.verify != unit.verified
        {
            return Err(DeepError::at(
                &name,
                line_no,
                DeepReason::VerifiedAgainstHeader {
                    unit: unit.unit,
                    verify: header.verify,
                },
            ));
        }
        if let Some(before) = out.units.get(&unit.unit) {
            return Err(DeepError::at(
                &name,
                line_no,
                DeepReason::TwiceInFile {
                    unit: unit.unit,
                    line: before.line,
                },
            ));
        }
        out.units.insert(
            unit.unit,
            ReadUnit {
                line: line_no,
                count,
                verified: unit.verified,
            },
        );
    }
    Ok(out)
}

/// A unit's count: decimal digits only, as `work` writes it (Rust's parse also took `+5`,
/// which the shard reports' counts refuse), below 2^64 (one unit's perft is a u64).
fn parse_count(text: &str) -> Result<u64, DeepReason> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DeepReason::CountField(text.to_string()));
    }
    text.parse()
        .map_err(|_| DeepReason::CountTooLarge(text.to_string()))
}

/// Appends unit results to a result file, one complete line per write, synchronised to disk
/// with a line written at least a second after the last synchronisation, and at the end (a
/// killed process loses nothing written; a machine that stops loses the lines written since
/// the last synchronisation, counted again on the rerun: a line that came less than a second
/// after one waits for the next line).
///
/// A write that fails part-way (a full disk, a file size limit) leaves part of a line; it is
/// cut off again at once, and the writer refuses every later line: another worker's complete
/// line appended after the fragment (once space was freed) made the file unreadable, so that
/// neither a rerun nor `merge` would take it.
pub struct ResultsWriter {
    file: File,
    name: String,
    last_sync: Instant,
    /// Bytes of complete lines in the file.
    len: u64,
    /// The error of a failed write, after which nothing more is appended.
    broken: Option<String>,
}

/// Holds an exclusive lock on the file so that two runs never append to one file.
fn lock(file: &File, name: &str) -> Result<(), DeepError> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor we own; no memory is passed.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        return Err(DeepReason::Locked(name.to_string()).into());
    }
    Ok(())
}

impl ResultsWriter {
    /// Opens `path` for `header`: creates it with the header, or resumes it when it holds
    /// results of the same plan, shard and settings (a cut-short last line is removed).
    /// Returns the writer and the units already counted.
    ///
    /// # Errors
    /// The file holds something else (another plan, shard or setting), is malformed, locked
    /// by another run, or cannot be written.
    pub fn open(
        path: &Path,
        header: &ResultsHeader,
    ) -> Result<(ResultsWriter, BTreeMap<usize, ReadUnit>), DeepError> {
        let name = path.display().to_string();
        let cannot = |e: std::io::Error| cannot_write(&name, &e);
        // Not blocking on a FIFO: only a regular file is appended to and resumed (a FIFO or a
        // device would never read back what was written, and reading a FIFO held open here
        // would wait for ever).
        // An existing file without write permission is refused, also for root, who could
        // write anyway (as `plan --output` refuses one); a file created now has the umask's.
        if let Ok(meta) = std::fs::metadata(path) {
            let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777;
            if meta.is_file() && mode & 0o222 == 0 {
                return Err(DeepReason::ReadOnly { file: name, mode }.into());
            }
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(path)
            .map_err(cannot)?;
        if !file.metadata().map_err(cannot)?.is_file() {
            return Err(DeepReason::NotRegular(name).into());
        }
        lock(&file, &name)?;
        let existing = read(path, None)?;
        let mut writer = ResultsWriter {
            file,
            name: name.clone(),
            last_sync: Instant::now(),
            len: existing.complete_bytes,
            broken: None,
        };
        match &existing.header {
            Some(found) if found != header => {
                return Err(DeepReason::OtherRun {
                    file: name,
                    found: Box::new(found.clone()),
                    wanted: Box::new(header.clone()),
                }
                .into());
            }
            Some(_) => {
                if existing.cut_short {
                    writer
                        .file
                        .set_len(existing.complete_bytes)
                        .map_err(cannot)?;
                }
            }
            None => {
                // No complete header: an empty file, or the start of this run's header cut
                // short by a killed run. Anything else is somebody's file, not overwritten.
                let line = serde_json::to_string(header).map_err(|e| serialise(&name, &e))?;
                if existing.cut_short && !header_cut_short(path, &line) {
                    return Err(DeepError::at(&name, 1, DeepReason::NotResults));
                }
                writer.file.set_len(0).map_err(cannot)?;
                writer.len = 0;
                writer.write_line(&line)?;
            }
        }
        Ok((writer, existing.units))
    }

    /// Appends `line` and its newline whole, or cuts off whatever part of it was written.
    fn write_line(&mut self, line: &str) -> Result<(), DeepError> {
        if let Some(error) = &self.broken {
            return Err(DeepReason::CannotWrite {
                file: self.name.clone(),
                error: error.clone(),
            }
            .into());
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match self.file.write_all(&bytes) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Shrinking a file needs no space. Should even that fail, the fragment stays
                // without its newline, which a rerun cuts off and `merge` refuses.
                let _ = self.file.set_len(self.len);
                self.broken = Some(e.to_string());
                Err(cannot_write(&self.name, &e))
            }
        }
    }

    /// Appends one result.
    ///
    /// # Errors
    /// A write error.
    pub fn append(&mut self, result: &UnitResult) -> Result<(), DeepError> {
        let line = serde_json::to_string(result).map_err(|e| serialise(&self.name, &e))?;
        self.write_line(&line)?;
        if self.last_sync.elapsed() >= Duration::from_secs(1) {
            self.sync()?;
        }
        Ok(())
    }

    /// Forces everything written to disk.
    ///
    /// # Errors
    /// The disk refuses.
    pub fn sync(&mut self) -> Result<(), DeepError> {
        self.last_sync = Instant::now();
        self.file
            .sync_data()
            .map_err(|e| cannot_write(&self.name, &e))
    }
}

/// Whether `path` holds only the beginning of the header line `line` (without its newline):
/// what a run killed while writing the header leaves. A longer file is refused by the cap, an
/// unreadable one is not such a start either.
fn header_cut_short(path: &Path, line: &str) -> bool {
    crate::fsio::read_capped(path, line.len() as u64)
        .is_ok_and(|bytes| line.as_bytes().starts_with(&bytes))
}

/// `cannot write FILE: ERROR`.
fn cannot_write(file: &str, e: &std::io::Error) -> DeepError {
    DeepReason::CannotWrite {
        file: file.to_string(),
        error: e.to_string(),
    }
    .into()
}

/// `FILE: ERROR` for a value serde cannot write.
fn serialise(file: &str, e: &serde_json::Error) -> DeepError {
    DeepError::of(
        file,
        DeepReason::Serialise {
            what: String::new(),
            message: e.to_string(),
        },
    )
}

//! Where a report goes: standard output, or `--output FILE` written so that nobody ever sees
//! half of it (`check` and `export`).
//!
//! A regular file is replaced by a temporary file beside it, renamed over it once the whole
//! report is written ([`cvperft::fsio`]: unguessable name, created exclusively, links
//! followed, owner and mode kept, removed on error and on a signal); a device or FIFO is
//! written directly; a directory, a socket or a suite the run reads is refused before any
//! work.

use super::Failure;
use anyhow::Result;
use cvperft::fsio::{self, OutputTarget, TempFile};
use cvperft::suite::Suite;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where the report goes: standard output, a temporary file renamed over the target on success,
/// or a device or FIFO written directly.
pub enum Sink<'a> {
    /// No `--output`.
    Stdout(&'a mut dyn Write),
    /// A regular file, new or not: a temporary file until [`Sink::commit`].
    Replace {
        /// The temporary file.
        writer: BufWriter<TempFile>,
        /// The file it replaces (links followed).
        target: PathBuf,
    },
    /// A device or FIFO.
    Direct {
        /// The device or FIFO, opened.
        writer: BufWriter<File>,
        /// Its path.
        target: PathBuf,
    },
}

impl Sink<'_> {
    /// Opens `--output` (standard output when there is none), refusing the run's inputs
    /// (`suites`), directories and sockets.
    ///
    /// # Errors
    /// A refused or unwritable target (exit 2, naming the `--output` file); `-`, which would
    /// otherwise become a file of that name where standard output was meant.
    pub fn open<'a>(
        output: Option<&Path>,
        suites: &[Suite],
        stdout: &'a mut dyn Write,
    ) -> Result<Sink<'a>> {
        let Some(path) = output else {
            return Ok(Sink::Stdout(stdout));
        };
        if path == Path::new("-") {
            // Read as standard output by habit, it would quietly become a file named `-`.
            return Err(Failure::input(
                "--output -: leave out --output to write to standard output \
                 (a file named `-` is written as --output ./-)",
            )
            .into());
        }
        let inputs: Vec<(u64, u64)> = suites
            .iter()
            .filter_map(|s| fsio::identity(&s.path))
            .collect();
        let refused = |e: fsio::FileError| -> anyhow::Error {
            let message = format!("--output {e}");
            if matches!(e.reason, fsio::FileReason::OutputIsStream(_))
                && fsio::is_standard_error_by_name(path)
            {
                super::OutputIsStandardError(message).into()
            } else {
                Failure::input(message).into()
            }
        };
        Ok(match fsio::output_target(path, &inputs).map_err(refused)? {
            OutputTarget::Replace { real, like } => Sink::Replace {
                writer: BufWriter::new(TempFile::beside(&real, like.as_ref()).map_err(refused)?),
                target: real,
            },
            OutputTarget::Direct(target) => Sink::Direct {
                writer: BufWriter::new(fsio::open_direct(&target).map_err(refused)?),
                target,
            },
        })
    }

    /// Whether the report goes to a file or device rather than standard output.
    pub fn is_file(&self) -> bool {
        !matches!(self, Sink::Stdout(_))
    }

    /// Where the report is written.
    pub fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => *w,
            Sink::Replace { writer, .. } => writer,
            Sink::Direct { writer, .. } => writer,
        }
    }

    /// A write error, naming the `--output` file (standard output's errors are left as they
    /// are: [`super::output::Stdout`] has named them already).
    pub fn failed(&self, e: std::io::Error) -> anyhow::Error {
        match self {
            Sink::Stdout(_) => e.into(),
            Sink::Replace { target, .. } | Sink::Direct { target, .. } => {
                Failure::input(format!("--output {}: {e}", target.display())).into()
            }
        }
    }

    /// Flushes the report and, for a temporary file, renames it into place.
    ///
    /// # Errors
    /// Writing or renaming failed (exit 2, naming the `--output` file).
    pub fn commit(self) -> Result<()> {
        let writing = |target: &Path, e: std::io::Error| {
            Failure::input(format!("--output {}: {e}", target.display()))
        };
        match self {
            Sink::Stdout(w) => Ok(w.flush()?),
            Sink::Replace { writer, target } => {
                let temp = writer
                    .into_inner()
                    .map_err(|e| writing(&target, e.into_error()))?;
                temp.commit(&target, None)
                    .map_err(|e| Failure::input(format!("--output {e}")))?;
                Ok(())
            }
            Sink::Direct { mut writer, target } => {
                writer.flush().map_err(|e| writing(&target, e))?;
                Ok(())
            }
        }
    }
}

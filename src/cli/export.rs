//! `cvperft export`: suites written as EPD, python-chess `.perft` files or JSON Lines
//! (`docs/export.md`), the checks chosen with the same flags as `cvperft check`.
//!
//! The text comes from the library ([`cvperft::export`]); this command only parses arguments
//! and writes. `--output` never leaves a half-written file: the text goes to a new temporary
//! file beside the target (created exclusively, under a name nobody can guess), which is then
//! renamed into place; it refuses to write over a suite it reads, and writes a device or a
//! FIFO directly instead of replacing it.

use super::Failure;
use super::selection::{SelectionArgs, load_suites, refused};
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use cvperft::conformance::plan_checks;
use cvperft::export::{ExportFormat, export_planned};
use cvperft::suite::discover;
use std::collections::hash_map::RandomState;
use std::fs::{File, OpenOptions};
use std::hash::BuildHasher;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Export formats on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// One EPD line per position: `;D1 n ;D2 n ...`, id, variant, options, status, source.
    Epd,
    /// python-chess's `.perft` file: `id`, `epd` and `perft DEPTH COUNT` lines.
    Perft,
    /// One JSON object per check.
    Jsonl,
}

/// Arguments of `cvperft export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Suite files or directories (every *.yaml in a directory, sorted).
    #[arg(value_name = "PATH", default_value = "suites")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// Write to FILE (a temporary file renamed into place) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Which checks.
    #[command(flatten)]
    pub selection: SelectionArgs,
}

/// Runs `cvperft export`.
///
/// # Errors
/// A [`Failure`] with code 2 for bad arguments, unreadable suites, a selection with nothing to
/// export or an output that cannot be written.
pub fn run(args: ExportArgs, stdout: &mut impl Write) -> Result<()> {
    let selection = args.selection.validated()?;
    let format = match args.format {
        FormatArg::Epd => ExportFormat::Epd,
        FormatArg::Perft => ExportFormat::PerftFile,
        FormatArg::Jsonl => ExportFormat::Jsonl,
    };
    let suites = load_suites(&args.paths)?;
    let planned = plan_checks(&suites, &selection).map_err(refused)?;
    let exported = export_planned(&suites, &planned, format).context("export")?;
    if exported.summary.items == 0 && selection.shard.is_none() {
        let why = exported.summary.left_out().unwrap_or_default();
        return Err(Failure::input(format!(
            "nothing to export as {}: the selection left out {why}",
            format.name()
        ))
        .into());
    }
    match &args.output {
        None => {
            stdout.write_all(exported.text.as_bytes())?;
            stdout.flush()?;
        }
        Some(target) => {
            let inputs = discover(&args.paths).map_err(|e| Failure::input(e.to_string()))?;
            write_output(target, exported.text.as_bytes(), &inputs)?;
        }
    }
    super::say(&exported.summary.line(format));
    Ok(())
}

/// Removes a temporary file unless it was renamed into place.
struct TempFile {
    path: PathBuf,
    keep: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Writes `bytes` to `target` without ever leaving it half written, and never over one of
/// `inputs`.
fn write_output(target: &Path, bytes: &[u8], inputs: &[PathBuf]) -> Result<()> {
    let shown = target.display();
    let refuse = |why: String| -> anyhow::Error {
        Failure::input(format!("--output {shown}: {why}")).into()
    };
    let existing = match std::fs::metadata(target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(target).is_ok() {
                return Err(refuse("a symbolic link to a missing file".into()));
            }
            None
        }
        Err(e) => return Err(refuse(e.to_string())),
    };
    if let Some(meta) = &existing {
        if meta.is_dir() {
            return Err(refuse("a directory".into()));
        }
        for input in inputs {
            if let Ok(m) = std::fs::metadata(input)
                && (m.dev(), m.ino()) == (meta.dev(), meta.ino())
            {
                return Err(refuse(format!(
                    "the suite {} is read by this run",
                    input.display()
                )));
            }
        }
        if !meta.is_file() {
            // A device or FIFO (/dev/stdout, a named pipe): written to, never replaced.
            let mut file = OpenOptions::new()
                .write(true)
                .open(target)
                .map_err(|e| refuse(e.to_string()))?;
            file.write_all(bytes).map_err(|e| refuse(e.to_string()))?;
            return Ok(());
        }
    }
    // Through a symbolic link to the file it names, so that the link stays a link.
    let real = match existing {
        Some(_) => std::fs::canonicalize(target).map_err(|e| refuse(e.to_string()))?,
        None => target.to_path_buf(),
    };
    let dir = match real.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let (mut file, temp) = create_temp(&dir, &name).map_err(|e| refuse(e.to_string()))?;
    let mut temp = TempFile {
        path: temp,
        keep: false,
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| {
            if let Some(meta) = &existing {
                file.set_permissions(meta.permissions())?;
            }
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp.path, &real));
    written.map_err(|e| refuse(e.to_string()))?;
    temp.keep = true;
    Ok(())
}

/// A new file in `dir` named after `name` with a random part, created exclusively (it never
/// opens what is already there, a planted link included). It does not end in `.yaml`, so a run
/// loading the directory's suites never reads it.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(File, PathBuf)> {
    let mut last = None;
    for _ in 0..16 {
        let random = RandomState::new().hash_one(std::process::id());
        let path = dir.join(format!(".{name}.{random:016x}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: ExportArgs,
    }

    #[test]
    fn the_definition_is_consistent() {
        Wrapper::command().debug_assert();
    }

    #[test]
    fn arguments_become_typed_options() {
        let w = Wrapper::try_parse_from(["export", "--format", "epd"]).expect("defaults parse");
        assert_eq!(w.args.paths, vec![PathBuf::from("suites")]);
        assert_eq!(w.args.format, FormatArg::Epd);
        let w = Wrapper::try_parse_from([
            "export", "a.yaml", "--format", "jsonl", "-v", "chess", "--slow", "--shard", "1/2",
        ])
        .expect("arguments parse");
        assert_eq!(w.args.selection.variant.as_deref(), Some("chess"));
        assert!(w.args.selection.slow);
        for bad in [
            &["export"][..],
            &["export", "--format", "csv"],
            &["export", "--format", "epd", "--shard", "0/2"],
        ] {
            assert!(Wrapper::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}

//! The binary's two output streams, written without ever panicking.
//!
//! Standard output goes through [`Stdout`], which discards what is written once its reader has
//! gone (a closed pipe, as in `cvperft check | head`): the run goes on to its end, so that
//! its exit status is the verdict of the whole run (1 for a failure found after the reader
//! left, or before) and its files (`add-case`'s suite, `check --output`'s report) are written.
//! Standard error gets whole lines through [`stderr_line`]: a full or closed stderr is ignored
//! (`eprintln!` would panic), and words longer than [`cvperft::report::MAX_WORD`] characters
//! are cut, so that a 120 kB move token or FEN echoed in a message stays readable.

use std::io::{StderrLock, StdoutLock, Write};

/// Standard output, locked; what is written after its reader has gone is discarded.
pub struct Stdout {
    inner: StdoutLock<'static>,
    closed: bool,
    /// Bytes standard output took (up to the write that found the reader gone): an upper
    /// bound of what the reader could have had, as the last of them may have been buffered.
    written: u64,
}

impl Stdout {
    /// Locks standard output.
    pub fn new() -> Stdout {
        Stdout {
            inner: std::io::stdout().lock(),
            closed: false,
            written: 0,
        }
    }

    /// The bytes written before the reader left, if it has: for a command whose output is
    /// its whole product (`export`), which must not say it wrote what was discarded.
    pub fn reader_left_after(&self) -> Option<u64> {
        self.closed.then_some(self.written)
    }

    /// `result`, or `gone` once a write found the reader gone (from then on nothing is written);
    /// any other error is named as standard output's (`/dev/full`: "standard output: No space
    /// left on device"), its kind kept.
    fn note<T>(&mut self, result: std::io::Result<T>, gone: T) -> std::io::Result<T> {
        match result {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(gone)
            }
            Err(e) => Err(std::io::Error::new(
                e.kind(),
                format!("standard output: {e}"),
            )),
            ok => ok,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        if let Ok(n) = result {
            self.written += n as u64;
        }
        self.note(result, buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.note(result, ())
    }
}

/// A writer of human text lines that escapes what would act on a terminal in each line
/// ([`cvperft::report::printable`]): for output made only of text, such as `identify`'s
/// verdicts and `diff`'s findings, where probe names, move text and engine names from files
/// and engines are printed. A last line without its newline is written on `flush` or drop.
pub struct EscapedLines<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> EscapedLines<W> {
    /// Escapes the lines written to `inner`.
    pub fn new(inner: W) -> EscapedLines<W> {
        EscapedLines {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_escaped(&mut self, line: &[u8]) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(line);
        self.inner
            .write_all(cvperft::report::printable(&text).as_bytes())
    }
}

impl<W: Write> Write for EscapedLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.write_escaped(&line[..end])?;
            self.inner.write_all(b"\n")?;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.write_escaped(&rest)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for EscapedLines<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Writes `line` and a newline to stderr, as [`cvperft::report::message_line`] makes it one
/// line (line breaks and what acts on a terminal escaped, long words cut); errors are ignored.
pub fn stderr_line(line: &str) {
    let mut err: StderrLock<'_> = std::io::stderr().lock();
    let _ = writeln!(err, "{}", cvperft::report::message_line(line));
    let _ = err.flush();
}

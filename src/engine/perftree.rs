//! An engine driven the way the `perftree` debugging tool drives scripts: one process per
//! query, run as `CMD DEPTH FEN [MOVES]` (moves space-separated in one argument, left out when
//! there are none), printing `move count` lines, a blank line, and the total.

use super::process::{EngineProcess, ReadLine, SpawnError};
use super::uci::{describe_exit, exit_grace};
use super::{Deadline, Divide, Engine, EngineError, EngineErrorKind, Listed, Query};
use crate::notation::FenField;
use crate::perft::DivideEntry;
use std::time::{Duration, Instant};

/// Most output lines accepted from one run.
pub const MAX_LINES: usize = 100_000;
/// Most output bytes accepted from one run (lines and their newlines): the output is kept
/// until the run ends, so memory stays bounded by this, not by [`MAX_LINES`] lines of
/// [`super::process::MAX_LINE`] bytes each (6.4 GiB).
pub const MAX_OUTPUT_BYTES: usize = 16 * 1024 * 1024;

/// A perftree-style command.
pub struct PerftreeEngine {
    name: String,
    argv: Vec<String>,
    timeout: Duration,
}

impl PerftreeEngine {
    /// A command run as `argv` followed by the query (`name` is the command as written).
    pub fn new(name: &str, argv: Vec<String>, timeout: Duration) -> PerftreeEngine {
        PerftreeEngine {
            name: name.to_string(),
            argv,
            timeout,
        }
    }

    fn error(&self, query: &Query, kind: EngineErrorKind) -> EngineError {
        EngineError::new(&self.name, Some(query), kind)
    }
}

impl Engine for PerftreeEngine {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        self.divide_by(query, Deadline::after(self.timeout))
    }

    /// One run of the command, all of it (output and exit) by `deadline`.
    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        let Deadline {
            at: deadline,
            allowed,
        } = deadline;
        let mut argv = self.argv.clone();
        argv.push(query.depth.to_string());
        argv.push(query.fen.clone());
        if !query.moves.is_empty() {
            argv.push(query.moves.join(" "));
        }
        let mut process = EngineProcess::spawn(&argv).map_err(|e| {
            self.error(
                query,
                match e {
                    SpawnError::NotFound => EngineErrorKind::NotFound,
                    SpawnError::PermissionDenied => EngineErrorKind::NotExecutable,
                    SpawnError::Other(io) => EngineErrorKind::Spawn(io.to_string()),
                },
            )
        })?;
        process.close_stdin();
        let mut lines = Vec::new();
        let mut bytes = 0usize;
        loop {
            match process.read_line(deadline) {
                ReadLine::Line(l) => {
                    bytes = bytes.saturating_add(l.len() + 1);
                    lines.push(l);
                    let too_much = match (lines.len() > MAX_LINES, bytes > MAX_OUTPUT_BYTES) {
                        (true, _) => Some(format!("<more than {MAX_LINES} lines>")),
                        (_, true) => Some(format!(
                            "<more than {} MiB of output>",
                            MAX_OUTPUT_BYTES >> 20
                        )),
                        _ => None,
                    };
                    if let Some(line) = too_much {
                        process.kill();
                        return Err(self.error(
                            query,
                            EngineErrorKind::Malformed {
                                line,
                                expected: "one line per move".into(),
                            },
                        ));
                    }
                }
                ReadLine::Eof => break,
                ReadLine::Overlong(start) => {
                    process.kill();
                    return Err(self.error(
                        query,
                        EngineErrorKind::Malformed {
                            line: format!("{start}..."),
                            expected: "a short line".into(),
                        },
                    ));
                }
                ReadLine::Timeout => {
                    // An engine that has exited but whose output is still open: a process it
                    // started (perhaps in a session of its own) holds it.
                    let waiting_for = match process.has_exited() {
                        true => {
                            "the end of its output (it exited, but a process it started \
                                 keeps its output open)"
                        }
                        false => "its output",
                    };
                    process.kill();
                    return Err(self.error(
                        query,
                        EngineErrorKind::Timeout {
                            allowed,
                            waiting_for: waiting_for.into(),
                        },
                    ));
                }
            }
        }
        // One that closed its output and lives on has two seconds to exit, as a UCI engine.
        let status = process.wait_until(exit_grace(Instant::now(), deadline));
        let succeeded = status.is_some_and(|s| s.success());
        if !succeeded {
            let stderr = process.stderr_tail();
            let said = format!("{stderr} {}", lines.join(" ")).to_ascii_lowercase();
            let what = if stderr.is_empty() {
                lines.join(" | ")
            } else {
                stderr.clone()
            };
            // A refusal is an exit with a reason; a death by signal is a crash whatever it said.
            let exited = status.is_some_and(|s| s.code().is_some());
            if exited
                && (said.contains("illegal position")
                    || said.contains("fen:")
                    // Ours: `FEN board field, column 4: ...`, `FEN longer than ...`.
                    || FenField::ALL
                        .iter()
                        .any(|f| said.contains(&format!("fen {f} field")))
                    || said.contains("fen longer than")
                    || said.contains("invalid fen")
                    || said.contains("bad fen"))
            {
                return Err(self.error(query, EngineErrorKind::Rejected(what)));
            }
            if exited
                && (said.contains("illegal move")
                    || said.contains("not a legal move")
                    || said.contains("invalid move")
                    || said.contains("unknown move"))
            {
                return Err(self.error(query, EngineErrorKind::IllegalMove(what)));
            }
            return Err(self.error(
                query,
                EngineErrorKind::Crashed {
                    how: describe_exit(status),
                    stderr,
                    answered: lines.len(),
                },
            ));
        }
        parse_output(&lines).map_err(|kind| self.error(query, kind))
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

/// Parses `move count` lines, a blank line, the total (trailing blank lines allowed).
///
/// # Errors
/// A malformed line, a missing total, or counts that do not add up.
pub fn parse_output(lines: &[String]) -> Result<Divide, EngineErrorKind> {
    let malformed = |line: &str, expected: &str| EngineErrorKind::Malformed {
        line: line.to_string(),
        expected: expected.to_string(),
    };
    let mut entries: Vec<(DivideEntry, usize)> = Vec::new();
    let mut listed = Listed::default();
    let mut it = lines.iter().map(|l| l.trim_end());
    let mut blank_seen = false;
    for (number, line) in (1..).zip(it.by_ref()) {
        if line.trim().is_empty() {
            blank_seen = true;
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [text, count] = words.as_slice() else {
            return Err(malformed(line, "`move count`"));
        };
        // A word of letters alone or digits alone is no move (a move names a square, or is a
        // spelling such as `O-O` that `--map` translates): a header such as `Perft 3` is not
        // a move of count 3, whose number would only show later as a wrong total.
        let is_move = text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@,+=-".contains(c))
            && !text.chars().all(|c| c.is_ascii_alphabetic())
            && !text.chars().all(|c| c.is_ascii_digit());
        if !is_move {
            return Err(malformed(
                line,
                "`move count` with a move in coordinate notation",
            ));
        }
        let count = super::parse_count(count)
            .ok_or_else(|| malformed(line, "`move count` with a count"))?;
        listed.add(text, count, number)?;
        entries.push((
            DivideEntry {
                text: text.to_string(),
                count,
            },
            number,
        ));
    }
    if !blank_seen {
        return Err(EngineErrorKind::Crashed {
            how: "output ended before the blank line and the total".into(),
            stderr: String::new(),
            answered: entries.len(),
        });
    }
    let Some(total_line) = it.next() else {
        return Err(EngineErrorKind::Crashed {
            how: "output ended before the total".into(),
            stderr: String::new(),
            answered: entries.len(),
        });
    };
    let total =
        super::parse_count(total_line.trim()).ok_or_else(|| malformed(total_line, "the total"))?;
    if let Some(extra) = it.find(|l| !l.trim().is_empty()) {
        return Err(malformed(extra, "nothing after the total"));
    }
    let divide = Divide::from_lines(entries);
    EngineErrorKind::check_total(&divide.entries, total)?;
    Ok(divide)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(|l| l.to_string()).collect()
    }

    #[test]
    fn parses_the_format() {
        // Castling in SAN is a move too, for `--map e1g1=O-O`.
        let d = parse_output(&lines("O-O 2\na2a3 3\n\n5\n")).unwrap();
        assert_eq!(d.count("O-O"), Some(2));
        let d = parse_output(&lines("b1c3 2\na2a3 3\n\n5\n")).unwrap();
        assert_eq!(d.total, 5);
        assert_eq!((d.lines["b1c3"], d.lines["a2a3"]), (1, 2));
        assert_eq!(d.entries[0].text, "a2a3");
        assert_eq!(d.count("b1c3"), Some(2));
    }

    #[test]
    fn rejects_what_is_not_the_format() {
        assert!(matches!(
            parse_output(&lines("a2a3: 3\n\n3")),
            Err(EngineErrorKind::Malformed { .. })
        ));
        assert!(matches!(
            parse_output(&lines("a2a3 3\n\n4")),
            Err(EngineErrorKind::TotalMismatch { sum: 3, total: 4 })
        ));
        assert!(matches!(
            parse_output(&lines("a2a3 3\n")),
            Err(EngineErrorKind::Crashed { .. })
        ));
        assert!(matches!(
            parse_output(&lines("a2a3 3\n\n3\nmore")),
            Err(EngineErrorKind::Malformed { .. })
        ));
        // One move listed twice in one spelling: both listings, with their counts and lines.
        let twice = parse_output(&lines("a2a3 3\nb2b3 1\na2a3 4\n\n8")).expect_err("twice");
        assert_eq!(
            twice.to_string(),
            "listed the move a2a3 twice, as `a2a3` (count 3, line 1 of its answer) and as `a2a3` \
             (count 4, line 3 of its answer): its count is not taken from this answer"
        );
        // A header line is not a move, whatever its number: named as the malformed line, not
        // reported later as counts that do not add up to the total.
        for header in ["Perft 3\na2a3 3\n\n3", "perft 0\na2a3 3\n\n3", "20 3\n\n3"] {
            match parse_output(&lines(header)) {
                Err(EngineErrorKind::Malformed { line, .. }) => {
                    assert_eq!(line, header.lines().next().unwrap(), "{header}")
                }
                other => panic!("{header}: {other:?}"),
            }
        }
        for bad in ["a2a3 +3\n\n3", "a2a3 3\n\n+3", "a2a3 -0\n\n0"] {
            assert!(
                matches!(
                    parse_output(&lines(bad)),
                    Err(EngineErrorKind::Malformed { .. })
                ),
                "{bad}"
            );
        }
    }
}

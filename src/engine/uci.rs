//! A UCI engine asked `go perft N`: one process for the whole session.
//!
//! Handshake: `uci` … `uciok` (collecting the variants it declares), one `setoption` per engine
//! option, then `UCI_Variant` when a variant is requested (checked against the values the
//! engine declares for it; asked again after the other options, since `VariantPath` may add
//! variants), then `isready` … `readyok`. The replies are read by [`UciReply`] and
//! [`ReadyReply`], fed the engine's lines one at a time (no process, so they can be fuzzed).
//! Each query sends `isready` and reads up to `readyok` (refusing a count left over from an
//! earlier answer), then sends `position fen … [moves …]` and `go perft N` and reads
//! `move: count` lines up to `Nodes searched: N`, skipping `info` lines and other chatter.

use super::process::{EngineProcess, ReadLine, SpawnError};
use super::{Deadline, Divide, Engine, EngineError, EngineErrorKind, Listed, Query};
use crate::perft::DivideEntry;
use std::collections::HashSet;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// Most lines of chatter accepted while waiting for one answer.
pub const MAX_CHATTER: usize = 100_000;
/// Most `move: count` lines accepted in one answer (as many as a perftree answer's lines).
pub const MAX_COUNTS: usize = super::perftree::MAX_LINES;

/// A running UCI engine (started on the first query, restarted after a failure).
pub struct UciEngine {
    name: String,
    argv: Vec<String>,
    variant: Option<String>,
    options: Vec<(String, String)>,
    timeout: Duration,
    process: Option<EngineProcess>,
    /// Count lines read for the query in progress (for crash reports).
    answered: usize,
    /// Questions the running process has answered.
    answers: usize,
    /// When the question in progress must be answered, and how long it was given.
    deadline: Deadline,
    /// The engine's spellings of whole moves named by `--map` (such as `O-O`): a line
    /// `O-O: 5` is a count, though a move without a digit is otherwise taken for chatter.
    named_moves: HashSet<String>,
}

impl UciEngine {
    /// An engine run as `argv` (`name` is the command line as the user wrote it).
    pub fn new(
        name: &str,
        argv: Vec<String>,
        variant: Option<String>,
        options: Vec<(String, String)>,
        timeout: Duration,
    ) -> UciEngine {
        UciEngine {
            name: name.to_string(),
            argv,
            variant,
            options,
            timeout,
            process: None,
            answered: 0,
            answers: 0,
            deadline: Deadline::after(timeout),
            named_moves: HashSet::new(),
        }
    }

    /// The engine's spellings of the whole moves of a `--map`, read as moves in its answers.
    #[must_use]
    pub fn naming_moves(mut self, moves: impl IntoIterator<Item = String>) -> UciEngine {
        self.named_moves.extend(moves);
        self
    }

    fn error(&self, query: Option<&Query>, kind: EngineErrorKind) -> EngineError {
        EngineError::new(&self.name, query, kind)
    }

    /// Starts the engine; the handshake is one question, with the engine's own timeout.
    fn start(&mut self) -> Result<(), EngineError> {
        self.deadline = Deadline::after(self.timeout);
        let process = EngineProcess::spawn(&self.argv).map_err(|e| {
            self.error(
                None,
                match e {
                    SpawnError::NotFound => EngineErrorKind::NotFound,
                    SpawnError::PermissionDenied => EngineErrorKind::NotExecutable,
                    SpawnError::Other(io) => EngineErrorKind::Spawn(io.to_string()),
                },
            )
        })?;
        self.process = Some(process);
        self.answers = 0;
        let result = self.handshake();
        if result.is_err() {
            self.stop();
        }
        result
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send(None, "uci")?;
        let mut info = self.read_handshake()?;
        let options = self.options.clone();
        for (name, value) in &options {
            self.send(None, &format!("setoption name {name} value {value}"))?;
        }
        if let Some(variant) = self.variant.clone() {
            if !info.knows(&variant) && !options.is_empty() {
                // Options such as VariantPath may have loaded more variants.
                self.send(None, "uci")?;
                info = self.read_handshake()?;
            }
            let select = info
                .selects(&variant)
                .map_err(|kind| self.error(None, kind))?;
            if select {
                self.send(None, &format!("setoption name UCI_Variant value {variant}"))?;
            }
        }
        self.send(None, "isready")?;
        self.await_ready()
    }

    /// Reads up to `readyok`, failing on a complaint about an option.
    fn await_ready(&mut self) -> Result<(), EngineError> {
        let mut reply = ReadyReply::new();
        loop {
            let line = self.read(None, "readyok")?;
            match reply.line(line) {
                Ok(false) => {}
                Ok(true) => return Ok(()),
                Err(kind) => return Err(self.error(None, kind)),
            }
        }
    }

    fn read_handshake(&mut self) -> Result<Handshake, EngineError> {
        let mut reply = UciReply::new();
        loop {
            let line = self.read(None, "uciok")?;
            match reply.line(line) {
                Ok(None) => {}
                Ok(Some(info)) => return Ok(info),
                Err(kind) => return Err(self.error(None, kind)),
            }
        }
    }

    fn send(&mut self, query: Option<&Query>, line: &str) -> Result<(), EngineError> {
        let Some(p) = self.process.as_mut() else {
            return Err(self.error(query, EngineErrorKind::Io("engine not running".into())));
        };
        if let Err(e) = p.send(line, self.deadline.at) {
            if e.kind() == std::io::ErrorKind::TimedOut {
                return Err(self.timed_out(query, "it to read its input"));
            }
            // A closed pipe means the engine died: report how.
            let crashed = self.crash(query);
            return Err(match crashed.kind {
                EngineErrorKind::Crashed { .. } => crashed,
                _ => self.error(query, EngineErrorKind::Io(e.to_string())),
            });
        }
        Ok(())
    }

    /// Reads one line before the question's deadline (however many lines came before it: a
    /// chattering engine does not get more time); end of output and timeouts become errors.
    fn read(&mut self, query: Option<&Query>, waiting_for: &str) -> Result<String, EngineError> {
        let deadline = self.deadline.at;
        let Some(p) = self.process.as_mut() else {
            return Err(self.error(query, EngineErrorKind::Io("engine not running".into())));
        };
        match p.read_line_while_running(deadline) {
            ReadLine::Line(l) => Ok(l),
            ReadLine::Eof => Err(self.crash(query)),
            ReadLine::Overlong(start) => Err(self.error(
                query,
                EngineErrorKind::Malformed {
                    line: format!("{start}..."),
                    expected: format!("a line shorter than {} bytes", super::process::MAX_LINE),
                },
            )),
            ReadLine::Timeout => Err(self.timed_out(query, waiting_for)),
        }
    }

    /// The error for a question not done by its deadline, the engine stopped.
    fn timed_out(&mut self, query: Option<&Query>, waiting_for: &str) -> EngineError {
        self.stop();
        self.error(
            query,
            EngineErrorKind::Timeout {
                allowed: self.deadline.allowed,
                waiting_for: waiting_for.to_string(),
            },
        )
    }

    /// The error for an engine that closed its output: how it ended and its stderr.
    fn crash(&mut self, query: Option<&Query>) -> EngineError {
        let (how, stderr) = match self.process.as_mut() {
            Some(p) => {
                let status = p.wait_until(exit_grace(Instant::now(), self.deadline.at));
                (describe_exit(status), p.stderr_tail())
            }
            None => ("not running".to_string(), String::new()),
        };
        self.stop();
        let answered = if query.is_some() { self.answered } else { 0 };
        self.error(
            query,
            EngineErrorKind::Crashed {
                how,
                stderr,
                answered,
            },
        )
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    fn run_query(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        self.deadline = deadline;
        // Counted from here: a failure while sending belongs to this question, not the last.
        self.answered = 0;
        self.sync(query)?;
        let mut position = format!("position fen {}", query.fen);
        if !query.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&query.moves.join(" "));
        }
        self.send(Some(query), &position)?;
        self.send(Some(query), &format!("go perft {}", query.depth))?;
        // A copy: the answer is read while the engine is asked for lines.
        let named = self.named_moves.clone();
        let mut answer = PerftAnswer::new(&named);
        loop {
            let line = self.read(Some(query), "`Nodes searched: N`")?;
            let read = answer.line(line);
            self.answered = answer.counts();
            match read {
                Ok(None) => {}
                Ok(Some(divide)) => return Ok(divide),
                Err(kind) => return Err(self.error(Some(query), kind)),
            }
        }
    }
}

/// The answer to `go perft N` as it is read, one line at a time: `move: count` lines up to
/// `Nodes searched: N`, `info` lines and other chatter skipped. It reads text, not a process:
/// [`UciEngine`] feeds it the lines it reads, and the fuzz target `engine_output` any text.
pub struct PerftAnswer<'a> {
    /// Moves spelt without a digit that are read as moves ([`UciEngine::naming_moves`]).
    named: &'a HashSet<String>,
    /// Each count with the line of the answer it was read from (from 1 after `go perft`).
    entries: Vec<(DivideEntry, usize)>,
    listed: Listed,
    chatter: Chatter,
    number: usize,
}

impl<'a> PerftAnswer<'a> {
    /// An answer about to be read; `named` are the engine's spellings of whole moves that hold
    /// no digit (`O-O`), read as moves.
    pub fn new(named: &'a HashSet<String>) -> PerftAnswer<'a> {
        PerftAnswer {
            named,
            entries: Vec::new(),
            listed: Listed::default(),
            chatter: Chatter::new("Nodes searched"),
            number: 0,
        }
    }

    /// The count lines read so far.
    pub fn counts(&self) -> usize {
        self.entries.len()
    }

    /// Reads the answer's next line (without its line ending): `Ok(None)` while the answer
    /// goes on, the divide at its total.
    ///
    /// # Errors
    /// A refused move, a malformed count or total, a move listed twice, counts that do not add
    /// up to the total, more than [`MAX_COUNTS`] counts or [`MAX_CHATTER`] lines of chatter.
    pub fn line(&mut self, line: String) -> Result<Option<Divide>, EngineErrorKind> {
        self.number += 1;
        match classify(&line, self.named) {
            Line::Count(text, count) => {
                if self.entries.len() == MAX_COUNTS {
                    return Err(EngineErrorKind::Malformed {
                        line: format!("<more than {MAX_COUNTS} move counts>"),
                        expected: "one count per legal move".into(),
                    });
                }
                self.listed.add(&text, count, self.number)?;
                self.entries
                    .push((DivideEntry { text, count }, self.number));
                Ok(None)
            }
            Line::Total(total) => {
                let divide = Divide::from_lines(std::mem::take(&mut self.entries));
                EngineErrorKind::check_total(&divide.entries, total)?;
                Ok(Some(divide))
            }
            Line::Illegal => Err(EngineErrorKind::IllegalMove(line)),
            Line::Refused => Err(EngineErrorKind::Rejected(line.trim().to_string())),
            Line::Malformed(expected) => Err(EngineErrorKind::Malformed {
                line,
                expected: expected.into(),
            }),
            Line::Chatter => {
                self.chatter.one_more()?;
                Ok(None)
            }
        }
    }
}

/// Lines of chatter counted while waiting for one line, refused past a cap.
#[derive(Debug, Clone)]
struct Chatter {
    seen: usize,
    cap: usize,
    /// The line waited for, as the refusal names it.
    waiting_for: &'static str,
}

impl Chatter {
    fn new(waiting_for: &'static str) -> Chatter {
        Chatter {
            seen: 0,
            cap: MAX_CHATTER,
            waiting_for,
        }
    }

    /// Counts one more line of chatter; past the cap, the error that ends the wait.
    fn one_more(&mut self) -> Result<(), EngineErrorKind> {
        self.seen += 1;
        if self.seen > self.cap {
            return Err(EngineErrorKind::Malformed {
                line: format!("<{} lines without {}>", self.cap, self.waiting_for),
                expected: self.waiting_for.to_string(),
            });
        }
        Ok(())
    }
}

/// What the engine reported between `uci` and `uciok`.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    /// Values of the `UCI_Variant` combo option (the `var` values of its last declaration,
    /// each the words up to the next `var`), when it has one.
    pub variants: Option<Vec<String>>,
    /// Whether `UCI_Variant` was last declared as a `string` option: it takes any name.
    pub any_variant: bool,
}

impl Handshake {
    /// Whether `variant` is one of the declared `UCI_Variant` values.
    pub fn knows(&self, variant: &str) -> bool {
        self.variants
            .as_ref()
            .is_some_and(|v| v.iter().any(|known| known == variant))
    }

    /// Whether `variant` is selected with `setoption name UCI_Variant`: yes when declared, no
    /// for `chess` on an engine without `UCI_Variant` (it plays orthodox chess).
    ///
    /// # Errors
    /// The variant is not declared (the refusal lists the declared values).
    pub fn selects(&self, variant: &str) -> Result<bool, EngineErrorKind> {
        if self.knows(variant) || self.any_variant {
            return Ok(true);
        }
        if self.variants.is_none() && variant == "chess" {
            return Ok(false);
        }
        let why = match &self.variants {
            None => "it declares no UCI_Variant option".to_string(),
            Some(list) if list.is_empty() => "its UCI_Variant option lists no values".to_string(),
            Some(list) => format!("its UCI_Variant values are: {}", list.join(", ")),
        };
        Err(EngineErrorKind::Rejected(format!(
            "variant `{variant}` not supported: {why}"
        )))
    }
}

/// The engine's answer to `uci` as it is read, one line at a time, up to `uciok`: the
/// `UCI_Variant` declaration kept, a complaint about an option refused, other lines (`id`,
/// other options, `info string`) chatter. Like [`PerftAnswer`], it reads text, not a process.
#[derive(Debug, Clone)]
pub struct UciReply {
    info: Handshake,
    chatter: Chatter,
}

impl Default for UciReply {
    fn default() -> UciReply {
        UciReply::new()
    }
}

impl UciReply {
    /// A reply about to be read.
    pub fn new() -> UciReply {
        UciReply {
            info: Handshake::default(),
            chatter: Chatter::new("uciok"),
        }
    }

    /// The same reply with at most `cap` lines of chatter instead of [`MAX_CHATTER`].
    #[must_use]
    pub fn chatter_cap(mut self, cap: usize) -> UciReply {
        self.chatter.cap = cap;
        self
    }

    /// The lines of chatter read so far.
    pub fn chatter(&self) -> usize {
        self.chatter.seen
    }

    /// Reads the reply's next line (without its line ending): `Ok(None)` while it goes on,
    /// what it reported at `uciok`.
    ///
    /// # Errors
    /// A complaint about an option, or more lines of chatter than the cap.
    pub fn line(&mut self, line: String) -> Result<Option<Handshake>, EngineErrorKind> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uciok"] => return Ok(Some(std::mem::take(&mut self.info))),
            ["option", "name", "UCI_Variant", "type", "combo", rest @ ..] => {
                // `var silver elephant`: each value runs to the next `var` or `default`, so a
                // name of several words is kept whole (it was cut at its first blank); what
                // comes before the first `var` is the default; a `var` with no words is no
                // value.
                let values = rest
                    .split(|w| *w == "var")
                    .skip(1)
                    .filter_map(|words| words.split(|w| *w == "default").next())
                    .filter(|words| !words.is_empty())
                    .map(|words| words.join(" "))
                    .collect();
                self.info.variants = Some(values);
                self.info.any_variant = false;
            }
            ["option", "name", "UCI_Variant", "type", "string", ..] => {
                self.info.variants = None;
                self.info.any_variant = true;
            }
            _ if refuses_option(&line) => {
                return Err(EngineErrorKind::Rejected(line.trim().to_string()));
            }
            _ => self.chatter.one_more()?,
        }
        Ok(None)
    }
}

/// The engine's answer to the handshake's `isready` as it is read, one line at a time, up to
/// `readyok`: a complaint about an option set before it is refused, other lines are chatter.
#[derive(Debug, Clone)]
pub struct ReadyReply {
    chatter: Chatter,
}

impl Default for ReadyReply {
    fn default() -> ReadyReply {
        ReadyReply::new()
    }
}

impl ReadyReply {
    /// A reply about to be read.
    pub fn new() -> ReadyReply {
        ReadyReply {
            chatter: Chatter::new("readyok"),
        }
    }

    /// The same reply with at most `cap` lines of chatter instead of [`MAX_CHATTER`].
    #[must_use]
    pub fn chatter_cap(mut self, cap: usize) -> ReadyReply {
        self.chatter.cap = cap;
        self
    }

    /// The lines of chatter read so far.
    pub fn chatter(&self) -> usize {
        self.chatter.seen
    }

    /// Reads the reply's next line (without its line ending): `Ok(true)` at `readyok`.
    ///
    /// # Errors
    /// A complaint about an option, or more lines of chatter than the cap.
    pub fn line(&mut self, line: String) -> Result<bool, EngineErrorKind> {
        let t = line.trim();
        if t == "readyok" {
            return Ok(true);
        }
        if refuses_option(t) {
            return Err(EngineErrorKind::Rejected(t.to_string()));
        }
        self.chatter.one_more()?;
        Ok(false)
    }
}

impl UciEngine {
    /// `isready` … `readyok` before each question: a count or total printed after the last
    /// answer (an answer given twice, or late) is refused here rather than read as the answer
    /// to this question.
    fn sync(&mut self, query: &Query) -> Result<(), EngineError> {
        self.send(Some(query), "isready")?;
        let mut chatter = Chatter::new("readyok");
        loop {
            let line = self.read(Some(query), "readyok")?;
            if line.trim() == "readyok" {
                return Ok(());
            }
            match classify(&line, &self.named_moves) {
                Line::Chatter => {
                    if let Err(kind) = chatter.one_more() {
                        return Err(self.error(Some(query), kind));
                    }
                }
                _ => {
                    return Err(self.error(
                        Some(query),
                        EngineErrorKind::Malformed {
                            line,
                            expected: "nothing after the last answer but `readyok` to \
                                       `isready` (output left over from an earlier question)"
                                .into(),
                        },
                    ));
                }
            }
        }
    }
}

impl Engine for UciEngine {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        self.divide_by(query, Deadline::after(self.timeout))
    }

    fn divide_by(&mut self, query: &Query, deadline: Deadline) -> Result<Divide, EngineError> {
        let mut deadline = deadline;
        if self.process.is_none() {
            self.start().map_err(|mut e| {
                // The handshake failed while answering this query.
                e.query = Some(Box::new(query.clone()));
                e
            })?;
            // The handshake was a question of its own: this one is put now, with its whole time.
            deadline = Deadline::after(deadline.allowed);
        }
        let result = self.run_query(query, deadline);
        if result.is_err() {
            // The engine's state is unknown after a failure: start afresh next time.
            self.stop();
        } else {
            self.answers += 1;
        }
        result
    }

    fn process_answers(&self) -> Option<usize> {
        Some(self.answers)
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.shut_down(Some("quit"), Duration::from_millis(200));
        }
    }
}

/// How long an engine that closed its output has to exit before it is killed: two seconds,
/// but never past the question's `deadline` (an engine that closes its output and lives on
/// is killed at the deadline, however short).
pub fn exit_grace(now: Instant, deadline: Instant) -> Instant {
    (now + Duration::from_secs(2)).min(deadline)
}

/// Whether a line is an engine's complaint about a `setoption` (Stockfish: `No such option: X`).
/// The engine's own declarations (`id name`, `id author`, `option name`) are not complaints,
/// whatever they hold (`option name Mode type combo default invalid option var ...`).
fn refuses_option(line: &str) -> bool {
    if declares(line) {
        return false;
    }
    let lower = line.trim().to_ascii_lowercase();
    lower.starts_with("no such option")
        || lower.contains("unknown option")
        || lower.contains("invalid option")
}

/// Whether a line is one of the engine's declarations in its reply to `uci`.
fn declares(line: &str) -> bool {
    let mut words = line.split_whitespace();
    matches!(
        (words.next(), words.next()),
        (Some("id"), Some("name" | "author")) | (Some("option"), Some("name"))
    )
}

/// One line of a `go perft` answer.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Count(String, u64),
    Total(u64),
    Illegal,
    /// The engine says it cannot take the position (Fairy-Stockfish: `info string Invalid
    /// FEN`): a refusal, as a perftree engine's exit with such words.
    Refused,
    Malformed(&'static str),
    Chatter,
}

/// `named`: moves the engine spells without a digit (the `--map` ones), read as moves.
fn classify(line: &str, named: &HashSet<String>) -> Line {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    if lower.contains("illegal move")
        || lower.contains("invalid move")
        || lower.contains("unknown move")
    {
        return Line::Illegal;
    }
    if [
        "invalid fen",
        "bad fen",
        "illegal position",
        "invalid position",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return Line::Refused;
    }
    if t.is_empty() || t.starts_with("info") {
        return Line::Chatter;
    }
    if let Some(rest) = t.strip_prefix("Nodes searched:") {
        return match super::parse_count(rest.trim()) {
            Some(n) => Line::Total(n),
            None => Line::Malformed("`Nodes searched: N` with a number"),
        };
    }
    if let Some((head, count)) = t.split_once(':') {
        let head = head.trim();
        let looks_like_move = !head.is_empty()
            && !head.contains(' ')
            && head.len() <= crate::notation::MAX_MOVE_LEN
            && (head.chars().any(|c| c.is_ascii_digit()) || named.contains(head))
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "@,+=-".contains(c));
        if looks_like_move {
            return match super::parse_count(count.trim()) {
                Some(n) => Line::Count(head.to_string(), n),
                None => Line::Malformed("`move: count` with a count"),
            };
        }
    }
    Line::Chatter
}

/// `exit status N`, `killed by signal N` or `still running`.
pub fn describe_exit(status: Option<ExitStatus>) -> String {
    match status {
        None => "closed its output and was killed".to_string(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(c), _) => format!("exit status {c}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            _ => "ended".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_closing_its_output_waits_no_longer_than_the_deadline() {
        let now = Instant::now();
        let soon = now + Duration::from_millis(200);
        assert_eq!(exit_grace(now, soon), soon);
        let late = now + Duration::from_secs(60);
        assert_eq!(exit_grace(now, late), now + Duration::from_secs(2));
    }

    /// Feeds `lines` to a `uci` reply: what it gives at the first line that ends it.
    fn read_uci(lines: &[&str], cap: usize) -> Option<Result<Option<Handshake>, EngineErrorKind>> {
        let mut reply = UciReply::new().chatter_cap(cap);
        lines
            .iter()
            .map(|l| reply.line(l.to_string()))
            .find(|r| !matches!(r, Ok(None)))
    }

    #[test]
    fn reads_the_variants_a_uci_reply_declares() {
        let fairy = [
            "id name Fairy-Stockfish 14",
            "option name Threads type spin default 1 min 1 max 512",
            "option name UCI_Variant type combo default chess var chess var crazyhouse",
            "info string variants.ini loaded",
            "option name UCI_Variant type combo default chess var chess var shogi",
            "  uciok  ",
            "option name UCI_Variant type combo var never",
        ];
        let info = read_uci(&fairy, MAX_CHATTER).unwrap().unwrap().unwrap();
        // The last declaration before uciok counts.
        assert_eq!(
            info.variants,
            Some(vec!["chess".to_string(), "shogi".to_string()])
        );
        assert_eq!(info.selects("shogi"), Ok(true));
        assert!(!info.knows("crazyhouse"));
        let refused = info.selects("crazyhouse").unwrap_err().to_string();
        assert_eq!(
            refused,
            "rejected the request: variant `crazyhouse` not supported: its UCI_Variant values \
             are: chess, shogi"
        );
        // A value of several words is kept whole (found by an attack: `silver elephant` was
        // read as `silver`); a `string` UCI_Variant takes any name.
        let spaced = [
            "option name UCI_Variant type combo default chess var chess var silver elephant",
            "uciok",
        ];
        let info = read_uci(&spaced, MAX_CHATTER).unwrap().unwrap().unwrap();
        assert_eq!(info.selects("silver elephant"), Ok(true));
        assert_eq!(
            info.selects("silver").unwrap_err().to_string(),
            "rejected the request: variant `silver` not supported: its UCI_Variant values are: \
             chess, silver elephant"
        );
        let late_default = [
            "option name UCI_Variant type combo var chess var shogi default chess",
            "uciok",
        ];
        let info = read_uci(&late_default, MAX_CHATTER)
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(info.variants, Some(vec!["chess".into(), "shogi".into()]));
        let free = ["option name UCI_Variant type string default chess", "uciok"];
        let info = read_uci(&free, MAX_CHATTER).unwrap().unwrap().unwrap();
        assert_eq!(info.selects("silver-elephant"), Ok(true));
        let stockfish = [
            "id name Stockfish 15.1",
            "option name Hash type spin",
            "uciok",
        ];
        let info = read_uci(&stockfish, MAX_CHATTER).unwrap().unwrap().unwrap();
        assert_eq!(info.variants, None);
        assert_eq!(info.selects("chess"), Ok(false));
        assert!(info.selects("shogi").is_err());
        let empty = ["option name UCI_Variant type combo default chess", "uciok"];
        let info = read_uci(&empty, MAX_CHATTER).unwrap().unwrap().unwrap();
        assert_eq!(
            info.selects("chess").unwrap_err().to_string(),
            "rejected the request: variant `chess` not supported: its UCI_Variant option lists \
             no values"
        );
        // `uciok` with another word is chatter; no `uciok` at all never ends the reply.
        assert_eq!(read_uci(&["uciok now", "id name x"], MAX_CHATTER), None);
    }

    #[test]
    fn a_uci_reply_refuses_option_complaints_and_chatter_past_its_cap() {
        let complaint = read_uci(&["id name x", " No such option: Foo\r"], MAX_CHATTER);
        assert_eq!(
            complaint,
            Some(Err(EngineErrorKind::Rejected("No such option: Foo".into())))
        );
        let lines = ["id name x", "id author y", "uciok"];
        assert!(matches!(read_uci(&lines, 2), Some(Ok(Some(_)))));
        let Some(Err(EngineErrorKind::Malformed { line, expected })) = read_uci(&lines, 1) else {
            panic!("chatter past the cap is not refused");
        };
        assert_eq!(
            (line.as_str(), expected.as_str()),
            ("<1 lines without uciok>", "uciok")
        );
    }

    /// Found by fuzz uci_handshake: an option declared with `Invalid option` in its line was
    /// read as a complaint, and the engine refused.
    #[test]
    fn declarations_holding_the_words_of_a_complaint_are_not_complaints() {
        let lines = [
            "id name Unknown Option Engine",
            "id author invalid option",
            "option name UCI_Variant type co string Invalid option value foss",
            "option name Policy type combo default unknown option var unknown option",
            "uciok",
        ];
        let info = read_uci(&lines, MAX_CHATTER).unwrap().unwrap().unwrap();
        assert_eq!(info.variants, None);
        let mut ready = ReadyReply::new();
        assert_eq!(ready.line(lines[3].into()), Ok(false));
        // A complaint starting with a word other than a declaration's is still one.
        assert!(refuses_option("Option name Hash: unknown option"));
        assert!(refuses_option("info string Unknown option: Hash"));
    }

    #[test]
    fn a_ready_reply_ends_at_readyok_and_refuses_option_complaints() {
        let mut ready = ReadyReply::new().chatter_cap(1);
        assert_eq!(ready.line("info string hello".into()), Ok(false));
        assert_eq!(ready.chatter(), 1);
        assert_eq!(ready.line(" readyok ".into()), Ok(true));
        let mut ready = ReadyReply::new();
        assert_eq!(
            ready.line("Unknown option: Hash".into()),
            Err(EngineErrorKind::Rejected("Unknown option: Hash".into()))
        );
        let mut ready = ReadyReply::new().chatter_cap(0);
        assert!(matches!(
            ready.line("id name x".into()),
            Err(EngineErrorKind::Malformed { .. })
        ));
    }

    fn classify_plain(line: &str) -> Line {
        classify(line, &HashSet::new())
    }

    /// Fairy-Stockfish answers a position it cannot take with `info string Invalid FEN` and
    /// then counts whatever position it had: a refusal (the check is skipped, as for a
    /// perftree engine exiting with such words), not a count of 0 or of another position.
    #[test]
    fn an_invalid_fen_line_is_a_refusal() {
        let named = HashSet::new();
        let mut answer = PerftAnswer::new(&named);
        assert_eq!(answer.line("info string variant chess".into()), Ok(None));
        assert_eq!(
            answer.line("info string Invalid FEN: r2bqkb2r/... w".into()),
            Err(EngineErrorKind::Rejected(
                "info string Invalid FEN: r2bqkb2r/... w".into()
            ))
        );
    }

    /// A whole move of `--map` spelt without a digit (`O-O`) is a count, not chatter, when the
    /// map names it; other such lines stay chatter.
    #[test]
    fn classifies_moves_named_by_the_map() {
        let named: HashSet<String> = ["O-O".to_string()].into();
        assert_eq!(classify("O-O: 5", &named), Line::Count("O-O".into(), 5));
        assert_eq!(classify("O-O-O: 5", &named), Line::Chatter);
        assert!(matches!(classify("O-O: many", &named), Line::Malformed(_)));
        assert_eq!(classify("O-O: 5", &HashSet::new()), Line::Chatter);
        assert_eq!(classify("Threads: 4", &named), Line::Chatter);
    }

    #[test]
    fn classifies_perft_output() {
        assert_eq!(classify_plain("e2e4: 20"), Line::Count("e2e4".into(), 20));
        assert_eq!(classify_plain("N@b2: 3"), Line::Count("N@b2".into(), 3));
        assert_eq!(classify_plain("Nodes searched: 400"), Line::Total(400));
        assert_eq!(classify_plain("info string hello: 5"), Line::Chatter);
        assert_eq!(classify_plain(""), Line::Chatter);
        assert_eq!(classify_plain("Stockfish 15 by someone"), Line::Chatter);
        assert_eq!(classify_plain("Illegal move: e2e5"), Line::Illegal);
        assert_eq!(
            classify_plain("info string Invalid FEN: 8/8 w - - 0 1"),
            Line::Refused
        );
        assert_eq!(classify_plain("Illegal position"), Line::Refused);
        assert_eq!(
            classify_plain("info string illegal move e2e5"),
            Line::Illegal
        );
        assert!(matches!(classify_plain("e2e4: lots"), Line::Malformed(_)));
        assert!(matches!(
            classify_plain("Nodes searched: many"),
            Line::Malformed(_)
        ));
        // Digits only: no sign, no spaces inside, no other digits.
        for bad in [
            "e2e4: +20",
            "e2e4: -1",
            "e2e4: 2 0",
            "e2e4: \u{ff12}0",
            "Nodes searched: +400",
        ] {
            assert!(matches!(classify_plain(bad), Line::Malformed(_)), "{bad}");
        }
    }
}

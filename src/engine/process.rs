//! Child processes with deadlines: every engine runs in its own process group, every read waits
//! at most the timeout, and a process that hangs is killed with its whole group and reaped.
//! Dropping an [`EngineProcess`] kills and reaps what is left, so no engine outlives its handle;
//! every group is also listed in [`crate::cleanup`], which kills it if cvperft is interrupted.

use crate::cleanup::{self, Tracked};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line read from an engine; a longer one is an error.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines of the engine's stderr kept for error messages.
pub const STDERR_TAIL_LINES: usize = 8;
/// Characters kept of each stderr line.
pub const STDERR_LINE_CHARS: usize = 300;
/// Lines read ahead of the consumer: the reader waits (and the engine with it, its pipe full)
/// rather than keep more, so a flooding engine costs at most this many lines of memory.
pub const READ_AHEAD_LINES: usize = 1024;
/// How often [`EngineProcess::read_line_while_running`] looks whether a quiet child has exited.
pub const EXIT_POLL: Duration = Duration::from_millis(50);
/// How long [`EngineProcess::stderr_tail`] waits for the end of a child's stderr.
pub const STDERR_GRACE: Duration = Duration::from_millis(20);

/// A command line that cannot be split into words (the line quoted in full).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// No word at all.
    #[error("empty command")]
    Empty,
    /// A `'` never closed.
    #[error("unclosed ' in `{0}`")]
    UnclosedSingleQuote(String),
    /// A `"` never closed.
    #[error("unclosed \" in `{0}`")]
    UnclosedDoubleQuote(String),
    /// A backslash with nothing after it.
    #[error("trailing backslash in `{0}`")]
    TrailingBackslash(String),
}

/// Splits a command line into words the way a POSIX shell would for simple input: blanks
/// separate words, `'...'` keeps everything literally, `"..."` keeps everything but `\"`, `\\`,
/// `\$` and `` \` ``, and a backslash outside quotes escapes the next character.
///
/// # Errors
/// An unclosed quote or a trailing backslash.
pub fn split_command(text: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(q) => word.push(q),
                        None => return Err(CommandError::UnclosedSingleQuote(text.into())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some(other) => {
                                word.push('\\');
                                word.push(other);
                            }
                            None => return Err(CommandError::UnclosedDoubleQuote(text.into())),
                        },
                        Some(q) => word.push(q),
                        None => return Err(CommandError::UnclosedDoubleQuote(text.into())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(e) => word.push(e),
                    None => return Err(CommandError::TrailingBackslash(text.into())),
                }
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// `word` as one word of a command line that [`split_command`] (and a POSIX shell) reads back
/// as it is, whatever it holds: a plain word as it is, any other in single quotes (a `'` in it
/// written `'\''`).
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Quotes a word for a shell when it needs it (for printed command lines): a plain word as it
/// is, others in single quotes, and a word holding a character that a terminal, a page or a
/// copy of it would not show as itself (a control character, a bidirectional control, see
/// [`crate::report::shows_as_itself`]) in the `$'...'` form of bash, zsh, ksh and POSIX.1-2024,
/// every such character escaped (`\n`, `\t`, else its UTF-8 bytes as three octal digits,
/// `\NNN`: a `\xNN` escape followed by a hex digit is read on by ksh), so that the command
/// shown is the command run.
pub fn shell_quote(word: &str) -> String {
    if word.chars().all(crate::report::shows_as_itself) {
        return quote_word(word);
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            c if crate::report::shows_as_itself(c) => out.push(c),
            c => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    out.push_str(&format!("\\{byte:03o}"));
                }
            }
        }
    }
    out.push('\'');
    out
}

/// What the reader of a child's stdout saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadLine {
    /// One line, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// End of output: the process closed its stdout.
    Eof,
    /// A line longer than [`MAX_LINE`] bytes (its start, for quoting).
    Overlong(String),
    /// Nothing arrived before the deadline.
    Timeout,
}

/// How a child's stdout was read.
enum Event {
    Line(String),
    Overlong(String),
    Eof,
}

/// Why a process could not be started.
#[derive(Debug)]
pub enum SpawnError {
    /// The program does not exist.
    NotFound,
    /// It exists but may not be run.
    PermissionDenied,
    /// Any other failure.
    Other(std::io::Error),
}

/// A running child in its own process group, its stdout read line by line with deadlines.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected once the stderr reader has seen the end of the child's stderr.
    stderr_done: Receiver<()>,
    finished: bool,
}

impl EngineProcess {
    /// Starts `argv[0]` with the other words as arguments, stdin and stdout piped, in a new
    /// process group.
    ///
    /// # Errors
    /// The program is missing, not executable, or cannot be started.
    pub fn spawn(argv: &[String]) -> Result<EngineProcess, SpawnError> {
        let Some((program, args)) = argv.split_first() else {
            return Err(SpawnError::NotFound);
        };
        // Listed for the clean-up on SIGINT, SIGTERM and SIGHUP from the moment it exists.
        let mut child = cleanup::track(|| {
            let mut command = Command::new(program);
            command
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0);
            // SAFETY: the closure runs in the child between fork and exec and calls only
            // async-signal-safe functions (see `unblock_signals`); it allocates nothing.
            unsafe {
                command.pre_exec(cleanup::unblock_signals);
            }
            let child = command.spawn()?;
            let group = Tracked::ProcessGroup(child.id() as i32);
            Ok((child, group))
        })
        .map_err(|e: std::io::Error| match e.kind() {
            std::io::ErrorKind::NotFound => SpawnError::NotFound,
            std::io::ErrorKind::PermissionDenied => SpawnError::PermissionDenied,
            _ => SpawnError::Other(e),
        })?;
        let stdin = child.stdin.take();
        if let Some(pipe) = &stdin {
            // Writes wait for the engine only until a deadline ([`EngineProcess::send`]).
            set_nonblocking(pipe.as_raw_fd());
        }
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (tx, rx) = sync_channel(READ_AHEAD_LINES);
        if let Some(out) = stdout {
            thread::spawn(move || {
                let mut reader = BufReader::new(out);
                loop {
                    let mut buf = Vec::new();
                    let limit = (MAX_LINE + 1) as u64;
                    match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                        Ok(_) => {
                            if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
                                buf.truncate(80);
                                let start = String::from_utf8_lossy(&buf).into_owned();
                                let _ = tx.send(Event::Overlong(start));
                                return;
                            }
                            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                                buf.pop();
                            }
                            let line = String::from_utf8_lossy(&buf).into_owned();
                            if tx.send(Event::Line(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        // The reader holds `done` until the end of stderr; dropping it tells the waiting
        // `stderr_tail` that every line is in.
        let (done, stderr_done) = sync_channel::<()>(0);
        if let Some(err) = stderr_pipe {
            let tail = Arc::clone(&tail);
            thread::spawn(move || {
                let _done = done;
                let mut reader = BufReader::new(err);
                loop {
                    let mut buf = Vec::new();
                    match (&mut reader).take(4096).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let mut line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if line.chars().count() > STDERR_LINE_CHARS {
                                line = line.chars().take(STDERR_LINE_CHARS).collect();
                                line.push_str("...");
                            }
                            if line.is_empty() {
                                continue;
                            }
                            if let Ok(mut t) = tail.lock() {
                                if t.len() == STDERR_TAIL_LINES {
                                    t.pop_front();
                                }
                                t.push_back(line);
                            }
                        }
                    }
                }
            });
        }
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr: tail,
            stderr_done,
            finished: false,
        })
    }

    /// The process id (also its process group id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line to the child's stdin, all of it written by `deadline`: a child that stops
    /// reading while its pipe is full does not keep the caller waiting past it.
    ///
    /// # Errors
    /// The child closed its stdin (it has probably exited), or [`std::io::ErrorKind::TimedOut`]
    /// when it had not read enough of the line by `deadline`.
    pub fn send(&mut self, line: &str, deadline: Instant) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        let bytes = [line.as_bytes(), b"\n"].concat();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            match stdin.write(rest) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    wait_writable(stdin.as_raw_fd(), deadline)?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Closes the child's stdin.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads the next stdout line, waiting at most until `deadline`. Once the deadline has
    /// passed this is a time-out even when lines are waiting: an engine that floods faster
    /// than its lines are handled does not keep the question alive past its deadline.
    pub fn read_line(&mut self, deadline: Instant) -> ReadLine {
        let now = Instant::now();
        if now >= deadline {
            return ReadLine::Timeout;
        }
        let wait = deadline.saturating_duration_since(now);
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(l)) => ReadLine::Line(l),
            Ok(Event::Overlong(start)) => ReadLine::Overlong(start),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => ReadLine::Eof,
            Err(RecvTimeoutError::Timeout) => ReadLine::Timeout,
        }
    }

    /// [`EngineProcess::read_line`] for a child that should live on (a UCI engine): once it has
    /// exited while its output stays open, what is left of its group (a process it started,
    /// holding the output) is killed, so that the output ends and the exit is told as such
    /// rather than waited out to the deadline as a time-out. A process moved out of the group
    /// (`setsid`) is out of reach, and its output is read on.
    pub fn read_line_while_running(&mut self, deadline: Instant) -> ReadLine {
        loop {
            match self.read_line(deadline.min(Instant::now() + EXIT_POLL)) {
                ReadLine::Timeout if Instant::now() < deadline => {
                    if self.has_exited() {
                        self.kill_group();
                    }
                }
                other => return other,
            }
        }
    }

    /// The last lines the child wrote to stderr, joined with ` | ` (empty if none). The
    /// reader may still be catching up with a process that just died: this waits for the end
    /// of its stderr, at most [`STDERR_GRACE`] (a process the child started may hold it open).
    pub fn stderr_tail(&self) -> String {
        let _ = self.stderr_done.recv_timeout(STDERR_GRACE);
        match self.stderr.lock() {
            Ok(t) => t.iter().cloned().collect::<Vec<_>>().join(" | "),
            Err(_) => String::new(),
        }
    }

    /// Waits for the child to exit, at most until `deadline`; kills its group if it does not.
    /// Returns its exit status, or `None` when it had to be killed.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        // A child that closed its output is usually gone within a fraction of a millisecond:
        // the first looks come soon, the later ones every 5 ms.
        let mut pause = Duration::from_micros(100);
        loop {
            if self.has_exited() {
                // Whatever the child left running in its group goes with it.
                self.kill_group();
                self.forget_group();
                self.finished = true;
                return self.child.wait().ok();
            }
            if Instant::now() >= deadline {
                self.kill();
                return None;
            }
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(5));
        }
    }

    /// Kills the whole process group and reaps the child.
    pub fn kill(&mut self) {
        self.stdin = None;
        if !self.finished {
            self.kill_group();
            self.forget_group();
            let _ = self.child.wait();
            self.finished = true;
        }
    }

    /// Takes the group off the clean-up list (done before the leader is reaped, so the listed
    /// id never names another group).
    fn forget_group(&self) {
        cleanup::untrack(&Tracked::ProcessGroup(self.child.id() as i32));
    }

    /// Whether the child has exited, leaving it unreaped (so its id stays reserved).
    pub fn has_exited(&self) -> bool {
        if self.finished {
            return true;
        }
        // SAFETY: waitid(2) writes into the zeroed siginfo we own; WNOWAIT leaves the child
        // waitable, so `Child::wait` still reaps it later.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let rc = libc::waitid(
                libc::P_PID,
                self.child.id() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            rc == 0 && info.si_pid() != 0
        }
    }

    fn kill_group(&self) {
        let pgid = self.child.id() as libc::pid_t;
        if pgid > 1 && !self.finished {
            // SAFETY: kill(2) with a negative pid signals the process group created by
            // process_group(0) at spawn. The leader is not reaped yet (`finished` is false), so
            // its id, which names the group, cannot have been reused.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }

    /// Asks the child to stop: sends `line` (e.g. `quit`), closes stdin, gives it `grace` to
    /// exit, then kills whatever is left of its group and reaps it.
    pub fn shut_down(&mut self, line: Option<&str>, grace: Duration) {
        if self.finished {
            return;
        }
        if let Some(l) = line {
            let _ = self.send(l, Instant::now() + grace);
        }
        self.stdin = None;
        let _ = self.wait_until(Instant::now() + grace);
    }
}

/// Makes writes to `fd` return at once when its pipe is full.
fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl(2) on a descriptor the caller owns; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// Waits until `fd` can be written to, at most until `deadline`.
///
/// # Errors
/// [`std::io::ErrorKind::TimedOut`] at the deadline; poll(2)'s own errors.
fn wait_writable(fd: RawFd, deadline: Instant) -> std::io::Result<()> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    // Rounded up, so that a wait under a millisecond is no busy loop.
    let millis = left.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32;
    let mut pollfd = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: poll(2) reads and writes the one pollfd we own.
    let rc = unsafe { libc::poll(&mut pollfd, 1, millis) };
    match rc {
        -1 => {
            let e = std::io::Error::last_os_error();
            match e.kind() {
                std::io::ErrorKind::Interrupted => Ok(()),
                _ => Err(e),
            }
        }
        // Writable, or an error or hang-up that the next write reports; a time-out is
        // checked against the deadline by the next wait.
        _ => Ok(()),
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let w = split_command(r#"a  'b c' "d \"e\" $f" g\ h"#).unwrap();
        assert_eq!(w, vec!["a", "b c", r#"d "e" $f"#, "g h"]);
        assert_eq!(split_command("").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("''").unwrap(), vec![""]);
        let refused = |text: &str| split_command(text).expect_err(text).to_string();
        assert_eq!(refused("'open"), "unclosed ' in `'open`");
        assert_eq!(refused("\"open"), "unclosed \" in `\"open`");
        assert_eq!(refused("\"open\\"), "unclosed \" in `\"open\\`");
        assert_eq!(refused("x\\"), "trailing backslash in `x\\`");
    }

    #[test]
    fn quoting_round_trips() {
        for w in ["plain", "two words", "it's", "", "a\"b"] {
            let q = shell_quote(w);
            assert_eq!(split_command(&q).unwrap(), vec![w.to_string()]);
        }
    }

    #[test]
    fn words_a_page_would_not_show_as_themselves_are_quoted_with_escapes() {
        assert_eq!(shell_quote("plain/path-1.0"), "plain/path-1.0");
        assert_eq!(shell_quote("two words"), "'two words'");
        assert_eq!(shell_quote("a\nb\u{1b}[1m"), r"$'a\nb\033[1m'");
        assert_eq!(shell_quote("it's\t\\"), r"$'it\'s\t\\'");
        assert_eq!(
            shell_quote("x\u{85}\u{202e}y"),
            r"$'x\302\205\342\200\256y'"
        );
        // bash reads each back as the word quoted, and so do zsh and ksh where installed (a
        // digit after an escape: ksh reads a `\xNN` escape on through every hex digit).
        let words = [
            "a\nb\u{1b}[1m",
            "it's\t\\ \"q\" $HOME `x`",
            "\u{7f}\u{85}\u{202e}\u{2028}\u{ffff}é♞",
            "\u{1}\r",
            "\u{1}b",
            "\u{1}7",
            "\u{202e}ab",
        ];
        let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
        for shell in ["bash", "zsh", "ksh"] {
            let Ok(out) = std::process::Command::new(shell)
                .arg("-c")
                .arg(format!("printf '%s\\0' {}", quoted.join(" ")))
                .output()
            else {
                assert_ne!(shell, "bash", "bash runs");
                continue;
            };
            let read: Vec<&str> = std::str::from_utf8(&out.stdout)
                .expect("utf-8")
                .split_terminator('\0')
                .collect();
            assert_eq!(read, words, "{shell}: {quoted:?}");
        }
    }

    #[test]
    fn reads_lines_and_times_out() {
        let argv: Vec<String> = ["sh", "-c", "echo one; sleep 5"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut p = EngineProcess::spawn(&argv).unwrap_or_else(|_| panic!("sh"));
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.read_line(soon), ReadLine::Line("one".into()));
        let started = Instant::now();
        let short = Instant::now() + Duration::from_millis(100);
        assert_eq!(p.read_line(short), ReadLine::Timeout);
        p.kill();
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    fn sh(script: &str) -> EngineProcess {
        let argv = ["sh", "-c", script].map(String::from);
        EngineProcess::spawn(&argv).unwrap_or_else(|_| panic!("sh"))
    }

    #[test]
    fn the_stderr_tail_has_the_last_lines_of_a_child_that_exited() {
        for _ in 0..5 {
            let mut p = sh(
                "i=0; while [ $i -lt 3000 ]; do echo line$i >&2; i=$((i+1)); done; \
                 exit 3",
            );
            let status = p.wait_until(Instant::now() + Duration::from_secs(10));
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            let last: Vec<String> = (3000 - STDERR_TAIL_LINES..3000)
                .map(|i| format!("line{i}"))
                .collect();
            assert_eq!(p.stderr_tail(), last.join(" | "));
        }
    }

    #[test]
    fn the_stderr_tail_does_not_wait_for_a_process_left_holding_stderr() {
        // `setsid` takes the sleeper out of the group that is killed: stderr stays open.
        let mut p = sh("echo said >&2; setsid sleep 3 & exit 1");
        assert!(
            p.wait_until(Instant::now() + Duration::from_secs(10))
                .is_some()
        );
        let started = Instant::now();
        assert_eq!(p.stderr_tail(), "said");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn engines_start_with_the_ending_signals_unblocked() {
        // The binary blocks them in every thread but its signal thread; here, this thread.
        // SAFETY: pthread_sigmask changes only this test thread's mask, restored below.
        let blocked = |how| unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::pthread_sigmask(how, &set, std::ptr::null_mut())
        };
        assert_eq!(blocked(libc::SIG_BLOCK), 0);
        // The engine reads its own mask (a shell would block signals around its forks).
        let argv: Vec<String> = ["grep", "SigBlk", "/proc/self/status"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let spawned = EngineProcess::spawn(&argv);
        assert_eq!(blocked(libc::SIG_UNBLOCK), 0);
        let mut p = spawned.unwrap_or_else(|_| panic!("sh"));
        let line = p.read_line(Instant::now() + Duration::from_secs(5));
        let ReadLine::Line(line) = line else {
            panic!("{line:?}")
        };
        let mask = u64::from_str_radix(line.trim_start_matches("SigBlk:").trim(), 16);
        assert_eq!(mask.map(|m| m & (1 << (libc::SIGINT - 1))), Ok(0), "{line}");
    }

    #[test]
    fn engines_start_with_sigxfsz_at_its_default_action() {
        // The binary ignores SIGXFSZ (a write past `ulimit -f` then fails instead of killing
        // it); an ignored signal stays ignored across exec, so the engine must get it back.
        // SAFETY: signal(2) sets the action of one signal, restored below.
        let set = |action| unsafe { libc::signal(libc::SIGXFSZ, action) };
        assert_ne!(set(libc::SIG_IGN), libc::SIG_ERR);
        let argv: Vec<String> = ["grep", "SigIgn", "/proc/self/status"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let spawned = EngineProcess::spawn(&argv);
        assert_ne!(set(libc::SIG_DFL), libc::SIG_ERR);
        let mut p = spawned.unwrap_or_else(|_| panic!("grep"));
        let line = p.read_line(Instant::now() + Duration::from_secs(5));
        let ReadLine::Line(line) = line else {
            panic!("{line:?}")
        };
        let ignored = u64::from_str_radix(line.trim_start_matches("SigIgn:").trim(), 16);
        assert_eq!(
            ignored.map(|m| m & (1 << (libc::SIGXFSZ - 1))),
            Ok(0),
            "{line}"
        );
    }

    #[test]
    fn missing_program_is_not_found() {
        let argv = vec!["/nonexistent/engine".to_string()];
        assert!(matches!(
            EngineProcess::spawn(&argv),
            Err(SpawnError::NotFound)
        ));
    }
}

//! What must not outlive an interrupted run: engine process groups and temporary files.
//!
//! Engines run in process groups of their own and reports are written to temporary files that
//! are renamed into place; both are undone by their owners' `Drop`. A signal ends the process
//! without running any `Drop`, so every such resource is also listed here, and
//! [`install_signal_handling`] (called once by the binary) kills the listed groups and removes
//! the listed files when SIGINT, SIGTERM or SIGHUP arrives, then lets the binary exit.
//!
//! Registration and the clean-up share one lock, and a resource is registered while that lock
//! is held around its creation ([`track`]): an engine is never started, nor a temporary file
//! created, between the clean-up and the exit. The signals are taken by one thread with
//! `sigwait` (they are blocked in every other thread), so the clean-up runs as ordinary code, not
//! in an asynchronous signal handler. Engines are started with those signals unblocked again
//! ([`unblock_signals`]), as a child inherits its parent's mask.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Something to undo if the process is interrupted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tracked {
    /// A process group to kill (its id, the id of its leader, which is not reaped yet).
    ProcessGroup(i32),
    /// A temporary file to remove.
    TempFile(PathBuf),
}

struct Registry {
    items: Vec<Tracked>,
    /// Engine leaders started and not reaped yet (listed or not): never taken for orphans.
    leaders: Vec<i32>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    items: Vec::new(),
    leaders: Vec::new(),
});

/// Whether this process reaps its orphaned descendants ([`become_subreaper`]).
static SUBREAPER: AtomicBool = AtomicBool::new(false);

fn registry() -> MutexGuard<'static, Registry> {
    // A panic elsewhere while the lock was held leaves a list that is still valid.
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `create` with the registry locked and registers what it reports it created.
///
/// # Errors
/// Whatever `create` returns (nothing is registered then).
pub fn track<T, E>(create: impl FnOnce() -> Result<(T, Tracked), E>) -> Result<T, E> {
    let mut guard = registry();
    let (value, item) = create()?;
    if let Tracked::ProcessGroup(leader) = item {
        guard.leaders.push(leader);
    }
    guard.items.push(item);
    Ok(value)
}

/// Makes this process the reaper of its orphaned descendants (Linux's
/// `PR_SET_CHILD_SUBREAPER`): a helper an engine started in a session or process group of its
/// own (`setsid`), out of reach of the engine's group, is handed to this process instead of
/// init when the engine dies, and [`reaped`] then kills it. Called once by the binary;
/// a program using the library decides for itself. Returns whether it took effect.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER only sets a flag of this process.
        let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        if rc == 0 {
            SUBREAPER.store(true, Ordering::SeqCst);
        }
    }
    SUBREAPER.load(Ordering::SeqCst)
}

/// An engine leader was reaped: forget it, then, when it was the last engine running (in a
/// subreaper), kill and reap every child of this process, orphans handed over by the engines
/// that died, until none is left (killing one may hand over its own orphans). Returns how many
/// were killed. While another engine runs, nothing is swept: an orphan cannot be told apart
/// from a helper that engine started and still uses (a double fork hands it over at once).
pub fn reaped(leader: i32) -> usize {
    let mut guard = registry();
    if let Some(i) = guard.leaders.iter().position(|&l| l == leader) {
        guard.leaders.swap_remove(i);
    }
    if !SUBREAPER.load(Ordering::SeqCst) || !guard.leaders.is_empty() {
        return 0;
    }
    sweep_orphans(&[])
}

/// Kills and reaps the children of this process that are not in `leaders` (with the registry
/// locked, so that no engine is being started meanwhile).
fn sweep_orphans(leaders: &[i32]) -> usize {
    let me = std::process::id() as i32;
    let mut killed = 0;
    // Each round reaps the orphans found, whose own orphans are ours by then; a bound in case
    // something keeps forking faster than it is killed.
    for _ in 0..100 {
        let orphans: Vec<i32> = children_of(me)
            .into_iter()
            .filter(|pid| !leaders.contains(pid))
            .collect();
        if orphans.is_empty() {
            break;
        }
        for pid in orphans {
            // SAFETY: kill(2) and waitpid(2) on a child of this process, which is not reaped
            // until the waitpid below, so its id (and its group's, when it leads one) is its
            // own. Killing the group first takes the orphan's own helpers with it.
            unsafe {
                if libc::getpgid(pid) == pid {
                    libc::kill(-pid, libc::SIGKILL);
                }
                libc::kill(pid, libc::SIGKILL);
                let mut status = 0;
                libc::waitpid(pid, &mut status, 0);
            }
            killed += 1;
        }
    }
    killed
}

/// The processes whose parent is `parent` (from `/proc`; none where it cannot be read).
fn children_of(parent: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the command may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        if ppid == Some(parent) {
            children.push(pid);
        }
    }
    children
}

/// Removes an item from the list (its owner has undone it, or it needs no undoing any more).
pub fn untrack(item: &Tracked) {
    let mut guard = registry();
    if let Some(i) = guard.items.iter().rposition(|t| t == item) {
        guard.items.swap_remove(i);
    }
}

/// Removes a temporary file's entry (after it was renamed or removed).
pub fn untrack_file(path: &Path) {
    untrack(&Tracked::TempFile(path.to_path_buf()));
}

/// Whether `item` is listed.
pub fn is_tracked(item: &Tracked) -> bool {
    registry().items.contains(item)
}

/// What the clean-up after a signal did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Undone {
    /// Engine process groups killed.
    pub groups: usize,
    /// Temporary files removed.
    pub files: usize,
}

/// Kills every listed process group and removes every listed file. Returns with the registry
/// locked, so that nothing new is started before the process exits.
fn undo_all() -> (MutexGuard<'static, Registry>, Undone) {
    let mut guard = registry();
    let mut undone = Undone::default();
    let items: Vec<Tracked> = guard.items.drain(..).collect();
    for item in items {
        match item {
            Tracked::ProcessGroup(pgid) if pgid > 1 => {
                undone.groups += 1;
                // SAFETY: kill(2) only sends a signal; the group's leader is not reaped while it
                // is listed, so the id still names the group the engine was started in.
                unsafe {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
            Tracked::ProcessGroup(_) => {}
            Tracked::TempFile(path) => {
                undone.files += usize::from(std::fs::remove_file(path).is_ok());
            }
        }
    }
    if SUBREAPER.load(Ordering::SeqCst) {
        // The killed leaders hand their orphans over as they die: reap the leaders (killed
        // above, they die at once; a leader stuck in the kernel is waited for at most 200 ms),
        // then the orphans.
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
        let mut leaders = std::mem::take(&mut guard.leaders);
        while !leaders.is_empty() && std::time::Instant::now() < deadline {
            leaders.retain(|&pid| {
                let mut status = 0;
                // SAFETY: waitpid(2) on a child of this process, without blocking.
                unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) == 0 }
            });
            if !leaders.is_empty() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        sweep_orphans(&leaders);
    }
    (guard, undone)
}

/// The signals that end a run: interrupt, termination, hang-up.
pub const SIGNALS: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The name of one of [`SIGNALS`].
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

fn signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset and sigaddset initialise and fill the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Unblocks SIGINT, SIGTERM and SIGHUP in the calling thread. Meant for a child process
/// between `fork` and `exec` (`CommandExt::pre_exec`), which would otherwise inherit the mask
/// that [`install_signal_handling`] set: it only calls `sigemptyset`, `sigaddset` and
/// `pthread_sigmask`, which are async-signal-safe.
///
/// # Errors
/// The mask cannot be changed.
pub fn unblock_signals() -> std::io::Result<()> {
    let set = signal_set();
    // SAFETY: pthread_sigmask reads the set we own and changes only this thread's mask.
    let rc = unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(rc))
    }
}

/// Takes SIGINT, SIGTERM and SIGHUP away from every thread of the process and gives them to a
/// thread of their own, which undoes every listed item, then calls `on_signal` with the signal
/// and what was undone (the binary reports it) and exits with status 128 + the signal's number
/// (130, 143, 129).
///
/// Call it once, first thing in `main`, before any other thread exists: threads started later
/// inherit the blocked mask.
///
/// # Errors
/// The signal mask cannot be changed or the thread cannot be started.
pub fn install_signal_handling(on_signal: fn(i32, Undone)) -> std::io::Result<()> {
    let set = signal_set();
    // SAFETY: pthread_sigmask reads the set we own and changes only this thread's mask.
    let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if rc != 0 {
        return Err(std::io::Error::from_raw_os_error(rc));
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let mut signal: libc::c_int = 0;
                // SAFETY: sigwait reads the set and writes the signal number we own.
                let rc = unsafe { libc::sigwait(&set, &mut signal) };
                if rc != 0 {
                    continue;
                }
                let (_guard, undone) = undo_all();
                // The report may block (a stderr pipe nobody reads, a lock another thread
                // holds while blocked on it): the exit does not wait for it long.
                let (done, reported) = std::sync::mpsc::channel();
                let _ = std::thread::Builder::new().spawn(move || {
                    on_signal(signal, undone);
                    let _ = done.send(());
                });
                let _ = reported.recv_timeout(std::time::Duration::from_millis(500));
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_listed_until_untracked() {
        let path = PathBuf::from("/nonexistent/cleanup-test.tmp");
        let item = Tracked::TempFile(path.clone());
        let value: Result<u8, ()> = track(|| Ok((7, item.clone())));
        assert_eq!(value, Ok(7));
        assert!(is_tracked(&item));
        untrack_file(&path);
        assert!(!is_tracked(&item));
        let failed: Result<u8, &str> = track(|| Err("not created"));
        assert_eq!(failed, Err("not created"));
    }
}

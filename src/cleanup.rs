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
    /// Files this run has put in place ([`renaming`]), each named once.
    written: Vec<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    items: Vec::new(),
    written: Vec::new(),
});

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
    guard.items.push(item);
    Ok(value)
}

/// Removes an item from the list (its owner has undone it, or it needs no undoing any more).
pub fn untrack(item: &Tracked) {
    let mut guard = registry();
    if let Some(i) = guard.items.iter().rposition(|t| t == item) {
        guard.items.swap_remove(i);
    }
}

/// Runs `rename`, which gives the temporary file `temp` the name `target`, with the registry
/// locked, and on success lists `target` as written instead of `temp` as temporary. A signal's
/// clean-up then comes wholly before the rename (the temporary file removed, `target` as it
/// was) or wholly after it (`target` reported as written, [`Undone::written`]): never between.
///
/// # Errors
/// Whatever `rename` returns (nothing changes in the list then).
pub fn renaming<T, E>(
    temp: &Path,
    target: &Path,
    rename: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let mut guard = registry();
    let value = rename()?;
    let item = Tracked::TempFile(temp.to_path_buf());
    if let Some(i) = guard.items.iter().rposition(|t| *t == item) {
        guard.items.swap_remove(i);
    }
    if !guard.written.iter().any(|w| w == target) {
        guard.written.push(target.to_path_buf());
    }
    Ok(value)
}

/// Removes a temporary file's entry (after it was renamed or removed).
pub fn untrack_file(path: &Path) {
    untrack(&Tracked::TempFile(path.to_path_buf()));
}

/// Whether `item` is listed.
pub fn is_tracked(item: &Tracked) -> bool {
    registry().items.contains(item)
}

/// What the clean-up after a signal did, and what the run had already written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Undone {
    /// Engine process groups killed.
    pub groups: usize,
    /// Temporary files removed.
    pub files: usize,
    /// Files the run had already put in place before the signal ([`renaming`]): they hold the
    /// run's change, whatever the exit status says.
    pub written: Vec<PathBuf>,
}

/// Kills every listed process group and removes every listed file. Returns with the registry
/// locked, so that nothing new is started before the process exits.
fn undo_all() -> (MutexGuard<'static, Registry>, Undone) {
    let mut guard = registry();
    let mut undone = Undone {
        written: guard.written.clone(),
        ..Undone::default()
    };
    for item in guard.items.drain(..) {
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

/// Unblocks SIGINT, SIGTERM and SIGHUP in the calling thread, and gives SIGXFSZ back its
/// default action. Meant for a child process between `fork` and `exec`
/// (`CommandExt::pre_exec`), which would otherwise inherit the mask and the ignored SIGXFSZ
/// that [`install_signal_handling`] set: it only calls `signal`, `sigemptyset`, `sigaddset`
/// and `pthread_sigmask`, which are async-signal-safe.
///
/// # Errors
/// The mask cannot be changed.
pub fn unblock_signals() -> std::io::Result<()> {
    // SAFETY: signal(2) only sets the action of a signal; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
    }
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
/// SIGXFSZ, which a write past the file size limit (`ulimit -f`) raises, is ignored: the write
/// then fails as on a full disk, and the writer removes its temporary file and says why,
/// instead of the process being killed with the file left behind.
///
/// Call it once, first thing in `main`, before any other thread exists: threads started later
/// inherit the blocked mask.
///
/// # Errors
/// The signal mask cannot be changed or the thread cannot be started.
pub fn install_signal_handling(on_signal: fn(i32, Undone)) -> std::io::Result<()> {
    // SAFETY: signal(2) only sets the action of a signal; SIG_IGN is always valid.
    if unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) } == libc::SIG_ERR {
        return Err(std::io::Error::last_os_error());
    }
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

    #[test]
    fn a_rename_lists_its_target_as_written_in_place_of_its_temporary_file() {
        let temp = PathBuf::from("/nonexistent/.renaming-test.tmp");
        let target = PathBuf::from("/nonexistent/renaming-test.yaml");
        let item = Tracked::TempFile(temp.clone());
        let _: Result<(), ()> = track(|| Ok(((), item.clone())));
        // A failed rename changes nothing.
        let failed: Result<(), &str> = renaming(&temp, &target, || Err("refused"));
        assert_eq!(failed, Err("refused"));
        assert!(is_tracked(&item));
        assert!(!registry().written.contains(&target));
        renaming(&temp, &target, || Ok::<(), ()>(())).expect("renamed");
        renaming(&temp, &target, || Ok::<(), ()>(())).expect("renamed again");
        assert!(!is_tracked(&item));
        let written = registry().written.clone();
        assert_eq!(written.iter().filter(|w| **w == target).count(), 1);
    }
}

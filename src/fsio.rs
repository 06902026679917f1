//! Reading and rewriting files without losing anyone's work.
//!
//! cvperft rewrites two kinds of file: suites (`add-case` splices a case into one) and reports
//! (`check --output`). Both are replaced whole: the new text goes to a temporary file beside the
//! target, which is synced and renamed over it, so a reader sees the old file or the new one,
//! never a mixture. Around that, this module keeps the promises that a plain write-and-rename
//! breaks:
//!
//! - **Read-modify-write is serialised** by an exclusive `flock` on a sidecar lock file
//!   (`.NAME.lock` beside the file; the file's own inode is replaced at the rename, so a lock on
//!   it would protect nothing), waited for at most a timeout ([`lock_beside`], [`Update`]). A
//!   file changed behind the lock's back between the read and the rename is not replaced.
//! - **Temporary files** have unpredictable names that do not end in `.yaml`
//!   (`.NAME.<16 hex digits>.tmp`), are created with `O_EXCL` (a planted file or symbolic link
//!   makes the creation fail instead of being followed), and are removed on error, on drop and,
//!   through [`crate::cleanup`], on SIGINT, SIGTERM and SIGHUP.
//! - **Links**: a symbolic link is followed to the real file, which is replaced (the link is
//!   kept); a file with several hard links, or without write permission, is refused, since the
//!   rename would split the links or overrule the permission.
//! - **Mode and owner** of the replaced file are given to its replacement; when the owner cannot
//!   be kept (only root may give a file away), the rewrite is refused.
//! - **Outputs** that are devices or FIFOs are written directly, never replaced; directories,
//!   sockets and the run's own inputs are refused ([`output_target`]).
//! - **Reads are bounded** ([`read_capped`]): a file larger than the limit, or a device that never
//!   ends (`/dev/zero`), is refused after reading one byte more than the limit.
//!
//! Every refusal is a [`FileError`] naming the file (or the lock) and saying what to do.

use crate::cleanup::{self, Tracked};
use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Default seconds to wait for another writer's lock.
pub const DEFAULT_LOCK_TIMEOUT_SECS: f64 = 30.0;
/// Longest wait for a process to open a FIFO given as an output.
pub const FIFO_READER_WAIT: Duration = Duration::from_secs(10);
/// Longest wait for the first bytes (or the end) of a FIFO read with
/// [`read_capped_awaiting_writer`].
pub const FIFO_WRITER_WAIT: Duration = Duration::from_secs(10);
/// Most symbolic links followed from one path.
const MAX_LINKS: usize = 40;

/// A file that cannot be read or written as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", .path.display())]
pub struct FileError {
    /// The file (or lock file) concerned.
    pub path: PathBuf,
    /// What is wrong.
    pub reason: FileReason,
}

/// Why a file cannot be read or written as asked (each one line of text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileReason {
    /// The system refused (its message, without the `(os error N)` suffix).
    #[error("{0}")]
    Io(String),
    /// A directory where a file is read.
    #[error("is a directory, not a file")]
    Directory,
    /// Larger than the input limit.
    #[error("{size} bytes, larger than the limit of {limit} bytes")]
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Reading it failed, or it went on past the limit.
    #[error("{0}")]
    Read(CappedReadError),
    /// Too many symbolic links.
    #[error("more than {MAX_LINKS} symbolic links to follow (a loop?)")]
    LinkLoop,
    /// The path ends in no file name.
    #[error("names no file")]
    NoFileName,
    /// The lock file is a symbolic link.
    #[error(
        "the lock file is a symbolic link; cvperft does not follow links for locks (remove it)"
    )]
    LockIsLink,
    /// The lock file cannot be opened.
    #[error("cannot create or open the lock file: {0}")]
    LockOpen(String),
    /// The lock file is not a regular file.
    #[error("the lock file is not a regular file (remove it)")]
    LockNotFile,
    /// Locking failed.
    #[error("cannot lock: {0}")]
    Lock(String),
    /// Another process held the lock for the whole timeout.
    #[error(
        "another process holds the lock on {} (waited {} s, see --lock-timeout); nothing was \
         written",
        .file.display(),
        seconds(*.timeout)
    )]
    LockHeld {
        /// The file the lock guards.
        file: PathBuf,
        /// How long cvperft waited.
        timeout: Duration,
    },
    /// Not a regular file where one is rewritten.
    #[error("is not a regular file")]
    NotRegular,
    /// More than one hard link.
    #[error(
        "has {0} hard links; cvperft replaces a file by renaming a new one over it, which would \
         split them (keep one link, or work on a copy)"
    )]
    HardLinks(u64),
    /// No write permission in its mode.
    #[error("is read-only (mode {0:04o}); cvperft does not rewrite it (make it writable first)")]
    ReadOnly(u32),
    /// The path holds a NUL byte.
    #[error("contains a NUL byte")]
    NulByte,
    /// Not writable by this user.
    #[error("is not writable by you; cvperft does not rewrite it")]
    NotWritable,
    /// Owned by another user.
    #[error(
        "belongs to user {0}; its replacement would belong to you, so cvperft does not rewrite it"
    )]
    OtherOwner(u32),
    /// No temporary file could be made in the directory.
    #[error("cannot create a temporary file in {}: {error}", .dir.display())]
    TempIn {
        /// The directory.
        dir: PathBuf,
        /// The system's message.
        error: String,
    },
    /// No temporary file could be made beside it (every name taken).
    #[error("cannot create a temporary file beside it: {0}")]
    TempBeside(String),
    /// The rewritten file cannot be given the old one's owner.
    #[error(
        "cannot give the rewritten file its owner (user {uid}, group {gid}): {error}; nothing \
         was written"
    )]
    Owner {
        /// The owner.
        uid: u32,
        /// The group.
        gid: u32,
        /// The system's message.
        error: String,
    },
    /// The rewritten file cannot be given the old one's mode.
    #[error("cannot keep its mode: {0}")]
    Mode(String),
    /// Writing the temporary file failed.
    #[error("writing {}: {error}", .temp.display())]
    Writing {
        /// The temporary file.
        temp: PathBuf,
        /// The system's message.
        error: String,
    },
    /// Someone else changed the file meanwhile.
    #[error(
        "was changed by another program while cvperft worked on it; nothing was written (run \
         again)"
    )]
    Changed,
    /// The temporary file cannot be renamed over it.
    #[error("cannot rename {} over it: {error}", .temp.display())]
    Rename {
        /// The temporary file.
        temp: PathBuf,
        /// The system's message.
        error: String,
    },
    /// The output (a report, an export, a plan) would overwrite an input of the run.
    #[error("is an input of this run; writing the output there would destroy it")]
    OutputIsInput,
    /// The output path is the regular file standard output or standard error is written to.
    #[error(
        "is {0}, a file that the output would replace, losing what it held (leave out --output \
         to write to standard output, or give the output a file of its own)"
    )]
    OutputIsStream(&'static str),
    /// The output path is a directory.
    #[error("is a directory; give the name of a file")]
    OutputDirectory,
    /// The output path does not exist and ends in `/`: only a directory can be named so.
    #[error("ends in `/`, which only a directory can; give the name of a file")]
    OutputTrailingSlash,
    /// The output path does not exist and ends in `/.`: only a directory can be named so.
    #[error("ends in `/.`, which only a directory can; give the name of a file")]
    OutputDotEnd,
    /// Another process holds a lock on the file (a `work` appending to it).
    #[error(
        "is locked by another process (a `cvperft work` appending results to it?); replacing it \
         would lose what that process writes, so nothing was written"
    )]
    OutputLocked,
    /// The output path is a socket.
    #[error("is a socket; cvperft does not write to sockets")]
    OutputSocket,
    /// Nobody opened the FIFO for reading.
    #[error("is a FIFO that no process opened for reading within {0} s")]
    FifoNoReader(u64),
    /// Nothing was written to the FIFO, nor was it closed by a writer, in time.
    #[error("is a FIFO that no process wrote to within {0} s")]
    FifoNoWriter(u64),
    /// The device or FIFO cannot be opened for writing.
    #[error("cannot write: {0}")]
    CannotWrite(String),
    /// A symbolic link to nothing where a new file is created.
    #[error(
        "is a symbolic link to {}, which does not exist; cvperft does not create a file through \
         a link (name the file itself, or remove the link)",
        .0.display()
    )]
    DanglingLink(PathBuf),
    /// Something is already there where a new file is created.
    #[error("already exists")]
    Exists,
    /// The directory a new file would go in does not exist.
    #[error(
        "its directory {} does not exist; cvperft creates no directories (create it first)",
        .0.display()
    )]
    NoDirectory(PathBuf),
    /// What would be the directory of a new file is something else.
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// No file can be created in the directory.
    #[error("cannot create a file in {}: {error}", .dir.display())]
    CannotCreateIn {
        /// The directory.
        dir: PathBuf,
        /// The system's message.
        error: String,
    },
}

fn fail(path: &Path, reason: FileReason) -> FileError {
    FileError {
        path: path.to_path_buf(),
        reason,
    }
}

/// A [`FileReason::Io`] for `e` on `path`.
fn io_fail(path: &Path, e: &std::io::Error) -> FileError {
    fail(path, FileReason::Io(describe(e)))
}

/// An I/O error as text, without the `(os error N)` suffix.
fn describe(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Clears `O_NONBLOCK` (set only so that opening a FIFO cannot block).
fn set_blocking(file: &File) -> std::io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own, reading and then setting its status flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Why a capped read failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CappedReadError {
    /// A read error (the system's message, without its `(os error N)`).
    #[error("{0}")]
    Read(String),
    /// More bytes than the limit.
    #[error("more than {0} bytes, the limit for this input")]
    TooLong(u64),
}

/// Reads all of `reader`, failing once more than `limit` bytes have come (so an endless
/// stream costs at most `limit + 1` bytes of memory).
///
/// # Errors
/// A read error, or more than `limit` bytes.
pub fn read_all_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, CappedReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| CappedReadError::Read(describe(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(CappedReadError::TooLong(limit));
    }
    Ok(bytes)
}

/// Opens `path` for reading without blocking on a FIFO that has no writer; refuses directories
/// and regular files larger than `limit`.
fn open_capped(path: &Path, limit: u64) -> Result<(File, Metadata), FileError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| io_fail(path, &e))?;
    let meta = file.metadata().map_err(|e| io_fail(path, &e))?;
    if meta.is_dir() {
        return Err(fail(path, FileReason::Directory));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(fail(
            path,
            FileReason::TooLarge {
                size: meta.len(),
                limit,
            },
        ));
    }
    set_blocking(&file).map_err(|e| io_fail(path, &e))?;
    Ok((file, meta))
}

/// Opens `path` for reading a stream of any length (plans, result files) without blocking on a
/// FIFO that has no writer (it then reads as empty); refuses directories.
///
/// # Errors
/// The file cannot be opened, or is a directory.
pub fn open_read(path: &Path) -> Result<File, FileError> {
    open_capped(path, u64::MAX).map(|(file, _)| file)
}

/// Reads the whole of `path`, at most `limit` bytes: a larger file, or a device or pipe that
/// goes on, is refused after `limit + 1` bytes. A FIFO without a writer reads as empty.
///
/// # Errors
/// The file cannot be opened or read, is a directory, or is too large.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, _) = open_capped(path, limit)?;
    read_all_capped(file, limit).map_err(|e| fail(path, FileReason::Read(e)))
}

/// Reads the whole of `path` as [`read_capped`] does, except that a FIFO (or a pipe named as
/// `/dev/fd/N`) is waited on for at most [`FIFO_WRITER_WAIT`] until a writer sends its first
/// bytes or closes it, instead of reading as empty: for an input whose empty text is valid (a
/// game record with no moves), a writer that had not opened the FIFO yet would lose its text.
///
/// # Errors
/// As [`read_capped`]; a FIFO that nothing was written to in time.
pub fn read_capped_awaiting_writer(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, meta) = open_capped(path, limit)?;
    if meta.file_type().is_fifo() && !await_input(&file, FIFO_WRITER_WAIT) {
        return Err(fail(
            path,
            FileReason::FifoNoWriter(FIFO_WRITER_WAIT.as_secs()),
        ));
    }
    read_all_capped(file, limit).map_err(|e| fail(path, FileReason::Read(e)))
}

/// Whether `file` has bytes to read, or has reached its end, within `wait` (a FIFO that no
/// writer has opened yet has neither).
fn await_input(file: &File, wait: Duration) -> bool {
    let start = Instant::now();
    loop {
        let left = wait.saturating_sub(start.elapsed());
        let mut poll = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = libc::c_int::try_from(left.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: poll on one descriptor we own, through a valid pointer to one pollfd.
        let ready = unsafe { libc::poll(&raw mut poll, 1, millis) };
        let interrupted =
            ready < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR);
        if !interrupted || left.is_zero() {
            // Ready, or a poll that failed otherwise (the read then answers), or time is up.
            return ready != 0;
        }
    }
}

/// Follows symbolic links from `path` to the name of the real file (which need not exist: a
/// dangling link yields its target). Links in the directories above are left to the kernel.
///
/// # Errors
/// A loop of links, or a path that cannot be examined.
pub fn resolve_links(path: &Path) -> Result<PathBuf, FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current).map_err(|e| io_fail(&current, &e))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(io_fail(&current, &e)),
        }
    }
    Err(fail(path, FileReason::LinkLoop))
}

/// The directory of `path` and its file name.
fn split(path: &Path) -> Result<(PathBuf, Vec<u8>), FileError> {
    let name = path
        .file_name()
        .ok_or_else(|| fail(path, FileReason::NoFileName))?
        .as_bytes()
        .to_vec();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name))
}

/// `.NAME<suffix>` beside `path`, with NAME cut so that the whole stays a valid file name.
fn beside(path: &Path, suffix: &str) -> Result<PathBuf, FileError> {
    let (dir, name) = split(path)?;
    let keep = name.len().min(255 - 1 - suffix.len());
    let mut file = vec![b'.'];
    file.extend_from_slice(&name[..keep]);
    file.extend_from_slice(suffix.as_bytes());
    Ok(dir.join(std::ffi::OsStr::from_bytes(&file)))
}

/// The sidecar lock file of `real`: `.NAME.lock` in the same directory.
///
/// # Errors
/// A path without a file name.
pub fn lock_path(real: &Path) -> Result<PathBuf, FileError> {
    beside(real, ".lock")
}

/// An exclusive lock on a sidecar lock file, released when dropped. The lock file itself is
/// left in place: removing it would let a waiting writer lock an unlinked inode while a newcomer
/// locks a new one.
#[derive(Debug)]
pub struct Lock {
    _file: File,
    path: PathBuf,
}

impl Lock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes the exclusive lock beside `real` (see [`lock_path`]), waiting at most `timeout`.
///
/// # Errors
/// The lock file cannot be created or opened, is a symbolic link or not a regular file, or
/// another process holds the lock for longer than `timeout` (the error names the lock file).
pub fn lock_beside(real: &Path, timeout: Duration) -> Result<Lock, FileError> {
    let path = lock_path(real)?;
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .mode(0o666)
        .custom_flags(flags)
        .open(&path)
        .or_else(|e| match e.kind() {
            // A lock can be taken through a descriptor opened for reading only.
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                OpenOptions::new()
                    .read(true)
                    .custom_flags(flags)
                    .open(&path)
                    .map_err(|_| e)
            }
            _ => Err(e),
        });
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(fail(&path, FileReason::LockIsLink));
        }
        Err(e) => {
            return Err(fail(&path, FileReason::LockOpen(describe(&e))));
        }
    };
    let meta = file.metadata().map_err(|e| io_fail(&path, &e))?;
    if !meta.is_file() {
        return Err(fail(&path, FileReason::LockNotFile));
    }
    let start = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        // SAFETY: flock on a descriptor we own; LOCK_NB makes it return at once.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(Lock { _file: file, path });
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) | Some(libc::EINTR) => {}
            _ => return Err(fail(&path, FileReason::Lock(describe(&e)))),
        }
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(fail(
                &path,
                FileReason::LockHeld {
                    file: real.to_path_buf(),
                    timeout,
                },
            ));
        }
        std::thread::sleep(pause.min(timeout - waited));
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// What a file looked like: its identity, contents' age, mode and owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    /// Permission bits (with set-id and sticky bits).
    pub mode: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
}

impl Snapshot {
    /// The snapshot of `meta`.
    pub fn of(meta: &Metadata) -> Snapshot {
        Snapshot {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            mode: meta.mode() & 0o7777,
            uid: meta.uid(),
            gid: meta.gid(),
        }
    }
}

/// The device and inode of the file `path` names (after following links), when it exists.
pub fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Checks that the regular file `real` (no link) may be replaced by a renamed file: one hard
/// link, write permission in its mode and for us, an owner we can give the replacement.
///
/// # Errors
/// What forbids it, naming the file.
pub fn check_rewritable(real: &Path, meta: &Metadata) -> Result<(), FileError> {
    if !meta.is_file() {
        return Err(fail(real, FileReason::NotRegular));
    }
    if meta.nlink() > 1 {
        return Err(fail(real, FileReason::HardLinks(meta.nlink())));
    }
    if meta.mode() & 0o222 == 0 {
        return Err(fail(real, FileReason::ReadOnly(meta.mode() & 0o7777)));
    }
    let c_path = std::ffi::CString::new(real.as_os_str().as_bytes())
        .map_err(|_| fail(real, FileReason::NulByte))?;
    // SAFETY: access(2) reads the NUL-terminated path we own.
    if unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } != 0 {
        return Err(fail(real, FileReason::NotWritable));
    }
    // SAFETY: geteuid has no preconditions.
    let euid = unsafe { libc::geteuid() };
    if meta.uid() != euid && euid != 0 {
        return Err(fail(real, FileReason::OtherOwner(meta.uid())));
    }
    Ok(())
}

/// Sixteen hex digits no other process can predict (the standard library's hash keys come from
/// the operating system's random source).
fn unpredictable() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:016x}", h.finish())
}

/// Creates `path` with `O_EXCL` (never through a symbolic link, never over an existing file),
/// listed for the clean-up on signals from the moment it exists.
fn create_new(path: &Path, mode: u32) -> std::io::Result<File> {
    cleanup::track(|| {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .map(|f| (f, Tracked::TempFile(path.to_path_buf())))
    })
}

/// A temporary file beside its target, removed unless committed (also on SIGINT, SIGTERM and
/// SIGHUP, through [`crate::cleanup`]).
#[derive(Debug)]
pub struct TempFile {
    file: File,
    path: PathBuf,
    armed: bool,
}

impl TempFile {
    /// Creates `.NAME.<16 hex digits>.tmp` beside `target` with `O_EXCL` (never through a link
    /// or over an existing file). With `like`, the file gets its owner and mode (refused when
    /// the owner cannot be given); without, mode 0666 less the umask.
    ///
    /// # Errors
    /// The directory is not writable, or the owner cannot be kept.
    pub fn beside(target: &Path, like: Option<&Snapshot>) -> Result<TempFile, FileError> {
        let mut last = None;
        for _ in 0..16 {
            let path = beside(target, &format!(".{}.tmp", unpredictable()))?;
            match create_new(&path, if like.is_some() { 0o600 } else { 0o666 }) {
                Ok(file) => {
                    let temp = TempFile {
                        file,
                        path,
                        armed: true,
                    };
                    if let Some(snapshot) = like {
                        temp.take_on(target, snapshot)?;
                    }
                    return Ok(temp);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => {
                    let dir = split(target)?.0;
                    return Err(fail(
                        target,
                        FileReason::TempIn {
                            dir: dir.to_path_buf(),
                            error: describe(&e),
                        },
                    ));
                }
            }
        }
        Err(fail(
            target,
            FileReason::TempBeside(last.map(|e| describe(&e)).unwrap_or_default()),
        ))
    }

    /// Gives the file `snapshot`'s owner and mode.
    fn take_on(&self, target: &Path, snapshot: &Snapshot) -> Result<(), FileError> {
        let meta = self.file.metadata().map_err(|e| io_fail(&self.path, &e))?;
        if (meta.uid(), meta.gid()) != (snapshot.uid, snapshot.gid) {
            std::os::unix::fs::fchown(&self.file, Some(snapshot.uid), Some(snapshot.gid)).map_err(
                |e| {
                    fail(
                        target,
                        FileReason::Owner {
                            uid: snapshot.uid,
                            gid: snapshot.gid,
                            error: describe(&e),
                        },
                    )
                },
            )?;
        }
        // After fchown, which clears set-id bits.
        self.file
            .set_permissions(std::fs::Permissions::from_mode(snapshot.mode))
            .map_err(|e| fail(target, FileReason::Mode(describe(&e))))
    }

    /// The temporary file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open file, for writing.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Flushes and syncs the file (the error names `target`).
    fn sync(&mut self, target: &Path) -> Result<(), FileError> {
        self.file
            .flush()
            .and_then(|()| self.file.sync_all())
            .map_err(|e| {
                fail(
                    target,
                    FileReason::Writing {
                        temp: self.path.clone(),
                        error: describe(&e),
                    },
                )
            })
    }

    /// Forgets the file, which now bears `target`'s name (the rename, [`cleanup::renaming`],
    /// took it off the clean-up list), and makes that name durable (a directory that cannot
    /// be synced is not an error).
    fn settle(mut self, target: &Path) -> Result<(), FileError> {
        self.armed = false;
        if let Ok(dir) = File::open(split(target)?.0) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Syncs the file and gives it the name `target` only if nothing bears that name (no file,
    /// no link, not even a dangling one): returns `false`, and removes the temporary file, when
    /// something does.
    ///
    /// # Errors
    /// Syncing or renaming fails.
    pub fn commit_new(mut self, target: &Path) -> Result<bool, FileError> {
        self.sync(target)?;
        match cleanup::renaming(&self.path, target, || rename_noreplace(&self.path, target)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
            Err(e) => {
                return Err(fail(
                    target,
                    FileReason::Rename {
                        temp: self.path.clone(),
                        error: describe(&e),
                    },
                ));
            }
        }
        self.settle(target)?;
        Ok(true)
    }

    /// Syncs the file and renames it over `target`. With `unchanged`, refuses (and removes the
    /// temporary file) when `target` no longer matches that snapshot: someone changed it since
    /// it was read.
    ///
    /// # Errors
    /// Syncing or renaming fails, or the target changed.
    pub fn commit(mut self, target: &Path, unchanged: Option<&Snapshot>) -> Result<(), FileError> {
        self.sync(target)?;
        if let Some(before) = unchanged {
            let now = std::fs::symlink_metadata(target).map(|m| Snapshot::of(&m));
            if now.as_ref().ok() != Some(before) {
                return Err(fail(target, FileReason::Changed));
            }
        }
        cleanup::renaming(&self.path, target, || std::fs::rename(&self.path, target)).map_err(
            |e| {
                fail(
                    target,
                    FileReason::Rename {
                        temp: self.path.clone(),
                        error: describe(&e),
                    },
                )
            },
        )?;
        self.settle(target)
    }
}

/// Renames `from` to `to` unless something bears the name `to` (an `AlreadyExists` error
/// then), atomically: `renameat2` with `RENAME_NOREPLACE` on Linux; elsewhere, or on a file
/// system without it, a hard link `to` made (which fails as well on any name taken, and follows
/// no link there) and the name `from` removed. Between the two, the file has two names: a
/// removal that fails leaves it so, and a later rewrite refuses it for its two links.
fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let c = |p: &Path| {
            std::ffi::CString::new(p.as_os_str().as_bytes())
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
        };
        let (c_from, c_to) = (c(from)?, c(to)?);
        // SAFETY: renameat2 reads two NUL-terminated paths we own.
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                c_from.as_ptr(),
                libc::AT_FDCWD,
                c_to.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(
            e.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
        ) {
            return Err(e);
        }
    }
    std::fs::hard_link(from, to)?;
    let _ = std::fs::remove_file(from);
    Ok(())
}

/// Checks, before any work, that a new file could be created at `path`: nothing is there (a
/// dangling symbolic link is refused, not followed), and its directory exists and may be
/// written to.
///
/// # Errors
/// What forbids it, naming `path`.
pub fn check_creatable(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() && !path.exists() => {
            let target = std::fs::read_link(path).map_err(|e| io_fail(path, &e))?;
            return Err(fail(path, FileReason::DanglingLink(target)));
        }
        Ok(_) => return Err(fail(path, FileReason::Exists)),
        // Not there; or its directory is no directory, which is said below.
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                || e.raw_os_error() == Some(libc::ENOTDIR) => {}
        Err(e) => return Err(io_fail(path, &e)),
    }
    let dir = split(path)?.0;
    match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(fail(path, FileReason::NotADirectory(dir))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(fail(path, FileReason::NoDirectory(dir)));
        }
        Err(e) => return Err(io_fail(path, &e)),
    }
    let c_dir = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| fail(path, FileReason::NulByte))?;
    // SAFETY: access(2) reads the NUL-terminated path we own.
    if unsafe { libc::access(c_dir.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
        let error = describe(&std::io::Error::last_os_error());
        return Err(fail(path, FileReason::CannotCreateIn { dir, error }));
    }
    Ok(())
}

/// Creates the file `path` holding `bytes`, whole or not at all, and never over anything: the
/// bytes go to a temporary file beside it (mode 0666 less the umask), synced, which then takes
/// the name `path` only if nothing bears it ([`TempFile::commit_new`]). Returns `false`, having
/// created nothing, when something (another run's file, a link, a directory) is there by then.
///
/// # Errors
/// The temporary file cannot be made or written, or the rename fails otherwise.
pub fn create_whole(path: &Path, bytes: &[u8]) -> Result<bool, FileError> {
    let mut temp = TempFile::beside(path, None)?;
    temp.write_all(bytes).map_err(|e| {
        fail(
            path,
            FileReason::Writing {
                temp: temp.path().to_path_buf(),
                error: describe(&e),
            },
        )
    })?;
    temp.commit_new(path)
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.armed {
            let _ = std::fs::remove_file(&self.path);
            cleanup::untrack_file(&self.path);
        }
    }
}

/// A file being updated: locked, read, and replaced in one piece by [`Update::commit`].
#[derive(Debug)]
pub struct Update {
    real: PathBuf,
    lock: Lock,
    snapshot: Snapshot,
    /// The file's contents when it was read (under the lock).
    pub bytes: Vec<u8>,
}

/// Checks, without locking, that `path` could be updated: its real file is a regular file that
/// may be rewritten. Returns the real file's path.
///
/// # Errors
/// As [`check_rewritable`], or the file cannot be examined.
pub fn check_updatable(path: &Path) -> Result<PathBuf, FileError> {
    let real = resolve_links(path)?;
    let meta = std::fs::symlink_metadata(&real).map_err(|e| io_fail(&real, &e))?;
    check_rewritable(&real, &meta)?;
    Ok(real)
}

/// Starts updating `path`: follows links to the real file, takes its lock (waiting at most
/// `lock_timeout`), checks it may be rewritten and reads it (at most `limit` bytes).
///
/// # Errors
/// The lock is not had in time, the file may not be rewritten, or it cannot be read.
pub fn begin_update(path: &Path, limit: u64, lock_timeout: Duration) -> Result<Update, FileError> {
    let real = check_updatable(path)?;
    let lock = lock_beside(&real, lock_timeout)?;
    let (file, meta) = open_capped(&real, limit)?;
    check_rewritable(&real, &meta)?;
    let snapshot = Snapshot::of(&meta);
    let bytes = read_all_capped(file, limit).map_err(|e| fail(&real, FileReason::Read(e)))?;
    Ok(Update {
        real,
        lock,
        snapshot,
        bytes,
    })
}

impl Update {
    /// The real file (links followed).
    pub fn real_path(&self) -> &Path {
        &self.real
    }

    /// The lock file held.
    pub fn lock_path(&self) -> &Path {
        self.lock.path()
    }

    /// Replaces the file by `bytes` (owner and mode kept), unless it changed since it was read;
    /// then releases the lock.
    ///
    /// # Errors
    /// As [`TempFile::beside`] and [`TempFile::commit`].
    pub fn commit(self, bytes: &[u8]) -> Result<(), FileError> {
        let mut temp = TempFile::beside(&self.real, Some(&self.snapshot))?;
        temp.write_all(bytes).map_err(|e| {
            fail(
                &self.real,
                FileReason::Writing {
                    temp: temp.path().to_path_buf(),
                    error: describe(&e),
                },
            )
        })?;
        temp.commit(&self.real, Some(&self.snapshot))
    }
}

/// Where a report goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// A regular file (new or not), replaced by a renamed temporary file. `like` is the
    /// existing file's snapshot (owner and mode to keep).
    Replace {
        /// The real file (links followed).
        real: PathBuf,
        /// The existing file, if any.
        like: Option<Snapshot>,
    },
    /// A device or FIFO, written directly.
    Direct(PathBuf),
}

/// Whether the standard stream `fd` is open on the file `meta` describes (a closed stream is
/// open on none).
fn stream_is(fd: std::os::fd::BorrowedFd<'_>, meta: &Metadata) -> bool {
    stream_meta(fd).is_some_and(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()))
}

/// What the standard stream `fd` is open on (`None` when it is closed).
fn stream_meta(fd: std::os::fd::BorrowedFd<'_>) -> Option<Metadata> {
    // The descriptor duplicated to read its metadata.
    File::from(fd.try_clone_to_owned().ok()?).metadata().ok()
}

/// Which standard stream, `"standard output"` or `"standard error"`, is open on the regular
/// file `meta` describes. Such a file is no place for a report renamed over it (`--output
/// /dev/stdout >> log` replaced the whole log) nor for results appended and read back (the
/// run's own messages would overwrite them).
pub fn standard_stream(meta: &Metadata) -> Option<&'static str> {
    if !meta.is_file() {
        return None;
    }
    use std::os::fd::AsFd;
    if stream_is(std::io::stdout().as_fd(), meta) {
        Some("standard output")
    } else if stream_is(std::io::stderr().as_fd(), meta) {
        Some("standard error")
    } else {
        None
    }
}

/// Whether standard error is written to the regular file `path`, named by its own name (not
/// as `/dev/stderr` and the like, [`names_a_stream`]): a refusal of that file as an output must
/// not be written into it (`work --output r.jsonl 2>>r.jsonl`).
pub fn is_standard_error_by_name(path: &Path) -> bool {
    use std::os::fd::AsFd;
    std::fs::metadata(path).is_ok_and(|meta| {
        meta.is_file() && stream_is(std::io::stderr().as_fd(), &meta) && !names_a_stream(path)
    })
}

/// Whether `path` names a descriptor rather than a file: `/dev/stdout`, `/dev/stderr`,
/// `/dev/fd/N`, `/proc/.../fd/N`, or a link to one of them. Told apart from a file's own name
/// when the file is a standard stream: `--output /dev/stderr 2>>log` makes `log` a log, which
/// may be told why it was refused; `--output f.jsonl 2>>f.jsonl` names the results file.
pub fn names_a_stream(path: &Path) -> bool {
    let is_stream = |p: &Path| {
        let text = p.as_os_str().as_bytes();
        text.starts_with(b"/dev/std")
            || text.starts_with(b"/dev/fd/")
            || (text.starts_with(b"/proc/") && text.windows(4).any(|w| w == b"/fd/"))
    };
    let mut current = path.to_path_buf();
    // A few links at most: `/dev/stderr` -> `/proc/self/fd/2` -> the file.
    for _ in 0..8 {
        if is_stream(&current) {
            return true;
        }
        match std::fs::read_link(&current) {
            Ok(next) if next.is_absolute() => current = next,
            Ok(next) => current = current.parent().unwrap_or(Path::new("/")).join(next),
            Err(_) => return false,
        }
    }
    false
}

/// Whether standard output and standard error are open on one file (`>>log 2>&1`).
pub fn stdout_is_stderr() -> bool {
    use std::os::fd::AsFd;
    stream_meta(std::io::stderr().as_fd())
        .is_some_and(|meta| stream_is(std::io::stdout().as_fd(), &meta))
}

/// Whether standard output is open on the file, pipe or device `meta` describes: an output
/// written there (`--output /dev/stdout | gzip`) must not be followed by messages on standard
/// output, which would end up inside it.
pub fn is_standard_output(meta: &Metadata) -> bool {
    use std::os::fd::AsFd;
    stream_is(std::io::stdout().as_fd(), meta)
}

/// Refuses the regular file `real` while another process holds a `flock` on it (`work` holds
/// one on the results file it appends to): renamed over, the file would be gone from its
/// directory while that process went on writing to it, and everything it wrote then lost.
fn check_unlocked(real: &Path) -> Result<(), FileError> {
    let flags = libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOFOLLOW;
    let Ok(file) = OpenOptions::new().read(true).custom_flags(flags).open(real) else {
        // Not readable: nobody can be told about, and the rename decides.
        return Ok(());
    };
    // SAFETY: flock on a descriptor we own; LOCK_NB returns at once, and the shared lock is
    // released when the file is closed.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) };
    if rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Err(fail(real, FileReason::OutputLocked));
    }
    Ok(())
}

/// Decides how to write a report to `path`, refusing the run's `inputs` (device and inode, see
/// [`identity`]), the regular file standard output or standard error goes to, directories and
/// sockets.
///
/// # Errors
/// Any refusal, naming the path.
pub fn output_target(path: &Path, inputs: &[(u64, u64)]) -> Result<OutputTarget, FileError> {
    match std::fs::metadata(path) {
        Ok(meta) => {
            if inputs.contains(&(meta.dev(), meta.ino())) {
                return Err(fail(path, FileReason::OutputIsInput));
            }
            if let Some(stream) = standard_stream(&meta) {
                return Err(fail(path, FileReason::OutputIsStream(stream)));
            }
            let kind = meta.file_type();
            if kind.is_dir() {
                return Err(fail(path, FileReason::OutputDirectory));
            }
            if kind.is_socket() {
                return Err(fail(path, FileReason::OutputSocket));
            }
            if kind.is_fifo() || kind.is_char_device() || kind.is_block_device() {
                return Ok(OutputTarget::Direct(path.to_path_buf()));
            }
            let real = resolve_links(path)?;
            let meta = std::fs::symlink_metadata(&real).map_err(|e| io_fail(&real, &e))?;
            check_rewritable(&real, &meta)?;
            check_unlocked(&real)?;
            Ok(OutputTarget::Replace {
                like: Some(Snapshot::of(&meta)),
                real,
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let real = resolve_links(path)?;
            // The temporary file would be written beside `dir/` and then fail to be renamed
            // over it, after all the work.
            // So with `dir/.`, whose temporary file went beside `dir`, one level up.
            let ends = |end: &[u8]| {
                [path, real.as_path()]
                    .iter()
                    .any(|p| p.as_os_str().as_bytes().ends_with(end))
            };
            if ends(b"/") {
                return Err(fail(path, FileReason::OutputTrailingSlash));
            }
            if ends(b"/.") {
                return Err(fail(path, FileReason::OutputDotEnd));
            }
            Ok(OutputTarget::Replace { real, like: None })
        }
        Err(e) => Err(io_fail(path, &e)),
    }
}

/// Opens a device or FIFO for writing, without creating or truncating it; waits at most
/// [`FIFO_READER_WAIT`] for a FIFO's reader.
///
/// # Errors
/// It cannot be opened, or a FIFO found no reader in time.
pub fn open_direct(path: &Path) -> Result<File, FileError> {
    let start = Instant::now();
    loop {
        let opened = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(path);
        match opened {
            Ok(file) => {
                set_blocking(&file).map_err(|e| io_fail(path, &e))?;
                return Ok(file);
            }
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                if start.elapsed() >= FIFO_READER_WAIT {
                    return Err(fail(
                        path,
                        FileReason::FifoNoReader(FIFO_READER_WAIT.as_secs()),
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(fail(path, FileReason::CannotWrite(describe(&e)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_reason_reads_as_before_it_was_typed() {
        // The texts the `String` messages had before `FileReason` (77cfd6c).
        let p = PathBuf::from("/d/f.tmp");
        let cases: Vec<(FileReason, &str)> = vec![
            (
                FileReason::Io("Permission denied".into()),
                "Permission denied",
            ),
            (FileReason::Directory, "is a directory, not a file"),
            (
                FileReason::TooLarge { size: 9, limit: 4 },
                "9 bytes, larger than the limit of 4 bytes",
            ),
            (
                FileReason::LinkLoop,
                "more than 40 symbolic links to follow (a loop?)",
            ),
            (FileReason::NoFileName, "names no file"),
            (
                FileReason::LockIsLink,
                "the lock file is a symbolic link; cvperft does not follow links for locks \
                 (remove it)",
            ),
            (
                FileReason::LockOpen("No space left on device".into()),
                "cannot create or open the lock file: No space left on device",
            ),
            (
                FileReason::LockNotFile,
                "the lock file is not a regular file (remove it)",
            ),
            (FileReason::Lock("x".into()), "cannot lock: x"),
            (
                FileReason::LockHeld {
                    file: PathBuf::from("/d/s.yaml"),
                    timeout: Duration::from_millis(1500),
                },
                "another process holds the lock on /d/s.yaml (waited 1.5 s, see --lock-timeout); \
                 nothing was written",
            ),
            (FileReason::NotRegular, "is not a regular file"),
            (
                FileReason::HardLinks(2),
                "has 2 hard links; cvperft replaces a file by renaming a new one over it, which \
                 would split them (keep one link, or work on a copy)",
            ),
            (
                FileReason::ReadOnly(0o444),
                "is read-only (mode 0444); cvperft does not rewrite it (make it writable first)",
            ),
            (FileReason::NulByte, "contains a NUL byte"),
            (
                FileReason::NotWritable,
                "is not writable by you; cvperft does not rewrite it",
            ),
            (
                FileReason::OtherOwner(0),
                "belongs to user 0; its replacement would belong to you, so cvperft does not \
                 rewrite it",
            ),
            (
                FileReason::TempIn {
                    dir: PathBuf::from("/d"),
                    error: "x".into(),
                },
                "cannot create a temporary file in /d: x",
            ),
            (
                FileReason::TempBeside("x".into()),
                "cannot create a temporary file beside it: x",
            ),
            (
                FileReason::Owner {
                    uid: 1,
                    gid: 2,
                    error: "x".into(),
                },
                "cannot give the rewritten file its owner (user 1, group 2): x; nothing was \
                 written",
            ),
            (FileReason::Mode("x".into()), "cannot keep its mode: x"),
            (
                FileReason::Writing {
                    temp: p.clone(),
                    error: "x".into(),
                },
                "writing /d/f.tmp: x",
            ),
            (
                FileReason::Changed,
                "was changed by another program while cvperft worked on it; nothing was \
                 written (run again)",
            ),
            (
                FileReason::Rename {
                    temp: p.clone(),
                    error: "x".into(),
                },
                "cannot rename /d/f.tmp over it: x",
            ),
            (
                FileReason::OutputIsInput,
                "is an input of this run; writing the output there would destroy it",
            ),
            (
                FileReason::OutputDirectory,
                "is a directory; give the name of a file",
            ),
            (
                FileReason::OutputTrailingSlash,
                "ends in `/`, which only a directory can; give the name of a file",
            ),
            (
                FileReason::OutputDotEnd,
                "ends in `/.`, which only a directory can; give the name of a file",
            ),
            (
                FileReason::OutputLocked,
                "is locked by another process (a `cvperft work` appending results to it?); \
                 replacing it would lose what that process writes, so nothing was written",
            ),
            (
                FileReason::OutputSocket,
                "is a socket; cvperft does not write to sockets",
            ),
            (
                FileReason::FifoNoReader(10),
                "is a FIFO that no process opened for reading within 10 s",
            ),
            (FileReason::CannotWrite("x".into()), "cannot write: x"),
            (
                FileReason::DanglingLink(PathBuf::from("/e/t.yaml")),
                "is a symbolic link to /e/t.yaml, which does not exist; cvperft does not create \
                 a file through a link (name the file itself, or remove the link)",
            ),
            (FileReason::Exists, "already exists"),
            (
                FileReason::NoDirectory(PathBuf::from("/d")),
                "its directory /d does not exist; cvperft creates no directories (create it \
                 first)",
            ),
            (
                FileReason::NotADirectory(p.clone()),
                "/d/f.tmp is not a directory",
            ),
            (
                FileReason::CannotCreateIn {
                    dir: PathBuf::from("/d"),
                    error: "Permission denied".into(),
                },
                "cannot create a file in /d: Permission denied",
            ),
        ];
        for (reason, text) in cases {
            assert_eq!(reason.to_string(), text);
            let e = fail(Path::new("/d/s.yaml"), reason);
            assert_eq!(e.to_string(), format!("/d/s.yaml: {text}"));
        }
    }

    #[test]
    fn a_capped_read_stops_past_its_limit() {
        assert_eq!(read_all_capped(&b"four"[..], 4), Ok(b"four".to_vec()));
        assert_eq!(
            read_all_capped(&b"five!"[..], 4)
                .expect_err("too long")
                .to_string(),
            "more than 4 bytes, the limit for this input"
        );
    }

    #[test]
    fn a_new_file_is_created_whole_and_never_over_anything() {
        let dir = scratch("create-whole");
        let new = dir.join("new.yaml");
        assert_eq!(check_creatable(&new), Ok(()));
        assert_eq!(create_whole(&new, b"first"), Ok(true));
        assert_eq!(std::fs::read(&new).expect("read"), b"first");
        // A second creation finds the file and leaves it, and its temporary file goes.
        assert_eq!(create_whole(&new, b"second"), Ok(false));
        assert_eq!(std::fs::read(&new).expect("read"), b"first");
        assert_eq!(
            check_creatable(&new).map_err(|e| e.reason),
            Err(FileReason::Exists)
        );
        // A dangling link is refused beforehand, and not written through at the rename.
        let link = dir.join("link.yaml");
        std::os::unix::fs::symlink("elsewhere.yaml", &link).expect("link");
        assert_eq!(
            check_creatable(&link).map_err(|e| e.reason),
            Err(FileReason::DanglingLink(PathBuf::from("elsewhere.yaml")))
        );
        assert_eq!(create_whole(&link, b"through"), Ok(false));
        assert!(!dir.join("elsewhere.yaml").exists());
        let missing = dir.join("no-such-dir").join("s.yaml");
        assert_eq!(
            check_creatable(&missing).map_err(|e| e.reason),
            Err(FileReason::NoDirectory(dir.join("no-such-dir")))
        );
        let under_file = new.join("s.yaml");
        assert_eq!(
            check_creatable(&under_file).map_err(|e| e.reason),
            Err(FileReason::NotADirectory(new.clone()))
        );
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["link.yaml", "new.yaml"],
            "no temporary file is left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cvperft-fsio-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn temporary_names_are_hidden_unpredictable_and_not_yaml() {
        let a = beside(
            Path::new("dir/suite.yaml"),
            &format!(".{}.tmp", unpredictable()),
        )
        .expect("name");
        let b = beside(
            Path::new("dir/suite.yaml"),
            &format!(".{}.tmp", unpredictable()),
        )
        .expect("name");
        assert_ne!(a, b);
        let name = a.file_name().expect("name").to_string_lossy().into_owned();
        assert!(name.starts_with(".suite.yaml."), "{name}");
        assert!(name.ends_with(".tmp"), "{name}");
        let long = "x".repeat(300);
        let p = beside(Path::new(&long), ".lock").expect("name");
        assert_eq!(p.file_name().expect("name").len(), 255);
    }

    #[test]
    fn a_planted_link_or_file_is_never_written_through() {
        let dir = scratch("planted");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").expect("write");
        let link = dir.join(".suite.yaml.0123456789abcdef.tmp");
        std::os::unix::fs::symlink(&victim, &link).expect("link");
        let dangling = dir.join(".suite.yaml.fedcba9876543210.tmp");
        std::os::unix::fs::symlink(dir.join("created-through-link"), &dangling).expect("link");
        for planted in [&link, &dangling] {
            let e = create_new(planted, 0o600).expect_err("refused");
            assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists, "{e}");
            assert!(!cleanup::is_tracked(&Tracked::TempFile(
                planted.to_path_buf()
            )));
        }
        assert_eq!(std::fs::read(&victim).expect("read"), b"keep");
        assert!(!dir.join("created-through-link").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reads_are_capped() {
        let dir = scratch("capped");
        let file = dir.join("f");
        std::fs::write(&file, b"12345").expect("write");
        assert_eq!(read_capped(&file, 5).expect("fits"), b"12345");
        let e = read_capped(&file, 4).expect_err("too large");
        assert!(
            e.reason
                .to_string()
                .contains("5 bytes, larger than the limit of 4"),
            "{e}"
        );
        let e = read_capped(Path::new("/dev/zero"), 1000).expect_err("endless");
        assert!(e.reason.to_string().contains("more than 1000 bytes"), "{e}");
        let e = read_capped(&dir, 1000).expect_err("a directory");
        assert!(e.reason.to_string().contains("directory"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn links_are_followed_to_the_real_file() {
        let dir = scratch("links");
        let real = dir.join("real.yaml");
        std::fs::write(&real, b"x").expect("write");
        std::os::unix::fs::symlink("real.yaml", dir.join("a")).expect("link");
        std::os::unix::fs::symlink(dir.join("a"), dir.join("b")).expect("link");
        assert_eq!(resolve_links(&dir.join("b")).expect("resolves"), real);
        std::os::unix::fs::symlink("missing", dir.join("dangling")).expect("link");
        assert_eq!(
            resolve_links(&dir.join("dangling")).expect("resolves"),
            dir.join("missing")
        );
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).expect("link");
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).expect("link");
        assert!(resolve_links(&dir.join("loop1")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_update_keeps_mode_and_refuses_changes_behind_its_back() {
        let dir = scratch("update");
        let file = dir.join("s.yaml");
        std::fs::write(&file, b"old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let update = begin_update(&file, 100, Duration::from_secs(1)).expect("begins");
        assert_eq!(update.bytes, b"old");
        // A second writer cannot take the lock while the first holds it.
        let e = lock_beside(&file, Duration::from_millis(50)).expect_err("locked");
        assert!(
            e.reason
                .to_string()
                .contains("another process holds the lock on"),
            "{e}"
        );
        update.commit(b"new").expect("commits");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        let mode = std::fs::metadata(&file).expect("meta").mode() & 0o7777;
        assert_eq!(mode, 0o640);
        let update = begin_update(&file, 100, Duration::from_secs(1)).expect("begins");
        std::fs::write(&file, b"edited").expect("write");
        let e = update.commit(b"lost?").expect_err("changed");
        assert!(
            e.reason.to_string().contains("changed by another program"),
            "{e}"
        );
        assert_eq!(std::fs::read(&file).expect("read"), b"edited");
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .filter(|n| n.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn descriptors_are_told_from_files_by_name() {
        for stream in ["/dev/stdout", "/dev/stderr", "/dev/fd/2", "/proc/self/fd/1"] {
            assert!(names_a_stream(Path::new(stream)), "{stream}");
        }
        let dir = scratch("names-a-stream");
        let file = dir.join("results.jsonl");
        std::fs::write(&file, "").expect("file");
        let to_stream = dir.join("err");
        std::os::unix::fs::symlink("/dev/stderr", &to_stream).expect("link");
        let to_file = dir.join("link.jsonl");
        std::os::unix::fs::symlink("results.jsonl", &to_file).expect("link");
        assert!(names_a_stream(&to_stream));
        assert!(!names_a_stream(&file));
        assert!(!names_a_stream(&to_file));
        assert!(!names_a_stream(&dir.join("missing")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

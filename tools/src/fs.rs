//! How the file tools touch files: exactly the path the permission check resolved, never
//! through a link, only regular files, never blocking on open, with size caps checked before
//! anything is allocated, and writes that are atomic, follow the umask, and notice a file that
//! changed since it was read.
//!
//! * **Reaching a file.** The path is the one the permission check approved
//!   ([`ToolContext::checked_path`](toolreg::ToolContext::checked_path)): absolute, every
//!   link already followed. It is opened one component at a time from `/`, each directory with
//!   `O_NOFOLLOW` and the file with `O_NOFOLLOW`, and everything after that (the type check,
//!   the read, the temporary file, the rename) happens relative to the directory so opened. A
//!   link swapped in after the check therefore makes the open fail ("changed since it was
//!   checked") instead of leading elsewhere, and a directory renamed meanwhile is followed as the
//!   object that was at the checked path. A walk (Grep, Glob) starts the same way
//!   ([`open_walk_root`]) and goes on from the descriptors it opened ([`crate::walk`]).
//! * **Opening** checks the type first and then uses `O_NONBLOCK`, so a FIFO cannot stall the
//!   tool, and reads the type again from the open file itself: a FIFO, socket, device or
//!   directory is refused with an error that says which.
//! * **Writing** goes to a temporary file in the target's directory, flushed, then renamed over
//!   the target: a reader sees the old content or the new, never a mix. An existing file keeps
//!   its permissions and, where the process may set them, its owner and group; a new file gets
//!   `0666` less the umask, as `open(2)` gives. The rename replaces the file's inode, so a hard
//!   link to the old file keeps the old content. Missing parent directories are created, each
//!   opened without following links as it is made.
//! * **Edits** ([`replace_if_unchanged`]) take an exclusive lock on the file, check that it
//!   still is the file that was read — same inode, same bytes — and only then rename; otherwise
//!   they fail with "file changed since it was read". Two tools of this crate never lose each
//!   other's edit; a program that writes without taking the lock can still slip in between the
//!   check and the rename, a window of one system call.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags, RenameFlags, Stat};
use rustix::io::Errno;
use toolreg::ToolError;

/// The largest file Edit and NotebookEdit read, and the largest file they or Write produce:
/// 64 MiB.
pub const MAX_EDIT_BYTES: u64 = 64 * 1024 * 1024;

/// How many times an edit re-opens a file that was renamed over while it waited for the lock.
const LOCK_RETRIES: usize = 100;

/// How many names a temporary file tries before giving up.
const TEMP_TRIES: u64 = 100;

/// The error for a path that does not exist.
pub(crate) fn missing(path: &Path) -> ToolError {
    ToolError::new(format!("File does not exist: {}", path.display()))
}

/// The error for a link where the checked path had none.
fn changed_since_checked(path: &Path) -> ToolError {
    ToolError::new(format!(
        "{}: the path changed since it was checked (a symbolic link is on it now); try again",
        path.display()
    ))
}

fn io_error(path: &Path, what: &str, error: impl std::fmt::Display) -> ToolError {
    ToolError::new(format!("could not {what} {}: {error}", path.display()))
}

/// What kind of file this is, for errors about files that are not regular.
fn kind(stat: &Stat) -> &'static str {
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        _ => "not a regular file",
    }
}

fn is_regular(stat: &Stat) -> bool {
    FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile
}

fn not_regular(path: &Path, stat: &Stat) -> ToolError {
    let what = kind(stat);
    let hint = if FileType::from_raw_mode(stat.st_mode) == FileType::Directory {
        "; list it with Glob or with Bash `ls`"
    } else {
        ""
    };
    ToolError::new(format!(
        "{} is {what}, not a regular file; this tool only works on regular files{hint}",
        path.display()
    ))
}

/// Flags for a directory opened only to reach what is in it.
#[cfg(any(target_os = "linux", target_os = "android"))]
const DIR_FLAGS: OFlags = OFlags::PATH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// A name in a directory that was reached without following links: how every operation of
/// this module names its file.
pub(crate) struct Entry<'a> {
    dir: OwnedFd,
    name: OsString,
    path: &'a Path,
}

impl<'a> Entry<'a> {
    /// The parent directory of the absolute `path`, opened one component at a time from `/`
    /// without following links; with `create`, missing directories are made on the way.
    fn reach(path: &'a Path, create: bool) -> Result<Entry<'a>, ToolError> {
        Entry::reach_visiting(path, create, &mut |_, _| {})
    }

    /// [`reach`](Self::reach), calling `visit` with each directory on the way as it is opened
    /// (`/` first, the parent last).
    fn reach_visiting(
        path: &'a Path,
        create: bool,
        visit: &mut dyn FnMut(BorrowedFd<'_>, &Path),
    ) -> Result<Entry<'a>, ToolError> {
        let mut parts: Vec<&OsStr> = Vec::new();
        for component in path.components() {
            match component {
                Component::RootDir => parts.clear(),
                Component::Normal(name) => parts.push(name),
                Component::CurDir => {}
                Component::ParentDir | Component::Prefix(_) => {
                    return Err(ToolError::new(format!(
                        "{} is not a resolved path; resolve it before opening",
                        path.display()
                    )));
                }
            }
        }
        let Some(name) = parts.pop() else {
            return Err(ToolError::new(format!(
                "{} is a directory, not a file",
                path.display()
            )));
        };
        if !path.is_absolute() {
            return Err(ToolError::new(format!(
                "{} is relative; the file tools open absolute paths",
                path.display()
            )));
        }
        let mut dir = rustix::fs::open("/", DIR_FLAGS, Mode::empty())
            .map_err(|e| io_error(Path::new("/"), "open", e))?;
        let mut at = std::path::PathBuf::from("/");
        visit(dir.as_fd(), &at);
        for part in parts {
            at.push(part);
            let next = match rustix::fs::openat(&dir, part, DIR_FLAGS, Mode::empty()) {
                Err(Errno::NOENT) if create => {
                    match rustix::fs::mkdirat(&dir, part, Mode::from_raw_mode(0o777)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(io_error(&at, "create the directory", e)),
                    }
                    rustix::fs::openat(&dir, part, DIR_FLAGS, Mode::empty())
                }
                other => other,
            };
            dir = next.map_err(|e| match e {
                Errno::NOENT => missing(path),
                Errno::LOOP => changed_since_checked(path),
                Errno::NOTDIR => ToolError::new(format!(
                    "{}: {} is not a directory",
                    path.display(),
                    at.display()
                )),
                e => io_error(&at, "open", e),
            })?;
            visit(dir.as_fd(), &at);
        }
        Ok(Entry {
            dir,
            name: name.to_owned(),
            path,
        })
    }

    /// What the name is now, without following a link; `None` when nothing is there.
    fn stat(&self) -> Result<Option<Stat>, ToolError> {
        match rustix::fs::statat(&self.dir, &self.name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(stat)),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(io_error(self.path, "inspect", e)),
        }
    }

    /// The regular file at the name, refusing a link and anything that is not a regular file.
    fn regular(&self) -> Result<Option<Stat>, ToolError> {
        match self.stat()? {
            None => Ok(None),
            Some(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                Err(changed_since_checked(self.path))
            }
            Some(stat) if !is_regular(&stat) => Err(not_regular(self.path, &stat)),
            Some(stat) => Ok(Some(stat)),
        }
    }

    /// Opens the regular file at the name for reading, without blocking and without following
    /// a link; the type is checked before opening (opening some devices has effects of its own)
    /// and again on the open file.
    fn open_read(&self) -> Result<(File, Stat), ToolError> {
        if self.regular()?.is_none() {
            return Err(missing(self.path));
        }
        let flags =
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd =
            rustix::fs::openat(&self.dir, &self.name, flags, Mode::empty()).map_err(
                |e| match e {
                    Errno::NOENT => missing(self.path),
                    Errno::LOOP => changed_since_checked(self.path),
                    e => io_error(self.path, "open", e),
                },
            )?;
        let stat = rustix::fs::fstat(&fd).map_err(|e| io_error(self.path, "read", e))?;
        if !is_regular(&stat) {
            return Err(not_regular(self.path, &stat));
        }
        Ok((File::from(fd), stat))
    }
}

/// Opens the regular file at the resolved `path` for reading (see the module docs), with its
/// size.
pub(crate) fn open_regular(path: &Path) -> Result<(File, u64), ToolError> {
    let (file, stat) = Entry::reach(path, false)?.open_read()?;
    Ok((file, u64::try_from(stat.st_size).unwrap_or(0)))
}

/// What a walk starts from ([`open_walk_root`]).
pub(crate) enum WalkRoot {
    /// A directory, open for listing.
    Dir(OwnedFd),
    /// A regular file, open for reading.
    File(File, Stat),
}

/// Opens the directory or regular file at the resolved `path` for a walk (see the module
/// docs), calling `visit` with each directory above it as it is opened (`/` first).
pub(crate) fn open_walk_root(
    path: &Path,
    visit: &mut dyn FnMut(BorrowedFd<'_>, &Path),
) -> Result<WalkRoot, ToolError> {
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    if path == Path::new("/") {
        let dir = rustix::fs::open("/", dir_flags, Mode::empty())
            .map_err(|e| io_error(path, "open", e))?;
        return Ok(WalkRoot::Dir(dir));
    }
    let entry = Entry::reach_visiting(path, false, visit)?;
    let Some(stat) = entry.stat()? else {
        return Err(missing(path));
    };
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::Directory => {
            rustix::fs::openat(&entry.dir, &entry.name, dir_flags, Mode::empty())
                .map(WalkRoot::Dir)
                .map_err(|e| match e {
                    Errno::NOENT => missing(path),
                    Errno::LOOP | Errno::NOTDIR => changed_since_checked(path),
                    e => io_error(path, "open", e),
                })
        }
        _ => entry
            .open_read()
            .map(|(file, stat)| WalkRoot::File(file, stat)),
    }
}

/// Reads a regular file of at most `cap` bytes whole: the size is checked before reading, and
/// the read stops one byte past the cap should the file grow meanwhile.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ToolError> {
    let (file, size) = open_regular(path)?;
    read_file_capped(path, &file, size, cap)
}

/// Reads `file` whole, refusing more than `cap` bytes (`size`, when known, is checked first).
fn read_file_capped(path: &Path, file: &File, size: u64, cap: u64) -> Result<Vec<u8>, ToolError> {
    let too_big = |size: u64| {
        ToolError::new(format!(
            "{} is {size} bytes; this tool edits files of at most {cap} bytes",
            path.display()
        ))
    };
    if size > cap {
        return Err(too_big(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, "read", e))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads a file as UTF-8 text for an edit: regular, at most [`MAX_EDIT_BYTES`].
pub(crate) fn read_text(path: &Path) -> Result<String, ToolError> {
    let bytes = read_capped(path, MAX_EDIT_BYTES)?;
    String::from_utf8(bytes).map_err(|_| {
        ToolError::new(format!(
            "{} is not UTF-8 text; this tool only edits text files",
            path.display()
        ))
    })
}

/// The size of the regular file at the resolved `path`, or `None` when nothing is there; any
/// other kind of file (or a link) is an error that says what is there.
pub(crate) fn existing_size(path: &Path) -> Result<Option<u64>, ToolError> {
    match Entry::reach(path, false) {
        Ok(entry) => Ok(entry
            .regular()?
            .map(|stat| u64::try_from(stat.st_size).unwrap_or(0))),
        // A directory on the way is missing: so is the file (writing creates them).
        Err(_) if !path.parent().is_some_and(Path::is_dir) => Ok(None),
        Err(error) => Err(error),
    }
}

/// A temporary file beside the target, removed unless it was renamed into place.
struct Staged<'e, 'p> {
    entry: &'e Entry<'p>,
    name: Option<OsString>,
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl<'e, 'p> Staged<'e, 'p> {
    /// The new content in a temporary file in the entry's directory, flushed to disk, with the
    /// permissions and (best effort) owner of `existing`, or `0666` less the umask.
    fn new(entry: &'e Entry<'p>, bytes: &[u8], existing: Option<&Stat>) -> Result<Self, ToolError> {
        let path = entry.path;
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut created = None;
        for _ in 0..TEMP_TRIES {
            let name = OsString::from(format!(
                ".toolreg-{}-{}.tmp",
                std::process::id(),
                TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match rustix::fs::openat(&entry.dir, &name, flags, Mode::from_raw_mode(0o666)) {
                Ok(fd) => {
                    created = Some((name, fd));
                    break;
                }
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(io_error(path, "create a temporary file beside", e)),
            }
        }
        let Some((name, fd)) = created else {
            return Err(ToolError::new(format!(
                "could not find a free temporary name beside {}",
                path.display()
            )));
        };
        let staged = Staged {
            entry,
            name: Some(name),
        };
        if let Some(stat) = existing {
            rustix::fs::fchmod(&fd, Mode::from_raw_mode(stat.st_mode & 0o7777))
                .map_err(|e| io_error(path, "copy the permissions of", e))?;
            // Only a privileged process may give the file away; others keep their own ids.
            let _ = rustix::fs::fchown(
                &fd,
                Some(rustix::fs::Uid::from_raw(stat.st_uid)),
                Some(rustix::fs::Gid::from_raw(stat.st_gid)),
            );
        }
        let mut file = File::from(fd);
        file.write_all(bytes)
            .map_err(|e| io_error(path, "write the temporary file for", e))?;
        file.sync_all()
            .map_err(|e| io_error(path, "flush the temporary file for", e))?;
        Ok(staged)
    }

    /// Renames the temporary file over the target; with `no_replace`, only if nothing is
    /// there (`Ok(false)` if something is).
    fn persist(mut self, no_replace: bool) -> Result<bool, ToolError> {
        let Some(name) = self.name.take() else {
            return Ok(false);
        };
        let dir = &self.entry.dir;
        let target = &self.entry.name;
        let renamed = if no_replace {
            rustix::fs::renameat_with(dir, &name, dir, target, RenameFlags::NOREPLACE)
        } else {
            rustix::fs::renameat(dir, &name, dir, target)
        };
        match renamed {
            Ok(()) => Ok(true),
            Err(e) => {
                let _ = rustix::fs::unlinkat(dir, &name, AtFlags::empty());
                match e {
                    Errno::EXIST if no_replace => Ok(false),
                    e => Err(io_error(
                        self.entry.path,
                        "rename the temporary file into place at",
                        e,
                    )),
                }
            }
        }
    }
}

impl Drop for Staged<'_, '_> {
    fn drop(&mut self) {
        if let Some(name) = self.name.take() {
            let _ = rustix::fs::unlinkat(&self.entry.dir, &name, AtFlags::empty());
        }
    }
}

/// Writes `bytes` to the resolved `path` atomically, creating missing parent directories,
/// whatever regular file was there (see the module docs). Refuses more than
/// [`MAX_EDIT_BYTES`].
pub(crate) fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), ToolError> {
    check_output_size(path, bytes.len() as u64)?;
    let entry = Entry::reach(path, true)?;
    let existing = entry.regular()?;
    Staged::new(&entry, bytes, existing.as_ref())?.persist(false)?;
    Ok(())
}

/// The error for a result over [`MAX_EDIT_BYTES`].
pub(crate) fn check_output_size(path: &Path, size: u64) -> Result<(), ToolError> {
    if size > MAX_EDIT_BYTES {
        return Err(ToolError::new(format!(
            "the new content of {} would be {size} bytes; the most this tool writes is {MAX_EDIT_BYTES} bytes",
            path.display()
        )));
    }
    Ok(())
}

/// The error for a file that changed between the read and the write.
fn changed(path: &Path) -> ToolError {
    ToolError::new(format!(
        "{}: file changed since it was read; read it again and redo the edit",
        path.display()
    ))
}

/// Replaces the resolved `path`, which held `original` when it was read (`None`: it did not
/// exist, and missing parent directories are created), with `bytes` — only if it still holds
/// exactly that (see the module docs).
pub(crate) fn replace_if_unchanged(
    path: &Path,
    original: Option<&[u8]>,
    bytes: &[u8],
) -> Result<(), ToolError> {
    check_output_size(path, bytes.len() as u64)?;
    let entry = Entry::reach(path, original.is_none())?;
    let Some(original) = original else {
        // A new file: the rename must not replace one that appeared meanwhile.
        return match Staged::new(&entry, bytes, None)?.persist(true)? {
            true => Ok(()),
            false => Err(changed(path)),
        };
    };
    for _ in 0..LOCK_RETRIES {
        let (file, stat) = entry.open_read()?;
        rustix::fs::flock(file.as_fd(), FlockOperation::LockExclusive)
            .map_err(|e| io_error(path, "lock", e))?;
        let still_named = entry
            .stat()?
            .is_some_and(|now| now.st_dev == stat.st_dev && now.st_ino == stat.st_ino);
        if !still_named {
            // Another edit renamed its result over the file while this one waited.
            continue;
        }
        let current = read_file_capped(path, &file, 0, MAX_EDIT_BYTES)?;
        if current != original {
            return Err(changed(path));
        }
        Staged::new(&entry, bytes, Some(&stat))?.persist(false)?;
        // The lock goes with `file`, after the rename.
        drop(file);
        return Ok(());
    }
    Err(changed(path))
}

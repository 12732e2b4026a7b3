//! Walking a directory tree the way the file tools open one file: from descriptors, never
//! through a link.
//!
//! Grep and Glob search the directory the permission check approved. A walk by path looks
//! each path up again as it goes, so a directory swapped for a link after the check (a race a
//! client's own commands can run in a loop) would lead it into whatever the link names. This
//! walker instead:
//!
//! * opens the checked root one component at a time from `/` without following links
//!   ([`crate::fs::open_walk_root`]): a link swapped onto the root's path fails the call;
//! * lists each directory from its open descriptor, and opens every subdirectory (and Grep
//!   every file) relative to its parent's descriptor with `O_NOFOLLOW`. Each name comes from
//!   the listing — one component, never `.`, `..` or a `/` — so `openat2`'s
//!   `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` would refuse nothing more. A link in the tree is
//!   neither listed nor followed, and a name that became a link (or anything else than what
//!   was listed) since the listing fails to open: it is skipped and counted
//!   ([`Walk::skipped`]);
//! * checks the path built from the checked root and the names walked — the path of what was
//!   actually opened, with no link on it — against the [`PathGuard`] (the tool's
//!   [`walk_guard`](toolreg::PermissionContext::walk_guard)), leaving out what it covers,
//!   directories without entering them;
//! * goes at most [`MAX_DEPTH`] directories deep (one descriptor is open per level); deeper
//!   directories are skipped and counted.
//!
//! # Ignore files
//!
//! The `ignore` crate's walker lists and opens by path, and using it only to list names would
//! still have it read `.gitignore` files and list directories through a link swapped in. So
//! this module walks by itself and takes from `ignore` only its matchers, applied as ripgrep
//! applies them (`hidden(false)`, `require_git(false)`, parents on): for each entry, Grep's
//! `glob` overrides decide first when one matches; then the first match, deepest directory
//! first, among the `.ignore` files, else among the `.gitignore` files, else among the
//! `.git/info/exclude` files, else the user's global git excludes; then Grep's `type`. The
//! ignore files of the root and of every directory above it apply, each read through the
//! descriptor of its directory (without following a link, at most [`MAX_IGNORE_FILE_BYTES`],
//! and not at all when the guard covers it). `.git` itself is never entered. Entries of a
//! directory are visited in byte order of their names, depth first, so results are
//! deterministic. A `.gitignore` that is a link, and the `exclude` file of a worktree whose
//! `.git` is a file, are not read.

use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io::Read as _;
use std::ops::ControlFlow;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;
use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use toolreg::ToolError;
use toolreg::permissions::path::PathGuard;

use crate::fs::{WalkRoot, open_walk_root};

/// How many directories deep a walk goes below its root.
pub(crate) const MAX_DEPTH: usize = 256;

/// The most of one ignore file read; the rest of a longer file is not applied.
pub(crate) const MAX_IGNORE_FILE_BYTES: u64 = 1024 * 1024;

/// Flags for a directory the walk lists.
const LIST_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Flags for a directory opened only to reach a file in it.
const PATH_FLAGS: OFlags = OFlags::PATH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Flags for a file opened for reading: no link, no blocking on a FIFO, no controlling tty.
const READ_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// The ignore files of one directory.
struct Level {
    ignore: Gitignore,
    git: Gitignore,
    exclude: Gitignore,
}

impl Level {
    /// The ignore files of the directory open at `dir`, whose path is `path`.
    fn read(dir: BorrowedFd<'_>, path: &Path, guard: &PathGuard) -> Level {
        Level {
            ignore: ignore_file(dir, path, &[".ignore"], guard),
            git: ignore_file(dir, path, &[".gitignore"], guard),
            exclude: ignore_file(dir, path, &[".git", "info", "exclude"], guard),
        }
    }
}

/// The matcher of the ignore file at `names` below the directory `dir` (whose path is
/// `root`), read through descriptors; empty when it is missing, not a regular file, covered
/// by the guard, or unreadable. Lines that are not valid globs are left out.
fn ignore_file(dir: BorrowedFd<'_>, root: &Path, names: &[&str], guard: &PathGuard) -> Gitignore {
    let file = names
        .iter()
        .fold(root.to_path_buf(), |path, name| path.join(name));
    if guard.denies(&file).is_some() {
        return Gitignore::empty();
    }
    let Some(text) = read_small(dir, names) else {
        return Gitignore::empty();
    };
    let mut builder = GitignoreBuilder::new(root);
    for line in text.lines() {
        // A bad line is left out, as ripgrep leaves it out.
        let _ = builder.add_line(Some(file.clone()), line);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

/// The text of the regular file at `names` below `dir`, every component opened without
/// following a link, at most [`MAX_IGNORE_FILE_BYTES`].
fn read_small(dir: BorrowedFd<'_>, names: &[&str]) -> Option<String> {
    let (last, parents) = names.split_last()?;
    let mut held: Option<OwnedFd> = None;
    for name in parents {
        let at = held.as_ref().map_or(dir, AsFd::as_fd);
        held = Some(rustix::fs::openat(at, *name, PATH_FLAGS, Mode::empty()).ok()?);
    }
    let at = held.as_ref().map_or(dir, AsFd::as_fd);
    // The type first: opening some devices has effects of its own.
    let stat = rustix::fs::statat(at, *last, AtFlags::SYMLINK_NOFOLLOW).ok()?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return None;
    }
    let fd = rustix::fs::openat(at, *last, READ_FLAGS, Mode::empty()).ok()?;
    let stat = rustix::fs::fstat(&fd).ok()?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return None;
    }
    let mut bytes = Vec::new();
    File::from(fd)
        .take(MAX_IGNORE_FILE_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The filters besides ignore files: Grep's `glob` and `type`.
#[derive(Default)]
pub(crate) struct Filters {
    /// Globs that decide first when one matches (`OverrideBuilder`, rooted at the walk's root).
    pub overrides: Option<Override>,
    /// File types to keep.
    pub types: Option<Types>,
}

/// A checked root, open ([`open`]).
pub(crate) enum Opened {
    /// A directory to walk ([`Walk::run`]).
    Dir(Tree),
    /// A regular file, open for reading, with its status.
    File(File, Stat),
}

/// A directory opened for a walk, with the ignore files of the directories above it.
pub(crate) struct Tree {
    dir: OwnedFd,
    path: PathBuf,
    parents: Vec<Level>,
}

/// Opens the resolved `root` without following links (see the module docs), reading the
/// ignore files of the directories above it on the way.
pub(crate) fn open(root: &Path, guard: &PathGuard) -> Result<Opened, ToolError> {
    let mut parents = Vec::new();
    let opened = open_walk_root(root, &mut |dir, path| {
        parents.push(Level::read(dir, path, guard));
    })?;
    Ok(match opened {
        WalkRoot::Dir(dir) => Opened::Dir(Tree {
            dir,
            path: root.to_path_buf(),
            parents,
        }),
        WalkRoot::File(file, stat) => Opened::File(file, stat),
    })
}

/// A regular file the walk found, in the directory it was listed from.
pub(crate) struct Found<'a> {
    dir: BorrowedFd<'a>,
    name: &'a CStr,
    /// The checked root joined with the names walked.
    pub path: &'a Path,
    stat: Stat,
}

impl Found<'_> {
    /// The file opened for reading, relative to its directory without following a link;
    /// `None` when it is no longer a regular file there (or cannot be opened).
    pub fn open(&self) -> Option<(File, Stat)> {
        let fd = rustix::fs::openat(self.dir, self.name, READ_FLAGS, Mode::empty()).ok()?;
        let stat = rustix::fs::fstat(&fd).ok()?;
        (FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile)
            .then(|| (File::from(fd), stat))
    }

    /// Its modification time as listed.
    pub fn modified(&self) -> SystemTime {
        modified(&self.stat)
    }
}

/// The modification time in `stat`; before 1970 counts as 1970.
pub(crate) fn modified(stat: &Stat) -> SystemTime {
    let seconds = u64::try_from(stat.st_mtime).unwrap_or(0);
    let nanos = u32::try_from(stat.st_mtime_nsec).unwrap_or(0);
    SystemTime::UNIX_EPOCH + Duration::new(seconds, nanos.min(999_999_999))
}

/// A directory being listed.
struct Frame {
    dir: OwnedFd,
    path: PathBuf,
    entries: std::vec::IntoIter<(CString, FileType)>,
}

impl Frame {
    /// Lists `dir`, names in byte order; `None` when it cannot be listed.
    fn new(dir: OwnedFd, path: PathBuf) -> Option<Frame> {
        let mut entries = Vec::new();
        for entry in rustix::fs::Dir::read_from(&dir).ok()? {
            let entry = entry.ok()?;
            let name = entry.file_name();
            if name != c"." && name != c".." {
                entries.push((name.to_owned(), entry.file_type()));
            }
        }
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Some(Frame {
            dir,
            path,
            entries: entries.into_iter(),
        })
    }
}

/// One walk: the guard, the filters, and what was skipped.
pub(crate) struct Walk {
    guard: PathGuard,
    filters: Filters,
    global: Gitignore,
    skipped: usize,
}

impl Walk {
    /// A walk that leaves out what `guard` covers and what the ignore files and `filters`
    /// exclude (the user's global git excludes are read here).
    pub fn new(guard: PathGuard, filters: Filters) -> Walk {
        Walk {
            guard,
            filters,
            global: Gitignore::global().0,
            skipped: 0,
        }
    }

    /// Directories and files that could not be opened or changed under the walk.
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Calls `visit` with each regular file below `tree` that is not left out, depth first in
    /// name order, until it breaks.
    pub fn run(&mut self, tree: Tree, mut visit: impl FnMut(&Found<'_>) -> ControlFlow<()>) {
        let mut levels = tree.parents;
        let parents = levels.len();
        levels.push(Level::read(tree.dir.as_fd(), &tree.path, &self.guard));
        let Some(root) = Frame::new(tree.dir, tree.path) else {
            self.skipped += 1;
            return;
        };
        let mut stack = vec![root];
        while let Some(frame) = stack.last_mut() {
            let too_deep = levels.len() > parents + MAX_DEPTH;
            let Some((name, listed)) = frame.entries.next() else {
                stack.pop();
                levels.pop();
                continue;
            };
            let path = frame.path.join(OsStr::from_bytes(name.to_bytes()));
            if name.as_c_str() == c".git" {
                continue;
            }
            let listed = match listed {
                FileType::Unknown => {
                    match rustix::fs::statat(&frame.dir, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW)
                    {
                        Ok(stat) => FileType::from_raw_mode(stat.st_mode),
                        Err(_) => continue,
                    }
                }
                known => known,
            };
            let is_dir = match listed {
                FileType::Directory => true,
                FileType::RegularFile => false,
                // Links are not followed; FIFOs, sockets and devices are not searched.
                _ => continue,
            };
            if self.guard.denies_entry(&path, is_dir).is_some()
                || self.ignored(&levels, &path, is_dir)
            {
                continue;
            }
            if is_dir {
                let opened = if too_deep {
                    None
                } else {
                    rustix::fs::openat(&frame.dir, name.as_c_str(), LIST_FLAGS, Mode::empty())
                        .ok()
                        .and_then(|dir| {
                            let level = Level::read(dir.as_fd(), &path, &self.guard);
                            Some((level, Frame::new(dir, path)?))
                        })
                };
                match opened {
                    Some((level, frame)) => {
                        levels.push(level);
                        stack.push(frame);
                    }
                    None => self.skipped += 1,
                }
                continue;
            }
            let stat =
                match rustix::fs::statat(&frame.dir, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {
                        stat
                    }
                    _ => {
                        self.skipped += 1;
                        continue;
                    }
                };
            let found = Found {
                dir: frame.dir.as_fd(),
                name: &name,
                path: &path,
                stat,
            };
            if visit(&found).is_break() {
                return;
            }
        }
    }

    /// Whether `path` is left out by the filters or the ignore files of `levels` (the root's
    /// parents first, then the directories walked).
    fn ignored(&self, levels: &[Level], path: &Path, is_dir: bool) -> bool {
        if let Some(overrides) = &self.filters.overrides {
            let decided = overrides.matched(path, is_dir);
            if !decided.is_none() {
                return decided.is_ignore();
            }
        }
        let first = |pick: fn(&Level) -> &Gitignore| {
            levels
                .iter()
                .rev()
                .map(|level| pick(level).matched(path, is_dir))
                .find(|found| !found.is_none())
                .unwrap_or(Match::None)
        };
        let ignored = first(|level| &level.ignore)
            .or(first(|level| &level.git))
            .or(first(|level| &level.exclude))
            .or(self.global.matched(path, is_dir))
            .is_ignore();
        ignored
            || self
                .filters
                .types
                .as_ref()
                .is_some_and(|types| types.matched(path, is_dir).is_ignore())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_directory_that_became_a_link_is_skipped_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(&root, "pub/a.txt", "x\n");
        write(&root, "secrets/key.txt", "x\n");
        let Opened::Dir(tree) = open(&root, &PathGuard::default()).unwrap() else {
            panic!("not a directory")
        };
        let mut walk = Walk::new(PathGuard::default(), Filters::default());
        let mut found = Vec::new();
        let mut swapped = false;
        walk.run(tree, |file| {
            found.push(file.path.to_path_buf());
            if !swapped {
                // After the first file (`pub/a.txt`), `secrets` (listed as a directory
                // already) becomes a link to `pub`.
                swapped = true;
                std::fs::rename(root.join("secrets"), root.join("moved")).unwrap();
                std::os::unix::fs::symlink("pub", root.join("secrets")).unwrap();
            }
            ControlFlow::Continue(())
        });
        assert_eq!(found, [root.join("pub/a.txt")]);
        assert_eq!(walk.skipped(), 1);
    }
}

//! Resolving a path as the kernel opens it.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against `cwd`.
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    cwd.join(path)
}

/// How many symbolic links one resolution follows before giving up, as the kernel does
/// (`ELOOP` after 40).
const MAX_LINKS: usize = 40;

/// A path that cannot be resolved to the file the kernel would open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// `..` follows a component that does not exist: the kernel refuses the path, so no file
    /// can be named by it, and reading it as text would hide the links after it.
    MissingBeforeParent {
        /// The path as given.
        path: PathBuf,
        /// The first component that does not exist.
        missing: PathBuf,
    },
    /// `..` or another component follows something that is not a directory.
    NotADirectory {
        /// The path as given.
        path: PathBuf,
        /// The component that is not a directory.
        at: PathBuf,
    },
    /// More than 40 symbolic links on the way.
    TooManyLinks {
        /// The path as given.
        path: PathBuf,
    },
    /// A link under `/proc` to something that is not a file path (a pipe, a socket, a deleted
    /// file).
    NotAFile {
        /// The link.
        link: PathBuf,
        /// What it points to.
        target: String,
    },
    /// The path is relative: resolution starts from an absolute path ([`absolute`]).
    Relative {
        /// The path as given.
        path: PathBuf,
    },
    /// The filesystem could not be read on the way.
    Io {
        /// Where.
        at: PathBuf,
        /// What the system said.
        message: String,
    },
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::MissingBeforeParent { path, missing } => write!(
                f,
                "{}: {} does not exist, so the `..` after it names nothing",
                path.display(),
                missing.display()
            ),
            PathError::NotADirectory { path, at } => write!(
                f,
                "{}: {} is not a directory, so nothing can follow it",
                path.display(),
                at.display()
            ),
            PathError::TooManyLinks { path } => write!(
                f,
                "{}: more than {MAX_LINKS} symbolic links on the way",
                path.display()
            ),
            PathError::NotAFile { link, target } => write!(
                f,
                "{} points to `{target}`, which is not a file path",
                link.display()
            ),
            PathError::Relative { path } => {
                write!(f, "{} is relative; give an absolute path", path.display())
            }
            PathError::Io { at, message } => {
                write!(f, "could not inspect {}: {message}", at.display())
            }
        }
    }
}

impl std::error::Error for PathError {}

/// What the resolution has reached so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reached {
    Dir,
    File,
    Missing,
}

/// The path the kernel would open for the absolute `path`, with every symbolic link followed
/// (`/proc/self/root`, `/proc/self/cwd` and the other `/proc` links included, by what they
/// point to), `.` and `..` resolved the kernel's way: component by component, `..` taken
/// after the link before it is followed, never as text. The result names no link.
///
/// A path that does not exist resolves up to its first missing component; the rest is
/// appended, which is where creating it would put it. `..` after a missing component, or after
/// something that is not a directory, is an error ([`PathError`]): the kernel refuses such a
/// path, and resolving it as text (`missing/../link/secret`) would hide every link after it.
///
/// ```
/// use std::path::Path;
/// use toolreg::permissions::path::resolve;
///
/// let root = resolve(Path::new("/")).unwrap();
/// assert_eq!(resolve(Path::new("/proc/self/root/")).unwrap(), root);
/// assert!(resolve(Path::new("/no-such-dir/../etc/passwd")).is_err());
/// ```
pub fn resolve(path: &Path) -> Result<PathBuf, PathError> {
    resolve_traced(path).map(|resolved| resolved.path)
}

/// A path resolved by [`resolve_traced`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// The path the kernel would open ([`resolve`]).
    pub path: PathBuf,
    /// Whether it is an existing directory.
    pub is_dir: bool,
    /// How the path reads at each symbolic link followed on the way.
    pub through: Vec<LinkSpelling>,
}

/// How a path read at one symbolic link met while resolving it: the link's own path (its
/// resolved directory and its name) followed by the components still to resolve after it, up
/// to the first `..` (after which the spelling would name something else than what the kernel
/// reaches). A rule that matches it names the link, and covers what the path leads to
/// ([`path`](super) says what a rule names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSpelling {
    /// The spelling.
    pub path: PathBuf,
    /// Whether it runs to the end, so names what the resolution reached; otherwise it stopped
    /// at a `..` and names a directory the kernel went through.
    pub whole: bool,
    /// Whether what it names is a directory.
    pub is_dir: bool,
}

/// [`resolve`], also giving whether the result is a directory and how the path reads at each
/// link followed: a rule that names a link (`Read(.env)` with `.env -> config/prod`) covers
/// what is reached through it.
pub(crate) fn resolve_traced(path: &Path) -> Result<Resolved, PathError> {
    if !path.is_absolute() {
        return Err(PathError::Relative {
            path: path.to_path_buf(),
        });
    }
    let mut todo: Vec<std::ffi::OsString> = Vec::new();
    push_components(&mut todo, path);
    resolve_rest(path, PathBuf::from("/"), Reached::Dir, todo)
}

/// [`resolve`] of `base.join(relative)` where `base` is already resolved (a path [`resolve`]
/// gave): only the components of `relative` are looked up, one `lstat` each.
pub(crate) fn resolve_below(base: &Path, relative: &Path) -> Result<PathBuf, PathError> {
    let reached = match std::fs::symlink_metadata(base) {
        Ok(metadata) if metadata.is_dir() => Reached::Dir,
        Ok(_) => Reached::File,
        Err(_) => Reached::Missing,
    };
    let mut todo: Vec<std::ffi::OsString> = Vec::new();
    push_components(&mut todo, relative);
    let path = base.join(relative);
    resolve_rest(&path, base.to_path_buf(), reached, todo).map(|resolved| resolved.path)
}

/// Resolves the components in `todo` (popped last first) from `resolved`, which is `reached`;
/// `path` is what errors name.
fn resolve_rest(
    path: &Path,
    mut resolved: PathBuf,
    mut reached: Reached,
    mut todo: Vec<std::ffi::OsString>,
) -> Result<Resolved, PathError> {
    let mut links = 0;
    let mut through = Vec::new();
    while let Some(part) = todo.pop() {
        let part = Path::new(&part);
        match part.components().next() {
            None => {}
            Some(Component::CurDir) if reached == Reached::File => {
                return Err(PathError::NotADirectory {
                    path: path.to_path_buf(),
                    at: resolved,
                });
            }
            Some(Component::CurDir) => {}
            Some(Component::RootDir | Component::Prefix(_)) => {
                resolved = PathBuf::from(part);
                reached = Reached::Dir;
            }
            Some(Component::ParentDir) => {
                match reached {
                    Reached::Missing => {
                        return Err(PathError::MissingBeforeParent {
                            path: path.to_path_buf(),
                            missing: first_missing(&resolved),
                        });
                    }
                    Reached::File => {
                        return Err(PathError::NotADirectory {
                            path: path.to_path_buf(),
                            at: resolved,
                        });
                    }
                    Reached::Dir => {}
                }
                resolved.pop();
            }
            Some(Component::Normal(name)) => {
                match reached {
                    Reached::Missing => {
                        resolved.push(name);
                        continue;
                    }
                    Reached::File => {
                        return Err(PathError::NotADirectory {
                            path: path.to_path_buf(),
                            at: resolved,
                        });
                    }
                    Reached::Dir => {}
                }
                let candidate = resolved.join(name);
                let metadata = match std::fs::symlink_metadata(&candidate) {
                    Ok(metadata) => metadata,
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                        resolved = candidate;
                        reached = Reached::Missing;
                        continue;
                    }
                    Err(error) => {
                        return Err(PathError::Io {
                            at: candidate,
                            message: error.to_string(),
                        });
                    }
                };
                if !metadata.file_type().is_symlink() {
                    reached = if metadata.is_dir() {
                        Reached::Dir
                    } else {
                        Reached::File
                    };
                    resolved = candidate;
                    continue;
                }
                links += 1;
                if links > MAX_LINKS {
                    return Err(PathError::TooManyLinks {
                        path: path.to_path_buf(),
                    });
                }
                let target = std::fs::read_link(&candidate).map_err(|error| PathError::Io {
                    at: candidate.clone(),
                    message: error.to_string(),
                })?;
                if candidate.starts_with("/proc") && !names_a_file(&target) {
                    return Err(PathError::NotAFile {
                        link: candidate,
                        target: target.to_string_lossy().into_owned(),
                    });
                }
                through.push(spelling(candidate, &todo));
                push_components(&mut todo, &target);
            }
        }
    }
    let is_dir = reached == Reached::Dir;
    for link in &mut through {
        link.is_dir = is_dir || !link.whole;
    }
    Ok(Resolved {
        path: resolved,
        is_dir,
        through,
    })
}

/// How a path reads at the link `link`, with `todo` still to resolve (popped last first).
fn spelling(link: PathBuf, todo: &[std::ffi::OsString]) -> LinkSpelling {
    let mut path = link;
    for part in todo.iter().rev() {
        match Path::new(part).components().next() {
            Some(Component::Normal(name)) => path.push(name),
            Some(Component::CurDir) | None => {}
            Some(Component::ParentDir | Component::RootDir | Component::Prefix(_)) => {
                return LinkSpelling {
                    path,
                    whole: false,
                    is_dir: true,
                };
            }
        }
    }
    LinkSpelling {
        path,
        whole: true,
        is_dir: false,
    }
}

/// Pushes the components of `path` so that popping gives them in order. A path ending in `/`
/// or `/.` names a directory (the kernel refuses `file.txt/`), which `components()` forgets: a
/// `.` is kept at its end, so that resolution refuses it after a file.
fn push_components(todo: &mut Vec<std::ffi::OsString>, path: &Path) {
    let start = todo.len();
    todo.extend(path.components().map(|c| c.as_os_str().to_owned()));
    let text = path.as_os_str().as_encoded_bytes();
    if text.len() > 1 && (text.ends_with(b"/") || text.ends_with(b"/.")) {
        todo.push(".".into());
    }
    if let Some(pushed) = todo.get_mut(start..) {
        pushed.reverse();
    }
}

/// Whether a `/proc` link's text names a file: the magic links of a process's descriptors read
/// `pipe:[…]`, `socket:[…]`, `anon_inode:…` or `/path (deleted)` for what has no path.
fn names_a_file(target: &Path) -> bool {
    let text = target.to_string_lossy();
    !text.ends_with(" (deleted)") && (target.is_absolute() || !text.contains(':'))
}

/// The first component of `resolved` that does not exist.
fn first_missing(resolved: &Path) -> PathBuf {
    resolved
        .ancestors()
        .take_while(|ancestor| std::fs::symlink_metadata(ancestor).is_err())
        .last()
        .unwrap_or(resolved)
        .to_path_buf()
}

/// [`resolve`] for a directory the host gives (a project root, the home directory): the path
/// as given when it cannot be resolved.
pub(crate) fn resolve_base(path: &Path) -> PathBuf {
    resolve(path).unwrap_or_else(|_| path.to_path_buf())
}

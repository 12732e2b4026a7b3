//! What a read-only command reads, and where its relative paths resolve after the line's `cd`s.
//!
//! A program reports its [`Operand`]s as written; [`Dirs`] joins each relative one to every
//! directory the line may have changed to by then ([`Read`]), so that a caller checking the
//! paths sees a superset of what may be read:
//!
//! - every `cd DIR` (and `cd` reached through `eval`, a subshell or a pipeline, which may not
//!   change the line's own directory) adds, for each directory so far, that directory joined
//!   with `DIR` twice: with `.` and `..` resolved lexically, as bash's `cd` does by default,
//!   and as written, as the kernel resolves it when bash falls back to it. The directories
//!   before stay (a `cd` may fail);
//! - a `cd` whose target is not a literal path (`cd`, `cd -`, `cd ~`, `cd "$d"`), `pushd`,
//!   `popd`, or more than [`MAX_DIRS`] directories, make every later relative path
//!   [`Read::Unknown`].

use super::lex::Word;

/// Directories a line may be in before [`Read`]s are no longer named.
pub const MAX_DIRS: usize = 16;

/// A path a read-only command may read, as far as the checker can tell before the line runs.
///
/// A caller that runs such a command unasked without a sandbox checks each against its read
/// rules (deny and ask): a [`Read::Path`] as a path (relative to the directory the line
/// starts in), with everything below it when `tree`; a [`Read::Repository`] as every path of
/// the repository git finds from that directory; a [`Read::Unknown`] cannot be checked, so
/// the caller asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// A file or directory (a directory's entries' names are read too). Relative paths are
    /// relative to the directory the line starts in.
    Path {
        /// As it will be opened: absolute, or relative to the line's starting directory.
        path: String,
        /// The program walks it: everything below it may be read as well.
        tree: bool,
    },
    /// The git repository git finds from `dir` (relative to the line's starting directory, or
    /// absolute), searching upwards: its work tree and git directory as git reports them
    /// (`git rev-parse --show-toplevel --absolute-git-dir --git-common-dir`, run from `dir`
    /// with [`read_only_env`](super::read_only_env)), with everything below them, and the
    /// object directories its `objects/info/alternates` names.
    Repository {
        /// Where git starts looking.
        dir: String,
    },
    /// A path the checker cannot name before the line runs: an expansion, a glob, a tilde, a
    /// relative path after a `cd` it cannot follow, or files a program reads by a name in its
    /// input (`jq 'import "m" as m; …'`). The word as written.
    Unknown {
        /// The word, as written after quote removal.
        word: String,
    },
}

/// What a program reads, as its words name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Operand {
    /// A path word.
    Path {
        /// Its text.
        text: String,
        /// It holds no expansion, glob or tilde: bash passes it as written.
        literal: bool,
        /// The program walks it.
        tree: bool,
    },
    /// The repository git finds from the current directory.
    Repository,
    /// Files the checker cannot name; the word that makes the program read them.
    Unknown(String),
}

impl Operand {
    /// `w` as a path the program reads.
    pub(super) fn path(w: &Word, tree: bool) -> Operand {
        Operand::Path {
            text: w.text.clone(),
            literal: literal(w),
            tree,
        }
    }

    /// The text `text` of the word `w` (an option's attached value) as a path.
    pub(super) fn value(text: &str, w: &Word) -> Operand {
        Operand::Path {
            text: text.to_owned(),
            literal: literal(w),
            tree: false,
        }
    }

    /// The current directory, walked.
    pub(super) fn here() -> Operand {
        Operand::Path {
            text: ".".into(),
            literal: true,
            tree: true,
        }
    }
}

/// Whether bash passes `w` as written: no expansion, glob or tilde.
pub(super) fn literal(w: &Word) -> bool {
    w.expansion.is_none() && !w.tilde
}

/// The directories a line may be in, relative to where it started (`""`), or unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Dirs {
    /// Each directory the line may be in by now.
    Known(Vec<String>),
    /// A `cd` the checker cannot follow happened.
    Unknown,
}

impl Default for Dirs {
    fn default() -> Self {
        Dirs::Known(vec![String::new()])
    }
}

impl Dirs {
    /// After `cd TARGET`; `None` for a target that is not a literal path.
    pub(super) fn cd(&mut self, target: Option<&str>) {
        let (Dirs::Known(dirs), Some(target)) = (&mut *self, target) else {
            *self = Dirs::Unknown;
            return;
        };
        let mut added = Vec::new();
        for dir in dirs.iter() {
            let joined = join(dir, target);
            added.push(lexical(&joined));
            added.push(joined);
        }
        for dir in added {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        if dirs.len() > MAX_DIRS {
            *self = Dirs::Unknown;
        }
    }

    /// `operand`, as read from each directory the line may be in.
    pub(super) fn resolve(&self, operand: Operand, out: &mut Vec<Read>) {
        match operand {
            Operand::Path { text, literal, .. } if !literal => {
                out.push(Read::Unknown { word: text });
            }
            Operand::Path { text, tree, .. } if text.starts_with('/') => {
                out.push(Read::Path { path: text, tree });
            }
            Operand::Path { text, tree, .. } => match self {
                Dirs::Known(dirs) => out.extend(dirs.iter().map(|dir| Read::Path {
                    path: join(dir, &text),
                    tree,
                })),
                Dirs::Unknown => out.push(Read::Unknown { word: text }),
            },
            Operand::Repository => match self {
                Dirs::Known(dirs) => out.extend(dirs.iter().map(|dir| Read::Repository {
                    dir: if dir.is_empty() {
                        ".".into()
                    } else {
                        dir.clone()
                    },
                })),
                Dirs::Unknown => out.push(Read::Unknown { word: ".".into() }),
            },
            Operand::Unknown(word) => out.push(Read::Unknown { word }),
        }
    }
}

/// `path` from `dir` (`""` is the starting directory).
fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with('/') {
        path.to_owned()
    } else if path.is_empty() {
        dir.to_owned()
    } else {
        format!("{}/{path}", dir.trim_end_matches('/'))
    }
}

/// `path` with `.` and `..` resolved by text, as bash's `cd` resolves its target (a `..`
/// beyond the start of a relative path stays).
fn lexical(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> Operand {
        Operand::Path {
            text: text.into(),
            literal: true,
            tree: false,
        }
    }

    fn paths(dirs: &Dirs, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        dirs.resolve(path(text), &mut out);
        out.into_iter()
            .map(|r| match r {
                Read::Path { path, .. } => path,
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn relative_paths_join_every_directory_a_cd_may_have_reached() {
        let mut dirs = Dirs::default();
        assert_eq!(paths(&dirs, "x"), ["x"]);
        dirs.cd(Some("a/../b"));
        assert_eq!(paths(&dirs, "x"), ["x", "b/x", "a/../b/x"]);
        dirs.cd(Some("/etc"));
        assert_eq!(paths(&dirs, "x")[3..], ["/etc/x"]);
        assert_eq!(paths(&dirs, "/abs"), ["/abs"]);
        assert_eq!(lexical("../a/./b/../c"), "../a/c");
        assert_eq!(lexical("/../a"), "/a");
    }

    #[test]
    fn a_cd_the_checker_cannot_follow_makes_relative_paths_unknown() {
        let mut dirs = Dirs::default();
        dirs.cd(None);
        assert_eq!(paths(&dirs, "x"), ["Unknown { word: \"x\" }"]);
        assert_eq!(paths(&dirs, "/x"), ["/x"]);
        let mut dirs = Dirs::default();
        for i in 0..5 {
            dirs.cd(Some(&format!("d{i}")));
        }
        assert_eq!(dirs, Dirs::Unknown);
    }
}

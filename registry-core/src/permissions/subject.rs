//! What a call's rules with content are matched against.

use std::path::{Path, PathBuf};

use super::path::{LinkSpelling, PathError, absolute, resolve_traced};

/// The part of a call's input that a rule's parentheses speak of, as the tool reports it
/// ([`Tool::rule_subject`](crate::Tool::rule_subject)). Its kind decides how rule content is
/// read, so a tool of the application's own gets the same rules as the built-ins by returning
/// the same kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A shell command line (`Bash(npm test:*)`): each simple command of it is checked, as
    /// [`shell`](super::shell) splits it.
    Command(String),
    /// A file the call reads or writes (`Read(./secrets/**)`): gitignore-style patterns matched
    /// against the canonical path, as [`path`](super::path) describes.
    Path(PathSubject),
    /// Any other text: `prefix:*` or `*` wildcards ([`content_matches`](super::content_matches)).
    Text(String),
}

/// A file a call reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathSubject {
    /// The path as the tool will use it: absolute, or relative to the context's working
    /// directory.
    pub path: PathBuf,
    /// Whether the call writes.
    pub access: Access,
    /// Tools whose path rules govern this call besides the tool's own: `Write` names `Edit`, so
    /// `Edit(//etc/**)` also keeps Write out of `/etc`.
    pub also: &'static [&'static str],
    /// Tools whose deny and ask path rules govern this call too because it shows the file's
    /// content (an edit shows lines of the file): editing a path needs the permission to read
    /// it. Their allow rules do not allow the call.
    pub reads_as: &'static [&'static str],
    /// How the path read at each symbolic link met when it was resolved
    /// ([`Subject::resolved`]): a rule that names one of those links covers the call, since
    /// the call reaches its file through it. Empty for a path not resolved yet.
    pub through: Vec<LinkSpelling>,
}

/// How a call touches a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// It only reads.
    Read,
    /// It creates, changes or removes (the working-directory boundary applies).
    Write,
}

impl Subject {
    /// A file the call reads.
    pub fn read(path: impl Into<PathBuf>) -> Subject {
        Subject::Path(PathSubject {
            path: path.into(),
            access: Access::Read,
            also: &[],
            reads_as: &[],
            through: Vec::new(),
        })
    }

    /// A file the call writes.
    pub fn write(path: impl Into<PathBuf>) -> Subject {
        Subject::Path(PathSubject {
            path: path.into(),
            access: Access::Write,
            also: &[],
            reads_as: &[],
            through: Vec::new(),
        })
    }

    /// Path rules of these tools govern the call too (no effect on other subjects).
    pub fn also_governed_by(mut self, tools: &'static [&'static str]) -> Subject {
        if let Subject::Path(path) = &mut self {
            path.also = tools;
        }
        self
    }

    /// Deny and ask path rules of these tools govern the call too: it shows the file's content
    /// (no effect on other subjects).
    pub fn also_reads_as(mut self, tools: &'static [&'static str]) -> Subject {
        if let Subject::Path(path) = &mut self {
            path.reads_as = tools;
        }
        self
    }

    /// This subject with its path made absolute against `cwd` and resolved as the kernel would
    /// open it ([`resolve`](super::path::resolve)), keeping how it read at each link on the way
    /// ([`PathSubject::through`]); other subjects are unchanged.
    pub fn resolved(mut self, cwd: &Path) -> Result<Subject, PathError> {
        if let Subject::Path(path) = &mut self {
            let resolved = resolve_traced(&absolute(cwd, &path.path))?;
            path.path = resolved.path;
            path.through.extend(resolved.through);
        }
        Ok(self)
    }

    /// The path of a path subject.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Subject::Path(path) => Some(&path.path),
            Subject::Command(_) | Subject::Text(_) => None,
        }
    }

    /// The tools whose rules with content apply besides the tool's own.
    pub(crate) fn also(&self) -> &'static [&'static str] {
        match self {
            Subject::Path(path) => path.also,
            Subject::Command(_) | Subject::Text(_) => &[],
        }
    }
}

//! What a call's rules with content are matched against.

use std::path::PathBuf;

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
        })
    }

    /// A file the call writes.
    pub fn write(path: impl Into<PathBuf>) -> Subject {
        Subject::Path(PathSubject {
            path: path.into(),
            access: Access::Write,
            also: &[],
        })
    }

    /// Path rules of these tools govern the call too (no effect on other subjects).
    pub fn also_governed_by(mut self, tools: &'static [&'static str]) -> Subject {
        if let Subject::Path(path) = &mut self {
            path.also = tools;
        }
        self
    }

    /// The tools whose rules with content apply besides the tool's own.
    pub(crate) fn also(&self) -> &'static [&'static str] {
        match self {
            Subject::Path(path) => path.also,
            Subject::Command(_) | Subject::Text(_) => &[],
        }
    }
}

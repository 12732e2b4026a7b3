//! What the rules say about one call.

use std::fmt;
use std::path::PathBuf;

use super::path::{PathError, PatternError};
use super::rule::PermissionRule;
use super::shell::NotUnderstood;

/// The rules' answer for one call ([`PermissionContext::check`](crate::PermissionContext::check)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The call is refused.
    Deny(Refusal),
    /// The user must be asked; the reason is for them.
    Ask(String),
    /// A rule allows the call.
    Allow,
    /// No rule decides: the tool's own check does.
    Undecided,
}

/// Why the rules refuse a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A deny rule matched.
    Rule(PermissionRule),
    /// A write outside every working directory, with the boundary set to refuse.
    OutsideWorkingDirectories {
        /// The canonical path of the write.
        path: PathBuf,
    },
    /// In bypass mode nothing asks, so a command that a deny or ask rule could not be checked
    /// against is refused.
    Unverifiable {
        /// The rule that might have matched.
        rule: PermissionRule,
        /// What the shell splitter did not understand.
        why: NotUnderstood,
    },
    /// The path cannot be resolved to the file the kernel would open (`..` after a component
    /// that does not exist, too many links, a `/proc` link to something that is not a file).
    Unresolvable(PathError),
    /// A deny or ask rule with a `~/` pattern while the home directory is not known (`HOME`
    /// unset or empty): it cannot tell what it covers, so it refuses rather than letting
    /// everything through.
    UnknownHome {
        /// The rule.
        rule: PermissionRule,
    },
    /// A deny or ask rule whose path pattern is not valid: refused rather than ignored.
    InvalidPattern {
        /// The rule.
        rule: PermissionRule,
        /// What is wrong with its pattern.
        error: PatternError,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Rule(rule) => write!(f, "denied by rule {rule}"),
            Refusal::OutsideWorkingDirectories { path } => write!(
                f,
                "{} is outside the working directories, where writes are refused",
                path.display()
            ),
            Refusal::Unverifiable { rule, why } => write!(
                f,
                "the command could not be checked against rule {rule} ({why}), and nothing asks in this mode"
            ),
            Refusal::InvalidPattern { rule, error } => write!(f, "rule {rule}: {error}"),
            Refusal::Unresolvable(error) => write!(f, "the path cannot be resolved: {error}"),
            Refusal::UnknownHome { rule } => write!(
                f,
                "rule {rule} names the home directory, which is not known (HOME is unset or empty), so every path is refused"
            ),
        }
    }
}

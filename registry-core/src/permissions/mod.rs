//! Permission rules: parsing, sources, and what they say about a tool and a call.
//!
//! A rule string is `Tool` or `Tool(content)`. Content runs from the first unescaped `(` to a
//! final unescaped `)`; `\(`, `\)` and `\\` are escapes. `Tool()` and `Tool(*)` mean the whole
//! tool. A string that does not have that shape is taken whole as a tool name. Legacy tool names
//! are mapped to current ones (`Task` → `Agent`).
//!
//! A rule *without* content applies to a tool as a whole and can remove it from the pool (deny).
//! It names the tool's permission identity ([`RuleTarget`]): for an MCP tool
//! `mcp__<normalized server>__<normalized tool>` from the names the server sent, never the
//! display name the pool may have given it to keep names unique and short, so a decoy listed
//! first or a long name cannot move a tool out of a rule's reach. When two raw names normalize
//! alike (`delete.all`, `delete_all`), both tools have that identity and a rule matches both.
//!
//! A rule *with* content (`Bash(npm test:*)`, `Read(./secrets/**)`) never removes a tool; it is
//! matched at call time against the call's [`Subject`], which the tool reports: a shell
//! command ([`shell`], [`Verdict`]), a file path ([`path`]) or plain text
//! ([`content_matches`]). [`PermissionContext::check`](crate::PermissionContext::check) gives the order in which rules decide.
//!
//! # Rules as paths, for a sandbox
//!
//! A sandbox names paths, not patterns: `PathGuard::covered_paths` (in `expand`) turns deny
//! (and, through [`PermissionContext::read_restrictions`](crate::PermissionContext::read_restrictions),
//! ask) path rules into the existing paths they cover, links on a rule's literal prefix and
//! links the pattern names followed to their targets.
//! [`PermissionContext::restricts_below`](crate::PermissionContext::restricts_below) says
//! whether any deny or ask rule may match below a directory, for a command that reads a tree.

mod content;
mod content_check;
mod expand;
mod grant;
pub mod path;
mod path_rules;
pub(crate) mod rule;
pub(crate) mod ruleset;
pub mod shell;
mod subject;
mod verdict;

pub use content::content_matches;
pub use expand::ExpandError;
pub use grant::Grant;
pub use rule::{PermissionRule, RuleError, RuleTarget, RuleValue};
pub use ruleset::OutsideWrites;
pub use subject::{Access, PathSubject, Subject};
pub use verdict::{Refusal, Verdict};

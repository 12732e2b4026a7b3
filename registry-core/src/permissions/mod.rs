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
//! # Deny rules as paths, for a sandbox
//! keep read-only, since a mount namespace (or Landlock) names paths, not patterns.
//!
//! Each rule is expanded from the longest leading part of its pattern that holds no glob
//! character (`Read(//etc/**)` starts at `/etc`, `Read(*.env)` at the project root): the
//! shallowest existing paths the rule matches are kept (what is below them is covered with
//! them; `dir/**` covers `dir` itself), found by walking without following links. Only what exists when the expansion runs
//! is found: a file created later that a pattern would cover is not. A walk that would visit
//! more than 100,000 entries, and a `~/` rule without a home directory, are
//! errors: the caller should refuse rather than run with a rule left out.

mod content;
mod expand;
mod grant;
pub mod path;
pub(crate) mod rule;
pub(crate) mod ruleset;
pub mod shell;
mod subject;
mod verdict;

pub use content::content_matches;
pub use expand::ExpandError;
pub use grant::Grant;
pub use rule::{PermissionRule, RuleTarget, RuleValue};
pub use ruleset::OutsideWrites;
pub use subject::{Access, PathSubject, Subject};
pub use verdict::{Refusal, Verdict};

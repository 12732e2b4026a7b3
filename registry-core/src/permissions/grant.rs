//! How a call came to run, which decides what it may do.

/// How a call came to run: the permission check's answer, handed to the tool
/// ([`ToolContext::grant`](crate::ToolContext::grant)), so that what a call may do follows from
/// how it was allowed rather than from what a checker believed about it.
///
/// A tool that can do more than its input says — a shell — runs an [`Unasked`](Grant::Unasked)
/// call with the least it needs (Bash: nothing writable, no network, no sockets, a scrubbed
/// environment), so a call the checker misjudged as harmless can at worst read what reads may
/// read. Only a call a rule allowed, the user approved, or the mode let through gets the
/// working directories and, where configured, the network.
///
/// ```
/// use toolreg::permissions::Grant;
///
/// assert!(!Grant::Unasked.is_explicit());
/// assert!(Grant::Approved.is_explicit());
/// assert_eq!(Grant::default(), Grant::Unasked);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Grant {
    /// No rule decided and nobody was asked: the tool's own check found the call harmless
    /// (Bash: every command only reads) or had no objection. Also what a tool sees when it is
    /// called outside dispatch.
    #[default]
    Unasked,
    /// A permission rule allowed it (`Bash(npm test:*)`, a whole-tool `Bash`).
    Rule,
    /// The check asked and the approver said yes.
    Approved,
    /// The check asked and the mode ([`BypassPermissions`](crate::PermissionMode::BypassPermissions))
    /// runs everything without asking.
    Bypass,
}

impl Grant {
    /// Whether a rule, the user or the mode allowed the call — not only the tool's own check.
    pub fn is_explicit(self) -> bool {
        !matches!(self, Grant::Unasked)
    }
}

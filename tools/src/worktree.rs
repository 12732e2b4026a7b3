//! EnterWorktree and ExitWorktree: an isolated git worktree for the session, managed by the
//! host. Enabled by the run-time switch `worktree_mode`.

use serde::{Deserialize, Serialize};
use toolreg::env::Switches;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

use crate::profile::switch;

fn worktree_mode(switches: &Switches) -> bool {
    switches.is_on(switch::WORKTREE_MODE)
}

/// Creates a new git worktree on a new branch and moves the session into it, so that your changes stay isolated from the user's checkout.
///
/// Use it only when the user asks to work in a worktree or in isolation. The session's working directory becomes the worktree; ExitWorktree leaves it. Fails outside a git repository, and when the session is already in a worktree.
#[tool(
    strict,
    name = "EnterWorktree",
    defer,
    enabled = worktree_mode,
    search_hint = "isolate changes on a separate git branch checkout"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EnterWorktreeTool {
    /// A name for the worktree and its branch; omit for a generated one.
    pub name: Option<String>,
}

impl Tool for EnterWorktreeTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Leaves the worktree that EnterWorktree created and returns the session to the original checkout.
///
/// `keep` leaves the worktree and its branch on disk for later; `remove` deletes them, and refuses while there are uncommitted changes or unmerged commits unless `discard_changes` is set. Ask the user before discarding work.
#[tool(
    strict,
    name = "ExitWorktree",
    defer,
    enabled = worktree_mode,
    search_hint = "return to the original checkout keep or remove"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ExitWorktreeTool {
    /// Keep the worktree on disk, or remove it.
    pub action: WorktreeAction,
    /// With remove: discard uncommitted changes and unmerged commits (default false).
    pub discard_changes: Option<bool>,
}

/// What happens to the worktree on exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "lowercase")]
pub enum WorktreeAction {
    /// Leave it and its branch on disk.
    Keep,
    /// Delete it and its branch.
    Remove,
}

impl Tool for ExitWorktreeTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

//! EnterPlanMode and ExitPlanMode: the session's plan mode, switched by the host.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Switches the session into plan mode, to explore the code and design an approach before writing any code.
///
/// Use it proactively before non-trivial implementation work: a new feature, several valid approaches, changes that touch many files, or unclear requirements. In plan mode you only read and research; the user then approves the plan (see ExitPlanMode) before any change is made. Skip it for small, obvious changes and for pure research.
#[tool(
    strict,
    name = "EnterPlanMode",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "design an approach before coding"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EnterPlanModeTool {}

impl Tool for EnterPlanModeTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Presents your plan to the user for approval and, once approved, leaves plan mode so that implementation can start.
///
/// Use it only in plan mode, when the plan for a task that needs code changes is complete; not for research tasks, and not to ask whether the plan is good (the approval does that). Settle open questions with AskUserQuestion first. Pass the plan in Markdown as `plan`, or omit it when the host keeps the plan in its plan file.
#[tool(
    strict,
    name = "ExitPlanMode",
    defer,
    search_hint = "request approval of the design and start coding"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ExitPlanModeTool {
    /// The plan to approve, in Markdown; omit when the host reads it from its plan file.
    pub plan: Option<String>,
}

impl Tool for ExitPlanModeTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

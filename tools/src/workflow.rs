//! Workflow: runs a workflow script the host offers (`WORKFLOW_SCRIPTS`).
#![cfg(feature = "WORKFLOW_SCRIPTS")]

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Runs one of the workflow scripts the host offers: a scripted, multi-step procedure (a release, a migration, a review pass) that may itself run tools and agents, and returns its result.
///
/// Use it when the user asks for a workflow by name or the task matches one the host listed. Pass the workflow's inputs as `input`, shaped as the workflow describes them.
#[tool(
    name = "Workflow",
    search_hint = "run a scripted multi step procedure",
    feature = "WORKFLOW_SCRIPTS"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WorkflowTool {
    /// The name of the workflow to run.
    pub name: String,
    /// The workflow's inputs.
    pub input: Option<serde_json::Value>,
}

impl Tool for WorkflowTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

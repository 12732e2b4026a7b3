//! StructuredOutput: the final result of a session that must answer in a given JSON shape,
//! accepted by the host.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Returns your final answer as structured data, in the JSON shape the caller asked for. Call it exactly once, at the end, when the task is done; the session ends with this result.
///
/// Put the whole answer in `result`, matching the output schema you were given.
#[tool(
    name = "StructuredOutput",
    read_only,
    search_hint = "return the final answer as json"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct StructuredOutputTool {
    /// The final answer, matching the requested output schema.
    pub result: serde_json::Value,
}

impl Tool for StructuredOutputTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

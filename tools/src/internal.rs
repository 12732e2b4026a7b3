//! Config, Tungsten and REPL: tools of the internal build (`INTERNAL_BUILD`), run by the host.
#![cfg(feature = "INTERNAL_BUILD")]

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Reads or changes one of the application's settings (theme, model, permission defaults and the like).
///
/// Give `setting` alone to read its current value; give `value` too to change it. The result shows the value before and after. Change a setting only when the user asks for it.
#[tool(
    name = "Config",
    defer,
    search_hint = "get or set application settings",
    feature = "INTERNAL_BUILD"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ConfigTool {
    /// The setting's key, e.g. "theme" or "model".
    pub setting: String,
    /// The new value; omit to read the current one.
    pub value: Option<serde_json::Value>,
}

impl Tool for ConfigTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Runs an action of the internal Tungsten service, which the internal build's host provides; the actions it accepts and their arguments are described by the host.
///
/// Use it only when the host's instructions tell you to.
#[tool(
    name = "Tungsten",
    search_hint = "internal build service actions",
    feature = "INTERNAL_BUILD"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TungstenTool {
    /// The action to run.
    pub action: String,
    /// The action's arguments, as the host describes them.
    pub args: Option<serde_json::Value>,
}

impl Tool for TungstenTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Runs JavaScript in a persistent REPL whose globals include the primitive tools (reading, writing, editing and searching files, running shell commands, launching agents) as async functions.
///
/// In REPL mode the primitive tools are reached only through this tool: batch many operations in one call, loop over files, and return just the results you need. Variables persist between calls. The value of the last expression, and anything logged, is returned.
#[tool(
    strict,
    name = "REPL",
    search_hint = "run javascript that batches file and shell operations",
    feature = "INTERNAL_BUILD"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReplTool {
    /// The JavaScript code to run.
    pub code: String,
    /// A short description of what the code does.
    pub description: Option<String>,
}

impl Tool for ReplTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

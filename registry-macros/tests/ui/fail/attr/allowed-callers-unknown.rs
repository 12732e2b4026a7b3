use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Finds files.
#[tool(allowed_callers = ["direct", "code_execution"])]
#[derive(Deserialize)]
pub struct GlobTool {
    /// The pattern.
    pub pattern: String,
}

impl Tool for GlobTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.pattern)
    }
}

fn main() {}

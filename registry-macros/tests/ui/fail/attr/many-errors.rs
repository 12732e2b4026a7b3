use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

// One attribute, six mistakes: every one is reported.
/// Reads a file.
#[tool(
    name = "Read File",
    nmae = "Read",
    defer,
    always_load = true,
    search_hint = "read.",
    feature = MONITOR_TOOL,
)]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.path)
    }
}

fn main() {}

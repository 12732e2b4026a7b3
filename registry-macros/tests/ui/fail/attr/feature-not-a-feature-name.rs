use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Watches a background process.
#[tool(feature = any("MONITOR_TOOL", "KAIROS BRIEF"))]
#[derive(Deserialize)]
pub struct MonitorTool {
    /// The process id.
    pub pid: u32,
}

impl Tool for MonitorTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.pid.to_string())
    }
}

fn main() {}

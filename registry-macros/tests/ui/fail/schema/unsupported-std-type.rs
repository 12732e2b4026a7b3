use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Waits a while.
#[tool]
#[derive(Deserialize)]
pub struct SleepTool {
    /// How long to wait.
    pub duration: std::time::Duration,
}

impl Tool for SleepTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{:?}", self.duration))
    }
}

fn main() {}

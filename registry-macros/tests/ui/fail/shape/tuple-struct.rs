use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Reads a file.
#[tool]
#[derive(Deserialize)]
pub struct ReadTool(pub String);

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

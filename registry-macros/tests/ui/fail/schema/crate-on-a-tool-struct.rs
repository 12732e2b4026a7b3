use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Reads a file.
#[tool]
#[schema(crate = "toolreg")]
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

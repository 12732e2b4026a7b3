use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

fn read_prompt() -> &'static str {
    "Reads a file."
}

#[tool(prompt = read_prompt)]
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

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Reads or writes a file.
#[tool]
#[derive(Deserialize)]
pub enum FileTool {
    Read { path: String },
    Write { path: String, content: String },
}

impl Tool for FileTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

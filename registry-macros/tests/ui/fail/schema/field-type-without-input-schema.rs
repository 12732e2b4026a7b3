use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

#[derive(Deserialize)]
pub struct Range {
    pub start: u32,
    pub end: u32,
}

/// Reads part of a file.
#[tool]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
    /// The lines to read.
    pub lines: Vec<Range>,
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{} {}", self.path, self.lines.len()))
    }
}

fn main() {}

use registry_core::{InputSchema, Tool, ToolContext, ToolError, tool};
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Paging {
    pub offset: u32,
    pub limit: u32,
}

/// Reads a file.
#[tool]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
    #[serde(flatten)]
    pub paging: Paging,
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.path)
    }
}

fn main() {}

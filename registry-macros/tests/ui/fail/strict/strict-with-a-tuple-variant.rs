use serde::Deserialize;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

#[derive(Deserialize, InputSchema)]
pub enum Region {
    Everywhere,
    Box(i32, i32, i32, i32),
}

/// Searches a region.
#[tool(strict)]
#[derive(Deserialize)]
pub struct XTool {
    /// Where to search.
    pub region: Region,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Lists things.
#[tool]
#[derive(Deserialize)]
pub struct XTool {
    /// What to list.
    pub path: String,
    #[serde(flatten)]
    pub rest: String,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

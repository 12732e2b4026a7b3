use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Tags things.
#[tool]
#[derive(Deserialize)]
pub struct XTool {
    /// The tags.
    #[schema(min_items = 1)]
    pub tags: String,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Greets.
#[tool]
#[derive(Deserialize)]
pub struct XTool {
    /// Who.
    #[schema(examples = "Ada")]
    pub name: String,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

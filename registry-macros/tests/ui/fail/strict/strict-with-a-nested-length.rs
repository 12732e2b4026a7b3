use serde::Deserialize;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

#[derive(Deserialize, InputSchema)]
pub struct Label {
    #[schema(max_length = 20)]
    pub text: String,
}

/// Labels things.
#[tool(strict)]
#[derive(Deserialize)]
pub struct XTool {
    /// The labels.
    pub labels: Vec<Label>,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

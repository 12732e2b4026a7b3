use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Looks people up.
#[tool(strict)]
#[derive(Deserialize)]
pub struct XTool {
    /// The age.
    #[schema(maximum = 120)]
    pub age: u8,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

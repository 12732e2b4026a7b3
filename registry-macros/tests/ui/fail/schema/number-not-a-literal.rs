use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

const MAX_AGE: u8 = 150;

/// Looks people up.
#[tool]
#[derive(Deserialize)]
pub struct XTool {
    /// The age.
    #[schema(maximum = MAX_AGE)]
    pub age: u8,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

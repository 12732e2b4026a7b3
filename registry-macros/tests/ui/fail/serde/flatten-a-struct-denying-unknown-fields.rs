use serde::Deserialize;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

#[derive(Deserialize, InputSchema)]
#[serde(deny_unknown_fields)]
pub struct Paging {
    pub offset: u32,
}

/// Lists things.
#[tool]
#[derive(Deserialize)]
pub struct XTool {
    /// What to list.
    pub path: String,
    #[serde(flatten)]
    pub paging: Paging,
}

impl Tool for XTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

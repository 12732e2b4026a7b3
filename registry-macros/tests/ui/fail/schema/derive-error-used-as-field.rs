// The derive has one mistake; the tool that uses the type as a field is correct, so the derive's
// error must be the only error.
use serde::Deserialize;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

#[derive(Deserialize, InputSchema)]
pub enum Mode {
    Fast,
    Slow {
        #[schema(minimun = 1)]
        delay_ms: u64,
    },
}

/// Runs something.
#[tool]
#[derive(Deserialize)]
pub struct RunTool {
    /// How to run.
    pub mode: Mode,
}

impl Tool for RunTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

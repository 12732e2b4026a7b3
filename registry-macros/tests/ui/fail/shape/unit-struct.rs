use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Lists the open tasks.
#[tool]
#[derive(Deserialize)]
pub struct TaskListTool;

impl Tool for TaskListTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

use std::collections::BTreeMap;

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Sets labels.
#[tool(strict)]
#[derive(Deserialize)]
pub struct LabelTool {
    /// Label names to values: a map's keys are open, which a strict schema cannot say.
    pub labels: BTreeMap<String, String>,
}

impl Tool for LabelTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

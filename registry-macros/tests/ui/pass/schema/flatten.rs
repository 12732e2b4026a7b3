// `#[serde(flatten)]` of a struct and of a map: refused before.
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolSpec, tool};

#[derive(Deserialize, InputSchema)]
pub struct Paging {
    /// Where to start.
    pub offset: u32,
    #[serde(default)]
    pub limit: Option<u32>,
}

/// Reads a file.
#[tool]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
    #[serde(flatten)]
    pub paging: Paging,
    #[serde(flatten)]
    pub headers: BTreeMap<String, String>,
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.path)
    }
}

fn main() {
    let schema: Value =
        serde_json::from_str(<ReadTool as ToolSpec>::DESCRIPTOR.input_schema).unwrap();
    let count = json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64});
    let mut offset = count.clone();
    offset["description"] = json!("Where to start.");
    assert_eq!(
        schema,
        json!({"type": "object",
            "properties": {"path": {"description": "The file to read.", "type": "string"},
                "offset": offset, "limit": count},
            "required": ["path", "offset"],
            "additionalProperties": {"type": "string"}})
    );
    let input: ReadTool =
        serde_json::from_value(json!({"path": "a", "offset": 2, "accept": "text"})).unwrap();
    assert_eq!(input.paging.offset, 2);
    assert_eq!(input.headers["accept"], "text");
}

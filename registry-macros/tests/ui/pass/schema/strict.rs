// A strict tool whose input uses what both strict subsets allow: a tagged enum (rendered
// `anyOf`), `pattern`, `format`, `minItems` 1, and annotations (left out of the strict form).
use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolSpec, tool};

#[derive(Deserialize, InputSchema)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum Step {
    /// Open a file.
    Open {
        path: String,
    },
    Close,
}

/// Runs steps.
#[tool(strict)]
#[derive(Deserialize)]
pub struct StepsTool {
    #[schema(min_items = 1, title = "Steps")]
    pub steps: Vec<Step>,
    #[schema(pattern = "^[a-z]+$", format = "email", default = "a@b.c")]
    pub notify: Option<String>,
}

impl Tool for StepsTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {
    let strict: Value =
        serde_json::from_str(<StepsTool as ToolSpec>::DESCRIPTOR.strict_input_schema).unwrap();
    assert_eq!(
        strict,
        json!({"type": "object", "properties": {
            "steps": {"type": "array", "items": {"anyOf": [
                {"description": "Open a file.", "type": "object", "properties": {
                    "action": {"type": "string", "enum": ["open"]}, "path": {"type": "string"}},
                 "required": ["action", "path"], "additionalProperties": false},
                {"type": "object", "properties": {"action": {"type": "string", "enum": ["close"]}},
                 "required": ["action"], "additionalProperties": false}]},
                "minItems": 1},
            "notify": {"anyOf": [{"type": "string", "pattern": "^[a-z]+$", "format": "email"},
                {"type": "null"}]}},
            "required": ["steps", "notify"], "additionalProperties": false})
    );
    let standard: Value =
        serde_json::from_str(<StepsTool as ToolSpec>::DESCRIPTOR.input_schema).unwrap();
    assert_eq!(standard["properties"]["steps"]["title"], "Steps");
    assert_eq!(
        standard["properties"]["steps"]["items"]["oneOf"][1]["properties"]["action"]["const"],
        "close"
    );
}

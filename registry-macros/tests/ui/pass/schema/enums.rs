// Enums with data, in each of serde's representations, as fields of a tool.
use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolSpec, tool};

#[derive(Deserialize, InputSchema)]
pub enum Filter {
    ByName(String),
    ByAge { min: u32 },
    Everything,
}

#[derive(Deserialize, InputSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    Circle {
        radius: u32,
    },
    #[serde(other)]
    Unknown,
}

#[derive(Deserialize, InputSchema)]
#[serde(tag = "t", content = "c")]
pub enum Command {
    Stop,
    Move(i32),
}

#[derive(Deserialize, InputSchema)]
#[serde(untagged)]
pub enum Loose {
    Flag(bool),
    Text(String),
}

/// Finds things.
#[tool]
#[derive(Deserialize)]
pub struct FindTool {
    pub filter: Filter,
    pub shape: Option<Shape>,
    pub command: Command,
    pub loose: Loose,
}

impl Tool for FindTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

/// Usable in const context.
const SCHEMA: &str = <FindTool as ToolSpec>::DESCRIPTOR.input_schema;

fn main() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let properties = &schema["properties"];
    assert_eq!(
        properties["filter"]["oneOf"][1],
        json!({"type": "object", "properties": {"ByAge": {"type": "object",
            "properties": {"min": {"type": "integer", "minimum": 0, "maximum": 4294967295u64}},
            "required": ["min"]}}, "required": ["ByAge"], "additionalProperties": false})
    );
    assert_eq!(
        properties["filter"]["oneOf"][2],
        json!({"type": "string", "const": "Everything"})
    );
    assert_eq!(
        properties["shape"]["oneOf"][1]["properties"]["kind"],
        json!({"type": "string", "not": {"enum": ["circle"]}})
    );
    assert_eq!(properties["command"]["oneOf"][0]["required"], json!(["t"]));
    assert_eq!(
        properties["loose"],
        json!({"anyOf": [{"type": "boolean"}, {"type": "string"}]})
    );
    assert_eq!(schema["required"], json!(["filter", "command", "loose"]));
    // `#[serde(other)]` needs `not`, outside the strict subsets: no strict form.
    assert_eq!(<FindTool as ToolSpec>::DESCRIPTOR.strict_input_schema, "");

    let input: FindTool = serde_json::from_value(json!({
        "filter": {"ByAge": {"min": 3}},
        "shape": {"kind": "hexagon"},
        "command": {"t": "Move", "c": -1},
        "loose": "x",
    }))
    .unwrap();
    assert!(matches!(input.shape, Some(Shape::Unknown)));
    assert!(matches!(input.filter, Filter::ByAge { min: 3 }));
}

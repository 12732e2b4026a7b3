// `#[schemars(...)]` and `#[validate(...)]` on a `#[tool]` struct's own fields, with no derive
// that declares them: `#[tool]` reads them into the schema and removes them from the struct.
use serde::Deserialize;
use serde_json::Value;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

/// Rolls dice.
#[tool]
#[derive(Deserialize)]
pub struct RollTool {
    /// How many dice.
    #[validate(range(min = 1, max = 6))]
    pub dice: u8,
    /// Sides of each die.
    #[schemars(range(min = 2, max = 100))]
    pub sides: u32,
}

impl Tool for RollTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}d{}", self.dice, self.sides))
    }
}

fn main() {
    let schema: Value =
        serde_json::from_str(<RollTool as ToolSpec>::DESCRIPTOR.input_schema).unwrap();
    assert_eq!(schema["properties"]["dice"]["minimum"], 1);
    assert_eq!(schema["properties"]["dice"]["maximum"], 6);
    assert_eq!(schema["properties"]["sides"]["minimum"], 2);
    assert_eq!(schema["properties"]["sides"]["maximum"], 100);
}

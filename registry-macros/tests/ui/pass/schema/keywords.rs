// Constraints and annotations: `#[schema(...)]` on a tool's fields, and what schemars reads from
// `#[schemars(...)]` and `#[validate(...)]` on a nested type's.
use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolSpec, tool};

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[schemars(description = "The person's age", range(max = 150))]
    pub age: u8,
    #[validate(email)]
    #[schemars(example = "ada@example.com")]
    pub email: String,
    #[validate(length(min = 1, max = 3), custom(function = "no_duplicates"))]
    pub tags: Vec<String>,
}

/// Registers people.
#[tool]
#[derive(Deserialize)]
pub struct RegisterTool {
    /// How many to register.
    #[schema(minimum = 1, maximum = 10, default = 1, examples = [1, 2])]
    pub count: u32,
    #[schema(
        title = "Handle",
        pattern = "^@[a-z]+$",
        min_length = 2,
        max_length = 16
    )]
    pub handle: String,
    #[schema(min_items = 1, deprecated)]
    pub people: Vec<Person>,
}

impl Tool for RegisterTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {
    let schema: Value =
        serde_json::from_str(<RegisterTool as ToolSpec>::DESCRIPTOR.input_schema).unwrap();
    assert_eq!(
        schema["properties"]["count"],
        json!({"description": "How many to register.", "type": "integer", "minimum": 1,
            "maximum": 10, "default": 1, "examples": [1, 2]})
    );
    assert_eq!(
        schema["properties"]["handle"],
        json!({"title": "Handle", "type": "string", "minLength": 2, "maxLength": 16,
            "pattern": "^@[a-z]+$"})
    );
    let people = &schema["properties"]["people"];
    assert_eq!(people["minItems"], 1);
    assert_eq!(people["deprecated"], true);
    assert_eq!(
        people["items"]["properties"],
        json!({
            "age": {"description": "The person's age", "type": "integer", "minimum": 0, "maximum": 150},
            "email": {"type": "string", "format": "email", "examples": ["ada@example.com"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
        })
    );
    // Numeric and length bounds are outside the strict subsets: no strict form.
    assert_eq!(
        <RegisterTool as ToolSpec>::DESCRIPTOR.strict_input_schema,
        ""
    );
}

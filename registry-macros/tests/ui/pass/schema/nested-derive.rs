// A nested struct and a unit-only enum deriving InputSchema, used as fields of a tool.
use serde::Deserialize;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolSpec, tool};

/// One replacement.
#[derive(Deserialize, InputSchema)]
#[serde(rename_all = "camelCase")]
pub struct Edit {
    /// The text to replace.
    pub old_string: String,
    /// The replacement.
    pub new_string: String,
    /// Replace every occurrence.
    #[serde(default)]
    pub replace_all: bool,
}

#[derive(Deserialize, InputSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnding {
    Unix,
    WindowsCrlf,
    #[serde(rename = "keep")]
    AsIs,
}

/// Applies several edits to one file.
#[tool]
#[derive(Deserialize)]
pub struct MultiEditTool {
    /// The file.
    pub file_path: std::path::PathBuf,
    /// The edits, applied in order.
    pub edits: Vec<Edit>,
    /// How to end lines.
    pub line_ending: Option<LineEnding>,
    pub by_name: std::collections::BTreeMap<String, Box<Edit>>,
}

impl Tool for MultiEditTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

const EDIT: &str = r#"{"type":"object","properties":{"oldString":{"description":"The text to replace.","type":"string"},"newString":{"description":"The replacement.","type":"string"},"replaceAll":{"description":"Replace every occurrence.","type":"boolean"}},"required":["oldString","newString"]}"#;

fn main() {
    let expected = format!(
        concat!(
            r#"{{"type":"object","properties":{{"#,
            r#""file_path":{{"description":"The file.","type":"string"}},"#,
            r#""edits":{{"description":"The edits, applied in order.","type":"array","items":{edit}}},"#,
            r#""line_ending":{{"description":"How to end lines.","type":"string","enum":["unix","windows-crlf","keep"]}},"#,
            r#""by_name":{{"type":"object","additionalProperties":{edit}}}}},"#,
            r#""required":["file_path","edits","by_name"]}}"#,
        ),
        edit = EDIT
    );
    assert_eq!(
        <MultiEditTool as ToolSpec>::DESCRIPTOR.input_schema,
        expected
    );

    let input: MultiEditTool = serde_json::from_str(
        r#"{"file_path":"a.rs","edits":[{"oldString":"a","newString":"b"}],"line_ending":"windows-crlf","by_name":{}}"#,
    )
    .unwrap();
    assert!(matches!(input.line_ending, Some(LineEnding::WindowsCrlf)));
}

// The schema follows serde's rename, rename_all, default and skip.
use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

/// Searches file contents.
#[tool]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrepTool {
    /// The regular expression.
    pub search_pattern: String,
    /// Where to search.
    #[serde(rename = "path")]
    pub search_root: Option<String>,
    /// Ignore case.
    #[serde(default)]
    pub ignore_case: bool,
    #[serde(skip)]
    pub cache: Vec<String>,
    pub r#type: String,
}

impl Tool for GrepTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.search_pattern)
    }
}

/// Usable in const context.
const SCHEMA: &str = <GrepTool as ToolSpec>::DESCRIPTOR.input_schema;
const STRICT: &str = <GrepTool as ToolSpec>::DESCRIPTOR.strict_input_schema;

fn main() {
    assert_eq!(
        SCHEMA,
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""searchPattern":{"description":"The regular expression.","type":"string"},"#,
            r#""path":{"description":"Where to search.","type":"string"},"#,
            r#""ignoreCase":{"description":"Ignore case.","type":"boolean"},"#,
            r#""type":{"type":"string"}},"#,
            r#""required":["searchPattern","type"],"additionalProperties":false}"#,
        )
    );
    assert!(!SCHEMA.contains("cache"));
    assert!(STRICT.contains(
        r#""path":{"description":"Where to search.","anyOf":[{"type":"string"},{"type":"null"}]}"#
    ));
    assert!(STRICT.contains(r#""required":["searchPattern","path","ignoreCase","type"]"#));

    // serde reads what the schema says.
    let input: GrepTool =
        serde_json::from_str(r#"{"searchPattern":"fn","path":"src","type":"rs"}"#).unwrap();
    assert_eq!(input.search_root.as_deref(), Some("src"));
    assert!(!input.ignore_case);
    assert!(input.cache.is_empty());
}

// `input_examples` are checked by a function `#[tool]` generates (a `#[test]` under
// `cfg(test)`): it panics at an example the tool's schema refuses, naming it and the rule.

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

/// Reads part of a file.
#[tool(input_examples = [
    r#"{"file_path": "src/main.rs"}"#,
    r#"{"file_path": "src/main.rs", "limit": 0}"#,
])]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file.
    pub file_path: String,
    /// How many lines, at least 1.
    #[schema(minimum = 1)]
    pub limit: Option<u32>,
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.file_path)
    }
}

fn main() {
    assert_eq!(ReadTool::DESCRIPTOR.input_examples.len(), 2);
    std::panic::set_hook(Box::new(|_| {}));
    let panic = std::panic::catch_unwind(__toolreg_input_examples_of_ReadTool);
    let _ = std::panic::take_hook();
    let panic = panic.expect_err("the example breaks the schema");
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("input example 1 of tool `Read`")
            && message.contains("at `limit`")
            && message.contains("less than the minimum of 1"),
        "{message}"
    );
}

// Every key of #[tool]. `defer` and `always_load` exclude each other, and so do `prompt` and
// `description`, so two tools share the keys between them. The tests crate declares no
// features, hence the `unexpected_cfgs` allowance for `feature = not(...)`.
#![allow(unexpected_cfgs)]

use serde::Deserialize;
use toolreg::env::Switches;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

fn edit_enabled() -> bool {
    true
}

fn shell_prompt(switches: &Switches) -> String {
    format!(
        "Runs a shell command (simple mode: {}).",
        switches.is_on("simple")
    )
}

/// Ignored: `description` wins over the doc comment.
#[tool(
    name = "Edit",
    description = "Edits a file in place.",
    search_hint = "modify file contents in place",
    aliases = ["Replace", "StrReplace"],
    defer,
    read_only,
    concurrency_safe,
    destructive,
    strict,
    max_result_size_chars = 100000,
    enabled = edit_enabled,
    input_examples = [r#"{"file_path": "src/lib.rs"}"#],
    allowed_callers = ["direct", "code_execution_20260120"],
)]
#[derive(Deserialize)]
pub struct FileEditTool {
    /// The file to edit.
    pub file_path: String,
}

impl Tool for FileEditTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.file_path)
    }
}

#[tool(always_load, prompt = shell_prompt, feature = not("NO_SUCH_FEATURE"))]
#[derive(Deserialize)]
pub struct BashTool {
    /// The command.
    pub command: String,
}

impl Tool for BashTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.command)
    }
}

fn main() {
    let edit = <FileEditTool as ToolSpec>::DESCRIPTOR;
    assert_eq!(edit.name, "Edit");
    assert_eq!(edit.description, "Edits a file in place.");
    assert_eq!(edit.search_hint, Some("modify file contents in place"));
    assert_eq!(edit.aliases, &["Replace", "StrReplace"]);
    let flags = edit.flags;
    assert!(flags.defer && !flags.always_load);
    assert!(flags.read_only && flags.concurrency_safe && flags.destructive && flags.strict);
    assert_eq!(edit.max_result_size_chars, Some(100000));
    assert!(edit.is_enabled(&Switches::default()));
    assert!(edit.prompt.is_none());
    assert_eq!(edit.input_examples, &[r#"{"file_path": "src/lib.rs"}"#]);
    let callers = edit.allowed_callers.unwrap();
    assert_eq!(callers.to_string(), "direct, code_execution_20260120");
    assert_eq!(
        edit.input_schema,
        r#"{"type":"object","properties":{"file_path":{"description":"The file to edit.","type":"string"}},"required":["file_path"]}"#
    );

    let bash = <BashTool as ToolSpec>::DESCRIPTOR;
    assert_eq!(bash.name, "Bash");
    assert!(bash.flags.always_load && !bash.flags.defer);
    assert_eq!(bash.feature, Some(r#"not(feature = "NO_SUCH_FEATURE")"#));
    assert_eq!(bash.description, "");
    assert_eq!(
        bash.description_for(&Switches::default()),
        "Runs a shell command (simple mode: false)."
    );
    assert!(bash.enabled.is_none());
}

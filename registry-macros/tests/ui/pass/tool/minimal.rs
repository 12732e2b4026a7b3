use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

/// Lists the open tasks.
#[tool]
#[derive(Deserialize)]
pub struct TaskListTool {}

impl Tool for TaskListTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {
    let descriptor = <TaskListTool as ToolSpec>::DESCRIPTOR;
    assert_eq!(descriptor.name, "TaskList");
    assert_eq!(descriptor.description, "Lists the open tasks.");
    assert_eq!(
        descriptor.input_schema,
        r#"{"type":"object","properties":{}}"#
    );
    assert_eq!(
        descriptor.strict_input_schema,
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
    assert_eq!(descriptor.aliases, &[] as &[&str]);
    assert_eq!(descriptor.flags, toolreg::tool::Flags::NONE);
    assert!(descriptor.search_hint.is_none());
    assert!(descriptor.feature.is_none());
    assert!(descriptor.max_result_size_chars.is_none());
    assert!(descriptor.is_enabled(&toolreg::env::Switches::default()));
    assert!(descriptor.source.type_path.ends_with("::TaskListTool"));
}

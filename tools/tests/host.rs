//! TodoWrite's state in the host, and the host-needing tools with and without a host.

use crate::common;

use std::sync::Arc;

use common::{block_on, call, call_with, error};
use serde_json::json;
use toolreg::tool_search::ToolSearchTool;
use toolreg::{BoxFuture, State, ToolContext, ToolError, ToolOutput};
use toolreg_tools::agent::AgentTool;
use toolreg_tools::host::{MemoryHost, ToolHost, default_state, host_state};
use toolreg_tools::todo::{Todo, TodoStatus, TodoWriteTool};
use toolreg_tools::web::{WebFetchTool, WebSearchTool};

fn todos() -> serde_json::Value {
    json!({"todos": [
        {"content": "Run tests", "status": "in_progress", "activeForm": "Running tests"},
        {"content": "Ship it", "status": "pending", "activeForm": "Shipping it"}
    ]})
}

#[test]
fn todo_write_keeps_the_list_in_the_default_host() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(MemoryHost::default());
    let state = State::new().with::<dyn ToolHost>(host.clone());
    let out = call_with::<TodoWriteTool>(dir.path(), &state, todos()).unwrap();
    let ToolOutput::Text(text) = out else {
        panic!("text expected")
    };
    assert!(
        text.starts_with(
            "Todos have been modified successfully (1 pending, 1 in progress, 0 completed)"
        ),
        "{text}"
    );
    assert_eq!(
        host.todos().unwrap(),
        [
            Todo {
                content: "Run tests".into(),
                status: TodoStatus::InProgress,
                active_form: "Running tests".into()
            },
            Todo {
                content: "Ship it".into(),
                status: TodoStatus::Pending,
                active_form: "Shipping it".into()
            },
        ]
    );
    // Each call replaces the whole list.
    call_with::<TodoWriteTool>(dir.path(), &state, json!({"todos": []})).unwrap();
    assert_eq!(host.todos().unwrap(), []);
}

#[test]
fn todo_write_without_a_host_reports_the_list_as_not_provided() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<TodoWriteTool>(dir.path(), todos());
    assert!(
        message.starts_with("this host does not provide a session todo list"),
        "{message}"
    );
}

#[test]
fn todo_write_refuses_an_empty_active_form() {
    let dir = tempfile::tempdir().unwrap();
    let result = call_with::<TodoWriteTool>(
        dir.path(),
        &default_state(),
        json!({"todos": [{"content": "x", "status": "pending", "activeForm": " "}]}),
    );
    assert_eq!(
        result.unwrap_err().message(),
        "todos[0].activeForm is empty"
    );
}

#[test]
fn host_needing_tool_without_a_host_returns_the_not_provided_error() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<AgentTool>(
        dir.path(),
        json!({"description": "look around", "prompt": "find the config"}),
    );
    assert!(
        message.starts_with("this host does not provide sub-agents (Agent)"),
        "{message}"
    );
    assert!(message.contains("ToolHost::agent"), "{message}");
}

#[test]
fn a_host_that_lacks_a_capability_answers_exactly_like_no_host() {
    let dir = tempfile::tempdir().unwrap();
    let input = json!({"url": "https://example.com", "prompt": "title?"});
    let without = call::<WebFetchTool>(dir.path(), input.clone()).unwrap_err();
    let with = call_with::<WebFetchTool>(dir.path(), &default_state(), input).unwrap_err();
    assert_eq!(without, with);
}

struct SearchHost;

impl ToolHost for SearchHost {
    fn web_search<'a>(
        &'a self,
        input: WebSearchTool,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            Ok(ToolOutput::Json(json!({
                "query": input.query,
                "cwd": ctx.cwd.display().to_string(),
            })))
        })
    }
}

#[test]
fn an_attached_host_receives_the_typed_input_and_the_context() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_state(SearchHost);
    let out = call_with::<WebSearchTool>(dir.path(), &host, json!({"query": "rust"})).unwrap();
    assert_eq!(
        out,
        ToolOutput::Json(json!({"query": "rust", "cwd": dir.path().display().to_string()}))
    );
    // What the custom host does not implement stays "not provided".
    let todo = call_with::<TodoWriteTool>(dir.path(), &host, todos()).unwrap_err();
    assert!(todo.message().starts_with("this host does not provide"));
}

#[test]
fn memory_host_forwarding_gives_a_custom_host_todo_state() {
    struct Custom(MemoryHost);
    impl ToolHost for Custom {
        fn todos(&self) -> Result<Vec<Todo>, ToolError> {
            self.0.todos()
        }
        fn set_todos(&self, todos: Vec<Todo>) -> Result<(), ToolError> {
            self.0.set_todos(todos)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(Custom(MemoryHost::default()));
    let state = State::new().with::<dyn ToolHost>(host.clone());
    call_with::<TodoWriteTool>(dir.path(), &state, todos()).unwrap();
    assert_eq!(host.todos().unwrap().len(), 2);
}

#[test]
fn tool_search_without_a_search_engine_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<ToolSearchTool>(dir.path(), json!({"query": "select:Read"}));
    assert!(message.contains("no search engine"), "{message}");
}

#[test]
fn tool_search_answers_with_tool_reference_blocks_from_the_attached_engine() {
    use toolreg::search::{SearchEngine, Strategy};
    use toolreg::{Switches, Tool, ToolInfo};

    let lazy = ToolInfo::new("mcp__nb__run_cell", "Run a jupyter notebook cell");
    let engine = SearchEngine::new(vec![Arc::new(lazy)], Strategy::Seed);
    let switches = Switches::default();
    let ctx = ToolContext::new(std::path::Path::new("."), &switches).with_searcher(&engine);
    let found: ToolSearchTool = serde_json::from_value(json!({"query": "jupyter"})).unwrap();
    assert_eq!(
        block_on(found.call(&ctx)).unwrap(),
        ToolOutput::Blocks(vec![
            json!({"type": "tool_reference", "tool_name": "mcp__nb__run_cell"})
        ])
    );
    let missing: ToolSearchTool = serde_json::from_value(json!({"query": "zzz"})).unwrap();
    assert_eq!(
        block_on(missing.call(&ctx)).unwrap(),
        ToolOutput::Text("No matching deferred tools found".into())
    );
}

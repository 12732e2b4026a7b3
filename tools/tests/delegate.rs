//! TodoWrite's list in the call's state, and the tools an application completes with a
//! `Delegate`, with and without one.

use crate::common;

use std::sync::Arc;

use common::{block_on, call, call_with, error};
use serde_json::json;
use toolreg::search::ToolSearchTool;
use toolreg::{Delegate, ErrorKind, State, ToolContext, ToolError, ToolOutput};
use toolreg_tools::agent::AgentTool;
use toolreg_tools::default_state;
use toolreg_tools::todo::{Todo, TodoList, TodoStatus, TodoWriteTool};
use toolreg_tools::web::{WebFetchTool, WebSearchTool};

fn todos() -> serde_json::Value {
    json!({"todos": [
        {"content": "Run tests", "status": "in_progress", "activeForm": "Running tests"},
        {"content": "Ship it", "status": "pending", "activeForm": "Shipping it"}
    ]})
}

#[test]
fn todo_write_keeps_the_list_in_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let list = Arc::new(TodoList::default());
    let state = State::new().with(list.clone());
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
        list.get(),
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
    assert_eq!(list.get(), []);
}

#[test]
fn todo_write_works_in_the_default_state() {
    let dir = tempfile::tempdir().unwrap();
    let state = default_state();
    call_with::<TodoWriteTool>(dir.path(), &state, todos()).unwrap();
    assert_eq!(state.get::<TodoList>().unwrap().get().len(), 2);
}

#[test]
fn todo_write_without_a_list_says_what_to_register() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<TodoWriteTool>(dir.path(), todos());
    assert!(message.starts_with("no session todo list"), "{message}");
    assert!(message.contains("`TodoList`"), "{message}");
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
fn delegated_tool_without_a_delegate_names_the_tool_and_the_trait() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<AgentTool>(
        dir.path(),
        json!({"description": "look around", "prompt": "find the config"}),
    );
    assert!(
        message.starts_with("the application does not provide Agent"),
        "{message}"
    );
    assert!(message.contains("Delegate<AgentTool>"), "{message}");
}

#[test]
fn the_default_state_delegates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = json!({"url": "https://example.com", "prompt": "title?"});
    let without = call::<WebFetchTool>(dir.path(), input.clone()).unwrap_err();
    let with = call_with::<WebFetchTool>(dir.path(), &default_state(), input).unwrap_err();
    assert_eq!(without, with);
    assert_eq!(with.kind(), ErrorKind::NotProvided);
}

struct Search;

impl Delegate<WebSearchTool> for Search {
    async fn call(
        &self,
        input: WebSearchTool,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Json(json!({
            "query": input.query,
            "cwd": ctx.cwd.display().to_string(),
        })))
    }
}

#[test]
fn a_delegate_receives_the_typed_input_and_the_context() {
    let dir = tempfile::tempdir().unwrap();
    let state = State::new().with_delegate::<WebSearchTool>(Search);
    assert!(state.has_delegate::<WebSearchTool>());
    let out = call_with::<WebSearchTool>(dir.path(), &state, json!({"query": "rust"})).unwrap();
    assert_eq!(
        out,
        ToolOutput::Json(json!({"query": "rust", "cwd": dir.path().display().to_string()}))
    );
    // A delegate for one tool is no delegate for another.
    let fetch = json!({"url": "https://example.com", "prompt": "title?"});
    let other = call_with::<WebFetchTool>(dir.path(), &state, fetch).unwrap_err();
    assert!(
        other.message().contains("Delegate<WebFetchTool>"),
        "{other:?}"
    );
}

#[test]
fn tool_search_without_a_search_engine_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<ToolSearchTool>(dir.path(), json!({"query": "select:Read"}));
    assert!(message.contains("no search engine"), "{message}");
}

#[test]
fn tool_search_answers_with_tool_reference_blocks_from_the_attached_engine() {
    use toolreg::env::Switches;
    use toolreg::{SearchEngine, Strategy, Tool, ToolInfo};

    let lazy = ToolInfo::new("mcp__nb__run_cell", "Run a jupyter notebook cell");
    let engine = SearchEngine::new(vec![Arc::new(lazy)], Strategy::Keyword);
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

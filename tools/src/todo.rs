//! TodoWrite: the session's checklist, kept in the call's state as a [`TodoList`].

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

/// Creates and manages a structured task list for the current session: it shows the user your progress and keeps you organised on multi-step work.
///
/// Use it proactively for complex tasks of three or more distinct steps, when the user gives several tasks at once or asks for a todo list, and when new instructions arrive (capture them as todos). Skip it for a single, trivial or purely conversational request.
///
/// - Each call replaces the whole list: send every todo, with its current status.
/// - Statuses: `pending`, `in_progress` (exactly one task at a time), `completed`.
/// - Every todo has two forms: `content`, imperative ("Run tests"), and `activeForm`, present continuous ("Running tests"), shown while it is in progress.
/// - Mark a task `in_progress` before you start it and `completed` as soon as it is done (not in batches). Only mark it completed when it is fully done: with failing tests or unresolved errors, keep it in progress and add a todo for what blocks it.
#[tool(
    strict,
    name = "TodoWrite",
    defer,
    search_hint = "manage the session task checklist"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TodoWriteTool {
    /// The updated todo list.
    pub todos: Vec<Todo>,
}

/// One item of the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
pub struct Todo {
    /// What to do, in the imperative ("Run tests").
    pub content: String,
    /// Where the item stands.
    pub status: TodoStatus,
    /// The same task in the present continuous ("Running tests"), shown while it is in progress.
    #[serde(rename = "activeForm")]
    pub active_form: String,
}

/// Where a checklist item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on now.
    InProgress,
    /// Done.
    Completed,
}

impl Tool for TodoWriteTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        for (i, todo) in self.todos.iter().enumerate() {
            if todo.content.trim().is_empty() {
                return Err(ToolError::new(format!("todos[{i}].content is empty")));
            }
            if todo.active_form.trim().is_empty() {
                return Err(ToolError::new(format!("todos[{i}].activeForm is empty")));
            }
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let count = |status| self.todos.iter().filter(|t| t.status == status).count();
        let summary = format!(
            "{} pending, {} in progress, {} completed",
            count(TodoStatus::Pending),
            count(TodoStatus::InProgress),
            count(TodoStatus::Completed)
        );
        let Some(list) = ctx.state::<TodoList>() else {
            return Err(ToolError::new(
                "no session todo list: the application must register a `TodoList` in the call's \
                 state (`toolreg_tools::default_state()` does)",
            ));
        };
        list.set(self.todos);
        Ok(format!(
            "Todos have been modified successfully ({summary}). Keep using the todo list to track your progress, and proceed with the current tasks if applicable."
        ))
    }
}

/// The session's checklist, as TodoWrite last stored it. Register one in the call's
/// [`State`](toolreg::State) (`toolreg_tools::default_state()` does) and read it back from the
/// same `Arc`.
#[derive(Debug, Default)]
pub struct TodoList {
    todos: Mutex<Vec<Todo>>,
}

impl TodoList {
    /// The checklist now.
    pub fn get(&self) -> Vec<Todo> {
        self.todos.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the checklist.
    pub fn set(&self, todos: Vec<Todo>) {
        *self.todos.lock().unwrap_or_else(|e| e.into_inner()) = todos;
    }
}

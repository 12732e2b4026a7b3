//! TaskCreate, TaskGet, TaskUpdate and TaskList: the shared task list (todo v2), kept by the
//! host. Enabled by the run-time switch `todo_v2`.

use serde::{Deserialize, Serialize};
use toolreg::env::Switches;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

use crate::profile::switch;

/// The run-time gate of the four task tools.
fn todo_v2(switches: &Switches) -> bool {
    switches.is_on(switch::TODO_V2)
}

/// Creates a task in the session's task list, which you, the user and other agents of the team share.
///
/// Use it for complex work of three or more steps, when the user gives several tasks, or to capture new requirements. Give an imperative `subject` ("Fix the login redirect"), a `description` with what needs doing and how to tell it is done, and an `activeForm` ("Fixing the login redirect") shown while it is in progress. New tasks start `pending`; set dependencies and owners with TaskUpdate.
#[tool(
    name = "TaskCreate",
    defer,
    enabled = todo_v2,
    search_hint = "add an item to the shared todo list"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskCreateTool {
    /// A brief title, in the imperative.
    pub subject: String,
    /// What needs to be done, in detail.
    pub description: String,
    /// The present-continuous form shown while the task is in progress ("Running tests").
    #[serde(rename = "activeForm")]
    pub active_form: Option<String>,
    /// Arbitrary data to attach to the task.
    pub metadata: Option<serde_json::Value>,
}

/// Retrieves one task from the task list by its id: its subject, description, status, owner and the tasks it blocks or is blocked by.
///
/// Use it before starting work on a task, to get its full description and check that what blocks it is done.
#[tool(
    strict,
    name = "TaskGet",
    defer,
    read_only,
    concurrency_safe,
    enabled = todo_v2,
    search_hint = "fetch one todo item details by id"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskGetTool {
    /// The id of the task.
    #[serde(rename = "taskId")]
    pub task_id: String,
}

/// Updates a task in the task list: its status, subject, description, owner or dependencies.
///
/// - Set `status` to `in_progress` when you start a task and to `completed` only when it is fully done (tests passing, nothing left); `deleted` removes it.
/// - `addBlocks` and `addBlockedBy` record dependencies between tasks by id.
/// - `owner` assigns the task to an agent of the team by name.
/// - Read the task with TaskGet first so you do not overwrite someone else's change.
#[tool(
    name = "TaskUpdate",
    defer,
    enabled = todo_v2,
    search_hint = "change status or owner of a todo item"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskUpdateTool {
    /// The id of the task to update.
    #[serde(rename = "taskId")]
    pub task_id: String,
    /// The new status.
    pub status: Option<TaskStatus>,
    /// A new title.
    pub subject: Option<String>,
    /// A new description.
    pub description: Option<String>,
    /// A new present-continuous form.
    #[serde(rename = "activeForm")]
    pub active_form: Option<String>,
    /// The agent that owns the task.
    pub owner: Option<String>,
    /// Ids of tasks that cannot start until this one is done.
    #[serde(rename = "addBlocks")]
    pub add_blocks: Option<Vec<String>>,
    /// Ids of tasks that must be done before this one can start.
    #[serde(rename = "addBlockedBy")]
    pub add_blocked_by: Option<Vec<String>>,
    /// Data to merge into the task's metadata.
    pub metadata: Option<serde_json::Value>,
}

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
    /// Removed from the list.
    Deleted,
}

/// Lists the tasks in the task list, with each task's id, subject, status, owner and what blocks it.
///
/// Use it to see overall progress, to find the next available task (pending, no owner, not blocked), and after finishing a task to pick up the next one. Prefer working on tasks in id order.
#[tool(
    strict,
    name = "TaskList",
    defer,
    read_only,
    concurrency_safe,
    enabled = todo_v2,
    search_hint = "show all todo items and their progress"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskListTool {}

impl Tool for TaskCreateTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

impl Tool for TaskGetTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

impl Tool for TaskUpdateTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

impl Tool for TaskListTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

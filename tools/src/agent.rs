//! Agent, TaskOutput and TaskStop: sub-agents and background tasks, run by the host.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Launches a new agent to handle a complex, multi-step task autonomously. The agent works with its own context and tools and returns one final report.
///
/// - Use it for open-ended searches across a codebase, research that needs many rounds of Glob, Grep and Read, and independent pieces of work that can run in parallel. To read a specific file or find a known symbol, use Read, Glob or Grep directly: it is faster.
/// - `subagent_type` picks a specialised agent the host offers; omit it for the general-purpose agent.
/// - Launch several agents at once, in one message with several calls, when their work is independent.
/// - The agent cannot see this conversation: give it a complete, self-contained `prompt` with all the context, say exactly what to return, and say whether it should write code or only research.
/// - Its result is not shown to the user: summarise it for them yourself.
/// - With `run_in_background`, the call returns at once with a task id; read the result later with TaskOutput, stop it with TaskStop.
#[tool(
    strict,
    name = "Agent",
    aliases = ["Task"],
    concurrency_safe,
    search_hint = "delegate work to a subagent"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AgentTool {
    /// A short (3-5 word) description of the task.
    pub description: String,
    /// The task for the agent to perform: complete and self-contained.
    pub prompt: String,
    /// The type of specialised agent to use; omit for the general-purpose agent.
    pub subagent_type: Option<String>,
    /// The model the agent should use (e.g. "sonnet", "opus", "haiku"); omit to inherit the current one.
    pub model: Option<String>,
    /// Run the agent in the background and return a task id at once (default false).
    pub run_in_background: Option<bool>,
}

impl Tool for AgentTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Retrieves the output of a running or finished background task: a background shell command, a background agent or a remote session.
///
/// - `task_id` is the id the task was started with.
/// - With `block` (the default), waits until the task finishes or `timeout` milliseconds pass; with `block: false`, returns what is there now.
/// - The result says whether the task is still running, and its exit status when it has ended.
#[tool(
    strict,
    name = "TaskOutput",
    aliases = ["AgentOutputTool", "BashOutputTool"],
    defer,
    read_only,
    concurrency_safe,
    search_hint = "read background shell or agent results"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskOutputTool {
    /// The id of the task to read.
    pub task_id: String,
    /// Wait for the task to finish (default true).
    pub block: Option<bool>,
    /// The longest wait in milliseconds when blocking (default 30000, at most 600000).
    pub timeout: Option<u64>,
}

impl Tool for TaskOutputTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Stops a running background task by its id: a background shell command, agent or remote session.
///
/// Use it to end a task that is no longer needed, hangs, or runs a server you are done with. The result says whether the task was stopped or had already ended.
#[tool(
    strict,
    name = "TaskStop",
    aliases = ["KillShell"],
    defer,
    destructive,
    search_hint = "kill a running background process"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TaskStopTool {
    /// The id of the background task to stop (`shell_id`, the old name, is accepted too).
    #[serde(alias = "shell_id")]
    pub task_id: String,
}

impl Tool for TaskStopTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

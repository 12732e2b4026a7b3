//! Monitor: watches a command's output in the background, run by the host (`MONITOR_TOOL`).
#![cfg(feature = "MONITOR_TOOL")]

use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Starts a command in the background and watches its output: each new line it prints is delivered to you as a notification while you keep working, until it exits or `timeout_ms` passes.
///
/// Use it to follow a log (`tail -f`), a dev server, a test watcher or a long build, and react to what appears, instead of polling with Bash. Filter the output in the command itself (`| grep --line-buffered ERROR`) so that only lines worth reacting to arrive. Returns the monitor's task id; stop it with TaskStop.
#[tool(
    strict,
    name = "Monitor",
    search_hint = "stream new lines from a log or process",
    feature = "MONITOR_TOOL"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct MonitorTool {
    /// The shell command whose output to watch.
    pub command: String,
    /// A short description of what is being watched.
    pub description: String,
    /// Stop watching after this many milliseconds; omit to watch until the command exits.
    pub timeout_ms: Option<u64>,
}

impl Tool for MonitorTool {
    type Output = ToolOutput;

    fn rule_subject(&self, _: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::Command(self.command.clone()))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

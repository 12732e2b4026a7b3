//! PowerShell: runs a PowerShell command through the host. Enabled by the run-time switch
//! `powershell`.

use serde::{Deserialize, Serialize};
use toolreg::env::Switches;
use toolreg::permissions::Subject;
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

use crate::profile::switch;

fn powershell_present(switches: &Switches) -> bool {
    switches.is_on(switch::POWERSHELL)
}

/// Executes a PowerShell command and returns its output and exit code. Use it on Windows for terminal operations (git, builds, tests, package managers) in the way Bash is used elsewhere.
///
/// - Use PowerShell syntax: `;` or `-and` rather than `&&` on Windows PowerShell 5, `$env:NAME` for environment variables, `Get-ChildItem` for listings; quote paths with spaces.
/// - Use the dedicated tools to find (Glob), search (Grep), read (Read) and change (Edit, Write) files.
/// - The command times out after 120000 ms unless `timeout` says otherwise (at most 600000 ms).
/// - Never run interactive commands: standard input is empty.
#[tool(
    strict,
    name = "PowerShell",
    enabled = powershell_present,
    search_hint = "execute windows terminal commands",
    max_result_size_chars = 30000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct PowerShellTool {
    /// The command to execute.
    pub command: String,
    /// Optional timeout in milliseconds (at most 600000). Defaults to 120000 (2 minutes).
    pub timeout: Option<u64>,
    /// A clear, concise description of what the command does, in 5-10 words.
    pub description: Option<String>,
}

impl Tool for PowerShellTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if let Some(ms) = self.timeout.filter(|ms| *ms > crate::bash::MAX_TIMEOUT_MS) {
            return Err(ToolError::new(format!(
                "`timeout` is {ms} ms; the most allowed is {} ms (10 minutes)",
                crate::bash::MAX_TIMEOUT_MS
            )));
        }
        Ok(())
    }

    fn rule_subject(&self, _: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::Command(self.command.clone()))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}

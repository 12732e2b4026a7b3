//! Skill: runs one of the skills the host offers.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Executes a skill: a packaged set of instructions, scripts and resources for a specialised task, offered by the host.
///
/// When the user's request matches an available skill (listed to you by the host), invoke it by name before doing the work yourself, and follow what it returns. A user may also name one as a slash command (`/commit`): that is the skill `commit`. Pass any arguments as `args`. Do not invoke a skill that is already running, and do not guess names of skills that were not listed.
#[tool(
    strict,
    name = "Skill",
    search_hint = "invoke a slash command or packaged capability"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SkillTool {
    /// The skill's name, e.g. "commit" or "pdf".
    pub skill: String,
    /// Optional arguments for the skill.
    pub args: Option<String>,
}

impl Tool for SkillTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

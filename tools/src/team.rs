//! SendMessage, TeamCreate and TeamDelete: agent teams, run by the host. TeamCreate and
//! TeamDelete are enabled by the run-time switch `agent_swarms`; SendMessage always exists
//! (coordinator mode and in-process teammates use it without a team).

use serde::{Deserialize, Serialize};
use toolreg::env::Switches;
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

use crate::profile::switch;

fn agent_swarms(switches: &Switches) -> bool {
    switches.is_on(switch::AGENT_SWARMS)
}

/// Sends a message to another agent of your team: a teammate by name, the team lead, or everyone with `"*"`.
///
/// Use it to hand over results, ask a teammate a question, or coordinate who does what. Your plain text output is not seen by other agents: anything they must know goes through this tool. Keep messages self-contained; broadcast only what every teammate needs.
#[tool(
    strict,
    name = "SendMessage",
    defer,
    search_hint = "talk to a teammate agent or broadcast to the team"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SendMessageTool {
    /// The recipient: a teammate's name, or "*" for every teammate.
    pub to: String,
    /// The message.
    pub message: String,
    /// A 5-10 word summary shown in previews.
    pub summary: Option<String>,
}

impl Tool for SendMessageTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Creates a team of agents that you lead: a shared task list and a message channel. Spawn teammates into it with the Agent tool, assign them tasks with TaskUpdate, and talk to them with SendMessage.
///
/// Use it for large pieces of work that split into parallel parts. Delete the team with TeamDelete when the work is done.
#[tool(
    strict,
    name = "TeamCreate",
    defer,
    enabled = agent_swarms,
    search_hint = "start a swarm of coordinated agents"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TeamCreateTool {
    /// The team's name.
    pub team_name: String,
    /// What the team is for.
    pub description: Option<String>,
}

impl Tool for TeamCreateTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Deletes the team you lead, with its task list and messages, once its work is done. Teammates still running are asked to shut down first; the call fails while any of them is active.
#[tool(
    strict,
    name = "TeamDelete",
    defer,
    destructive,
    enabled = agent_swarms,
    search_hint = "disband the agent swarm and clean up"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TeamDeleteTool {}

impl Tool for TeamDeleteTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

//! RemoteTrigger: agents that run remotely on a schedule or on demand, managed by the host
//! (`AGENT_TRIGGERS`).
#![cfg(feature = "AGENT_TRIGGERS")]

use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

/// Manages remote triggers: agents that run in the cloud on a schedule or on demand, without this session.
///
/// - `list` shows the triggers; `get` shows one (`trigger_id`).
/// - `create` makes one from `body` (its name, schedule, prompt and environment, as the host describes); `update` changes one (`trigger_id`, `body`).
/// - `run` starts one now (`trigger_id`).
///
/// Confirm with the user before creating or running a trigger: it acts on their behalf while they are away.
#[tool(
    name = "RemoteTrigger",
    defer,
    search_hint = "schedule cloud agents that run unattended",
    feature = "AGENT_TRIGGERS"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RemoteTriggerTool {
    /// What to do.
    pub action: TriggerAction,
    /// The trigger (get, update, run).
    pub trigger_id: Option<String>,
    /// The trigger's definition (create, update).
    pub body: Option<serde_json::Value>,
}

/// A RemoteTrigger operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "lowercase")]
pub enum TriggerAction {
    /// List the triggers.
    List,
    /// Show one trigger.
    Get,
    /// Create a trigger.
    Create,
    /// Change a trigger.
    Update,
    /// Run a trigger now.
    Run,
}

impl Tool for RemoteTriggerTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        use TriggerAction::*;
        if matches!(self.action, Get | Update | Run) && self.trigger_id.is_none() {
            return Err(ToolError::new(
                "trigger_id is required for get, update and run",
            ));
        }
        if matches!(self.action, Create | Update) && self.body.is_none() {
            return Err(ToolError::new("body is required for create and update"));
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}

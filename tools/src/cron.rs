//! CronCreate, CronDelete and CronList: prompts scheduled on cron expressions, kept by the host
//! (`AGENT_TRIGGERS`).
#![cfg(feature = "AGENT_TRIGGERS")]

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Schedules a prompt to run on a cron schedule, or once at a later time.
///
/// `cron` is a standard 5-field expression (minute hour day-of-month month day-of-week) in the user's local time zone: `*/15 * * * *` every 15 minutes, `0 9 * * 1-5` at 9:00 on weekdays. With `recurring: false` the prompt runs once, at the next matching time, and is then removed. When it fires, `prompt` is sent as if the user had typed it. Returns the job's id, for CronDelete.
#[tool(
    strict,
    name = "CronCreate",
    defer,
    search_hint = "schedule a recurring or one time prompt",
    feature = "AGENT_TRIGGERS"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct CronCreateTool {
    /// A 5-field cron expression in local time.
    pub cron: String,
    /// The prompt to run at each fire time.
    pub prompt: String,
    /// Run on every match (true, the default) or only once (false).
    pub recurring: Option<bool>,
}

impl Tool for CronCreateTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        let fields = self.cron.split_whitespace().count();
        if fields != 5 {
            return Err(ToolError::new(format!(
                "cron {:?} has {fields} fields; write 5: minute hour day-of-month month day-of-week",
                self.cron
            )));
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}

/// Cancels a scheduled prompt by the id CronCreate returned; CronList shows the ids of the jobs that exist.
///
/// The job stops at once: a recurring prompt does not fire again, and a one-time prompt that has not fired yet never will. Cancel only jobs the user no longer wants.
#[tool(
    strict,
    name = "CronDelete",
    defer,
    destructive,
    search_hint = "cancel a scheduled prompt job",
    feature = "AGENT_TRIGGERS"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct CronDeleteTool {
    /// The id of the job to cancel.
    pub id: String,
}

impl Tool for CronDeleteTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Lists the scheduled prompts of this session: each job's id, cron expression, prompt, whether it recurs, and its next fire time.
#[tool(
    strict,
    name = "CronList",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "show scheduled prompt jobs",
    feature = "AGENT_TRIGGERS"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct CronListTool {}

impl Tool for CronListTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

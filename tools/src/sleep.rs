//! Sleep: waits a bounded number of seconds (`PROACTIVE` or `KAIROS`).
#![cfg(any(feature = "PROACTIVE", feature = "KAIROS"))]

use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, tool};

/// The longest sleep one call may ask for: one hour.
pub const MAX_SECONDS: f64 = 3600.0;

/// Waits for a given number of seconds, then returns.
///
/// Use it when there is nothing to do until something outside changes: a build or deploy to finish, a scheduled time to arrive, the user to come back. Prefer it to `sleep` in Bash, which holds a shell. The wait is at most 3600 seconds per call; call it again to wait longer. Do not sleep when work remains that you can do now.
#[tool(
    strict,
    name = "Sleep",
    read_only,
    concurrency_safe,
    search_hint = "wait pause for a number of seconds",
    feature = any("PROACTIVE", "KAIROS")
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SleepTool {
    /// How long to wait, in seconds (above 0, at most 3600; fractions allowed).
    pub duration_seconds: f64,
}

impl Tool for SleepTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        let seconds = self.duration_seconds;
        if !seconds.is_finite() || seconds <= 0.0 || seconds > MAX_SECONDS {
            return Err(ToolError::new(format!(
                "duration_seconds is {seconds}; give a number above 0 and at most {MAX_SECONDS}"
            )));
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        tokio::time::sleep(Duration::from_secs_f64(self.duration_seconds)).await;
        Ok(format!("Slept for {} seconds.", self.duration_seconds))
    }
}

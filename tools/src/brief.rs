//! Brief and SendUserFile: messages and files for the user, delivered by the host.

use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

/// Sends the user a message they will see even when they are not watching the session: a status update, a finished result, or a question that needs their attention.
///
/// Keep it brief and self-contained: lead with what the user needs to know or do. Attach files by path when the result is a file. Use `status: "proactive"` for updates the user did not ask for, `normal` (the default) for replies.
#[tool(
    strict,
    name = "Brief",
    search_hint = "notify the user with a short status update"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct BriefTool {
    /// The message, in Markdown.
    pub message: String,
    /// Paths of files to attach.
    pub attachments: Option<Vec<String>>,
    /// Whether the message replies to the user or is sent on your own initiative.
    pub status: Option<BriefStatus>,
}

/// Why a Brief message is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "lowercase")]
pub enum BriefStatus {
    /// A reply to the user.
    Normal,
    /// An update the user did not ask for.
    Proactive,
}

impl Tool for BriefTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

#[cfg(feature = "KAIROS")]
mod send_user_file {
    use super::*;

    /// Sends files from the machine to the user's device, with an optional note, so they can open them where they are (a report, a build artifact, a screenshot).
    ///
    /// Give absolute paths to existing files. Send only what the user needs; do not send secrets.
    #[tool(
        strict,
        name = "SendUserFile",
        search_hint = "deliver documents or artifacts to the person's device",
        feature = "KAIROS"
    )]
    #[derive(Debug, Clone, Deserialize, Serialize)]
    pub struct SendUserFileTool {
        /// Absolute paths of the files to send.
        pub files: Vec<String>,
        /// A short note to go with the files.
        pub message: Option<String>,
    }

    impl Tool for SendUserFileTool {
        type Output = ToolOutput;

        fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError> {
            if self.files.is_empty() {
                return Err(ToolError::new("files is empty; give at least one path"));
            }
            for file in &self.files {
                let path = crate::util::resolve(ctx, file);
                if !path.is_file() {
                    return Err(ToolError::new(format!(
                        "{} does not exist or is not a file",
                        path.display()
                    )));
                }
            }
            Ok(())
        }

        async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
            self.validate_input(ctx)?;
            ctx.delegate(self).await
        }
    }
}

#[cfg(feature = "KAIROS")]
pub use send_user_file::SendUserFileTool;

//! What a call is made of: the model's [`ToolUse`], the [`ToolResult`] sent back, and what the
//! host provides for a call: an [`McpCaller`] for MCP tools, an [`Approver`] for calls that ask.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::DispatchError;

use crate::ToolContext;
use crate::ToolInfo;
use crate::tool::BoxFuture;
use crate::{ToolError, ToolOutput};

/// One call of an MCP tool, as the [`McpCaller`] receives it.
#[derive(Debug, Clone, Copy)]
pub struct McpCall<'a> {
    /// The server, as configured.
    pub server: &'a str,
    /// The tool's name as the server sent it.
    pub tool: &'a str,
    /// The input, a JSON object.
    pub input: &'a Value,
    /// The call's context: its `tool_use` id, the turn's cancellation, progress.
    pub ctx: &'a ToolContext<'a>,
}

/// Calls a tool on its MCP server.
pub trait McpCaller: Send + Sync {
    /// Sends `tools/call` for the raw tool name on the server.
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;
}

/// A question for the user: may this call run?
#[derive(Debug, Clone, Copy)]
pub struct Approval<'a> {
    /// The tool.
    pub tool: &'a ToolInfo,
    /// The call's input.
    pub input: &'a Value,
    /// Why it asks (a rule, the working-directory boundary, the tool's own check, its
    /// `destructive` flag).
    pub reason: &'a str,
    /// The `tool_use` block.
    pub tool_use_id: &'a str,
}

/// Asks the user whether a call may run.
pub trait Approver: Send + Sync {
    /// Resolves to `true` to run it.
    fn approve<'a>(&'a self, request: Approval<'a>) -> BoxFuture<'a, bool>;
}

/// A `tool_use` block of an assistant message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUse {
    /// Its id, which the `tool_result` answers.
    pub id: String,
    /// The tool the model called.
    pub name: String,
    /// The input the model gave.
    #[serde(default)]
    pub input: Value,
}

impl ToolUse {
    /// A block with these parts.
    pub fn new(id: impl Into<String>, name: impl Into<String>, input: Value) -> Self {
        ToolUse {
            id: id.into(),
            name: name.into(),
            input,
        }
    }
}

/// A `tool_result` block.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The `tool_use` block this answers.
    pub tool_use_id: String,
    /// The content: the tool's output, or the error's text.
    pub content: ToolOutput,
    /// Why the call failed or was refused; `None` on success.
    pub error: Option<DispatchError>,
}

impl ToolResult {
    /// The result of a call that failed or was refused: the error's text, `is_error`.
    pub fn from_error(tool_use_id: &str, error: DispatchError) -> Self {
        ToolResult {
            tool_use_id: tool_use_id.to_owned(),
            content: ToolOutput::Text(error.to_string()),
            error: Some(error),
        }
    }

    /// Whether the call failed or was refused (`is_error` in the block).
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Whether the tool's body ran.
    pub fn called(&self) -> bool {
        self.error.as_ref().is_none_or(DispatchError::ran)
    }

    /// The block as the Messages API takes it: text content as a string, structured content as
    /// its JSON text, an image or other blocks as an array of content blocks.
    pub fn to_json(&self) -> Value {
        let content = match &self.content {
            ToolOutput::Text(text) => Value::String(text.clone()),
            ToolOutput::Json(value) => Value::String(value.to_string()),
            other => Value::Array(other.to_blocks()),
        };
        let mut block =
            json!({"type": "tool_result", "tool_use_id": self.tool_use_id, "content": content});
        if let (true, Some(fields)) = (self.is_error(), block.as_object_mut()) {
            fields.insert("is_error".into(), Value::Bool(true));
        }
        block
    }
}

//! What a call is made of: the model's [`ToolUse`], the [`ToolResult`] sent back, and what the
//! host provides for a call: an [`McpCaller`] for MCP tools, an [`Approver`] for calls that ask.

use std::future::Future;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

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

/// A question for the user, owned, for an [`Approver`] written as an `async fn` or closure.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The tool's name in the pool.
    pub tool: String,
    /// The call's input.
    pub input: Value,
    /// Why it asks.
    pub reason: String,
    /// The `tool_use` block.
    pub tool_use_id: String,
}

/// Any `Fn(ApprovalRequest) -> impl Future<Output = bool>` is an approver:
///
/// ```
/// use std::sync::Arc;
/// use toolreg::dispatch::ApprovalRequest;
/// use toolreg::{Dispatcher, Env, PermissionContext, Pool};
///
/// async fn ask_on_terminal(request: ApprovalRequest) -> bool {
///     eprintln!("run {}? ({})", request.tool, request.reason);
///     false // read the answer here
/// }
///
/// let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), Pool::default(), ".")
///     .with_approver(Arc::new(ask_on_terminal));
/// ```
impl<F, Fut> Approver for F
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync,
    Fut: Future<Output = bool> + Send + 'static,
{
    fn approve<'a>(&'a self, request: Approval<'a>) -> BoxFuture<'a, bool> {
        Box::pin(self(ApprovalRequest {
            tool: request.tool.name.clone(),
            input: request.input.clone(),
            reason: request.reason.to_owned(),
            tool_use_id: request.tool_use_id.to_owned(),
        }))
    }
}

/// One call of an MCP tool, owned, for an [`McpCaller`] written as an `async fn` or closure.
#[derive(Debug, Clone)]
pub struct McpRequest {
    /// The server, as configured.
    pub server: String,
    /// The tool's name as the server sent it.
    pub tool: String,
    /// The input, a JSON object.
    pub input: Value,
    /// The `tool_use` block.
    pub tool_use_id: String,
    /// Fires when the turn is cancelled (the call's future is also dropped then).
    pub cancel: CancellationToken,
}

/// Any `Fn(McpRequest) -> impl Future<Output = Result<ToolOutput, ToolError>>` calls MCP tools:
///
/// ```
/// use std::sync::Arc;
/// use toolreg::dispatch::McpRequest;
/// use toolreg::{Dispatcher, Env, PermissionContext, Pool, ToolError, ToolOutput};
///
/// async fn call(request: McpRequest) -> Result<ToolOutput, ToolError> {
///     Ok(ToolOutput::Text(format!("{} on {}", request.tool, request.server)))
/// }
///
/// let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), Pool::default(), ".")
///     .with_mcp(Arc::new(call));
/// ```
impl<F, Fut> McpCaller for F
where
    F: Fn(McpRequest) -> Fut + Send + Sync,
    Fut: Future<Output = Result<ToolOutput, ToolError>> + Send + 'static,
{
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(self(McpRequest {
            server: call.server.to_owned(),
            tool: call.tool.to_owned(),
            input: call.input.clone(),
            tool_use_id: call.ctx.tool_use_id().to_owned(),
            cancel: call.ctx.cancellation().cloned().unwrap_or_default(),
        }))
    }
}

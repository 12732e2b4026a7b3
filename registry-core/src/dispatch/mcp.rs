//! Calling MCP tools: the [`McpCall`] the host's [`McpCaller`] receives.

use std::future::Future;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::ToolContext;
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
    /// The call's context: its id, the turn's cancellation, progress.
    pub ctx: &'a ToolContext<'a>,
}

/// Calls a tool on its MCP server.
pub trait McpCaller: Send + Sync {
    /// Sends `tools/call` for the raw tool name on the server.
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;
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
    /// The id of the call.
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

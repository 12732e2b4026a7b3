//! Answering a turn on the Anthropic Messages API: one user message of `tool_result` blocks.

use serde_json::{Value, json};

use crate::{ToolOutput, ToolResult, Turn};

/// A result as a `tool_result` block: text content as a string, structured content as its JSON
/// text, an image or other blocks as an array of content blocks; `is_error` on failure.
pub fn tool_result(result: &ToolResult) -> Value {
    let content = match &result.content {
        ToolOutput::Text(text) => Value::String(text.clone()),
        ToolOutput::Json(value) => Value::String(value.to_string()),
        other => Value::Array(other.to_blocks()),
    };
    let mut block =
        json!({"type": "tool_result", "tool_use_id": result.tool_use_id, "content": content});
    if let (true, Some(fields)) = (result.is_error(), block.as_object_mut()) {
        fields.insert("is_error".into(), Value::Bool(true));
    }
    block
}

/// The user message that answers the assistant's: every result of `turn` as a `tool_result`
/// block, in order.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use toolreg::wire::anthropic::tool_results;
/// use toolreg::{Dispatcher, Env, PermissionContext, Pool, ToolCall, TurnOptions};
/// use serde_json::json;
///
/// let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), Pool::default(), ".");
/// let turn = dispatcher.run_turn(&[ToolCall::new("t1", "Nothing", json!({}))], &TurnOptions::default()).await;
/// let message = tool_results(&turn);
/// assert_eq!(message["role"], "user");
/// assert_eq!(message["content"][0]["tool_use_id"], "t1");
/// assert_eq!(message["content"][0]["is_error"], true);
/// # }
/// ```
pub fn tool_results(turn: &Turn) -> Value {
    let content: Vec<Value> = turn.results.iter().map(tool_result).collect();
    json!({"role": "user", "content": content})
}

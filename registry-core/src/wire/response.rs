//! A model's response, read: the tool calls in order, why it stopped, its text, and the
//! assistant message to keep in the history; the same for the three APIs, each of whose
//! modules reads its own shape.

use std::fmt;

use serde_json::Value;

use crate::ToolCall;

/// A model API's request and response shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Api {
    /// Anthropic Messages ([`anthropic`](crate::wire::anthropic)).
    Anthropic,
    /// OpenAI Chat Completions ([`chat_completions`](crate::wire::chat_completions)).
    ChatCompletions,
    /// OpenAI Responses ([`responses`](crate::wire::responses)).
    Responses,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// It finished its answer (`end_turn`, `stop`, a completed response without calls).
    EndTurn,
    /// It waits for the results of its tool calls.
    ToolUse,
    /// It ran out of output tokens (`max_tokens`, `length`, an incomplete response).
    MaxTokens,
    /// It paused a long turn (`pause_turn`): send the history back as it is to continue.
    Paused,
    /// It declined (`refusal`, `content_filter`).
    Refusal,
    /// Anything else, as the API named it.
    Other(String),
}

/// A model's response to one request, read for the loop.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelResponse {
    /// The API it came from.
    pub api: Api,
    /// The tool calls this side runs, in order. Every one must be answered once, in this order.
    pub calls: Vec<ToolCall>,
    /// Why the model stopped.
    pub stop: Stop,
    /// The text the model wrote, its parts joined.
    pub text: String,
    /// Tools the API's own search loaded (Anthropic `tool_search_tool_result`, Responses
    /// server `tool_search_output`): from the next request on they are discovered.
    pub server_discovered: Vec<String>,
    /// What goes into the history: one assistant message (Anthropic, Chat Completions), or
    /// the response's output items (Responses), in the form the request takes them.
    pub history: Vec<Value>,
    /// The id of the container the API's code execution tool ran in (Anthropic `container`):
    /// the next request names it to go on in the same one.
    pub container: Option<String>,
}

/// A response that does not have the shape its API documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseError {
    /// The JSON path of what was wrong (`content[2].id`).
    pub path: String,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the response's {}: {}", self.path, self.message)
    }
}

impl std::error::Error for ResponseError {}

/// The error at `path`.
pub(crate) fn error(path: impl Into<String>, message: impl Into<String>) -> ResponseError {
    ResponseError {
        path: path.into(),
        message: message.into(),
    }
}

/// The string at `key` of `value` (at `path`).
pub(crate) fn str_at<'a>(
    value: &'a Value,
    key: &str,
    path: &str,
) -> Result<&'a str, ResponseError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| error(format!("{path}.{key}"), "missing, or not a string"))
}

/// The array at `key` of `value` (at `path`, which ends with a separator).
pub(crate) fn array_at<'a>(
    value: &'a Value,
    key: &str,
    path: &str,
) -> Result<&'a [Value], ResponseError> {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| error(format!("{path}{key}"), "missing, or not an array"))
}

/// The arguments string of a call, read as a JSON object.
pub(crate) fn arguments(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!(
            "the arguments are not a JSON object: {}",
            crate::tool::json_kind(&other)
        )),
        Err(error) => Err(format!("the arguments are not valid JSON: {error}")),
    }
}

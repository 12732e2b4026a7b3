//! A model's response, read: the tool calls in order, why it stopped, its text, and the
//! assistant message to keep in the history.

use std::fmt;

use serde_json::{Map, Value, json};

use super::Api;
use crate::ToolCall;

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

fn error(path: impl Into<String>, message: impl Into<String>) -> ResponseError {
    ResponseError {
        path: path.into(),
        message: message.into(),
    }
}

fn str_at<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a str, ResponseError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| error(format!("{path}.{key}"), "missing, or not a string"))
}

fn array_at<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a [Value], ResponseError> {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| error(format!("{path}{key}"), "missing, or not an array"))
}

/// The arguments string of a call, read as a JSON object.
fn arguments(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!(
            "the arguments are not a JSON object: {}",
            crate::tool::json_kind(&other)
        )),
        Err(error) => Err(format!("the arguments are not valid JSON: {error}")),
    }
}

/// Reads a non-streaming response body of `api` (a streamed one after
/// [`StreamAssembler::finish`](super::StreamAssembler::finish)).
///
/// # Errors
/// A [`ResponseError`] naming the path of the first part that does not have its API's shape.
/// A call whose arguments are not a JSON object is not an error: its
/// [`input`](ToolCall::input) says why, and the loop answers it with an error result.
pub fn parse_response(api: Api, body: &Value) -> Result<ModelResponse, ResponseError> {
    if !body.is_object() {
        return Err(error(".", "not a JSON object"));
    }
    match api {
        Api::Anthropic => anthropic(body),
        Api::ChatCompletions => chat(body),
        Api::Responses => responses(body),
    }
}

fn anthropic(body: &Value) -> Result<ModelResponse, ResponseError> {
    let content = array_at(body, "content", "")?;
    let mut response = ModelResponse {
        api: Api::Anthropic,
        calls: Vec::new(),
        stop: match body.get("stop_reason").and_then(Value::as_str) {
            Some("end_turn" | "stop_sequence") | None => Stop::EndTurn,
            Some("tool_use") => Stop::ToolUse,
            Some("max_tokens" | "model_context_window_exceeded") => Stop::MaxTokens,
            Some("pause_turn") => Stop::Paused,
            Some("refusal") => Stop::Refusal,
            Some(other) => Stop::Other(other.to_owned()),
        },
        text: String::new(),
        server_discovered: Vec::new(),
        history: Vec::new(),
    };
    for (index, block) in content.iter().enumerate() {
        let path = format!("content[{index}]");
        match block.get("type").and_then(Value::as_str) {
            Some("text") => response.text.push_str(str_at(block, "text", &path)?),
            Some("tool_use") => {
                let input = match block.get("input") {
                    Some(input @ Value::Object(_)) => Ok(input.clone()),
                    // A streamed input that did not parse (see `StreamAssembler`).
                    Some(Value::String(text)) => arguments(text),
                    _ => Err("the input is not a JSON object".to_owned()),
                };
                response.calls.push(ToolCall {
                    id: str_at(block, "id", &path)?.to_owned(),
                    name: str_at(block, "name", &path)?.to_owned(),
                    input,
                });
            }
            Some("tool_search_tool_result") => {
                let references = block
                    .pointer("/content/tool_references")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten();
                for reference in references {
                    if let Some(name) = reference.get("tool_name").and_then(Value::as_str) {
                        response.server_discovered.push(name.to_owned());
                    }
                }
            }
            Some(_) => {}
            None => return Err(error(format!("{path}.type"), "missing, or not a string")),
        }
    }
    // What goes back: a tool_use whose input could not be read is sent with an empty one (the
    // API takes objects only); its error result says what the model sent.
    let content: Vec<Value> = content
        .iter()
        .map(|block| match block.get("input") {
            Some(Value::Object(_)) | None => block.clone(),
            Some(_) => {
                let mut block = block.clone();
                if let Some(fields) = block.as_object_mut() {
                    fields.insert("input".into(), json!({}));
                }
                block
            }
        })
        .collect();
    response
        .history
        .push(json!({"role": "assistant", "content": content}));
    Ok(response)
}

fn chat(body: &Value) -> Result<ModelResponse, ResponseError> {
    let choices = array_at(body, "choices", "")?;
    let choice = choices
        .first()
        .ok_or_else(|| error("choices", "empty: the response has no message"))?;
    let message = choice
        .get("message")
        .filter(|message| message.is_object())
        .ok_or_else(|| error("choices[0].message", "missing, or not an object"))?;
    let mut calls = Vec::new();
    let mut sent_calls = Vec::new();
    let tool_calls = match message.get("tool_calls") {
        None | Some(Value::Null) => &[][..],
        Some(_) => array_at(message, "tool_calls", "choices[0].message.")?,
    };
    for (index, call) in tool_calls.iter().enumerate() {
        let path = format!("choices[0].message.tool_calls[{index}]");
        let function = call
            .get("function")
            .filter(|function| function.is_object())
            .ok_or_else(|| error(format!("{path}.function"), "missing, or not an object"))?;
        let id = str_at(call, "id", &path)?;
        let name = str_at(function, "name", &format!("{path}.function"))?;
        let text = str_at(function, "arguments", &format!("{path}.function"))?;
        calls.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            input: arguments(text),
        });
        sent_calls.push(json!({
            "id": id,
            "type": "function",
            "function": {"name": name, "arguments": text},
        }));
    }
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut kept = Map::new();
    kept.insert("role".into(), "assistant".into());
    kept.insert(
        "content".into(),
        message.get("content").cloned().unwrap_or(Value::Null),
    );
    if let Some(refusal) = message.get("refusal").filter(|refusal| refusal.is_string()) {
        kept.insert("refusal".into(), refusal.clone());
    }
    if !sent_calls.is_empty() {
        kept.insert("tool_calls".into(), Value::Array(sent_calls));
    }
    Ok(ModelResponse {
        api: Api::ChatCompletions,
        stop: match choice.get("finish_reason").and_then(Value::as_str) {
            Some("stop") | None => Stop::EndTurn,
            Some("tool_calls" | "function_call") => Stop::ToolUse,
            Some("length") => Stop::MaxTokens,
            Some("content_filter") => Stop::Refusal,
            Some(other) => Stop::Other(other.to_owned()),
        },
        calls,
        text: text.to_owned(),
        server_discovered: Vec::new(),
        history: vec![Value::Object(kept)],
    })
}

fn responses(body: &Value) -> Result<ModelResponse, ResponseError> {
    let output = array_at(body, "output", "")?;
    let mut calls = Vec::new();
    let mut text = String::new();
    let mut server_discovered = Vec::new();
    let mut history = Vec::with_capacity(output.len());
    for (index, item) in output.iter().enumerate() {
        let path = format!("output[{index}]");
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for part in item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if part.get("type").and_then(Value::as_str) == Some("output_text") {
                        text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default());
                    }
                }
            }
            Some("function_call") => {
                let name = str_at(item, "name", &path)?;
                let name = match item.get("namespace").and_then(Value::as_str) {
                    Some(namespace) => format!("{namespace}__{name}"),
                    None => name.to_owned(),
                };
                calls.push(ToolCall {
                    id: str_at(item, "call_id", &path)?.to_owned(),
                    name,
                    input: arguments(str_at(item, "arguments", &path)?),
                });
            }
            Some("tool_search_call")
                if item.get("execution").and_then(Value::as_str) == Some("client") =>
            {
                let input = match item.get("arguments") {
                    Some(Value::String(text)) => arguments(text),
                    Some(value @ Value::Object(_)) => Ok(value.clone()),
                    _ => Err("the arguments are not a JSON object".to_owned()),
                };
                calls.push(ToolCall {
                    id: str_at(item, "call_id", &path)?.to_owned(),
                    name: crate::search::TOOL_NAME.to_owned(),
                    input,
                });
            }
            Some("tool_search_output") => {
                for tool in item
                    .get("tools")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    discovered_in_output_tool(tool, &mut server_discovered);
                }
            }
            Some(_) => {}
            None => return Err(error(format!("{path}.type"), "missing, or not a string")),
        }
        history.push(item.clone());
    }
    let status = body.get("status").and_then(Value::as_str);
    let stop = match status {
        Some("incomplete") => match body
            .pointer("/incomplete_details/reason")
            .and_then(Value::as_str)
        {
            Some("content_filter") => Stop::Refusal,
            _ => Stop::MaxTokens,
        },
        Some("completed") | None if calls.is_empty() => Stop::EndTurn,
        Some("completed") | None => Stop::ToolUse,
        Some(other) => Stop::Other(other.to_owned()),
    };
    Ok(ModelResponse {
        api: Api::Responses,
        calls,
        stop,
        text,
        server_discovered,
        history,
    })
}

/// The pool names a Responses `tool_search_output` tool loads: a function's name, or each
/// function of a namespace as `<namespace>__<name>`.
pub(crate) fn discovered_in_output_tool(tool: &Value, into: &mut Vec<String>) {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
    match tool.get("type").and_then(Value::as_str) {
        Some("namespace") => {
            for inner in tool
                .get("tools")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(inner) = inner.get("name").and_then(Value::as_str) {
                    into.push(format!("{name}__{inner}"));
                }
            }
        }
        _ if !name.is_empty() => into.push(name.to_owned()),
        _ => {}
    }
}

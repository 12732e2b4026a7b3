//! Reading an Anthropic Messages response: its `tool_use` blocks, the tools the API's own
//! search loaded, and the assistant message to keep.

use serde_json::{Value, json};

use crate::ToolCall;
use crate::tool::Caller;
use crate::wire::response::{
    Api, ModelResponse, ResponseError, Stop, arguments, array_at, error, str_at,
};

/// Reads a Messages response body.
pub(crate) fn parse(body: &Value) -> Result<ModelResponse, ResponseError> {
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
        container: body
            .pointer("/container/id")
            .and_then(Value::as_str)
            .map(str::to_owned),
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
                    caller: Caller::from_value(block.get("caller")),
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

//! Reading a Chat Completions response: the message's `tool_calls`, and the assistant message
//! to keep.

use serde_json::{Map, Value, json};

use crate::ToolCall;
use crate::wire::response::{
    Api, ModelResponse, ResponseError, Stop, arguments, array_at, error, str_at,
};

/// Reads a Chat Completions response body.
pub(crate) fn parse(body: &Value) -> Result<ModelResponse, ResponseError> {
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
            caller: crate::tool::Caller::Direct,
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
        container: None,
    })
}

//! Reading a Responses response: its `function_call` and client `tool_search_call` items, and
//! the tools the API's own search loaded.

use serde_json::Value;

use crate::ToolCall;
use crate::wire::response::{
    Api, ModelResponse, ResponseError, Stop, arguments, array_at, error, str_at,
};
use crate::wire::responses::loaded::loaded_by;

/// Reads a Responses response body.
pub(crate) fn parse(body: &Value) -> Result<ModelResponse, ResponseError> {
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
                    caller: crate::tool::Caller::Direct,
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
                    caller: crate::tool::Caller::Direct,
                });
            }
            Some("tool_search_output") => loaded_by(item, &mut server_discovered),
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
        container: None,
    })
}

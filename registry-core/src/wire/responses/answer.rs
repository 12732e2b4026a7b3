//! Answering a turn on the Responses API: one `function_call_output` item a call, and for a
//! client-executed tool search a `tool_search_output` carrying the loaded definitions.

use std::sync::Arc;

use serde_json::{Value, json};

use super::tools::ResponsesFunction;
use crate::wire::openai::{Function, is_search, loaded, text};
use crate::wire::{InvalidSchema, RenderError};
use crate::{Pool, ToolInfo, ToolOutput, ToolResult};

/// A result as the Responses API takes it back: a `function_call_output` item, its output text,
/// or an `input_image` part; for a ToolSearch call (a client `tool_search_call`), a
/// [`tool_search_output`] with the definitions of the tools it loaded from `pool` (`strict` as
/// the request's rendering).
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON, or one a
/// `serde_json::Value` cannot hold.
pub fn tool_output(result: &ToolResult, pool: &Pool, strict: bool) -> Result<Value, RenderError> {
    let id = result.tool_use_id.as_str();
    if is_search(result) {
        return tool_search_output(id, &loaded(result), pool, strict);
    }
    Ok(match &result.content {
        ToolOutput::Image { media_type, data } => json!({
            "type": "function_call_output",
            "call_id": id,
            "output": [{
                "type": "input_image",
                "image_url": format!("data:{media_type};base64,{data}"),
            }],
        }),
        _ => json!({"type": "function_call_output", "call_id": id, "output": text(result)}),
    })
}

/// The Responses API's answer to a client-executed `tool_search_call`: a `tool_search_output`
/// input item carrying the definitions of the tools ToolSearch matched (`matches`, from
/// [`SearchOutput::matches`](crate::search::SearchOutput::matches)), as function tools.
/// Names not in `pool` are skipped, and so are tools that are not deferred: the request's
/// `tools` already carries them (`select:Read` loads nothing new).
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a schema that is not JSON, or one a `serde_json::Value`
/// cannot hold.
pub fn tool_search_output(
    call_id: &str,
    matches: &[String],
    pool: &Pool,
    strict: bool,
) -> Result<Value, RenderError> {
    let tools: Vec<&Arc<ToolInfo>> = matches
        .iter()
        .filter_map(|name| pool.find(name))
        .filter(|tool| tool.is_deferred())
        .collect();
    let mut functions = Vec::with_capacity(tools.len());
    for tool in tools {
        let function = ResponsesFunction::new(Function::of(tool, strict)?, false);
        let value = serde_json::to_value(&function).map_err(|error| InvalidSchema {
            tool: tool.name.clone(),
            message: error.to_string(),
        })?;
        functions.push(value);
    }
    Ok(json!({
        "type": "tool_search_output",
        "call_id": call_id,
        "execution": "client",
        "status": "completed",
        "tools": functions,
    }))
}

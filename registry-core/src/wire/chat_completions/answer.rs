//! Answering a turn on Chat Completions: one `tool` message a call. Chat Completions has no tool
//! references, so a ToolSearch answer names the tools it loaded, which the next request sends
//! in full.

use serde_json::{Value, json};

use crate::wire::openai::{is_search, loaded, text};
use crate::{ToolResult, Turn};

/// A result as a `tool` message: its content as text (an image is named, since tool messages
/// carry text only); a ToolSearch answer as [`tool_search_text`].
pub fn tool_message(result: &ToolResult) -> Value {
    let content = if is_search(result) {
        tool_search_text(&loaded(result))
    } else {
        text(result)
    };
    json!({"role": "tool", "tool_call_id": result.tool_use_id, "content": content})
}

/// The text of ToolSearch's `tool` message on Chat Completions: the names it loaded (send them
/// as [`OpenAiOptions::discovered`](crate::wire::openai::OpenAiOptions::discovered) from the
/// next request on), or that nothing matched.
pub fn tool_search_text(matches: &[String]) -> String {
    if matches.is_empty() {
        "No matching deferred tools found".to_owned()
    } else {
        format!(
            "Loaded {}. Their definitions are in the tools of the next request.",
            matches.join(", ")
        )
    }
}

/// The deferred tools the results of `turn` loaded (the `tool_reference` blocks of the results
/// that are not errors), which the conversation keeps, since the history does not show them.
pub fn loaded_tools(turn: &Turn) -> Vec<String> {
    turn.results
        .iter()
        .filter(|result| !result.is_error())
        .flat_map(loaded)
        .collect()
}

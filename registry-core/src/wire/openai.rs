//! What the two OpenAI APIs share: the rendering options, the function shape, which pool
//! tools a request sends, and a result's text.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::error::InvalidSchema;
use super::tools::ToolsArray;
use crate::{Pool, ToolInfo, ToolOutput, ToolResult};

/// The OpenAI request shape.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OpenAiFormat {
    /// Chat Completions: `{"type":"function","function":{...}}`, at most
    /// [`MAX_TOOLS`](crate::wire::chat_completions::MAX_TOOLS) tools.
    #[default]
    ChatCompletions,
    /// Responses: `{"type":"function","name":...}`.
    Responses,
}

/// Deferral on the OpenAI APIs. It needs ToolSearch in the pool; without it every mode sends
/// every tool in full, as [`Off`](Self::Off) does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OpenAiToolSearch {
    /// Every tool in full, ToolSearch left out.
    #[default]
    Off,
    /// toolreg's ToolSearch loads deferred tools; the deferred tools not loaded yet are
    /// announced by name in an `<available-deferred-tools>` message.
    /// * Chat Completions: ToolSearch is a function; the loaded deferred tools
    ///   ([`OpenAiOptions::discovered`]) are sent in full.
    /// * Responses: a `tool_search` tool with `execution: "client"` and ToolSearch's
    ///   description and parameters; the model's `tool_search_call` is answered with
    ///   [`tool_search_output`](crate::wire::responses::tool_search_output), which carries the
    ///   loaded definitions, so they are
    ///   not repeated in `tools`.
    Client,
    /// Responses only: every function, the deferred ones with `defer_loading: true`, and a
    /// `tool_search` tool with `execution: "server"`: the API searches.
    Server,
}

/// One OpenAI request's rendering inputs.
#[derive(Debug, Clone, Default)]
pub struct OpenAiOptions {
    /// The request shape.
    pub format: OpenAiFormat,
    /// Send strict schemas: a tool that has one is sent with it and `strict: true`; MCP tools,
    /// which have none, with `strict: false`.
    pub strict: bool,
    /// Deferral.
    pub tool_search: OpenAiToolSearch,
    /// Deferred tools the conversation already loaded (Chat Completions with
    /// [`Client`](OpenAiToolSearch::Client)).
    pub discovered: BTreeSet<String>,
    /// Responses: each MCP server's functions grouped as one `namespace` tool named
    /// `mcp__<server>`, inside which they keep the rest of their names (the model's calls name
    /// the namespace, and [`parse_response`](crate::wire::parse_response) joins them
    /// back). With [`Server`](OpenAiToolSearch::Server) search the API then loads a server's
    /// deferred tools together.
    pub namespaces: bool,
}

/// A rendered OpenAI request's tool parts.
#[derive(Debug, PartialEq, Eq)]
pub struct RenderedOpenAi {
    /// The `tools` array.
    pub tools: ToolsArray,
    /// The `<available-deferred-tools>` message, with client-side tool search.
    pub deferred_tools_message: Option<String>,
    /// How many tools the array holds.
    pub tool_count: usize,
}

/// A function: its name, description, parameters and whether they are strict.
#[derive(Debug, Serialize)]
pub(crate) struct Function {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) parameters: Box<RawValue>,
    pub(crate) strict: bool,
}

impl Function {
    /// `tool` as a function: with its strict schema when `strict` is asked and it has one.
    pub(crate) fn of(tool: &ToolInfo, strict: bool) -> Result<Function, InvalidSchema> {
        let (text, is_strict) = match (&tool.strict_input_schema, strict) {
            (Some(strict_schema), true) => (strict_schema, true),
            _ => (&tool.input_schema, false),
        };
        let parameters =
            RawValue::from_string(text.to_string()).map_err(|error| InvalidSchema {
                tool: tool.name.clone(),
                message: error.to_string(),
            })?;
        Ok(Function {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters,
            strict: is_strict,
        })
    }
}

/// What one pool tool becomes in a request.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A function, with `defer_loading` or not.
    Function { defer_loading: bool },
    /// The search tool (Responses).
    SearchTool,
}

/// What a request sends of a pool.
pub(crate) struct Chosen<'a> {
    /// The tools it carries with their roles, in pool order.
    pub(crate) tools: Vec<(&'a Arc<ToolInfo>, Role)>,
    /// The deferred tools it announces by name, sorted.
    pub(crate) announced: Vec<&'a str>,
    /// The deferral mode in effect (off without ToolSearch in the pool).
    pub(crate) mode: OpenAiToolSearch,
}

/// What a request sends of `pool` under `options`.
pub(crate) fn choose<'a>(pool: &'a Pool, options: &OpenAiOptions) -> Chosen<'a> {
    let chat = options.format == OpenAiFormat::ChatCompletions;
    let has_search = pool.named(crate::search::TOOL_NAME).is_some();
    let mode = if has_search {
        options.tool_search
    } else {
        OpenAiToolSearch::Off
    };
    let mut chosen = Vec::new();
    let mut announced = Vec::new();
    for tool in pool {
        let is_search = tool.name == crate::search::TOOL_NAME;
        let role = match (mode, is_search, tool.is_deferred()) {
            (OpenAiToolSearch::Off, true, _) => None,
            (OpenAiToolSearch::Off, false, _) | (_, false, false) => Some(Role::Function {
                defer_loading: false,
            }),
            (_, true, _) if !chat => Some(Role::SearchTool),
            (_, true, _) => Some(Role::Function {
                defer_loading: false,
            }),
            (OpenAiToolSearch::Server, false, true) => Some(Role::Function {
                defer_loading: true,
            }),
            (OpenAiToolSearch::Client, false, true) => {
                if chat && options.discovered.contains(&tool.name) {
                    Some(Role::Function {
                        defer_loading: false,
                    })
                } else {
                    if !options.discovered.contains(&tool.name) {
                        announced.push(tool.name.as_str());
                    }
                    None
                }
            }
        };
        if let Some(role) = role {
            chosen.push((tool, role));
        }
    }
    announced.sort_by(|a, b| crate::tool::compare_names(a, b));
    Chosen {
        tools: chosen,
        announced,
        mode,
    }
}

/// Whether `result` is a ToolSearch answer that loaded tools (or found none).
pub(crate) fn is_search(result: &ToolResult) -> bool {
    result.tool == crate::search::TOOL_NAME && !result.is_error()
}

/// The tools a result's `tool_reference` blocks name.
pub(crate) fn loaded(result: &ToolResult) -> Vec<String> {
    result
        .content
        .to_blocks()
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .filter_map(|block| block.get("tool_name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// A result as text: structured content as its JSON text, blocks as their text, an image
/// named (a Chat Completions tool message carries text only).
pub(crate) fn text(result: &ToolResult) -> String {
    match &result.content {
        ToolOutput::Text(text) => text.clone(),
        ToolOutput::Json(value) => value.to_string(),
        other => other
            .to_blocks()
            .iter()
            .map(|block| match block.get("type").and_then(Value::as_str) {
                Some("text") => block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                Some("image") => format!(
                    "[an image ({}) the tool returned]",
                    block
                        .pointer("/source/media_type")
                        .and_then(Value::as_str)
                        .unwrap_or("image")
                ),
                _ => block.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

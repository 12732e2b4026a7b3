//! OpenAI's function tools: Chat Completions and Responses.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{CHAT_COMPLETIONS_MAX_TOOLS, RenderError, announce, tools_json};
use crate::render::InvalidSchema;
use crate::tool::compare_names;
use crate::{Pool, ToolInfo, ToolOutput, ToolResult};

/// The OpenAI request shape.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OpenAiFormat {
    /// Chat Completions: `{"type":"function","function":{...}}`, at most
    /// [`CHAT_COMPLETIONS_MAX_TOOLS`] tools.
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
    ///   [`responses_tool_search_output`], which carries the loaded definitions, so they are
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
    /// the namespace, and [`parse_response`](crate::conversation::parse_response) joins them
    /// back). With [`Server`](OpenAiToolSearch::Server) search the API then loads a server's
    /// deferred tools together.
    pub namespaces: bool,
}

/// A rendered OpenAI request's tool parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedOpenAi {
    /// The `tools` array, as JSON text.
    pub tools: String,
    /// The `<available-deferred-tools>` message, with client-side tool search.
    pub deferred_tools_message: Option<String>,
    /// How many tools the array holds.
    pub tool_count: usize,
}

#[derive(Serialize)]
struct Function<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a RawValue,
    strict: bool,
}

#[derive(Serialize)]
struct ChatTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: Function<'a>,
}

#[derive(Serialize)]
struct ResponsesFunction<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    function: Function<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    defer_loading: Option<bool>,
}

#[derive(Serialize)]
struct ToolSearchEntry<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    execution: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<&'a RawValue>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Chat(ChatTool<'a>),
    Responses(ResponsesFunction<'a>),
    Search(ToolSearchEntry<'a>),
}

/// What one pool tool becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Function { defer_loading: bool },
    SearchTool,
}

/// Renders OpenAI tools (see [`OpenAiToolSearch`] for what each mode sends).
///
/// ```
/// use toolreg::mcp::load_server;
/// use toolreg::render::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
/// use toolreg::{Catalog, Env, PermissionContext, assemble_tool_pool, builtins, render_openai};
/// use serde_json::{Value, json};
///
/// let listed = json!([{"name": "create_issue", "inputSchema": {"type": "object"}}]);
/// let mcp = load_server("tracker", &listed).tools;
/// let catalog = Catalog::new(builtins().unwrap(), &[]);
/// let pool = assemble_tool_pool(&Env::default(), &PermissionContext::new(), &catalog, &mcp);
/// let options = OpenAiOptions {
///     format: OpenAiFormat::Responses,
///     tool_search: OpenAiToolSearch::Server,
///     ..Default::default()
/// };
/// let rendered = render_openai(&pool, &options).unwrap();
/// let tools: Vec<Value> = serde_json::from_str(&rendered.tools).unwrap();
/// assert!(tools.contains(&json!({"type": "tool_search", "execution": "server"})));
/// let issue = tools.iter().find(|tool| tool["name"] == "mcp__tracker__create_issue").unwrap();
/// assert_eq!(issue["defer_loading"], true);
/// ```
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a schema that is not JSON;
/// [`RenderError::TooManyTools`] for a Chat Completions request past
/// [`CHAT_COMPLETIONS_MAX_TOOLS`]; [`RenderError::Unsupported`] for server-side tool search on
/// Chat Completions.
pub fn render_openai(pool: &Pool, options: &OpenAiOptions) -> Result<RenderedOpenAi, RenderError> {
    let chat = options.format == OpenAiFormat::ChatCompletions;
    if chat && options.tool_search == OpenAiToolSearch::Server {
        return Err(RenderError::Unsupported {
            api: "OpenAI Chat Completions",
            what: "server-side tool search (use the Responses API, or client-side search)",
        });
    }
    let has_search = pool.named(crate::search::TOOL_NAME).is_some();
    let mode = if has_search {
        options.tool_search
    } else {
        OpenAiToolSearch::Off
    };
    let mut chosen: Vec<(&Arc<ToolInfo>, Role)> = Vec::new();
    let mut announced: Vec<&str> = Vec::new();
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
                        announced.push(&tool.name);
                    }
                    None
                }
            }
        };
        if let Some(role) = role {
            chosen.push((tool, role));
        }
    }
    if chat && chosen.len() > CHAT_COMPLETIONS_MAX_TOOLS {
        return Err(RenderError::TooManyTools {
            api: "OpenAI Chat Completions",
            count: chosen.len(),
            limit: CHAT_COMPLETIONS_MAX_TOOLS,
            tool_search: mode != OpenAiToolSearch::Off,
        });
    }
    let mut schemas = Vec::with_capacity(chosen.len());
    for (tool, _) in &chosen {
        schemas.push(schema(tool, options.strict)?);
    }
    let entries: Vec<Entry<'_>> = chosen
        .iter()
        .zip(&schemas)
        .map(|((tool, role), (parameters, strict))| {
            let function = Function {
                name: &tool.name,
                description: &tool.description,
                parameters,
                strict: *strict,
            };
            match (role, chat) {
                (Role::SearchTool, _) => Entry::Search(ToolSearchEntry {
                    kind: "tool_search",
                    execution: if mode == OpenAiToolSearch::Server {
                        "server"
                    } else {
                        "client"
                    },
                    description: (mode == OpenAiToolSearch::Client).then_some(&tool.description),
                    parameters: (mode == OpenAiToolSearch::Client).then_some(parameters),
                }),
                (Role::Function { .. }, true) => Entry::Chat(ChatTool {
                    kind: "function",
                    function,
                }),
                (Role::Function { defer_loading }, false) => Entry::Responses(ResponsesFunction {
                    kind: "function",
                    function,
                    defer_loading: defer_loading.then_some(true),
                }),
            }
        })
        .collect();
    announced.sort_by(|a, b| compare_names(a, b));
    let (tools, tool_count) = if options.namespaces && !chat {
        let rendered: Vec<Value> = serde_json::from_str(&tools_json(&entries)).unwrap_or_default();
        let grouped = super::namespaces::group(rendered, pool);
        (tools_json(&grouped), grouped.len())
    } else {
        (tools_json(&entries), entries.len())
    };
    Ok(RenderedOpenAi {
        tools,
        deferred_tools_message: announce(&announced),
        tool_count,
    })
}

/// The schema a tool is sent with, and whether it is strict.
fn schema(tool: &ToolInfo, strict: bool) -> Result<(Box<RawValue>, bool), InvalidSchema> {
    let (text, is_strict) = match (&tool.strict_input_schema, strict) {
        (Some(strict_schema), true) => (strict_schema, true),
        _ => (&tool.input_schema, false),
    };
    let raw = RawValue::from_string(text.to_string()).map_err(|error| InvalidSchema {
        tool: tool.name.clone(),
        message: error.to_string(),
    })?;
    Ok((raw, is_strict))
}

/// The Responses API's answer to a client-executed `tool_search_call`: a `tool_search_output`
/// input item carrying the definitions of the tools ToolSearch matched (`matches`, from
/// [`SearchOutput::matches`](crate::search::SearchOutput::matches)), as function tools.
/// Names not in `pool` are skipped, and so are tools that are not deferred: the request's
/// `tools` already carries them (`select:Read` loads nothing new).
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a schema that is not JSON.
pub fn responses_tool_search_output(
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
    let mut schemas = Vec::with_capacity(tools.len());
    for tool in &tools {
        schemas.push(schema(tool, strict)?);
    }
    let functions: Vec<ResponsesFunction<'_>> = tools
        .iter()
        .zip(&schemas)
        .map(|(tool, (parameters, strict))| ResponsesFunction {
            kind: "function",
            function: Function {
                name: &tool.name,
                description: &tool.description,
                parameters,
                strict: *strict,
            },
            defer_loading: None,
        })
        .collect();
    Ok(json!({
        "type": "tool_search_output",
        "call_id": call_id,
        "execution": "client",
        "status": "completed",
        "tools": functions_value(&functions),
    }))
}

// Cannot fail: see `tools_json`.
#[allow(clippy::expect_used)]
fn functions_value(functions: &[ResponsesFunction<'_>]) -> Value {
    serde_json::to_value(functions).expect("tool JSON serializes")
}

/// The text of ToolSearch's `tool` message on Chat Completions, which has no tool references:
/// the names it loaded (send them as [`OpenAiOptions::discovered`] from the next request on),
/// or that nothing matched.
pub fn chat_tool_search_text(matches: &[String]) -> String {
    if matches.is_empty() {
        "No matching deferred tools found".to_owned()
    } else {
        format!(
            "Loaded {}. Their definitions are in the tools of the next request.",
            matches.join(", ")
        )
    }
}

/// A tool's result as the OpenAI API takes it back, for the call it answers (`call_name` is the
/// name the model called; the id is the result's `tool_use_id`):
/// * Chat Completions: a `tool` message, its content text (an image is named, since tool
///   messages carry text only);
/// * Responses: a `function_call_output` item, its output text, or text and `input_image`
///   parts;
/// * ToolSearch: on Responses a [`responses_tool_search_output`] (the answer to a
///   client-executed `tool_search_call`), on Chat Completions [`chat_tool_search_text`].
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON.
pub fn openai_tool_result(
    call_name: &str,
    result: &ToolResult,
    format: OpenAiFormat,
    pool: &Pool,
    strict: bool,
) -> Result<Value, RenderError> {
    let id = result.tool_use_id.as_str();
    let blocks = result.content.to_blocks();
    let loaded: Vec<String> = blocks
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .filter_map(|block| block.get("tool_name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect();
    let search = call_name == crate::search::TOOL_NAME && !result.is_error();
    let text = || -> String {
        match &result.content {
            ToolOutput::Text(text) => text.clone(),
            ToolOutput::Json(value) => value.to_string(),
            _ => blocks
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
    };
    Ok(match format {
        OpenAiFormat::Responses if search => {
            responses_tool_search_output(id, &loaded, pool, strict)?
        }
        OpenAiFormat::ChatCompletions => {
            let content = if search {
                chat_tool_search_text(&loaded)
            } else {
                text()
            };
            json!({"role": "tool", "tool_call_id": id, "content": content})
        }
        OpenAiFormat::Responses => match &result.content {
            ToolOutput::Image { media_type, data } => json!({
                "type": "function_call_output",
                "call_id": id,
                "output": [{
                    "type": "input_image",
                    "image_url": format!("data:{media_type};base64,{data}"),
                }],
            }),
            _ => json!({"type": "function_call_output", "call_id": id, "output": text()}),
        },
    })
}

//! Rendering a pool into the tools of a model request.
//!
//! Output is built from the [`SchemaCache`]'s locked bases in pool order and serialized with
//! fields in a fixed order, so the same inputs give the same bytes on any machine, in any
//! locale, with any number of threads.
//!
//! With tool search on there are two strategies ([`DeferStrategy`]):
//! * **discovered only**: every non-deferred tool (ToolSearch among them) in full, plus the
//!   deferred tools the conversation already loaded (named by a `tool_reference`) with
//!   `defer_loading: true`; the other deferred tools are announced by name in a user message
//!   `<available-deferred-tools>…</available-deferred-tools>`;
//! * **all deferred**: every tool, the deferred ones with `defer_loading: true` (the API takes
//!   up to 10,000 tools this way), and no message.
//!
//! With tool search off, ToolSearch is left out and every tool is sent in full.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::cache::{CacheSettings, InvalidSchema, SchemaCache};
use crate::env::Env;
use crate::registry::compare_names;
use crate::tool_info::ToolInfo;
use crate::tool_search;

/// The beta header for deferred loading on the first-party API.
pub const BETA_FIRST_PARTY: &str = "advanced-tool-use-2025-11-20";
/// The beta header for deferred loading on other clouds.
pub const BETA_OTHER_CLOUDS: &str = "tool-search-tool-2025-10-19";
/// What replaces tool references when tool search is off.
pub const REFS_REMOVED_DISABLED: &str = "[Tool references removed - tool search not enabled]";
/// What replaces references to tools that are no longer in the pool.
pub const REFS_REMOVED_GONE: &str = "[Tool references removed - tools no longer available]";

/// How deferred tools are offered when tool search is on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DeferStrategy {
    /// Loaded deferred tools in full, the rest by name in a message.
    #[default]
    DiscoveredOnly,
    /// Every tool, deferred ones with `defer_loading: true`.
    AllDeferred,
}

/// Where `cache_control` goes.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum CacheControl {
    /// Nowhere.
    #[default]
    None,
    /// On the last tool of the array that is not deferred: the API refuses `cache_control` on
    /// a tool with `defer_loading` (a 400), and a deferred tool is not part of the cached
    /// prefix anyway. None when every tool sent is deferred.
    Last(Value),
    /// On the named tools that are not deferred (a named deferred tool carries none, for the
    /// same reason).
    Tools(Vec<String>, Value),
}

/// One request's rendering inputs.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Whether tool search is on for this request (see [`crate::defer`]).
    pub tool_search: bool,
    /// The deferral strategy.
    pub strategy: DeferStrategy,
    /// Deferred tools the conversation already loaded.
    pub discovered: BTreeSet<String>,
    /// The session's base settings.
    pub settings: CacheSettings,
    /// Per-request `cache_control`.
    pub cache_control: CacheControl,
}

/// A rendered request's tool parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedTools {
    /// The `tools` array, as JSON text.
    pub tools: String,
    /// The `<available-deferred-tools>` user message, when the strategy has one.
    pub deferred_tools_message: Option<String>,
    /// The beta header the request needs.
    pub beta: Option<&'static str>,
    /// How many tools the array holds.
    pub tool_count: usize,
}

#[derive(Serialize)]
struct AnthropicTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    strict: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    eager_input_streaming: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    defer_loading: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<&'a Value>,
}

/// Renders the Anthropic Messages API `tools` array for a request.
pub fn render_anthropic(
    env: &Env,
    pool: &[Arc<ToolInfo>],
    cache: &SchemaCache,
    options: &RenderOptions,
) -> Result<RenderedTools, InvalidSchema> {
    let kill_switch = env.tool_search.kill_switch;
    let search_on = options.tool_search && !kill_switch;
    let mut chosen: Vec<(&Arc<ToolInfo>, bool)> = Vec::new();
    let mut announced: Vec<&str> = Vec::new();
    for tool in pool {
        if !search_on {
            if tool.name != tool_search::NAME {
                chosen.push((tool, false));
            }
            continue;
        }
        let deferred = tool.is_deferred();
        match (deferred, options.strategy) {
            (false, _) => chosen.push((tool, false)),
            (true, DeferStrategy::AllDeferred) => chosen.push((tool, true)),
            (true, DeferStrategy::DiscoveredOnly) => {
                if options.discovered.contains(&tool.name) {
                    chosen.push((tool, true));
                } else {
                    announced.push(&tool.name);
                }
            }
        }
    }
    let last = chosen.iter().rposition(|(_, defer_loading)| !defer_loading);
    let mut bases = Vec::with_capacity(chosen.len());
    for (tool, _) in &chosen {
        bases.push(cache.get_or_render(tool, &options.settings)?);
    }
    let rendered: Vec<AnthropicTool<'_>> = chosen
        .iter()
        .zip(&bases)
        .enumerate()
        .map(|(index, ((tool, defer_loading), base))| {
            let cache_control = match &options.cache_control {
                CacheControl::None => None,
                CacheControl::Last(value) => (Some(index) == last).then_some(value),
                CacheControl::Tools(names, value) => {
                    (!defer_loading && names.contains(&tool.name)).then_some(value)
                }
            };
            AnthropicTool {
                name: &base.name,
                description: &base.description,
                input_schema: &base.input_schema,
                strict: if kill_switch { None } else { base.strict },
                eager_input_streaming: if kill_switch {
                    None
                } else {
                    base.eager_input_streaming
                },
                defer_loading: defer_loading.then_some(true),
                cache_control,
            }
        })
        .collect();
    announced.sort_by(|a, b| compare_names(a, b));
    let deferred_tools_message = (!announced.is_empty()).then(|| {
        format!(
            "<available-deferred-tools>\n{}\n</available-deferred-tools>",
            announced.join("\n")
        )
    });
    let uses_deferral =
        search_on && chosen.iter().any(|(_, defer)| *defer) || deferred_tools_message.is_some();
    let beta = uses_deferral.then(|| {
        if env.tool_search.provider.is_first_party() {
            BETA_FIRST_PARTY
        } else {
            BETA_OTHER_CLOUDS
        }
    });
    Ok(RenderedTools {
        tools: tools_json(&rendered),
        deferred_tools_message,
        beta,
        tool_count: rendered.len(),
    })
}

/// The OpenAI request shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenAiFormat {
    /// Chat Completions: `{"type":"function","function":{...}}`.
    ChatCompletions,
    /// Responses: `{"type":"function","name":...}`.
    Responses,
}

#[derive(Serialize)]
struct OpenAiFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a RawValue,
    strict: bool,
}

#[derive(Serialize)]
struct ChatTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: OpenAiFunction<'a>,
}

#[derive(Serialize)]
struct ResponsesTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    function: OpenAiFunction<'a>,
}

/// Renders OpenAI function tools, every tool in full, ToolSearch left out (it returns Anthropic
/// tool references). With `strict`, a tool that has a strict schema is sent with it and
/// `"strict":true`; MCP tools, which have none, are sent with `"strict":false`.
pub fn render_openai(
    pool: &[Arc<ToolInfo>],
    format: OpenAiFormat,
    strict: bool,
) -> Result<String, InvalidSchema> {
    let mut schemas = Vec::new();
    let tools: Vec<&Arc<ToolInfo>> = pool
        .iter()
        .filter(|tool| tool.name != tool_search::NAME)
        .collect();
    for tool in &tools {
        let (schema, is_strict) = match (&tool.strict_input_schema, strict) {
            (Some(strict_schema), true) => (strict_schema, true),
            _ => (&tool.input_schema, false),
        };
        let raw = RawValue::from_string(schema.to_string()).map_err(|error| InvalidSchema {
            tool: tool.name.clone(),
            message: error.to_string(),
        })?;
        schemas.push((raw, is_strict));
    }
    let functions = tools
        .iter()
        .zip(&schemas)
        .map(|(tool, (schema, is_strict))| OpenAiFunction {
            name: &tool.name,
            description: &tool.description,
            parameters: schema,
            strict: *is_strict,
        });
    let text = match format {
        OpenAiFormat::ChatCompletions => tools_json(
            &functions
                .map(|function| ChatTool {
                    kind: "function",
                    function,
                })
                .collect::<Vec<_>>(),
        ),
        OpenAiFormat::Responses => tools_json(
            &functions
                .map(|function| ResponsesTool {
                    kind: "function",
                    function,
                })
                .collect::<Vec<_>>(),
        ),
    };
    Ok(text)
}

/// A rendered `tools` array as JSON text.
// Cannot fail: the tool structs hold only strings, booleans, options, `RawValue`s (already
// parsed as JSON) and `Value`s (string keys), which serde_json always serializes.
#[allow(clippy::expect_used)]
fn tools_json<T: Serialize + ?Sized>(tools: &T) -> String {
    serde_json::to_string(tools).expect("tool JSON serializes")
}

fn for_each_content_array(messages: &mut [Value], mut visit: impl FnMut(&mut Vec<Value>)) {
    for message in messages {
        let Some(Value::Array(blocks)) = message.get_mut("content") else {
            continue;
        };
        for block in blocks {
            if block.get("type").and_then(Value::as_str) == Some("tool_result")
                && let Some(Value::Array(inner)) = block.get_mut("content")
            {
                visit(inner);
            }
        }
    }
}

fn reference_name(block: &Value) -> Option<&str> {
    (block.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .then(|| block.get("tool_name").and_then(Value::as_str))
        .flatten()
}

/// The names of the tools loaded by `tool_reference` blocks in a conversation's messages
/// (inside `tool_result` content).
pub fn discovered_tools(messages: &[Value]) -> BTreeSet<String> {
    messages
        .iter()
        .filter_map(|message| message.get("content")?.as_array())
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_result"))
        .filter_map(|block| block.get("content")?.as_array())
        .flatten()
        .filter_map(reference_name)
        .map(str::to_owned)
        .collect()
}

/// Rewrites `tool_reference` blocks the next request cannot carry: all of them when tool search
/// is off, those naming tools outside `pool` when it is on. Each run of removed references
/// becomes one text block saying why. Returns how many references were removed.
pub fn rewrite_tool_references(
    messages: &mut [Value],
    tool_search: bool,
    pool: &[Arc<ToolInfo>],
) -> usize {
    let mut removed = 0;
    for_each_content_array(messages, |blocks| {
        let mut out: Vec<Value> = Vec::with_capacity(blocks.len());
        let mut in_run = false;
        for block in blocks.drain(..) {
            let drop_reason = reference_name(&block).and_then(|name| {
                if !tool_search {
                    Some(REFS_REMOVED_DISABLED)
                } else if !pool.iter().any(|tool| tool.name == name) {
                    Some(REFS_REMOVED_GONE)
                } else {
                    None
                }
            });
            match drop_reason {
                Some(reason) => {
                    removed += 1;
                    if !in_run {
                        out.push(serde_json::json!({"type": "text", "text": reason}));
                    }
                    in_run = true;
                }
                None => {
                    out.push(block);
                    in_run = false;
                }
            }
        }
        *blocks = out;
    });
    removed
}

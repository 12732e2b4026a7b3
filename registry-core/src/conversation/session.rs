//! A conversation: the history, the deferred tools it discovered, the next request's tools
//! and messages, and tool changes that keep the prompt cache.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::response::discovered_in_output_tool;
use super::{Api, ModelResponse, ResponseError, parse_response};
use crate::render::{BETA_HEADER, OpenAiFormat, OpenAiOptions, RenderError, discovered_tools};
use crate::{Env, Pool, RenderOptions, SchemaCache, Turn, render_anthropic, render_openai};

/// The beta that lets a conversation add and remove tools between requests.
pub const TOOL_CHANGES_BETA: &str = "mid-conversation-tool-changes-2026-07-01";
/// The beta that lets a `tool_addition` carry the tool's definition.
pub const INLINE_TOOLS_BETA: &str = "inline-tools-2026-09-15";

/// The parts of the next request a conversation decides: `tools` and the history (`messages`,
/// or `input` for Responses), and the headers they need. The caller adds the rest (`model`,
/// `max_tokens`, `system`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// `tools` and `messages` / `input`.
    pub body: Map<String, Value>,
    /// Headers the body needs (`anthropic-beta`).
    pub headers: Vec<(String, String)>,
}

/// A conversation with one model API.
///
/// Each turn: [`push_user`](Self::push_user) or the previous answers, then
/// [`request`](Self::request) for the next request's parts, [`receive`](Self::receive) for the
/// response, [`answer`](Self::answer) with the turn that ran its calls.
///
/// The deferred tools it discovered are read from its history as the design reads them:
/// `tool_reference` blocks in earlier `tool_result`s and the API's own search results
/// (Anthropic), `tool_search_output` items (Responses); Chat Completions has no such blocks, so
/// the conversation notes what its ToolSearch results loaded.
///
/// With [tool changes](Self::with_tool_changes) on (Anthropic), the first request's `tools`
/// are sent unchanged on every later request: a tool that appears later (discovered, or a new
/// MCP server's) enters as a `tool_addition` block carrying its definition, a tool that leaves
/// as a `tool_removal`, and newly deferred tools are announced in the same user message. The
/// history only grows, so every request's bytes are the start of the next one's.
#[derive(Debug)]
pub struct Conversation {
    api: Api,
    history: Vec<Value>,
    anthropic: RenderOptions,
    openai: OpenAiOptions,
    cache: SchemaCache,
    /// Chat Completions: the tools its ToolSearch results loaded.
    noted: BTreeSet<String>,
    tool_changes: bool,
    /// With tool changes: the first request's `tools` and what is declared now, by name.
    frozen: Option<Frozen>,
}

#[derive(Debug, Clone)]
struct Frozen {
    tools: Value,
    declared: BTreeMap<String, Value>,
    announced: BTreeSet<String>,
    announcement: Option<String>,
}

impl Conversation {
    /// An Anthropic Messages conversation rendered with `options` (its `discovered` set is the
    /// conversation's own).
    pub fn anthropic(options: RenderOptions) -> Self {
        Self::new(Api::Anthropic, options, OpenAiOptions::default())
    }

    /// An OpenAI conversation in `options.format`.
    pub fn openai(options: OpenAiOptions) -> Self {
        let api = match options.format {
            OpenAiFormat::ChatCompletions => Api::ChatCompletions,
            OpenAiFormat::Responses => Api::Responses,
        };
        Self::new(api, RenderOptions::default(), options)
    }

    fn new(api: Api, anthropic: RenderOptions, openai: OpenAiOptions) -> Self {
        Conversation {
            api,
            history: Vec::new(),
            anthropic,
            openai,
            cache: SchemaCache::new(),
            noted: BTreeSet::new(),
            tool_changes: false,
            frozen: None,
        }
    }

    /// Anthropic: keep the first request's `tools` and send later changes as `tool_addition`
    /// and `tool_removal` blocks (the [`TOOL_CHANGES_BETA`] and [`INLINE_TOOLS_BETA`] betas).
    pub fn with_tool_changes(mut self, on: bool) -> Self {
        self.tool_changes = on && self.api == Api::Anthropic;
        self
    }

    /// The API.
    pub fn api(&self) -> Api {
        self.api
    }

    /// The history, as the next request sends it.
    pub fn history(&self) -> &[Value] {
        &self.history
    }

    /// Adds the user's message.
    pub fn push_user(&mut self, text: &str) {
        self.history.push(json!({"role": "user", "content": text}));
    }

    /// The deferred tools the conversation loaded so far.
    pub fn discovered(&self) -> BTreeSet<String> {
        match self.api {
            Api::Anthropic => {
                let mut found = discovered_tools(&self.history);
                for message in &self.history {
                    let blocks = message.get("content").and_then(Value::as_array);
                    for block in blocks.into_iter().flatten() {
                        if block.get("type").and_then(Value::as_str)
                            != Some("tool_search_tool_result")
                        {
                            continue;
                        }
                        let references = block.pointer("/content/tool_references");
                        for reference in references.and_then(Value::as_array).into_iter().flatten()
                        {
                            if let Some(name) = reference.get("tool_name").and_then(Value::as_str) {
                                found.insert(name.to_owned());
                            }
                        }
                    }
                }
                found
            }
            Api::ChatCompletions => self.noted.clone(),
            Api::Responses => {
                let mut found = Vec::new();
                for item in &self.history {
                    if item.get("type").and_then(Value::as_str) == Some("tool_search_output") {
                        for tool in item
                            .get("tools")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                        {
                            discovered_in_output_tool(tool, &mut found);
                        }
                    }
                }
                found.into_iter().collect()
            }
        }
    }

    /// Reads the model's response and keeps it in the history.
    ///
    /// # Errors
    /// As [`parse_response`].
    pub fn receive(&mut self, body: &Value) -> Result<ModelResponse, ResponseError> {
        let response = parse_response(self.api, body)?;
        self.history.extend(response.history.iter().cloned());
        Ok(response)
    }

    /// Keeps the answers to `response`'s calls in the history.
    ///
    /// # Errors
    /// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON.
    pub fn answer(
        &mut self,
        response: &ModelResponse,
        turn: &Turn,
        pool: &Pool,
    ) -> Result<(), RenderError> {
        let messages = turn.to_messages(response, pool, self.openai.strict)?;
        if self.api == Api::ChatCompletions {
            for result in turn.results.iter().filter(|result| !result.is_error()) {
                let blocks = result.content.to_blocks();
                for block in &blocks {
                    if block.get("type").and_then(Value::as_str) == Some("tool_reference")
                        && let Some(name) = block.get("tool_name").and_then(Value::as_str)
                    {
                        self.noted.insert(name.to_owned());
                    }
                }
            }
        }
        self.history.extend(messages);
        Ok(())
    }

    /// The next request's `tools`, history and headers, for `pool` under `env`.
    ///
    /// # Errors
    /// As [`render_anthropic`] and [`render_openai`].
    pub fn request(&mut self, env: &Env, pool: &Pool) -> Result<Request, RenderError> {
        let discovered = self.discovered();
        let mut body = Map::new();
        let mut headers = Vec::new();
        match self.api {
            Api::Anthropic => {
                let options = RenderOptions {
                    discovered,
                    ..self.anthropic.clone()
                };
                let rendered = render_anthropic(env, pool, &self.cache, &options)?;
                let tools: Value = serde_json::from_str(&rendered.tools).unwrap_or_default();
                let mut betas: Vec<&str> = rendered.beta.into_iter().collect();
                let messages = if self.tool_changes {
                    betas.extend([TOOL_CHANGES_BETA, INLINE_TOOLS_BETA]);
                    let announcement = rendered.deferred_tools_message.clone();
                    let tools = self.apply_changes(tools, announcement);
                    body.insert("tools".into(), tools);
                    self.messages(self.frozen.as_ref().and_then(|f| f.announcement.clone()))
                } else {
                    body.insert("tools".into(), tools);
                    self.messages(rendered.deferred_tools_message)
                };
                body.insert("messages".into(), Value::Array(messages));
                if !betas.is_empty() {
                    headers.push((BETA_HEADER.to_owned(), betas.join(",")));
                }
            }
            Api::ChatCompletions | Api::Responses => {
                let options = OpenAiOptions {
                    discovered,
                    ..self.openai.clone()
                };
                let rendered = render_openai(pool, &options)?;
                let tools: Value = serde_json::from_str(&rendered.tools).unwrap_or_default();
                body.insert("tools".into(), tools);
                let key = if self.api == Api::Responses {
                    "input"
                } else {
                    "messages"
                };
                let messages = self.messages(rendered.deferred_tools_message);
                body.insert(key.into(), Value::Array(messages));
            }
        }
        Ok(Request { body, headers })
    }

    /// The history after the deferred tools' announcement, if any.
    fn messages(&self, announcement: Option<String>) -> Vec<Value> {
        announcement
            .map(|text| json!({"role": "user", "content": text}))
            .into_iter()
            .chain(self.history.iter().cloned())
            .collect()
    }

    /// With tool changes: the first request's tools; the differences since, as blocks at the
    /// end of the last user message of the history.
    fn apply_changes(&mut self, tools: Value, announcement: Option<String>) -> Value {
        let current: BTreeMap<String, Value> = tools
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tool| Some((tool.get("name")?.as_str()?.to_owned(), tool.clone())))
            .collect();
        let announced = announced_names(announcement.as_deref());
        let Some(frozen) = &mut self.frozen else {
            self.frozen = Some(Frozen {
                tools: tools.clone(),
                declared: current,
                announced,
                announcement,
            });
            return tools;
        };
        let mut blocks = Vec::new();
        for (name, definition) in &frozen.declared {
            if current.get(name) != Some(definition) {
                blocks.push(json!({"type": "tool_removal", "tool": {"type": "tool_reference", "name": name}}));
            }
        }
        for (name, definition) in &current {
            if frozen.declared.get(name) != Some(definition) {
                blocks.push(json!({"type": "tool_addition", "tool": {"type": "tool_definition", "definition": definition}}));
            }
        }
        let new: Vec<&String> = announced.difference(&frozen.announced).collect();
        if !new.is_empty() {
            let names: Vec<&str> = new.iter().map(|name| name.as_str()).collect();
            blocks.push(json!({"type": "text", "text": format!(
                "<available-deferred-tools>\n{}\n</available-deferred-tools>",
                names.join("\n")
            )}));
        }
        frozen.declared = current;
        frozen.announced.extend(announced);
        let tools = frozen.tools.clone();
        if !blocks.is_empty() {
            self.append_to_last_user_message(blocks);
        }
        tools
    }

    fn append_to_last_user_message(&mut self, blocks: Vec<Value>) {
        let last = self
            .history
            .iter_mut()
            .rev()
            .find(|message| message.get("role").and_then(Value::as_str) == Some("user"));
        let Some(message) = last else {
            self.history
                .push(json!({"role": "user", "content": blocks}));
            return;
        };
        let Some(fields) = message.as_object_mut() else {
            return;
        };
        let content = fields.entry("content").or_insert_with(|| json!([]));
        if let Value::String(text) = content {
            *content = json!([{"type": "text", "text": text}]);
        }
        if let Some(list) = content.as_array_mut() {
            list.extend(blocks);
        }
    }
}

/// The names an `<available-deferred-tools>` message lists.
fn announced_names(message: Option<&str>) -> BTreeSet<String> {
    message
        .into_iter()
        .flat_map(str::lines)
        .filter(|line| !line.starts_with('<') && !line.is_empty())
        .map(str::to_owned)
        .collect()
}

//! A conversation: the history, the deferred tools it discovered, and the next request's tools
//! and messages, each step done by the API's wire module.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::wire::anthropic::changes::{ToolChanges, append_to_last_user_message};
use crate::wire::anthropic::{
    BETA_HEADER, INLINE_TOOLS_BETA, TOOL_CHANGES_BETA, rewrite_tool_references,
};
use crate::wire::openai::{OpenAiFormat, OpenAiOptions};
use crate::wire::{
    Api, ModelResponse, RenderError, ResponseError, answer, anthropic, chat_completions,
    parse_response, responses,
};
use crate::{Env, Pool, RenderOptions, SchemaCache, Turn, render_anthropic, render_openai};

/// The parts of the next request a conversation decides: `tools`, the history (`messages`, or
/// `input` for Responses), the system prompt where the API reads it, and the headers they need.
/// The caller adds the rest (`model`, `max_tokens`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// `tools` and `messages` / `input`, and `system` / `instructions`.
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
/// the conversation notes what its ToolSearch results loaded. A conversation recorded earlier
/// goes on with [`with_history`](Self::with_history) (and, for Chat Completions, the tools it
/// loaded with [`with_discovered`](Self::with_discovered)).
///
/// A tool the history loaded but the next request cannot offer is taken out of that request
/// (not of the history): an Anthropic `tool_reference` block naming a tool that left the pool
/// (its server went away, say), or every one when tool search is off, becomes a text block
/// saying so; a Responses `tool_search_output` item loses that tool's definition. With tool changes on, the
/// history is sent as it is, and a tool that left is declared by its `tool_removal` block.
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
    /// Deferred tools loaded beyond what the history shows: Chat Completions' ToolSearch
    /// results, and those [`with_discovered`](Self::with_discovered) names.
    noted: BTreeSet<String>,
    /// Anthropic with tool changes on: what the conversation declared so far.
    changes: Option<ToolChanges>,
    /// The system prompt ([`with_system`](Self::with_system)).
    system: Option<String>,
    /// Anthropic: the code execution container the last response ran in.
    container: Option<String>,
}

impl Conversation {
    /// An Anthropic Messages conversation rendered with `options` (its `discovered` set is the
    /// conversation's own; [`with_discovered`](Self::with_discovered) adds to it).
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
            changes: None,
            system: None,
            container: None,
        }
    }

    /// Anthropic: keep the first request's `tools` and send later changes as `tool_addition`
    /// and `tool_removal` blocks (the [`TOOL_CHANGES_BETA`] and [`INLINE_TOOLS_BETA`] betas).
    pub fn with_tool_changes(mut self, on: bool) -> Self {
        self.changes = (on && self.api == Api::Anthropic).then(ToolChanges::default);
        self
    }

    /// Goes on from `history`, a conversation in the API's form (`messages`, or `input` for
    /// Responses) recorded earlier: the next request sends it, and the deferred tools it loaded
    /// stay loaded.
    pub fn with_history(mut self, history: Vec<Value>) -> Self {
        self.history = history;
        self
    }

    /// Deferred tools loaded earlier in ways the history does not show (a Chat Completions
    /// history names no tool its ToolSearch loaded).
    pub fn with_discovered(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.noted.extend(names);
        self
    }

    /// The system prompt, sent with every request where the API reads it: Anthropic's
    /// `system`, a first `system` message in Chat Completions (newer models read it as the
    /// developer message), Responses' `instructions`. It is not part of the history.
    ///
    /// ```
    /// use toolreg::conversation::Conversation;
    /// use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
    /// use toolreg::{Env, Pool};
    ///
    /// let options = OpenAiOptions { format: OpenAiFormat::Responses, ..Default::default() };
    /// let mut conversation = Conversation::openai(options).with_system("Answer in French.");
    /// conversation.push_user("What is in notes.txt?");
    /// let request = conversation.request(&Env::default(), &Pool::default()).unwrap();
    /// assert_eq!(request.body["instructions"], "Answer in French.");
    /// ```
    pub fn with_system(mut self, text: impl Into<String>) -> Self {
        self.system = Some(text.into());
        self
    }

    /// Anthropic: goes on in the code execution container `id` (a response's `container.id`,
    /// which [`receive`](Self::receive) keeps by itself): the next requests name it.
    pub fn with_container(mut self, id: impl Into<String>) -> Self {
        self.container = Some(id.into());
        self
    }

    /// The code execution container the next request names, if any.
    pub fn container(&self) -> Option<&str> {
        self.container.as_deref()
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
        let mut found = match self.api {
            Api::Anthropic => anthropic::discovered(&self.history),
            Api::ChatCompletions => BTreeSet::new(),
            Api::Responses => responses::discovered(&self.history),
        };
        found.extend(self.noted.iter().cloned());
        found
    }

    /// Reads the model's response and keeps it in the history (every block, the API's own
    /// tools' included), and the code execution container it ran in.
    ///
    /// # Errors
    /// As [`parse_response`].
    pub fn receive(&mut self, body: &Value) -> Result<ModelResponse, ResponseError> {
        let response = parse_response(self.api, body)?;
        self.history.extend(response.history.iter().cloned());
        if let Some(container) = &response.container {
            self.container = Some(container.clone());
        }
        Ok(response)
    }

    /// Keeps the answers to `response`'s calls ([`answer`](crate::wire::answer)) in the
    /// history.
    ///
    /// # Errors
    /// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON.
    pub fn answer(
        &mut self,
        response: &ModelResponse,
        turn: &Turn,
        pool: &Pool,
    ) -> Result<(), RenderError> {
        let messages = answer(response.api, turn, pool, self.openai.strict)?;
        if self.api == Api::ChatCompletions {
            self.noted.extend(chat_completions::loaded_tools(turn));
        }
        self.history.extend(messages);
        Ok(())
    }

    /// The next request's `tools`, history and headers, for `pool` under `env`.
    ///
    /// # Errors
    /// As [`render_anthropic`] and [`render_openai`], and
    /// [`RenderError::InvalidSchema`] for a schema a `serde_json::Value` cannot hold.
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
                let tools = rendered.tools.to_value()?;
                let mut betas: Vec<&str> = rendered.beta.into_iter().collect();
                let announcement = match &mut self.changes {
                    Some(changes) => {
                        betas.extend([TOOL_CHANGES_BETA, INLINE_TOOLS_BETA]);
                        let announcement = rendered.deferred_tools_message;
                        let (tools, blocks) = changes.apply(tools, announcement);
                        if !blocks.is_empty() {
                            append_to_last_user_message(&mut self.history, blocks);
                        }
                        body.insert("tools".into(), tools);
                        changes.announcement()
                    }
                    None => {
                        body.insert("tools".into(), tools);
                        rendered.deferred_tools_message
                    }
                };
                let mut messages = self.messages(announcement);
                if self.changes.is_none() {
                    rewrite_tool_references(&mut messages, options.tool_search, pool);
                }
                body.insert("messages".into(), Value::Array(messages));
                if let Some(system) = &self.system {
                    body.insert("system".into(), system.as_str().into());
                }
                if let Some(container) = &self.container {
                    body.insert("container".into(), container.as_str().into());
                }
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
                body.insert("tools".into(), rendered.tools.to_value()?);
                let key = if self.api == Api::Responses {
                    "input"
                } else {
                    "messages"
                };
                let mut messages = self.messages(rendered.deferred_tools_message);
                if self.api == Api::Responses {
                    responses::drop_tools_outside(&mut messages, pool);
                }
                match (&self.system, self.api) {
                    (Some(system), Api::Responses) => {
                        body.insert("instructions".into(), system.as_str().into());
                    }
                    (Some(system), _) => {
                        messages.insert(0, json!({"role": "system", "content": system}));
                    }
                    (None, _) => {}
                }
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
}

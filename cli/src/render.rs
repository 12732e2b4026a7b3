//! `toolreg render`: the next model request, as `{"headers": {...}, "body": {...}}`.

use std::collections::BTreeSet;
use std::process::ExitCode;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use toolreg::env::Betas;
use toolreg::search::{RequestModel, is_tool_search_enabled, tool_search_needed};
use toolreg::wire::anthropic::{self, BETA_HEADER, CacheControl, CacheSettings, ServerSearch};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::{RenderOptions, SchemaCache};

use crate::cli::{BetaSet, DeferStrategy, Format, RenderArgs};
use crate::commands::out;
use crate::setup::{Setup, read_capped};

type Result<T> = std::result::Result<T, String>;

/// The largest `--messages` file read: 64 MiB.
const MAX_MESSAGES_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The user message of a request rendered without a conversation.
const PLACEHOLDER_PROMPT: &str = "(the user's request)";

#[derive(Serialize)]
struct Request<'a, B: Serialize> {
    headers: Map<String, Value>,
    body: &'a B,
}

#[derive(Serialize)]
struct AnthropicBody<'a> {
    model: &'a str,
    max_tokens: u64,
    messages: &'a [Value],
    tools: &'a RawValue,
}

#[derive(Serialize)]
struct ChatBody<'a> {
    model: &'a str,
    messages: &'a [Value],
    tools: &'a RawValue,
}

#[derive(Serialize)]
struct ResponsesBody<'a> {
    model: &'a str,
    input: &'a [Value],
    tools: &'a RawValue,
}

/// Prints the request the pool and the conversation make.
pub fn render(setup: &Setup, args: &RenderArgs) -> Result<ExitCode> {
    let env = &setup.env;
    let openai = args.format != Format::Anthropic;
    let model = args.model.as_deref().unwrap_or(if openai {
        "gpt-5.4"
    } else {
        "claude-sonnet-4-5"
    });
    let tool_search = is_tool_search_enabled(
        env,
        &setup.pool,
        &RequestModel::new(model, args.context_window),
    ) && tool_search_needed(&setup.pool, 0);
    let mut conversation = match &args.messages {
        Some(path) => read_messages(path)?,
        None => Vec::new(),
    };
    let mut discovered: BTreeSet<String> = args
        .discovered
        .iter()
        .map(|name| name.trim())
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    let mut headers = Map::new();
    let text = match args.format {
        Format::Anthropic => {
            let strategy = match args.strategy {
                DeferStrategy::Discovered => anthropic::DeferStrategy::DiscoveredOnly,
                DeferStrategy::AllDeferred => anthropic::DeferStrategy::AllDeferred,
                DeferStrategy::ServerBm25 => anthropic::DeferStrategy::Server(ServerSearch::Bm25),
                DeferStrategy::ServerRegex => anthropic::DeferStrategy::Server(ServerSearch::Regex),
                DeferStrategy::Server => {
                    return Err(
                        "--strategy server is the OpenAI Responses API's hosted tool \
                                search; the Anthropic API's are server-bm25 and server-regex"
                            .into(),
                    );
                }
            };
            discovered.extend(anthropic::discovered_tools(&conversation));
            anthropic::rewrite_tool_references(&mut conversation, tool_search, &setup.pool);
            let options = RenderOptions {
                tool_search,
                strategy,
                discovered,
                settings: CacheSettings {
                    strict_tools: args.strict,
                    model_supports_strict: args.strict,
                    first_party: env.tool_search.provider.is_first_party(),
                    eager_input_streaming: false,
                },
                cache_control: CacheControl::None,
                betas: match args.betas {
                    BetaSet::Current => Some(Betas::CURRENT),
                    BetaSet::Profile => None,
                },
            };
            let rendered =
                toolreg::render_anthropic(env, &setup.pool, &SchemaCache::new(), &options)
                    .map_err(|error| error.to_string())?;
            if let Some(beta) = rendered.beta {
                headers.insert(BETA_HEADER.into(), json!(beta));
            }
            let messages = with_announcement(rendered.deferred_tools_message, conversation);
            let tools = raw(rendered.tools.to_json())?;
            let body = AnthropicBody {
                model,
                max_tokens: args.max_tokens,
                messages: &messages,
                tools: &tools,
            };
            to_text(&Request {
                headers,
                body: &body,
            })
        }
        Format::Openai | Format::OpenaiResponses => {
            let format = if args.format == Format::Openai {
                OpenAiFormat::ChatCompletions
            } else {
                OpenAiFormat::Responses
            };
            let mode = match (tool_search, args.strategy) {
                (false, _) => OpenAiToolSearch::Off,
                (true, DeferStrategy::Discovered) => OpenAiToolSearch::Client,
                (true, DeferStrategy::Server) => OpenAiToolSearch::Server,
                (true, other) => {
                    return Err(format!(
                        "--strategy {} is the Anthropic API's; OpenAI takes discovered (client \
                         tool search) or, on Responses, server",
                        strategy_name(other)
                    ));
                }
            };
            let options = OpenAiOptions {
                format,
                strict: args.strict,
                tool_search: mode,
                discovered,
                namespaces: args.namespaces,
            };
            let rendered =
                toolreg::render_openai(&setup.pool, &options).map_err(|error| error.to_string())?;
            let items = with_announcement(rendered.deferred_tools_message, conversation);
            let tools = raw(rendered.tools.to_json())?;
            match format {
                OpenAiFormat::ChatCompletions => to_text(&Request {
                    headers,
                    body: &ChatBody {
                        model,
                        messages: &items,
                        tools: &tools,
                    },
                }),
                OpenAiFormat::Responses => to_text(&Request {
                    headers,
                    body: &ResponsesBody {
                        model,
                        input: &items,
                        tools: &tools,
                    },
                }),
            }
        }
    };
    out(&text?)
}

fn strategy_name(strategy: DeferStrategy) -> &'static str {
    match strategy {
        DeferStrategy::Discovered => "discovered",
        DeferStrategy::AllDeferred => "all-deferred",
        DeferStrategy::ServerBm25 => "server-bm25",
        DeferStrategy::ServerRegex => "server-regex",
        DeferStrategy::Server => "server",
    }
}

/// The deferred-tools announcement (a user message) first, then the conversation; a
/// placeholder user message when both are empty, since a request needs one.
fn with_announcement(announcement: Option<String>, conversation: Vec<Value>) -> Vec<Value> {
    let mut messages: Vec<Value> = announcement
        .map(|text| json!({"role": "user", "content": text}))
        .into_iter()
        .collect();
    messages.extend(conversation);
    if messages.is_empty() {
        messages.push(json!({"role": "user", "content": PLACEHOLDER_PROMPT}));
    }
    messages
}

fn read_messages(path: &std::path::Path) -> Result<Vec<Value>> {
    let text = read_capped(path, MAX_MESSAGES_FILE_BYTES)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    match serde_json::from_str(&text) {
        Ok(Value::Array(messages)) => Ok(messages),
        Ok(_) => Err(format!(
            "{}: expected a JSON array of messages",
            path.display()
        )),
        Err(error) => Err(format!("{}: not JSON: {error}", path.display())),
    }
}

fn raw(text: String) -> Result<Box<RawValue>> {
    RawValue::from_string(text).map_err(|error| format!("rendered tools are not JSON: {error}"))
}

fn to_text<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|error| error.to_string())
}

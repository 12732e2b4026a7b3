//! `toolreg render`: the next model request, as `{"headers": {...}, "body": {...}}`.

use std::collections::BTreeSet;
use std::process::ExitCode;

use serde_json::{Map, Value, json};
use toolreg::conversation::Conversation;
use toolreg::env::Betas;
use toolreg::search::{RequestModel, is_tool_search_enabled, tool_search_needed};
use toolreg::wire::anthropic::{self, CacheControl, CacheSettings, ServerSearch};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::{Env, RenderOptions};

use crate::cli::{BetaSet, DeferStrategy, Format, RenderArgs};
use crate::commands::out;
use crate::setup::{Setup, read_capped};

type Result<T> = std::result::Result<T, String>;

/// The largest `--messages` file read: 64 MiB.
const MAX_MESSAGES_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The user message of a request rendered without a conversation.
const PLACEHOLDER_PROMPT: &str = "(the user's request)";

/// Prints the request the pool and the conversation make: a library [`Conversation`] going on
/// from `--messages`, with the model's fields added.
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
    let history = match &args.messages {
        Some(path) => read_messages(path)?,
        None => Vec::new(),
    };
    let discovered = args
        .discovered
        .iter()
        .map(|name| name.trim())
        .filter(|name| !name.is_empty())
        .map(str::to_owned);
    let conversation = match args.format {
        Format::Anthropic => Conversation::anthropic(anthropic_options(env, args, tool_search)?),
        Format::Openai | Format::OpenaiResponses => {
            Conversation::openai(openai_options(args, tool_search)?)
        }
    };
    let mut conversation = conversation
        .with_history(history)
        .with_discovered(discovered);
    let request = conversation
        .request(env, &setup.pool)
        .map_err(|error| error.to_string())?;
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    if !openai {
        body.insert("max_tokens".into(), json!(args.max_tokens));
    }
    body.extend(request.body);
    let history_key = if args.format == Format::OpenaiResponses {
        "input"
    } else {
        "messages"
    };
    // A request needs a user message.
    if let Some(Value::Array(messages)) = body.get_mut(history_key)
        && messages.is_empty()
    {
        messages.push(json!({"role": "user", "content": PLACEHOLDER_PROMPT}));
    }
    let headers: Map<String, Value> = (request.headers.into_iter())
        .map(|(name, value)| (name, Value::String(value)))
        .collect();
    let text = serde_json::to_string(&json!({"headers": headers, "body": body}))
        .map_err(|error| error.to_string())?;
    out(&text)
}

/// The Anthropic options of the command line.
fn anthropic_options(env: &Env, args: &RenderArgs, tool_search: bool) -> Result<RenderOptions> {
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
    Ok(RenderOptions {
        tool_search,
        strategy,
        discovered: BTreeSet::new(),
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
    })
}

/// The OpenAI options of the command line.
fn openai_options(args: &RenderArgs, tool_search: bool) -> Result<OpenAiOptions> {
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
    Ok(OpenAiOptions {
        format,
        strict: args.strict,
        tool_search: mode,
        discovered: BTreeSet::new(),
        namespaces: args.namespaces,
    })
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

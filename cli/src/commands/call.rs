//! `call` and `turn`: tools run through the dispatcher.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::wire::{
    self,
    openai::{OpenAiFormat, OpenAiOptions},
};
use toolreg::{Dispatcher, RenderOptions, SearchEngine, Strategy, ToolCall, TurnOptions};

use super::{Result, out};
use crate::cli::{Format, TurnArgs};
use crate::setup::Setup;

/// The largest `turn` input read: 64 MiB.
const MAX_TURN_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The dispatcher for the pool: the CLI's working directory, the in-memory host, the seed
/// search engine, the live servers of `--mcp-config` (the tools of `--mcp` files have no
/// server to call), the OS sandbox for Bash unless `--no-sandbox` (probed here, so only the
/// commands that run tools probe it), the environment commands see (secrets and toolreg's own
/// variables dropped, `--keep-env` kept), and no approver (a call that asks is refused). Its
/// rules keep the credentials file, the `--mcp-config` file and the `secrets` (a tokens file)
/// out of every tool's reach ([`crate::safeguard`]).
pub(crate) fn dispatcher(setup: &Setup, secrets: &[&std::path::Path]) -> Result<Dispatcher> {
    let cwd = std::env::current_dir().map_err(|error| error.to_string())?;
    let engine = SearchEngine::new(setup.pool.to_vec(), Strategy::Keyword);
    let mut rules = setup.rules.clone();
    let secrets: Vec<&std::path::Path> = (secrets.iter().copied())
        .chain(setup.mcp_config.as_deref())
        .collect();
    crate::safeguard::protect(&mut rules, &crate::safeguard::files(&secrets), &cwd);
    let dispatcher = Dispatcher::new(setup.env.clone(), rules, setup.pool.clone(), cwd)
        .with_state(toolreg_tools::default_state())
        .with_searcher(Arc::new(engine))
        .with_sandboxing(setup.sandbox.detect())
        .with_environment(setup.environment.clone());
    #[cfg(feature = "mcp")]
    let dispatcher = match &setup.live {
        Some(hub) => dispatcher.with_mcp(hub.clone()),
        None => dispatcher,
    };
    Ok(dispatcher)
}

/// Runs one call and prints its result for the API of `format`, answering call `id`.
pub(super) fn call(
    setup: &Setup,
    name: &str,
    input: &str,
    (format, id, strict): (Format, &str, bool),
) -> Result<ExitCode> {
    // serde_json's message already ends with "at line L column C".
    let input: Value =
        serde_json::from_str(input).map_err(|error| format!("--input is not JSON: {error}"))?;
    let dispatcher = dispatcher(setup, &[])?;
    let call = ToolCall::new(id, name, input);
    let result = setup.runtime.block_on(dispatcher.dispatch(&call));
    let printed = match format {
        Format::Anthropic => wire::anthropic::tool_result(&result),
        Format::Openai => wire::chat_completions::tool_message(&result),
        Format::OpenaiResponses => wire::responses::tool_output(&result, &setup.pool, strict)
            .map_err(|error| error.to_string())?,
    };
    out(&serde_json::to_string_pretty(&printed).map_err(|e| e.to_string())?)
}

/// The tool_use blocks of a JSON array of blocks, or of an assistant message's content.
pub(super) fn turn(setup: &Setup, args: &TurnArgs) -> Result<ExitCode> {
    let text = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(std::io::stdin(), MAX_TURN_FILE_BYTES + 1),
            &mut text,
        )
        .map_err(|error| format!("standard input: {error}"))?;
        if text.len() as u64 > MAX_TURN_FILE_BYTES {
            return Err(format!(
                "standard input: larger than the {MAX_TURN_FILE_BYTES}-byte limit"
            ));
        }
        text
    } else {
        crate::setup::read_capped(&args.file, MAX_TURN_FILE_BYTES)
            .map_err(|error| format!("{}: {error}", args.file.display()))?
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|error| format!("{}: not JSON: {error}", args.file.display()))?;
    let (mut conversation, body) = response_of(args, &value)?;
    let response = conversation
        .receive(&body)
        .map_err(|error| format!("{}: {error}", args.file.display()))?;
    let options = turn_options(args)?;
    let dispatcher = dispatcher(setup, &[])?;
    let turn = setup
        .runtime
        .block_on(dispatcher.run_turn(&response.calls, &options));
    if args.stats {
        let ms = |at: Duration| at.as_secs_f64() * 1e3;
        let calls: Vec<Value> = (response.calls.iter())
            .zip(&turn.timings)
            .map(|(call, timing)| {
                json!({
                    "id": call.id,
                    "name": call.name,
                    "start_ms": timing.started.map(ms),
                    "end_ms": ms(timing.finished),
                })
            })
            .collect();
        eprintln!("{}", json!({"calls": calls}));
    }
    let before = conversation.history().len();
    conversation
        .answer(&response, &turn, &setup.pool)
        .map_err(|error| error.to_string())?;
    let answers = &conversation.history()[before..];
    // Anthropic answers with one user message; the OpenAI APIs with one item a call.
    let printed = match (args.format, answers) {
        (Format::Anthropic, [message]) => serde_json::to_string_pretty(message),
        _ => serde_json::to_string_pretty(answers),
    };
    out(&printed.map_err(|e| e.to_string())?)
}

fn turn_options(args: &TurnArgs) -> Result<TurnOptions> {
    let timeout = match args.timeout {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 => Some(
            Duration::try_from_secs_f64(seconds).map_err(|error| format!("--timeout: {error}"))?,
        ),
        Some(seconds) => {
            return Err(format!(
                "--timeout {seconds}: give a number of seconds above 0"
            ));
        }
        None => None,
    };
    Ok(TurnOptions {
        max_concurrency: args.max_concurrency,
        timeout,
        ..TurnOptions::default()
    })
}

/// The conversation `toolreg turn` answers in, and the response it reads: the file as a
/// response of `--format`'s API, or the part of one it may be (Anthropic: an assistant message,
/// or its content's array; Chat Completions: an assistant message, or its `tool_calls`;
/// Responses: the `output` array).
fn response_of(args: &TurnArgs, value: &Value) -> Result<(Conversation, Value)> {
    let wrong = |expected: &str| format!("{}: expected {expected}", args.file.display());
    Ok(match args.format {
        Format::Anthropic => {
            let body = match value {
                Value::Object(_) => value.clone(),
                Value::Array(_) => {
                    json!({"role": "assistant", "content": value, "stop_reason": "tool_use"})
                }
                _ => {
                    return Err(wrong(
                        "a JSON array of tool_use blocks, or a message or response with a content array",
                    ));
                }
            };
            (Conversation::anthropic(RenderOptions::default()), body)
        }
        Format::Openai => {
            let body = match value {
                Value::Object(fields) if fields.contains_key("choices") => value.clone(),
                Value::Object(_) => {
                    json!({"choices": [{"index": 0, "message": value, "finish_reason": "tool_calls"}]})
                }
                Value::Array(_) => json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": null, "tool_calls": value}}]}),
                _ => {
                    return Err(wrong(
                        "a Chat Completions response, message or tool_calls array",
                    ));
                }
            };
            let options = OpenAiOptions {
                format: OpenAiFormat::ChatCompletions,
                ..OpenAiOptions::default()
            };
            (Conversation::openai(options), body)
        }
        Format::OpenaiResponses => {
            let body = match value {
                Value::Object(_) => value.clone(),
                Value::Array(_) => json!({"status": "completed", "output": value}),
                _ => return Err(wrong("a Responses response or output array")),
            };
            let options = OpenAiOptions {
                format: OpenAiFormat::Responses,
                ..OpenAiOptions::default()
            };
            (Conversation::openai(options), body)
        }
    })
}

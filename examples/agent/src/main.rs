//! A complete agent on toolreg: the model's API over HTTP (Anthropic Messages, OpenAI Chat
//! Completions or Responses, streamed or not), the built-in tools that work without the
//! application's help (`toolreg_tools::STANDALONE`), ToolSearch for the deferred ones, the user approving calls that ask on the terminal, and Ctrl-C cancelling a turn.
//!
//! ```text
//! ANTHROPIC_API_KEY=... cargo run -p toolreg-agent -- "What does src/main.rs do?"
//! OPENAI_API_KEY=... cargo run -p toolreg-agent -- --api openai-responses --stream "List the TODOs"
//! ```
//!
//! `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL` point it elsewhere (the tests point it at a local
//! server that replays recorded responses). Tool search follows `ENABLE_TOOL_SEARCH`.

use std::sync::Arc;

use clap::{Parser, ValueEnum};
use futures_util::StreamExt as _;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::sync::Mutex;
use toolreg::ApprovalRequest;
use toolreg::conversation::Conversation;
use toolreg::search::{RequestModel, is_tool_search_enabled};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::wire::{Api, Stop, StreamAssembler};
use toolreg::{Dispatcher, RenderOptions, SearchEngine, Strategy, TurnOptions, assemble_tool_pool};
use toolreg_tools::profile;

/// Talks to a model and runs the tools it calls.
#[derive(Parser)]
struct Args {
    /// What to ask.
    prompt: String,
    /// The model API.
    #[arg(long, value_enum, default_value_t = ApiArg::Anthropic)]
    api: ApiArg,
    /// The model (default: claude-sonnet-4-5, or gpt-5.4 for OpenAI).
    #[arg(long)]
    model: Option<String>,
    /// Ask for a streamed response.
    #[arg(long)]
    stream: bool,
    /// Allow every call that asks, without asking.
    #[arg(long)]
    yes: bool,
    /// The most requests in one run.
    #[arg(long, default_value_t = 20)]
    max_turns: usize,
    /// `max_tokens` (Anthropic).
    #[arg(long, default_value_t = 4096)]
    max_tokens: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ApiArg {
    Anthropic,
    Openai,
    OpenaiResponses,
}

type Result<T> = std::result::Result<T, String>;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Args::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("agent: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Where requests go and how they are signed.
struct Endpoint {
    url: String,
    headers: Vec<(String, String)>,
}

fn endpoint(api: Api) -> Result<Endpoint> {
    let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
    if api == Api::Anthropic {
        let key = var("ANTHROPIC_API_KEY").ok_or("set ANTHROPIC_API_KEY")?;
        let base = var("ANTHROPIC_BASE_URL").unwrap_or_else(|| "https://api.anthropic.com".into());
        return Ok(Endpoint {
            url: format!("{}/v1/messages", base.trim_end_matches('/')),
            headers: vec![
                ("x-api-key".into(), key),
                ("anthropic-version".into(), "2023-06-01".into()),
            ],
        });
    }
    let key = var("OPENAI_API_KEY").ok_or("set OPENAI_API_KEY")?;
    let base = var("OPENAI_BASE_URL").unwrap_or_else(|| "https://api.openai.com/v1".into());
    let path = if api == Api::Responses {
        "responses"
    } else {
        "chat/completions"
    };
    Ok(Endpoint {
        url: format!("{}/{path}", base.trim_end_matches('/')),
        headers: vec![("authorization".into(), format!("Bearer {key}"))],
    })
}

async fn run(args: Args) -> Result<()> {
    let api = match args.api {
        ApiArg::Anthropic => Api::Anthropic,
        ApiArg::Openai => Api::ChatCompletions,
        ApiArg::OpenaiResponses => Api::Responses,
    };
    let model = args.model.clone().unwrap_or_else(|| {
        if api == Api::Anthropic {
            "claude-sonnet-4-5"
        } else {
            "gpt-5.4"
        }
        .into()
    });
    let endpoint = endpoint(api)?;

    // The tools: the built-ins that need no delegate (this agent implements none, so the model
    // is offered no tool that could only answer that the application does not provide it),
    // under the design's profile, as the environment sets it up.
    let env = profile::env_from_env(toolreg_tools::features());
    let rules = profile::permissions_from_env();
    let catalog =
        toolreg_tools::select(toolreg_tools::STANDALONE).map_err(|error| error.to_string())?;
    let pool = assemble_tool_pool(&env, &rules, &catalog, &[]);
    let tool_search = is_tool_search_enabled(&env, &pool, &RequestModel::new(&model, 200_000));
    let cwd = std::env::current_dir().map_err(|error| error.to_string())?;
    let dispatcher = Dispatcher::new(env.clone(), rules, pool.clone(), cwd)
        .with_state(toolreg_tools::default_state())
        .with_searcher(Arc::new(SearchEngine::new(
            pool.to_vec(),
            Strategy::Keyword,
        )))
        .with_approver(Arc::new(approver(args.yes)));

    let mut conversation = match api {
        Api::Anthropic => Conversation::anthropic(RenderOptions {
            tool_search,
            ..Default::default()
        }),
        _ => Conversation::openai(OpenAiOptions {
            format: if api == Api::Responses {
                OpenAiFormat::Responses
            } else {
                OpenAiFormat::ChatCompletions
            },
            tool_search: if tool_search {
                OpenAiToolSearch::Client
            } else {
                OpenAiToolSearch::Off
            },
            ..Default::default()
        }),
    };
    conversation.push_user(&args.prompt);
    let client = reqwest::Client::new();

    for _ in 0..args.max_turns {
        let request = conversation
            .request(&env, &pool)
            .map_err(|e| e.to_string())?;
        let mut body = request.body;
        body.insert("model".into(), model.clone().into());
        if api == Api::Anthropic {
            body.insert("max_tokens".into(), args.max_tokens.into());
        }
        if args.stream {
            body.insert("stream".into(), true.into());
        }
        let mut http = client.post(&endpoint.url).json(&Value::Object(body));
        for (name, value) in endpoint.headers.iter().chain(&request.headers) {
            http = http.header(name, value);
        }
        let reply = http
            .send()
            .await
            .map_err(|error| format!("{}: {error}", endpoint.url))?;
        let status = reply.status();
        if !status.is_success() {
            let text = reply.text().await.unwrap_or_default();
            return Err(format!(
                "{status}: {}",
                text.chars().take(2000).collect::<String>()
            ));
        }
        let body = if args.stream {
            let mut assembler = StreamAssembler::new(api);
            let mut chunks = reply.bytes_stream();
            while let Some(chunk) = chunks.next().await {
                let chunk = chunk.map_err(|error| error.to_string())?;
                assembler.push(&chunk).map_err(|error| error.to_string())?;
            }
            assembler.finish().map_err(|error| error.to_string())?
        } else {
            reply
                .json::<Value>()
                .await
                .map_err(|error| error.to_string())?
        };
        let response = conversation
            .receive(&body)
            .map_err(|error| error.to_string())?;
        if !response.text.is_empty() {
            println!("{}", response.text);
        }
        if response.calls.is_empty() || response.stop != Stop::ToolUse {
            return Ok(());
        }
        for call in &response.calls {
            let input = call
                .input
                .as_ref()
                .map_or_else(|e| e.clone(), Value::to_string);
            eprintln!(
                "→ {} {}",
                call.name,
                input.chars().take(200).collect::<String>()
            );
        }
        // The turn, cancelled by Ctrl-C: running tools stop, the rest are answered as cancelled.
        let options = TurnOptions::default();
        let cancel = options.cancel.clone();
        let interrupted = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                cancel.cancel();
            }
        });
        let turn = dispatcher.run_turn(&response.calls, &options).await;
        interrupted.abort();
        let cancelled = options.cancel.is_cancelled();
        for result in &turn.results {
            let mark = if result.is_error() { "✗" } else { "✓" };
            eprintln!("{mark} {}", result.tool_use_id);
        }
        conversation
            .answer(&response, &turn, &pool)
            .map_err(|error| error.to_string())?;
        if cancelled {
            return Err("cancelled".into());
        }
    }
    Err(format!("stopped after {} requests", args.max_turns))
}

/// Asks on the terminal whether a call may run, one question at a time (or allows every call).
fn approver(yes: bool) -> impl Fn(ApprovalRequest) -> Approval + Send + Sync + 'static {
    let stdin = Arc::new(Mutex::new(BufReader::new(tokio::io::stdin())));
    move |request: ApprovalRequest| {
        let stdin = stdin.clone();
        Box::pin(async move {
            if yes {
                return true;
            }
            let mut stdin = stdin.lock().await;
            eprint!(
                "Allow {} {}? ({}) [y/N] ",
                request.tool.name,
                json!(request.input),
                request.reason
            );
            let mut line = String::new();
            stdin.read_line(&mut line).await.is_ok() && line.trim().eq_ignore_ascii_case("y")
        })
    }
}

/// The user's answer, arriving.
type Approval = std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>>;

//! The commands.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::mcp::{Layout, printable};
use toolreg::wire::{
    self,
    openai::{OpenAiFormat, OpenAiOptions},
};
use toolreg::{Dispatcher, RenderOptions, SearchEngine, Strategy, ToolCall, ToolInfo, TurnOptions};

use crate::cli::{Args, Command, Format, McpCommand, SearchArgs, SearchStrategy, TurnArgs};
use crate::setup::{Setup, setup};

pub type Result<T> = std::result::Result<T, String>;

/// The largest `--queries` file read: 64 MiB.
const MAX_QUERIES_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest `turn` input read: 64 MiB.
const MAX_TURN_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Runs a command. Its error may quote a peer (an MCP server's message, a name from a
/// `tools/list` file): it is returned with its control characters escaped.
pub fn run(args: Args) -> Result<ExitCode> {
    run_command(args).map_err(|error| printable(&error, Layout::Lines).into_owned())
}

fn run_command(args: Args) -> Result<ExitCode> {
    let pool_hiding = |hidden: &[String]| -> Result<Setup> {
        let setup = setup(&args.pool, hidden)?;
        // Warnings quote the servers and the tools/list files.
        for warning in &setup.warnings {
            eprintln!("warning: {}", printable(warning, Layout::Lines));
        }
        Ok(setup)
    };
    let pool = || pool_hiding(&[]);
    match &args.command {
        Command::List { json } => list(&pool()?, *json),
        Command::Search(search_args) => search(&pool()?, search_args),
        Command::Render(render_args) => crate::render::render(&pool()?, render_args),
        Command::Call {
            name,
            input,
            format,
            id,
            strict,
        } => call(&pool()?, name, input, (*format, id, *strict)),
        Command::Turn(turn_args) => turn(&pool()?, turn_args),
        Command::Eval(eval_args) => crate::eval::eval(eval_args),
        Command::Mcp(McpCommand::Servers { json }) => mcp_servers(&args.pool, *json),
        Command::Mcp(McpCommand::Login {
            server,
            no_browser,
            wait,
        }) => crate::login::login(&args.pool, server, !*no_browser, *wait),
        Command::Mcp(McpCommand::Logout { server }) => crate::login::logout(&args.pool, server),
        Command::Mcp(McpCommand::Serve(serve)) => match &serve.http {
            None => {
                let setup = pool()?;
                let dispatcher = dispatcher(&setup, &[])?;
                crate::serve::stdio(&setup, dispatcher, serve.mode, &serve.builtins)
            }
            Some(address) => {
                // Before anything opens a file: the connections need descriptors.
                let open_files = crate::serve::raise_open_file_limit();
                // Nothing a client can run may see a token: the tokens file's variables are
                // hidden from Bash and from upstream servers.
                let setup = pool_hiding(&crate::serve::token_variables(serve.tokens.as_deref()))?;
                let tokens: Vec<&std::path::Path> = serve.tokens.as_deref().into_iter().collect();
                let dispatcher = dispatcher(&setup, &tokens)?;
                crate::serve::http(&setup, dispatcher, serve, address, open_files)
            }
        },
    }
}

/// Prints the command's output. A reader that went away (`toolreg list | head`) is not an
/// error: the output was wanted only up to there.
pub fn out(text: &str) -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Writes the command's output as `write` makes it, then a newline, through a buffer: output
/// as large as a catalog's listing is never held whole. A reader that went away is not an
/// error, as for [`out`].
fn out_with(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<ExitCode> {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = write(&mut stdout)
        .and_then(|()| writeln!(stdout))
        .and_then(|()| stdout.flush());
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// `list --json`: `{"tool_search": ..., "tools": [...]}`, each tool written as it is read.
#[derive(Serialize)]
struct Listing<'a> {
    tool_search: Value,
    tools: Tools<'a>,
}

/// The pool's tools as `list --json` shows them.
struct Tools<'a> {
    pool: &'a toolreg::Pool,
    /// Whether tool search is in force (else nothing is shown deferred).
    searching: bool,
}

impl Serialize for Tools<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.pool.iter().map(|tool| Listed {
            name: &tool.name,
            aliases: &tool.aliases,
            mcp: tool.is_mcp(),
            deferred: self.searching && tool.is_deferred(),
            search_hint: tool.search_hint.as_deref(),
            description: &tool.description,
            read_only: tool.flags.read_only,
        }))
    }
}

/// One tool of `list --json`.
#[derive(Serialize)]
struct Listed<'a> {
    name: &'a str,
    aliases: &'a [String],
    mcp: bool,
    deferred: bool,
    search_hint: Option<&'a str>,
    description: &'a str,
    read_only: bool,
}

fn flags(tool: &ToolInfo, deferred: bool) -> String {
    let mut flags = Vec::new();
    if deferred {
        flags.push("deferred");
    }
    if tool.flags.read_only {
        flags.push("read-only");
    }
    if tool.flags.concurrency_safe {
        flags.push("concurrent");
    }
    if tool.flags.destructive {
        flags.push("destructive");
    }
    if tool.flags.always_load {
        flags.push("always-load");
    }
    flags.join(",")
}

/// Whether tool search is in force for this pool's environment, as `list` reports it: off in
/// standard mode and when it cannot be on (then nothing is deferred), on, or on only when the
/// deferred tools reach a share of the model's context window.
fn search_mode(setup: &Setup) -> (Value, Option<String>) {
    use toolreg::env::ToolSearchMode;
    use toolreg::search::{tool_search_might_be_on, tool_search_mode};
    let settings = &setup.env.tool_search;
    match (
        tool_search_might_be_on(settings),
        tool_search_mode(settings),
    ) {
        (false, _) | (_, ToolSearchMode::Standard) => (json!({"mode": "off"}), None),
        (true, ToolSearchMode::Always) => (json!({"mode": "on"}), Some("tool search on".into())),
        (true, ToolSearchMode::Auto { percent }) => (
            json!({"mode": "auto", "percent": percent}),
            Some(format!(
                "tool search auto: on when the deferred tools reach {percent}% of the context window"
            )),
        ),
    }
}

fn list(setup: &Setup, json: bool) -> Result<ExitCode> {
    let (mode, searching) = search_mode(setup);
    let deferred = |tool: &ToolInfo| searching.is_some() && tool.is_deferred();
    if json {
        let listing = Listing {
            tool_search: mode,
            tools: Tools {
                pool: &setup.pool,
                searching: searching.is_some(),
            },
        };
        return out_with(|stdout| {
            serde_json::to_writer_pretty(stdout, &listing).map_err(std::io::Error::from)
        });
    }
    let width = setup
        .pool
        .iter()
        .map(|tool| tool.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    out_with(|stdout| {
        writeln!(
            stdout,
            "{:<width$}  {:<8}  {:<36}  ALIASES",
            "NAME", "KIND", "FLAGS"
        )?;
        let (mut mcp, mut deferred_count) = (0, 0);
        for tool in &setup.pool {
            let deferral = deferred(tool);
            mcp += usize::from(tool.is_mcp());
            deferred_count += usize::from(deferral);
            let kind = if tool.is_mcp() { "mcp" } else { "built-in" };
            let row = format!(
                "{:<width$}  {kind:<8}  {:<36}  {}",
                tool.name,
                flags(tool, deferral),
                tool.aliases.join(",")
            );
            writeln!(stdout, "{}", row.trim_end())?;
        }
        let (total, builtins) = (setup.pool.len(), setup.pool.len() - mcp);
        match &searching {
            None => write!(
                stdout,
                "{total} tools: {builtins} built-in, {mcp} MCP; tool search off: every tool loaded up front"
            ),
            Some(mode) => write!(
                stdout,
                "{total} tools: {builtins} built-in, {mcp} MCP; {deferred_count} deferred, {} loaded up front ({mode})",
                total - deferred_count
            ),
        }
    })
}

fn search(setup: &Setup, args: &SearchArgs) -> Result<ExitCode> {
    let strategy = match args.strategy {
        SearchStrategy::Keyword => Strategy::Keyword,
        SearchStrategy::Bm25f => Strategy::Bm25f,
    };
    let queries: Vec<String> = match (&args.queries, &args.query) {
        (Some(file), _) => crate::setup::read_capped(file, MAX_QUERIES_FILE_BYTES)
            .map_err(|error| format!("--queries {}: {error}", file.display()))?
            .lines()
            .map(str::to_owned)
            .collect(),
        (None, Some(query)) => vec![query.clone()],
        (None, None) => return Err("give a QUERY or --queries FILE".into()),
    };
    let started = Instant::now();
    let engine = SearchEngine::new(setup.pool.to_vec(), strategy);
    #[cfg(feature = "semantic")]
    let engine = match &args.model {
        Some(_) if strategy != Strategy::Bm25f => {
            return Err(
                "--model fuses meaning into the BM25F strategy: add --strategy bm25f".into(),
            );
        }
        Some(dir) => {
            let model =
                toolreg::search::semantic::load(dir).map_err(|error| format!("--model {error}"))?;
            engine.with_embedder(model)
        }
        None => engine,
    };
    let build = started.elapsed();
    let searching = Instant::now();
    let outputs: Vec<_> = queries
        .iter()
        .map(|query| engine.search(query, args.max_results))
        .collect();
    let search_time = searching.elapsed();
    let mut text = String::new();
    for output in &outputs {
        if args.json {
            let line = json!({"query": output.query, "matches": output.matches, "total_deferred_tools": output.total_deferred_tools});
            text.push_str(&line.to_string());
        } else {
            text.push_str(&format!("query: {}\n", output.query));
            if output.matches.is_empty() {
                text.push_str("  no matching deferred tools\n");
            }
            for (rank, name) in output.matches.iter().enumerate() {
                text.push_str(&format!("  {}. {name}\n", rank + 1));
            }
            text.push_str(&format!(
                "  ({} deferred tools searched)",
                output.total_deferred_tools
            ));
        }
        text.push('\n');
    }
    if args.stats {
        let total_us = search_time.as_secs_f64() * 1e6;
        eprintln!(
            "{}",
            json!({
                "tools": setup.pool.len(),
                "deferred": engine.deferred().len(),
                "index_build_us": (build.as_secs_f64() * 1e6).round(),
                "queries": queries.len(),
                "search_us_total": total_us.round(),
                "search_us_per_query": total_us / queries.len().max(1) as f64,
            })
        );
    }
    out(text.trim_end())
}

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
fn call(
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
fn turn(setup: &Setup, args: &TurnArgs) -> Result<ExitCode> {
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

/// `toolreg mcp servers`: each server's state, after connecting them all.
#[cfg(feature = "mcp")]
fn mcp_servers(args: &crate::cli::PoolArgs, json: bool) -> Result<ExitCode> {
    use toolreg_mcp::ServerState;
    let path = args
        .mcp_config
        .as_deref()
        .ok_or("toolreg mcp servers needs --mcp-config FILE")?;
    let runtime = crate::setup::runtime()?;
    let environment = crate::setup::environment(args, &[]);
    let (hub, _, _) = crate::setup::connect(path, &runtime, &environment)?;
    let rows: Vec<Value> = hub
        .statuses()
        .into_iter()
        .map(|status| match status.state {
            ServerState::Connected { protocol, tools } => json!({
                "name": status.name, "state": "connected", "protocol": protocol, "tools": tools,
            }),
            ServerState::Pending => json!({"name": status.name, "state": "pending"}),
            ServerState::Failed(error) => json!({
                "name": status.name, "state": "failed", "error": error.to_string(),
            }),
        })
        .collect();
    runtime.block_on(hub.close());
    if json {
        return out(&serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?);
    }
    let width = rows
        .iter()
        .filter_map(|row| row["name"].as_str())
        .map(|name| printable(name, Layout::OneLine).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "{:<width$}  {:<9}  {:<10}  {:>5}  ERROR",
        "NAME", "STATE", "PROTOCOL", "TOOLS"
    );
    for row in &rows {
        // One line a server, whatever it wrote.
        let field =
            |key: &str| printable(row[key].as_str().unwrap_or(""), Layout::OneLine).into_owned();
        let tools = row["tools"]
            .as_u64()
            .map_or(String::new(), |n| n.to_string());
        text.push_str(&format!(
            "\n{:<width$}  {:<9}  {:<10}  {:>5}  {}",
            field("name"),
            field("state"),
            field("protocol"),
            tools,
            field("error")
        ));
    }
    out(&text)
}

#[cfg(not(feature = "mcp"))]
fn mcp_servers(_: &crate::cli::PoolArgs, _: bool) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}

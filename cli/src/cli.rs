//! The command line.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};

/// Inspect and drive toolreg's tool registry: the pool, ToolSearch, rendering, dispatch.
///
/// Environment: ENABLE_TOOL_SEARCH, CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS,
/// CLAUDE_CODE_USE_BEDROCK/VERTEX/FOUNDRY, ANTHROPIC_BASE_URL and the run-time switches
/// (CLAUDE_CODE_SIMPLE, CLAUDE_CODE_ENABLE_TASKS, …) are read as `profile::env_from_env`
/// documents.
#[derive(Debug, Parser)]
#[command(name = "toolreg", version)]
pub struct Args {
    /// How the pool is assembled.
    #[command(flatten)]
    pub pool: PoolArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options that shape the pool, accepted by every command.
#[derive(Debug, ClapArgs)]
pub struct PoolArgs {
    /// Add an MCP server's tools: FILE holds its tools/list result ({"tools": [...]} or an array).
    #[arg(long = "mcp", value_name = "SERVER=FILE", global = true)]
    pub mcp: Vec<String>,
    /// Connect the live MCP servers of FILE and add their tools: `{"mcpServers": {"name":
    /// {…}}}`, each entry a stdio server (`"command"`, `"args"`, `"env"`, `"cwd"`) or a
    /// Streamable HTTP one (`"url"`, `"headers"`, `"oauth": {"clientId", "clientSecret",
    /// "scopes", "callbackPort", "clientMetadataUrl"}`; `${VAR}` in header values and the client
    /// secret is read from the environment; log in with `toolreg mcp login`).
    #[arg(long = "mcp-config", value_name = "FILE", global = true)]
    pub mcp_config: Option<PathBuf>,
    /// Leave out the demo catalog used when neither --mcp nor --mcp-config is given.
    #[arg(long, global = true)]
    pub no_demo: bool,
    /// The agent the pool is for.
    #[arg(long, value_enum, default_value_t = Context::Main, global = true)]
    pub context: Context,
    /// A deny rule (`Tool`, `Tool(content)`, `mcp__server`); repeatable.
    #[arg(long = "deny", value_name = "RULE", global = true)]
    pub deny: Vec<String>,
    /// An allow rule (`Bash(npm test:*)`, `Edit(//tmp/**)`); repeatable.
    #[arg(long = "allow", value_name = "RULE", global = true)]
    pub allow: Vec<String>,
    /// An ask rule: the call needs an approver, which the CLI does not have; repeatable.
    #[arg(long = "ask", value_name = "RULE", global = true)]
    pub ask: Vec<String>,
    /// Tools that code the model runs in the Anthropic code execution tool may call, besides
    /// the model (`Read`, `mcp__server`, `mcp__server__*`): sent with `allowed_callers`, and
    /// their calls from code run (without it, such a call is refused); repeatable.
    #[arg(long = "callable-from-code", value_name = "RULE", global = true)]
    pub callable_from_code: Vec<String>,
    /// The permission mode: `accept-edits` lets file writes in the working directories run
    /// without asking, `bypass` asks nothing (deny rules still apply).
    #[arg(long, value_enum, default_value_t = Mode::Default, global = true)]
    pub permission_mode: Mode,
    /// A directory, besides the current one, where file tools may write; repeatable.
    #[arg(long = "add-dir", value_name = "DIR", global = true)]
    pub add_dir: Vec<PathBuf>,
    /// Simple mode: Bash, Read and Edit only.
    #[arg(long, global = true)]
    pub simple: bool,
    /// REPL mode: hide the tools the REPL tool wraps.
    #[arg(long, global = true)]
    pub repl: bool,
    /// The host embeds fast search tools: leave out Glob and Grep.
    #[arg(long, global = true)]
    pub embedded_search: bool,
    /// Run Bash without the OS sandbox (bubblewrap), which is on by default where it works.
    #[arg(long, global = true)]
    pub no_sandbox: bool,
    /// Sandboxed commands get no network (a network namespace of their own, loopback only);
    /// by default they keep the host's.
    #[arg(long, global = true)]
    pub no_network: bool,
    /// Pass the variable NAME to Bash's commands (and MCP servers) although its name marks it
    /// a secret (it holds KEY, TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL, or starts with
    /// TOOLREG_), which are otherwise dropped; repeatable.
    #[arg(long = "keep-env", value_name = "NAME", global = true)]
    pub keep_env: Vec<String>,
}

/// A permission mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Ask where a rule, the tool or its `destructive` flag says so.
    Default,
    /// File writes in the working directories do not ask.
    AcceptEdits,
    /// Nothing asks.
    Bypass,
    /// Planning.
    Plan,
}

/// An agent context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Context {
    /// The main thread.
    Main,
    /// A sub-agent.
    Subagent,
    /// A user-defined agent.
    CustomAgent,
    /// A background agent.
    Async,
    /// An in-process teammate.
    Teammate,
    /// The coordinator.
    Coordinator,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The assembled pool, in order.
    List {
        /// One JSON array of tools.
        #[arg(long)]
        json: bool,
    },
    /// ToolSearch over the pool's deferred tools.
    Search(SearchArgs),
    /// The tools of a model request, exactly as sent.
    Render(RenderArgs),
    /// Run a tool through dispatch and print its tool_result block.
    Call {
        /// The tool's name or alias.
        name: String,
        /// The tool's input as JSON.
        #[arg(long, default_value = "{}")]
        input: String,
        /// The API the result is printed for: an Anthropic tool_result block, a Chat
        /// Completions tool message, a Responses function_call_output (ToolSearch: a
        /// tool_search_output).
        #[arg(long, value_enum, default_value_t = Format::Anthropic)]
        format: Format,
        /// The id of the call the result answers.
        #[arg(long, default_value = "toolu_cli")]
        id: String,
        /// Loaded tool definitions (a Responses tool_search_output) with strict schemas.
        #[arg(long)]
        strict: bool,
    },
    /// Run an assistant message's tool calls as a turn and print the user message of
    /// tool_results.
    Turn(TurnArgs),
    /// The live MCP servers of --mcp-config.
    #[command(subcommand)]
    Mcp(McpCommand),
    /// Retrieval quality of each ToolSearch strategy on evaluation sets.
    Eval(EvalArgs),
}

/// `toolreg eval`.
#[derive(Debug, ClapArgs)]
pub struct EvalArgs {
    /// Folders holding tools.jsonl and queries.jsonl.
    #[arg(required = true)]
    pub sets: Vec<PathBuf>,
    /// The cut-off of recall and hit (at least 1).
    #[arg(long, default_value_t = 5, value_parser = at_least_one)]
    pub k: usize,
    /// Also rank with the sentence-embedding model in DIR fused into the BM25F strategy
    /// (config.json, tokenizer.json, model.safetensors): a BERT sentence-transformers model or a
    /// static model in Model2Vec's format.
    #[cfg(feature = "semantic")]
    #[arg(long, value_name = "DIR")]
    pub model: Option<PathBuf>,
}

/// `toolreg mcp`.
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Each server of --mcp-config: connected (protocol version, tool count) or failed (why).
    Servers {
        /// One JSON array of servers.
        #[arg(long)]
        json: bool,
    },
    /// Serve the pool to an MCP client on stdin and stdout: the MCP tools (of --mcp-config,
    /// forwarded to their servers) and the built-ins named by --builtins, behind the pool's
    /// rules and agent context.
    Serve(ServeArgs),
    /// Log in to SERVER of --mcp-config, an HTTP server behind OAuth: opens the authorization
    /// page ($BROWSER, or the desktop's opener), waits for the redirect on 127.0.0.1 and keeps
    /// the tokens in the credentials file (`$TOOLREG_CREDENTIALS`, or
    /// `$XDG_CONFIG_HOME/toolreg/credentials.json`, mode 0600). Later commands use them.
    Login {
        /// The server, by its name in --mcp-config.
        server: String,
        /// Only print the authorization URL.
        #[arg(long)]
        no_browser: bool,
        /// How long to wait for the browser, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 300)]
        wait: u64,
    },
    /// Forget the OAuth tokens of SERVER of --mcp-config.
    Logout {
        /// The server, by its name in --mcp-config.
        server: String,
    },
}

/// `toolreg mcp serve`.
#[derive(Debug, ClapArgs)]
pub struct ServeArgs {
    /// What tools/list offers.
    #[arg(long, value_enum, default_value_t = ServeMode::Search)]
    pub mode: ServeMode,
    /// Built-ins to offer too, by name (`Read,Glob`); none by default.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub builtins: Vec<String>,
    /// Serve over Streamable HTTP on ADDR (default 127.0.0.1:8931) instead of stdio, every
    /// request needing a bearer token: `TOOLREG_GATEWAY_TOKEN`, or those of --tokens.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = crate::serve::DEFAULT_HTTP_ADDRESS)]
    pub http: Option<String>,
    /// With --http: a JSON file of tokens, each with its own policy: `{"tokens": [{"token":
    /// "${VAR}", "servers": [...], "builtins": [...], "allow": [...], "deny": [...], "mode":
    /// "search" | "direct"}]}`. No tool can read or write it.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub tokens: Option<PathBuf>,
    /// With --http: connections open at once (default 1024, at most three quarters of the
    /// open-file limit). Past it, a new connection replaces the oldest one that has sent no
    /// request, or is closed.
    #[arg(long, value_name = "N", requires = "http", value_parser = at_least_one)]
    pub max_connections: Option<usize>,
    /// With --http: seconds a connection has to send a request's headers (default 10).
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds)]
    pub header_timeout: Option<std::time::Duration>,
    /// With --http: sessions (of 2025-11-25 clients) each token may hold at once (default 64);
    /// an initialize past them is answered 429.
    #[arg(long, value_name = "N", requires = "http", value_parser = at_least_one)]
    pub max_sessions: Option<usize>,
    /// With --http: seconds a session lives without activity (default 600).
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds)]
    pub session_idle: Option<std::time::Duration>,
    /// With --http: another `Host` to answer to (`host` or `host:port`), beside the loopback
    /// names; repeatable.
    #[arg(long = "allowed-host", value_name = "HOST", requires = "http")]
    pub allowed_hosts: Vec<String>,
    /// With --http: another `Origin` browsers may send (`https://app.example`,
    /// `http://host:8080`, `http://host:*`), beside pages on this machine; repeatable.
    #[arg(long = "allowed-origin", value_name = "ORIGIN", requires = "http")]
    pub allowed_origins: Vec<String>,
}

/// What `toolreg mcp serve` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ServeMode {
    /// The tools that are not deferred, plus search_tools and call_tool.
    Search,
    /// Every tool, with the registry's deferral hints in `_meta`.
    Direct,
}

/// `toolreg turn`.
#[derive(Debug, ClapArgs)]
pub struct TurnArgs {
    /// The model's calls; `-` for standard input. Anthropic: a JSON array of tool_use blocks,
    /// or an assistant message or response whose content holds them. OpenAI Chat Completions:
    /// a response, an assistant message, or its tool_calls array. Responses: a response or its
    /// output array. The results are printed in the same API's form.
    pub file: PathBuf,
    /// The API the calls come from and the results go to.
    #[arg(long, value_enum, default_value_t = Format::Anthropic)]
    pub format: Format,
    /// The most concurrency-safe calls running at once.
    #[arg(long, default_value_t = toolreg::dispatch::DEFAULT_MAX_CONCURRENCY)]
    pub max_concurrency: usize,
    /// Each call's timeout in seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Print each call's start and end, in ms from the turn's start, as one JSON line on
    /// stderr.
    #[arg(long)]
    pub stats: bool,
}

/// `toolreg search`.
#[derive(Debug, ClapArgs)]
pub struct SearchArgs {
    /// The query (`select:A,B`, keywords, `+required` terms).
    #[arg(required_unless_present = "queries", conflicts_with = "queries")]
    pub query: Option<String>,
    /// Run every line of FILE as a query; with --json, print one object per line.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// The most matches per query.
    #[arg(long, default_value_t = 5)]
    pub max_results: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The ranking strategy.
    #[arg(long, value_enum, default_value_t = SearchStrategy::Keyword)]
    pub strategy: SearchStrategy,
    /// Print in-process timings as one JSON line to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Fuse the meaning of queries and tools, by the sentence-embedding model in DIR
    /// (config.json, tokenizer.json, model.safetensors: a BERT sentence-transformers model or a
    /// static model in Model2Vec's format), into the BM25F strategy.
    #[cfg(feature = "semantic")]
    #[arg(long, value_name = "DIR")]
    pub model: Option<PathBuf>,
}

/// A ToolSearch strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SearchStrategy {
    /// Keyword scoring: the design's ToolSearch scores, exactly.
    Keyword,
    /// BM25F over the tools' fields with a server prior, blended with the keyword score.
    Bm25f,
}

/// `toolreg render`.
#[derive(Debug, ClapArgs)]
pub struct RenderArgs {
    /// Deferred tools already loaded in the conversation (comma-separated; spaces around a name
    /// are ignored). With --messages, the tools its tool_reference blocks name are added.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub discovered: Vec<String>,
    /// The conversation so far: a JSON array of messages (Anthropic, Chat Completions) or of
    /// input items (Responses). Its tool references are rewritten as the next request needs.
    #[arg(long, value_name = "FILE")]
    pub messages: Option<PathBuf>,
    /// How deferred tools are sent when tool search is on.
    #[arg(long, value_enum, default_value_t = DeferStrategy::Discovered)]
    pub strategy: DeferStrategy,
    /// The API shape.
    #[arg(long, value_enum, default_value_t = Format::Anthropic)]
    pub format: Format,
    /// The model the request is for (decides tool-reference support). Default:
    /// claude-sonnet-4-5 for Anthropic, gpt-5.4 for OpenAI.
    #[arg(long)]
    pub model: Option<String>,
    /// The model's context window in tokens (for ENABLE_TOOL_SEARCH=auto).
    #[arg(long, default_value_t = 200_000)]
    pub context_window: u64,
    /// The request's max_tokens (Anthropic).
    #[arg(long, default_value_t = 4096)]
    pub max_tokens: u64,
    /// Send strict tools (strict schemas, `strict: true`).
    #[arg(long)]
    pub strict: bool,
    /// Responses: group each MCP server's tools as one `namespace` tool.
    #[arg(long)]
    pub namespaces: bool,
    /// Which anthropic-beta header deferral takes: today's API's, or the profile's (the
    /// design's, `docs/design.md` §10.8).
    #[arg(long, value_enum, default_value_t = BetaSet::Current)]
    pub betas: BetaSet,
}

/// A deferral strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeferStrategy {
    /// ToolSearch loads deferred tools: the loaded ones in full, the rest named in an
    /// `<available-deferred-tools>` message (OpenAI: client-executed tool search).
    Discovered,
    /// Anthropic: every tool, deferred ones with defer_loading: true; ToolSearch loads them.
    AllDeferred,
    /// Anthropic: the API's BM25 tool search tool instead of ToolSearch; every tool sent.
    ServerBm25,
    /// Anthropic: the API's regex tool search tool instead of ToolSearch; every tool sent.
    ServerRegex,
    /// OpenAI Responses: the API's hosted tool_search; every function sent.
    Server,
}

/// The anthropic-beta header set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BetaSet {
    /// Tool search is generally available on the first-party API: no header there; the
    /// tool-search beta on Bedrock, Vertex and Foundry.
    Current,
    /// The profile's headers.
    Profile,
}

/// A request shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions function tools.
    Openai,
    /// OpenAI Responses function tools.
    OpenaiResponses,
}

/// A number of seconds above 0 (fractions allowed).
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => {
            std::time::Duration::try_from_secs_f64(seconds).map_err(|error| error.to_string())
        }
        Ok(_) => Err("give a number of seconds above 0".into()),
        Err(error) => Err(error.to_string()),
    }
}

/// A count that must be at least 1.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(error) => Err(error.to_string()),
    }
}

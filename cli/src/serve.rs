//! `toolreg mcp serve`: the gateway on stdin and stdout for one client, or over Streamable HTTP
//! (`--http`) for many, each bearer token with its own policy (`--tokens`).

use std::process::ExitCode;

use toolreg::Dispatcher;
#[cfg(feature = "mcp")]
use toolreg::ToolInfo;

use crate::cli::{ServeArgs, ServeMode};
use crate::setup::Setup;

type Result<T> = std::result::Result<T, String>;

/// The default address of `--http` without one: loopback only.
pub const DEFAULT_HTTP_ADDRESS: &str = "127.0.0.1:8931";

/// The variable holding the one token of `--http` without `--tokens`.
#[cfg(feature = "mcp")]
pub const TOKEN_VARIABLE: &str = "TOOLREG_GATEWAY_TOKEN";

#[cfg(feature = "mcp")]
fn gateway_mode(mode: ServeMode) -> toolreg_mcp::GatewayMode {
    match mode {
        ServeMode::Search => toolreg_mcp::GatewayMode::Search,
        ServeMode::Direct => toolreg_mcp::GatewayMode::Direct,
    }
}

/// The built-ins named, each checked against the pool.
#[cfg(feature = "mcp")]
fn check_builtins(setup: &Setup, builtins: &[String], flag: &str) -> Result<()> {
    let offered = |name: &str| {
        setup
            .pool
            .iter()
            .any(|tool| tool.name == name && !tool.is_mcp())
    };
    match builtins.iter().find(|name| !offered(name)) {
        Some(name) => Err(format!("{flag}: `{name}` is not a built-in of this pool")),
        None => Ok(()),
    }
}

/// Keeps the live servers connected while the gateway serves: a server whose process exits
/// fails only its own calls and starts again (the hub's doubling wait between tries), under
/// the same tool names, so every token's fixed list stays callable.
#[cfg(feature = "mcp")]
fn keep_connected(setup: &Setup) {
    if let Some(hub) = &setup.live {
        let hub = hub.clone();
        setup
            .runtime
            .spawn(async move { hub.keep_connected().await });
    }
}

/// The variables a tokens file reads its tokens from (`${VAR}`), with `TOOLREG_GATEWAY_TOKEN`:
/// hidden from everything a client can run. A file that cannot be read or parsed gives none
/// here; [`http`] reports it.
#[cfg(feature = "mcp")]
pub fn token_variables(tokens: Option<&std::path::Path>) -> Vec<String> {
    let mut names = vec![TOKEN_VARIABLE.to_owned()];
    if let Some(file) = tokens.and_then(|path| std::fs::read_to_string(path).ok())
        && let Ok(file) = toolreg_mcp::policy::TokensFile::parse(&file)
    {
        names.extend(file.referenced_variables());
    }
    names
}

#[cfg(not(feature = "mcp"))]
pub fn token_variables(_: Option<&std::path::Path>) -> Vec<String> {
    Vec::new()
}

/// The gateway on stdin and stdout, until the client disconnects.
#[cfg(feature = "mcp")]
pub fn stdio(
    setup: &Setup,
    dispatcher: Dispatcher,
    mode: ServeMode,
    builtins: &[String],
) -> Result<ExitCode> {
    check_builtins(setup, builtins, "--builtins")?;
    let expose = |tool: &ToolInfo| tool.is_mcp() || builtins.contains(&tool.name);
    let gateway = toolreg_mcp::Gateway::new(dispatcher, expose, gateway_mode(mode));
    keep_connected(setup);
    setup
        .runtime
        .block_on(gateway.serve_stdio())
        .map_err(|error| format!("mcp serve: {error}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Raises this process's soft limit of open files to its hard limit, so the gateway's
/// connections are bounded by its own limit ([`HttpOptions::max_connections`]) rather than the
/// system's default of 1,024 descriptors; the limit in force after (`None` when unlimited or
/// unknown). Processes started later (upstream servers, Bash) inherit it.
///
/// [`HttpOptions::max_connections`]: toolreg_mcp::HttpOptions::max_connections
#[cfg(all(feature = "mcp", unix))]
pub fn raise_open_file_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum || limit.maximum.is_none() {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            limit = getrlimit(Resource::Nofile);
        }
    }
    limit.current
}

/// The limit of open files (unknown here).
#[cfg(all(feature = "mcp", not(unix)))]
pub fn raise_open_file_limit() -> Option<u64> {
    None
}

/// The gateway's limits from the command line: the defaults, each flag given, the connections
/// kept within three quarters of the open-file limit (the rest for upstream servers, tools and
/// files), saying so when that lowers them.
#[cfg(feature = "mcp")]
fn http_options(args: &ServeArgs, open_files: Option<u64>) -> toolreg_mcp::HttpOptions {
    let mut options = toolreg_mcp::HttpOptions::default();
    if let Some(max) = args.max_connections {
        options.max_connections = max;
    }
    if let Some(timeout) = args.header_timeout {
        options.header_timeout = timeout;
    }
    if let Some(max) = args.max_sessions {
        options.max_sessions_per_token = max;
    }
    if let Some(idle) = args.session_idle {
        options.session_idle = idle;
    }
    options
        .allowed_hosts
        .extend(args.allowed_hosts.iter().cloned());
    options
        .allowed_origins
        .extend(args.allowed_origins.iter().cloned());
    let room = open_files.map(|limit| usize::try_from(limit / 4 * 3).unwrap_or(usize::MAX).max(1));
    if let Some(room) = room.filter(|room| *room < options.max_connections) {
        eprintln!(
            "toolreg: at most {room} connections at once (three quarters of this process's \
             limit of {} open files)",
            open_files.unwrap_or_default()
        );
        options.max_connections = room;
    }
    options
}

/// The gateway over Streamable HTTP on `address`, until interrupted (Ctrl-C or SIGTERM):
/// each token of `--tokens` (a JSON file of policies) with its own gateway, or without the file
/// one token from the environment with the command line's choices. Two policies with the same
/// token are refused, naming both by index.
#[cfg(feature = "mcp")]
pub fn http(
    setup: &Setup,
    dispatcher: Dispatcher,
    args: &ServeArgs,
    address: &str,
    open_files: Option<u64>,
) -> Result<ExitCode> {
    use toolreg_mcp::{HttpGateway, HttpSetupError, TokenPolicy};

    check_builtins(setup, &args.builtins, "--builtins")?;
    let lookup = |name: &str| std::env::var(name).ok();
    let policies = match &args.tokens {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            toolreg_mcp::policy::TokensFile::parse(&text)
                .map_err(|error| format!("{}: {error}", path.display()))?
                .tokens
        }
        None => vec![TokenPolicy {
            token: format!("${{{TOKEN_VARIABLE}}}"),
            builtins: args.builtins.clone(),
            ..TokenPolicy::default()
        }],
    };
    let mut routes = Vec::with_capacity(policies.len());
    for (index, policy) in policies.into_iter().enumerate() {
        let at = format!("tokens[{index}]");
        let token = toolreg_mcp::config::expand(&policy.token, lookup)
            .map_err(|error| format!("{at}.token: {error}"))?;
        if token.chars().count() < 16 {
            return Err(format!("{at}.token: shorter than 16 characters"));
        }
        check_builtins(setup, &policy.builtins, &format!("{at}.builtins"))?;
        let gateway = policy.gateway(&dispatcher, gateway_mode(args.mode));
        routes.push((token, gateway));
    }
    let options = http_options(args, open_files);
    let gateway =
        HttpGateway::new(routes, &options).map_err(|error| match (&error, &args.tokens) {
            (HttpSetupError::DuplicateToken { .. }, Some(file)) => {
                format!("{}: {error}", file.display())
            }
            _ => format!("mcp serve: {error}"),
        })?;
    keep_connected(setup);
    setup.runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| format!("--http {address}: {error}"))?;
        let bound = listener.local_addr().map_err(|error| error.to_string())?;
        eprintln!("toolreg: serving MCP on http://{bound}/mcp (health: /health)");
        let shutdown = toolreg::dispatch::CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                Some(()) = async { match term.as_mut() { Some(term) => term.recv().await, None => std::future::pending().await } } => {}
            }
            stop.cancel();
        });
        gateway.serve(listener, shutdown).await;
        Ok::<(), String>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "mcp"))]
pub fn stdio(_: &Setup, _: Dispatcher, _: ServeMode, _: &[String]) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}

#[cfg(not(feature = "mcp"))]
pub fn raise_open_file_limit() -> Option<u64> {
    None
}

#[cfg(not(feature = "mcp"))]
pub fn http(_: &Setup, _: Dispatcher, _: &ServeArgs, _: &str, _: Option<u64>) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}

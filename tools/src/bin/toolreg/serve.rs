//! `toolreg mcp serve`: the gateway on stdin and stdout for one client, or over Streamable HTTP
//! (`--http`) for many, each bearer token with its own policy (`--tokens`).

use std::process::ExitCode;

use toolreg::Dispatcher;
#[cfg(feature = "mcp")]
use toolreg::ToolInfo;

use crate::cli::ServeMode;
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

#[cfg(feature = "mcp")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensFile {
    tokens: Vec<toolreg_mcp::TokenPolicy>,
}

/// The gateway over Streamable HTTP on `address`, until interrupted (Ctrl-C or SIGTERM):
/// each token of `tokens` (a JSON file of policies) with its own gateway, or without the file
/// one token from the environment with the command line's choices.
#[cfg(feature = "mcp")]
pub fn http(
    setup: &Setup,
    dispatcher: Dispatcher,
    mode: ServeMode,
    builtins: &[String],
    address: &str,
    tokens: Option<&std::path::Path>,
) -> Result<ExitCode> {
    use toolreg_mcp::{HttpGateway, HttpOptions, TokenPolicy};

    check_builtins(setup, builtins, "--builtins")?;
    let lookup = |name: &str| std::env::var(name).ok();
    let policies = match tokens {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let file: TokensFile = serde_json::from_str(&text)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            file.tokens
        }
        None => vec![TokenPolicy {
            token: format!("${{{TOKEN_VARIABLE}}}"),
            builtins: builtins.to_vec(),
            ..TokenPolicy::default()
        }],
    };
    let mut routes = Vec::with_capacity(policies.len());
    for (index, policy) in policies.into_iter().enumerate() {
        let at = format!("tokens[{index}]");
        let token = toolreg_mcp::config::expand(&policy.token, lookup)
            .map_err(|error| format!("{at}.token: {error}"))?;
        if token.len() < 16 {
            return Err(format!("{at}.token: shorter than 16 characters"));
        }
        check_builtins(setup, &policy.builtins, &format!("{at}.builtins"))?;
        let gateway = policy.gateway(&dispatcher, gateway_mode(mode));
        routes.push((token, gateway));
    }
    let gateway = HttpGateway::new(routes, &HttpOptions::default());
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
        gateway
            .serve(listener, shutdown)
            .await
            .map_err(|error| format!("mcp serve: {error}"))
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "mcp"))]
pub fn stdio(_: &Setup, _: Dispatcher, _: ServeMode, _: &[String]) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}

#[cfg(not(feature = "mcp"))]
pub fn http(
    _: &Setup,
    _: Dispatcher,
    _: ServeMode,
    _: &[String],
    _: &str,
    _: Option<&std::path::Path>,
) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}

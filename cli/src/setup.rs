//! Turning the pool options into an environment and a pool.

use std::io::Read as _;
use std::path::Path;

use serde_json::Value;
use toolreg::env::AgentKind;
use toolreg::mcp::McpLoader;
use toolreg::pool::filter_tools_for_agent;
use toolreg::sandbox::{EnvPolicy, Sandboxing};
use toolreg::tool::AllowedCallers;
use toolreg::{Behavior, Env, PermissionContext, PermissionMode, RuleSource, assemble_tool_pool};
use toolreg_tools::profile::{self, switch};

use crate::cli::{Context, Mode, PoolArgs};
use crate::demo;

/// The environment, the permission rules, the pool, what loading the MCP servers reported, and
/// the live servers with the runtime their sessions run on.
pub struct Setup {
    pub env: Env,
    pub rules: PermissionContext,
    pub pool: toolreg::Pool,
    pub warnings: Vec<String>,
    pub runtime: tokio::runtime::Runtime,
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub live: Option<Live>,
    /// `--no-sandbox`, `--no-network`.
    pub sandbox: SandboxChoice,
    /// What the processes tools start see of this environment: every name holding a secret's
    /// word and toolreg's own `TOOLREG_*` variables dropped, `--keep-env` names kept.
    pub environment: EnvPolicy,
    /// The `--mcp-config` file, kept out of every tool's reach ([`crate::safeguard`]): it
    /// names the commands toolreg starts and may hold their keys.
    pub mcp_config: Option<std::path::PathBuf>,
}

/// The prefix of the variables toolreg itself reads (`TOOLREG_GATEWAY_TOKEN`,
/// `TOOLREG_CREDENTIALS`, …): never passed to what tools start.
pub const TOOLREG_PREFIX: &str = "TOOLREG_";

/// What the command line asks of the sandbox.
#[derive(Debug, Clone, Copy)]
pub struct SandboxChoice {
    /// Sandbox Bash where it works (not `--no-sandbox`).
    pub wanted: bool,
    /// Sandboxed commands keep the network (not `--no-network`).
    pub network: bool,
}

impl SandboxChoice {
    /// Probes the sandbox when it is wanted; when it does not work here, says so in one line
    /// on stderr.
    pub fn detect(self) -> Sandboxing {
        if !self.wanted {
            return Sandboxing::Off;
        }
        match Sandboxing::detect() {
            Sandboxing::On(sandbox) => Sandboxing::On(sandbox.with_network(self.network)),
            Sandboxing::Unavailable(why) => {
                eprintln!(
                    "sandbox: unavailable ({}); Bash runs unasked only read-only commands whose every named file the rules let it read",
                    why.replace('\n', " ")
                );
                Sandboxing::Unavailable(why)
            }
            Sandboxing::Off => Sandboxing::Off,
        }
    }
}

/// The servers of `--mcp-config`.
#[cfg(feature = "mcp")]
pub type Live = std::sync::Arc<toolreg_mcp::McpHub>;
/// The servers of `--mcp-config` (none: this build has no MCP client).
#[cfg(not(feature = "mcp"))]
pub type Live = std::convert::Infallible;

/// A runtime for the live servers and the commands that run tools.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("could not start the async runtime: {error}"))
}

/// Connects the servers of `--mcp-config`, each stdio server seeing `environment` of this
/// process's variables (less those the list references) and its own `env`; the failed ones
/// become warnings. Also the variables the list references, which nothing else a tool starts
/// may see.
#[cfg(feature = "mcp")]
pub fn connect(
    path: &Path,
    runtime: &tokio::runtime::Runtime,
    environment: &EnvPolicy,
) -> Result<(Live, Vec<String>, Vec<String>), String> {
    use toolreg_mcp::{McpConfig, McpHub, ServerState, Timeouts};
    let mut config = McpConfig::load(path).map_err(|error| format!("--mcp-config {error}"))?;
    config.credentials = crate::login::credentials_path();
    config.environment = environment.clone();
    let referenced = config.referenced_variables();
    let hub = runtime.block_on(McpHub::connect(&config, Timeouts::default()));
    let warnings = hub
        .statuses()
        .into_iter()
        .filter_map(|status| match status.state {
            ServerState::Failed(error) => Some(format!("skipped: {error}")),
            _ => None,
        })
        .collect();
    Ok((hub, warnings, referenced))
}

#[cfg(not(feature = "mcp"))]
pub fn connect(
    _: &Path,
    _: &tokio::runtime::Runtime,
    _: &EnvPolicy,
) -> Result<(Live, Vec<String>, Vec<String>), String> {
    Err("--mcp-config: this toolreg was built without the `mcp` feature".into())
}

/// What the processes tools start see of this environment: every name holding a secret's
/// word, toolreg's own `TOOLREG_*` variables and the `hidden` names dropped; the `--keep-env`
/// names kept, unless hidden.
pub fn environment(args: &PoolArgs, hidden: &[String]) -> EnvPolicy {
    let policy = EnvPolicy::default().drop_matching(TOOLREG_PREFIX);
    let policy = (args.keep_env.iter())
        .filter(|name| !hidden.contains(name))
        .fold(policy, |policy, name| policy.keep(name));
    hidden.iter().fold(policy, |policy, name| policy.drop(name))
}

/// The live servers' `tools/list` results, to load with the `--mcp` files.
#[cfg(feature = "mcp")]
fn lists(live: &Live) -> Vec<(String, Value)> {
    live.lists()
}

#[cfg(not(feature = "mcp"))]
fn lists(live: &Live) -> Vec<(String, Value)> {
    match *live {}
}

fn kind(context: Context) -> AgentKind {
    match context {
        Context::Main => AgentKind::Main,
        Context::Subagent => AgentKind::SubAgent,
        Context::CustomAgent => AgentKind::CustomAgent,
        Context::Async => AgentKind::Async,
        Context::Teammate => AgentKind::InProcessTeammate,
        Context::Coordinator => AgentKind::Coordinator,
    }
}

/// The largest `--mcp` file read: 64 MiB (the eleven real servers of the fixtures send 300 KB
/// together).
const MAX_MCP_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a text file of at most `cap` bytes, checked before reading.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|error| error.to_string())?;
    let mut text = String::new();
    file.take(cap + 1)
        .read_to_string(&mut text)
        .map_err(|error| error.to_string())?;
    if text.len() as u64 > cap {
        return Err(format!(
            "larger than the {cap}-byte limit of a tools/list file"
        ));
    }
    Ok(text)
}

/// Loads the `--mcp SERVER=FILE` options (or the demo catalog) into `loader`, one file at a
/// time: each file's text is read, loaded entry by entry and dropped before the next.
fn load_files(args: &PoolArgs, loader: &mut McpLoader) -> Result<(), String> {
    if args.mcp.is_empty() && args.mcp_config.is_none() {
        if args.no_demo {
            return Ok(());
        }
        for (name, text) in demo::SERVERS {
            loader
                .add_json(name, text)
                .map_err(|error| format!("demo catalog `{name}`: {error}"))?;
        }
        return Ok(());
    }
    for option in &args.mcp {
        let (server, file) = option
            .split_once('=')
            .filter(|(server, file)| !server.is_empty() && !file.is_empty())
            .ok_or_else(|| format!("--mcp {option:?}: expected SERVER=FILE"))?;
        let text = read_capped(Path::new(file), MAX_MCP_FILE_BYTES)
            .map_err(|error| format!("--mcp {server}={file}: {error}"))?;
        // serde_json's message already ends with "at line L column C".
        loader
            .add_json(server, &text)
            .map_err(|error| format!("--mcp {server}={file}: not JSON: {error}"))?;
    }
    Ok(())
}

/// Builds the environment and the pool. No process a tool starts sees the `hidden` variables
/// (a gateway's tokens) nor those `--mcp-config` references.
pub fn setup(args: &PoolArgs, hidden: &[String]) -> Result<Setup, String> {
    let mut environment = environment(args, hidden);
    let mut env = profile::env_from_env(toolreg_tools::features());
    for (flag, on) in [
        (switch::SIMPLE, args.simple),
        (switch::REPL, args.repl),
        (switch::EMBEDDED_SEARCH_TOOLS, args.embedded_search),
        (switch::COORDINATOR, args.context == Context::Coordinator),
    ] {
        if on {
            env.switches.set(flag, true);
        }
    }
    for rule in &args.callable_from_code {
        env.callers
            .allow(rule, AllowedCallers::DIRECT_AND_CODE)
            .map_err(|error| format!("--callable-from-code: {error}"))?;
    }
    let mut permissions = profile::permissions_from_env();
    for (behavior, flag, rules) in [
        (Behavior::Deny, "--deny", &args.deny),
        (Behavior::Allow, "--allow", &args.allow),
        (Behavior::Ask, "--ask", &args.ask),
    ] {
        for rule in rules {
            permissions
                .try_add(behavior, RuleSource::CliArg, rule)
                .map_err(|error| format!("{flag}: {error}"))?;
        }
    }
    permissions.mode = match args.permission_mode {
        Mode::Default => PermissionMode::Default,
        Mode::AcceptEdits => PermissionMode::AcceptEdits,
        Mode::Bypass => PermissionMode::BypassPermissions,
        Mode::Plan => PermissionMode::Plan,
    };
    for dir in &args.add_dir {
        permissions.add_working_directory(dir);
    }
    let runtime = runtime()?;
    let mut loader = McpLoader::new();
    load_files(args, &mut loader)?;
    let mut warnings = Vec::new();
    let live = match &args.mcp_config {
        None => None,
        Some(path) => {
            let (live, failed, referenced) = connect(path, &runtime, &environment)?;
            environment = referenced
                .iter()
                .fold(environment, |policy, name| policy.drop(name));
            warnings.extend(failed);
            for (server, listed) in lists(&live) {
                loader.add(&server, &listed);
            }
            Some(live)
        }
    };
    let loaded = loader.finish();
    warnings.extend(
        loaded
            .errors
            .iter()
            .map(|error| format!("skipped: {error}")),
    );
    // The design's whole set: the command line shows and runs every built-in of this build.
    let catalog = toolreg_tools::catalog().map_err(|error| error.to_string())?;
    let assembled = assemble_tool_pool(&env, &permissions, &catalog, &loaded.tools);
    let pool = filter_tools_for_agent(&assembled, kind(args.context), &env);
    Ok(Setup {
        env,
        rules: permissions,
        pool,
        warnings,
        runtime,
        live,
        sandbox: SandboxChoice {
            wanted: !args.no_sandbox,
            network: !args.no_network,
        },
        environment,
        mcp_config: args.mcp_config.clone(),
    })
}

//! MCP against real servers (installed by `tests/mcp-peers/install.sh`; without them the
//! benchmarks say so and measure nothing):
//!
//! * `connect_five`: from nothing to a complete pool of the five servers of MCP-GROUND.md
//!   (everything, filesystem, memory, git, time), each a new child process;
//! * `call_upstream` vs `call_through_gateway`: one `tools/call` of mcp-server-time straight from
//!   the hub, and the same call from an rmcp client through an in-process [`Gateway`] (rules,
//!   dispatch, the turn runner, the forward): the difference is the gateway's overhead per
//!   forwarded call.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::json;
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::{Dispatcher, Env, PermissionContext, ToolContext};
use toolreg_mcp::{Gateway, GatewayMode, McpConfig, McpHub, ServerSpec, Timeouts, Transport};

fn main() {
    divan::main();
}

fn peers() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/mcp-peers");
    let ok = dir.join("venv/bin/mcp-server-time").exists()
        && dir
            .join("node/node_modules/.bin/mcp-server-everything")
            .exists();
    if !ok {
        eprintln!("skipped: MCP peers not installed: run tests/mcp-peers/install.sh");
    }
    ok.then_some(dir)
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

fn five(peers: &Path, scratch: &Path) -> McpConfig {
    let bin = |path: &str| peers.join(path).to_string_lossy().into_owned();
    let fsroot = scratch.join("fsroot");
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&fsroot).unwrap();
    std::fs::create_dir_all(&repo).unwrap();
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&repo)
        .status()
        .unwrap();
    let mut memory = ServerSpec::stdio(
        "memory",
        bin("node/node_modules/.bin/mcp-server-memory"),
        Vec::<String>::new(),
    );
    if let Transport::Stdio { env, .. } = &mut memory.transport {
        env.insert(
            "MEMORY_FILE_PATH".into(),
            scratch.join("memory.jsonl").to_string_lossy().into_owned(),
        );
    }
    McpConfig {
        servers: vec![
            ServerSpec::stdio(
                "everything",
                bin("node/node_modules/.bin/mcp-server-everything"),
                ["stdio"],
            ),
            ServerSpec::stdio(
                "filesystem",
                bin("node/node_modules/.bin/mcp-server-filesystem"),
                [fsroot.to_string_lossy().into_owned()],
            ),
            memory,
            ServerSpec::stdio(
                "git",
                bin("venv/bin/mcp-server-git"),
                [
                    "--repository".to_owned(),
                    repo.to_string_lossy().into_owned(),
                ],
            ),
            ServerSpec::stdio(
                "time",
                bin("venv/bin/mcp-server-time"),
                ["--local-timezone", "UTC"],
            ),
        ],
        ..McpConfig::default()
    }
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn connect_five(bencher: divan::Bencher) {
    let Some(peers) = peers() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let config = five(&peers, scratch.path());
    bencher.bench(|| {
        runtime().block_on(async {
            let hub = McpHub::connect(&config, Timeouts::default()).await;
            let tools = hub.tools().tools.len();
            assert_eq!(tools, 50, "{:?}", hub.statuses());
            hub.close().await;
            tools
        })
    });
}

struct Time {
    hub: Arc<McpHub>,
    client: RunningService<RoleClient, ()>,
}

/// The hub on mcp-server-time, and an rmcp client of a gateway over it.
fn time() -> Option<&'static Time> {
    static TIME: OnceLock<Option<Time>> = OnceLock::new();
    TIME.get_or_init(|| {
        let peers = peers()?;
        let time = ServerSpec::stdio(
            "time",
            peers
                .join("venv/bin/mcp-server-time")
                .to_string_lossy()
                .into_owned(),
            ["--local-timezone", "UTC"],
        );
        let config = McpConfig {
            servers: vec![time],
            ..McpConfig::default()
        };
        Some(runtime().block_on(async {
            let hub = McpHub::connect(&config, Timeouts::default()).await;
            let mut rules = PermissionContext::new();
            rules.add(
                toolreg::Behavior::Allow,
                toolreg::RuleSource::User,
                "mcp__time",
            );
            let dispatcher = Dispatcher::new(
                Env::default(),
                rules,
                toolreg::Pool::new(&Env::default(), hub.tools().tools),
                ".",
            )
            .with_mcp(hub.clone());
            let gateway = Gateway::new(dispatcher, |tool| tool.is_mcp(), GatewayMode::Direct);
            let (client_end, server_end) = tokio::io::duplex(1 << 16);
            tokio::spawn(async move {
                let (read, write) = tokio::io::split(server_end);
                if let Ok(running) = gateway.serve((read, write)).await {
                    let _ = running.waiting().await;
                }
            });
            let (read, write) = tokio::io::split(client_end);
            let client = ().serve((read, write)).await.unwrap();
            Time { hub, client }
        }))
    })
    .as_ref()
}

#[divan::bench(sample_count = 50)]
fn call_upstream(bencher: divan::Bencher) {
    let Some(time) = time() else { return };
    let switches = toolreg::env::Switches::default();
    let input = json!({"timezone": "UTC"});
    bencher.bench(|| {
        runtime().block_on(async {
            let ctx = ToolContext::new(Path::new("."), &switches);
            let call = McpCall {
                server: "time",
                tool: "get_current_time",
                input: &input,
                ctx: &ctx,
            };
            time.hub.call_tool(call).await.unwrap()
        })
    });
}

#[divan::bench(sample_count = 50)]
fn call_through_gateway(bencher: divan::Bencher) {
    let Some(time) = time() else { return };
    let arguments = json!({"timezone": "UTC"}).as_object().cloned().unwrap();
    bencher.bench(|| {
        runtime().block_on(async {
            let params = CallToolRequestParams::new("mcp__time__get_current_time")
                .with_arguments(arguments.clone());
            let result = time.client.call_tool(params).await.unwrap();
            assert_ne!(result.is_error, Some(true), "{result:?}");
            result
        })
    });
}

//! The HTTP gateway shared by many agents, over real loopback HTTP: what one token's client can
//! reach ([`isolation`]) and what many clients at once get ([`load`]). The upstream servers are
//! `tests/peers/recording.py` (plain `python3`, no SDK), which log every call they run, and two
//! built-ins of this test binary, which log theirs too: so "called" is seen on the tool's side,
//! not only in what the gateway answers.

mod isolation;
mod load;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt as _, RoleClient};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolreg::{
    Catalog, Dispatcher, Env, PermissionContext, PermissionMode, Tool, ToolContext, ToolError,
    assemble_tool_pool, builtins, tool,
};
use toolreg_mcp::{
    Gateway, HttpGateway, HttpOptions, McpConfig, McpHub, ServerSpec, ServerState, Timeouts,
};

/// Every call the built-ins below ran: (tool, the caller's `by`).
static BUILTIN_CALLS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// Writes a note (a built-in of this test binary; it records who called it).
#[tool(read_only, concurrency_safe)]
#[derive(Deserialize)]
pub struct NoteTool {
    /// Who calls.
    pub by: String,
}

impl Tool for NoteTool {
    type Output = String;
    async fn call(self, _ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        record("Note", &self.by);
        Ok(format!("Note by {}", self.by))
    }
}

/// Stamps a paper (a built-in of this test binary; it records who called it).
#[tool(read_only, concurrency_safe)]
#[derive(Deserialize)]
pub struct StampTool {
    /// Who calls.
    pub by: String,
}

impl Tool for StampTool {
    type Output = String;
    async fn call(self, _ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        record("Stamp", &self.by);
        Ok(format!("Stamp by {}", self.by))
    }
}

fn record(tool: &str, by: &str) {
    let mut calls = BUILTIN_CALLS.lock().unwrap_or_else(|e| e.into_inner());
    calls.push((tool.to_owned(), by.to_owned()));
}

/// The built-in calls recorded so far, from `from` on.
pub fn builtin_calls(from: usize) -> Vec<(String, String)> {
    let calls = BUILTIN_CALLS.lock().unwrap_or_else(|e| e.into_inner());
    calls.get(from..).unwrap_or_default().to_vec()
}

/// A `recording.py` server: its name, its tools, and the log of the calls it ran.
pub struct Upstream {
    pub name: String,
    pub tools: Vec<String>,
    pub log: PathBuf,
}

impl Upstream {
    pub fn new(dir: &Path, name: &str, tools: &[&str]) -> Upstream {
        Upstream {
            name: name.to_owned(),
            tools: tools.iter().map(|tool| (*tool).to_owned()).collect(),
            log: dir.join(format!("{name}.log")),
        }
    }

    pub fn spec(&self) -> ServerSpec {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/recording.py");
        ServerSpec::stdio(
            &self.name,
            "python3",
            [
                script.to_string_lossy().into_owned(),
                self.name.clone(),
                json!(self.tools).to_string(),
                self.log.to_string_lossy().into_owned(),
            ],
        )
    }

    /// The calls it ran, from the `from`th on: (pool name, the caller's `by`).
    pub fn calls(&self, from: usize) -> Vec<(String, String)> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        (text.lines().skip(from))
            .map(|line| {
                let call: Value = serde_json::from_str(line).unwrap();
                let tool = call["tool"].as_str().unwrap();
                let by = call["arguments"]["by"].as_str().unwrap_or_default();
                (format!("mcp__{}__{tool}", self.name), by.to_owned())
            })
            .collect()
    }

    /// The process id of its Python process, seen from here (the hub starts it contained, in
    /// a process namespace of its own where it has another id): the one whose command line
    /// names its log; `None` when there is none.
    pub fn pid(&self) -> Option<u32> {
        let log = self.log.to_string_lossy().into_owned();
        let entries = std::fs::read_dir("/proc").ok()?;
        entries.filter_map(Result::ok).find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let args: Vec<&[u8]> = cmdline.split(|byte| *byte == 0).collect();
            let program = String::from_utf8_lossy(args.first()?).into_owned();
            let python =
                (program.rsplit('/').next()).is_some_and(|name| name.starts_with("python"));
            let script = args.get(1)?.ends_with(b"recording.py");
            let ours = args.contains(&log.as_bytes());
            (python && script && ours).then_some(pid)
        })
    }
}

/// The host: the upstreams connected in a hub, the built-ins, and a dispatcher over them that
/// asks nothing (each token's policy adds its rules on top).
pub struct Host {
    pub hub: Arc<McpHub>,
    pub dispatcher: Dispatcher,
}

pub async fn host(upstreams: &[Upstream]) -> Host {
    let config = McpConfig {
        servers: upstreams.iter().map(Upstream::spec).collect(),
        ..McpConfig::default()
    };
    let timeouts = Timeouts {
        connect: Duration::from_secs(60),
        retry_after: Duration::from_millis(100),
        ..Timeouts::default()
    };
    let hub = McpHub::connect(&config, timeouts).await;
    for status in hub.statuses() {
        assert!(
            matches!(status.state, ServerState::Connected { .. }),
            "{status:?}"
        );
    }
    let env = Env::default();
    let mut rules = PermissionContext::new();
    rules.mode = PermissionMode::BypassPermissions;
    let catalog = Catalog::new(builtins().unwrap(), &[]);
    let pool = assemble_tool_pool(&env, &rules, &catalog, &hub.tools().tools);
    let dispatcher = Dispatcher::new(env, rules, pool, ".").with_mcp(hub.clone());
    Host { hub, dispatcher }
}

/// An [`HttpGateway`] serving on a free loopback port until stopped.
pub struct Served {
    pub url: String,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

pub async fn serve(routes: Vec<(String, Gateway)>) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let stop = CancellationToken::new();
    let gateway = HttpGateway::new(routes, &HttpOptions::default()).unwrap();
    let task = tokio::spawn(gateway.serve(listener, stop.clone()));
    Served { url, stop, task }
}

impl Served {
    /// Stops it and waits for the requests in flight.
    pub async fn stop(self) {
        self.stop.cancel();
        self.task.await.unwrap();
    }
}

/// An MCP client of the gateway (rmcp's, on the 2026-07-28 lane), with its bearer token.
pub struct Agent(RunningService<RoleClient, ()>);

/// What a call answered.
#[derive(Debug)]
pub struct Called {
    pub is_error: bool,
    pub text: String,
    pub structured: Option<Value>,
}

impl Agent {
    pub async fn connect(url: &str, token: &str) -> Agent {
        let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned())
            .auth_header(token.to_owned());
        let transport = StreamableHttpClientTransport::from_config(config);
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let service = ().serve_with_lifecycle(transport, lifecycle).await.unwrap();
        let protocol = service
            .peer_info()
            .map(|info| info.protocol_version.clone());
        assert_eq!(protocol, Some(ProtocolVersion::V_2026_07_28));
        Agent(service)
    }

    /// The names `tools/list` offers, and each one's input schema.
    pub async fn list(&self) -> Vec<(String, Value)> {
        let tools = self.0.list_all_tools().await.unwrap();
        (tools.into_iter())
            .map(|tool| {
                let schema = Value::Object((*tool.input_schema).clone());
                (tool.name.into_owned(), schema)
            })
            .collect()
    }

    /// Calls `name` with `arguments`; `Err` when no result came back (a transport or protocol
    /// error).
    pub async fn try_call(&self, name: &str, arguments: Value) -> Result<Called, String> {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object")
        };
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        let result = self.0.call_tool(params).await.map_err(|e| e.to_string())?;
        let text = (result.content.iter())
            .filter_map(|block| block.as_text().map(|text| text.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(Called {
            is_error: result.is_error == Some(true),
            text,
            structured: result.structured_content,
        })
    }

    pub async fn call(&self, name: &str, arguments: Value) -> Called {
        self.try_call(name, arguments).await.unwrap()
    }

    pub async fn close(self) {
        let _ = self.0.cancel().await;
    }
}

/// A raw `tools/list` POST with this `Authorization` header (none when `None`): the status,
/// the `WWW-Authenticate` header and the body.
pub async fn raw_list(url: &str, authorization: Option<&str>) -> (u16, Option<String>, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/list")
        .body(body.to_string());
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let challenge = (response.headers().get("www-authenticate"))
        .map(|value| value.to_str().unwrap().to_owned());
    (status, challenge, response.text().await.unwrap())
}

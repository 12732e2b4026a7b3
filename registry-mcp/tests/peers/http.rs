//! The peers that serve Streamable HTTP on 127.0.0.1: processes the tests can kill and start
//! again on the same port.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::Peers;

/// A server process listening on 127.0.0.1, killed when dropped.
pub struct HttpPeer {
    pub url: String,
    port: u16,
    program: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
    child: Option<Child>,
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        self.kill();
    }
}

impl HttpPeer {
    fn start(program: String, args: Vec<String>, env: Vec<(String, String)>) -> HttpPeer {
        let port = free_port();
        let mut peer = HttpPeer {
            url: format!("http://127.0.0.1:{port}/mcp"),
            port,
            program,
            args,
            env,
            child: None,
        };
        peer.restart();
        peer
    }

    /// Kills the process (as a crash would: SIGKILL) and waits until it is gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the process again on the same port (killing it first if it runs) and waits until
    /// it listens.
    pub fn restart(&mut self) {
        self.kill();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("PORT", self.port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for(self.port, &mut child);
        self.child = Some(child);
    }
}

/// A port on 127.0.0.1 nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until `port` accepts connections (the process may take seconds to start on a loaded
/// machine); panics if the process exits first.
pub fn wait_for(port: u16, child: &mut Child) {
    loop {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the HTTP peer exited before listening: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

impl Peers {
    /// `tests/mcp-peers/servers/http_bearer.py`: the Python SDK over Streamable HTTP, stateless,
    /// every request needing `Authorization: Bearer <token>` (and `X-Api-Key: <key>` when given).
    pub fn http_bearer(&self, token: &str, api_key: Option<&str>) -> HttpPeer {
        let mut env = Vec::new();
        if let Some(key) = api_key {
            env.push(("API_KEY", key));
        }
        self.http_python(token, &env)
    }

    /// `http_bearer.py` with more of its environment (`STATEFUL=1` for 2025-11-25 sessions,
    /// `LEGACY=1` to refuse 2026-07-28).
    pub fn http_python(&self, token: &str, env: &[(&str, &str)]) -> HttpPeer {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let script = workspace.join("tests/mcp-peers/servers/http_bearer.py");
        let mut vars = vec![("MCP_TOKEN".to_owned(), token.to_owned())];
        vars.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        HttpPeer::start(
            self.bin("venv/bin/python"),
            vec![script.to_string_lossy().into_owned()],
            vars,
        )
    }

    /// `@modelcontextprotocol/server-everything` in its Streamable HTTP mode (stateful, 2025-11-25).
    pub fn everything_http(&self) -> HttpPeer {
        HttpPeer::start(
            self.bin("node/node_modules/.bin/mcp-server-everything"),
            vec!["streamableHttp".to_owned()],
            Vec::new(),
        )
    }
}

/// A hub over one server called `remote` at `server`'s URL, with the token `tok`.
pub async fn connect_remote(
    server: &HttpPeer,
    timeouts: toolreg_mcp::Timeouts,
) -> std::sync::Arc<toolreg_mcp::McpHub> {
    let config = toolreg_mcp::McpConfig::parse(
        &serde_json::json!({"mcpServers": {"remote": {"url": server.url,
            "headers": {"Authorization": "Bearer tok"}}}})
        .to_string(),
    )
    .unwrap();
    toolreg_mcp::McpHub::connect(&config, timeouts).await
}

/// The names in the hub's pool.
pub fn names(hub: &toolreg_mcp::McpHub) -> Vec<String> {
    hub.tools().tools.iter().map(|t| t.name.clone()).collect()
}

/// Calls `remote`'s `tool` (`add_tool` or `remove_tool`, which change its list) with `name`,
/// waits for the hub to hear of the change (a bounded wait: a lost notification fails here
/// rather than hanging), and refreshes.
pub async fn change(hub: &std::sync::Arc<toolreg_mcp::McpHub>, tool: &str, name: &str) {
    let call = toolreg::ToolCall::new(
        "c",
        format!("mcp__remote__{tool}"),
        serde_json::json!({"name": name}),
    );
    let result = super::dispatcher(hub).dispatch(&call).await;
    assert!(!result.is_error(), "{result:?}");
    tokio::time::timeout(std::time::Duration::from_secs(30), hub.changed())
        .await
        .unwrap_or_else(|_| panic!("the hub heard no tools/list_changed after {tool}"));
    assert_eq!(hub.refresh().await, ["remote"]);
}

//! One live server: the child process, the MCP session on rmcp, its tool list, its calls.

use std::collections::HashMap;
use std::fmt;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use registry_core::dispatch::McpCall;
use registry_core::sandbox::contained;
use registry_core::{ToolError, ToolOutput};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientRequest, Implementation, ListToolsRequest, PaginatedRequestParams,
    ProgressNotificationParam, ProgressToken, ProtocolVersion, ServerResult, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt as _, NotificationContext, PeerRequestOptions,
    RunningService,
};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, Peer, RoleClient};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt as _;
use tokio::sync::{Notify, mpsc};

use crate::config::{ServerSpec, Transport};
use crate::content::call_result_to_output;

/// The most tool entries read from one server's `tools/list` pages: one more than
/// [`McpLimits::max_tools_per_server`](registry_core::mcp::McpLimits)'s default, so loading
/// reports the excess.
pub const MAX_LISTED_TOOLS: usize = 10_001;

/// The most bytes of a server's stderr kept for its error messages (the last ones).
const STDERR_TAIL_BYTES: usize = 2048;

/// Why a server is not connected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The entry names a transport this build does not connect.
    Unsupported(String),
    /// The process could not be started.
    Spawn(String),
    /// A stage did not finish in time: `handshake` or `tools/list`.
    TimedOut {
        /// The stage.
        stage: &'static str,
        /// The time it had.
        after: Duration,
    },
    /// The handshake failed (the process exited, or spoke no MCP).
    Handshake(String),
    /// `tools/list` failed.
    ListTools(String),
    /// The session ended.
    Closed,
}

/// A server that could not be connected, or no longer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerError {
    /// The server, as configured.
    pub server: String,
    /// What went wrong.
    pub problem: Problem,
    /// The end of what the server wrote to stderr, when it wrote anything.
    pub stderr: Option<String>,
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server `{}`: ", self.server)?;
        match &self.problem {
            Problem::Unsupported(what) => write!(f, "{what}")?,
            Problem::Spawn(error) => write!(f, "could not start it: {error}")?,
            Problem::TimedOut { stage, after } => {
                write!(f, "{stage} timed out after {:.1} s", after.as_secs_f64())?;
            }
            Problem::Handshake(error) => write!(f, "handshake failed: {error}")?,
            Problem::ListTools(error) => write!(f, "tools/list failed: {error}")?,
            Problem::Closed => write!(f, "the session ended")?,
        }
        if let Some(stderr) = &self.stderr {
            write!(f, " (stderr: {})", stderr.trim())?;
        }
        Ok(())
    }
}

impl std::error::Error for ServerError {}

/// What the session's handler shares with the connection.
#[derive(Default)]
struct Shared {
    /// Set by `tools/list_changed`; cleared when the list is fetched again.
    stale: AtomicBool,
    /// Woken at every `tools/list_changed` of any server of the hub.
    changed: Arc<Notify>,
    /// Where each running call's progress goes, by its progress token.
    progress: Mutex<HashMap<ProgressToken, mpsc::UnboundedSender<ProgressNotificationParam>>>,
}

#[derive(Clone)]
struct Handler(Arc<Shared>);

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("toolreg", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.0.mark_stale();
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let progress = self.0.progress.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = progress.get(&params.progress_token) {
            let _ = sender.send(params);
        }
    }
}

impl Shared {
    fn mark_stale(&self) {
        self.stale.store(true, Ordering::SeqCst);
        self.changed.notify_one();
    }
}

/// A live session with one server.
pub(crate) struct Connection {
    service: RunningService<RoleClient, Handler>,
    shared: Arc<Shared>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The negotiated protocol version.
    pub(crate) protocol: String,
}

/// How long connecting and calling may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Starting the process and the handshake. Default 30 s (Python servers take 2–4 s to
    /// answer on a loaded machine).
    pub connect: Duration,
    /// One `tools/list` (all its pages). Default 30 s.
    pub list: Duration,
    /// One `tools/call`, restarted by each progress notification. Default 120 s.
    pub call: Duration,
    /// How long after a failed connection [`McpHub::reconnect`](crate::McpHub::reconnect)
    /// first tries again; the wait doubles with each failure. Default 1 s.
    pub retry_after: Duration,
    /// The longest wait between tries. Default 60 s.
    pub retry_max: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(30),
            list: Duration::from_secs(30),
            call: Duration::from_secs(120),
            retry_after: Duration::from_secs(1),
            retry_max: Duration::from_secs(60),
        }
    }
}

impl Connection {
    /// Starts the server and runs the handshake: `server/discover` first (2026-07-28), the
    /// `initialize` handshake (2025-11-25) for servers that do not know it.
    pub(crate) async fn open(
        spec: &ServerSpec,
        timeouts: Timeouts,
        changed: Arc<Notify>,
    ) -> Result<Connection, ServerError> {
        let fail = |problem, stderr: Option<String>| ServerError {
            server: spec.name.clone(),
            problem,
            stderr,
        };
        let Transport::Stdio {
            command,
            args,
            env,
            cwd,
        } = &spec.transport
        else {
            return Err(fail(
                Problem::Unsupported(
                    "Streamable HTTP servers are not connected by this build".into(),
                ),
                None,
            ));
        };
        // Contained: what the server starts (behind `sh -c`, npx or uvx, its helpers) dies
        // with it, and it dies with this process (registry_core::sandbox::contained).
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        let mut child = tokio::process::Command::from(contained(command.as_ref(), &args));
        // Killed when its session is dropped, also when no runtime is left to run rmcp's own
        // cleanup (a hub dropped while the server still starts, or at the end of a program).
        child.envs(env).kill_on_drop(true);
        if let Some(dir) = cwd {
            child.current_dir(dir);
        }
        let (transport, stderr_pipe) = TokioChildProcess::builder(child)
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| fail(Problem::Spawn(format!("{command}: {error}")), None))?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = stderr_pipe {
            let tail = Arc::clone(&stderr);
            tokio::spawn(async move {
                let mut buffer = [0u8; 1024];
                while let Ok(read @ 1..) = pipe.read(&mut buffer).await {
                    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                    tail.extend_from_slice(buffer.get(..read).unwrap_or_default());
                    let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                    tail.drain(..excess);
                }
            });
        }
        let shared = Arc::new(Shared {
            changed,
            ..Shared::default()
        });
        let lifecycle = ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        };
        let handshake = Handler(Arc::clone(&shared)).serve_with_lifecycle(transport, lifecycle);
        let tail = || stderr_tail(&stderr);
        let service = match tokio::time::timeout(timeouts.connect, handshake).await {
            Err(_) => {
                let after = timeouts.connect;
                return Err(fail(
                    Problem::TimedOut {
                        stage: "handshake",
                        after,
                    },
                    tail(),
                ));
            }
            Ok(Err(error)) => return Err(fail(Problem::Handshake(error.to_string()), tail())),
            Ok(Ok(service)) => service,
        };
        let info = service.peer_info();
        let protocol = info
            .as_ref()
            .map_or("unknown", |info| info.protocol_version.as_str())
            .to_owned();
        let list_changed = info
            .as_ref()
            .and_then(|info| info.capabilities.tools.as_ref())
            .and_then(|tools| tools.list_changed)
            == Some(true);
        let connection = Connection {
            service,
            shared,
            stderr,
            protocol,
        };
        // On the 2026-07-28 lane a server sends `tools/list_changed` only on a subscription,
        // which a server that does not advertise the capability refuses.
        let modern = info.is_some_and(|info| !info.protocol_version.has_initialize());
        if modern && list_changed {
            connection.listen_for_changes();
        }
        Ok(connection)
    }

    fn listen_for_changes(&self) {
        let peer = self.service.peer().clone();
        let shared = Arc::clone(&self.shared);
        tokio::spawn(async move {
            let filter = SubscriptionFilter::builder().tools_list_changed().build();
            let Ok(mut subscription) = peer.listen(filter).await else {
                return;
            };
            while let Ok(Some(_)) = subscription.next().await {
                shared.mark_stale();
            }
        });
    }

    /// The server's tools, all pages, as `{"tools": [...]}`, each entry as the server sent it.
    ///
    /// The pages are read as JSON, not as rmcp's typed tools: one malformed entry (a schema
    /// that is not an object, a missing name) would fail the whole typed list, while
    /// [`load_servers`](registry_core::mcp::load_servers) skips and reports just that entry.
    /// A server that repeats a cursor, or sends more than [`MAX_LISTED_TOOLS`] entries, is
    /// cut off there.
    pub(crate) async fn list_tools(
        &self,
        name: &str,
        timeout: Duration,
    ) -> Result<Value, ServerError> {
        self.shared.stale.store(false, Ordering::SeqCst);
        let fail = |problem| ServerError {
            server: name.to_owned(),
            problem,
            stderr: stderr_tail(&self.stderr),
        };
        match tokio::time::timeout(timeout, self.list_pages()).await {
            Err(_) => Err(fail(Problem::TimedOut {
                stage: "tools/list",
                after: timeout,
            })),
            Ok(Err(message)) => Err(fail(Problem::ListTools(message))),
            Ok(Ok(tools)) => Ok(json!({ "tools": tools })),
        }
    }

    async fn list_pages(&self) -> Result<Vec<Value>, String> {
        let peer = self.service.peer();
        let (mut tools, mut cursors) = (Vec::new(), std::collections::HashSet::new());
        let mut cursor: Option<String> = None;
        loop {
            let request = ClientRequest::ListToolsRequest(ListToolsRequest {
                method: Default::default(),
                params: cursor
                    .clone()
                    .map(|cursor| PaginatedRequestParams::default().with_cursor(Some(cursor))),
                extensions: Default::default(),
            });
            let page = match peer
                .send_request(request)
                .await
                .map_err(|e| e.to_string())?
            {
                ServerResult::ListToolsResult(page) => {
                    serde_json::to_value(page).map_err(|e| e.to_string())?
                }
                ServerResult::CustomResult(page) => page.0,
                _ => return Err("the answer to tools/list is not a tool list".into()),
            };
            match page.get("tools") {
                Some(Value::Array(entries)) => {
                    let room = MAX_LISTED_TOOLS.saturating_sub(tools.len());
                    tools.extend(entries.iter().take(room).cloned());
                }
                _ => return Err("the answer to tools/list has no `tools` array".into()),
            }
            cursor = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            match &cursor {
                Some(next) if tools.len() < MAX_LISTED_TOOLS && cursors.insert(next.clone()) => {}
                _ => return Ok(tools),
            }
        }
    }

    /// Whether the server said its tools changed since they were last fetched.
    pub(crate) fn is_stale(&self) -> bool {
        self.shared.stale.load(Ordering::SeqCst)
    }

    /// Whether the session has ended (the process exited or closed its pipes).
    pub(crate) fn is_closed(&self) -> bool {
        // The service loop ends when the transport does, dropping the peer's channel.
        self.service.is_closed() || self.service.peer().is_transport_closed()
    }

    /// Runs one `tools/call`. The turn's cancellation sends `notifications/cancelled` (also
    /// when the runner drops the call for its own timeout), and the server's progress
    /// notifications reach the call's progress sink.
    pub(crate) async fn call(
        &self,
        call: McpCall<'_>,
        timeout: Duration,
    ) -> Result<ToolOutput, ToolError> {
        let arguments = call.input.as_object().cloned().unwrap_or_default();
        let params = CallToolRequestParams::new(call.tool.to_owned()).with_arguments(arguments);
        let options = PeerRequestOptions::with_timeout(timeout).reset_timeout_on_progress();
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let peer = self.service.peer();
        let handle = peer
            .send_cancellable_request(request, options)
            .await
            .map_err(|error| ToolError::new(format!("MCP server `{}`: {error}", call.server)))?;
        let (sender, mut progress) = mpsc::unbounded_channel();
        let guard = InFlight {
            peer: peer.clone(),
            id: Some(handle.id.clone()),
            token: handle.progress_token.clone(),
            shared: Arc::clone(&self.shared),
        };
        self.shared
            .progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(guard.token.clone(), sender);
        let response = handle.await_response();
        tokio::pin!(response);
        let outcome = loop {
            tokio::select! {
                biased;
                outcome = &mut response => break outcome,
                Some(update) = progress.recv() => {
                    let message = update.message.unwrap_or_default();
                    call.ctx.report_progress(message, Some((update.progress, update.total)));
                }
            }
        };
        guard.finish();
        match outcome {
            Ok(ServerResult::CallToolResult(result)) => {
                let value =
                    serde_json::to_value(&result).map_err(|e| ToolError::new(e.to_string()))?;
                call_result_to_output(&value)
            }
            Ok(_) => Err(ToolError::new(format!(
                "MCP server `{}` answered tools/call with another kind of result",
                call.server
            ))),
            Err(error) => Err(ToolError::new(format!(
                "MCP server `{}`: {error}",
                call.server
            ))),
        }
    }

    /// Ends the session; the process gets SIGTERM, then is killed.
    pub(crate) async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

/// A call on the wire: dropped before it finished (cancelled, or timed out by the runner), it
/// tells the server with `notifications/cancelled`; either way it stops routing progress.
struct InFlight {
    peer: Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
    token: ProgressToken,
    shared: Arc<Shared>,
}

impl InFlight {
    fn finish(mut self) {
        self.id = None;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.shared
            .progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.token);
        if let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current()) {
            let peer = self.peer.clone();
            runtime.spawn(async move {
                let reason = Some("cancelled by the host".to_owned());
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                    .await;
            });
        }
    }
}

fn stderr_tail(stderr: &Mutex<Vec<u8>>) -> Option<String> {
    let bytes = stderr.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

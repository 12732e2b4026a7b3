//! One live server: the child process, the MCP session on rmcp, its tool list, its calls.

use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
use toolreg::dispatch::McpCall;
use toolreg::mcp::{Layout, printable};
use toolreg::sandbox::contained;
use toolreg::{ToolError, ToolOutput};

use crate::config::{ServerSpec, Transport};
use crate::content::call_result_to_output;
use crate::limits::{Limits, Timeouts};
use crate::server_error::{Problem, ServerError};

/// The most progress notifications of one call waiting for the host.
const PROGRESS_QUEUE: usize = 64;

/// The most bytes of a server's stderr kept for its error messages (the last ones).
const STDERR_TAIL_BYTES: usize = 2048;

/// What the session's handler shares with the connection.
#[derive(Default)]
struct Shared {
    /// Set by `tools/list_changed`; cleared when the list is fetched again.
    stale: AtomicBool,
    /// Woken at every `tools/list_changed` of any server of the hub.
    changed: Arc<Notify>,
    /// Where each running call's progress goes, by its progress token.
    progress: Mutex<HashMap<ProgressToken, mpsc::Sender<ProgressNotificationParam>>>,
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
        // A server that sends progress faster than the host reads it loses the excess.
        if let Some(sender) = progress.get(&params.progress_token) {
            let _ = sender.try_send(params);
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

impl Connection {
    /// Starts the server (or reaches it over HTTP) and runs the handshake: `server/discover`
    /// first (2026-07-28), the `initialize` handshake (2025-11-25) for servers that do not know
    /// it. An HTTP server's `${VAR}`s are read from this process's environment.
    pub(crate) async fn open(
        spec: &ServerSpec,
        timeouts: Timeouts,
        changed: Arc<Notify>,
        #[cfg_attr(not(feature = "http"), allow(unused_variables))] credentials: Option<&Path>,
    ) -> Result<Connection, ServerError> {
        let fail = |problem| ServerError {
            server: spec.name.clone(),
            problem,
            stderr: None,
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        match &spec.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let transport = spawn(command, args, env, cwd.as_deref(), &stderr)
                    .map_err(|error| fail(Problem::Spawn(format!("{command}: {error}"))))?;
                Self::handshake(spec, transport, stderr, timeouts, changed).await
            }
            #[cfg(feature = "http")]
            Transport::Http {
                url,
                headers,
                oauth,
            } => {
                let oauth = oauth.is_some();
                let http = crate::http::Server {
                    spec,
                    url,
                    headers,
                    oauth,
                };
                http.open(credentials, timeouts, changed).await
            }
            #[cfg(not(feature = "http"))]
            Transport::Http { .. } => Err(fail(Problem::Unsupported(
                "Streamable HTTP servers need toolreg-mcp's `http` feature".into(),
            ))),
        }
    }

    pub(crate) async fn handshake<T, E, A>(
        spec: &ServerSpec,
        transport: T,
        stderr: Arc<Mutex<Vec<u8>>>,
        timeouts: Timeouts,
        changed: Arc<Notify>,
    ) -> Result<Connection, ServerError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let fail = |problem, stderr: Option<String>| ServerError {
            server: spec.name.clone(),
            problem,
            stderr,
        };
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
            #[cfg(feature = "http")]
            Ok(Err(error)) if error.is_authorization_required() => {
                let challenge = error.auth_challenge().map(str::to_owned);
                return Err(fail(Problem::Unauthorized { challenge }, tail()));
            }
            Ok(Err(error)) => return Err(fail(Problem::Handshake(describe(&error)), tail())),
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
    /// [`load_servers`](toolreg::mcp::load_servers) skips and reports just that entry.
    /// A server that repeats a cursor, or sends more than [`Limits::max_listed_tools`]
    /// entries, is cut off there; one that goes past another of the [`Limits`] fails.
    pub(crate) async fn list_tools(
        &self,
        name: &str,
        timeout: Duration,
        limits: &Limits,
    ) -> Result<Value, ServerError> {
        self.shared.stale.store(false, Ordering::SeqCst);
        let fail = |problem| ServerError {
            server: name.to_owned(),
            problem,
            stderr: stderr_tail(&self.stderr),
        };
        match tokio::time::timeout(timeout, self.list_pages(limits)).await {
            Err(_) => Err(fail(Problem::TimedOut {
                stage: "tools/list",
                after: timeout,
            })),
            Ok(Err(problem)) => Err(fail(problem)),
            Ok(Ok(tools)) => Ok(json!({ "tools": tools })),
        }
    }

    async fn list_pages(&self, limits: &Limits) -> Result<Vec<Value>, Problem> {
        let peer = self.service.peer();
        let (mut tools, mut cursors) = (Vec::new(), std::collections::HashSet::new());
        let (mut pages, mut bytes) = (0usize, 0usize);
        let mut cursor: Option<String> = None;
        let failed = |message: String| Problem::ListTools(message);
        loop {
            if pages >= limits.max_pages {
                return Err(Problem::ListOverLimit {
                    limit: "max_pages",
                    detail: format!("the listing went on past {} pages", limits.max_pages),
                });
            }
            pages += 1;
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
                .map_err(|e| failed(peer_text(&e)))?
            {
                ServerResult::ListToolsResult(page) => {
                    serde_json::to_value(page).map_err(|e| failed(e.to_string()))?
                }
                ServerResult::CustomResult(page) => page.0,
                _ => return Err(failed("the answer to tools/list is not a tool list".into())),
            };
            let size = json_bytes(&page);
            if size > limits.max_page_bytes {
                return Err(Problem::ListOverLimit {
                    limit: "max_page_bytes",
                    detail: format!(
                        "page {pages} has {size} bytes, over the {} a page may have",
                        limits.max_page_bytes
                    ),
                });
            }
            bytes = bytes.saturating_add(size);
            if bytes > limits.max_list_bytes {
                return Err(Problem::ListOverLimit {
                    limit: "max_list_bytes",
                    detail: format!(
                        "its {pages} pages have {bytes} bytes, over the {} a listing may have",
                        limits.max_list_bytes
                    ),
                });
            }
            match page.get("tools") {
                Some(Value::Array(entries)) => {
                    let room = limits.max_listed_tools.saturating_sub(tools.len());
                    tools.extend(entries.iter().take(room).cloned());
                }
                _ => {
                    return Err(failed(
                        "the answer to tools/list has no `tools` array".into(),
                    ));
                }
            }
            cursor = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            match &cursor {
                Some(next)
                    if tools.len() < limits.max_listed_tools && cursors.insert(next.clone()) => {}
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
        timeouts: &Timeouts,
    ) -> Result<ToolOutput, ToolError> {
        let arguments = call.input.as_object().cloned().unwrap_or_default();
        let params = CallToolRequestParams::new(call.tool.to_owned()).with_arguments(arguments);
        let options = PeerRequestOptions::with_timeout(timeouts.call)
            .reset_timeout_on_progress()
            .with_max_total_timeout(timeouts.call_total);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let peer = self.service.peer();
        let failed = |error: &rmcp::ServiceError| {
            ToolError::new(format!(
                "MCP server `{}`: {}",
                call.server,
                peer_text(error)
            ))
        };
        let handle = peer
            .send_cancellable_request(request, options)
            .await
            .map_err(|error| failed(&error))?;
        let started = Instant::now();
        let (sender, mut progress) = mpsc::channel(PROGRESS_QUEUE);
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
            // rmcp says only "request timeout" for both limits; the time taken tells which.
            Err(rmcp::ServiceError::Timeout { .. }) if started.elapsed() >= timeouts.call_total => {
                Err(ToolError::new(format!(
                    "MCP server `{}`: `{}` ran past {:.1} s, the most a call may take however \
                     much progress it sends (Timeouts::call_total); it was cancelled",
                    call.server,
                    call.tool,
                    timeouts.call_total.as_secs_f64()
                )))
            }
            Err(rmcp::ServiceError::Timeout { .. }) => Err(ToolError::new(format!(
                "MCP server `{}`: `{}` sent neither its result nor progress for {:.1} s \
                 (Timeouts::call); it was cancelled",
                call.server,
                call.tool,
                timeouts.call.as_secs_f64()
            ))),
            Err(error) => Err(failed(&error)),
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

/// An rmcp error, which may quote the server, with its control characters escaped.
fn peer_text(error: &rmcp::ServiceError) -> String {
    printable(&error.to_string(), Layout::Lines).into_owned()
}

/// The length of `value` as compact JSON, counted without building the text.
fn json_bytes(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

fn stderr_tail(stderr: &Mutex<Vec<u8>>) -> Option<String> {
    let bytes = stderr.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Starts a stdio server, contained: what it starts (behind `sh -c`, npx or uvx, its helpers)
/// dies with it, and it dies with this process (toolreg::sandbox::contained). Its stderr's
/// last bytes go to `stderr`.
fn spawn(
    command: &str,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: Option<&std::path::Path>,
    stderr: &Arc<Mutex<Vec<u8>>>,
) -> std::io::Result<TokioChildProcess> {
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
        .spawn()?;
    if let Some(mut pipe) = stderr_pipe {
        let tail = Arc::clone(stderr);
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
    Ok(transport)
}

/// An error and its causes, one after another, without the transport's type name that rmcp
/// puts in its messages (`Transport [rmcp::transport::…] error:`).
fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let strip = |text: String| match (text.find(" Transport ["), text.find("] error: ")) {
        (Some(start), Some(end)) if start < end => {
            format!(
                "{}: {}",
                text.get(..start).unwrap_or_default(),
                text.get(end + 9..).unwrap_or_default()
            )
        }
        _ => text,
    };
    let mut text = strip(error.to_string());
    let mut cause = error.source();
    while let Some(inner) = cause {
        let more = strip(inner.to_string());
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = inner.source();
    }
    text
}

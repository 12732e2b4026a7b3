//! One live server: the child process, the MCP session on rmcp, its tool list, its calls.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientRequest, Implementation, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ServerResult, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt as _, NotificationContext, PeerRequestOptions,
    RunningService,
};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError};
use tokio::sync::{Notify, mpsc};
use toolreg::dispatch::McpCall;
use toolreg::mcp::{Layout, printable};
use toolreg::{ToolError, ToolOutput};

use crate::config::{ServerSpec, Transport};
use crate::content::call_result_to_output;
use crate::limits::Timeouts;
use crate::server_error::{Problem, ServerError};
use crate::stdio::{spawn, stderr_tail};

mod listing;

/// The most progress notifications of one call waiting for the host.
const PROGRESS_QUEUE: usize = 64;

/// What the session's handler shares with the connection.
#[derive(Default)]
pub(crate) struct Shared {
    /// Set by `tools/list_changed`; cleared when the list is fetched again.
    stale: AtomicBool,
    /// Woken at every `tools/list_changed` of any server of the hub.
    changed: Arc<Notify>,
    /// Set when the server is gone though the transport is still open: a request could not
    /// be delivered, or the `subscriptions/listen` stream ended. An HTTP transport never
    /// closes by itself (each request is a new connection), so this is how a server that
    /// went away leaves the pool and becomes due for [`McpHub::reconnect`](crate::McpHub::reconnect).
    lost: AtomicBool,
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

    /// Marks the session lost when `error` says the request never reached the server (its
    /// process is gone, or its HTTP endpoint refused or dropped the connection). A refused
    /// credential is not a lost session: the server is there and said no.
    fn check(&self, error: &ServiceError) {
        let lost = match error {
            ServiceError::TransportClosed => true,
            #[cfg(feature = "http")]
            ServiceError::TransportSend(_) => error.auth_challenge().is_none(),
            #[cfg(not(feature = "http"))]
            ServiceError::TransportSend(_) => true,
            _ => false,
        };
        if lost {
            self.lost.store(true, Ordering::SeqCst);
        }
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
        environment: &toolreg::sandbox::EnvPolicy,
    ) -> Result<Connection, ServerError> {
        let fail = |problem| ServerError {
            server: spec.name.clone(),
            problem,
            stderr: None,
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::new(Shared {
            changed,
            ..Shared::default()
        });
        match &spec.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let lookup = |name: &str| std::env::var(name).ok();
                let environment = crate::config::server_environment(environment, env, lookup)
                    .map_err(|message| fail(Problem::Config(message)))?;
                let transport = spawn(command, args, &environment, cwd.as_deref(), &stderr)
                    .map_err(|error| fail(Problem::Spawn(format!("{command}: {error}"))))?;
                Self::handshake(spec, transport, stderr, timeouts, shared).await
            }
            #[cfg(feature = "http")]
            Transport::Http {
                url,
                headers,
                oauth,
            } => {
                // A new session (rmcp's answer to a 404 for the old one) may come with
                // other tools, and no `tools/list_changed` will say so.
                let renewed = Arc::clone(&shared);
                let on_new_session = Arc::new(move || renewed.mark_stale());
                let http = crate::http::Server {
                    spec,
                    url,
                    headers,
                    oauth: oauth.is_some(),
                };
                http.open(credentials, timeouts, shared, on_new_session)
                    .await
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
        shared: Arc<Shared>,
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

    /// Opens the `subscriptions/listen` stream and marks the tools stale at each
    /// notification on it. The stream ending is the session ending: the server went away
    /// (over HTTP nothing else tells, before the next request fails), or it dropped the
    /// stream, and a dropped stream is not resumed (the Python SDK keeps no replay). Either
    /// way changes may have been missed, so the connection is lost, and the hub's reconnection
    /// (a new handshake, a new stream, a fresh `tools/list`) is what catches up. A server that
    /// refuses the subscription itself keeps its session, unsubscribed.
    fn listen_for_changes(&self) {
        let peer = self.service.peer().clone();
        let shared = Arc::clone(&self.shared);
        tokio::spawn(async move {
            let filter = SubscriptionFilter::builder().tools_list_changed().build();
            let Ok(mut subscription) = peer.listen(filter).await else {
                return;
            };
            // A lag dropped notifications, which all said the same thing.
            while let Ok(Some(_)) | Err(ServiceError::SubscriptionLagged { .. }) =
                subscription.next().await
            {
                shared.mark_stale();
            }
            shared.lost.store(true, Ordering::SeqCst);
        });
    }

    /// Whether the server said its tools changed since they were last fetched.
    pub(crate) fn is_stale(&self) -> bool {
        self.shared.stale.load(Ordering::SeqCst)
    }

    /// Whether the session has ended (the process exited or closed its pipes), or the server
    /// is gone (see [`Shared::lost`]).
    pub(crate) fn is_closed(&self) -> bool {
        // The service loop ends when the transport does, dropping the peer's channel.
        self.service.is_closed()
            || self.service.peer().is_transport_closed()
            || self.shared.lost.load(Ordering::SeqCst)
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
            self.shared.check(error);
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

/// An rmcp error and its causes (which tell, say, that the connection was refused), which
/// may quote the server, with its control characters escaped.
fn peer_text(error: &rmcp::ServiceError) -> String {
    printable(&describe(error), Layout::Lines).into_owned()
}

/// An error and its causes, one after another, without the transport's type name that rmcp
/// puts in its messages (`Transport [rmcp::transport::…] error:`), and with the secret parts of
/// any URL they quote hidden ([`redact::urls_in`](crate::redact::urls_in)): a call's error
/// reaches the model.
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
    crate::redact::urls_in(&text).into_owned()
}

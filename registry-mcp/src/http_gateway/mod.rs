//! The gateway over Streamable HTTP, for many clients: every request carries a bearer token,
//! and each token has its own [`Gateway`] — its own tools, rules and mode — so what a client
//! lists, finds and calls varies only by its authorization, as the 2026-07-28 spec allows.
//!
//! Requests to `/health` answer `200 ok`. Any other request passes, in order:
//!
//! 1. the `Host` header, which must name one of [`HttpOptions::allowed_hosts`] (loopback by
//!    default, against DNS rebinding): `400` when missing, `403` otherwise;
//! 2. the `Origin` header, when there is one (browsers send it), which must be one of
//!    [`HttpOptions::allowed_origins`] (pages on this machine by default); `Origin: null` never
//!    is: `403`;
//! 3. the bearer token, which must be one the gateway knows: `401` with
//!    `WWW-Authenticate: Bearer` and nothing else.
//!
//! Then it reaches its token's gateway: at most [`HttpOptions::max_concurrent`] requests run at
//! once (the others wait), bodies past [`HttpOptions::max_body_bytes`] get `413`; requests are
//! served statelessly on 2026-07-28, and with sessions for 2025-11-25 clients, at most
//! [`HttpOptions::max_sessions_per_token`] a token (an `initialize` past them gets `429`), each
//! ending after [`HttpOptions::session_idle`] without activity.
//!
//! Connections are bounded too: at most [`HttpOptions::max_connections`] are open, and one that
//! sends no request within [`HttpOptions::header_timeout`] is closed (see [`Incident`] for what
//! happens at the limit). Accepting a connection never ends the gateway: when it fails (no file
//! descriptor left, a connection reset in the backlog), the gateway reports it, waits a moment
//! and goes on.
//!
//! Every refusal is reported as an [`Incident`] — by default one line on stderr — naming the
//! peer, the path and the reason, never a credential.

mod admission;
mod connections;
mod incident;
mod options;
mod sessions;

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use self::admission::{AllowedHost, AllowedOrigin, Kept};
use self::connections::{Admission, Connections, Slot};
use self::incident::Sink;
pub use self::incident::{Incident, RequestRefusal};
pub use self::options::{HttpOptions, HttpSetupError};
use self::sessions::Sessions;
use crate::Gateway;

type Service = StreamableHttpService<Gateway, Sessions>;

/// One token's route.
struct Route {
    token: String,
    service: Service,
}

/// The limits and checks every request and connection goes through.
struct Rules {
    hosts: Vec<AllowedHost>,
    origins: Vec<AllowedOrigin>,
    max_body_bytes: usize,
    max_sessions: usize,
    header_timeout: Duration,
}

/// The gateway of each token.
///
/// ```no_run
/// # async fn demo(gateway: toolreg_mcp::Gateway) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use toolreg_mcp::{HttpGateway, HttpOptions};
///
/// let options = HttpOptions {
///     max_sessions_per_token: 16,
///     session_idle: Duration::from_secs(300),
///     ..HttpOptions::default()
/// };
/// let http = HttpGateway::new(vec![("a-token-of-16-or-more".into(), gateway)], &options)?
///     .with_log(|incident| eprintln!("gateway: {incident}"));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8931").await?;
/// http.serve(listener, tokio_util::sync::CancellationToken::new()).await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct HttpGateway {
    routes: Arc<Vec<Route>>,
    rules: Arc<Rules>,
    permits: Arc<Semaphore>,
    connections: Arc<Connections>,
    log: Sink,
    stop: CancellationToken,
}

impl std::fmt::Debug for HttpGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the tokens.
        f.debug_struct("HttpGateway")
            .field("tokens", &self.routes.len())
            .finish_non_exhaustive()
    }
}

impl HttpGateway {
    /// A gateway serving each `(token, gateway)`: a request with `Authorization: Bearer
    /// <token>` reaches that gateway and no other. Tokens are named by their index in `tokens`
    /// in errors and incidents. Incidents go to stderr until [`with_log`](Self::with_log).
    ///
    /// # Errors
    /// Two tokens are the same, or an allowed origin is not one.
    pub fn new(
        tokens: Vec<(String, Gateway)>,
        options: &HttpOptions,
    ) -> Result<HttpGateway, HttpSetupError> {
        let mut seen = std::collections::HashMap::with_capacity(tokens.len());
        for (index, (token, _)) in tokens.iter().enumerate() {
            if let Some(first) = seen.insert(token.as_str(), index) {
                return Err(HttpSetupError::DuplicateToken {
                    first,
                    second: index,
                });
            }
        }
        let origins = (options.allowed_origins.iter())
            .map(|entry| {
                admission::allowed_origin(entry).map_err(|why| HttpSetupError::Origin {
                    entry: entry.clone(),
                    why,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let stop = CancellationToken::new();
        let routes = tokens
            .into_iter()
            .map(|(token, gateway)| {
                // rmcp checks Host and Origin again, with the same lists: these checks run
                // first, and report what they refuse.
                let mut config = StreamableHttpServerConfig::default()
                    .with_allowed_hosts(options.allowed_hosts.clone())
                    .with_allowed_origins(options.allowed_origins.clone())
                    .enforce_origin_validation();
                config.max_request_body_bytes = options.max_body_bytes;
                config.cancellation_token = stop.child_token();
                let sessions = Sessions::new(options.max_sessions_per_token, options.session_idle);
                let service = StreamableHttpService::new(
                    move || Ok(gateway.clone()),
                    Arc::new(sessions),
                    config,
                );
                Route { token, service }
            })
            .collect();
        Ok(HttpGateway {
            routes: Arc::new(routes),
            rules: Arc::new(Rules {
                hosts: (options.allowed_hosts.iter())
                    .map(|entry| admission::allowed_host(entry))
                    .collect(),
                origins,
                max_body_bytes: options.max_body_bytes,
                max_sessions: options.max_sessions_per_token.max(1),
                header_timeout: options.header_timeout,
            }),
            permits: Arc::new(Semaphore::new(options.max_concurrent.max(1))),
            connections: Connections::new(options.max_connections),
            log: incident::stderr(),
            stop,
        })
    }

    /// Reports incidents to `log` instead of stderr.
    pub fn with_log(mut self, log: impl Fn(&Incident) + Send + Sync + 'static) -> HttpGateway {
        self.log = Arc::new(log);
        self
    }

    /// Serves on `listener` until `shutdown` fires, then stops accepting, ends the clients'
    /// streams and waits for the requests in flight. Nothing a client does ends it: a failed
    /// accept is reported and tried again after a wait (10 ms, doubling up to 1 s while it
    /// keeps failing); when it failed for want of a file descriptor, the oldest connection
    /// that has sent no request is closed first.
    pub async fn serve(self, listener: TcpListener, shutdown: CancellationToken) {
        let graceful = GracefulShutdown::new();
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(self.rules.header_timeout);
        builder
            .http2()
            .timer(TokioTimer::new())
            .keep_alive_interval(Some(Duration::from_secs(60)));
        let mut wait = FIRST_RETRY;
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = shutdown.cancelled() => break,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => {
                    wait = FIRST_RETRY;
                    accepted
                }
                Err(error) => {
                    if is_out_of_descriptors(&error)
                        && let Some(peer) = self.connections.evict_oldest()
                    {
                        (self.log)(&Incident::Evicted { peer });
                    }
                    (self.log)(&Incident::AcceptFailed {
                        error: error.to_string(),
                        retry_in: wait,
                    });
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        () = shutdown.cancelled() => break,
                    }
                    wait = (wait * 2).min(LAST_RETRY);
                    continue;
                }
            };
            let slot = match self.connections.admit(peer) {
                Admission::Admitted(slot, evicted) => {
                    if let Some(peer) = evicted {
                        (self.log)(&Incident::Evicted { peer });
                    }
                    slot
                }
                Admission::Shed(open) => {
                    drop(stream);
                    (self.log)(&Incident::Shed { peer, open });
                    continue;
                }
            };
            let gateway = self.clone();
            let speaker = Arc::clone(&slot);
            let service = hyper::service::service_fn(move |request| {
                let in_flight = speaker.begin();
                let gateway = gateway.clone();
                async move {
                    let response = gateway.handle(request, peer).await;
                    Ok::<_, Infallible>(response.map(|body| in_flight.until_sent(body)))
                }
            });
            let connection = builder
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .into_owned();
            let connection = graceful.watch(connection);
            let (log, timeout) = (Arc::clone(&self.log), self.rules.header_timeout);
            let accepted = tokio::time::Instant::now();
            tokio::spawn(async move {
                let unheard_for = tokio::select! {
                    // hyper's own header timer may end it first (once it knows the version):
                    // a timeout error, or an end after the time, without a request.
                    ended = connection => ended.err().filter(|error| {
                        !slot.has_spoken()
                            && (error
                                .downcast_ref::<hyper::Error>()
                                .is_some_and(hyper::Error::is_timeout)
                                || accepted.elapsed() >= timeout)
                    }).map(|_| ()),
                    () = slot.closed() => None,
                    () = unheard(&slot, timeout) => Some(()),
                };
                if unheard_for.is_some() {
                    log(&Incident::HeaderTimeout {
                        peer,
                        after: timeout,
                    });
                }
            });
        }
        self.stop.cancel();
        graceful.shutdown().await;
    }

    async fn handle(
        &self,
        request: Request<Incoming>,
        peer: SocketAddr,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        let path = request.uri().path();
        if path == "/health" {
            return text(StatusCode::OK, "ok");
        }
        let refuse = |status: StatusCode, body: &'static str, reason: RequestRefusal| {
            (self.log)(&Incident::Refused {
                peer,
                method: incident::quoted(request.method().as_str()),
                path: incident::quoted(path),
                status: status.as_u16(),
                reason,
            });
            text(status, body)
        };
        let rules = &self.rules;
        match admission::admit(
            request.uri(),
            request.headers(),
            &rules.hosts,
            &rules.origins,
        ) {
            Ok(()) => {}
            Err(Kept::HostUnreadable(host)) => {
                let host = incident::quoted(&host);
                let body = "Bad Request: no readable Host header";
                return refuse(StatusCode::BAD_REQUEST, body, RequestRefusal::Host { host });
            }
            Err(Kept::Host(host)) => {
                let host = incident::quoted(&host);
                let body = "Forbidden: Host header is not allowed";
                return refuse(StatusCode::FORBIDDEN, body, RequestRefusal::Host { host });
            }
            Err(Kept::Origin(origin)) => {
                let origin = incident::quoted(&origin);
                let body = "Forbidden: Origin header is not allowed";
                return refuse(
                    StatusCode::FORBIDDEN,
                    body,
                    RequestRefusal::Origin { origin },
                );
            }
        }
        let (index, route) = match self.route(&request) {
            Ok(found) => found,
            Err(reason) => {
                let body = "a bearer token is required";
                let mut response = refuse(StatusCode::UNAUTHORIZED, body, reason);
                response.headers_mut().insert(
                    hyper::header::WWW_AUTHENTICATE,
                    hyper::header::HeaderValue::from_static("Bearer realm=\"toolreg\""),
                );
                return response;
            }
        };
        let (method, path) = (
            incident::quoted(request.method().as_str()),
            incident::quoted(path),
        );
        let Ok(_permit) = self.permits.acquire().await else {
            return text(StatusCode::SERVICE_UNAVAILABLE, "shutting down");
        };
        let (response, refused) = sessions::watch(route.service.handle(request)).await;
        let reason = if refused {
            let limit = rules.max_sessions;
            RequestRefusal::SessionLimit {
                token: index,
                limit,
            }
        } else if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
            RequestRefusal::BodyTooLarge {
                token: index,
                limit: rules.max_body_bytes,
            }
        } else {
            return response;
        };
        let status = if refused {
            StatusCode::TOO_MANY_REQUESTS
        } else {
            response.status()
        };
        (self.log)(&Incident::Refused {
            peer,
            method,
            path,
            status: status.as_u16(),
            reason,
        });
        if refused {
            return text(
                status,
                "Too Many Requests: this token holds all the sessions it may; end one (DELETE \
                 with its Mcp-Session-Id) or wait until one has been idle long enough to end",
            );
        }
        response
    }

    /// The index and route of the request's bearer token, compared in constant time with
    /// each; otherwise why there is none.
    fn route(&self, request: &Request<Incoming>) -> Result<(usize, &Route), RequestRefusal> {
        let header = request
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .ok_or(RequestRefusal::NoToken)?;
        let bearer = header
            .to_str()
            .ok()
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"));
        let Some((_, token)) = bearer else {
            return Err(RequestRefusal::NoToken);
        };
        let token = token.trim().as_bytes();
        let mut found = None;
        for (index, route) in self.routes.iter().enumerate() {
            if same(route.token.as_bytes(), token) {
                found = Some((index, route));
            }
        }
        found.ok_or_else(|| RequestRefusal::UnknownToken {
            fingerprint: incident::fingerprint(token),
        })
    }
}

/// The first wait after a failed accept.
const FIRST_RETRY: Duration = Duration::from_millis(10);
/// The longest wait between tries.
const LAST_RETRY: Duration = Duration::from_secs(1);

/// Whether an accept failed for want of a file descriptor (this process's or the system's).
fn is_out_of_descriptors(error: &io::Error) -> bool {
    #[cfg(unix)]
    return matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
    #[cfg(not(unix))]
    return {
        let _ = error;
        false
    };
}

/// Resolves when the connection of `slot` has sent no request within `timeout`; never when it
/// has.
async fn unheard(slot: &Slot, timeout: Duration) {
    tokio::time::sleep(timeout).await;
    if slot.has_spoken() {
        std::future::pending::<()>().await;
    }
}

/// Whether `a` and `b` are equal, in a time that depends on their lengths only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

fn text(status: StatusCode, body: &'static str) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from_static(body.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

//! The gateway over Streamable HTTP, for many clients: every request carries a bearer token,
//! and each token has its own [`Gateway`] — its own tools, rules and mode — so what a client
//! lists, finds and calls varies only by its authorization, as the 2026-07-28 spec allows.
//!
//! Requests to `/health` answer `200 ok` without a token. Any other request without a token
//! the gateway knows gets `401` with `WWW-Authenticate: Bearer` and nothing else. Requests are
//! served statelessly on 2026-07-28 (and with sessions for 2025-11-25 clients), bodies past
//! [`HttpOptions::max_body_bytes`] get `413`, at most [`HttpOptions::max_concurrent`] requests
//! run at once (the others wait), and the `Host` header must name one of
//! [`HttpOptions::allowed_hosts`] (loopback by default, against DNS rebinding).

use std::convert::Infallible;
use std::sync::Arc;

use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::Gateway;

/// How the HTTP gateway bounds what clients send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The largest request body. Default 4 MiB.
    pub max_body_bytes: usize,
    /// Requests served at once; the others wait. Default 256.
    pub max_concurrent: usize,
    /// Accepted `Host` values (`host` or `host:port`). Default: `localhost`, `127.0.0.1`,
    /// `::1`.
    pub allowed_hosts: Vec<String>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            max_body_bytes: 4 << 20,
            max_concurrent: 256,
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
        }
    }
}

type Service = StreamableHttpService<Gateway, LocalSessionManager>;

/// The gateway of each token.
#[derive(Clone)]
pub struct HttpGateway {
    routes: Arc<Vec<(String, Service)>>,
    permits: Arc<Semaphore>,
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
    /// <token>` reaches that gateway and no other.
    pub fn new(tokens: Vec<(String, Gateway)>, options: &HttpOptions) -> HttpGateway {
        let stop = CancellationToken::new();
        let routes = tokens
            .into_iter()
            .map(|(token, gateway)| {
                let mut config = StreamableHttpServerConfig::default()
                    .with_allowed_hosts(options.allowed_hosts.clone());
                config.max_request_body_bytes = options.max_body_bytes;
                config.cancellation_token = stop.child_token();
                let service = StreamableHttpService::new(
                    move || Ok(gateway.clone()),
                    Arc::new(LocalSessionManager::default()),
                    config,
                );
                (token, service)
            })
            .collect();
        HttpGateway {
            routes: Arc::new(routes),
            permits: Arc::new(Semaphore::new(options.max_concurrent.max(1))),
            stop,
        }
    }

    /// Serves on `listener` until `shutdown` fires, then stops accepting, ends the clients'
    /// streams and waits for the requests in flight.
    ///
    /// # Errors
    /// Accepting a connection failed.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: CancellationToken,
    ) -> std::io::Result<()> {
        let graceful = GracefulShutdown::new();
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => accepted?,
                () = shutdown.cancelled() => break,
            };
            let gateway = self.clone();
            let service = hyper::service::service_fn(move |request| {
                let gateway = gateway.clone();
                async move { Ok::<_, Infallible>(gateway.handle(request).await) }
            });
            let connection = auto::Builder::new(TokioExecutor::new())
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .into_owned();
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                let _ = connection.await;
            });
        }
        self.stop.cancel();
        graceful.shutdown().await;
        Ok(())
    }

    async fn handle(&self, request: Request<Incoming>) -> Response<BoxBody<Bytes, Infallible>> {
        if request.uri().path() == "/health" {
            return text(StatusCode::OK, "ok");
        }
        let Some(service) = self.route(&request) else {
            let mut response = text(StatusCode::UNAUTHORIZED, "a bearer token is required");
            response.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                hyper::header::HeaderValue::from_static("Bearer realm=\"toolreg\""),
            );
            return response;
        };
        let Ok(_permit) = self.permits.acquire().await else {
            return text(StatusCode::SERVICE_UNAVAILABLE, "shutting down");
        };
        service.handle(request).await
    }

    /// The service of the request's bearer token, compared in constant time with each.
    fn route(&self, request: &Request<Incoming>) -> Option<&Service> {
        let header = request.headers().get(hyper::header::AUTHORIZATION)?;
        let (scheme, token) = header.to_str().ok()?.split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return None;
        }
        let token = token.trim().as_bytes();
        let mut found = None;
        for (known, service) in self.routes.iter() {
            if same(known.as_bytes(), token) {
                found = Some(service);
            }
        }
        found
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

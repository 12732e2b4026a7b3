//! A Streamable HTTP server's transport: its URL and headers, their `${VAR}`s expanded, the
//! bearer token among them sent as one; the SSE streams' retries capped by the hub's own
//! backoff; and every new session after the first reported (rmcp re-initializes a
//! 2025-11-25 session the server lost, and says so to nobody).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::{BoxedSseResponse, ExponentialBackoff};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpClientTransportConfig, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};

use crate::config::expand;
use crate::limits::Timeouts;

/// Called when the server began a new session for this connection (after the first).
pub(crate) type OnNewSession = Arc<dyn Fn() + Send + Sync>;

/// The transport of the server at `url`, sending `headers` (expanded with `lookup`) with every
/// request; an `Authorization: Bearer …` header becomes the transport's bearer token. Header
/// values are marked sensitive, and no message names one.
///
/// rmcp retries a broken SSE stream (the session's GET stream, a `subscriptions/listen` or
/// response stream resumed by GET) with a doubling wait that has no ceiling by default: after a
/// long outage its next try could be hours away and a 2025-11-25 session would stay deaf to
/// `tools/list_changed`. Its waits here are the hub's: from [`Timeouts::retry_after`] up to
/// [`Timeouts::retry_max`].
///
/// # Errors
/// A variable that is not set, or a header that is not one once expanded.
pub(crate) fn transport(
    url: &str,
    headers: &BTreeMap<String, String>,
    lookup: impl Fn(&str) -> Option<String>,
    timeouts: &Timeouts,
    on_new_session: OnNewSession,
) -> Result<StreamableHttpClientTransport<Watched>, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let mut custom = HashMap::new();
    for (name, raw) in headers {
        let value = expand(raw, &lookup).map_err(|error| format!("header {name}: {error}"))?;
        if name.eq_ignore_ascii_case("authorization") {
            let bearer = value
                .split_once(' ')
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"));
            if let Some((_, token)) = bearer {
                config = config.auth_header(token.trim().to_owned());
                continue;
            }
        }
        let header = HeaderName::try_from(name.as_str())
            .map_err(|_| format!("`{name}` is not a header name"))?;
        let mut value = HeaderValue::try_from(value)
            .map_err(|_| format!("header {name}: its value is not a header value"))?;
        value.set_sensitive(true);
        custom.insert(header, value);
    }
    let mut backoff = ExponentialBackoff::default();
    backoff.base_duration = timeouts.retry_after;
    backoff.max_delay = Some(timeouts.retry_max);
    config.retry_config = Arc::new(backoff);
    let client = Watched {
        inner: client().map_err(|error| format!("the HTTP client: {error}"))?,
        sessions: Arc::new(AtomicUsize::new(0)),
        on_new_session,
    };
    Ok(StreamableHttpClientTransport::with_client(
        client,
        config.custom_headers(custom),
    ))
}

/// The reqwest client rmcp builds for itself (private there): no idle pooled connections
/// (rmcp measured 40 ms stalls from TCP delayed ACK when a pooled connection is reused
/// before the previous body was read), and only same-origin 307/308 redirects followed, at
/// most 10 (a 301–303 would turn the POST into a GET without its message; another origin
/// would receive the session id and the headers).
fn client() -> reqwest::Result<reqwest::Client> {
    const MAX_REDIRECTS: usize = 10;
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = (attempt.previous().first())
            .is_some_and(|original| original.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .redirect(policy)
        .build()
}

/// rmcp's reqwest client, watched: each `initialize` the server accepts is a new session, and
/// every one after the first calls `on_new_session`.
///
/// rmcp answers a 2025-11-25 server's 404 for a session it no longer knows (it restarted) with
/// a fresh `initialize` and retries the request in the new session, but tells the handler
/// nothing. The server may have come back with other tools, and no `tools/list_changed` is
/// owed for a session that never saw the old list: the connection must treat the tools as
/// changed, and this is where it can see that happen.
#[derive(Clone)]
pub(crate) struct Watched {
    inner: reqwest::Client,
    sessions: Arc<AtomicUsize>,
    on_new_session: OnNewSession,
}

impl Watched {
    fn seen(&self, message: &ClientJsonRpcMessage, accepted: bool) {
        let initialize = matches!(message, ClientJsonRpcMessage::Request(request)
            if matches!(request.request, ClientRequest::InitializeRequest(_)));
        if initialize && accepted && self.sessions.fetch_add(1, Ordering::SeqCst) > 0 {
            (self.on_new_session)();
        }
    }
}

type Posted = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

impl StreamableHttpClient for Watched {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Posted {
        let watched = message.clone();
        let response = (self.inner)
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await;
        self.seen(&watched, response.is_ok());
        response
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Posted {
        let watched = message.clone();
        let response = (self.inner)
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await;
        self.seen(&watched, response.is_ok());
        response
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Posted {
        let watched = message.clone();
        let response = (self.inner)
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        self.seen(&watched, response.is_ok());
        response
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<reqwest::Error>> {
        (self.inner)
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, StreamableHttpError<reqwest::Error>> {
        (self.inner)
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxedSseResponse, StreamableHttpError<reqwest::Error>> {
        (self.inner)
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

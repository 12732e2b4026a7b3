//! rmcp's reqwest client, watched for new sessions: rmcp re-initializes a 2025-11-25 session
//! the server lost, and says so to nobody.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

/// Called when the server began a new session for this connection (after the first).
pub(crate) type OnNewSession = Arc<dyn Fn() + Send + Sync>;

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
    /// The client, calling `on_new_session` at every session after the first.
    pub(crate) fn new(on_new_session: OnNewSession) -> reqwest::Result<Watched> {
        Ok(Watched {
            inner: client()?,
            sessions: Arc::new(AtomicUsize::new(0)),
            on_new_session,
        })
    }

    /// Counts an `initialize` the server accepted: a new session, reported after the first.
    fn seen(&self, initialize: bool, accepted: bool) {
        if initialize && accepted && self.sessions.fetch_add(1, Ordering::SeqCst) > 0 {
            (self.on_new_session)();
        }
    }
}

fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::InitializeRequest(_)))
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
        let initialize = is_initialize(&message);
        let response = (self.inner)
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await;
        self.seen(initialize, response.is_ok());
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
        let initialize = is_initialize(&message);
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
        self.seen(initialize, response.is_ok());
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
        let initialize = is_initialize(&message);
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
        self.seen(initialize, response.is_ok());
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

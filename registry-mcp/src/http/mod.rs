//! A Streamable HTTP server's transport: its URL and headers, their `${VAR}`s expanded, the
//! bearer token among them sent as one, or the OAuth tokens stored for it; the SSE streams'
//! retries capped by the hub's own backoff; and every new session after the first reported
//! ([`watched`]).

mod watched;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use http::{HeaderName, HeaderValue};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

pub(crate) use self::watched::OnNewSession;
use self::watched::Watched;
use crate::config::{ServerSpec, expand};
use crate::connection::{Connection, Shared};
use crate::limits::Timeouts;
use crate::server_error::{Problem, ServerError};

/// A `"url"` entry, about to be connected.
pub(crate) struct Server<'a> {
    pub(crate) spec: &'a ServerSpec,
    pub(crate) url: &'a str,
    pub(crate) headers: &'a BTreeMap<String, String>,
    /// Whether the entry has an `"oauth"` object.
    pub(crate) oauth: bool,
}

impl Server<'_> {
    /// Reaches the server and runs the handshake: with the OAuth tokens stored for its URL when
    /// `credentials` names a file that holds some, with the entry's headers otherwise. The
    /// headers' `${VAR}`s are read from this process's environment.
    pub(crate) async fn open(
        &self,
        credentials: Option<&Path>,
        timeouts: Timeouts,
        shared: Arc<Shared>,
        on_new_session: OnNewSession,
    ) -> Result<Connection, ServerError> {
        let fail = |problem| ServerError {
            server: self.spec.name.clone(),
            problem,
            stderr: None,
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let lookup = |name: &str| std::env::var(name).ok();
        let config = config(self.url, self.headers, lookup, &timeouts)
            .map_err(|message| fail(Problem::Config(message)))?;
        let client = Watched::new(on_new_session)
            .map_err(|error| fail(Problem::Config(format!("the HTTP client: {error}"))))?;
        #[cfg(feature = "oauth")]
        if let Some(file) = credentials {
            let store = crate::oauth::CredentialFile::new(file);
            let stored = crate::oauth::stored_manager(self.url, &store);
            let stored = tokio::time::timeout(timeouts.connect, stored)
                .await
                .map_err(|_| {
                    let after = timeouts.connect;
                    fail(Problem::TimedOut {
                        stage: "OAuth discovery",
                        after,
                    })
                })?
                .map_err(|message| fail(Problem::Config(message)))?;
            if let Some(manager) = stored {
                // The stored access token is the credential, not a header's.
                let mut config = config;
                config.auth_header = None;
                let client = rmcp::transport::auth::AuthClient::new(client, manager);
                let transport = StreamableHttpClientTransport::with_client(client, config);
                let opened = Connection::handshake(self.spec, transport, stderr, timeouts, shared);
                return opened.await.map_err(|error| needs_login(error, true));
            }
        }
        #[cfg(not(feature = "oauth"))]
        let _ = credentials;
        let transport = StreamableHttpClientTransport::with_client(client, config);
        let opened = Connection::handshake(self.spec, transport, stderr, timeouts, shared).await;
        opened.map_err(|error| needs_login(error, self.oauth))
    }
}

/// The transport configuration of the server at `url`, sending `headers` (expanded with
/// `lookup`) with every request; an `Authorization: Bearer …` header becomes the transport's
/// bearer token. Header values are marked sensitive, and no message names one.
///
/// rmcp retries a broken SSE stream (the session's GET stream, a `subscriptions/listen` or
/// response stream resumed by GET) with a doubling wait that has no ceiling by default: after a
/// long outage its next try could be hours away and a 2025-11-25 session would stay deaf to
/// `tools/list_changed`. Its waits here are the hub's: from [`Timeouts::retry_after`] up to
/// [`Timeouts::retry_max`].
///
/// # Errors
/// A variable that is not set, or a header that is not one once expanded.
fn config(
    url: &str,
    headers: &BTreeMap<String, String>,
    lookup: impl Fn(&str) -> Option<String>,
    timeouts: &Timeouts,
) -> Result<StreamableHttpClientTransportConfig, String> {
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
    Ok(config.custom_headers(custom))
}

/// A refusal read as the need to log in: when the server was reached with OAuth tokens, when
/// its entry asks for OAuth, or when its challenge points to protected-resource metadata (the
/// sign of a server behind OAuth).
fn needs_login(mut error: ServerError, oauth: bool) -> ServerError {
    if let Problem::Unauthorized { challenge } = &mut error.problem {
        let points_to_metadata = challenge
            .as_deref()
            .is_some_and(|challenge| challenge.contains("resource_metadata"));
        if oauth || points_to_metadata {
            error.problem = Problem::LoginRequired {
                challenge: challenge.take(),
            };
        }
    }
    error
}

//! The HTTP gateway's limits, and why one cannot be made.

use std::time::Duration;

use super::{admission, incident};

/// How the HTTP gateway bounds what clients send. The defaults suit a gateway on loopback for
/// a few dozen clients; `toolreg mcp serve --http` sets the ones an operator needs from its
/// flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The largest request body. Default 4 MiB.
    pub max_body_bytes: usize,
    /// Requests served at once; the others wait. Default 256.
    pub max_concurrent: usize,
    /// Accepted `Host` values (`host` or `host:port`; an empty list accepts any). Default:
    /// `localhost`, `127.0.0.1`, `::1`.
    pub allowed_hosts: Vec<String>,
    /// Accepted `Origin` values, for requests that carry one: `scheme://host` (the scheme's
    /// default port), `scheme://host:port` or `scheme://host:*` (any port). Default: `http` and
    /// `https` on `localhost`, `127.0.0.1` and `[::1]`, any port — pages served from this
    /// machine, which could reach the port without a browser anyway. `null` cannot be allowed.
    pub allowed_origins: Vec<String>,
    /// Connections open at once. At the limit a new connection takes the place of the one
    /// that has had no request in flight the longest (none sent yet, or its last response
    /// ended), which is closed; when every one has a request in flight, the new one is closed
    /// at once. Default 1024.
    pub max_connections: usize,
    /// The time a connection has to send a request's headers: its first request's (closed
    /// otherwise, and reported), and on HTTP/1 each next one's (an idle keep-alive connection
    /// is closed after it, quietly). Default 10 s.
    pub header_timeout: Duration,
    /// 2025-11-25 sessions a token holds at once; an `initialize` past them is answered `429`.
    /// Default 64.
    pub max_sessions_per_token: usize,
    /// The time a session lives without a request or a message sent; then it ends and its id
    /// answers `404`. Default 10 minutes.
    pub session_idle: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            max_body_bytes: 4 << 20,
            max_concurrent: 256,
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
            allowed_origins: admission::loopback_origins(),
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            max_sessions_per_token: 64,
            session_idle: Duration::from_secs(600),
        }
    }
}

/// Why an [`HttpGateway`](super::HttpGateway) cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpSetupError {
    /// Two tokens are the same: by their indexes in the list given, never by value.
    DuplicateToken {
        /// The first one's index.
        first: usize,
        /// The other's.
        second: usize,
    },
    /// An entry of [`HttpOptions::allowed_origins`] is not an origin.
    Origin {
        /// The entry.
        entry: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl std::fmt::Display for HttpSetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HttpSetupError::DuplicateToken { first, second } => write!(
                f,
                "tokens[{first}] and tokens[{second}] are the same token; give each policy its own"
            ),
            HttpSetupError::Origin { entry, why } => {
                write!(f, "allowed origin `{}`: {why}", incident::quoted(entry))
            }
        }
    }
}

impl std::error::Error for HttpSetupError {}

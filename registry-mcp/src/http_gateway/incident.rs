//! What the HTTP gateway reports: every request it refuses, every connection it sheds or
//! closes unheard, every failed accept — one line each, naming the peer, never a credential.
//! A token is named by its index in the list the gateway was made with (`tokens[2]`, the
//! tokens file's order); a token the gateway does not know, by a fingerprint: the first four
//! bytes of its SHA-256 (`sha256:1a2b3c4d`), enough to tell one client's repeated attempts from
//! a guessing run, too short to stand for the token.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest as _, Sha256};
use toolreg::mcp::{Layout, printable};

/// The longest peer text (a path, a `Host` or `Origin` value) an incident keeps.
const MAX_QUOTED: usize = 200;

/// Something the HTTP gateway refused, shed or survived. Its `Display` is one line without a
/// credential; peer text in it (path, `Host`, `Origin`) has its control characters escaped
/// and is cut at 200 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Incident {
    /// A request answered with an error before (or instead of) reaching a token's gateway.
    Refused {
        /// The client's address.
        peer: SocketAddr,
        /// The request's method.
        method: String,
        /// The request's path, without its query.
        path: String,
        /// The HTTP status sent.
        status: u16,
        /// Why.
        reason: RequestRefusal,
    },
    /// A connection closed at once: [`HttpOptions::max_connections`](super::HttpOptions) were
    /// open and every one of them had a request in flight.
    Shed {
        /// The client's address.
        peer: SocketAddr,
        /// The connections open.
        open: usize,
    },
    /// A connection with no request in flight (none sent yet, or its last response ended),
    /// closed to make room for a new one at
    /// [`HttpOptions::max_connections`](super::HttpOptions) (the one quiet the longest goes
    /// first), or to free a descriptor when accepting failed for want of one.
    Evicted {
        /// The address of the client whose connection was closed.
        peer: SocketAddr,
    },
    /// A connection closed because its first request's headers did not arrive within
    /// [`HttpOptions::header_timeout`](super::HttpOptions).
    HeaderTimeout {
        /// The client's address.
        peer: SocketAddr,
        /// The time it had.
        after: Duration,
    },
    /// Accepting a connection failed (no file descriptor left, a connection reset before it
    /// was accepted, …); the gateway waits `retry_in` and goes on.
    AcceptFailed {
        /// The system's error.
        error: String,
        /// The wait before the next try.
        retry_in: Duration,
    },
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestRefusal {
    /// No `Authorization: Bearer …` header (401).
    NoToken,
    /// A bearer token the gateway does not know (401), by its fingerprint.
    UnknownToken {
        /// `sha256:` and the first four bytes of the token's SHA-256, in hex.
        fingerprint: String,
    },
    /// The `Host` header is missing or unreadable (400) or names a host not allowed (403).
    Host {
        /// What it said (empty when missing).
        host: String,
    },
    /// The `Origin` header names an origin not allowed, or is `null` (403).
    Origin {
        /// What it said.
        origin: String,
    },
    /// The body was larger than [`HttpOptions::max_body_bytes`](super::HttpOptions) (413).
    BodyTooLarge {
        /// The token's index.
        token: usize,
        /// The limit.
        limit: usize,
    },
    /// The token already holds [`HttpOptions::max_sessions_per_token`](super::HttpOptions)
    /// sessions (429).
    SessionLimit {
        /// The token's index.
        token: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for Incident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Incident::Refused {
                peer,
                method,
                path,
                status,
                reason,
            } => write!(f, "{status} {method} {path} from {peer}: {reason}"),
            Incident::Shed { peer, open } => write!(
                f,
                "closed a new connection from {peer}: {open} connections are open, each serving a client"
            ),
            Incident::Evicted { peer } => write!(
                f,
                "closed the connection from {peer}, which had sent no request, to make room"
            ),
            Incident::HeaderTimeout { peer, after } => write!(
                f,
                "closed the connection from {peer}: no request within {:.1} s",
                after.as_secs_f64()
            ),
            Incident::AcceptFailed { error, retry_in } => write!(
                f,
                "accepting a connection failed: {error}; next try in {} ms",
                retry_in.as_millis()
            ),
        }
    }
}

impl fmt::Display for RequestRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestRefusal::NoToken => write!(f, "no bearer token"),
            RequestRefusal::UnknownToken { fingerprint } => {
                write!(f, "unknown bearer token ({fingerprint})")
            }
            RequestRefusal::Host { host } if host.is_empty() => {
                write!(f, "no readable Host header")
            }
            RequestRefusal::Host { host } => write!(f, "Host `{host}` is not allowed"),
            RequestRefusal::Origin { origin } => write!(f, "Origin `{origin}` is not allowed"),
            RequestRefusal::BodyTooLarge { token, limit } => {
                write!(f, "tokens[{token}]: body past {limit} bytes")
            }
            RequestRefusal::SessionLimit { token, limit } => write!(
                f,
                "tokens[{token}] already holds {limit} sessions, its limit"
            ),
        }
    }
}

/// Peer text as an incident keeps it: one line, escaped, at most 200 characters.
pub(crate) fn quoted(text: &str) -> String {
    let line = printable(text, Layout::OneLine);
    match line.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}…", line.get(..cut).unwrap_or_default()),
        None => line.into_owned(),
    }
}

/// A token's fingerprint: `sha256:` and the first four bytes of its SHA-256, in hex.
pub(crate) fn fingerprint(token: &[u8]) -> String {
    let digest = Sha256::digest(token);
    let mut out = String::from("sha256:");
    for byte in digest.iter().take(4) {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Where incidents go.
pub(crate) type Sink = std::sync::Arc<dyn Fn(&Incident) + Send + Sync>;

/// Lines written to stderr at once before the rate applies.
const BURST: f64 = 100.0;
/// Lines a second written to stderr in a flood.
const RATE: f64 = 20.0;

/// Writes each incident as one line on stderr (`http gateway: …`), at most 100 at once and
/// 20 a second after that: a flood of refusals costs its lines, not the disk; the lines left
/// out are counted in the next one written. A failed write is ignored.
pub(crate) fn stderr() -> Sink {
    let bucket = Mutex::new(Bucket {
        tokens: BURST,
        at: Instant::now(),
        dropped: 0,
    });
    std::sync::Arc::new(move |incident: &Incident| {
        use std::io::Write as _;
        let mut bucket = bucket.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let earned = now.duration_since(bucket.at).as_secs_f64() * RATE;
        bucket.tokens = (bucket.tokens + earned).min(BURST);
        bucket.at = now;
        if bucket.tokens < 1.0 {
            bucket.dropped += 1;
            return;
        }
        bucket.tokens -= 1.0;
        let mut stderr = std::io::stderr().lock();
        if bucket.dropped > 0 {
            let _ = writeln!(
                stderr,
                "http gateway: {} lines left out (more than {RATE} a second)",
                bucket.dropped
            );
            bucket.dropped = 0;
        }
        let _ = writeln!(stderr, "http gateway: {incident}");
    })
}

struct Bucket {
    tokens: f64,
    at: Instant,
    dropped: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_is_short_and_stable() {
        let print = fingerprint(b"some-token-value-0123456789");
        assert_eq!(print.len(), "sha256:".len() + 8);
        assert_eq!(print, fingerprint(b"some-token-value-0123456789"));
        assert_ne!(print, fingerprint(b"some-token-value-012345678X"));
    }

    #[test]
    fn quoted_peer_text_is_one_escaped_line_of_bounded_length() {
        assert_eq!(quoted("evil\x1b[2J\nhost"), "evil\\x1b[2J\\nhost");
        let long = quoted(&"x".repeat(10_000));
        assert_eq!(long.chars().count(), MAX_QUOTED + 1);
    }
}

//! Why a server is not connected: the problem, and the end of what it wrote to stderr.

use std::fmt;
use std::time::Duration;

use toolreg::mcp::{Layout, printable};

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
    /// `tools/list` went past one of the [`Limits`](crate::Limits); the server is not connected.
    ListOverLimit {
        /// The field of [`Limits`](crate::Limits) that sets the limit (`max_page_bytes`, …).
        limit: &'static str,
        /// What went past it.
        detail: String,
    },
    /// The session ended.
    Closed,
    /// The entry cannot be used as written: a `${VAR}` of its headers is not set, or a header
    /// is not one once expanded.
    Config(String),
    /// The server refused the request's credentials (HTTP 401, or 403 with a challenge): the
    /// `WWW-Authenticate` challenge it sent, if any.
    Unauthorized {
        /// The challenge.
        challenge: Option<String>,
    },
    /// The server is behind OAuth and no usable token is stored for it: none was, or the
    /// authorization server refused to refresh it. Log in again ([`oauth::login`](crate::oauth),
    /// `toolreg mcp login`).
    LoginRequired {
        /// What the server answered: its `WWW-Authenticate` challenge, if it sent one.
        challenge: Option<String>,
    },
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
    /// The problem and the stderr tail, every control character escaped (see
    /// [`toolreg::mcp::printable`]): this text is printed on terminals. A URL in it (an HTTP
    /// client's error quotes the one it could not reach) is shown without its userinfo, query
    /// values and fragment ([`redact::urls_in`](crate::redact::urls_in)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.write_raw(&mut text)?;
        let text = crate::redact::urls_in(&text);
        f.write_str(&printable(&text, Layout::Lines))
    }
}

impl ServerError {
    fn write_raw(&self, f: &mut impl fmt::Write) -> fmt::Result {
        write!(f, "MCP server `{}`: ", self.server)?;
        match &self.problem {
            Problem::Unsupported(what) => write!(f, "{what}")?,
            Problem::Spawn(error) => write!(f, "could not start it: {error}")?,
            Problem::TimedOut { stage, after } => {
                write!(f, "{stage} timed out after {:.1} s", after.as_secs_f64())?;
            }
            Problem::Handshake(error) => write!(f, "handshake failed: {error}")?,
            Problem::ListTools(error) => write!(f, "tools/list failed: {error}")?,
            Problem::ListOverLimit { limit, detail } => {
                write!(f, "tools/list stopped: {detail} (Limits::{limit})")?;
            }
            Problem::Closed => write!(f, "the session ended")?,
            Problem::Config(error) => write!(f, "{error}")?,
            Problem::Unauthorized { challenge: None } => {
                write!(
                    f,
                    "the server refused the credentials (HTTP 401); check the entry's headers"
                )?;
            }
            Problem::Unauthorized {
                challenge: Some(challenge),
            } => write!(
                f,
                "the server refused the credentials (HTTP 401, WWW-Authenticate: {challenge}); check the entry's headers"
            )?,
            Problem::LoginRequired { .. } => write!(
                f,
                "the server needs an OAuth login and no usable token is stored for it; log in with `toolreg mcp login {}`",
                self.server
            )?,
        }
        if let Some(stderr) = &self.stderr {
            write!(f, " (stderr: {})", stderr.trim())?;
        }
        Ok(())
    }
}

impl std::error::Error for ServerError {}

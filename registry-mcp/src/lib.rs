//! # MCP for toolreg, on rmcp
//!
//! Both sides of MCP, on rmcp (the official Rust SDK, pinned to one exact version):
//!
//! * **client** (feature `client`): live MCP servers in a pool. List them in the common
//!   `mcpServers` file, connect them with an [`McpHub`], assemble the pool from
//!   [`McpHub::tools`], and give the hub to the dispatcher as its
//!   [`McpCaller`](toolreg::dispatch::McpCaller).
//! * **server** (feature `server`): a pool served to any MCP client by a [`Gateway`], with
//!   deferred tools behind `search_tools` and `call_tool` (or listed with the registry's
//!   deferral hints), every call going through the dispatcher's permission path; see
//!   [`gateway`].
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use toolreg::{Catalog, Dispatcher, Env, PermissionContext, assemble_tool_pool, builtins};
//! use toolreg_mcp::{McpConfig, McpHub, Timeouts};
//!
//! let config = McpConfig::parse(r#"{"mcpServers": {
//!     "time": {"command": "mcp-server-time", "args": ["--local-timezone", "UTC"]}
//! }}"#)?;
//! let hub = McpHub::connect(&config, Timeouts::default()).await;
//! for status in hub.statuses() {
//!     println!("{}: {:?}", status.name, status.state); // connected, or failed and why
//! }
//! let (env, rules) = (Env::default(), PermissionContext::new());
//! let catalog = Catalog::new(builtins()?, &[]);
//! let pool = assemble_tool_pool(&env, &rules, &catalog, &hub.tools().tools);
//! let dispatcher = Dispatcher::new(env, rules, pool, ".").with_mcp(hub.clone());
//! # Ok(()) }
//! ```
//!
//! # What the hub guarantees (client)
//! * Servers connect side by side. Each is *pending* until its tools arrive, then *connected*,
//!   or *failed* with its error (the problem, and the end of its stderr). A server that hangs
//!   fails at its timeout, one that crashes or speaks no MCP fails at once, and neither holds
//!   up or breaks the others.
//! * The handshake is rmcp's `Auto` lifecycle: `server/discover` (2026-07-28) first, the
//!   `initialize` handshake (2025-11-25) for servers that do not know it. `tools/list` pages are
//!   all followed, within the [`Limits`] (a listing past them fails the server, naming the
//!   limit; see [`limits`]).
//! * The tools become pool entries through [`toolreg::mcp::load_servers`], named in the
//!   order of the configuration, so the live pool equals the pool of the same lists captured
//!   to files.
//! * `tools/list_changed` (the notification of 2025-11-25 sessions, or on 2026-07-28 the
//!   subscription, opened only when the server advertises `listChanged`) marks the server
//!   stale; [`McpHub::changed`] wakes and [`McpHub::refresh`] fetches its tools again.
//! * A server whose session ends (the process exited; over HTTP, a request could not be
//!   delivered or the `subscriptions/listen` stream ended) leaves the pool;
//!   [`McpHub::reconnect`] (or [`McpHub::keep_connected`]) starts it again, with a doubling
//!   wait between failed tries. A 2025-11-25 HTTP session the server lost (404) is opened
//!   again by rmcp, and the server's tools are then marked changed.
//! * A call runs with the per-call timeout, which each progress notification restarts, and
//!   ends at [`Timeouts::call_total`] however much progress it sends; the turn's cancellation
//!   (or the runner dropping the call) sends `notifications/cancelled`; progress reaches the
//!   turn's progress sink; results map to the tool's output as [`content`] describes, cut at
//!   [`Limits::max_result_chars`].
//! * What a server wrote (its stderr tail, its error messages) is printed with its control
//!   characters escaped ([`toolreg::mcp::printable`]) wherever [`ServerError`] is shown.
//!
//! # What the gateway guarantees (server)
//! Every request gets an answer, also one it cannot read: [`framing`] reads the client's
//! lines with a cap and answers what rmcp would drop with a JSON-RPC error.
//!
//! Streamable HTTP entries (`"url"`, with the default `http` feature) connect on rmcp's
//! client transport, with their `headers` (`${VAR}` expanded from the environment, values
//! never printed): the same handshake, states, timeouts and reconnection as stdio servers; a
//! refused token is [`Problem::Unauthorized`] with the server's challenge. With the default
//! `oauth` feature, a server behind OAuth is logged in to once ([`oauth::login`]) and then
//! connected with its stored tokens, refreshed as they expire.

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

pub mod config;
#[cfg(feature = "client")]
mod connection;
pub mod content;
#[cfg(feature = "server")]
pub mod framing;
#[cfg(feature = "server")]
pub mod gateway;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http-server")]
mod http_gateway;
#[cfg(feature = "client")]
mod hub;
#[cfg(feature = "client")]
pub mod limits;
#[cfg(feature = "oauth")]
pub mod oauth;
#[cfg(feature = "server")]
pub mod policy;
pub mod redact;
#[cfg(feature = "client")]
mod server_error;
#[cfg(feature = "client")]
mod stdio;

pub use config::{ConfigError, McpConfig, OAuthSettings, ServerSpec, Transport};
#[cfg(feature = "server")]
pub use gateway::{Gateway, GatewayMode};
#[cfg(feature = "http-server")]
pub use http_gateway::{HttpGateway, HttpOptions, HttpSetupError, Incident, RequestRefusal};
#[cfg(feature = "client")]
pub use hub::{McpHub, ServerState, ServerStatus};
#[cfg(feature = "client")]
pub use limits::{Limits, Timeouts};
#[cfg(feature = "server")]
pub use policy::TokenPolicy;
#[cfg(feature = "client")]
pub use server_error::{Problem, ServerError};

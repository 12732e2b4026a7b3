//! Dispatch: running the tool the model called, and never one it may not use.
//!
//! A [`ToolCall`](crate::ToolCall) (`call.rs`) becomes a [`ToolResult`](crate::ToolResult)
//! (`result.rs`). A turn (`turn.rs`, [`Dispatcher::run_turn`](crate::Dispatcher::run_turn))
//! finds each call's tool once in the pool's index and runs the calls of one assistant message
//! in order, concurrency-safe ones together; the [`Dispatcher`](crate::Dispatcher)
//! (`dispatcher.rs`) runs one call. Its steps, in order: a call whose arguments could not be
//! read is answered without running → a tool outside the current pool (unknown, denied, or not
//! for this agent) is refused and not called → deserialize the input (the error names the JSON
//! path) → check it against the tool's input schema, which says more than serde checks
//! (bounds, lengths, patterns; the error names the path and the rule; `schema_check.rs`) → the
//! tool's `validate_input` → the permission checks (`permission.rs`) → the call → the result,
//! cut to the tool's limit; a failure of any step is a typed
//! [`DispatchError`](crate::DispatchError) (`error.rs`), whose text the model reads in an
//! `is_error` result.
//!
//! Permission checks: the rules decide first
//! ([`PermissionContext::check`](crate::PermissionContext::check) over the tool's
//! [`rule_subject`](crate::Tool::rule_subject)): a deny refuses, an ask asks the
//! [`Approver`](crate::Approver) (`approval.rs`), an allow allows. When no rule decides, the
//! tool's own `check_permissions` does: it may allow, ask or refuse, or pass
//! ([`PermissionDecision::Passthrough`](crate::PermissionDecision)), and then a `destructive`
//! tool asks (in `AcceptEdits` mode a file write does not). In `BypassPermissions` mode nothing
//! asks. Without an approver, a call that needs asking is refused with a result that says so.
//!
//! The path of a path subject is resolved as the kernel would open it before the rules see it
//! (a path that cannot be resolved is refused), and the tool gets that resolved path as
//! [`ToolContext::checked_path`](crate::ToolContext::checked_path), to open without following
//! links.
//!
//! MCP tools are called through the host's [`McpCaller`] (`mcp.rs`). Their input must be a JSON
//! object and is checked against the `inputSchema` the server sent (`mcp_check.rs`, with the
//! built-ins' options; its cost bounded by `schema_cost.rs`) before the permission checks: input
//! the schema refuses never reaches the approver or the server, and a schema that cannot be
//! checked refuses the tool's calls
//! ([`DispatchError::UncheckableSchema`](crate::DispatchError::UncheckableSchema)).
//!
//! A [`Dispatcher`](crate::Dispatcher) owns what it needs (shared pieces behind `Arc`), so it is
//! `Send + Sync`, cheap to clone, and can be moved into a spawned task.

pub(crate) mod approval;
pub(crate) mod call;
pub(crate) mod dispatcher;
pub(crate) mod error;
pub(crate) mod mcp;
pub(crate) mod mcp_check;
mod permission;
pub(crate) mod result;
pub(crate) mod schema_check;
mod schema_cost;
pub(crate) mod turn;

pub use mcp::{McpCall, McpCaller, McpRequest};
pub use result::{OUTPUT_TRUNCATED, cap_output};
pub use turn::{CallTiming, CancellationToken, DEFAULT_MAX_CONCURRENCY};

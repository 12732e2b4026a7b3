//! Dispatch: running the tool the model called, and never one it may not use.
//!
//! The steps, in order: find the tool by name or alias *in the current pool* (a tool outside
//! it — unknown, denied, or not for this agent — is refused and not called) → deserialize the
//! input (the error names the JSON path) → check it against the tool's input schema, which says
//! more than serde checks (bounds, lengths, patterns; the error names the path and the rule) →
//! the tool's `validate_input` → the permission checks
//! → the call → a `tool_result` block; a failure of any step is a typed [`DispatchError`](crate::DispatchError),
//! whose text the model reads in an `is_error` result.
//!
//! Permission checks: the rules decide first
//! ([`PermissionContext::check`](crate::PermissionContext::check) over the tool's
//! [`rule_subject`](crate::Tool::rule_subject)): a deny refuses, an ask asks the [`Approver`](crate::Approver),
//! an allow allows. When no rule decides, the tool's own `check_permissions` does: it may allow,
//! ask or refuse, or pass ([`PermissionDecision::Passthrough`](crate::PermissionDecision)), and
//! then a `destructive` tool asks (in `AcceptEdits` mode a file write does not). In
//! `BypassPermissions` mode nothing asks. Without an approver, a call that needs asking is
//! refused with a result that says so.
//!
//! The path of a path subject is resolved as the kernel would open it before the rules see it
//! (a path that cannot be resolved is refused), and the tool gets that resolved path as
//! [`ToolContext::checked_path`](crate::ToolContext::checked_path), to open without following links.
//!
//! MCP tools are called through the host's [`McpCaller`]; their input must be a JSON object and
//! is otherwise checked by the server.
//!
//! A [`Dispatcher`](crate::Dispatcher) owns what it needs (shared pieces behind `Arc`), so it is `Send + Sync`,
//! cheap to clone, and can be moved into a spawned task. [`Dispatcher::run_turn`](crate::Dispatcher::run_turn) runs a whole
//! assistant message's tool calls ([`Turn`](crate::Turn)).

pub(crate) mod call;
pub(crate) mod dispatcher;
pub(crate) mod error;
mod schema_check;
pub(crate) mod turn;

pub use call::{ApprovalRequest, McpCall, McpCaller, McpRequest};
pub use dispatcher::{OUTPUT_TRUNCATED, cap_output};
pub use turn::{CallTiming, CancellationToken, DEFAULT_MAX_CONCURRENCY};

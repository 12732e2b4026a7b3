//! What a tool is: the [`Tool`](crate::Tool) trait you implement, the [`ToolContext`](crate::ToolContext) a call sees, what it
//! returns ([`ToolOutput`](crate::ToolOutput), [`ToolError`](crate::ToolError)), the [`ToolDescriptor`](crate::ToolDescriptor)
//! `#[tool]` generates, and the registry of every `#[tool]` linked into the binary
//! ([`builtins`](crate::builtins)).
//!
//! Dispatch deserializes the model's JSON into the struct, runs [`Tool::validate_input`](crate::Tool::validate_input), the
//! permission checks, then [`Tool::call`](crate::Tool::call).
//!
//! A tool as a pool offers it is a [`ToolInfo`](crate::ToolInfo) (`info.rs`): a built-in's
//! descriptor, or an MCP tool with the names its server sent ([`McpInfo`](crate::mcp::McpInfo),
//! `mcp_info.rs`), or a tool the host describes. What a tool reads besides its input is here
//! too: the run-time [`Switches`](crate::env::Switches) its gate and prompt read
//! (`switches.rs`), and the [`ToolSearcher`](crate::search::ToolSearcher) ToolSearch asks
//! (`searcher.rs`). Everything else builds on this module: it imports only the permission
//! rules and the sandbox.

pub(crate) mod body;
pub(crate) mod callers;
pub(crate) mod context;
pub(crate) mod delegate;
pub(crate) mod descriptor;
pub(crate) mod error;
pub(crate) mod info;
pub(crate) mod mcp_info;
pub(crate) mod output;
pub(crate) mod registry;
pub(crate) mod searcher;
pub(crate) mod switches;

pub(crate) use body::json_kind;
pub use body::{BoxFuture, ParsedInput};
pub use callers::{AllowedCallers, Caller, CallerKind};
pub use context::{Progress, ProgressSink};
pub use descriptor::{Flags, Source};
pub use error::InputError;
pub use info::Origin;
pub use output::IntoToolOutput;
pub use registry::{Builtins, DuplicateTool, compare_names};

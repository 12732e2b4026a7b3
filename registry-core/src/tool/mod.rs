//! What a tool is: the [`Tool`](crate::Tool) trait you implement, the [`ToolContext`](crate::ToolContext) a call sees, what it
//! returns ([`ToolOutput`](crate::ToolOutput), [`ToolError`](crate::ToolError)), the [`ToolDescriptor`](crate::ToolDescriptor)
//! `#[tool]` generates, and the registry of every `#[tool]` linked into the binary
//! ([`builtins`](crate::builtins)).
//!
//! Dispatch deserializes the model's JSON into the struct, runs [`Tool::validate_input`](crate::Tool::validate_input), the
//! permission checks, then [`Tool::call`](crate::Tool::call).

pub(crate) mod body;
pub(crate) mod context;
pub(crate) mod delegate;
pub(crate) mod descriptor;
pub(crate) mod error;
pub(crate) mod output;
pub(crate) mod registry;

pub(crate) use body::json_kind;
pub use body::{BoxFuture, ParsedInput};
pub use context::{Progress, ProgressSink};
pub use descriptor::{Flags, Source};
pub use error::InputError;
pub use output::IntoToolOutput;
pub use registry::{Builtins, DuplicateTool, compare_names};

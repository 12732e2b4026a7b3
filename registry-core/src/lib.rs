//! # toolreg's core
//!
//! The tool layer of an LLM agent: annotate tool structs with [`#[tool]`](macro@tool), and the
//! registry collects them, with their JSON Schemas generated at compile time.
//!
//! ```
//! # mod demo {
//! use registry_core::{tool, Tool, ToolContext, ToolError};
//! use serde::Deserialize;
//!
//! /// Adds two numbers.
//! #[tool(read_only, concurrency_safe, search_hint = "sum two integers together")]
//! #[derive(Deserialize)]
//! pub struct AddTool {
//!     /// The first addend.
//!     pub a: i64,
//!     /// The second addend.
//!     pub b: i64,
//! }
//!
//! impl Tool for AddTool {
//!     type Output = String;
//!     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
//!         Ok((self.a + self.b).to_string())
//!     }
//! }
//! # }
//! let builtins = registry_core::builtins().unwrap();
//! let add = builtins.get("Add").unwrap();
//! assert!(add.flags.read_only);
//! assert!(add.input_schema.contains(r#""required":["a","b"]"#));
//! ```
//!
//! A `#[tool]` with a mistake still leaves the struct in place, registers nothing, and reports
//! every mistake of the attribute at once:
//!
//! ```compile_fail
//! use registry_core::tool;
//! #[tool(name = "has space", defer, always_load)]
//! #[derive(serde::Deserialize)]
//! pub struct Broken {}
//! ```

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

// The core defines a `#[tool]` of its own (ToolSearch), whose generated code names this crate.
extern crate self as registry_core;

pub mod cache;
pub mod catalog;
pub mod context;
pub mod contexts;
pub mod defer;
pub mod descriptor;
pub mod dispatch;
pub mod env;
pub mod mcp;
pub mod names;
pub mod permissions;
pub mod pool;
pub mod registry;
pub mod render;
pub mod schema;
pub mod search;
pub mod searcher;
pub mod switches;
pub mod tool;
pub mod tool_info;
pub mod tool_search;
pub mod turn;

pub use catalog::{Catalog, get_all_base_tools, get_tools};
pub use context::{Progress, ProgressSink, State, ToolContext};
pub use contexts::{AgentKind, filter_tools_for_agent};
pub use descriptor::{Flags, Source, ToolDescriptor, ToolSpec};
pub use dispatch::{
    Approval, Approver, DispatchError, Dispatcher, McpCall, McpCaller, ToolResult, ToolUse,
};
pub use env::{Env, Features, Provider, ToolSearchSettings};
pub use permissions::{
    Behavior, OutsideWrites, PermissionContext, PermissionMode, RuleSource, Subject,
};
pub use pool::{Pool, ToolInfo, assemble_tool_pool, merge_and_filter_tools};
pub use registry::{Builtins, DuplicateTool, builtins, compare_names};
pub use registry_macros::{InputSchema, tool};
pub use schema::InputSchema;
pub use switches::Switches;
pub use tool::{
    BoxFuture, InputError, IntoToolOutput, ParsedInput, PermissionDecision, Structured, Tool,
    ToolError, ToolOutput,
};
pub use turn::{CallTiming, CancellationToken, Turn, TurnOptions};

/// What generated code needs. Not a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::registry::Registration;
    pub use crate::schema::{Field, Mode, Object, Schema, as_str, render, rendered_len};
    pub use crate::tool::parse_input;

    /// Checks at compile time that a tool declared with `#[tool(output = O)]` returns
    /// `Structured<O>`.
    pub const fn assert_output<T, O>()
    where
        T: crate::Tool<Output = crate::Structured<O>>,
    {
    }
    pub use inventory;
    pub use serde_json;

    use crate::switches::Switches;

    /// A run-time gate written as `fn() -> bool` or `fn(&Switches) -> bool`.
    pub trait GateFn<Marker> {
        /// Evaluates the gate.
        fn eval(&self, switches: &Switches) -> bool;
    }

    impl<F: Fn() -> bool> GateFn<()> for F {
        fn eval(&self, _: &Switches) -> bool {
            self()
        }
    }

    impl<F: Fn(&Switches) -> bool> GateFn<(Switches,)> for F {
        fn eval(&self, switches: &Switches) -> bool {
            self(switches)
        }
    }

    /// Calls a gate of either shape.
    pub fn eval_gate<M, F: GateFn<M>>(gate: F, switches: &Switches) -> bool {
        gate.eval(switches)
    }

    /// A dynamic prompt written as `fn() -> String` or `fn(&Switches) -> String`.
    pub trait PromptFn<Marker> {
        /// Produces the prompt.
        fn eval(&self, switches: &Switches) -> String;
    }

    impl<F: Fn() -> String> PromptFn<()> for F {
        fn eval(&self, _: &Switches) -> String {
            self()
        }
    }

    impl<F: Fn(&Switches) -> String> PromptFn<(Switches,)> for F {
        fn eval(&self, switches: &Switches) -> String {
            self(switches)
        }
    }

    /// Calls a prompt function of either shape.
    pub fn eval_prompt<M, F: PromptFn<M>>(prompt: F, switches: &Switches) -> String {
        prompt.eval(switches)
    }
}

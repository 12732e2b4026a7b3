//! # toolreg's core
//!
//! The tool layer of an LLM agent. Annotate tool structs with [`#[tool]`](macro@tool): their
//! JSON Schemas are generated at compile time and every tool registers itself. Then, per
//! request: assemble a pool with the MCP tools you connected to (built-ins a sorted prefix, MCP
//! tools a sorted suffix, for prompt caching), let the model find deferred tools with
//! ToolSearch, render the `tools` block of the request, and run the model's tool calls as a
//! turn, never one it may not use.
//!
//! ```
//! # mod demo {
//! use toolreg::{tool, Tool, ToolContext, ToolError};
//! use serde::Deserialize;
//!
//! /// Gives the weather for a city.
//! #[tool(read_only, concurrency_safe, search_hint = "current weather for a city")]
//! #[derive(Deserialize)]
//! pub struct WeatherTool {
//!     /// The city, e.g. "Paris".
//!     pub city: String,
//! }
//!
//! impl Tool for WeatherTool {
//!     type Output = String;
//!     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
//!         Ok(format!("{}: sunny", self.city)) // await an HTTP client here
//!     }
//! }
//! # }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use toolreg::mcp::load_server;
//! use toolreg::wire::anthropic::tool_results;
//! use toolreg::{
//!     Behavior, Dispatcher, Env, PermissionContext, RenderOptions, RuleSource, SchemaCache,
//!     SearchEngine, Strategy, ToolCall, ToolOutput, TurnOptions, assemble_tool_pool,
//!     render_anthropic,
//! };
//! use serde_json::json;
//!
//! // The pool: this crate's tools (and the core's ToolSearch), plus an MCP server's tools/list.
//! let env = Env::default();
//! let rules = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__tracker__delete_issue");
//! let catalog = toolreg::own_tools!().unwrap();
//! let listed = json!({"tools": [{
//!     "name": "create_issue",
//!     "description": "Create an issue in the tracker",
//!     "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
//! }]});
//! let mcp = load_server("tracker", &listed);
//! let pool = assemble_tool_pool(&env, &rules, &catalog, &mcp.tools);
//!
//! // ToolSearch finds the deferred MCP tool.
//! let engine = SearchEngine::new(pool.to_vec(), Strategy::Keyword);
//! assert_eq!(engine.search("issue tracker", 5).matches, ["mcp__tracker__create_issue"]);
//!
//! // The request's tools: the loaded ones in full, the deferred one announced by name.
//! let options = RenderOptions { tool_search: true, ..Default::default() };
//! let rendered = render_anthropic(&env, &pool, &SchemaCache::new(), &options).unwrap();
//! assert!(rendered.tools.to_json().contains(r#""name":"Weather""#));
//! assert!(rendered.deferred_tools_message.unwrap().contains("mcp__tracker__create_issue"));
//!
//! // The model's tool calls, run as one turn.
//! let dispatcher = Dispatcher::new(env, rules, pool, ".");
//! let calls = [
//!     ToolCall::new("t1", "Weather", json!({"city": "Paris"})),
//!     ToolCall::new("t2", "ToolSearch", json!({"query": "select:mcp__tracker__create_issue"})),
//! ];
//! let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
//! assert_eq!(turn.results[0].content, ToolOutput::Text("Paris: sunny".into()));
//! assert_eq!(
//!     tool_results(&turn)["content"][1]["content"][0]["tool_name"],
//!     "mcp__tracker__create_issue"
//! );
//! # }
//! ```
//!
//! # `#[tool]` keys
//!
//! | key | value | meaning |
//! |---|---|---|
//! | `name` | `"..."` | the tool's name; `^[A-Za-z0-9_-]{1,64}$`, never `mcp__…` (reserved for MCP tools). Default: the struct's name without a trailing `Tool`. |
//! | `description` | `"..."` | the text sent to the model and searched. Default: the struct's doc comment. One of the two (or `prompt`) is required. |
//! | `prompt` | `path::to_fn` | a dynamic description: `fn() -> String` or `fn(&Switches) -> String`, rendered once per session. |
//! | `search_hint` | `"..."` | a 3–10 word capability phrase for ToolSearch, no trailing period. |
//! | `aliases` | `["Old", ...]` | old names still accepted for lookup (not for permission rules). |
//! | `defer` | flag | sent by name only until ToolSearch loads it. Conflicts with `always_load`. |
//! | `always_load` | flag | never deferred. |
//! | `read_only` | flag | changes nothing outside the call. |
//! | `concurrency_safe` | flag | may run beside other calls of a turn. |
//! | `destructive` | flag | asks before it runs unless a rule allows it. |
//! | `strict` | flag | sends the strict schema with `strict: true` where supported. A compile error naming the field and the keyword when the input has no strict form (a map, an untyped `serde_json::Value`, a bound the strict subsets refuse: see [`schema`]). |
//! | `max_result_size_chars` | `N` | dispatch cuts longer output and marks the cut. |
//! | `input_examples` | `[r#"{...}"#, ...]` | example inputs, each a JSON object's text, sent as Anthropic's `input_examples` (OpenAI's tools have no such field: left out). Each is checked against the tool's input type and schema by a test `#[tool]` generates and again before it is rendered; an example the schema refuses fails that test and the render, naming the example, the JSON path and the rule. A strict tool's examples give every property that has a default; nullable ones left out are sent as `null`. |
//! | `allowed_callers` | `["direct", "code_execution_20260120", ...]` | who may call the tool: the model (`direct`), or code it runs in the code execution tool (`code_execution_20250825`, `code_execution_20260120`). Sent as `allowed_callers`; a call from a caller not listed gets an `is_error` result and does not run. Default: the model only. An application sets it for any tool with `Env::callers`. |
//! | `output` | `Type` | structured output: the tool returns [`Structured<Type>`](Structured), whose schema is built at compile time. |
//! | `feature` | `"X"`, `any(...)`, `all(...)`, `not(...)` | the compile-time gate: everything generated sits under `#[cfg(feature = ...)]`. |
//! | `enabled` | `path::to_fn` | the run-time gate: `fn() -> bool` or `fn(&Switches) -> bool`. |
//! | `crate` | `"path"` | the path the generated code reaches this crate by, when your Cargo.toml renames the dependency (`tr = { package = "toolreg", ... }`: `crate = "tr"`) or a crate of yours re-exports it; as serde's `crate`. Default: `::toolreg`. A type deriving [`InputSchema`] takes the same as `#[schema(crate = "...")]`. |
//!
//! ```
//! // As with `tr = { package = "toolreg", ... }` in Cargo.toml: no `toolreg` in scope, `tr` instead.
//! use toolreg as tr;
//! use tr::{Tool, ToolContext, ToolError};
//!
//! #[derive(serde::Deserialize, tr::InputSchema)]
//! #[schema(crate = "tr")]
//! pub struct Key {
//!     /// The key's name.
//!     pub id: String,
//! }
//!
//! /// Looks a key up.
//! #[tr::tool(crate = "tr", read_only)]
//! #[derive(serde::Deserialize)]
//! pub struct Lookup {
//!     /// What to look up.
//!     pub key: Key,
//! }
//!
//! impl Tool for Lookup {
//!     type Output = String;
//!     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
//!         Ok(self.key.id)
//!     }
//! }
//! # fn main() {
//! # use tr::ToolSpec;
//! # assert!(Lookup::DESCRIPTOR.input_schema.contains(r#""key":{"description":"What to look up.","type":"object""#));
//! # }
//! ```
//!
//! Field types contribute their schema through [`InputSchema`], derived for structs and enums
//! in any of serde's representations; the schema follows serde's attributes, a field's
//! `#[schema(...)]` adds constraints and annotations, and what schemars reads from
//! `#[schemars(...)]` and `#[validate(...)]` is read too: the [`schema`] module has the table.
//! Attributes the schema cannot follow are compile errors. A `#[tool]` with a mistake still
//! leaves the struct in place, registers nothing, and reports every mistake of the attribute at
//! once:
//!
//! ```compile_fail
//! use toolreg::tool;
//! #[tool(name = "has space", defer, always_load)]
//! #[derive(serde::Deserialize)]
//! pub struct Broken {}
//! ```
//!
//! # Profiles
//! The registry's rules single no tool out by name: where a product does (a reduced set in some
//! mode, tools kept loaded, what each kind of agent may use), they ask the
//! [`Profile`] of the [`Env`]. [`Env::default`] has the [`Generic`] profile, which singles
//! nothing out; `toolreg_tools::profile` is the design's (`docs/design.md`), which the
//! `tools` crate and its CLI use.
//!
//! # Sandbox and process lifetimes
//! [`sandbox`] runs commands under an OS sandbox ([`sandbox::Sandboxing`], bubblewrap on Linux)
//! and starts processes that die with their owner ([`sandbox::contained`]).
//!
//! # Registration and catalogs
//! Tools register through `inventory`, which works where the platform runs constructors
//! (Linux, macOS, Windows, the BSDs); its order is unspecified, so [`builtins`] sorts. A pool
//! offers only the tools of the [`Catalog`] it is assembled from, which the program composes by
//! name: [`own_tools!`] (its own tools and the core's), a tool set's catalog, [`Catalog::with`],
//! [`Catalog::select`]. Linking a crate that registers tools changes no catalog.

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

// The core defines a `#[tool]` of its own (ToolSearch), whose generated code names this crate.
extern crate self as toolreg;

pub mod conversation;
pub mod dispatch;
pub mod env;
pub mod mcp;
pub mod permissions;
pub mod pool;
pub mod sandbox;
pub mod schema;
pub mod search;
pub mod tool;
pub mod wire;

pub use dispatch::approval::{ApprovalRequest, Approver};
pub use dispatch::call::ToolCall;
pub use dispatch::dispatcher::Dispatcher;
pub use dispatch::error::DispatchError;
pub use dispatch::result::ToolResult;
pub use dispatch::turn::{Turn, TurnOptions};
pub use env::profile::{Generic, Profile};
pub use env::settings::Env;
pub use permissions::rule::{Behavior, RuleSource};
pub use permissions::ruleset::{PermissionContext, PermissionMode};
pub use pool::Pool;
pub use pool::assemble::assemble_tool_pool;
pub use pool::catalog::{Catalog, CatalogError};
pub use schema::input::InputSchema;
pub use search::engine::SearchEngine;
pub use tool::body::{PermissionDecision, Tool};
pub use tool::context::{State, ToolContext};
pub use tool::delegate::Delegate;
pub use tool::descriptor::{ToolDescriptor, ToolSpec};
pub use tool::error::{ErrorKind, ToolError};
pub use tool::info::ToolInfo;
pub use tool::output::{Structured, ToolOutput};
pub use tool::registry::builtins;
pub use toolreg_macros::{InputSchema, tool};
pub use toolreg_search::Strategy;
pub use wire::anthropic::{RenderOptions, SchemaCache, render_anthropic};
pub use wire::render_openai;

/// What generated code needs. Not a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::schema::checks::{
        Message, admits, bound_problem, field_refusal, flatten_problem, message, message_len,
        object_problem, strict_capable, strict_message, tagged_newtype_problem,
    };
    pub use crate::schema::kinds::{ARRAY, INTEGER, NUMBER, STRING};
    pub use crate::schema::run_time::has_generated;
    pub use crate::schema::write::{as_str, render, rendered_len};
    pub use crate::schema::{
        Data, Enum, Field, Keywords, Mode, Object, Repr, Schema, Variant, to_json,
    };
    pub use crate::tool::body::parse_input;
    pub use crate::tool::registry::{Registration, crate_name};
    pub use crate::wire::examples::check_examples;
    #[cfg(feature = "schemars")]
    pub use schemars;

    /// A field type's schema: `SchemaOf::<T>::SCHEMA` is `T`'s [`InputSchema`](crate::InputSchema)
    /// when it has one; with the `schemars` feature and `FromSchemars` in scope, a type with
    /// only `schemars::JsonSchema` falls back to a schema generated at run time (an inherent
    /// associated const wins over a trait's, and is skipped when its bound does not hold).
    pub struct SchemaOf<T: ?Sized>(core::marker::PhantomData<T>);

    impl<T: crate::InputSchema + ?Sized> SchemaOf<T> {
        /// `T`'s compile-time schema.
        pub const SCHEMA: crate::schema::Schema = T::SCHEMA;
        /// Whether serde accepts the field being absent.
        pub const OPTIONAL: bool = T::OPTIONAL;
    }

    /// The fallback of [`SchemaOf`] for types with only `schemars::JsonSchema`.
    #[cfg(feature = "schemars")]
    pub trait FromSchemars {
        /// The generated schema.
        const SCHEMA: crate::schema::Schema;
        /// Never absent (an `Option` field is recognised by the macros).
        const OPTIONAL: bool;
    }

    #[cfg(feature = "schemars")]
    impl<T: schemars::JsonSchema + ?Sized> FromSchemars for SchemaOf<T> {
        const SCHEMA: crate::schema::Schema =
            crate::schema::Schema::Generated(crate::schema::interop::generated_members::<T>);
        const OPTIONAL: bool = false;
    }

    /// Checks at compile time that a tool declared with `#[tool(output = O)]` returns
    /// `Structured<O>`.
    pub const fn assert_output<T, O>()
    where
        T: crate::Tool<Output = crate::Structured<O>>,
    {
    }
    pub use inventory;
    pub use serde_json;

    use crate::env::Switches;

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

//! Anthropic Messages: a response's `tool_use` blocks read (`parse.rs`), results answered as one
//! user message of `tool_result` blocks (`answer.rs`), the next request's `tools` rendered from
//! the pool (`tools.rs`) through the session's schema cache (`cache.rs`), as the options say
//! (`options.rs`); the history's `tool_reference` blocks (`references.rs`); tool changes between
//! requests (`changes.rs`).
//!
//! # What a request receives
//!
//! Output is built in pool order and serialized with fields in a fixed order, so the same
//! inputs give the same bytes on any machine, in any locale, with any number of threads. The
//! tools come from the [`SchemaCache`]'s locked bases.
//!
//! With tool search off, ToolSearch is left out and every tool is sent in full. With it on, by
//! [`DeferStrategy`]:
//! * **discovered only** (the design's default): every non-deferred tool, ToolSearch among
//!   them, in full; the deferred tools the conversation already loaded (named by a
//!   `tool_reference`) with `defer_loading: true`; the other deferred tools announced by name
//!   in a user message `<available-deferred-tools>…</available-deferred-tools>`;
//! * **all deferred**: every tool, the deferred ones with `defer_loading: true`, and no
//!   message; ToolSearch answers with `tool_reference` blocks;
//! * **server** (BM25 or regex): the API's own tool search tool in ToolSearch's place and
//!   every other tool, the deferred ones with `defer_loading: true`; the API searches.
//!
//! The API takes at most [`MAX_DEFERRED_TOOLS`] tools with `defer_loading` and needs one
//! without; past the limit rendering fails with
//! [`RenderError::TooManyDeferred`](crate::wire::RenderError::TooManyDeferred). The
//! `anthropic-beta` header a request with deferred tools needs ([`RenderedTools::beta`]) is
//! the profile's [`Betas`](crate::env::Betas) unless the options name others.
//!
//! `cache_control` never lands on a deferred tool ([`CacheControl`]).

mod answer;
mod cache;
pub(crate) mod changes;
mod options;
pub(crate) mod parse;
mod references;
mod tools;

pub use answer::{tool_result, tool_results};
pub use cache::{CacheSettings, CachedTool, SchemaCache};
pub use changes::{INLINE_TOOLS_BETA, TOOL_CHANGES_BETA};
pub use options::{
    BETA_HEADER, CacheControl, DeferStrategy, MAX_DEFERRED_TOOLS, RenderOptions, ServerSearch,
};
pub use references::{
    REFS_REMOVED_DISABLED, REFS_REMOVED_GONE, discovered, discovered_tools, rewrite_tool_references,
};
pub use tools::{RenderedTools, render_anthropic};

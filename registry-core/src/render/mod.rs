//! Rendering a pool into the tools of a model request.
//!
//! Output is built in pool order and serialized with fields in a fixed order, so the same
//! inputs give the same bytes on any machine, in any locale, with any number of threads. The
//! Anthropic tools come from the [`SchemaCache`](crate::render::cache::SchemaCache)'s locked bases.
//!
//! # What each API receives
//!
//! **Anthropic Messages** ([`render_anthropic`](crate::render_anthropic)). With tool search off, ToolSearch is left out
//! and every tool is sent in full. With it on, by [`DeferStrategy`]:
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
//! without; past the limit rendering fails with [`RenderError::TooManyDeferred`]. The
//! `anthropic-beta` header a request with deferred tools needs ([`RenderedTools::beta`]) is
//! the profile's [`Betas`](crate::env::Betas) unless the options name others.
//!
//! **OpenAI** ([`render_openai`](crate::render_openai)): function tools, in the Chat Completions or the Responses
//! shape; see [`OpenAiToolSearch`] for deferral there.
//!
//! `cache_control` never lands on a deferred tool ([`CacheControl`]).

use serde::Serialize;

pub use cache::{CacheSettings, CachedTool, InvalidSchema};

pub(crate) mod anthropic;
pub(crate) mod cache;
mod namespaces;
pub(crate) mod openai;
pub(crate) mod options;
mod references;

pub use anthropic::RenderedTools;
pub use openai::{
    OpenAiFormat, OpenAiOptions, OpenAiToolSearch, RenderedOpenAi, chat_tool_search_text,
    openai_tool_result, responses_tool_search_output,
};
pub use options::{
    BETA_HEADER, CHAT_COMPLETIONS_MAX_TOOLS, CacheControl, DeferStrategy, MAX_DEFERRED_TOOLS,
    RenderError, ServerSearch,
};
pub use references::{
    REFS_REMOVED_DISABLED, REFS_REMOVED_GONE, discovered_tools, rewrite_tool_references,
};

/// The `<available-deferred-tools>` message announcing `names` (sorted by the caller), or none.
fn announce(names: &[&str]) -> Option<String> {
    (!names.is_empty()).then(|| {
        format!(
            "<available-deferred-tools>\n{}\n</available-deferred-tools>",
            names.join("\n")
        )
    })
}

/// A rendered `tools` array as JSON text.
// Cannot fail: the tool structs hold only strings, booleans, options, `RawValue`s (already
// parsed as JSON) and `Value`s (string keys), which serde_json always serializes.
#[allow(clippy::expect_used)]
fn tools_json<T: Serialize + ?Sized>(tools: &T) -> String {
    serde_json::to_string(tools).expect("tool JSON serializes")
}

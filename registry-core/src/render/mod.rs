//! Rendering a pool into the tools of a model request.
//!
//! Output is built in pool order and serialized with fields in a fixed order, so the same
//! inputs give the same bytes on any machine, in any locale, with any number of threads. The
//! Anthropic tools come from the [`SchemaCache`](crate::cache::SchemaCache)'s locked bases.
//!
//! # What each API receives
//!
//! **Anthropic Messages** ([`render_anthropic`]). With tool search off, ToolSearch is left out
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
//! the profile's [`Betas`] unless the options name others.
//!
//! **OpenAI** ([`render_openai`]): function tools, in the Chat Completions or the Responses
//! shape; see [`OpenAiToolSearch`] for deferral there.
//!
//! `cache_control` never lands on a deferred tool ([`CacheControl`]).

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::cache::{CacheSettings, InvalidSchema};
use crate::profile::Betas;

mod anthropic;
mod openai;
mod references;

pub use anthropic::{RenderedTools, render_anthropic};
pub use openai::{
    OpenAiFormat, OpenAiOptions, OpenAiToolSearch, RenderedOpenAi, chat_tool_search_text,
    openai_tool_result, render_openai, responses_tool_search_output,
};
pub use references::{
    REFS_REMOVED_DISABLED, REFS_REMOVED_GONE, discovered_tools, rewrite_tool_references,
};

/// The header that carries beta names on the Anthropic API.
pub const BETA_HEADER: &str = "anthropic-beta";
/// The most tools with `defer_loading: true` one Anthropic request may carry.
pub const MAX_DEFERRED_TOOLS: usize = 10_000;
/// The most tools one OpenAI Chat Completions request may carry.
pub const CHAT_COMPLETIONS_MAX_TOOLS: usize = 128;

/// How deferred tools are offered to the Anthropic API when tool search is on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DeferStrategy {
    /// Loaded deferred tools in full, the rest by name in a message; ToolSearch loads them.
    #[default]
    DiscoveredOnly,
    /// Every tool, deferred ones with `defer_loading: true`; ToolSearch loads them.
    AllDeferred,
    /// Every tool, deferred ones with `defer_loading: true`, and the API's own tool search
    /// tool in ToolSearch's place: the API searches.
    Server(ServerSearch),
}

/// The Anthropic API's own tool search tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerSearch {
    /// `tool_search_tool_bm25_20251119`: natural-language queries.
    Bm25,
    /// `tool_search_tool_regex_20251119`: Python regular expressions.
    Regex,
}

impl ServerSearch {
    /// The tool's `type`.
    pub fn tool_type(self) -> &'static str {
        match self {
            ServerSearch::Bm25 => "tool_search_tool_bm25_20251119",
            ServerSearch::Regex => "tool_search_tool_regex_20251119",
        }
    }

    /// The tool's `name` (fixed by the API).
    pub fn tool_name(self) -> &'static str {
        match self {
            ServerSearch::Bm25 => "tool_search_tool_bm25",
            ServerSearch::Regex => "tool_search_tool_regex",
        }
    }
}

/// Where `cache_control` goes.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum CacheControl {
    /// Nowhere.
    #[default]
    None,
    /// On the last tool of the array that is not deferred: the API refuses `cache_control` on
    /// a tool with `defer_loading` (a 400), and a deferred tool is not part of the cached
    /// prefix anyway. None when every tool sent is deferred.
    Last(Value),
    /// On the named tools that are not deferred (a named deferred tool carries none, for the
    /// same reason).
    Tools(Vec<String>, Value),
}

/// One Anthropic request's rendering inputs.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Whether tool search is on for this request (see [`crate::defer`]).
    pub tool_search: bool,
    /// The deferral strategy.
    pub strategy: DeferStrategy,
    /// Deferred tools the conversation already loaded.
    pub discovered: BTreeSet<String>,
    /// The session's base settings.
    pub settings: CacheSettings,
    /// Per-request `cache_control`.
    pub cache_control: CacheControl,
    /// The beta headers; `None` takes the profile's [`betas`](crate::Profile::betas).
    pub betas: Option<Betas>,
}

/// Why a request could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// A tool's input schema is not JSON.
    InvalidSchema(InvalidSchema),
    /// More deferred tools than the Anthropic API takes in one request.
    TooManyDeferred {
        /// The deferred tools the request would carry.
        count: usize,
    },
    /// More tools than the API takes in one request, even with deferral where it applies.
    TooManyTools {
        /// The API.
        api: &'static str,
        /// The tools the request would carry.
        count: usize,
        /// The most it takes.
        limit: usize,
        /// Whether tool search was on (deferred tools left out).
        tool_search: bool,
    },
    /// The API has no such mode.
    Unsupported {
        /// The API.
        api: &'static str,
        /// What it lacks.
        what: &'static str,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::InvalidSchema(error) => error.fmt(f),
            RenderError::TooManyDeferred { count } => write!(
                f,
                "{count} deferred tools: the Anthropic API takes at most {MAX_DEFERRED_TOOLS} \
                 tools with defer_loading in one request; use the discovered-only strategy"
            ),
            RenderError::TooManyTools {
                api,
                count,
                limit,
                tool_search: true,
            } => write!(
                f,
                "{api} takes at most {limit} tools and the tools that cannot be deferred (with \
                 ToolSearch and the loaded ones) are {count}; defer more tools or narrow the \
                 pool"
            ),
            RenderError::TooManyTools {
                api, count, limit, ..
            } => write!(
                f,
                "{api} takes at most {limit} tools and the pool has {count} with tool search \
                 off; turn tool search on to send deferred tools by name only"
            ),
            RenderError::Unsupported { api, what } => write!(f, "{api} has no {what}"),
        }
    }
}

impl std::error::Error for RenderError {}

impl From<InvalidSchema> for RenderError {
    fn from(error: InvalidSchema) -> Self {
        RenderError::InvalidSchema(error)
    }
}

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

//! What a rendering is asked for, and how it fails.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

use super::{CacheSettings, InvalidSchema};
use crate::env::Betas;

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
    /// Whether tool search is on for this request (see [`is_tool_search_enabled`](crate::search::is_tool_search_enabled)).
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

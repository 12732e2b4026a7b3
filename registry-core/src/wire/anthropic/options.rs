//! What an Anthropic Messages rendering is asked for.

use std::collections::BTreeSet;

use serde_json::Value;

use super::cache::CacheSettings;
use crate::env::Betas;

/// The header that carries beta names on the Anthropic API.
pub const BETA_HEADER: &str = "anthropic-beta";
/// The most tools with `defer_loading: true` one Anthropic request may carry.
pub const MAX_DEFERRED_TOOLS: usize = 10_000;

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

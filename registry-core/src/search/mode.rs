//! The tool-search mode: whether tool search might be on (the catalog asks), and whether it
//! is on for a request.

use std::sync::Arc;

use crate::env::{ToolSearchMode, ToolSearchSettings};
use crate::{Env, ToolInfo};

/// The mode in effect: [`Standard`](ToolSearchMode::Standard) under the kill switch, else the
/// mode the user chose, else [`Always`](ToolSearchMode::Always).
pub fn tool_search_mode(settings: &ToolSearchSettings) -> ToolSearchMode {
    if settings.kill_switch {
        return ToolSearchMode::Standard;
    }
    settings.mode.unwrap_or(ToolSearchMode::Always)
}

/// "Might tool search be on?": decides whether ToolSearch is in the catalog. False in standard
/// mode; false when the user chose no mode, the provider is the first-party API and requests go
/// through a proxy (proxies often reject the beta fields); true otherwise. (The design's
/// `isToolSearchEnabledOptimistic`.)
pub fn tool_search_might_be_on(settings: &ToolSearchSettings) -> bool {
    if tool_search_mode(settings) == ToolSearchMode::Standard {
        return false;
    }
    !(settings.mode.is_none() && settings.provider.is_first_party() && settings.proxied)
}

/// Counts the tokens of the deferred tools' definitions.
pub trait TokenCounter {
    /// The tokens of these tools as the API would count them.
    fn count_tool_tokens(&self, tools: &[&ToolInfo]) -> u64;
}

/// The tokens of the preamble a token counter's count includes.
pub(crate) const TOKEN_COUNT_PREAMBLE: u64 = 500;

/// Characters per token for the fallback size estimate.
pub(crate) const CHARS_PER_TOKEN: f64 = 2.5;

/// The model and counting facts of one request.
pub struct RequestModel<'a> {
    /// The model name.
    pub model: &'a str,
    /// Its context window in tokens.
    pub context_window: u64,
    /// Substrings of model names (compared in lower case) that cannot use tool references;
    /// `None` takes the profile's
    /// [`models_without_tool_references`](crate::Profile::models_without_tool_references).
    pub unsupported_models: Option<&'a [&'a str]>,
    /// The token counter, if any.
    pub counter: Option<&'a dyn TokenCounter>,
}

impl<'a> RequestModel<'a> {
    /// A model with the profile's list of models without tool references, and no counter.
    pub fn new(model: &'a str, context_window: u64) -> Self {
        RequestModel {
            model,
            context_window,
            unsupported_models: None,
            counter: None,
        }
    }

    /// Whether the model can use tool references: its name contains none of the request's
    /// list, or of the profile's when the request names none.
    pub fn supports_tool_reference(&self, env: &Env) -> bool {
        let model = self.model.to_lowercase();
        !self
            .unsupported_models
            .unwrap_or_else(|| env.profile.models_without_tool_references())
            .iter()
            .any(|pattern| model.contains(&pattern.to_lowercase()))
    }
}

/// "Is tool search on for this request?": the model supports tool references, ToolSearch is in
/// the pool (by name or alias), and the mode says on — always; never in standard; in auto when
/// the deferred tools reach the percentage of the context window (counted tokens minus
/// a 500-token preamble, or without a counter their characters — name, description, schema
/// JSON — against the threshold × 2.5 characters a token).
pub fn is_tool_search_enabled(env: &Env, pool: &[Arc<ToolInfo>], model: &RequestModel<'_>) -> bool {
    if !model.supports_tool_reference(env) {
        return false;
    }
    if !pool
        .iter()
        .any(|tool| tool.answers_to(crate::search::TOOL_NAME))
    {
        return false;
    }
    match tool_search_mode(&env.tool_search) {
        ToolSearchMode::Always => true,
        ToolSearchMode::Standard => false,
        ToolSearchMode::Auto { percent } => {
            let deferred: Vec<&ToolInfo> = pool
                .iter()
                .map(|tool| tool.as_ref())
                .filter(|tool| tool.is_deferred())
                .collect();
            let threshold = model.context_window as f64 * f64::from(percent) / 100.0;
            match model.counter {
                Some(counter) => {
                    let tokens = counter
                        .count_tool_tokens(&deferred)
                        .saturating_sub(TOKEN_COUNT_PREAMBLE);
                    tokens as f64 >= threshold
                }
                None => {
                    let chars: usize = deferred
                        .iter()
                        .map(|tool| {
                            tool.name.chars().count()
                                + tool.description.chars().count()
                                + tool.input_schema.chars().count()
                        })
                        .sum();
                    chars as f64 >= threshold * CHARS_PER_TOKEN
                }
            }
        }
    }
}

/// The request-time rule: with no deferred tool and no MCP server still connecting there is
/// nothing to search, so tool search is off for this request.
pub fn tool_search_needed(pool: &[Arc<ToolInfo>], pending_mcp_servers: usize) -> bool {
    pending_mcp_servers > 0 || pool.iter().any(|tool| tool.is_deferred())
}

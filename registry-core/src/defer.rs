//! Deferred tools and the tool-search mode.
//!
//! A deferred tool is sent by name only; the model loads its schema with ToolSearch when it
//! needs it. Whether tool search is on at all depends on `ENABLE_TOOL_SEARCH` (the mode), on the
//! provider and base URL (the optimistic check, which decides whether ToolSearch is even in the
//! catalog), and per request on the model, the pool and the deferred tools' size (the
//! definitive check).

use std::sync::Arc;

use crate::env::{Env, ToolSearchSettings};
use crate::switches::{is_falsy, is_truthy};
use crate::tool_info::ToolInfo;
use crate::tool_search;

/// Whether `tool` is sent by name only until ToolSearch loads it, in `env`. The first rule that
/// applies: always-load → no; MCP → yes; ToolSearch → no; the profile's
/// [`deferral`](crate::profile::Profile::deferral) override; otherwise the tool's `defer` flag.
///
/// Pool assembly applies this rule once and records the answer in
/// [`ToolInfo::deferral`]; the stages after it ask [`ToolInfo::is_deferred`].
pub fn deferral(tool: &ToolInfo, env: &Env) -> bool {
    if tool.flags.always_load {
        return false;
    }
    if tool.is_mcp() {
        return true;
    }
    if tool.name == tool_search::NAME {
        return false;
    }
    env.profile
        .deferral(tool, env.gates())
        .unwrap_or(tool.flags.defer)
}

/// How tool search is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolSearchMode {
    /// Off: every tool is sent in full.
    Standard,
    /// On whenever the model and pool allow it ("tst").
    Always,
    /// On when the deferred tools take at least this percentage of the context window.
    Auto {
        /// 1..=99.
        percent: u8,
    },
}

/// The percentage `auto` uses when no number is given.
pub const DEFAULT_AUTO_PERCENT: u8 = 10;

/// The mode, from the settings. The kill switch forces [`Standard`](ToolSearchMode::Standard);
/// then `ENABLE_TOOL_SEARCH`:
///
/// | value | mode |
/// |---|---|
/// | `auto:N` (N read like an integer prefix, clamped to 0..=100) | N = 0 → always; N = 100 → standard; else auto N% |
/// | `auto`, `auto:` or `auto:` without a leading number | auto 10% |
/// | `1`, `true`, `yes`, `on` | always |
/// | `0`, `false`, `no`, `off` | standard |
/// | unset, empty, anything else (also `AUTO`: `auto` is case-sensitive) | always |
pub fn tool_search_mode(settings: &ToolSearchSettings) -> ToolSearchMode {
    if settings.kill_switch {
        return ToolSearchMode::Standard;
    }
    let Some(value) = settings.enable_tool_search.as_deref() else {
        return ToolSearchMode::Always;
    };
    if value == "auto" {
        return ToolSearchMode::Auto {
            percent: DEFAULT_AUTO_PERCENT,
        };
    }
    if let Some(number) = value.strip_prefix("auto:") {
        return match parse_int_prefix(number) {
            None => ToolSearchMode::Auto {
                percent: DEFAULT_AUTO_PERCENT,
            },
            Some(n) if n <= 0 => ToolSearchMode::Always,
            Some(n) if n >= 100 => ToolSearchMode::Standard,
            Some(n) => ToolSearchMode::Auto { percent: n as u8 },
        };
    }
    if is_truthy(value) {
        ToolSearchMode::Always
    } else if is_falsy(value) {
        ToolSearchMode::Standard
    } else {
        ToolSearchMode::Always
    }
}

/// Reads an integer the way JavaScript's `parseInt(text, 10)` does: leading whitespace, an
/// optional sign, then digits; `None` when there are no digits. Saturates instead of overflowing.
fn parse_int_prefix(text: &str) -> Option<i64> {
    let text = text.trim_start();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let digits: &str = &digits[..digits.bytes().take_while(u8::is_ascii_digit).count()];
    if digits.is_empty() {
        return None;
    }
    let magnitude = digits.bytes().fold(0i64, |acc, digit| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(digit - b'0'))
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// "Might tool search be on?": decides whether ToolSearch is in the catalog. False in standard
/// mode; false when `ENABLE_TOOL_SEARCH` is unset, the provider is the first-party API and the
/// base URL is not the first-party host (proxies often reject the beta fields); true otherwise.
pub fn is_tool_search_enabled_optimistic(settings: &ToolSearchSettings) -> bool {
    if tool_search_mode(settings) == ToolSearchMode::Standard {
        return false;
    }
    !(settings.enable_tool_search.is_none()
        && settings.provider.is_first_party()
        && !settings.base_url_is_first_party())
}

/// Counts the tokens of the deferred tools' definitions.
pub trait TokenCounter {
    /// The tokens of these tools as the API would count them.
    fn count_tool_tokens(&self, tools: &[&ToolInfo]) -> u64;
}

/// The tokens of the preamble a token counter's count includes.
pub const TOKEN_COUNT_PREAMBLE: u64 = 500;

/// Characters per token for the fallback size estimate.
pub const CHARS_PER_TOKEN: f64 = 2.5;

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
/// [`TOKEN_COUNT_PREAMBLE`], or without a counter their characters — name, description, schema
/// JSON — against the threshold × [`CHARS_PER_TOKEN`]).
pub fn is_tool_search_enabled(env: &Env, pool: &[Arc<ToolInfo>], model: &RequestModel<'_>) -> bool {
    if !model.supports_tool_reference(env) {
        return false;
    }
    if !pool.iter().any(|tool| tool.answers_to(tool_search::NAME)) {
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

/// Records [`deferral`] in each tool of `pool` whose [`is_deferred`](ToolInfo::is_deferred)
/// would answer otherwise; the others (every MCP tool, most built-ins) are left as they are and
/// stay shared.
pub(crate) fn decide_deferral(pool: &mut [Arc<ToolInfo>], env: &Env) {
    for tool in pool {
        let decided = deferral(tool, env);
        if tool.is_deferred() != decided {
            Arc::make_mut(tool).deferral = Some(decided);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_int_prefix;

    #[test]
    fn parse_int_prefix_reads_like_javascript_parse_int() {
        assert_eq!(parse_int_prefix("42"), Some(42));
        assert_eq!(parse_int_prefix("  7x"), Some(7));
        assert_eq!(parse_int_prefix("+3"), Some(3));
        assert_eq!(parse_int_prefix("-5"), Some(-5));
        assert_eq!(parse_int_prefix("x"), None);
        assert_eq!(parse_int_prefix(""), None);
        assert_eq!(parse_int_prefix("99999999999999999999999"), Some(i64::MAX));
    }
}

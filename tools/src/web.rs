//! WebFetch and WebSearch: the web, reached through the host.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Fetches a URL, converts the page to Markdown and answers `prompt` about it with a small, fast model; returns that answer.
///
/// - The URL must be fully formed; http is upgraded to https. When it redirects to another host, the result says so and gives the new URL: fetch that one.
/// - Results may be summarised when the page is large, and repeated fetches of the same URL may come from a short-lived cache.
/// - It is read-only. It cannot reach pages behind authentication or private networks; for those, use a tool the host provides for them.
/// - For GitHub, prefer the `gh` command through Bash.
#[tool(
    strict,
    name = "WebFetch",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "retrieve a url page and summarize its content",
    max_result_size_chars = 100000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WebFetchTool {
    /// The URL to fetch content from.
    pub url: String,
    /// What to extract or answer from the fetched content.
    pub prompt: String,
}

impl Tool for WebFetchTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Searches the web and returns result blocks with titles and URLs, for information beyond your training data: current events, recent releases, documentation that may have changed.
///
/// - Filter with `allowed_domains` (only these sites) or `blocked_domains` (never these sites).
/// - After answering from the results, end with a "Sources:" list of the URLs you used, as Markdown links.
/// - Put the current year in queries about recent things.
#[tool(
    strict,
    name = "WebSearch",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "look up current information on the internet"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WebSearchTool {
    /// The search query (at least 2 characters).
    pub query: String,
    /// Only include results from these domains.
    pub allowed_domains: Option<Vec<String>>,
    /// Never include results from these domains.
    pub blocked_domains: Option<Vec<String>>,
}

impl Tool for WebSearchTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if self.query.trim().chars().count() < 2 {
            return Err(ToolError::new("the query needs at least 2 characters"));
        }
        if self.allowed_domains.is_some() && self.blocked_domains.is_some() {
            return Err(ToolError::new(
                "give allowed_domains or blocked_domains, not both",
            ));
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}

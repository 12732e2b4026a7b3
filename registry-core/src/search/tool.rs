//! The ToolSearch tool: loads deferred tools by name or keyword (`docs/design.md` §9). The core
//! registers it, so every pool of deferred tools has a way to load them. It asks the search
//! engine of the current pool: the one the host gave the [`Dispatcher`](crate::Dispatcher),
//! or one the dispatcher builds over its pool on first use (the keyword strategy).

use serde::{Deserialize, Serialize};

use crate::search::DEFAULT_MAX_RESULTS;
use crate::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// The ToolSearch tool's name: the one built-in every profile knows (it is never deferred, and
/// tool search is on only when it is in the pool).
pub const NAME: &str = "ToolSearch";

/// Fetches the full definitions of deferred tools so that you can call them. Deferred tools are announced by name only; until this tool loads one, its parameters are unknown and calling it fails.
///
/// Query forms:
/// - `select:Name` loads exactly the named tools; list several with commas: `select:Read,Edit,Grep`. Names are matched exactly, aliases included.
/// - Keywords (`notebook jupyter`, `slack message`) find tools by words of their name, search hint and description, best matches first, at most `max_results`.
/// - Prefix a keyword with `+` to require it: `+slack send` finds only tools about slack, ranked by "send".
/// - A query starting with `mcp__` finds the deferred tools of that MCP server by name prefix.
///
/// The matching tools become callable immediately after this call returns.
#[tool(
    strict,
    name = "ToolSearch",
    read_only,
    concurrency_safe,
    search_hint = "load deferred definitions by name or keyword"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ToolSearchTool {
    /// The query: "select:<tool_name>[,<tool_name>...]" for direct selection, or keywords to search for (prefix a keyword with + to require it).
    pub query: String,
    /// The most matches to return for a keyword search (default 5); select: queries are not capped.
    pub max_results: Option<usize>,
}

impl Tool for ToolSearchTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        let searcher = ctx.searcher().ok_or_else(|| {
            ToolError::new("ToolSearch has no search engine for this pool; the host must attach one with `ToolContext::with_searcher` (a `Dispatcher` does)")
        })?;
        let output = searcher.search(&self.query, self.max_results.unwrap_or(DEFAULT_MAX_RESULTS));
        Ok(match output.content() {
            serde_json::Value::Array(blocks) => ToolOutput::Blocks(blocks),
            other => ToolOutput::Text(other.as_str().unwrap_or_default().to_owned()),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_name_constant_is_the_tools_name() {
        let descriptor = crate::tool::registry::builtins()
            .ok()
            .and_then(|builtins| builtins.get(super::NAME));
        assert!(descriptor.is_some(), "no built-in is named {}", super::NAME);
    }
}

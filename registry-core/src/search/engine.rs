//! The [`SearchEngine`] over a pool, and what it reads of a pool's tools.

use crate::ToolInfo;
use crate::search::{Document, SearchOutput, ToolSearcher};

/// ToolSearch over a pool of [`ToolInfo`]s.
///
/// ```
/// use toolreg::mcp::load_server;
/// use toolreg::{SearchEngine, Strategy};
/// use serde_json::json;
///
/// let listed = json!([
///     {"name": "send_message", "description": "Post a message to a Slack channel", "inputSchema": {"type": "object"}},
///     {"name": "list_channels", "description": "List the workspace's channels", "inputSchema": {"type": "object"}},
/// ]);
/// let engine = SearchEngine::new(load_server("slack", &listed).tools, Strategy::Bm25f);
/// assert_eq!(engine.search("post to a channel", 1).matches, ["mcp__slack__send_message"]);
/// ```
pub type SearchEngine = toolreg_search::SearchEngine<ToolInfo>;

impl ToolSearcher for SearchEngine {
    fn search(&self, query: &str, max_results: usize) -> SearchOutput {
        SearchEngine::search(self, query, max_results)
    }
}

/// What ToolSearch reads of a pool entry: an MCP tool's server and received name come from its
/// [`McpInfo`](crate::mcp::McpInfo).
impl Document for ToolInfo {
    fn name(&self) -> &str {
        &self.name
    }
    fn own_name(&self) -> &str {
        self.mcp().map_or(&self.name, |mcp| &mcp.tool)
    }
    fn aliases(&self) -> &[String] {
        &self.aliases
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn search_hint(&self) -> Option<&str> {
        self.search_hint.as_deref()
    }
    fn server(&self) -> Option<&str> {
        self.mcp().map(|mcp| &*mcp.server)
    }
    fn input_schema(&self) -> &str {
        &self.input_schema
    }
    fn is_deferred(&self) -> bool {
        ToolInfo::is_deferred(self)
    }
}

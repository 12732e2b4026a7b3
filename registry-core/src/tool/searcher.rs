//! What tools see of ToolSearch: the [`ToolSearcher`] a context carries and the
//! [`SearchOutput`] it answers with. The engines that implement it live in
//! [`search`](crate::search).

use toolreg_search::SearchOutput;

/// Answers ToolSearch queries over the current pool; tools reach it through
/// [`ToolContext::searcher`](crate::ToolContext::searcher).
pub trait ToolSearcher: Send + Sync {
    /// Runs a query.
    fn search(&self, query: &str, max_results: usize) -> SearchOutput;
}

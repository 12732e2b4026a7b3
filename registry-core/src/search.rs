//! ToolSearch over a pool: the engine of [`toolreg_search`] over the pool's [`ToolInfo`]s.
//!
//! A [`SearchEngine`] searches one pool's deferred tools with one of two [`Strategy`]s: `Seed`, the
//! design's algorithm rule for rule (`docs/design.md` §9), answered from an inverted index with the
//! results of a straight scan; or `Ranked`, BM25F over the tools' fields blended with the seed
//! score. With the `eval` feature, the `eval` module measures a strategy on a retrieval set.
//!
//! ```
//! use toolreg::mcp::load_server;
//! use toolreg::search::{SearchEngine, Strategy};
//! use serde_json::json;
//!
//! let listed = json!([
//!     {"name": "git_log", "description": "Show the commit log", "inputSchema": {"type": "object"}},
//!     {"name": "git_diff", "description": "Show changes", "inputSchema": {"type": "object"}},
//! ]);
//! let pool = load_server("git", &listed).tools;
//! let engine = SearchEngine::new(pool, Strategy::Seed);
//! assert_eq!(engine.search("commit log", 5).matches, ["mcp__git__git_log"]);
//! assert_eq!(engine.search("select:mcp__git__git_diff", 5).matches, ["mcp__git__git_diff"]);
//! ```

pub use toolreg_search::{DEFAULT_MAX_RESULTS, Document, SEED_BLEND_TERMS, SearchOutput, Strategy};

pub use toolreg_search::semantic;

pub use crate::searcher::ToolSearcher;
use crate::tool_info::ToolInfo;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub use toolreg_search::{ranked, seed, text};

/// ToolSearch over a pool of [`ToolInfo`]s.
pub type SearchEngine = toolreg_search::SearchEngine<ToolInfo>;

impl ToolSearcher for SearchEngine {
    fn search(&self, query: &str, max_results: usize) -> SearchOutput {
        SearchEngine::search(self, query, max_results)
    }
}

/// What ToolSearch reads of a pool entry: an MCP tool's server and received name come from its
/// [`McpInfo`](crate::tool_info::McpInfo).
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
        self.mcp().map(|mcp| mcp.server.as_str())
    }
    fn input_schema(&self) -> &str {
        &self.input_schema
    }
    fn is_deferred(&self) -> bool {
        ToolInfo::is_deferred(self)
    }
}

/// Retrieval evaluation over pools loaded as MCP servers' tools ([`load_servers`]), so that a
/// set's tools are named and checked as a user's are.
///
/// [`load_servers`]: crate::mcp::load_servers
#[cfg(feature = "eval")]
pub mod eval {
    pub use toolreg_search::eval::{
        Bm25Baseline, EvalError, EvalQuery, Interval, Metrics, QueryScores, TUNING_SET,
        baseline_scores, bootstrap, engine_scores, evaluate, evaluate_engine,
    };

    use crate::mcp::load_servers;
    use crate::tool_info::ToolInfo;

    /// A loaded evaluation set.
    pub type EvalSet = toolreg_search::eval::EvalSet<ToolInfo>;

    /// Parses a set (`tools.jsonl`, `queries.jsonl`); `set_name` is the server of tools whose
    /// line names none. A tool the loader refuses is the set's error.
    pub fn parse(
        set_name: &str,
        tools_jsonl: &str,
        queries_jsonl: &str,
    ) -> Result<EvalSet, EvalError> {
        EvalSet::load(set_name, tools_jsonl, queries_jsonl, |servers| {
            let loaded = load_servers(servers.iter().map(|(server, list)| (server.as_str(), list)));
            match loaded.errors.first() {
                Some(error) => Err(error.to_string()),
                None => Ok(loaded.tools),
            }
        })
    }
}

//! ToolSearch over a pool: the engine of [`toolreg_search`] over the pool's
//! [`ToolInfo`](crate::ToolInfo)s, the ToolSearch tool, and whether tool search is on.
//!
//! A [`SearchEngine`](crate::SearchEngine) searches one pool's deferred tools with one of two
//! [`Strategy`](crate::Strategy)s: `Seed`, the design's algorithm rule for rule
//! (`docs/design.md` §9), answered from an inverted index with the results of a straight scan;
//! or `Ranked`, BM25F over the tools' fields blended with the seed score. With the `eval` feature, the `eval` module measures a strategy on a retrieval set.
//!
//! ```
//! use toolreg::mcp::load_server;
//! use toolreg::{SearchEngine, Strategy};
//! use serde_json::json;
//!
//! let listed = json!([
//!     {"name": "git_log", "description": "Show the commit log", "inputSchema": {"type": "object"}},
//!     {"name": "git_diff", "description": "Show changes", "inputSchema": {"type": "object"}},
//! ]);
//! let pool = load_server("git", &listed).tools;
//! let engine = SearchEngine::new(pool, Strategy::Keyword);
//! assert_eq!(engine.search("commit log", 5).matches, ["mcp__git__git_log"]);
//! assert_eq!(engine.search("select:mcp__git__git_diff", 5).matches, ["mcp__git__git_diff"]);
//! ```
//!
//! # The tool-search mode
//! A deferred tool is sent by name only; the model loads its schema with ToolSearch when it
//! needs it (which tools are deferred is the pool's decision:
//! [`deferral`](crate::pool::deferral)). Whether tool search is on at all depends on the mode the user chose, on the
//! provider and base URL (the optimistic check, which decides whether ToolSearch is even in the
//! catalog), and per request on the model, the pool and the deferred tools' size (the
//! definitive check).

pub(crate) mod engine;
pub(crate) mod mode;
pub(crate) mod tool;

pub use crate::tool::searcher::ToolSearcher;
pub use mode::{
    RequestModel, TokenCounter, is_tool_search_enabled, tool_search_might_be_on, tool_search_mode,
    tool_search_needed,
};
pub use tool::{NAME as TOOL_NAME, ToolSearchTool};
pub use toolreg_search::{DEFAULT_MAX_RESULTS, Document, SEED_BLEND_TERMS, SearchOutput};

/// Sentence embeddings fused into the BM25F strategy: the [`Embedder`](semantic::Embedder)
/// trait (the rule and its cost: `toolreg_search::semantic`), and with the `semantic` feature
/// the models `toolreg-models` runs from files on disk.
pub mod semantic {
    #[cfg(feature = "semantic")]
    pub use toolreg_models::{LoadError, SentenceEncoder, StaticEmbedder, load};
    pub use toolreg_search::semantic::Embedder;
}

#[cfg(feature = "internals")]
#[doc(hidden)]
pub use toolreg_search::{ranked, seed, text};

/// Retrieval evaluation over pools loaded as MCP servers' tools ([`load_servers`]), so that a
/// set's tools are named and checked as a user's are.
///
/// [`load_servers`]: crate::mcp::load_servers
#[cfg(feature = "eval")]
pub mod eval {
    pub use toolreg_search::eval::{
        Bm25Baseline, EvalError, EvalQuery, Half, Interval, Metrics, QueryScores, SetFiles,
        TUNING_SET, baseline_scores, bootstrap, engine_scores, evaluate, evaluate_engine, join,
        standard_baseline_scores,
    };

    use crate::ToolInfo;
    use crate::mcp::load_servers;

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

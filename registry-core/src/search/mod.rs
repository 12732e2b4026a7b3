//! ToolSearch: how the model finds deferred tools.
//!
//! A [`SearchEngine`] searches one pool's deferred tools with one of two [`Strategy`]s: `Seed`,
//! the design's algorithm rule for rule (SEMANTICS.md §9), answered from an inverted index with
//! the results of a straight scan; or `Ranked`, BM25F over the tools' fields blended with the
//! seed score. [`eval`] measures a strategy on a retrieval set. The output and its mapping to a
//! `tool_result` block live here.
//!
//! ```
//! use std::sync::Arc;
//! use registry_core::mcp::load_server;
//! use registry_core::search::{SearchEngine, Strategy};
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

/// Declares a module that is public only with the `internals` feature (the workspace's tests,
/// benchmarks and fuzzers use it) and private otherwise, where what only they use is allowed to
/// go unused.
macro_rules! internal_mod {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        mod $name;
    )*};
}

mod distinct;
mod engine;
pub mod eval;
mod maxscore;
mod names;
mod postings;
mod tokens;
internal_mod!(index, ranked, seed, text);

mod topk;

pub use engine::{SEED_BLEND_TERMS, SearchEngine, Strategy};

pub use crate::searcher::{DEFAULT_MAX_RESULTS, SearchOutput, ToolSearcher};

//! ToolSearch: how the model finds deferred tools.
//!
//! [`seed`] is the design's algorithm, rule for rule (SEMANTICS.md §9), as a straight scan.
//! [`index`] answers the same queries from postings, with equal results, and [`ranked`] is a
//! second strategy (BM25F). [`SearchEngine`] holds both for one pool. The output and its
//! mapping to a `tool_result` block live here.

mod distinct;
mod engine;
pub mod eval;
pub mod index;
mod maxscore;
mod names;
mod postings;
pub mod ranked;
pub mod seed;
pub mod text;
mod tokens;

mod topk;

pub use engine::{SearchEngine, Strategy};

pub use crate::searcher::{DEFAULT_MAX_RESULTS, SearchOutput, ToolSearcher};

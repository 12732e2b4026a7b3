//! ToolSearch: how an LLM agent's model finds the tools it was told about by name only.
//!
//! A pool's *deferred* tools are announced to the model by name; their schemas are sent only
//! once the model asks for them with a ToolSearch query. A [`SearchEngine`] answers those
//! queries over one pool of [`Document`]s.
//!
//! # How it works
//!
//! Every query first goes through the forms that mean the same in every [`Strategy`]:
//! `select:a,b` loads the named tools (deferred ones first, then the whole pool; aliases
//! count), a query equal to a tool's name (ignoring case) is that tool, and a query starting
//! with `mcp__` lists the deferred tools with that name prefix. Anything else is a keyword
//! query, split on white space, `+term` marking a required term. It is ranked by one of:
//!
//! - [`Strategy::Keyword`], the default: the design's scoring, rule for rule (`docs/design.md`
//!   §9): name parts, search hint and description words, fixed points
//!   per match. It is answered from an inverted index, with results equal to a straight scan of
//!   every tool (the workspace's parity tests and property tests hold it to that).
//! - [`Strategy::Bm25f`]: BM25F over the name, hint, description and parameters, with
//!   stemming, a per-server prior and a request-clause reading for long requests, blended with
//!   the seed score for short queries; with an embedder attached, fused with the cosine of the
//!   query's and the tools' sentence embeddings ([`semantic`]). Its weights were chosen on one
//!   retrieval set and are measured on others (the workspace's `BENCHMARKS.md`).
//!
//! # What is guaranteed
//!
//! - Results are deterministic: equal scores are ordered by pool order.
//! - A keyword search returns at most `max_results` tools, all deferred; `select:` and exact
//!   names are not capped and may name loaded tools.
//! - Neither time nor memory grows with `max_results` past the number of deferred tools.
//! - The indexes are built once per deferred set: [`SearchEngine::update`] keeps them while the
//!   deferred names stay the same, and re-indexes only the MCP servers whose tools changed.
//!
//! ```
//! use std::sync::Arc;
//! use toolreg_search::{SearchEngine, Strategy, ToolDoc};
//!
//! let pool = vec![
//!     Arc::new(ToolDoc::new("mcp__git__git_log", "Show the commit log").with_server("git")),
//!     Arc::new(ToolDoc::new("mcp__git__git_diff", "Show changes").with_server("git")),
//!     Arc::new(ToolDoc::new("Read", "Read a file").with_deferred(false)),
//! ];
//! let engine = SearchEngine::new(pool, Strategy::Keyword);
//! assert_eq!(engine.search("commit log", 5).matches, ["mcp__git__git_log"]);
//! assert_eq!(engine.search("select:mcp__git__git_diff,Read", 5).matches,
//!            ["mcp__git__git_diff", "Read"]);
//! // A keyword search finds deferred tools only.
//! assert!(engine.search("file", 5).matches.is_empty());
//! ```
//!
//! A [`SearchOutput`] becomes the `tool_result` block the model reads:
//! [`SearchOutput::to_tool_result`].
//!
//! # Layout
//!
//! Each strategy is a pipeline of four stages, as in a search library: *analysis* (text to
//! terms), *postings* (term to tools), a *scorer* (a query's postings to scores) and a
//! *collector* (scores to the best `k`). The files of each:
//!
//! | stage | keyword strategy | BM25F strategy |
//! |---|---|---|
//! | analysis | `text/mod.rs` (`\b` words, JavaScript white space), `text/names.rs` (name parts), `text/query.rs` (`select:`, `+required`) | `text/analysis.rs` (words, stop words, stems), `text/terms.rs` (abbreviations, request clauses, sentences), `ranked/fields.rs` (a tool's fields) |
//! | postings | `seed/index/mod.rs` (build), `seed/index/intern.rs`, `seed/index/postings.rs`, `seed/index/partset.rs`, `seed/shards.rs` | `ranked/mod.rs` (`RankedIndex::build`), `ranked/counts.rs` (term ids, counts, impacts), `ranked/postings.rs` (`Posting`, eight bytes) |
//! | scorer | `seed/index/scorer.rs`, `seed/index/maxscore.rs`, `seed/index/by_term.rs`, `seed/index/hits.rs`; the rules in `seed/mod.rs`, their reference scan in `seed/scan.rs` | `ranked/score.rs`, `ranked/coverage.rs`; its reference in `ranked/reference.rs`; blended with the seed score and embeddings in `fusion/` |
//! | collector | `collector.rs` (`TopK`, for MaxScore's threshold) | `collector.rs` (`best_k`, `sorted`) through `ranked/score.rs` (`Scored::top_k`) and `fusion/blend.rs`; then `ranked/diversify.rs` |
//!
//! `engine/` runs the shared query forms and picks a strategy; `semantic/` embeds tools and
//! queries.
//!
//! ## Why two postings layers
//!
//! The strategies match different things, so neither's postings can answer the other's
//! queries:
//!
//! - The keyword strategy keeps the design's exact matching: a term counts when it *is* a
//!   description or hint word (a run of `[A-Za-z0-9_]`, lower-cased, unstemmed, as `\b`
//!   reads it), or when a name part equals or *contains* it. Its postings are therefore keyed
//!   by interned ids of exact words and of name parts (with a suffix table for containment),
//!   and hold bare tool ids, sorted, in flat arrays (compressed rows; each tool's word ids are
//!   kept in LEB128 while the index builds), read by galloping cursors for document-at-a-time
//!   MaxScore. A seed score depends on the tool and the query alone, so the index can be split
//!   into shards, one per re-indexed MCP server, and their rankings merged exactly.
//! - The BM25F strategy matches analyzed terms (stemmed, stop words dropped, abbreviations
//!   spelled out, camel case split), so `searches` and `searching` meet `search`, which the
//!   keyword rules must not do. Each posting carries the term's BM25F impact in that tool (IDF
//!   times the saturated, field-weighted, length-normalized frequency), the name frequency
//!   (for name coverage) and whether the description has it (for diversification): a query is
//!   scored term at a time by adding impacts. Impacts depend on statistics of the whole pool
//!   (the number of tools, each term's document frequency, the average field lengths), so this
//!   index is built whole whenever the deferred set changes and is not sharded. While it
//!   builds, each tool's term counts are kept in LEB128 too, and the postings are written once
//!   every tool is counted, each term's into a list of its exact length.
//!
//! # Misuse
//!
//! The engine owns its documents behind [`Arc`](std::sync::Arc)s; it does not borrow a pool:
//!
//! ```compile_fail
//! use toolreg_search::{SearchEngine, Strategy, ToolDoc};
//!
//! let pool = vec![ToolDoc::new("a", "b")];
//! let engine = SearchEngine::new(pool, Strategy::Keyword); // needs Vec<Arc<ToolDoc>>
//! ```
//!
//! # Features
//!
//! - `eval`: the retrieval-evaluation harness (the `eval` module): recall@k with bootstrap intervals
//!   and the plain BM25 baseline, over sets in the workspace's `data/eval` format.
//! - `internals`: the indexes, the seed scan and the ranked weights, for the workspace's tests,
//!   benchmarks and fuzzers. Not a stable API.

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

// The modules in pipeline order: what a tool is and what a search answers; text analysis; the
// keyword strategy (its straight scan and its index); the BM25F strategy's scoring and signals;
// sentence embeddings; their fusion into one ranking; the engine over a pool; evaluation.
mod collector;
mod document;
mod output;
mod util;

// The text analysis, the keyword strategy and the BM25F strategy are public only with the
// `internals` feature (the workspace's tests, benchmarks and fuzzers use them), hidden from the
// docs, and private otherwise, where what only those users need may go unused. They are
// declared plainly, not through a macro, so that rustfmt and clippy see their files.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod text;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
mod text;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod seed;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
mod seed;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod ranked;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
mod ranked;

pub mod semantic;

mod fusion;

mod engine;

#[cfg(feature = "eval")]
pub mod eval;

#[cfg(test)]
mod testing;

pub use document::{Document, ToolDoc};
pub use engine::{SearchEngine, Strategy};
pub use fusion::blend::SEED_BLEND_TERMS;
pub use output::{DEFAULT_MAX_RESULTS, SearchOutput};

//! The semantic side of the BM25F strategy: sentence embeddings of the tools and the query,
//! fused with the lexical score.
//!
//! Lexical ranking finds the tools whose words a request uses. A request that says what it
//! wants in other words (`halt the notebook kernel` for `interrupt_kernel`) needs the meaning
//! of the words. With an [`Embedder`] attached
//! ([`SearchEngine::with_embedder`](crate::SearchEngine::with_embedder)), the BM25F strategy
//! embeds every deferred tool once (its server, its name's words and its description), embeds
//! each keyword query, and ranks by
//!
//! `lexical(t) / lexical(best) + w × cosine(query, t)`
//!
//! with `w` = 0.3 (chosen on the tuning set; the ranked weights are not a public setting),
//! exactly: over the best tools by each part, widened until no other tool can score higher.
//! The lexical part is the BM25F strategy's score (BM25F, the server and request signals, the
//! seed blend), divided by the query's best so that `w` means the same for every query; the
//! redundancy step then picks the results from the fused candidates. `select:`, exact names,
//! the `mcp__` prefix and `+required` terms are unchanged, and so is the keyword strategy.
//!
//! The embedder is the user's: anything that maps a text to a vector. The `toolreg-models`
//! crate runs two kinds from a directory on disk (nothing is fetched at run time):
//! `SentenceEncoder`, a BERT sentence-transformers model (all-MiniLM-L6-v2, for instance), and
//! `StaticEmbedder`, a static model in Model2Vec's format (a vector per token, averaged), with
//! `load` choosing between them by the directory's files; `toolreg` re-exports them here
//! (`toolreg::search::semantic`) with its `semantic` feature. This crate knows only the trait.
//!
//! # Cost
//!
//! Embedding is the whole cost: a forward pass of the model per tool when the engine is built
//! (on every core the machine reports, and on [`update`](crate::SearchEngine::update) only for
//! tools that are new or whose text changed), and one per keyword query. For all-MiniLM-L6-v2
//! that is milliseconds a text where a lexical query takes microseconds. A static model costs
//! a tokenization and a mean of rows: microseconds. The workspace's `BENCHMARKS.md` has the
//! figures, and each kind's recall beside the other's.
//!
//! ```
//! use std::sync::Arc;
//! use toolreg_search::semantic::Embedder;
//! use toolreg_search::{SearchEngine, Strategy, ToolDoc};
//!
//! /// A toy embedder: which of two topics a text touches.
//! #[derive(Debug)]
//! struct Topics;
//!
//! impl Embedder for Topics {
//!     fn dimension(&self) -> usize {
//!         2
//!     }
//!     fn embed(&self, text: &str) -> Vec<f32> {
//!         let text = text.to_lowercase();
//!         let air = ["air", "smog", "pollution"].iter().any(|w| text.contains(w));
//!         let money = ["money", "currency", "euro"].iter().any(|w| text.contains(w));
//!         vec![f32::from(u8::from(air)), f32::from(u8::from(money))]
//!     }
//! }
//!
//! let pool = vec![
//!     Arc::new(ToolDoc::new("mcp__aq__forecast", "Air quality forecast for a city")),
//!     Arc::new(ToolDoc::new("mcp__fx__convert", "Convert an amount between currencies")),
//! ];
//! let engine = SearchEngine::new(pool, Strategy::Bm25f).with_embedder(Arc::new(Topics));
//! // No word in common with either tool; the meaning picks the first.
//! assert_eq!(engine.search("how bad is the smog tomorrow", 1).matches, ["mcp__aq__forecast"]);
//! ```

mod vectors;

pub(crate) use vectors::Vectors;

/// Maps a text to a vector whose cosine with another text's measures how close their meanings
/// are.
///
/// Implementations must be deterministic (the same text, the same vector) and return vectors
/// of [`dimension`](Self::dimension) numbers; a vector of another length counts as no match.
/// Vectors need not be normalized.
pub trait Embedder: Send + Sync + std::fmt::Debug {
    /// The length of every vector.
    fn dimension(&self) -> usize;

    /// The vector of `text`.
    fn embed(&self, text: &str) -> Vec<f32>;

    /// The vectors of many texts, in order: what an engine calls to embed its tools. The
    /// default embeds them one by one; a model that runs faster on batches overrides it.
    fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts.iter().map(|text| self.embed(text)).collect()
    }
}

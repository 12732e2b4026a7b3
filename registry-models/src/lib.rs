//! The embedding models ToolSearch can fuse into its BM25F strategy, run from files on disk:
//! each implements `toolreg-search`'s [`Embedder`] trait, which is all the search engine knows
//! of them (`SearchEngine::with_embedder`; the `semantic` module of `toolreg-search` tells the
//! fusion rule).
//!
//! - [`SentenceEncoder`]: a BERT sentence-transformers model (all-MiniLM-L6-v2 and its kind),
//!   its forward pass computed here: milliseconds a text.
//! - [`StaticEmbedder`]: a static model in Model2Vec's format (a vector per token, averaged):
//!   microseconds a text.
//! - [`load`]: either, chosen by the directory's files.
//!
//! Nothing is fetched at run time: the files are the layout sentence-transformers and Model2Vec
//! save, e.g. a Hugging Face repository's. Their weights are read with `safetensors`, their text
//! split by Hugging Face's `tokenizers` (without its C regex engine), the products computed by
//! `matrixmultiply`.
//!
//! `toolreg` re-exports this crate's items in `toolreg::search::semantic` with its `semantic`
//! feature.
//!
//! ```no_run
//! use toolreg_models::load;
//! use toolreg_search::{SearchEngine, Strategy, ToolDoc};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let model = load("models/all-MiniLM-L6-v2")?;
//! let pool = vec![std::sync::Arc::new(ToolDoc::new(
//!     "mcp__nb__interrupt_kernel",
//!     "Interrupt the running kernel",
//! ))];
//! let engine = SearchEngine::new(pool, Strategy::Bm25f).with_embedder(model);
//! assert_eq!(engine.search("halt the notebook kernel", 1).matches, ["mcp__nb__interrupt_kernel"]);
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

// The files of a model directory; the BERT forward pass and the encoder that loads it; the
// static model.
mod files;

mod bert;
mod encoder;

mod static_model;

use std::path::Path;
use std::sync::Arc;

pub use encoder::SentenceEncoder;
pub use files::LoadError;
pub use static_model::StaticEmbedder;
pub use toolreg_search::semantic::Embedder;

/// The model in `dir`: a [`StaticEmbedder`] when its `config.json` says `"model_type":
/// "model2vec"`, or describes no transformer (no `hidden_size`) beside a `model.safetensors`;
/// a [`SentenceEncoder`] otherwise, whose error then names what the directory lacks.
///
/// # Errors
///
/// As [`SentenceEncoder::load`] and [`StaticEmbedder::load`].
pub fn load(dir: impl AsRef<Path>) -> Result<Arc<dyn Embedder>, LoadError> {
    let dir = dir.as_ref();
    let config_path = dir.join("config.json");
    let config = match config_path.exists() {
        true => files::read_json::<serde_json::Value>(&config_path)?,
        false => serde_json::Value::Null,
    };
    let static_model = config.get("model_type").and_then(|t| t.as_str()) == Some("model2vec")
        || (config.get("hidden_size").is_none() && dir.join("model.safetensors").exists());
    Ok(if static_model {
        Arc::new(StaticEmbedder::load(dir)?)
    } else {
        Arc::new(SentenceEncoder::load(dir)?)
    })
}

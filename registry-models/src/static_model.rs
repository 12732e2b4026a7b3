//! A static embedding model: one vector per token, looked up and averaged. The files are the
//! layout Model2Vec saves (`model.safetensors` with an `embeddings` tensor, `tokenizer.json`,
//! `config.json`), read as Model2Vec's `StaticModel` reads them.

use std::path::Path;

use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationParams};

use toolreg_search::semantic::Embedder;

use crate::files::{LoadError, invalid, read, read_json};

/// A static embedding model read from files on disk: a text's vector is the mean of its
/// tokens' vectors, so embedding costs a tokenization and a few additions, microseconds where
/// a transformer such as [`SentenceEncoder`](crate::SentenceEncoder) takes milliseconds.
///
/// The files are those Model2Vec (MinishLab's distillation of sentence transformers into token
/// tables) saves: `model.safetensors` with `embeddings` (`[rows, dimension]`, f32 or int8) and,
/// when the table was quantized, `mapping` (token id → row) and `weights` (a factor per token
/// id); `tokenizer.json`; `config.json`, of which `normalize` and `max_length` are read.
/// Texts are embedded as Model2Vec does: the tokenizer's tokens without special tokens, the
/// unknown token dropped, cut at `max_length` tokens (512 when the configuration does not say),
/// each token's row times its weight, averaged, scaled to unit length when `normalize` is set.
/// A text with no known token has the zero vector.
///
/// ```no_run
/// use std::sync::Arc;
///
/// use toolreg_models::StaticEmbedder;
/// use toolreg_search::{SearchEngine, Strategy, ToolDoc};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let model = StaticEmbedder::load("models/m2v-all-MiniLM-L6-v2")?;
/// let pool = vec![Arc::new(ToolDoc::new("mcp__nb__interrupt_kernel", "Interrupt the kernel"))];
/// let engine = SearchEngine::new(pool, Strategy::Bm25f).with_embedder(Arc::new(model));
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct StaticEmbedder {
    tokenizer: Tokenizer,
    dimension: usize,
    /// The table, `rows × dimension`.
    rows: Vec<f32>,
    /// Token id → row; without it the id is the row.
    mapping: Option<Vec<usize>>,
    /// Token id → the factor of its row.
    weights: Option<Vec<f32>>,
    /// The tokenizer's unknown token, left out of every mean.
    unknown: Option<u32>,
    normalize: bool,
}

/// `config.json`: the fields the embedding needs.
#[derive(Deserialize)]
struct Config {
    #[serde(default)]
    normalize: bool,
    /// `null` in the file: no cut.
    #[serde(default = "default_max_length")]
    max_length: Option<usize>,
}

fn default_max_length() -> Option<usize> {
    Some(512)
}

/// `tokenizer.json`'s model: how it names its unknown token.
#[derive(Deserialize)]
struct TokenizerFile {
    model: TokenizerModel,
}

#[derive(Deserialize)]
struct TokenizerModel {
    /// WordPiece, BPE, WordLevel.
    unk_token: Option<String>,
    /// Unigram.
    unk_id: Option<u32>,
}

/// A tensor's numbers and its shape.
type Numbers = (Vec<f64>, Vec<usize>);

/// The numbers of a tensor, with its shape; `None` when it is absent.
fn tensor(file: &SafeTensors<'_>, path: &Path, name: &str) -> Result<Option<Numbers>, LoadError> {
    let Ok(tensor) = file.tensor(name) else {
        return Ok(None);
    };
    let data = tensor.data();
    let values: Vec<f64> = match tensor.dtype() {
        Dtype::F32 => (data.as_chunks::<4>().0.iter())
            .map(|&b| f64::from(f32::from_le_bytes(b)))
            .collect(),
        Dtype::F64 => (data.as_chunks::<8>().0.iter())
            .map(|&b| f64::from_le_bytes(b))
            .collect(),
        Dtype::I8 => data.iter().map(|&b| f64::from(b as i8)).collect(),
        Dtype::I32 => (data.as_chunks::<4>().0.iter())
            .map(|&b| f64::from(i32::from_le_bytes(b)))
            .collect(),
        Dtype::I64 => (data.as_chunks::<8>().0.iter())
            .map(|&b| i64::from_le_bytes(b) as f64)
            .collect(),
        other => {
            return Err(invalid(
                path,
                format!("tensor `{name}` is {other:?}; F32, F64, I8, I32 and I64 are read"),
            ));
        }
    };
    Ok(Some((values, tensor.shape().to_vec())))
}

impl StaticEmbedder {
    /// Loads the model in `dir`.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] when a file cannot be read, [`LoadError::Invalid`] when one does not
    /// describe a static model: no `embeddings` matrix, a `mapping` to a row the table lacks, a
    /// token id that neither the table, the mapping nor the weights cover, a tokenizer without
    /// an unknown token.
    pub fn load(dir: impl AsRef<Path>) -> Result<StaticEmbedder, LoadError> {
        let dir = dir.as_ref();
        let config_path = dir.join("config.json");
        let config: Config = if config_path.exists() {
            read_json(&config_path)?
        } else {
            Config {
                normalize: false,
                max_length: default_max_length(),
            }
        };

        let tokenizer_path = dir.join("tokenizer.json");
        let bytes = read(&tokenizer_path)?;
        let file: TokenizerFile = serde_json::from_slice(&bytes)
            .map_err(|error| invalid(&tokenizer_path, error.to_string()))?;
        let mut tokenizer = Tokenizer::from_bytes(&bytes)
            .map_err(|error| invalid(&tokenizer_path, error.to_string()))?;
        tokenizer.with_padding(None);
        let truncation = config.max_length.map(|max_length| TruncationParams {
            max_length,
            ..TruncationParams::default()
        });
        (tokenizer.with_truncation(truncation))
            .map_err(|error| invalid(&tokenizer_path, error.to_string()))?;
        let unknown = match (file.model.unk_id, file.model.unk_token) {
            (Some(id), _) => Some(id),
            (None, Some(token)) => tokenizer.token_to_id(&token),
            (None, None) => None,
        };
        // A word the vocabulary cannot spell must become the unknown token, not an error.
        let outside = format!("{} {}", "\u{10FFFF}", "x".repeat(200));
        if let Err(error) = tokenizer.encode(outside.as_str(), false) {
            return Err(invalid(
                &tokenizer_path,
                format!("a word outside the vocabulary cannot be encoded: {error}"),
            ));
        }
        let vocabulary = tokenizer.get_vocab_size(true);

        let weights_path = dir.join("model.safetensors");
        let bytes = read(&weights_path)?;
        let file = SafeTensors::deserialize(&bytes)
            .map_err(|error| invalid(&weights_path, error.to_string()))?;
        let fail = |message: String| invalid(&weights_path, message);
        let (table, shape) = tensor(&file, &weights_path, "embeddings")?
            .ok_or_else(|| fail("tensor `embeddings` is missing".into()))?;
        let &[count, dimension] = shape.as_slice() else {
            return Err(fail(format!(
                "`embeddings` has shape {shape:?}, not [rows, dimension]"
            )));
        };
        if count == 0 || dimension == 0 {
            return Err(fail(format!("`embeddings` has shape {shape:?}")));
        }
        let rows: Vec<f32> = table.into_iter().map(|v| v as f32).collect();
        let mapping = match tensor(&file, &weights_path, "mapping")? {
            None if count < vocabulary => {
                return Err(fail(format!(
                    "{count} rows and no `mapping` for the tokenizer's {vocabulary} tokens"
                )));
            }
            None => None,
            Some((values, _)) if values.len() < vocabulary => {
                return Err(fail(format!(
                    "`mapping` has {} entries for the tokenizer's {vocabulary} tokens",
                    values.len()
                )));
            }
            Some((values, _)) => Some(
                (values.into_iter())
                    .map(|v| {
                        (v >= 0.0 && v < count as f64)
                            .then_some(v as usize)
                            .ok_or_else(|| fail(format!("`mapping` names row {v} of {count}")))
                    })
                    .collect::<Result<Vec<usize>, LoadError>>()?,
            ),
        };
        let weights = match tensor(&file, &weights_path, "weights")? {
            Some((values, _)) if values.len() < vocabulary => {
                return Err(fail(format!(
                    "`weights` has {} entries for the tokenizer's {vocabulary} tokens",
                    values.len()
                )));
            }
            weights => weights.map(|(values, _)| values.into_iter().map(|v| v as f32).collect()),
        };
        Ok(StaticEmbedder {
            tokenizer,
            dimension,
            rows,
            mapping,
            weights,
            unknown,
            normalize: config.normalize,
        })
    }

    /// The bytes the table, the mapping and the weights take in memory (the tokenizer aside).
    pub fn table_bytes(&self) -> usize {
        let words = |v: Option<usize>| v.unwrap_or(0);
        self.rows.len() * size_of::<f32>()
            + words(self.mapping.as_ref().map(Vec::len)) * size_of::<usize>()
            + words(self.weights.as_ref().map(Vec::len)) * size_of::<f32>()
    }

    /// The row of token `id` and its factor.
    fn row(&self, id: u32) -> Option<(&[f32], f32)> {
        let id = id as usize;
        let row = match &self.mapping {
            Some(mapping) => *mapping.get(id)?,
            None => id,
        };
        let start = row.checked_mul(self.dimension)?;
        let values = self.rows.get(start..start.checked_add(self.dimension)?)?;
        let factor = match &self.weights {
            Some(weights) => *weights.get(id)?,
            None => 1.0,
        };
        Some((values, factor))
    }
}

impl Embedder for StaticEmbedder {
    fn dimension(&self) -> usize {
        self.dimension
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0f32; self.dimension];
        // Encoding fails only for a word outside the vocabulary when the vocabulary has no
        // unknown token, which `load` checked it has.
        let Ok(encoding) = self.tokenizer.encode(text, false) else {
            return sum;
        };
        let mut count = 0usize;
        for &id in encoding.get_ids() {
            if Some(id) == self.unknown {
                continue;
            }
            if let Some((row, factor)) = self.row(id) {
                for (total, value) in sum.iter_mut().zip(row) {
                    *total += factor * value;
                }
                count += 1;
            }
        }
        if count > 0 {
            let count = count as f32;
            sum.iter_mut().for_each(|v| *v /= count);
        }
        if self.normalize {
            let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
            if norm > 0.0 {
                sum.iter_mut().for_each(|v| *v /= norm);
            }
        }
        sum
    }
}

#[cfg(test)]
#[path = "static_model_tests.rs"]
mod tests;

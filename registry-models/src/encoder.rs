//! A sentence encoder loaded from a model directory: the tokenizer, the configuration and the
//! weights of a BERT sentence-transformers model, checked as they are read.

use std::path::Path;

use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationParams};

use toolreg_search::semantic::Embedder;

use crate::bert::{Bert, Layer, LayerNorm, Linear};
use crate::files::{LoadError, invalid, read, read_json};

/// A BERT sentence encoder read from files on disk: `config.json`, `tokenizer.json` and
/// `model.safetensors` (f32), with `sentence_bert_config.json` and `1_Pooling/config.json`
/// read when present. This is the layout sentence-transformers saves and Hugging Face
/// repositories hold, e.g. all-MiniLM-L6-v2; nothing is fetched.
///
/// Texts are embedded as sentence-transformers does for such a model: lower-cased WordPiece
/// tokens between `[CLS]` and `[SEP]`, cut at the model's `max_seq_length`, the encoder's last
/// layer averaged over the tokens and scaled to unit length. Many texts at once
/// ([`Embedder::embed_batch`], as an engine embeds its tools) go through in batches, which is
/// faster per text.
///
/// ```no_run
/// use std::sync::Arc;
///
/// use toolreg_models::SentenceEncoder;
/// use toolreg_search::{SearchEngine, Strategy, ToolDoc};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // The files of sentence-transformers/all-MiniLM-L6-v2, e.g. from a package that ships them.
/// let encoder = SentenceEncoder::load("models/all-MiniLM-L6-v2")?;
/// let pool = vec![
///     Arc::new(ToolDoc::new("mcp__nb__interrupt_kernel", "Interrupt the running kernel")),
///     Arc::new(ToolDoc::new("mcp__nb__kernel_state", "The kernel's state")),
/// ];
/// let engine = SearchEngine::new(pool, Strategy::Bm25f).with_embedder(Arc::new(encoder));
/// assert_eq!(engine.search("halt the notebook kernel", 1).matches, ["mcp__nb__interrupt_kernel"]);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct SentenceEncoder {
    tokenizer: Tokenizer,
    bert: Bert,
}

/// `config.json`: the fields the encoder needs.
#[derive(Deserialize)]
struct Config {
    hidden_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    intermediate_size: usize,
    max_position_embeddings: usize,
    vocab_size: usize,
    #[serde(default = "default_eps")]
    layer_norm_eps: f64,
    #[serde(default = "default_act")]
    hidden_act: String,
    #[serde(default = "default_position")]
    position_embedding_type: String,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_act() -> String {
    "gelu".into()
}

fn default_position() -> String {
    "absolute".into()
}

/// `sentence_bert_config.json`.
#[derive(Deserialize)]
struct SentenceConfig {
    max_seq_length: Option<usize>,
}

/// `1_Pooling/config.json`.
#[derive(Deserialize)]
struct Pooling {
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
}

/// Reads the tensors of `model.safetensors`, checking each one's name, type and shape.
struct Tensors<'a> {
    path: &'a Path,
    file: SafeTensors<'a>,
    /// `""`, or `"bert."` for a checkpoint saved with its head.
    prefix: &'static str,
}

impl Tensors<'_> {
    fn get(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
        let full = format!("{}{name}", self.prefix);
        let tensor = (self.file.tensor(&full))
            .map_err(|_| invalid(self.path, format!("tensor `{full}` is missing")))?;
        if tensor.dtype() != Dtype::F32 {
            return Err(invalid(
                self.path,
                format!("tensor `{full}` is {:?}; only F32 is read", tensor.dtype()),
            ));
        }
        if tensor.shape() != shape {
            return Err(invalid(
                self.path,
                format!(
                    "tensor `{full}` has shape {:?}, the configuration gives {shape:?}",
                    tensor.shape()
                ),
            ));
        }
        let (values, _) = tensor.data().as_chunks::<4>();
        Ok(values.iter().map(|&b| f32::from_le_bytes(b)).collect())
    }

    fn linear(&self, name: &str, input: usize, output: usize) -> Result<Linear, LoadError> {
        let weight = self.get(&format!("{name}.weight"), &[output, input])?;
        let mut transposed = vec![0.0; weight.len()];
        for (o, row) in weight.chunks_exact(input.max(1)).enumerate() {
            for (i, w) in row.iter().enumerate() {
                if let Some(slot) = transposed.get_mut(i * output + o) {
                    *slot = *w;
                }
            }
        }
        Ok(Linear {
            transposed,
            bias: self.get(&format!("{name}.bias"), &[output])?,
            input,
            output,
        })
    }

    fn norm(&self, name: &str, width: usize, eps: f32) -> Result<LayerNorm, LoadError> {
        Ok(LayerNorm {
            weight: self.get(&format!("{name}.weight"), &[width])?,
            bias: self.get(&format!("{name}.bias"), &[width])?,
            eps,
        })
    }
}

impl SentenceEncoder {
    /// Loads the model in `dir`.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] when a file cannot be read, [`LoadError::Invalid`] when one does not
    /// describe a BERT model with GELU, absolute positions, mean pooling and f32 weights whose
    /// shapes agree with its configuration.
    pub fn load(dir: impl AsRef<Path>) -> Result<SentenceEncoder, LoadError> {
        let dir = dir.as_ref();
        let config_path = dir.join("config.json");
        let config: Config = read_json(&config_path)?;
        let (hidden, heads) = (config.hidden_size, config.num_attention_heads);
        if hidden == 0 || heads == 0 || hidden % heads != 0 {
            return Err(invalid(
                &config_path,
                format!("hidden_size {hidden} is not a multiple of num_attention_heads {heads}"),
            ));
        }
        if config.hidden_act != "gelu" {
            return Err(invalid(
                &config_path,
                format!("hidden_act `{}`: only `gelu` is run", config.hidden_act),
            ));
        }
        if config.position_embedding_type != "absolute" {
            return Err(invalid(
                &config_path,
                format!(
                    "position_embedding_type `{}`: only `absolute` is run",
                    config.position_embedding_type
                ),
            ));
        }
        let pooling_path = dir.join("1_Pooling").join("config.json");
        if pooling_path.exists() {
            let pooling: Pooling = read_json(&pooling_path)?;
            if !pooling.pooling_mode_mean_tokens {
                return Err(invalid(
                    &pooling_path,
                    "only mean pooling (`pooling_mode_mean_tokens`) is run",
                ));
            }
        }
        let sentence_path = dir.join("sentence_bert_config.json");
        let max_tokens = if sentence_path.exists() {
            read_json::<SentenceConfig>(&sentence_path)?.max_seq_length
        } else {
            None
        };
        let max_tokens = max_tokens
            .unwrap_or(config.max_position_embeddings)
            .min(config.max_position_embeddings);

        let tokenizer_path = dir.join("tokenizer.json");
        let bytes = read(&tokenizer_path)?;
        let mut tokenizer = Tokenizer::from_bytes(&bytes)
            .map_err(|error| invalid(&tokenizer_path, error.to_string()))?;
        tokenizer.with_padding(None);
        let truncation = TruncationParams {
            max_length: max_tokens,
            ..TruncationParams::default()
        };
        (tokenizer.with_truncation(Some(truncation)))
            .map_err(|error| invalid(&tokenizer_path, error.to_string()))?;
        // A word the vocabulary cannot spell must become the unknown token, not an error.
        let unknown = format!("{} {}", "\u{10FFFF}", "x".repeat(200));
        if let Err(error) = tokenizer.encode(unknown.as_str(), true) {
            return Err(invalid(
                &tokenizer_path,
                format!("a word outside the vocabulary cannot be encoded: {error}"),
            ));
        }
        let vocabulary = tokenizer.get_vocab_size(true);
        if vocabulary > config.vocab_size {
            return Err(invalid(
                &tokenizer_path,
                format!(
                    "{vocabulary} tokens, more than config.json's vocab_size {}",
                    config.vocab_size
                ),
            ));
        }

        let weights_path = dir.join("model.safetensors");
        let bytes = read(&weights_path)?;
        let file = SafeTensors::deserialize(&bytes)
            .map_err(|error| invalid(&weights_path, error.to_string()))?;
        let prefix = if file.names().iter().any(|n| n.starts_with("bert.")) {
            "bert."
        } else {
            ""
        };
        let tensors = Tensors {
            path: &weights_path,
            file,
            prefix,
        };
        let eps = config.layer_norm_eps as f32;
        let wide = config.intermediate_size;
        let word_shape = [config.vocab_size, hidden];
        let type_embeddings = tensors.get("embeddings.token_type_embeddings.weight", &[2, hidden]);
        let mut bert = Bert {
            hidden,
            heads,
            words: tensors.get("embeddings.word_embeddings.weight", &word_shape)?,
            positions: tensors.get(
                "embeddings.position_embeddings.weight",
                &[config.max_position_embeddings, hidden],
            )?,
            token_type: type_embeddings?.into_iter().take(hidden).collect(),
            embedding_norm: tensors.norm("embeddings.LayerNorm", hidden, eps)?,
            layers: Vec::with_capacity(config.num_hidden_layers),
        };
        for i in 0..config.num_hidden_layers {
            let at = |name: &str| format!("encoder.layer.{i}.{name}");
            bert.layers.push(Layer {
                query: tensors.linear(&at("attention.self.query"), hidden, hidden)?,
                key: tensors.linear(&at("attention.self.key"), hidden, hidden)?,
                value: tensors.linear(&at("attention.self.value"), hidden, hidden)?,
                attention_out: tensors.linear(&at("attention.output.dense"), hidden, hidden)?,
                attention_norm: tensors.norm(&at("attention.output.LayerNorm"), hidden, eps)?,
                intermediate: tensors.linear(&at("intermediate.dense"), hidden, wide)?,
                output: tensors.linear(&at("output.dense"), wide, hidden)?,
                output_norm: tensors.norm(&at("output.LayerNorm"), hidden, eps)?,
            });
        }
        Ok(SentenceEncoder { tokenizer, bert })
    }

    /// The token ids of `text` as the encoder reads them (`[CLS]`, the text's WordPiece
    /// tokens, `[SEP]`; cut at the model's length).
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        // Encoding fails only for a word outside the vocabulary when the vocabulary has no
        // unknown token, which `load` checked it has.
        (self.tokenizer.encode(text, true)).map_or_else(|_| Vec::new(), |e| e.get_ids().to_vec())
    }
}

/// Texts per forward pass when embedding many: enough rows that each product with the
/// weights reads them once for many tokens.
const BATCH: usize = 16;

impl Embedder for SentenceEncoder {
    fn dimension(&self) -> usize {
        self.bert.hidden
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        self.embed_batch(&[text]).pop().unwrap_or_default()
    }

    fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            let tokens: Vec<Vec<u32>> = batch.iter().map(|text| self.tokens(text)).collect();
            let sequences: Vec<&[u32]> = tokens.iter().map(Vec::as_slice).collect();
            vectors.extend(self.bert.embed(&sequences));
        }
        vectors
    }
}

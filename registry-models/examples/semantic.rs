//! Choosing the semantic weight: recall@5 of the BM25F strategy with an embedding model fused
//! in, at several weights, on each set's requests and name keywords. The weight is chosen on
//! the tuning set alone (its two halves must agree); the held-out sets' columns are reported,
//! never used to choose.
//!
//! ```text
//! cargo run --release -p toolreg-models --example semantic -- \
//!     target/models/all-MiniLM-L6-v2 \
//!     data/eval/stabletoolbench data/eval/sealtools_test data/eval/metatool_single
//! ```
//!
//! Embeddings are cached in `target/embeddings-<model>.bin` (text → vector), so a second run
//! only ranks.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use common::pool::Set;
use toolreg_models::{Embedder, SentenceEncoder};
use toolreg_search::eval::{TUNING_SET, engine_scores};
use toolreg_search::ranked::Weights;
use toolreg_search::{SearchEngine, Strategy};

#[path = "../../registry-search/examples/common/mod.rs"]
mod common;

/// An embedder whose vectors are kept in memory and in a file.
#[derive(Debug)]
struct Cached {
    inner: SentenceEncoder,
    path: PathBuf,
    vectors: Mutex<HashMap<String, Vec<f32>>>,
    fresh: Mutex<Vec<String>>,
}

impl Cached {
    fn open(inner: SentenceEncoder, path: PathBuf) -> Cached {
        let mut vectors = HashMap::new();
        if let Ok(mut file) = std::fs::File::open(&path) {
            let mut bytes = Vec::new();
            let _ = file.read_to_end(&mut bytes);
            let mut at = 0;
            let dimension = inner.dimension();
            let mut take = |n: usize| {
                let slice = bytes.get(at..at + n);
                at += n;
                slice
            };
            while let Some(len) = take(4) {
                let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
                let (Some(text), Some(vector)) = (take(len), take(dimension * 4)) else {
                    break;
                };
                let vector = vector
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                    .collect();
                vectors.insert(String::from_utf8_lossy(text).into_owned(), vector);
            }
        }
        Cached {
            inner,
            path,
            vectors: Mutex::new(vectors),
            fresh: Mutex::new(Vec::new()),
        }
    }

    fn save(&self) {
        let fresh = std::mem::take(&mut *self.fresh.lock().unwrap());
        let vectors = self.vectors.lock().unwrap();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .expect("the cache file");
        let mut bytes = Vec::new();
        for text in fresh {
            let vector = &vectors[&text];
            bytes.extend((text.len() as u32).to_le_bytes());
            bytes.extend(text.as_bytes());
            bytes.extend(vector.iter().flat_map(|v| v.to_le_bytes()));
        }
        file.write_all(&bytes).expect("the cache written");
    }
}

impl Embedder for Cached {
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        if let Some(vector) = self.vectors.lock().unwrap().get(text) {
            return vector.clone();
        }
        let vector = self.inner.embed(text);
        self.vectors
            .lock()
            .unwrap()
            .insert(text.to_owned(), vector.clone());
        self.fresh.lock().unwrap().push(text.to_owned());
        vector
    }
}

/// The queries at even (`0`) or odd (`1`) positions.
fn half(set: &Set, parity: usize) -> Set {
    let mut half = set.clone();
    half.queries = (set.queries.iter().enumerate())
        .filter(|(i, _)| i % 2 == parity)
        .map(|(_, q)| q.clone())
        .collect();
    half
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(model) = args.next() else {
        eprintln!("usage: semantic <model directory> <eval set directory>...");
        return ExitCode::FAILURE;
    };
    let encoder = match SentenceEncoder::load(&model) {
        Ok(encoder) => encoder,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let sets = match common::sets_from_dirs(args.collect()) {
        Ok(sets) => sets,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let name = Path::new(&model)
        .file_name()
        .map_or("model".into(), |n| n.to_string_lossy());
    let cache =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../target/embeddings-{name}.bin"));
    let embedder = Arc::new(Cached::open(encoder, cache));
    let weights: Vec<f32> = std::env::var("WEIGHTS")
        .unwrap_or_else(|_| "0,0.1,0.2,0.3,0.4,0.5,0.7,1,1.5,100".into())
        .split(',')
        .map(|w| w.parse().expect("a weight"))
        .collect();
    let mut header = String::from("| weight |");
    let mut rule = String::from("|---:|");
    let mut columns: Vec<(String, Set)> = Vec::new();
    for (name, set) in &sets {
        if name == TUNING_SET {
            columns.push((format!("{name} odd (tuned)"), half(set, 1)));
            columns.push((format!("{name} even (tuned)"), half(set, 0)));
        } else {
            columns.push((format!("{name} (held out)"), set.clone()));
        }
        columns.push((format!("{name} keywords"), set.name_keyword_queries()));
    }
    for (label, _) in &columns {
        header.push_str(&format!(" {label} |"));
        rule.push_str("---:|");
    }
    println!("{header}\n{rule}");
    for weight in weights {
        let mut row = format!("| {weight} |");
        let weights = Weights {
            semantic: weight,
            ..Weights::default()
        };
        for (_, set) in &columns {
            let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f)
                .with_weights(weights)
                .with_embedder(embedder.clone());
            row.push_str(&format!(
                " {:.3} |",
                mean(&engine_scores(set, &engine, 5).recall)
            ));
            embedder.save();
        }
        println!("{row}");
    }
    ExitCode::SUCCESS
}

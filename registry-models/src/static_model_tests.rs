//! The static model on small model directories written here: a real safetensors file, a real
//! tokenizer file and configuration, with tables small enough to check the means by hand.

use std::path::Path;

use safetensors::tensor::TensorView;
use safetensors::{Dtype, serialize};

use super::*;

/// A word-level tokenizer: lower-cased, split on white space, `[UNK]` (id 0) for other words.
const TOKENIZER: &str = r#"{
  "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
  "normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "WhitespaceSplit"},
  "post_processor": null, "decoder": null,
  "model": {"type": "WordLevel", "unk_token": "[UNK]",
            "vocab": {"[UNK]": 0, "weather": 1, "forecast": 2, "email": 3}}
}"#;

/// A tensor's type, shape and little-endian bytes.
struct Tensor(Dtype, Vec<usize>, Vec<u8>);

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Writes a model directory with `tensors` and `config`.
fn model(dir: &Path, tensors: &[(&str, Tensor)], config: &str) {
    let views: Vec<(&str, TensorView<'_>)> = (tensors.iter())
        .map(|(name, Tensor(dtype, shape, bytes))| {
            (
                *name,
                TensorView::new(*dtype, shape.clone(), bytes).unwrap(),
            )
        })
        .collect();
    let bytes = serialize(views, None).unwrap();
    std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
    std::fs::write(dir.join("tokenizer.json"), TOKENIZER).unwrap();
    std::fs::write(dir.join("config.json"), config).unwrap();
}

/// Four rows of two numbers, one per token; `[UNK]`'s row is never read.
fn plain() -> Tensor {
    let rows = [9.0, 9.0, 1.0, 0.0, 0.0, 2.0, -1.0, -1.0];
    Tensor(Dtype::F32, vec![4, 2], f32s(&rows))
}

fn close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{got:?} against {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{got:?} against {want:?}");
    }
}

#[test]
fn a_text_is_the_mean_of_its_known_tokens_rows() {
    let dir = tempfile::tempdir().unwrap();
    model(dir.path(), &[("embeddings", plain())], "{}");
    let model = StaticEmbedder::load(dir.path()).unwrap();
    assert_eq!(model.dimension(), 2);
    // (1, 0) and (0, 2) averaged; the unknown words count for nothing.
    close(&model.embed("Weather FORECAST in Paris"), &[0.5, 1.0]);
    close(&model.embed("email"), &[-1.0, -1.0]);
    // No known word: the zero vector, near nothing.
    close(&model.embed("nothing known"), &[0.0, 0.0]);
    close(&model.embed(""), &[0.0, 0.0]);
    assert_eq!(
        model.embed_batch(&["weather", "email"]),
        [vec![1.0, 0.0], vec![-1.0, -1.0]]
    );
}

#[test]
fn normalize_scales_to_unit_length_and_max_length_cuts() {
    let dir = tempfile::tempdir().unwrap();
    model(
        dir.path(),
        &[("embeddings", plain())],
        r#"{"normalize": true, "max_length": 2}"#,
    );
    let model = StaticEmbedder::load(dir.path()).unwrap();
    let half = 0.5f32.sqrt();
    close(&model.embed("email"), &[-half, -half]);
    // Only the first two tokens are read: weather, forecast.
    let (x, y) = (0.5f32, 1.0f32);
    let norm = (x * x + y * y).sqrt();
    close(
        &model.embed("weather forecast email email"),
        &[x / norm, y / norm],
    );
}

#[test]
fn a_quantized_table_is_read_through_its_mapping_and_weights() {
    let dir = tempfile::tempdir().unwrap();
    // Two int8 rows; weather and forecast share row 1, email has row 0.
    let table = Tensor(
        Dtype::I8,
        vec![2, 2],
        [3i8, -4, 10, 0].map(|v| v as u8).to_vec(),
    );
    let mapping: Vec<u8> = [0i64, 1, 1, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let weights = f32s(&[0.0, 1.0, 0.5, 2.0]);
    model(
        dir.path(),
        &[
            ("embeddings", table),
            ("mapping", Tensor(Dtype::I64, vec![4], mapping)),
            ("weights", Tensor(Dtype::F32, vec![4], weights)),
        ],
        r#"{"normalize": false, "embedding_dtype": "int8"}"#,
    );
    let model = StaticEmbedder::load(dir.path()).unwrap();
    close(&model.embed("weather"), &[10.0, 0.0]);
    close(&model.embed("forecast"), &[5.0, 0.0]);
    close(&model.embed("email"), &[6.0, -8.0]);
    close(&model.embed("weather email"), &[8.0, -4.0]);
    assert_eq!(model.table_bytes(), 4 * 4 + 4 * size_of::<usize>() + 4 * 4);
}

/// The error `load` gives for a directory with `tensors`.
fn error(tensors: &[(&str, Tensor)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    model(dir.path(), tensors, "{}");
    StaticEmbedder::load(dir.path()).unwrap_err().to_string()
}

#[test]
fn tables_it_cannot_read_are_errors_naming_the_tensor() {
    let other = Tensor(Dtype::F32, vec![4, 2], f32s(&[0.0; 8]));
    assert!(error(&[("vectors", other)]).contains("`embeddings` is missing"));
    let short = Tensor(Dtype::F32, vec![3, 2], f32s(&[0.0; 6]));
    assert!(error(&[("embeddings", short)]).contains("3 rows and no `mapping`"));
    let flat = Tensor(Dtype::F32, vec![8], f32s(&[0.0; 8]));
    assert!(error(&[("embeddings", flat)]).contains("not [rows, dimension]"));
    let half = Tensor(Dtype::F16, vec![4, 2], vec![0; 16]);
    assert!(error(&[("embeddings", half)]).contains("`embeddings` is F16"));
    let mapping: Vec<u8> = [0i64, 1, 2, 7]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let far = error(&[
        ("embeddings", plain()),
        ("mapping", Tensor(Dtype::I64, vec![4], mapping)),
    ]);
    assert!(far.contains("`mapping` names row 7 of 4"), "{far}");
    let few = error(&[
        ("embeddings", plain()),
        ("weights", Tensor(Dtype::F32, vec![2], f32s(&[1.0, 1.0]))),
    ]);
    assert!(few.contains("`weights` has 2 entries"), "{few}");
}

#[test]
fn load_picks_the_static_model_by_its_configuration() {
    let dir = tempfile::tempdir().unwrap();
    model(
        dir.path(),
        &[("embeddings", plain())],
        r#"{"normalize": true}"#,
    );
    let model = crate::load(dir.path()).unwrap();
    assert_eq!(model.dimension(), 2);
    close(&model.embed("weather"), &[1.0, 0.0]);
}

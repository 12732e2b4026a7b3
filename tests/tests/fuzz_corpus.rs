//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) through the harnesses of
//! `toolreg_tests::fuzz`, one test per target, so every input the fuzzers kept stays checked
//! by `cargo test` without cargo-fuzz or a nightly toolchain.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use toolreg_tests::fuzz;

/// Feeds every file of `fuzz/corpus/<target>/` to `harness`; fails naming each file that
/// panics.
fn replay(target: &str, harness: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    let failed: Vec<String> = files
        .iter()
        .filter(|file| {
            let data = std::fs::read(file).expect("a corpus file reads");
            catch_unwind(AssertUnwindSafe(|| harness(&data))).is_err()
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{target}: {} inputs fail:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn search_corpus() {
    replay("search", fuzz::search);
}

#[test]
fn rules_corpus() {
    replay("rules", fuzz::rules);
}

#[test]
fn mcp_ingest_corpus() {
    replay("mcp_ingest", fuzz::mcp_ingest);
}

#[test]
fn dispatch_corpus() {
    replay("dispatch", fuzz::dispatch);
}

#[test]
fn render_corpus() {
    replay("render", fuzz::render);
}

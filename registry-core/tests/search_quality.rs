//! The ranked strategy's quality targets (issue D), on the evaluation sets in
//! `shared/eval/` beside the repository: recall@5 on stabletoolbench's requests of at least
//! 0.80, and never below the seed strategy on short keyword queries. `BENCHMARKS.md` has the
//! full table (`toolreg eval`); these tests keep a change from silently giving the targets up.
//!
//! Results are taken as a model gets them, five at a time (the default `max_results`).

use std::path::PathBuf;

use registry_core::search::eval::EvalSet;
use registry_core::search::{SearchEngine, Strategy};

fn set(name: &str) -> EvalSet {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/eval")
        .join(name);
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file)).unwrap_or_else(|error| {
            panic!(
                "{}: {error} (shared/eval beside the repository)",
                dir.join(file).display()
            )
        })
    };
    EvalSet::parse(name, &read("tools.jsonl"), &read("queries.jsonl")).expect("a valid set")
}

/// recall@5 of `strategy` over `set`'s queries.
fn recall_at_5(set: &EvalSet, strategy: Strategy) -> f64 {
    let engine = SearchEngine::new(set.pool.clone(), strategy);
    let total: f64 = set
        .queries
        .iter()
        .map(|query| {
            let top = engine.search(&query.query, 5).matches;
            let found = query
                .relevant
                .iter()
                .filter(|name| top.contains(name))
                .count();
            found as f64 / query.relevant.len().clamp(1, 5) as f64
        })
        .sum();
    total / set.queries.len() as f64
}

#[test]
fn ranked_recall_at_5_on_stabletoolbench_requests_reaches_the_target() {
    let recall = recall_at_5(&set("stabletoolbench"), Strategy::Ranked);
    assert!(recall >= 0.80, "recall@5 {recall:.4} < 0.80");
}

#[test]
fn ranked_is_not_below_seed_on_name_keyword_queries() {
    let keywords = set("stabletoolbench").name_keyword_queries();
    let (ranked, seed) = (
        recall_at_5(&keywords, Strategy::Ranked),
        recall_at_5(&keywords, Strategy::Seed),
    );
    assert!(ranked >= seed, "ranked {ranked:.4} < seed {seed:.4}");
}

//! The ranked strategy's quality targets, on the evaluation sets in `data/eval/` of the
//! repository, asserted where the weights were not chosen: on the held-out sets (every set but
//! [`TUNING_SET`]) ranked beats the plain BM25 baseline on the sets' own requests by a margin,
//! the lower end of the paired 95% bootstrap interval of the gain; on short keyword queries it
//! is never below the seed strategy. `BENCHMARKS.md` has the full table (`toolreg eval`).
//!
//! On pools where other sets' tools compete with the 11 captured MCP servers' (`mcp_servers`,
//! requests written by hand), ranked is not below BM25 beyond the noise, on recall@5 and hit@5
//! (the held-out half of the requests: changes are chosen on the other half).
//!
//! Results are taken as a model gets them, five at a time (the default `max_results`).

use std::path::PathBuf;

use toolreg::search::eval::bootstrap::paired;
use toolreg::search::eval::{
    self, EvalSet, Half, SetFiles, TUNING_SET, baseline_scores, engine_scores,
};
use toolreg::{SearchEngine, Strategy};

/// The least gain in recall@5 over BM25 the held-out requests must show (the lower end of its
/// interval). Measured on every query: +0.073 on sealtools_test, +0.073 on metatool_single.
const HELD_OUT_MARGIN: f64 = 0.05;

fn set(name: &str) -> EvalSet {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/eval")
        .join(name);
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file)).unwrap_or_else(|error| {
            panic!(
                "{}: {error} (data/eval in the repository)",
                dir.join(file).display()
            )
        })
    };
    eval::parse(name, &read("tools.jsonl"), &read("queries.jsonl")).expect("a valid set")
}

/// Every `step`-th query of `set`: the same queries on every run, fewer of them for a set that
/// is large.
fn every(set: EvalSet, step: usize) -> EvalSet {
    EvalSet {
        queries: set.queries.into_iter().step_by(step).collect(),
        ..set
    }
}

fn ranked_beats_bm25_on_held_out_requests(set: &EvalSet) {
    let engine = SearchEngine::new(set.pool.clone(), Strategy::Ranked);
    let gain = paired(
        &engine_scores(set, &engine, 5).recall,
        &baseline_scores(set, 5).recall,
    );
    assert!(
        gain.low >= HELD_OUT_MARGIN,
        "ranked − BM25 recall@5 {:+.3} [{:+.3}, {:+.3}]: the interval's low end is below {HELD_OUT_MARGIN}",
        gain.mean,
        gain.low,
        gain.high
    );
}

/// The requests of each set of `names` (the held-out half), each over the pool of all of them
/// ([`eval::join`]).
fn pool(names: &[&str]) -> Vec<(String, EvalSet)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/eval");
    let read = |name: &str, file: &str| {
        std::fs::read_to_string(dir.join(name).join(file)).expect("data/eval in the repository")
    };
    let texts: Vec<(String, String)> = (names.iter())
        .map(|name| (read(name, "tools.jsonl"), read(name, "queries.jsonl")))
        .collect();
    let files: Vec<SetFiles> = (names.iter().zip(&texts))
        .map(|(name, (tools, queries))| SetFiles {
            name,
            tools,
            queries,
        })
        .collect();
    let (tools, queries) = eval::join(&files, Half::Test).expect("sets that join");
    (names.iter().zip(queries))
        .map(|(name, queries)| {
            let set = eval::parse(name, &tools, &queries).expect("a valid pool");
            ((*name).to_owned(), set)
        })
        .collect()
}

/// Ranked is not below BM25 beyond the noise on `set`: the paired 95% interval of ranked −
/// BM25 reaches zero or above, on recall@5 and on hit@5.
fn ranked_is_not_below_bm25(label: &str, set: &EvalSet) {
    let engine = SearchEngine::new(set.pool.clone(), Strategy::Ranked);
    let (ranked, bm25) = (engine_scores(set, &engine, 5), baseline_scores(set, 5));
    for (metric, ranked, bm25) in [
        ("recall@5", &ranked.recall, &bm25.recall),
        ("hit@5", &ranked.hit, &bm25.hit),
    ] {
        let change = paired(ranked, bm25);
        assert!(
            change.high >= 0.0,
            "{label}: ranked − BM25 {metric} {:+.3} [{:+.3}, {:+.3}] is below zero beyond its interval",
            change.mean,
            change.low,
            change.high
        );
    }
}

#[test]
fn ranked_is_not_below_bm25_on_mcp_requests_in_pools_of_unrelated_servers() {
    let pools: [&[&str]; 4] = [
        &["mcp_servers"],
        &["mcp_servers", "stabletoolbench"],
        &["mcp_servers", "metatool_single"],
        &[
            "mcp_servers",
            "metatool_single",
            "stabletoolbench",
            "sealtools_test",
        ],
    ];
    for names in pools {
        let (_, mcp) = pool(names).swap_remove(0);
        ranked_is_not_below_bm25(&format!("mcp_servers in {}", names.join("+")), &mcp);
    }
}

#[test]
fn ranked_is_not_below_bm25_on_metatool_requests_beside_the_mcp_servers() {
    // In the pool of all four sets metatool's requests are still 0.016 below BM25 (issue O,
    // BENCHMARKS.md): sealtools' 4,076 generated tools answer many of them too, unlabelled.
    let (_, meta) = pool(&["mcp_servers", "metatool_single"]).swap_remove(1);
    ranked_is_not_below_bm25(
        "metatool_single in mcp_servers+metatool_single",
        &every(meta, 5),
    );
}

#[test]
fn the_tuning_set_is_not_among_the_held_out_ones() {
    assert_eq!(TUNING_SET, "stabletoolbench");
}

#[test]
fn ranked_beats_bm25_by_the_margin_on_sealtools_requests_held_out() {
    // Half of its 1,354 queries keeps the test quick.
    ranked_beats_bm25_on_held_out_requests(&every(set("sealtools_test"), 2));
}

#[test]
fn ranked_beats_bm25_by_the_margin_on_metatool_requests_held_out() {
    // A fifth of its 20,614 queries keeps the test quick; the interval stays under ±0.01.
    ranked_beats_bm25_on_held_out_requests(&every(set("metatool_single"), 5));
}

#[test]
fn ranked_is_not_below_seed_on_name_keyword_queries() {
    for name in ["stabletoolbench", "sealtools_test", "metatool_single"] {
        let keywords = set(name).name_keyword_queries();
        let recall = |strategy| {
            let engine = SearchEngine::new(keywords.pool.clone(), strategy);
            engine_scores(&keywords, &engine, 5).metrics().recall
        };
        let (ranked, seed) = (recall(Strategy::Ranked), recall(Strategy::Seed));
        assert!(
            ranked >= seed,
            "{name}: ranked {ranked:.4} < seed {seed:.4}"
        );
    }
}

/// With the `semantic` feature and all-MiniLM-L6-v2 installed (`tests/model/install.sh`; CI
/// installs it): on every held-out set the ranked strategy with the model fused in (its weight
/// chosen on the tuning set) reaches recall@5 of BM25 + 0.08 on requests, and is not below seed
/// on name keyword queries. Without the model these tests say so and return, unless
/// `TOOLREG_REQUIRE_MODEL` is set.
#[cfg(feature = "semantic")]
mod semantic {
    use std::collections::HashMap;
    use std::path::PathBuf;
    use std::sync::{Arc, OnceLock};

    use toolreg::search::semantic::{Embedder, SentenceEncoder};

    use super::*;

    /// The least gain over BM25 on held-out requests, as the issue sets it. Measured on every
    /// query: +0.086 on sealtools_test, +0.111 on metatool_single.
    const TARGET: f64 = 0.08;

    fn encoder() -> Option<Arc<SentenceEncoder>> {
        static ENCODER: OnceLock<Option<Arc<SentenceEncoder>>> = OnceLock::new();
        ENCODER
            .get_or_init(|| {
                let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../target/models/all-MiniLM-L6-v2");
                if !dir.join("model.safetensors").exists() {
                    assert!(
                        std::env::var_os("TOOLREG_REQUIRE_MODEL").is_none(),
                        "TOOLREG_REQUIRE_MODEL is set but {} holds no model",
                        dir.display()
                    );
                    eprintln!(
                        "skipped: no model in {} (run tests/model/install.sh)",
                        dir.display()
                    );
                    return None;
                }
                Some(Arc::new(
                    SentenceEncoder::load(&dir).expect("the model loads"),
                ))
            })
            .clone()
    }

    /// The encoder with a set's queries embedded ahead, in batches on every core (as the engine
    /// embeds tools), so that the searches only look them up: the same vectors, in a fraction
    /// of the time.
    #[derive(Debug)]
    struct Ahead {
        encoder: Arc<SentenceEncoder>,
        queries: HashMap<String, Vec<f32>>,
    }

    impl Ahead {
        fn new(encoder: Arc<SentenceEncoder>, sets: &[&EvalSet]) -> Arc<Ahead> {
            let mut texts: Vec<&str> = (sets.iter())
                .flat_map(|set| set.queries.iter().map(|q| q.query.as_str()))
                .collect();
            texts.sort_unstable();
            texts.dedup();
            let half = texts.len().div_ceil(2).max(1);
            let vectors: Vec<Vec<f32>> = std::thread::scope(|scope| {
                let parts: Vec<_> = (texts.chunks(half))
                    .map(|part| scope.spawn(|| encoder.embed_batch(part)))
                    .collect();
                parts
                    .into_iter()
                    .flat_map(|part| part.join().unwrap())
                    .collect()
            });
            let queries = texts.into_iter().map(str::to_owned).zip(vectors).collect();
            Arc::new(Ahead { encoder, queries })
        }
    }

    impl Embedder for Ahead {
        fn dimension(&self) -> usize {
            self.encoder.dimension()
        }
        fn embed(&self, text: &str) -> Vec<f32> {
            (self.queries.get(text).cloned()).unwrap_or_else(|| self.encoder.embed(text))
        }
        fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
            self.encoder.embed_batch(texts)
        }
    }

    /// A ranked engine over `set`'s pool with the model fused in, `queries` embedded ahead.
    fn fused(set: &EvalSet, encoder: Arc<SentenceEncoder>, queries: &[&EvalSet]) -> SearchEngine {
        let embedder = Ahead::new(encoder, queries);
        SearchEngine::new(set.pool.clone(), Strategy::Ranked).with_embedder(embedder)
    }

    /// On a held-out set, with one engine over its pool: recall@5 on `requests` at least BM25
    /// + [`TARGET`]; on every name keyword query, not below seed.
    fn meets_the_targets_held_out(name: &str, requests: usize) {
        let Some(encoder) = encoder() else { return };
        let set = set(name);
        let requests = every(set.clone(), requests);
        let keywords = set.name_keyword_queries();
        let engine = fused(&set, encoder, &[&requests, &keywords]);
        let gain = paired(
            &engine_scores(&requests, &engine, 5).recall,
            &baseline_scores(&requests, 5).recall,
        );
        assert!(
            gain.mean >= TARGET,
            "{name}: ranked + MiniLM − BM25 recall@5 {:+.3} [{:+.3}, {:+.3}]: below {TARGET}",
            gain.mean,
            gain.low,
            gain.high
        );
        not_below_seed_on_name_keywords(name, &keywords, &engine);
    }

    fn not_below_seed_on_name_keywords(name: &str, keywords: &EvalSet, engine: &SearchEngine) {
        let seed = SearchEngine::new(keywords.pool.clone(), Strategy::Seed);
        let seed = engine_scores(keywords, &seed, 5).metrics().recall;
        let semantic = engine_scores(keywords, engine, 5).metrics().recall;
        assert!(
            semantic >= seed,
            "{name}: ranked + MiniLM {semantic:.4} < seed {seed:.4} on name keywords"
        );
    }

    #[test]
    fn semantic_meets_the_targets_on_sealtools_held_out() {
        // Every request: the gain is near the target here.
        meets_the_targets_held_out("sealtools_test", 1);
    }

    #[test]
    fn semantic_meets_the_targets_on_metatool_held_out() {
        // A tenth of its 20,614 requests keeps the test quick; the gain is well above the
        // target.
        meets_the_targets_held_out("metatool_single", 10);
    }
}

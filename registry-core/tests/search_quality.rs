//! The BM25F strategy's quality targets, on the evaluation sets in `data/eval/` of the
//! repository, asserted where the weights were not chosen: on the held-out sets (every set but
//! [`TUNING_SET`]) ranked beats the plain BM25 baseline on the sets' own requests by a margin,
//! the lower end of the paired 95% bootstrap interval of the gain; on short keyword queries it
//! is never below the keyword strategy. `BENCHMARKS.md` has the full table (`toolreg eval`).
//!
//! On every held-out set alone and in every pool where other sets' tools compete (the 11
//! captured MCP servers' `mcp_servers`, requests written by hand, beside the others; API-Bank's
//! `api_bank`, requests and labels written outside this project), ranked is not below BM25
//! beyond the noise, on recall@5 and hit@5, for the whole set and for each category of 20
//! requests or more (the held-out half of the requests: changes are chosen on the other half);
//! on keyword queries it is not below seed.
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
    let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f);
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

/// The fewest requests of one category for the category to be held to BM25 on its own: fewer
/// make an interval too wide to say anything.
const CATEGORY_REQUESTS: usize = 20;

/// Ranked is not below BM25 beyond the noise on `set`, and on each of its categories with at
/// least [`CATEGORY_REQUESTS`] requests: the paired 95% interval of ranked − BM25 reaches zero
/// or above, on recall@5 and on hit@5. Every failure is reported at once.
fn ranked_is_not_below_bm25(label: &str, set: &EvalSet) {
    let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f);
    let (ranked, bm25) = (engine_scores(set, &engine, 5), baseline_scores(set, 5));
    let mut parts: Vec<(String, Vec<bool>)> =
        vec![(label.to_owned(), vec![true; set.queries.len()])];
    let mut categories: Vec<&str> = (set.queries.iter())
        .filter_map(|query| query.category.as_deref())
        .collect();
    categories.sort_unstable();
    categories.dedup();
    for category in categories {
        let keep: Vec<bool> = (set.queries.iter())
            .map(|query| query.category.as_deref() == Some(category))
            .collect();
        if keep.iter().filter(|kept| **kept).count() >= CATEGORY_REQUESTS {
            parts.push((format!("{label}, category {category}"), keep));
        }
    }
    let only = |values: &[f64], keep: &[bool]| -> Vec<f64> {
        (values.iter().zip(keep))
            .filter(|(_, kept)| **kept)
            .map(|(value, _)| *value)
            .collect()
    };
    let mut failures = Vec::new();
    for (part, keep) in &parts {
        for (metric, ranked, bm25) in [
            ("recall@5", &ranked.recall, &bm25.recall),
            ("hit@5", &ranked.hit, &bm25.hit),
        ] {
            let change = paired(&only(ranked, keep), &only(bm25, keep));
            if change.high < 0.0 {
                failures.push(format!(
                    "{part} ({} requests): ranked − BM25 {metric} {:+.3} [{:+.3}, {:+.3}] is below zero beyond its interval",
                    keep.iter().filter(|kept| **kept).count(),
                    change.mean,
                    change.low,
                    change.high
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The requests of every held-out set of `names` (the held-out half, all of it: metatool's in
/// the pool of all four are within 0.01 of BM25, and fewer would widen the interval past what
/// the test should catch) over the pool of all of them: ranked is not below BM25 beyond the
/// noise.
fn held_out_requests_in(names: &[&str]) {
    let label = names.join("+");
    for (name, set) in pool(names) {
        if name == TUNING_SET {
            continue;
        }
        ranked_is_not_below_bm25(&format!("{name} in {label}"), &set);
    }
}

#[test]
fn ranked_is_not_below_bm25_on_the_mcp_servers_alone() {
    held_out_requests_in(&["mcp_servers"]);
}

#[test]
fn ranked_is_not_below_bm25_on_sealtools_alone() {
    held_out_requests_in(&["sealtools_test"]);
}

#[test]
fn ranked_is_not_below_bm25_on_metatool_alone() {
    held_out_requests_in(&["metatool_single"]);
}

#[test]
fn ranked_is_not_below_bm25_on_the_mcp_servers_beside_stabletoolbench() {
    held_out_requests_in(&["mcp_servers", "stabletoolbench"]);
}

#[test]
fn ranked_is_not_below_bm25_on_the_mcp_servers_beside_metatool() {
    held_out_requests_in(&["mcp_servers", "metatool_single"]);
}

#[test]
fn ranked_is_not_below_bm25_on_every_set_in_the_pool_of_all_four() {
    held_out_requests_in(&[
        "mcp_servers",
        "metatool_single",
        "stabletoolbench",
        "sealtools_test",
    ]);
}

#[test]
fn ranked_is_not_below_bm25_on_api_bank_alone() {
    // Requests and labels written outside this project (API-Bank's dialogues).
    held_out_requests_in(&["api_bank"]);
}

#[test]
fn ranked_is_not_below_bm25_on_api_bank_beside_the_mcp_servers_and_stabletoolbench() {
    held_out_requests_in(&["api_bank", "mcp_servers", "stabletoolbench"]);
}

#[test]
fn the_per_category_guard_holds_categories_of_twenty_requests_or_more() {
    // The mcp_servers held-out half has three such categories (files, github, notion): the
    // guard above holds each of them to BM25, not only the set as a whole.
    let (_, set) = pool(&["mcp_servers"]).swap_remove(0);
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for query in &set.queries {
        *counts
            .entry(query.category.as_deref().unwrap_or(""))
            .or_default() += 1;
    }
    let held: Vec<&str> = (counts.iter())
        .filter(|(_, count)| **count >= CATEGORY_REQUESTS)
        .map(|(category, _)| *category)
        .collect();
    assert_eq!(held, ["files", "github", "notion"], "{counts:?}");
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

/// Ranked's recall@5 is at least seed's on the name keyword queries of `keywords`' tools.
fn ranked_is_not_below_seed_on(label: &str, keywords: &EvalSet) {
    let recall = |strategy| {
        let engine = SearchEngine::new(keywords.pool.clone(), strategy);
        engine_scores(keywords, &engine, 5).metrics().recall
    };
    let (ranked, seed) = (recall(Strategy::Bm25f), recall(Strategy::Keyword));
    assert!(
        ranked >= seed,
        "{label}: ranked {ranked:.4} < seed {seed:.4}"
    );
}

#[test]
fn ranked_is_not_below_seed_on_name_keyword_queries() {
    for name in [
        "stabletoolbench",
        "sealtools_test",
        "metatool_single",
        "mcp_servers",
        "api_bank",
    ] {
        ranked_is_not_below_seed_on(name, &set(name).name_keyword_queries());
    }
}

#[test]
fn ranked_is_not_below_seed_on_name_keyword_queries_in_the_pool_of_all_four() {
    let names = [
        "mcp_servers",
        "metatool_single",
        "stabletoolbench",
        "sealtools_test",
    ];
    let (_, any) = pool(&names).swap_remove(0);
    // One query per tool of the whole pool.
    ranked_is_not_below_seed_on(&names.join("+"), &any.name_keyword_queries());
}

#[test]
fn ranked_is_not_below_seed_on_keyword_requests_written_by_hand() {
    // The `keywords` style of mcp_servers' requests ("read config.yaml", "git blame"), all of
    // them: few, so the paired interval decides.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/eval/mcp_servers");
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).expect("data/eval");
    let queries: String = (read("queries.jsonl").lines())
        .filter(|line| {
            let query: serde_json::Value = serde_json::from_str(line).expect("a query line");
            query["style"] == "keywords"
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let set = eval::parse("mcp_servers", &read("tools.jsonl"), &queries).expect("a valid set");
    assert!(
        set.queries.len() >= 100,
        "{} keyword requests",
        set.queries.len()
    );
    let scores = |strategy| {
        let engine = SearchEngine::new(set.pool.clone(), strategy);
        engine_scores(&set, &engine, 5)
    };
    let (ranked, seed) = (scores(Strategy::Bm25f), scores(Strategy::Keyword));
    for (metric, ranked, seed) in [
        ("recall@5", &ranked.recall, &seed.recall),
        ("hit@5", &ranked.hit, &seed.hit),
    ] {
        let change = paired(ranked, seed);
        assert!(
            change.high >= 0.0,
            "ranked − seed {metric} {:+.3} [{:+.3}, {:+.3}] on keyword requests",
            change.mean,
            change.low,
            change.high
        );
    }
}

/// With the `semantic` feature and all-MiniLM-L6-v2 installed (`tests/model/install.sh`; CI
/// installs it): on every held-out set the BM25F strategy with the model fused in (its weight
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
            // Every other text to each core: sorted, the requests (capitalized) come before the
            // short keyword queries, and halves of the list took one core twice as long as the
            // other.
            let halves: [Vec<&str>; 2] =
                [0, 1].map(|first| texts.iter().skip(first).step_by(2).copied().collect());
            let vectors: Vec<Vec<Vec<f32>>> = std::thread::scope(|scope| {
                let parts: Vec<_> = (halves.iter())
                    .map(|half| scope.spawn(|| encoder.embed_batch(half)))
                    .collect();
                parts.into_iter().map(|part| part.join().unwrap()).collect()
            });
            let queries = (halves.into_iter().zip(vectors))
                .flat_map(|(half, vectors)| half.into_iter().map(str::to_owned).zip(vectors))
                .collect();
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
        SearchEngine::new(set.pool.clone(), Strategy::Bm25f).with_embedder(embedder)
    }

    /// [`engine_scores`] at 5 with the queries in two halves, one on each core (a fused
    /// engine's search reads every tool's vector); the figures in the set's order.
    fn scores_on_two_cores(set: &EvalSet, engine: &SearchEngine) -> eval::QueryScores {
        let half = set.queries.len().div_ceil(2).max(1);
        std::thread::scope(|scope| {
            let parts: Vec<_> = (set.queries.chunks(half))
                .map(|queries| {
                    let part = EvalSet {
                        pool: set.pool.clone(),
                        queries: queries.to_vec(),
                    };
                    scope.spawn(move || engine_scores(&part, engine, 5))
                })
                .collect();
            let mut all = eval::QueryScores::default();
            for part in parts {
                let part = part.join().unwrap();
                all.recall.extend(part.recall);
                all.hit.extend(part.hit);
                all.reciprocal_rank.extend(part.reciprocal_rank);
            }
            all
        })
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
            &scores_on_two_cores(&requests, &engine).recall,
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
        let seed = SearchEngine::new(keywords.pool.clone(), Strategy::Keyword);
        let seed = engine_scores(keywords, &seed, 5).metrics().recall;
        let semantic = scores_on_two_cores(keywords, engine).metrics().recall;
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

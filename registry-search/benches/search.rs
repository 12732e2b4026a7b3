//! ToolSearch at scale: index build, per-query latency, memory per tool.
//!
//! Pools of 100, 1k, 10k and 100k deferred tools are made from `data/eval/sealtools_test`
//! (real-looking names and descriptions), repeated under distinct server names and loaded as
//! MCP servers' tools (`common`).
//!
//! `cargo bench -p toolreg-search --bench search` (the memory table prints first).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::{Arc, LazyLock};

use serde_json::{Value, json};
use toolreg_search::ranked::{RankedIndex, Weights};
use toolreg_search::seed::index::SeedIndex;
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

mod common;

/// Counts live heap bytes, to measure what an index keeps.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SIZES: [usize; 4] = [100, 1_000, 10_000, 100_000];

static SEALTOOLS: LazyLock<Vec<Value>> = LazyLock::new(|| {
    let path = common::data_dir("sealtools_test") + "/tools.jsonl";
    let text = std::fs::read_to_string(path).expect("data/eval/sealtools_test in the repository");
    text.lines()
        .map(|line| {
            let tool: Value = serde_json::from_str(line).unwrap();
            let params: serde_json::Map<String, Value> = tool["extra"]["params"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|p| (p.to_owned(), json!({"type": "string"})))
                .collect();
            json!({"name": tool["name"], "description": tool["description"], "inputSchema": {"type": "object", "properties": params}})
        })
        .collect()
});

/// `n` deferred tools: the set repeated under servers `s0`, `s1`, … until there are `n`.
fn pool(n: usize) -> Vec<Arc<ToolDoc>> {
    let per = SEALTOOLS.len();
    let servers: Vec<(String, Value)> = (0..n.div_ceil(per))
        .map(|k| {
            let take = per.min(n - k * per);
            (format!("s{k}"), Value::Array(SEALTOOLS[..take].to_vec()))
        })
        .collect();
    common::load_servers(servers.iter().map(|(s, v)| (s.as_str(), v))).expect("the tools load")
}

static POOLS: LazyLock<HashMap<usize, Vec<Arc<ToolDoc>>>> =
    LazyLock::new(|| SIZES.iter().map(|&n| (n, pool(n))).collect());

static ENGINES: LazyLock<HashMap<(usize, bool), SearchEngine<ToolDoc>>> = LazyLock::new(|| {
    let mut engines = HashMap::new();
    for &n in &SIZES {
        for ranked in [false, true] {
            let strategy = if ranked {
                Strategy::Bm25f
            } else {
                Strategy::Keyword
            };
            engines.insert((n, ranked), SearchEngine::new(POOLS[&n].clone(), strategy));
        }
    }
    engines
});

/// A request of three sentences, for the BM25F strategy's per-sentence scoring.
const REQUEST: &str = "I'm planning a trip to Paris with my family next week. Can you give me the weather forecast for the city? Also find a hotel near the Louvre and convert 200 euros to dollars.";

const NATURAL: &str = "I need to check what the weather will be like in Paris tomorrow and whether I should bring an umbrella before my flight leaves in the afternoon please";

fn main() {
    println!("| deferred tools | seed index bytes/tool | ranked index bytes/tool |");
    println!("|---:|---:|---:|");
    for &n in &SIZES {
        let pool = &POOLS[&n];
        let before = LIVE.load(Ordering::Relaxed);
        let seed = SeedIndex::build(pool);
        let seed_bytes = LIVE.load(Ordering::Relaxed) - before;
        let before = LIVE.load(Ordering::Relaxed);
        let ranked = RankedIndex::build(pool, Weights::default());
        let ranked_bytes = LIVE.load(Ordering::Relaxed) - before;
        println!(
            "| {n} | {} | {} |",
            seed_bytes / n as isize,
            ranked_bytes / n as isize
        );
        drop((seed, ranked));
    }
    LazyLock::force(&ENGINES);
    divan::main();
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn build_seed_index(bencher: divan::Bencher, n: usize) {
    let pool = &POOLS[&n];
    bencher.bench(|| SeedIndex::build(black_box(pool)));
}

#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn build_ranked_index(bencher: divan::Bencher, n: usize) {
    let pool = &POOLS[&n];
    bencher.bench(|| RankedIndex::build(black_box(pool), Weights::default()));
}

fn query(bencher: divan::Bencher, n: usize, ranked: bool, text: &str) {
    let engine = &ENGINES[&(n, ranked)];
    bencher.bench(|| engine.search(black_box(text), 5));
}

#[divan::bench(args = SIZES)]
fn seed_one_term(bencher: divan::Bencher, n: usize) {
    query(bencher, n, false, "weather");
}

#[divan::bench(args = SIZES)]
fn seed_three_terms(bencher: divan::Bencher, n: usize) {
    query(bencher, n, false, "weather forecast city");
}

#[divan::bench(args = SIZES)]
fn seed_required(bencher: divan::Bencher, n: usize) {
    query(bencher, n, false, "+weather forecast");
}

#[divan::bench(args = SIZES)]
fn seed_select(bencher: divan::Bencher, n: usize) {
    query(bencher, n, false, "select:mcp__s0__getWeather");
}

#[divan::bench(args = SIZES)]
fn seed_natural_language(bencher: divan::Bencher, n: usize) {
    query(bencher, n, false, NATURAL);
}

#[divan::bench(args = SIZES)]
fn ranked_three_terms(bencher: divan::Bencher, n: usize) {
    query(bencher, n, true, "weather forecast city");
}

#[divan::bench(args = SIZES)]
fn ranked_natural_language(bencher: divan::Bencher, n: usize) {
    query(bencher, n, true, NATURAL);
}

#[divan::bench(args = SIZES)]
fn ranked_one_term(bencher: divan::Bencher, n: usize) {
    query(bencher, n, true, "weather");
}

#[divan::bench(args = SIZES)]
fn ranked_request(bencher: divan::Bencher, n: usize) {
    query(bencher, n, true, REQUEST);
}

/// 10,000 deferred tools over 100 servers of 100, and the same pool after one server re-listed
/// with one tool fewer.
type BeforeAfter = (Vec<Arc<ToolDoc>>, Vec<Arc<ToolDoc>>);

static RELISTED: LazyLock<BeforeAfter> = LazyLock::new(|| {
    let lists = |last: usize| -> Vec<(String, Value)> {
        (0..100)
            .map(|k| {
                let start = (k * 100) % (SEALTOOLS.len() - 100);
                let take = if k == 42 { last } else { 100 };
                (
                    format!("srv{k}"),
                    Value::Array(SEALTOOLS[start..start + take].to_vec()),
                )
            })
            .collect()
    };
    let load = |lists: Vec<(String, Value)>| {
        let mut pool = common::load_servers(lists.iter().map(|(s, v)| (s.as_str(), v)))
            .expect("the tools load");
        pool.sort_by(|a, b| a.name.cmp(&b.name));
        pool
    };
    (load(lists(100)), load(lists(99)))
});

/// One server of 100 re-listed: the engine's update (that server's tools indexed alone)
/// against a new engine over the new pool (every tool indexed).
#[divan::bench(args = ["update", "new"], sample_count = 10, sample_size = 1)]
fn relist_one_server_of_100(bencher: divan::Bencher, how: &str) {
    let (before, after) = &*RELISTED;
    bencher
        .with_inputs(|| SearchEngine::new(before.clone(), Strategy::Keyword))
        .bench_local_values(|mut engine| {
            if how == "update" {
                engine.update(black_box(after.clone()));
                assert_eq!(engine.builds(), 1);
                engine
            } else {
                SearchEngine::new(black_box(after.clone()), Strategy::Keyword)
            }
        });
}

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
use serde_json::Value;
use toolreg_search::{SearchEngine, Strategy, ToolDoc};

mod common;

/// Copies of the set: 4 × 2,479 = 9,916 tools, 40 × 2,479 = 99,160.
const COPIES: [usize; 2] = [4, 40];

fn read(file: &str) -> String {
    let path = format!("{}/{file}", common::data_dir("stabletoolbench"));
    std::fs::read_to_string(path).expect("data/eval/stabletoolbench in the repository")
}

/// The set with its tools `copies` times, each copy under its own server names.
fn set(copies: usize) -> common::Set {
    let tools = read("tools.jsonl");
    let mut lines = String::new();
    for copy in 0..copies {
        for line in tools.lines() {
            let mut tool: Value = serde_json::from_str(line).expect("a tool line");
            let server = tool["extra"]["tool_name"]
                .as_str()
                .unwrap_or("set")
                .to_owned();
            if copy > 0 {
                tool["extra"]["tool_name"] = Value::from(format!("{server} {copy}"));
                tool["id"] = Value::from(format!("{}#{copy}", tool["id"].as_str().unwrap()));
            }
            lines.push_str(&tool.to_string());
            lines.push('\n');
        }
    }
    common::parse("stabletoolbench", &lines, &read("queries.jsonl")).expect("the set parses")
}

struct Workload {
    requests: Vec<String>,
    keywords: Vec<String>,
    engines: HashMap<&'static str, SearchEngine<ToolDoc>>,
}

static WORKLOADS: LazyLock<HashMap<usize, Workload>> = LazyLock::new(|| {
    COPIES
        .iter()
        .map(|&copies| {
            let set = set(copies);
            let requests = set.queries.iter().map(|q| q.query.clone()).collect();
            // One keyword query per original tool, its name's first one to three words.
            let keywords = set
                .name_keyword_queries()
                .queries
                .into_iter()
                .take(2479)
                .map(|q| q.query)
                .collect();
            let engines = [("seed", Strategy::Seed), ("ranked", Strategy::Ranked)]
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
fn ranked_requests(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "ranked", true);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn seed_requests(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "seed", true);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn ranked_keywords(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "ranked", false);
}

#[divan::bench(args = COPIES, sample_count = 5, sample_size = 1)]
fn seed_keywords(bencher: divan::Bencher, copies: usize) {
    run(bencher, copies, "seed", false);
}

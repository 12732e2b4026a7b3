//! One engine on one query list of one pool, in a loop, for a profiler (`perf record -g`), with
//! each query's time: its median over the rounds, then the median, mean and 90th percentile of
//! those over the list (µs).
//!
//! ```text
//! cd bench-tantivy
//! cargo run --release --example profile -- bm25f rare 4 200
//! perf record -g target/release/examples/profile bm25f rare 4 200
//! ```
//!
//! Arguments: the engine (`bm25f`, `keyword`, `tantivy`), the list (`frequent`, `rare`,
//! `requests`, `made_up`, `names`), the copies of stabletoolbench (4: 9,916 tools; 40: 99,160) and the
//! rounds. A fifth argument, `dump`, prints each query's results instead, one line a query,
//! to compare two builds' rankings.

use std::hint::black_box;
use std::time::Instant;

use toolreg_search::{SearchEngine, Strategy};

#[path = "../../registry-search/benches/common/mod.rs"]
mod common;

#[path = "../benches/bm25.rs"]
mod bm25;
#[path = "../benches/lists.rs"]
mod lists;

/// An engine's search: a query's top 5 names.
type Search = Box<dyn Fn(&str) -> Vec<String>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let (engine, list) = (arg(0, "bm25f"), arg(1, "rare"));
    let copies: usize = arg(2, "4").parse().expect("copies");
    let rounds: usize = arg(3, "100").parse().expect("rounds");
    // The lists are drawn from the 9,916-tool pool, as the bench draws them.
    let base = common::stabletoolbench(4);
    let lists = lists::lists(&base.pool, 0x5eed_0004);
    eprintln!("{}", lists.summary);
    let queries: Vec<String> = match list.as_str() {
        "frequent" => lists.frequent,
        "rare" => lists.rare,
        "made_up" => lists.made_up,
        // One query per original tool: its name's first one to three words (as
        // `registry-search/benches/requests.rs` asks).
        "names" => (base.name_keyword_queries().queries.into_iter())
            .take(2479)
            .map(|q| q.query)
            .collect(),
        _ => base.queries.iter().map(|q| q.query.clone()).collect(),
    };
    let set = if copies == 4 {
        base
    } else {
        common::stabletoolbench(copies)
    };
    let search: Search = match engine.as_str() {
        "tantivy" => {
            let index = bm25::Bm25::build(&set.pool);
            Box::new(move |query| index.search(query, 5))
        }
        strategy => {
            let strategy = if strategy == "keyword" {
                Strategy::Keyword
            } else {
                Strategy::Bm25f
            };
            let engine = SearchEngine::new(set.pool.clone(), strategy);
            Box::new(move |query| engine.search(query, 5).matches)
        }
    };
    if args.get(4).is_some_and(|arg| arg == "dump") {
        for query in &queries {
            println!("{query}\t{}", search(query).join(" "));
        }
        return;
    }
    let mut times = vec![Vec::with_capacity(rounds); queries.len()];
    for _ in 0..rounds {
        for (query, times) in queries.iter().zip(&mut times) {
            let start = Instant::now();
            black_box(search(black_box(query)));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    let mut medians: Vec<f64> = (times.iter_mut())
        .map(|times| {
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        })
        .collect();
    if std::env::var("PER_QUERY").is_ok() {
        for (query, median) in queries.iter().zip(&medians) {
            eprintln!("TIME\t{query}\t{median:.2}");
        }
    }
    medians.sort_by(f64::total_cmp);
    let mean = medians.iter().sum::<f64>() / medians.len() as f64;
    println!(
        "{engine} {list} ×{copies}: {} queries, per-query median µs: median {:.2}, mean {:.2}, p90 {:.2}",
        medians.len(),
        medians[medians.len() / 2],
        mean,
        medians[medians.len() * 9 / 10],
    );
}

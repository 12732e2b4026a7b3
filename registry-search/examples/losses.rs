//! Where the BM25F strategy loses recall@5 on an evaluation set: each relevant tool missing
//! from a request's top 5 is put in the first class that fits it, and the table gives, per
//! class, the requests and tools concerned and the share of recall@5 they cost.
//!
//! ```text
//! cargo run --release -p toolreg-search --example losses -- data/eval/stabletoolbench
//! ```
//!
//! The classes, in the order they are tried:
//! - **`+` term**: the request has a whitespace-separated word starting with `+` (a phone
//!   number, say), which ToolSearch reads as a required term (`docs/design.md` §9.4); no tool has
//!   it, so the request returns nothing.
//! - **twin in top 5**: a tool of another server with the same name and description is in the
//!   top 5; the two cannot be told apart.
//! - **sibling in top 5**: another tool of the same server is in the top 5; the right API was
//!   found, not the right endpoint.
//! - **server absent**: no tool of its server is in the top 5, by the missed tool's rank.

use std::process::ExitCode;

use toolreg_search::{Document, SearchEngine, Strategy, ToolDoc};

mod common;

const CLASSES: [&str; 6] = [
    "`+` term: the request returns nothing",
    "twin (same name and description) in top 5",
    "sibling (same server) in top 5",
    "server absent, tool ranked 6–10",
    "server absent, tool ranked 11–100",
    "server absent, tool not in the top 100",
];

fn server(tool: &ToolDoc) -> &str {
    tool.server().unwrap_or_default()
}

fn twins(a: &ToolDoc, b: &ToolDoc) -> bool {
    let name = |tool: &ToolDoc| tool.own_name().to_lowercase();
    server(a) != server(b) && name(a) == name(b) && a.description == b.description
}

fn main() -> ExitCode {
    let set = match common::set_from_args("losses") {
        Ok(set) => set,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f);
    let by_name: std::collections::HashMap<&str, &ToolDoc> = set
        .pool
        .iter()
        .map(|tool| (tool.name.as_str(), tool.as_ref()))
        .collect();
    // Per class: requests, tools, recall lost (summed over requests).
    let mut lost = [(0usize, 0usize, 0f64); CLASSES.len()];
    let (mut recall, mut plain_recall, mut plain) = (0f64, 0f64, 0usize);
    for query in &set.queries {
        let ranked = engine.search(&query.query, 100).matches;
        let top: Vec<&ToolDoc> = ranked
            .iter()
            .take(5)
            .map(|name| by_name[name.as_str()])
            .collect();
        let share = 1.0 / query.relevant.len().clamp(1, 5) as f64;
        let plus_term = query
            .query
            .split_whitespace()
            .any(|word| word.len() > 1 && word.starts_with('+'));
        let mut classes_hit = [false; CLASSES.len()];
        let mut found = 0;
        for relevant in &query.relevant {
            if ranked.iter().take(5).any(|name| name == relevant) {
                found += 1;
                continue;
            }
            let tool = by_name[relevant.as_str()];
            let rank = ranked.iter().position(|name| name == relevant);
            let class = if plus_term && ranked.is_empty() {
                0
            } else if top.iter().any(|other| twins(tool, other)) {
                1
            } else if top.iter().any(|other| server(other) == server(tool)) {
                2
            } else {
                match rank {
                    Some(rank) if rank < 10 => 3,
                    Some(_) => 4,
                    None => 5,
                }
            };
            classes_hit[class] = true;
            lost[class].1 += 1;
            lost[class].2 += share;
        }
        for (class, hit) in classes_hit.iter().enumerate() {
            lost[class].0 += usize::from(*hit);
        }
        let got = found as f64 * share;
        recall += got;
        if !plus_term {
            plain += 1;
            plain_recall += got;
        }
    }
    let n = set.queries.len().max(1) as f64;
    println!(
        "recall@5 {:.3} over {} requests; {:.3} over the {plain} requests without a `+` word",
        recall / n,
        set.queries.len(),
        plain_recall / plain.max(1) as f64,
    );
    println!();
    println!("| relevant tool missed from the top 5 | requests | tools | recall@5 lost |");
    println!("|---|---:|---:|---:|");
    for (label, (requests, tools, share)) in CLASSES.iter().zip(lost) {
        println!("| {label} | {requests} | {tools} | {:.3} |", share / n);
    }
    ExitCode::SUCCESS
}

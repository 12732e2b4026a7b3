//! What each signal of the ranked strategy adds: recall@5 on an evaluation set with the
//! default weights, then with one signal at a time set to zero (or, for `idf_power`, to 1),
//! on all queries and on the odd and even halves.
//!
//! ```text
//! cargo run --release -p registry-core --example ablation -- ../shared/eval/stabletoolbench
//! ```

use std::process::ExitCode;

use registry_core::search::eval::{EvalSet, evaluate_engine};
use registry_core::search::ranked::Weights;
use registry_core::search::{SearchEngine, Strategy};

mod common;

fn main() -> ExitCode {
    let set = match common::set_from_args("ablation") {
        Ok(set) => set,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let half = |parity: usize| EvalSet {
        pool: set.pool.clone(),
        queries: set
            .queries
            .iter()
            .skip(parity)
            .step_by(2)
            .cloned()
            .collect(),
    };
    let (odd, even) = (half(0), half(1));
    let keywords = set.name_keyword_queries();
    let base = Weights::default();
    let variants = [
        ("defaults", base),
        (
            "sentences = 0",
            Weights {
                sentences: 0.0,
                ..base
            },
        ),
        (
            "name_coverage = 0",
            Weights {
                name_coverage: 0.0,
                ..base
            },
        ),
        (
            "server_mention = 0",
            Weights {
                server_mention: 0.0,
                ..base
            },
        ),
        (
            "idf_power = 1",
            Weights {
                idf_power: 1.0,
                ..base
            },
        ),
        (
            "request_clause = 0",
            Weights {
                request_clause: 0.0,
                ..base
            },
        ),
        (
            "redundancy = 0",
            Weights {
                redundancy: 0.0,
                ..base
            },
        ),
        (
            "query_tf = 0",
            Weights {
                query_tf: 0.0,
                ..base
            },
        ),
        (
            "all seven off",
            Weights {
                sentences: 0.0,
                name_coverage: 0.0,
                server_mention: 0.0,
                idf_power: 1.0,
                query_tf: 0.0,
                request_clause: 0.0,
                redundancy: 0.0,
                ..base
            },
        ),
    ];
    println!("| weights | all | odd half | even half | name keywords |");
    println!("|---|---:|---:|---:|---:|");
    for (label, weights) in variants {
        let engine = SearchEngine::new(set.pool.clone(), Strategy::Ranked).with_weights(weights);
        let recall = |set: &EvalSet| evaluate_engine(set, &engine, 5).recall;
        println!(
            "| {label} | {:.3} | {:.3} | {:.3} | {:.3} |",
            recall(&set),
            recall(&odd),
            recall(&even),
            recall(&keywords)
        );
    }
    ExitCode::SUCCESS
}

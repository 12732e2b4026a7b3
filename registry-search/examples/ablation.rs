//! What each signal of the BM25F strategy adds, measured where it was not tuned: recall@5 per
//! set with the default weights, then with one signal at a time switched off, as the paired
//! difference from the defaults with its 95% bootstrap interval. A signal earns its place when
//! switching it off loses recall on the held-out sets beyond the interval.
//!
//! ```text
//! cargo run --release -p toolreg-search --example ablation -- \
//!     data/eval/stabletoolbench data/eval/sealtools_test data/eval/metatool_single
//! ```

use std::process::ExitCode;

use common::pool::Set;
use toolreg_search::eval::bootstrap::paired;
use toolreg_search::eval::{TUNING_SET, engine_scores};
use toolreg_search::ranked::Weights;
use toolreg_search::{SearchEngine, Strategy};

mod common;

fn main() -> ExitCode {
    let sets = match common::sets_from_args("ablation") {
        Ok(sets) => sets,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let base = Weights::default();
    let off = |change: fn(&mut Weights)| {
        let mut weights = base;
        change(&mut weights);
        weights
    };
    let variants: [(&str, Weights); 10] = [
        ("sentences = 0", off(|w| w.sentences = 0.0)),
        ("name_coverage = 0", off(|w| w.name_coverage = 0.0)),
        ("request_clause = 0", off(|w| w.request_clause = 0.0)),
        ("redundancy = 0", off(|w| w.redundancy = 0.0)),
        ("server_prior = 0", off(|w| w.server_prior = 0.0)),
        ("server = 0", off(|w| w.server = 0.0)),
        ("seed = 0", off(|w| w.seed = 0.0)),
        ("params = 0", off(|w| w.params = 0.0)),
        ("hint = 0", off(|w| w.hint = 0.0)),
        (
            "all four request signals off",
            off(|w| {
                w.sentences = 0.0;
                w.name_coverage = 0.0;
                w.request_clause = 0.0;
                w.redundancy = 0.0;
            }),
        ),
    ];
    let recalls = |set: &Set, weights: Weights| {
        let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f).with_weights(weights);
        engine_scores(set, &engine, 5).recall
    };
    let keywords: Vec<Set> = sets
        .iter()
        .map(|(_, set)| set.name_keyword_queries())
        .collect();
    // Every set's name keyword queries, one list: where the seed blend does its work.
    let keyword_recalls = |weights: Weights| -> Vec<f64> {
        keywords
            .iter()
            .flat_map(|set| recalls(set, weights))
            .collect()
    };
    let mut header = String::from("| weights |");
    let mut rule = String::from("|---|");
    let mut defaults = String::from("| defaults (recall@5) |");
    let mut base_recalls = Vec::new();
    for (name, set) in &sets {
        let part = if name == TUNING_SET {
            "tuned"
        } else {
            "held out"
        };
        header.push_str(&format!(" {name} ({part}) |"));
        rule.push_str("---:|");
        let recall = recalls(set, base);
        defaults.push_str(&format!(
            " {:.3} |",
            recall.iter().sum::<f64>() / recall.len().max(1) as f64
        ));
        base_recalls.push(recall);
    }
    let base_keywords = keyword_recalls(base);
    header.push_str(" name keywords, all sets |");
    rule.push_str("---:|");
    defaults.push_str(&format!(
        " {:.3} |",
        base_keywords.iter().sum::<f64>() / base_keywords.len().max(1) as f64
    ));
    println!("{header}\n{rule}\n{defaults}");
    for (label, weights) in variants {
        let mut row = format!("| {label} |");
        for ((_, set), base) in sets.iter().zip(&base_recalls) {
            let change = paired(&recalls(set, weights), base);
            row.push_str(&format!(
                " {:+.3} [{:+.3}, {:+.3}] |",
                change.mean, change.low, change.high
            ));
        }
        let change = paired(&keyword_recalls(weights), &base_keywords);
        row.push_str(&format!(
            " {:+.3} [{:+.3}, {:+.3}] |",
            change.mean, change.low, change.high
        ));
        println!("{row}");
    }
    ExitCode::SUCCESS
}

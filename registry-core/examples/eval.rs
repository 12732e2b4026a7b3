//! Prints recall@5, hit@5 and MRR of each ToolSearch strategy on evaluation sets.
//!
//! `cargo run --release -p registry-core --example eval -- ../shared/eval/stabletoolbench ...`

use std::path::Path;
use std::process::ExitCode;

use registry_core::search::Strategy;
use registry_core::search::eval::{EvalSet, evaluate};

fn main() -> ExitCode {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: eval SET_DIR...  (each holding tools.jsonl and queries.jsonl)");
        return ExitCode::from(2);
    }
    println!("| set | strategy | recall@5 | hit@5 | MRR | queries |");
    println!("|---|---|---:|---:|---:|---:|");
    for dir in dirs {
        let dir = Path::new(&dir);
        let name = dir
            .file_name()
            .map_or("set".into(), |n| n.to_string_lossy().into_owned());
        let read = |file: &str| std::fs::read_to_string(dir.join(file));
        let (tools, queries) = match (read("tools.jsonl"), read("queries.jsonl")) {
            (Ok(tools), Ok(queries)) => (tools, queries),
            (Err(error), _) | (_, Err(error)) => {
                eprintln!("error: {}: {error}", dir.display());
                return ExitCode::FAILURE;
            }
        };
        let set = match EvalSet::parse(&name, &tools, &queries) {
            Ok(set) => set,
            Err(error) => {
                eprintln!("error: {}: {error}", dir.display());
                return ExitCode::FAILURE;
            }
        };
        for (label, strategy) in [("seed", Strategy::Seed), ("ranked", Strategy::Ranked)] {
            let m = evaluate(&set, strategy, 5);
            println!(
                "| {name} | {label} | {:.3} | {:.3} | {:.3} | {} |",
                m.recall, m.hit, m.mrr, m.queries
            );
        }
    }
    ExitCode::SUCCESS
}

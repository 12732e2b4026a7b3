//! `search`: ToolSearch over the pool's deferred tools.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;
use toolreg::{SearchEngine, Strategy};

use super::{Result, out};
use crate::cli::{SearchArgs, SearchStrategy};
use crate::setup::Setup;

/// The largest `--queries` file read: 64 MiB.
const MAX_QUERIES_FILE_BYTES: u64 = 64 * 1024 * 1024;

pub(super) fn search(setup: &Setup, args: &SearchArgs) -> Result<ExitCode> {
    let strategy = match args.strategy {
        SearchStrategy::Keyword => Strategy::Keyword,
        SearchStrategy::Bm25f => Strategy::Bm25f,
    };
    let queries: Vec<String> = match (&args.queries, &args.query) {
        (Some(file), _) => crate::setup::read_capped(file, MAX_QUERIES_FILE_BYTES)
            .map_err(|error| format!("--queries {}: {error}", file.display()))?
            .lines()
            .map(str::to_owned)
            .collect(),
        (None, Some(query)) => vec![query.clone()],
        (None, None) => return Err("give a QUERY or --queries FILE".into()),
    };
    let started = Instant::now();
    let engine = SearchEngine::new(setup.pool.to_vec(), strategy);
    #[cfg(feature = "semantic")]
    let engine = match &args.model {
        Some(_) if strategy != Strategy::Bm25f => {
            return Err(
                "--model fuses meaning into the BM25F strategy: add --strategy bm25f".into(),
            );
        }
        Some(dir) => {
            let model =
                toolreg::search::semantic::load(dir).map_err(|error| format!("--model {error}"))?;
            engine.with_embedder(model)
        }
        None => engine,
    };
    let build = started.elapsed();
    let searching = Instant::now();
    let outputs: Vec<_> = queries
        .iter()
        .map(|query| engine.search(query, args.max_results))
        .collect();
    let search_time = searching.elapsed();
    let mut text = String::new();
    for output in &outputs {
        if args.json {
            let line = json!({"query": output.query, "matches": output.matches, "total_deferred_tools": output.total_deferred_tools});
            text.push_str(&line.to_string());
        } else {
            text.push_str(&format!("query: {}\n", output.query));
            if output.matches.is_empty() {
                text.push_str("  no matching deferred tools\n");
            }
            for (rank, name) in output.matches.iter().enumerate() {
                text.push_str(&format!("  {}. {name}\n", rank + 1));
            }
            text.push_str(&format!(
                "  ({} deferred tools searched)",
                output.total_deferred_tools
            ));
        }
        text.push('\n');
    }
    if args.stats {
        let total_us = search_time.as_secs_f64() * 1e6;
        eprintln!(
            "{}",
            json!({
                "tools": setup.pool.len(),
                "deferred": engine.deferred().len(),
                "index_build_us": (build.as_secs_f64() * 1e6).round(),
                "queries": queries.len(),
                "search_us_total": total_us.round(),
                "search_us_per_query": total_us / queries.len().max(1) as f64,
            })
        );
    }
    out(text.trim_end())
}

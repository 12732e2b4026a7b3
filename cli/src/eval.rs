//! `toolreg eval`: retrieval quality of each strategy on evaluation sets.

use std::path::Path;
use std::process::ExitCode;

use toolreg::search::eval::bootstrap::paired;
use toolreg::search::eval::{self, QueryScores, TUNING_SET, baseline_scores, engine_scores};
use toolreg::{SearchEngine, Strategy};

use crate::cli::EvalArgs;
use crate::commands::{Result, out};

/// Per set and query kind, the BM25 baseline, seed and ranked (and, with `--model`, ranked
/// with the model fused in) with recall's 95% bootstrap interval, and each ranked row's paired
/// gain over the baseline. A set is held out unless it is the one the ranked defaults were
/// tuned on.
pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let k = args.k;
    let semantic = semantic(args)?;
    let mut text = format!(
        "| set | part | queries | strategy | recall@{k} (95% interval) | hit@{k} | MRR | count |\n\
         |---|---|---|---|---:|---:|---:|---:|\n"
    );
    let mut gains = String::from(
        "\n| set | part | queries | strategy | gain over BM25, recall (95% interval) |\n\
         |---|---|---|---|---:|\n",
    );
    for dir in &args.sets {
        let name = dir
            .file_name()
            .map_or_else(|| "set".into(), |n| n.to_string_lossy().into_owned());
        let read = |file: &str| {
            let path = Path::new(dir).join(file);
            std::fs::read_to_string(&path).map_err(|error| format!("{}: {error}", path.display()))
        };
        let set = eval::parse(&name, &read("tools.jsonl")?, &read("queries.jsonl")?)
            .map_err(|error| format!("{}: {error}", dir.display()))?;
        let part = if name == TUNING_SET {
            "tuned"
        } else {
            "held out"
        };
        let keywords = set.name_keyword_queries();
        for (kind, set) in [("requests", &set), ("name keywords", &keywords)] {
            let engine = |strategy| SearchEngine::new(set.pool.clone(), strategy);
            let baseline = baseline_scores(set, k);
            let mut rows: Vec<(String, QueryScores)> = vec![
                ("BM25 baseline".into(), baseline.clone()),
                (
                    "keyword".into(),
                    engine_scores(set, &engine(Strategy::Keyword), k),
                ),
                (
                    "BM25F".into(),
                    engine_scores(set, &engine(Strategy::Bm25f), k),
                ),
            ];
            if let Some((label, fuse)) = &semantic {
                let engine = fuse(engine(Strategy::Bm25f));
                rows.push((label.clone(), engine_scores(set, &engine, k)));
            }
            for (label, scores) in &rows {
                let m = scores.metrics();
                let i = m.recall_interval;
                text.push_str(&format!(
                    "| {name} | {part} | {kind} | {label} | {:.3} [{:.3}, {:.3}] | {:.3} | {:.3} | {} |\n",
                    m.recall, i.low, i.high, m.hit, m.mrr, m.queries
                ));
            }
            for (label, scores) in rows.iter().skip(2) {
                let gain = paired(&scores.recall, &baseline.recall);
                gains.push_str(&format!(
                    "| {name} | {part} | {kind} | {label} | {:+.3} [{:+.3}, {:+.3}] |\n",
                    gain.mean, gain.low, gain.high
                ));
            }
        }
    }
    text.push_str(&gains);
    out(text.trim_end())
}

/// A row label and what turns a BM25F engine into one with the model fused in.
type Fuse = (String, Box<dyn Fn(SearchEngine) -> SearchEngine>);

/// `--model`'s encoder, loaded once for every set.
#[cfg(feature = "semantic")]
fn semantic(args: &EvalArgs) -> Result<Option<Fuse>> {
    let Some(dir) = &args.model else {
        return Ok(None);
    };
    let model = toolreg::search::semantic::load(dir).map_err(|error| format!("--model {error}"))?;
    let name = dir
        .file_name()
        .map_or_else(|| "model".into(), |n| n.to_string_lossy().into_owned());
    let fuse = move |engine: SearchEngine| engine.with_embedder(model.clone());
    Ok(Some((format!("BM25F + {name}"), Box::new(fuse))))
}

#[cfg(not(feature = "semantic"))]
fn semantic(_: &EvalArgs) -> Result<Option<Fuse>> {
    Ok(None)
}

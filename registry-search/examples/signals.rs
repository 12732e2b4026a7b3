//! Why the BM25F strategy wins or loses, per signal, per set and pool, per category: recall@5
//! and hit@5 of plain BM25 (and of BM25 over the standard analysis, with stems), the seed scoring and the BM25F strategy, then the BM25F strategy
//! with one signal at a time switched off, each as the paired difference from the defaults
//! with its 95% bootstrap interval.
//!
//! Each argument is a pool: a set directory, or several joined by `+` (`a+b`), whose tools
//! compete in one pool (ids and servers kept apart by set) while each set's queries are
//! scored on their own. A pool is the one a user has when unrelated servers meet: in a joined
//! pool, the tools of a set that names no servers (its tools are separate products or APIs,
//! not one server's) are each a server of their own, with a name that says nothing.
//!
//! `--dev` scores each set's odd query lines only, `--test` the even ones: a change is chosen
//! on the first half and reported on the second. `--weights name=value,…` changes the ranked
//! strategy's weights (the fields of `Weights`); `--quick` leaves out the signals switched off.
//!
//! ```text
//! cargo run --release -p toolreg-search --example signals -- \
//!     data/eval/mcp_servers data/eval/mcp_servers+data/eval/stabletoolbench
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;

use common::pool::{Set, parse};
use toolreg_search::eval::bootstrap::paired;
use toolreg_search::eval::{
    Half, QueryScores, SetFiles, TUNING_SET, baseline_scores, engine_scores, join,
    standard_baseline_scores,
};
use toolreg_search::ranked::Weights;
use toolreg_search::{Document as _, SearchEngine, Strategy};

mod common;

/// A set's name: the last component of its directory.
fn set_name(dir: &str) -> &str {
    dir.trim_end_matches('/').rsplit('/').next().unwrap_or(dir)
}

/// The sets of `spec` (`a` or `a+b+…`), each with the pool of all of them ([`join`]).
fn pool(spec: &str, half: Half) -> Result<Vec<(String, Set)>, String> {
    let dirs: Vec<&str> = spec.split('+').collect();
    let read = |dir: &str, file: &str| {
        std::fs::read_to_string(format!("{dir}/{file}"))
            .map_err(|error| format!("{dir}/{file}: {error}"))
    };
    let texts: Vec<(String, String)> = (dirs.iter())
        .map(|dir| Ok((read(dir, "tools.jsonl")?, read(dir, "queries.jsonl")?)))
        .collect::<Result<_, String>>()?;
    let files: Vec<SetFiles> = (dirs.iter().zip(&texts))
        .map(|(dir, (tools, queries))| SetFiles {
            name: set_name(dir),
            tools,
            queries,
        })
        .collect();
    let (tools, queries) = join(&files, half)?;
    (files.iter().zip(queries))
        .map(|(set, queries)| {
            let parsed = parse(set.name, &tools, &queries);
            Ok((
                set.name.to_owned(),
                parsed.map_err(|e| format!("{spec}: {e}"))?,
            ))
        })
        .collect()
}

fn variants(base: Weights) -> Vec<(&'static str, Weights)> {
    let off = |change: fn(&mut Weights)| {
        let mut weights = base;
        change(&mut weights);
        weights
    };
    vec![
        ("sentences", off(|w| w.sentences = 0.0)),
        ("name_coverage", off(|w| w.name_coverage = 0.0)),
        ("request_clause", off(|w| w.request_clause = 0.0)),
        ("redundancy", off(|w| w.redundancy = 0.0)),
        ("server_prior", off(|w| w.server_prior = 0.0)),
        ("server name field", off(|w| w.server = 0.0)),
        (
            "server prior and name field",
            off(|w| {
                w.server_prior = 0.0;
                w.server = 0.0;
            }),
        ),
        ("keyword", off(|w| w.seed = 0.0)),
        ("params", off(|w| w.params = 0.0)),
        ("hint", off(|w| w.hint = 0.0)),
    ]
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn change(a: &[f64], b: &[f64]) -> String {
    let change = paired(a, b);
    format!(
        "{:+.3} [{:+.3}, {:+.3}]",
        change.mean, change.low, change.high
    )
}

/// The queries' scores restricted to those of `category`.
fn only(scores: &QueryScores, keep: &[bool]) -> QueryScores {
    let pick = |values: &[f64]| -> Vec<f64> {
        values
            .iter()
            .zip(keep)
            .filter(|(_, keep)| **keep)
            .map(|(value, _)| *value)
            .collect()
    };
    QueryScores {
        recall: pick(&scores.recall),
        hit: pick(&scores.hit),
        reciprocal_rank: pick(&scores.reciprocal_rank),
    }
}

fn report(spec: &str, name: &str, set: &Set, options: &Options) {
    let tuned = if name == TUNING_SET {
        "tuned"
    } else {
        "held out"
    };
    let servers = {
        let mut servers: Vec<&str> = set.pool.iter().filter_map(|t| t.server()).collect();
        servers.dedup();
        servers.len()
    };
    println!(
        "\n### {name} ({tuned}) in the pool {spec}: {} tools, {servers} servers, {} queries\n",
        set.pool.len(),
        set.queries.len()
    );
    let ranked = |weights: Weights| {
        let engine = SearchEngine::new(set.pool.clone(), Strategy::Bm25f).with_weights(weights);
        engine_scores(set, &engine, 5)
    };
    let bm25 = baseline_scores(set, 5);
    let stemmed = standard_baseline_scores(set, 5);
    let seed = engine_scores(
        set,
        &SearchEngine::new(set.pool.clone(), Strategy::Keyword),
        5,
    );
    let base = ranked(options.weights);
    println!("| ranking | recall@5 | hit@5 | recall@5 − BM25 | hit@5 − BM25 |");
    println!("|---|---:|---:|---:|---:|");
    let rows = [
        ("BM25", &bm25),
        ("BM25, standard analysis", &stemmed),
        ("keyword", &seed),
        ("BM25F", &base),
    ];
    for (label, scores) in rows {
        println!(
            "| {label} | {:.3} | {:.3} | {} | {} |",
            mean(&scores.recall),
            mean(&scores.hit),
            change(&scores.recall, &bm25.recall),
            change(&scores.hit, &bm25.hit)
        );
    }
    // `--quick`: no signal switched off, the categories still reported.
    let variants: Vec<(&str, QueryScores)> = match options.quick {
        true => Vec::new(),
        false => (variants(options.weights).into_iter())
            .map(|(label, weights)| (label, ranked(weights)))
            .collect(),
    };
    if !variants.is_empty() {
        println!("\n| ranked without | recall@5 − ranked | hit@5 − ranked |");
        println!("|---|---:|---:|");
    }
    for (label, scores) in &variants {
        println!(
            "| {label} | {} | {} |",
            change(&scores.recall, &base.recall),
            change(&scores.hit, &base.hit)
        );
    }
    let mut categories: BTreeMap<&str, Vec<bool>> = BTreeMap::new();
    for query in &set.queries {
        if let Some(category) = &query.category {
            categories.entry(category).or_default();
        }
    }
    if categories.is_empty() {
        return;
    }
    for (category, keep) in &mut categories {
        *keep = (set.queries.iter())
            .map(|query| query.category.as_deref() == Some(*category))
            .collect();
    }
    let mut header = String::from(
        "\n| category (queries) | BM25 r@5 / h@5 | seed r@5 / h@5 | ranked r@5 / h@5 | ranked − BM25, r@5 | ranked − BM25, h@5 |",
    );
    let mut rule = String::from("|---|---:|---:|---:|---:|---:|");
    for (label, _) in &variants {
        header.push_str(&format!(" without {label} |"));
        rule.push_str("---:|");
    }
    println!("{header}\n{rule}");
    for (category, keep) in &categories {
        let (b, s, r) = (only(&bm25, keep), only(&seed, keep), only(&base, keep));
        let mut row = format!(
            "| {category} ({}) | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} | {} | {} |",
            r.recall.len(),
            mean(&b.recall),
            mean(&b.hit),
            mean(&s.recall),
            mean(&s.hit),
            mean(&r.recall),
            mean(&r.hit),
            change(&r.recall, &b.recall),
            change(&r.hit, &b.hit)
        );
        for (_, scores) in &variants {
            let v = only(scores, keep);
            row.push_str(&format!(" {:+.3} |", mean(&v.recall) - mean(&r.recall)));
        }
        println!("{row}");
    }
}

/// What the command line asks for besides the pools.
struct Options {
    half: Half,
    /// The BM25F strategy's weights: the defaults, changed by `--weights name=value,…`.
    weights: Weights,
    /// `--quick`: BM25, seed and ranked only, without the signals switched off.
    quick: bool,
}

/// `weights` with the changes of `spec` (`name=value,…`, names as [`Weights`]' fields).
fn with_changes(mut weights: Weights, spec: &str) -> Result<Weights, String> {
    for change in spec.split(',') {
        let (name, value) = change
            .split_once('=')
            .ok_or_else(|| format!("--weights: {change:?} is not name=value"))?;
        let value: f32 = (value.parse())
            .map_err(|_| format!("--weights: {name}'s value {value:?} is not a number"))?;
        let field = match name {
            "name" => &mut weights.name,
            "hint" => &mut weights.hint,
            "description" => &mut weights.description,
            "params" => &mut weights.params,
            "server" => &mut weights.server,
            "k1" => &mut weights.k1,
            "b" => &mut weights.b,
            "server_prior" => &mut weights.server_prior,
            "seed" => &mut weights.seed,
            "sentences" => &mut weights.sentences,
            "name_coverage" => &mut weights.name_coverage,
            "request_clause" => &mut weights.request_clause,
            "redundancy" => &mut weights.redundancy,
            _ => return Err(format!("--weights: no weight is called {name:?}")),
        };
        *field = value;
    }
    Ok(weights)
}

fn main() -> ExitCode {
    const USAGE: &str = "usage: signals [--dev | --test] [--quick] [--weights name=value,...] \
                         <set directory or a+b pool>...";
    let mut options = Options {
        half: Half::All,
        weights: Weights::default(),
        quick: false,
    };
    let mut specs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dev" => options.half = Half::Dev,
            "--test" => options.half = Half::Test,
            "--quick" => options.quick = true,
            "--weights" => {
                let changed = (args.next().ok_or_else(|| USAGE.to_owned()))
                    .and_then(|spec| with_changes(options.weights, &spec));
                match changed {
                    Ok(weights) => options.weights = weights,
                    Err(error) => {
                        eprintln!("{error}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            _ => specs.push(arg),
        }
    }
    if specs.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    }
    for spec in &specs {
        let sets = match pool(spec, options.half) {
            Ok(sets) => sets,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::FAILURE;
            }
        };
        for (name, set) in &sets {
            report(spec, name, set, &options);
        }
    }
    ExitCode::SUCCESS
}

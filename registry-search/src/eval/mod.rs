//! Retrieval evaluation: a set of tools and queries with their relevant tools, loaded into a
//! pool of deferred MCP-style tools, and the recall@k, hit@k and MRR of a strategy on it.
//!
//! The set format (one JSON object a line): `tools.jsonl` holds `{"id", "name",
//! "description", "extra"}`, `queries.jsonl` holds `{"qid", "query", "relevant": [ids]}` and,
//! where the set has them, a `category`. Each tool becomes an MCP tool of server
//! `extra.tool_name` where the set has one and of the set's name otherwise, its input schema
//! `extra.input_schema` where the set has it and otherwise one of string properties named by
//! `extra.params`;
//! the caller's loader turns each server's `tools/list` into documents ([`EvalSet::load`]),
//! so that the pool is named and checked as its users' pools are.
//!
//! Figures come with a 95% bootstrap interval over the queries ([`bootstrap`]), and beside the
//! plain BM25 baseline ([`Bm25Baseline`]). The BM25F strategy's defaults were chosen on
//! [`TUNING_SET`]; its figures there are not held out.

mod baseline;
pub mod bootstrap;
mod join;

pub use baseline::Bm25Baseline;
pub use bootstrap::Interval;
pub use join::{Half, SetFiles, join};

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::document::Document;
use crate::engine::{SearchEngine, Strategy};
use crate::text::plain_words;

/// A loaded evaluation set.
#[derive(Debug)]
pub struct EvalSet<D> {
    /// The pool: every tool, deferred.
    pub pool: Vec<Arc<D>>,
    /// The queries with the names of their relevant tools.
    pub queries: Vec<EvalQuery>,
}

/// One query.
#[derive(Debug, Clone)]
pub struct EvalQuery {
    /// The query text.
    pub query: String,
    /// Pool names of the relevant tools.
    pub relevant: Vec<String>,
    /// The query's category, where the set has them.
    pub category: Option<String>,
}

/// A line of a set that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// `tools.jsonl` or `queries.jsonl`.
    pub file: &'static str,
    /// The 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for EvalError {}

#[derive(Deserialize)]
struct ToolLine {
    id: String,
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    extra: Value,
}

#[derive(Deserialize)]
struct QueryLine {
    query: String,
    relevant: Vec<String>,
    #[serde(default)]
    category: Option<String>,
}

fn lines<'a, T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &'a str,
) -> impl Iterator<Item = Result<T, EvalError>> + 'a {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(move |(i, line)| {
            serde_json::from_str(line).map_err(|error| EvalError {
                file,
                line: i + 1,
                message: error.to_string(),
            })
        })
}

impl<D> Clone for EvalSet<D> {
    fn clone(&self) -> Self {
        EvalSet {
            pool: self.pool.clone(),
            queries: self.queries.clone(),
        }
    }
}

/// Each server of a set with its `tools/list` result (a JSON array), in the set's order.
pub type ServerLists = [(String, Value)];

impl<D: Document> EvalSet<D> {
    /// Parses a set; `set_name` is the server part of tools without `extra.tool_name`. `load`
    /// turns the servers' tool lists into the pool: one document per listed tool, server by
    /// server, in order, or an error that is reported as the set's.
    pub fn load(
        set_name: &str,
        tools_jsonl: &str,
        queries_jsonl: &str,
        load: impl FnOnce(&ServerLists) -> Result<Vec<Arc<D>>, String>,
    ) -> Result<EvalSet<D>, EvalError> {
        let tools: Vec<ToolLine> = lines("tools.jsonl", tools_jsonl).collect::<Result<_, _>>()?;
        let mut servers: Vec<(String, Vec<Value>, Vec<&str>)> = Vec::new();
        let mut server_index: HashMap<String, usize> = HashMap::new();
        for tool in &tools {
            let server = tool
                .extra
                .get("tool_name")
                .and_then(Value::as_str)
                .unwrap_or(set_name);
            let params: serde_json::Map<String, Value> = tool
                .extra
                .get("params")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|param| (param.to_owned(), json!({"type": "string"})))
                .collect();
            let schema = match tool.extra.get("input_schema") {
                Some(schema @ Value::Object(_)) => schema.clone(),
                _ => json!({"type": "object", "properties": params}),
            };
            let entry = json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": schema,
            });
            let slot = *server_index.entry(server.to_owned()).or_insert_with(|| {
                servers.push((server.to_owned(), Vec::new(), Vec::new()));
                servers.len() - 1
            });
            if let Some((_, list, ids)) = servers.get_mut(slot) {
                list.push(entry);
                ids.push(&tool.id);
            }
        }
        // Tools load server by server, in this order.
        let ids_in_order: Vec<&str> = servers
            .iter()
            .flat_map(|(_, _, ids)| ids.iter().copied())
            .collect();
        let values: Vec<(String, Value)> = servers
            .into_iter()
            .map(|(server, list, _)| (server, Value::Array(list)))
            .collect();
        let set_error = |message| EvalError {
            file: "tools.jsonl",
            line: 0,
            message,
        };
        let pool = load(&values).map_err(set_error)?;
        if pool.len() != ids_in_order.len() {
            return Err(set_error(format!(
                "the loader made {} tools of the set's {}",
                pool.len(),
                ids_in_order.len()
            )));
        }
        let names: HashMap<&str, String> = ids_in_order
            .into_iter()
            .zip(pool.iter().map(|tool| tool.name().to_owned()))
            .collect();
        let mut queries = Vec::new();
        for (i, query) in lines::<QueryLine>("queries.jsonl", queries_jsonl).enumerate() {
            let query = query?;
            let relevant = query
                .relevant
                .iter()
                .map(|id| {
                    names.get(id.as_str()).cloned().ok_or_else(|| EvalError {
                        file: "queries.jsonl",
                        line: i + 1,
                        message: format!("relevant tool `{id}` is not in tools.jsonl"),
                    })
                })
                .collect::<Result<_, _>>()?;
            queries.push(EvalQuery {
                query: query.query,
                relevant,
                category: query.category,
            });
        }
        Ok(EvalSet { pool, queries })
    }

    /// Short keyword queries made from the tools' own names: each tool's received name split
    /// into words (camel case and `_`, `-`, spaces), the first three lower-cased, with that tool
    /// as the one relevant answer. This is the kind of query the seed scoring was made for.
    pub fn name_keyword_queries(&self) -> EvalSet<D> {
        let queries = self
            .pool
            .iter()
            .filter_map(|tool| {
                let mut words = Vec::new();
                plain_words(tool.own_name(), |word| words.push(word));
                (!words.is_empty()).then(|| EvalQuery {
                    query: words.into_iter().take(3).collect::<Vec<_>>().join(" "),
                    relevant: vec![tool.name().to_owned()],
                    category: None,
                })
            })
            .collect();
        EvalSet {
            pool: self.pool.clone(),
            queries,
        }
    }
}

/// The set the BM25F strategy's weights and word lists were chosen on (all of its queries,
/// over several rounds): figures on it are tuned, not held out. Every other set is held out.
pub const TUNING_SET: &str = "stabletoolbench";

/// The quality of one strategy on one set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Mean of |relevant ∩ top k| / min(|relevant|, k).
    pub recall: f64,
    /// recall's 95% bootstrap interval over the queries.
    pub recall_interval: Interval,
    /// Share of queries with a relevant tool in the top k.
    pub hit: f64,
    /// Mean reciprocal rank of the first relevant tool within the top 100.
    pub mrr: f64,
    /// Queries evaluated.
    pub queries: usize,
}

/// Each query's figures for one ranking.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryScores {
    /// Each query's |relevant ∩ top k| / min(|relevant|, k).
    pub recall: Vec<f64>,
    /// Each query's 1 when a relevant tool is in the top k, else 0.
    pub hit: Vec<f64>,
    /// Each query's reciprocal rank of the first relevant tool within the top 100 (0 without).
    pub reciprocal_rank: Vec<f64>,
}

impl QueryScores {
    /// The figures of `rank` (a query and a cut-off to the pool names it ranks first) at
    /// cut-off `k`.
    pub fn of<D>(
        set: &EvalSet<D>,
        k: usize,
        mut rank: impl FnMut(&str, usize) -> Vec<String>,
    ) -> Self {
        let mut scores = QueryScores::default();
        for query in &set.queries {
            let ranked = rank(&query.query, 100.max(k));
            let top = ranked.get(..k).unwrap_or(&ranked);
            let found = query
                .relevant
                .iter()
                .filter(|name| top.contains(name))
                .count();
            scores
                .recall
                .push(found as f64 / query.relevant.len().clamp(1, k.max(1)) as f64);
            scores.hit.push(f64::from(u8::from(found > 0)));
            let first = ranked.iter().position(|name| query.relevant.contains(name));
            scores
                .reciprocal_rank
                .push(first.map_or(0.0, |rank| 1.0 / (rank + 1) as f64));
        }
        scores
    }

    /// The means, recall with its interval.
    pub fn metrics(&self) -> Metrics {
        let mean = |values: &[f64]| values.iter().sum::<f64>() / values.len().max(1) as f64;
        Metrics {
            recall: mean(&self.recall),
            recall_interval: bootstrap::interval(&self.recall),
            hit: mean(&self.hit),
            mrr: mean(&self.reciprocal_rank),
            queries: self.recall.len(),
        }
    }
}

/// Each query's figures for an engine built over `set.pool`.
pub fn engine_scores<D: Document>(
    set: &EvalSet<D>,
    engine: &SearchEngine<D>,
    k: usize,
) -> QueryScores {
    QueryScores::of(set, k, |query, n| engine.search(query, n).matches)
}

/// Each query's figures for the BM25 baseline over `set.pool`.
pub fn baseline_scores<D: Document>(set: &EvalSet<D>, k: usize) -> QueryScores {
    let baseline = Bm25Baseline::build(&set.pool);
    QueryScores::of(set, k, |query, n| {
        (baseline.rank(query, n).into_iter())
            .filter_map(|i| set.pool.get(i).map(|tool| tool.name().to_owned()))
            .collect()
    })
}

/// Each query's figures for the BM25 baseline over the standard analysis
/// ([`Bm25Baseline::standard`]: the BM25F strategy's words, stop words and stems).
pub fn standard_baseline_scores<D: Document>(set: &EvalSet<D>, k: usize) -> QueryScores {
    let baseline = Bm25Baseline::standard(&set.pool);
    QueryScores::of(set, k, |query, n| {
        (baseline.rank(query, n).into_iter())
            .filter_map(|i| set.pool.get(i).map(|tool| tool.name().to_owned()))
            .collect()
    })
}

/// Evaluates a strategy at cut-off `k`.
pub fn evaluate<D: Document>(set: &EvalSet<D>, strategy: Strategy, k: usize) -> Metrics {
    evaluate_engine(set, &SearchEngine::new(set.pool.clone(), strategy), k)
}

/// Evaluates an engine built over `set.pool` at cut-off `k`.
pub fn evaluate_engine<D: Document>(
    set: &EvalSet<D>,
    engine: &SearchEngine<D>,
    k: usize,
) -> Metrics {
    engine_scores(set, engine, k).metrics()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::eval_loader;

    #[test]
    fn names_split_at_humps_and_separators() {
        let words = |name: &str| {
            let mut out = Vec::new();
            plain_words(name, |word| out.push(word));
            out
        };
        assert_eq!(words("getWeatherForecast"), ["get", "weather", "forecast"]);
        assert_eq!(
            words("List Artist_Concerts"),
            ["list", "artist", "concerts"]
        );
        assert_eq!(words("HTTPServer2go"), ["httpserver2go"]);
    }

    #[test]
    fn a_set_parses_and_scores_a_perfect_query() {
        let tools = r#"{"id": "a", "name": "getWeather", "description": "Current weather for a city", "extra": {"params": ["city"]}}
{"id": "b", "name": "sendEmail", "description": "Send an email", "extra": {}}"#;
        let queries = r#"{"qid": "1", "query": "what is the weather in Paris", "relevant": ["a"]}"#;
        let set = EvalSet::load("demo", tools, queries, eval_loader).unwrap();
        assert_eq!(set.pool[0].name(), "mcp__demo__getWeather");
        let metrics = evaluate(&set, Strategy::Bm25f, 5);
        assert_eq!((metrics.recall, metrics.hit, metrics.mrr), (1.0, 1.0, 1.0));
        let names = set.name_keyword_queries();
        assert_eq!(names.queries[1].query, "send email");
    }

    #[test]
    fn a_bad_line_is_reported_with_file_and_line() {
        let error = EvalSet::load("x", r#"{"id": 1}"#, "", eval_loader).unwrap_err();
        assert_eq!((error.file, error.line), ("tools.jsonl", 1));
        let tools = r#"{"id": "a", "name": "n", "description": "d"}"#;
        let error = EvalSet::load(
            "x",
            tools,
            r#"{"query": "q", "relevant": ["zz"]}"#,
            eval_loader,
        )
        .unwrap_err();
        assert!(error.message.contains("`zz`"));
    }
}

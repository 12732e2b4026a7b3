//! The plain BM25 baseline of `data/README.md`, that the strategies are measured
//! against: each tool's name (server and tool, split at camel case and `_`) and description as
//! one document, lower-cased alphanumeric words less a small stop list, k1 = 1.2, b = 0.75.
//!
//! Beside it, the same BM25 over the [standard analysis](crate::text::analysis::terms) that the
//! BM25F strategy reads (its words, NLTK's stop words, Snowball stems): what plain BM25 with a
//! stemmer does ([`Bm25Baseline::standard`]). The CI guards and the published comparison use the
//! plain one, so that its figures stay comparable across changes of the analysis.

use std::collections::HashMap;
use std::sync::Arc;

use crate::document::Document;
use crate::text::analysis::terms;
use crate::text::plain_words;

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Words too common to rank by.
const STOP: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "get", "how", "i",
    "in", "is", "it", "me", "my", "of", "on", "or", "please", "that", "the", "this", "to", "what",
    "with", "you", "your", "want",
];

/// The baseline's words of a text: its [plain words](plain_words), stop words dropped.
fn words(text: &str, out: &mut Vec<String>) {
    plain_words(text, |word| {
        if !STOP.contains(&word.as_str()) {
            out.push(word);
        }
    });
}

/// The baseline's index of a pool.
pub struct Bm25Baseline {
    /// How a text becomes the words it is indexed and queried by.
    analyze: fn(&str, &mut Vec<String>),
    postings: HashMap<String, Vec<(u32, u32)>>,
    lengths: Vec<f64>,
    average: f64,
}

impl Bm25Baseline {
    /// Indexes every tool of `pool`, with the plain analysis of `data/README.md`.
    pub fn build<D: Document>(pool: &[Arc<D>]) -> Self {
        Self::build_with(pool, words)
    }

    /// Indexes every tool of `pool` with the standard analysis (the BM25F strategy's words,
    /// stop words and stems).
    pub fn standard<D: Document>(pool: &[Arc<D>]) -> Self {
        Self::build_with(pool, terms)
    }

    fn build_with<D: Document>(pool: &[Arc<D>], analyze: fn(&str, &mut Vec<String>)) -> Self {
        let words = analyze;
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut lengths = Vec::with_capacity(pool.len());
        let mut terms = Vec::new();
        for (i, tool) in pool.iter().enumerate() {
            terms.clear();
            match tool.server() {
                Some(server) => {
                    words(server, &mut terms);
                    words(tool.own_name(), &mut terms);
                }
                None => words(tool.name(), &mut terms),
            }
            words(tool.description(), &mut terms);
            lengths.push(terms.len() as f64);
            let mut counts: HashMap<&str, u32> = HashMap::new();
            for term in &terms {
                *counts.entry(term).or_default() += 1;
            }
            for (term, tf) in counts {
                postings
                    .entry(term.to_owned())
                    .or_default()
                    .push((i as u32, tf));
            }
        }
        let average = (lengths.iter().sum::<f64>() / lengths.len().max(1) as f64).max(1.0);
        Bm25Baseline {
            analyze,
            postings,
            lengths,
            average,
        }
    }

    /// The best `k` tools for `query` (indices into the pool), best first, ties in pool order.
    pub fn rank(&self, query: &str, k: usize) -> Vec<usize> {
        let mut terms = Vec::new();
        (self.analyze)(query, &mut terms);
        terms.sort_unstable();
        terms.dedup();
        let n = self.lengths.len() as f64;
        let mut scores: HashMap<u32, f64> = HashMap::new();
        for term in &terms {
            let Some(list) = self.postings.get(term) else {
                continue;
            };
            let df = list.len() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for &(tool, tf) in list {
                let length = self.lengths.get(tool as usize).copied().unwrap_or_default();
                let tf = f64::from(tf);
                let norm = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / self.average));
                *scores.entry(tool).or_default() += idf * norm;
            }
        }
        let mut ranked: Vec<(u32, f64)> = scores.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
            .into_iter()
            .take(k)
            .map(|(tool, _)| tool as usize)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_humps_and_drop_stop_words() {
        let mut out = Vec::new();
        words("TheClique: getWeather for a city", &mut out);
        assert_eq!(out, ["clique", "weather", "city"]);
    }

    #[test]
    fn rank_prefers_the_rarer_term_and_breaks_ties_in_pool_order() {
        let tools = serde_json::json!([
            {"name": "weather_now", "description": "Weather", "inputSchema": {}},
            {"name": "weather_alerts", "description": "Storm alerts", "inputSchema": {}},
            {"name": "news", "description": "Headlines", "inputSchema": {}},
            {"name": "news_two", "description": "Headlines", "inputSchema": {}},
        ]);
        let pool = crate::testing::load_server("s", &tools);
        let baseline = Bm25Baseline::build(&pool);
        assert_eq!(baseline.rank("storm weather", 5), [1, 0]);
        assert_eq!(
            baseline.rank("headlines", 5),
            [2, 3],
            "a tie keeps pool order"
        );
        assert!(
            baseline.rank("the", 5).is_empty(),
            "stop words rank nothing"
        );
    }
}

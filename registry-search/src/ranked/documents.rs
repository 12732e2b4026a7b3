//! The server documents: each server's tool names, server name and tool descriptions as one
//! BM25 document, whose score lifts every tool of the server ([`Weights::server_doc`]).
//!
//! A term's score in each server document depends on the pool alone, so it is computed once,
//! when the index is built; a query only adds up its terms' scores.
//!
//! [`Weights::server_doc`]: super::Weights::server_doc

use super::dense::Dense;
use super::{HashMap, RankedIndex, idf};

/// Each term's occurrences in the server documents while the index is built: `(server, tf)`,
/// a server possibly more than once when its tools are not together in the pool.
pub(super) type Occurrences = HashMap<Box<str>, Vec<(u32, u16)>>;

/// Each term's servers with its BM25 score in their documents, by server.
pub(super) type Scores = HashMap<Box<str>, Vec<(u32, f32)>>;

impl RankedIndex {
    /// The terms' BM25 scores in the server documents, from their `occurrences` and the
    /// documents' `lengths`.
    pub(super) fn document_scores(&self, occurrences: Occurrences, lengths: &[u32]) -> Scores {
        let w = &self.weights;
        let servers = self.servers as f32;
        let average = lengths.iter().map(|&l| l as f32).sum::<f32>() / servers;
        (occurrences.into_iter())
            .map(|(term, mut list)| {
                // One entry per server: its tools' occurrences together.
                list.sort_by_key(|(server, _)| *server);
                list.dedup_by(|next, kept| {
                    let same = next.0 == kept.0;
                    if same {
                        kept.1 = kept.1.saturating_add(next.1);
                    }
                    same
                });
                let idf = idf(servers, list.len() as f32);
                let score = |&(server, tf): &(u32, u16)| {
                    let length = lengths.get(server as usize).copied().unwrap_or(0);
                    let norm = 1.0 - w.b + w.b * length as f32 / average.max(1.0);
                    let tf = f32::from(tf) / norm;
                    (server, idf * tf * (w.k1 + 1.0) / (w.k1 + tf))
                };
                let scores = list.iter().map(score).collect();
                (term, scores)
            })
            .collect()
    }

    /// The BM25 score of each server document for a query's terms, into `scores` (empty).
    /// (Out of line, as the other steps of `score_terms` are.)
    #[inline(never)]
    pub(super) fn server_documents(&self, terms: &[(String, f32)], scores: &mut Dense) {
        for (term, _) in terms {
            for &(server, score) in self.server_documents.get(term.as_str()).into_iter().flatten() {
                scores.add(server, score);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use crate::document::Document;
    use crate::ranked::{RankedIndex, Weights};
    use crate::testing::load_servers;

    /// Each tool's score for `query` over `pool`, by name, sorted.
    fn scores_by_name<D: Document>(pool: &[Arc<D>], query: &str) -> Vec<(String, u32)> {
        let index = RankedIndex::build(pool, Weights::default());
        let scores = index.score(query);
        let mut by_name: Vec<(String, u32)> = (pool.iter().enumerate())
            .map(|(i, tool)| (tool.name().to_owned(), scores.of(i).to_bits()))
            .collect();
        by_name.sort();
        by_name
    }

    #[test]
    fn a_server_document_is_one_document_wherever_its_tools_are_in_the_pool() {
        let weather = json!([
            {"name": "forecast", "description": "Weather forecast for a city", "inputSchema": {}},
            {"name": "alerts", "description": "Severe weather alerts", "inputSchema": {}},
        ]);
        let maps = json!([
            {"name": "route", "description": "Driving route with the weather on the way", "inputSchema": {}},
        ]);
        let news = json!([
            {"name": "headlines", "description": "Top news headlines", "inputSchema": {}},
        ]);
        let together = load_servers([("weather", &weather), ("maps", &maps), ("news", &news)]);
        // The weather server's tools apart, with the maps server's between them: its
        // description says `weather` too.
        let apart: Vec<_> = [0, 2, 1, 3].iter().map(|&i| together[i].clone()).collect();
        for query in ["weather alerts", "city weather route", "news"] {
            assert_eq!(
                scores_by_name(&apart, query),
                scores_by_name(&together, query),
                "{query:?}"
            );
        }
    }
}

//! The ranked strategy: BM25F over a tool's fields, with a server prior.
//!
//! Fields, each with its own weight and length normalization: the tool's name (its parts; for
//! an MCP tool the tool part), the server's name (MCP tools), the search hint, the description,
//! and the parameter names and descriptions from the input schema. Text is lower-cased, split
//! at non-alphanumeric characters and camel-case humps, common English words are dropped, and a
//! light suffix-stripping stemmer folds plurals and verb endings (`searches`, `searching` →
//! `search`).
//!
//! Two server signals are added to every tool of a server, its zero-scoring tools included:
//! [`Weights::server_prior`] times the best BM25F score among the server's tools, and
//! [`Weights::server_doc`] times the BM25 score of the server as one document (all its tools'
//! names and descriptions). A query that fits an API well lifts all of its endpoints, which is
//! how a request that needs two or three endpoints of one API finds the second and third.
//!
//! The defaults were chosen on `shared/eval/stabletoolbench` (see `BENCHMARKS.md`).

use std::collections::HashMap;
use std::sync::Arc;

use crate::pool::ToolInfo;

/// Field weights and BM25 parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Name parts.
    pub name: f32,
    /// Server name parts.
    pub server: f32,
    /// Search hint.
    pub hint: f32,
    /// Description.
    pub description: f32,
    /// Parameter names and descriptions.
    pub params: f32,
    /// BM25 k1.
    pub k1: f32,
    /// BM25 b (length normalization), for every field.
    pub b: f32,
    /// How much of the server's best tool score each of its tools gets.
    pub server_prior: f32,
    /// The weight of the seed score (name parts, hint and description words) added to BM25F,
    /// divided by the square of the number of query terms: it decides short keyword queries
    /// and fades out of long requests.
    pub seed: f32,
    /// How much of the server document's BM25 score (all its tools' names and descriptions as
    /// one document) each of its tools gets.
    pub server_doc: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            name: 3.0,
            server: 1.5,
            hint: 2.0,
            description: 1.0,
            params: 0.5,
            k1: 2.5,
            b: 0.9,
            server_prior: 0.6,
            server_doc: 0.6,
            seed: 3.0,
        }
    }
}

const FIELDS: usize = 5;

const STOP_WORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "do", "does", "for", "from", "get", "give", "has", "have", "how", "i", "if",
    "in", "into", "is", "it", "its", "just", "me", "my", "need", "of", "on", "or", "our", "please",
    "provide", "so", "some", "that", "the", "their", "them", "then", "there", "these", "this",
    "to", "us", "want", "was", "we", "what", "when", "which", "will", "with", "would", "you",
    "your",
];

/// Splits text into normalized terms: lower-cased alphanumeric runs, split at camel-case humps,
/// stop words dropped, light stemming.
pub fn tokenize(text: &str, out: &mut Vec<String>) {
    for run in text.split(|ch: char| !ch.is_alphanumeric()) {
        if run.is_empty() {
            continue;
        }
        let mut start = 0;
        let chars: Vec<(usize, char)> = run.char_indices().collect();
        for window in 1..chars.len() {
            let (prev, cur) = (chars[window - 1].1, chars[window].1);
            let next_lower = chars.get(window + 1).is_some_and(|(_, c)| c.is_lowercase());
            if (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() != cur.is_alphabetic())
            {
                push_term(&run[start..chars[window].0], out);
                start = chars[window].0;
            }
        }
        push_term(&run[start..], out);
    }
}

fn push_term(word: &str, out: &mut Vec<String>) {
    let lower = word.to_lowercase();
    if lower.is_empty() || STOP_WORDS.contains(&lower.as_str()) {
        return;
    }
    out.push(stem(lower));
}

/// Folds common English suffixes: `ies` → `y`; `ches`, `shes`, `sses`, `xes`, `zes` lose `es`;
/// `ing`, `ed` and a plural `s` are dropped.
pub fn stem(mut word: String) -> String {
    let len = word.len();
    if !word.is_ascii() || len <= 3 {
        return word;
    }
    let cut = if word.ends_with("ies") && len > 4 {
        word.truncate(len - 3);
        word.push('y');
        return word;
    } else if ["ches", "shes", "sses", "xes", "zes"]
        .iter()
        .any(|end| word.ends_with(end))
    {
        2
    } else if word.ends_with("ing") && len > 5 {
        3
    } else if word.ends_with("ed") && len > 4 {
        2
    } else if word.ends_with('s') && !["ss", "us", "is"].iter().any(|end| word.ends_with(end)) {
        1
    } else {
        0
    };
    word.truncate(len - cut);
    word
}

fn schema_params(schema: &str, out: &mut Vec<String>) {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(schema) else {
        return;
    };
    if let Some(properties) = value.get("properties").and_then(|p| p.as_object()) {
        for (name, property) in properties {
            tokenize(name, out);
            if let Some(description) = property.get("description").and_then(|d| d.as_str()) {
                tokenize(description, out);
            }
        }
    }
}

/// One tool's field terms.
fn fields(tool: &ToolInfo) -> [Vec<String>; FIELDS] {
    let mut out: [Vec<String>; FIELDS] = Default::default();
    match &tool.mcp {
        Some(mcp) => {
            tokenize(&mcp.tool, &mut out[0]);
            tokenize(&mcp.server, &mut out[1]);
        }
        None => match tool.name.strip_prefix("mcp__") {
            Some(rest) => {
                let (server, name) = rest.split_once("__").unwrap_or(("", rest));
                tokenize(name, &mut out[0]);
                tokenize(server, &mut out[1]);
            }
            None => tokenize(&tool.name, &mut out[0]),
        },
    }
    if let Some(hint) = &tool.search_hint {
        tokenize(hint, &mut out[2]);
    }
    tokenize(&tool.description, &mut out[3]);
    schema_params(&tool.input_schema, &mut out[4]);
    out
}

/// The BM25F index of a set of deferred tools.
#[derive(Debug, Default)]
pub struct RankedIndex {
    weights: Weights,
    /// term → (tool, per-field term frequencies)
    postings: HashMap<Box<str>, Vec<(u32, [u16; FIELDS])>>,
    lengths: Vec<[u16; FIELDS]>,
    average: [f32; FIELDS],
    server_of: Vec<u32>,
    servers: usize,
    server_postings: HashMap<Box<str>, Vec<(u32, u16)>>,
    server_lengths: Vec<u32>,
    server_tools: Vec<Vec<u32>>,
}

impl RankedIndex {
    /// Indexes `deferred` (in pool order).
    pub fn build(deferred: &[Arc<ToolInfo>], weights: Weights) -> RankedIndex {
        let mut index = RankedIndex {
            weights,
            ..Default::default()
        };
        let mut server_ids: HashMap<String, u32> = HashMap::new();
        let mut totals = [0f64; FIELDS];
        for (i, tool) in deferred.iter().enumerate() {
            let server = tool.mcp.as_ref().map_or("", |mcp| mcp.server.as_str());
            let next = server_ids.len() as u32;
            let server_id = *server_ids.entry(server.to_owned()).or_insert(next);
            index.server_of.push(server_id);
            if server_id as usize == index.server_tools.len() {
                index.server_tools.push(Vec::new());
                index.server_lengths.push(0);
            }
            index.server_tools[server_id as usize].push(i as u32);
            let mut counts: HashMap<&str, [u16; FIELDS]> = HashMap::new();
            let tool_fields = fields(tool);
            let mut lengths = [0u16; FIELDS];
            for (field, terms) in tool_fields.iter().enumerate() {
                lengths[field] = terms.len().min(u16::MAX as usize) as u16;
                totals[field] += terms.len() as f64;
                for term in terms {
                    let entry = counts.entry(term.as_str()).or_default();
                    entry[field] = entry[field].saturating_add(1);
                }
            }
            index.lengths.push(lengths);
            for field in [0usize, 1, 3] {
                index.server_lengths[server_id as usize] += tool_fields[field].len() as u32;
                for term in &tool_fields[field] {
                    let list = index
                        .server_postings
                        .entry(term.as_str().into())
                        .or_default();
                    match list.last_mut() {
                        Some((last, tf)) if *last == server_id => *tf = tf.saturating_add(1),
                        _ => list.push((server_id, 1)),
                    }
                }
            }
            for (term, tf) in counts {
                index
                    .postings
                    .entry(term.into())
                    .or_default()
                    .push((i as u32, tf));
            }
        }
        index.servers = server_ids.len();
        let n = deferred.len().max(1) as f64;
        for (average, total) in index.average.iter_mut().zip(totals) {
            *average = ((total / n) as f32).max(1.0);
        }
        index
    }

    fn field_weights(&self) -> [f32; FIELDS] {
        let w = &self.weights;
        [w.name, w.server, w.hint, w.description, w.params]
    }

    /// Ranks tools for a free-text query; indices into the indexed tools, best first, ties in
    /// pool order. `allowed`, when given, restricts the result (for `+required` terms).
    pub fn rank(&self, query: &str, max_results: usize, allowed: Option<&[u32]>) -> Vec<usize> {
        self.rank_scored(query, max_results, allowed)
            .into_iter()
            .map(|(tool, _)| tool)
            .collect()
    }

    /// Like [`rank`](Self::rank), with the scores.
    pub fn rank_scored(
        &self,
        query: &str,
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let mut terms = Vec::new();
        tokenize(query, &mut terms);
        terms.sort();
        terms.dedup();
        let n = self.lengths.len() as f32;
        let field_weights = self.field_weights();
        let mut scores: HashMap<u32, f32> = HashMap::new();
        for term in &terms {
            let Some(postings) = self.postings.get(term.as_str()) else {
                continue;
            };
            let df = postings.len() as f32;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for (tool, tf) in postings {
                let lengths = &self.lengths[*tool as usize];
                let mut weighted = 0.0;
                for field in 0..FIELDS {
                    if tf[field] == 0 {
                        continue;
                    }
                    let norm = 1.0 - self.weights.b
                        + self.weights.b * f32::from(lengths[field]) / self.average[field];
                    weighted += field_weights[field] * f32::from(tf[field]) / norm;
                }
                *scores.entry(*tool).or_default() +=
                    idf * weighted * (self.weights.k1 + 1.0) / (self.weights.k1 + weighted);
            }
        }
        if self.weights.server_doc > 0.0 && self.servers > 1 {
            let servers = self.servers as f32;
            let average = self.server_lengths.iter().map(|&l| l as f32).sum::<f32>() / servers;
            let mut server_scores: HashMap<u32, f32> = HashMap::new();
            for term in &terms {
                let Some(postings) = self.server_postings.get(term.as_str()) else {
                    continue;
                };
                let df = postings.len() as f32;
                let idf = ((servers - df + 0.5) / (df + 0.5) + 1.0).ln();
                for (server, tf) in postings {
                    let norm = 1.0 - self.weights.b
                        + self.weights.b * self.server_lengths[*server as usize] as f32
                            / average.max(1.0);
                    let tf = f32::from(*tf) / norm;
                    *server_scores.entry(*server).or_default() +=
                        idf * tf * (self.weights.k1 + 1.0) / (self.weights.k1 + tf);
                }
            }
            for (server, score) in server_scores {
                for tool in &self.server_tools[server as usize] {
                    *scores.entry(*tool).or_default() += self.weights.server_doc * score;
                }
            }
        }
        if self.weights.server_prior > 0.0 && self.servers > 1 {
            let mut best: HashMap<u32, f32> = HashMap::new();
            for (tool, score) in &scores {
                let entry = best.entry(self.server_of[*tool as usize]).or_default();
                *entry = entry.max(*score);
            }
            for (server, top) in best {
                for tool in &self.server_tools[server as usize] {
                    *scores.entry(*tool).or_default() += self.weights.server_prior * top;
                }
            }
        }
        let mut ranked: Vec<(u32, f32)> = scores
            .into_iter()
            .filter(|(tool, score)| {
                *score > 0.0 && allowed.is_none_or(|list| list.binary_search(tool).is_ok())
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
            .into_iter()
            .take(max_results)
            .map(|(tool, score)| (tool as usize, score))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        tokenize(text, &mut out);
        out
    }

    #[test]
    fn tokenize_splits_camel_case_and_drops_stop_words() {
        assert_eq!(
            terms("getForensicAnalysis of the HTTPServer"),
            ["forensic", "analysis", "http", "server"]
        );
        assert_eq!(terms("search_records v2"), ["search", "record", "v", "2"]);
    }

    #[test]
    fn stem_folds_plurals_and_verb_endings() {
        assert_eq!(stem("searches".into()), "search");
        assert_eq!(stem("queries".into()), "query");
        assert_eq!(stem("searching".into()), "search");
        assert_eq!(stem("class".into()), "class");
    }
}

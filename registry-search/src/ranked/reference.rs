//! The ranked score, computed the slow and obvious way: the readable statement of what
//! [`RankedIndex::score`](super::RankedIndex::score) gives each tool, which the index is
//! tested against.
//!
//! Nothing here is precomputed. Term frequencies are counted in each tool's fields when a
//! query asks for them, each score is written as the formula that defines it, in `f64`, and
//! every tool is scored. The fast path (postings with impacts, scores kept in a tool part and
//! a server part, the two-part top-k) must give the same scores to within rounding, and the
//! same ranking.
//!
//! # The ranked score of a tool for a query
//!
//! **Terms.** A tool's text is read as five fields of terms
//! ([`tokenize`](crate::text::terms::tokenize): lower-cased words cut at case humps, stop words
//! dropped, abbreviations spelled out, stemmed): its name (for an MCP tool, the tool part),
//! its search hint, its description, its parameters (the input schema's property names and
//! descriptions) and its server's name. The query's terms are the distinct terms of its words,
//! with the whole lower-cased form of a word written with case humps (`YouTube` → `youtub`)
//! and the term two adjacent words of letters make as one (`zip code` → `zipcod`). A term
//! weighs `1`, or `1 +` [`Weights::request_clause`] when it is said, at least once, in a
//! request clause (after a request verb such as `find`, to the end of its sentence).
//!
//! **BM25F.** With `N` tools, a term found in any field of `df` of them has
//! `idf = ln((N − df + 0.5) / (df + 0.5) + 1)`. In a tool, the term's frequencies in the
//! fields are weighed by the field weights `w_f` ([`Weights::name`], [`Weights::hint`],
//! [`Weights::description`], [`Weights::params`], [`Weights::server`]) and normalized by
//! each field's length `len_f` against its average over the tools `avg_f` (at least 1):
//!
//! ```text
//! tf~ = Σ_f  w_f · tf_f / (1 − b + b · len_f / avg_f)
//! bm25f(term, tool) = idf · tf~ · (k1 + 1) / (k1 + tf~)
//! ```
//!
//! A tool's *own* score is the sum, over the query's terms, of the term's weight times its
//! `bm25f`.
//!
//! **Server prior.** When the tools come from two servers or more (tools without a server are
//! one group), every tool of a server gets a *share*: [`Weights::server_prior`] times the best
//! own score among the server's tools. A tool's *lexical total* is its own score plus its
//! server's share, and `top` is the best lexical total of any tool. When `top` is 0 every
//! score is 0.
//!
//! **Sentences.** A query of two sentences or more (text up to each `.`, `?`, `!` or `;`, of at
//! least two words; the first 16) adds [`Weights::sentences`] · `top` times the tool's best
//! fraction, over the sentences, of its lexical total for that sentence alone (its terms,
//! BM25F and the server prior) over the best lexical total of that sentence.
//!
//! **Name coverage.** A query term *covers* a name term when the two are equal, or when one
//! begins the other and the shorter has at least five characters. A tool gets
//! [`Weights::name_coverage`] · `top` times the IDF-weighted fraction of its name that the
//! query covers: the sum of `idf · tf_name` over its covered name terms divided by the same
//! sum over all its name terms.
//!
//! **The score** is the lexical total plus the sentence and name-coverage amounts. A ranking
//! keeps the tools with a score above 0, best first, ties in pool order.
//! [`RankedIndex::diversify`](super::RankedIndex::diversify) is a later stage, not part of the
//! score.
//!
//! The index stores field lengths and a name's term frequencies in 16 bits (saturating at
//! 65,535), and the other fields' term frequencies in 8 (saturating at 255); here they are
//! counted in full.

// A test oracle, kept plain: every index is a position in the vector it indexes (a tool below
// the number of tools, a field below `FIELDS`, a server below the number of servers).
#![allow(clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::sync::Arc;

use super::fields::fields;
use super::{FIELDS, NAME, Weights};
use crate::document::Document;
use crate::text::terms::{push_compound, request_words, sentences, tokenize_query};

/// The fewest characters of the shorter of two terms for name coverage to count a term that
/// begins the other.
const PREFIX_CHARS: usize = 5;

/// The tools as the reference reads them: each tool's field terms and server, and what every
/// score needs of the whole pool.
struct Pool {
    /// Each tool's terms, field by field (name, hint, description, parameters, server name).
    fields: Vec<[Vec<String>; FIELDS]>,
    /// Each tool's server, as a number (the first tool's server is 0).
    server: Vec<usize>,
    /// How many servers (tools without one count as one more).
    servers: usize,
    /// Each field's average length over the tools, at least 1.
    average: [f64; FIELDS],
    weights: Weights,
}

impl Pool {
    fn new<D: Document>(tools: &[Arc<D>], weights: Weights) -> Pool {
        let fields: Vec<[Vec<String>; FIELDS]> = tools.iter().map(|tool| fields(&**tool)).collect();
        let mut names: Vec<&str> = Vec::new();
        let server = (tools.iter())
            .map(|tool| {
                let name = tool.server().unwrap_or("");
                match names.iter().position(|known| *known == name) {
                    Some(at) => at,
                    None => {
                        names.push(name);
                        names.len() - 1
                    }
                }
            })
            .collect();
        let n = tools.len().max(1) as f64;
        let mut average = [0.0; FIELDS];
        for (f, average) in average.iter_mut().enumerate() {
            let total: usize = fields.iter().map(|terms| terms[f].len()).sum();
            *average = (total as f64 / n).max(1.0);
        }
        Pool {
            fields,
            server,
            servers: names.len(),
            average,
            weights,
        }
    }

    /// How often `term` is in field `f` of tool `tool`.
    fn tf(&self, tool: usize, f: usize, term: &str) -> usize {
        self.fields[tool][f].iter().filter(|t| *t == term).count()
    }

    /// BM25's IDF of `term`: how rare it is among the tools, any field counting.
    fn idf(&self, term: &str) -> f64 {
        let n = self.fields.len() as f64;
        let df = (0..self.fields.len())
            .filter(|&tool| (0..FIELDS).any(|f| self.tf(tool, f, term) > 0))
            .count() as f64;
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// BM25F of one term in one tool.
    fn bm25f(&self, tool: usize, term: &str) -> f64 {
        let w = self.weights;
        let field_weights = [w.name, w.hint, w.description, w.params, w.server];
        let (k1, b) = (f64::from(w.k1), f64::from(w.b));
        let mut tf = 0.0;
        for (f, weight) in field_weights.into_iter().enumerate() {
            let length = self.fields[tool][f].len() as f64;
            let norm = 1.0 - b + b * length / self.average[f];
            tf += f64::from(weight) * self.tf(tool, f, term) as f64 / norm;
        }
        if tf == 0.0 {
            return 0.0;
        }
        self.idf(term) * tf * (k1 + 1.0) / (k1 + tf)
    }

    /// Every tool's lexical total for weighted terms: its own BM25F score plus its server's
    /// share of the best own score among the server's tools.
    fn lexical(&self, terms: &[(String, f64)]) -> Vec<f64> {
        let tools = 0..self.fields.len();
        let own: Vec<f64> = (tools.clone())
            .map(|tool| {
                (terms.iter())
                    .map(|(term, weight)| weight * self.bm25f(tool, term))
                    .sum()
            })
            .collect();
        if self.servers < 2 {
            return own;
        }
        let mut best = vec![0.0f64; self.servers];
        for tool in tools.clone() {
            best[self.server[tool]] = best[self.server[tool]].max(own[tool]);
        }
        let prior = f64::from(self.weights.server_prior);
        (tools)
            .map(|tool| own[tool] + prior * best[self.server[tool]])
            .collect()
    }

    /// The IDF-weighted fraction of tool `tool`'s name terms that `terms` cover.
    fn name_coverage(&self, tool: usize, terms: &[(String, f64)]) -> f64 {
        let mut name: Vec<&String> = self.fields[tool][NAME].iter().collect();
        name.sort();
        name.dedup();
        let (mut covered, mut whole) = (0.0, 0.0);
        for term in name {
            let mass = self.idf(term) * self.tf(tool, NAME, term) as f64;
            whole += mass;
            if terms.iter().any(|(query, _)| covers(query, term)) {
                covered += mass;
            }
        }
        match whole > 0.0 {
            true => covered / whole,
            false => 0.0,
        }
    }

    /// Every tool's score for `query`.
    fn scores(&self, query: &str) -> Vec<f64> {
        let w = self.weights;
        let terms = query_terms(query, w);
        let mut scores = self.lexical(&terms);
        let top = scores.iter().copied().fold(0.0, f64::max);
        if top <= 0.0 {
            return scores;
        }
        let parts = sentences(query);
        if parts.len() >= 2 {
            let mut best = vec![0.0f64; scores.len()];
            for part in parts {
                let totals = self.lexical(&query_terms(part, w));
                let part_top = totals.iter().copied().fold(0.0, f64::max);
                if part_top <= 0.0 {
                    continue;
                }
                for (best, total) in best.iter_mut().zip(totals) {
                    *best = best.max(total / part_top);
                }
            }
            for (score, best) in scores.iter_mut().zip(best) {
                *score += f64::from(w.sentences) * top * best;
            }
        }
        for (tool, score) in scores.iter_mut().enumerate() {
            *score += f64::from(w.name_coverage) * top * self.name_coverage(tool, &terms);
        }
        scores
    }
}

/// Whether query term `query` covers name term `name`: they are equal, or one begins the
/// other and the shorter has at least [`PREFIX_CHARS`] characters.
fn covers(query: &str, name: &str) -> bool {
    let long_enough = |term: &str| term.chars().count() >= PREFIX_CHARS;
    query == name
        || (name.starts_with(query) && long_enough(query))
        || (query.starts_with(name) && long_enough(name))
}

/// A query's distinct terms, each with its weight: `1`, or `1 +` [`Weights::request_clause`]
/// when it is said at least once in a request clause.
fn query_terms(query: &str, weights: Weights) -> Vec<(String, f64)> {
    let mut in_clause: BTreeMap<String, bool> = BTreeMap::new();
    let mut previous = "";
    for (word, clause) in request_words(query) {
        let mut terms = Vec::new();
        tokenize_query(word, &mut terms);
        push_compound(previous, word, &mut terms);
        previous = word;
        for term in terms {
            *in_clause.entry(term).or_default() |= clause;
        }
    }
    let boost = 1.0 + f64::from(weights.request_clause);
    (in_clause.into_iter())
        .map(|(term, clause)| (term, if clause { boost } else { 1.0 }))
        .collect()
}

/// Every tool's ranked score for `query` over `tools` (the indexed tools, in pool order): what
/// [`RankedScores::of`](super::RankedScores::of) gives each, computed directly.
///
/// ```
/// use std::sync::Arc;
///
/// use toolreg_search::ToolDoc;
/// use toolreg_search::ranked::{RankedIndex, Weights, reference};
///
/// let pool = [("weather_now", "Current weather"), ("hotel_search", "Hotels")]
///     .map(|(name, description)| Arc::new(ToolDoc::new(name, description)));
/// let slow = reference::scores(&pool, Weights::default(), "weather");
/// let index = RankedIndex::build(&pool, Weights::default());
/// let fast = index.score("weather");
/// assert!((slow[0] - f64::from(fast.of(0))).abs() < 1e-4 * slow[0]);
/// assert_eq!(slow[1], 0.0);
/// ```
pub fn scores<D: Document>(tools: &[Arc<D>], weights: Weights, query: &str) -> Vec<f64> {
    Pool::new(tools, weights).scores(query)
}

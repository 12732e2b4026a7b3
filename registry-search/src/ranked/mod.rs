//! The BM25F strategy: BM25F over a tool's fields, with server signals and request analysis.
//!
//! Fields, each with its own weight and length normalization: the tool's name (its parts; for
//! an MCP tool the tool part), the search hint, the description, the parameter names and
//! descriptions from the input schema, and the server's name, weighed as the tool's name: a
//! request that names the server ("notion", "github", "sqlite") names each of its tools,
//! whatever the server's size. Text is lower-cased, split
//! at non-alphanumeric characters and camel-case humps, common English words are dropped (NLTK's list), a few
//! abbreviations common in API texts are spelled out (`info`, `stats`, `img`), and the Snowball
//! English stemmer folds plurals and verb endings (`searches`, `searching` → `search`): the
//! analysis of `text::analysis`.
//! A query term weighs its IDF, once however often the query says it.
//!
//! Queries are analyzed from the text as typed, before any lower-casing, with three additions:
//! - a word written with case humps gives its whole lower-cased form as well as its parts
//!   (`YouTube` → `you`, `tube`, `youtube`): tool names write such words both ways (`YouTube
//!   Video Summarizer`, `Youtube Search`), and a query cannot tell which;
//! - a term said in a request clause, after a request verb such as `find`, `fetch` or `provide`
//!   and up to the end of its sentence, weighs [`Weights::request_clause`] more than one in the
//!   story around it (`I'm a film enthusiast… Can you search for videos on Vimeo?`);
//! - two adjacent words of letters also give the term they make as one word (`zip code` →
//!   `zipcode`): tool names write as one word what requests write as two.
//!
//! One server signal is added to every tool of a server, its zero-scoring tools included:
//! [`Weights::server_prior`] times the best score among the server's tools. A query that fits
//! an API well lifts all of its endpoints, which is how a request that needs two or three
//! endpoints of one API finds the second and third. (A second one, the BM25 score of the
//! server as one document, was removed: its score depended on the server's size, so in a pool
//! of unrelated servers it lifted or sank tools by how many siblings they had. Switched off, the
//! held-out MCP requests gained +0.045 recall@5 in the pool of all four retrieval sets; see
//! `docs/benchmarks-history.md`, "How the ranked strategy's signals were chosen".)
//!
//! Two signals read the request as a whole. Each adds a share of the best tool's score, so
//! they keep their strength in short and long queries alike:
//! - **sentences** ([`Weights::sentences`]): a request of several sentences usually asks for
//!   one thing per sentence. Each sentence is scored on its own, and a tool gets its best
//!   fraction of a sentence's top score, so the tool that answers a short second sentence is
//!   not buried under the many matches of the first. The first 16 sentences of at least two
//!   words are scored this way.
//! - **name coverage** ([`Weights::name_coverage`]): the IDF-weighted fraction of the tool's
//!   name terms that the query contains. A request that names `Title Details` in full favours
//!   that tool over one that shares a single word with it. Here a query term also contains a
//!   name term it begins or that begins it, the shorter having five characters or more: a
//!   request for a `URL shortener` names the tool `shorten`, one about `transfers` names
//!   `Transfermarkt search` (only this signal reads terms so loosely: BM25F matching that
//!   way ranked worse).
//!
//! BM25's `k1` and `b` are the usual 1.2 and 0.75: the values tuned on one set (2.5, 0.9)
//! marked down the long descriptions of one set's tools where short ones of another set
//! filled the pool. The other defaults were chosen on `data/eval/stabletoolbench`; a signal
//! stays only where switching it off loses recall on the held-out sets beyond the noise
//! (`BENCHMARKS.md`, the `ablation` and `signals` examples). The server name in the name field,
//! the server document off and the usual `k1` and `b` were chosen on the odd half of the
//! requests of `data/eval/mcp_servers` in pools joined with the other sets (the `signals`
//! example's `--dev`); the even half is held out.
//!
//! The score of one tool is stated once, plainly, in the `reference` module: the same signals
//! computed from each tool's fields with no postings, impacts or two-part scores, which the
//! tests hold this index to (scores and top-k order, on random pools).

mod counts;
mod coverage;
mod diversify;
mod fields;
mod postings;
#[cfg(any(test, feature = "internals"))]
pub mod reference;
#[cfg(test)]
mod reference_tests;
mod score;

use std::collections::HashMap as StdHashMap;
use std::sync::Arc;

pub use crate::text::analysis::stem;
pub use crate::text::terms::tokenize;

use self::counts::Counts;
use self::fields::fields;
use self::postings::{MAX_TOOLS, TermPostings};
use crate::document::Document;
use crate::util::dense::{Buffers, Dense, Lease};
use crate::util::sorted::SortedStrs;

/// The BM25F strategy's maps, hashed with foldhash (the keys are the pool's own text and
/// indices; iteration order never decides a result).
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::RandomState>;

/// Field weights, BM25 parameters and the weights of the server and request signals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Name parts.
    pub name: f32,
    /// Search hint.
    pub hint: f32,
    /// Description.
    pub description: f32,
    /// Parameter names and descriptions.
    pub params: f32,
    /// The server's name, a field of each of its tools: a request that names the server
    /// (`notion`, `github`, `sqlite`) names each of its tools, whatever the server's size.
    pub server: f32,
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
    /// The weight of a tool's best fraction of one sentence's top score (requests of two or
    /// more sentences).
    pub sentences: f32,
    /// The weight of the IDF-weighted fraction of a tool's name terms found in the query
    /// (a name term is found when a query term equals it, or begins it or is begun by it
    /// with five characters or more).
    pub name_coverage: f32,
    /// How much more a query term weighs when it is said in a request clause (after a request
    /// verb, to the end of its sentence): its weight is multiplied by `1 + request_clause`.
    pub request_clause: f32,
    /// How much of its score a tool loses, at most, for matching only query terms that the
    /// tools ranked above it match too ([`RankedIndex::diversify`]).
    pub redundancy: f32,
    /// With an embedder ([`crate::semantic`]): the weight of the cosine of the query's and a
    /// tool's embeddings against the lexical score divided by the query's best.
    pub semantic: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            name: 2.0,
            hint: 2.0,
            description: 1.0,
            params: 0.5,
            server: 2.0,
            k1: 1.2,
            b: 0.75,
            server_prior: 0.6,
            seed: 4.0,
            sentences: 0.4,
            name_coverage: 0.2,
            request_clause: 0.33,
            redundancy: 0.1,
            semantic: 0.3,
        }
    }
}

/// Name, hint, description, parameters, server name.
const FIELDS: usize = 5;
/// The name field.
const NAME: usize = 0;
/// The description field.
const DESCRIPTION: usize = 2;

/// BM25's IDF of a term found in `df` of `n` documents.
fn idf(n: f32, df: f32) -> f32 {
    ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
}

/// The BM25F index of a set of deferred tools.
#[derive(Debug, Default)]
pub struct RankedIndex {
    weights: Weights,
    /// term → the tools that have it, in pool order
    postings: HashMap<Box<str>, TermPostings>,
    lengths: Vec<[u16; FIELDS]>,
    average: [f32; FIELDS],
    /// Σ IDF × term frequency over each tool's name terms: what full name coverage adds up to.
    name_mass: Vec<f32>,
    /// The distinct terms of the tools' names, sorted: name coverage looks up the terms that
    /// begin a query term, or that a query term begins.
    name_terms: SortedStrs,
    server_of: Vec<u32>,
    servers: usize,
    server_tools: Vec<Vec<u32>>,
    /// Query-time arrays, kept between queries.
    buffers: Buffers,
}

impl RankedIndex {
    /// Indexes `deferred` (in pool order), at most 2^30 tools.
    pub fn build<D: Document>(deferred: &[Arc<D>], weights: Weights) -> RankedIndex {
        assert!(
            deferred.len() <= MAX_TOOLS,
            "a BM25F index holds at most {MAX_TOOLS} tools"
        );
        let mut index = RankedIndex {
            weights,
            ..Default::default()
        };
        let mut server_ids: HashMap<String, u32> = HashMap::default();
        let mut counts = Counts::default();
        let mut totals = [0f64; FIELDS];
        for (i, tool) in deferred.iter().enumerate() {
            let server = tool.server().unwrap_or("");
            let next = server_ids.len() as u32;
            let server_id = *server_ids.entry(server.to_owned()).or_insert(next);
            index.server_of.push(server_id);
            let tool_fields = fields(&**tool);
            if server_id as usize == index.server_tools.len() {
                index.server_tools.push(Vec::new());
            }
            // `server_id` is a new server's id only when it is the number of servers so far.
            if let Some(tools) = index.server_tools.get_mut(server_id as usize) {
                tools.push(i as u32);
            }
            let mut lengths = [0u16; FIELDS];
            let per_field = tool_fields.iter().zip(&mut lengths).zip(&mut totals);
            for (field, ((terms, length), total)) in per_field.enumerate() {
                *length = terms.len().min(u16::MAX as usize) as u16;
                *total += terms.len() as f64;
                for term in terms {
                    counts.add(term, field);
                }
            }
            index.lengths.push(lengths);
            counts.end_tool();
        }
        index.servers = server_ids.len();
        let n = deferred.len().max(1) as f64;
        for (average, total) in index.average.iter_mut().zip(totals) {
            *average = ((total / n) as f32).max(1.0);
        }
        index.postings = counts.postings(
            &index.lengths,
            index.average,
            index.field_weights(),
            weights,
        );
        // The name terms in order, so that each tool's name mass is summed in the same order
        // on every run (the map's order changes from one process to the next).
        let mut named: Vec<_> = (index.postings.iter())
            .filter(|(_, postings)| postings.list().iter().any(|posting| posting.in_name()))
            .collect();
        named.sort_unstable_by(|a, b| a.0.cmp(b.0));
        index.name_mass = vec![0.0; deferred.len()];
        for (_, postings) in &named {
            let idf = idf(n as f32, postings.len() as f32);
            for (tool, name_tf) in postings.named() {
                if let Some(mass) = index.name_mass.get_mut(tool as usize) {
                    *mass += idf * f32::from(name_tf);
                }
            }
        }
        index.name_terms =
            SortedStrs::new(named.into_iter().map(|(term, _)| term.clone()).collect());
        index
    }

    fn field_weights(&self) -> [f32; FIELDS] {
        let w = &self.weights;
        [w.name, w.hint, w.description, w.params, w.server]
    }

    /// How many tools the index holds.
    fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Scores a free-text query over every indexed tool.
    pub fn score(&self, query: &str) -> RankedScores<'_> {
        let terms = self.query_terms(query);
        RankedScores {
            index: self,
            scored: self.score_request(query, &terms),
            terms,
        }
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
        self.score(query).top(max_results, allowed)
    }
}

/// One query's scores over the indexed tools, from [`RankedIndex::score`]: ask for the best
/// tools, or for any one tool's score, as often as needed without scoring the query again.
#[derive(Debug)]
pub struct RankedScores<'a> {
    index: &'a RankedIndex,
    scored: score::Scored<'a>,
    /// The query's weighted terms, for [`diversify`](Self::diversify).
    terms: Vec<(String, f32)>,
}

impl RankedScores<'_> {
    /// The best `k` tools with a positive score, restricted to `allowed` (sorted) when given;
    /// best first, ties in pool order.
    pub fn top(&self, k: usize, allowed: Option<&[u32]>) -> Vec<(usize, f32)> {
        self.scored.top_k(self.index, k, allowed, None)
    }

    /// Like [`top`](Self::top), with each tool's score raised by `weight` times its amount in
    /// `extra` (one amount per indexed tool).
    pub(crate) fn top_plus(
        &self,
        k: usize,
        allowed: Option<&[u32]>,
        extra: &Dense,
        weight: f32,
    ) -> Vec<(usize, f32)> {
        self.scored
            .top_k(self.index, k, allowed, Some((extra, weight)))
    }

    /// How many tools the query's postings gave a score of their own: about what scoring
    /// the query visited.
    pub(crate) fn scored_tools(&self) -> usize {
        self.scored.tools.touched().len()
    }

    /// Zeros, one per indexed tool, for the length of the lease (from the index's buffers).
    pub(crate) fn scratch(&self) -> Lease<'_> {
        self.index.buffers.tools(self.index.len())
    }

    /// Tool `tool`'s score (0 for a tool that matched nothing).
    pub fn of(&self, tool: usize) -> f32 {
        self.scored.total(self.index, tool as u32)
    }

    /// [`RankedIndex::diversify`] for this query, without analyzing it again.
    pub fn diversify(&self, candidates: &[(usize, f32)], k: usize) -> Vec<usize> {
        self.index.diversify_terms(&self.terms, candidates, k)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::{RankedIndex, Weights};
    use crate::testing::load_servers;

    #[test]
    fn name_mass_is_summed_in_the_same_order_on_every_build() {
        // Names of many terms with many different IDFs, whose float sum depends on its order;
        // every build hashes the terms with other keys.
        let words = [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
            "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon",
        ];
        let tools: Vec<_> = (0..words.len())
            .map(|i| {
                let name: Vec<&str> = (0..=i).map(|j| words[(i * 7 + j) % words.len()]).collect();
                json!({"name": name.join("_"), "description": "", "inputSchema": {}})
            })
            .collect();
        let tools = serde_json::Value::Array(tools);
        let pool: Vec<Arc<_>> = load_servers([("s", &tools)]);
        let bits = |index: &RankedIndex| -> Vec<u32> {
            index.name_mass.iter().map(|mass| mass.to_bits()).collect()
        };
        let first = bits(&RankedIndex::build(&pool, Weights::default()));
        for _ in 0..20 {
            assert_eq!(bits(&RankedIndex::build(&pool, Weights::default())), first);
        }
    }
}

//! Query-time scoring of the BM25F strategy.
//!
//! The server signals give every tool of a server the same amount, and in a large pool most of
//! a matching server's tools match nothing themselves. So scores are kept in two parts: what a
//! tool earns itself, and what every tool of its server gets. Ranking then looks at the tools
//! that earned something, plus, for each server with a share, only its first `k` other tools
//! in pool order (they tie, and ties go to pool order), which is exact and touches a few tools
//! per server instead of all of them.

use std::collections::BinaryHeap;

use super::RankedIndex;
use crate::collector::{best_k, key, sorted, unkey};
use crate::text::terms::{push_compound, request_words, sentences, tokenize_query};
use crate::util::dense::{Dense, Lease};

/// Scores in two parts: a tool's total is `tools[tool] + servers[its server]`.
#[derive(Debug)]
pub(super) struct Scored<'a> {
    /// What each tool earned itself.
    pub(super) tools: Lease<'a>,
    /// What every tool of a server gets.
    servers: Lease<'a>,
}

impl<'a> Scored<'a> {
    fn new(index: &'a RankedIndex) -> Self {
        Scored {
            tools: index.buffers.tools(index.len()),
            servers: index.buffers.servers(index.servers),
        }
    }

    fn clear(&mut self) {
        self.tools.clear();
        self.servers.clear();
    }

    fn server_share(&self, index: &RankedIndex, tool: u32) -> f32 {
        (index.server_of.get(tool as usize)).map_or(0.0, |server| self.servers.get(*server))
    }

    /// Tool `tool`'s total.
    pub(super) fn total(&self, index: &RankedIndex, tool: u32) -> f32 {
        self.tools.get(tool) + self.server_share(index, tool)
    }

    /// The best total of any tool.
    fn top(&self, index: &RankedIndex) -> f32 {
        let tools = (self.tools.touched().iter()).map(|&tool| self.total(index, tool));
        let servers = (self.servers.touched().iter()).map(|&server| self.servers.get(server));
        tools.chain(servers).fold(0.0, f32::max)
    }

    /// The best `k` tools with a positive total, restricted to `allowed` when given; best
    /// first, ties in pool order.
    ///
    /// With `extra`, an amount per tool and its weight, a tool's total is its total plus the
    /// weight times its amount.
    pub(super) fn top_k(
        &self,
        index: &RankedIndex,
        k: usize,
        allowed: Option<&[u32]>,
        extra: Option<(&Dense, f32)>,
    ) -> Vec<(usize, f32)> {
        let admitted = |tool: &u32| allowed.is_none_or(|list| list.binary_search(tool).is_ok());
        let earned = (self.tools.touched().iter())
            .filter(|tool| admitted(tool))
            .map(|&tool| (tool, self.total(index, tool)));
        let mut ranked = match extra {
            None => best_k(earned, k),
            Some((extra, weight)) => {
                let plus = |(tool, total): (u32, f32)| (tool, total + weight * extra.get(tool));
                // The tools with an extra amount that earned nothing themselves.
                let more = (extra.touched().iter())
                    .filter(|&&tool| self.tools.get(tool) == 0.0 && admitted(&tool))
                    .map(|&tool| (tool, self.total(index, tool)));
                best_k(earned.chain(more).map(plus), k)
            }
        };
        let unscored = |tool: u32| {
            self.tools.get(tool) == 0.0 && extra.is_none_or(|(extra, _)| extra.get(tool) == 0.0)
        };
        // The `k`-th best of the tools that earned something: a server whose share is below
        // it lifts none of its other tools into the result.
        let floor = match k > 0 && ranked.len() >= k {
            true => ranked.iter().min().map_or(0.0, |&kept| unkey(kept).1),
            false => 0.0,
        };
        // A server's share goes to each of its tools that earned nothing: they tie, so only
        // the first `k` in pool order can place, and only servers whose share can still beat
        // the `k`-th such tool taken so far. Servers are visited by share, highest first.
        // A heap of keys (highest share, then lowest server, first), as the loop usually
        // stops after a few of many servers.
        let mut servers: BinaryHeap<u64> = (self.servers.touched().iter())
            .map(|&server| (server, self.servers.get(server)))
            .filter(|(_, share)| *share >= floor)
            .map(|(server, share)| key(server, share))
            .collect();
        let mut others = 0;
        let mut kth = f32::INFINITY;
        while let Some((server, share)) = servers.pop().map(unkey) {
            if others >= k && share < kth {
                break;
            }
            let tools = index.server_tools.get(server as usize);
            let unscored = (tools.map(Vec::as_slice).unwrap_or_default())
                .iter()
                .filter(|&&tool| unscored(tool) && admitted(&tool))
                .take(k);
            let before = ranked.len();
            ranked.extend(unscored.map(|&tool| key(tool, share)));
            others += ranked.len() - before;
            if others >= k {
                kth = kth.min(share);
            }
        }
        ranked.retain(|&kept| unkey::<f32>(kept).1 > 0.0);
        sorted(&mut ranked, k)
    }
}

impl RankedIndex {
    /// BM25F, the server signals and the request signals for a whole query, whose terms
    /// ([`query_terms`](Self::query_terms)) are `terms`.
    pub(super) fn score_request(&self, query: &str, terms: &[(String, f32)]) -> Scored<'_> {
        let mut scored = Scored::new(self);
        let top = self.score_terms(terms, &mut scored);
        if top > 0.0 {
            self.add_sentences(query, top, &mut scored);
            self.add_name_coverage(terms, top, &mut scored);
        }
        scored
    }

    /// A query's distinct terms, the compounds of adjacent words among them (`zip code` →
    /// `zipcode`), each with its weight: 1, or `1 +` [`Weights::request_clause`] when it is said
    /// in a request clause.
    ///
    /// [`Weights::request_clause`]: super::Weights::request_clause
    pub(super) fn query_terms(&self, text: &str) -> Vec<(String, f32)> {
        let mut terms: Vec<(String, bool)> = Vec::new();
        let mut words = Vec::new();
        let mut previous = "";
        for (word, in_clause) in request_words(text) {
            tokenize_query(word, &mut words);
            push_compound(previous, word, &mut words);
            previous = word;
            terms.extend(words.drain(..).map(|term| (term, in_clause)));
        }
        terms.sort_unstable();
        // (term, said in a clause)
        let mut distinct: Vec<(String, bool)> = Vec::with_capacity(terms.len());
        for (term, in_clause) in terms {
            match distinct.last_mut() {
                Some((last, clause)) if *last == term => *clause |= in_clause,
                _ => distinct.push((term, in_clause)),
            }
        }
        let clause_boost = 1.0 + self.weights.request_clause;
        distinct
            .into_iter()
            .map(|(term, clause)| (term, if clause { clause_boost } else { 1.0 }))
            .collect()
    }

    /// BM25F plus the server prior, for weighted terms, into `scored` (empty); returns the
    /// best total of any tool.
    fn score_terms(&self, terms: &[(String, f32)], scored: &mut Scored) -> f32 {
        if self.servers < 2 {
            self.add_postings(terms, scored, None);
            return scored.top(self);
        }
        let mut best_own = self.buffers.servers(self.servers);
        self.add_postings(terms, scored, Some(&mut best_own));
        self.add_shares(scored, &best_own)
    }

    /// Adds each term's impacts, times the term's weight, to the tools that have it, and with
    /// `best_own` raises each server's best own score to its tools' sums so far: a tool's sum
    /// only grows, so after its last term the server's best is its best tool's total.
    ///
    /// This step and the next are kept out of line: inlined into `score_terms`, their loops
    /// compiled to more instructions per query (`docs/benchmarks-history.md`, "Ranked latency:
    /// what is kept").
    #[inline(never)]
    fn add_postings(
        &self,
        terms: &[(String, f32)],
        scored: &mut Scored,
        best_own: Option<&mut Dense>,
    ) {
        let lists = (terms.iter())
            .filter_map(|(term, weight)| Some((self.postings.get(term.as_str())?, *weight)));
        match best_own {
            None => {
                for (postings, weight) in lists {
                    for posting in postings.list() {
                        scored.tools.add(posting.tool(), posting.impact * weight);
                    }
                }
            }
            Some(best_own) => {
                for (postings, weight) in lists {
                    for posting in postings.list() {
                        let tool = posting.tool();
                        let own = scored.tools.add_get(tool, posting.impact * weight);
                        if let Some(&server) = self.server_of.get(tool as usize) {
                            best_own.raise(server, own);
                        }
                    }
                }
            }
        }
    }

    /// Gives each server with a scoring tool its share, [`Weights::server_prior`] times its
    /// best tool's own score (`best_own`). Returns the best total of any tool.
    ///
    /// [`Weights::server_prior`]: super::Weights::server_prior
    #[inline(never)]
    fn add_shares(&self, scored: &mut Scored, best_own: &Dense) -> f32 {
        let mut top = 0f32;
        for &server in best_own.touched() {
            let own = best_own.get(server);
            let share = self.weights.server_prior * own;
            scored.servers.add(server, share);
            // A server's best tool totals its own best plus the share (adding the same share
            // to each of its tools keeps their order, rounding included).
            top = top.max(own + share.max(0.0));
        }
        top
    }

    /// [`Weights::sentences`] × `top` × each tool's best fraction of a sentence's top score.
    ///
    /// [`Weights::sentences`]: super::Weights::sentences
    fn add_sentences(&self, query: &str, top: f32, scored: &mut Scored) {
        let parts = sentences(query);
        let weight = self.weights.sentences * top;
        if weight <= 0.0 || parts.len() < 2 {
            return;
        }
        // A tool's best fraction is the larger of its own best (sentences it matched) and its
        // server's best (sentences where only the server signals reached it).
        let mut tools = self.buffers.tools(self.len());
        let mut servers = self.buffers.servers(self.servers);
        let mut sentence = Scored::new(self);
        for part in parts {
            sentence.clear();
            let top = self.score_terms(&self.query_terms(part), &mut sentence);
            if top <= 0.0 {
                continue;
            }
            for &tool in sentence.tools.touched() {
                tools.raise(tool, sentence.total(self, tool) / top);
            }
            for &server in sentence.servers.touched() {
                servers.raise(server, sentence.servers.get(server) / top);
            }
        }
        for &tool in tools.touched() {
            let floor = (self.server_of.get(tool as usize)).map_or(0.0, |s| servers.get(*s));
            scored
                .tools
                .add(tool, weight * (tools.get(tool) - floor).max(0.0));
        }
        for &server in servers.touched() {
            scored.servers.add(server, weight * servers.get(server));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::ranked::Weights;
    use crate::testing::load_servers;

    /// Every tool's total, computed one by one.
    fn materialized(
        scored: &Scored,
        index: &RankedIndex,
        k: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let mut all: Vec<(u32, f32)> = (0..index.lengths.len() as u32)
            .filter(|tool| allowed.is_none_or(|list| list.contains(tool)))
            .map(|tool| (tool, scored.total(index, tool)))
            .filter(|(_, score)| *score > 0.0)
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.into_iter()
            .take(k)
            .map(|(tool, score)| (tool as usize, score))
            .collect()
    }

    #[test]
    fn two_part_top_k_equals_scoring_every_tool() {
        const WORDS: [&str; 8] = [
            "weather", "forecast", "city", "email", "send", "track", "album", "lyrics",
        ];
        let servers: Vec<(String, Value)> = (0..4)
            .map(|s| {
                let tools = (0..15)
                    .map(|t| {
                        let name = format!("{} {} {t}", WORDS[(s + t) % 8], WORDS[(3 * t) % 8]);
                        let description = WORDS[(s * t) % 8];
                        json!({"name": name, "description": description, "inputSchema": {}})
                    })
                    .collect();
                (format!("Server {s} {}", WORDS[s]), Value::Array(tools))
            })
            .collect();
        let pool: Vec<Arc<_>> = load_servers(servers.iter().map(|(s, v)| (s.as_str(), v)));
        let index = RankedIndex::build(&pool, Weights::default());
        let allowed: Vec<u32> = (0..pool.len() as u32).filter(|t| t % 3 != 0).collect();
        for query in [
            "weather",
            "send an email. Then the album lyrics!",
            "forecast for the city from Server 2 weather",
            "nothing matches this",
        ] {
            let scored = index.score_request(query, &index.query_terms(query));
            for k in [1, 3, 5, 20, 100] {
                for allowed in [None, Some(allowed.as_slice())] {
                    assert_eq!(
                        scored.top_k(&index, k, allowed, None),
                        materialized(&scored, &index, k, allowed),
                        "{query:?} k={k}"
                    );
                }
            }
        }
    }
}

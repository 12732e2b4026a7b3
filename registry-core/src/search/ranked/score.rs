//! Query-time scoring of the ranked strategy.
//!
//! The server signals give every tool of a server the same amount, and in a large pool most of
//! a matching server's tools match nothing themselves. So scores are kept in two parts: what a
//! tool earns itself, and what every tool of its server gets. Ranking then looks at the tools
//! that earned something, plus, for each server with a share, only its first `k` other tools
//! in pool order (they tie, and ties go to pool order), which is exact and touches a few tools
//! per server instead of all of them.

use super::analyze::{push_compound, request_words, sentences, tokenize_query};
use super::{HashMap, NAME, RankedIndex, idf};

/// The fewest characters of the shorter of two terms for name coverage to count one that
/// begins the other (`short` and `shortener`), so that short words do not reach far
/// (`art` and `artist`).
const PREFIX_CHARS: usize = 5;

/// From a prefix of this many bytes, [`RankedIndex::name_terms_matching`] stops at one that no
/// name term begins with.
const LONG_PREFIX: usize = 32;

/// Amounts by tool or by server index.
type Scores = HashMap<u32, f32>;

/// Scores in two parts: a tool's total is `tools[tool] + servers[its server]`.
#[derive(Debug, Default)]
pub(super) struct Scored {
    /// What each tool earned itself.
    tools: Scores,
    /// What every tool of a server gets.
    servers: Scores,
}

impl Scored {
    fn server_share(&self, index: &RankedIndex, tool: u32) -> f32 {
        (index.server_of.get(tool as usize))
            .and_then(|server| self.servers.get(server))
            .copied()
            .unwrap_or(0.0)
    }

    /// Tool `tool`'s total.
    pub(super) fn total(&self, index: &RankedIndex, tool: u32) -> f32 {
        self.tools.get(&tool).copied().unwrap_or(0.0) + self.server_share(index, tool)
    }

    /// The best total of any tool.
    fn top(&self, index: &RankedIndex) -> f32 {
        let tools = self
            .tools
            .iter()
            .map(|(tool, own)| own + self.server_share(index, *tool));
        tools
            .chain(self.servers.values().copied())
            .fold(0.0, f32::max)
    }

    /// The best `k` tools with a positive total, restricted to `allowed` when given; best
    /// first, ties in pool order.
    pub(super) fn top_k(
        &self,
        index: &RankedIndex,
        k: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let admitted = |tool: &u32| allowed.is_none_or(|list| list.binary_search(tool).is_ok());
        let mut ranked: Vec<(u32, f32)> = self
            .tools
            .iter()
            .filter(|(tool, _)| admitted(tool))
            .map(|(tool, own)| (*tool, own + self.server_share(index, *tool)))
            .collect();
        for (server, share) in &self.servers {
            let tools = index.server_tools.get(*server as usize);
            let others = (tools.map(Vec::as_slice).unwrap_or_default())
                .iter()
                .filter(|tool| !self.tools.contains_key(tool) && admitted(tool))
                .take(k);
            ranked.extend(others.map(|tool| (*tool, *share)));
        }
        ranked.retain(|(_, score)| *score > 0.0);
        let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if ranked.len() > k && k > 0 {
            ranked.select_nth_unstable_by(k - 1, order);
            ranked.truncate(k);
        }
        ranked.sort_by(order);
        ranked
            .into_iter()
            .take(k)
            .map(|(tool, score)| (tool as usize, score))
            .collect()
    }
}

impl RankedIndex {
    /// BM25F, the server signals and the request signals for a whole query, whose terms
    /// ([`query_terms`](Self::query_terms)) are `terms`.
    pub(super) fn score_request(&self, query: &str, terms: &[(String, f32)]) -> Scored {
        let mut scored = self.score_terms(terms);
        let top = scored.top(self);
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

    /// BM25F plus the two server signals, for weighted terms.
    fn score_terms(&self, terms: &[(String, f32)]) -> Scored {
        let w = &self.weights;
        let n = self.lengths.len() as f32;
        let field_weights = self.field_weights();
        let mut scored = Scored::default();
        for (term, query_weight) in terms {
            let Some(postings) = self.postings.get(term.as_str()) else {
                continue;
            };
            let weight = idf(n, postings.len() as f32) * query_weight;
            for (tool, tf) in postings {
                let Some(lengths) = self.lengths.get(*tool as usize) else {
                    continue;
                };
                let mut weighted = 0.0;
                let fields = tf
                    .iter()
                    .zip(lengths)
                    .zip(&self.average)
                    .zip(&field_weights);
                for (((&tf, &length), &average), &field_weight) in fields {
                    if tf == 0 {
                        continue;
                    }
                    let norm = 1.0 - w.b + w.b * f32::from(length) / average;
                    weighted += field_weight * f32::from(tf) / norm;
                }
                *scored.tools.entry(*tool).or_default() +=
                    weight * weighted * (w.k1 + 1.0) / (w.k1 + weighted);
            }
        }
        if self.servers < 2 {
            return scored;
        }
        let documents = if w.server_doc > 0.0 {
            self.server_documents(terms)
        } else {
            Scores::default()
        };
        // The prior is a share of the best total among the server's tools, the server
        // document's share included.
        let mut best: Scores = documents
            .iter()
            .map(|(s, doc)| (*s, w.server_doc * doc))
            .collect();
        let mut best_own = Scores::default();
        for (tool, own) in &scored.tools {
            let Some(&server) = self.server_of.get(*tool as usize) else {
                continue;
            };
            let entry = best_own.entry(server).or_default();
            *entry = entry.max(*own);
        }
        for (server, own) in best_own {
            *best.entry(server).or_default() += own;
        }
        for (server, total) in best {
            let document = documents.get(&server).map_or(0.0, |doc| w.server_doc * doc);
            let share = document + w.server_prior * total;
            if share > 0.0 {
                scored.servers.insert(server, share);
            }
        }
        scored
    }

    /// The BM25 score of each server as one document (its tools' names, server name and
    /// descriptions).
    fn server_documents(&self, terms: &[(String, f32)]) -> Scores {
        let w = &self.weights;
        let servers = self.servers as f32;
        let average = self.server_lengths.iter().map(|&l| l as f32).sum::<f32>() / servers;
        let mut scores = Scores::default();
        for (term, _) in terms {
            let Some(postings) = self.server_postings.get(term.as_str()) else {
                continue;
            };
            let idf = idf(servers, postings.len() as f32);
            for (server, tf) in postings {
                let Some(&length) = self.server_lengths.get(*server as usize) else {
                    continue;
                };
                let norm = 1.0 - w.b + w.b * length as f32 / average.max(1.0);
                let tf = f32::from(*tf) / norm;
                *scores.entry(*server).or_default() += idf * tf * (w.k1 + 1.0) / (w.k1 + tf);
            }
        }
        scores
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
        let (mut tools, mut servers) = (Scores::default(), Scores::default());
        for part in parts {
            let sentence = self.score_terms(&self.query_terms(part));
            let top = sentence.top(self);
            if top <= 0.0 {
                continue;
            }
            for (tool, own) in &sentence.tools {
                let entry = tools.entry(*tool).or_default();
                *entry = entry.max((own + sentence.server_share(self, *tool)) / top);
            }
            for (server, share) in &sentence.servers {
                let entry = servers.entry(*server).or_default();
                *entry = entry.max(share / top);
            }
        }
        for (tool, fraction) in tools {
            let server = self.server_of.get(tool as usize);
            let floor = server.and_then(|s| servers.get(s)).copied().unwrap_or(0.0);
            *scored.tools.entry(tool).or_default() += weight * (fraction - floor).max(0.0);
        }
        for (server, fraction) in servers {
            *scored.servers.entry(server).or_default() += weight * fraction;
        }
    }

    /// [`Weights::name_coverage`] × `top` × the IDF-weighted fraction of each tool's name terms
    /// that the query contains, where a name term is contained when a query term equals it,
    /// begins with it or begins it, the shorter of the two having at least [`PREFIX_CHARS`]
    /// characters (`shortener` covers `shorten`, `transfer` covers `transfermarkt`).
    ///
    /// [`Weights::name_coverage`]: super::Weights::name_coverage
    fn add_name_coverage(&self, terms: &[(String, f32)], top: f32, scored: &mut Scored) {
        let weight = self.weights.name_coverage * top;
        if weight <= 0.0 {
            return;
        }
        let mut named: Vec<&str> = Vec::new();
        for (term, _) in terms {
            self.name_terms_matching(term, &mut named);
        }
        named.sort_unstable();
        named.dedup();
        let n = self.lengths.len() as f32;
        let mut covered = Scores::default();
        for term in named {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let idf = idf(n, postings.len() as f32);
            for (tool, tf) in postings.iter().filter(|(_, tf)| tf[NAME] > 0) {
                *covered.entry(*tool).or_default() += idf * f32::from(tf[NAME]);
            }
        }
        for (tool, mass) in covered {
            if let Some(&total) = self.name_mass.get(tool as usize)
                && total > 0.0
            {
                *scored.tools.entry(tool).or_default() += weight * mass / total;
            }
        }
    }

    /// Pushes the name terms that a query term covers: itself, and, when it has at least
    /// [`PREFIX_CHARS`] characters, the name terms it begins and those of at least as many
    /// characters that begin it.
    fn name_terms_matching<'a>(&'a self, term: &str, out: &mut Vec<&'a str>) {
        let names = &self.name_terms;
        let from = names.partition_point(|name| &**name < term);
        if term.chars().nth(PREFIX_CHARS - 1).is_none() {
            out.extend(
                names
                    .get(from)
                    .filter(|name| ***name == *term)
                    .map(|name| &**name),
            );
            return;
        }
        let longer = (names.get(from..).unwrap_or_default())
            .iter()
            .take_while(|name| name.starts_with(term));
        out.extend(longer.map(|name| &**name));
        // The prefixes of the term from PREFIX_CHARS characters, shortest first. From
        // LONG_PREFIX bytes on, they stop when no name term begins with one: then none equals a
        // longer one, so a very long word costs as many steps as the longest name term it
        // begins with has characters.
        let prefixes = term.char_indices().map(|(at, _)| at).skip(PREFIX_CHARS);
        for prefix in prefixes.filter_map(|at| term.get(..at)) {
            match names.binary_search_by(|name| (**name).cmp(prefix)) {
                Ok(found) => out.extend(names.get(found).map(|name| &**name)),
                Err(next) => {
                    if prefix.len() >= LONG_PREFIX
                        && !names.get(next).is_some_and(|name| name.starts_with(prefix))
                    {
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::mcp::load_servers;
    use crate::search::ranked::Weights;

    /// Every tool's total, computed one by one.
    fn materialized(
        scored: &Scored,
        index: &RankedIndex,
        k: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let mut all: Vec<(u32, f32)> = (0..index.lengths.len() as u32)
            .filter(|tool| allowed.is_none_or(|list| list.contains(tool)))
            .map(|tool| {
                let own = scored.tools.get(&tool).copied().unwrap_or(0.0);
                (tool, own + scored.server_share(index, tool))
            })
            .filter(|(_, score)| *score > 0.0)
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.into_iter()
            .take(k)
            .map(|(tool, score)| (tool as usize, score))
            .collect()
    }

    #[test]
    fn name_terms_match_by_prefix_only_from_five_characters() {
        let tools = json!([
            {"name": "artist", "description": "", "inputSchema": {}},
            {"name": "shorten", "description": "", "inputSchema": {}},
            {"name": "transfermarkt_search", "description": "", "inputSchema": {}},
            {"name": "größenänderung", "description": "", "inputSchema": {}},
        ]);
        let pool: Vec<Arc<_>> = load_servers([("s", &tools)]).tools;
        let index = RankedIndex::build(&pool, Weights::default());
        let matching = |term: &str| {
            let mut out = Vec::new();
            index.name_terms_matching(term, &mut out);
            out.sort_unstable();
            out
        };
        assert!(
            matching("art").is_empty(),
            "three letters match exactly only"
        );
        assert_eq!(matching("artist"), ["artist"]);
        assert_eq!(matching("shortener"), ["shorten"], "a name term begins it");
        assert_eq!(matching("short"), ["shorten"], "it begins a name term");
        assert!(matching("shor").is_empty());
        assert_eq!(matching("transfer"), ["transfermarkt"]);
        assert_eq!(matching("größenänderungen"), ["größenänderung"]);
        assert_eq!(
            matching("größe"),
            ["größenänderung"],
            "characters, not bytes"
        );
        assert!(matching("größ").is_empty());
    }

    #[test]
    fn a_long_word_matches_only_the_name_terms_that_begin_it() {
        let tools = json!([
            {"name": "shorten", "description": "", "inputSchema": {}},
            {"name": "shortener_links", "description": "", "inputSchema": {}},
        ]);
        let pool: Vec<Arc<_>> = load_servers([("s", &tools)]).tools;
        let index = RankedIndex::build(&pool, Weights::default());
        let mut out = Vec::new();
        index.name_terms_matching(&format!("shortener{}", "x".repeat(10_000_000)), &mut out);
        out.sort_unstable();
        assert_eq!(out, ["shorten", "shortener"]);
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
        let pool: Vec<Arc<_>> = load_servers(servers.iter().map(|(s, v)| (s.as_str(), v))).tools;
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
                        scored.top_k(&index, k, allowed),
                        materialized(&scored, &index, k, allowed),
                        "{query:?} k={k}"
                    );
                }
            }
        }
    }
}

//! The ranked strategy with an embedder: the lexical score fused with the cosine of the
//! query's and the tools' embeddings (the `semantic` module tells the rule).

use std::sync::Arc;

use super::{SEED_BLEND_TERMS, SearchEngine};
use crate::document::Document;
use crate::query::Terms;
use crate::ranked::RankedScores;
use crate::semantic::{Embedder, Vectors};

/// An embedder and the deferred tools' vectors.
#[derive(Debug)]
pub(super) struct Semantic {
    pub(super) embedder: Arc<dyn Embedder>,
    pub(super) vectors: Vectors,
}

impl<D: Document> SearchEngine<D> {
    /// Fuses `embedder`'s meaning of queries and tools into the ranked strategy, embedding
    /// every deferred tool now (see the `semantic` module for the rule and the cost). The seed
    /// strategy is unchanged.
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        let vectors = Vectors::build(&*embedder, &self.deferred, None);
        self.semantic = Some(Semantic { embedder, vectors });
        self
    }

    /// Embeds the deferred tools again after the pool changed, reusing the vectors of tools
    /// whose text did not.
    pub(super) fn refresh_vectors(&mut self) {
        if let Some(semantic) = &mut self.semantic {
            semantic.vectors =
                Vectors::build(&*semantic.embedder, &self.deferred, Some(&semantic.vectors));
        }
    }

    /// The best `depth` tools by `lexical / best lexical + semantic weight × cosine`, exactly:
    /// the candidates are the best `k` by each part, and `k` grows until no tool outside both
    /// lists can score above the last of the best `depth`.
    pub(super) fn fuse(
        &self,
        semantic: &Semantic,
        query: &str,
        ranked: &RankedScores,
        terms: &Terms,
        depth: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let n = self.deferred.len();
        let Some(vector) = semantic.vectors.query(&*semantic.embedder, query) else {
            return self.blend(ranked, terms, depth, allowed);
        };
        let mut k = depth;
        loop {
            let lexical = self.blend(ranked, terms, k, allowed);
            let near = semantic.vectors.nearest(&vector, k, allowed);
            let best = lexical.first().map_or(0.0, |(_, score)| *score);
            let scale = if best > 0.0 { 1.0 / best } else { 0.0 };
            let mut candidates: Vec<u32> = (lexical.iter().chain(&near))
                .map(|(tool, _)| *tool as u32)
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let lexical_scores = self.lexical_scores(ranked, terms, &candidates);
            let mut fused: Vec<(usize, f32)> = (candidates.iter().zip(lexical_scores))
                .map(|(&tool, lexical)| {
                    let tool = tool as usize;
                    let cosine = semantic.vectors.cosine(&vector, tool).max(0.0);
                    (tool, lexical * scale + self.weights.semantic * cosine)
                })
                .filter(|(_, score)| *score > 0.0)
                .collect();
            fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            // A tool in neither list scores at most the last of each full list.
            let last = |list: &[(usize, f32)]| match list.len() == k {
                true => list.last().map_or(0.0, |(_, score)| *score),
                false => 0.0,
            };
            let bound = last(&lexical) * scale + self.weights.semantic * last(&near);
            let settled = k >= n
                || fused
                    .get(depth.saturating_sub(1))
                    .is_some_and(|(_, s)| *s > bound);
            if settled || bound <= 0.0 {
                fused.truncate(depth);
                return fused;
            }
            k = k.saturating_mul(4);
        }
    }

    /// The ranked strategy's lexical score of each of `tools` (sorted): BM25F with its
    /// signals, plus the seed blend for short queries ([`SearchEngine::blend`]).
    fn lexical_scores(&self, ranked: &RankedScores, terms: &Terms, tools: &[u32]) -> Vec<f32> {
        let count = terms.scoring.len();
        let seed: Vec<u32> = match count <= SEED_BLEND_TERMS {
            true => self.seed.scorer(&terms.scoring).scores(tools),
            false => vec![0; tools.len()],
        };
        let seed_weight = self.weights.seed / (count.max(1) as f32).powi(2);
        (tools.iter().zip(seed))
            .map(|(&tool, seed)| ranked.of(tool as usize) + seed_weight * seed as f32)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::query::parse_terms;
    use crate::{Strategy, ToolDoc};

    /// Counts of a few topic words, so that texts sharing a topic are near; counts its calls.
    #[derive(Debug, Default)]
    struct Topics {
        calls: AtomicUsize,
    }

    const TOPICS: [&[&str]; 4] = [
        &["weather", "rain", "forecast", "umbrella", "sunny"],
        &["money", "currency", "euro", "dollar", "exchange"],
        &["mail", "email", "letter", "inbox"],
        &["music", "song", "album", "lyrics"],
    ];

    impl Embedder for Topics {
        fn dimension(&self) -> usize {
            TOPICS.len()
        }
        fn embed(&self, text: &str) -> Vec<f32> {
            self.calls.fetch_add(1, Ordering::Relaxed);
            let text = text.to_lowercase();
            let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
            let count = |topic: &[&str]| words.iter().filter(|w| topic.contains(w)).count();
            TOPICS
                .iter()
                .map(|topic| count(topic) as f32 + 0.1)
                .collect()
        }
    }

    fn pool() -> Vec<Arc<ToolDoc>> {
        let tools = [
            ("weather", "now", "Current conditions: sunny or rain"),
            ("weather", "forecast", "The forecast for the next days"),
            ("weather", "alerts", "Storm alerts"),
            (
                "fx",
                "convert",
                "Convert an amount between currencies, dollar to euro",
            ),
            ("fx", "rates", "Exchange rates today"),
            ("mail", "send", "Send an email"),
            ("mail", "inbox", "Read the inbox"),
            ("music", "lyrics", "Song lyrics by title"),
            ("music", "album", "An album's songs"),
        ];
        let mut pool = Vec::new();
        for copy in 0..3 {
            for (server, name, description) in tools {
                let server = format!("{server}{copy}");
                let doc =
                    ToolDoc::new(format!("mcp__{server}__{name}"), description).with_server(server);
                pool.push(Arc::new(doc));
            }
        }
        pool
    }

    /// Every tool's fused score, best first, cut to `depth`.
    fn fuse_every_tool(
        engine: &SearchEngine<ToolDoc>,
        query: &str,
        depth: usize,
    ) -> Vec<(usize, f32)> {
        let semantic = engine.semantic.as_ref().unwrap();
        let terms = parse_terms(&query.to_lowercase());
        let ranked = engine.ranked().score(query);
        let every: Vec<u32> = (0..engine.deferred.len() as u32).collect();
        let lexical = engine.lexical_scores(&ranked, &terms, &every);
        let best = lexical.iter().copied().fold(0.0, f32::max);
        let scale = if best > 0.0 { 1.0 / best } else { 0.0 };
        let vector = semantic.vectors.query(&*semantic.embedder, query).unwrap();
        let mut all: Vec<(usize, f32)> = (every.iter().zip(lexical))
            .map(|(&tool, lexical)| {
                let cosine = semantic.vectors.cosine(&vector, tool as usize).max(0.0);
                (
                    tool as usize,
                    lexical * scale + engine.weights.semantic * cosine,
                )
            })
            .filter(|(_, score)| *score > 0.0)
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(depth);
        all
    }

    #[test]
    fn fusion_equals_scoring_every_tool() {
        let embedder = Arc::new(Topics::default());
        for weight in [0.0, 0.3, 1.0, 5.0] {
            let mut engine =
                SearchEngine::new(pool(), Strategy::Ranked).with_embedder(embedder.clone());
            engine.weights.semantic = weight;
            for query in [
                "umbrella tomorrow",
                "send a letter",
                "rates",
                "lyrics of a song about rain",
                "nothing at all",
            ] {
                let terms = parse_terms(&query.to_lowercase());
                let ranked = engine.ranked().score(query);
                let semantic = engine.semantic.as_ref().unwrap();
                for depth in [1, 3, 5, 15, 40] {
                    assert_eq!(
                        engine.fuse(semantic, query, &ranked, &terms, depth, None),
                        fuse_every_tool(&engine, query, depth),
                        "{query:?} weight {weight} depth {depth}"
                    );
                }
            }
        }
    }

    #[test]
    fn meaning_finds_a_tool_that_shares_no_word_with_the_query() {
        let lexical = SearchEngine::new(pool(), Strategy::Ranked);
        assert!(lexical.search("umbrella", 3).matches.is_empty());
        let engine = lexical.with_embedder(Arc::new(Topics::default()));
        let found = engine.search("umbrella", 3).matches;
        assert_eq!(found.len(), 3);
        assert!(
            found.iter().all(|name| name.starts_with("mcp__weather")),
            "{found:?}"
        );
        // The seed strategy does not embed.
        let mut engine = engine;
        engine.set_strategy(Strategy::Seed);
        assert!(engine.search("umbrella", 3).matches.is_empty());
    }

    #[test]
    fn update_embeds_only_the_tools_whose_text_changed() {
        let embedder = Arc::new(Topics::default());
        let mut engine =
            SearchEngine::new(pool(), Strategy::Ranked).with_embedder(embedder.clone());
        assert_eq!(embedder.calls.load(Ordering::Relaxed), 27);
        let mut changed = pool();
        changed.truncate(26);
        changed.push(Arc::new(
            ToolDoc::new("mcp__new__umbrella", "Umbrella shop").with_server("new"),
        ));
        engine.update(changed);
        assert_eq!(
            embedder.calls.load(Ordering::Relaxed),
            28,
            "one new tool embedded"
        );
        assert_eq!(engine.search("umbrella", 1).matches, ["mcp__new__umbrella"]);
    }

    #[test]
    fn a_vector_of_the_wrong_length_is_near_nothing() {
        #[derive(Debug)]
        struct Broken;
        impl Embedder for Broken {
            fn dimension(&self) -> usize {
                3
            }
            fn embed(&self, text: &str) -> Vec<f32> {
                if text.contains("forecast") {
                    vec![1.0]
                } else {
                    vec![1.0, 0.0, 0.0]
                }
            }
        }
        let engine = SearchEngine::new(pool(), Strategy::Ranked).with_embedder(Arc::new(Broken));
        let lexical = SearchEngine::new(pool(), Strategy::Ranked);
        // The query's vector is unusable: the lexical ranking stands.
        assert_eq!(engine.search("forecast", 5), lexical.search("forecast", 5));
        // The tools with usable vectors are all near `mail`; the forecast tools are not.
        let found = engine.search("mail", 27).matches;
        assert!(
            !found.iter().any(|name| name.ends_with("__forecast")),
            "{found:?}"
        );
        assert_eq!(found.len(), 24);
    }
}

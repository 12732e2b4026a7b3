use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::ToolDoc;
use crate::semantic::Embedder;
use crate::text::query::parse_terms;

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
fn fuse_every_tool(engine: &SearchEngine<ToolDoc>, query: &str, depth: usize) -> Vec<(usize, f32)> {
    let semantic = engine.semantic.as_ref().unwrap();
    let terms = parse_terms(&query.to_lowercase());
    let ranked = engine.ranked().score(query);
    let every: Vec<u32> = (0..engine.deferred.len() as u32).collect();
    let lexical = engine.lexical(&ranked, &terms).scores(&every);
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
        let mut engine = SearchEngine::new(pool(), Strategy::Bm25f).with_embedder(embedder.clone());
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
                    semantic.fuse(&engine.lexical(&ranked, &terms), query, depth, None),
                    fuse_every_tool(&engine, query, depth),
                    "{query:?} weight {weight} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn meaning_finds_a_tool_that_shares_no_word_with_the_query() {
    let lexical = SearchEngine::new(pool(), Strategy::Bm25f);
    assert!(lexical.search("umbrella", 3).matches.is_empty());
    let engine = lexical.with_embedder(Arc::new(Topics::default()));
    let found = engine.search("umbrella", 3).matches;
    assert_eq!(found.len(), 3);
    assert!(
        found.iter().all(|name| name.starts_with("mcp__weather")),
        "{found:?}"
    );
    // The keyword strategy does not embed.
    let mut engine = engine;
    engine.set_strategy(Strategy::Keyword);
    assert!(engine.search("umbrella", 3).matches.is_empty());
}

#[test]
fn update_embeds_only_the_tools_whose_text_changed() {
    let embedder = Arc::new(Topics::default());
    let mut engine = SearchEngine::new(pool(), Strategy::Bm25f).with_embedder(embedder.clone());
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
    let engine = SearchEngine::new(pool(), Strategy::Bm25f).with_embedder(Arc::new(Broken));
    let lexical = SearchEngine::new(pool(), Strategy::Bm25f);
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

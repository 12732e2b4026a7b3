//! The fast ranked scoring held to the [reference](super::reference): on random small pools
//! whose texts share a small vocabulary (so that terms collide across fields, tools and
//! servers, and stems, prefixes and compounds meet), every tool's score and the top-k order.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::sample::select;

use super::{RankedIndex, Weights, reference};
use crate::ToolDoc;

/// Words that collide: stems (`search`, `searches`), name-coverage prefixes (`short`,
/// `shortener`, `transfer`, `transfermarkt`; `note`, `notebook`, too short to count), a compound and its parts (`zip code`,
/// `zipcode`), an abbreviation (`info`), a word with case humps (`YouTube`), stop words,
/// request verbs and the servers' names.
const WORDS: &[&str] = &[
    "weather",
    "forecast",
    "search",
    "searches",
    "short",
    "shortener",
    "transfer",
    "transfermarkt",
    "note",
    "notebook",
    "city",
    "email",
    "info",
    "information",
    "zip",
    "code",
    "zipcode",
    "YouTube",
    "video",
    "the",
    "for",
    "find",
    "get",
    "git",
    "web",
];

/// Between query words: spaces, and ends of sentences.
const SEPARATORS: &[&str] = &[" ", " ", " ", ". ", "? ", ", "];

const SERVERS: &[Option<&str>] = &[None, Some("git"), Some("web"), Some("weather")];

fn words(range: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec(select(WORDS), range).prop_map(|words| words.join(" "))
}

/// A tool: server, name, description, hint, parameters (name, description).
type ToolParts = (
    Option<&'static str>,
    String,
    String,
    Option<String>,
    Vec<(&'static str, Option<String>)>,
);

fn tool() -> impl Strategy<Value = ToolParts> {
    (
        select(SERVERS),
        proptest::collection::vec(select(WORDS), 1..4).prop_map(|words| words.join("_")),
        words(0..7),
        proptest::option::of(words(1..4)),
        proptest::collection::vec((select(WORDS), proptest::option::of(words(1..4))), 0..3),
    )
}

fn doc((server, name, description, hint, params): ToolParts) -> Arc<ToolDoc> {
    let properties: serde_json::Map<String, serde_json::Value> = (params.into_iter())
        .map(|(name, description)| {
            let property = match description {
                Some(text) => serde_json::json!({"type": "string", "description": text}),
                None => serde_json::json!({"type": "string"}),
            };
            (name.to_owned(), property)
        })
        .collect();
    let schema = serde_json::json!({"type": "object", "properties": properties}).to_string();
    let mut tool = match server {
        Some(server) => {
            ToolDoc::new(format!("mcp__{server}__{name}"), description).with_server(server)
        }
        None => ToolDoc::new(name, description),
    };
    tool = tool.with_input_schema(schema);
    if let Some(hint) = hint {
        tool = tool.with_search_hint(hint);
    }
    Arc::new(tool)
}

fn query() -> impl Strategy<Value = String> {
    proptest::collection::vec((select(WORDS), select(SEPARATORS)), 1..12).prop_map(|words| {
        (words.into_iter())
            .map(|(word, separator)| format!("{word}{separator}"))
            .collect()
    })
}

/// The default weights, or others: field weights (zero included), `k1`, `b` and the signals'.
fn weights() -> impl Strategy<Value = Weights> {
    let other = (
        proptest::array::uniform5(0.0f32..3.0),
        0.1f32..3.0,
        0.0f32..=1.0,
        proptest::array::uniform4(0.0f32..1.0),
    )
        .prop_map(
            |(fields, k1, b, [server_prior, sentences, coverage, clause])| {
                let [name, hint, description, params, server] = fields;
                Weights {
                    name,
                    hint,
                    description,
                    params,
                    server,
                    k1,
                    b,
                    server_prior,
                    sentences,
                    name_coverage: coverage,
                    request_clause: clause,
                    ..Weights::default()
                }
            },
        );
    prop_oneof![Just(Weights::default()), other]
}

/// Whether two scores are equal to within `tolerance`, relative to the larger.
fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * a.abs().max(b.abs())
}

proptest::proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every tool's score is the reference's to within 1e-4 of it, and the best `k` (of all
    /// tools, or of an allowed subset) are the reference's ranking: by score, best first;
    /// scores the reference cannot tell apart (within rounding) are ordered as the fast path
    /// orders them, by its score, then the lower tool. Diversification is a later stage and
    /// is not compared.
    #[test]
    fn fast_ranked_scores_equal_the_reference_scorer_on_random_pools(
        tools in proptest::collection::vec(tool(), 1..13),
        query in query(),
        weights in weights(),
        k in 1usize..8,
        mask in proptest::collection::vec(any::<bool>(), 13),
    ) {
        let pool: Vec<Arc<ToolDoc>> = tools.into_iter().map(doc).collect();
        let expected = reference::scores(&pool, weights, &query);
        let index = RankedIndex::build(&pool, weights);
        let scored = index.score(&query);
        let fast: Vec<f32> = (0..pool.len()).map(|tool| scored.of(tool)).collect();
        for (tool, (&fast, &slow)) in fast.iter().zip(&expected).enumerate() {
            prop_assert!(
                near(f64::from(fast), slow, 1e-4),
                "tool {tool}: fast {fast}, reference {slow}, query {query:?}"
            );
        }
        let subset: Vec<u32> = (0..pool.len() as u32)
            .filter(|&tool| mask.get(tool as usize).copied().unwrap_or(false))
            .collect();
        for allowed in [None, Some(subset.as_slice())] {
            let mut ranking: Vec<usize> = (0..pool.len())
                .filter(|&tool| expected[tool] > 0.0)
                .filter(|&tool| allowed.is_none_or(|list| list.contains(&(tool as u32))))
                .collect();
            ranking.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]).then(a.cmp(&b)));
            // Runs of scores within rounding of each other (3e-4: wider than twice the score
            // tolerance, so no two scores outside a run can trade places in the fast path)
            // take the fast path's order.
            let mut start = 0;
            for end in 1..=ranking.len() {
                let split = end == ranking.len()
                    || !near(expected[ranking[end - 1]], expected[ranking[end]], 3e-4);
                if split {
                    ranking[start..end]
                        .sort_by(|&a, &b| fast[b].total_cmp(&fast[a]).then(a.cmp(&b)));
                    start = end;
                }
            }
            ranking.truncate(k);
            let top = scored.top(k, allowed);
            let tools: Vec<usize> = top.iter().map(|&(tool, _)| tool).collect();
            prop_assert_eq!(&tools, &ranking, "query {:?}, allowed {:?}", query, allowed);
            for (tool, score) in top {
                prop_assert_eq!(score, fast[tool]);
            }
        }
    }
}

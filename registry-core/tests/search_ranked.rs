//! The BM25F strategy's signals (`search::ranked`): each test shows what a signal changes by
//! comparing the ranking with the signal's weight at zero and at its default.

use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::mcp::load_servers;
use toolreg::search::ranked::{RankedIndex, Weights};
use toolreg::{SearchEngine, Strategy, ToolInfo};

/// MCP tools of `servers`: (server, [(tool, description)]).
fn pool(servers: &[(&str, &[(&str, &str)])]) -> Vec<Arc<ToolInfo>> {
    let lists: Vec<(&str, Value)> = servers
        .iter()
        .map(|(server, tools)| {
            let list = tools
                .iter()
                .map(|(name, description)| {
                    json!({"name": name, "description": description, "inputSchema": {"type": "object"}})
                })
                .collect();
            (*server, Value::Array(list))
        })
        .collect();
    let loaded = load_servers(lists.iter().map(|(server, list)| (*server, list)));
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    loaded.tools
}

/// The names of the top `k` tools for `query`.
fn top(tools: &[Arc<ToolInfo>], weights: Weights, query: &str, k: usize) -> Vec<String> {
    RankedIndex::build(tools, weights)
        .rank(query, k, None)
        .into_iter()
        .map(|i| tools[i].name.clone())
        .collect()
}

/// A ranked engine over `tools`, all deferred, without the seed blend.
fn engine_without_seed(mut tools: Vec<Arc<ToolInfo>>) -> SearchEngine {
    for tool in &mut tools {
        Arc::get_mut(tool).expect("one owner").flags.defer = true;
    }
    let weights = Weights {
        seed: 0.0,
        ..Weights::default()
    };
    SearchEngine::new(tools, Strategy::Bm25f).with_weights(weights)
}

/// The weights the close contests below were built for: BM25's `k1` and `b` before they
/// became the usual 1.2 and 0.75 (2.5, 0.9), and the name and server fields at 3 rather than
/// 2. With the usual `k1` a second match of a term counts for less, and the contest is decided
/// before the signal under test has its say. The signals' rules do not depend on these weights.
fn earlier_defaults() -> Weights {
    Weights {
        k1: 2.5,
        b: 0.9,
        name: 3.0,
        server: 3.0,
        ..Weights::default()
    }
}

fn scores(tools: &[Arc<ToolInfo>], weights: Weights, query: &str) -> Vec<(usize, f32)> {
    RankedIndex::build(tools, weights).rank_scored(query, usize::MAX, None)
}

#[test]
fn sentences_let_a_short_second_request_reach_the_top() {
    let music: &[(&str, &str)] = &[
        ("Track Lyrics", "Lyrics of a track"),
        ("Album Tracks", "Tracks of an album"),
        ("Top Tracks", "Top tracks of an artist"),
        ("Playlist Tracks", "Tracks of a playlist"),
        ("Track Metadata", "Metadata of a track"),
        ("Track Audio", "Audio features of a track"),
    ];
    let tools = pool(&[
        ("music", music),
        ("pagepeeker", &[("Shoot", "Make a thumbnail of a page")]),
    ]);
    // The first sentence matches every music tool through `track`, and the server prior
    // lifts them all; the second sentence asks for one thing only.
    let query = "Show me the lyrics of the 80s track Take On Me by a-ha, and the track's audio \
                 features. Then a thumbnail.";
    let without = Weights {
        sentences: 0.0,
        ..Weights::default()
    };
    let thumbnail = "mcp__pagepeeker__Shoot".to_owned();
    assert!(!top(&tools, without, query, 5).contains(&thumbnail));
    assert!(top(&tools, Weights::default(), query, 5).contains(&thumbnail));
}

#[test]
fn one_sentence_requests_are_not_scored_twice() {
    let tools = pool(&[("music", &[("Album Tracks", "Tracks of an album")])]);
    let without = Weights {
        sentences: 0.0,
        ..Weights::default()
    };
    let query = "the tracks of an album";
    assert_eq!(
        scores(&tools, without, query),
        scores(&tools, Weights::default(), query)
    );
}

#[test]
fn name_coverage_favours_the_tool_the_request_names_in_full() {
    let mut list = vec![
        ("Title Details".to_owned(), String::new()),
        ("Ratings Export Job Queue Worker".to_owned(), String::new()),
    ];
    // `title` and `details` are common in this pool, `ratings` is rare.
    list.extend((0..2).map(|i| (format!("Title Search {i}"), "Details".to_owned())));
    let list: Vec<(&str, &str)> = list.iter().map(|(n, d)| (n.as_str(), d.as_str())).collect();
    let tools = pool(&[("movies", &list)]);
    let query = "the title details and ratings of Inception";
    let without = Weights {
        name_coverage: 0.0,
        ..earlier_defaults()
    };
    assert_eq!(
        top(&tools, without, query, 1),
        ["mcp__movies__Ratings_Export_Job_Queue_Worker"]
    );
    assert_eq!(
        top(&tools, earlier_defaults(), query, 1),
        ["mcp__movies__Title_Details"]
    );
}

#[test]
fn a_query_term_counts_once_however_often_it_is_said() {
    let tools = pool(&[("s", &[("Beta", "beta"), ("Alpha", "alpha")])]);
    assert_eq!(
        top(&tools, Weights::default(), "alpha beta alpha", 2),
        ["mcp__s__Beta", "mcp__s__Alpha"],
        "a tie keeps pool order"
    );
}

#[test]
fn a_term_in_a_request_clause_weighs_more_than_one_in_the_story() {
    let tools = pool(&[("s", &[("Alpha", "alpha"), ("Beta", "beta")])]);
    let query = "I love alpha. Can you find beta?";
    let flat = Weights {
        request_clause: 0.0,
        ..Weights::default()
    };
    assert_eq!(
        top(&tools, flat, query, 1),
        ["mcp__s__Alpha"],
        "a tie keeps pool order"
    );
    assert_eq!(top(&tools, Weights::default(), query, 1), ["mcp__s__Beta"]);
}

#[test]
fn a_camel_case_request_word_matches_names_written_either_way() {
    // Without the seed blend, which would find both names through its own lower-cased parts.
    let engine = engine_without_seed(pool(&[
        ("videos", &[("YouTube Summarizer", "Summaries of videos")]),
        ("search", &[("Youtube Search", "Searches for videos")]),
        ("weather", &[("Forecast", "Weather forecast for a city")]),
    ]));
    // The engine hands the BM25F strategy the request as typed: lower-cased first, `YouTube`
    // would no longer split into `you` and `tube` and would miss the first tool.
    let mut found = engine.search("Find YouTube clips", 5).matches;
    found.sort();
    assert_eq!(
        found,
        [
            "mcp__search__Youtube_Search",
            "mcp__videos__YouTube_Summarizer"
        ]
    );
}

#[test]
fn with_no_seed_weight_a_tool_only_the_seed_matches_is_not_returned() {
    let engine = engine_without_seed(pool(&[(
        "s",
        &[("Websearch", "Quick lookup"), ("Search Files", "")],
    )]));
    // The seed finds `search` inside `websearch`; BM25F has `websearch` as another term, so
    // that tool's blended score is zero.
    assert_eq!(engine.search("search", 5).matches, ["mcp__s__Search_Files"]);
}

#[test]
fn a_tool_repeating_what_the_tools_above_it_match_gives_way() {
    // Three compiler APIs answer the first need of the request with the same words, and score
    // higher than the one API that answers the second. (Server names that say nothing: a
    // server's name is a field of its tools.)
    let tools = pool(&[
        ("c1", &[("C Versions", "Compiler versions")]),
        ("c14", &[("C++ 14 Versions", "Compiler versions")]),
        ("c17", &[("C++ 17 Versions", "Compiler versions")]),
        ("p", &[("Solat Time", "Prayer times of a zone")]),
        ("o", &[("Unrelated", "Nothing here")]),
        ("z", &[("Zone list", "Zones")]),
    ]);
    let query = "compiler versions compiler versions prayer";
    let index = |redundancy| {
        RankedIndex::build(
            &tools,
            Weights {
                redundancy,
                ..earlier_defaults()
            },
        )
    };
    let picked = |redundancy| -> Vec<String> {
        let index = index(redundancy);
        let candidates = index.rank_scored(query, 6, None);
        index
            .diversify(query, &candidates, 2)
            .into_iter()
            .map(|i| tools[i].name.clone())
            .collect()
    };
    assert_eq!(
        picked(0.0),
        ["mcp__c1__C_Versions", "mcp__c14__C___14_Versions"]
    );
    // The first pick does not depend on how many are asked for, even when the best candidate
    // (here `Unrelated`, handed in with the best score) matches no query term and gives way.
    let index = index(earlier_defaults().redundancy);
    let candidates = [(4, 10.0), (0, 9.5)];
    assert_eq!(index.diversify(query, &candidates, 2), [0, 4]);
    assert_eq!(index.diversify(query, &candidates, 1), [0]);
    assert_eq!(picked(0.5), ["mcp__c1__C_Versions", "mcp__p__Solat_Time"]);
}

#[test]
fn name_coverage_counts_a_name_term_that_a_request_word_begins_or_extends() {
    let tools = pool(&[
        ("b", &[("short", "A short URL for a long one")]),
        ("c", &[("Link Clicks", "Clicks on a short link")]),
    ]);
    // No tool has the word `shortener` (or its stem, `shorten`), but `short` begins it: the
    // request covers that tool's whole name. With exact terms alone, the tool whose name has
    // `link` would lead.
    let query = "a link shortener for long URLs";
    let without = Weights {
        name_coverage: 0.0,
        ..earlier_defaults()
    };
    assert_eq!(top(&tools, without, query, 1), ["mcp__c__Link_Clicks"]);
    assert_eq!(top(&tools, earlier_defaults(), query, 1), ["mcp__b__short"]);
}

#[test]
fn a_request_writing_a_compound_as_two_words_matches_it_written_as_one() {
    let tools = pool(&[
        ("geo", &[("zipcode lookup", "Places for a zipcode")]),
        ("mail", &[("Code search", "Find a postal code by street")]),
    ]);
    let query = "Which city has the zip code 01003?";
    // Seed off: its substring match of `code` in `zipcode` would hide what BM25F does.
    let engine = engine_without_seed(tools);
    assert_eq!(
        engine.search(query, 1).matches,
        ["mcp__geo__zipcode_lookup"]
    );
}

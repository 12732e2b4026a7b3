//! The index answers every seed query exactly like the straight scan (`docs/design.md` §9.11), the
//! BM25F strategy's blend equals blending every tool, and the engine's memo is dropped only
//! when the deferred set changes.

use std::sync::Arc;

use proptest::prelude::*;
use toolreg_search::ToolDoc;
use toolreg_search::ranked::Weights;
use toolreg_search::text::js_trim;
use toolreg_search::text::query;
use toolreg_search::{SEED_BLEND_TERMS, SearchEngine, Strategy as SearchStrategy, seed};

/// A tool as a host registers it: deferred when its name is an MCP tool's (`mcp__`), as the
/// host's pool defers MCP tools.
fn host_tool(name: impl Into<String>, description: impl Into<String>) -> ToolDoc {
    let name = name.into();
    let deferred = name.starts_with("mcp__");
    ToolDoc::new(name, description).with_deferred(deferred)
}

const WORDS: &[&str] = &[
    "read", "file", "files", "search", "slack", "send", "message", "git", "status", "log", "note",
    "notebook", "jupyter", "web", "fetch", "c++", "a.b", "(x)", "naïve", "café", "2fa", "get_user",
    "x_y", "data", "Data", "ÉTÉ", "k8s", "-", "_", "+", "*", "$", "^", "[a]",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_owned),
        1 => "[a-zA-Z0-9_.+*()é-]{1,6}",
    ]
}

const PARTS: &[&str] = &[
    "read", "file", "search", "slack", "send", "message", "git", "data", "Note", "web", "x", "2fa",
    "K8s",
];

fn part() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(PARTS).prop_map(str::to_owned),
        1 => "[a-zA-Z0-9-]{1,6}",
    ]
}

fn capitalized(part: String) -> String {
    let mut chars = part.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            proptest::collection::vec(part(), 1..3),
            proptest::collection::vec(part(), 1..4)
        )
            .prop_map(|(server, tool)| format!(
                "mcp__{}__{}",
                server.join("_"),
                tool.join("_")
            )),
        proptest::collection::vec(part(), 1..4).prop_map(|parts| parts
            .into_iter()
            .map(capitalized)
            .collect::<Vec<_>>()
            .join("")),
        proptest::collection::vec(part(), 1..3).prop_map(|parts| parts.join("_")),
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        (
            word(),
            proptest::sample::select(&[" ", ", ", ". ", "_", "-", "\n", "/"][..]),
        ),
        0..12,
    )
    .prop_map(|pieces| {
        pieces
            .into_iter()
            .map(|(w, sep)| format!("{w}{sep}"))
            .collect()
    })
}

fn tool() -> impl Strategy<Value = ToolDoc> {
    (name(), text(), proptest::option::of(text()), any::<bool>()).prop_map(
        |(name, description, hint, defer)| {
            let mut tool = host_tool(name, description);
            tool.search_hint = hint;
            tool.deferred |= defer;
            tool
        },
    )
}

fn query() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::collection::vec((proptest::sample::select(&["", "", "+"][..]), word()), 1..4)
            .prop_map(|terms| terms.into_iter().map(|(plus, w)| format!("{plus}{w}")).collect::<Vec<_>>().join(" ")),
        1 => word().prop_map(|w| format!("mcp__{w}")),
        1 => word().prop_map(|w| format!("select:{w},Read")),
    ]
}

fn check(tools: Vec<ToolDoc>, queries: Vec<String>, max: usize) -> Result<(), TestCaseError> {
    let pool: Vec<Arc<ToolDoc>> = tools.into_iter().map(Arc::new).collect();
    let engine = SearchEngine::new(pool.clone(), SearchStrategy::Keyword);
    let deferred = engine.deferred().to_vec();
    for query in queries {
        let scan = seed::search(&query, max, &pool, &deferred, &[]);
        let indexed = engine.search(&query, max);
        prop_assert_eq!(&indexed, &scan, "query {:?}", query);
    }
    Ok(())
}

/// Words a query can take from a pool: name pieces and inner slices of them (exact and partial
/// part matches), description and hint words.
fn pool_words(tools: &[ToolDoc]) -> Vec<String> {
    let mut words = Vec::new();
    for tool in tools {
        let lower = tool.name.to_lowercase();
        for piece in lower.split('_').filter(|piece| !piece.is_empty()) {
            words.push(piece.to_owned());
            let chars: Vec<char> = piece.chars().collect();
            if chars.len() > 2 {
                words.push(chars[1..chars.len() - 1].iter().collect());
                words.push(chars[..2].iter().collect());
            }
        }
        let hint = tool.search_hint.as_deref().unwrap_or("");
        for text in [tool.description.as_str(), hint] {
            words.extend(text.split_whitespace().map(str::to_lowercase));
        }
    }
    words.push("zzz".into());
    words
}

/// A pool repeated `copies` times (ties at every place), with queries made of its own words:
/// some required, some repeated.
fn pool_with_own_queries() -> impl Strategy<Value = (Vec<ToolDoc>, Vec<String>)> {
    pool_with_own_queries_of(1..5)
}

/// [`pool_with_own_queries`] with queries of `terms` terms (before the repeated one).
fn pool_with_own_queries_of(
    terms: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<ToolDoc>, Vec<String>)> {
    (proptest::collection::vec(tool(), 1..30), 1usize..4).prop_flat_map(move |(tools, copies)| {
        let pool: Vec<ToolDoc> = std::iter::repeat_n(tools, copies).flatten().collect();
        let words = pool_words(&pool);
        let term = (
            proptest::sample::select(&["", "", "", "+"][..]),
            proptest::sample::select(words),
        )
            .prop_map(|(plus, word)| format!("{plus}{word}"));
        let query = proptest::collection::vec(term, terms.clone()).prop_flat_map(|terms| {
            let repeat = proptest::sample::select(terms.clone());
            (Just(terms), proptest::option::of(repeat)).prop_map(|(mut terms, repeat)| {
                terms.extend(repeat);
                terms.join(" ")
            })
        });
        (Just(pool), proptest::collection::vec(query, 1..8))
    })
}

/// The seed scores the index gives chosen tools, and those of its rankings, equal the scan's.
fn check_seed_scores(tools: Vec<ToolDoc>, queries: Vec<String>) -> Result<(), TestCaseError> {
    let pool: Vec<Arc<ToolDoc>> = tools.into_iter().map(Arc::new).collect();
    let engine = SearchEngine::new(pool, SearchStrategy::Keyword);
    let index = engine.seed_index();
    for query in queries {
        let terms = query::parse_terms(js_trim(&query.to_lowercase()));
        let every: Vec<u32> = (0..index.len() as u32).collect();
        let scanned: Vec<u32> = (0..index.len())
            .map(|i| index.text(i).score(&terms.scoring))
            .collect();
        prop_assert_eq!(
            index.scores(&terms.scoring, &every),
            scanned.clone(),
            "query {:?}",
            &query
        );
        let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
        let scanned_odd: Vec<u32> = odd
            .iter()
            .map(|&i| index.text(i as usize).score(&terms.scoring))
            .collect();
        prop_assert_eq!(index.scores(&terms.scoring, &odd), scanned_odd);
        // A ranking's scores are the scan's too.
        for (tool, score) in index.rank_scored(&terms, 7) {
            prop_assert_eq!(score, scanned[tool], "query {:?}, tool {}", &query, tool);
        }
    }
    Ok(())
}

/// The BM25F strategy's result equals blending every deferred tool's ranked and seed scores
/// (the seed's only for queries of at most `SEED_BLEND_TERMS` terms) and sorting them (score
/// descending, pool order on ties), for queries no fast path answers.
fn check_blend(tools: Vec<ToolDoc>, queries: Vec<String>, max: usize) -> Result<(), TestCaseError> {
    let pool: Vec<Arc<ToolDoc>> = tools.into_iter().map(Arc::new).collect();
    let engine = SearchEngine::new(pool.clone(), SearchStrategy::Bm25f);
    let seed_weight = Weights::default().seed;
    for query in queries {
        let lower = query.to_lowercase();
        let trimmed = js_trim(&lower);
        if trimmed.starts_with("mcp__")
            || trimmed.starts_with("select:")
            || pool.iter().any(|tool| tool.name.to_lowercase() == trimmed)
        {
            continue;
        }
        let terms = query::parse_terms(trimmed);
        let allowed = engine.seed_index().required(&terms.required);
        let ranked = engine.ranked_index().score(&query);
        let weight = if terms.scoring.len() > SEED_BLEND_TERMS {
            0.0
        } else {
            seed_weight / (terms.scoring.len().max(1) as f32).powi(2)
        };
        let mut blended: Vec<(usize, f32)> = (0..engine.deferred().len())
            .filter(|i| {
                allowed
                    .as_ref()
                    .is_none_or(|list| list.contains(&(*i as u32)))
            })
            .map(|i| {
                let seed = engine.seed_index().text(i).score(&terms.scoring) as f32;
                (i, ranked.of(i) + weight * seed)
            })
            .filter(|(_, score)| *score > 0.0)
            .collect();
        blended.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        blended.truncate(max * 3);
        let expected: Vec<String> = engine
            .ranked_index()
            .diversify(&query, &blended, max)
            .into_iter()
            .map(|i| engine.deferred()[i].name.clone())
            .collect();
        prop_assert_eq!(
            engine.search(&query, max).matches,
            expected,
            "query {:?}",
            &query
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn seed_scores_of_chosen_tools_equal_the_scan(
        (tools, queries) in pool_with_own_queries(),
    ) {
        check_seed_scores(tools, queries)?;
    }

    #[test]
    fn ranked_blend_equals_blending_every_tool(
        (tools, queries) in pool_with_own_queries(),
        max in 1usize..12,
    ) {
        check_blend(tools, queries, max)?;
    }

    #[test]
    fn index_equals_scan_for_random_pools_and_queries(
        tools in proptest::collection::vec(tool(), 0..40),
        queries in proptest::collection::vec(query(), 1..8),
        max in 0usize..8,
    ) {
        check(tools, queries, max)?;
    }

    #[test]
    fn index_equals_scan_for_queries_made_of_the_pools_own_words(
        (tools, queries) in pool_with_own_queries(),
        max in 0usize..10,
    ) {
        check(tools, queries, max)?;
    }

    /// Requests of many terms are ranked term by term, not by MaxScore: still the scan's.
    #[test]
    fn index_equals_scan_for_long_requests_ranked_term_by_term(
        (tools, queries) in pool_with_own_queries_of(9..24),
        max in 0usize..10,
    ) {
        check(tools, queries, max)?;
    }
}

fn deferred(name: &str, description: &str) -> ToolDoc {
    let mut tool = host_tool(name, description);
    tool.deferred = true;
    tool
}

/// How many results (at most 5) the engine finds for `query`.
/// [`check`] at each cut-off.
fn check_at(tools: &[ToolDoc], queries: &[&str], cut_offs: &[usize]) {
    for &max in cut_offs {
        check(
            tools.to_vec(),
            queries.iter().map(|q| q.to_string()).collect(),
            max,
        )
        .unwrap();
    }
}

fn found(tools: &[ToolDoc], query: &str) -> usize {
    let pool: Vec<Arc<ToolDoc>> = tools.iter().cloned().map(Arc::new).collect();
    let engine = SearchEngine::new(pool, SearchStrategy::Keyword);
    engine.search(query, 5).matches.len()
}

#[test]
fn ties_across_the_kth_place_keep_pool_order() {
    // Every `weather` tool scores 8; a later one scoring 10 must still displace the k-th.
    let mut tools: Vec<ToolDoc> = (0..30)
        .map(|i| deferred(&format!("mcp__s{i}__getweather"), "weather now"))
        .collect();
    tools.push(deferred(
        "mcp__late__weatherbot",
        "weather and more weather, weather now",
    ));
    tools.push(deferred("mcp__later__weather", "nothing"));
    tools.extend((0..5).map(|i| deferred(&format!("mcp__t{i}__weathers"), "weather")));
    let queries = [
        "weather",
        "weather now",
        "weather weather",
        "+now weather",
        "+weather now",
    ];
    assert!(found(&tools, queries[0]) > 0, "the pool is searched");
    check_at(&tools, &queries, &[1, 2, 5, 31, 40]);
}

#[test]
fn exact_and_partial_parts_of_one_term_count_once_at_the_larger_weight() {
    let tools = vec![
        deferred("mcp__send__sender", "send it"),
        deferred("mcp__a__sender", "send"),
        deferred("mcp__b__send", ""),
        deferred("SendSender", "send"),
        deferred("Sender", ""),
    ];
    let queries = [
        "send",
        "send send",
        "+send sender",
        "sen",
        "+sen send",
        "sender send",
    ];
    assert!(found(&tools, queries[0]) > 0, "the pool is searched");
    check_at(&tools, &queries, &[1, 2, 3, 5]);
}

#[test]
fn broad_terms_match_many_parts_and_stay_exact() {
    // More than 16 parts contain `e`: the partial lists merge through a heap and the parts
    // are tested through a bit set.
    let names = [
        "alpha", "beta", "delta", "echo", "hotel", "juliet", "kilo", "lima", "mike", "oscar",
        "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "yankee",
        "zulu", "seven", "eleven", "twelve", "three",
    ];
    let mut tools = Vec::new();
    for (i, a) in names.iter().enumerate() {
        let b = names[(i * 7 + 3) % names.len()];
        tools.push(deferred(
            &format!("mcp__{a}__{b}_{i}"),
            &format!("{b} and {a} e"),
        ));
        tools.push(deferred(&format!("{a}{b}"), &format!("the {a}")));
    }
    let queries = [
        "e", "e a", "+e o", "+o e", "e e l", "the e", "+the e", "l +i", "ee", "e.", "(e)",
    ];
    assert!(found(&tools, queries[0]) > 0, "the pool is searched");
    check_at(&tools, &queries, &[1, 3, 5, 20]);
}

#[test]
fn required_terms_drive_and_filter_under_pruning() {
    let mut tools: Vec<ToolDoc> = (0..40)
        .map(|i| deferred(&format!("mcp__s{i}__getcity"), "city data city"))
        .collect();
    tools.insert(17, deferred("mcp__x__rarething", "city weather"));
    tools.insert(33, deferred("mcp__y__city", "rarething weather"));
    tools.push(deferred("mcp__z__weather_rare", "rare"));
    let queries = [
        "+rarething city",
        "+rare city weather",
        "+city +weather rare",
        "+weather city city",
        "+nothing city",
        "+rarething +weather",
    ];
    assert!(found(&tools, queries[0]) > 0, "the pool is searched");
    check_at(&tools, &queries, &[1, 2, 5]);
}

#[test]
fn index_equals_scan_on_punctuation_and_non_ascii_terms() {
    let tools = vec![
        host_tool(
            "mcp__a__c_plus_plus",
            "compile c++ code, a.b tests (x) and naïve café",
        ),
        deferred("mcp__b__regex", "matches [a] and ^start$ * everything"),
        deferred("mcp__c__x", "k8s get_user ÉTÉ data"),
    ];
    let queries = [
        "c++",
        "a.b",
        "(x)",
        "naïve",
        "caf",
        "[a]",
        "^start$",
        "*",
        "get_user",
        "été",
        "+k8s data",
        "+ data",
    ];
    check(tools, queries.iter().map(|q| q.to_string()).collect(), 5).unwrap();
}

#[test]
fn memo_is_dropped_only_when_the_deferred_set_changes() {
    let a = Arc::new(deferred("mcp__s__alpha", "first words"));
    let b = Arc::new(deferred("mcp__s__beta", "second words"));
    let mut engine = SearchEngine::new(vec![a.clone()], SearchStrategy::Keyword);
    // Same deferred names with a new description: the memoized text stays.
    let changed = Arc::new(deferred("mcp__s__alpha", "replacement"));
    engine.update(vec![changed]);
    assert_eq!(engine.builds(), 1);
    assert_eq!(engine.search("first", 5).matches, ["mcp__s__alpha"]);
    // A new deferred tool: the memo is dropped and rebuilt.
    engine.update(vec![a, b]);
    assert_eq!(engine.builds(), 2);
    assert_eq!(engine.search("second", 5).matches, ["mcp__s__beta"]);
}

#[test]
fn ranked_strategy_keeps_select_exact_name_and_required_meanings() {
    let pool: Vec<Arc<ToolDoc>> = vec![
        Arc::new(host_tool(
            "mcp__slack__send_message",
            "Send a message to a channel",
        )),
        Arc::new(host_tool("mcp__mail__send_email", "Send an email message")),
    ];
    let engine = SearchEngine::new(pool, SearchStrategy::Bm25f);
    assert_eq!(
        engine.search("select:mcp__mail__send_email", 5).matches,
        ["mcp__mail__send_email"]
    );
    assert_eq!(
        engine.search("MCP__SLACK__SEND_MESSAGE", 5).matches,
        ["mcp__slack__send_message"]
    );
    assert_eq!(
        engine.search("mcp__mail", 5).matches,
        ["mcp__mail__send_email"]
    );
    assert_eq!(
        engine.search("+slack message", 5).matches,
        ["mcp__slack__send_message"]
    );
    assert_eq!(
        engine.search("+nothing message", 5).matches,
        Vec::<String>::new()
    );
    assert_eq!(
        engine.search("email", 5).matches[0],
        "mcp__mail__send_email"
    );
}

//! The index answers every seed query exactly like the straight scan (SEMANTICS.md §9), and the
//! engine's memo is dropped only when the deferred set changes.

use std::sync::Arc;

use proptest::prelude::*;
use registry_core::env::Env;
use registry_core::pool::ToolInfo;
use registry_core::search::{SearchEngine, Strategy as SearchStrategy, seed};

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

fn tool() -> impl Strategy<Value = ToolInfo> {
    (name(), text(), proptest::option::of(text()), any::<bool>()).prop_map(
        |(name, description, hint, defer)| {
            let mut tool = ToolInfo::new(name, description);
            tool.search_hint = hint;
            tool.flags.defer = defer;
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

fn check(tools: Vec<ToolInfo>, queries: Vec<String>, max: usize) -> Result<(), TestCaseError> {
    let env = Env::default();
    let pool: Vec<Arc<ToolInfo>> = tools.into_iter().map(Arc::new).collect();
    let engine = SearchEngine::new(&env, pool.clone(), SearchStrategy::Seed);
    let deferred = engine.deferred().to_vec();
    for query in queries {
        let scan = seed::search(&query, max, &pool, &deferred, &[]);
        let indexed = engine.search(&query, max);
        prop_assert_eq!(&indexed, &scan, "query {:?}", query);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn index_equals_scan_for_random_pools_and_queries(
        tools in proptest::collection::vec(tool(), 0..40),
        queries in proptest::collection::vec(query(), 1..8),
        max in 0usize..8,
    ) {
        check(tools, queries, max)?;
    }
}

#[test]
fn index_equals_scan_on_punctuation_and_non_ascii_terms() {
    let tools = vec![
        ToolInfo::new(
            "mcp__a__c_plus_plus",
            "compile c++ code, a.b tests (x) and naïve café",
        ),
        ToolInfo::new("mcp__b__regex", "matches [a] and ^start$ * everything"),
        ToolInfo::new("mcp__c__x", "k8s get_user ÉTÉ data"),
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
    let env = Env::default();
    let a = Arc::new(ToolInfo::new("mcp__s__alpha", "first words"));
    let b = Arc::new(ToolInfo::new("mcp__s__beta", "second words"));
    let mut engine = SearchEngine::new(&env, vec![a.clone()], SearchStrategy::Seed);
    // Same deferred names with a new description: the memoized text stays.
    let changed = Arc::new(ToolInfo::new("mcp__s__alpha", "replacement"));
    engine.update(&env, vec![changed]);
    assert_eq!(engine.builds(), 1);
    assert_eq!(engine.search("first", 5).matches, ["mcp__s__alpha"]);
    // A new deferred tool: the memo is dropped and rebuilt.
    engine.update(&env, vec![a, b]);
    assert_eq!(engine.builds(), 2);
    assert_eq!(engine.search("second", 5).matches, ["mcp__s__beta"]);
}

#[test]
fn ranked_strategy_keeps_select_exact_name_and_required_meanings() {
    let env = Env::default();
    let pool: Vec<Arc<ToolInfo>> = vec![
        Arc::new(ToolInfo::new(
            "mcp__slack__send_message",
            "Send a message to a channel",
        )),
        Arc::new(ToolInfo::new(
            "mcp__mail__send_email",
            "Send an email message",
        )),
    ];
    let engine = SearchEngine::new(&env, pool, SearchStrategy::Ranked);
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

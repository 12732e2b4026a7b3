use super::*;
use crate::ToolDoc;
use crate::text::query::{Terms, parse_terms};

fn deferred(name: &str, description: &str) -> Arc<ToolDoc> {
    Arc::new(ToolDoc::new(name, description))
}

/// Every allowed tool's blended score, sorted (pool order on ties) and cut to `max`.
fn blend_every_tool(
    engine: &SearchEngine<ToolDoc>,
    query: &str,
    terms: &Terms,
    max: usize,
) -> Vec<usize> {
    let allowed = engine.seed.required(&terms.required);
    let ranked = engine.ranked().score(query);
    let weight = engine.weights.seed / (terms.scoring.len().max(1) as f32).powi(2);
    let mut all: Vec<(usize, f32)> = (0..engine.deferred.len())
        .filter(|i| {
            allowed
                .as_ref()
                .is_none_or(|list| list.contains(&(*i as u32)))
        })
        .map(|i| {
            let seed = engine.seed.base().unwrap().text(i).score(&terms.scoring) as f32;
            (i, ranked.of(i) + weight * seed)
        })
        .filter(|(_, score)| *score > 0.0)
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.into_iter().take(max).map(|(i, _)| i).collect()
}

#[test]
fn blend_grows_its_candidates_until_no_other_tool_can_enter() {
    // BM25F and the seed order these tools differently: `searches` is `search` to BM25F
    // (stemmed) but not a word match for the seed, and `websearch` contains `search` for
    // the seed but is another term to BM25F. Three servers hold the same tools, so scores
    // tie across them.
    let mut pool = Vec::new();
    for server in ["alpha", "beta", "gamma"] {
        for i in 0..4 {
            pool.push(deferred(
                &format!("mcp__{server}__finder{i}"),
                "searches the web, searches files",
            ));
            pool.push(deferred(
                &format!("mcp__{server}__websearch{i}"),
                "quick lookup",
            ));
        }
        pool.push(deferred(
            &format!("mcp__{server}__lookup"),
            "search anything",
        ));
        pool.push(deferred(
            &format!("mcp__{server}__search_files"),
            "search files by name",
        ));
        pool.push(deferred(&format!("mcp__{server}__reader"), "reads files"));
    }
    let engine = SearchEngine::new(pool, Strategy::Bm25f);
    let queries = [
        "search",
        "search files",
        "files",
        "web search",
        "+files search",
        "lookup search",
        "searching the web",
    ];
    for query in queries {
        let terms = parse_terms(query);
        let allowed = engine.seed.required(&terms.required);
        let scores = engine.ranked().score(query);
        for max in 1..12 {
            let expected = blend_every_tool(&engine, query, &terms, max);
            assert!(!expected.is_empty(), "{query:?} finds tools");
            let lexical = engine.lexical(&scores, &terms);
            let dense: Vec<usize> = (lexical.blend(max, allowed.as_deref()).into_iter())
                .map(|(i, _)| i)
                .collect();
            assert_eq!(dense, expected, "{query:?} max {max}");
            for first in [1, 2, 5] {
                let blended: Vec<usize> = (engine.lexical(&scores, &terms))
                    .blend_from([first, first], max, allowed.as_deref())
                    .into_iter()
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(blended, expected, "{query:?} max {max} from {first}");
            }
        }
    }
}

#[test]
fn a_request_for_news_finds_no_tool_that_only_makes_something_new() {
    // mcp_servers' request "latest news" (category web) beside three of the 22 tools of that
    // set whose descriptions say "new": a stemmer that made `news` into `new` ranked them.
    let pool = vec![
        deferred(
            "mcp__github__create_issue",
            "Create a new issue in a GitHub repository",
        ),
        deferred(
            "mcp__filesystem__create_directory",
            "Create a new directory or ensure a directory exists",
        ),
        deferred(
            "mcp__sqlite__create_table",
            "Create a new table in the SQLite database",
        ),
        deferred(
            "mcp__fetch__fetch",
            "Fetches a URL from the internet and optionally extracts its contents as markdown.",
        ),
    ];
    let engine = SearchEngine::new(pool, Strategy::Bm25f);
    assert!(engine.search("latest news", 5).matches.is_empty());
    let found = engine.search("news about new tables", 5).matches;
    assert_eq!(
        found.first().map(String::as_str),
        Some("mcp__sqlite__create_table")
    );
}

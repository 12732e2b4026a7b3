//! The `search` target: ToolSearch queries over random pools, both strategies.

use std::collections::HashSet;
use std::sync::Arc;

use toolreg::pool::deferral;
use toolreg::search::seed;
use toolreg::search::text::js_trim;
use toolreg::search::text::query::select_names;
use toolreg::{Env, SearchEngine, Strategy, ToolInfo};

use super::{FRAGMENTS, Gen, TOOL_NAMES, random_pool, unique_names};

/// A random query over `pool`: `select:` lists, `+required` terms, `mcp__` prefixes, exact
/// names in any case, long and Unicode text.
fn query(g: &mut Gen<'_>, pool: &[Arc<ToolInfo>]) -> String {
    let some_name = |g: &mut Gen<'_>| -> String {
        match pool.get(g.below(pool.len() + 1)) {
            Some(tool) if g.chance(1, 5) && !tool.aliases.is_empty() => tool.aliases[0].clone(),
            Some(tool) => tool.name.clone(),
            None => g.word(TOOL_NAMES),
        }
    };
    match g.below(7) {
        0 | 1 => {
            let mut q = (*g.pick(&["select:", "SELECT:", "Select:", "select: "])).to_owned();
            for i in 0..=g.below(5) {
                if i > 0 {
                    q.push_str(g.pick::<&str>(&[",", ", ", " ,", ",,"]));
                }
                q.push_str(&some_name(g));
            }
            q
        }
        2 => {
            let mut q = String::new();
            for _ in 0..=g.below(5) {
                if g.chance(1, 3) {
                    q.push('+');
                }
                let word = match g.below(3) {
                    0 => some_name(g).to_lowercase(),
                    _ => g.word(FRAGMENTS),
                };
                q.push_str(&word);
                q.push(' ');
            }
            q
        }
        3 => {
            let name = some_name(g);
            let rest = name.strip_prefix("mcp__").unwrap_or(&name);
            let cut = (rest.char_indices().map(|(at, _)| at))
                .nth(g.below(40))
                .unwrap_or(rest.len());
            format!("mcp__{}", rest.get(..cut).unwrap_or_default())
        }
        4 => {
            let name = some_name(g);
            let name = match g.below(3) {
                0 => name.to_uppercase(),
                1 => name.to_lowercase(),
                _ => name,
            };
            format!(
                "{}{name}{}",
                g.pick(&["", " ", "\u{feff}", "\n"]),
                g.pick(&["", " \t"])
            )
        }
        _ => g.text(24, TOOL_NAMES),
    }
}

/// Checks one engine's answer against the pool and the query.
fn check(env: &Env, pool: &[Arc<ToolInfo>], engine: &SearchEngine, q: &str, max: usize) {
    let output = engine.search(q, max);
    let names = unique_names(pool);
    let deferred: HashSet<&str> = pool
        .iter()
        .filter(|tool| deferral(tool, env))
        .map(|tool| tool.name.as_str())
        .collect();
    assert_eq!(output.total_deferred_tools, deferred.len(), "{q:?}");
    let mut seen = HashSet::new();
    for name in &output.matches {
        assert!(
            names.contains(name.as_str()),
            "{q:?} matched {name:?}, not in the pool"
        );
        assert!(seen.insert(name), "{q:?} matched {name:?} twice");
    }
    if select_names(q).is_some() {
        return;
    }
    // An exact name (in any case, trimmed) may be a tool that is not deferred, and is not capped.
    let lower = q.to_lowercase();
    let exact = js_trim(&lower);
    if let [only] = output.matches.as_slice()
        && only.to_lowercase() == exact
    {
        return;
    }
    for name in &output.matches {
        assert!(
            deferred.contains(name.as_str()),
            "{q:?} matched {name:?}, not deferred"
        );
    }
    assert!(
        output.matches.len() <= max,
        "{q:?}: {} > {max}",
        output.matches.len()
    );
}

/// Feeds a random pool (the built-ins assembled in a random environment, plus random MCP and
/// host tools with clashing, long, Unicode and control-character names) and up to four random
/// queries with `max_results` anywhere in `0..=usize::MAX`, to both strategies.
///
/// Asserts: every match is a tool of the pool, no match is repeated, `total_deferred_tools`
/// counts the deferred tools; except for `select:` and exact-name queries, every match is
/// deferred and there are at most `max_results`; and the keyword strategy's indexed engine gives
/// exactly the matches of the straight scan (`search::seed::search`).
pub fn search(data: &[u8]) {
    let mut g = Gen::new(data);
    let (env, pool) = random_pool(&mut g);
    let queries: Vec<(String, usize)> = (0..=g.below(4))
        .map(|_| (query(&mut g, &pool), g.usize_any()))
        .collect();
    for strategy in [Strategy::Keyword, Strategy::Bm25f] {
        let engine = SearchEngine::new(pool.to_vec(), strategy);
        for (q, max) in &queries {
            check(&env, &pool, &engine, q, *max);
            if strategy == Strategy::Keyword {
                let scan = seed::search(q, *max, &pool, engine.deferred(), &[]);
                assert_eq!(
                    engine.search(q, *max).matches,
                    scan.matches,
                    "{q:?} max {max}"
                );
            }
        }
    }
}

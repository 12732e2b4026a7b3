//! When only some MCP servers' tools change, the engine re-indexes those servers' tools only,
//! and every search answers exactly as a new engine over the new pool would.

use std::sync::Arc;

use serde_json::Value;
use toolreg::mcp::load_servers;
use toolreg::{SearchEngine, Strategy, ToolInfo};

const SERVERS: [&str; 11] = [
    "desktop-commander",
    "everything",
    "fetch",
    "filesystem",
    "git",
    "github",
    "memory",
    "notion",
    "sequential-thinking",
    "sqlite",
    "time",
];

fn fixture(server: &str) -> Value {
    let path = format!(
        "{}/../data/mcp-fixtures/{server}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The pool of the fixture servers, with `edit` applied to each server's list first.
fn pool(edit: impl Fn(&str, &mut Vec<Value>)) -> Vec<Arc<ToolInfo>> {
    let lists: Vec<(&str, Value)> = SERVERS
        .iter()
        .map(|server| {
            let mut tools = fixture(server).as_array().unwrap().clone();
            edit(server, &mut tools);
            (*server, Value::Array(tools))
        })
        .collect();
    let mut pool = load_servers(lists.iter().map(|(server, list)| (*server, list))).tools;
    pool.sort_by(|a, b| a.name.cmp(&b.name));
    pool
}

/// Queries that reach every part of the seed rules: words of names and descriptions, required
/// terms, prefixes, `select:`.
fn queries(pool: &[Arc<ToolInfo>]) -> Vec<String> {
    let mut queries = vec![
        "file".to_owned(),
        "read file".into(),
        "+git commit".into(),
        "+issue create".into(),
        "mcp__git".into(),
        "mcp__github__".into(),
        "select:mcp__time__get_current_time,mcp__git__git_log".into(),
        "search repository code".into(),
        "+page notion database".into(),
        "zzz nothing matches".into(),
    ];
    for tool in pool.iter().step_by(7) {
        let words: Vec<&str> = tool.description.split_whitespace().take(3).collect();
        queries.push(words.join(" "));
        queries.push(tool.name.clone());
    }
    queries
}

fn assert_same_answers(updated: &SearchEngine, pool: &[Arc<ToolInfo>], strategy: Strategy) {
    let fresh = SearchEngine::new(pool.to_vec(), strategy);
    for query in queries(pool) {
        for max in [1, 5, 20] {
            assert_eq!(
                updated.search(&query, max).matches,
                fresh.search(&query, max).matches,
                "{strategy:?} {query:?} max {max}"
            );
        }
    }
}

fn rename_git_log(server: &str, tools: &mut Vec<Value>) {
    if server == "git" {
        tools.retain(|tool| tool["name"] != "git_log");
        tools.push(serde_json::json!({
            "name": "git_history",
            "description": "Show the commit history of the repository, newest first",
            "inputSchema": {"type": "object"},
        }));
    }
}

#[test]
fn a_changed_server_is_reindexed_alone_with_the_answers_of_a_full_build() {
    for strategy in [Strategy::Keyword, Strategy::Bm25f] {
        let before = pool(|_, _| {});
        let mut engine = SearchEngine::new(before.clone(), strategy);
        assert_eq!(engine.shards().len(), 1);
        let after = pool(rename_git_log);
        engine.update(after.clone());
        assert_eq!(engine.builds(), 1, "no full build");
        let layout = engine.shards();
        assert_eq!(layout.len(), 2, "{layout:?}");
        assert_eq!(
            layout[1],
            (Some("git".to_owned()), 12),
            "git's 12 tools, new ones"
        );
        assert_eq!(
            layout[0].1,
            before.len() - 12,
            "git's old tools are out of the base"
        );
        assert_same_answers(&engine, &after, strategy);
        assert_eq!(
            engine.search("commit history newest", 1).matches,
            ["mcp__git__git_history"]
        );
    }
}

#[test]
fn a_server_changed_twice_keeps_one_shard_and_a_removed_server_leaves_the_answers() {
    let mut engine = SearchEngine::new(pool(|_, _| {}), Strategy::Keyword);
    engine.update(pool(rename_git_log));
    let twice = |server: &str, tools: &mut Vec<Value>| {
        rename_git_log(server, tools);
        if server == "git" {
            tools.truncate(5);
        }
    };
    engine.update(pool(twice));
    assert_eq!(engine.shards()[1..], [(Some("git".to_owned()), 5)]);
    assert_same_answers(&engine, &pool(twice), Strategy::Keyword);
    let gone = |server: &str, tools: &mut Vec<Value>| {
        twice(server, tools);
        if server == "time" {
            tools.clear();
        }
    };
    engine.update(pool(gone));
    assert_same_answers(&engine, &pool(gone), Strategy::Keyword);
    assert!(
        engine
            .search("current time timezone", 5)
            .matches
            .iter()
            .all(|m| !m.contains("time__"))
    );
    assert_eq!(engine.builds(), 1);
}

#[test]
fn many_changed_servers_fold_back_into_one_index() {
    let mut engine = SearchEngine::new(pool(|_, _| {}), Strategy::Keyword);
    let mut changed: Vec<&str> = Vec::new();
    // Small servers, so the base keeps three quarters of its tools live throughout.
    for server in ["time", "sqlite", "memory", "everything", "filesystem"] {
        changed.push(server);
        let edit = |name: &str, tools: &mut Vec<Value>| {
            if changed.contains(&name) {
                tools.pop();
            }
        };
        engine.update(pool(edit));
        assert_same_answers(&engine, &pool(edit), Strategy::Keyword);
        if changed.len() == 4 {
            assert_eq!(engine.shards().len(), 5, "the base and four server shards");
        }
    }
    assert_eq!(
        engine.builds(),
        2,
        "the fifth server shard is one too many: a full build"
    );
    assert_eq!(engine.shards().len(), 1);
}

#[test]
fn a_base_a_quarter_dead_is_built_again() {
    let mut engine = SearchEngine::new(pool(|_, _| {}), Strategy::Keyword);
    // github (26) and notion (24) are 50 of the 134 tools.
    let edit = |server: &str, tools: &mut Vec<Value>| {
        if server == "github" || server == "notion" {
            tools.pop();
        }
    };
    engine.update(pool(edit));
    assert_eq!(engine.builds(), 2);
    assert_eq!(engine.shards().len(), 1);
    assert_same_answers(&engine, &pool(edit), Strategy::Keyword);
}

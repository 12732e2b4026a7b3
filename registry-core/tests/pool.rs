//! The `Pool` type holds the pool's rules (`docs/design.md` §7): one tool per name, the
//! built-ins sorted by name before the MCP tools sorted by name, deferral decided for the
//! environment; and finds a tool by name or alias as the first tool that answers to it.

use std::sync::Arc;

use serde_json::json;
use toolreg::env::Gates;
use toolreg::mcp::load_server;
use toolreg::{Env, Pool, Profile, ToolInfo};

fn host(name: &str, aliases: &[&str]) -> Arc<ToolInfo> {
    let mut tool = ToolInfo::new(name, format!("{name} does things"));
    tool.aliases = aliases.iter().map(|alias| (*alias).to_owned()).collect();
    Arc::new(tool)
}

fn names(pool: &Pool) -> Vec<&str> {
    pool.iter().map(|tool| tool.name.as_str()).collect()
}

#[test]
fn a_pool_keeps_the_first_tool_of_each_name_builtins_then_mcp_tools_each_sorted() {
    let listed = json!([
        {"name": "status", "inputSchema": {"type": "object"}},
        {"name": "log", "inputSchema": {"type": "object"}},
    ]);
    let mut tools = load_server("git", &listed).tools;
    tools.extend([host("Write", &[]), host("Read", &[]), host("a_tool", &[])]);
    let first_read = host("Read", &["Cat"]);
    tools.insert(0, Arc::clone(&first_read));
    let pool = Pool::new(&Env::default(), tools);
    assert_eq!(
        names(&pool),
        [
            "Read",
            "Write",
            "a_tool",
            "mcp__git__log",
            "mcp__git__status"
        ]
    );
    assert!(Arc::ptr_eq(&pool[0], &first_read), "the first Read wins");
}

#[test]
fn a_pool_finds_a_tool_by_name_or_alias_as_the_first_tool_that_answers_to_it() {
    // `Cat` is Alpha's alias and Cat's name: Alpha comes first.
    let pool = Pool::new(
        &Env::default(),
        [
            host("Cat", &[]),
            host("Alpha", &["Cat", "A"]),
            host("Zed", &["A"]),
        ],
    );
    for name in ["Cat", "Alpha", "A", "Zed", "cat", "Nothing", ""] {
        let linear = pool.iter().find(|tool| tool.answers_to(name));
        assert_eq!(
            pool.find(name).map(|tool| &tool.name),
            linear.map(|tool| &tool.name),
            "{name:?}"
        );
    }
    assert_eq!(pool.find("Cat").unwrap().name, "Alpha");
    assert_eq!(pool.named("Cat").unwrap().name, "Cat", "by name only");
    assert!(pool.named("A").is_none());
}

#[test]
fn a_filtered_pool_keeps_the_order_and_finds_only_what_it_kept() {
    let pool = Pool::new(
        &Env::default(),
        [
            host("Read", &["Cat"]),
            host("Grep", &[]),
            host("Write", &[]),
        ],
    );
    let kept = pool.filter(|tool| tool.name != "Read");
    assert_eq!(names(&kept), ["Grep", "Write"]);
    assert!(kept.find("Cat").is_none() && kept.find("Read").is_none());
    assert_eq!(kept.find("Write").unwrap().name, "Write");
    assert_eq!(
        names(&pool),
        ["Grep", "Read", "Write"],
        "the pool itself is unchanged"
    );
}

/// Keeps every tool loaded whatever its `defer` flag says.
#[derive(Debug)]
struct KeepLoaded;

impl Profile for KeepLoaded {
    fn name(&self) -> &str {
        "keep-loaded"
    }

    fn deferral(&self, _: &ToolInfo, _: Gates<'_>) -> Option<bool> {
        Some(false)
    }
}

#[test]
fn a_pool_decides_each_tools_deferral_for_its_environment() {
    let mut lazy = ToolInfo::new("Lazy", "sent by name only");
    lazy.flags.defer = true;
    let lazy = Arc::new(lazy);
    assert!(Pool::new(&Env::default(), [Arc::clone(&lazy)])[0].is_deferred());
    let kept = Pool::new(&Env::with_profile(KeepLoaded), [Arc::clone(&lazy)]);
    assert!(!kept[0].is_deferred(), "the profile keeps it loaded");
    assert!(lazy.is_deferred(), "the tool given is not changed");
}

//! Hostile `tools/list` data: every entry is normalized or rejected with an error naming the
//! server and the tool, the rest loads, and nothing costs more than linear time and memory.

use std::collections::HashSet;

use serde_json::{Value, json};
use toolreg::mcp::{
    MAX_DESCRIPTION_CHARS, McpLimits, McpProblem, load_server, load_servers, load_servers_with,
};

fn api_valid(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn tool(name: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}})
}

#[test]
fn duplicates_within_and_across_servers_all_load_under_unique_valid_names() {
    let list = json!([tool("x"), tool("x"), tool("x.y"), tool("x_y"), tool("x y")]);
    let loaded = load_servers([("a", &list), ("a", &list), ("a.", &list)]);
    assert!(loaded.errors.is_empty());
    assert_eq!(loaded.tools.len(), 15);
    let names: HashSet<&str> = loaded.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 15, "{names:?}");
    assert!(names.iter().all(|name| api_valid(name)));
}

#[test]
fn one_hundred_thousand_copies_of_one_name_get_unique_names_in_linear_time() {
    // Naming the n-th copy used to walk n counters: 10,000 copies took 19 s, so 100,000 would
    // take half an hour; now each copy takes constant time.
    let list = Value::Array((0..10_000).map(|_| tool("same")).collect());
    let loaded = load_servers((0..10).map(|_| ("s", &list)));
    assert!(loaded.errors.is_empty());
    let names: HashSet<&str> = loaded.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 100_000);
    assert!(names.iter().all(|name| api_valid(name)));
}

#[test]
fn names_with_control_characters_and_unicode_are_normalized() {
    let loaded = load_server(
        "sërver\n",
        &json!([
            tool("ab\u{0}cd"),
            tool("new\nline"),
            tool("日本語"),
            tool("\u{202e}evil")
        ]),
    );
    assert!(loaded.errors.is_empty());
    for tool in &loaded.tools {
        assert!(api_valid(&tool.name), "{:?}", tool.name);
        assert!(tool.permission_name().is_ascii());
    }
    assert_eq!(loaded.tools[0].name, "mcp__s_rver___ab_cd");
}

#[test]
fn names_past_the_byte_limit_are_rejected_naming_server_and_tool() {
    let long = "n".repeat(2000);
    let loaded = load_server("srv", &json!([tool(&long), tool("ok")]));
    assert_eq!(loaded.tools.len(), 1);
    let error = &loaded.errors[0];
    assert_eq!(error.server, "srv");
    assert_eq!(error.index, Some(0));
    assert!(matches!(
        error.problem,
        McpProblem::NameTooLong { bytes: 2000, .. }
    ));
    assert!(error.tool.as_deref().is_some_and(|t| t.len() == 100));
}

#[test]
fn a_fifty_megabyte_description_is_cut_to_the_cap() {
    let huge = "d".repeat(50 * 1024 * 1024);
    let loaded = load_server(
        "s",
        &json!([{"name": "t", "description": huge, "inputSchema": {}}]),
    );
    assert_eq!(
        loaded.tools[0].description.chars().count(),
        MAX_DESCRIPTION_CHARS
    );
}

#[test]
fn schemas_that_are_not_objects_are_rejected_and_the_rest_loads() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "inputSchema": "object"},
            {"name": "b", "inputSchema": null},
            {"name": "c", "inputSchema": [1, 2]},
            {"name": "d", "inputSchema": true},
            tool("fine"),
        ]),
    );
    assert_eq!(loaded.tools.len(), 1);
    assert_eq!(loaded.errors.len(), 4);
    for (error, name) in loaded.errors.iter().zip(["a", "b", "c", "d"]) {
        assert_eq!(error.problem, McpProblem::SchemaNotAnObject);
        assert_eq!(error.tool.as_deref(), Some(name));
        assert!(error.to_string().starts_with("mcp server `s`, tools["));
    }
}

#[test]
fn a_schema_nested_ten_thousand_deep_is_rejected_without_recursing() {
    // Building and dropping such a value recurses inside serde_json, so this runs on a thread
    // with a large stack; the loader itself walks it with a heap stack.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(|| {
            let mut schema = json!({"type": "object"});
            for _ in 0..10_000 {
                // Built by moving, not with `json!`, which would copy the inner value.
                let mut properties = serde_json::Map::new();
                properties.insert("x".into(), schema);
                let mut outer = serde_json::Map::new();
                outer.insert("type".into(), "object".into());
                outer.insert("properties".into(), Value::Object(properties));
                schema = Value::Object(outer);
            }
            let list = json!([{"name": "deep", "inputSchema": schema}, tool("fine")]);
            let loaded = load_server("s", &list);
            assert_eq!(loaded.tools.len(), 1);
            assert_eq!(
                loaded.errors[0].problem,
                McpProblem::SchemaTooDeep { limit: 64 }
            );
            drop(list);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_schema_past_the_size_limit_is_rejected() {
    let big: serde_json::Map<String, Value> = (0..20_000)
        .map(|i| (format!("field_{i}"), json!({"type": "string"})))
        .collect();
    let loaded = load_server(
        "s",
        &json!([{"name": "big", "inputSchema": {"type": "object", "properties": big}}]),
    );
    assert!(loaded.tools.is_empty());
    assert!(matches!(
        loaded.errors[0].problem,
        McpProblem::SchemaTooLarge { .. }
    ));
}

#[test]
fn meta_and_annotations_of_the_wrong_type_are_ignored() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "inputSchema": {}, "_meta": "not an object"},
            {"name": "b", "inputSchema": {}, "_meta": {"anthropic/searchHint": 7, "anthropic/alwaysLoad": "yes"}},
            {"name": "c", "inputSchema": {}, "annotations": [true], "description": 12},
        ]),
    );
    assert!(loaded.errors.is_empty());
    for tool in &loaded.tools {
        assert_eq!(tool.search_hint, None);
        assert!(!tool.flags.always_load && !tool.flags.read_only);
        assert_eq!(tool.description, "");
    }
}

#[test]
fn tools_past_the_per_server_limit_are_reported_once_and_other_servers_still_load() {
    let many = Value::Array((0..100_000).map(|i| tool(&format!("t{i}"))).collect());
    let loaded = load_servers([("big", &many), ("small", &json!([tool("x")]))]);
    let limit = McpLimits::default().max_tools_per_server;
    assert_eq!(loaded.tools.len(), limit + 1);
    assert_eq!(loaded.errors.len(), 1);
    assert_eq!(loaded.errors[0].server, "big");
    assert_eq!(
        loaded.errors[0].problem,
        McpProblem::TooManyTools {
            skipped: 100_000 - limit,
            limit
        }
    );
    let limits = McpLimits {
        max_tools_per_server: 100_000,
        ..McpLimits::default()
    };
    assert_eq!(
        load_servers_with(&limits, [("big", &many)]).tools.len(),
        100_000
    );
}

//! `docs/design.md` §6: MCP tools at run time.

use std::collections::HashSet;

use serde_json::json;
use toolreg::mcp::{
    MAX_DESCRIPTION_CHARS, McpProblem, TRUNCATION_MARKER, load_server, load_servers,
    normalize_name_for_mcp,
};

#[test]
fn names_are_normalized_outside_allowed_characters() {
    assert_eq!(normalize_name_for_mcp("my.server v2"), "my_server_v2");
    assert_eq!(normalize_name_for_mcp("ok-name_1"), "ok-name_1");
    assert_eq!(normalize_name_for_mcp("naïve"), "na_ve");
    let loaded = load_server(
        "claude.ai Notion",
        &json!([{"name": "search/pages", "inputSchema": {"type": "object"}}]),
    );
    assert_eq!(loaded.tools[0].name, "mcp__claude_ai_Notion__search_pages");
}

#[test]
fn raw_names_are_kept_beside_the_normalized_one() {
    let loaded = load_server(
        "a.b",
        &json!({"tools": [{"name": "x.y", "inputSchema": {}}]}),
    );
    let mcp = loaded.tools[0].mcp().unwrap();
    assert_eq!(
        (&*mcp.server, mcp.tool.as_str(), &*mcp.normalized_server),
        ("a.b", "x.y", "a_b")
    );
}

#[test]
fn result_may_be_wrapped_bare_or_a_json_rpc_response() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}});
    for result in [
        json!([tool]),
        json!({"tools": [tool]}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}}),
    ] {
        assert_eq!(load_server("s", &result).tools.len(), 1, "{result}");
    }
    let bad = load_server("s", &json!({"nothing": 1}));
    assert!(bad.tools.is_empty());
    assert_eq!(bad.errors[0].index, None);
}

#[test]
fn search_hint_comes_from_meta_with_whitespace_collapsed() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "inputSchema": {}, "_meta": {"anthropic/searchHint": "  read   pages\n fast "}},
            {"name": "b", "inputSchema": {}, "_meta": {"anthropic/searchHint": "   "}},
            {"name": "c", "inputSchema": {}},
        ]),
    );
    assert_eq!(
        loaded.tools[0].search_hint.as_deref(),
        Some("read pages fast")
    );
    assert_eq!(loaded.tools[1].search_hint, None);
    assert_eq!(loaded.tools[2].search_hint, None);
}

#[test]
fn always_load_needs_meta_true_exactly() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "inputSchema": {}, "_meta": {"anthropic/alwaysLoad": true}},
            {"name": "b", "inputSchema": {}, "_meta": {"anthropic/alwaysLoad": "true"}},
        ]),
    );
    assert!(loaded.tools[0].flags.always_load);
    assert!(!loaded.tools[1].flags.always_load);
}

#[test]
fn read_only_hint_sets_read_only_and_concurrency_safe() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "inputSchema": {}, "annotations": {"readOnlyHint": true}},
            {"name": "b", "inputSchema": {}, "annotations": {"readOnlyHint": false}},
        ]),
    );
    assert!(loaded.tools[0].flags.read_only && loaded.tools[0].flags.concurrency_safe);
    assert!(!loaded.tools[1].flags.read_only && !loaded.tools[1].flags.concurrency_safe);
}

#[test]
fn annotations_and_title_are_kept_as_the_server_sent_them() {
    let loaded = load_server(
        "s",
        &json!([
            {"name": "a", "title": "Read a file", "inputSchema": {}, "annotations": {
                "title": "ignored: the top-level title wins",
                "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false,
            }},
            {"name": "b", "inputSchema": {}, "annotations": {"title": "Delete", "destructiveHint": true}},
            {"name": "c", "inputSchema": {}},
        ]),
    );
    let mcp = |i: usize| loaded.tools[i].mcp().unwrap().clone();
    assert_eq!(mcp(0).title.as_deref(), Some("Read a file"));
    assert_eq!(mcp(0).annotations.read_only, Some(true));
    assert_eq!(mcp(0).annotations.idempotent, Some(true));
    assert_eq!(mcp(0).annotations.open_world, Some(false));
    assert_eq!(mcp(0).annotations.destructive, None, "absent stays absent");
    assert_eq!(
        mcp(1).title.as_deref(),
        Some("Delete"),
        "annotations.title when no title"
    );
    assert_eq!(mcp(1).annotations.destructive, Some(true));
    assert_eq!(mcp(2).title, None);
    assert_eq!(mcp(2).annotations, toolreg::mcp::McpAnnotations::default());
}

#[test]
fn long_description_is_cut_to_2048_characters_with_a_marker() {
    let long = "é".repeat(3000);
    let loaded = load_server(
        "s",
        &json!([{"name": "a", "description": long, "inputSchema": {}}]),
    );
    let description = &loaded.tools[0].description;
    assert_eq!(description.chars().count(), MAX_DESCRIPTION_CHARS);
    assert!(description.ends_with(TRUNCATION_MARKER));
    let exact = "x".repeat(2048);
    let loaded = load_server(
        "s",
        &json!([{"name": "a", "description": exact, "inputSchema": {}}]),
    );
    assert_eq!(loaded.tools[0].description, exact);
}

#[test]
fn schema_is_taken_as_received_with_key_order() {
    let loaded = load_server(
        "s",
        &json!([{"name": "a", "inputSchema": {"type": "object", "required": ["z"], "properties": {"z": {"type": "string"}, "a": {}}}}]),
    );
    assert_eq!(
        &*loaded.tools[0].input_schema,
        r#"{"type":"object","required":["z"],"properties":{"z":{"type":"string"},"a":{}}}"#
    );
}

#[test]
fn malformed_entries_are_reported_with_server_and_index_and_skipped() {
    let loaded = load_server(
        "files",
        &json!([
            {"name": "good", "inputSchema": {}},
            {"inputSchema": {}},
            {"name": 7, "inputSchema": {}},
            {"name": "noschema"},
            {"name": "arrayschema", "inputSchema": []},
            "not an object",
            {"name": "also_good", "inputSchema": {"type": "object"}},
        ]),
    );
    let names: Vec<&str> = loaded.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["mcp__files__good", "mcp__files__also_good"]);
    let indexes: Vec<Option<usize>> = loaded.errors.iter().map(|error| error.index).collect();
    assert_eq!(indexes, [Some(1), Some(2), Some(3), Some(4), Some(5)]);
    assert!(loaded.errors.iter().all(|error| error.server == "files"));
    assert!(loaded.errors[2].to_string().contains("tools[3]"));
    assert_eq!(loaded.errors[2].problem, McpProblem::MissingSchema);
    assert_eq!(loaded.errors[2].tool.as_deref(), Some("noschema"));
    assert!(loaded.errors[2].to_string().contains("(`noschema`)"));
}

fn api_valid(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[test]
fn over_long_names_get_a_hashed_api_valid_name() {
    let long_tool = "a".repeat(80);
    let loaded = load_server(
        "server",
        &json!([{"name": long_tool, "inputSchema": {}}, {"name": format!("{long_tool}b"), "inputSchema": {}}]),
    );
    let names: Vec<&str> = loaded.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert!(names.iter().all(|name| api_valid(name)), "{names:?}");
    assert_ne!(names[0], names[1]);
    assert!(names[0].starts_with("mcp__server__aaa"));
    let again = load_server("server", &json!([{"name": long_tool, "inputSchema": {}}]));
    assert_eq!(again.tools[0].name, names[0], "deterministic");
}

#[test]
fn names_that_normalize_alike_stay_unique_first_keeps_plain_name() {
    let loaded = load_servers([
        (
            "a.b",
            &json!([{"name": "x.y", "inputSchema": {}}, {"name": "x y", "inputSchema": {}}]),
        ),
        ("a b", &json!([{"name": "x_y", "inputSchema": {}}])),
    ]);
    let names: Vec<&str> = loaded.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names[0], "mcp__a_b__x_y");
    assert_eq!(names.iter().collect::<HashSet<_>>().len(), 3, "{names:?}");
    assert!(names.iter().all(|name| api_valid(name)));
}

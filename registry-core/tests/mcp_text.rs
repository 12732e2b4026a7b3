//! `tools/list` results read from their JSON text (`McpLoader::add_json`) load the same tools,
//! and report the same errors, as the parsed value (`McpLoader::add`), without a `Value` of the
//! whole text.

use serde_json::{Value, json};
use toolreg::mcp::{McpLimits, McpLoader, McpProblem, McpTools, load_server, load_server_json};

/// Everything loaded, as text: `ToolInfo` has no `PartialEq`, its `Debug` shows every field.
fn shown(loaded: &McpTools) -> String {
    format!("{:#?}\n{:#?}", loaded.tools, loaded.errors)
}

/// `text` loaded from its text and from its value, which must agree.
fn both(server: &str, text: &str) -> McpTools {
    let value: Value = serde_json::from_str(text).unwrap();
    let from_text = load_server_json(server, text).unwrap();
    assert_eq!(
        shown(&from_text),
        shown(&load_server(server, &value)),
        "{text}"
    );
    from_text
}

#[test]
fn the_captured_servers_load_alike_from_text_and_from_values() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/mcp-fixtures");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let server = path.file_stem().unwrap().to_string_lossy().into_owned();
        // As captured (pretty), minified, and wrapped as a JSON-RPC response.
        let wrapped = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": value}});
        for text in [text, value.to_string(), wrapped.to_string()] {
            assert!(!both(&server, &text).tools.is_empty(), "{server}");
        }
        files += 1;
    }
    assert_eq!(files, 11);
}

#[test]
fn malformed_and_hostile_entries_are_reported_alike() {
    let deep = format!(
        r#"{{"type":"object","properties":{{"x":{}1{}}}}}"#,
        r#"{"items":"#.repeat(70),
        "}".repeat(70)
    );
    let cases = [
        json!([
            {"name": "good", "inputSchema": {}},
            {"inputSchema": {}},
            {"name": 7, "inputSchema": {}},
            {"name": "", "inputSchema": {}},
            {"name": "noschema"},
            {"name": "arrayschema", "inputSchema": []},
            "not an object",
            null,
            {"name": "x".repeat(2000), "inputSchema": {}},
            {"name": "deep", "inputSchema": serde_json::from_str::<Value>(&deep).unwrap()},
            {"name": "also_good", "inputSchema": {"type": "object"}, "outputSchema": 5},
        ]),
        json!({"tools": [
            {"name": "a", "inputSchema": {}, "_meta": "not an object"},
            {"name": "b", "inputSchema": {}, "_meta": {"anthropic/searchHint": 7, "anthropic/alwaysLoad": "yes"}},
            {"name": "c", "inputSchema": {}, "annotations": [true], "description": 12},
            {"name": "d", "description": "Reads ünïcödé\n\"quoted\"", "title": "  ", "annotations": {"title": "Shown", "readOnlyHint": true}, "inputSchema": {"type": "object", "properties": {"é": {"type": "number", "minimum": 1.5e3}}}},
            {"name": "a", "inputSchema": {}},
            {"name": "a b", "inputSchema": {}},
        ]}),
        json!({"nothing": 1}),
        json!({"tools": {"not": "an array"}, "result": {"tools": []}}),
        json!({"result": {"result": {"tools": []}}}),
        json!(42),
        json!([]),
    ];
    for case in cases {
        both("s", &case.to_string());
    }
}

#[test]
fn text_that_a_value_reads_otherwise_loads_as_the_value_does() {
    // Repeated keys (the last one counts), escaped keys and names, a wrapped list whose
    // `tools` comes after its `result`.
    for text in [
        r#"{"tools": [{"name": "first", "inputSchema": {}}], "tools": [{"name": "second", "inputSchema": {}}]}"#,
        r#"{"tools": [{"name": "kept", "inputSchema": {}}], "tools": 5}"#,
        r#"[{"na\u006de": "esc\u0061ped\/name", "inputSchema": {"a": 1, "a": {"b": "\u00e9"}}}]"#,
        r#"{"result": {"tools": [{"name": "inner", "inputSchema": {}}]}, "tools": [{"name": "outer", "inputSchema": {}}]}"#,
        " \n [ { \"name\" : \"spaced\" , \"inputSchema\" : { \"type\" : \"object\" } } ] \n ",
    ] {
        both("s", text);
    }
}

#[test]
fn text_that_is_not_json_is_the_same_error_as_reading_a_value() {
    let deep = format!("[{}{}]", "[".repeat(200), "]".repeat(200));
    for text in [
        "this is not json",
        "{",
        r#"[{"name": "a", "inputSchema": {}}] trailing"#,
        r#"[{"name": "\ud800", "inputSchema": {}}]"#,
        r#"[{"name": "a", "inputSchema": {"maximum": 1e400}}]"#,
        deep.as_str(),
    ] {
        let expected = serde_json::from_str::<Value>(text).unwrap_err().to_string();
        let error = load_server_json("s", text).unwrap_err();
        assert_eq!(error.to_string(), expected, "{text}");
    }
}

#[test]
fn servers_added_one_by_one_are_named_across_servers() {
    let mut loader = McpLoader::with_limits(McpLimits {
        max_tools_per_server: 2,
        ..McpLimits::default()
    });
    loader
        .add_json("a.b", r#"[{"name": "t", "inputSchema": {}}]"#)
        .unwrap();
    loader.add("a b", &json!([{"name": "t", "inputSchema": {}}]));
    let three = r#"[{"name": "t", "inputSchema": {}}, {"name": "u", "inputSchema": {}}, {"name": "v", "inputSchema": {}}]"#;
    loader.add_json("a_b", three).unwrap();
    assert!(loader.add_json("c", "[").is_err());
    let loaded = loader.finish();
    let names: Vec<&str> = loaded.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names.len(), 4);
    assert_eq!(names[0], "mcp__a_b__t");
    assert!(names[1].starts_with("mcp__a_b__t_") && names[2].starts_with("mcp__a_b__t_"));
    assert_ne!(names[1], names[2]);
    assert_eq!(names[3], "mcp__a_b__u");
    assert_eq!(loaded.errors.len(), 1);
    assert_eq!(
        loaded.errors[0].problem,
        McpProblem::TooManyTools {
            skipped: 1,
            limit: 2
        }
    );
    let servers: Vec<&str> = loaded
        .tools
        .iter()
        .map(|tool| &*tool.mcp().unwrap().server)
        .collect();
    assert_eq!(servers, ["a.b", "a b", "a_b", "a_b"]);
}

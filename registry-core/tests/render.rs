//! `docs/design.md` §10: the schema cache and rendering.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::env::Betas;
use toolreg::env::Provider;
use toolreg::mcp::load_server;
use toolreg::tool::Flags;
use toolreg::wire::ToolsArray;
use toolreg::wire::anthropic::CacheSettings;
use toolreg::wire::anthropic::{
    CacheControl, DeferStrategy, REFS_REMOVED_DISABLED, REFS_REMOVED_GONE, discovered_tools,
    rewrite_tool_references,
};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
use toolreg::{Env, Pool, RenderOptions, SchemaCache, ToolInfo, render_anthropic, render_openai};

fn builtin(name: &str, defer: bool) -> Arc<ToolInfo> {
    let mut tool = ToolInfo::new(name, format!("{name} does things"));
    tool.flags.defer = defer;
    Arc::new(tool)
}

/// A pool of `tools`, as assembly orders it.
fn pooled(tools: impl IntoIterator<Item = Arc<ToolInfo>>) -> Pool {
    Pool::new(&Env::default(), tools)
}

fn pool() -> Pool {
    let mut tools = vec![
        builtin("Bash", false),
        builtin("ToolSearch", false),
        builtin("WebFetch", true),
    ];
    let mcp = load_server(
        "git",
        &json!([
            {"name": "git_status", "description": "Show status", "inputSchema": {"type": "object"}},
            {"name": "git_log", "description": "Show log", "inputSchema": {"type": "object"}},
        ]),
    );
    tools.extend(mcp.tools);
    pooled(tools)
}

fn tools_json(tools: &ToolsArray) -> Vec<Value> {
    tools.to_value().unwrap().as_array().unwrap().clone()
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect()
}

fn search_on(strategy: DeferStrategy) -> RenderOptions {
    RenderOptions {
        tool_search: true,
        strategy,
        ..Default::default()
    }
}

#[test]
fn first_render_locks_the_bytes_for_the_session() {
    let cache = SchemaCache::new();
    let env = Env::default();
    let before = render_anthropic(
        &env,
        &pooled([builtin("Bash", false)]),
        &cache,
        &RenderOptions::default(),
    )
    .unwrap();
    let mut changed = ToolInfo::new("Bash", "a new dynamic prompt");
    changed.flags.strict = true;
    let after = render_anthropic(
        &env,
        &pooled([Arc::new(changed)]),
        &cache,
        &RenderOptions::default(),
    )
    .unwrap();
    assert_eq!(before.tools, after.tools);
    cache.clear();
    let fresh = render_anthropic(
        &env,
        &pooled([Arc::new(ToolInfo::new("Bash", "a new dynamic prompt"))]),
        &cache,
        &RenderOptions::default(),
    )
    .unwrap();
    assert!(fresh.tools.to_json().contains("a new dynamic prompt"));
}

#[test]
fn mcp_cache_key_is_name_plus_schema() {
    let one = load_server(
        "s",
        &json!([{"name": "t", "inputSchema": {"type": "object"}}]),
    )
    .tools;
    let two = load_server(
        "s",
        &json!([{"name": "t", "inputSchema": {"type": "object", "properties": {}}}]),
    )
    .tools;
    assert_eq!(SchemaCache::key(&builtin("Bash", false)), "Bash");
    assert_ne!(SchemaCache::key(&one[0]), SchemaCache::key(&two[0]));
    let cache = SchemaCache::new();
    render_anthropic(
        &Env::default(),
        &pooled(one.clone()),
        &cache,
        &RenderOptions::default(),
    )
    .unwrap();
    let rendered = render_anthropic(
        &Env::default(),
        &pooled(two.clone()),
        &cache,
        &RenderOptions::default(),
    )
    .unwrap();
    assert!(rendered.tools.to_json().contains(r#""properties":{}"#));
    assert_eq!(cache.len(), 2);
}

#[test]
fn reconnect_invalidates_only_that_servers_entries() {
    let cache = SchemaCache::new();
    render_anthropic(&Env::default(), &pool(), &cache, &RenderOptions::default()).unwrap();
    assert_eq!(
        cache.len(),
        4,
        "ToolSearch is not sent with tool search off"
    );
    assert_eq!(cache.invalidate_server("git"), 2);
    assert_eq!(cache.len(), 2);
}

#[test]
fn strict_needs_tool_flag_setting_and_model_support() {
    let mut tool = ToolInfo::new("Strict", "d");
    tool.flags = Flags {
        strict: true,
        ..Flags::NONE
    };
    tool.strict_input_schema = Some(Arc::from(
        r#"{"type":"object","properties":{},"additionalProperties":false}"#,
    ));
    let tool = Arc::new(tool);
    let render = |strict_tools, supported| {
        let options = RenderOptions {
            settings: CacheSettings {
                strict_tools,
                model_supports_strict: supported,
                ..Default::default()
            },
            ..Default::default()
        };
        tools_json(
            &render_anthropic(
                &Env::default(),
                &pooled([tool.clone()]),
                &SchemaCache::new(),
                &options,
            )
            .unwrap()
            .tools,
        )
    };
    let on = render(true, true);
    assert_eq!(on[0]["strict"], true);
    assert_eq!(on[0]["input_schema"]["additionalProperties"], false);
    assert!(render(true, false)[0].get("strict").is_none());
    assert!(render(false, true)[0].get("strict").is_none());
}

#[test]
fn eager_input_streaming_only_on_first_party_when_enabled() {
    let render = |first_party| {
        let options = RenderOptions {
            settings: CacheSettings {
                first_party,
                eager_input_streaming: true,
                ..Default::default()
            },
            ..Default::default()
        };
        tools_json(
            &render_anthropic(
                &Env::default(),
                &pooled([builtin("Bash", false)]),
                &SchemaCache::new(),
                &options,
            )
            .unwrap()
            .tools,
        )
    };
    assert_eq!(render(true)[0]["eager_input_streaming"], true);
    assert!(render(false)[0].get("eager_input_streaming").is_none());
}

#[test]
fn discovered_only_sends_loaded_deferred_tools_and_announces_the_rest() {
    let mut options = search_on(DeferStrategy::DiscoveredOnly);
    options.discovered = BTreeSet::from(["mcp__git__git_status".to_owned()]);
    let out = render_anthropic(&Env::default(), &pool(), &SchemaCache::new(), &options).unwrap();
    let tools = tools_json(&out.tools);
    assert_eq!(
        names(&tools),
        ["Bash", "ToolSearch", "mcp__git__git_status"]
    );
    assert_eq!(tools[2]["defer_loading"], true);
    assert!(tools[0].get("defer_loading").is_none());
    assert_eq!(
        out.deferred_tools_message.as_deref(),
        Some(
            "<available-deferred-tools>\nWebFetch\nmcp__git__git_log\n</available-deferred-tools>"
        )
    );
    // Tool search is generally available on the first-party API: no beta header.
    assert_eq!(out.beta, None);
}

#[test]
fn all_deferred_sends_every_tool_with_defer_loading_and_no_message() {
    let out = render_anthropic(
        &Env::default(),
        &pool(),
        &SchemaCache::new(),
        &search_on(DeferStrategy::AllDeferred),
    )
    .unwrap();
    let tools = tools_json(&out.tools);
    assert_eq!(tools.len(), 5);
    let deferred: Vec<&str> = tools
        .iter()
        .filter(|t| t.get("defer_loading").is_some())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        deferred,
        ["WebFetch", "mcp__git__git_log", "mcp__git__git_status"]
    );
    assert_eq!(out.deferred_tools_message, None);
}

#[test]
fn cache_control_never_lands_on_a_deferred_tool() {
    let marker = json!({"type": "ephemeral"});
    let mut options = search_on(DeferStrategy::AllDeferred);
    options.cache_control = CacheControl::Last(marker.clone());
    let out = render_anthropic(&Env::default(), &pool(), &SchemaCache::new(), &options).unwrap();
    let tools = tools_json(&out.tools);
    assert_eq!(
        tools.last().unwrap()["defer_loading"],
        true,
        "the last tool is deferred"
    );
    let marked: Vec<&str> = tools
        .iter()
        .filter(|t| t.get("cache_control").is_some())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(marked, ["ToolSearch"], "the last tool that is not deferred");
    options.cache_control = CacheControl::Tools(vec!["Bash".into(), "WebFetch".into()], marker);
    let tools = tools_json(
        &render_anthropic(&Env::default(), &pool(), &SchemaCache::new(), &options)
            .unwrap()
            .tools,
    );
    assert!(tools[0].get("cache_control").is_some(), "Bash is loaded");
    let web = tools.iter().find(|t| t["name"] == "WebFetch").unwrap();
    assert!(web.get("cache_control").is_none(), "WebFetch is deferred");
}

#[test]
fn beta_header_for_other_clouds() {
    let mut env = Env::default();
    env.tool_search.provider = Provider::Vertex;
    let out = render_anthropic(
        &env,
        &pool(),
        &SchemaCache::new(),
        &search_on(DeferStrategy::AllDeferred),
    )
    .unwrap();
    assert_eq!(out.beta, Betas::CURRENT.other_clouds);
    assert_eq!(out.beta, Some("tool-search-tool-2025-10-19"));
}

#[test]
fn tool_search_off_drops_tool_search_and_sends_everything_in_full() {
    let out = render_anthropic(
        &Env::default(),
        &pool(),
        &SchemaCache::new(),
        &RenderOptions::default(),
    )
    .unwrap();
    let tools = tools_json(&out.tools);
    assert_eq!(
        names(&tools),
        [
            "Bash",
            "WebFetch",
            "mcp__git__git_log",
            "mcp__git__git_status"
        ]
    );
    assert!(tools.iter().all(|tool| tool.get("defer_loading").is_none()));
    assert_eq!((out.deferred_tools_message, out.beta), (None, None));
}

#[test]
fn per_request_overlay_does_not_touch_the_cache() {
    let cache = SchemaCache::new();
    let with = render_anthropic(
        &Env::default(),
        &pool(),
        &cache,
        &search_on(DeferStrategy::AllDeferred),
    )
    .unwrap();
    let without =
        render_anthropic(&Env::default(), &pool(), &cache, &RenderOptions::default()).unwrap();
    assert!(with.tools.to_json().contains("defer_loading"));
    assert!(!without.tools.to_json().contains("defer_loading"));
}

#[test]
fn cache_control_goes_where_asked() {
    let marker = json!({"type": "ephemeral"});
    let options = RenderOptions {
        cache_control: CacheControl::Last(marker.clone()),
        ..Default::default()
    };
    let tools = tools_json(
        &render_anthropic(&Env::default(), &pool(), &SchemaCache::new(), &options)
            .unwrap()
            .tools,
    );
    assert_eq!(
        tools
            .iter()
            .filter(|t| t.get("cache_control").is_some())
            .count(),
        1
    );
    assert_eq!(tools.last().unwrap()["cache_control"], marker);
    let options = RenderOptions {
        cache_control: CacheControl::Tools(vec!["Bash".into()], marker.clone()),
        ..Default::default()
    };
    let tools = tools_json(
        &render_anthropic(&Env::default(), &pool(), &SchemaCache::new(), &options)
            .unwrap()
            .tools,
    );
    assert_eq!(tools[0]["cache_control"], marker);
}

#[test]
fn kill_switch_keeps_only_name_description_schema_and_cache_control() {
    let mut env = Env::default();
    env.tool_search.kill_switch = true;
    let mut strict = ToolInfo::new("S", "d");
    strict.flags.strict = true;
    let options = RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::AllDeferred,
        cache_control: CacheControl::Last(json!({"type": "ephemeral"})),
        settings: CacheSettings {
            strict_tools: true,
            model_supports_strict: true,
            first_party: true,
            eager_input_streaming: true,
        },
        ..Default::default()
    };
    let out = render_anthropic(
        &env,
        &pooled([Arc::new(strict), builtin("WebFetch", true)]),
        &SchemaCache::new(),
        &options,
    )
    .unwrap();
    for tool in tools_json(&out.tools) {
        let keys: Vec<&String> = tool.as_object().unwrap().keys().collect();
        assert!(
            keys.iter()
                .all(|k| ["name", "description", "input_schema", "cache_control"]
                    .contains(&k.as_str())),
            "{keys:?}"
        );
    }
    assert_eq!(out.beta, None);
}

#[test]
fn field_order_is_fixed() {
    let options = RenderOptions {
        settings: CacheSettings {
            first_party: true,
            eager_input_streaming: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let out = render_anthropic(
        &Env::default(),
        &pooled([builtin("Bash", false)]),
        &SchemaCache::new(),
        &options,
    )
    .unwrap();
    assert_eq!(
        out.tools.to_json(),
        r#"[{"name":"Bash","description":"Bash does things","input_schema":{"type":"object","properties":{}},"eager_input_streaming":true}]"#
    );
}

fn conversation() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "find git tools"}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": [
            {"type": "tool_reference", "tool_name": "mcp__git__git_status"},
            {"type": "tool_reference", "tool_name": "mcp__gone__x"},
            {"type": "tool_reference", "tool_name": "mcp__gone__y"},
        ]}]}),
    ]
}

#[test]
fn discovered_tools_come_from_tool_reference_blocks() {
    let found = discovered_tools(&conversation());
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["mcp__git__git_status", "mcp__gone__x", "mcp__gone__y"]
    );
}

#[test]
fn history_references_are_replaced_when_tool_search_is_off() {
    let mut messages = conversation();
    assert_eq!(rewrite_tool_references(&mut messages, false, &pool()), 3);
    assert_eq!(
        messages[1]["content"][0]["content"],
        json!([{"type": "text", "text": REFS_REMOVED_DISABLED}])
    );
}

#[test]
fn history_references_to_tools_gone_from_the_pool_are_replaced() {
    let mut messages = conversation();
    assert_eq!(rewrite_tool_references(&mut messages, true, &pool()), 2);
    assert_eq!(
        messages[1]["content"][0]["content"],
        json!([{"type": "tool_reference", "tool_name": "mcp__git__git_status"}, {"type": "text", "text": REFS_REMOVED_GONE}])
    );
}

#[test]
fn openai_chat_and_responses_shapes() {
    let mut strict = ToolInfo::new("Read", "reads");
    strict.strict_input_schema = Some(Arc::from(
        r#"{"type":"object","properties":{},"additionalProperties":false}"#,
    ));
    let tools = pooled([
        Arc::new(strict),
        builtin("ToolSearch", false),
        pool()[3].clone(),
    ]);
    let chat: Vec<Value> = tools_json(
        &render_openai(
            &tools,
            &OpenAiOptions {
                format: OpenAiFormat::ChatCompletions,
                strict: true,
                ..Default::default()
            },
        )
        .unwrap()
        .tools,
    );
    assert_eq!(chat.len(), 2, "ToolSearch is left out");
    assert_eq!(chat[0]["type"], "function");
    assert_eq!(chat[0]["function"]["strict"], true);
    assert_eq!(
        chat[0]["function"]["parameters"]["additionalProperties"],
        false
    );
    assert_eq!(
        chat[1]["function"]["strict"], false,
        "MCP tools have no strict schema"
    );
    let responses: Vec<Value> = tools_json(
        &render_openai(
            &tools,
            &OpenAiOptions {
                format: OpenAiFormat::Responses,
                strict: false,
                ..Default::default()
            },
        )
        .unwrap()
        .tools,
    );
    assert_eq!(
        responses[0],
        json!({"type": "function", "name": "Read", "description": "reads", "parameters": {"type": "object", "properties": {}}, "strict": false})
    );
}

//! What each model API accepts: server-side tool search, the APIs' tool limits, the beta headers,
//! and deferral on OpenAI's APIs.

use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::env::Betas;
use toolreg::env::Provider;
use toolreg::mcp::load_server;
use toolreg::wire::anthropic::{DeferStrategy, MAX_DEFERRED_TOOLS, ServerSearch};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::wire::{RenderError, ToolsArray, chat_completions, responses};
use toolreg::{
    Env, Pool, Profile, RenderOptions, SchemaCache, ToolInfo, render_anthropic, render_openai,
};

fn builtin(name: &str, defer: bool) -> Arc<ToolInfo> {
    let mut tool = ToolInfo::new(name, format!("{name} does things"));
    tool.flags.defer = defer;
    Arc::new(tool)
}

/// Bash, ToolSearch, a deferred WebFetch, then `mcp` deferred MCP tools.
fn pool_with(mcp: usize) -> Pool {
    let mut tools = vec![
        builtin("Bash", false),
        builtin("ToolSearch", false),
        builtin("WebFetch", true),
    ];
    let listed: Vec<Value> = (0..mcp)
        .map(|i| json!({"name": format!("tool_{i:05}"), "inputSchema": {"type": "object"}}))
        .collect();
    tools.extend(load_server("srv", &Value::Array(listed)).tools);
    Pool::new(&Env::default(), tools)
}

fn array(tools: &ToolsArray) -> Vec<Value> {
    tools.to_value().unwrap().as_array().unwrap().clone()
}

fn anthropic(env: &Env, pool: &Pool, strategy: DeferStrategy) -> Vec<Value> {
    let options = RenderOptions {
        tool_search: true,
        strategy,
        ..Default::default()
    };
    array(
        &render_anthropic(env, pool, &SchemaCache::new(), &options)
            .unwrap()
            .tools,
    )
}

fn openai(
    pool: &Pool,
    format: OpenAiFormat,
    tool_search: OpenAiToolSearch,
    discovered: &[&str],
) -> Result<(Vec<Value>, Option<String>), RenderError> {
    let options = OpenAiOptions {
        format,
        strict: false,
        tool_search,
        discovered: discovered.iter().map(|name| (*name).to_owned()).collect(),
        namespaces: false,
    };
    render_openai(pool, &options).map(|out| (array(&out.tools), out.deferred_tools_message))
}

#[test]
fn server_bm25_stands_in_tool_searchs_place_with_every_tool_deferred_behind_it() {
    let tools = anthropic(
        &Env::default(),
        &pool_with(2),
        DeferStrategy::Server(ServerSearch::Bm25),
    );
    assert_eq!(
        tools[1],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    let deferred: Vec<&str> = tools
        .iter()
        .filter(|tool| tool["defer_loading"] == true)
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        deferred,
        ["WebFetch", "mcp__srv__tool_00000", "mcp__srv__tool_00001"]
    );
    assert!(tools[0].get("defer_loading").is_none(), "Bash stays loaded");
}

#[test]
fn server_regex_sends_the_regex_tool() {
    let tools = anthropic(
        &Env::default(),
        &pool_with(1),
        DeferStrategy::Server(ServerSearch::Regex),
    );
    assert_eq!(tools[1]["type"], "tool_search_tool_regex_20251119");
    assert_eq!(tools[1]["name"], "tool_search_tool_regex");
}

#[test]
fn more_deferred_tools_than_the_api_takes_is_an_error_naming_the_count() {
    let pool = pool_with(MAX_DEFERRED_TOOLS);
    let count = MAX_DEFERRED_TOOLS + 1; // WebFetch and the MCP tools
    for strategy in [
        DeferStrategy::AllDeferred,
        DeferStrategy::Server(ServerSearch::Bm25),
    ] {
        let options = RenderOptions {
            tool_search: true,
            strategy,
            ..Default::default()
        };
        let error =
            render_anthropic(&Env::default(), &pool, &SchemaCache::new(), &options).unwrap_err();
        assert_eq!(
            error,
            RenderError::TooManyDeferred {
                count,
                limit: MAX_DEFERRED_TOOLS
            }
        );
        assert!(error.to_string().contains("10000"), "{error}");
    }
    // Discovered-only sends the deferred tools by name: no limit applies.
    let tools = anthropic(&Env::default(), &pool, DeferStrategy::DiscoveredOnly);
    assert_eq!(tools.len(), 2);
}

/// A profile with beta headers of its own.
#[derive(Debug)]
struct OwnBetas;

impl Profile for OwnBetas {
    fn name(&self) -> &str {
        "own-betas"
    }
    fn betas(&self) -> Option<Betas> {
        Some(Betas {
            first_party: Some("first-party-beta"),
            other_clouds: Some("other-clouds-beta"),
        })
    }
}

#[test]
fn a_profiles_beta_headers_go_with_deferred_tools_unless_the_request_names_others() {
    let mut env = Env::with_profile(OwnBetas);
    let options = RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::AllDeferred,
        ..Default::default()
    };
    let beta = |env: &Env, options: &RenderOptions| {
        render_anthropic(env, &pool_with(1), &SchemaCache::new(), options)
            .unwrap()
            .beta
    };
    assert_eq!(beta(&env, &options), Some("first-party-beta"));
    env.tool_search.provider = Provider::Bedrock;
    assert_eq!(beta(&env, &options), Some("other-clouds-beta"));
    // A request can name today's headers instead.
    env.tool_search.provider = Provider::FirstParty;
    // The generic profile has today's.
    assert_eq!(beta(&Env::default(), &options), Betas::CURRENT.first_party);
    let current = RenderOptions {
        betas: Some(Betas::CURRENT),
        ..options
    };
    assert_eq!(beta(&env, &current), None);
}

#[test]
fn chat_completions_refuses_more_than_128_tools_with_tool_search_off() {
    let pool = pool_with(chat_completions::MAX_TOOLS);
    let error = openai(
        &pool,
        OpenAiFormat::ChatCompletions,
        OpenAiToolSearch::Off,
        &[],
    )
    .unwrap_err();
    assert_eq!(
        error,
        RenderError::TooManyTools {
            api: "OpenAI Chat Completions",
            count: chat_completions::MAX_TOOLS + 2,
            limit: chat_completions::MAX_TOOLS,
            tool_search: false,
        }
    );
    assert!(error.to_string().contains("turn tool search on"), "{error}");
}

#[test]
fn chat_completions_with_client_search_sends_tool_search_and_the_loaded_tools_only() {
    let pool = pool_with(200);
    let (tools, message) = openai(
        &pool,
        OpenAiFormat::ChatCompletions,
        OpenAiToolSearch::Client,
        &["mcp__srv__tool_00007"],
    )
    .unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bash", "ToolSearch", "mcp__srv__tool_00007"]);
    assert!(tools.iter().all(|tool| tool.get("defer_loading").is_none()));
    let message = message.unwrap();
    assert!(message.contains("WebFetch\nmcp__srv__tool_00000\n"));
    assert!(
        !message.contains("mcp__srv__tool_00007"),
        "loaded, not announced"
    );
}

#[test]
fn chat_completions_errors_when_the_tools_that_cannot_be_deferred_exceed_128() {
    let loaded = (0..chat_completions::MAX_TOOLS).map(|i| builtin(&format!("Loaded{i}"), false));
    let pool = Pool::new(&Env::default(), pool_with(0).iter().cloned().chain(loaded));
    let error = openai(
        &pool,
        OpenAiFormat::ChatCompletions,
        OpenAiToolSearch::Client,
        &[],
    )
    .unwrap_err();
    assert!(
        matches!(
            error,
            RenderError::TooManyTools {
                count: 130,
                tool_search: true,
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn chat_completions_has_no_server_side_search() {
    let error = openai(
        &pool_with(1),
        OpenAiFormat::ChatCompletions,
        OpenAiToolSearch::Server,
        &[],
    )
    .unwrap_err();
    assert!(
        matches!(error, RenderError::Unsupported { .. }),
        "{error:?}"
    );
}

#[test]
fn responses_server_search_defers_functions_behind_the_hosted_tool_search() {
    let (tools, message) = openai(
        &pool_with(1),
        OpenAiFormat::Responses,
        OpenAiToolSearch::Server,
        &[],
    )
    .unwrap();
    assert_eq!(
        tools[1],
        json!({"type": "tool_search", "execution": "server"})
    );
    assert_eq!(tools[2]["name"], "WebFetch");
    assert_eq!(tools[2]["defer_loading"], true);
    assert!(tools[0].get("defer_loading").is_none());
    assert_eq!(message, None);
}

#[test]
fn responses_client_search_is_a_tool_search_tool_with_tool_searchs_schema() {
    let pool = pool_with(1);
    let (tools, message) = openai(
        &pool,
        OpenAiFormat::Responses,
        OpenAiToolSearch::Client,
        &[],
    )
    .unwrap();
    assert_eq!(
        tools.len(),
        2,
        "Bash and the search tool: deferred tools come from its output"
    );
    assert_eq!(tools[1]["type"], "tool_search");
    assert_eq!(tools[1]["execution"], "client");
    assert_eq!(tools[1]["description"], pool[1].description.as_ref());
    assert_eq!(tools[1]["parameters"]["type"], "object");
    assert!(message.unwrap().contains("mcp__srv__tool_00000"));
}

#[test]
fn responses_tool_search_output_carries_the_matched_definitions() {
    let pool = pool_with(2);
    let matches = vec![
        "mcp__srv__tool_00001".to_owned(),
        "gone".to_owned(),
        "Bash".to_owned(),
    ];
    let item = responses::tool_search_output("call_1", &matches, &pool, false).unwrap();
    assert_eq!(item["type"], "tool_search_output");
    assert_eq!(item["call_id"], "call_1");
    assert_eq!(item["execution"], "client");
    let tools = item["tools"].as_array().unwrap();
    assert_eq!(
        tools.len(),
        1,
        "a name outside the pool and a loaded tool are skipped"
    );
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["name"], "mcp__srv__tool_00001");
    assert_eq!(tools[0]["parameters"], json!({"type": "object"}));
    assert_eq!(tools[0]["strict"], false);
}

#[test]
fn openai_without_tool_search_in_the_pool_sends_every_tool() {
    let pool = pool_with(1).filter(|tool| tool.name != "ToolSearch");
    let (tools, message) = openai(
        &pool,
        OpenAiFormat::Responses,
        OpenAiToolSearch::Server,
        &[],
    )
    .unwrap();
    assert_eq!(tools.len(), 3);
    assert!(tools.iter().all(|tool| tool.get("defer_loading").is_none()));
    assert_eq!(message, None);
}

#[test]
fn chat_tool_search_text_names_the_loaded_tools() {
    assert_eq!(
        chat_completions::tool_search_text(&["a".into(), "b".into()]),
        "Loaded a, b. Their definitions are in the tools of the next request."
    );
    assert_eq!(
        chat_completions::tool_search_text(&[]),
        "No matching deferred tools found"
    );
}

#[test]
fn a_tool_result_goes_back_to_openai_as_each_api_takes_it() {
    use toolreg::{ToolOutput, ToolResult};
    let pool = pool_with(1);
    let result = |tool: &str, content| ToolResult {
        tool_use_id: "call_9".into(),
        tool: tool.into(),
        content,
        error: None,
    };
    let text = result("Bash", ToolOutput::Text("done".into()));
    assert_eq!(
        chat_completions::tool_message(&text),
        json!({"role": "tool", "tool_call_id": "call_9", "content": "done"})
    );
    assert_eq!(
        responses::tool_output(&text, &pool, false).unwrap(),
        json!({"type": "function_call_output", "call_id": "call_9", "output": "done"})
    );
    let loaded = result(
        "ToolSearch",
        ToolOutput::Blocks(vec![
            json!({"type": "tool_reference", "tool_name": "mcp__srv__tool_00000"}),
        ]),
    );
    let item = responses::tool_output(&loaded, &pool, false).unwrap();
    assert_eq!(item["type"], "tool_search_output");
    assert_eq!(item["tools"][0]["name"], "mcp__srv__tool_00000");
    let none = result(
        "ToolSearch",
        ToolOutput::Text("No matching deferred tools found".into()),
    );
    let item = responses::tool_output(&none, &pool, false).unwrap();
    assert_eq!(
        item["tools"],
        json!([]),
        "a tool_search_call is answered even without matches"
    );
    let chat = chat_completions::tool_message(&loaded);
    assert!(
        chat["content"]
            .as_str()
            .unwrap()
            .starts_with("Loaded mcp__srv__tool_00000.")
    );
}

/// A host tool whose schema is JSON text (`RawValue` takes it) that a `serde_json::Value`
/// cannot hold: `1e400` is past `f64`'s range.
fn out_of_range_tool(deferred: bool) -> Arc<ToolInfo> {
    let mut tool = ToolInfo::new("Huge", "takes a huge number");
    tool.input_schema = Arc::from(r#"{"type":"object","maximum":1e400}"#);
    tool.flags.defer = deferred;
    Arc::new(tool)
}

#[test]
fn a_schema_a_value_cannot_hold_is_a_render_error_naming_the_tool_not_a_null_tools_array() {
    use toolreg::conversation::Conversation;
    let env = Env::default();
    let pool = Pool::new(&env, [builtin("Bash", false), out_of_range_tool(false)]);
    // The text renders, byte for byte as given.
    let rendered = render_anthropic(&env, &pool, &SchemaCache::new(), &RenderOptions::default());
    assert!(rendered.unwrap().tools.to_json().contains("1e400"));
    let mut conversation = Conversation::anthropic(RenderOptions::default());
    conversation.push_user("hi");
    let error = conversation.request(&env, &pool).unwrap_err();
    assert!(
        matches!(&error, RenderError::InvalidSchema(invalid) if invalid.tool == "Huge"),
        "{error:?}"
    );
}

#[test]
fn a_loaded_schema_a_value_cannot_hold_is_an_error_not_a_panic() {
    let pool = Pool::new(&Env::default(), [out_of_range_tool(true)]);
    let error =
        responses::tool_search_output("call_1", &["Huge".to_owned()], &pool, false).unwrap_err();
    assert!(
        matches!(&error, RenderError::InvalidSchema(invalid) if invalid.tool == "Huge"),
        "{error:?}"
    );
}

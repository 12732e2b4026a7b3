//! The `render` target: the tools of model requests, Anthropic and OpenAI.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::env::Betas;
use toolreg::pool::deferral;
use toolreg::wire::RenderError;
use toolreg::wire::anthropic::CacheSettings;
use toolreg::wire::anthropic::{CacheControl, DeferStrategy, ServerSearch};
use toolreg::wire::chat_completions::MAX_TOOLS as CHAT_COMPLETIONS_MAX_TOOLS;
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::{Env, Pool, RenderOptions, SchemaCache, ToolInfo};

use super::{Gen, TOOL_NAMES, random_pool, unique_names};

fn is_json(text: &str) -> bool {
    serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok()
}

/// Whether `name` is a tool of `pool` with a schema that is not JSON.
fn has_bad_schema(pool: &[Arc<ToolInfo>], name: &str) -> bool {
    pool.iter().any(|tool| {
        tool.name == name
            && (!is_json(&tool.input_schema)
                || tool
                    .strict_input_schema
                    .as_deref()
                    .is_some_and(|s| !is_json(s)))
    })
}

/// Sometimes gives one tool a schema (or strict schema) that is not JSON, or a strict flag.
fn spoil(g: &mut Gen<'_>, pool: &mut [Arc<ToolInfo>]) {
    if pool.is_empty() || !g.chance(1, 6) {
        return;
    }
    let i = g.below(pool.len());
    let mut tool = (*pool[i]).clone();
    let text: Arc<str> =
        Arc::from(g.text(4, &["{", "}", "[", "\"", "null", "{\"type\":\"object\"}"]));
    match g.below(3) {
        0 => tool.input_schema = text,
        1 => tool.strict_input_schema = Some(text),
        _ => tool.flags.strict = !tool.flags.strict,
    }
    pool[i] = Arc::new(tool);
}

fn options(g: &mut Gen<'_>, pool: &[Arc<ToolInfo>]) -> RenderOptions {
    let mut discovered = BTreeSet::new();
    for _ in 0..g.below(6) {
        match pool.get(g.below(pool.len() + 1)) {
            Some(tool) => discovered.insert(tool.name.clone()),
            None => discovered.insert(g.word(TOOL_NAMES)),
        };
    }
    let value = json!({"type": "ephemeral"});
    let cache_control = match g.below(3) {
        0 => CacheControl::None,
        1 => CacheControl::Last(value),
        _ => CacheControl::Tools(discovered.iter().take(2).cloned().collect(), value),
    };
    RenderOptions {
        tool_search: g.chance(3, 4),
        strategy: *g.pick(&[
            DeferStrategy::DiscoveredOnly,
            DeferStrategy::AllDeferred,
            DeferStrategy::Server(ServerSearch::Bm25),
            DeferStrategy::Server(ServerSearch::Regex),
        ]),
        discovered,
        settings: CacheSettings {
            strict_tools: g.bool(),
            model_supports_strict: g.bool(),
            first_party: g.bool(),
            eager_input_streaming: g.bool(),
        },
        cache_control,
        betas: None,
    }
}

/// The tool name an error is about, when it is about a schema.
fn bad_schema_tool(error: &RenderError) -> &str {
    match error {
        RenderError::InvalidSchema(error) => &error.tool,
        other => panic!("unexpected error: {other}"),
    }
}

fn check_anthropic(env: &Env, pool: &Pool, options: &RenderOptions) {
    let cache = SchemaCache::new();
    let rendered = match toolreg::render_anthropic(env, pool, &cache, options) {
        Ok(rendered) => rendered,
        Err(error) => {
            assert!(has_bad_schema(pool, bad_schema_tool(&error)), "{error}");
            return;
        }
    };
    let again = toolreg::render_anthropic(env, pool, &cache, options).expect("renders again");
    assert_eq!(rendered, again, "a warm cache renders the same bytes");
    let array = rendered.tools.to_value().expect("the tools are values");
    let array: Vec<Value> = array.as_array().expect("an array").clone();
    assert_eq!(rendered.tool_count, array.len());
    let positions: HashMap<&str, usize> = pool
        .iter()
        .enumerate()
        .map(|(i, tool)| (tool.name.as_str(), i))
        .collect();
    let mut in_array: HashMap<&str, &Value> = HashMap::new();
    let mut last = None;
    // `cache_control` never goes on a deferred tool (the API refuses it): `Last` means the last
    // tool that is not deferred.
    let loaded = |tool: &Value| tool.get("defer_loading").is_none();
    let last_loaded = array.iter().rposition(loaded);
    let search_on = options.tool_search && !env.tool_search.kill_switch;
    let server = match options.strategy {
        DeferStrategy::Server(server) if search_on => Some(server),
        _ => None,
    };
    for (i, tool) in array.iter().enumerate() {
        let mut name = tool["name"].as_str().expect("a tool has a name");
        // The API's own search tool stands where ToolSearch is.
        if let Some(server) = server
            && tool.get("type").is_some()
        {
            assert_eq!(tool["type"], json!(server.tool_type()));
            assert_eq!(tool["name"], json!(server.tool_name()));
            assert!(
                tool.get("defer_loading").is_none(),
                "the search tool is never deferred"
            );
            name = "ToolSearch";
        }
        let at = *positions
            .get(name)
            .expect("every tool of the array is in the pool");
        assert!(last < Some(at), "{name:?} out of pool order");
        last = Some(at);
        in_array.insert(name, tool);
        if env.tool_search.kill_switch {
            assert!(tool.get("strict").is_none() && tool.get("eager_input_streaming").is_none());
        }
        let cached = tool.get("cache_control").is_some();
        match &options.cache_control {
            CacheControl::None => assert!(!cached),
            CacheControl::Last(_) => assert_eq!(cached, Some(i) == last_loaded, "{name:?}"),
            CacheControl::Tools(names, _) => {
                assert_eq!(cached, loaded(tool) && names.iter().any(|n| n == name));
            }
        }
    }
    let message = rendered.deferred_tools_message.as_deref();
    let announced: Vec<&str> = message
        .map(|text| {
            let inner = (text.strip_prefix("<available-deferred-tools>\n"))
                .and_then(|rest| rest.strip_suffix("\n</available-deferred-tools>"))
                .expect("the message is wrapped in its tags");
            inner.split('\n').collect()
        })
        .unwrap_or_default();
    let named = |name: &str| match name.contains('\n') {
        true => message.is_some_and(|text| text.contains(name)),
        false => announced.contains(&name),
    };
    // A host tool's name with a line break reads as several names in the message.
    let ambiguous = pool.iter().any(|tool| tool.name.contains(['\n', '\r']));
    let mut deferring = false;
    for tool in pool {
        let name = tool.name.as_str();
        let entry = in_array.get(name);
        let defer_loading = entry.is_some_and(|tool| tool["defer_loading"] == json!(true));
        deferring |= defer_loading;
        if !search_on {
            assert_eq!(
                entry.is_some(),
                name != "ToolSearch",
                "{name:?}, tool search off"
            );
            assert!(!defer_loading && message.is_none());
        } else if name == "ToolSearch" && server.is_some() {
            assert!(
                entry.is_some_and(|tool| tool.get("type").is_some()),
                "the API's search tool"
            );
        } else if !deferral(tool, env) {
            assert!(
                entry.is_some() && !defer_loading,
                "{name:?} is not deferred"
            );
        } else {
            let shown = entry.is_some();
            assert!(
                !shown || defer_loading,
                "deferred {name:?} without defer_loading"
            );
            if ambiguous {
                assert!(shown || named(name), "deferred {name:?} is nowhere");
            } else {
                assert!(shown != named(name), "deferred {name:?}: in array {shown}");
            }
            let discovered = options.discovered.contains(name);
            let expect = options.strategy != DeferStrategy::DiscoveredOnly || discovered;
            assert_eq!(shown, expect, "deferred {name:?}");
        }
    }
    let header = env
        .profile
        .betas()
        .unwrap_or(Betas::CURRENT)
        .header(env.tool_search.provider.is_first_party());
    let beta = if deferring || message.is_some() {
        header
    } else {
        None
    };
    assert_eq!(rendered.beta, beta);
}

/// A Responses `tools` array with its namespaces taken apart: each member of namespace `N` as
/// the function `N__<name>`, which must be an MCP tool of the pool whose server is `N`'s; in the
/// pool's order (grouping may move a server's tool next to its other tools).
fn flatten_namespaces(pool: &[Arc<ToolInfo>], array: Vec<Value>) -> Vec<Value> {
    let mut flat = Vec::with_capacity(array.len());
    for entry in array {
        if entry["type"] != "namespace" {
            flat.push(entry);
            continue;
        }
        let namespace = entry["name"]
            .as_str()
            .expect("a namespace has a name")
            .to_owned();
        let members = entry["tools"].as_array().expect("a namespace has tools");
        assert!(!members.is_empty(), "an empty namespace {namespace}");
        for member in members {
            let mut member = member.clone();
            let full = format!("{namespace}__{}", member["name"].as_str().unwrap());
            let tool = pool
                .iter()
                .find(|tool| tool.name == full)
                .expect("a member is a pool tool");
            let mcp = tool.mcp().expect("only MCP tools are grouped");
            assert_eq!(namespace, format!("mcp__{}", mcp.normalized_server));
            member["name"] = Value::String(full);
            flat.push(member);
        }
    }
    let position = |entry: &Value| {
        let name = entry["name"].as_str().unwrap_or("ToolSearch");
        pool.iter().position(|tool| tool.name == name)
    };
    flat.sort_by_key(position);
    flat
}

fn check_openai(pool: &Pool, options: &OpenAiOptions) {
    let chat = options.format == OpenAiFormat::ChatCompletions;
    let rendered = match toolreg::render_openai(pool, options) {
        Ok(rendered) => rendered,
        Err(RenderError::Unsupported { .. }) => {
            assert!(chat && options.tool_search == OpenAiToolSearch::Server);
            return;
        }
        Err(RenderError::TooManyTools { count, .. }) => {
            assert!(chat && count > CHAT_COMPLETIONS_MAX_TOOLS);
            return;
        }
        Err(error) => {
            assert!(has_bad_schema(pool, bad_schema_tool(&error)), "{error}");
            return;
        }
    };
    let array = rendered.tools.to_value().expect("the tools are values");
    let array: Vec<Value> = array.as_array().expect("an array").clone();
    assert_eq!(rendered.tool_count, array.len());
    let array = if options.namespaces && !chat {
        flatten_namespaces(pool, array)
    } else {
        array
    };
    let has_search = pool.iter().any(|tool| tool.name == "ToolSearch");
    let mode = if has_search {
        options.tool_search
    } else {
        OpenAiToolSearch::Off
    };
    // What each pool tool should be: sent (with defer_loading or not), the search tool, or
    // announced.
    let mut expected: Vec<(&ToolInfo, bool)> = Vec::new();
    let mut announced = Vec::new();
    for tool in pool {
        let search = tool.name == "ToolSearch";
        let deferred = tool.is_deferred();
        let discovered = options.discovered.contains(&tool.name);
        match mode {
            OpenAiToolSearch::Off if search => {}
            OpenAiToolSearch::Off => expected.push((tool, false)),
            _ if search || !deferred => expected.push((tool, false)),
            OpenAiToolSearch::Server => expected.push((tool, true)),
            OpenAiToolSearch::Client => {
                if chat && discovered {
                    expected.push((tool, false));
                } else if !discovered {
                    announced.push(tool.name.as_str());
                }
            }
        }
    }
    assert_eq!(array.len(), expected.len());
    for ((tool, defer_loading), rendered) in expected.iter().zip(&array) {
        if tool.name == "ToolSearch" && !chat {
            assert_eq!(rendered["type"], json!("tool_search"));
            let execution = if mode == OpenAiToolSearch::Server {
                "server"
            } else {
                "client"
            };
            assert_eq!(rendered["execution"], json!(execution));
            assert_eq!(rendered.get("parameters").is_some(), execution == "client");
            continue;
        }
        let function = if chat {
            &rendered["function"]
        } else {
            rendered
        };
        assert_eq!(rendered["type"], json!("function"));
        assert_eq!(function["name"].as_str(), Some(tool.name.as_str()));
        let is_strict = options.strict && tool.strict_input_schema.is_some();
        assert_eq!(function["strict"], json!(is_strict), "{:?}", tool.name);
        assert_eq!(
            rendered.get("defer_loading").is_some(),
            *defer_loading,
            "{:?}",
            tool.name
        );
    }
    assert_eq!(
        rendered.deferred_tools_message.is_some(),
        !announced.is_empty()
    );
}

/// Feeds a random pool (as for `search`, sometimes with one tool whose schema is not JSON),
/// random [`RenderOptions`] (tool search on or off, every [`DeferStrategy`], discovered names
/// from the pool and garbage, strict settings, every [`CacheControl`]) and a random `Env` (kill
/// switch, provider) to `render_anthropic` and to `render_openai` (in one of its two formats,
/// chosen by the input).
///
/// Asserts: an error names a tool whose schema is not JSON, and otherwise the output parses as
/// JSON; every tool of the array is in the pool, once, in pool order; a warm cache renders the
/// same bytes; with tool search on, a tool that is not deferred is sent in full, a deferred one
/// either in the array with `defer_loading: true` or named in the deferred-tools message
/// (exactly one, as the strategy and the discovered set say); with tool search off, every tool
/// but ToolSearch is sent in full and there is no message; the kill switch drops beta fields;
/// `cache_control` lands where asked, never on a deferred tool; the beta header is the
/// profile's for the provider; the API's search tool stands in ToolSearch's place. The OpenAI
/// arrays (each format, each [`OpenAiToolSearch`] mode) hold the tools the mode sends, in pool
/// order, `defer_loading` only on deferred tools with server-side search, `strict` only with a
/// strict schema; Chat Completions refuses server-side search and more than 128 tools.
pub fn render(data: &[u8]) {
    let mut g = Gen::new(data);
    let (env, pool) = random_pool(&mut g);
    let mut tools = pool.to_vec();
    spoil(&mut g, &mut tools);
    // The same tools in the same order, one of them perhaps spoilt.
    let pool = Pool::new(&env, tools);
    unique_names(&pool);
    let options = options(&mut g, &pool);
    check_anthropic(&env, &pool, &options);
    // One OpenAI format per input (both are reached; each costs a full rendering).
    let openai = OpenAiOptions {
        format: *g.pick(&[OpenAiFormat::ChatCompletions, OpenAiFormat::Responses]),
        strict: g.bool(),
        tool_search: *g.pick(&[
            OpenAiToolSearch::Off,
            OpenAiToolSearch::Client,
            OpenAiToolSearch::Server,
        ]),
        discovered: options.discovered.clone(),
        namespaces: g.bool(),
    };
    check_openai(&pool, &openai);
}

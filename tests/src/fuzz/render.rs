//! The `render` target: the tools of model requests, Anthropic and OpenAI.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use registry_core::cache::{CacheSettings, SchemaCache};
use registry_core::defer::deferral;
use registry_core::render::{
    self, BETA_FIRST_PARTY, BETA_OTHER_CLOUDS, CacheControl, DeferStrategy, OpenAiFormat,
    RenderOptions,
};
use registry_core::{Env, ToolInfo};
use serde_json::{Value, json};

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
        strategy: *g.pick(&[DeferStrategy::DiscoveredOnly, DeferStrategy::AllDeferred]),
        discovered,
        settings: CacheSettings {
            strict_tools: g.bool(),
            model_supports_strict: g.bool(),
            first_party: g.bool(),
            eager_input_streaming: g.bool(),
        },
        cache_control,
    }
}

fn check_anthropic(env: &Env, pool: &[Arc<ToolInfo>], options: &RenderOptions) {
    let cache = SchemaCache::new();
    let rendered = match render::render_anthropic(env, pool, &cache, options) {
        Ok(rendered) => rendered,
        Err(error) => {
            assert!(has_bad_schema(pool, &error.tool), "{error}");
            return;
        }
    };
    let again = render::render_anthropic(env, pool, &cache, options).expect("renders again");
    assert_eq!(rendered, again, "a warm cache renders the same bytes");
    let array: Vec<Value> = serde_json::from_str(&rendered.tools).expect("the tools are JSON");
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
    for (i, tool) in array.iter().enumerate() {
        let name = tool["name"].as_str().expect("a tool has a name");
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
    let search_on = options.tool_search && !env.tool_search.kill_switch;
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
            let expect = options.strategy == DeferStrategy::AllDeferred || discovered;
            assert_eq!(shown, expect, "deferred {name:?}");
        }
    }
    let header = match env.tool_search.provider {
        registry_core::Provider::FirstParty => BETA_FIRST_PARTY,
        _ => BETA_OTHER_CLOUDS,
    };
    let beta = (deferring || message.is_some()).then_some(header);
    assert_eq!(rendered.beta, beta);
}

fn check_openai(pool: &[Arc<ToolInfo>], format: OpenAiFormat, strict: bool) {
    let text = match render::render_openai(pool, format, strict) {
        Ok(text) => text,
        Err(error) => {
            assert!(has_bad_schema(pool, &error.tool), "{error}");
            return;
        }
    };
    let array: Vec<Value> = serde_json::from_str(&text).expect("the tools are JSON");
    let expected: Vec<&Arc<ToolInfo>> = pool.iter().filter(|t| t.name != "ToolSearch").collect();
    assert_eq!(array.len(), expected.len());
    for (tool, rendered) in expected.iter().zip(&array) {
        let function = match format {
            OpenAiFormat::ChatCompletions => &rendered["function"],
            OpenAiFormat::Responses => rendered,
        };
        assert_eq!(rendered["type"], json!("function"));
        assert_eq!(function["name"].as_str(), Some(tool.name.as_str()));
        let is_strict = strict && tool.strict_input_schema.is_some();
        assert_eq!(function["strict"], json!(is_strict), "{:?}", tool.name);
    }
}

/// Feeds a random pool (as for `search`, sometimes with one tool whose schema is not JSON),
/// random [`RenderOptions`] (tool search on or off, both [`DeferStrategy`]s, discovered names
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
/// `cache_control` lands where asked; the beta header matches the provider; the OpenAI arrays
/// hold every tool but ToolSearch in order, `strict` only with a strict schema.
pub fn render(data: &[u8]) {
    let mut g = Gen::new(data);
    let (env, mut pool) = random_pool(&mut g);
    spoil(&mut g, &mut pool);
    unique_names(&pool);
    let options = options(&mut g, &pool);
    check_anthropic(&env, &pool, &options);
    // One OpenAI format per input (both are reached; each costs a full rendering).
    let format = *g.pick(&[OpenAiFormat::ChatCompletions, OpenAiFormat::Responses]);
    check_openai(&pool, format, g.bool());
}

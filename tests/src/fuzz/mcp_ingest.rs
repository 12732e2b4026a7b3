//! The `mcp_ingest` target: `tools/list` results as arbitrary JSON.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;
use toolreg::env::Features;
use toolreg::mcp::{McpLimits, McpProblem, McpTools, load_servers_with};
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
use toolreg::{RenderOptions, SchemaCache, ToolInfo, assemble_tool_pool};
use toolreg_tools::profile;

use super::{SERVER_NAMES, catalog};

/// Small limits, so that every limit is reached by small inputs.
const SMALL: [McpLimits; 4] = [
    McpLimits {
        max_tools_per_server: 0,
        max_name_bytes: 0,
        max_schema_bytes: 0,
        max_schema_depth: 0,
    },
    McpLimits {
        max_tools_per_server: 1,
        max_name_bytes: 8,
        max_schema_bytes: 64,
        max_schema_depth: 1,
    },
    McpLimits {
        max_tools_per_server: 3,
        max_name_bytes: 64,
        max_schema_bytes: 512,
        max_schema_depth: 3,
    },
    McpLimits {
        max_tools_per_server: 2,
        max_name_bytes: 1024,
        max_schema_bytes: 16,
        max_schema_depth: 64,
    },
];

/// `[A-Za-z0-9_-]` kept, every other character `_`: written again here, not taken from the
/// library, so the permission-name property is checked against the documented rule.
fn normalize(name: &str) -> String {
    (name.chars())
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .collect()
}

/// The entries of a result as the module docs describe it: `{"tools": [...]}`, an array, or a
/// JSON-RPC response whose `result` is one of those.
fn entries(result: &Value) -> Option<&Vec<Value>> {
    entries_in(result, false)
}

fn entries_in(result: &Value, wrapped: bool) -> Option<&Vec<Value>> {
    match result {
        Value::Array(items) => Some(items),
        Value::Object(map) => match (map.get("tools"), map.get("result")) {
            (Some(tools), _) => tools.as_array(),
            (None, Some(inner)) if !wrapped => entries_in(inner, true),
            _ => None,
        },
        _ => None,
    }
}

/// Nesting levels: an object or array is one level.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// What the loader must report for an entry (and the raw name it must name), or `Ok` with the
/// raw name when the entry loads.
fn expected<'a>(
    item: &'a Value,
    limits: &McpLimits,
) -> Result<&'a str, (Option<&'a str>, McpProblem)> {
    let Some(object) = item.as_object() else {
        return Err((None, McpProblem::NotAnObject));
    };
    let name = match object.get("name") {
        None => return Err((None, McpProblem::MissingName)),
        Some(Value::String(name)) => name.as_str(),
        Some(_) => return Err((None, McpProblem::NameNotAString)),
    };
    if name.len() > limits.max_name_bytes {
        let (bytes, limit) = (name.len(), limits.max_name_bytes);
        return Err((Some(name), McpProblem::NameTooLong { bytes, limit }));
    }
    if name.is_empty() {
        return Err((None, McpProblem::EmptyName));
    }
    let problem = match object.get("inputSchema") {
        None => McpProblem::MissingSchema,
        Some(schema) if !schema.is_object() => McpProblem::SchemaNotAnObject,
        Some(schema) if depth(schema) > limits.max_schema_depth => McpProblem::SchemaTooDeep {
            limit: limits.max_schema_depth,
        },
        Some(schema) if schema.to_string().len() > limits.max_schema_bytes => {
            McpProblem::SchemaTooLarge {
                limit: limits.max_schema_bytes,
            }
        }
        Some(_) => return Ok(name),
    };
    Err((Some(name), problem))
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Walks the servers' entries in order beside the loaded tools and the errors, which must
/// account for each entry exactly once.
fn check(servers: &[(&str, &Value)], limits: &McpLimits, loaded: &McpTools) {
    let mut names = HashSet::new();
    for tool in &loaded.tools {
        assert!(valid_name(&tool.name), "invalid name {:?}", tool.name);
        assert!(
            names.insert(tool.name.as_str()),
            "{:?} given twice",
            tool.name
        );
    }
    let (mut tools, mut errors) = (loaded.tools.iter(), loaded.errors.iter());
    for &(server, result) in servers {
        let Some(items) = entries(result) else {
            let error = errors.next().expect("an unusable result is reported");
            assert_eq!((error.server.as_str(), error.index), (server, None));
            assert_eq!(error.problem, McpProblem::NotAToolsList);
            continue;
        };
        for (index, item) in items.iter().enumerate() {
            if index == limits.max_tools_per_server {
                let error = errors
                    .next()
                    .expect("the entries past the limit are reported");
                assert_eq!((error.server.as_str(), error.index), (server, Some(index)));
                let (skipped, limit) = (items.len() - index, limits.max_tools_per_server);
                assert_eq!(error.problem, McpProblem::TooManyTools { skipped, limit });
                break;
            }
            match expected(item, limits) {
                Ok(raw) => {
                    let tool = tools.next().expect("a valid entry is loaded");
                    let mcp = tool.mcp().expect("an MCP tool has its MCP names");
                    assert_eq!((&*mcp.server, mcp.tool.as_str()), (server, raw));
                    let permission = format!("mcp__{}__{}", normalize(server), normalize(raw));
                    assert_eq!(tool.permission_name(), permission);
                    assert_eq!(*mcp.normalized_server, normalize(server));
                    if permission.len() <= 64 && tool.name != permission {
                        // Only a clash may take the plain name away.
                        assert!(names.contains(permission.as_str()), "{permission:?}");
                    }
                }
                Err((raw, problem)) => {
                    let error = errors.next().expect("an invalid entry is reported");
                    assert_eq!((error.server.as_str(), error.index), (server, Some(index)));
                    assert_eq!(error.problem, problem, "{item}");
                    let raw: Option<String> = raw.map(|name| name.chars().take(100).collect());
                    assert_eq!(error.tool, raw);
                    let _ = error.to_string();
                }
            }
        }
    }
    assert!(tools.next().is_none(), "more tools than valid entries");
    assert!(errors.next().is_none(), "more errors than invalid entries");
}

fn render_once(tools: &[Arc<ToolInfo>]) {
    let env = profile::env(Features::none());
    let pool = assemble_tool_pool(&env, &profile::permissions(), catalog(), tools);
    let in_pool: HashSet<&str> = pool.iter().map(|tool| tool.name.as_str()).collect();
    for tool in tools {
        assert!(
            in_pool.contains(tool.name.as_str()),
            "{:?} left the pool",
            tool.name
        );
    }
    let options = RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::AllDeferred,
        ..RenderOptions::default()
    };
    let rendered = toolreg::render_anthropic(&env, &pool, &SchemaCache::new(), &options)
        .expect("loaded schemas render");
    let array = rendered.tools.to_value().expect("the tools are values");
    let array = array.as_array().expect("an array");
    assert_eq!(array.len(), pool.len());
    let openai = toolreg::render_openai(
        &pool,
        &OpenAiOptions {
            format: OpenAiFormat::Responses,
            strict: true,
            ..Default::default()
        },
    )
    .expect("renders")
    .tools;
    openai.to_value().expect("the OpenAI tools are values");
}

/// Feeds arbitrary bytes: the first chooses the servers, the rest must be JSON (other input is
/// skipped). The JSON is loaded as the `tools/list` result of one to three servers (the same
/// result under several names, some of which clash after normalization, or an object's first
/// entries as server → result), with the default [`McpLimits`] and with small ones; the
/// default load is assembled into a pool and rendered once.
///
/// Asserts: every loaded tool's name matches `^[A-Za-z0-9_-]{1,64}$` and is unique; every
/// entry is either loaded (in order, its `permission_name()` being `mcp__<normalized
/// server>__<normalized raw tool>`) or reported once, by an error that names its server, index,
/// raw name and the documented problem, and entries past the tool limit by one error that
/// counts them; an unusable result gives one `NotAToolsList` error; the loaded tools all reach
/// the pool; both renderings are JSON.
pub fn mcp_ingest(data: &[u8]) {
    let Some((&control, json)) = data.split_first() else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    let count = usize::from(control % 3) + 1;
    let first = usize::from(control >> 3 & 7);
    let servers: Vec<(&str, &Value)> = match &value {
        Value::Object(map) if control & 4 != 0 => map
            .iter()
            .take(count)
            .map(|(k, v)| (k.as_str(), v))
            .collect(),
        _ => (0..count)
            .map(|i| (SERVER_NAMES[(first + i) % SERVER_NAMES.len()], &value))
            .collect(),
    };
    let defaults = McpLimits::default();
    let loaded = load_servers_with(&defaults, servers.iter().copied());
    check(&servers, &defaults, &loaded);
    let small = SMALL[usize::from(control >> 6)];
    check(
        &servers,
        &small,
        &load_servers_with(&small, servers.iter().copied()),
    );
    render_once(&loaded.tools);
}

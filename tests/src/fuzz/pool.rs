//! Random environments and pools: the built-ins assembled in a random [`Env`], with random MCP
//! tools (loaded from random `tools/list` results) and host-defined tools.

use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::env::ToolSearchSettings;
use toolreg::env::{AgentKind, Features, Provider, Switches};
use toolreg::mcp::load_servers;
use toolreg::pool::filter_tools_for_agent;
use toolreg::{Behavior, Env, PermissionContext, Pool, RuleSource, ToolInfo, assemble_tool_pool};
use toolreg_tools::profile::{self, feature, switch};

use super::{Gen, SERVER_NAMES, TOOL_NAMES, builtin_names, catalog};

/// A random environment: features, switches and tool-search settings.
fn random_env(g: &mut Gen<'_>) -> Env {
    let mut features = Features::none();
    features.set(feature::KAIROS, g.chance(1, 4));
    features.set(feature::KAIROS_BRIEF, g.chance(1, 4));
    features.set(feature::FORK_SUBAGENT, g.chance(1, 4));
    features.set(feature::COORDINATOR_MODE, g.chance(1, 4));
    features.set(feature::AGENT_TRIGGERS, g.chance(1, 4));
    features.set(feature::WORKFLOW_SCRIPTS, g.chance(1, 4));
    features.set(feature::INTERNAL_BUILD, g.chance(1, 4));
    let mut switches = Switches::default();
    switches.set(switch::SIMPLE, g.chance(1, 10));
    switches.set(switch::REPL, g.chance(1, 6));
    switches.set(switch::COORDINATOR, g.chance(1, 6));
    switches.set(switch::EMBEDDED_SEARCH_TOOLS, g.chance(1, 4));
    switches.set(switch::TODO_V2, g.bool());
    switches.set(switch::WORKTREE_MODE, g.bool());
    switches.set(switch::AGENT_SWARMS, g.bool());
    switches.set(switch::LSP, g.bool());
    switches.set(switch::POWERSHELL, g.bool());
    switches.set(switch::FORK_SUBAGENT, g.chance(1, 4));
    switches.set(switch::BRIDGE_ACTIVE, g.chance(1, 4));
    let modes = [
        None,
        Some("auto"),
        Some("auto:5"),
        Some("auto:0"),
        Some("auto:100"),
        Some("auto:x"),
        Some("1"),
        Some("true"),
        Some("0"),
        Some("off"),
        Some("AUTO"),
    ];
    let mode = match g.below(12) {
        11 => Some(profile::parse_tool_search_mode(&g.text(2, &[]))),
        i => modes[i].map(profile::parse_tool_search_mode),
    };
    let proxied = match g.below(4) {
        0 => !profile::is_api_url("https://api.anthropic.com/v1"),
        1 => !profile::is_api_url("https://proxy.example.com/anthropic"),
        2 => !profile::is_api_url(&g.text(3, &[])),
        _ => false,
    };
    let provider = *g.pick(&[
        Provider::FirstParty,
        Provider::FirstParty,
        Provider::Bedrock,
        Provider::Vertex,
        Provider::Foundry,
    ]);
    Env {
        features,
        switches,
        tool_search: ToolSearchSettings {
            mode,
            kill_switch: g.chance(1, 6),
            provider,
            proxied,
        },
        ..profile::env(Features::none())
    }
}

/// One random `tools/list` entry: mostly well-formed, with random names, texts and flags.
fn random_entry(g: &mut Gen<'_>) -> Value {
    let name = match g.below(8) {
        0 => Value::String(g.text(6, TOOL_NAMES)),
        1 => Value::String((*g.pick(builtin_names())).to_owned()),
        2 => Value::String("n".repeat(60 + g.below(10))),
        _ => Value::String((*g.pick(TOOL_NAMES)).to_owned()),
    };
    let mut entry = json!({
        "name": name,
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    });
    if g.chance(3, 4) {
        entry["description"] = Value::String(g.text(12, TOOL_NAMES));
    }
    if g.bool() {
        entry["_meta"] = json!({
            "anthropic/searchHint": g.text(6, TOOL_NAMES),
            "anthropic/alwaysLoad": g.chance(1, 5),
        });
    }
    if g.chance(1, 4) {
        entry["annotations"] = json!({"readOnlyHint": g.bool()});
    }
    if g.chance(1, 16) {
        // A malformed entry: skipped by the loader.
        entry = json!({"name": 7});
    }
    entry
}

/// Random MCP tools (loaded from random `tools/list` results of up to three servers) and a few
/// host-defined tools built directly, whose names are not normalized at all.
fn random_extra_tools(g: &mut Gen<'_>) -> Vec<Arc<ToolInfo>> {
    let mut results: Vec<(String, Value)> = Vec::new();
    for _ in 0..g.below(4) {
        let server = if g.chance(1, 5) {
            g.text(4, SERVER_NAMES)
        } else {
            (*g.pick(SERVER_NAMES)).to_owned()
        };
        let entries: Vec<Value> = (0..g.below(10)).map(|_| random_entry(g)).collect();
        results.push((server, Value::Array(entries)));
    }
    let mut tools = load_servers(results.iter().map(|(s, v)| (s.as_str(), v))).tools;
    for _ in 0..g.below(3) {
        let name = match g.below(3) {
            0 => format!("mcp__{}", g.text(4, TOOL_NAMES)),
            _ => g.text(4, TOOL_NAMES),
        };
        let mut tool = ToolInfo::new(name, g.text(8, TOOL_NAMES));
        tool.flags.defer = g.bool();
        tool.flags.always_load = g.chance(1, 5);
        tool.flags.strict = g.chance(1, 4);
        if g.chance(1, 3) {
            tool.search_hint = Some(g.text(4, TOOL_NAMES));
        }
        if g.chance(1, 4) {
            tool.aliases.push(g.word(TOOL_NAMES));
        }
        tools.push(Arc::new(tool));
    }
    tools
}

/// A random environment and the pool assembled in it from the built-ins and random extra
/// tools, with a few random whole-tool deny rules and, sometimes, an agent's filter.
pub(crate) fn random_pool(g: &mut Gen<'_>) -> (Env, Pool) {
    let env = random_env(g);
    let extra = random_extra_tools(g);
    let mut rules = PermissionContext::new();
    for _ in 0..g.below(3) {
        let rule = match g.below(3) {
            0 => (*g.pick(builtin_names())).to_owned(),
            1 if !extra.is_empty() => extra[g.below(extra.len())].permission_name().to_owned(),
            _ => format!("mcp__{}", g.pick(SERVER_NAMES)),
        };
        rules.add(Behavior::Deny, *g.pick(&RuleSource::ALL), &rule);
    }
    let pool = assemble_tool_pool(&env, &rules, catalog(), &extra);
    let pool = if g.chance(1, 4) {
        filter_tools_for_agent(&pool, *g.pick(&AgentKind::ALL), &env)
    } else {
        pool
    };
    (env, pool)
}

//! The built-in catalog: `get_all_base_tools` and `get_tools`, with the gates and the exact
//! order of operations of the design.

use std::sync::Arc;

use crate::defer::is_tool_search_enabled_optimistic;
use crate::descriptor::ToolDescriptor;
use crate::env::Env;
use crate::names;
use crate::registry::{Builtins, compare_names};
use crate::tool_info::{Pool, ToolInfo};

/// Tools that are in the base list but not offered by [`get_tools`]: the MCP resource tools come
/// back with a server that offers resources, StructuredOutput is added by the hosts that need it.
pub const SPECIAL_TOOLS: [&str; 3] = [
    names::LIST_MCP_RESOURCES,
    names::READ_MCP_RESOURCE,
    names::STRUCTURED_OUTPUT,
];

/// The tools REPL mode hides once the REPL tool is present: it wraps them.
pub const REPL_ONLY_TOOLS: [&str; 8] = [
    names::READ,
    names::WRITE,
    names::EDIT,
    names::GLOB,
    names::GREP,
    names::BASH,
    names::NOTEBOOK_EDIT,
    names::AGENT,
];

/// The compiled-in built-ins in the catalog's base order.
#[derive(Debug, Clone)]
pub struct Catalog {
    tools: Vec<&'static ToolDescriptor>,
}

impl Catalog {
    /// Orders `builtins` by `order` (a list of names; names not compiled in are skipped); tools
    /// the order does not name follow, in [`compare_names`] order.
    pub fn new(builtins: &Builtins, order: &[&str]) -> Catalog {
        Self::from_descriptors(builtins.tools().to_vec(), order)
    }

    /// Like [`new`](Self::new), over any descriptors.
    pub fn from_descriptors(mut tools: Vec<&'static ToolDescriptor>, order: &[&str]) -> Catalog {
        let rank = |tool: &ToolDescriptor| order.iter().position(|name| *name == tool.name);
        tools.sort_by(|a, b| match (rank(a), rank(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => compare_names(a.name, b.name),
        });
        Catalog { tools }
    }

    /// The descriptors in base order.
    pub fn tools(&self) -> &[&'static ToolDescriptor] {
        &self.tools
    }

    fn get(&self, name: &str) -> Option<&'static ToolDescriptor> {
        self.tools.iter().copied().find(|tool| tool.name == name)
    }
}

/// Every tool that may exist in this environment, in base order: compiled in, its run-time gate
/// holds, Glob and Grep only without embedded search tools, ToolSearch only when tool search
/// might be on.
pub fn get_all_base_tools(env: &Env, catalog: &Catalog) -> Vec<&'static ToolDescriptor> {
    catalog
        .tools()
        .iter()
        .copied()
        .filter(|tool| match tool.name {
            names::GLOB | names::GREP => !env.switches.embedded_search_tools,
            names::TOOL_SEARCH => is_tool_search_enabled_optimistic(&env.tool_search),
            _ => true,
        })
        .filter(|tool| tool.is_enabled(&env.switches))
        .collect()
}

/// The built-ins offered in this environment, in exactly the design's order of operations:
/// simple mode first (and return); the base tools minus the special ones; deny rules; REPL
/// mode's hiding; `is_enabled`.
pub fn get_tools(env: &Env, catalog: &Catalog) -> Pool {
    let info =
        |tool: &'static ToolDescriptor| Arc::new(ToolInfo::from_builtin(tool, &env.switches));
    let not_denied = |tool: &Arc<ToolInfo>| {
        env.permissions
            .deny_rule_for_tool(tool.rule_target())
            .is_none()
    };

    if env.switches.simple {
        let repl = env
            .switches
            .repl
            .then(|| catalog.get(names::REPL))
            .flatten();
        let mut chosen: Vec<&str> = match repl {
            Some(_) => vec![names::REPL],
            None => vec![names::BASH, names::READ, names::EDIT],
        };
        if env.coordinator() {
            if repl.is_none() {
                chosen.push(names::AGENT);
            }
            chosen.extend([names::TASK_STOP, names::SEND_MESSAGE]);
        }
        return chosen
            .into_iter()
            .filter_map(|name| catalog.get(name))
            .map(info)
            .filter(not_denied)
            .collect();
    }

    let mut tools: Pool = get_all_base_tools(env, catalog)
        .into_iter()
        .filter(|tool| !SPECIAL_TOOLS.contains(&tool.name))
        .map(info)
        .filter(not_denied)
        .collect();

    if env.switches.repl && tools.iter().any(|tool| tool.name == names::REPL) {
        tools.retain(|tool| !REPL_ONLY_TOOLS.contains(&tool.name.as_str()));
    }

    tools.retain(|tool| tool.builtin().is_none_or(|d| d.is_enabled(&env.switches)));
    tools
}

//! The built-in catalog: `get_all_base_tools` and `get_tools`, with the gates and the exact
//! order of operations of the design; what singles tools out by name is the profile's.

use std::sync::Arc;

use crate::pool::deferral::decide_deferral;
use crate::search::is_tool_search_enabled_optimistic;
use crate::tool::{Builtins, compare_names};
use crate::{Env, PermissionContext, ToolDescriptor, ToolInfo};

/// The compiled-in built-ins in the catalog's base order.
///
/// The order is the base list's (`order`, then every other built-in by name); the pool sorts
/// again, so it decides only what [`get_tools`](crate::pool::get_tools) lists.
///
/// ```
/// use toolreg::{Catalog, builtins};
///
/// let catalog = Catalog::new(builtins().unwrap(), &[]);
/// assert!(catalog.tools().iter().any(|tool| tool.name == "ToolSearch"));
/// ```
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
/// holds, the profile keeps it in the base list, and ToolSearch only when tool search might be
/// on.
pub fn get_all_base_tools(env: &Env, catalog: &Catalog) -> Vec<&'static ToolDescriptor> {
    catalog
        .tools()
        .iter()
        .copied()
        .filter(|tool| {
            tool.name != crate::search::TOOL_NAME
                || is_tool_search_enabled_optimistic(&env.tool_search)
        })
        .filter(|tool| env.profile.in_base_list(tool, env.gates()))
        .filter(|tool| tool.is_enabled(&env.switches))
        .collect()
}

/// The built-ins offered in this environment under these rules, in exactly the design's order
/// of operations: the profile's reduced set, if it has one for this environment (and return);
/// the base tools minus the profile's special ones; deny rules; the profile's hiding;
/// `is_enabled`. Each tool's [deferral](ToolInfo::deferral) is decided for `env`.
pub fn get_tools(env: &Env, rules: &PermissionContext, catalog: &Catalog) -> Vec<Arc<ToolInfo>> {
    let mut tools = offered(env, rules, catalog);
    decide_deferral(&mut tools, env);
    tools
}

fn offered(env: &Env, rules: &PermissionContext, catalog: &Catalog) -> Vec<Arc<ToolInfo>> {
    let info =
        |tool: &'static ToolDescriptor| Arc::new(ToolInfo::from_builtin(tool, &env.switches));
    let not_denied = |tool: &Arc<ToolInfo>| rules.deny_rule_for_tool(tool.rule_target()).is_none();
    let profile = &env.profile;

    let compiled = |name: &str| catalog.get(name).is_some();
    if let Some(chosen) = profile.reduced_offer(env.gates(), &compiled) {
        return chosen
            .into_iter()
            .filter_map(|name| catalog.get(name))
            .map(info)
            .filter(not_denied)
            .collect();
    }

    let mut tools: Vec<Arc<ToolInfo>> = get_all_base_tools(env, catalog)
        .into_iter()
        .filter(|tool| !profile.is_special(tool.name))
        .map(info)
        .filter(not_denied)
        .collect();

    let hidden = profile.hidden(env.gates(), &tools);
    if !hidden.is_empty() {
        tools.retain(|tool| !hidden.contains(&tool.name.as_str()));
    }

    tools.retain(|tool| tool.builtin().is_none_or(|d| d.is_enabled(&env.switches)));
    tools
}

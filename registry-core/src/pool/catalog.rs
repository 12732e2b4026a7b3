//! The built-in catalog: what a program composes from its own tools and the tool sets it
//! chooses, and `base_tools` and `offered_builtins`, with the gates and the exact order of
//! operations of the design; what singles tools out by name is the profile's.

use std::fmt;
use std::sync::Arc;

use crate::pool::deferral::decide_deferral;
use crate::search::tool_search_might_be_on;
use crate::tool::registry::{crate_name, first_clash, registered_in};
use crate::tool::{Builtins, DuplicateTool, compare_names};
use crate::{Env, PermissionContext, ToolDescriptor, ToolInfo};

/// The built-ins a program offers, in the catalog's base order: the tools a pool may hold
/// besides MCP tools.
///
/// A program composes its catalog by name, so linking a crate never changes it: its own tools
/// ([`own_tools!`](crate::own_tools), or [`Catalog::defined_in`] a crate), a tool set's
/// (`toolreg_tools::catalog()`, or some of them by name with [`select`](Catalog::select)),
/// joined with [`with`](Catalog::with). Two tools of one name in a catalog are an error.
///
/// The order is the base list's (`order`, then every other built-in by name); the pool sorts
/// again, so it decides only what [`offered_builtins`](crate::pool::offered_builtins) lists.
///
/// ```
/// use toolreg::Catalog;
///
/// let catalog = Catalog::core_tools();
/// assert!(catalog.tools().iter().any(|tool| tool.name == "ToolSearch"));
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    tools: Vec<&'static ToolDescriptor>,
}

/// Why a catalog could not be built.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CatalogError {
    /// Two tools claim one name (as a name or an alias).
    Duplicate(DuplicateTool),
    /// No tool of the catalog answers to a name asked for.
    UnknownTool {
        /// The name asked for.
        name: String,
        /// The names the catalog has, in its order.
        known: Vec<&'static str>,
    },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::Duplicate(clash) => clash.fmt(f),
            CatalogError::UnknownTool { name, known } => write!(
                f,
                "no tool named `{name}` in the catalog; it has {}",
                known.join(", ")
            ),
        }
    }
}

impl std::error::Error for CatalogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CatalogError::Duplicate(clash) => Some(clash),
            CatalogError::UnknownTool { .. } => None,
        }
    }
}

impl From<DuplicateTool> for CatalogError {
    fn from(clash: DuplicateTool) -> CatalogError {
        CatalogError::Duplicate(clash)
    }
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

    /// Every `#[tool]` defined in the crate `krate` (its name as Rust spells it: `my_app` for the
    /// package `my-app`), in name order; no tool of another crate. [`own_tools!`](crate::own_tools)
    /// names the calling crate. An error names two of its tools that share a name.
    ///
    /// ```
    /// use toolreg::Catalog;
    ///
    /// let core = Catalog::defined_in("toolreg")?;
    /// assert_eq!(core.tools().len(), 1); // ToolSearch
    /// assert!(Catalog::defined_in("no_such_crate")?.tools().is_empty());
    /// # Ok::<(), toolreg::CatalogError>(())
    /// ```
    pub fn defined_in(krate: &str) -> Result<Catalog, CatalogError> {
        let mut tools = registered_in(krate);
        tools.sort_by(|a, b| compare_names(a.name, b.name));
        match first_clash(&tools) {
            Some(clash) => Err(CatalogError::Duplicate(clash)),
            None => Ok(Catalog { tools }),
        }
    }

    /// The core's own tools: ToolSearch, which a pool offers only when tool search might be on
    /// and a dispatcher answers over its pool. [`own_tools!`](crate::own_tools) includes them.
    pub fn core_tools() -> Catalog {
        let mut tools = registered_in(crate_name(module_path!()));
        tools.sort_by(|a, b| compare_names(a.name, b.name));
        Catalog { tools }
    }

    /// This catalog's tools, then those of `other` it does not hold; the same definition in
    /// both is kept once. An error names two different tools that claim one name (as a name or
    /// an alias).
    ///
    /// ```
    /// use toolreg::Catalog;
    ///
    /// let twice = Catalog::core_tools().with(Catalog::core_tools())?;
    /// assert_eq!(twice.tools().len(), Catalog::core_tools().tools().len());
    /// # Ok::<(), toolreg::CatalogError>(())
    /// ```
    pub fn with(mut self, other: Catalog) -> Result<Catalog, CatalogError> {
        for tool in other.tools {
            if !self.tools.iter().any(|held| held.source == tool.source) {
                self.tools.push(tool);
            }
        }
        match first_clash(&self.tools) {
            Some(clash) => Err(CatalogError::Duplicate(clash)),
            None => Ok(self),
        }
    }

    /// The tools named in `names` (by name or alias), in this catalog's order. An error names
    /// the first name no tool answers to.
    ///
    /// ```
    /// use toolreg::{Catalog, CatalogError};
    ///
    /// let search = Catalog::core_tools().select(&["ToolSearch"])?;
    /// assert_eq!(search.tools()[0].name, "ToolSearch");
    /// let missing = Catalog::core_tools().select(&["Reed"]).unwrap_err();
    /// assert!(matches!(&missing, CatalogError::UnknownTool { name, .. } if name == "Reed"));
    /// # Ok::<(), CatalogError>(())
    /// ```
    pub fn select(&self, names: &[&str]) -> Result<Catalog, CatalogError> {
        let answers =
            |tool: &ToolDescriptor, name: &str| tool.name == name || tool.aliases.contains(&name);
        if let Some(unknown) = names
            .iter()
            .find(|name| !self.tools.iter().any(|tool| answers(tool, name)))
        {
            return Err(CatalogError::UnknownTool {
                name: (*unknown).to_owned(),
                known: self.tools.iter().map(|tool| tool.name).collect(),
            });
        }
        let tools = (self.tools.iter().copied())
            .filter(|tool| names.iter().any(|name| answers(tool, name)))
            .collect();
        Ok(Catalog { tools })
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
/// on. (The design's `getAllBaseTools`.)
pub fn base_tools(env: &Env, catalog: &Catalog) -> Vec<&'static ToolDescriptor> {
    catalog
        .tools()
        .iter()
        .copied()
        .filter(|tool| {
            tool.name != crate::search::TOOL_NAME || tool_search_might_be_on(&env.tool_search)
        })
        .filter(|tool| env.profile.in_base_list(tool, env.gates()))
        .filter(|tool| tool.is_enabled(&env.switches))
        .collect()
}

/// The built-ins offered in this environment under these rules, in exactly the design's order
/// of operations: the profile's reduced set, if it has one for this environment (and return);
/// the base tools minus the profile's special ones; deny rules; the profile's hiding;
/// `is_enabled`. Each tool's [deferral](ToolInfo::deferral) is decided for `env`. (The design's
/// `getTools`.)
pub fn offered_builtins(
    env: &Env,
    rules: &PermissionContext,
    catalog: &Catalog,
) -> Vec<Arc<ToolInfo>> {
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

    let mut tools: Vec<Arc<ToolInfo>> = base_tools(env, catalog)
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

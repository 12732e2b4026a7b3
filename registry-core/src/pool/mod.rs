//! The pool: the tools offered to the model for one request, in the order they are offered, and
//! how it is assembled.
//!
//! Built-ins and MCP tools are sorted separately and concatenated, built-ins first, so the
//! built-ins stay one contiguous prefix: a flat sort would slide MCP tools between built-ins and
//! change every byte of the rendered block after them, and with it the prompt-cache key. Both
//! partitions sort with [`compare_names`], which ignores locale.
//! Which tools are deferred is decided there too, once ([`deferral`]).
//!
//! A [`Pool`] holds those rules: it is only made by them ([`Pool::new`],
//! [`assemble_tool_pool`](crate::assemble_tool_pool), [`merge_and_filter_tools`] and
//! [`Pool::filter`], which keeps them), and finds a tool by name or alias without a scan.

use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use crate::tool::compare_names;
use crate::{Env, ToolInfo};
use callers::decide_callers;
use deferral::decide_deferral;

pub(crate) mod agents;
pub(crate) mod assemble;
pub(crate) mod callers;
pub(crate) mod catalog;
pub(crate) mod deferral;

pub use agents::{filter_tools_for_agent, is_allowed_for_agent};
pub use assemble::merge_and_filter_tools;
pub use catalog::{base_tools, offered_builtins};
pub use deferral::deferral;

/// The tools offered to the model for one request, in the order they are offered.
///
/// A pool holds one tool per name: the built-ins sorted by name, then the MCP tools sorted by
/// name (so adding a server never moves a built-in's bytes in the rendered request), each with
/// its [deferral](ToolInfo::is_deferred) decided for the environment it was made for. It is
/// cheap to clone (shared), derefs to the slice of its tools, and [`find`](Pool::find) finds a
/// tool by name or alias without a scan (a binary search of each sorted section).
///
/// ```
/// use std::sync::Arc;
/// use toolreg::{Env, Pool, ToolInfo};
///
/// let tools = ["Write", "Read", "Read"].map(|name| Arc::new(ToolInfo::new(name, "…")));
/// let pool = Pool::new(&Env::default(), tools);
/// let names: Vec<&str> = pool.iter().map(|tool| tool.name.as_str()).collect();
/// assert_eq!(names, ["Read", "Write"]);
/// assert_eq!(pool.find("Write").map(|tool| tool.name.as_str()), Some("Write"));
/// assert!(pool.find("Edit").is_none());
/// ```
#[derive(Clone, Default)]
pub struct Pool {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    tools: Vec<Arc<ToolInfo>>,
    /// How many of `tools` are built-ins: `tools[..builtins]` and `tools[builtins..]` are each
    /// sorted by name, so a name is found by binary search without a copy of every name.
    builtins: usize,
    /// Each alias, and the position of the first tool that has it.
    aliases: Index,
}

type Index = HashMap<String, usize, foldhash::fast::RandomState>;

impl Pool {
    /// The pool of `tools` for `env`: the first tool of each name kept, the built-ins sorted by
    /// name, then the MCP tools sorted by name, each tool's deferral decided for `env`.
    pub fn new(env: &Env, tools: impl IntoIterator<Item = Arc<ToolInfo>>) -> Pool {
        let tools: Vec<Arc<ToolInfo>> = tools.into_iter().collect();
        let mut seen = HashSet::with_capacity(tools.len());
        let first: Vec<bool> = tools
            .iter()
            .map(|tool| seen.insert(tool.name.as_str()))
            .collect();
        drop(seen);
        let (builtins, mcp): (Vec<_>, Vec<_>) = tools
            .into_iter()
            .zip(first)
            .filter_map(|(tool, first)| first.then_some(tool))
            .partition(|tool| !tool.is_mcp());
        Pool::from_sections(env, builtins, mcp)
    }

    /// The pool of `builtins` then `mcp`, each sorted by name, the first tool of each name kept
    /// (a built-in beats an MCP tool of the same name), deferral decided for `env`.
    pub(crate) fn from_sections(
        env: &Env,
        mut builtins: Vec<Arc<ToolInfo>>,
        mut mcp: Vec<Arc<ToolInfo>>,
    ) -> Pool {
        // Stable sorts: of two tools of one name, the first given stays first and is kept.
        let by_name = |a: &Arc<ToolInfo>, b: &Arc<ToolInfo>| compare_names(&a.name, &b.name);
        builtins.sort_by(by_name);
        mcp.sort_by(by_name);
        builtins.dedup_by(|later, kept| later.name == kept.name);
        mcp.dedup_by(|later, kept| later.name == kept.name);
        mcp.retain(|tool| position_of(&builtins, &tool.name).is_none());
        let count = builtins.len();
        let mut tools = builtins;
        tools.append(&mut mcp);
        decide_deferral(&mut tools, env);
        decide_callers(&mut tools, env);
        Pool::indexed(tools, count)
    }

    /// A pool of `tools`, which already hold a pool's rules (in order, one per name, deferral
    /// decided), the first `builtins` of them built-ins.
    fn indexed(tools: Vec<Arc<ToolInfo>>, builtins: usize) -> Pool {
        let mut aliases = Index::default();
        for (position, tool) in tools.iter().enumerate() {
            for alias in &tool.aliases {
                aliases.entry(alias.clone()).or_insert(position);
            }
        }
        Pool {
            shared: Arc::new(Shared {
                tools,
                builtins,
                aliases,
            }),
        }
    }

    /// The tools of this pool that `keep` keeps, in the same order: a pool itself.
    pub fn filter(&self, mut keep: impl FnMut(&ToolInfo) -> bool) -> Pool {
        let mut builtins = 0;
        let mut kept: Vec<Arc<ToolInfo>> = Vec::new();
        for (position, tool) in self.shared.tools.iter().enumerate() {
            if keep(tool) {
                builtins += usize::from(position < self.shared.builtins);
                kept.push(Arc::clone(tool));
            }
        }
        if kept.len() == self.len() {
            return self.clone();
        }
        Pool::indexed(kept, builtins)
    }

    /// The position of the tool named `name`: a binary search of each sorted section.
    fn position(&self, name: &str) -> Option<usize> {
        let (builtins, mcp) = self.shared.tools.split_at(self.shared.builtins);
        position_of(builtins, name).or_else(|| Some(builtins.len() + position_of(mcp, name)?))
    }

    /// The tool `name` calls: the first of the pool whose name or alias it is (exact,
    /// case-sensitive), found by binary search.
    pub fn find(&self, name: &str) -> Option<&Arc<ToolInfo>> {
        let by_name = self.position(name);
        let by_alias = self.shared.aliases.get(name).copied();
        let position = by_name.into_iter().chain(by_alias).min()?;
        self.shared.tools.get(position)
    }

    /// The tool named `name` (its name, not an alias), found by binary search.
    pub fn named(&self, name: &str) -> Option<&Arc<ToolInfo>> {
        let position = self.position(name)?;
        self.shared.tools.get(position)
    }

    /// The tools, in order.
    pub fn tools(&self) -> &[Arc<ToolInfo>] {
        &self.shared.tools
    }
}

/// The position of the tool named `name` in `tools`, sorted by name.
fn position_of(tools: &[Arc<ToolInfo>], name: &str) -> Option<usize> {
    tools
        .binary_search_by(|tool| compare_names(&tool.name, name))
        .ok()
}

impl Deref for Pool {
    type Target = [Arc<ToolInfo>];

    fn deref(&self) -> &[Arc<ToolInfo>] {
        &self.shared.tools
    }
}

impl AsRef<[Arc<ToolInfo>]> for Pool {
    fn as_ref(&self) -> &[Arc<ToolInfo>] {
        &self.shared.tools
    }
}

impl<'a> IntoIterator for &'a Pool {
    type Item = &'a Arc<ToolInfo>;
    type IntoIter = std::slice::Iter<'a, Arc<ToolInfo>>;

    fn into_iter(self) -> Self::IntoIter {
        self.shared.tools.iter()
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

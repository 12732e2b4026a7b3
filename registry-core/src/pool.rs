//! The pool: the ordered list of tools offered to the model for one request, and how it is
//! assembled.
//!
//! Built-ins and MCP tools are sorted separately and concatenated, built-ins first, so the
//! built-ins stay one contiguous prefix: a flat sort would slide MCP tools between built-ins and
//! change every byte of the rendered block after them, and with it the prompt-cache key. Both
//! partitions sort with [`compare_names`], which ignores locale.

use std::collections::HashSet;
use std::sync::Arc;

use crate::catalog::{Catalog, get_tools};
use crate::contexts;
use crate::descriptor::{Flags, ToolDescriptor};
use crate::env::Env;
use crate::mcp::{mcp_tool_name, normalize_name_for_mcp};
use crate::permissions::RuleTarget;
use crate::registry::compare_names;

/// The MCP side of a tool: which server it came from and its names as received.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpInfo {
    /// The server name as configured.
    pub server: String,
    /// The tool name as the server sent it.
    pub tool: String,
    /// The server name normalized for tool names (`[A-Za-z0-9_-]`).
    pub normalized_server: String,
    /// `mcp__<normalized server>__<normalized tool>`: what permission rules name, whatever
    /// display name the pool gives the tool (no length or uniqueness rule applied).
    pub permission_name: String,
}

impl McpInfo {
    /// The names of tool `tool` of server `server`, as received.
    pub fn new(server: impl Into<String>, tool: impl Into<String>) -> McpInfo {
        let (server, tool) = (server.into(), tool.into());
        McpInfo {
            normalized_server: normalize_name_for_mcp(&server),
            permission_name: mcp_tool_name(&server, &tool),
            server,
            tool,
        }
    }
}

/// A tool in a pool: a built-in, or an MCP tool received at run time.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    /// The name the model calls it by.
    pub name: String,
    /// Old names still accepted for lookup.
    pub aliases: Vec<String>,
    /// The exact text sent to the model and searched.
    pub description: String,
    /// The ToolSearch capability phrase.
    pub search_hint: Option<String>,
    /// The input JSON Schema, as minified JSON text.
    pub input_schema: Arc<str>,
    /// The strict-mode schema, when the tool has one.
    pub strict_input_schema: Option<Arc<str>>,
    /// The JSON Schema of the tool's structured output, when it declares one.
    pub output_schema: Option<Arc<str>>,
    /// The flags.
    pub flags: Flags,
    /// The largest result in characters, if limited.
    pub max_result_size_chars: Option<usize>,
    /// Present for MCP tools.
    pub mcp: Option<McpInfo>,
    /// The descriptor of a built-in (for dispatch).
    pub builtin: Option<&'static ToolDescriptor>,
}

impl ToolInfo {
    /// A built-in's entry, with its description for these switches.
    pub fn from_builtin(tool: &'static ToolDescriptor, env: &Env) -> ToolInfo {
        ToolInfo {
            name: tool.name.to_owned(),
            aliases: tool
                .aliases
                .iter()
                .map(|alias| (*alias).to_owned())
                .collect(),
            description: tool.description_for(&env.switches),
            search_hint: tool.search_hint.map(str::to_owned),
            input_schema: Arc::from(tool.input_schema),
            strict_input_schema: Some(Arc::from(tool.strict_input_schema)),
            output_schema: tool.output_schema.map(Arc::from),
            flags: tool.flags,
            max_result_size_chars: tool.max_result_size_chars,
            mcp: None,
            builtin: Some(tool),
        }
    }

    /// A plain entry with a name, a description and an empty-object schema (for tests and
    /// host-defined tools).
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> ToolInfo {
        ToolInfo {
            name: name.into(),
            aliases: Vec::new(),
            description: description.into(),
            search_hint: None,
            input_schema: Arc::from(r#"{"type":"object","properties":{}}"#),
            strict_input_schema: None,
            output_schema: None,
            flags: Flags::NONE,
            max_result_size_chars: None,
            mcp: None,
            builtin: None,
        }
    }

    /// Whether this is an MCP tool: it came from a server, or its name starts with `mcp__`.
    pub fn is_mcp(&self) -> bool {
        self.mcp.is_some() || self.name.starts_with("mcp__")
    }

    /// The name permission rules compare: for an MCP tool `mcp__<normalized server>__<normalized
    /// tool>` from the names the server sent (which can differ from [`name`](Self::name) when
    /// the pool had to make the name unique or short), otherwise the name. Aliases are not
    /// consulted.
    pub fn permission_name(&self) -> &str {
        self.mcp
            .as_ref()
            .map_or(&self.name, |mcp| &mcp.permission_name)
    }

    /// What permission rules see of this tool.
    pub fn rule_target(&self) -> RuleTarget<'_> {
        RuleTarget {
            name: self.permission_name(),
            server: self.mcp.as_ref().map(|mcp| mcp.normalized_server.as_str()),
        }
    }

    /// Whether `name` is this tool's name or one of its aliases (exact, case-sensitive).
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|alias| alias == name)
    }
}

/// A pool: tools in the order they are offered.
pub type Pool = Vec<Arc<ToolInfo>>;

/// Finds a tool by name or alias.
pub fn find_tool<'a>(tools: &'a [Arc<ToolInfo>], name: &str) -> Option<&'a Arc<ToolInfo>> {
    tools.iter().find(|tool| tool.answers_to(name))
}

fn by_name(a: &Arc<ToolInfo>, b: &Arc<ToolInfo>) -> std::cmp::Ordering {
    compare_names(&a.name, &b.name)
}

/// Keeps the first tool of each name.
fn uniq_by_name(tools: impl IntoIterator<Item = Arc<ToolInfo>>) -> Pool {
    let mut seen = HashSet::new();
    tools
        .into_iter()
        .filter(|tool| seen.insert(tool.name.clone()))
        .collect()
}

/// Sorts built-ins and MCP tools separately, built-ins first.
fn partitioned_sort(tools: Pool) -> Pool {
    let (mut builtins, mut mcp): (Pool, Pool) = tools.into_iter().partition(|tool| !tool.is_mcp());
    builtins.sort_by(by_name);
    mcp.sort_by(by_name);
    builtins.extend(mcp);
    builtins
}

/// The pool for a request: the built-ins of [`get_tools`], the MCP tools no deny rule matches,
/// each partition sorted by name, built-ins first, later duplicates by name removed (a built-in
/// beats an MCP tool of the same name).
pub fn assemble_tool_pool(env: &Env, catalog: &Catalog, mcp_tools: &[Arc<ToolInfo>]) -> Pool {
    let mut builtins = get_tools(env, catalog);
    builtins.sort_by(by_name);
    let mut mcp: Pool = mcp_tools
        .iter()
        .filter(|tool| {
            env.permissions
                .deny_rule_for_tool(tool.rule_target())
                .is_none()
        })
        .cloned()
        .collect();
    mcp.sort_by(by_name);
    uniq_by_name(builtins.into_iter().chain(mcp))
}

/// Merges extra initial tools into an assembled pool: unique by name over `initial` then
/// `assembled` (initial wins), partitioned sort, built-ins first; in coordinator mode only the
/// coordinator set is kept.
pub fn merge_and_filter_tools(
    env: &Env,
    initial: &[Arc<ToolInfo>],
    assembled: &[Arc<ToolInfo>],
) -> Pool {
    let merged = uniq_by_name(initial.iter().chain(assembled).cloned());
    let sorted = partitioned_sort(merged);
    if env.coordinator() {
        contexts::apply_coordinator_filter(sorted)
    } else {
        sorted
    }
}

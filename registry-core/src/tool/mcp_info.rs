//! An MCP tool's names and hints as its server sent them, and how they become tool names; and
//! the slot where dispatch keeps the tool's input schema compiled.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The MCP side of a tool: which server it came from and its names as received.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpInfo {
    /// The server name as configured, shared by the server's tools.
    pub server: Arc<str>,
    /// The tool name as the server sent it.
    pub tool: String,
    /// The server name normalized for tool names (`[A-Za-z0-9_-]`), shared by the server's
    /// tools.
    pub normalized_server: Arc<str>,
    /// `mcp__<normalized server>__<normalized tool>`, kept only for a tool whose name in the
    /// pool is not it (read with [`ToolInfo::permission_name`](crate::ToolInfo::permission_name)).
    pub(crate) permission_name: PermissionSlot,
    /// The display title the server sent (`title`, else `annotations.title`), for listings;
    /// the model never sees it.
    pub title: Option<String>,
    /// The behaviour hints the server sent, as sent (`None` where absent). They are the
    /// server's claims: the pool's flags read `readOnlyHint` and `destructiveHint`, and no hint
    /// allows a call by itself.
    pub annotations: McpAnnotations,
    /// The input schema as dispatch checks it, compiled on the tool's first call.
    pub(crate) compiled: CompiledSlot,
}

/// Where dispatch keeps an MCP tool's input schema compiled (`dispatch/mcp_check.rs`): filled
/// on the tool's first call and shared by every clone of its entry, so a schema is compiled
/// once per listing. It takes no part in comparing or hashing an [`McpInfo`]. The tools
/// loaded together share one [`SchemaCache`], each at its own place, so a tool never called
/// costs no allocation of its own: 16 bytes in its entry.
#[derive(Clone, Default)]
pub(crate) struct CompiledSlot {
    cache: Arc<SchemaCache>,
    at: u32,
}

/// The compiled input schemas of the tools loaded together, by their places, each made on its
/// tool's first call.
#[derive(Default)]
pub(crate) struct SchemaCache(Mutex<HashMap<u32, Arc<OnceLock<CompiledSchema>>>>);

impl CompiledSlot {
    /// The slot at place `at` of `cache`.
    pub(crate) fn new(cache: &Arc<SchemaCache>, at: u32) -> CompiledSlot {
        CompiledSlot {
            cache: Arc::clone(cache),
            at,
        }
    }

    /// Where the tool's compiled schema is kept, made on first use.
    pub(crate) fn cell(&self) -> Arc<OnceLock<CompiledSchema>> {
        // A poisoned lock only lost a cell being made; the map is whole.
        let mut cells = self.cache.0.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cells.entry(self.at).or_default())
    }
}

/// An input schema compiled for dispatch's check.
pub(crate) struct CompiledSchema {
    /// The schema text it was compiled from: an entry whose schema was replaced after the
    /// compile is compiled again, not checked against another schema.
    pub(crate) text: Arc<str>,
    /// The validator and what checking an input may cost, or why the schema cannot be
    /// checked.
    pub(crate) check: Result<CheckedSchema, SchemaFault>,
}

/// A schema dispatch can check: the validator, and what checking an input may cost.
pub(crate) struct CheckedSchema {
    /// The compiled schema.
    pub(crate) validator: jsonschema::Validator,
    /// The most subschemas it applies at one place of an input, `$ref`s followed, by the
    /// place's depth; a place deeper than the list counts its last entry.
    pub(crate) applications: Vec<u64>,
}

/// Why a schema cannot be checked: where in it, and the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaFault {
    /// The place in the schema (`.` for its root, `properties.name.pattern`).
    pub(crate) at: String,
    /// What is wrong there.
    pub(crate) rule: String,
}

impl std::fmt::Debug for CompiledSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells = self.cache.0.lock().unwrap_or_else(|e| e.into_inner());
        let compiled = cells.get(&self.at).is_some_and(|cell| cell.get().is_some());
        f.write_str(if compiled { "compiled" } else { "not compiled" })
    }
}

impl PartialEq for CompiledSlot {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for CompiledSlot {}

impl std::hash::Hash for CompiledSlot {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Where an MCP tool's permission name is kept once it was asked for and is not the tool's name
/// in the pool. Most tools' names are their permission names, and their slots stay empty: a
/// large catalog holds no second copy of every name. Derived from the names beside it, so it
/// takes no part in comparing or hashing an [`McpInfo`].
#[derive(Clone, Default)]
pub(crate) struct PermissionSlot(OnceLock<Box<str>>);

impl std::fmt::Debug for PermissionSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.get().map_or("the tool's name", |name| name))
    }
}

impl PartialEq for PermissionSlot {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for PermissionSlot {}

impl std::hash::Hash for PermissionSlot {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// An MCP tool's `annotations` hints, as the server sent them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpAnnotations {
    /// `readOnlyHint` (the spec's default: false).
    pub read_only: Option<bool>,
    /// `destructiveHint` (default: true, meaningful only when not read-only).
    pub destructive: Option<bool>,
    /// `idempotentHint` (default: false).
    pub idempotent: Option<bool>,
    /// `openWorldHint` (default: true).
    pub open_world: Option<bool>,
}

impl McpInfo {
    /// The names of tool `tool` of server `server`, as received.
    pub fn new(server: impl Into<Arc<str>>, tool: impl Into<String>) -> McpInfo {
        let server = server.into();
        let normalized = normalize_name_for_mcp(&server).into();
        McpInfo::of_server(&server, &normalized, tool.into(), CompiledSlot::default())
    }

    /// The names of tool `tool` of `server`, whose normalized name is `normalized`: the
    /// server's names shared, not copied, by each of its tools; its schema compiled in
    /// `compiled`.
    pub(crate) fn of_server(
        server: &Arc<str>,
        normalized: &Arc<str>,
        tool: String,
        compiled: CompiledSlot,
    ) -> McpInfo {
        McpInfo {
            permission_name: PermissionSlot::default(),
            server: Arc::clone(server),
            normalized_server: Arc::clone(normalized),
            tool,
            title: None,
            annotations: McpAnnotations::default(),
            compiled,
        }
    }
}

impl McpInfo {
    /// `mcp__<normalized server>__<normalized tool>`: what permission rules name, whatever
    /// name the pool gives the tool (`pool_name`), no length or uniqueness rule applied.
    /// Allocates nothing when `pool_name` is it; otherwise computed once and kept.
    pub(crate) fn permission_name<'a>(&'a self, pool_name: &'a str) -> &'a str {
        if self.is_permission_name(pool_name) {
            return pool_name;
        }
        self.permission_name
            .0
            .get_or_init(|| self.plain_name().into_boxed_str())
    }

    /// `mcp__<normalized server>__<normalized tool>`, built.
    pub(crate) fn plain_name(&self) -> String {
        permission_name(&self.normalized_server, &self.tool)
    }

    /// Whether `name` is `mcp__<normalized server>__<normalized tool>`, compared in place.
    fn is_permission_name(&self, name: &str) -> bool {
        name.strip_prefix("mcp__")
            .and_then(|rest| rest.strip_prefix(&*self.normalized_server))
            .and_then(|rest| rest.strip_prefix("__"))
            .is_some_and(|rest| rest.chars().eq(self.tool.chars().map(normalize_char)))
    }
}

/// `ch`, or `_` when it is outside `[A-Za-z0-9_-]`.
fn normalize_char(ch: char) -> char {
    if ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' {
        ch
    } else {
        '_'
    }
}

/// Replaces every character outside `[A-Za-z0-9_-]` with `_`.
pub fn normalize_name_for_mcp(name: &str) -> String {
    name.chars().map(normalize_char).collect()
}

/// `mcp__<normalized server>__<tool normalized>`, its capacity its length.
fn permission_name(normalized_server: &str, tool: &str) -> String {
    let tool = normalize_name_for_mcp(tool);
    let mut name = String::with_capacity(7 + normalized_server.len() + tool.len());
    for part in ["mcp__", normalized_server, "__", &tool] {
        name.push_str(part);
    }
    name
}

/// `mcp__<server>__<tool>`, both parts normalized (no length or uniqueness rule applied): the
/// tool's permission name.
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    format!(
        "mcp__{}__{}",
        normalize_name_for_mcp(server),
        normalize_name_for_mcp(tool)
    )
}

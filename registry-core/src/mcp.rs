//! MCP tools received at run time: from a server's `tools/list` result to pool entries.
//!
//! # Names
//! A tool is called `mcp__<server>__<tool>`, each part normalized by replacing every character
//! outside `[A-Za-z0-9_-]` with `_`. The received names are kept beside it ([`McpInfo`]).
//!
//! When that name is longer than 64 characters (the APIs' limit) or was already given to an
//! earlier tool (two raw names can normalize alike, in one server or across servers), the tool
//! gets `<name cut to 55 characters>_<8 hex digits>` instead: the digits are the FNV-1a hash of
//! the raw server name, a NUL byte and the raw tool name (and, should that name be taken too,
//! a NUL byte and a counter). Tools are named in the order given — servers in order, tools in
//! list order — so the first of two clashing tools keeps the plain name, and the same input
//! gives the same names on every machine.
//!
//! # Malformed entries
//! An entry without a string `name`, or whose `inputSchema` is missing or not a JSON object, is
//! skipped and reported as an [`McpError`] naming the server and the entry's index; the rest of
//! the server's tools still load.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::descriptor::Flags;
use crate::pool::{McpInfo, ToolInfo};

/// The most characters of an MCP tool's description that are sent and searched.
pub const MAX_DESCRIPTION_CHARS: usize = 2048;

/// What ends a description that was cut to [`MAX_DESCRIPTION_CHARS`].
pub const TRUNCATION_MARKER: &str = "… [description truncated]";

/// The longest tool name the APIs accept.
pub const MAX_NAME_LEN: usize = 64;

/// An entry of a `tools/list` result that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpError {
    /// The server it came from.
    pub server: String,
    /// The entry's index in the list; `None` when the whole result was unusable.
    pub index: Option<usize>,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(index) => write!(
                f,
                "mcp server `{}`, tools[{index}]: {}",
                self.server, self.message
            ),
            None => write!(f, "mcp server `{}`: {}", self.server, self.message),
        }
    }
}

impl std::error::Error for McpError {}

/// The tools loaded from one or more servers, and the entries that were skipped.
#[derive(Debug, Clone, Default)]
pub struct McpTools {
    /// The loaded tools, servers in order, tools in list order.
    pub tools: Vec<Arc<ToolInfo>>,
    /// The skipped entries.
    pub errors: Vec<McpError>,
}

/// Replaces every character outside `[A-Za-z0-9_-]` with `_`.
pub fn normalize_name_for_mcp(name: &str) -> String {
    name.chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' {
                ch
            } else {
                '_'
            }
        })
        .collect()
}

/// `mcp__<server>__<tool>`, both parts normalized (no length or uniqueness rule applied).
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    format!(
        "mcp__{}__{}",
        normalize_name_for_mcp(server),
        normalize_name_for_mcp(tool)
    )
}

/// Loads tools from `(server, tools/list result)` pairs. A result is `{"tools": [...]}`, a bare
/// array, or a JSON-RPC response whose `result` is one of those.
pub fn load_servers<'a>(servers: impl IntoIterator<Item = (&'a str, &'a Value)>) -> McpTools {
    let mut out = McpTools::default();
    let mut taken = HashSet::new();
    for (server, result) in servers {
        load_into(&mut out, &mut taken, server, result);
    }
    out
}

/// Loads one server's tools.
pub fn load_server(server: &str, result: &Value) -> McpTools {
    load_servers([(server, result)])
}

fn tool_list(result: &Value) -> Option<&Vec<Value>> {
    match result {
        Value::Array(items) => Some(items),
        Value::Object(map) => match (map.get("tools"), map.get("result")) {
            (Some(Value::Array(items)), _) => Some(items),
            (None, Some(inner)) => tool_list(inner),
            _ => None,
        },
        _ => None,
    }
}

fn load_into(out: &mut McpTools, taken: &mut HashSet<String>, server: &str, result: &Value) {
    let error = |index, message: String| McpError {
        server: server.to_owned(),
        index,
        message,
    };
    let Some(items) = tool_list(result) else {
        out.errors.push(error(
            None,
            "expected a tools/list result: {\"tools\": [...]} or an array of tools".into(),
        ));
        return;
    };
    for (index, item) in items.iter().enumerate() {
        match tool_info(server, item, taken) {
            Ok(tool) => out.tools.push(Arc::new(tool)),
            Err(message) => out.errors.push(error(Some(index), message)),
        }
    }
}

fn tool_info(server: &str, item: &Value, taken: &mut HashSet<String>) -> Result<ToolInfo, String> {
    let Some(object) = item.as_object() else {
        return Err("a tool must be a JSON object".into());
    };
    let raw_name = match object.get("name") {
        Some(Value::String(name)) if !name.is_empty() => name.as_str(),
        Some(Value::String(_)) => return Err("`name` is empty".into()),
        Some(_) => return Err("`name` must be a string".into()),
        None => return Err("missing `name`".into()),
    };
    let schema = match object.get("inputSchema") {
        Some(schema @ Value::Object(_)) => schema,
        Some(_) => {
            return Err(format!(
                "tool `{raw_name}`: `inputSchema` must be a JSON object"
            ));
        }
        None => return Err(format!("tool `{raw_name}`: missing `inputSchema`")),
    };
    let description = object
        .get("description")
        .and_then(Value::as_str)
        .map(cap_description)
        .unwrap_or_default();
    let meta = object.get("_meta");
    let search_hint = meta
        .and_then(|meta| meta.get("anthropic/searchHint"))
        .and_then(Value::as_str)
        .map(|hint| hint.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|hint| !hint.is_empty());
    let always_load = meta
        .and_then(|meta| meta.get("anthropic/alwaysLoad"))
        .and_then(Value::as_bool)
        == Some(true);
    let read_only = object
        .get("annotations")
        .and_then(|annotations| annotations.get("readOnlyHint"))
        .and_then(Value::as_bool)
        == Some(true);
    let name = unique_name(server, raw_name, taken);
    let input_schema = serde_json::to_string(schema).map_err(|error| error.to_string())?;
    Ok(ToolInfo {
        name,
        aliases: Vec::new(),
        description,
        search_hint,
        input_schema: Arc::from(input_schema),
        strict_input_schema: None,
        flags: Flags {
            always_load,
            read_only,
            concurrency_safe: read_only,
            ..Flags::NONE
        },
        max_result_size_chars: None,
        mcp: Some(McpInfo {
            server: server.to_owned(),
            tool: raw_name.to_owned(),
            normalized_server: normalize_name_for_mcp(server),
        }),
        builtin: None,
    })
}

/// Cuts a description to [`MAX_DESCRIPTION_CHARS`] characters, the marker included.
pub fn cap_description(text: &str) -> String {
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text.to_owned();
    }
    let keep = MAX_DESCRIPTION_CHARS - TRUNCATION_MARKER.chars().count();
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(TRUNCATION_MARKER);
    out
}

fn unique_name(server: &str, tool: &str, taken: &mut HashSet<String>) -> String {
    let plain = mcp_tool_name(server, tool);
    if plain.len() <= MAX_NAME_LEN && taken.insert(plain.clone()) {
        return plain;
    }
    let stem_len = MAX_NAME_LEN - 9;
    let stem = &plain[..plain.len().min(stem_len)];
    let mut key = format!("{server}\0{tool}");
    let mut counter = 0u32;
    loop {
        let candidate = format!("{stem}_{:08x}", fnv1a(key.as_bytes()) as u32);
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        counter += 1;
        key = format!("{server}\0{tool}\0{counter}");
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

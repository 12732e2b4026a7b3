//! MCP tools received at run time: from a server's `tools/list` result to pool entries.
//!
//! # Names
//! A tool is called `mcp__<server>__<tool>`, each part normalized by replacing every character
//! outside `[A-Za-z0-9_-]` with `_`. The received names are kept beside it ([`McpInfo`]), and
//! so is the tool's permission name, the same string before any of the changes below: that is
//! what permission rules match, so the changes never move a tool out of a rule's reach.
//!
//! When that name is longer than 64 characters (the APIs' limit) or was already given to an
//! earlier tool (two raw names can normalize alike, in one server or across servers), the tool
//! gets `<name cut to 55 characters>_<8 hex digits>` instead: the digits are the FNV-1a hash of
//! the raw server name, a NUL byte and the raw tool name (and, should that name be taken too,
//! a NUL byte and a counter). Tools are named in the order given — servers in order, tools in
//! list order — so the first of two clashing tools keeps the plain name, and the same input
//! gives the same names on every machine. Naming takes constant time per tool however many
//! tools share a name.
//!
//! # Annotations
//! `annotations.readOnlyHint: true` makes a tool read-only and concurrency-safe. A tool that is
//! not read-only is destructive unless `annotations.destructiveHint` is `false`: the MCP
//! spec's default for an absent hint is `true`, and dispatch asks before a destructive tool
//! runs unless a rule allows it.
//!
//! # Malformed and oversized entries
//! An entry without a string `name`, or whose `inputSchema` is missing or not a JSON object, or
//! past one of the [`McpLimits`], is skipped and reported as an [`McpError`] naming the server,
//! the entry's index and, when it has one, the tool; the rest of the server's tools still load.
//! Loading takes time and memory linear in the input.

use std::fmt;
use std::io;
use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

mod json_text;
mod limits;
mod names;
mod printable;

pub use crate::tool::mcp_info::{McpAnnotations, McpInfo, mcp_tool_name, normalize_name_for_mcp};
pub use limits::{McpError, McpLimits, McpProblem};
pub use names::MAX_NAME_LEN;
pub use printable::{Layout, printable};

use self::names::Names;

use crate::ToolInfo;
use crate::tool::mcp_info::{CompiledSlot, SchemaCache};
use crate::tool::{Flags, Origin};

/// The most characters of an MCP tool's description that are sent and searched.
pub const MAX_DESCRIPTION_CHARS: usize = 2048;

/// What ends a description that was cut to [`MAX_DESCRIPTION_CHARS`].
pub const TRUNCATION_MARKER: &str = "… [description truncated]";

/// The most characters of an MCP tool's display title kept.
pub const MAX_TITLE_CHARS: usize = 256;

/// The tools loaded from one or more servers, and the entries that were skipped.
#[derive(Debug, Clone, Default)]
pub struct McpTools {
    /// The loaded tools, servers in order, tools in list order.
    pub tools: Vec<Arc<ToolInfo>>,
    /// The skipped entries.
    pub errors: Vec<McpError>,
}

/// Loads tools from `(server, tools/list result)` pairs with the default [`McpLimits`]. A
/// result is `{"tools": [...]}`, a bare array, or a JSON-RPC response whose `result` is one of
/// those.
pub fn load_servers<'a>(servers: impl IntoIterator<Item = (&'a str, &'a Value)>) -> McpTools {
    load_servers_with(&McpLimits::default(), servers)
}

/// [`load_servers`] with other limits.
pub fn load_servers_with<'a>(
    limits: &McpLimits,
    servers: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> McpTools {
    let mut loader = McpLoader::with_limits(*limits);
    for (server, result) in servers {
        loader.add(server, result);
    }
    loader.finish()
}

/// Loads one server's tools.
///
/// `result` is the server's `tools/list` result (`{"tools": [...]}`) or its `tools` array. A
/// tool the loader refuses is left out and named in [`McpTools::errors`].
///
/// ```
/// use toolreg::mcp::load_server;
/// use serde_json::json;
///
/// let listed = json!({"tools": [
///     {"name": "read_file", "description": "Read a file", "inputSchema": {"type": "object"}},
///     {"name": "bad name!", "inputSchema": "not a schema"},
/// ]});
/// let loaded = load_server("files", &listed);
/// assert_eq!(loaded.tools[0].name, "mcp__files__read_file");
/// assert_eq!(loaded.errors.len(), 1);
/// ```
pub fn load_server(server: &str, result: &Value) -> McpTools {
    load_servers([(server, result)])
}

/// [`load_server`] from the result's JSON text, read one entry at a time
/// ([`McpLoader::add_json`]); an error when the text is not JSON.
///
/// ```
/// use toolreg::mcp::load_server_json;
///
/// let listed = r#"{"tools": [{"name": "read_file", "inputSchema": {"type": "object"}}]}"#;
/// let loaded = load_server_json("files", listed).unwrap();
/// assert_eq!(loaded.tools[0].name, "mcp__files__read_file");
/// assert!(load_server_json("files", "{").is_err());
/// ```
pub fn load_server_json(server: &str, text: &str) -> Result<McpTools, serde_json::Error> {
    let mut loader = McpLoader::new();
    loader.add_json(server, text)?;
    Ok(loader.finish())
}

/// Loads MCP tools server by server, naming them across servers as [`load_servers`] does: a
/// host that reads many `tools/list` results adds each as it reads it, and never holds them
/// all at once.
///
/// [`add_json`](Self::add_json) reads a result from its JSON text one entry at a time: the
/// text is never held as one [`Value`] tree (which takes about eight times the text's size),
/// only the entry being loaded.
///
/// ```
/// use toolreg::mcp::McpLoader;
/// use serde_json::json;
///
/// let mut loader = McpLoader::new();
/// loader.add_json("git", r#"[{"name": "git_log", "inputSchema": {"type": "object"}}]"#).unwrap();
/// loader.add("time", &json!({"tools": [{"name": "now", "inputSchema": {}}]}));
/// let loaded = loader.finish();
/// let names: Vec<&str> = loaded.tools.iter().map(|tool| tool.name.as_str()).collect();
/// assert_eq!(names, ["mcp__git__git_log", "mcp__time__now"]);
/// ```
pub struct McpLoader {
    limits: McpLimits,
    names: Names,
    /// Where the loaded tools' schemas are compiled for dispatch, by the tools' places.
    schemas: Arc<SchemaCache>,
    out: McpTools,
}

impl Default for McpLoader {
    fn default() -> Self {
        McpLoader::new()
    }
}

impl fmt::Debug for McpLoader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpLoader")
            .field("limits", &self.limits)
            .field("tools", &self.out.tools.len())
            .field("errors", &self.out.errors.len())
            .finish_non_exhaustive()
    }
}

impl McpLoader {
    /// A loader with the default [`McpLimits`].
    pub fn new() -> McpLoader {
        McpLoader::with_limits(McpLimits::default())
    }

    /// A loader with these limits.
    pub fn with_limits(limits: McpLimits) -> McpLoader {
        McpLoader {
            limits,
            names: Names::default(),
            schemas: Arc::default(),
            out: McpTools::default(),
        }
    }

    /// Loads `server`'s `tools/list` result: `{"tools": [...]}`, a bare array, or a JSON-RPC
    /// response whose `result` is one of those.
    pub fn add(&mut self, server: &str, result: &Value) {
        let entries = tool_list(result).map(|items| items.iter().map(Entry::Tree));
        self.load(server, entries);
    }

    /// Loads `server`'s `tools/list` result from its JSON text, with the same tools and the
    /// same errors as [`add`](Self::add) of the parsed text. Text that is not JSON is an error
    /// (serde_json's, saying where, the same as reading it into a [`Value`]) and loads nothing.
    pub fn add_json(&mut self, server: &str, text: &str) -> Result<(), serde_json::Error> {
        let entries = json_text::tool_list(text)?;
        self.load(
            server,
            entries.map(|items| items.into_iter().map(Entry::Text)),
        );
        Ok(())
    }

    /// The tools and errors so far.
    pub fn finish(self) -> McpTools {
        self.out
    }

    fn load<'a>(
        &mut self,
        server: &str,
        entries: Option<impl ExactSizeIterator<Item = Entry<'a>>>,
    ) {
        let limits = &self.limits;
        let error = |index, tool: Option<&str>, problem| McpError {
            server: server.to_owned(),
            index,
            tool: tool.map(|name| name.chars().take(100).collect()),
            problem,
        };
        let Some(items) = entries else {
            self.out
                .errors
                .push(error(None, None, McpProblem::NotAToolsList));
            return;
        };
        // The server's names, shared by its tools.
        let server_name: Arc<str> = Arc::from(server);
        let normalized: Arc<str> = Arc::from(normalize_name_for_mcp(server));
        let count = items.len();
        for (index, item) in items.enumerate() {
            if index == limits.max_tools_per_server {
                self.out.errors.push(error(
                    Some(index),
                    None,
                    McpProblem::TooManyTools {
                        skipped: count - index,
                        limit: limits.max_tools_per_server,
                    },
                ));
                break;
            }
            let parsed;
            let item = match item {
                Entry::Tree(value) => value,
                Entry::Text(text) => {
                    // Cannot fail: the whole text passed the same parser (`json_text`).
                    parsed = serde_json::from_str::<Value>(text.get()).unwrap_or_default();
                    &parsed
                }
            };
            let server = (&server_name, &normalized);
            let compiled = CompiledSlot::new(&self.schemas, self.out.tools.len() as u32);
            match tool_info(
                server,
                item,
                compiled,
                &mut self.names,
                &self.out.tools,
                limits,
            ) {
                Ok(tool) => {
                    self.out.tools.push(Arc::new(tool));
                    self.names.add(&self.out.tools, self.out.tools.len() - 1);
                }
                Err((tool, problem)) => self.out.errors.push(error(Some(index), tool, problem)),
            }
        }
    }
}

/// An entry of a tools list: parsed, or its JSON text, parsed when it is loaded.
enum Entry<'a> {
    Tree(&'a Value),
    Text(&'a RawValue),
}

fn tool_list(result: &Value) -> Option<&Vec<Value>> {
    let mut result = result;
    // A JSON-RPC response wraps the result once; nothing nests deeper.
    for _ in 0..2 {
        match result {
            Value::Array(items) => return Some(items),
            Value::Object(map) => match (map.get("tools"), map.get("result")) {
                (Some(Value::Array(items)), _) => return Some(items),
                (None, Some(inner)) => result = inner,
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

type EntryError<'a> = (Option<&'a str>, McpProblem);

fn tool_info<'a>(
    (server, normalized_server): (&Arc<str>, &Arc<str>),
    item: &'a Value,
    compiled: CompiledSlot,
    names: &mut Names,
    loaded: &[Arc<ToolInfo>],
    limits: &McpLimits,
) -> Result<ToolInfo, EntryError<'a>> {
    let Some(object) = item.as_object() else {
        return Err((None, McpProblem::NotAnObject));
    };
    let raw_name = match object.get("name") {
        Some(Value::String(name)) if name.len() > limits.max_name_bytes => {
            return Err((
                Some(name),
                McpProblem::NameTooLong {
                    bytes: name.len(),
                    limit: limits.max_name_bytes,
                },
            ));
        }
        Some(Value::String(name)) if !name.is_empty() => name.as_str(),
        Some(Value::String(_)) => return Err((None, McpProblem::EmptyName)),
        Some(_) => return Err((None, McpProblem::NameNotAString)),
        None => return Err((None, McpProblem::MissingName)),
    };
    let fail = |problem| Err((Some(raw_name), problem));
    let schema = match object.get("inputSchema") {
        Some(schema @ Value::Object(_)) => schema,
        Some(_) => return fail(McpProblem::SchemaNotAnObject),
        None => return fail(McpProblem::MissingSchema),
    };
    if depth_exceeds(schema, limits.max_schema_depth) {
        return fail(McpProblem::SchemaTooDeep {
            limit: limits.max_schema_depth,
        });
    }
    let Some(input_schema) = to_json_capped(schema, limits.max_schema_bytes) else {
        return fail(McpProblem::SchemaTooLarge {
            limit: limits.max_schema_bytes,
        });
    };
    let output_schema = match object.get("outputSchema") {
        Some(schema @ Value::Object(_)) if !depth_exceeds(schema, limits.max_schema_depth) => {
            to_json_capped(schema, limits.max_schema_bytes).map(Arc::from)
        }
        _ => None,
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
    let hint = |name: &str| {
        object
            .get("annotations")
            .and_then(|annotations| annotations.get(name))
            .and_then(Value::as_bool)
    };
    let annotations = McpAnnotations {
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    };
    let read_only = annotations.read_only == Some(true);
    // The MCP spec: `destructiveHint` defaults to true and means something only when the tool
    // is not read-only. An absent hint is taken at its default, so a tool that does not say
    // it is harmless asks before it runs, unless a rule allows it.
    let destructive = !read_only && hint("destructiveHint") != Some(false);
    let title = [
        object.get("title"),
        object.get("annotations").and_then(|a| a.get("title")),
    ]
    .into_iter()
    .flatten()
    .filter_map(Value::as_str)
    .find(|title| !title.trim().is_empty())
    .map(|title| title.chars().take(MAX_TITLE_CHARS).collect());
    let mut mcp = McpInfo::of_server(server, normalized_server, raw_name.to_owned(), compiled);
    mcp.title = title;
    mcp.annotations = annotations;
    Ok(ToolInfo {
        name: names.unique(loaded, &mcp),
        aliases: Vec::new(),
        description,
        search_hint,
        input_schema: Arc::from(input_schema),
        strict_input_schema: None,
        output_schema,
        input_examples: None,
        allowed_callers: None,
        flags: Flags {
            always_load,
            read_only,
            concurrency_safe: read_only,
            destructive,
            ..Flags::NONE
        },
        max_result_size_chars: None,
        origin: Origin::Mcp(mcp),
        deferral: None,
    })
}

/// Whether `value` nests more than `limit` levels (an object or array is one level), found
/// without recursion so any depth is safe to ask about.
fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth + 1 > limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// `value` as JSON text, or `None` once it passes `limit` bytes (nothing beyond the limit is
/// allocated).
fn to_json_capped(value: &Value, limit: usize) -> Option<String> {
    struct Capped {
        bytes: Vec<u8>,
        limit: usize,
    }
    impl io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.bytes.len() + buf.len() > self.limit {
                return Err(io::Error::other("over the limit"));
            }
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped {
        bytes: Vec::new(),
        limit,
    };
    serde_json::to_writer(&mut out, value).ok()?;
    String::from_utf8(out.bytes).ok()
}

/// Cuts a description to [`MAX_DESCRIPTION_CHARS`] characters, the marker included.
pub fn cap_description(text: &str) -> String {
    let Some((cut, _)) = text.char_indices().nth(MAX_DESCRIPTION_CHARS) else {
        return text.to_owned();
    };
    let keep = MAX_DESCRIPTION_CHARS - TRUNCATION_MARKER.chars().count();
    let end = text.char_indices().nth(keep).map_or(cut, |(at, _)| at);
    let mut out = text.get(..end).unwrap_or_default().to_owned();
    out.push_str(TRUNCATION_MARKER);
    out
}

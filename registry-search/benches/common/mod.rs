//! The retrieval sets under `data/eval` as pools of [`ToolDoc`]s, shared by the benches and the
//! examples: each tool named, described and grouped as `toolreg`'s MCP loader
//! (`toolreg::mcp::load_servers`) makes it, so that the figures measured here are those of the
//! pools `toolreg` builds. The workspace test `tests/tests/search_pools.rs` holds the two
//! loaders to the same documents, field by field as ToolSearch reads them.
//!
//! What that loader does to a `tools/list` entry, as ToolSearch sees it:
//! - the name becomes `mcp__<server>__<tool>`, each part with every character outside
//!   `[A-Za-z0-9_-]` replaced by `_`; a name longer than 64 characters, or already given in the
//!   same load, becomes its first 55 characters, `_` and 8 hex digits of the FNV-1a hash of
//!   `server NUL tool` (then of `server NUL tool NUL n` while that name is taken);
//! - the own name is the tool's name as received, the server its name as configured;
//! - the description is cut to 2,048 characters, a marker included;
//! - the input schema is the entry's JSON text; every tool is deferred.
//!
//! An entry with an empty name or a name over 1,024 bytes is refused. The loader's other refusals
//! (a schema that is not an object, too deep or too large) cannot happen to a set's tools, whose
//! schemas are objects of string properties.

// Each bench and example uses part of this.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;
use toolreg_search::ToolDoc;
use toolreg_search::eval::{EvalError, EvalSet, ServerLists};

/// A loaded evaluation set.
pub type Set = EvalSet<ToolDoc>;

/// The longest tool name the APIs accept.
const MAX_NAME_LEN: usize = 64;
/// The longest raw name the loader accepts, in bytes.
const MAX_NAME_BYTES: usize = 1024;
/// The most characters of a description that are sent and searched.
const MAX_DESCRIPTION_CHARS: usize = 2048;
/// What ends a description that was cut.
const TRUNCATION_MARKER: &str = "… [description truncated]";

/// The directory of set `name` under the workspace's `data/eval`.
pub fn data_dir(name: &str) -> String {
    format!("{}/../data/eval/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The tools of each `(server, tools/list array)`: servers in order, tools in list order, all
/// deferred. The error names the entry refused.
pub fn load_servers<'a>(
    servers: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> Result<Vec<Arc<ToolDoc>>, String> {
    let mut names = Names::default();
    let mut pool = Vec::new();
    for (server, list) in servers {
        for (index, entry) in list.as_array().into_iter().flatten().enumerate() {
            let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default();
            let tool = text("name");
            if tool.is_empty() || tool.len() > MAX_NAME_BYTES {
                return Err(format!(
                    "mcp server `{server}`, tools[{index}]: the name is empty or too long"
                ));
            }
            let schema = entry
                .get("inputSchema")
                .map_or_else(|| "{}".to_owned(), Value::to_string);
            let doc = ToolDoc::new(
                names.unique(server, tool),
                cap_description(text("description")),
            )
            .with_own_name(tool)
            .with_server(server)
            .with_input_schema(schema);
            pool.push(Arc::new(doc));
        }
    }
    Ok(pool)
}

/// Parses a set (`tools.jsonl`, `queries.jsonl`) over [`load_servers`]; `set_name` is the server
/// of tools whose line names none.
pub fn parse(set_name: &str, tools_jsonl: &str, queries_jsonl: &str) -> Result<Set, EvalError> {
    EvalSet::load(
        set_name,
        tools_jsonl,
        queries_jsonl,
        |servers: &ServerLists| {
            load_servers(servers.iter().map(|(server, list)| (server.as_str(), list)))
        },
    )
}

/// Reads `DIR/tools.jsonl` and `DIR/queries.jsonl`; the directory's last component names the
/// set. The error says which file or line was wrong.
pub fn read_set(dir: &str) -> Result<(String, Set), String> {
    let read = |file: &str| {
        std::fs::read_to_string(format!("{dir}/{file}"))
            .map_err(|error| format!("{dir}/{file}: {error}"))
    };
    let (tools, queries) = (read("tools.jsonl")?, read("queries.jsonl")?);
    let name = dir
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("set");
    let set = parse(name, &tools, &queries).map_err(|error| format!("{dir}: {error}"))?;
    Ok((name.to_owned(), set))
}

/// Replaces every character outside `[A-Za-z0-9_-]` with `_`.
fn normalize(name: &str) -> String {
    name.chars()
        .map(|ch| match ch {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => ch,
            _ => '_',
        })
        .collect()
}

/// Cuts a description to [`MAX_DESCRIPTION_CHARS`] characters, the marker included.
fn cap_description(text: &str) -> String {
    let Some((cut, _)) = text.char_indices().nth(MAX_DESCRIPTION_CHARS) else {
        return text.to_owned();
    };
    let keep = MAX_DESCRIPTION_CHARS - TRUNCATION_MARKER.chars().count();
    let end = text.char_indices().nth(keep).map_or(cut, |(at, _)| at);
    format!("{}{TRUNCATION_MARKER}", &text[..end])
}

/// The names given so far in one load.
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
    /// For each raw `server NUL tool`, the counter its next hashed candidate starts from.
    next: HashMap<String, u32>,
}

impl Names {
    fn unique(&mut self, server: &str, tool: &str) -> String {
        let plain = format!("mcp__{}__{}", normalize(server), normalize(tool));
        if plain.len() <= MAX_NAME_LEN && self.taken.insert(plain.clone()) {
            return plain;
        }
        // `plain` is ASCII, so any byte offset is a character boundary.
        let stem = plain.get(..MAX_NAME_LEN - 9).unwrap_or(&plain);
        let key = format!("{server}\0{tool}");
        let counter = self.next.entry(key.clone()).or_insert(0);
        loop {
            let hash = match *counter {
                0 => fnv1a(key.as_bytes()),
                n => fnv1a(format!("{key}\0{n}").as_bytes()),
            };
            *counter += 1;
            let candidate = format!("{stem}_{:08x}", hash as u32);
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

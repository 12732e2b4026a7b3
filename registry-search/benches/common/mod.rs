//! The retrieval sets under `data/eval` as pools of [`ToolDoc`]s, shared by the benches and the
//! examples (`toolreg-models`' too): each set's tools are loaded by `toolreg`'s MCP loader
//! (`toolreg::mcp::load_servers`), which names, describes and groups them as it does a user's,
//! and each pool entry becomes a [`ToolDoc`] with the fields ToolSearch reads, so that the
//! figures measured here are those of the pools `toolreg` builds. (`toolreg` is a path-only
//! dev-dependency: it depends on this crate, and `cargo package` leaves it out.)

// Each bench and example uses part of this.
#![allow(dead_code)]

use std::sync::Arc;

use serde_json::Value;
use toolreg_search::eval::{EvalError, EvalSet, ServerLists};
use toolreg_search::{Document, ToolDoc};

/// A loaded evaluation set.
pub type Set = EvalSet<ToolDoc>;

/// The directory of set `name` under the workspace's `data/eval`.
pub fn data_dir(name: &str) -> String {
    format!("{}/../data/eval/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The tools of each `(server, tools/list array)` as `toolreg` loads them: servers in order,
/// tools in list order, all deferred. The error names the first entry the loader refused.
pub fn load_servers<'a>(
    servers: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> Result<Vec<Arc<ToolDoc>>, String> {
    let loaded = toolreg::mcp::load_servers(servers);
    if let Some(error) = loaded.errors.first() {
        return Err(error.to_string());
    }
    Ok(loaded
        .tools
        .iter()
        .map(|tool| Arc::new(to_doc(&**tool)))
        .collect())
}

/// A pool entry as a [`ToolDoc`]: every field ToolSearch reads.
fn to_doc(tool: &impl Document) -> ToolDoc {
    let mut doc = ToolDoc::new(tool.name(), tool.description())
        .with_own_name(tool.own_name())
        .with_aliases(tool.aliases().iter().cloned())
        .with_input_schema(tool.input_schema())
        .with_deferred(tool.is_deferred());
    if let Some(server) = tool.server() {
        doc = doc.with_server(server);
    }
    if let Some(hint) = tool.search_hint() {
        doc = doc.with_search_hint(hint);
    }
    doc
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

/// Copies of stabletoolbench's tools in the latency workloads: 4 × 2,479 = 9,916 tools,
/// 40 × 2,479 = 99,160.
pub const COPIES: [usize; 2] = [4, 40];

/// stabletoolbench (`data/eval/stabletoolbench`) with its tools `copies` times, each copy under
/// its own server names, and its requests once: the pool of the latency benches.
pub fn stabletoolbench(copies: usize) -> Set {
    let read = |file: &str| {
        let path = format!("{}/{file}", data_dir("stabletoolbench"));
        std::fs::read_to_string(path).expect("data/eval/stabletoolbench in the repository")
    };
    let tools = read("tools.jsonl");
    let mut lines = String::new();
    for copy in 0..copies {
        for line in tools.lines() {
            let mut tool: Value = serde_json::from_str(line).expect("a tool line");
            let server = tool["extra"]["tool_name"]
                .as_str()
                .unwrap_or("set")
                .to_owned();
            if copy > 0 {
                tool["extra"]["tool_name"] = Value::from(format!("{server} {copy}"));
                tool["id"] = Value::from(format!("{}#{copy}", tool["id"].as_str().unwrap()));
            }
            lines.push_str(&tool.to_string());
            lines.push('\n');
        }
    }
    parse("stabletoolbench", &lines, &read("queries.jsonl")).expect("the set parses")
}

//! Writes a large MCP catalog for measuring `toolreg` at scale: stabletoolbench's 2,479 tools
//! (`data/eval/stabletoolbench`) as MCP `tools/list` entries (name, description, an input schema
//! of its string parameters), server `s<k>` holding the k-th copy, until there are TOOLS tools
//! (default 100,000: 41 servers, 24.8 MB of JSON). Each server is a file `DIR/s<k>.json`;
//! `DIR/options` holds the `--mcp s<k>=DIR/s<k>.json` options that load them all.
//!
//! ```text
//! cargo run --release -p toolreg-cli --example catalog -- target/catalog 100000
//! /usr/bin/time -v target/release/toolreg $(cat target/catalog/options) list --json >/dev/null
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(dir), tools) = (args.next().map(PathBuf::from), args.next()) else {
        eprintln!("usage: catalog DIR [TOOLS]");
        return ExitCode::FAILURE;
    };
    let tools: usize = match tools.map(|tools| tools.parse()) {
        None => 100_000,
        Some(Ok(tools)) => tools,
        Some(Err(error)) => {
            eprintln!("TOOLS: {error}");
            return ExitCode::FAILURE;
        }
    };
    match write(&dir, tools) {
        Ok(bytes) => {
            eprintln!("{tools} tools, {bytes} bytes, in {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{}: {error}", dir.display());
            ExitCode::FAILURE
        }
    }
}

/// Writes the catalog; returns the bytes of JSON written.
fn write(dir: &std::path::Path, tools: usize) -> std::io::Result<usize> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/eval/stabletoolbench/tools.jsonl"
    );
    let set = std::fs::read_to_string(path)?;
    let entries = set
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).map(|tool| entry(&tool)))
        .collect::<Result<Vec<Value>, _>>()?;
    std::fs::create_dir_all(dir)?;
    let (mut bytes, mut options) = (0, Vec::new());
    for k in 0..tools.div_ceil(entries.len().max(1)) {
        let take = entries.len().min(tools - k * entries.len());
        let text = json!({"tools": entries[..take]}).to_string();
        let file = dir.join(format!("s{k}.json"));
        std::fs::write(&file, &text)?;
        bytes += text.len();
        options.push(format!("--mcp s{k}={}", file.display()));
    }
    std::fs::write(dir.join("options"), options.join(" ") + "\n")?;
    Ok(bytes)
}

/// A stabletoolbench line as an MCP tool: its name, description and string parameters.
fn entry(tool: &Value) -> Value {
    let properties: serde_json::Map<String, Value> = tool["extra"]["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|param| (param.to_owned(), json!({"type": "string"})))
        .collect();
    json!({
        "name": tool["name"],
        "description": tool["description"],
        "inputSchema": {"type": "object", "properties": properties},
    })
}

//! The tools a Responses history loaded: its `tool_search_output` items carry their
//! definitions. Reading which they are, and dropping the ones the next request's pool no longer
//! has.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Pool;

/// The tools the `tool_search_output` items of a Responses history (its `input`) loaded.
pub fn discovered(history: &[Value]) -> BTreeSet<String> {
    let mut found = Vec::new();
    for item in history {
        if item.get("type").and_then(Value::as_str) == Some("tool_search_output") {
            loaded_by(item, &mut found);
        }
    }
    found.into_iter().collect()
}

/// The pool names one `tool_search_output` item loads, added to `into`.
pub(crate) fn loaded_by(item: &Value, into: &mut Vec<String>) {
    let tools = item.get("tools").and_then(Value::as_array);
    for tool in tools.into_iter().flatten() {
        discovered_in_output_tool(tool, into);
    }
}

/// The pool names a Responses `tool_search_output` tool loads: a function's name, or each
/// function of a namespace as `<namespace>__<name>`.
fn discovered_in_output_tool(tool: &Value, into: &mut Vec<String>) {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
    match tool.get("type").and_then(Value::as_str) {
        Some("namespace") => {
            for inner in tool
                .get("tools")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(inner) = inner.get("name").and_then(Value::as_str) {
                    into.push(format!("{name}__{inner}"));
                }
            }
        }
        _ if !name.is_empty() => into.push(name.to_owned()),
        _ => {}
    }
}

/// Drops from the `tool_search_output` items of a Responses history (its `input`) the
/// definitions of tools outside `pool` (a function, or a namespace's function, whose server
/// left, say), so the next request offers the model no tool it cannot call; a namespace left
/// with no function goes too. Returns how many definitions were dropped.
pub fn drop_tools_outside(history: &mut [Value], pool: &Pool) -> usize {
    let mut dropped = 0;
    for item in history {
        if item.get("type").and_then(Value::as_str) != Some("tool_search_output") {
            continue;
        }
        let Some(Value::Array(tools)) = item.get_mut("tools") else {
            continue;
        };
        let before = tools.len();
        tools.retain_mut(|tool| {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            if tool.get("type").and_then(Value::as_str) != Some("namespace") {
                return name.is_empty() || pool.named(&name).is_some();
            }
            let Some(Value::Array(inner)) = tool.get_mut("tools") else {
                return true;
            };
            let count = inner.len();
            inner.retain(|function| {
                let function = function
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                pool.named(&format!("{name}__{function}")).is_some()
            });
            dropped += count - inner.len();
            !inner.is_empty()
        });
        dropped += before - tools.len();
    }
    dropped
}

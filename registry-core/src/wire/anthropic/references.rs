//! `tool_reference` blocks in a conversation: which deferred tools it loaded, and rewriting the
//! ones the next request cannot carry.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Pool;

/// What replaces tool references when tool search is off.
pub const REFS_REMOVED_DISABLED: &str = "[Tool references removed - tool search not enabled]";
/// What replaces references to tools that are no longer in the pool.
pub const REFS_REMOVED_GONE: &str = "[Tool references removed - tools no longer available]";

fn for_each_content_array(messages: &mut [Value], mut visit: impl FnMut(&mut Vec<Value>)) {
    for message in messages {
        let Some(Value::Array(blocks)) = message.get_mut("content") else {
            continue;
        };
        for block in blocks {
            if block.get("type").and_then(Value::as_str) == Some("tool_result")
                && let Some(Value::Array(inner)) = block.get_mut("content")
            {
                visit(inner);
            }
        }
    }
}

fn reference_name(block: &Value) -> Option<&str> {
    (block.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .then(|| block.get("tool_name").and_then(Value::as_str))
        .flatten()
}

/// The names of the tools loaded by `tool_reference` blocks in a conversation's messages
/// (inside `tool_result` content).
pub fn discovered_tools(messages: &[Value]) -> BTreeSet<String> {
    messages
        .iter()
        .filter_map(|message| message.get("content")?.as_array())
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_result"))
        .filter_map(|block| block.get("content")?.as_array())
        .flatten()
        .filter_map(reference_name)
        .map(str::to_owned)
        .collect()
}

/// The deferred tools a Messages history loaded: those named by `tool_reference` blocks in
/// its `tool_result`s ([`discovered_tools`]) and by the API's own search results
/// (`tool_search_tool_result` blocks).
pub fn discovered(history: &[Value]) -> BTreeSet<String> {
    let mut found = discovered_tools(history);
    for message in history {
        let blocks = message.get("content").and_then(Value::as_array);
        for block in blocks.into_iter().flatten() {
            if block.get("type").and_then(Value::as_str) != Some("tool_search_tool_result") {
                continue;
            }
            let references = block.pointer("/content/tool_references");
            for reference in references.and_then(Value::as_array).into_iter().flatten() {
                if let Some(name) = reference.get("tool_name").and_then(Value::as_str) {
                    found.insert(name.to_owned());
                }
            }
        }
    }
    found
}

/// Rewrites `tool_reference` blocks the next request cannot carry: all of them when tool search
/// is off, those naming tools outside `pool` when it is on. Each run of removed references
/// becomes one text block saying why. Returns how many references were removed.
pub fn rewrite_tool_references(messages: &mut [Value], tool_search: bool, pool: &Pool) -> usize {
    let mut removed = 0;
    for_each_content_array(messages, |blocks| {
        let mut out: Vec<Value> = Vec::with_capacity(blocks.len());
        let mut in_run = false;
        for block in blocks.drain(..) {
            let drop_reason = reference_name(&block).and_then(|name| {
                if !tool_search {
                    Some(REFS_REMOVED_DISABLED)
                } else if pool.named(name).is_none() {
                    Some(REFS_REMOVED_GONE)
                } else {
                    None
                }
            });
            match drop_reason {
                Some(reason) => {
                    removed += 1;
                    if !in_run {
                        out.push(serde_json::json!({"type": "text", "text": reason}));
                    }
                    in_run = true;
                }
                None => {
                    out.push(block);
                    in_run = false;
                }
            }
        }
        *blocks = out;
    });
    removed
}

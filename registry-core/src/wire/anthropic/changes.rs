//! Tool changes between requests (Anthropic betas): the first request's `tools` are sent on
//! every later request, and what changed since enters the history as `tool_addition` and
//! `tool_removal` blocks, so every request's bytes are the start of the next one's.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

/// The beta that lets a conversation add and remove tools between requests.
pub const TOOL_CHANGES_BETA: &str = "mid-conversation-tool-changes-2026-07-01";
/// The beta that lets a `tool_addition` carry the tool's definition.
pub const INLINE_TOOLS_BETA: &str = "inline-tools-2026-09-15";

/// What a conversation with tool changes declared so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolChanges {
    frozen: Option<Frozen>,
}

#[derive(Debug, Clone)]
struct Frozen {
    /// The first request's `tools`.
    tools: Value,
    /// What is declared now, by name.
    declared: BTreeMap<String, Value>,
    /// The deferred tools announced so far.
    announced: BTreeSet<String>,
    /// The first request's announcement, sent at the head of every request's messages.
    announcement: Option<String>,
}

impl ToolChanges {
    /// The `tools` this request sends (the first request's), given the ones rendered for it and
    /// its announcement of deferred tools; and the blocks that say what changed since the last
    /// request: a `tool_removal` for a tool that left or changed, a `tool_addition` carrying the
    /// definition of one that appeared or changed, a text block announcing newly deferred tools.
    pub(crate) fn apply(
        &mut self,
        tools: Value,
        announcement: Option<String>,
    ) -> (Value, Vec<Value>) {
        let current: BTreeMap<String, Value> = tools
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tool| Some((tool.get("name")?.as_str()?.to_owned(), tool.clone())))
            .collect();
        let announced = announced_names(announcement.as_deref());
        let Some(frozen) = &mut self.frozen else {
            self.frozen = Some(Frozen {
                tools: tools.clone(),
                declared: current,
                announced,
                announcement,
            });
            return (tools, Vec::new());
        };
        let mut blocks = Vec::new();
        for (name, definition) in &frozen.declared {
            if current.get(name) != Some(definition) {
                blocks.push(json!({"type": "tool_removal", "tool": {"type": "tool_reference", "name": name}}));
            }
        }
        for (name, definition) in &current {
            if frozen.declared.get(name) != Some(definition) {
                blocks.push(json!({"type": "tool_addition", "tool": {"type": "tool_definition", "definition": definition}}));
            }
        }
        let new: Vec<&str> = announced
            .difference(&frozen.announced)
            .map(String::as_str)
            .collect();
        if !new.is_empty() {
            blocks.push(json!({"type": "text", "text": format!(
                "<available-deferred-tools>\n{}\n</available-deferred-tools>",
                new.join("\n")
            )}));
        }
        frozen.declared = current;
        frozen.announced.extend(announced);
        (frozen.tools.clone(), blocks)
    }

    /// The first request's announcement of deferred tools, which heads every request's
    /// messages.
    pub(crate) fn announcement(&self) -> Option<String> {
        self.frozen
            .as_ref()
            .and_then(|frozen| frozen.announcement.clone())
    }
}

/// Appends `blocks` to the last user message of `history` (a new user message when it has
/// none; a text content becomes a text block).
pub(crate) fn append_to_last_user_message(history: &mut Vec<Value>, blocks: Vec<Value>) {
    let last = history
        .iter_mut()
        .rev()
        .find(|message| message.get("role").and_then(Value::as_str) == Some("user"));
    let Some(message) = last else {
        history.push(json!({"role": "user", "content": blocks}));
        return;
    };
    let Some(fields) = message.as_object_mut() else {
        return;
    };
    let content = fields.entry("content").or_insert_with(|| json!([]));
    if let Value::String(text) = content {
        *content = json!([{"type": "text", "text": text}]);
    }
    if let Some(list) = content.as_array_mut() {
        list.extend(blocks);
    }
}

/// The names an `<available-deferred-tools>` message lists.
fn announced_names(message: Option<&str>) -> BTreeSet<String> {
    message
        .into_iter()
        .flat_map(str::lines)
        .filter(|line| !line.starts_with('<') && !line.is_empty())
        .map(str::to_owned)
        .collect()
}

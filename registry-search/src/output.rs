//! What a search answers: the [`SearchOutput`], and the `tool_result` block it becomes.

use serde::Serialize;
use serde_json::{Value, json};

/// The default number of matches.
pub const DEFAULT_MAX_RESULTS: usize = 5;

/// What ToolSearch returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchOutput {
    /// The matching tools' names, best first.
    pub matches: Vec<String>,
    /// The query as given.
    pub query: String,
    /// How many tools were deferred.
    pub total_deferred_tools: usize,
    /// MCP servers still connecting, reported only when nothing matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_mcp_servers: Option<Vec<String>>,
}

impl SearchOutput {
    /// An output with these matches; pending servers are kept only when nothing matched.
    pub fn new(
        matches: Vec<String>,
        query: &str,
        total_deferred_tools: usize,
        pending_mcp_servers: &[String],
    ) -> Self {
        let pending = (matches.is_empty() && !pending_mcp_servers.is_empty())
            .then(|| pending_mcp_servers.to_vec());
        SearchOutput {
            matches,
            query: query.to_owned(),
            total_deferred_tools,
            pending_mcp_servers: pending,
        }
    }

    /// The `tool_result` block the model sees: one `tool_reference` block per match, or the
    /// no-match text (with the servers still connecting, if any).
    pub fn to_tool_result(&self, tool_use_id: &str) -> Value {
        json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": self.content()})
    }

    /// The content of the `tool_result` block: `tool_reference` blocks, or the no-match text.
    pub fn content(&self) -> Value {
        if self.matches.is_empty() {
            let mut text = String::from("No matching deferred tools found");
            if let Some(pending) = &self.pending_mcp_servers {
                text.push_str(&format!(
                    ". Some MCP servers are still connecting: {}. Their tools will become available shortly — try searching again.",
                    pending.join(", ")
                ));
            }
            return Value::String(text);
        }
        let references: Vec<Value> = self
            .matches
            .iter()
            .map(|name| json!({"type": "tool_reference", "tool_name": name}))
            .collect();
        Value::Array(references)
    }
}

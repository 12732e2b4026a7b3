//! What answers a call: a [`ToolResult`], the tool's output (cut to its limit) or why the call
//! did not produce one.

use serde_json::{Value, json};

use crate::{DispatchError, ToolOutput};

/// The answer to one [`ToolCall`](crate::ToolCall).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub tool_use_id: String,
    /// The content: the tool's output, or the error's text.
    pub content: ToolOutput,
    /// Why the call failed or was refused; `None` on success.
    pub error: Option<DispatchError>,
}

impl ToolResult {
    /// The result of a call that failed or was refused: the error's text, `is_error`.
    pub fn from_error(tool_use_id: &str, error: DispatchError) -> Self {
        ToolResult {
            tool_use_id: tool_use_id.to_owned(),
            content: ToolOutput::Text(error.to_string()),
            error: Some(error),
        }
    }

    /// Whether the call failed or was refused (`is_error` in the block).
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Whether the tool's body ran.
    pub fn called(&self) -> bool {
        self.error.as_ref().is_none_or(DispatchError::ran)
    }

    /// The block as the Messages API takes it: text content as a string, structured content as
    /// its JSON text, an image or other blocks as an array of content blocks.
    pub fn to_json(&self) -> Value {
        let content = match &self.content {
            ToolOutput::Text(text) => Value::String(text.clone()),
            ToolOutput::Json(value) => Value::String(value.to_string()),
            other => Value::Array(other.to_blocks()),
        };
        let mut block =
            json!({"type": "tool_result", "tool_use_id": self.tool_use_id, "content": content});
        if let (true, Some(fields)) = (self.is_error(), block.as_object_mut()) {
            fields.insert("is_error".into(), Value::Bool(true));
        }
        block
    }
}

/// Marks an output cut to the tool's limit.
pub const OUTPUT_TRUNCATED: &str = "\n… [output truncated]";

/// `output` cut to `limit` characters (as text, for JSON), the cut marked with
/// [`OUTPUT_TRUNCATED`]; images and block lists are returned as they are. What dispatch does
/// with a tool's `max_result_size_chars`, for a host that caps output of its own.
pub fn cap_output(output: ToolOutput, limit: Option<usize>) -> ToolOutput {
    let Some(limit) = limit else {
        return output;
    };
    let text = match output {
        ToolOutput::Blocks(blocks) => return ToolOutput::Blocks(blocks),
        image @ ToolOutput::Image { .. } => return image,
        ToolOutput::Text(text) => text,
        ToolOutput::Json(value) => {
            let text = value.to_string();
            if text.chars().count() <= limit {
                return ToolOutput::Json(value);
            }
            text
        }
    };
    if text.chars().count() <= limit {
        return ToolOutput::Text(text);
    }
    let mut cut: String = text.chars().take(limit).collect();
    cut.push_str(OUTPUT_TRUNCATED);
    ToolOutput::Text(cut)
}

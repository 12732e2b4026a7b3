//! What answers a call: a [`ToolResult`], the tool's output (cut to its limit) or why the call
//! did not produce one.

use crate::{DispatchError, ToolOutput};

/// The answer to one [`ToolCall`](crate::ToolCall). Each API's module writes it in its form
/// ([`anthropic::tool_result`](crate::wire::anthropic::tool_result),
/// [`chat_completions::tool_message`](crate::wire::chat_completions::tool_message),
/// [`responses::tool_output`](crate::wire::responses::tool_output)).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub tool_use_id: String,
    /// The tool's name in the pool; the name the model called when no tool of the pool
    /// answers to it.
    pub tool: String,
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
            tool: error.tool().to_owned(),
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

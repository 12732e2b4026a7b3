//! The next request's `tools` for Chat Completions: function tools, ToolSearch among them when
//! deferral is on, the loaded deferred tools in full.

use serde::Serialize;

use crate::Pool;
use crate::wire::RenderError;
use crate::wire::openai::{
    Chosen, Function, OpenAiOptions, OpenAiToolSearch, RenderedOpenAi, choose,
};
use crate::wire::tools::{Entry, Named, ToolsArray, announce};

/// The most tools one Chat Completions request may carry.
pub const MAX_TOOLS: usize = 128;

/// `{"type": "function", "function": {...}}`.
#[derive(Debug, Serialize)]
struct ChatTool {
    #[serde(rename = "type")]
    kind: &'static str,
    function: Function,
}

impl Named for ChatTool {
    fn name(&self) -> &str {
        &self.function.name
    }
}

/// The Chat Completions `tools` of `pool` (see
/// [`OpenAiToolSearch`](crate::wire::openai::OpenAiToolSearch) for what each mode sends).
pub(crate) fn tools(pool: &Pool, options: &OpenAiOptions) -> Result<RenderedOpenAi, RenderError> {
    if options.tool_search == OpenAiToolSearch::Server {
        return Err(RenderError::Unsupported {
            api: "OpenAI Chat Completions",
            what: "server-side tool search (use the Responses API, or client-side search)",
        });
    }
    let Chosen {
        tools: chosen,
        announced,
        mode,
    } = choose(pool, options);
    if chosen.len() > MAX_TOOLS {
        return Err(RenderError::TooManyTools {
            api: "OpenAI Chat Completions",
            count: chosen.len(),
            limit: MAX_TOOLS,
            tool_search: mode != OpenAiToolSearch::Off,
        });
    }
    let mut entries: Vec<Box<dyn Entry>> = Vec::with_capacity(chosen.len());
    for (tool, _) in chosen {
        entries.push(Box::new(ChatTool {
            kind: "function",
            function: Function::of(tool, options.strict)?,
        }));
    }
    Ok(RenderedOpenAi {
        tool_count: entries.len(),
        tools: ToolsArray::new(entries),
        deferred_tools_message: announce(&announced),
    })
}

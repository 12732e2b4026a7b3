//! The one call type: a [`ToolCall`] the model made, as a response's parser reads it and as the
//! dispatcher runs it.

use serde::Deserialize;
use serde_json::Value;

use crate::tool::Caller;

/// One tool call the model made, in the order it made it: an Anthropic `tool_use` block, a Chat
/// Completions `tool_calls[]` entry, a Responses `function_call` (or client `tool_search_call`)
/// item. A response's parser ([`parse_response`](crate::wire::parse_response)) reads them, the
/// [`Dispatcher`](crate::Dispatcher) runs them, and each is answered by one
/// [`ToolResult`](crate::ToolResult) with its id.
///
/// ```
/// use toolreg::ToolCall;
/// use serde_json::json;
///
/// let call = ToolCall::new("t1", "Read", json!({"file_path": "README.md"}));
/// assert_eq!(call.input, Ok(json!({"file_path": "README.md"})));
/// // A tool_use block deserializes into a call.
/// let block = json!({"type": "tool_use", "id": "t2", "name": "Read", "input": {}});
/// let call: ToolCall = serde_json::from_value(block).unwrap();
/// assert_eq!(call.id, "t2");
/// // A call from code the model runs in the code execution tool names its caller.
/// let block = json!({"type": "tool_use", "id": "t3", "name": "Read", "input": {},
///     "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_1"}});
/// let call: ToolCall = serde_json::from_value(block).unwrap();
/// assert_eq!(call.caller.name(), "code_execution_20260120");
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(from = "Block")]
pub struct ToolCall {
    /// The id its result answers (`tool_use.id`, `tool_calls[].id`, `call_id`).
    pub id: String,
    /// The tool's name in the pool (a Responses call inside a namespace is
    /// `<namespace>__<name>`; a client `tool_search_call` is ToolSearch).
    pub name: String,
    /// The input, or why the model's arguments could not be read (Chat Completions and
    /// Responses send them as a JSON string, which a model can get wrong): such a call is
    /// answered with an `is_error` result naming the problem, without running.
    pub input: Result<Value, String>,
    /// Who made the call: the model, or code it runs in the code execution tool (an
    /// Anthropic `tool_use` block's `caller`). The dispatcher runs a call only when the tool
    /// [allows](crate::ToolInfo::callers) its caller.
    pub caller: Caller,
}

impl ToolCall {
    /// A call of `name` with `input`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, input: Value) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            input: Ok(input),
            caller: Caller::Direct,
        }
    }

    /// The call made by `caller`.
    pub fn with_caller(mut self, caller: Caller) -> Self {
        self.caller = caller;
        self
    }
}

/// A `tool_use` block's fields: the input defaults to `null`.
#[derive(Deserialize)]
struct Block {
    id: String,
    name: String,
    #[serde(default)]
    input: Value,
    caller: Option<Value>,
}

impl From<Block> for ToolCall {
    fn from(block: Block) -> Self {
        ToolCall::new(block.id, block.name, block.input)
            .with_caller(Caller::from_value(block.caller.as_ref()))
    }
}

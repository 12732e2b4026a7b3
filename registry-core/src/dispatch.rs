//! Dispatch: running the tool the model called, and never one it may not use.
//!
//! The steps, in order: find the tool by name or alias *in the current pool* (a tool outside
//! it — unknown, denied, or not for this agent — is refused and not called) → deserialize the
//! input (the error names the JSON path) → the tool's `validate_input` → the permission checks
//! → the call → a `tool_result` block, with `is_error: true` on any failure.
//!
//! Permission checks: the rules decide first
//! ([`PermissionContext::check`](crate::PermissionContext::check) over the tool's
//! [`rule_subject`](crate::Tool::rule_subject)): a deny refuses, an ask asks the [`Approver`],
//! an allow allows; when no rule decides, the tool's own `check_permissions` does. In
//! `BypassPermissions` mode nothing asks. Without an approver, a call that needs asking is
//! refused with a result that says so.
//!
//! MCP tools are called through the host's [`McpCaller`]; their input must be a JSON object and
//! is otherwise checked by the server.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::defer::is_deferred;
use crate::env::Env;
use crate::permissions::{PermissionMode, Refusal, Subject, Verdict};
use crate::pool::{ToolInfo, find_tool};
use crate::tool::{PermissionDecision, ToolContext, ToolError, ToolOutput, json_kind};

/// Calls a tool on its MCP server.
pub trait McpCaller {
    /// Sends `tools/call` for the raw tool name on `server`.
    fn call_tool(&self, server: &str, tool: &str, input: &Value) -> Result<ToolOutput, ToolError>;
}

/// Asks the user whether a call may run.
pub trait Approver {
    /// `true` to run it.
    fn approve(&self, tool: &ToolInfo, reason: &str) -> bool;
}

/// A `tool_result` block.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The `tool_use` block this answers.
    pub tool_use_id: String,
    /// The content.
    pub content: ToolOutput,
    /// Whether the call failed or was refused.
    pub is_error: bool,
    /// Whether the tool body ran.
    pub called: bool,
}

impl ToolResult {
    fn error(tool_use_id: &str, message: String) -> Self {
        ToolResult {
            tool_use_id: tool_use_id.to_owned(),
            content: ToolOutput::Text(message),
            is_error: true,
            called: false,
        }
    }

    /// The block as the Messages API takes it: text content as a string, structured content as
    /// its JSON text.
    pub fn to_json(&self) -> Value {
        let content = match &self.content {
            ToolOutput::Text(text) => Value::String(text.clone()),
            ToolOutput::Json(value) => Value::String(value.to_string()),
            ToolOutput::Blocks(blocks) => Value::Array(blocks.clone()),
        };
        let mut block =
            json!({"type": "tool_result", "tool_use_id": self.tool_use_id, "content": content});
        if let (true, Some(fields)) = (self.is_error, block.as_object_mut()) {
            fields.insert("is_error".into(), Value::Bool(true));
        }
        block
    }
}

/// What dispatch needs besides the call itself.
pub struct Dispatcher<'a> {
    /// The rules' inputs.
    pub env: &'a Env,
    /// The pool offered to the model in this request.
    pub pool: &'a [Arc<ToolInfo>],
    /// What tools see while they run.
    pub ctx: ToolContext<'a>,
    /// Deferred tools whose schema the model already has (loaded by ToolSearch).
    pub loaded: &'a dyn Fn(&str) -> bool,
    /// Calls MCP tools.
    pub mcp: Option<&'a dyn McpCaller>,
    /// Answers "may this run?" questions.
    pub approver: Option<&'a dyn Approver>,
}

impl Dispatcher<'_> {
    /// Runs one `tool_use` and returns its `tool_result`.
    pub fn dispatch(&self, tool_use_id: &str, name: &str, input: &Value) -> ToolResult {
        let Some(tool) = find_tool(self.pool, name) else {
            return ToolResult::error(
                tool_use_id,
                format!(
                    "Error: No such tool available: {name}. It is not in this agent's tool pool, so it was not called."
                ),
            );
        };
        match self.run(tool, input) {
            Ok(content) => ToolResult {
                tool_use_id: tool_use_id.to_owned(),
                content: cap_output(content, tool.max_result_size_chars),
                is_error: false,
                called: true,
            },
            Err((message, called)) => ToolResult {
                called,
                ..ToolResult::error(tool_use_id, message)
            },
        }
    }

    fn load_hint(&self, tool: &ToolInfo) -> String {
        if is_deferred(tool, self.env) && !(self.loaded)(&tool.name) {
            format!(
                "\n\nThis tool's schema was not loaded. Load it first with ToolSearch using the query \"select:{}\", then retry the call.",
                tool.name
            )
        } else {
            String::new()
        }
    }

    fn run(&self, tool: &ToolInfo, input: &Value) -> Result<ToolOutput, (String, bool)> {
        let refused = |message: String| (message, false);
        if let Some(rule) = self.env.permissions.deny_rule_for_tool(tool.rule_target()) {
            return Err(refused(format!(
                "Permission to use {} has been denied by rule {rule}.",
                tool.name
            )));
        }
        let Some(descriptor) = tool.builtin else {
            return self.run_mcp(tool, input);
        };
        let ctx = self.ctx.with_permissions(&self.env.permissions);
        let parsed = (descriptor.parse)(input).map_err(|error| {
            refused(format!(
                "InputValidationError: {error}{}",
                self.load_hint(tool)
            ))
        })?;
        parsed
            .validate_input(&ctx)
            .map_err(|error| refused(format!("InputValidationError: {error}")))?;
        let subject = parsed.rule_subject(&ctx);
        self.check_permissions(tool, subject.as_ref(), || parsed.check_permissions(&ctx))
            .map_err(refused)?;
        match catch_unwind(AssertUnwindSafe(|| parsed.call(&ctx))) {
            Ok(Ok(output)) => Ok(output),
            Ok(Err(error)) => Err((format!("Error: {error}"), true)),
            Err(_) => Err((
                format!(
                    "Error: the {} tool panicked; the call was abandoned",
                    tool.name
                ),
                true,
            )),
        }
    }

    fn run_mcp(&self, tool: &ToolInfo, input: &Value) -> Result<ToolOutput, (String, bool)> {
        let mcp = tool.mcp.as_ref().ok_or_else(|| {
            (
                format!("Error: {} has no implementation in this host", tool.name),
                false,
            )
        })?;
        if !input.is_object() {
            return Err((
                format!(
                    "InputValidationError: invalid input: expected a JSON object, got {}{}",
                    json_kind(input),
                    self.load_hint(tool)
                ),
                false,
            ));
        }
        self.check_permissions(tool, None, || PermissionDecision::Allow)
            .map_err(|message| (message, false))?;
        let caller = self.mcp.ok_or_else(|| {
            (
                format!(
                    "Error: this host cannot call tools of MCP server `{}`",
                    mcp.server
                ),
                false,
            )
        })?;
        caller
            .call_tool(&mcp.server, &mcp.tool, input)
            .map_err(|error| (format!("Error: {error}"), true))
    }

    fn check_permissions(
        &self,
        tool: &ToolInfo,
        subject: Option<&Subject>,
        own_check: impl FnOnce() -> PermissionDecision,
    ) -> Result<(), String> {
        let rules = &self.env.permissions;
        let decision = match rules.check(tool.rule_target(), subject, self.ctx.cwd) {
            Verdict::Deny(Refusal::Rule(rule)) => {
                return Err(format!(
                    "Permission to use {} has been denied by rule {rule}.",
                    tool.name
                ));
            }
            Verdict::Deny(refusal) => {
                return Err(format!(
                    "Permission to use {} was denied: {refusal}.",
                    tool.name
                ));
            }
            Verdict::Ask(reason) => PermissionDecision::Ask(reason),
            Verdict::Allow => PermissionDecision::Allow,
            Verdict::Undecided => own_check(),
        };
        match decision {
            PermissionDecision::Allow => Ok(()),
            PermissionDecision::Deny(reason) => Err(format!(
                "Permission to use {} was denied: {reason}",
                tool.name
            )),
            PermissionDecision::Ask(_) if rules.mode == PermissionMode::BypassPermissions => Ok(()),
            PermissionDecision::Ask(reason) => match self.approver {
                Some(approver) if approver.approve(tool, &reason) => Ok(()),
                Some(_) => Err(format!(
                    "The user did not allow {} to run ({reason}).",
                    tool.name
                )),
                None => Err(format!(
                    "{} needs permission to run ({reason}), and no approver is configured.",
                    tool.name
                )),
            },
        }
    }
}

/// Marks an output cut to the tool's limit.
pub const OUTPUT_TRUNCATED: &str = "\n… [output truncated]";

fn cap_output(output: ToolOutput, limit: Option<usize>) -> ToolOutput {
    let Some(limit) = limit else {
        return output;
    };
    let text = match output {
        ToolOutput::Blocks(blocks) => return ToolOutput::Blocks(blocks),
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

//! Why a call did not produce a result: a typed enum that callers and tests match, whose
//! `Display` is the text the model reads in the `is_error` result.

use std::fmt;
use std::time::Duration;

use crate::permissions::Refusal;
use crate::tool::{AllowedCallers, Caller};

/// Why a `tool_use` ended in an `is_error` result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DispatchError {
    /// No tool of that name or alias is in the pool (unknown, denied as a whole, or not for
    /// this agent): it was not called.
    NotInPool {
        /// The name the model called.
        name: String,
    },
    /// The rules refused the call.
    Denied {
        /// The tool.
        tool: String,
        /// Which rule, of which source, or which boundary.
        refusal: Refusal,
    },
    /// The tool's own permission check refused the call.
    DeniedByTool {
        /// The tool.
        tool: String,
        /// Its reason.
        reason: String,
    },
    /// The tool does not allow the call's caller: a call from code to a tool only the model
    /// may call, or a direct call to a tool only code may call. It did not run.
    CallerNotAllowed {
        /// The tool.
        tool: String,
        /// Who made the call.
        caller: Caller,
        /// Who may.
        allowed: AllowedCallers,
    },
    /// The input does not fit the tool's schema, or its own validation.
    InvalidInput {
        /// The tool.
        tool: String,
        /// The JSON path of the offending value (`.` for the root), when the schema said so.
        path: Option<String>,
        /// What was wrong.
        message: String,
        /// The tool is deferred and its schema was not loaded: the result says to load it.
        load_hint: bool,
    },
    /// The call needs the user's approval and no approver is configured.
    NeedsApproval {
        /// The tool.
        tool: String,
        /// Why it asks.
        reason: String,
    },
    /// The approver said no.
    NotApproved {
        /// The tool.
        tool: String,
        /// Why it asked.
        reason: String,
    },
    /// A `tool_use` block of the same message already has this id: its result would answer
    /// both, so the later block is refused without running.
    DuplicateId {
        /// The tool.
        tool: String,
        /// The id both blocks carry.
        id: String,
    },
    /// The turn was cancelled before or while the call ran.
    Cancelled {
        /// The tool.
        tool: String,
    },
    /// The call ran past its timeout and was stopped.
    TimedOut {
        /// The tool.
        tool: String,
        /// The timeout.
        after: Duration,
    },
    /// The tool ran and returned an error.
    Failed {
        /// The tool.
        tool: String,
        /// Its message.
        message: String,
    },
    /// The tool panicked; the call was abandoned.
    Panicked {
        /// The tool.
        tool: String,
        /// The panic's message, when it had one.
        message: String,
    },
    /// The input schema an MCP server sent for the tool cannot be checked (it does not compile
    /// with a linear-time pattern engine and no fetching, or checking it is not bounded in
    /// cost): the call was refused before anyone was asked and before anything was sent.
    UncheckableSchema {
        /// The tool.
        tool: String,
        /// The place in the schema (`.` for its root, `properties.name.pattern`).
        at: String,
        /// What is wrong there.
        rule: String,
    },
    /// The tool has no implementation here: an MCP tool without a caller, or a pool entry
    /// that is neither a built-in nor from a server.
    Unavailable {
        /// The tool.
        tool: String,
        /// Why.
        reason: String,
    },
}

impl DispatchError {
    /// The tool the error is about: its name in the pool, or the name the model called.
    pub fn tool(&self) -> &str {
        match self {
            DispatchError::NotInPool { name } => name,
            DispatchError::Denied { tool, .. }
            | DispatchError::DeniedByTool { tool, .. }
            | DispatchError::CallerNotAllowed { tool, .. }
            | DispatchError::InvalidInput { tool, .. }
            | DispatchError::NeedsApproval { tool, .. }
            | DispatchError::NotApproved { tool, .. }
            | DispatchError::DuplicateId { tool, .. }
            | DispatchError::Cancelled { tool }
            | DispatchError::TimedOut { tool, .. }
            | DispatchError::Failed { tool, .. }
            | DispatchError::Panicked { tool, .. }
            | DispatchError::UncheckableSchema { tool, .. }
            | DispatchError::Unavailable { tool, .. } => tool,
        }
    }

    /// Whether the tool's body ran (it failed or panicked after starting).
    pub fn ran(&self) -> bool {
        matches!(
            self,
            DispatchError::Failed { .. }
                | DispatchError::Panicked { .. }
                | DispatchError::TimedOut { .. }
        )
    }
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DispatchError::NotInPool { name } => write!(
                f,
                "Error: No such tool available: {name}. It is not in this agent's tool pool, so it was not called."
            ),
            DispatchError::Denied {
                tool,
                refusal: Refusal::Rule(rule),
            } => write!(
                f,
                "Permission to use {tool} has been denied by rule {rule}."
            ),
            DispatchError::Denied { tool, refusal } => {
                write!(f, "Permission to use {tool} was denied: {refusal}.")
            }
            DispatchError::DeniedByTool { tool, reason } => {
                write!(f, "Permission to use {tool} was denied: {reason}")
            }
            DispatchError::CallerNotAllowed {
                tool,
                caller: Caller::Direct,
                allowed,
            } => write!(
                f,
                "Error: {tool} can only be called from code ({allowed}), not directly; it was not run."
            ),
            DispatchError::CallerNotAllowed {
                tool,
                caller,
                allowed,
            } => write!(
                f,
                "Error: {tool} cannot be called from code run by {} (it allows: {allowed}); it was not run.",
                caller.name()
            ),
            DispatchError::InvalidInput {
                tool,
                path,
                message,
                load_hint,
            } => {
                match path.as_deref() {
                    Some(".") => write!(f, "InputValidationError: invalid input: {message}")?,
                    Some(path) => write!(
                        f,
                        "InputValidationError: invalid input at `{path}`: {message}"
                    )?,
                    None => write!(f, "InputValidationError: {message}")?,
                }
                if *load_hint {
                    write!(
                        f,
                        "\n\nThis tool's schema was not loaded. Load it first with ToolSearch using the query \"select:{tool}\", then retry the call."
                    )?;
                }
                Ok(())
            }
            DispatchError::NeedsApproval { tool, reason } => write!(
                f,
                "{tool} needs permission to run ({reason}), and no approver is configured."
            ),
            DispatchError::NotApproved { tool, reason } => {
                write!(f, "The user did not allow {tool} to run ({reason}).")
            }
            DispatchError::DuplicateId { tool, id } => write!(
                f,
                "Error: this {tool} call was not run: an earlier tool_use block of the same message has the id {id:?}; give each call its own id"
            ),
            DispatchError::Cancelled { tool } => {
                write!(f, "Error: the turn was cancelled; {tool} did not finish.")
            }
            DispatchError::TimedOut { tool, after } => write!(
                f,
                "Error: {tool} did not finish within {} ms and was stopped.",
                after.as_millis()
            ),
            DispatchError::Failed { message, .. } => write!(f, "Error: {message}"),
            DispatchError::Panicked { tool, message } => write!(
                f,
                "Error: the {tool} tool panicked ({message}); the call was abandoned"
            ),
            DispatchError::UncheckableSchema { tool, at, rule } => {
                let place = match at.as_str() {
                    "." => "its root".to_owned(),
                    at => format!("`{at}`"),
                };
                write!(
                    f,
                    "Error: {tool} was not called: the input schema its MCP server sent cannot be checked (at {place}: {rule})."
                )
            }
            DispatchError::Unavailable { reason, .. } => write!(f, "Error: {reason}"),
        }
    }
}

impl std::error::Error for DispatchError {}

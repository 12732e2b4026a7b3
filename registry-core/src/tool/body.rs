//! The body of a tool: the [`Tool`] trait, and its type-erased form dispatch holds.

use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;

use crate::permissions::Subject;
use crate::tool::{InputError, IntoToolOutput};
use crate::{ToolContext, ToolError, ToolOutput};

/// A boxed, sendable future: what the object-safe traits of this crate return
/// ([`McpCaller`](crate::dispatch::McpCaller), [`Approver`](crate::Approver)).
/// Write `Box::pin(async move { ... })`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The body of a tool: what happens when the model calls it.
///
/// ```
/// # mod demo {
/// use toolreg::{Tool, ToolContext, ToolError, tool};
/// use serde::Deserialize;
///
/// /// Adds two numbers.
/// #[tool(read_only, concurrency_safe)]
/// #[derive(Deserialize)]
/// pub struct AddTool {
///     /// The first number.
///     pub a: i64,
///     /// The second number.
///     pub b: i64,
/// }
///
/// impl Tool for AddTool {
///     type Output = String;
///     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
///         let sum = self.a.checked_add(self.b).ok_or_else(|| ToolError::invalid_input("overflow"))?;
///         Ok(sum.to_string())
///     }
/// }
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use toolreg::{Catalog, Dispatcher, Env, PermissionContext, ToolOutput, ToolCall, assemble_tool_pool, builtins};
///
/// let (env, rules) = (Env::default(), PermissionContext::new());
/// let catalog = Catalog::new(builtins().unwrap(), &[]);
/// let pool = assemble_tool_pool(&env, &rules, &catalog, &[]);
/// let dispatcher = Dispatcher::new(env, rules, pool, ".");
/// let result = dispatcher.dispatch(&ToolCall::new("t1", "Add", serde_json::json!({"a": 2, "b": 3}))).await;
/// assert_eq!(result.content, ToolOutput::Text("5".into()));
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a `#[tool]` without a body",
    label = "`{Self}` does not implement `toolreg::Tool`",
    note = "add `impl toolreg::Tool for {Self} {{ type Output = String; async fn call(self, ctx: &toolreg::ToolContext<'_>) -> Result<String, toolreg::ToolError> {{ ... }} }}`"
)]
pub trait Tool: DeserializeOwned + Send + Sync + 'static {
    /// What a successful call returns.
    type Output: IntoToolOutput + Send;

    /// Runs the tool. Write it as `async fn call(self, ctx: &ToolContext<'_>) -> Result<…>`;
    /// the future must be `Send` (hold no `Rc` or `RefCell` borrow across an `.await`), so
    /// that calls can run on any thread of a multi-threaded runtime. A body that blocks for
    /// long (heavy file or CPU work) belongs in `tokio::task::spawn_blocking`.
    fn call(
        self,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;

    /// Checks the input beyond what its schema says (a file exists, a range is ordered). Runs
    /// before the permission checks.
    fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError> {
        let _ = ctx;
        Ok(())
    }

    /// The tool's own permission check, when no rule decided. The default,
    /// [`PermissionDecision::Passthrough`], leaves it to the tool's flags: a `destructive` tool
    /// asks, any other runs.
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision {
        let _ = ctx;
        PermissionDecision::Passthrough
    }

    /// What rules with content are matched against: the command of a shell tool
    /// (`Bash(npm test:*)`), the file of a file tool (`Read(./secrets/**)`), or other text.
    /// `None`: rules with content do not apply to this input.
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        let _ = ctx;
        None
    }
}

/// A tool's answer to "may this call run?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionDecision {
    /// No objection: the tool's flags decide (a `destructive` tool asks, unless the mode
    /// accepts file edits and this call writes a file).
    Passthrough,
    /// Run it without asking: the tool vouches for this call even if it is `destructive`
    /// (Bash for a read-only command).
    Allow,
    /// Ask the user first; the reason is shown to them.
    Ask(String),
    /// Refuse; the reason is shown to the model.
    Deny(String),
}

/// A tool's input after deserialization, with its type erased so dispatch can hold any tool.
pub trait ParsedInput: Send + Sync {
    /// [`Tool::validate_input`].
    fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError>;
    /// [`Tool::check_permissions`].
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision;
    /// [`Tool::rule_subject`].
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject>;
    /// [`Tool::call`], with the output converted, boxed.
    fn call<'a>(
        self: Box<Self>,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;
}

impl<T: Tool> ParsedInput for T {
    fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError> {
        Tool::validate_input(self, ctx)
    }
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision {
        Tool::check_permissions(self, ctx)
    }
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        Tool::rule_subject(self, ctx)
    }
    fn call<'a>(
        self: Box<Self>,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            Tool::call(*self, ctx)
                .await
                .map(IntoToolOutput::into_tool_output)
        })
    }
}

/// Deserializes `input` into `T`, naming the JSON path on failure.
///
/// The input must be a JSON object, as the schema says: serde would also read a struct from an
/// array of its fields in order, which the schema does not allow, so arrays are refused here.
/// (A nested struct field still accepts that array form from serde; the schema does not
/// advertise it.)
pub fn parse_input<T: Tool>(input: &serde_json::Value) -> Result<Box<dyn ParsedInput>, InputError> {
    if !input.is_object() {
        return Err(InputError {
            path: ".".into(),
            message: format!("expected a JSON object, got {}", json_kind(input)),
        });
    }
    match serde_path_to_error::deserialize::<_, T>(input) {
        Ok(parsed) => Ok(Box::new(parsed)),
        Err(error) => Err(InputError {
            path: error.path().to_string(),
            message: error.into_inner().to_string(),
        }),
    }
}

/// What kind of JSON value this is, with its article, for error messages ("an array").
pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

//! The typed tool trait and what a call produces.
//!
//! `#[tool]` generates the metadata ([`ToolSpec`]); you write the body by implementing [`Tool`]
//! for the same struct. Dispatch deserializes the model's JSON into the struct, runs
//! [`Tool::validate_input`], the permission checks, then [`Tool::call`].

use std::any::Any;
use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::descriptor::ToolDescriptor;
use crate::permissions::{PathGuard, PermissionContext, Subject};
use crate::search::ToolSearcher;
use crate::switches::Switches;

/// The metadata `#[tool]` generates for a struct: its descriptor, schemas included.
///
/// ```
/// # mod demo {
/// use registry_core::{tool, Tool, ToolContext, ToolError, ToolSpec};
/// use serde::Deserialize;
///
/// /// Says hello.
/// #[tool(search_hint = "greet someone by name")]
/// #[derive(Deserialize)]
/// pub struct Hello {
///     /// Who to greet.
///     pub name: String,
/// }
///
/// impl Tool for Hello {
///     type Output = String;
///     fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
///         Ok(format!("hello, {}", self.name))
///     }
/// }
///
/// // The schema exists at compile time.
/// pub const SCHEMA: &str = Hello::DESCRIPTOR.input_schema;
/// # }
/// assert!(demo::SCHEMA.starts_with(r#"{"type":"object","properties":{"name":"#));
/// ```
pub trait ToolSpec {
    /// The tool's descriptor.
    const DESCRIPTOR: ToolDescriptor;
}

/// The body of a tool: what happens when the model calls it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a `#[tool]` without a body",
    label = "`{Self}` does not implement `registry_core::Tool`",
    note = "add `impl registry_core::Tool for {Self} {{ type Output = String; fn call(self, ctx: &registry_core::ToolContext<'_>) -> Result<String, registry_core::ToolError> {{ ... }} }}`"
)]
pub trait Tool: ToolSpec + DeserializeOwned + Send + 'static {
    /// What a successful call returns.
    type Output: IntoToolOutput;

    /// Runs the tool.
    fn call(self, ctx: &ToolContext<'_>) -> Result<Self::Output, ToolError>;

    /// Checks the input beyond what its schema says (a file exists, a range is ordered). Runs
    /// before the permission checks.
    fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError> {
        let _ = ctx;
        Ok(())
    }

    /// The tool's own permission check, after the rules with content have passed.
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision {
        let _ = ctx;
        PermissionDecision::Allow
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
    /// Run it.
    Allow,
    /// Ask the user first; the reason is shown to them.
    Ask(String),
    /// Refuse; the reason is shown to the model.
    Deny(String),
}

/// What a tool returns to the model.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutput {
    /// Plain text content.
    Text(String),
    /// Structured content, sent as its JSON text.
    Json(serde_json::Value),
    /// Content blocks sent as they are (ToolSearch's `tool_reference` blocks).
    Blocks(Vec<serde_json::Value>),
}

/// Conversion of a tool's typed output into [`ToolOutput`].
pub trait IntoToolOutput {
    /// Converts.
    fn into_tool_output(self) -> ToolOutput;
}

impl IntoToolOutput for ToolOutput {
    fn into_tool_output(self) -> ToolOutput {
        self
    }
}

impl IntoToolOutput for String {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::Text(self)
    }
}

impl IntoToolOutput for &'static str {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::Text(self.to_owned())
    }
}

impl IntoToolOutput for serde_json::Value {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::Json(self)
    }
}

/// A tool call that failed; the message goes to the model in an `is_error` result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
        }
    }

    /// The error for a tool whose body is not written yet.
    pub fn not_implemented(tool: &str) -> Self {
        ToolError::new(format!("{tool} is not implemented in this build"))
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<std::io::Error> for ToolError {
    fn from(error: std::io::Error) -> Self {
        ToolError::new(error.to_string())
    }
}

/// What a tool sees of the world while it runs.
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    /// The working directory relative paths are resolved against.
    pub cwd: &'a Path,
    /// The run-time switches.
    pub switches: &'a Switches,
    host: Option<&'a (dyn Any + Send + Sync)>,
    searcher: Option<&'a dyn ToolSearcher>,
    permissions: Option<&'a PermissionContext>,
}

impl fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("cwd", &self.cwd)
            .field("switches", &self.switches)
            .field("host", &self.host.map(|_| ".."))
            .field("searcher", &self.searcher.map(|_| ".."))
            .field("permissions", &self.permissions.map(|_| ".."))
            .finish()
    }
}

impl<'a> ToolContext<'a> {
    /// A context without a host.
    pub fn new(cwd: &'a Path, switches: &'a Switches) -> Self {
        ToolContext {
            cwd,
            switches,
            host: None,
            searcher: None,
            permissions: None,
        }
    }

    /// Attaches the session's permission rules (dispatch does), so a tool that walks a
    /// directory can leave out what path rules deny ([`path_guard`](Self::path_guard)).
    pub fn with_permissions(mut self, permissions: &'a PermissionContext) -> Self {
        self.permissions = Some(permissions);
        self
    }

    /// The deny path rules for `tool` (and the `also` tools) below this context's working
    /// directory; empty when no rules were attached.
    pub fn path_guard(&self, tool: &str, also: &[&str]) -> PathGuard {
        self.permissions
            .map(|rules| rules.path_guard(tool, also, self.cwd))
            .unwrap_or_default()
    }

    /// Attaches the ToolSearch engine of the current pool.
    pub fn with_searcher(mut self, searcher: &'a dyn ToolSearcher) -> Self {
        self.searcher = Some(searcher);
        self
    }

    /// The ToolSearch engine of the current pool, when one was attached.
    pub fn searcher(&self) -> Option<&'a dyn ToolSearcher> {
        self.searcher
    }

    /// Attaches the embedding application's host value (any `'static` type; tools look it up by
    /// type with [`host`](Self::host)).
    pub fn with_host(mut self, host: &'a (dyn Any + Send + Sync)) -> Self {
        self.host = Some(host);
        self
    }

    /// The host value, when one of type `H` was attached.
    pub fn host<H: Any>(&self) -> Option<&'a H> {
        self.host.and_then(|host| host.downcast_ref::<H>())
    }

    /// Resolves `path` against [`cwd`](Self::cwd).
    pub fn resolve(&self, path: &Path) -> std::path::PathBuf {
        self.cwd.join(path)
    }
}

/// Where the model's JSON did not fit the tool's input type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The JSON path of the offending value (`.` for the root, `edits[2].old_string`).
    pub path: String,
    /// What was expected, in serde's words.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path == "." {
            write!(f, "invalid input: {}", self.message)
        } else {
            write!(f, "invalid input at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// A tool's input after deserialization, with its type erased so dispatch can hold any tool.
pub trait ParsedInput: Send {
    /// [`Tool::validate_input`].
    fn validate_input(&self, ctx: &ToolContext<'_>) -> Result<(), ToolError>;
    /// [`Tool::check_permissions`].
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision;
    /// [`Tool::rule_subject`].
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject>;
    /// [`Tool::call`], with the output converted.
    fn call(self: Box<Self>, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError>;
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
    fn call(self: Box<Self>, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        Tool::call(*self, ctx).map(IntoToolOutput::into_tool_output)
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

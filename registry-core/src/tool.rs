//! The typed tool trait and what a call produces.
//!
//! `#[tool]` generates the metadata ([`ToolSpec`](crate::ToolSpec)); you write the body by implementing [`Tool`]
//! for the same struct. Dispatch deserializes the model's JSON into the struct, runs
//! [`Tool::validate_input`], the permission checks, then [`Tool::call`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::context::ToolContext;
use crate::permissions::Subject;

/// A boxed, sendable future: what the object-safe traits of this crate return
/// ([`McpCaller`](crate::dispatch::McpCaller), [`Approver`](crate::dispatch::Approver)).
/// Write `Box::pin(async move { ... })`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The body of a tool: what happens when the model calls it.
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

/// What a tool returns to the model.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutput {
    /// Plain text content.
    Text(String),
    /// Structured content, sent as its JSON text (and as MCP `structuredContent`).
    Json(serde_json::Value),
    /// An image, base64-encoded, sent as an `image` content block.
    Image {
        /// Its media type: `image/png`, `image/jpeg`, `image/gif`, `image/webp`.
        media_type: String,
        /// The image's bytes in base64.
        data: String,
    },
    /// Content blocks sent as they are (ToolSearch's `tool_reference` blocks).
    Blocks(Vec<serde_json::Value>),
}

impl ToolOutput {
    /// The content blocks of this output, as the Messages API takes them in a `tool_result`:
    /// text and JSON as text, an image as an `image` block.
    pub fn to_blocks(&self) -> Vec<serde_json::Value> {
        match self {
            ToolOutput::Text(text) => vec![serde_json::json!({"type": "text", "text": text})],
            ToolOutput::Json(value) => {
                vec![serde_json::json!({"type": "text", "text": value.to_string()})]
            }
            ToolOutput::Image { media_type, data } => vec![serde_json::json!({
                "type": "image",
                "source": {"type": "base64", "media_type": media_type, "data": data},
            })],
            ToolOutput::Blocks(blocks) => blocks.clone(),
        }
    }
}

/// A tool's typed structured output: return `Structured(value)` from a tool declared with
/// `#[tool(output = T)]`, whose output JSON Schema is then built at compile time from `T`
/// (which derives [`InputSchema`](crate::InputSchema), the same derive as inputs, and
/// `Serialize`). The value is sent as JSON content.
///
/// ```
/// # mod demo {
/// use toolreg::{InputSchema, Structured, Tool, ToolContext, ToolError, tool};
/// use serde::{Deserialize, Serialize};
///
/// /// A forecast.
/// #[derive(Serialize, InputSchema)]
/// pub struct Forecast {
///     /// Degrees Celsius.
///     pub celsius: i8,
/// }
///
/// /// Gives the forecast for a city.
/// #[tool(output = Forecast, search_hint = "weather forecast for one city")]
/// #[derive(Deserialize)]
/// pub struct ForecastTool {
///     /// The city.
///     pub city: String,
/// }
///
/// impl Tool for ForecastTool {
///     type Output = Structured<Forecast>;
///     async fn call(self, _: &ToolContext<'_>) -> Result<Structured<Forecast>, ToolError> {
///         Ok(Structured(Forecast { celsius: 21 }))
///     }
/// }
/// # }
/// use toolreg::ToolSpec;
/// assert_eq!(
///     demo::ForecastTool::DESCRIPTOR.output_schema,
///     Some(r#"{"type":"object","properties":{"celsius":{"description":"Degrees Celsius.","type":"integer","minimum":-128,"maximum":127}},"required":["celsius"]}"#)
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structured<T>(pub T);

impl<T: serde::Serialize> IntoToolOutput for Structured<T> {
    fn into_tool_output(self) -> ToolOutput {
        match serde_json::to_value(&self.0) {
            Ok(value) => ToolOutput::Json(value),
            // Only a type serde cannot express as JSON (a map with non-string keys) gets here.
            Err(error) => ToolOutput::Text(format!(
                "the tool's output could not be written as JSON: {error}"
            )),
        }
    }
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

/// A tool call that failed: the message goes to the model in an `is_error` result; the
/// [kind](ToolError::kind) and the [source](std::error::Error::source) stay for the application
/// (logs, retries, metrics).
///
/// ```
/// use std::error::Error;
/// use toolreg::{ErrorKind, ToolError};
///
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// let error = ToolError::from(io).context("reading config.toml");
/// assert_eq!(error.to_string(), "reading config.toml: no such file");
/// assert_eq!(error.kind(), ErrorKind::Io(std::io::ErrorKind::NotFound));
/// assert_eq!(error.source().unwrap().to_string(), "no such file");
/// ```
#[derive(Debug, Clone)]
pub struct ToolError {
    kind: ErrorKind,
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

/// What kind of failure a [`ToolError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is wrong in a way its schema cannot say (a missing file, a range out of order).
    InvalidInput,
    /// The application provides no [`Delegate`](crate::Delegate) for the tool.
    NotProvided,
    /// An I/O operation failed, of this kind.
    Io(std::io::ErrorKind),
    /// Anything else the tool reports.
    Other,
}

impl ToolError {
    /// An error with this message, of kind [`Other`](ErrorKind::Other).
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            kind: ErrorKind::Other,
            message: message.into(),
            source: None,
        }
    }

    /// An error of kind [`InvalidInput`](ErrorKind::InvalidInput).
    pub fn invalid_input(message: impl Into<String>) -> Self {
        ToolError::new(message).with_kind(ErrorKind::InvalidInput)
    }

    /// An error whose cause is `source`: the message is `message: source`, the source is kept.
    pub fn with_source(
        message: impl fmt::Display,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        ToolError {
            kind: ErrorKind::Other,
            message: format!("{message}: {source}"),
            source: Some(Arc::new(source)),
        }
    }

    /// The error for a tool whose body is not written yet.
    pub fn not_implemented(tool: &str) -> Self {
        ToolError::new(format!("{tool} is not implemented in this build"))
    }

    /// The same error, of another kind.
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// The same error, its message prefixed with what was being done.
    pub fn context(mut self, doing: impl fmt::Display) -> Self {
        self.message = format!("{doing}: {}", self.message);
        self
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// Errors are equal when their kinds and messages are; sources are not compared.
impl PartialEq for ToolError {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.message == other.message
    }
}

impl Eq for ToolError {}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|source| source as &(dyn std::error::Error + 'static))
    }
}

impl From<std::io::Error> for ToolError {
    fn from(error: std::io::Error) -> Self {
        ToolError {
            kind: ErrorKind::Io(error.kind()),
            message: error.to_string(),
            source: Some(Arc::new(error)),
        }
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

//! What a failed call returns.

use std::fmt;
use std::sync::Arc;

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

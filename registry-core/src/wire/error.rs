//! Why a request could not be rendered.

use std::fmt;

/// An input schema that is not valid JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSchema {
    /// The tool.
    pub tool: String,
    /// The parser's message.
    pub message: String,
}

impl fmt::Display for InvalidSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` has an input schema that is not JSON: {}",
            self.tool, self.message
        )
    }
}

impl std::error::Error for InvalidSchema {}

/// A tool's input example that its input does not accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidExample {
    /// The tool.
    pub tool: String,
    /// The example's position in the tool's list (`None`: the list itself is malformed).
    pub index: Option<usize>,
    /// The JSON path in the example (`.` for the root).
    pub path: String,
    /// The rule broken.
    pub message: String,
}

impl fmt::Display for InvalidExample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(index) => write!(
                f,
                "input example {index} of tool `{}` is not an input the tool takes, at `{}`: {}",
                self.tool, self.path, self.message
            ),
            None => write!(
                f,
                "the input examples of tool `{}` are not a JSON array of objects: {}",
                self.tool, self.message
            ),
        }
    }
}

impl std::error::Error for InvalidExample {}

/// Why a request could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// A tool's input schema is not JSON.
    InvalidSchema(InvalidSchema),
    /// A tool's input example is not an input the tool takes.
    InvalidExample(InvalidExample),
    /// More deferred tools than the Anthropic API takes in one request.
    TooManyDeferred {
        /// The deferred tools the request would carry.
        count: usize,
        /// The most it takes ([`MAX_DEFERRED_TOOLS`](crate::wire::anthropic::MAX_DEFERRED_TOOLS)).
        limit: usize,
    },
    /// More tools than the API takes in one request, even with deferral where it applies.
    TooManyTools {
        /// The API.
        api: &'static str,
        /// The tools the request would carry.
        count: usize,
        /// The most it takes.
        limit: usize,
        /// Whether tool search was on (deferred tools left out).
        tool_search: bool,
    },
    /// The API has no such mode.
    Unsupported {
        /// The API.
        api: &'static str,
        /// What it lacks.
        what: &'static str,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::InvalidSchema(error) => error.fmt(f),
            RenderError::InvalidExample(error) => error.fmt(f),
            RenderError::TooManyDeferred { count, limit } => write!(
                f,
                "{count} deferred tools: the Anthropic API takes at most {limit} tools with \
                 defer_loading in one request; use the discovered-only strategy"
            ),
            RenderError::TooManyTools {
                api,
                count,
                limit,
                tool_search: true,
            } => write!(
                f,
                "{api} takes at most {limit} tools and the tools that cannot be deferred (with \
                 ToolSearch and the loaded ones) are {count}; defer more tools or narrow the \
                 pool"
            ),
            RenderError::TooManyTools {
                api, count, limit, ..
            } => write!(
                f,
                "{api} takes at most {limit} tools and the pool has {count} with tool search \
                 off; turn tool search on to send deferred tools by name only"
            ),
            RenderError::Unsupported { api, what } => write!(f, "{api} has no {what}"),
        }
    }
}

impl std::error::Error for RenderError {}

impl From<InvalidSchema> for RenderError {
    fn from(error: InvalidSchema) -> Self {
        RenderError::InvalidSchema(error)
    }
}

impl From<InvalidExample> for RenderError {
    fn from(error: InvalidExample) -> Self {
        RenderError::InvalidExample(error)
    }
}

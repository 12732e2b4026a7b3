//! What one server may send, and the errors of the entries that could not be loaded.

use std::fmt;

/// What one server may send. Each limit is checked before the entry is copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McpLimits {
    /// Tools loaded from one server; the entries after it are reported once and skipped.
    /// Default 10,000, the most tools a model request may carry.
    pub max_tools_per_server: usize,
    /// Bytes of a raw tool name. Default 1,024 (names longer than 64 characters are
    /// shortened, see the module docs; a longer one is not a name).
    pub max_name_bytes: usize,
    /// Bytes of an input schema as JSON text. Default 256 KiB (the largest schema among the
    /// eleven real servers of the fixtures is 5.4 KB).
    pub max_schema_bytes: usize,
    /// Nesting levels of an input schema. Default 64 (the deepest real one has 11).
    pub max_schema_depth: usize,
}

impl Default for McpLimits {
    fn default() -> Self {
        McpLimits {
            max_tools_per_server: 10_000,
            max_name_bytes: 1024,
            max_schema_bytes: 256 * 1024,
            max_schema_depth: 64,
        }
    }
}

/// What was wrong with an entry or a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpProblem {
    /// The result is not `{"tools": [...]}`, an array, or a JSON-RPC response with one.
    NotAToolsList,
    /// The entry is not a JSON object.
    NotAnObject,
    /// The entry has no `name`.
    MissingName,
    /// `name` is not a string.
    NameNotAString,
    /// `name` is empty.
    EmptyName,
    /// `name` is longer than [`McpLimits::max_name_bytes`].
    NameTooLong {
        /// Its length in bytes.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The entry has no `inputSchema`.
    MissingSchema,
    /// `inputSchema` is not a JSON object.
    SchemaNotAnObject,
    /// `inputSchema` nests deeper than [`McpLimits::max_schema_depth`].
    SchemaTooDeep {
        /// The limit.
        limit: usize,
    },
    /// `inputSchema` is larger than [`McpLimits::max_schema_bytes`] as JSON text.
    SchemaTooLarge {
        /// The limit.
        limit: usize,
    },
    /// The server listed more tools than [`McpLimits::max_tools_per_server`]; the entries from
    /// the error's index on were skipped.
    TooManyTools {
        /// How many were skipped.
        skipped: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for McpProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpProblem::NotAToolsList => {
                f.write_str("expected a tools/list result: {\"tools\": [...]} or an array of tools")
            }
            McpProblem::NotAnObject => f.write_str("a tool must be a JSON object"),
            McpProblem::MissingName => f.write_str("missing `name`"),
            McpProblem::NameNotAString => f.write_str("`name` must be a string"),
            McpProblem::EmptyName => f.write_str("`name` is empty"),
            McpProblem::NameTooLong { bytes, limit } => {
                write!(f, "`name` is {bytes} bytes long; the limit is {limit}")
            }
            McpProblem::MissingSchema => f.write_str("missing `inputSchema`"),
            McpProblem::SchemaNotAnObject => f.write_str("`inputSchema` must be a JSON object"),
            McpProblem::SchemaTooDeep { limit } => {
                write!(f, "`inputSchema` nests deeper than {limit} levels")
            }
            McpProblem::SchemaTooLarge { limit } => {
                write!(f, "`inputSchema` is larger than {limit} bytes")
            }
            McpProblem::TooManyTools { skipped, limit } => write!(
                f,
                "the server lists more than {limit} tools; these {skipped} entries were not loaded"
            ),
        }
    }
}

/// An entry of a `tools/list` result that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpError {
    /// The server it came from.
    pub server: String,
    /// The entry's index in the list; `None` when the whole result was unusable.
    pub index: Option<usize>,
    /// The entry's raw name, when it had one (cut to 100 characters).
    pub tool: Option<String>,
    /// What was wrong.
    pub problem: McpProblem,
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mcp server `{}`", self.server)?;
        if let Some(index) = self.index {
            write!(f, ", tools[{index}]")?;
        }
        if let Some(tool) = &self.tool {
            write!(f, " (`{}`)", tool.escape_debug())?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for McpError {}

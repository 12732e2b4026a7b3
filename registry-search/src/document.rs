//! What ToolSearch reads of a tool: the [`Document`] trait, and [`ToolDoc`], a plain one.

use std::sync::Arc;

/// A tool as ToolSearch sees it. The engine holds documents behind [`Arc`] and reads them
/// when it indexes; it never changes them.
///
/// `toolreg` implements it for its pool entries; [`ToolDoc`] is a plain implementation for
/// tool lists kept elsewhere.
pub trait Document {
    /// The name the model calls the tool by: what a search returns.
    fn name(&self) -> &str;
    /// The tool's own name, without the prefix a pool gives MCP tools: for an MCP tool, the
    /// name its server sent. The BM25F strategy reads its words as the name field, and the
    /// server's from [`server`](Self::server). By default, the name less a leading
    /// `mcp__<server>__`.
    fn own_name(&self) -> &str {
        unprefixed(self.name())
    }
    /// Old names still accepted by `select:` and exact-name queries.
    fn aliases(&self) -> &[String] {
        &[]
    }
    /// The description: searched by word.
    fn description(&self) -> &str;
    /// The capability phrase, searched by word and weighted above the description.
    fn search_hint(&self) -> Option<&str> {
        None
    }
    /// The MCP server the tool came from, as configured; `None` for any other tool. The ranked
    /// strategy groups by it, and the engine re-indexes one server's tools on their own.
    fn server(&self) -> Option<&str> {
        None
    }
    /// The input JSON Schema as JSON text: the BM25F strategy reads its property names and
    /// descriptions. Anything that is not a JSON object contributes nothing.
    fn input_schema(&self) -> &str {
        "{}"
    }
    /// Whether the tool is sent by name only until ToolSearch loads it: only deferred tools
    /// are searched by keyword.
    fn is_deferred(&self) -> bool;
    /// Whether `name` is the tool's name or one of its aliases.
    fn answers_to(&self, name: &str) -> bool {
        self.name() == name || self.aliases().iter().any(|alias| alias == name)
    }
}

/// `name` less a leading `mcp__<server>__`: [`Document::own_name`]'s default.
fn unprefixed(name: &str) -> &str {
    match name.strip_prefix("mcp__") {
        Some(rest) => rest.split_once("__").map_or(rest, |(_, tool)| tool),
        None => name,
    }
}

/// A plain [`Document`]: the fields, as given.
///
/// ```
/// use toolreg_search::{Document, ToolDoc};
///
/// let tool = ToolDoc::new("mcp__git__git_log", "Show the commit log").with_server("git");
/// assert_eq!(tool.server.as_deref(), Some("git"));
/// assert!(tool.deferred);
/// assert_eq!(tool.own_name(), "git_log");
///
/// // A received name the pool normalized: the BM25F strategy reads the one sent.
/// let tool = ToolDoc::new("mcp__web__get_weather", "Weather").with_own_name("get weather");
/// assert_eq!(tool.own_name(), "get weather");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolDoc {
    /// The name the model calls the tool by.
    pub name: String,
    /// The tool's own name ([`Document::own_name`]) where it is not the name less its
    /// `mcp__<server>__` prefix: an MCP tool whose received name a pool normalized or
    /// shortened.
    pub own_name: Option<String>,
    /// Old names still accepted.
    pub aliases: Vec<String>,
    /// The description.
    pub description: String,
    /// The capability phrase.
    pub search_hint: Option<String>,
    /// The MCP server, as configured.
    pub server: Option<String>,
    /// The input JSON Schema as JSON text.
    pub input_schema: Arc<str>,
    /// Whether the tool is deferred.
    pub deferred: bool,
}

impl ToolDoc {
    /// A deferred tool with this name and description, no server, and an empty object schema.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> ToolDoc {
        ToolDoc {
            name: name.into(),
            description: description.into(),
            input_schema: Arc::from(r#"{"type":"object"}"#),
            deferred: true,
            ..ToolDoc::default()
        }
    }

    /// The same tool, from MCP server `server`.
    pub fn with_server(mut self, server: impl Into<String>) -> ToolDoc {
        self.server = Some(server.into());
        self
    }

    /// The same tool, with this own name (the name its server sent).
    pub fn with_own_name(mut self, own_name: impl Into<String>) -> ToolDoc {
        self.own_name = Some(own_name.into());
        self
    }

    /// The same tool, with this search hint.
    pub fn with_search_hint(mut self, hint: impl Into<String>) -> ToolDoc {
        self.search_hint = Some(hint.into());
        self
    }

    /// The same tool, with this input schema (JSON text).
    pub fn with_input_schema(mut self, schema: impl Into<Arc<str>>) -> ToolDoc {
        self.input_schema = schema.into();
        self
    }

    /// The same tool, with these aliases.
    pub fn with_aliases<S: Into<String>>(
        mut self,
        aliases: impl IntoIterator<Item = S>,
    ) -> ToolDoc {
        self.aliases = aliases.into_iter().map(Into::into).collect();
        self
    }

    /// The same tool, deferred or not.
    pub fn with_deferred(mut self, deferred: bool) -> ToolDoc {
        self.deferred = deferred;
        self
    }
}

impl Document for ToolDoc {
    fn name(&self) -> &str {
        &self.name
    }
    fn own_name(&self) -> &str {
        self.own_name
            .as_deref()
            .unwrap_or_else(|| unprefixed(&self.name))
    }
    fn aliases(&self) -> &[String] {
        &self.aliases
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn search_hint(&self) -> Option<&str> {
        self.search_hint.as_deref()
    }
    fn server(&self) -> Option<&str> {
        self.server.as_deref()
    }
    fn input_schema(&self) -> &str {
        &self.input_schema
    }
    fn is_deferred(&self) -> bool {
        self.deferred
    }
}

/// The names of the tools at `positions` in `tools` (positions from an index built over them).
pub(crate) fn names_at<D: Document>(
    tools: &[Arc<D>],
    positions: impl ExactSizeIterator<Item = usize>,
) -> Vec<String> {
    let mut names = Vec::with_capacity(positions.len());
    names.extend(
        positions
            .filter_map(|i| tools.get(i))
            .map(|tool| tool.name().to_owned()),
    );
    names
}

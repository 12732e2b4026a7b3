//! What a pool holds about each tool: its name, text, schemas, flags and origin — a built-in's
//! descriptor, or an MCP server's names as received.

use std::sync::Arc;

use super::callers::AllowedCallers;
use super::descriptor::{Flags, ToolDescriptor};
use super::mcp_info::McpInfo;
use super::switches::Switches;
use crate::permissions::RuleTarget;

/// A tool in a pool: a built-in, or an MCP tool received at run time.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    /// The name the model calls it by.
    pub name: String,
    /// Old names still accepted for lookup.
    pub aliases: Vec<String>,
    /// The exact text sent to the model and searched.
    pub description: String,
    /// The ToolSearch capability phrase.
    pub search_hint: Option<String>,
    /// The input JSON Schema, as minified JSON text.
    pub input_schema: Arc<str>,
    /// The strict-mode schema, when the tool has one.
    pub strict_input_schema: Option<Arc<str>>,
    /// The JSON Schema of the tool's structured output, when it declares one.
    pub output_schema: Option<Arc<str>>,
    /// Example inputs, as the JSON text of an array of objects, sent as `input_examples` where
    /// the API takes them; `None` for none (an MCP tool's unless the application sets them).
    pub input_examples: Option<Arc<str>>,
    /// Who may call the tool, as decided for the pool ([`CallerRules`](crate::env::CallerRules),
    /// else the tool's declaration); `None`: the model directly, the API's default. Read it
    /// with [`callers`](Self::callers).
    pub allowed_callers: Option<AllowedCallers>,
    /// The flags.
    pub flags: Flags,
    /// The largest result in characters, if limited.
    pub max_result_size_chars: Option<usize>,
    /// Where the tool comes from.
    pub origin: Origin,
    /// Whether the tool is sent by name only until ToolSearch loads it, where pool assembly
    /// decided otherwise than the tool declares ([`deferral`](crate::pool::deferral): a
    /// profile keeping a tool loaded); `None` where the declaration stands. Read it with
    /// [`is_deferred`](Self::is_deferred).
    pub deferral: Option<bool>,
}

/// Where a pool's tool comes from.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A `#[tool]` compiled into the application: its descriptor, which dispatch calls.
    Builtin(&'static ToolDescriptor),
    /// A tool received from an MCP server, with its names as received.
    Mcp(McpInfo),
    /// A tool the host describes itself ([`ToolInfo::new`]), with no implementation here.
    Host,
}

impl ToolInfo {
    /// A built-in's entry, with its description for these switches.
    pub fn from_builtin(tool: &'static ToolDescriptor, switches: &Switches) -> ToolInfo {
        ToolInfo {
            name: tool.name.to_owned(),
            aliases: tool
                .aliases
                .iter()
                .map(|alias| (*alias).to_owned())
                .collect(),
            description: tool.description_for(switches),
            search_hint: tool.search_hint.map(str::to_owned),
            input_schema: Arc::from(tool.schema()),
            strict_input_schema: (!tool.strict_input_schema.is_empty())
                .then(|| Arc::from(tool.strict_input_schema)),
            output_schema: tool.output_schema.map(Arc::from),
            input_examples: examples_text(tool.input_examples),
            allowed_callers: tool.allowed_callers,
            flags: tool.flags,
            max_result_size_chars: tool.max_result_size_chars,
            origin: Origin::Builtin(tool),
            deferral: None,
        }
    }

    /// A plain entry with a name, a description and an empty-object schema (for tests and
    /// host-defined tools).
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> ToolInfo {
        ToolInfo {
            name: name.into(),
            aliases: Vec::new(),
            description: description.into(),
            search_hint: None,
            input_schema: Arc::from(r#"{"type":"object","properties":{}}"#),
            strict_input_schema: None,
            output_schema: None,
            input_examples: None,
            allowed_callers: None,
            flags: Flags::NONE,
            max_result_size_chars: None,
            origin: Origin::Host,
            deferral: None,
        }
    }

    /// Whether the tool is sent by name only until ToolSearch loads it: what pool assembly
    /// recorded, or else what the tool declares (an MCP tool unless `always_load`, another
    /// when `defer` and not `always_load`). Search, rendering and dispatch ask this, and
    /// never the environment.
    pub fn is_deferred(&self) -> bool {
        self.deferral
            .unwrap_or(!self.flags.always_load && (self.flags.defer || self.is_mcp()))
    }

    /// This tool with `examples` as its input examples (an MCP tool's, say, which its server
    /// does not send): rendering checks each against the tool's input schema before sending
    /// it.
    ///
    /// ```
    /// use toolreg::mcp::load_server;
    /// use serde_json::json;
    ///
    /// let listed = json!([{"name": "get_weather", "inputSchema": {"type": "object",
    ///     "properties": {"city": {"type": "string"}}, "required": ["city"]}}]);
    /// let tool = load_server("weather", &listed).tools[0].as_ref().clone()
    ///     .with_input_examples([json!({"city": "Lyon"})]);
    /// assert_eq!(tool.input_examples.as_deref(), Some(r#"[{"city":"Lyon"}]"#));
    /// ```
    pub fn with_input_examples(
        mut self,
        examples: impl IntoIterator<Item = serde_json::Value>,
    ) -> ToolInfo {
        let examples: Vec<serde_json::Value> = examples.into_iter().collect();
        self.input_examples = (!examples.is_empty())
            .then(|| Arc::from(serde_json::Value::Array(examples).to_string()));
        self
    }

    /// Who may call the tool: what the pool decided, or the model directly.
    pub fn callers(&self) -> AllowedCallers {
        self.allowed_callers.unwrap_or(AllowedCallers::DIRECT)
    }

    /// The MCP side, for a tool from a server.
    pub fn mcp(&self) -> Option<&McpInfo> {
        match &self.origin {
            Origin::Mcp(mcp) => Some(mcp),
            Origin::Builtin(_) | Origin::Host => None,
        }
    }

    /// The descriptor, for a built-in.
    pub fn builtin(&self) -> Option<&'static ToolDescriptor> {
        match self.origin {
            Origin::Builtin(descriptor) => Some(descriptor),
            Origin::Mcp(_) | Origin::Host => None,
        }
    }

    /// Whether this is an MCP tool: it came from a server, or its name starts with `mcp__`.
    pub fn is_mcp(&self) -> bool {
        self.mcp().is_some() || self.name.starts_with("mcp__")
    }

    /// The name permission rules compare: for an MCP tool `mcp__<normalized server>__<normalized
    /// tool>` from the names the server sent (which can differ from [`name`](Self::name) when
    /// the pool had to make the name unique or short), otherwise the name. Aliases are not
    /// consulted.
    pub fn permission_name(&self) -> &str {
        self.mcp()
            .map_or(&self.name, |mcp| mcp.permission_name(&self.name))
    }

    /// What permission rules see of this tool.
    pub fn rule_target(&self) -> RuleTarget<'_> {
        RuleTarget {
            name: self.permission_name(),
            server: self.mcp().map(|mcp| &*mcp.normalized_server),
        }
    }

    /// Whether `name` is this tool's name or one of its aliases (exact, case-sensitive).
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|alias| alias == name)
    }
}

/// The JSON array of `examples` (each a JSON object's text), or `None` for none.
fn examples_text(examples: &[&str]) -> Option<Arc<str>> {
    (!examples.is_empty()).then(|| Arc::from(format!("[{}]", examples.join(","))))
}

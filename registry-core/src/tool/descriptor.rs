//! The const descriptor every built-in tool registers.

use std::fmt;

use super::callers::AllowedCallers;
use super::switches::Switches;
use crate::tool::{InputError, ParsedInput};

/// The metadata `#[tool]` generates for a struct: its descriptor, schemas included.
///
/// ```
/// # mod demo {
/// use toolreg::{tool, Tool, ToolContext, ToolError, ToolSpec};
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
///     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
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

/// Everything the registry knows about a built-in tool, built by `#[tool]` as a `const`.
///
/// All fields are `'static` data or plain function pointers, so the descriptor is `Sync` and
/// lives in the binary's read-only data.
#[derive(Clone, Copy)]
pub struct ToolDescriptor {
    /// The name the model calls the tool by (`^[A-Za-z0-9_-]{1,64}$`, never `mcp__…`).
    pub name: &'static str,
    /// Old names still accepted for lookup.
    pub aliases: &'static [&'static str],
    /// The static description: the `description = "…"` key or the struct's doc comment.
    pub description: &'static str,
    /// A dynamic prompt that replaces [`description`](Self::description) when present.
    pub prompt: Option<fn(&Switches) -> String>,
    /// A 3–10 word capability phrase for ToolSearch.
    pub search_hint: Option<&'static str>,
    /// The boolean flags.
    pub flags: Flags,
    /// The largest result, in characters, before the host should truncate or persist it.
    pub max_result_size_chars: Option<usize>,
    /// The input JSON Schema, minified, properties in declaration order; empty when it is
    /// rendered at run time ([`generated_input_schema`](Self::generated_input_schema)). Read it
    /// through [`schema`](Self::schema).
    pub input_schema: &'static str,
    /// Renders the input schema at run time, once, when it holds a part only known then (a
    /// field typed by `schemars::JsonSchema`, with the `schemars` feature); `None` otherwise.
    pub generated_input_schema: Option<fn() -> &'static str>,
    /// The strict-mode variant of [`input_schema`](Self::input_schema); empty when the input
    /// has no strict form (a map or an untyped value in it).
    pub strict_input_schema: &'static str,
    /// The JSON Schema of the structured output (`#[tool(output = T)]`), minified.
    pub output_schema: Option<&'static str>,
    /// Example inputs, each a JSON object's text, sent as the tool's `input_examples` where
    /// the API takes them (`#[tool(example = r#"{…}"#)]`); each is checked against the input
    /// schema before it can be sent.
    pub input_examples: &'static [&'static str],
    /// Who may call the tool (`#[tool(allowed_callers = [...])]`); `None`: the model directly,
    /// the API's default. An application can set it for any tool
    /// ([`CallerRules`](crate::env::CallerRules)).
    pub allowed_callers: Option<AllowedCallers>,
    /// The compile-time gate, as written (`feature = "MONITOR_TOOL"`), or `None`.
    pub feature: Option<&'static str>,
    /// The run-time gate; `None` means always enabled.
    pub enabled: Option<fn(&Switches) -> bool>,
    /// Deserializes the model's JSON into the tool's input.
    pub parse: fn(&serde_json::Value) -> Result<Box<dyn ParsedInput>, InputError>,
    /// Where the tool was defined.
    pub source: Source,
}

impl ToolDescriptor {
    /// The input JSON Schema, minified: [`input_schema`](Self::input_schema), or the one
    /// rendered at run time.
    pub fn schema(&self) -> &'static str {
        match self.generated_input_schema {
            Some(render) => render(),
            None => self.input_schema,
        }
    }

    /// The text sent to the model and searched: the dynamic prompt when there is one, otherwise
    /// the static description.
    pub fn description_for(&self, switches: &Switches) -> String {
        match self.prompt {
            Some(prompt) => prompt(switches),
            None => self.description.to_owned(),
        }
    }

    /// Whether the run-time gate holds.
    pub fn is_enabled(&self, switches: &Switches) -> bool {
        self.enabled.is_none_or(|gate| gate(switches))
    }
}

impl fmt::Debug for ToolDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDescriptor")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("search_hint", &self.search_hint)
            .field("flags", &self.flags)
            .field("feature", &self.feature)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// A tool's boolean flags; all `false` by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    /// Deferred: only the name is sent until ToolSearch loads it.
    pub defer: bool,
    /// Never deferred, whatever else holds.
    pub always_load: bool,
    /// Changes nothing outside the call.
    pub read_only: bool,
    /// May run concurrently with other calls.
    pub concurrency_safe: bool,
    /// May destroy data (asks before it runs).
    pub destructive: bool,
    /// Sent with `strict: true` where the model and API support it.
    pub strict: bool,
}

impl Flags {
    /// All flags off.
    pub const NONE: Flags = Flags {
        defer: false,
        always_load: false,
        read_only: false,
        concurrency_safe: false,
        destructive: false,
        strict: false,
    };
}

/// Where a tool was defined: for error messages that name both sides of a clash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// The struct's path (`my_crate::tools::Bash`).
    pub type_path: &'static str,
    /// The file of the `#[tool]` attribute.
    pub file: &'static str,
    /// Its line.
    pub line: u32,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}:{})", self.type_path, self.file, self.line)
    }
}

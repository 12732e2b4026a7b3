//! The session's schema cache: each tool's rendered base, locked at first render.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::value::RawValue;

use crate::ToolInfo;
use crate::wire::{InvalidSchema, RenderError, examples};

/// How the base of a tool is rendered this session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheSettings {
    /// Strict tools are enabled for this session.
    pub strict_tools: bool,
    /// The model supports strict tools.
    pub model_supports_strict: bool,
    /// The first-party API serves the model.
    pub first_party: bool,
    /// Eager input streaming is enabled.
    pub eager_input_streaming: bool,
}

/// A tool's rendered base.
#[derive(Debug)]
pub struct CachedTool {
    /// The name.
    pub name: String,
    /// The description, as first rendered.
    pub description: String,
    /// The input schema JSON (the strict variant when `strict` is set and the tool has one).
    pub input_schema: Box<RawValue>,
    /// The tool's input examples (`input_examples`), checked against its input.
    pub input_examples: Option<Box<RawValue>>,
    /// `Some(true)` when the tool is strict and strict tools are on and supported.
    pub strict: Option<bool>,
    /// `Some(true)` on the first-party API when enabled.
    pub eager_input_streaming: Option<bool>,
    /// The MCP server of the tool, for invalidation.
    pub server: Option<String>,
}

/// A thread-safe, session-scoped cache of rendered tool bases.
///
/// The tools block sits near the start of every request, so any byte that changes in it
/// invalidates the prompt cache for everything after it. The cache renders each tool once per
/// session — name, description, input schema, `strict`, `eager_input_streaming` — and serves
/// those exact bytes to every later request, even when the tool's dynamic prompt or a flag
/// changes in between. Per-request fields (`defer_loading`, `cache_control`) are added by
/// [`render_anthropic`](crate::render_anthropic) without touching the cache.
///
/// The key is the tool's name, or for a tool that carries a run-time JSON schema (an MCP tool)
/// the name plus that schema's JSON, so a server that changes a schema gets a new entry.
/// [`SchemaCache::clear`] belongs to logout, account switch and a new session;
/// [`SchemaCache::invalidate_server`] to an MCP server's reconnect.
#[derive(Debug, Default)]
pub struct SchemaCache {
    entries: Mutex<HashMap<String, Arc<CachedTool>>>,
}

impl SchemaCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cache key of a tool.
    pub fn key(tool: &ToolInfo) -> String {
        if tool.mcp().is_some() {
            format!("{}\0{}", tool.name, tool.input_schema)
        } else {
            tool.name.clone()
        }
    }

    /// The tool's rendered base: from the cache, or rendered now and locked for the session.
    ///
    /// # Errors
    /// [`RenderError::InvalidSchema`] for a schema that is not JSON,
    /// [`RenderError::InvalidExample`] for an input example the tool does not take.
    pub fn get_or_render(
        &self,
        tool: &ToolInfo,
        settings: &CacheSettings,
    ) -> Result<Arc<CachedTool>, RenderError> {
        let key = Self::key(tool);
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(cached) = entries.get(&key) {
            return Ok(cached.clone());
        }
        let rendered = Arc::new(render_base(tool, settings)?);
        entries.insert(key, rendered.clone());
        Ok(rendered)
    }

    /// Drops every entry (logout, account switch, new session).
    pub fn clear(&self) {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Drops the entries of one MCP server's tools (reconnect); returns how many.
    pub fn invalidate_server(&self, server: &str) -> usize {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let before = entries.len();
        entries.retain(|_, cached| cached.server.as_deref() != Some(server));
        before - entries.len()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn render_base(tool: &ToolInfo, settings: &CacheSettings) -> Result<CachedTool, RenderError> {
    let strict = tool.flags.strict && settings.strict_tools && settings.model_supports_strict;
    let schema = match (&tool.strict_input_schema, strict) {
        (Some(strict_schema), true) => strict_schema,
        _ => &tool.input_schema,
    };
    let input_schema =
        RawValue::from_string(schema.to_string()).map_err(|error| InvalidSchema {
            tool: tool.name.clone(),
            message: error.to_string(),
        })?;
    Ok(CachedTool {
        name: tool.name.clone(),
        description: tool.description.clone(),
        input_schema,
        input_examples: examples::checked(tool, strict && tool.strict_input_schema.is_some())?,
        strict: strict.then_some(true),
        eager_input_streaming: (settings.first_party && settings.eager_input_streaming)
            .then_some(true),
        server: tool.mcp().map(|mcp| mcp.server.to_string()),
    })
}

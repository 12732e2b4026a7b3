//! A rendered `tools` array: typed entries, each in its API's shape, that serialize to the
//! request's exact bytes or become the `serde_json::Value`s of a request body.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::error::{InvalidSchema, RenderError};

/// One entry of a `tools` array, in its API's shape (each wire module has its own).
pub(crate) trait Entry: fmt::Debug + Send + Sync {
    /// The name the entry goes by (a tool's, a namespace's, the search tool's).
    fn name(&self) -> &str;
    /// The entry's JSON text.
    fn to_json(&self) -> String;
    /// The entry as a `Value`.
    fn to_value(&self) -> Result<Value, serde_json::Error>;
}

/// Every serializable entry with a name is an [`Entry`].
pub(crate) trait Named {
    /// The name the entry goes by.
    fn name(&self) -> &str;
}

impl<T: Serialize + Named + fmt::Debug + Send + Sync> Entry for T {
    fn name(&self) -> &str {
        Named::name(self)
    }

    // Cannot fail: the entries hold only strings, booleans, options, `RawValue`s (already read as
    // JSON) and `Value`s (string keys), which serde_json always writes.
    #[allow(clippy::expect_used)]
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("tool JSON serializes")
    }

    fn to_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }
}

/// A rendered `tools` array: its entries in order, each in its API's shape.
///
/// [`to_json`](Self::to_json) (and `Display`) gives the array's exact bytes, the same for the
/// same inputs on any machine; [`to_value`](Self::to_value) gives the array as a request
/// body holds it, or names the tool whose schema a `serde_json::Value` cannot hold (a number
/// out of `f64`'s range, which JSON text can spell).
///
/// ```
/// use toolreg::{Catalog, Env, PermissionContext, RenderOptions, SchemaCache, assemble_tool_pool, builtins, render_anthropic};
///
/// let env = Env::default();
/// let pool = assemble_tool_pool(&env, &PermissionContext::new(), &Catalog::new(builtins().unwrap(), &[]), &[]);
/// let options = RenderOptions { tool_search: true, ..Default::default() };
/// let rendered = render_anthropic(&env, &pool, &SchemaCache::new(), &options).unwrap();
/// assert!(rendered.tools.names().any(|name| name == "ToolSearch"));
/// let tools = rendered.tools.to_value().unwrap();
/// assert_eq!(tools.as_array().unwrap().len(), rendered.tools.len());
/// assert!(rendered.tools.to_json().starts_with(r#"[{"name":"#));
/// ```
pub struct ToolsArray {
    entries: Vec<Box<dyn Entry>>,
}

impl ToolsArray {
    /// An array of `entries`, in order.
    pub(crate) fn new(entries: Vec<Box<dyn Entry>>) -> ToolsArray {
        ToolsArray { entries }
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Each entry's name, in order (a namespace's for a namespace, the search tool's for the
    /// API's own search tool).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|entry| entry.name())
    }

    /// The array as JSON text: the request's exact bytes.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(128 * self.entries.len() + 2);
        out.push('[');
        for (index, entry) in self.entries.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(&entry.to_json());
        }
        out.push(']');
        out
    }

    /// The array as a `Value`, each entry as [`to_json`](Self::to_json) writes it.
    ///
    /// # Errors
    /// [`RenderError::InvalidSchema`] naming the entry whose schema a `Value` cannot hold.
    pub fn to_value(&self) -> Result<Value, RenderError> {
        let mut values = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            let value = entry.to_value().map_err(|error| InvalidSchema {
                tool: entry.name().to_owned(),
                message: error.to_string(),
            })?;
            values.push(value);
        }
        Ok(Value::Array(values))
    }
}

impl fmt::Display for ToolsArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl fmt::Debug for ToolsArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.entries).finish()
    }
}

/// Two arrays are equal when their bytes are.
impl PartialEq for ToolsArray {
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}

impl Eq for ToolsArray {}

/// The `<available-deferred-tools>` message announcing `names` (sorted by the caller), or none.
pub(crate) fn announce(names: &[&str]) -> Option<String> {
    (!names.is_empty()).then(|| {
        format!(
            "<available-deferred-tools>\n{}\n</available-deferred-tools>",
            names.join("\n")
        )
    })
}

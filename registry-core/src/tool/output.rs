//! What a tool returns.

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

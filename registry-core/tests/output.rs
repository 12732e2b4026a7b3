//! Structured output with its compile-time output schema, and image content.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;
use toolreg::Pool;
use toolreg::mcp::load_server;
use toolreg::wire::anthropic::tool_result;
use toolreg::{
    Dispatcher, Env, InputSchema, Structured, Tool, ToolCall, ToolContext, ToolError, ToolInfo,
    ToolOutput, ToolSpec, tool,
};

/// One day's weather.
#[derive(Debug, Serialize, InputSchema)]
pub struct Day {
    /// Degrees Celsius.
    pub celsius: i8,
    /// Rain expected.
    pub rain: bool,
}

/// Gives one day's weather.
#[tool(output = Day, read_only, search_hint = "one day of weather for a city")]
#[derive(Deserialize)]
pub struct DayTool {
    /// The city.
    pub city: String,
}

impl Tool for DayTool {
    type Output = Structured<Day>;
    async fn call(self, _: &ToolContext<'_>) -> Result<Structured<Day>, ToolError> {
        Ok(Structured(Day {
            celsius: 19,
            rain: self.city == "Bergen",
        }))
    }
}

/// Draws a one-pixel chart.
#[tool(read_only, search_hint = "draw a tiny chart as an image")]
#[derive(Deserialize)]
pub struct ChartTool {}

impl Tool for ChartTool {
    type Output = ToolOutput;
    async fn call(self, _: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Image {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo=".into(),
        })
    }
}

#[test]
fn output_schema_is_built_at_compile_time_from_the_output_type() {
    const SCHEMA: Option<&str> = <DayTool as ToolSpec>::DESCRIPTOR.output_schema;
    assert_eq!(
        SCHEMA,
        Some(
            r#"{"type":"object","properties":{"celsius":{"description":"Degrees Celsius.","type":"integer","minimum":-128,"maximum":127},"rain":{"description":"Rain expected.","type":"boolean"}},"required":["celsius","rain"]}"#
        )
    );
    let info = ToolInfo::from_builtin(&<DayTool as ToolSpec>::DESCRIPTOR, &Default::default());
    assert_eq!(info.output_schema.as_deref(), SCHEMA);
    assert_eq!(<ChartTool as ToolSpec>::DESCRIPTOR.output_schema, None);
}

fn dispatcher() -> Dispatcher {
    let rules = toolreg::PermissionContext::new();
    let env = Env::default();
    let tools = [
        &<DayTool as ToolSpec>::DESCRIPTOR,
        &<ChartTool as ToolSpec>::DESCRIPTOR,
    ]
    .map(|d| Arc::new(ToolInfo::from_builtin(d, &env.switches)));
    let pool = Pool::new(&env, tools);
    Dispatcher::new(env, rules.clone(), pool, ".")
}

#[tokio::test]
async fn structured_output_is_sent_as_json_content() {
    let result = dispatcher()
        .dispatch(&ToolCall::new("d", "Day", json!({"city": "Bergen"})))
        .await;
    assert_eq!(
        result.content,
        ToolOutput::Json(json!({"celsius": 19, "rain": true}))
    );
    assert_eq!(
        tool_result(&result)["content"],
        r#"{"celsius":19,"rain":true}"#
    );
}

#[tokio::test]
async fn image_output_is_an_image_content_block() {
    let result = dispatcher()
        .dispatch(&ToolCall::new("c", "Chart", json!({})))
        .await;
    assert_eq!(
        tool_result(&result)["content"],
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}])
    );
}

#[test]
fn mcp_output_schema_is_kept() {
    let loaded = load_server(
        "s",
        &json!([{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"n": {"type": "number"}}}}]),
    );
    assert_eq!(
        loaded.tools[0].output_schema.as_deref(),
        Some(r#"{"type":"object","properties":{"n":{"type":"number"}}}"#)
    );
}

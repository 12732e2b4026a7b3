use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

/// A forecast.
#[derive(Serialize, InputSchema)]
pub struct Forecast {
    /// Degrees.
    pub celsius: i8,
}

/// Gives the forecast for a city.
#[tool(output = Forecast, search_hint = "weather forecast for one city")]
#[derive(Deserialize)]
pub struct ForecastTool {
    /// The city.
    pub city: String,
}

impl Tool for ForecastTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.city)
    }
}

fn main() {}

//! An agent's tool layer on toolreg, as an application writes it: three async tools — one
//! that waits on a timer, one that calls an HTTP service, one that changes the application's
//! state — a pool of them, and a turn run over it.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use std::sync::Arc;
//! use toolreg::{ToolCall, TurnOptions};
//! use serde_json::json;
//!
//! let app = Arc::new(weather_agent::AppState::new("http://127.0.0.1:9"));
//! let dispatcher = weather_agent::dispatcher(app.clone());
//! let calls = [
//!     ToolCall::new("a", "Forecast", json!({"city": "Paris", "delay_ms": 10})),
//!     ToolCall::new("b", "SaveNote", json!({"text": "take an umbrella"})),
//! ];
//! let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
//! assert_eq!(turn.results[0].content, toolreg::ToolOutput::Text("Paris: sunny".into()));
//! assert_eq!(app.notes(), ["take an umbrella"]);
//! # }
//! ```

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use toolreg::{
    Dispatcher, Env, PermissionContext, State, Tool, ToolContext, ToolError, assemble_tool_pool,
    tool,
};

/// What the application shares with its tools: registered once, found by every call with
/// `ctx.state::<AppState>()`.
#[derive(Debug)]
pub struct AppState {
    service: String,
    notes: Mutex<Vec<String>>,
}

impl AppState {
    /// State whose status service lives at `service` (`http://host:port`).
    pub fn new(service: impl Into<String>) -> Self {
        AppState {
            service: service.into(),
            notes: Mutex::new(Vec::new()),
        }
    }

    /// The notes saved so far.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn app<'a>(ctx: &ToolContext<'a>) -> Result<&'a AppState, ToolError> {
    ctx.state::<AppState>()
        .ok_or_else(|| ToolError::new("the application state is not registered"))
}

/// Gives the weather forecast for a city.
#[tool(
    read_only,
    concurrency_safe,
    search_hint = "current weather and forecast for a city"
)]
#[derive(Deserialize)]
pub struct ForecastTool {
    /// The city, e.g. "Paris".
    pub city: String,
    /// How long the forecast service takes, in milliseconds (for demonstrations).
    #[serde(default)]
    pub delay_ms: u64,
}

impl Tool for ForecastTool {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(self.delay_ms)) => {}
            () = ctx.cancelled() => return Err(ToolError::new("cancelled")),
        }
        Ok(format!("{}: sunny", self.city))
    }
}

/// Reads a page of the status service over HTTP.
#[tool(
    read_only,
    concurrency_safe,
    search_hint = "read a status page of the weather service"
)]
#[derive(Deserialize)]
pub struct StatusTool {
    /// The page's path, e.g. "/status".
    pub path: String,
}

impl Tool for StatusTool {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let address = app(ctx)?
            .service
            .strip_prefix("http://")
            .ok_or_else(|| ToolError::new("the service address is not http://"))?;
        let mut stream = tokio::net::TcpStream::connect(address).await?;
        let request = format!("GET {} HTTP/1.0\r\nHost: {address}\r\n\r\n", self.path);
        stream.write_all(request.as_bytes()).await?;
        let mut response = String::new();
        stream.read_to_string(&mut response).await?;
        let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        Ok(body.to_owned())
    }
}

/// Saves a note for the user. Changes the application's state, so it runs alone.
#[tool(search_hint = "remember a note for the user")]
#[derive(Deserialize)]
pub struct SaveNoteTool {
    /// The note.
    pub text: String,
}

impl Tool for SaveNoteTool {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let app = app(ctx)?;
        tokio::time::sleep(Duration::from_millis(20)).await;
        app.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.text);
        Ok("saved".into())
    }
}

/// Shows the rain radar around a city. Rarely needed, so it is deferred: the model loads it
/// with ToolSearch first.
#[tool(
    read_only,
    concurrency_safe,
    defer,
    search_hint = "rain radar map around a city"
)]
#[derive(Deserialize)]
pub struct RadarTool {
    /// The city.
    pub city: String,
}

impl Tool for RadarTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}: no rain on the radar", self.city))
    }
}

/// The pool of this crate's tools (and the core's ToolSearch), as the model is offered it.
pub fn pool() -> toolreg::Pool {
    let catalog = toolreg::own_tools!().unwrap_or_else(|clash| panic!("{clash}"));
    let rules = PermissionContext::new();
    assemble_tool_pool(&Env::default(), &rules, &catalog, &[])
}

/// A dispatcher over this crate's tools, with `app` as the state they share.
pub fn dispatcher(app: Arc<AppState>) -> Dispatcher {
    Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".")
        .with_state(State::new().with(app))
}

/// A one-route HTTP service on 127.0.0.1 that answers every request with `body`; returns its
/// `http://` address. Runs until the runtime stops.
pub async fn serve(body: &'static str) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = [0u8; 1024];
                let _ = stream.read(&mut request).await;
                let response = format!(
                    "HTTP/1.0 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    Ok(format!("http://{address}"))
}

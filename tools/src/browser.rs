//! WebBrowser: a real browser driven by the host (`WEB_BROWSER_TOOL`).
#![cfg(feature = "WEB_BROWSER_TOOL")]

use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

/// Drives a real web browser, one action per call: open a URL, click, type, read the page, take a screenshot, go back.
///
/// Use it for pages that need JavaScript, interaction or a logged-in session, or to check how a web app you are building looks and behaves. For plain documents, WebFetch is faster. Read the page (`read`) before clicking or typing so you know its elements, and read it again after each action that changes it.
#[tool(
    strict,
    name = "WebBrowser",
    search_hint = "navigate click and screenshot pages in chrome",
    feature = "WEB_BROWSER_TOOL"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WebBrowserTool {
    /// What to do.
    pub action: BrowserAction,
    /// The URL to open (navigate).
    pub url: Option<String>,
    /// A CSS selector or the element reference from `read` (click, type).
    pub selector: Option<String>,
    /// The text to type (type).
    pub text: Option<String>,
}

/// One browser action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "snake_case")]
pub enum BrowserAction {
    /// Open `url`.
    Navigate,
    /// Click the element `selector`.
    Click,
    /// Type `text` into the element `selector`.
    Type,
    /// Return the page's text and interactive elements.
    Read,
    /// Capture the visible page as an image.
    Screenshot,
    /// Go back in history.
    Back,
}

impl Tool for WebBrowserTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

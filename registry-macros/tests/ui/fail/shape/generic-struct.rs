use serde::Deserialize;
use serde::de::DeserializeOwned;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Reads a file.
#[tool]
#[derive(Deserialize)]
pub struct ReadTool<P> {
    /// The file to read.
    pub path: P,
}

impl<P: DeserializeOwned + Send + Sync + 'static> Tool for ReadTool<P> {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}

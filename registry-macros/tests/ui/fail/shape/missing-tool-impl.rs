use serde::Deserialize;
use toolreg::tool;

/// Reads a file.
#[tool(read_only)]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
}

fn main() {}

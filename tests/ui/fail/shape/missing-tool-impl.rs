use toolreg::tool;
use serde::Deserialize;

/// Reads a file.
#[tool(read_only)]
#[derive(Deserialize)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
}

fn main() {}

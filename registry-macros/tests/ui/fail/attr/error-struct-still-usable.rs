// The attribute has one mistake; everything that uses the struct is correct, so the attribute
// error must be the only error.
use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Reads a file.
#[tool(name = "Read File", read_only)]
#[derive(Deserialize, Debug, Clone, PartialEq)]
pub struct ReadTool {
    /// The file to read.
    pub path: String,
    /// How many lines.
    pub limit: Option<usize>,
}

impl ReadTool {
    fn describe(&self) -> String {
        format!("{} ({:?})", self.path, self.limit)
    }
}

impl Tool for ReadTool {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let path = ctx.resolve(self.path.as_ref());
        std::fs::read_to_string(path).map_err(ToolError::from)
    }
}

fn main() {
    let read = ReadTool {
        path: "Cargo.toml".to_owned(),
        limit: Some(3),
    };
    let copy = read.clone();
    assert_eq!(read, copy);
    println!("{}", copy.describe());
    let parsed: ReadTool = serde_json::from_str(r#"{"path":"a"}"#).unwrap();
    let _ = parsed.path;
}

//! Write: creates or replaces a whole file, atomically.

use registry_core::{Tool, ToolContext, ToolError, tool};
use serde::{Deserialize, Serialize};

use crate::util::{atomic_write, resolve};

/// Writes a file to the local filesystem, replacing it if it exists and creating any missing parent directories.
///
/// - `file_path` should be an absolute path; a relative one is taken from the working directory.
/// - The write is atomic: the content goes to a temporary file in the same directory, which then replaces the target, so the file is never left half-written. An existing file keeps its permissions.
/// - To change part of an existing file, prefer Edit, which sends only the changed text. Read an existing file before overwriting it, so nothing in it is lost by accident.
/// - Do not create documentation or README files unless asked.
#[tool(
    name = "Write",
    destructive,
    search_hint = "create or overwrite files",
    max_result_size_chars = 100000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WriteTool {
    /// The absolute path to the file to write.
    pub file_path: String,
    /// The content to write to the file.
    pub content: String,
}

impl Tool for WriteTool {
    type Output = String;

    fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let path = resolve(ctx, &self.file_path);
        if path.is_dir() {
            return Err(ToolError::new(format!(
                "{} is a directory; give the path of a file",
                path.display()
            )));
        }
        let existed = path.exists();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                ToolError::new(format!(
                    "could not create the directory {}: {e}",
                    parent.display()
                ))
            })?;
        }
        atomic_write(&path, self.content.as_bytes())?;
        let lines = self.content.lines().count();
        Ok(if existed {
            format!(
                "The file {} has been overwritten ({lines} lines, {} bytes).",
                path.display(),
                self.content.len()
            )
        } else {
            format!(
                "File created successfully at: {} ({lines} lines, {} bytes).",
                path.display(),
                self.content.len()
            )
        })
    }
}

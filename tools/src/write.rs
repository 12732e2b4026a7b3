//! Write: creates or replaces a whole file, atomically.

use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::{Tool, ToolContext, ToolError, tool};

use crate::fs::{atomic_write, check_output_size, existing_size};
use crate::profile::names::EDIT;
use crate::util::{checked, resolve};

/// Writes a file to the local filesystem, replacing it if it exists and creating any missing parent directories.
///
/// - `file_path` should be an absolute path; a relative one is taken from the working directory.
/// - The write is atomic: the content goes to a temporary file in the same directory, which then replaces the target, so the file is never left half-written. An existing file keeps its permissions; a new one follows the umask. A symbolic link's target is written; a directory, FIFO, device or socket is refused. At most 64 MiB.
/// - To change part of an existing file, prefer Edit, which sends only the changed text. Read an existing file before overwriting it, so nothing in it is lost by accident.
/// - Do not create documentation or README files unless asked.
#[tool(
    strict,
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

    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::write(resolve(ctx, &self.file_path)).also_governed_by(&[EDIT]))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let path = checked(ctx, &self.file_path)?;
        check_output_size(&path, self.content.len() as u64)?;
        let existed = existing_size(&path)?.is_some();
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

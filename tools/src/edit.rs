//! Edit: exact string replacement in a file, written atomically.

use registry_core::{Tool, ToolContext, ToolError, tool};
use serde::{Deserialize, Serialize};

use crate::util::{atomic_write, numbered, read_text, resolve};

/// Lines of context shown around the edit in the result.
const SNIPPET_CONTEXT: usize = 4;

/// Performs an exact string replacement in a file.
///
/// - Read the file first, and copy `old_string` exactly as it appears, indentation included. When copying from Read's output, leave out the line-number prefix (the number and the tab).
/// - The edit fails when `old_string` is not in the file, and when it occurs more than once and `replace_all` is not set: then add surrounding lines to `old_string` to make it unique, or set `replace_all` to change every occurrence (useful for renaming a variable).
/// - `old_string` and `new_string` must differ.
/// - An empty `old_string` creates a new file with `new_string` as its content; it is refused for a file that has content.
/// - When the file uses CRLF line endings, `\n` in the strings matches `\r\n`.
/// - The file is written atomically: a failed edit leaves it as it was.
/// - Prefer editing existing files to creating new ones.
#[tool(
    name = "Edit",
    search_hint = "modify file contents in place",
    max_result_size_chars = 100000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EditTool {
    /// The absolute path to the file to modify.
    pub file_path: String,
    /// The text to replace.
    pub old_string: String,
    /// The text to replace it with (must differ from old_string).
    pub new_string: String,
    /// Replace every occurrence of old_string (default false).
    #[serde(default)]
    pub replace_all: bool,
}

impl Tool for EditTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if self.old_string == self.new_string {
            return Err(ToolError::new(
                "No changes to make: old_string and new_string are exactly the same.",
            ));
        }
        Ok(())
    }

    fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = resolve(ctx, &self.file_path);
        if self.old_string.is_empty() {
            return self.create(&path);
        }
        let content = read_text(&path)?;
        let (old, new) = if !content.contains(&self.old_string)
            && content.contains("\r\n")
            && self.old_string.contains('\n')
        {
            (crlf(&self.old_string), crlf(&self.new_string))
        } else {
            (self.old_string.clone(), self.new_string.clone())
        };
        let count = content.matches(old.as_str()).count();
        if count == 0 {
            return Err(ToolError::new(format!(
                "String to replace not found in {}. Read the file again and copy old_string exactly, whitespace and indentation included.\nString: {}",
                path.display(),
                self.old_string
            )));
        }
        if count > 1 && !self.replace_all {
            return Err(ToolError::new(format!(
                "Found {count} matches of the string to replace in {}, but replace_all is false. To replace every occurrence, set replace_all to true; to replace only one, add more surrounding context to old_string so it matches exactly once.\nString: {}",
                path.display(),
                self.old_string
            )));
        }
        let first = content.find(old.as_str()).expect("counted above");
        let updated = if self.replace_all {
            content.replace(old.as_str(), &new)
        } else {
            content.replacen(old.as_str(), &new, 1)
        };
        atomic_write(&path, updated.as_bytes())?;
        let what = if count == 1 {
            "1 replacement".to_owned()
        } else {
            format!("{count} replacements")
        };
        Ok(format!(
            "The file {} has been updated ({what}). The first change in context:\n{}",
            path.display(),
            snippet(&updated, first, new.len())
        ))
    }
}

impl EditTool {
    /// `old_string` empty: create the file, or fill an empty one.
    fn create(&self, path: &std::path::Path) -> Result<String, ToolError> {
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                return Err(ToolError::new(format!(
                    "{} is a directory, not a file",
                    path.display()
                )));
            }
            Ok(metadata) if metadata.len() > 0 => {
                return Err(ToolError::new(format!(
                    "old_string is empty, but {} already has content; give the text to replace, or use Write to replace the whole file",
                    path.display()
                )));
            }
            _ => {}
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                ToolError::new(format!(
                    "could not create the directory {}: {e}",
                    parent.display()
                ))
            })?;
        }
        atomic_write(path, self.new_string.as_bytes())?;
        Ok(format!("Created {} with the new content.", path.display()))
    }
}

fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// The lines around `content[at..at + len]`, numbered like Read.
fn snippet(content: &str, at: usize, len: usize) -> String {
    let first_line = content[..at].matches('\n').count();
    let last_line = first_line + content[at..at + len].matches('\n').count();
    let start = first_line.saturating_sub(SNIPPET_CONTEXT);
    let end = last_line + SNIPPET_CONTEXT;
    content
        .lines()
        .enumerate()
        .skip(start)
        .take(end - start + 1)
        .map(|(i, line)| numbered(i + 1, line))
        .collect::<Vec<_>>()
        .join("\n")
}

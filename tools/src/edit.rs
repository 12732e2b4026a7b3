//! Edit: exact string replacement in a file, written atomically.

use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::{Tool, ToolContext, ToolError, tool};

use crate::fs::{check_output_size, existing_size, read_text, replace_if_unchanged};
use crate::profile::names::READ;
use crate::util::{checked, numbered, resolve};

/// Lines of context shown around the edit in the result.
const SNIPPET_CONTEXT: usize = 4;

/// Performs an exact string replacement in a file.
///
/// - Read the file first, and copy `old_string` exactly as it appears, indentation included. When copying from Read's output, leave out the line-number prefix (the number and the tab).
/// - The edit fails when `old_string` is not in the file, and when it occurs more than once and `replace_all` is not set: then add surrounding lines to `old_string` to make it unique, or set `replace_all` to change every occurrence (useful for renaming a variable).
/// - `old_string` and `new_string` must differ.
/// - An empty `old_string` creates a new file with `new_string` as its content; it is refused for a file that has content.
/// - When the file uses CRLF line endings, `\n` in the strings matches `\r\n`.
/// - The file is written atomically: a failed edit leaves it as it was. When the file changed after it was read (another edit, another program), the edit fails with "file changed since it was read": read it again and redo the edit.
/// - Only regular text files of at most 64 MiB are edited; a symbolic link's target is edited.
/// - Prefer editing existing files to creating new ones.
#[tool(
    strict,
    name = "Edit",
    destructive,
    search_hint = "modify file contents in place",
    max_result_size_chars = 100000,
    input_examples = [
        r#"{"file_path": "/home/user/project/src/config.rs", "old_string": "    timeout: 30,\n", "new_string": "    timeout: 60,\n", "replace_all": false}"#,
        r#"{"file_path": "/home/user/project/src/lib.rs", "old_string": "parse_config", "new_string": "read_config", "replace_all": true}"#,
    ]
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

    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        // The result shows lines of the file: editing a path needs the permission to read it.
        Some(Subject::write(resolve(ctx, &self.file_path)).also_reads_as(&[READ]))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = checked(ctx, &self.file_path)?;
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
        let mut found = content.match_indices(old.as_str()).map(|(at, _)| at);
        let Some(first) = found.next() else {
            return Err(ToolError::new(format!(
                "String to replace not found in {}. Read the file again and copy old_string exactly, whitespace and indentation included.\nString: {}",
                path.display(),
                self.old_string
            )));
        };
        let count = 1 + found.count();
        if count > 1 && !self.replace_all {
            return Err(ToolError::new(format!(
                "Found {count} matches of the string to replace in {}, but replace_all is false. To replace every occurrence, set replace_all to true; to replace only one, add more surrounding context to old_string so it matches exactly once.\nString: {}",
                path.display(),
                self.old_string
            )));
        }
        // The size of the result, known before it is built: a large `new_string` replacing
        // many matches is refused here instead of exhausting memory.
        let size = (content.len() as u64)
            .saturating_sub((old.len() as u64).saturating_mul(count as u64))
            .saturating_add((new.len() as u64).saturating_mul(count as u64));
        check_output_size(&path, size)?;
        let updated = if self.replace_all {
            content.replace(old.as_str(), &new)
        } else {
            content.replacen(old.as_str(), &new, 1)
        };
        replace_if_unchanged(&path, Some(content.as_bytes()), updated.as_bytes())?;
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
        let original = match existing_size(path)? {
            Some(size) if size > 0 => {
                return Err(ToolError::new(format!(
                    "old_string is empty, but {} already has content; give the text to replace, or use Write to replace the whole file",
                    path.display()
                )));
            }
            Some(_) => Some(&[][..]),
            None => None,
        };
        replace_if_unchanged(path, original, self.new_string.as_bytes())?;
        Ok(format!("Created {} with the new content.", path.display()))
    }
}

fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// The lines around `content[at..at + len]`, numbered like Read.
fn snippet(content: &str, at: usize, len: usize) -> String {
    let before = content.get(..at).unwrap_or_default();
    let changed = content.get(at..at.saturating_add(len)).unwrap_or_default();
    let first_line = before.matches('\n').count();
    let last_line = first_line + changed.matches('\n').count();
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

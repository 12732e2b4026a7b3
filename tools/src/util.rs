//! Helpers the file tools share: path resolution, atomic writes, numbered lines, truncation.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use registry_core::{ToolContext, ToolError};

/// Resolves a path from the model against the context's working directory (absolute paths stay
/// as they are).
pub(crate) fn resolve(ctx: &ToolContext<'_>, path: &str) -> PathBuf {
    ctx.resolve(Path::new(path))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over the target. A reader sees the old content or the new, never a mix, and a
/// failure leaves the old file untouched. An existing file keeps its permissions.
pub(crate) fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), ToolError> {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let fail = |what: &str, error: std::io::Error| {
        ToolError::new(format!(
            "could not write {}: {what}: {error}",
            path.display()
        ))
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".toolreg-")
        .suffix(".tmp")
        .tempfile_in(parent)
        .map_err(|e| fail("creating a temporary file", e))?;
    temp.write_all(bytes)
        .map_err(|e| fail("writing the temporary file", e))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| fail("flushing the temporary file", e))?;
    if let Ok(metadata) = std::fs::metadata(path) {
        // Best effort: a file we may not chmod is still written.
        let _ = std::fs::set_permissions(temp.path(), metadata.permissions());
    }
    temp.persist(path)
        .map_err(|e| fail("renaming the temporary file into place", e.error))?;
    Ok(())
}

/// One line in `cat -n` style: the 1-based number right-aligned in six columns, a tab, the text.
pub(crate) fn numbered(number: usize, text: &str) -> String {
    format!("{number:>6}\t{text}")
}

/// Cuts `text` to at most `max` characters; returns the kept prefix and whether anything was cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    }
}

/// The error for a path that does not exist.
pub(crate) fn missing(path: &Path) -> ToolError {
    ToolError::new(format!("File does not exist: {}", path.display()))
}

/// Reads a file as UTF-8 text for an edit, with errors that name the path.
pub(crate) fn read_text(path: &Path) -> Result<String, ToolError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing(path)),
        Err(e) if path.is_dir() => {
            let _ = e;
            return Err(ToolError::new(format!(
                "{} is a directory, not a file",
                path.display()
            )));
        }
        Err(e) => {
            return Err(ToolError::new(format!(
                "could not read {}: {e}",
                path.display()
            )));
        }
    };
    String::from_utf8(bytes).map_err(|_| {
        ToolError::new(format!(
            "{} is not UTF-8 text; this tool only edits text files",
            path.display()
        ))
    })
}

/// The directory walker Glob and Grep share: `.gitignore`, `.ignore` and git's exclude files are
/// honoured even outside a git repository, hidden files are included, and `.git` itself is
/// skipped. Entries are visited in file-name order, so results are deterministic.
pub(crate) fn walker(root: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| entry.file_name() != ".git");
    builder
}

/// The modification time used to order results, newest first; unreadable times sort last.
pub(crate) fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(std::time::UNIX_EPOCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_chars_counts_characters_not_bytes() {
        assert_eq!(cut_chars("héllo", 2), ("hé", true));
        assert_eq!(cut_chars("hé", 2), ("hé", false));
    }

    #[test]
    fn numbered_right_aligns_in_six_columns() {
        assert_eq!(numbered(7, "x"), "     7\tx");
    }
}

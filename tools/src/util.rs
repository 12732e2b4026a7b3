//! Helpers the file tools share: path resolution, numbered lines, truncation.

use std::path::{Path, PathBuf};

use toolreg::permissions::path::resolve as resolve_path;
use toolreg::{ToolContext, ToolError};

/// Resolves a path from the model against the context's working directory (absolute paths stay
/// as they are).
pub(crate) fn resolve(ctx: &ToolContext<'_>, path: &str) -> PathBuf {
    ctx.resolve(Path::new(path))
}

/// The path the tool works on: the one the permission check approved
/// ([`ToolContext::checked_path`]), or outside dispatch `path` resolved as the kernel would open
/// it (links followed, `..` after a missing component refused). The file tools open it without
/// following links ([`crate::fs`]).
pub(crate) fn checked(ctx: &ToolContext<'_>, path: &str) -> Result<PathBuf, ToolError> {
    match ctx.checked_path() {
        Some(checked) => Ok(checked.to_path_buf()),
        None => resolve_path(&resolve(ctx, path)).map_err(|e| ToolError::new(e.to_string())),
    }
}

/// [`checked`] for a directory the tool walks (the working directory when none is given).
pub(crate) fn checked_dir(ctx: &ToolContext<'_>, path: Option<&str>) -> Result<PathBuf, ToolError> {
    match (ctx.checked_path(), path) {
        (Some(checked), _) => Ok(checked.to_path_buf()),
        (None, Some(path)) => checked(ctx, path),
        (None, None) => resolve_path(ctx.cwd).map_err(|e| ToolError::new(e.to_string())),
    }
}

/// One line in `cat -n` style: the 1-based number right-aligned in six columns, a tab, the text.
pub(crate) fn numbered(number: usize, text: &str) -> String {
    format!("{number:>6}\t{text}")
}

/// Cuts `text` to at most `max` characters; returns the kept prefix and whether anything was cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (text.get(..at).unwrap_or(text), true),
        None => (text, false),
    }
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

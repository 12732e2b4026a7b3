//! Glob: file paths matching a glob pattern, newest first.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use registry_core::{Tool, ToolContext, ToolError, tool};
use serde::{Deserialize, Serialize};

use crate::util::{modified, resolve, walker};

/// The most paths returned; a note says when there were more.
pub const MAX_RESULTS: usize = 100;

/// Fast file pattern matching that works with any codebase size.
///
/// - Supports glob patterns like `**/*.js` or `src/**/*.ts`; `*` stays within one directory, `**` crosses directories, `{a,b}` picks alternatives. A pattern without `/` matches file names at any depth (`*.rs` finds every Rust file).
/// - Searches `path` (default: the working directory), skipping what `.gitignore` files exclude and the `.git` directory.
/// - Returns matching file paths sorted by modification time, most recently modified first, at most 100; a note says when results were cut, then narrow the pattern or the path.
/// - Use it to find files by name. To search file contents, use Grep. For open-ended searches that need several rounds, use the Agent tool.
#[tool(
    name = "Glob",
    read_only,
    concurrency_safe,
    search_hint = "find files by name pattern or wildcard",
    max_result_size_chars = 100000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct GlobTool {
    /// The glob pattern to match files against.
    pub pattern: String,
    /// The directory to search in. Omit it to use the working directory (do not pass "undefined" or "null"). Must be an existing directory.
    pub path: Option<String>,
}

impl Tool for GlobTool {
    type Output = String;

    fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let (root, pattern) = split_pattern(ctx, self.path.as_deref(), &self.pattern);
        if !root.is_dir() {
            return Err(ToolError::new(format!(
                "{} does not exist or is not a directory",
                root.display()
            )));
        }
        let by_name = !pattern.contains('/');
        let matcher = GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| ToolError::new(format!("invalid glob pattern {pattern:?}: {e}")))?
            .compile_matcher();
        let mut found: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
        for entry in walker(&root).build() {
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            let Ok(relative) = path.strip_prefix(&root) else {
                continue;
            };
            let hit = if by_name {
                relative
                    .file_name()
                    .is_some_and(|name| matcher.is_match(name))
            } else {
                matcher.is_match(relative)
            };
            if hit {
                found.push((modified(path), path.to_path_buf()));
            }
        }
        if found.is_empty() {
            return Ok("No files found".to_owned());
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let total = found.len();
        let mut out: Vec<String> = found
            .into_iter()
            .take(MAX_RESULTS)
            .map(|(_, path)| path.display().to_string())
            .collect();
        if total > MAX_RESULTS {
            out.push(format!(
                "(Results are truncated: showing the {MAX_RESULTS} most recently modified of {total} files. Use a more specific path or pattern.)"
            ));
        }
        Ok(out.join("\n"))
    }
}

/// The directory to walk and the pattern relative to it. An absolute pattern without `path`
/// (`/repo/src/**/*.rs`) is split at its first component with a glob character.
fn split_pattern(ctx: &ToolContext<'_>, path: Option<&str>, pattern: &str) -> (PathBuf, String) {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if let Some(path) = path {
        return (resolve(ctx, path), pattern.to_owned());
    }
    let as_path = Path::new(pattern);
    if !as_path.is_absolute() {
        return (ctx.cwd.to_path_buf(), pattern.to_owned());
    }
    let mut root = PathBuf::new();
    let mut rest = Vec::new();
    for component in as_path.components() {
        let text = component.as_os_str().to_string_lossy();
        if rest.is_empty() && !text.contains(['*', '?', '[', '{']) {
            root.push(component);
        } else {
            rest.push(text.into_owned());
        }
    }
    // A pattern without glob characters names a file (`/repo/Cargo.toml`): match its name.
    if rest.is_empty() {
        if let Some(name) = root.file_name().map(|n| n.to_string_lossy().into_owned()) {
            root.pop();
            rest.push(name);
        }
    }
    (root, rest.join("/"))
}

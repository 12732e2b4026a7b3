//! Glob: file paths matching a glob pattern, newest first.
//!
//! The walk goes from descriptors (module `walk`): the checked root is opened without
//! following links and every directory below it relative to its parent, so a directory
//! swapped for a link during the walk is skipped (and counted in a note) instead of listing
//! what the link names. What the deny path rules of `Read` (and Glob) cover is left out, and
//! what their ask rules cover unless nothing asks (bypass mode) or the call was asked about
//! the searched directory itself
//! ([`PermissionContext::walk_guard`](toolreg::PermissionContext::walk_guard)). Modification
//! times are read from the directory listed, not looked up again by path.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use globset::GlobBuilder;
use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::permissions::path::{check_glob_nesting, resolve as resolve_path};
use toolreg::{Tool, ToolContext, ToolError, tool};

use crate::profile::names::{GLOB, READ};
use crate::util::resolve;
use crate::walk::{self, Filters, Opened, Walk};

/// The most paths returned; a note says when there were more.
pub const MAX_RESULTS: usize = 100;

/// Fast file pattern matching that works with any codebase size.
///
/// - Supports glob patterns like `**/*.js` or `src/**/*.ts`; `*` stays within one directory, `**` crosses directories, `{a,b}` picks alternatives. A pattern without `/` matches file names at any depth (`*.rs` finds every Rust file).
/// - Searches `path` (default: the working directory), skipping what `.gitignore` files exclude and the `.git` directory.
/// - Returns matching file paths sorted by modification time, most recently modified first, at most 100; a note says when results were cut, then narrow the pattern or the path.
/// - Use it to find files by name. To search file contents, use Grep. For open-ended searches that need several rounds, use the Agent tool.
#[tool(
    strict,
    name = "Glob",
    read_only,
    concurrency_safe,
    search_hint = "find files by name pattern or wildcard",
    max_result_size_chars = 100000,
    input_examples = [
        r#"{"pattern": "**/*.rs"}"#,
        r#"{"pattern": "src/**/*.{ts,tsx}", "path": "/home/user/project"}"#,
    ]
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

    /// The directory searched: `Read` path rules (and Glob's own) apply to it.
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        let (root, _, _) = split_pattern(ctx, self.path.as_deref(), &self.pattern);
        Some(Subject::read(root).also_governed_by(&[READ]))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let (root, pattern, anchored) = split_pattern(ctx, self.path.as_deref(), &self.pattern);
        let root = match ctx.checked_path() {
            Some(checked) => checked.to_path_buf(),
            None => resolve_path(&root).map_err(|e| ToolError::new(e.to_string()))?,
        };
        check_glob_nesting(&pattern)
            .map_err(|why| ToolError::new(format!("glob pattern {pattern:?} refused: {why}")))?;
        if !root.is_dir() {
            return Err(ToolError::new(format!(
                "{} does not exist or is not a directory",
                root.display()
            )));
        }
        // A bare relative pattern (`*.rs`) matches names at any depth; an absolute one
        // (`/repo/src/*.rs`) or one with a `/` is anchored at its directory.
        let by_name = !anchored && !pattern.contains('/');
        let matcher = GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| ToolError::new(format!("invalid glob pattern {pattern:?}: {e}")))?
            .compile_matcher();
        // The newest MAX_RESULTS, kept in a heap whose top is the one to drop next, so a tree
        // of any size costs MAX_RESULTS entries of memory.
        let mut newest: BinaryHeap<Newest> = BinaryHeap::new();
        let mut total = 0usize;
        let guard = ctx.walk_guard(GLOB, &[READ], &root);
        let Opened::Dir(tree) = walk::open(&root, &guard)? else {
            return Err(ToolError::new(format!(
                "{} does not exist or is not a directory",
                root.display()
            )));
        };
        let mut walk = Walk::new(guard, Filters::default());
        walk.run(tree, |found| {
            let Ok(relative) = found.path.strip_prefix(&root) else {
                return ControlFlow::Continue(());
            };
            let hit = if by_name {
                relative
                    .file_name()
                    .is_some_and(|name| matcher.is_match(name))
            } else {
                matcher.is_match(relative)
            };
            if hit {
                total += 1;
                newest.push(Newest(found.modified(), found.path.to_path_buf()));
                if newest.len() > MAX_RESULTS {
                    newest.pop();
                }
            }
            ControlFlow::Continue(())
        });
        let skipped = walk.skipped();
        let note = (skipped > 0).then(|| {
            format!(
                "({skipped} director{} or file{} changed during the walk or could not be opened and were skipped.)",
                if skipped == 1 { "y" } else { "ies" },
                if skipped == 1 { "" } else { "s" },
            )
        });
        if newest.is_empty() {
            return Ok(match note {
                Some(note) => format!("No files found\n\n{note}"),
                None => "No files found".to_owned(),
            });
        }
        let mut out: Vec<String> = newest
            .into_sorted_vec()
            .into_iter()
            .map(|Newest(_, path)| path.display().to_string())
            .collect();
        if total > MAX_RESULTS {
            out.push(format!(
                "(Results are truncated: showing the {MAX_RESULTS} most recently modified of {total} files. Use a more specific path or pattern.)"
            ));
        }
        out.extend(note);
        Ok(out.join("\n"))
    }
}

/// A match, ordered so that the newest file (then the first path) is the least: a max-heap of
/// these pops the entry that would be shown last.
#[derive(PartialEq, Eq)]
struct Newest(SystemTime, PathBuf);

impl Ord for Newest {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.cmp(&self.0).then_with(|| self.1.cmp(&other.1))
    }
}

impl PartialOrd for Newest {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The directory to walk, the pattern relative to it, and whether the pattern is anchored at
/// it (it was absolute). An absolute pattern without `path` (`/repo/src/**/*.rs`) is split at
/// its first component with a glob character.
fn split_pattern(
    ctx: &ToolContext<'_>,
    path: Option<&str>,
    pattern: &str,
) -> (PathBuf, String, bool) {
    // `./` makes a pattern relative, whatever slashes follow it: `.//src/*.rs` is `src/*.rs`
    // (as in a shell), not the absolute `/src/*.rs`.
    let mut pattern = pattern;
    while let Some(rest) = pattern.strip_prefix("./") {
        pattern = rest.trim_start_matches('/');
    }
    if let Some(path) = path {
        return (resolve(ctx, path), pattern.to_owned(), false);
    }
    let as_path = Path::new(pattern);
    if !as_path.is_absolute() {
        return (ctx.cwd.to_path_buf(), pattern.to_owned(), false);
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
    if rest.is_empty()
        && let Some(name) = root.file_name().map(|n| n.to_string_lossy().into_owned())
    {
        root.pop();
        rest.push(name);
    }
    (root, rest.join("/"), true)
}

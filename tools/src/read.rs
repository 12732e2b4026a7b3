//! Read: a file's lines, numbered like `cat -n`.

use std::fs::File;
use std::io::{BufRead as _, BufReader};
use std::path::Path;

use registry_core::{Tool, ToolContext, ToolError, tool};
use serde::{Deserialize, Serialize};

use crate::util::{cut_chars, missing, numbered, resolve};

/// Lines returned when the input gives no `limit`.
pub const DEFAULT_LIMIT: usize = 2000;
/// Characters kept of one line; the rest is cut with a marker.
pub const MAX_LINE_CHARS: usize = 2000;

/// Reads a file from the local filesystem and returns its lines numbered like `cat -n`: the 1-based line number right-aligned in six columns, a tab, then the line.
///
/// - `file_path` should be an absolute path; a relative one is taken from the working directory.
/// - By default up to 2000 lines are read from the start of the file. For long files, pass `offset` (the 1-based line to start at) and `limit` (how many lines) to read a part; a note at the end says when more lines follow.
/// - Lines longer than 2000 characters are cut.
/// - Images (PNG, JPEG, GIF, WebP) and PDF documents are not text: the result says what the file is instead of returning its bytes. Other binary files are reported the same way.
/// - A missing file or a directory is an error; list directories with Glob or Bash `ls`.
/// - Reading is cheap and has no side effects: read several files in parallel when you need them, and always read a file before editing it.
#[tool(
    name = "Read",
    read_only,
    concurrency_safe,
    search_hint = "view file contents, images, PDFs, notebooks"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReadTool {
    /// The absolute path to the file to read.
    pub file_path: String,
    /// The 1-based line number to start reading from. Only provide it when the file is too large to read at once.
    pub offset: Option<usize>,
    /// The number of lines to read (default 2000). Only provide it when the file is too large to read at once.
    pub limit: Option<usize>,
}

impl Tool for ReadTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if self.limit == Some(0) {
            return Err(ToolError::new("`limit` must be at least 1"));
        }
        Ok(())
    }

    fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = resolve(ctx, &self.file_path);
        let metadata = match std::fs::metadata(&path) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing(&path)),
            Err(e) => {
                return Err(ToolError::new(format!(
                    "could not read {}: {e}",
                    path.display()
                )));
            }
        };
        if metadata.is_dir() {
            return Err(ToolError::new(format!(
                "{} is a directory, not a file; list it with Glob or with Bash `ls`",
                path.display()
            )));
        }
        if let Some(kind) = non_text_kind(&path) {
            return Ok(format!(
                "{} is {kind} ({} bytes), not text; this tool returns text only, so its content is not shown.",
                path.display(),
                metadata.len()
            ));
        }
        let file = File::open(&path)
            .map_err(|e| ToolError::new(format!("could not open {}: {e}", path.display())))?;
        let mut reader = BufReader::new(file);
        if looks_binary(&mut reader)? {
            return Ok(format!(
                "{} is a binary file ({} bytes), not text; its content is not shown.",
                path.display(),
                metadata.len()
            ));
        }
        read_lines(
            &path,
            reader,
            self.offset.unwrap_or(1).max(1),
            self.limit.unwrap_or(DEFAULT_LIMIT),
        )
    }
}

/// Images and PDFs, by extension.
fn non_text_kind(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "a PNG image",
        "jpg" | "jpeg" => "a JPEG image",
        "gif" => "a GIF image",
        "webp" => "a WebP image",
        "pdf" => "a PDF document",
        _ => return None,
    })
}

/// A NUL byte in the first 8 KiB marks a binary file (as git and ripgrep decide).
fn looks_binary(reader: &mut BufReader<File>) -> Result<bool, ToolError> {
    let head = reader
        .fill_buf()
        .map_err(|e| ToolError::new(format!("could not read the file: {e}")))?;
    Ok(head.iter().take(8192).any(|&b| b == 0))
}

fn read_lines(
    path: &Path,
    mut reader: BufReader<File>,
    offset: usize,
    limit: usize,
) -> Result<String, ToolError> {
    let mut out = String::new();
    let mut line = Vec::new();
    let mut number = 0usize;
    let mut last_shown = 0usize;
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| ToolError::new(format!("could not read {}: {e}", path.display())))?;
        if read == 0 {
            break;
        }
        number += 1;
        if number < offset || number >= offset.saturating_add(limit) {
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches('\n').trim_end_matches('\r');
        let (kept, cut) = cut_chars(text, MAX_LINE_CHARS);
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&numbered(number, kept));
        if cut {
            out.push_str(" [... line truncated]");
        }
        last_shown = number;
    }
    let total = number;
    if total == 0 {
        return Ok(format!(
            "(The file {} exists but is empty.)",
            path.display()
        ));
    }
    if offset > total {
        return Ok(format!(
            "(The file {} has {total} lines, fewer than the requested offset {offset}.)",
            path.display()
        ));
    }
    if last_shown < total {
        out.push_str(&format!(
            "\n\n(Showing lines {offset}-{last_shown} of {total}. Pass offset={} to read on.)",
            last_shown + 1
        ));
    }
    Ok(out)
}

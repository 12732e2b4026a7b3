//! Read: a file's lines, numbered like `cat -n`.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::{Tool, ToolContext, ToolError, tool};

use crate::fs::open_regular;
use crate::util::{checked, cut_chars, numbered, resolve};

/// Lines returned when the input gives no `limit`.
pub const DEFAULT_LIMIT: usize = 2000;
/// Characters kept of one line; the rest is cut with a marker.
pub const MAX_LINE_CHARS: usize = 2000;
/// Bytes of one line held in memory: enough for [`MAX_LINE_CHARS`] characters of any width.
const MAX_LINE_BYTES: usize = MAX_LINE_CHARS * 4;
/// The most output one call returns, in bytes: 256 KiB; a note says where to go on from.
pub const MAX_OUTPUT_BYTES: usize = 256 * 1024;
/// The most of a file one call reads, in bytes: 1 GiB. Past it lines are not counted, and a
/// line that starts past it cannot be shown.
pub const MAX_SCAN_BYTES: u64 = 1024 * 1024 * 1024;

/// Reads a file from the local filesystem and returns its lines numbered like `cat -n`: the 1-based line number right-aligned in six columns, a tab, then the line.
///
/// - `file_path` should be an absolute path; a relative one is taken from the working directory.
/// - By default up to 2000 lines are read from the start of the file. For long files, pass `offset` (the 1-based line to start at) and `limit` (how many lines) to read a part; a note at the end says when more lines follow.
/// - Lines longer than 2000 characters are cut. One call returns at most 256 KiB and reads at most 1 GiB of the file; a note says how to read on.
/// - Images (PNG, JPEG, GIF, WebP) and PDF documents are not text: the result says what the file is instead of returning its bytes. Other binary files are reported the same way.
/// - A missing file, a directory, or anything else that is not a regular file (a FIFO, a device, a socket) is an error; list directories with Glob or Bash `ls`.
/// - Reading is cheap and has no side effects: read several files in parallel when you need them, and always read a file before editing it.
#[tool(
    strict,
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

    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::read(resolve(ctx, &self.file_path)))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = checked(ctx, &self.file_path)?;
        let (file, size) = open_regular(&path)?;
        if let Some(kind) = non_text_kind(&path) {
            return Ok(format!(
                "{} is {kind} ({} bytes), not text; this tool returns text only, so its content is not shown.",
                path.display(),
                size
            ));
        }
        let mut reader = BufReader::new(file);
        if looks_binary(&mut reader)? {
            return Ok(format!(
                "{} is a binary file ({} bytes), not text; its content is not shown.",
                path.display(),
                size
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

/// Reads the next line into `line`, keeping at most `keep` bytes of it (the rest is read and
/// dropped, so a line of any length costs `keep` bytes of memory). Returns the line's length in
/// bytes, its `\n` included, and 0 at the end of the file.
fn next_line(reader: &mut impl BufRead, line: &mut Vec<u8>, keep: usize) -> io::Result<u64> {
    line.clear();
    let mut length = 0u64;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(length);
        }
        let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (chunk.get(..=end).unwrap_or(chunk), true),
            None => (chunk, false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(taken.get(..room.min(taken.len())).unwrap_or_default());
        let used = taken.len();
        length += used as u64;
        reader.consume(used);
        if done {
            return Ok(length);
        }
    }
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
    let mut scanned = 0u64;
    let end = offset.saturating_add(limit);
    let mut stopped = None;
    loop {
        let shown = number + 1 >= offset && number + 1 < end;
        let read = next_line(
            &mut reader,
            &mut line,
            if shown { MAX_LINE_BYTES } else { 0 },
        )
        .map_err(|e| ToolError::new(format!("could not read {}: {e}", path.display())))?;
        if read == 0 {
            break;
        }
        number += 1;
        scanned += read;
        if shown {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches('\n').trim_end_matches('\r');
            let (kept, cut) = cut_chars(text, MAX_LINE_CHARS);
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&numbered(number, kept));
            if cut || read > line.len() as u64 {
                out.push_str(" [... line truncated]");
            }
            last_shown = number;
            if out.len() >= MAX_OUTPUT_BYTES {
                stopped = Some(Stop::Output);
                break;
            }
        }
        if scanned >= MAX_SCAN_BYTES {
            let at_end = reader.fill_buf().is_ok_and(<[u8]>::is_empty);
            if !at_end {
                stopped = Some(Stop::Scan);
            }
            break;
        }
    }
    let total = number;
    if total == 0 {
        return Ok(format!(
            "(The file {} exists but is empty.)",
            path.display()
        ));
    }
    let counted = !matches!(stopped, Some(Stop::Scan));
    if offset > total && counted {
        return Ok(format!(
            "(The file {} has {total} lines, fewer than the requested offset {offset}.)",
            path.display()
        ));
    }
    if offset > total {
        return Ok(format!(
            "(The file {} has more than {MAX_SCAN_BYTES} bytes before line {offset}; this tool reads at most that much of a file, so it cannot show that line. Use Bash `sed -n` or `tail` for it.)",
            path.display()
        ));
    }
    match stopped {
        Some(Stop::Output) => out.push_str(&format!(
            "\n\n(Showing lines {offset}-{last_shown}: the output reached its {MAX_OUTPUT_BYTES}-byte limit. Pass offset={} to read on.)",
            last_shown + 1
        )),
        Some(Stop::Scan) => out.push_str(&format!(
            "\n\n(Showing lines {offset}-{last_shown}. This tool reads at most {MAX_SCAN_BYTES} bytes of a file, so the lines after {total} were not counted. Pass offset={} to read on.)",
            last_shown + 1
        )),
        None if last_shown < total => out.push_str(&format!(
            "\n\n(Showing lines {offset}-{last_shown} of {total}. Pass offset={} to read on.)",
            last_shown + 1
        )),
        None => {}
    }
    Ok(out)
}

/// Why reading stopped before the end of the file.
#[derive(Clone, Copy)]
enum Stop {
    /// The output reached [`MAX_OUTPUT_BYTES`].
    Output,
    /// [`MAX_SCAN_BYTES`] of the file were read.
    Scan,
}

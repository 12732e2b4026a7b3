//! Grep: regex search over file contents, on ripgrep's own libraries.
//!
//! The search walks from descriptors (module `walk`): the checked root is opened without
//! following links, every directory and file below it relative to its parent, so a directory
//! swapped for a link during the search is skipped instead of leading into what the link
//! names. What the deny path rules of `Read` (and Grep) cover is left out, and what their ask
//! rules cover unless nothing asks (bypass mode) or the call was asked about the searched
//! directory itself ([`PermissionContext::walk_guard`](toolreg::PermissionContext::walk_guard)).

use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use serde::{Deserialize, Serialize};
use toolreg::permissions::Subject;
use toolreg::permissions::path::check_glob_nesting;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

use crate::profile::names::{GREP, READ};
use crate::util::{checked_dir, resolve};
use crate::walk::{self, Filters, Opened, Walk};

/// Lines or entries returned when the input gives no `head_limit`.
pub const DEFAULT_HEAD_LIMIT: usize = 250;
/// Bytes of content-mode output collected before the search stops (1 MiB, far above what the
/// result keeps); each line is also cut to Read's 2,000 characters.
pub const MAX_COLLECT_BYTES: usize = 1024 * 1024;
/// The most memory the searcher may use for one line (or, in multiline mode, one file): 64 MiB.
/// A file that needs more is skipped, and the result says how many were.
pub const MAX_SEARCH_HEAP_BYTES: usize = 64 * 1024 * 1024;
/// The most memory the compiled pattern may take (10 MiB, the regex crate's own default; the
/// grep libraries allow 100 MiB): a pattern past it (`a{1000000}`) is refused before the search.
pub const MAX_REGEX_BYTES: usize = 10 * 1024 * 1024;
/// How deep groups and repetitions may nest in a pattern (the grep libraries allow 250). The
/// regex compiler recurses once per level, and 80 nested repetitions (`a` and 80 `*`) already
/// overflow a 2 MiB thread stack in a debug build: an abort no `catch_unwind` stops.
pub const MAX_REGEX_NESTING: u32 = 32;
/// The cache of the lazy DFA that runs the pattern (10 MiB; the grep libraries allow 1,000
/// MiB): past it the cache is cleared and the search goes on more slowly.
pub const MAX_REGEX_CACHE_BYTES: usize = 10 * 1024 * 1024;

/// A powerful search tool built on ripgrep's libraries.
///
/// - ALWAYS use Grep for content searches; never run `grep` or `rg` through Bash.
/// - Full regex syntax (`log.*Error`, `function\s+\w+`). Literal braces need escaping: `interface\{\}` finds `interface{}` in Go code.
/// - Filter files with `glob` (`*.js`, `**/*.{ts,tsx}`) or `type` (`js`, `py`, `rust`: ripgrep's file types, more efficient than a glob for standard types). Files that `.gitignore` excludes and binary files are skipped.
/// - `output_mode`: `files_with_matches` (the default) lists the matching files, most recently modified first; `content` shows the matching lines as `path:line:text` (context lines as `path-line-text`, groups separated by `--`), with `-n`, `-A`, `-B`, `-C`; `count` shows `path:count` per file.
/// - Patterns match within one line. For patterns that span lines (`struct \{[\s\S]*?field`), set `multiline: true`, where `.` also matches newlines.
/// - `head_limit` keeps the first N lines or entries, like `| head -N`; it defaults to 250, and 0 means no limit. A note says when results were cut.
/// - For open-ended searches that need several rounds, use the Agent tool.
#[tool(
    strict,
    name = "Grep",
    read_only,
    concurrency_safe,
    search_hint = "search file contents with regex (ripgrep)",
    max_result_size_chars = 20000,
    input_examples = [
        r#"{"pattern": "fn\\s+\\w+_test", "type": "rust", "output_mode": "content", "-n": true, "-C": 2}"#,
        r#"{"pattern": "TODO|FIXME", "glob": "*.{ts,tsx}", "output_mode": "count"}"#,
        r#"{"pattern": "interface\\{\\}", "path": "src", "head_limit": 20}"#,
    ]
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct GrepTool {
    /// The regular expression to search for in file contents.
    pub pattern: String,
    /// The file or directory to search in (rg PATH). Defaults to the working directory.
    pub path: Option<String>,
    /// A glob that files must match (e.g. "*.js", "*.{ts,tsx}"); maps to rg --glob.
    pub glob: Option<String>,
    /// A file type to search (rg --type), e.g. js, py, rust, go, java.
    #[serde(rename = "type")]
    pub file_type: Option<String>,
    /// Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit); "files_with_matches" shows file paths (supports head_limit); "count" shows match counts (supports head_limit). Defaults to "files_with_matches".
    pub output_mode: Option<OutputMode>,
    /// Case-insensitive search (rg -i).
    #[serde(rename = "-i")]
    pub case_insensitive: Option<bool>,
    /// Show line numbers in output (rg -n). Requires output_mode "content", ignored otherwise. Defaults to true.
    #[serde(rename = "-n")]
    pub line_numbers: Option<bool>,
    /// Number of lines to show after each match (rg -A). Requires output_mode "content", ignored otherwise.
    #[serde(rename = "-A")]
    pub after: Option<usize>,
    /// Number of lines to show before each match (rg -B). Requires output_mode "content", ignored otherwise.
    #[serde(rename = "-B")]
    pub before: Option<usize>,
    /// Number of lines to show before and after each match (rg -C). Requires output_mode "content", ignored otherwise.
    #[serde(rename = "-C")]
    pub context: Option<usize>,
    /// Enable multiline mode, where patterns can span lines and . matches newlines (rg -U --multiline-dotall). Default false.
    pub multiline: Option<bool>,
    /// Limit output to the first N lines (content) or entries (files_with_matches, count), like "| head -N". Defaults to 250; 0 means unlimited.
    pub head_limit: Option<usize>,
}

/// What Grep reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// The matching lines, with optional context.
    Content,
    /// The paths of the files that match.
    FilesWithMatches,
    /// The number of matching lines per file.
    Count,
}

impl Tool for GrepTool {
    type Output = String;

    /// The file or directory searched: `Read` path rules (and Grep's own) apply to it.
    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        let root = match &self.path {
            Some(path) => resolve(ctx, path),
            None => ctx.cwd.to_path_buf(),
        };
        Some(Subject::read(root).also_governed_by(&[READ]))
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let root = checked_dir(ctx, self.path.as_deref())?;
        if !root.exists() {
            return Err(ToolError::new(format!(
                "Path does not exist: {}",
                root.display()
            )));
        }
        let mode = self.output_mode.unwrap_or(OutputMode::FilesWithMatches);
        let multiline = self.multiline.unwrap_or(false);
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(self.case_insensitive.unwrap_or(false))
            .multi_line(multiline)
            .dot_matches_new_line(multiline)
            .line_terminator((!multiline).then_some(b'\n'))
            .nest_limit(MAX_REGEX_NESTING)
            .size_limit(MAX_REGEX_BYTES)
            .dfa_size_limit(MAX_REGEX_CACHE_BYTES)
            .build(&self.pattern)
            .map_err(|e| ToolError::new(format!("invalid regex {:?}: {e}", self.pattern)))?;
        let mut searcher = SearcherBuilder::new();
        searcher
            .line_number(true)
            .multi_line(multiline)
            .binary_detection(BinaryDetection::quit(b'\x00'))
            .heap_limit(Some(MAX_SEARCH_HEAP_BYTES));
        let context = mode == OutputMode::Content;
        if context {
            searcher
                .before_context(self.before.or(self.context).unwrap_or(0))
                .after_context(self.after.or(self.context).unwrap_or(0));
        }
        let mut searcher = searcher.build();
        let limit = match self.head_limit {
            Some(0) => usize::MAX,
            Some(n) => n,
            None => DEFAULT_HEAD_LIMIT,
        };
        let mut results = Results {
            mode,
            line_numbers: self.line_numbers.unwrap_or(true),
            separate_files: context && self.before.or(self.after).or(self.context).unwrap_or(0) > 0,
            limit,
            lines: Vec::new(),
            collected: 0,
            files: Vec::new(),
            total: 0,
            full: false,
            skipped: 0,
        };
        let guard = ctx.walk_guard(GREP, &[READ], &root);
        match walk::open(&root, &guard)? {
            // A file named as the root is searched whatever the filters say, as ripgrep does.
            Opened::File(file, stat) => {
                search(&mut searcher, &matcher, &root, &file, &stat, &mut results);
            }
            Opened::Dir(tree) => {
                let mut walk = Walk::new(guard, self.filters(&root)?);
                walk.run(tree, |found| {
                    match found.open() {
                        Some((file, stat)) => search(
                            &mut searcher,
                            &matcher,
                            found.path,
                            &file,
                            &stat,
                            &mut results,
                        ),
                        // Changed since it was listed: skipped, and counted for the note.
                        None => results.skipped += 1,
                    }
                    if results.full {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                results.skipped += walk.skipped();
            }
        }
        Ok(results.render())
    }
}

/// Searches one open file, adding what it finds to `results`. An unreadable file is skipped,
/// as ripgrep skips it, and counted for the note.
fn search(
    searcher: &mut Searcher,
    matcher: &grep_regex::RegexMatcher,
    path: &Path,
    file: &std::fs::File,
    stat: &rustix::fs::Stat,
    results: &mut Results,
) {
    let mut sink = FileSink {
        path,
        out: results,
        count: 0,
        started: false,
    };
    let failed = searcher.search_file(matcher, file, &mut sink).is_err();
    let count = sink.count;
    results.skipped += usize::from(failed);
    if count > 0 && results.mode != OutputMode::Content {
        results
            .files
            .push((path.to_path_buf(), count, walk::modified(stat)));
        results.total += count;
    }
}

impl GrepTool {
    /// The `glob` and `type` filters of the walk under `root`.
    fn filters(&self, root: &Path) -> Result<Filters, ToolError> {
        let mut filters = Filters::default();
        if let Some(glob) = &self.glob {
            check_glob_nesting(glob)
                .map_err(|why| ToolError::new(format!("glob {glob:?} refused: {why}")))?;
            let mut overrides = OverrideBuilder::new(root);
            overrides
                .add(glob)
                .map_err(|e| ToolError::new(format!("invalid glob {glob:?}: {e}")))?;
            filters.overrides = Some(
                overrides
                    .build()
                    .map_err(|e| ToolError::new(format!("invalid glob {glob:?}: {e}")))?,
            );
        }
        if let Some(file_type) = &self.file_type {
            let mut types = TypesBuilder::new();
            types.add_defaults();
            types.select(file_type);
            filters.types = Some(types.build().map_err(|e| {
                ToolError::new(format!(
                    "unknown file type {file_type:?} ({e}); use a ripgrep type such as js, py, rust, go or java, or a glob"
                ))
            })?);
        }
        Ok(filters)
    }
}

/// What the search found, across files.
struct Results {
    mode: OutputMode,
    line_numbers: bool,
    /// Put `--` between files' groups (context output, like ripgrep).
    separate_files: bool,
    limit: usize,
    /// Content mode: the output lines.
    lines: Vec<String>,
    /// Their bytes, for [`MAX_COLLECT_BYTES`].
    collected: usize,
    /// Other modes: each matching file, its count of matching lines, and its modification
    /// time (read from the open file).
    files: Vec<(PathBuf, u64, SystemTime)>,
    total: u64,
    /// The limit was reached: stop searching.
    full: bool,
    /// Files that could not be read or searched.
    skipped: usize,
}

impl Results {
    fn push_line(&mut self, line: String) {
        if self.lines.len() >= self.limit || self.collected >= MAX_COLLECT_BYTES {
            self.full = true;
            return;
        }
        self.collected += line.len() + 1;
        self.lines.push(line);
    }

    fn render(self) -> String {
        let skipped = self.skipped;
        let mut text = self.render_results();
        if skipped > 0 {
            text.push_str(&format!(
                "\n\n({skipped} file{} could not be read or searched and were skipped.)",
                plural(skipped as u64)
            ));
        }
        text
    }

    fn render_results(mut self) -> String {
        match self.mode {
            OutputMode::Content => {
                if self.lines.is_empty() {
                    return "No matches found".to_owned();
                }
                let mut text = self.lines.join("\n");
                if self.full {
                    text.push_str(&format!(
                        "\n\n(Results are truncated to the first {} lines; raise head_limit or narrow the search.)",
                        self.lines.len()
                    ));
                }
                text
            }
            OutputMode::FilesWithMatches => {
                if self.files.is_empty() {
                    return "No files found".to_owned();
                }
                let mut files: Vec<(SystemTime, PathBuf)> = self
                    .files
                    .drain(..)
                    .map(|(path, _, modified)| (modified, path))
                    .collect();
                files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
                let shown = files.len().min(self.limit);
                let mut text = format!("Found {} file{}", shown, plural(shown as u64));
                for (_, path) in files.iter().take(shown) {
                    text.push('\n');
                    text.push_str(&path.display().to_string());
                }
                if self.full || files.len() > shown {
                    text.push_str(&format!(
                        "\n\n(Results are truncated to the first {} files; raise head_limit or narrow the search.)",
                        self.limit
                    ));
                }
                text
            }
            OutputMode::Count => {
                if self.files.is_empty() {
                    return "No matches found".to_owned();
                }
                let shown = self.files.len().min(self.limit);
                let mut text: Vec<String> = self
                    .files
                    .iter()
                    .take(shown)
                    .map(|(path, count, _)| format!("{}:{count}", path.display()))
                    .collect();
                text.push(String::new());
                text.push(format!(
                    "Found {} total match{} across {} file{}.",
                    self.total,
                    if self.total == 1 { "" } else { "es" },
                    self.files.len(),
                    plural(self.files.len() as u64)
                ));
                if self.full || self.files.len() > shown {
                    text.push(format!(
                        "(Results are truncated to the first {} files; raise head_limit or narrow the search.)",
                        self.limit
                    ));
                }
                text.join("\n")
            }
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Receives one file's matches from the searcher.
struct FileSink<'a> {
    path: &'a Path,
    out: &'a mut Results,
    /// Matching lines in this file.
    count: u64,
    /// Whether this file has written output lines yet (for the `--` between files).
    started: bool,
}

impl FileSink<'_> {
    fn line(&mut self, separator: char, number: Option<u64>, bytes: &[u8]) {
        if !self.started {
            self.started = true;
            if self.out.separate_files && !self.out.lines.is_empty() {
                self.out.push_line("--".to_owned());
            }
        }
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches('\n').trim_end_matches('\r');
        let (text, cut) = crate::util::cut_chars(text, crate::read::MAX_LINE_CHARS);
        let text = if cut {
            format!("{text} [... line truncated]")
        } else {
            text.to_owned()
        };
        let line = match (self.out.line_numbers, number) {
            (true, Some(n)) => format!("{}{separator}{n}{separator}{text}", self.path.display()),
            _ => format!("{}{separator}{text}", self.path.display()),
        };
        self.out.push_line(line);
    }
}

impl Sink for FileSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        let lines = mat.lines().count().max(1) as u64;
        self.count += lines;
        match self.out.mode {
            OutputMode::FilesWithMatches => Ok(false),
            OutputMode::Count => Ok(true),
            OutputMode::Content => {
                let first = mat.line_number();
                for (i, line) in mat.lines().enumerate() {
                    self.line(':', first.map(|n| n + i as u64), line);
                }
                Ok(!self.out.full)
            }
        }
    }

    fn context(&mut self, _: &Searcher, context: &SinkContext<'_>) -> Result<bool, io::Error> {
        self.line('-', context.line_number(), context.bytes());
        Ok(!self.out.full)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, io::Error> {
        self.out.push_line("--".to_owned());
        Ok(!self.out.full)
    }
}

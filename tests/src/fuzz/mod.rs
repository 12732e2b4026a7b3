//! Fuzz harnesses: each `pub fn <target>(data: &[u8])` turns the fuzzer's bytes into inputs of
//! one part of the registry, runs it, and panics when a property it asserts does not hold.
//!
//! They never return errors: input that cannot be used (not JSON where JSON is wanted, a Glob
//! over `/`) is skipped. Run them with cargo-fuzz from `fuzz/` (see `RELIABILITY.md`), or over
//! the committed corpora with `cargo test -p toolreg-tests --test end_to_end fuzz_corpus::`.
//!
//! The bytes are read through [`Gen`], a thin layer over [`arbitrary::Unstructured`] that
//! picks from vocabularies built to reach the interesting cases (names that clash after
//! normalization, names over 64 characters, Unicode whose lower case changes length, control
//! characters, `select:` lists, `+required` terms) more often than uniform bytes would.
//! Random pools are built in `pool`; the `dispatch` target's scratch directory and rules are
//! in `scratch`, its schema-shaped inputs in `input`.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use arbitrary::Unstructured;
use toolreg::{Catalog, ToolInfo};

mod dispatch;
mod input;
mod mcp_ingest;
mod pool;
pub mod read_only;
mod render;
mod rules;
mod scratch;
mod search;
pub mod shell;

pub(crate) use pool::random_pool;

pub use dispatch::dispatch;
pub use mcp_ingest::mcp_ingest;
pub use render::render;
pub use rules::rules;
pub use search::search;
pub use shell::shell;

/// This build's built-in catalog, built once per process.
pub(crate) fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| match toolreg_tools::catalog() {
        Ok(catalog) => catalog,
        Err(clash) => panic!("two built-ins share a name: {clash}"),
    })
}

/// The built-ins' names and aliases, for queries and rules that name real tools.
pub(crate) fn builtin_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = Vec::new();
        for tool in catalog().tools() {
            names.push(tool.name);
            names.extend(tool.aliases.iter().copied());
        }
        names
    })
}

/// Pieces of text the generators glue together.
#[rustfmt::skip]
pub(crate) const FRAGMENTS: &[&str] = &[
    "read", "file", "files", "search", "slack", "send", "message", "notebook", "jupyter", "git",
    "commit", "web", "fetch", "task", "todo", "mcp__", "__", "_", "-", ".", " ", "  ", "\t", "\n",
    "\r\n", "+", "++", "select:", "SELECT:", "Select: ", ",", ", ", "*", "**", ":*", "(", ")",
    "\\", "\\(", "\\)", "/", "//", "..", "../", "./", "~", "~/", "$", "${X}", "$(x)", "`", "'",
    "\"", ";", "&&", "|", ">", "<", "#", "=", "é", "日本語", "İ", "ẞ", "Σ", "ǅ", "\u{212a}", "\u{0}",
    "\u{7}", "\u{1b}", "\u{7f}", "\u{85}", "\u{a0}", "\u{2028}", "\u{feff}", "\u{200b}", "🦀",
    "a", "Z", "0", "9", "x",
];

/// MCP server names: some clash after normalization, one is empty, one is long.
#[rustfmt::skip]
pub(crate) const SERVER_NAMES: &[&str] = &[
    "srv", "my server", "my_server", "my.server", "sérvér", "", "a__b", "github", "slack",
    "mcp__x", "a-very-long-server-name-that-pushes-every-tool-name-over-the-limit",
];

/// MCP tool names: clashes after normalization, case variants, built-in names, Unicode.
#[rustfmt::skip]
pub(crate) const TOOL_NAMES: &[&str] = &[
    "send_message", "send.message", "send-message", "send message", "sendMessage", "SEND_MESSAGE",
    "read_file", "search", "get", "Read", "ToolSearch", "日本語ツール", "tool\u{0}nul", "x",
    "list_pull_requests_with_a_name_long_enough_to_be_cut_at_fifty_five_characters",
];

/// Reads structured choices from fuzzer bytes; reads past the end give zeros.
pub struct Gen<'a> {
    u: Unstructured<'a>,
}

impl<'a> Gen<'a> {
    /// Reads from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Gen {
            u: Unstructured::new(data),
        }
    }

    /// Whether bytes are left.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    /// A byte.
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or_default()
    }

    /// A number in `0..n` (`0` when `n` is `0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or_default()
    }

    /// True about `num` times in `den`.
    pub fn chance(&mut self, num: u8, den: u8) -> bool {
        self.u.ratio(num, den).unwrap_or_default()
    }

    /// A boolean.
    pub fn bool(&mut self) -> bool {
        self.chance(1, 2)
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        let i = self.below(items.len());
        &items[i]
    }

    /// A `usize` anywhere in its range, biased to the edges and small values.
    pub fn usize_any(&mut self) -> usize {
        match self.below(8) {
            0 => 0,
            1 => 1,
            2 => usize::MAX,
            3 => usize::MAX / 2 + 1,
            4 => self.below(16),
            5 => self.below(1000),
            _ => self.u.arbitrary().unwrap_or_default(),
        }
    }

    /// An arbitrary string of at most about `max` bytes.
    pub fn raw(&mut self, max: usize) -> String {
        let len = self.below(max + 1);
        let bytes = self.u.bytes(len).unwrap_or_default();
        String::from_utf8_lossy(bytes).into_owned()
    }

    /// Text glued from up to `parts` pieces: fragments, `extra` words, raw strings, repeats.
    pub fn text(&mut self, parts: usize, extra: &[&str]) -> String {
        let mut out = String::new();
        for _ in 0..=self.below(parts) {
            match self.below(10) {
                0..=4 => out.push_str(self.pick::<&str>(FRAGMENTS)),
                5 | 6 if !extra.is_empty() => out.push_str(self.pick::<&str>(extra)),
                7 => {
                    let raw = self.raw(12);
                    out.push_str(&raw);
                }
                8 => {
                    let piece = *self.pick(FRAGMENTS);
                    let times = 1 + self.below(80);
                    out.push_str(&piece.repeat(times));
                }
                _ => out.push_str(self.pick(FRAGMENTS).trim()),
            }
        }
        out
    }

    /// A short word from `words` or the text generator.
    pub fn word(&mut self, words: &[&str]) -> String {
        if self.chance(3, 4) {
            (*self.pick(words)).to_owned()
        } else {
            self.text(3, words)
        }
    }
}

/// The names of `pool`, which must be unique.
pub(crate) fn unique_names(pool: &[Arc<ToolInfo>]) -> HashSet<&str> {
    let mut names = HashSet::new();
    for tool in pool {
        assert!(names.insert(tool.name.as_str()), "{:?} twice", tool.name);
    }
    names
}

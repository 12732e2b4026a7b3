//! Text rules ToolSearch shares between its strategies: name parts and word boundaries.

/// A tool name split for matching.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameParts {
    /// The lower-cased parts.
    pub parts: Vec<String>,
    /// The parts joined for the "full name" fallback.
    pub full: String,
    /// Whether the name starts with `mcp__`.
    pub is_mcp: bool,
}

/// Splits a tool name. An MCP name loses `mcp__`, is lower-cased and split on `__` then `_`
/// (empty parts dropped); its full form replaces `__` and then `_` with spaces. Any other name is split at
/// each lower→upper letter boundary and at `_`, lower-cased; its full form joins the parts
/// with spaces (`WebFetch` → `web`, `fetch`).
pub fn parse_tool_name(name: &str) -> NameParts {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let lower = rest.to_lowercase();
        let parts = lower
            .split("__")
            .flat_map(|piece| piece.split('_'))
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect();
        return NameParts {
            parts,
            full: lower.replace("__", " ").replace('_', " "),
            is_mcp: true,
        };
    }
    let mut spaced = String::with_capacity(name.len() + 4);
    let mut previous: Option<char> = None;
    for ch in name.chars() {
        if previous.is_some_and(|p| p.is_ascii_lowercase()) && ch.is_ascii_uppercase() {
            spaced.push(' ');
        }
        spaced.push(if ch == '_' { ' ' } else { ch });
        previous = Some(ch);
    }
    let lower = spaced.to_lowercase();
    let parts: Vec<String> = split_js_whitespace(&lower);
    NameParts {
        full: parts.join(" "),
        parts,
        is_mcp: false,
    }
}

/// JavaScript's `\s` (and what `trim` removes): Unicode white space without U+0085, plus U+FEFF.
pub fn is_js_whitespace(ch: char) -> bool {
    (ch.is_whitespace() && ch != '\u{85}') || ch == '\u{feff}'
}

/// `text.trim()` as JavaScript does it.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

/// `text.split(/\s+/).filter(Boolean)` as JavaScript does it.
pub fn js_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_js_whitespace).filter(|word| !word.is_empty())
}

/// `text.split(/\s+/)` as JavaScript does it: empty strings at the ends are kept.
fn split_js_whitespace(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_space = false;
    for ch in text.chars() {
        if is_js_whitespace(ch) {
            if !in_space {
                parts.push(std::mem::take(&mut current));
            }
            in_space = true;
        } else {
            current.push(ch);
            in_space = false;
        }
    }
    parts.push(current);
    parts
}

/// An ASCII word character, as JavaScript's `\b` sees it.
fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

fn boundary(text: &[u8], at: usize) -> bool {
    let word = |i: usize| text.get(i).is_some_and(|&byte| is_word_byte(byte));
    let before = at.checked_sub(1).is_some_and(word);
    before != word(at)
}

/// Whether `term` occurs in `text` with a JavaScript `\b` on each side (the term taken
/// literally, regex metacharacters and all). Both are expected lower-cased.
pub fn matches_word(text: &str, term: &str) -> bool {
    if term.is_empty() {
        return false;
    }
    let haystack = text.as_bytes();
    let needle = term.as_bytes();
    let mut start = 0;
    while let Some(found) = haystack.get(start..).and_then(|rest| find(rest, needle)) {
        let at = start + found;
        if boundary(haystack, at) && boundary(haystack, at + needle.len()) {
            return true;
        }
        start = at + 1;
        if start >= haystack.len() {
            break;
        }
    }
    false
}

/// The first position of `byte` in `haystack`, 16 bytes at a time (a test without an early exit
/// per block compiles to vector instructions).
fn position(haystack: &[u8], byte: u8) -> Option<usize> {
    let mut blocks = haystack.chunks_exact(16);
    let mut base = 0;
    for block in &mut blocks {
        if block
            .iter()
            .fold(0u8, |found, &b| found | u8::from(b == byte))
            != 0
        {
            return block.iter().position(|&b| b == byte).map(|i| base + i);
        }
        base += 16;
    }
    let rest = blocks.remainder().iter().position(|&b| b == byte);
    rest.map(|i| base + i)
}

/// The first position of `needle` (not empty) in `haystack`: a scan for its first byte, then a
/// comparison of the rest.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last = haystack.len().checked_sub(needle.len())?;
    let mut at = 0;
    while at <= last {
        at += position(haystack.get(at..=last)?, first)?;
        // `at` is at most `last`, so the needle's length fits from it.
        if haystack.get(at + 1..at + needle.len()) == Some(rest) {
            return Some(at);
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_name_splits_at_lower_upper_boundaries() {
        assert_eq!(parse_tool_name("WebFetch").parts, ["web", "fetch"]);
        assert_eq!(parse_tool_name("LSP").parts, ["lsp"]);
        assert_eq!(parse_tool_name("NotebookEdit").full, "notebook edit");
    }

    #[test]
    fn mcp_name_splits_on_double_then_single_underscore() {
        let parsed =
            parse_tool_name("mcp__claude_ai_OKEngine_LARK_MCP__lark_bitable_search_records");
        assert!(parsed.is_mcp);
        assert_eq!(
            parsed.parts,
            [
                "claude", "ai", "okengine", "lark", "mcp", "lark", "bitable", "search", "records"
            ]
        );
        assert_eq!(
            parsed.full,
            "claude ai okengine lark mcp lark bitable search records"
        );
    }

    #[test]
    fn find_agrees_with_a_window_scan() {
        let haystack = b"aab a.b ab+ +a b++ abab";
        for needle in [
            &b"a"[..],
            b"ab",
            b"b+",
            b"++",
            b"abab",
            b"x",
            b"aab a.b ab+ +a b++ abab!",
        ] {
            let windows = haystack.windows(needle.len()).position(|w| w == needle);
            assert_eq!(find(haystack, needle), windows, "{needle:?}");
            for start in 0..haystack.len() {
                let windows = haystack[start..]
                    .windows(needle.len())
                    .position(|w| w == needle);
                assert_eq!(find(&haystack[start..], needle), windows);
            }
        }
    }

    #[test]
    fn word_boundary_is_ascii_only_and_literal() {
        assert!(matches_word("read a file", "file"));
        assert!(!matches_word("profile", "file"));
        assert!(matches_word("use c++ here", "c"));
        assert!(!matches_word("use c++ here", "c++"));
        assert!(matches_word("a.b", "a.b"));
        assert!(!matches_word("axb", "a.b"));
        assert!(matches_word("café", "caf"));
    }
}

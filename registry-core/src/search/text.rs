//! Text rules ToolSearch shares between its strategies: name parts and word boundaries.

/// A tool name split for matching.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    let before = at > 0 && is_word_byte(text[at - 1]);
    let after = at < text.len() && is_word_byte(text[at]);
    before != after
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
    while let Some(found) = find(&haystack[start..], needle) {
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

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
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

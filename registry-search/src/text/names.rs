//! Tool names split into parts, as the seed rules read them (`docs/design.md` §9.5): the reference
//! form ([`parse_tool_name`]) and the allocation-free one the index builds with.

use super::is_js_whitespace;

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

/// The non-empty name parts of `name` as [`parse_tool_name`] splits them, written to `out`
/// with their byte ranges in `ranges`; returns whether it is an MCP name.
pub(crate) fn split_name(name: &str, out: &mut String, ranges: &mut Vec<(u32, u32)>) -> bool {
    out.clear();
    ranges.clear();
    let (mcp, rest) = match name.strip_prefix("mcp__") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    if !rest.is_ascii() {
        let parsed = parse_tool_name(name);
        for part in parsed.parts.iter().filter(|part| !part.is_empty()) {
            let start = out.len() as u32;
            out.push_str(part);
            ranges.push((start, out.len() as u32));
        }
        return parsed.is_mcp;
    }
    let mut start = 0;
    let mut close = |out: &mut String, start: &mut usize| {
        if out.len() > *start {
            ranges.push((*start as u32, out.len() as u32));
        }
        *start = out.len();
    };
    let mut previous = 0u8;
    for &byte in rest.as_bytes() {
        if byte == b'_' || (!mcp && is_js_whitespace(byte as char)) {
            close(out, &mut start);
        } else {
            if !mcp && previous.is_ascii_lowercase() && byte.is_ascii_uppercase() {
                close(out, &mut start);
            }
            out.push(byte.to_ascii_lowercase() as char);
        }
        previous = byte;
    }
    close(out, &mut start);
    mcp
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
    fn fast_name_split_matches_parse_tool_name() {
        let names = [
            "WebFetch",
            "LSP",
            "NotebookEdit",
            "get_user_Name",
            "_lead",
            "trail_",
            "a__b",
            "Spaced Name\tTab",
            "ABCdef",
            "aB1cD",
            "x",
            "",
            "mcp__",
            "mcp__s__send_message",
            "mcp__A_B__C__d_",
            "mcp__my server__Tool Name",
            "mcp____x",
            "Mcp__NotMcp",
            "naïveName",
            "mcp__café__Été",
            "K\u{212a}elvin",
            "ÉtéFort",
        ];
        let (mut out, mut ranges) = (String::new(), Vec::new());
        for name in names {
            let expected = parse_tool_name(name);
            let mcp = split_name(name, &mut out, &mut ranges);
            let parts: Vec<&str> = ranges
                .iter()
                .map(|&(start, end)| &out[start as usize..end as usize])
                .collect();
            let wanted: Vec<&str> = expected
                .parts
                .iter()
                .map(String::as_str)
                .filter(|part| !part.is_empty())
                .collect();
            assert_eq!(parts, wanted, "{name:?}");
            assert_eq!(mcp, expected.is_mcp, "{name:?}");
        }
    }
}

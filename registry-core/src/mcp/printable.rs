//! Text from a peer (an MCP server's stderr, its error messages, its tool names and

use std::borrow::Cow;
use std::fmt::Write as _;

/// How much layout a printed text may keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line: newlines and tabs are escaped too (a table cell, a name).
    OneLine,
    /// Several lines: newlines and tabs are kept (a stderr tail, a warning).
    Lines,
}

/// Whether `c` must be escaped under `layout`.
fn needs_escape(c: char, layout: Layout) -> bool {
    match c {
        '\n' | '\t' => layout == Layout::OneLine,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// `text` with every character a terminal could act on replaced by a visible escape (see the
/// [module docs](crate::mcp)).
///
/// descriptions, a `tools/list` file) made safe to print on a terminal.
///
/// [`printable`] replaces every character a terminal could act on by a visible escape, so that
/// a peer cannot move the cursor, clear the screen, set the window title, hide text or reorder
/// it:
///
/// * C0 controls (U+0000–U+001F, ESC among them, so no escape sequence survives) and DEL as
///   `\x1b`, `\x7f`, …; newline and tab are kept only under [`Layout::Lines`];
/// * C1 controls (U+0080–U+009F, which some terminals read as CSI, OSC, …) as `\u{9b}`;
/// * the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the line and
///   paragraph separators (U+2028, U+2029) as `\u{202e}`, ….
///
/// Everything else, backslashes included, is kept as it is: the result is meant to be read,
/// not parsed back. Text without such characters is returned borrowed, unchanged.
pub fn printable(text: &str, layout: Layout) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_escape(c, layout)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !needs_escape(c, layout) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\n' => write!(out, "\\n"),
            '\t' => write!(out, "\\t"),
            '\r' => write!(out, "\\r"),
            '\u{0}'..='\u{1f}' | '\u{7f}' => write!(out, "\\x{:02x}", u32::from(c)),
            _ => write!(out, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible_text() {
        let hostile = "\u{1b}[2J\u{1b}]0;pwned\u{7}ok\u{7f}";
        assert_eq!(
            printable(hostile, Layout::Lines),
            "\\x1b[2J\\x1b]0;pwned\\x07ok\\x7f"
        );
    }

    #[test]
    fn c1_controls_and_bidi_overrides_are_escaped() {
        assert_eq!(
            printable("a\u{9b}31mb\u{202e}cba\u{2066}", Layout::OneLine),
            "a\\u{9b}31mb\\u{202e}cba\\u{2066}"
        );
    }

    #[test]
    fn newlines_and_tabs_are_kept_only_where_lines_are_intended() {
        let text = "line 1\n\tline 2\r\n";
        assert_eq!(printable(text, Layout::Lines), "line 1\n\tline 2\\r\n");
        assert_eq!(printable(text, Layout::OneLine), "line 1\\n\\tline 2\\r\\n");
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        let text = "naïve 日本語 C:\\path \\x1b";
        assert!(matches!(printable(text, Layout::OneLine), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        let once = printable("\u{1b}[31m\u{85}\n", Layout::OneLine).into_owned();
        assert_eq!(printable(&once, Layout::OneLine), once);
    }
}

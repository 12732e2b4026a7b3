//! Text analysis, in one place: how ToolSearch splits names, descriptions and queries.
//!
//! - The seed rules read text as the design's JavaScript does: white space as `\s`, words as
//!   runs of `[A-Za-z0-9_]`, word boundaries as `\b` (this module), name parts as
//!   [`names`] splits them.
//! - The BM25F strategy reads [`terms`]: the [`analysis`]'s words (alphanumeric runs cut at case
//!   humps and between letters and digits), stop words (NLTK's English list) and stems (the
//!   Snowball English stemmer), with abbreviations spelled out; requests as sentences and
//!   clauses.
//! - The plain BM25 baseline and the name-keyword queries read [`plain_words`] (in
//!   [`analysis`]): alphanumeric runs cut where a lower-case letter or digit meets an upper-case
//!   one, lower-cased.

pub mod analysis;
pub mod names;
pub mod query;
pub mod terms;

pub use analysis::plain_words;
pub use names::{NameParts, parse_tool_name};

/// JavaScript's `\s` (and what `trim` removes): Unicode white space without U+0085, plus U+FEFF.
pub fn is_js_whitespace(ch: char) -> bool {
    (ch.is_whitespace() && ch != '\u{85}') || ch == '\u{feff}'
}

/// `text.trim()` as JavaScript does it.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

/// Whether every byte of `term` is an ASCII word character.
pub(crate) fn is_word_term(term: &str) -> bool {
    term.bytes().all(is_word_byte)
}

#[inline]
pub(crate) fn is_word_byte(byte: u8) -> bool {
    // Every byte has an entry: the lookup compiles to a load.
    WORD_BYTES.get(usize::from(byte)).copied().unwrap_or(false)
}

/// `[A-Za-z0-9_]`, by byte.
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut slots: &mut [bool] = &mut table;
    let mut byte = 0u8;
    while let Some((slot, rest)) = { slots }.split_first_mut() {
        *slot = byte.is_ascii_alphanumeric() || byte == b'_';
        byte = byte.wrapping_add(1);
        slots = rest;
    }
    table
};

/// The maximal runs of ASCII word characters of a lower-cased text.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .filter(|word| !word.is_empty())
}

/// `text.to_lowercase()` into `out`, without allocating for ASCII text.
pub(crate) fn lower_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&text.to_lowercase());
    }
}

/// `text.split(/\s+/).filter(Boolean)` as JavaScript does it.
pub fn js_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_js_whitespace).filter(|word| !word.is_empty())
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

/// Whether `term` (lower-cased) occurs with a `\b` on each side in `text` lower-cased, as
/// [`matches_word`] over [`lower_into`]'s copy, mostly without the copy; `lower` is scratch.
///
/// An ASCII term is looked for in `text` as it is, ASCII letters compared in either case: only
/// ASCII characters lower-case to ASCII ones, but for `İ` and the Kelvin sign, so in a text
/// without those two the lower-cased copy holds the term at word boundaries exactly where the
/// text holds it in some case (a character beside it is a word character in both or in
/// neither). The search anchors on the term's first character that is not a letter (one byte
/// in either case), else on its first letter in both cases.
pub(crate) fn matches_word_lowered(text: &str, term: &str, lower: &mut String) -> bool {
    // `İ` is 0xC4 0xB0 in UTF-8, the Kelvin sign 0xE2 0x84 0xAA: one pass for their first bytes.
    let unfolding = memchr::memchr2(0xc4, 0xe2, text.as_bytes()).is_some()
        && (text.contains('\u{130}') || text.contains('\u{212a}'));
    if !term.is_ascii() || unfolding {
        lower_into(text, lower);
        return matches_word(lower, term);
    }
    let (haystack, needle) = (text.as_bytes(), term.as_bytes());
    let found_at = |start: usize| {
        let end = start + needle.len();
        (haystack.get(start..end)).is_some_and(|window| {
            (window.iter().zip(needle)).all(|(&byte, &want)| byte.to_ascii_lowercase() == want)
        }) && boundary(haystack, start)
            && boundary(haystack, end)
    };
    match needle.iter().position(|byte| !byte.is_ascii_alphabetic()) {
        Some(at) => {
            let anchor = needle.get(at).copied().unwrap_or_default();
            (memchr::memchr_iter(anchor, haystack))
                .any(|found| found.checked_sub(at).is_some_and(found_at))
        }
        None => {
            let first = needle.first().copied().unwrap_or_default();
            memchr::memchr2_iter(first, first.to_ascii_uppercase(), haystack).any(found_at)
        }
    }
}

/// The first position of `needle` (not empty) in `haystack`: a scan for its first byte, then a
/// comparison of the rest.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last = haystack.len().checked_sub(needle.len())?;
    let mut at = 0;
    while at <= last {
        at += memchr::memchr(first, haystack.get(at..=last)?)?;
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
    fn a_term_is_matched_in_the_text_as_in_its_lower_cased_copy() {
        let texts = [
            "Don't send E-MAIL (optional), see Example.com/Path?q=1",
            "DATA,JSON and data, csv; What's THE weather in Paris?",
            "Prévision MÉTÉO—jour+nuit (été) c++ -> D.",
            "x->y X - Y x--y é+é É+É ++lead trail++ A++B",
            // Characters whose lower case is partly ASCII: `İ` → `i̇`, the Kelvin sign → `k`.
            "\u{130}t's \u{212a}ey-value, K-V",
            "",
        ];
        let terms = [
            "don't",
            "e-mail",
            "(optional),",
            "example.com/path?q",
            "data,json",
            "data,",
            "what's",
            "paris?",
            "c++",
            "->",
            "d.",
            "x->y",
            "-",
            "a++b",
            "++lead",
            "trail++",
            "jour+nuit",
            "météo—jour",
            "é+é",
            "i̇t's",
            "key-value",
            "k-v",
            "t's",
            "data",
            "the",
            "q",
            "a",
        ];
        let (mut lower, mut scratch) = (String::new(), String::new());
        for text in texts {
            lower_into(text, &mut lower);
            for term in terms {
                assert_eq!(
                    matches_word_lowered(text, term, &mut scratch),
                    matches_word(&lower, term),
                    "{term:?} in {text:?}"
                );
            }
        }
        assert!(matches_word_lowered(texts[4], "key-value", &mut scratch));
        assert!(matches_word_lowered(texts[0], "e-mail", &mut scratch));
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

//! The text analysis of the BM25F strategy and of the BM25 baseline, in one place: how text
//! becomes words (case, camel case, snake case, digits, non-ASCII), which words are dropped, and
//! how words are stemmed. The keyword strategy keeps the design's own rules (the parent module).
//!
//! - Words: the maximal runs of alphanumeric characters (Unicode's, so `größe` is one word), cut
//!   where a lower-case letter meets an upper-case one (`getWeather`), before the last capital of
//!   a run of capitals followed by a lower-case letter (`HTTPServer` → `HTTP`, `Server`), and
//!   where letters meet digits (`mp3` → `mp`, `3`); every other character (`_`, `-`, `.`,
//!   spaces) separates words. Words are lower-cased.
//! - Stop words: NLTK's English list (the Snowball project's, as the `stop-words` crate ships
//!   it).
//! - Stems: the Snowball English stemmer (Porter2, as the `rust-stemmers` crate implements it;
//!   tantivy's English stemmer).
//!
//! Each was chosen against the hand-written rules it replaced on the first half of every
//! retrieval set's requests, alone and in mixed pools (`BENCHMARKS.md`, "Text analysis"): the
//! Snowball stemmer gained on the held-out sets, and NLTK's list alone did better than NLTK's
//! list with the request words the old list had besides (`get`, `please`, `want`, …) on six of
//! the held-out columns and worse on three. Those words cost time instead: `get` begins most
//! tool names, so a query that says it now visits their postings (keyword queries over 100,000
//! tools take about twice as long).
//!
//! The plain BM25 baseline keeps its own reference analysis ([`plain_words`] and its stop list,
//! as `data/README.md` defines it), so that its figures stay comparable from one change to the
//! next.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

/// Calls `word` with each word of `text`, as written (not lower-cased): see the module's rules.
pub fn split_words(text: &str, mut word: impl FnMut(&str)) {
    for run in text.split(|ch: char| !ch.is_alphanumeric()) {
        split_humps(run, &mut word);
    }
}

/// Calls `term` with each piece of an alphanumeric run, cut where a lower-case letter meets an
/// upper-case one (`aB`), before the last capital of a capital run followed by a lower-case
/// letter (`HTTPServer` → `HTTP`, `Server`), and where letters meet digits.
pub(crate) fn split_humps(run: &str, mut term: impl FnMut(&str)) {
    let mut chars = run.char_indices().peekable();
    let Some((_, mut prev)) = chars.next() else {
        return;
    };
    let mut start = 0;
    while let Some((at, cur)) = chars.next() {
        let next_lower = chars.peek().is_some_and(|(_, next)| next.is_lowercase());
        if (prev.is_lowercase() && cur.is_uppercase())
            || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
            || (prev.is_alphabetic() != cur.is_alphabetic())
        {
            term(&run[start..at]);
            start = at;
        }
        prev = cur;
    }
    term(&run[start..]);
}

/// Calls `word` with each word of `text`, lower-cased (`getHTTPStatus2Go` → `get`, `http`,
/// `status`, `2`, `go`).
pub fn words(text: &str, mut word: impl FnMut(String)) {
    split_words(text, |piece| word(lower(piece)));
}

/// `word` lower-cased, without the Unicode tables for ASCII.
pub fn lower(word: &str) -> String {
    if word.is_ascii() {
        word.to_ascii_lowercase()
    } else {
        word.to_lowercase()
    }
}

/// The stop words, sorted: NLTK's English list.
fn stop_words() -> &'static [&'static str] {
    static STOP: OnceLock<Vec<&'static str>> = OnceLock::new();
    STOP.get_or_init(|| {
        // The crate is built with its NLTK lists, English among them.
        let mut list = stop_words::lookup("en").unwrap_or_default().to_vec();
        list.sort_unstable();
        list.dedup();
        list
    })
}

/// Whether a lower-cased word is a stop word.
pub fn is_stop_word(lower: &str) -> bool {
    stop_words().binary_search(&lower).is_ok()
}

/// The Snowball English stem of a lower-cased word (`searches`, `searching` → `search`; `news`
/// stays `news`, apart from `new`).
///
/// Stems are remembered per thread (up to [`REMEMBERED_STEMS`] words, then forgotten at once): a
/// pool's texts say the same words many times, and the stemmer costs more than a lookup.
pub fn stem(lower: String) -> String {
    // Snowball changes no word of fewer than three letters.
    if lower.len() < 3 {
        return lower;
    }
    STEMS.with(|stems| {
        let mut stems = stems.borrow_mut();
        if let Some(stemmed) = stems.get(lower.as_str()) {
            return match stemmed {
                None => lower,
                Some(stemmed) => String::from(&**stemmed),
            };
        }
        static STEMMER: OnceLock<Stemmer> = OnceLock::new();
        let stemmer = STEMMER.get_or_init(|| Stemmer::create(Algorithm::English));
        let stemmed = match stemmer.stem(&lower) {
            Cow::Borrowed(same) if same.len() == lower.len() => None,
            stemmed => Some(stemmed.into_owned()),
        };
        if stems.len() >= REMEMBERED_STEMS {
            stems.clear();
        }
        let remembered = stemmed.as_deref().map(Box::from);
        stems.insert(Box::from(lower.as_str()), remembered);
        stemmed.unwrap_or(lower)
    })
}

/// The most words whose stems a thread remembers (a few MB at most).
pub const REMEMBERED_STEMS: usize = 1 << 16;

thread_local! {
    /// Each word's stem, `None` where it is the word itself.
    static STEMS: RefCell<HashMap<Box<str>, Option<Box<str>>, foldhash::fast::RandomState>> =
        RefCell::new(HashMap::default());
}

/// The standard analysis of `text` into `out`: its words, lower-cased, stop words dropped,
/// stemmed.
pub fn terms(text: &str, out: &mut Vec<String>) {
    split_words(text, |piece| {
        let word = lower(piece);
        if !word.is_empty() && !is_stop_word(&word) {
            out.push(stem(word));
        }
    });
}

/// Calls `word` with each plain word of `text`: the maximal alphanumeric runs, cut where a
/// lower-case letter or a digit meets an upper-case one, lower-cased (`getHTTPStatus2Go` →
/// `get`, `httpstatus2`, `go`). The plain BM25 baseline's words (as `data/README.md` defines
/// it), the name keyword queries' and the text a tool is embedded from.
pub fn plain_words(text: &str, mut word: impl FnMut(String)) {
    let mut current = String::new();
    let mut previous_lower = false;
    for ch in text.chars() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                word(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if previous_lower && ch.is_uppercase() && !current.is_empty() {
            word(std::mem::take(&mut current));
        }
        previous_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        word(current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyzed(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        terms(text, &mut out);
        out
    }

    #[test]
    fn words_split_at_case_humps_letters_and_digits_and_separators() {
        let mut out = Vec::new();
        words("getHTTPStatus2Go snake_case kebab-case Größe", |w| {
            out.push(w)
        });
        assert_eq!(
            out,
            [
                "get", "http", "status", "2", "go", "snake", "case", "kebab", "case", "größe"
            ]
        );
    }

    #[test]
    fn a_plural_only_noun_is_not_its_adjective() {
        // mcp_servers' request "latest news" against the 22 of its tools whose descriptions say
        // "new" (`create_directory`: "Create a new directory"): the suffix stripper this
        // replaced made `news` into `new`.
        assert_eq!(analyzed("latest news"), ["latest", "news"]);
        assert_eq!(
            analyzed("Create a new directory"),
            ["creat", "new", "directori"]
        );
        assert_ne!(stem("news".into()), stem("new".into()));
    }

    #[test]
    fn inflections_share_a_stem() {
        for (a, b) in [
            ("searches", "search"),
            ("searching", "search"),
            ("queries", "query"),
            ("generated", "generate"),
            ("generating", "generates"),
        ] {
            assert_eq!(stem(a.into()), stem(b.into()), "{a} {b}");
        }
        assert_eq!(stem("class".into()), "class");
    }

    #[test]
    fn a_remembered_stem_is_the_stemmer_s_and_the_memory_is_bounded() {
        let first: Vec<String> = ["searches", "news", "ab", "größe"]
            .map(|word| stem(word.into()))
            .into();
        for i in 0..REMEMBERED_STEMS + 10 {
            stem(format!("word{i}s"));
        }
        assert!(STEMS.with(|stems| stems.borrow().len()) <= REMEMBERED_STEMS);
        let again: Vec<String> = ["searches", "news", "ab", "größe"]
            .map(|word| stem(word.into()))
            .into();
        assert_eq!(first, again);
        assert_eq!(first, ["search", "news", "ab", "größe"]);
    }

    #[test]
    fn stop_words_are_nltk_english() {
        for word in ["the", "and", "of", "what", "don", "t", "is"] {
            assert!(is_stop_word(word), "{word}");
        }
        for word in ["get", "news", "file", "search"] {
            assert!(!is_stop_word(word), "{word}");
        }
        assert!(stop_words().len() > 150, "{}", stop_words().len());
    }
}

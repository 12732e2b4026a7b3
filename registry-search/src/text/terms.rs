//! The BM25F strategy's terms: the [analysis](super::analysis)'s words, stop words and stems,
//! with abbreviations spelled out; requests read as sentences and request clauses.

use super::analysis::{is_stop_word, lower, split_humps, split_words, stem};

/// Abbreviations that tool texts use and requests spell out, with the word each stands for,
/// sorted.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("addr", "address"),
    ("auth", "authentication"),
    ("config", "configuration"),
    ("desc", "description"),
    ("doc", "document"),
    ("docs", "documents"),
    ("img", "image"),
    ("imgs", "images"),
    ("info", "information"),
    ("msg", "message"),
    ("msgs", "messages"),
    ("pic", "picture"),
    ("pics", "pictures"),
    ("stat", "statistics"),
    ("stats", "statistics"),
];

/// Words that open a request clause: the verbs with which a request says what it wants
/// (`Can you fetch the channel clips?`), sorted.
const REQUEST_VERBS: &[&str] = &[
    "access",
    "assist",
    "calculate",
    "check",
    "convert",
    "create",
    "discover",
    "explore",
    "fetch",
    "find",
    "gather",
    "generate",
    "get",
    "give",
    "help",
    "know",
    "list",
    "need",
    "obtain",
    "provide",
    "recommend",
    "retrieve",
    "search",
    "send",
    "share",
    "show",
    "suggest",
    "tell",
    "translate",
    "validate",
    "want",
];

/// Splits text into normalized terms: the [analysis](super::analysis)'s words, lower-cased,
/// stop words dropped, a few abbreviations spelled out (`info` → `information`), stemmed.
///
/// ```
/// use toolreg_search::ranked::tokenize;
///
/// let mut terms = Vec::new();
/// tokenize("getForensicAnalysis of the HTTPServer", &mut terms);
/// assert_eq!(terms, ["get", "forens", "analysi", "http", "server"]);
/// ```
pub fn tokenize(text: &str, out: &mut Vec<String>) {
    split_words(text, |term| push_term(term, out));
}

/// Splits a query into terms like [`tokenize`], adding, for each word written with case humps
/// (`YouTube`, `LinkedIn`), its whole lower-cased form (`youtube`): tool names spell such words
/// both ways, and a query cannot tell which.
pub(crate) fn tokenize_query(text: &str, out: &mut Vec<String>) {
    for run in text.split(|ch: char| !ch.is_alphanumeric()) {
        split_humps(run, |term| push_term(term, out));
        for word in run.split(char::is_numeric).filter(|word| !word.is_empty()) {
            let mut pieces = 0;
            split_humps(word, |_| pieces += 1);
            if pieces > 1 {
                push_term(word, out);
            }
        }
    }
}

/// Pushes the term two adjacent request words make as one word (`zip code` → `zipcode`,
/// `time zones` → `timezone`): tool names write as one word what requests write as two. Only
/// words of letters alone join, the first ending where the space does (`code, time` does not).
pub(crate) fn push_compound(first: &str, second: &str, out: &mut Vec<String>) {
    let second = second.trim_end_matches(|ch: char| !ch.is_alphanumeric());
    let letters = |word: &str| !word.is_empty() && word.chars().all(char::is_alphabetic);
    if letters(first) && letters(second) {
        push_term(&[first, second].concat(), out);
    }
}

fn push_term(word: &str, out: &mut Vec<String>) {
    let lower = lower(word);
    if lower.is_empty() || is_stop_word(&lower) {
        return;
    }
    let spelled = (ABBREVIATIONS
        .binary_search_by_key(&lower.as_str(), |(short, _)| short)
        .ok())
    .and_then(|at| ABBREVIATIONS.get(at));
    let word = match spelled {
        Some((_, long)) => (*long).to_owned(),
        None => lower,
    };
    out.push(stem(word));
}

/// The most sentences of one request scored on their own: each costs a scoring pass, and a
/// request to find tools is a few sentences long.
pub(crate) const MAX_SENTENCES: usize = 16;

/// The first [`MAX_SENTENCES`] sentences of a request that have at least two words: text up to
/// and including each `.`, `?`, `!` or `;`, and the rest.
pub(crate) fn sentences(query: &str) -> Vec<&str> {
    query
        .split_inclusive(['.', '?', '!', ';'])
        .filter(|sentence| sentence.split_whitespace().nth(1).is_some())
        .take(MAX_SENTENCES)
        .collect()
}

/// The whitespace-separated words of a request, each with whether it is in a request clause:
/// after a request verb ([`REQUEST_VERBS`]) and up to the end of its sentence, the word ending
/// in `.`, `?`, `!` or `;` included. The verbs themselves are not in the clause they open.
///
/// In `I'm a fan of the streamer. Can you fetch the channel clips?`, the clause is
/// `the channel clips?`: what is asked for, not the story around it.
pub(crate) fn request_words(query: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut in_clause = false;
    query.split_whitespace().map(move |word| {
        let bare = word.trim_matches(|ch: char| !ch.is_alphanumeric());
        let verb = REQUEST_VERBS
            .binary_search_by(|verb| {
                let lower = bare.bytes().map(|byte| byte.to_ascii_lowercase());
                verb.bytes().cmp(lower)
            })
            .is_ok();
        let inside = in_clause && !verb;
        in_clause = (in_clause || verb) && !word.ends_with(['.', '?', '!', ';']);
        (word, inside)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        tokenize(text, &mut out);
        out
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(REQUEST_VERBS.is_sorted(), "keep REQUEST_VERBS in order");
        assert!(ABBREVIATIONS.is_sorted(), "keep ABBREVIATIONS in order");
    }

    #[test]
    fn request_clause_runs_from_a_request_verb_to_the_end_of_its_sentence() {
        let clause: Vec<&str> = request_words(
            "I'm a fan of Kick. Can you FETCH the channel clips, and list details? Thanks!",
        )
        .filter(|(_, inside)| *inside)
        .map(|(word, _)| word)
        .collect();
        assert_eq!(clause, ["the", "channel", "clips,", "and", "details?"]);
        assert!(request_words("weather forecast").all(|(_, inside)| !inside));
        // A verb that ends its sentence opens nothing.
        assert!(request_words("What can I find. Weather").all(|(_, inside)| !inside));
    }

    #[test]
    fn tokenize_splits_camel_case_and_drops_stop_words() {
        assert_eq!(
            terms("getForensicAnalysis of the HTTPServer"),
            ["get", "forens", "analysi", "http", "server"]
        );
        assert_eq!(terms("search_records v2"), ["search", "record", "v", "2"]);
    }

    #[test]
    fn two_adjacent_words_of_letters_make_a_compound() {
        let compound = |first: &str, second: &str| {
            let mut out = Vec::new();
            push_compound(first, second, &mut out);
            out
        };
        assert_eq!(compound("Zip", "codes?"), terms("zipcode"));
        assert_eq!(compound("time", "zones"), terms("timezone"));
        assert!(
            compound("codes,", "time").is_empty(),
            "punctuation parts them"
        );
        assert!(compound("v2", "api").is_empty(), "letters only");
        assert!(
            compound("", "weather").is_empty(),
            "the first word of a request"
        );
    }

    #[test]
    fn an_abbreviation_is_the_word_it_stands_for() {
        assert_eq!(terms("Artist info"), terms("artist information"));
        assert_eq!(terms("Player stats"), terms("player statistics"));
        assert_eq!(terms("Get pics"), terms("get pictures"));
    }

    #[test]
    fn a_query_word_with_case_humps_also_gives_its_whole_form() {
        // `you` and `s` are stop words.
        let mut out = Vec::new();
        tokenize_query("YouTube's HTTPServer v2 mp3 Weather", &mut out);
        assert_eq!(
            out,
            [
                "tube",
                "youtub",
                "http",
                "server",
                "httpserver",
                "v",
                "2",
                "mp",
                "3",
                "weather"
            ]
        );
    }

    #[test]
    fn sentences_end_at_punctuation_and_need_two_words() {
        assert_eq!(
            sentences("Find songs. Ok! Also the lyrics?  and more"),
            ["Find songs.", " Also the lyrics?", "  and more"]
        );
        let long = "Find songs. ".repeat(MAX_SENTENCES + 4);
        assert_eq!(sentences(&long).len(), MAX_SENTENCES);
    }
}

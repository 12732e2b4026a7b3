//! Inputs that once cost time or memory beyond their size: each test asserts a result on an
//! input that takes minutes when handled quadratically (and well under a second here).

use super::*;

use crate::ToolDoc;

fn deferred(name: &str, description: &str) -> Arc<ToolDoc> {
    Arc::new(ToolDoc::new(name, description))
}

fn names(output: SearchOutput) -> Vec<String> {
    output.matches
}

#[test]
fn select_with_many_names_is_deduplicated_in_linear_time() {
    let pool: Vec<_> = (0..10_000)
        .map(|i| deferred(&format!("mcp__s__tool{i}"), ""))
        .collect();
    let engine = SearchEngine::new(pool, Strategy::Keyword);
    // Each tool named fifteen times, in an order that visits all of them every 10,000.
    let listed: Vec<String> = (0..150_000)
        .map(|i| format!("mcp__s__tool{}", (i * 7919) % 10_000))
        .collect();
    let query = format!("select:{},mcp__s__missing", listed.join(","));
    assert_eq!(names(engine.search(&query, 5)), listed[..10_000]);
}

#[test]
fn huge_max_results_is_clamped_to_the_deferred_tools() {
    let pool: Vec<_> = (0..6_000)
        .map(|i| {
            let description = format!("search files of kind {} in folder {}", i % 7, i % 13);
            deferred(&format!("finder_{i}"), &description)
        })
        .collect();
    for strategy in [Strategy::Keyword, Strategy::Bm25f] {
        let engine = SearchEngine::new(pool.clone(), strategy);
        let every = engine.search("search files", pool.len());
        assert_eq!(every.matches.len(), pool.len(), "{strategy:?}");
        assert_eq!(
            engine.search("search files", usize::MAX),
            every,
            "{strategy:?}"
        );
        let prefix = engine.search("mcp__", usize::MAX);
        assert!(prefix.matches.is_empty(), "{strategy:?}");
    }
}

#[test]
fn a_query_of_many_distinct_terms_stays_linear() {
    let mut pool: Vec<_> = (0..500)
        .map(|i| deferred(&format!("NoteTaker{i}"), "writes notes"))
        .collect();
    for at in [7, 230, 499] {
        pool[at] = deferred(&format!("Forecast{at}"), "weather for a city");
    }
    // Words of letters that no tool has (digits would name the tools).
    let word = |mut i: usize| {
        let mut word = String::from(" qzx");
        loop {
            word.push(char::from(b'a' + (i % 26) as u8));
            i /= 26;
            if i == 0 {
                return word;
            }
        }
    };
    let noise: String = (0..30_000).map(word).collect();
    let query = format!("weather{noise}");
    let seed = SearchEngine::new(pool.clone(), Strategy::Keyword);
    assert_eq!(
        names(seed.search(&query, 5)),
        names(seed.search("weather", 5))
    );
    // Nothing else matches, so the BM25F strategy finds just the three, in some order.
    let ranked = SearchEngine::new(pool, Strategy::Bm25f);
    let mut found = names(ranked.search(&query, 5));
    found.sort();
    assert_eq!(found, ["Forecast230", "Forecast499", "Forecast7"]);
    // Many distinct required terms that match nothing: nothing passes.
    let required: String = (0..30_000).map(|i| word(i).replace(' ', " +")).collect();
    let query = format!("+weather{required}");
    assert!(names(seed.search(&query, 5)).is_empty());
    assert!(names(ranked.search(&query, 5)).is_empty());
}

#[test]
fn terms_without_word_characters_are_matched_in_one_pass() {
    // 50,000 distinct terms of punctuation alone; tool `i` has the `i + 7`-th as a gap.
    const MARKS: &[char] = &[
        '!', '#', '$', '%', '&', '*', ',', '-', '.', '/', ':', ';', '<', '=', '>', '?', '@', '[',
        ']', '^', '`', '{', '|', '}', '~', '(', ')', '\'', '"',
    ];
    let mark = |mut i: usize| {
        let mut text = String::new();
        loop {
            text.push(MARKS[i % MARKS.len()]);
            i /= MARKS.len();
            if i == 0 {
                return text;
            }
        }
    };
    let pool: Vec<_> = (0..1_000)
        .map(|i| deferred(&format!("tool{i}"), &format!("alpha{}beta", mark(i + 7))))
        .collect();
    let engine = SearchEngine::new(pool, Strategy::Keyword);
    let query: Vec<String> = (0..50_000).map(mark).collect();
    // Every tool has one of the terms: they tie, in pool order.
    assert_eq!(
        names(engine.search(&query.join(" "), 5)),
        ["tool0", "tool1", "tool2", "tool3", "tool4"]
    );
}

#[test]
fn a_term_of_many_runs_looks_up_each_distinct_word_once() {
    let term = "a.".repeat(50_000);
    let mut pool: Vec<_> = (0..2_000)
        .map(|i| deferred(&format!("tool{i}"), "a b a.c"))
        .collect();
    pool.push(deferred("holder", &format!("{term}z")));
    let engine = SearchEngine::new(pool, Strategy::Keyword);
    assert_eq!(names(engine.search(&term, 5)), ["holder"]);
    assert_eq!(names(engine.search(&format!("+{term} a"), 5)), ["holder"]);
}

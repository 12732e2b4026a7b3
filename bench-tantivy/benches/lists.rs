//! The query lists of the comparison, drawn from the pool's own words by their document
//! frequency, with a seeded generator so that every run asks the same queries.
//!
//! A pool word is a plain word ([`plain_words`]: an alphanumeric run cut at case humps,
//! lower-cased) of a tool's own name or description, of ASCII letters only and at least three
//! of them, that the BM25F strategy's analysis keeps as one term (stop words, which it drops,
//! and abbreviations it spells out are left out: a keyword query does not say `the`). Its
//! document frequency is the number of tools whose name or description says it.

use std::collections::{HashMap, HashSet};

use toolreg_search::Document;
use toolreg_search::ToolDoc;
use toolreg_search::ranked::{stem, tokenize};
use toolreg_search::text::plain_words;

/// Queries in each keyword list.
pub const QUERIES: usize = 1000;
/// The share of the pool's words, most frequent first, that frequent-word queries draw from.
pub const FREQUENT_SHARE: f64 = 0.10;
/// The largest share of the tools a rare word may occur in.
pub const RARE_SHARE: f64 = 0.001;

/// The keyword query lists of one pool.
pub struct Lists {
    /// 1–3 words each, from the most frequent tenth of the pool's words.
    pub frequent: Vec<String>,
    /// 1–3 words each, from the words in at most 0.1% of the tools.
    pub rare: Vec<String>,
    /// One made-up word each, in no tool: what a query costs beyond its postings.
    pub made_up: Vec<String>,
    /// A line on the words each list draws from.
    pub summary: String,
}

/// SplitMix64: a small seeded generator, the same sequence on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Whether the BM25F strategy's analysis keeps `word` as one term.
fn one_term(word: &str) -> bool {
    let mut terms = Vec::new();
    tokenize(word, &mut terms);
    terms.len() == 1
        && terms
            .first()
            .is_some_and(|term| *term == stem(word.to_owned()))
}

/// The lists of `pool`, from the seed `seed`.
pub fn lists(pool: &[std::sync::Arc<ToolDoc>], seed: u64) -> Lists {
    let mut df: HashMap<String, usize> = HashMap::new();
    for tool in pool {
        let mut words = HashSet::new();
        plain_words(tool.own_name(), |word| {
            words.insert(word);
        });
        plain_words(tool.description(), |word| {
            words.insert(word);
        });
        for word in words {
            *df.entry(word).or_default() += 1;
        }
    }
    let mut eligible: Vec<(&str, usize)> = (df.iter())
        .filter(|(word, _)| word.len() >= 3 && word.bytes().all(|b| b.is_ascii_lowercase()))
        .filter(|(word, _)| one_term(word))
        .map(|(word, &df)| (word.as_str(), df))
        .collect();
    // By frequency, then alphabetically: the same order on every run.
    eligible.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let top = ((eligible.len() as f64 * FREQUENT_SHARE).ceil() as usize).max(1);
    let frequent: Vec<&str> = eligible.iter().take(top).map(|w| w.0).collect();
    let most_rare = (pool.len() as f64 * RARE_SHARE).floor() as usize;
    let rare: Vec<&str> = (eligible.iter())
        .filter(|w| w.1 <= most_rare)
        .map(|w| w.0)
        .collect();
    let df_range = |words: &[&str]| {
        let dfs = words.iter().map(|w| df[*w]);
        (dfs.clone().min().unwrap_or(0), dfs.max().unwrap_or(0))
    };
    let summary = format!(
        "{} tools, {} eligible words; frequent: {} words, df {:?}; rare: {} words, df {:?}",
        pool.len(),
        eligible.len(),
        frequent.len(),
        df_range(&frequent),
        rare.len(),
        df_range(&rare),
    );
    let mut rng = Rng(seed);
    let mut queries = |words: &[&str]| -> Vec<String> {
        (0..QUERIES)
            .map(|_| {
                let n = 1 + rng.below(3);
                let picked: Vec<&str> = (0..n).map(|_| words[rng.below(words.len())]).collect();
                picked.join(" ")
            })
            .collect()
    };
    let (frequent_queries, rare_queries) = (queries(&frequent), queries(&rare));
    let made_up = (0..QUERIES)
        .map(|_| {
            loop {
                let word: String = (0..8)
                    .map(|_| (b'a' + rng.below(26) as u8) as char)
                    .collect();
                if !df.contains_key(&word) {
                    break word;
                }
            }
        })
        .collect();
    Lists {
        frequent: frequent_queries,
        rare: rare_queries,
        made_up,
        summary,
    }
}

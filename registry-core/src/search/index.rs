//! An index over a pool's deferred tools that answers seed-mode keyword queries without
//! scanning every tool, with results equal to [`seed::search`](super::seed::search)'s scan.
//!
//! What it holds, per deferred tool (in pool order, numbered from 0):
//! * the tool's [`ToolText`] (name parts, lower-cased description and hint);
//! * a vocabulary of distinct name parts with postings (part → tools), and a sorted array of
//!   every suffix of every part, so "which parts contain this term" is two binary searches;
//! * postings from description and hint *words* (maximal runs of ASCII word characters) to
//!   tools.
//!
//! Why this is exact: a term made only of word characters matches `\bterm\b` in a text exactly
//! when it is one of the text's words, so the word postings answer the description and hint
//! rules; a term with any other character is checked against each tool's text (rare, and still
//! correct). A name part contains the term exactly when some suffix of the part starts with it.
//! The full-name rule (+3) can only fire when a name part contains the term, which the part
//! rule has already scored, so it never changes a result. Candidates are then scored term by
//! term with the seed weights and ranked like the scan: score descending, ties in pool order.

use std::collections::HashMap;
use std::sync::Arc;

use super::seed::{Terms, ToolText};
use super::text::matches_word;
use crate::pool::ToolInfo;

/// The seed index of one set of deferred tools.
#[derive(Debug, Default)]
pub struct SeedIndex {
    texts: Vec<ToolText>,
    vocab: Vec<Box<str>>,
    vocab_ids: HashMap<Box<str>, u32>,
    part_postings: Vec<Vec<u32>>,
    suffixes: Vec<(u32, u32)>,
    description_words: HashMap<Box<str>, Vec<u32>>,
    hint_words: HashMap<Box<str>, Vec<u32>>,
}

/// Whether every byte of `term` is an ASCII word character.
fn is_word_term(term: &str) -> bool {
    term.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The maximal runs of ASCII word characters of a lower-cased text.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .filter(|word| !word.is_empty())
}

/// Adds `tool` to `word`'s postings, allocating the key only for a new word.
fn add_posting(map: &mut HashMap<Box<str>, Vec<u32>>, word: &str, tool: u32) {
    match map.get_mut(word) {
        Some(list) => push_unique(list, tool),
        None => {
            map.insert(word.into(), vec![tool]);
        }
    }
}

fn push_unique(list: &mut Vec<u32>, tool: u32) {
    if list.last() != Some(&tool) {
        list.push(tool);
    }
}

impl SeedIndex {
    /// Indexes `deferred` (in pool order).
    pub fn build(deferred: &[Arc<ToolInfo>]) -> SeedIndex {
        let mut index = SeedIndex {
            texts: Vec::with_capacity(deferred.len()),
            ..SeedIndex::default()
        };
        for (i, tool) in deferred.iter().enumerate() {
            let id = i as u32;
            let text = ToolText::new(tool);
            for part in &text.name.parts {
                let vocab_id = match index.vocab_ids.get(part.as_str()) {
                    Some(&vocab_id) => vocab_id,
                    None => {
                        let vocab_id = index.vocab.len() as u32;
                        index.vocab.push(part.as_str().into());
                        index.vocab_ids.insert(part.as_str().into(), vocab_id);
                        index.part_postings.push(Vec::new());
                        vocab_id
                    }
                };
                push_unique(&mut index.part_postings[vocab_id as usize], id);
            }
            for word in words(&text.description) {
                add_posting(&mut index.description_words, word, id);
            }
            for word in words(&text.hint) {
                add_posting(&mut index.hint_words, word, id);
            }
            index.texts.push(text);
        }
        let vocab = &index.vocab;
        index.suffixes = vocab
            .iter()
            .enumerate()
            .flat_map(|(vocab_id, part)| {
                part.char_indices()
                    .map(move |(offset, _)| (vocab_id as u32, offset as u32))
            })
            .collect();
        index
            .suffixes
            .sort_unstable_by(|a, b| suffix(vocab, *a).cmp(suffix(vocab, *b)));
        index
    }

    /// The number of indexed tools.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The indexed text of tool `i`.
    pub fn text(&self, i: usize) -> &ToolText {
        &self.texts[i]
    }

    /// Tools with a name part that contains `term`, sorted, each once.
    fn part_hits(&self, term: &str) -> Vec<u32> {
        let vocab = &self.vocab;
        let start = self
            .suffixes
            .partition_point(|entry| suffix(vocab, *entry) < term);
        let mut parts: Vec<u32> = self.suffixes[start..]
            .iter()
            .take_while(|entry| suffix(vocab, **entry).starts_with(term))
            .map(|(vocab_id, _)| *vocab_id)
            .collect();
        parts.sort_unstable();
        parts.dedup();
        let mut tools: Vec<u32> = parts
            .iter()
            .flat_map(|vocab_id| self.part_postings[*vocab_id as usize].iter().copied())
            .collect();
        tools.sort_unstable();
        tools.dedup();
        tools
    }

    /// Tools with a name part equal to `term`.
    fn exact_hits(&self, term: &str) -> &[u32] {
        self.vocab_ids
            .get(term)
            .map_or(&[], |vocab_id| &self.part_postings[*vocab_id as usize])
    }

    /// Tools whose hint (`hint = true`) or description has `term` at word boundaries.
    fn word_hits(&self, term: &str, hint: bool) -> Vec<u32> {
        if is_word_term(term) {
            let words = if hint {
                &self.hint_words
            } else {
                &self.description_words
            };
            return words.get(term).cloned().unwrap_or_default();
        }
        (0..self.texts.len() as u32)
            .filter(|&i| {
                let text = &self.texts[i as usize];
                let field = if hint { &text.hint } else { &text.description };
                !field.is_empty() && matches_word(field, term)
            })
            .collect()
    }

    /// Tools passing the required-term filter for `term`.
    fn required_hits(&self, term: &str) -> Vec<u32> {
        let mut tools = self.part_hits(term);
        tools.extend(self.word_hits(term, false));
        tools.extend(self.word_hits(term, true));
        tools.sort_unstable();
        tools.dedup();
        tools
    }

    /// The tools that pass the required-term filter, sorted; `None` when nothing is required.
    pub fn required(&self, required: &[String]) -> Option<Vec<u32>> {
        required.iter().fold(None, |acc, term| {
            let hits = self.required_hits(term);
            Some(match acc {
                None => hits,
                Some(previous) => intersect(&previous, &hits),
            })
        })
    }

    /// Ranks tools for a keyword query with the seed weights; indices into the indexed tools.
    pub fn rank(&self, terms: &Terms, max_results: usize) -> Vec<usize> {
        let allowed = self.required(&terms.required);
        if allowed.as_ref().is_some_and(Vec::is_empty) {
            return Vec::new();
        }
        let keep = |tool: u32| {
            allowed
                .as_ref()
                .is_none_or(|list| list.binary_search(&tool).is_ok())
        };
        let mut contributions: Vec<(u32, u32)> = Vec::new();
        for term in &terms.scoring {
            let exact = self.exact_hits(term);
            for tool in self.part_hits(term) {
                if keep(tool) {
                    let mcp = self.texts[tool as usize].name.is_mcp;
                    let weight = match (exact.binary_search(&tool).is_ok(), mcp) {
                        (true, true) => 12,
                        (true, false) => 10,
                        (false, true) => 6,
                        (false, false) => 5,
                    };
                    contributions.push((tool, weight));
                }
            }
            for (hint, weight) in [(true, 4), (false, 2)] {
                for tool in self.word_hits(term, hint) {
                    if keep(tool) {
                        contributions.push((tool, weight));
                    }
                }
            }
        }
        contributions.sort_unstable_by_key(|(tool, _)| *tool);
        let mut scored: Vec<(u32, u32)> = Vec::new();
        for (tool, weight) in contributions {
            match scored.last_mut() {
                Some((last, total)) if *last == tool => *total += weight,
                _ => scored.push((tool, weight)),
            }
        }
        scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
            .into_iter()
            .take(max_results)
            .map(|(tool, _)| tool as usize)
            .collect()
    }

    /// Approximate heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        let text_bytes: usize = self
            .texts
            .iter()
            .map(|text| {
                text.description.capacity()
                    + text.hint.capacity()
                    + text.name.full.capacity()
                    + text
                        .name
                        .parts
                        .iter()
                        .map(|part| part.capacity() + 24)
                        .sum::<usize>()
                    + std::mem::size_of::<ToolText>()
            })
            .sum();
        let map_bytes = |map: &HashMap<Box<str>, Vec<u32>>| -> usize {
            map.iter()
                .map(|(key, list)| key.len() + 16 + list.capacity() * 4 + 24 + 8)
                .sum()
        };
        text_bytes
            + self.vocab.iter().map(|part| part.len() + 16).sum::<usize>() * 2
            + self
                .part_postings
                .iter()
                .map(|list| list.capacity() * 4 + 24)
                .sum::<usize>()
            + self.suffixes.capacity() * 8
            + map_bytes(&self.description_words)
            + map_bytes(&self.hint_words)
    }
}

fn suffix(vocab: &[Box<str>], (vocab_id, offset): (u32, u32)) -> &str {
    &vocab[vocab_id as usize][offset as usize..]
}

fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

//! An index over a pool's deferred tools that answers seed-mode keyword queries without
//! scanning every tool, with results equal to [`seed::search`](super::seed::search)'s scan.
//!
//! What it holds, per deferred tool (in pool order, numbered from 0):
//! * the tool itself (its text is lower-cased again only for the rare terms below);
//! * whether its name is an MCP name, and its distinct name parts as ids into a vocabulary;
//! * a vocabulary of distinct name parts with postings (part → tools), and every suffix of every
//!   part ordered by its first 8 bytes, so "which parts contain this term" is two binary
//!   searches and a check of each suffix in the range;
//! * postings from description and hint *words* (maximal runs of ASCII word characters) to
//!   tools.
//!
//! Why this is exact: a term made only of word characters matches `\bterm\b` in a text exactly
//! when it is one of the text's words, so the word postings answer the description and hint
//! rules; a term with any other character is checked against each tool's text (rare, and still
//! correct). A name part contains the term exactly when some suffix of the part starts with it.
//! The full-name rule (+3) can only fire when a name part contains the term, which the part
//! rule has already scored, so it never changes a result. Ranking is an exact top-k search over
//! these lists (document-at-a-time MaxScore, in `maxscore.rs`): score descending, ties in pool
//! order, without scoring every matching tool.

use std::sync::Arc;

use super::postings::Postings;
use super::seed::{Terms, ToolText};
use super::text::matches_word;
pub(super) use super::tokens::is_word_term;
pub use super::tokens::words;
use super::tokens::{FieldBuilder, Map, intern, key8, lower_into, split_name};
use crate::pool::ToolInfo;

/// One suffix in this many keeps its key in a sample for the first binary search.
const SAMPLE: usize = 16;

/// A vocabulary part used by an MCP tool.
pub(super) const PART_MCP: u8 = 1;
/// A vocabulary part used by a tool that is not an MCP tool.
pub(super) const PART_PLAIN: u8 = 2;

/// Name parts kept in place per tool, so that reading them is one memory access; a tool with
/// more keeps `INLINE - 1` in place and the rest in `more_parts`.
const INLINE: usize = 4;
/// An empty slot.
const NO_PART: u32 = u32::MAX;
/// Marks the last slot as an offset into `more_parts` (vocabulary ids stay below it).
const SPILL: u32 = 1 << 31;

/// The seed index of one set of deferred tools.
#[derive(Debug, Default)]
pub struct SeedIndex {
    tools: Vec<Arc<ToolInfo>>,
    mcp: Vec<bool>,
    tool_parts: Vec<[u32; INLINE]>,
    more_parts: Vec<u32>,
    vocab_text: String,
    vocab_starts: Vec<u32>,
    vocab_flags: Vec<u8>,
    vocab_ids: Map,
    part_postings: Postings,
    suffixes: Vec<(u32, u32)>,
    suffix_samples: Vec<u64>,
    word_ids: Map,
    description_words: Postings,
    hint_words: Postings,
}

impl SeedIndex {
    /// Indexes `deferred` (in pool order).
    pub fn build(deferred: &[Arc<ToolInfo>]) -> SeedIndex {
        let mut index = SeedIndex {
            tools: deferred.to_vec(),
            mcp: Vec::with_capacity(deferred.len()),
            tool_parts: Vec::with_capacity(deferred.len()),
            vocab_starts: vec![0],
            ..SeedIndex::default()
        };
        let (mut scratch, mut ranges) = (String::new(), Vec::new());
        let mut part_pairs: Vec<(u32, u32)> = Vec::with_capacity(deferred.len() * 2);
        let mut parts: Vec<u32> = Vec::new();
        let (mut description, mut hint) = (FieldBuilder::default(), FieldBuilder::default());
        for (i, tool) in deferred.iter().enumerate() {
            let id = i as u32;
            let mcp = split_name(&tool.name, &mut scratch, &mut ranges);
            index.mcp.push(mcp);
            parts.clear();
            for &(start, end) in &ranges {
                let part = &scratch[start as usize..end as usize];
                let (text, starts, flags) = (
                    &mut index.vocab_text,
                    &mut index.vocab_starts,
                    &mut index.vocab_flags,
                );
                let vocab_id = intern(&mut index.vocab_ids, part.as_bytes(), |_| {
                    text.push_str(part);
                    starts.push(text.len() as u32);
                    flags.push(0);
                });
                if !parts.contains(&vocab_id) {
                    parts.push(vocab_id);
                    part_pairs.push((vocab_id, id));
                    index.vocab_flags[vocab_id as usize] |= if mcp { PART_MCP } else { PART_PLAIN };
                }
            }
            index.push_parts(&parts);
            lower_into(&tool.description, &mut scratch);
            description.add(&mut index.word_ids, &scratch, id);
            if let Some(text) = &tool.search_hint {
                lower_into(text, &mut scratch);
                hint.add(&mut index.word_ids, &scratch, id);
            }
        }
        let (vocab, words) = (index.vocab_ids.len(), index.word_ids.len());
        assert!(
            vocab < SPILL as usize,
            "fewer than 2^31 distinct name parts"
        );
        index.part_postings = Postings::from_pairs(vocab, &part_pairs);
        index.description_words = Postings::from_pairs(words, &description.pairs);
        index.hint_words = Postings::from_pairs(words, &hint.pairs);
        index.suffixes = index.sorted_suffixes();
        index.suffix_samples = (index.suffixes.iter().step_by(SAMPLE))
            .map(|&entry| index.suffix_key(entry))
            .collect();
        index
    }

    /// The bytes of a part from a byte offset.
    fn suffix(&self, (part, at): (u32, u32)) -> &[u8] {
        let i = part as usize;
        let start = self.vocab_starts[i] as usize + at as usize;
        &self.vocab_text.as_bytes()[start..self.vocab_starts[i + 1] as usize]
    }

    fn suffix_key(&self, entry: (u32, u32)) -> u64 {
        key8(self.suffix(entry))
    }

    /// Every suffix of every part, as (part, byte offset), ordered by its first 8 bytes.
    fn sorted_suffixes(&self) -> Vec<(u32, u32)> {
        let mut keyed: Vec<(u64, u32, u32)> = Vec::with_capacity(self.vocab_text.len());
        for vocab_id in 0..self.vocab_flags.len() as u32 {
            let part = self.part(vocab_id);
            for (offset, _) in part.char_indices() {
                let key = key8(&part.as_bytes()[offset..]);
                keyed.push((key, vocab_id, offset as u32));
            }
        }
        keyed.sort_unstable_by_key(|entry| entry.0);
        keyed.into_iter().map(|(_, part, at)| (part, at)).collect()
    }

    /// The number of indexed tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The text of tool `i` as the keyword rules read it (from the tool the index was built on).
    pub fn text(&self, i: usize) -> ToolText {
        ToolText::new(&self.tools[i])
    }

    /// The indexed tool `i`.
    pub(super) fn tool(&self, i: u32) -> &ToolInfo {
        &self.tools[i as usize]
    }

    /// Whether tool `i` has an MCP name.
    pub(super) fn is_mcp(&self, i: u32) -> bool {
        self.mcp[i as usize]
    }

    /// The distinct name parts (vocabulary ids) of tool `i`, in two pieces.
    #[inline]
    pub(super) fn tool_parts(&self, i: u32) -> (&[u32], &[u32]) {
        let slots = &self.tool_parts[i as usize];
        let last = slots[INLINE - 1];
        if last != NO_PART && last & SPILL != 0 {
            let at = (last & !SPILL) as usize;
            let more = self.more_parts[at] as usize;
            return (
                &slots[..INLINE - 1],
                &self.more_parts[at + 1..at + 1 + more],
            );
        }
        let n = slots.iter().position(|&part| part == NO_PART);
        (&slots[..n.unwrap_or(INLINE)], &[])
    }

    /// Adds the next tool's distinct name parts.
    fn push_parts(&mut self, parts: &[u32]) {
        let mut slots = [NO_PART; INLINE];
        if parts.len() <= INLINE {
            slots[..parts.len()].copy_from_slice(parts);
        } else {
            slots[..INLINE - 1].copy_from_slice(&parts[..INLINE - 1]);
            let at = u32::try_from(self.more_parts.len()).expect("fewer than 2^31 spilled parts");
            assert!(at < SPILL, "fewer than 2^31 spilled parts");
            slots[INLINE - 1] = SPILL | at;
            let rest = &parts[INLINE - 1..];
            self.more_parts.push(rest.len() as u32);
            self.more_parts.extend_from_slice(rest);
        }
        self.tool_parts.push(slots);
    }

    /// The number of distinct name parts.
    pub(super) fn vocab_len(&self) -> usize {
        self.vocab_flags.len()
    }

    fn part(&self, vocab_id: u32) -> &str {
        let i = vocab_id as usize;
        &self.vocab_text[self.vocab_starts[i] as usize..self.vocab_starts[i + 1] as usize]
    }

    /// The [`PART_MCP`] and [`PART_PLAIN`] flags of a part.
    pub(super) fn part_flags(&self, vocab_id: u32) -> u8 {
        self.vocab_flags[vocab_id as usize]
    }

    /// The tools with name part `vocab_id`.
    pub(super) fn part_tools(&self, vocab_id: u32) -> &[u32] {
        self.part_postings.get(vocab_id)
    }

    /// The part equal to `term`.
    pub(super) fn exact_part(&self, term: &str) -> Option<u32> {
        self.vocab_ids.get(term.as_bytes()).copied()
    }

    /// Calls `found` for each part that contains `term`, once per suffix that starts with it
    /// (a part may come more than once).
    pub(super) fn containing_parts(&self, term: &str, mut found: impl FnMut(u32)) {
        let bytes = term.as_bytes();
        let n = bytes.len().min(8);
        let low = key8(bytes);
        let mut high = low.to_be_bytes();
        high[n..].fill(0xff);
        let high = u64::from_be_bytes(high);
        // The first suffix not below `low` is in the block before the first sample not below.
        let block = self.suffix_samples.partition_point(|&key| key < low);
        let from = block.saturating_sub(1) * SAMPLE;
        let to = (block * SAMPLE).min(self.suffixes.len());
        let start =
            from + self.suffixes[from..to].partition_point(|&entry| self.suffix_key(entry) < low);
        for &entry in &self.suffixes[start..] {
            let suffix = self.suffix(entry);
            if key8(suffix) > high {
                break;
            }
            if suffix.starts_with(bytes) {
                found(entry.0);
            }
        }
    }

    /// Tools whose hint (`hint = true`) or description has the word `term`; `term` must be a
    /// word term.
    pub(super) fn word_tools(&self, term: &str, hint: bool) -> &[u32] {
        let Some(&id) = self.word_ids.get(term.as_bytes()) else {
            return &[];
        };
        match hint {
            true => self.hint_words.get(id),
            false => self.description_words.get(id),
        }
    }

    /// Tools whose (hint, description) has `term` at word boundaries, for any term, by a scan
    /// when it is not a word term.
    pub(super) fn word_hits(&self, term: &str) -> (Vec<u32>, Vec<u32>) {
        if is_word_term(term) {
            return (
                self.word_tools(term, true).to_vec(),
                self.word_tools(term, false).to_vec(),
            );
        }
        // Where `\bterm\b` matches, each maximal run of word characters of the term is a whole
        // word of the text: inside the term it sits between non-word characters, and at an end
        // of the term the `\b` puts a non-word character (or the text's end) beside it. So only
        // the tools having every such run as a word can match; they are checked one by one.
        let runs: Vec<&str> = super::tokens::words(term).collect();
        // Lower-casing ASCII text changes only letters: a term without any reads it as is.
        let caseless = term
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_alphabetic());
        let mut lower = String::new();
        let mut check = |field: &dyn Fn(&ToolInfo) -> Option<&str>, hint: bool| -> Vec<u32> {
            let mut matching = |i: u32| {
                field(self.tool(i)).is_some_and(|text| {
                    if caseless && text.is_ascii() {
                        return matches_word(text, term);
                    }
                    lower_into(text, &mut lower);
                    matches_word(&lower, term)
                })
            };
            let mut lists: Vec<&[u32]> =
                runs.iter().map(|run| self.word_tools(run, hint)).collect();
            lists.sort_by_key(|list| list.len());
            match lists.split_first() {
                None => (0..self.tools.len() as u32)
                    .filter(|&i| matching(i))
                    .collect(),
                Some((rarest, others)) => (rarest.iter().copied())
                    .filter(|tool| others.iter().all(|list| list.binary_search(tool).is_ok()))
                    .filter(|&i| matching(i))
                    .collect(),
            }
        };
        let hint = check(&|tool| tool.search_hint.as_deref(), true);
        let description = check(&|tool| Some(tool.description.as_str()), false);
        (hint, description)
    }

    /// Tools passing the required-term filter for `term`, sorted.
    fn required_hits(&self, term: &str) -> Vec<u32> {
        let mut tools = Vec::new();
        self.containing_parts(term, |part| tools.extend(self.part_tools(part)));
        let (hint, description) = self.word_hits(term);
        tools.extend(hint);
        tools.extend(description);
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
        super::maxscore::rank(self, terms, max_results)
    }

    /// The seed score of each of `tools` (indices in ascending order, each once) over the
    /// scoring terms `scoring`, as [`rank`](Self::rank) scores them.
    ///
    /// Each tool is read from the index: its own name parts, and the word lists of the hint
    /// and description (a term with non-word characters is matched against the tool's text).
    pub fn scores(&self, scoring: &[String], tools: &[u32]) -> Vec<u32> {
        let terms: Vec<ScoringTerm> = scoring
            .iter()
            .map(|term| ScoringTerm {
                text: term,
                exact: self.exact_part(term),
                words: is_word_term(term)
                    .then(|| [self.word_tools(term, true), self.word_tools(term, false)]),
            })
            .collect();
        tools
            .iter()
            .map(|&tool| self.score_of(&terms, tool))
            .collect()
    }

    fn score_of(&self, terms: &[ScoringTerm], tool: u32) -> u32 {
        let [exact, partial] = if self.is_mcp(tool) { [12, 6] } else { [10, 5] };
        let (inline, more) = self.tool_parts(tool);
        let mut text: Option<ToolText> = None;
        let mut score = 0;
        for term in terms {
            let mut part = 0;
            for &vocab_id in inline.iter().chain(more) {
                if Some(vocab_id) == term.exact {
                    part = exact;
                    break;
                }
                let name = self.part(vocab_id);
                if part == 0 && name.len() > term.text.len() && name.contains(term.text) {
                    part = partial;
                }
            }
            let [hint, description] = match term.words {
                Some(lists) => lists.map(|list| list.binary_search(&tool).is_ok()),
                None => {
                    let text = text.get_or_insert_with(|| self.text(tool as usize));
                    [
                        !text.hint.is_empty() && matches_word(&text.hint, term.text),
                        matches_word(&text.description, term.text),
                    ]
                }
            };
            score += part + 4 * u32::from(hint) + 2 * u32::from(description);
        }
        score
    }

    /// Approximate heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        let map_bytes = |map: &Map| -> usize { map.keys().map(|key| key.len() + 16 + 4 + 8).sum() };
        self.tools.capacity() * 8
            + self.mcp.capacity()
            + self.tool_parts.capacity() * INLINE * 4
            + self.more_parts.capacity() * 4
            + self.vocab_text.capacity()
            + self.vocab_starts.capacity() * 4
            + self.vocab_flags.capacity()
            + map_bytes(&self.vocab_ids)
            + self.part_postings.heap_bytes()
            + self.suffixes.capacity() * 8
            + self.suffix_samples.capacity() * 8
            + map_bytes(&self.word_ids)
            + self.description_words.heap_bytes()
            + self.hint_words.heap_bytes()
    }
}

/// A scoring term looked up once for [`SeedIndex::scores`]: its equal name part, and for a word
/// term the tools having it as a hint or description word.
struct ScoringTerm<'a> {
    text: &'a str,
    exact: Option<u32>,
    words: Option<[&'a [u32]; 2]>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_with_many_parts_keep_the_rest_apart() {
        let names = [
            "mcp__a_b_c__d_e_f_a",
            "x",
            "mcp__s__one_two_three_four",
            "Ab",
        ];
        let tools: Vec<Arc<ToolInfo>> = names
            .into_iter()
            .map(|name| Arc::new(ToolInfo::new(name, "")))
            .collect();
        let index = SeedIndex::build(&tools);
        let parts = |i: u32| -> Vec<&str> {
            let (inline, more) = index.tool_parts(i);
            inline
                .iter()
                .chain(more)
                .map(|&part| index.part(part))
                .collect()
        };
        assert_eq!(parts(0), ["a", "b", "c", "d", "e", "f"]);
        assert_eq!(parts(1), ["x"]);
        assert_eq!(parts(2), ["s", "one", "two", "three", "four"]);
        assert_eq!(parts(3), ["ab"]);
    }

    #[test]
    fn containing_parts_finds_every_part_with_the_term() {
        let tools: Vec<Arc<ToolInfo>> = [
            "mcp__s__weather",
            "mcp__s__getweatherforecast",
            "Weatherly",
            "Other",
        ]
        .into_iter()
        .map(|name| Arc::new(ToolInfo::new(name, "")))
        .collect();
        let index = SeedIndex::build(&tools);
        for term in [
            "weather",
            "eather",
            "w",
            "r",
            "getweatherfore",
            "weatherforecast",
            "zz",
            "s",
        ] {
            let mut found = Vec::new();
            index.containing_parts(term, |part| found.push(index.part(part).to_owned()));
            found.sort();
            found.dedup();
            let mut expected: Vec<String> = (0..index.vocab_len() as u32)
                .map(|part| index.part(part).to_owned())
                .filter(|part| part.contains(term))
                .collect();
            expected.sort();
            assert_eq!(found, expected, "{term:?}");
        }
    }
}

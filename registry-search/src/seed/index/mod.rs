//! An index over a pool's deferred tools that answers seed-mode keyword queries without
//! scanning every tool, with results equal to [`scan::search`](super::scan::search)'s scan.
//!
//! What it holds, per deferred tool (in pool order, numbered from 0):
//! * the tool itself (its texts are read again only for the rare terms below);
//! * whether its name is an MCP name and which letters its name parts hold (`letters`), and its
//!   distinct name parts as ids into a vocabulary;
//! * a vocabulary of distinct name parts with postings (part → tools), and every suffix of every
//!   part ordered by its first 8 bytes, so "which parts contain this term" is two binary
//!   searches and a check of each suffix in the range;
//! * postings from description and hint *words* (maximal runs of ASCII word characters) to
//!   tools;
//! * a 32-bit signature of each description's gaps (runs of non-word characters between word
//!   characters, `gaps`), which turns away most texts a term with non-word characters would
//!   otherwise be checked against.
//!
//! Why this is exact: a term made only of word characters matches `\bterm\b` in a text exactly
//! when it is one of the text's words, so the word postings answer the description and hint
//! rules; a term with any other character is checked against each tool's text (rare, and still
//! correct). A name part contains the term exactly when some suffix of the part starts with it.
//! The full-name rule (+3) can only fire when a name part contains the term, which the part
//! rule has already scored, so it never changes a result. Ranking is an exact top-k search over
//! these lists (document-at-a-time MaxScore with block bounds, `maxscore/`): score descending, ties in pool
//! order, without scoring every matching tool.

use std::sync::Arc;

mod blocks;
mod by_term;
mod gaps;
mod hits;
mod intern;
mod letters;
mod maxscore;
mod partset;
mod postings;
mod rank;
mod scorer;
mod terms;

use self::intern::{FieldBuilder, Map, intern};
use self::letters::NameLetters;
use self::partset::PartSet;
use self::postings::Postings;
pub(crate) use self::scorer::Scorer;
use super::ToolText;
use crate::document::Document;
use crate::text::lower_into;
use crate::text::names::split_name;
use crate::util::sorted::key8;

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
#[derive(Debug)]
pub struct SeedIndex<D> {
    tools: Vec<Arc<D>>,
    letters: Vec<NameLetters>,
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
    /// Each tool's description's gap signature (`gaps`).
    description_gaps: Vec<u32>,
    hint_words: Postings,
}

impl<D> Default for SeedIndex<D> {
    fn default() -> Self {
        SeedIndex {
            tools: Vec::new(),
            letters: Vec::new(),
            tool_parts: Vec::new(),
            more_parts: Vec::new(),
            vocab_text: String::new(),
            vocab_starts: Vec::new(),
            vocab_flags: Vec::new(),
            vocab_ids: Map::default(),
            part_postings: Postings::default(),
            suffixes: Vec::new(),
            suffix_samples: Vec::new(),
            word_ids: Map::default(),
            description_words: Postings::default(),
            description_gaps: Vec::new(),
            hint_words: Postings::default(),
        }
    }
}

impl<D: Document> SeedIndex<D> {
    /// Indexes `deferred` (in pool order).
    pub fn build(deferred: &[Arc<D>]) -> SeedIndex<D> {
        let mut index = SeedIndex {
            tools: deferred.to_vec(),
            letters: Vec::with_capacity(deferred.len()),
            tool_parts: Vec::with_capacity(deferred.len()),
            description_gaps: Vec::with_capacity(deferred.len()),
            vocab_starts: vec![0],
            ..SeedIndex::default()
        };
        let (mut scratch, mut ranges) = (String::new(), Vec::new());
        let mut parts: Vec<u32> = Vec::new();
        // For each part, the last tool that has it (`u32::MAX` for none yet): a tool's
        // distinct parts in time linear in its name, however many parts it has.
        let mut part_tool: Vec<u32> = Vec::new();
        let (mut description, mut hint) = (FieldBuilder::default(), FieldBuilder::default());
        for (i, tool) in deferred.iter().enumerate() {
            let id = i as u32;
            let mcp = split_name(tool.name(), &mut scratch, &mut ranges);
            // The parts the vocabulary gets below.
            let name_parts = (ranges.iter())
                .filter_map(|&(start, end)| scratch.get(start as usize..end as usize))
                .map(str::as_bytes);
            index.letters.push(NameLetters::new(name_parts, mcp));
            parts.clear();
            for &(start, end) in &ranges {
                let Some(part) = scratch.get(start as usize..end as usize) else {
                    continue;
                };
                let (text, starts, flags) = (
                    &mut index.vocab_text,
                    &mut index.vocab_starts,
                    &mut index.vocab_flags,
                );
                let vocab_id = intern(&mut index.vocab_ids, part.as_bytes(), |_| {
                    text.push_str(part);
                    starts.push(text.len() as u32);
                    flags.push(0);
                    part_tool.push(u32::MAX);
                });
                let i = vocab_id as usize;
                if let (Some(last), Some(flags)) =
                    (part_tool.get_mut(i), index.vocab_flags.get_mut(i))
                    && *last != id
                {
                    *last = id;
                    parts.push(vocab_id);
                    *flags |= if mcp { PART_MCP } else { PART_PLAIN };
                }
            }
            index.push_parts(&parts);
            lower_into(tool.description(), &mut scratch);
            description.add(&mut index.word_ids, &scratch, id);
            index.description_gaps.push(gaps::signature(&scratch));
            if let Some(text) = tool.search_hint() {
                lower_into(text, &mut scratch);
                hint.add(&mut index.word_ids, &scratch, id);
            }
        }
        let (vocab, words) = (index.vocab_ids.len(), index.word_ids.len());
        assert!(
            vocab < SPILL as usize,
            "fewer than 2^31 distinct name parts"
        );
        let tools = deferred.len() as u32;
        index.part_postings = Postings::from_runs(vocab, tools, |i| {
            let (inline, more) = index.tool_parts(i);
            inline.iter().chain(more).copied()
        });
        index.description_words = Postings::from_runs(words, tools, |i| description.run(i));
        index.hint_words = Postings::from_runs(words, tools, |i| hint.run(i));
        index.suffixes = index.sorted_suffixes();
        index.suffix_samples = (index.suffixes.iter().step_by(SAMPLE))
            .map(|&entry| index.suffix_key(entry))
            .collect();
        index
    }

    /// The bytes of a part from a byte offset (none for a part or an offset it does not have).
    #[inline]
    fn suffix(&self, (part, at): (u32, u32)) -> &[u8] {
        let i = part as usize;
        let (Some(&start), Some(&end)) = (self.vocab_starts.get(i), self.vocab_starts.get(i + 1))
        else {
            return &[];
        };
        let text = self.vocab_text.as_bytes();
        text.get(start as usize + at as usize..end as usize)
            .unwrap_or_default()
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
                let key = key8(part.as_bytes().get(offset..).unwrap_or_default());
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

    /// The text of tool `i` as the keyword rules read it (from the tool the index was built on);
    /// a position past the last tool reads as a tool without text, which scores nothing.
    pub fn text(&self, i: usize) -> ToolText {
        self.tools
            .get(i)
            .map_or_else(ToolText::default, |tool| ToolText::new(&**tool))
    }

    /// The indexed tool `i`.
    pub(super) fn tool(&self, i: u32) -> Option<&D> {
        self.tools.get(i as usize).map(|tool| &**tool)
    }

    /// Whether tool `i` has an MCP name.
    pub(super) fn is_mcp(&self, i: u32) -> bool {
        self.letters(i).is_mcp()
    }

    /// Tool `i`'s name letters (none for a tool past the last).
    #[inline]
    fn letters(&self, i: u32) -> NameLetters {
        self.letters.get(i as usize).copied().unwrap_or_default()
    }

    /// The distinct name parts (vocabulary ids) of tool `i`, in two pieces (none for a tool
    /// past the last).
    #[inline]
    pub(super) fn tool_parts(&self, i: u32) -> (&[u32], &[u32]) {
        let Some(slots) = self.tool_parts.get(i as usize) else {
            return (&[], &[]);
        };
        let Some((&last, inline)) = slots.split_last() else {
            return (&[], &[]);
        };
        if last != NO_PART && last & SPILL != 0 {
            // The spilled parts: their number, then the parts.
            let at = (last & !SPILL) as usize;
            let more = match self.more_parts.get(at..).and_then(<[u32]>::split_first) {
                Some((&n, rest)) => rest.get(..n as usize).unwrap_or_default(),
                None => &[],
            };
            return (inline, more);
        }
        let n = slots.iter().position(|&part| part == NO_PART);
        (slots.get(..n.unwrap_or(INLINE)).unwrap_or(slots), &[])
    }

    /// Adds the next tool's distinct name parts.
    fn push_parts(&mut self, parts: &[u32]) {
        let mut slots = [NO_PART; INLINE];
        match parts.split_at_checked(INLINE - 1) {
            Some((inline, rest)) if parts.len() > INLINE => {
                for (slot, &part) in slots.iter_mut().zip(inline) {
                    *slot = part;
                }
                let at = self.more_parts.len();
                // A capacity limit of the format, like `Vec`'s: 2^31 spilled parts take 8 GiB.
                assert!(at < SPILL as usize, "fewer than 2^31 spilled parts");
                if let Some(spill) = slots.last_mut() {
                    *spill = SPILL | at as u32;
                }
                self.more_parts.push(rest.len() as u32);
                self.more_parts.extend_from_slice(rest);
            }
            _ => {
                for (slot, &part) in slots.iter_mut().zip(parts) {
                    *slot = part;
                }
            }
        }
        self.tool_parts.push(slots);
    }

    /// The number of distinct name parts.
    pub(super) fn vocab_len(&self) -> usize {
        self.vocab_flags.len()
    }

    /// The text of a part (empty for an id past the vocabulary).
    fn part(&self, vocab_id: u32) -> &str {
        let i = vocab_id as usize;
        let (Some(&start), Some(&end)) = (self.vocab_starts.get(i), self.vocab_starts.get(i + 1))
        else {
            return "";
        };
        self.vocab_text
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// The [`PART_MCP`] and [`PART_PLAIN`] flags of a part.
    pub(super) fn part_flags(&self, vocab_id: u32) -> u8 {
        self.vocab_flags
            .get(vocab_id as usize)
            .copied()
            .unwrap_or(0)
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
        let low = key8(bytes);
        // The term's first (up to 8) bytes, the rest of the key all ones.
        let high = low
            | u64::MAX
                .checked_shr(8 * bytes.len().min(8) as u32)
                .unwrap_or(0);
        // The first suffix not below `low` is in the block before the first sample not below.
        let block = self.suffix_samples.partition_point(|&key| key < low);
        let from = block.saturating_sub(1) * SAMPLE;
        let to = (block * SAMPLE).min(self.suffixes.len());
        let first_block = self.suffixes.get(from..to).unwrap_or_default();
        let start = from + first_block.partition_point(|&entry| self.suffix_key(entry) < low);
        for &entry in self.suffixes.get(start..).unwrap_or_default() {
            let suffix = self.suffix(entry);
            if key8(suffix) > high {
                break;
            }
            if suffix.starts_with(bytes) {
                found(entry.0);
            }
        }
    }

    /// The parts containing `term` other than `exact` (its own part), each once, and their
    /// set; a bit set is paid from `bit_words` ([`PartSet::new`]).
    pub(crate) fn partial_parts(
        &self,
        term: &str,
        exact: Option<u32>,
        bit_words: &mut usize,
    ) -> (Vec<u32>, PartSet) {
        // Common terms are in many parts: room for a few doublings' worth up front.
        let mut parts = Vec::with_capacity(64);
        self.containing_parts(term, |part| {
            if Some(part) != exact {
                parts.push(part);
            }
        });
        let set = PartSet::new(&mut parts, self.vocab_len(), bit_words);
        (parts, set)
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

    /// Approximate heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        let map_bytes = |map: &Map| -> usize { map.keys().map(|key| key.len() + 16 + 4 + 8).sum() };
        self.tools.capacity() * 8
            + self.letters.capacity() * 4
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
            + self.description_gaps.capacity() * 4
            + self.hint_words.heap_bytes()
    }
}

#[cfg(test)]
mod tests;

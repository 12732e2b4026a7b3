//! The seed index's answers for query terms: which tools a term hits, required terms, and
//! exact seed scores of chosen tools.

use std::cell::OnceCell;

use super::*;
use super::by_term::{Among, BY_TERM_RANK};
use crate::partset::{BIT_WORDS, PartSet};

impl<D: Document> SeedIndex<D> {
    /// Tools whose (hint, description) has `term` at word boundaries, for any term, by a scan
    /// when it is not a word term.
    pub(crate) fn word_hits(&self, term: &str) -> (Vec<u32>, Vec<u32>) {
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
        // Each distinct run once: a term of many runs costs as many lists as distinct words.
        let runs: Distinct = crate::text::words(term).collect();
        // Lower-casing ASCII text changes only letters: a term without any reads it as is.
        let caseless = term
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_alphabetic());
        let mut lower = String::new();
        let mut check = |field: &dyn Fn(&D) -> Option<&str>, hint: bool| -> Vec<u32> {
            let mut matching = |i: u32| {
                self.tool(i).and_then(field).is_some_and(|text| {
                    if caseless && text.is_ascii() {
                        return matches_word(text, term);
                    }
                    lower_into(text, &mut lower);
                    matches_word(&lower, term)
                })
            };
            let mut lists: Vec<&[u32]> =
                runs.texts().map(|run| self.word_tools(run, hint)).collect();
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
        let hint = check(&|tool| tool.search_hint(), true);
        let description = check(&|tool| Some(tool.description()), false);
        (hint, description)
    }

    /// The (hint, description) hits of the `terms` that have no word character (`+`, `->`),
    /// from one pass over every tool's texts, when there are at least [`GAP_PASS`] of them;
    /// otherwise none, and [`word_hits`](Self::word_hits) scans the texts for each.
    ///
    /// Such a term matches `\bterm\b` exactly where it is a whole run of non-word characters
    /// with a word character on each side: the `\b` before its first character needs a word
    /// character before it, and the one after its last needs one after it. So each text is
    /// split once into those runs, and each run looked up among the terms.
    pub(crate) fn gap_hits<'q>(
        &self,
        terms: impl ExactSizeIterator<Item = &'q str>,
    ) -> GapHits<'q> {
        if terms.len() < GAP_PASS {
            return GapHits::default();
        }
        let mut hits: HashMap<&str, Hits> = terms
            .filter(|term| !term.is_empty() && !term.bytes().any(is_word_byte))
            .map(|term| (term, (Vec::new(), Vec::new())))
            .collect();
        if hits.len() < GAP_PASS {
            return GapHits::default();
        }
        let mut lower = String::new();
        for (i, tool) in self.tools.iter().enumerate() {
            let id = i as u32;
            for (hint, text) in [
                (true, tool.search_hint()),
                (false, Some(tool.description())),
            ] {
                let Some(text) = text else {
                    continue;
                };
                // Lower-casing ASCII text changes letters only, never a run without one.
                let text = match text.is_ascii() {
                    true => text,
                    false => {
                        lower_into(text, &mut lower);
                        lower.as_str()
                    }
                };
                for gap in inner_gaps(text) {
                    if let Some((hint_hits, description_hits)) = hits.get_mut(gap) {
                        let list = if hint { hint_hits } else { description_hits };
                        if list.last() != Some(&id) {
                            list.push(id);
                        }
                    }
                }
            }
        }
        GapHits(Some(hits))
    }

    /// [`word_hits`](Self::word_hits), taken from `gaps` when it holds the term.
    pub(crate) fn word_hits_in(
        &self,
        term: &str,
        gaps: &mut GapHits,
    ) -> (Vec<u32>, Vec<u32>) {
        match gaps.0.as_mut().and_then(|hits| hits.remove(term)) {
            Some(hits) => hits,
            None => self.word_hits(term),
        }
    }

    /// Tools passing the required-term filter for `term`, sorted.
    fn required_hits(&self, term: &str, gaps: &mut GapHits) -> Vec<u32> {
        // A part with the term more than once is reported once per suffix: list its tools once.
        let mut parts = Vec::new();
        self.containing_parts(term, |part| parts.push(part));
        parts.sort_unstable();
        parts.dedup();
        let mut tools: Vec<u32> = (parts.iter())
            .flat_map(|&part| self.part_tools(part))
            .copied()
            .collect();
        let (hint, description) = self.word_hits_in(term, gaps);
        tools.extend(hint);
        tools.extend(description);
        tools.sort_unstable();
        tools.dedup();
        tools
    }

    /// The tools that pass the required-term filter, sorted; `None` when nothing is required.
    ///
    /// Each distinct term is looked up once, and none after the tools run out.
    pub fn required(&self, required: &[String]) -> Option<Vec<u32>> {
        if required.is_empty() {
            return None;
        }
        let distinct: Distinct = required.iter().map(String::as_str).collect();
        let mut gaps = self.gap_hits(distinct.texts());
        let mut passing: Option<Vec<u32>> = None;
        for term in distinct.texts() {
            if passing.as_ref().is_some_and(Vec::is_empty) {
                break;
            }
            let hits = self.required_hits(term, &mut gaps);
            passing = Some(match passing {
                None => hits,
                Some(previous) => intersect(&previous, &hits),
            });
        }
        passing
    }

    /// Ranks tools for a keyword query with the seed weights; indices into the indexed tools.
    ///
    /// A query of many terms is ranked term by term ([`BY_TERM_RANK`]): its common words give
    /// MaxScore little to skip, and adding up every list is cheaper than moving through them
    /// tool by tool. Both rankings are exact; only the time differs.
    pub fn rank(&self, terms: &Terms, max_results: usize) -> Vec<usize> {
        let ranked = self.rank_scored(terms, max_results);
        ranked.into_iter().map(|(tool, _)| tool).collect()
    }

    /// Like [`rank`](Self::rank), with each tool's score (what [`scores`](Self::scores) gives
    /// it).
    pub fn rank_scored(&self, terms: &Terms, max_results: usize) -> Vec<(usize, u32)> {
        self.rank_scored_with(&self.scorer(&terms.scoring), terms, max_results)
    }

    /// [`rank_scored`](Self::rank_scored) with the terms as `scorer` (made from
    /// `terms.scoring`) looked them up, so that its later scores need not look them up again.
    pub(crate) fn rank_scored_with(
        &self,
        scorer: &Scorer<D>,
        terms: &Terms,
        max_results: usize,
    ) -> Vec<(usize, u32)> {
        debug_assert!(std::ptr::eq(scorer.scoring, terms.scoring.as_slice()));
        if terms.scoring.len() > BY_TERM_RANK {
            return self.rank_by_term(terms, max_results);
        }
        crate::maxscore::rank(self, scorer, &terms.required, max_results)
    }

    /// The seed score of each of `tools` (indices in ascending order, each once) over the
    /// scoring terms `scoring`, as [`rank`](Self::rank) scores them.
    pub fn scores(&self, scoring: &[String], tools: &[u32]) -> Vec<u32> {
        self.scorer(scoring).scores(tools)
    }

    /// A [`Scorer`] of the scoring terms `scoring`: their seed scores for chosen tools, with
    /// the terms looked up once however many times it is asked.
    pub(crate) fn scorer<'a>(&'a self, scoring: &'a [String]) -> Scorer<'a, D> {
        Scorer {
            index: self,
            scoring,
            terms: OnceCell::new(),
            partial: OnceCell::new(),
        }
    }

    /// One tool's seed score; `partial` holds each term's parts that contain it.
    fn score_of(&self, terms: &[ScoringTerm], partial: &[(Vec<u32>, PartSet)], tool: u32) -> u32 {
        let [exact, contains] = if self.is_mcp(tool) { [12, 6] } else { [10, 5] };
        let (inline, more) = self.tool_parts(tool);
        let mut text: Option<ToolText> = None;
        let mut score = 0;
        for (term, (_, partial)) in terms.iter().zip(partial) {
            let mut part = 0;
            for &vocab_id in inline.iter().chain(more) {
                if Some(vocab_id) == term.exact {
                    part = exact;
                    break;
                }
                if part == 0 && partial.contains(vocab_id) {
                    part = contains;
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
            score += (part + 4 * u32::from(hint) + 2 * u32::from(description)) * term.mult;
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

/// Seed scores of chosen tools for one query's terms ([`SeedIndex::scorer`]).
///
/// Each tool is read from the index: its own name parts, and the word lists of the hint and
/// description (a term with non-word characters is matched against the tool's text). Few tools
/// and terms are scored tool by tool; many, term by term, from each term's lists of tools: then
/// the time is that of the lists, not of tools times terms.
pub(crate) struct Scorer<'a, D> {
    index: &'a SeedIndex<D>,
    /// The scoring terms as said.
    scoring: &'a [String],
    /// Each distinct term looked up, on first use (ranking many terms term by term needs
    /// none of this).
    terms: OnceCell<Vec<ScoringTerm<'a>>>,
    /// Each term's parts that contain it without being it, and their set, found on first use.
    partial: OnceCell<Vec<(Vec<u32>, PartSet)>>,
}

/// What [`Scorer::terms`] tells of one distinct scoring term.
pub(crate) struct TermParts<'s> {
    pub(crate) text: &'s str,
    /// How many times the query says it.
    pub(crate) mult: u32,
    /// The name part equal to it.
    pub(crate) exact: Option<u32>,
    /// The other name parts that contain it, each once.
    pub(crate) partial: &'s [u32],
    /// The same parts, to test a tool's parts against.
    pub(crate) set: &'s PartSet,
}

impl<D: Document> Scorer<'_, D> {
    /// The distinct terms, looked up once.
    fn looked_up(&self) -> &[ScoringTerm<'_>] {
        (self.terms).get_or_init(|| self.index.scoring_terms(self.scoring))
    }

    /// Each term's containing parts, found once.
    fn partial(&self) -> &[(Vec<u32>, PartSet)] {
        self.partial.get_or_init(|| {
            let mut bit_words = BIT_WORDS;
            (self.looked_up().iter())
                .map(|term| (self.index).partial_parts(term.text, term.exact, &mut bit_words))
                .collect()
        })
    }

    /// The distinct scoring terms, in the order first said, with their name parts.
    pub(crate) fn terms(&self) -> impl Iterator<Item = TermParts<'_>> {
        (self.looked_up().iter().zip(self.partial())).map(|(term, (partial, set))| TermParts {
            text: term.text,
            mult: term.mult,
            exact: term.exact,
            partial,
            set,
        })
    }

    /// The seed score of each of `tools` (indices in ascending order, each once).
    pub(crate) fn scores(&self, tools: &[u32]) -> Vec<u32> {
        let (index, terms) = (self.index, self.looked_up());
        if tools.len().saturating_mul(terms.len()) > BY_TOOL {
            return index.scores_by_term(terms, Among::Tools(tools));
        }
        let partial = self.partial();
        (tools.iter())
            .map(|&tool| index.score_of(terms, partial, tool))
            .collect()
    }
}

/// A map hashed with foldhash.
pub(super) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// Above this many tools times terms, [`SeedIndex::scores`] scores term by term.
pub(super) const BY_TOOL: usize = 1 << 16;

/// From this many distinct terms without a word character, [`SeedIndex::gap_hits`] matches
/// them in one pass over the tools' texts (about as long as this many scans for one term).
pub(super) const GAP_PASS: usize = 16;

/// Terms without a word character, each with its (hint, description) hits; none when they were
/// too few for [`SeedIndex::gap_hits`] to take one pass for them.
#[derive(Debug, Default)]
pub(crate) struct GapHits<'q>(pub(super) Option<HashMap<&'q str, Hits>>);

/// The tools whose hint, and whose description, has a term.
type Hits = (Vec<u32>, Vec<u32>);

/// The runs of non-word characters of `text` that have a word character on each side.
pub(super) fn inner_gaps(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = (text.split(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')).peekable();
    // Before the first word character (the whole text when it has none).
    pieces.next();
    std::iter::from_fn(move || {
        loop {
            let piece = pieces.next()?;
            // The last piece is after the last word character.
            pieces.peek()?;
            if !piece.is_empty() {
                return Some(piece);
            }
        }
    })
}

/// Calls `found` with the position in `tools` of each tool also in `list` (both sorted), and
/// the tool: the shorter list is walked, the longer searched by galloping.
pub(super) fn for_each_common(list: &[u32], tools: &[u32], mut found: impl FnMut(usize, u32)) {
    let mut pos = 0;
    if list.len() <= tools.len() {
        for &tool in list {
            match seek(tools, &mut pos, tool) {
                END => break,
                next if next == tool => found(pos, tool),
                _ => {}
            }
        }
    } else {
        for (at, &tool) in tools.iter().enumerate() {
            match seek(list, &mut pos, tool) {
                END => break,
                next if next == tool => found(at, tool),
                _ => {}
            }
        }
    }
}

/// A scoring term looked up once for [`SeedIndex::scores`]: its equal name part, and for a word
/// term the tools having it as a hint or description word.
pub(super) struct ScoringTerm<'a> {
    pub(super) text: &'a str,
    /// How many times the query says it.
    pub(super) mult: u32,
    pub(super) exact: Option<u32>,
    pub(super) words: Option<[&'a [u32]; 2]>,
}

/// The tools in both sorted lists.
pub(super) fn intersect(mut a: &[u32], mut b: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    while let (Some((&x, a_rest)), Some((&y, b_rest))) = (a.split_first(), b.split_first()) {
        match x.cmp(&y) {
            std::cmp::Ordering::Less => a = a_rest,
            std::cmp::Ordering::Greater => b = b_rest,
            std::cmp::Ordering::Equal => {
                out.push(x);
                (a, b) = (a_rest, b_rest);
            }
        }
    }
    out
}

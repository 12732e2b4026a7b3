//! Which tools a query term hits in the seed index: the hint and description word lists (or a
//! scan of the texts for a term with non-word characters), and the required-terms filter.

use std::collections::HashMap as StdHashMap;

use super::SeedIndex;
use super::gaps::{inner_gaps, may_hold, needed};
use crate::document::Document;
use crate::text::{is_word_byte, is_word_term, lower_into, matches_word_lowered};
use crate::util::distinct::Distinct;

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
        let mut lower = String::new();
        let needs = needed(term);
        let mut check = |hint: bool| -> Vec<u32> {
            let mut matching = |i: u32| self.text_has(i, hint, term, needs, &mut lower);
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
        let hint = check(true);
        let description = check(false);
        (hint, description)
    }

    /// Whether tool `i`'s hint (`hint = true`) or description, lower-cased, has `term` at word
    /// boundaries, where `needs` is the term's [`needed`] gaps; `lower` is scratch. A description
    /// without one of the term's gaps is turned away unread.
    pub(super) fn text_has(
        &self,
        i: u32,
        hint: bool,
        term: &str,
        needs: u32,
        lower: &mut String,
    ) -> bool {
        let text = match (hint, self.tool(i)) {
            (_, None) => None,
            (true, Some(tool)) => tool.search_hint(),
            (false, Some(tool)) => {
                let gaps = self.description_gaps.get(i as usize).copied();
                (gaps.is_some_and(|gaps| may_hold(gaps, needs))).then(|| tool.description())
            }
        };
        text.is_some_and(|text| matches_word_lowered(text, term, lower))
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
    pub(crate) fn word_hits_in(&self, term: &str, gaps: &mut GapHits) -> (Vec<u32>, Vec<u32>) {
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
}

/// A map hashed with foldhash.
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::RandomState>;

/// From this many distinct terms without a word character, [`SeedIndex::gap_hits`] matches
/// them in one pass over the tools' texts (about as long as this many scans for one term).
pub(super) const GAP_PASS: usize = 16;

/// Terms without a word character, each with its (hint, description) hits; none when they were
/// too few for [`SeedIndex::gap_hits`] to take one pass for them.
#[derive(Debug, Default)]
pub(crate) struct GapHits<'q>(pub(super) Option<HashMap<&'q str, Hits>>);

/// The tools whose hint, and whose description, has a term.
type Hits = (Vec<u32>, Vec<u32>);

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

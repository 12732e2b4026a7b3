//! The scoring terms of a query looked up once in the seed index, and the tools a
//! term-at-a-time pass reads them for.

use super::SeedIndex;
use super::postings::{END, seek};
use crate::document::Document;
use crate::text::is_word_term;
use crate::util::distinct::Distinct;

/// A scoring term looked up once for [`SeedIndex::scores`]: its equal name part, and for a word
/// term the tools having it as a hint or description word.
pub(super) struct ScoringTerm<'a> {
    pub(super) text: &'a str,
    /// How many times the query says it.
    pub(super) mult: u32,
    pub(super) exact: Option<u32>,
    pub(super) words: Option<[&'a [u32]; 2]>,
}

/// The tools a term-at-a-time pass scores.
#[derive(Clone, Copy)]
pub(super) enum Among<'a> {
    /// These tools (ascending, each once): a score per position.
    Tools(&'a [u32]),
    /// Every indexed tool, of this many: a score per tool.
    All(usize),
}

impl Among<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Among::Tools(tools) => tools.len(),
            Among::All(n) => *n,
        }
    }

    /// Calls `found` with each position and its tool, in order.
    #[inline]
    pub(super) fn each(&self, mut found: impl FnMut(usize, u32)) {
        match self {
            Among::Tools(tools) => {
                (tools.iter().enumerate()).for_each(|(at, &tool)| found(at, tool))
            }
            Among::All(n) => (0..*n).for_each(|tool| found(tool, tool as u32)),
        }
    }

    /// Calls `found` with the position of each tool of `list` that is among these, and the tool.
    #[inline]
    pub(super) fn for_each(&self, list: &[u32], mut found: impl FnMut(usize, u32)) {
        match self {
            Among::Tools(tools) => for_each_common(list, tools, found),
            Among::All(_) => list.iter().for_each(|&tool| found(tool as usize, tool)),
        }
    }
}

impl<D: Document> SeedIndex<D> {
    /// The distinct terms of `scoring`, each with how often it is said, looked up.
    pub(super) fn scoring_terms<'a>(&'a self, scoring: &'a [String]) -> Vec<ScoringTerm<'a>> {
        let distinct: Distinct = scoring.iter().map(String::as_str).collect();
        (distinct.entries().iter())
            .map(|&(text, mult)| ScoringTerm {
                text,
                mult,
                exact: self.exact_part(text),
                words: is_word_term(text)
                    .then(|| [self.word_tools(text, true), self.word_tools(text, false)]),
            })
            .collect()
    }
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

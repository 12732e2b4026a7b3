//! Exact seed scores of chosen tools: a [`Scorer`] looks a query's terms up once, then scores
//! tool by tool, or term by term when tools times terms are many.

use std::cell::OnceCell;

use super::SeedIndex;
use super::gaps::needed;
use super::partset::{BIT_WORDS, PartSet};
use super::terms::{Among, ScoringTerm};
use crate::document::Document;
use crate::util::dense::Dense;

impl<D: Document> SeedIndex<D> {
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
        let mut lower = String::new();
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
                    let needs = needed(term.text);
                    [true, false]
                        .map(|hint| self.text_has(tool, hint, term.text, needs, &mut lower))
                }
            };
            score += (part + 4 * u32::from(hint) + 2 * u32::from(description)) * term.mult;
        }
        score
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
    pub(super) scoring: &'a [String],
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

    /// How many entries the terms' lists of tools (equal part, containing parts, hint and
    /// description words) hold together: what [`add_to`](Self::add_to) reads. `None` past
    /// `limit`, or when a term has non-word characters (its hits would need a scan of the
    /// tools' text).
    pub(crate) fn entries(&self, limit: usize) -> Option<usize> {
        let index = self.index;
        let mut entries = 0usize;
        for (term, (partial, _)) in self.looked_up().iter().zip(self.partial()) {
            let parts = (term.exact.iter().chain(partial)).map(|&part| index.part_tools(part));
            entries += parts.chain(term.words?).map(<[u32]>::len).sum::<usize>();
            if entries > limit {
                return None;
            }
        }
        Some(entries)
    }

    /// Adds every tool's seed score into `scores` at the position `at` gives it (none: left
    /// out), term by term from each term's lists of tools, as [`score_of`](SeedIndex::score_of)
    /// scores a tool; `parts` is scratch as large as `scores`, zeros before and after. A term
    /// with non-word characters adds nothing ([`entries`](Self::entries) says so first).
    /// Scores are small whole numbers, exact in `f32`.
    pub(crate) fn add_to(
        &self,
        scores: &mut Dense,
        parts: &mut Dense,
        at: impl Fn(u32) -> Option<u32>,
    ) {
        let index = self.index;
        for (term, (partial, _)) in self.looked_up().iter().zip(self.partial()) {
            let Some([hint, description]) = term.words else {
                continue;
            };
            let mult = term.mult as f32;
            // A term's part score is its best part's, once.
            let mut raise = |part: u32, [mcp, plain]: [f32; 2]| {
                for &tool in index.part_tools(part) {
                    if let Some(at) = at(tool) {
                        parts.raise(at, if index.is_mcp(tool) { mcp } else { plain });
                    }
                }
            };
            if let Some(exact) = term.exact {
                raise(exact, [12.0, 10.0]);
            }
            for &other in partial {
                raise(other, [6.0, 5.0]);
            }
            for &tool in parts.touched() {
                scores.add(tool, parts.get(tool) * mult);
            }
            parts.clear();
            for (list, gain) in [(hint, 4.0), (description, 2.0)] {
                for &tool in list {
                    if let Some(at) = at(tool) {
                        scores.add(at, gain * mult);
                    }
                }
            }
        }
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

/// Above this many tools times terms, [`SeedIndex::scores`] scores term by term.
pub(super) const BY_TOOL: usize = 1 << 16;

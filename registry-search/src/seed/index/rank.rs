//! Ranking a keyword query over the seed index: document at a time ([`maxscore`](super::maxscore))
//! for a few terms, term by term ([`by_term`](super::by_term)) for many.

use super::SeedIndex;
use super::maxscore;
use super::scorer::Scorer;
use crate::document::Document;
use crate::text::query::Terms;

/// Past this many scoring terms, [`SeedIndex::rank`] ranks term by term. A request of a few
/// sentences has dozens, most of them common words with lists of thousands of tools.
pub(super) const BY_TERM_RANK: usize = 8;

impl<D: Document> SeedIndex<D> {
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
        maxscore::rank(self, scorer, &terms.required, max_results)
    }
}

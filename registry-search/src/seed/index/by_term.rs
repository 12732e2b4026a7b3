//! Term-at-a-time scoring: each term's lists of tools added up at once, for many tools or many
//! terms, where visiting tool by tool would cost more.

use super::SeedIndex;
use super::letters::term_bit;
use super::terms::{Among, ScoringTerm};
use crate::collector::TopK;
use crate::document::Document;
use crate::text::query::Terms;

impl<D: Document> SeedIndex<D> {
    /// [`rank`](Self::rank) term by term: every tool's seed score added up from the terms'
    /// lists, then the best `max_results` of those passing the required terms.
    pub(super) fn rank_by_term(&self, terms: &Terms, max_results: usize) -> Vec<(usize, u32)> {
        if max_results == 0 || self.is_empty() {
            return Vec::new();
        }
        let allowed = self.required(&terms.required);
        let scoring = self.scoring_terms(&terms.scoring);
        let scores = self.scores_by_term(&scoring, Among::All(self.len()));
        let mut top = TopK::new(max_results);
        let mut threshold = top.threshold();
        let mut consider = |tool: u32, score: u32| {
            if score > threshold {
                top.push(tool, score);
                threshold = top.threshold();
            }
        };
        match allowed {
            Some(tools) => (tools.into_iter())
                .for_each(|tool| consider(tool, scores.get(tool as usize).copied().unwrap_or(0))),
            // Every tool, in one pass over the scores.
            None => (0u32..)
                .zip(&scores)
                .for_each(|(tool, &score)| consider(tool, score)),
        }
        top.into_sorted()
    }

    /// [`scores`](Self::scores) term by term: each of a term's lists of tools (its equal part,
    /// the other parts containing it, its hint and description hits) meets `among`; the
    /// scores are `among`'s, in its order.
    pub(super) fn scores_by_term(&self, terms: &[ScoringTerm], among: Among) -> Vec<u32> {
        let mut scores = vec![0u32; among.len()];
        // For each tool, the last term (position + 1) that gave it its part score: the part
        // score is the equal part's or else a containing part's, once per term.
        let mut part_scored = vec![0u32; among.len()];
        let mut gaps = self.gap_hits(terms.iter().map(|term| term.text));
        let mut parts = Vec::new();
        for (t, term) in terms.iter().enumerate() {
            // Distinct for each term (a query of 2^32 terms would be gigabytes long).
            let (stamp, mult) = (u32::try_from(t + 1).unwrap_or(u32::MAX), term.mult);
            let mut add = |at: usize, gain: u32, part: bool| {
                if let (Some(score), Some(scored)) = (scores.get_mut(at), part_scored.get_mut(at))
                    && !(part && *scored == stamp)
                {
                    *score += gain * mult;
                    if part {
                        *scored = stamp;
                    }
                }
            };
            if let Some(part) = term.exact {
                among.for_each(self.part_tools(part), |at, tool| {
                    add(at, if self.is_mcp(tool) { 12 } else { 10 }, true);
                });
            }
            if let Some(bit) = term_bit(term.text) {
                // A letter: the tools whose name parts hold it, one pass over the tools.
                among.each(|at, tool| {
                    let letters = self.letters(tool);
                    if letters.has(bit) {
                        add(at, if letters.is_mcp() { 6 } else { 5 }, true);
                    }
                });
            } else {
                parts.clear();
                self.containing_parts(term.text, |part| {
                    if Some(part) != term.exact {
                        parts.push(part);
                    }
                });
                parts.sort_unstable();
                parts.dedup();
                for &part in &parts {
                    among.for_each(self.part_tools(part), |at, tool| {
                        add(at, if self.is_mcp(tool) { 6 } else { 5 }, true);
                    });
                }
            }
            let owned;
            let [hint, description] = match term.words {
                Some(lists) => lists,
                None => {
                    owned = self.word_hits_in(term.text, &mut gaps);
                    [owned.0.as_slice(), owned.1.as_slice()]
                }
            };
            among.for_each(hint, |at, _| add(at, 4, false));
            among.for_each(description, |at, _| add(at, 2, false));
        }
        scores
    }
}

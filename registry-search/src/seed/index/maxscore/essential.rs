//! Which of a query's sources are essential at a threshold, and the order terms are scored in.

use std::cmp::Reverse;

use super::Query;
use crate::document::Document;

impl<D: Document> Query<'_, D> {
    /// Orders the terms for scoring: those with only essential sources first (their heads
    /// answer at no cost), then those with some, then the rest; larger bounds first.
    pub(super) fn order_terms(&mut self) {
        let (terms, sources) = (&self.terms, &self.sources);
        let essential = |s: usize| sources.get(s).is_some_and(|source| source.essential);
        self.order.sort_by_key(|&t| {
            let Some(term) = terms.get(t) else {
                return (3, Reverse(0));
            };
            let class = match term.sources().filter(|&s| essential(s)).count() {
                0 => 2,
                n if n == term.sources().count() => 0,
                _ => 1,
            };
            (class, Reverse(term.bound))
        });
    }

    /// Marks the non-essential sources for threshold `theta`: a greedily chosen set whose
    /// combined bound is at most `theta` — whole terms first (their sources hold mostly the
    /// same tools), then single sources, each time the most postings per unit of bound.
    /// Leaves the essential sources in `essential`.
    pub(super) fn choose_essential(
        &mut self,
        order: &Density,
        theta: u32,
        essential: &mut Vec<usize>,
    ) {
        let mut bound = 0;
        for source in &mut self.sources {
            source.essential = true;
        }
        for &t in &order.terms {
            let Some(term) = self.terms.get(t) else {
                continue;
            };
            if bound + term.bound <= theta {
                bound += term.bound;
                for s in term.sources() {
                    if let Some(source) = self.sources.get_mut(s) {
                        source.essential = false;
                    }
                }
            }
        }
        for &s in &order.sources {
            let Some(source) = self.sources.get(s).filter(|source| source.essential) else {
                continue;
            };
            // An exact and a partial source of one term add their larger bound, not both.
            let sibling = match self.terms.get(source.term).map(|term| term.parts) {
                Some([Some(exact), Some(partial)]) if s == exact => Some(partial),
                Some([Some(exact), Some(partial)]) if s == partial => Some(exact),
                _ => None,
            };
            let added = match sibling
                .and_then(|other| self.sources.get(other))
                .filter(|other| !other.essential)
            {
                Some(other) => source.bound.saturating_sub(other.bound),
                None => source.bound,
            };
            if bound + added <= theta {
                bound += added;
                if let Some(source) = self.sources.get_mut(s) {
                    source.essential = false;
                }
            }
        }
        let sources = &self.sources;
        for term in &mut self.terms {
            term.parts_by_heads = (term.parts.iter().flatten())
                .all(|&s| sources.get(s).is_some_and(|source| source.essential));
        }
        self.order_terms();
        essential.clear();
        essential.extend(
            (self.sources.iter().enumerate())
                .filter(|(_, source)| source.essential)
                .map(|(s, _)| s),
        );
    }

    /// Terms and sources, most postings per unit of bound first.
    pub(super) fn density(&self) -> Density {
        let denser = |(cost_a, bound_a): (u64, u32), (cost_b, bound_b): (u64, u32)| {
            (cost_b * u64::from(bound_a)).cmp(&(cost_a * u64::from(bound_b)))
        };
        let source =
            |s: usize| (self.sources.get(s)).map_or((0, 0), |source| (source.cost, source.bound));
        let term = |t: usize| (self.terms.get(t)).map_or((0, 0), |term| (term.cost, term.bound));
        let mut sources: Vec<usize> = (0..self.sources.len()).collect();
        sources.sort_by(|&a, &b| denser(source(a), source(b)));
        // Terms with no sources have no bound and nothing to skip.
        let mut terms: Vec<usize> = (self.terms.iter().enumerate())
            .filter(|(_, term)| term.bound > 0)
            .map(|(t, _)| t)
            .collect();
        terms.sort_by(|&a, &b| denser(term(a), term(b)));
        Density { terms, sources }
    }
}

/// Terms and sources in the order the non-essential set takes them.
pub(super) struct Density {
    terms: Vec<usize>,
    sources: Vec<usize>,
}

//! The last step of the ranked strategy: tools that answer only what the tools above them
//! already answer give way a little.
//!
//! A request asking for two things often finds several tools for the first (the C, C++ 14 and
//! C++ 17 `Versions` endpoints of three compiler APIs) ahead of the one tool for the second. The
//! best candidates are picked one at a time; each time, a remaining tool's score loses
//! [`Weights::redundancy`] times the IDF-weighted share of its matched query terms that a tool
//! already picked matches too. A tool whose name and description match no query term (it was
//! lifted by its server or its parameters) has nothing new to add: its share is whole.
//!
//! [`Weights::redundancy`]: super::Weights::redundancy

use super::{DESCRIPTION, NAME, RankedIndex, idf};

impl RankedIndex {
    /// The best `k` of `candidates` (tools with their scores, best first), picked one at a time
    /// with the redundancy of each remaining tool taken off its score; ties keep the order of
    /// `candidates`. A tool's matched terms are the query terms found in its name or
    /// description.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use registry_core::mcp::load_servers;
    /// use registry_core::search::ranked::{RankedIndex, Weights};
    /// use serde_json::json;
    ///
    /// let tools = json!([
    ///     {"name": "weather_now", "description": "Current weather", "inputSchema": {}},
    ///     {"name": "weather_today", "description": "Weather today", "inputSchema": {}},
    ///     {"name": "hotel_search", "description": "Hotels", "inputSchema": {}},
    /// ]);
    /// let pool: Vec<Arc<_>> = load_servers([("s", &tools)]).tools;
    /// let index = RankedIndex::build(&pool, Weights::default());
    /// // The second weather tool matches nothing the first does not: it gives way.
    /// let candidates = [(0, 10.0), (1, 9.5), (2, 9.0)];
    /// assert_eq!(index.diversify("weather and hotels", &candidates, 2), [0, 2]);
    /// ```
    pub fn diversify(&self, query: &str, candidates: &[(usize, f32)], k: usize) -> Vec<usize> {
        self.diversify_terms(&self.query_terms(query), candidates, k)
    }

    /// [`diversify`](Self::diversify) for a query whose terms are `terms`.
    pub(super) fn diversify_terms(
        &self,
        terms: &[(String, f32)],
        candidates: &[(usize, f32)],
        k: usize,
    ) -> Vec<usize> {
        let k = k.min(candidates.len());
        let weight = self.weights.redundancy;
        if weight <= 0.0 {
            return candidates.iter().take(k).map(|(tool, _)| *tool).collect();
        }
        let n = self.lengths.len() as f32;
        // For each candidate, its matched terms (indices into `terms`) with their IDF.
        let matched: Vec<Vec<(usize, f32)>> = candidates
            .iter()
            .map(|(tool, _)| {
                let tool = *tool as u32;
                terms
                    .iter()
                    .enumerate()
                    .filter_map(|(at, (term, _))| {
                        let postings = self.postings.get(term.as_str())?;
                        let found = postings.binary_search_by_key(&tool, |(t, _)| *t).ok()?;
                        let tf = postings[found].1;
                        (tf[NAME] > 0 || tf[DESCRIPTION] > 0)
                            .then(|| (at, idf(n, postings.len() as f32)))
                    })
                    .collect()
            })
            .collect();
        let mut covered = vec![false; terms.len()];
        let mut left: Vec<usize> = (0..candidates.len()).collect();
        let mut picked = Vec::with_capacity(k);
        while picked.len() < k {
            let adjusted = |c: usize| {
                let mass: f32 = matched[c].iter().map(|(_, idf)| idf).sum();
                let repeated: f32 = matched[c]
                    .iter()
                    .filter(|(at, _)| covered[*at])
                    .map(|(_, idf)| idf)
                    .sum();
                let share = if mass > 0.0 { repeated / mass } else { 1.0 };
                candidates[c].1 * (1.0 - weight * share)
            };
            let mut best = 0;
            for at in 1..left.len() {
                if adjusted(left[at]) > adjusted(left[best]) {
                    best = at;
                }
            }
            let c = left.remove(best);
            for (at, _) in &matched[c] {
                covered[*at] = true;
            }
            picked.push(candidates[c].0);
        }
        picked
    }
}

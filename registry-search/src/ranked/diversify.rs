//! The last step of the BM25F strategy: tools that answer only what the tools above them
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

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::postings::Posting;
use super::{RankedIndex, idf};

/// Up to this many picks times candidates, each pick scans the candidates left.
const SCAN_PICKS: usize = 4096;

impl RankedIndex {
    /// The best `k` of `candidates` (tools with their scores, best first), picked one at a time
    /// with the redundancy of each remaining tool taken off its score; ties keep the order of
    /// `candidates`. A tool's matched terms are the query terms found in its name or
    /// description.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use toolreg_search::ToolDoc;
    /// use toolreg_search::ranked::{RankedIndex, Weights};
    ///
    /// let pool = [
    ///     ("weather_now", "Current weather"),
    ///     ("weather_today", "Weather today"),
    ///     ("hotel_search", "Hotels"),
    /// ]
    /// .map(|(name, description)| Arc::new(ToolDoc::new(name, description)));
    /// let index = RankedIndex::build(&pool, Weights::default());
    /// // The second weather tool matches nothing the first does not: it gives way.
    /// let candidates = [(0, 10.0), (1, 9.5), (2, 9.0)];
    /// assert_eq!(index.diversify("weather and hotels", &candidates, 2), [0, 2]);
    /// ```
    pub fn diversify(&self, query: &str, candidates: &[(usize, f32)], k: usize) -> Vec<usize> {
        self.diversify_terms(&self.query_terms(query), candidates, k)
    }

    /// [`diversify`](Self::diversify) for a query whose terms are `terms`.
    ///
    /// Each pick takes the best adjusted score, the first of the candidates on a tie. The
    /// adjusted scores are kept in a heap and computed again only for the candidates that share
    /// a term with the tool just picked, so `k` picks of many candidates take `O((n + u) log n)`
    /// for `n` candidates and `u` such updates, not `O(k n)`.
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
        let matched = self.matched_terms(terms, candidates);
        let mut picker = Picker {
            candidates,
            matched: &matched,
            covered: vec![false; terms.len()],
            weight,
        };
        // A few picks among few candidates scan them, as the rule reads. Otherwise a heap
        // picks, which needs finite scores and weight: then no adjusted score is NaN, and the
        // heap's order is the order of `>`.
        let few = k.saturating_mul(candidates.len()) <= SCAN_PICKS;
        let finite = weight.is_finite() && candidates.iter().all(|(_, score)| score.is_finite());
        let mut picked = match !few && finite {
            true => picker.pick_by_heap(terms.len(), k),
            false => picker.pick_by_scan(k),
        };
        // Each pick, a candidate's position, becomes its tool.
        picked.retain_mut(|c| match candidates.get(*c) {
            Some((tool, _)) => {
                *c = *tool;
                true
            }
            None => false,
        });
        picked
    }

    /// For each candidate, the query terms (positions in `terms`, ascending) it matches in its
    /// name or description, with their IDF.
    ///
    /// A term's postings are walked when they are fewer than the candidates, otherwise each
    /// candidate is looked up in them: a long query over many candidates costs at most the
    /// postings of its terms, not terms times candidates.
    fn matched_terms(&self, terms: &[(String, f32)], candidates: &[(usize, f32)]) -> Matched {
        let n = self.lengths.len() as f32;
        // (candidate, term, IDF), by term.
        let mut hits: Vec<(usize, usize, f32)> = Vec::with_capacity(candidates.len());
        // (tool, candidate) by tool, for walking postings; made the first time it is needed.
        let mut by_tool: Vec<(u32, usize)> = Vec::new();
        for (at, (term, _)) in terms.iter().enumerate() {
            let Some(postings) = self.postings.get(term.as_str()) else {
                continue;
            };
            let idf = idf(n, postings.len() as f32);
            let counts = |posting: &&Posting| posting.in_name() || posting.in_description();
            let postings = postings.list();
            if postings.len() < candidates.len() {
                if by_tool.is_empty() {
                    by_tool = (candidates.iter().enumerate())
                        .map(|(c, (tool, _))| (*tool as u32, c))
                        .collect();
                    by_tool.sort_unstable();
                }
                for posting in postings.iter().filter(counts) {
                    let tool = posting.tool();
                    let first = by_tool.partition_point(|(t, _)| *t < tool);
                    let same = by_tool.get(first..).unwrap_or_default();
                    for (_, c) in same.iter().take_while(|(t, _)| *t == tool) {
                        hits.push((*c, at, idf));
                    }
                }
            } else {
                for (c, (tool, _)) in candidates.iter().enumerate() {
                    let tool = *tool as u32;
                    let found = postings.binary_search_by_key(&tool, |p| p.tool()).ok();
                    if found
                        .and_then(|found| postings.get(found))
                        .is_some_and(|posting| counts(&posting))
                    {
                        hits.push((c, at, idf));
                    }
                }
            }
        }
        Matched::new(hits, candidates.len())
    }
}

/// Each candidate's matched terms ([`RankedIndex::matched_terms`]), in one list.
struct Matched {
    /// (candidate, term, IDF), by candidate, then term.
    hits: Vec<(usize, usize, f32)>,
    /// Where each candidate's run of `hits` starts, and the end of the last one.
    starts: Vec<usize>,
}

impl Matched {
    /// The matches `hits` (candidate below `n`, term, IDF; each candidate's in term order) of
    /// `n` candidates, by a counting sort on the candidate, which keeps that order.
    fn new(hits: Vec<(usize, usize, f32)>, n: usize) -> Matched {
        // How many hits each candidate has, then where its run starts.
        let mut starts = vec![0; n + 1];
        for &(c, _, _) in &hits {
            if let Some(count) = starts.get_mut(c + 1) {
                *count += 1;
            }
        }
        let mut sum = 0;
        for start in &mut starts {
            sum += *start;
            *start = sum;
        }
        let mut next = starts.clone();
        let mut sorted = vec![(0, 0, 0.0); sum];
        for hit in hits {
            if let Some(at) = next.get_mut(hit.0)
                && let Some(slot) = sorted.get_mut(*at)
            {
                *slot = hit;
                *at += 1;
            }
        }
        Matched {
            hits: sorted,
            starts,
        }
    }

    /// Candidate `c`'s (candidate, term, IDF), by term.
    fn of(&self, c: usize) -> &[(usize, usize, f32)] {
        let (Some(&from), Some(&to)) = (self.starts.get(c), self.starts.get(c + 1)) else {
            return &[];
        };
        self.hits.get(from..to).unwrap_or_default()
    }
}

/// The state of one diversified pick.
struct Picker<'a> {
    candidates: &'a [(usize, f32)],
    matched: &'a Matched,
    /// The terms matched by a tool picked so far.
    covered: Vec<bool>,
    weight: f32,
}

impl Picker<'_> {
    /// Candidate `c`'s score less its redundancy with the tools picked so far.
    fn adjusted(&self, c: usize) -> f32 {
        let matched = self.matched.of(c);
        let mass: f32 = matched.iter().map(|(_, _, idf)| idf).sum();
        let repeated: f32 = matched
            .iter()
            .filter(|(_, at, _)| self.covered.get(*at).copied().unwrap_or(false))
            .map(|(_, _, idf)| idf)
            .sum();
        let share = if mass > 0.0 { repeated / mass } else { 1.0 };
        let score = self.candidates.get(c).map_or(0.0, |(_, score)| *score);
        score * (1.0 - self.weight * share)
    }

    /// Marks candidate `c`'s terms covered, calling `newly` with each that was not.
    fn cover(&mut self, c: usize, mut newly: impl FnMut(usize)) {
        for (_, at, _) in self.matched.of(c) {
            if let Some(covered) = self.covered.get_mut(*at)
                && !*covered
            {
                *covered = true;
                newly(*at);
            }
        }
    }

    /// `k` picks, each by a scan of the candidates left: `O(k n)`, for few candidates, or for
    /// scores that may be NaN or infinite, whose comparisons a heap cannot order.
    fn pick_by_scan(&mut self, k: usize) -> Vec<usize> {
        let mut left: Vec<usize> = (0..self.candidates.len()).collect();
        let mut picked = Vec::with_capacity(k);
        while picked.len() < k {
            let mut best: Option<(usize, f32)> = None;
            for (at, &c) in left.iter().enumerate() {
                let score = self.adjusted(c);
                // The first candidate, then any that beats the best so far.
                if best.is_none_or(|(_, best)| score > best) {
                    best = Some((at, score));
                }
            }
            let Some((at, _)) = best else { break };
            let c = left.remove(at);
            self.cover(c, |_| {});
            picked.push(c);
        }
        picked
    }

    /// `k` picks from a heap of adjusted scores, each kept current: when a pick covers a
    /// term, the candidates left that match it are scored again (with the same sums, in the
    /// same order, as [`pick_by_scan`](Self::pick_by_scan)).
    fn pick_by_heap(&mut self, terms: usize, k: usize) -> Vec<usize> {
        let n = self.candidates.len();
        // The candidates matching each term.
        let mut by_term: Vec<Vec<usize>> = vec![Vec::new(); terms];
        for &(c, at, _) in &self.matched.hits {
            if let Some(list) = by_term.get_mut(at) {
                list.push(c);
            }
        }
        let mut current: Vec<f32> = (0..n).map(|c| self.adjusted(c)).collect();
        let mut heap: BinaryHeap<Entry> = (current.iter().enumerate())
            .map(|(c, &score)| Entry::new(score, c))
            .collect();
        let mut done = vec![false; n];
        // The pick that last scored a candidate again, so that each is scored once a pick.
        let mut stamp = vec![usize::MAX; n];
        let mut picked = Vec::with_capacity(k);
        while picked.len() < k {
            let Some(entry) = heap.pop() else { break };
            let c = entry.candidate;
            // An entry is stale once its candidate is picked or scored again.
            let fresh = current
                .get(c)
                .is_some_and(|&score| Entry::new(score, c) == entry);
            if !fresh || done.get(c).copied().unwrap_or(true) {
                continue;
            }
            if let Some(done) = done.get_mut(c) {
                *done = true;
            }
            picked.push(c);
            let pick = picked.len();
            let mut newly = Vec::new();
            self.cover(c, |at| newly.push(at));
            for at in newly {
                for &other in by_term.get(at).map(Vec::as_slice).unwrap_or_default() {
                    let (Some(mark), Some(false)) =
                        (stamp.get_mut(other), done.get(other).copied())
                    else {
                        continue;
                    };
                    if *mark == pick {
                        continue;
                    }
                    *mark = pick;
                    let score = self.adjusted(other);
                    if let Some(slot) = current.get_mut(other) {
                        *slot = score;
                    }
                    heap.push(Entry::new(score, other));
                }
            }
        }
        picked
    }
}

/// A heap entry: a higher score first, then the earlier candidate.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    /// The score's bits, -0 read as +0 so that the two tie as `>` has them (no score is NaN).
    score: OrderedScore,
    candidate: usize,
}

impl Entry {
    fn new(score: f32, candidate: usize) -> Entry {
        Entry {
            score: OrderedScore(score + 0.0),
            candidate,
        }
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.score.cmp(&other.score)).then_with(|| other.candidate.cmp(&self.candidate))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// An `f32` in the total order of [`f32::total_cmp`].
#[derive(Debug, Clone, Copy)]
struct OrderedScore(f32);

impl PartialEq for OrderedScore {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for OrderedScore {}

impl PartialOrd for OrderedScore {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedScore {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The matches of candidates each given as a list of (term, IDF).
    fn matched(lists: &[Vec<(usize, f32)>]) -> Matched {
        let hits = (lists.iter().enumerate())
            .flat_map(|(c, list)| list.iter().map(move |&(at, idf)| (c, at, idf)))
            .collect();
        Matched::new(hits, lists.len())
    }

    /// A small deterministic generator.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn diversifying_by_heap_equals_the_scan() {
        let mut seed = 7;
        for round in 0..40 {
            let (n, terms) = (1 + round * 7, 1 + round % 9);
            // Few distinct scores, so that adjusted scores tie; zeros and negative ones too.
            let candidates: Vec<(usize, f32)> = (0..n)
                .map(|c| {
                    let score = match lcg(&mut seed) % 9 {
                        0 => 0.0,
                        1 => -0.0,
                        2 => -1.5,
                        k => k as f32 * 0.75,
                    };
                    (c * 3, score)
                })
                .collect();
            let idf = [0.5, 1.0, 1.25, 2.0];
            let lists: Vec<Vec<(usize, f32)>> = (0..n)
                .map(|_| {
                    (0..terms)
                        .filter(|_| lcg(&mut seed) % 3 == 1)
                        .map(|at| (at, idf[at % idf.len()]))
                        .collect()
                })
                .collect();
            let matched = matched(&lists);
            for weight in [0.1, 0.5, 1.0, 3.0] {
                for k in [1, n / 2, n] {
                    let picker = || Picker {
                        candidates: &candidates,
                        matched: &matched,
                        covered: vec![false; terms],
                        weight,
                    };
                    assert_eq!(
                        picker().pick_by_heap(terms, k),
                        picker().pick_by_scan(k),
                        "round {round}, weight {weight}, k {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_score_that_is_not_finite_is_picked_by_the_scan() {
        let candidates = [(0, f32::NAN), (1, 2.0), (2, f32::INFINITY), (3, 1.0)];
        let matched = matched(&[vec![(0, 1.0)], vec![(0, 1.0)], vec![], vec![(1, 1.0)]]);
        let picker = Picker {
            candidates: &candidates,
            matched: &matched,
            covered: vec![false; 2],
            weight: 0.5,
        };
        // NaN is the best so far until a later score beats it, which none does; then the
        // infinite score of a tool that matches nothing new beats the rest.
        let mut scan = picker;
        assert_eq!(scan.pick_by_scan(4), [0, 2, 1, 3]);
    }
}
